"""Forgetting a member on request (GDPR art. 17), without breaking the books.

``erase_member(member, by, key)`` is one database transaction, under the club's row lock (the
lock every posting and the audit chain take, so the pseudonym's number and the record cannot
race):

Replaced
- ``Member.name`` by a pseudonym, "Före detta medlem N" ("Former member N"): N is the number of
  the club's erased members plus one (the next free one, should a real member be called that).
  It is written once, in the club's language (``settings.LANGUAGE_CODE``, as stored memos are),
  and every page in either language shows it as written: it is the member's name from now on,
  in the league, the game history, the statements, the exports and the club archive alike.
- ``Member.email`` and ``Member.swish_number`` cleared, the invite cleared, every role but
  "member" taken away (``club.members.set_roles``); the member has left (``active`` off,
  ``left_at`` kept or set) and ``erased_at`` is set. Saved with ``.save()``, so the owner
  seals of the audit chain follow (``ledger.ownership``).
- His name in the words players gave on games (a dispute's ``Confirmation.word``): the
  pseudonym instead.
- ``Account.name`` of his accounts (his member account, betar he owns): a member's account is
  labelled by that name (``Account.label``).
- The login. A ``User`` row cannot be deleted: ledger transactions, game events, evenings and
  audit records point at it (``PROTECT``), and the chain seals those ids. So it is anonymised:
  username ``erased-<random>``, an unusable password, ``is_active`` off, e-mail, first and last
  name cleared, no staff rights; the member's ``user`` is set to None. He cannot sign in, and
  his sessions end (their hash no longer matches). If the same login is also a member of
  another club, that club has not been asked to forget him: the login is only detached from
  this club and keeps working there.
- The failed-login records django-axes keeps under his username, and the Django admin's log
  entries naming the member or the login (``object_repr``).
- Season statements already built that may show him (his own, and the whole club's): deleted;
  they are rebuilt, with the pseudonym, when asked for again.
- The club's week (``week.erasure``): the +1 guests' names on his replies (someone else's
  name, kept only because he brings that person), his replies to evenings not yet held
  (withdrawn: the wait-list moves up) and his calendar link.

Kept
- Every amount, date and reference in the books: Swedish bookkeeping law (bokföringslagen,
  7 kap.) keeps accounting records for seven years. His balance stays (an erased member may
  owe or be owed; the confirm page says so).
- Transaction memos as written. A memo is part of the audit chain's sealed content, so
  rewriting one would break the chain. Memos of game money and of an evening's fee are
  rendered on every page from today's names (``ledger.describe``), so they show the
  pseudonym; a memo a treasurer typed, or one written from names (a payment's default memo,
  a transfer, a settle-up payment) keeps the old name where it is shown. The confirm page
  and the erasure record count them (the record never holds the name).
- The audit chain's earlier seals of his member row (``ledger.ownership``): they hold the
  Swish number payments went to, as it was, and cannot change without breaking the chain.
- Games, seats, events, league results and evening attendances: they point at the member by
  id, and the events' lines name players by seat (``s0``), rendered with today's names, so
  nothing there holds his name. A guest's name typed at a table (``Seat.guest_name``,
  ``Attendee.guest_name``, a guest's account) is a record of its own: merge the guest into the
  member first (``clubdata.people``) for the erasure to reach it.

The erasure is an audit record (``erase``, subject ``member:<id>``): when, by whom (the
admin's member id and login), the pseudonym, what happened to the login, the one-time key
and how many memos were kept; never the old name. An admin cannot erase himself here
(another admin must), nor the club's last admin. A second request (a double tap) finds the
member erased and changes nothing.
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass

from django.conf import settings
from django.contrib.admin.models import LogEntry
from django.contrib.contenttypes.models import ContentType
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils import timezone, translation
from django.utils.translation import gettext as _

import ledger
from club import members
from club.models import Club, Member, Membership, Role, User
from ledger.models import Account, AccountKind, AuditRecord, ExportJob, Transaction
from scoring.models import Confirmation
from week import erasure as week_erasure


class ErasureRefused(ValidationError):
    """An erasure this module will not do; ``code`` says why."""


@dataclass(frozen=True)
class Facts:
    """What the confirm page tells the admin before he erases ``member``."""

    member: Member
    pseudonym: str  # the name he will have (the next free one now)
    balance_ore: int
    login: str  # "none", "anonymised" or "detached" (the login is a member elsewhere too)
    memos_kept: int
    refusal: str | None


def _is_last_admin(member: Member) -> bool:
    if not member.can(Role.ADMIN):
        return False
    others = Membership.objects.filter(
        role=Role.ADMIN, member__club_id=member.club_id, member__active=True
    ).exclude(member=member)
    return not others.exists()


def _refusal(member: Member, by: Member) -> ErasureRefused | None:
    if member.club_id != by.club_id or not by.can(Role.ADMIN):
        return ErasureRefused(_("Only an admin of the club may erase a member."), code="not_admin")
    if _is_last_admin(member):
        return ErasureRefused(
            _("%(name)s is the club's last admin: make someone else admin first.")
            % {"name": member.name},
            code="last_admin",
        )
    if member.pk == by.pk:
        return ErasureRefused(
            _("You cannot erase yourself here: ask another admin of the club."), code="self"
        )
    return None


def _login_fate(member: Member) -> str:
    if member.user_id is None:
        return "none"
    elsewhere = Member.objects.filter(user_id=member.user_id).exclude(pk=member.pk).exists()
    return "detached" if elsewhere else "anonymised"


def _memos_naming(member: Member) -> list[int]:
    """The club's transactions whose stored memo contains the member's name."""
    if len(member.name) < 2:  # a one-letter name is in half the memos; none of them is his
        return []
    return list(
        Transaction.objects.filter(club_id=member.club_id, memo__icontains=member.name)
        .order_by("pk")
        .values_list("pk", flat=True)
    )


def facts(member: Member, by: Member) -> Facts:
    refusal = _refusal(member, by) if member.erased_at is None else None
    balance = sum(
        Account.objects.filter(member=member, kind=AccountKind.MEMBER).values_list(
            "balance_ore", flat=True
        )
    )
    return Facts(
        member=member,
        pseudonym=member.name if member.erased_at else pseudonym_for(member.club),
        balance_ore=balance,
        login=_login_fate(member),
        memos_kept=len(_memos_naming(member)),
        refusal=refusal.messages[0] if refusal else None,
    )


def pseudonym_for(club: Club) -> str:
    """The next "Före detta medlem N" of the club, in the club's language."""
    n = Member.objects.filter(club=club, erased_at__isnull=False).count() + 1
    with translation.override(settings.LANGUAGE_CODE):
        while True:
            name = _("Former member %(n)s") % {"n": n}
            if not Member.objects.filter(club=club, name__iexact=name).exists():
                return name
            n += 1


