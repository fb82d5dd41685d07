"""The double entry: accounts (a member's, a guest's, the club's own, pots and betar),
transactions and their entries.

Sign convention: see ``ledger.models``. An account's ``key`` is stable within the club
(``member:12``, ``pot:kille``, ``bet:polskt_pass:3``, ``cash``); its ``label`` is its name in
the reader's language, rendered from the key. A transaction's ``ref`` says what caused it
(``game:17:event:4``, ``evening:3:split:kille``) as a plain reference, since the ledger never
imports scoring or evenings; ``key`` makes a posting idempotent by a unique constraint.
"""

from __future__ import annotations

import re

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from club.models import Club, Member


class AccountKind(models.TextChoices):
    MEMBER = "member", _("member")
    POT = "pot", _("pot")
    BET = "bet", _("bet")
    TREASURY = "treasury", _("treasury")
    DUES_INCOME = "dues_income", _("dues income")
    EXPENSES = "expenses", _("expenses")
    CASH = "cash", _("cash")
    # A guest's money at one club evening (``guest:<attendee>``): stakes, winnings and fee,
    # settled on the spot.
    GUEST = "guest", _("guest")
    # The club's equity when its paper books were brought in (``ledger.opening``): the other
    # side of the one opening transaction.
    OPENING = "opening", _("opening balances")


DEBIT_NORMAL_KINDS = frozenset({AccountKind.CASH, AccountKind.EXPENSES})


class AccountQuerySet(models.QuerySet["Account"]):
    def for_club(self, club: Club) -> AccountQuerySet:
        return self.filter(club=club)

    def open(self) -> AccountQuerySet:
        return self.filter(closed_at__isnull=True)


class Account(models.Model):
    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="accounts")
    kind = models.CharField(_("kind"), max_length=20, choices=AccountKind.choices)
    # A stable key within the club: "member:12", "pot:kille", "bet:polskt_pass:3", "cash".
    key = models.CharField(_("key"), max_length=80)
    name = models.CharField(_("name"), max_length=100)
    member = models.ForeignKey(
        Member,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="accounts",
        verbose_name=_("member"),
        help_text=_("The member whose account this is, or who owns a bet."),
    )
    # Kept equal to the sum of the account's entries by ledger.post, in the same
    # transaction; tests and `manage.py check_ledger` verify it.
    balance_ore = models.BigIntegerField(_("balance (öre)"), default=0)
    created_at = models.DateTimeField(_("created"), default=timezone.now)
    closed_at = models.DateTimeField(_("closed"), null=True, blank=True)

    objects = AccountQuerySet.as_manager()

    class Meta:
        ordering = ["kind", "name"]
        verbose_name = _("account")
        verbose_name_plural = _("accounts")
        constraints = [
            models.UniqueConstraint(fields=["club", "key"], name="ledger_account_unique_key"),
            models.UniqueConstraint(
                fields=["member"],
                condition=models.Q(kind="member"),
                name="ledger_account_one_per_member",
            ),
            models.CheckConstraint(
                condition=~models.Q(kind="member") | models.Q(member__isnull=False),
                name="ledger_account_member_kind_has_member",
            ),
        ]

    def __str__(self) -> str:
        return self.label

    @property
    def label(self) -> str:
        """The account's name in the reader's language: a member's account by the member's name;
        the club's own accounts, pots and betar by what they are ("Pott: Kille", "Bet 7: Polskt
        pass"), rendered from the key rather than the name stored when it was opened."""
        if self.kind in SYSTEM_LABELS:
            return str(SYSTEM_LABELS[self.kind])
        if self.kind == AccountKind.GUEST:
            return gettext("%(name)s (guest)") % {"name": self.name}
        parts = self.key.split(":")
        if self.kind == AccountKind.POT and parts[0] == "prizes":
            # An evening's prize pool (evenings.services.prize_pool): its date, in ISO form in
            # the name stored at creation, is the same in any language.
            day = re.search(r"\d{4}-\d{2}-\d{2}", self.name)
            return gettext("Prizes %(date)s") % {"date": day.group() if day else parts[-1]}
        if self.kind == AccountKind.POT and parts[0] == "competition":
            # A competition's prize pool (competitions.money): the name the club gave it.
            return gettext("Prize pool: %(name)s") % {"name": self.name}
        if self.kind == AccountKind.POT and len(parts) == 2:
            return gettext("Pot: %(game)s") % {"game": _game_name(parts[1])}
        if self.kind == AccountKind.POT and len(parts) == 3:
            game = _game_name(parts[1])
            return gettext("Pot: %(game)s, table %(table)s") % {"game": game, "table": parts[2]}
        if self.kind == AccountKind.BET and len(parts) == 3:
            game = _game_name(parts[1])
            return gettext("Bet no. %(n)s: %(game)s") % {"n": parts[2], "game": game}
        if self.kind == AccountKind.BET and len(parts) == 4:
            return gettext("Bet no. %(n)s: %(game)s, table %(table)s") % {
                "n": parts[3],
                "game": _game_name(parts[1]),
                "table": parts[2],
            }
        return self.name

    @property
    def shown_balance(self) -> int:
        """The balance as people read it (cash in the box and money spent are positive)."""
        return -self.balance_ore if self.kind in DEBIT_NORMAL_KINDS else self.balance_ore

    @property
    def is_open(self) -> bool:
        return self.closed_at is None


