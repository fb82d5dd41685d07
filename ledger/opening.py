"""Opening the books from paper: a club that has played for years brings its position in.

The treasurer says, as of a date, what each pot holds (the Kille tin), each open bet and who
put it in, what each member owes or is owed, what the cash box holds and, if the club keeps
one, what the treasury holds. ``open_books`` posts that as ONE balanced transaction
(``Source.OPENING``) whose legs are those balances and, as the balancing leg, the club's
opening-equity account (``AccountKind.OPENING``, key ``opening``): its figure is the club's
net worth on the paper books (cash and what members owe, less the pots, the betar, what the
club owes members and the treasury). Signs as everywhere in the books (credit positive):

    pot / bet       +what it holds        member   −owes / +is owed
    cash            −what the box holds   treasury +what it holds
    opening equity  the rest (cash − pots − betar − members − treasury)

Once per club: a second opening is refused while the first stands; a wrong one is corrected
by reversing it (the transaction page, ``ledger.postings.reverse``), after which a new one may
be posted under the next key (``opening``, ``opening:2``, ``opening:3`` …). The check for a
standing opening and the posting happen under the club's row lock, so two treasurers opening
at once post one; the form's one-time submission (the transaction's ``ref``) tells a double tap,
which gets the first posting back, from a second treasurer, who is refused.

Reversing an opening is refused once a game or an evening has moved one of the pots or betar
it opened (``reversal_refusal``, a ``pre_save`` guard on the reversal): the games played from
that money, as a later game plays from the pot an earlier one left, and taking it back would
leave the pot short of what was played. What members owe and the cash box are corrected with
payments and transfers as usual.

The pots are those of the games that play from a pot (an engine whose ``new_game`` takes
``pot_ore``: Kille, Polskt pass), the betar those of games that carry betar (``betar``:
Polskt pass), among the games the club plays. A bet gets the next free number of its game in
the order entered, so the next game plays with them in that order; its account names the
member who put it in.

The books' checks know the opening: scoring's pot replay adds what it put into pots and betar
(``scoring.audit.opened_pots``), and an evening shares the club's pot, opening included.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date as Date

from django.conf import settings
from django.db import transaction
from django.db.models.signals import pre_save
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from club.models import Club, Member, User
from core.money import format_ore
from engine import registry
from ledger.accounts import member_account, system_account
from ledger.models import (
    DEBIT_NORMAL_KINDS,
    Account,
    AccountKind,
    Entry,
    Period,
    Source,
    Transaction,
)
from ledger.postings import LedgerError, post
from ledger.pots import game_bet, game_bet_balances, game_bet_key, game_pot, game_pot_key

OPENING_KEY = "opening"
REF_PREFIX = "opening:"


# --- which games -------------------------------------------------------------------------------


def _played(club: Club) -> list[str]:
    known = registry.game_keys()
    chosen = [key for key in (club.games_played or []) if key in known]
    return chosen or list(known)


def pot_games(club: Club) -> list[str]:
    """The club's games that play from a pot carried between evenings (Kille, Polskt pass)."""
    return [key for key in _played(club) if registry.get(key).declaration.plays_from_pot]


def bet_games(club: Club) -> list[str]:
    """The club's games that carry open betar between evenings (Polskt pass)."""
    return [key for key in _played(club) if registry.get(key).declaration.keeps_betar]


def ceiling(club: Club) -> int:
    """The largest single amount: the club's own ceiling, never above the instance's."""
    own = club.max_amount_ore
    return own if own is not None and 0 < own < settings.MAX_AMOUNT_ORE else settings.MAX_AMOUNT_ORE


# --- the opening as entered ----------------------------------------------------------------


@dataclass(frozen=True)
class OpeningBet:
    game_key: str
    amount_ore: int
    owner: Member


@dataclass(frozen=True)
class Line:
    """One line of the opening as people read it: cash in the box positive, a member who owes
    negative; ``kind`` groups the lines on the page."""

    kind: str
    label: str
    amount_ore: int


