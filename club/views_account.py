"""Your login: the address for a forgotten password, the way to change the password, and
your own data at each of your clubs to download (``clubdata.mydata``).

Changing and resetting the password are Django's own views (config/urls.py, templates in
templates/registration/); a reset link can only reach a member who has left an address here.
Too many wrong passwords for one username from one address get ``lockout``'s page from
django-axes (settings: LOGIN_FAILURE_LIMIT, LOGIN_COOLOFF_MINUTES).
"""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from club.forms_account import AccountEmailForm
from club.models import Member, User


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def account(request: HttpRequest) -> HttpResponse:
    form = AccountEmailForm(request.POST or None, instance=request.user)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, _("Your e-mail address was saved."))
        return redirect("account")
    # "Your data": one line per club, each with the club's download of the member's own data.
    memberships = (
        Member.objects.filter(user=request.user, active=True)
        .select_related("club")
        .order_by("club__name")
    )
    return render(request, "registration/account.html", {"form": form, "memberships": memberships})


def lockout(request: HttpRequest, response: HttpResponse | None, credentials: dict | None):
    """django-axes' answer to a locked-out login (settings.AXES_LOCKOUT_CALLABLE): the login
    page's layout, in the member's language, saying how long to wait."""
    minutes = max(1, round(settings.AXES_COOLOFF_TIME.total_seconds() / 60))
    return render(
        request,
        "registration/lockout.html",
        {"minutes": minutes},
        status=settings.AXES_HTTP_RESPONSE_CODE,
    )


def axes_username(request: HttpRequest, credentials: dict | None) -> str | None:
    """The username django-axes counts failures for (settings.AXES_USERNAME_CALLABLE), cut to
    the longest a login can have: Django's login form checks no length, and PostgreSQL refuses
    a 10 kB username in axes' table with a server error instead of a refused login."""
    field = User.USERNAME_FIELD
    username = (credentials or request.POST).get(field)
    if username is None:
        return None
    return str(username).replace("\x00", "")[: User._meta.get_field(field).max_length]
