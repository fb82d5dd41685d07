"""Club pages: start page, members and invites, switching clubs."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from club import members, panels
from club.access import CURRENT_CLUB_SESSION_KEY, club_view, current_club_for, get_member
from club.forms import InviteAcceptForm, MemberForm
from club.models import Club, Member, Role


@require_safe
@login_required
def home(request: HttpRequest) -> HttpResponse:
    club = current_club_for(request)
    if club is None:
        return render(request, "club/no_club.html")
    return redirect("club:club-home", club_slug=club.slug)


@require_safe
@club_view()
def club_home(request: HttpRequest) -> HttpResponse:
    """The start page: what to do, then the other apps' panels (your balance, the pots, the
    latest winners: ``club.panels``)."""
    return render(request, "club/club_home.html", {"panels": panels.render_panels(request)})


@require_safe
@login_required
def club_list(request: HttpRequest) -> HttpResponse:
    clubs = Club.objects.for_user(request.user)
    return render(request, "club/club_list.html", {"clubs": clubs})


@require_POST
@login_required
def club_switch(request: HttpRequest, club_slug: str) -> HttpResponse:
    member = get_member(request.user, club_slug)
    request.session[CURRENT_CLUB_SESSION_KEY] = member.club.slug
    return redirect("club:club-home", club_slug=member.club.slug)


@require_http_methods(["GET", "HEAD", "POST"])
@club_view()
def member_list(request: HttpRequest) -> HttpResponse:
    form = MemberForm(request.POST or None)
    if request.method == "POST":
        if not request.member.can(Role.ADMIN):  # as the page: the form is shown to admins
            raise PermissionDenied(_("Your role at this club does not allow this."))
        if form.is_valid():
            try:
                added = members.add_member(
                    request.club,
                    form.cleaned_data["name"],
                    roles=form.cleaned_data["roles"],
                    swish_number=form.cleaned_data["swish_number"],
                )
            except ValidationError as error:
                form.add_error("name", error)
            else:
                messages.success(request, _("%(name)s was added.") % {"name": added.name})
                return redirect("club:member-list", club_slug=request.club.slug)
    people = list(Member.objects.for_club(request.club).prefetch_related("memberships"))
    left = [person for person in people if not person.active]
    context = {"people": people, "left": left, "form": form}
    return render(request, "club/member_list.html", context)


@require_POST
@club_view(role=Role.ADMIN)
def member_invite(request: HttpRequest, member_id: int) -> HttpResponse:
    member = Member.objects.for_club(request.club).filter(pk=member_id, active=True).first()
    if member is None:
        raise Http404
    if member.user_id is not None:
        messages.info(request, _("%(name)s already has a login.") % {"name": member.name})
        return redirect("club:member-list", club_slug=request.club.slug)
    token = member.new_invite()
    link = request.build_absolute_uri(reverse("invite-accept", args=[token]))
    return render(request, "club/member_invite.html", {"invited": member, "link": link})


@require_http_methods(["GET", "HEAD", "POST"])
def invite_accept(request: HttpRequest, token: str) -> HttpResponse:
    member = members.member_for_invite(token)
    if member is None:
        return render(request, "club/invite_invalid.html", status=404)
    form = InviteAcceptForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            user = members.accept_invite(
                member, form.cleaned_data["username"], form.cleaned_data["password1"]
            )
        except ValidationError as error:
            # Another request used the invite, or took the name, a moment ago.
            if error.code == "used":
                return render(request, "club/invite_invalid.html", status=409)
            form.add_error("username", error)
            return render(
                request, "club/invite_accept.html", {"invited": member, "form": form}, status=409
            )
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        request.session[CURRENT_CLUB_SESSION_KEY] = member.club.slug
        messages.success(request, _("Welcome to %(club)s!") % {"club": member.club.name})
        return redirect("club:club-home", club_slug=member.club.slug)
    return render(request, "club/invite_accept.html", {"invited": member, "form": form})