@dataclass
class Opening:
    """What the paper books say, as of ``date``. Amounts in öre, as people read them."""

    date: Date
    pots: dict[str, int] = field(default_factory=dict)  # game key -> what its pot holds
    bets: list[OpeningBet] = field(default_factory=list)  # in the order entered
    members: list[tuple[Member, int]] = field(default_factory=list)  # −owes / +is owed
    cash_ore: int = 0
    treasury_ore: int = 0

    @property
    def equity_ore(self) -> int:
        """The opening-equity leg: the club's net worth (less the treasury, if one is kept)."""
        return (
            self.cash_ore
            - sum(self.pots.values())
            - sum(bet.amount_ore for bet in self.bets)
            - sum(amount for _member, amount in self.members)
            - self.treasury_ore
        )

    def lines(self) -> list[Line]:
        lines = [
            Line("pot", ledger_label(AccountKind.POT, game_pot_key(key)), amount)
            for key, amount in self.pots.items()
            if amount
        ]
        for n, bet in enumerate(self.bets, 1):
            label = _("Bet %(n)s: %(game)s, put in by %(owner)s") % {
                "n": n,
                "game": _(registry.display_name(bet.game_key)),
                "owner": bet.owner.name,
            }
            lines.append(Line("bet", label, bet.amount_ore))
        lines += [Line("member", member.name, amount) for member, amount in self.members if amount]
        if self.cash_ore:
            lines.append(Line("cash", ledger_label(AccountKind.CASH, "cash"), self.cash_ore))
        if self.treasury_ore:
            label = ledger_label(AccountKind.TREASURY, "treasury")
            lines.append(Line("treasury", label, self.treasury_ore))
        return lines


def ledger_label(kind: str, key: str) -> str:
    return Account(kind=kind, key=key).label


def posted_lines(tx: Transaction) -> list[Line]:
    """A posted opening's lines as people read them (the equity leg last)."""
    entries = sorted(
        tx.entries.select_related("account"),
        key=lambda e: (e.account.kind == AccountKind.OPENING, e.pk),
    )
    return [
        Line(
            e.account.kind,
            e.account.label,
            -e.amount_ore if e.account.kind in DEBIT_NORMAL_KINDS else e.amount_ore,
        )
        for e in entries
    ]


def opening_memo(day: Date) -> str:
    """How the opening reads on every statement, in the reader's language."""
    return _("Opening balance (from the paper books), %(date)s") % {
        "date": formats.date_format(day, "SHORT_DATE_FORMAT")
    }


# --- checks --------------------------------------------------------------------------------


def check_date(club: Club, day: Date) -> None:
    """An opening is dated today or earlier, outside the closed periods."""
    if day > timezone.localdate():
        raise LedgerError(_("The opening cannot be dated in the future."), code="future_date")
    period = Period.objects.filter(club=club, start__lte=day, end__gte=day).first()
    if period is not None:
        raise LedgerError(
            _("%(date)s lies in the closed period %(period)s; choose a later date.")
            % {"date": day.isoformat(), "period": period.name},
            code="closed_period",
        )


def check_opening(club: Club, opening: Opening) -> None:
    """Everything the books would refuse, before anything is written (``LedgerError``)."""
    check_date(club, opening.date)
    limit = ceiling(club)
    if not opening.lines():
        raise LedgerError(_("The opening holds no amounts."), code="empty")
    pots, bets = set(pot_games(club)), set(bet_games(club))
    if set(opening.pots) - pots or any(bet.game_key not in bets for bet in opening.bets):
        raise LedgerError(_("That game has no pot or bets here."), code="game")
    people = [member for member, _amount in opening.members] + [b.owner for b in opening.bets]
    if any(member.club_id != club.pk for member in people):
        raise LedgerError(_("An account of another club was given."), code="foreign")
    amounts = [
        *opening.pots.values(),
        *(bet.amount_ore for bet in opening.bets),
        *(amount for _member, amount in opening.members),
        opening.cash_ore,
        opening.treasury_ore,
    ]
    if any(abs(amount) > limit for amount in amounts):
        raise LedgerError(
            _("An amount can be at most %(limit)s.") % {"limit": format_ore(limit)},
            code="too_large",
        )
    if any(bet.amount_ore <= 0 for bet in opening.bets):
        raise LedgerError(_("A bet holds more than nothing."), code="empty_bet")
    held = [*opening.pots.values(), *(b.amount_ore for b in opening.bets), opening.cash_ore]
    if min([*held, opening.treasury_ore]) < 0:
        raise LedgerError(
            _("A pot, a bet, the cash box or the treasury cannot hold less than nothing."),
            code="negative",
        )
    if abs(opening.equity_ore) > limit:
        raise LedgerError(
            _(
                "The club's net worth on these books comes to %(equity)s, more than the "
                "largest single amount the books take (%(limit)s)."
            )
            % {"equity": format_ore(opening.equity_ore), "limit": format_ore(limit)},
            code="too_large",
        )


# --- the standing opening ------------------------------------------------------------------


def openings(club: Club):
    """Every opening the club posted (not their reversals), oldest first."""
    return Transaction.objects.filter(
        club=club, source=Source.OPENING, reverses__isnull=True
    ).order_by("pk")


