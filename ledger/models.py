"""The club's books: double-entry accounts, transactions and entries, closed periods, the
keyed audit trail, dues plans and export jobs.

Double entry with one signed amount per entry: positive = credit, negative = debit, and the
entries of a transaction sum to zero. For the accounts people think of as "money somebody
has" — members, pots, betar, the treasury, dues income — a positive balance is that money
(a member at +50 kr is owed 50 kr by the club; at −50 kr the member owes the club). Cash and
expenses are debit-normal: their balances are negative when the box holds money or the club
has spent some, and pages show them negated (``Account.shown_balance``).

Only ``ledger.postings`` writes Transaction and Entry rows. The tables were ``club_*`` until
the ledger became an app of its own (migrations ``ledger.0001``/``0002`` moved them without
touching a row).
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
        indexes = [models.Index(fields=["club", "date"], name="ledger_tx_club_date")]

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


class Period(models.Model):
    """A closed stretch of the books: nothing may be posted with a date inside it."""

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="periods")
    name = models.CharField(_("name"), max_length=100)
    start = models.DateField(_("start"))
    end = models.DateField(_("end"))
    closed_at = models.DateTimeField(_("closed"), default=timezone.now)
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, related_name="+"
    )

    class Meta:
        ordering = ["-end"]
        verbose_name = _("closed period")
        verbose_name_plural = _("closed periods")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(start__lte=models.F("end")),
                name="ledger_period_start_before_end",
            ),
        ]

    def __str__(self) -> str:
        return self.name


class PeriodBalance(models.Model):
    """An account's balances at a closed period's start and end, frozen at closing."""

    period = models.ForeignKey(Period, on_delete=models.PROTECT, related_name="balances")
    account = models.ForeignKey(Account, on_delete=models.PROTECT, related_name="+")
    opening_ore = models.BigIntegerField()
    closing_ore = models.BigIntegerField()

    class Meta:
        ordering = ["account"]
        constraints = [
            models.UniqueConstraint(
                fields=["period", "account"], name="ledger_periodbalance_one_per_account"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.period}: {self.account}"


class AuditRecord(models.Model):
    """Append-only, keyed and chained trail of what changed the books or a game (per club).

    ``data`` is what the record covers, as it was when recorded (a transaction with who, when
    and every entry; a closing; a game event); ``subject`` names it (``transaction:5``,
    ``game:17:event:4``). ``digest`` is an HMAC with ``settings.AUDIT_KEY`` over the previous
    record's digest and all of this, so the chain cannot be recomputed without the key. See
    ``ledger.audit`` (the audit trail) and ``manage.py check_ledger``.
    """

    class Action(models.TextChoices):
        POST = "post", _("posting")
        REVERSE = "reverse", _("reversal")
        CLOSE = "close", _("closing")
        EVENT = "event", _("game event")
        VOID = "void", _("voided game")
        # Who owns what and who may do what, as it is now (``ledger.ownership``).
        SEAL = "seal", _("sealed state")
        # A change of the club's settings that touches money (who, when, old -> new).
        SETTINGS = "settings", _("settings changed")
        # A member's personal data erased on request; a club archive imported (source head).
        ERASE = "erase", _("member erased")
        IMPORT = "import", _("club imported")

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="audit_records")
    seq = models.PositiveIntegerField()
    action = models.CharField(max_length=10, choices=Action.choices)
    transaction = models.ForeignKey(
        Transaction, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    period = models.ForeignKey(
        Period, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    subject = models.CharField(max_length=120, blank=True)
    data = models.JSONField(default=dict, blank=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, related_name="+"
    )
    at = models.DateTimeField(default=timezone.now)
    digest = models.CharField(max_length=64)
    prev_digest = models.CharField(max_length=64)

    class Meta:
        ordering = ["club", "seq"]
        verbose_name = _("audit record")
        verbose_name_plural = _("audit records")
        constraints = [
            models.UniqueConstraint(fields=["club", "seq"], name="ledger_auditrecord_unique_seq"),
        ]
        indexes = [
            # The newest sealed state of one subject (ledger.ownership.seal).
            models.Index(
                fields=["club", "subject", "seq"],
                condition=models.Q(action="seal"),
                name="ledger_audit_seal_subject",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.club} #{self.seq} {self.action}"


class DuesPlan(models.Model):
    class Interval(models.TextChoices):
        MONTHLY = "monthly", _("monthly")
        YEARLY = "yearly", _("yearly")

    club = models.OneToOneField(Club, on_delete=models.CASCADE, related_name="dues_plan")
    fee_ore = models.BigIntegerField(_("fee (öre)"))
    interval = models.CharField(
        _("period"), max_length=10, choices=Interval.choices, default=Interval.YEARLY
    )
    active = models.BooleanField(_("active"), default=True)

    class Meta:
        verbose_name = _("dues plan")
        verbose_name_plural = _("dues plans")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(fee_ore__gt=0), name="ledger_duesplan_fee_positive"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.club}: {self.fee_ore} öre {self.interval}"


class ExportJob(models.Model):
    """A document built in the background (a season's member statements), with its progress.

    The Celery task writes ``done``/``total`` as it goes, each in its own short transaction, so
    the page polling the job sees it move; ``content`` holds the finished printable HTML.
    Running the task twice rebuilds the same document. ``updated_at`` is the heartbeat: touched
    with every change of status and every step of progress, it tells the sweep
    (``ledger.exports.sweep_jobs``) a job that was never queued or whose worker is gone;
    ``attempts`` counts the builds started; ``key`` is the "Try again" form's one-time key.
    """

    class Kind(models.TextChoices):
        SEASON_STATEMENT = "season_statement", _("season statement")

    class Status(models.TextChoices):
        PENDING = "pending", _("waiting")
        RUNNING = "running", _("running")
        DONE = "done", _("done")
        FAILED = "failed", _("failed")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="export_jobs")
    kind = models.CharField(_("kind"), max_length=30, choices=Kind.choices)
    params = models.JSONField(default=dict, blank=True)
    title = models.CharField(_("title"), max_length=200)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.PENDING
    )
    done = models.PositiveIntegerField(default=0)
    total = models.PositiveIntegerField(default=0)
    content = models.TextField(blank=True)
    error = models.CharField(max_length=300, blank=True)
    created_at = models.DateTimeField(_("created"), default=timezone.now)
    updated_at = models.DateTimeField(_("updated"), default=timezone.now)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(_("attempts"), default=0)
    key = models.CharField(max_length=80, null=True, blank=True)  # noqa: DJ001 - NULL: no key, no uniqueness

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("export")
        verbose_name_plural = _("exports")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(done__lte=models.F("total")),
                name="ledger_exportjob_done_le_total",
            ),
            models.UniqueConstraint(fields=["club", "key"], name="ledger_exportjob_unique_key"),
        ]
        indexes = [
            models.Index(fields=["club", "created_at"], name="ledger_export_club_created"),
            # The sweep's query, every minute: only the few unfinished jobs are indexed.
            models.Index(
                fields=["updated_at"],
                condition=models.Q(status__in=["pending", "running"]),
                name="ledger_export_unfinished",
            ),
        ]

    def __str__(self) -> str:
        return self.title

    @property
    def is_finished(self) -> bool:
        return self.status in (self.Status.DONE, self.Status.FAILED)

    @property
    def percent(self) -> int:
        if self.status == self.Status.DONE:
            return 100
        return (100 * self.done) // self.total if self.total else 0


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
