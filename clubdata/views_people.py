"""People over the years, the pages: edit a member, leave and return, CSV import and export,
merge. Admins only; every member is looked up within the club (another club's ids: 404)."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.core import signing
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from club.access import club_view
from club.forms import MemberForm
from club.models import Member, Role
from clubdata import csv_members, merge, people
from core import inputs
from core.forms import IdempotentForm
from core.money import format_ore

IMPORT_SALT = "clubdata.csv_members.preview"
IMPORT_MAX_AGE = 3600  # seconds between the preview and "Import all"


def _member(request: HttpRequest, member_id: int) -> Member:
    member = Member.objects.for_club(request.club).filter(pk=member_id).first()
    if member is None:
        raise Http404
    return member


class MemberEditForm(MemberForm):
    email = forms.EmailField(label=gettext_lazy("E-mail"), max_length=254, required=False)

    field_order = ["name", "swish_number", "email", "roles"]


@require_http_methods(["GET", "HEAD", "POST"])
@club_view(role=Role.ADMIN)
def member_edit(request: HttpRequest, member_id: int) -> HttpResponse:
    member = _member(request, member_id)
    initial = {
        "name": member.name,
        "swish_number": member.swish_number,
        "email": member.email,
        "roles": sorted(member.roles - {Role.MEMBER}),
    }
    form = MemberEditForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            people.edit_member(
                member,
                name=form.cleaned_data["name"],
                swish_number=form.cleaned_data["swish_number"],
                email=form.cleaned_data["email"],
                roles=form.cleaned_data["roles"],
            )
        except ValidationError as error:
            form.add_error("roles" if error.code == "last_admin" else "name", error)
        else:
            messages.success(request, _("%(name)s was saved.") % {"name": member.name})
            return redirect(
                "clubdata:member-edit", club_slug=request.club.slug, member_id=member.pk
            )
    status = 422 if form.errors else 200
    balance = people.balance_ore(member)
    context = {
        "person": member,
        "form": form,
        "balance": balance,
        "owes": format_ore(-balance) if balance < 0 else "",
        "owed": format_ore(balance) if balance > 0 else "",
    }
    return render(request, "clubdata/member_edit.html", context, status=status)


@require_POST
@club_view(role=Role.ADMIN)
def member_leave(request: HttpRequest, member_id: int) -> HttpResponse:
    member = _member(request, member_id)
    try:
        people.leave(member)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, _("%(name)s has left the club.") % {"name": member.name})
    if member.pk == request.member.pk and not Member.objects.get(pk=member.pk).active:
        return redirect("club:home")
    return redirect("clubdata:member-edit", club_slug=request.club.slug, member_id=member.pk)


@require_POST
@club_view(role=Role.ADMIN)
def member_return(request: HttpRequest, member_id: int) -> HttpResponse:
    member = _member(request, member_id)
    try:
        people.come_back(member)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, _("%(name)s is back in the club.") % {"name": member.name})
    return redirect("clubdata:member-edit", club_slug=request.club.slug, member_id=member.pk)


# --- CSV -----------------------------------------------------------------------------------


class UploadForm(forms.Form):
    file = forms.FileField(label=gettext_lazy("CSV file"))


class ImportForm(IdempotentForm):
    rows = forms.CharField(widget=forms.HiddenInput)


def _signed_rows(request: HttpRequest, rows: list[csv_members.Row]) -> str:
    data = {"club": request.club.pk, "rows": [row.as_json() for row in rows]}
    return signing.dumps(data, salt=IMPORT_SALT, compress=True)


def _unsigned_rows(request: HttpRequest, token: str) -> list[csv_members.Row]:
    try:
        data = signing.loads(token, salt=IMPORT_SALT, max_age=IMPORT_MAX_AGE)
        if data["club"] != request.club.pk:
            raise ValueError
        return [csv_members.Row.from_json(row) for row in data["rows"]][: csv_members.MAX_ROWS]
    except (signing.BadSignature, ValueError, KeyError, TypeError):
        raise ValidationError(
            _("The preview has expired or was changed; upload the file again."), code="signed"
        ) from None


@require_http_methods(["GET", "HEAD", "POST"])
@club_view(role=Role.ADMIN)
def members_import(request: HttpRequest) -> HttpResponse:
    upload = UploadForm()
    context: dict = {"upload": upload}
    status = 200
    if request.method == "POST" and "rows" in request.POST:
        form = ImportForm(request.POST)
        try:
            if not form.is_valid():
                raise ValidationError(_("Upload the file again."), code="form")
            rows = _unsigned_rows(request, form.cleaned_data["rows"])
            added = csv_members.import_rows(
                request.club, rows, submission=form.cleaned_data["submission"], by=request.user
            )
        except ValidationError as error:
            messages.error(request, " ".join(error.messages))
            status = 422
        else:
            if added is None:
                messages.info(request, _("These members were imported already."))
            else:
                messages.success(request, _("%(n)s members were added.") % {"n": len(added)})
            return redirect("club:member-list", club_slug=request.club.slug)
    elif request.method == "POST":
        upload = UploadForm(request.POST, request.FILES)
        context["upload"] = upload
        status = 422
        if upload.is_valid():
            uploaded = upload.cleaned_data["file"]
            try:
                if uploaded.size > csv_members.MAX_BYTES:
                    raise csv_members.CsvError(
                        _("The file is too large: at most %(kb)s kB.")
                        % {"kb": csv_members.MAX_BYTES // 1000},
                        code="too_large",
                    )
                rows = csv_members.read(uploaded.read(csv_members.MAX_BYTES + 1), request.club)
            except ValidationError as error:
                upload.add_error("file", error)
            else:
                status = 200
                problems = sum(1 for row in rows if row.problems)
                context.update(rows=rows, problems=problems)
                if not problems:  # "Import all" only for a file without a problem
                    context["form"] = ImportForm(initial={"rows": _signed_rows(request, rows)})
    return render(request, "clubdata/import_members.html", context, status=status)


@require_safe
@club_view(role=Role.ADMIN)
def members_export(request: HttpRequest) -> HttpResponse:
    response = HttpResponse(
        "\ufeff" + csv_members.export(request.club), content_type="text/csv; charset=utf-8"
    )
    response["Content-Disposition"] = f'attachment; filename="{request.club.slug}-members.csv"'
    return response


# --- merge ---------------------------------------------------------------------------------


class MergeForm(IdempotentForm):
    guest = inputs.TextField(max_length=100, required=False, widget=forms.HiddenInput)
    member = forms.IntegerField(required=False, widget=forms.HiddenInput)
    into = forms.IntegerField(widget=forms.HiddenInput)


def _merge_parties(request: HttpRequest, data) -> tuple[Member, Member | None, str]:
    """The member to keep and the duplicate (or the guest's name) from the request, all of
    this club (404 otherwise)."""
    try:
        into = _member(request, inputs.parse_int(data.get("into"), lo=1, hi=2**62))
        duplicate = None
        if data.get("member"):
            duplicate = _member(request, inputs.parse_int(data.get("member"), lo=1, hi=2**62))
        guest = inputs.clean_text(data.get("guest", ""), max_length=100).strip()
    except ValidationError:
        raise Http404 from None
    return into, duplicate, guest


@require_http_methods(["GET", "HEAD", "POST"])
@club_view(role=Role.ADMIN)
def member_merge(request: HttpRequest) -> HttpResponse:
    club = request.club
    data = request.POST if request.method == "POST" else request.GET
    if not data.get("into"):
        context = {
            "guests": merge.guests(club),
            "people": Member.objects.for_club(club).order_by("name"),
            "active": Member.objects.for_club(club).active().order_by("name"),
        }
        return render(request, "clubdata/merge_choose.html", context)
    into, duplicate, guest = _merge_parties(request, data)
    status = 200
    if request.method == "POST":
        form = MergeForm(request.POST)
        if form.is_valid():
            try:
                done = merge.merge(
                    club,
                    into,
                    duplicate=duplicate,
                    guest="" if duplicate else guest,
                    submission=form.cleaned_data["submission"],
                    by=request.user,
                )
            except ValidationError as error:
                messages.error(request, " ".join(error.messages))
                status = 422
            else:
                if done is not None:
                    messages.success(
                        request,
                        _("%(who)s was merged into %(into)s.")
                        % {"who": done.who, "into": into.name},
                    )
                return redirect("clubdata:member-edit", club_slug=club.slug, member_id=into.pk)
        else:
            status = 422
    else:
        form = MergeForm(
            initial={"guest": guest, "member": duplicate.pk if duplicate else None, "into": into.pk}
        )
    found = merge.plan(club, into, duplicate=duplicate, guest="" if duplicate else guest)
    context = {"plan": found, "form": form, "money": format_ore(abs(found.money_ore))}
    return render(request, "clubdata/merge_confirm.html", context, status=status)