def standing_opening(club: Club) -> Transaction | None:
    """The club's opening that has not been reversed, if any."""
    return openings(club).filter(reversed_by__isnull=True).first()


def next_key(club: Club) -> str:
    count = openings(club).count()
    return OPENING_KEY if count == 0 else f"{OPENING_KEY}:{count + 1}"


def _legs(club: Club, opening: Opening) -> list[tuple[Account, int]]:
    """The opening's entries (credit positive), opening the accounts it needs."""
    legs: list[tuple[Account, int]] = [
        (game_pot(club, key), amount) for key, amount in opening.pots.items() if amount
    ]
    numbers: dict[str, int] = {}
    for bet in opening.bets:
        if bet.game_key not in numbers:
            numbers[bet.game_key] = max(game_bet_balances(club, bet.game_key), default=0)
        numbers[bet.game_key] += 1
        account = game_bet(club, bet.game_key, numbers[bet.game_key], owner=bet.owner)
        legs.append((account, bet.amount_ore))
    legs += [(member_account(m), amount) for m, amount in opening.members if amount]
    if opening.cash_ore:
        legs.append((system_account(club, AccountKind.CASH), -opening.cash_ore))
    if opening.treasury_ore:
        legs.append((system_account(club, AccountKind.TREASURY), opening.treasury_ore))
    if opening.equity_ore:
        legs.append((system_account(club, AccountKind.OPENING), opening.equity_ore))
    return legs


def open_books(
    club: Club, opening: Opening, by: User | None, *, submission: str = ""
) -> tuple[Transaction, bool]:
    """Post the opening; ``(transaction, True)`` when this call posted it.

    ``submission`` is the form's one-time key: the same key again (a double tap) gets the
    opening it posted, ``False``; any other attempt while an opening stands is refused."""
    check_opening(club, opening)
    ref = f"{REF_PREFIX}{submission}" if submission else ""
    with transaction.atomic():
        Club.objects.select_for_update().get(pk=club.pk)
        standing = standing_opening(club)
        if standing is not None:
            if ref and standing.ref == ref:
                return standing, False
            raise LedgerError(
                _(
                    "The books were already opened on %(date)s. Reverse that opening first "
                    "if it was wrong."
                )
                % {"date": standing.date.isoformat()},
                code="opened",
            )
        tx = post(
            club,
            _legs(club, opening),
            opening_memo(opening.date),
            Source.OPENING,
            by,
            date=opening.date,
            key=next_key(club),
            ref=ref,
        )
    return tx, True


# --- reversal --------------------------------------------------------------------------------


def reversal_refusal(tx: Transaction) -> str | None:
    """Why the opening ``tx`` may no longer be reversed (None: it may): a game or an evening
    has moved one of the pots or betar it opened since."""
    opened = Entry.objects.filter(
        transaction=tx, account__kind__in=(AccountKind.POT, AccountKind.BET)
    ).values("account_id")
    later = Entry.objects.filter(account_id__in=opened, transaction_id__gt=tx.pk).exclude(
        transaction__reverses=tx
    )
    if not later.exists():
        return None
    return _(
        "Games have been played from the pots or bets of this opening since it was posted; "
        "it can no longer be reversed. Correct members' balances and the cash box with "
        "payments and transfers."
    )


def _guard_reversal(sender, instance: Transaction, raw: bool = False, **kwargs) -> None:
    """Refuse the reversal of an opening whose pots have been played from, in the reversal's
    own database transaction (``ledger.postings.reverse`` writes it), so nothing is posted."""
    if raw or instance.pk is not None or instance.reverses_id is None:
        return
    if instance.source != Source.OPENING:
        return
    refusal = reversal_refusal(instance.reverses)
    if refusal:
        raise LedgerError(refusal, code="opening_played")


def connect() -> None:
    pre_save.connect(_guard_reversal, sender=Transaction, dispatch_uid="ledger-opening-reversal")


def bet_owners(club: Club, game_key: str, table: int | None = None) -> dict[int, list[str]]:
    """The member named on each bet account of ``game_key`` (at ``table``), by bet number: an
    opened bet names who put it in (a bet a game set names no one: its owners are in that
    game's snapshot). For Polskt pass's start, whose owners otherwise come from snapshots."""
    prefix = game_bet_key(game_key, "", table)
    rows = Account.objects.filter(
        club=club, kind=AccountKind.BET, key__startswith=prefix, member__isnull=False
    ).values_list("key", "member__name")
    return {int(key[len(prefix) :]): [name] for key, name in rows if key[len(prefix) :].isdigit()}
