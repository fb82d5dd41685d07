"""Services for people at a club: adding members, granting roles, invites."""

from __future__ import annotations

from collections.abc import Iterable

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from club.models import Club, Member, Membership, Role, User, hash_token
from core import inputs


@transaction.atomic
def add_member(
    club: Club,
    name: str,
    roles: Iterable[str] = (),
    user: User | None = None,
    swish_number: str = "",
) -> Member:
    name = name.strip()
    if not name:
        raise ValidationError(_("A member needs a name."), code="name_required")
    if Member.objects.for_club(club).filter(name__iexact=name).exists():
        raise ValidationError(
            _("%(name)s is already a member of this club.") % {"name": name}, code="duplicate"
        )
    try:
        with transaction.atomic():
            member = Member.objects.create(
                club=club, name=name, user=user, swish_number=swish_number.strip()
            )
    except IntegrityError:
        raise ValidationError(
            _("That login already belongs to a member here."), code="dup"
        ) from None
    set_roles(member, {Role.MEMBER, *roles})
    return member


@transaction.atomic
def set_roles(member: Member, roles: Iterable[str]) -> None:
    wanted = {Role(r) for r in roles} | {Role.MEMBER}
    Membership.objects.filter(member=member).exclude(role__in=wanted).delete()
    existing = set(Membership.objects.filter(member=member).values_list("role", flat=True))
    # One by one, not in bulk: each grant is saved with its signal, so the ledger seals the
    # member's roles in the audit chain (ledger.ownership).
    for role in sorted(wanted - existing):
        Membership.objects.create(member=member, role=role)
    member._roles = None  # type: ignore[attr-defined]


def member_for_invite(token: str) -> Member | None:
    try:
        inputs.parse_token(token)
    except ValidationError:
        return None  # not a link this app made
    return (
        Member.objects.select_related("club")
        .filter(
            invite_token_hash=hash_token(token),
            invite_expires_at__gt=timezone.now(),
            active=True,
            user__isnull=True,
        )
        .first()
    )


@transaction.atomic
def accept_invite(member: Member, username: str, password: str) -> User:
    """Create the login for an invited member and use up the invite.

    Two requests with the same link (a double tap, two phones) take turns on the member's row:
    the second finds the invite used (``ValidationError``, code ``used``). A name taken since
    the form checked it is refused too (code ``username_taken``), never a database error."""
    member = Member.objects.select_for_update().get(pk=member.pk)
    if member.user_id is not None or not member.invite_token_hash:
        raise ValidationError(_("This invite has already been used."), code="used")
    try:
        with transaction.atomic():
            user = User.objects.create_user(username=username, password=password)
    except IntegrityError:
        raise ValidationError(
            _("That user name was taken a moment ago; choose another."), code="username_taken"
        ) from None
    member.user = user
    member.invite_token_hash = ""
    member.invite_expires_at = None
    member.save(update_fields=["user", "invite_token_hash", "invite_expires_at"])
    return user