def _forget_login(user: User, pseudonym: str) -> None:
    from axes.models import AccessAttempt, AccessFailureLog, AccessLog  # noqa: PLC0415

    old_username = user.get_username()
    user.username = f"erased-{secrets.token_hex(8)}"
    user.set_unusable_password()
    user.is_active = False
    user.is_staff = False
    user.is_superuser = False
    user.email = ""
    user.first_name = ""
    user.last_name = ""
    user.save()
    for model in (AccessAttempt, AccessFailureLog, AccessLog):
        model.objects.filter(username=old_username).delete()
    _rename_in_admin_log(user, pseudonym)


def _rename_in_admin_log(obj, text: str) -> None:
    content_type = ContentType.objects.get_for_model(type(obj))
    LogEntry.objects.filter(content_type=content_type, object_id=str(obj.pk)).update(
        object_repr=text[:200]
    )


def _rename_in_words(club: Club, old_name: str, pseudonym: str) -> None:
    """A dispute's word may name him ("Maja räknade fel"): the pseudonym instead."""
    if len(old_name) < 2:
        return
    pattern = re.compile(re.escape(old_name), re.IGNORECASE)
    longest = Confirmation._meta.get_field("word").max_length
    for row in Confirmation.objects.filter(game__club=club, word__icontains=old_name):
        row.word = pattern.sub(pseudonym, row.word)[:longest]
        row.save(update_fields=["word"])


def erase_member(member: Member, by: Member, key: str = "") -> Member:
    """Erase ``member``'s personal data (see the module); return the member as it is now.
    Raises ``ErasureRefused`` for an erasure that is not allowed; an erased member is
    returned unchanged."""
    with transaction.atomic():
        club = Club.objects.select_for_update().get(pk=member.club_id)
        member = Member.objects.select_related("club").get(pk=member.pk)
        if member.erased_at is not None:
            return member
        by = Member.objects.select_related("club").get(pk=by.pk)
        refusal = _refusal(member, by)
        if refusal is not None:
            raise refusal
        now = timezone.now()
        pseudonym = pseudonym_for(club)
        memos = _memos_naming(member)
        login = _login_fate(member)
        user = member.user
        old_name = member.name

        members.set_roles(member, [])
        member.name = pseudonym
        member.email = ""
        member.swish_number = ""
        member.user = None
        member.active = False
        member.left_at = member.left_at or now
        member.erased_at = now
        member.invite_token_hash = ""
        member.invite_expires_at = None
        member.save()
        for account in Account.objects.filter(member=member).select_related("club"):
            if account.kind == AccountKind.MEMBER:
                account.name = pseudonym
                account.save(update_fields=["name"])
        _rename_in_words(club, old_name, pseudonym)
        if login == "anonymised":
            _forget_login(user, pseudonym)
        _rename_in_admin_log(member, pseudonym)
        ExportJob.objects.filter(club=club, kind=ExportJob.Kind.SEASON_STATEMENT).filter(
            Q(params__member=member.pk) | Q(params__member=None)
        ).delete()
        # His +1 guests' names, his seats at evenings to come, his calendar link (week.erasure).
        week_erasure.forget(member)
        ledger.append_audit(
            club,
            AuditRecord.Action.ERASE,
            by.user,
            now,
            subject=f"member:{member.pk}",
            data={
                "member": member.pk,
                "pseudonym": pseudonym,
                "at": ledger.audit_time(now),
                "by_member": by.pk,
                "login": login,
                "key": key,
                "memos_kept": len(memos),
            },
        )
    return member
