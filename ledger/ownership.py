"""Who owns what and who may do what, sealed in the club's audit chain.

The chain seals every posting, closing and game event; but money also follows from rows that
are not postings: which member an account belongs to (an account's owner swapped in the
database moves a debt to someone else), which login acts as which member and with what roles
(a treasurer's role granted in the database), which Swish number a payment goes to. So each of
these is sealed as it is now, whenever the app changes it:

- ``account:<id>``: the account's key, kind, owner and whether it is closed;
- ``member:<id>``: the member's login, whether active, roles, Swish number;
- ``club``: the club's Swish number.

A record (action ``seal``) is appended, in the same database transaction, by ``post_save`` and
``post_delete`` receivers on ``Account``, ``Member``, ``Membership`` and ``Club``
(``connect``; ``club`` never imports the ledger), only when the state differs from the last
record of that subject. Other apps seal their own money options the same way
(``seal(club, subject, data)``, e.g. the evenings' fee and pot policy) and compare them in a
check of their own (``check_sealed``).

``check_ownership`` (a book check, so ``check_ledger`` runs it) compares every account,
member and the club with the newest record of its subject: a row changed, added or removed
behind the app's back shows, named, with the fields that differ. Two queries per club plus
one for the records.
"""

from __future__ import annotations

import json
from collections.abc import Iterable

from django.db.models.signals import post_delete, post_save
from django.utils import timezone

from club.models import Club, Member, Membership
from ledger.audit import append_audit, changed_fields
from ledger.models import Account, AuditRecord

SEAL = AuditRecord.Action.SEAL


def member_state(member: Member, roles: Iterable[str]) -> dict:
    return {
        "user": member.user_id,
        "active": member.active,
        "roles": sorted(roles),
        "swish_number": member.swish_number,
    }


def account_state(account: Account) -> dict:
    return {
        "key": account.key,
        "kind": account.kind,
        "member": account.member_id,
        "closed": account.closed_at is not None,
    }


def club_state(club: Club) -> dict:
    return {"swish_number": club.swish_number}


def _as_stored(data: dict) -> dict:
    return json.loads(json.dumps(data, sort_keys=True))


def latest_seals(club: Club, prefix: str = "") -> dict[str, dict]:
    """The newest sealed state per subject (subjects starting with ``prefix``)."""
    records = AuditRecord.objects.filter(club=club, action=SEAL, subject__startswith=prefix)
    latest: dict[str, dict] = {}
    for subject, data in records.order_by("seq").values_list("subject", "data"):
        latest[subject] = data
    return latest


def seal(club: Club, subject: str, data: dict, by=None) -> None:
    """Seal ``subject``'s state in the club's chain, unless the newest record already says so."""
    last = (
        AuditRecord.objects.filter(club=club, action=SEAL, subject=subject)
        .order_by("-seq")
        .values_list("data", flat=True)
        .first()
    )
    if last != _as_stored(data):
        append_audit(club, SEAL, by, timezone.now(), subject=subject, data=data)


def seal_member(member: Member) -> None:
    roles = Membership.objects.filter(member=member).values_list("role", flat=True)
    seal(member.club, f"member:{member.pk}", member_state(member, roles))


def seal_account(account: Account) -> None:
    seal(account.club, f"account:{account.pk}", account_state(account))


def seal_everything(club: Club) -> None:
    """Seal every account, member and the club as they are (an upgrade's first seal)."""
    seal(club, "club", club_state(club))
    for member in Member.objects.filter(club=club).select_related("club"):
        seal_member(member)
    for account in Account.objects.filter(club=club).select_related("club"):
        seal_account(account)


def check_ownership(club: Club) -> list[str]:
    """Accounts, members and the club against their newest sealed state, in words."""
    sealed = latest_seals(club)
    now: dict[str, dict] = {"club": club_state(Club.objects.get(pk=club.pk))}  # as stored
    members = Member.objects.filter(club=club).prefetch_related("memberships")
    for member in members:
        now[f"member:{member.pk}"] = member_state(
            member, [m.role for m in member.memberships.all()]
        )
    for account in Account.objects.filter(club=club):
        now[f"account:{account.pk}"] = account_state(account)
    problems = []
    for subject in sorted(set(now) | {s for s in sealed if s.startswith(("member:", "account:"))}):
        if subject not in sealed:
            problems.append(f"{subject} has no sealed record: it was added behind the app's back")
        elif subject not in now:
            problems.append(f"{subject} is gone from the database, but its record is not")
        elif sealed[subject] != _as_stored(now[subject]):
            fields = ", ".join(changed_fields(sealed[subject], _as_stored(now[subject])))
            problems.append(f"{subject} changed behind the app's back ({fields})")
    return problems


# --- receivers ----------------------------------------------------------------------------


def _on_member(sender, instance: Member, raw: bool = False, **kwargs) -> None:
    if not raw:
        seal_member(instance)


def _on_membership(sender, instance: Membership, raw: bool = False, **kwargs) -> None:
    member = Member.objects.filter(pk=instance.member_id).select_related("club").first()
    if member is not None and not raw:
        seal_member(member)


def _on_account(sender, instance: Account, raw: bool = False, **kwargs) -> None:
    if not raw:
        seal_account(instance)


def _on_club(sender, instance: Club, raw: bool = False, **kwargs) -> None:
    if not raw:
        seal(instance, "club", club_state(instance))


def connect() -> None:
    post_save.connect(_on_member, sender=Member, dispatch_uid="ledger-seal-member")
    post_save.connect(_on_membership, sender=Membership, dispatch_uid="ledger-seal-role")
    post_delete.connect(_on_membership, sender=Membership, dispatch_uid="ledger-seal-role-gone")
    post_save.connect(_on_account, sender=Account, dispatch_uid="ledger-seal-account")
    post_save.connect(_on_club, sender=Club, dispatch_uid="ledger-seal-club")
