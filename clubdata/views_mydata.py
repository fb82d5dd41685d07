"""A member's own data to download, and an admin's erasure of a member (``clubdata.mydata``,
``clubdata.erase``).

A member downloads his own data from *Your login* (``/c/<club>/me/data.json`` and ``.pdf``);
an admin downloads any member's of his club from the member's page. Anyone else's data is
404, as another club's is. Erasing is the admins': a confirm page that says what happens and
what is kept, then a POST with a one-time key.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_safe

from club.access import club_view
from club.models import Member, Role
from clubdata import erase, mydata
from core.forms import IdempotentForm


def _person(request: HttpRequest, member_id: int | None) -> Member:
    """The member whose data is asked for: oneself, or (for an admin) anyone of the club."""
    if member_id is None or member_id == request.member.pk:
        return request.member
    if not request.member.can(Role.ADMIN):
        raise Http404
    person = Member.objects.for_club(request.club).select_related("club", "user")
    person = person.filter(pk=member_id).first()
    if person is None:
        raise Http404
    return person


def _download(content: bytes, content_type: str, name: str) -> HttpResponse:
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    response["Cache-Control"] = "private, no-store"
    return response


@require_safe
@club_view()
def data_json(request: HttpRequest, member_id: int | None = None) -> HttpResponse:
    person = _person(request, member_id)
    name = f"{request.club.slug}-member-{person.pk}.json"
    return _download(mydata.member_data_json(person), "application/json; charset=utf-8", name)


@require_safe
@club_view()
def data_pdf(request: HttpRequest, member_id: int | None = None) -> HttpResponse:
    person = _person(request, member_id)
    name = f"{request.club.slug}-member-{person.pk}.pdf"
    return _download(mydata.member_data_pdf(person), "application/pdf", name)


@require_http_methods(["GET", "HEAD", "POST"])
@club_view(role=Role.ADMIN)
def member_erase(request: HttpRequest, member_id: int) -> HttpResponse:
    person = Member.objects.for_club(request.club).filter(pk=member_id).first()
    if person is None:
        raise Http404
    form = IdempotentForm(request.POST if request.method == "POST" else None)
    errors: list[str] = []
    if request.method == "POST":
        if person.erased_at is not None:
            messages.info(request, _("%(name)s was already erased.") % {"name": person.name})
            return redirect("club:member-list", club_slug=request.club.slug)
        if form.is_valid():
            try:
                erased = erase.erase_member(
                    person, request.member, key=form.cleaned_data["submission"]
                )
            except erase.ErasureRefused as refusal:
                errors = refusal.messages
            else:
                messages.success(
                    request,
                    _("The member's personal data was erased; the books call him %(name)s.")
                    % {"name": erased.name},
                )
                return redirect("club:member-list", club_slug=request.club.slug)
        else:
            errors = form.errors["submission"]
        form = IdempotentForm()
    context = {"facts": erase.facts(person, request.member), "form": form, "errors": errors}
    return render(request, "clubdata/erase_confirm.html", context, status=422 if errors else 200)
