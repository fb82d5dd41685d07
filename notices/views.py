"""The member's choice of mail, and the unsubscribe link (no login: the signed token is the
key; CSRF-exempt so a mail client's one-click POST, RFC 8058, works)."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from club.access import club_view
from club.models import Member
from notices import outbox
from notices.forms import MailChoiceForm
from notices.mail import read_unsubscribe_token
from notices.models import MailKind, OwedMail, OwedStatus


def panel_context(request: HttpRequest) -> dict:
    failed = 0
    if request.member.is_admin:
        failed = OwedMail.objects.filter(club=request.club, status=OwedStatus.FAILED).count()
    return {"failed": failed}


@require_http_methods(["GET", "HEAD", "POST"])
@club_view()
def mail_choices(request: HttpRequest) -> HttpResponse:
    member = request.member
    choice = outbox.choice_for(member, translation.get_language())
    form = MailChoiceForm(request.POST or None, instance=choice)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, _("Saved."))
        return redirect("notices:choices", club_slug=request.club.slug)
    context = {
        "form": form,
        "has_address": bool(member.email),
        "failed": outbox.failed_for(request.club) if member.is_admin else None,
    }
    return render(
        request, "notices/mail_choices.html", context, status=422 if form.is_bound else 200
    )


@csrf_exempt
@require_http_methods(["GET", "HEAD", "POST"])
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """GET asks (a link checker or a preview must not unsubscribe anyone); POST, the page's
    button or the mail client's one-click, turns that kind of mail off. Again: no change."""
    read = read_unsubscribe_token(token)
    if read is None:
        raise Http404(_("This link is not valid."))
    member_id, kind = read
    member = Member.objects.select_related("club").filter(pk=member_id).first()
    if member is None:
        raise Http404(_("This link is not valid."))
    done = request.method == "POST"
    if done:
        outbox.turn_off(member, kind)
    return render(
        request,
        "notices/unsubscribe.html",
        {"kind_label": MailKind(kind).label, "done": done, "mail_club": member.club},
    )
