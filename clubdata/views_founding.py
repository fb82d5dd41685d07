"""Founding a club from the app (``clubdata.founding``): the form, and the short name it
suggests while the name is typed."""

from __future__ import annotations

import copy

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse_lazy
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_safe

from club.access import CURRENT_CLUB_SESSION_KEY
from club.forms import MemberForm
from clubdata import founding
from core import inputs
from engine import registry

# Where each refusal of ``found_club`` belongs on the form.
_FIELD_OF = {
    "slug_taken": "slug",
    "slug_invalid": "slug",
    "slug_exhausted": "slug",
    "name_required": "name",
    "swish_number": "swish_number",
    "game_unknown": "games",
    "no_games": "games",
}


def _swish_field() -> forms.Field:
    field = copy.deepcopy(MemberForm.base_fields["swish_number"])
    field.label = gettext_lazy("The club's Swish number")
    field.help_text = gettext_lazy("Members pay the club here; you can add it later.")
    return field


class FoundClubForm(forms.Form):
    name = inputs.TextField(
        label=gettext_lazy("Club name"),
        max_length=founding.NAME_MAX_LENGTH,
        widget=forms.TextInput(
            attrs={
                "autocomplete": "off",
                # The short name's suggestion follows the name as it is typed.
                "hx-get": reverse_lazy("clubdata:club-found-slug"),
                "hx-trigger": "input changed delay:400ms",
                "hx-target": "#slug-hint",
                "hx-swap": "outerHTML",
            }
        ),
    )
    slug = inputs.TextField(
        label=gettext_lazy("Short name"),
        max_length=founding.SLUG_MAX_LENGTH,
        required=False,
        widget=forms.TextInput(attrs={"autocapitalize": "none", "autocomplete": "off"}),
    )
    swish_number = _swish_field()
    games = forms.MultipleChoiceField(
        label=gettext_lazy("Games the club plays"),
        widget=forms.CheckboxSelectMultiple,
        error_messages={
            "required": gettext_lazy("Choose at least one game the club plays."),
            "invalid_choice": gettext_lazy("Choose games from the list."),
        },
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        games = registry.all_games()
        self.fields["games"].choices = [(g.key, _(g.name)) for g in games]
        self.fields["games"].initial = [g.key for g in games]

    def clean_slug(self) -> str:
        slug = self.cleaned_data["slug"]
        return founding.clean_slug(slug) if slug else ""


def _refuse_unless_allowed(request: HttpRequest) -> None:
    if not founding.may_found(request.user):
        raise PermissionDenied(
            _(
                "On this server new clubs are made by its administrators "
                "(manage.py create_club). Ask them to make your club, or ask your club's "
                "admin for an invite link."
            )
        )


def _suggestion(name: object) -> str:
    try:
        return founding.suggest_slug(founding.clean_name(name))
    except ValidationError:
        return ""


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def club_found(request: HttpRequest) -> HttpResponse:
    """The form that founds a club; the founder lands on its start page as its admin."""
    _refuse_unless_allowed(request)
    form = FoundClubForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            club = founding.found_club(
                request.user,
                data["name"],
                slug=data["slug"],
                swish_number=data["swish_number"],
                games=data["games"],
            )
        except ValidationError as error:
            form.add_error(_FIELD_OF.get(error.code), error)
        else:
            request.session[CURRENT_CLUB_SESSION_KEY] = club.slug
            messages.success(
                request, _("%(club)s is ready, and you are its admin.") % {"club": club.name}
            )
            return redirect("club:club-home", club_slug=club.slug)
    suggestion = _suggestion(request.POST.get("name")) if form.is_bound else ""
    return render(
        request,
        "clubdata/found.html",
        {"form": form, "suggestion": suggestion},
        status=422 if form.is_bound else 200,
    )


@require_safe
@login_required
def club_found_slug(request: HttpRequest) -> HttpResponse:
    """The short name the server would choose for the name typed so far (the form's hint)."""
    _refuse_unless_allowed(request)
    return render(
        request,
        "clubdata/found.html#slug-hint",
        {"suggestion": _suggestion(request.GET.get("name", ""))},
    )