class Source(models.TextChoices):
    MANUAL = "manual", _("manual")
    GAME = "game", _("game event")
    DUES = "dues", _("dues")
    SETTLEMENT = "settlement", _("settlement")
    EVENING = "evening", _("club evening")
    OPENING = "opening", _("opening balances")
    MERGE = "merge", _("people merged")


class Transaction(models.Model):
    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="transactions")
    date = models.DateField(_("date"))
    memo = models.CharField(_("memo"), max_length=200)
    source = models.CharField(_("source"), max_length=20, choices=Source.choices)
    # Idempotency: a caller that must not post twice (dues per period, a game event) gives a
    # key; the unique constraint, not hope, makes the second attempt a no-op.
    key = models.CharField(max_length=120, null=True, blank=True)  # noqa: DJ001 - NULL: no key, no uniqueness
    # What caused it, for pages that link back (e.g. "game:17:event:4"); club never imports
    # scoring, so this is a plain reference.
    ref = models.CharField(_("reference"), max_length=120, blank=True, db_index=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("created by"),
    )
    created_at = models.DateTimeField(_("created"), default=timezone.now)
    reverses = models.OneToOneField(
        "self",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="reversed_by",
        verbose_name=_("reverses"),
    )

    class Meta:
        ordering = ["-date", "-id"]
        verbose_name = _("transaction")
        verbose_name_plural = _("transactions")
        constraints = [
            models.UniqueConstraint(
                fields=["club", "key"],
                condition=models.Q(key__isnull=False),
                name="ledger_transaction_unique_key",
            ),
        ]
        indexes = [
            models.Index(fields=["club", "date"], name="ledger_tx_club_date"),
            # "Has the club brought in its opening balances?" (the start page's first steps,
            # clubdata.firstrun; ledger.opening): without it the answer reads every one of the
            # club's transactions, which on a shared instance lie on as many pages as rows.
            models.Index(
                fields=["club"],
                condition=models.Q(source="opening"),
                name="ledger_tx_opening_per_club",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.date} {self.memo}"

    @property
    def game_id(self) -> int | None:
        """The game whose event moved this money ("game:17:event:4" → 17), if any."""
        parts = self.ref.split(":")
        if len(parts) >= 2 and parts[0] == "game" and parts[1].isdigit():
            return int(parts[1])
        return None

    @property
    def is_pot_move(self) -> bool:
        """A club evening's share of a pot among its tables, or their merge back
        (``evenings.pots``): made by the evening's rule, which the books' check replays."""
        parts = self.ref.split(":")
        return len(parts) >= 4 and parts[0] == "evening" and parts[2] in ("split", "merge")

    @property
    def is_game_money(self) -> bool:
        """Moved by a game: only the game's undo and void may take it back (ledger.postings)."""
        return self.source == Source.GAME or self.game_id is not None


class Entry(models.Model):
    transaction = models.ForeignKey(Transaction, on_delete=models.PROTECT, related_name="entries")
    account = models.ForeignKey(Account, on_delete=models.PROTECT, related_name="entries")
    amount_ore = models.BigIntegerField(_("amount (öre)"))
    # The transaction's date, repeated so that a balance at a date is one index range scan.
    date = models.DateField(_("date"))

    class Meta:
        ordering = ["id"]
        verbose_name = _("entry")
        verbose_name_plural = _("entries")
        constraints = [
            models.CheckConstraint(
                condition=~models.Q(amount_ore=0), name="ledger_entry_amount_not_zero"
            ),
        ]
        indexes = [models.Index(fields=["account", "date", "id"], name="ledger_entry_account_date")]

    def __str__(self) -> str:
        return f"{self.account}: {self.amount_ore}"


# The club's own accounts by kind, in the reader's language (``Account.label``).
SYSTEM_LABELS = {
    AccountKind.TREASURY: _("Club treasury"),
    AccountKind.CASH: _("Cash"),
    AccountKind.DUES_INCOME: _("Membership dues"),
    AccountKind.EXPENSES: _("Expenses"),
    AccountKind.OPENING: _("Opening balances"),
}


def _game_name(key: str) -> str:
    from engine import registry  # noqa: PLC0415 - the engine is pure Python, loaded on use

    return gettext(registry.display_name(key))
