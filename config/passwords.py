"""The forgotten-password page with a limit on the mails it sends (``config.throttle``): over
the limit it answers exactly as when a mail went out, so the page tells a stranger nothing
about which addresses have an account, nor that he was limited."""

from __future__ import annotations

import logging

from django.contrib.auth import views as auth_views
from django.http import HttpResponseRedirect

from config.middleware import client_ip
from config.throttle import reset_mail_allowed

log = logging.getLogger("protokoll.throttle")


class PasswordResetView(auth_views.PasswordResetView):
    def form_valid(self, form):
        client = client_ip(self.request)
        if reset_mail_allowed(form.cleaned_data["email"], client):
            return super().form_valid(form)
        log.warning("password reset mail not sent: over the hourly limit (client %s)", client)
        return HttpResponseRedirect(self.get_success_url())
