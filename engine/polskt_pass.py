"""Polskt pass: a score sheet with a pot and betar (polskt_pass.sv.txt; NOTES.md P1–P12).

Three to five players (five play with the eights, 28 cards). Each deal the dealer puts the
club's stake in the pot. Whoever wins the trick-taking (three tricks, or first to two when
nobody takes three — P9) takes the amount played for: the whole pot plus at most one bet, the
least valuable outstanding one (P1, P3: the oldest of equal ones). A spelförare who does not
win sets a bet — the amount played for, or twice it (``Rules.bet_size``, P2) — kept apart from
the pot and from the other betar until a later deal is played for it (P12).

Design — the pad records what happens at the table, one short event at a time:

- ``deal`` {suit, rank, cutter_jack, dealer_takes}: the dealer's stake goes into the pot; the
  cutter (the dealer's right-hand neighbour, P10) may have taken a bottom jack; the turn-up is
  a suit and a rank (``"J"``, ``"A"``, another rank or ``"other"``). A jack or the cutter's jack
  forces the dealer to take it, an ace lets him choose (``dealer_takes`` must then be given),
  anything else stays. If the dealer took, there is no bidding: the dealer is spelförare (and
  the cutter too, each alone, when he took a jack); trump is the turned suit.
- ``bid`` {player, suit}: in the first round the player plays in the turned suit; in the
  second (wieder) round förhand may name any suit, the others only the three not turned up.
  The players before him in the round passed. ``all_pass``: the whole round passed; after
  the second round the deal passes (the pot keeps the stake; the next dealer adds one).
- Tricks, two ways: ``trick`` {winner} one at a time (the deal is settled as soon as its
  winner is certain — three tricks, or first to two when nobody else can reach three; or when
  a la vola is won or lost), with ``la_vola`` {player} at the lead to the third trick by the
  player who took the first two; or ``tricks`` at once: {counts: {player: n}, first_two} or
  {winners: [player, …]}, each with an optional ``la_vola``. Counts add up to the five tricks,
  except for a lost la vola: the la vola player's tricks plus the one trick he lost, after
  which play stopped.
- ``end``: the evening is over (only between deals); standings by net money. Pot and betar
  stay in the club's accounts for the next evening.

What no table can produce (issue 25). The pad records per deal the turn-up (a suit and a rank,
or "other"), whether the cutter took a bottom jack and whether the dealer took the turn-up, the
bidding, who took the tricks (one by one, as a list, or as counts with who reached two first)
and any la vola — not the cards in the hands. Every recorded fact agrees with the deck (24 cards,
nine to ace; 28 with the eights at five) and with the others of the deal:

1. The turn-up is a card of the deck: an eight only at five players.
2. Taking the turn-up follows the card: after the cutter's bottom jack or on a turned jack the
   dealer takes it (never "does not take"); on an ace he chooses (and must say which); any
   other card stays. So there are two spelförare only when the cutter took a jack, and there
   is no bidding when the dealer took.
3. The bidding follows the turn-up: the first round plays in the turned suit; in the second
   (wieder) only förhand may name the turned suit.
4. Five tricks: each player holds five cards (the dealer and the cutter lay away a sixth), one
   to each trick, so the counts add up to five and nobody takes more; the trick-by-trick entry
   ends when the winner is certain and takes no trick after that.
5. Who reached two first is a player with at least two tricks, and must be said when two took
   two each.
6. La vola is said only by the player who took the first two tricks, at the lead to the third;
   it ends with all five his, or at the first trick he loses (his tricks and that one: the
   others took one trick between them).
The money (the amount played for, betar) follows from these facts and is not recorded. Any
sequence of trick winners is reachable with some deal (the simulator,
``tests/engine/simulate/polskt_pass.py``, deals and plays real cards: the standing jacks,
following suit). Issue 25 added no check that a stored game could fail; ``new_game(...,
legacy_facts=True)`` is taken, like every engine's, and changes nothing.

Money: ``"pot"`` and ``"bet:<id>"`` are accounts (the recording layer maps them to the club's
``pot:polskt_pass`` and ``bet:polskt_pass:<id>``), so every stake, payout and bet is a
``Transfer`` posted as it happens and the ledger equals ``State.pot_ore`` and ``State.betar``
at every moment. A won la vola takes the amount played for and the same again from each other
player, and no bet is set (P7); a lost la vola is a passed deal with no payment at all (P6).
Five players with one trick each: no winner, the spelförare sets a bet on the amount played
for including the bet in play (P8), pot and betar stay. Two spelförare play independently:
each who does not win sets his bet on the same amount (P5); a club may merge two such betar
into one of the summed size, owned by both, each paying his share (``Rules.merge_betar``, P4).

Honours (issue 29): a won la vola is kept in ``State.honours`` (``LA_VOLA``,
with the deal's number), so a club can pay a prize for it; replay rebuilds it.

Setup: ``new_game(players, rules, first_dealer, pot_ore, betar, next_bet_id)`` takes the pot and
the outstanding betar of earlier evenings (owners are names there; inside a game they are seat
keys). A new bet takes ``next_bet_id``, so ids are never reused.

Calculators: ``bet_in_play``, ``played_for``, ``first_to_two``, ``decided``, ``winner_of``,
``settle`` (the money of one deal, also behind the calculator page), ``la_vola_possible``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from engine.base import (
    MAX_LIST,
    POT,
    Declaration,
    EventType,
    Flag,
    Kind,
    PerPlayer,
    Player,
    Standing,
    Transfer,
    Whole,
    check_money,
    check_pot,
    clockwise,
    dispatch,
    event_types,
    is_whole,
    left_of,
    may,
    need,
    net_by_account,
    placements,
    right_of,
    seat_players,
)
from engine.errors import IllegalEvent, Line, Ore, _, listed
from engine.honours import Honour, HonourKind

KEY = "polskt_pass"
NAME = _("Polish pass")

# The famous hand (engine.honours): a won la vola.
LA_VOLA = f"{KEY}:la_vola"
PRIZE_HANDS = (HonourKind(LA_VOLA, KEY, _("a won la vola")),)
MIN_PLAYERS = 3
MAX_PLAYERS = 5

TRICKS = 5
SUITS = ("C", "S", "H", "D")  # klöver, spader, hjärter, ruter
SUIT_SYMBOLS = {"C": "♣", "S": "♠", "H": "♥", "D": "♦"}
BET_SIZES = ("single", "double")
OTHER = "other"  # a turned card that is neither a jack nor an ace, rank not recorded
RANKS = ("9", "10", "J", "Q", "K", "A")  # the 24-card deck
FIVE_PLAYER_RANKS = ("8", *RANKS)  # "Om man spelar på fem personer, måste man ta med åttorna"

_SUIT_WORDS = {
    **{s: s for s in SUITS},
    **{sym: s for s, sym in SUIT_SYMBOLS.items()},
    "KL": "C", "KLÖVER": "C", "CLUBS": "C",
    "SP": "S", "SPADER": "S", "SPADES": "S",
    "HJ": "H", "HJÄRTER": "H", "HEARTS": "H",
    "RU": "D", "RUTER": "D", "DIAMONDS": "D",
}  # fmt: skip
_RANK_WORDS = {
    "T": "10", "KN": "J", "KNEKT": "J", "JACK": "J", "D": "Q", "DAM": "Q", "QUEEN": "Q",
    "KUNG": "K", "KING": "K", "E": "A", "ESS": "A", "ACE": "A", "ANNAT": OTHER, "OTHER": OTHER,
}  # fmt: skip

DEAL, BIDDING, PLAY, OVER = "deal", "bidding", "play", "over"


@dataclass(frozen=True)
class Rules:
    # Read by the start form; class attributes, not fields.
    CHOICES = {"bet_size": BET_SIZES}
    LABELS = {
        "stake_ore": _("Stake per deal"),
        "bet_size": _("Size of a bet"),
        "merge_betar": _("Merge two bets (betar) into one"),
    }
    CHOICE_LABELS = {
        "bet_size": {
            "single": _("The amount played for"),
            "double": _("Twice the amount played for"),
        }
    }

    stake_ore: int = 100  # "den överenskomna insatsen" per deal
    bet_size: str = "single"  # P2: the bet is the amount played for, or twice it
    merge_betar: bool = False  # P4: two failing spelförare set one bet of the summed size

    def __post_init__(self) -> None:
        if not is_whole(self.stake_ore):
            raise ValueError("stake_ore must be a whole number of öre")
        if self.stake_ore <= 0:
            raise ValueError("the stake per deal must be more than 0")
        if self.bet_size not in BET_SIZES:
            raise ValueError(f"bet_size must be one of {', '.join(BET_SIZES)}")
        if not isinstance(self.merge_betar, bool):
            raise ValueError("merge_betar must be true or false")
        check_money(self)


@dataclass(frozen=True)
class Bet:
    """An outstanding bet: its own account ``bet:<id>``. Owners are seat keys when set in this
    game, names when carried over from an earlier evening; a merged bet has two (P4)."""

    id: int
    amount_ore: int
    owners: tuple[str, ...] = ()
    deal: int = 0  # the deal of this game that set it; 0 = carried over

    @property
    def account(self) -> str:
        return f"bet:{self.id}"


@dataclass(frozen=True)
class Deal:
    """The deal in progress."""

    number: int
    dealer: str
    cutter: str
    forhand: str
    cutter_jack: bool
    turned_suit: str
    turned_rank: str
    dealer_took: bool
    amount_ore: int  # the amount played for: the pot (with this deal's stake) + the bet in play
    bet_in_play: int | None
    round: int = 0  # bidding round 1 or 2; 0 when the dealer took and there is no bidding
    spelforare: tuple[str, ...] = ()
    trump: str = ""
    trick_winners: tuple[str, ...] = ()
    la_vola: str | None = None


@dataclass(frozen=True)
class DealRow:
    """One line of the sheet: a finished or passed deal."""

    number: int
    dealer: str
    turned: str
    spelforare: tuple[str, ...]
    trump: str
    outcome: str  # won | no_winner | la_vola_won | la_vola_lost | passed
    winner: str | None
    la_vola: str | None
    tricks: dict[str, int]
    amount_ore: int
    bet_in_play: int | None
    betar_set: tuple[Bet, ...]
    pot_after_ore: int


@dataclass(frozen=True)
class Settlement:
    """The money of one played deal: transfers, and the pot and betar after it."""

    transfers: tuple[Transfer, ...]
    pot_ore: int
    betar: tuple[Bet, ...]
    next_bet_id: int
    betar_set: tuple[Bet, ...]
    outcome: str
    amount_ore: int
    lines: tuple[Line, ...]


@dataclass(frozen=True)
class State:
    players: tuple[str, ...]
    rules: Rules = Rules()
    dealer: str = ""  # the dealer of the deal in progress, or of the next one
    phase: str = DEAL
    pot_ore: int = 0
    betar: tuple[Bet, ...] = ()
    next_bet_id: int = 1
    played_for_ore: int = 0  # the amount played for now, or in the next deal
    current: Deal | None = None
    sheet: tuple[DealRow, ...] = ()
    money: dict[str, int] = field(default_factory=dict)  # each player's net this evening
    transfers: tuple[Transfer, ...] = ()
    finished: bool = False
    standings: tuple[Standing, ...] = ()
    expected: tuple[str, ...] = ("deal",)
    log: tuple[Line, ...] = ()
    legacy_facts: bool = False  # issue 25: taken like every engine's; nothing to skip here
    # Every won la vola of the game (``engine.honours``): a club may pay a prize for it.
    honours: tuple[Honour, ...] = ()


# --- calculators -----------------------------------------------------------------------------


def bet_in_play(betar: Sequence[Bet]) -> Bet | None:
    """The bet a deal is played for: the least valuable, of equal ones the oldest (P3)."""
    return min(betar, key=lambda b: (b.amount_ore, b.id), default=None)


def played_for(pot_ore: int, betar: Sequence[Bet]) -> int:
    """The amount played for: the whole pot plus the bet in play (P1)."""
    bet = bet_in_play(betar)
    return pot_ore + (bet.amount_ore if bet else 0)


def _tally(taken: Sequence[str]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for player in taken:
        counts[player] = counts.get(player, 0) + 1
    return counts


def first_to_two(taken: Sequence[str]) -> str | None:
    """The player who first had two tricks, given the trick winners in order."""
    seen: dict[str, int] = {}
    for player in taken:
        seen[player] = seen.get(player, 0) + 1
        if seen[player] == 2:
            return player
    return None


def decided(taken: Sequence[str], players: Sequence[str]) -> bool:
    """Whether the trick-taking has a certain outcome after these tricks (no la vola)."""
    counts = _tally(taken)
    remaining = TRICKS - len(taken)
    if remaining <= 0 or max(counts.values(), default=0) >= 3:
        return True
    first = first_to_two(taken)
    if first is None:
        return False
    return all(counts.get(p, 0) + remaining < 3 for p in players if p != first)


def winner_of(taken: Sequence[str], players: Sequence[str]) -> str | None:
    """The winner of decided tricks: three tricks beat the first to two (P9); None when nobody
    took two (five players, one trick each)."""
    counts = _tally(taken)
    three = [p for p in players if counts.get(p, 0) >= 3]
    return three[0] if three else first_to_two(taken)


def settle(
    *,
    pot_ore: int,
    betar: Sequence[Bet],
    next_bet_id: int,
    players: Sequence[str],
    spelforare: Sequence[str],
    winner: str | None,
    rules: Rules,
    la_vola: str | None = None,
    deal: int = 0,
) -> Settlement:
    """The money of one played deal.

    ``winner`` None: nobody won (five players, one trick each). ``la_vola`` "won" (by
    ``winner``) or "lost" (a passed deal: nothing moves, P6).
    """
    betar = tuple(betar)
    if la_vola not in (None, "won", "lost") or (la_vola == "won" and winner is None):
        raise IllegalEvent(_("a la vola is either won by its player or lost"))
    if la_vola == "lost":
        return Settlement(
            (), pot_ore, betar, next_bet_id, (), "la_vola_lost", played_for(pot_ore, betar),
            (Line(_("La vola failed: a passed round, nobody pays")),),
        )  # fmt: skip
    bet = bet_in_play(betar)
    amount = played_for(pot_ore, betar)
    if amount <= 0:
        raise IllegalEvent(_("nothing is played for: the pot is empty and there is no bet"))
    transfers: list[Transfer] = []
    lines: list[Line] = []
    if winner is not None:
        if pot_ore:
            transfers.append(Transfer(POT, winner, pot_ore))
        if bet is None:
            lines.append(
                Line(
                    _("{player} wins {amount}: the pot ({pot})"),
                    player=winner,
                    amount=Ore(amount),
                    pot=Ore(pot_ore),
                )
            )
        else:
            transfers.append(Transfer(bet.account, winner, bet.amount_ore))
            betar = tuple(b for b in betar if b.id != bet.id)
            lines.append(
                Line(
                    _("{player} wins {amount}: the pot ({pot}) and bet {bet} ({bet_amount})"),
                    player=winner,
                    amount=Ore(amount),
                    pot=Ore(pot_ore),
                    bet=bet.id,
                    bet_amount=Ore(bet.amount_ore),
                )
            )
        pot_ore = 0
    else:
        lines.append(Line(_("No winner (one trick each): the pot and the betar stay")))
    if la_vola == "won":
        for player in players:
            if player != winner:
                transfers.append(Transfer(player, winner, amount))
        lines.append(
            Line(
                _("La vola: each of the others pays {player} {amount}"),
                player=winner,
                amount=Ore(amount),
            )
        )
        return Settlement(
            tuple(transfers), pot_ore, betar, next_bet_id, (), "la_vola_won", amount, tuple(lines)
        )
    failing = [s for s in spelforare if s != winner]
    size = amount * (2 if rules.bet_size == "double" else 1)
    groups = (
        [tuple(failing)] if rules.merge_betar and len(failing) == 2 else [(s,) for s in failing]
    )
    new: list[Bet] = []
    for owners in groups:
        placed = Bet(next_bet_id, size * len(owners), owners, deal)
        next_bet_id += 1
        new.append(placed)
        transfers.extend(Transfer(owner, placed.account, size) for owner in owners)
        lines.append(_bet_placed(owners, placed))
    outcome = "won" if winner is not None else "no_winner"
    return Settlement(
        tuple(transfers), pot_ore, betar + tuple(new), next_bet_id, tuple(new), outcome, amount,
        tuple(lines),
    )  # fmt: skip


def _bet_placed(owners: Sequence[str], placed: Bet) -> Line:
    amount = Ore(placed.amount_ore)
    if len(owners) == 1:
        return Line(
            _("{player} places bet {bet}: {amount}"), player=owners[0], bet=placed.id, amount=amount
        )
    first, second = owners
    return Line(
        _("{player} and {partner} place bet {bet}: {amount}"),
        player=first,
        partner=second,
        bet=placed.id,
        amount=amount,
    )


def la_vola_possible(state: State) -> bool:
    """Whether the player who took the first two tricks may say la vola now."""
    deal = state.current
    return (
        state.phase == PLAY
        and deal is not None
        and deal.la_vola is None
        and len(deal.trick_winners) == 2
        and deal.trick_winners[0] == deal.trick_winners[1]
    )


# --- the game --------------------------------------------------------------------------------


def new_game(
    players: Sequence[str],
    rules: Rules = Rules(),
    first_dealer: str | None = None,
    pot_ore: int = 0,
    betar: Sequence[Mapping[str, Any]] = (),
    next_bet_id: int | None = None,
    legacy_facts: bool = False,
) -> State:
    """A new evening. ``pot_ore`` and ``betar`` are the club's, carried over (P12)."""
    players, dealer = seat_players(players, "Polskt pass", MIN_PLAYERS, MAX_PLAYERS, first_dealer)
    if not is_whole(pot_ore) or pot_ore < 0:
        raise IllegalEvent(
            _("the pot carried over must be 0 öre or more, not {pot}"), pot=repr(pot_ore)
        )
    check_pot(pot_ore)
    carried = _carried_betar(betar)
    highest = max((b.id for b in carried), default=0)
    if next_bet_id is None:
        next_bet_id = highest + 1
    if not is_whole(next_bet_id) or next_bet_id <= highest:
        raise IllegalEvent(
            _("next_bet_id must be more than every carried bet id ({highest})"), highest=highest
        )
    state = State(
        players=players,
        rules=rules,
        dealer=dealer,
        pot_ore=pot_ore,
        betar=carried,
        next_bet_id=next_bet_id,
        money=dict.fromkeys(players, 0),
        legacy_facts=bool(legacy_facts),
    )
    return _between_deals(state)


def _carried_betar(betar: Sequence[Mapping[str, Any]]) -> tuple[Bet, ...]:
    result: list[Bet] = []
    for item in betar:
        if not isinstance(item, Mapping):
            raise IllegalEvent(_("each carried bet needs an id, an amount_ore and its owners"))
        bet_id, amount = item.get("id"), item.get("amount_ore")
        if not is_whole(bet_id) or bet_id <= 0:
            raise IllegalEvent(
                _("a carried bet needs a positive whole id, not {value}"), value=repr(bet_id)
            )
        if not is_whole(amount) or amount <= 0:
            raise IllegalEvent(
                _("bet {bet}: the amount must be more than 0 öre, not {value}"),
                bet=bet_id,
                value=repr(amount),
            )
        check_pot(amount)
        if any(b.id == bet_id for b in result):
            raise IllegalEvent(_("bet {bet} is carried over twice"), bet=bet_id)
        owners = item.get("owners")
        if owners is None:
            owners = [item["owner"]] if item.get("owner") else []
        result.append(Bet(bet_id, amount, tuple(str(o) for o in owners), 0))
    return tuple(sorted(result, key=lambda b: b.id))


def apply(state: State, event: Mapping[str, Any]) -> State:
    if state.finished:
        raise IllegalEvent(_("the evening is over; nothing more can be recorded"))
    return dispatch(state, event, EVENTS, game=NAME)


def _in_phase(phase: str, handle: Callable[[State, Mapping[str, Any]], State]):
    """A handler that first refuses an event out of its phase (after its payload is checked)."""

    def handler(state: State, event: Mapping[str, Any]) -> State:
        if state.phase != phase:
            if event["type"] == "end":
                raise IllegalEvent(
                    _("the evening ends between deals: finish this deal first (or undo it)")
                )
            raise IllegalEvent(_PHASE_TEXT[state.phase], kind=EVENTS[event["type"]].words)
        return handle(state, event)

    return handler


# An event out of phase: ``kind`` is the event in words (its ``EventType.words``).
_PHASE_TEXT = {
    DEAL: _(
        "{kind}: no deal is in progress; record the deal first (the dealer's stake and the turn-up)"
    ),
    BIDDING: _("{kind}: the bidding is not over yet"),
    PLAY: _("{kind}: the deal is being played; record the tricks"),
}


# --- small readers ---------------------------------------------------------------------------


def _words(event: Mapping[str, Any], name: str) -> Any:
    """A field of the event in the reader's words (its declaration's), for a refusal."""
    return EVENTS[event["type"]].payload[name].words


def _player(state: State, value: Any, event: Mapping[str, Any], name: str) -> str:
    """``value``, read from the field ``name`` of ``event``: a player at the table."""
    if value not in state.players:
        raise IllegalEvent(
            _("{field}: {player} is not a player in this game"),
            field=_words(event, name),
            player=repr(value),
        )
    return value


def _suit(value: Any) -> str:
    suit = _SUIT_WORDS.get(str(value).strip().upper()) if value is not None else None
    if suit is None:
        raise IllegalEvent(_("{suit} is not a suit: use C, S, H or D (♣ ♠ ♥ ♦)"), suit=repr(value))
    return suit


def _rank(state: State, value: Any) -> str:
    text = str(value).strip().upper() if value is not None else ""
    rank = _RANK_WORDS.get(text, text)
    if rank == "8" and len(state.players) < 5:
        raise IllegalEvent(
            _(
                "there are no 8s in the 24-card deck ({count} players); only five play with the "
                "eights"
            ),
            count=len(state.players),
        )
    if rank != OTHER and rank not in FIVE_PLAYER_RANKS:
        raise IllegalEvent(
            _(
                "rank {rank} is not in the deck: use 9, 10, J, Q, K, A (8 with five players) or "
                "'other'"
            ),
            rank=repr(value),
        )
    return rank


def _flag(event: Mapping[str, Any], name: str) -> bool | None:
    value = event.get(name)
    if value is None:
        return None
    if value in (True, False):  # also 1 and 0
        return bool(value)
    raise IllegalEvent(
        _("{field} must be true or false, not {value}"),
        field=_words(event, name),
        value=repr(value),
    )


def _card(suit: str, rank: str) -> str:
    return SUIT_SYMBOLS[suit] if rank == OTHER else f"{rank}{SUIT_SYMBOLS[suit]}"


def _bidding_order(state: State, deal: Deal) -> list[str]:
    return clockwise(state.players, deal.forhand, state.players)


def _expected(state: State) -> tuple[str, ...]:
    if state.finished:
        return ()
    if state.phase == DEAL:
        return ("deal", "end") if state.sheet else ("deal",)
    if state.phase == BIDDING:
        return ("bid", "all_pass")
    deal = state.current
    assert deal is not None
    moves = ("trick",) if deal.trick_winners or deal.la_vola else ("trick", "tricks")
    return ("la_vola", *moves) if la_vola_possible(state) else moves


def _between_deals(state: State) -> State:
    """Ready for the next deal: its dealer's stake is not in the pot yet."""
    state = replace(
        state,
        phase=DEAL,
        current=None,
        played_for_ore=played_for(state.pot_ore + state.rules.stake_ore, state.betar),
    )
    return replace(state, expected=_expected(state))


# --- events ----------------------------------------------------------------------------------


def _deal(state: State, event: Mapping[str, Any]) -> State:
    suit = _suit(event.get("suit"))
    rank = _rank(state, event.get("rank"))
    cutter_jack = bool(_flag(event, "cutter_jack"))
    takes = _flag(event, "dealer_takes")
    dealer, players = state.dealer, state.players
    cutter = right_of(players, dealer)
    # "Om det är en knekt som slås upp eller om spelaren som kuperade tog bottenkortet, måste
    # givaren ta det uppslagna kortet. Om det är ett ess … får givaren välja" (P10)
    if cutter_jack or rank == "J":
        if takes is False:
            if cutter_jack:
                raise IllegalEvent(
                    _("the dealer must take the turned card: the cutter took a jack")
                )
            raise IllegalEvent(_("the dealer must take the turned card: a jack was turned up"))
        took = True
    elif rank == "A":
        if takes is None:
            raise IllegalEvent(_("an ace was turned up: say whether the dealer takes it"))
        took = takes
    else:
        if takes:
            raise IllegalEvent(
                _(
                    "the dealer may take the turned card only if it is a jack or an ace, or after "
                    "the cutter took a jack from the bottom"
                )
            )
        took = False
    stake = state.rules.stake_ore
    pot = state.pot_ore + stake
    bet = bet_in_play(state.betar)
    deal = Deal(
        number=len(state.sheet) + 1,
        dealer=dealer,
        cutter=cutter,
        forhand=left_of(players, dealer),
        cutter_jack=cutter_jack,
        turned_suit=suit,
        turned_rank=rank,
        dealer_took=took,
        amount_ore=played_for(pot, state.betar),
        bet_in_play=bet.id if bet else None,
    )
    card = _card(suit, rank)
    log = [
        Line(
            _("Deal {number}: {player} deals and puts {stake} in the pot ({pot})"),
            number=deal.number,
            player=dealer,
            stake=Ore(stake),
            pot=Ore(pot),
        )
    ]
    if cutter_jack:
        log.append(Line(_("{player} took a jack from the bottom"), player=cutter))
    if took:
        # "Om givaren tog det uppslagna kortet sker ingen budgivning" — one or two spelförare.
        spelforare = (dealer, cutter) if cutter_jack else (dealer,)
        deal = replace(deal, spelforare=spelforare, trump=suit)
        if cutter_jack:
            log.append(
                Line(
                    _("Turned up {card}: {player} takes it; {player} and {partner} play"),
                    card=card,
                    player=dealer,
                    partner=cutter,
                )
            )
        else:
            log.append(
                Line(_("Turned up {card}: {player} takes it and plays"), card=card, player=dealer)
            )
        phase = PLAY
    else:
        deal = replace(deal, round=1)
        log.append(Line(_("Turned up {card}: bidding"), card=card))
    log.append(Line(_("Played for {amount}"), amount=Ore(deal.amount_ore)))
    state = replace(
        state,
        phase=phase if took else BIDDING,
        pot_ore=pot,
        current=deal,
        played_for_ore=deal.amount_ore,
        money={**state.money, dealer: state.money[dealer] - stake},
        transfers=(Transfer(dealer, POT, stake),),
        log=tuple(log),
    )
    return replace(state, expected=_expected(state))


def _bid(state: State, event: Mapping[str, Any]) -> State:
    deal = state.current
    assert deal is not None
    player = _player(state, event.get("player"), event, "player")
    turned = deal.turned_suit
    given = event.get("suit")
    if deal.round == 1:
        # "anger om hen vill vara spelförare med färgen på det uppslagna kortet som trumf"
        suit = turned if given in (None, "") else _suit(given)
        if suit != turned:
            raise IllegalEvent(
                _(
                    "in the first round the trump is the turned suit {turned}; {suit} can only be "
                    "named in the second (wieder) round"
                ),
                turned=SUIT_SYMBOLS[turned],
                suit=SUIT_SYMBOLS[suit],
            )
    else:
        if given in (None, ""):
            raise IllegalEvent(_("in the second round the spelförare names the trump suit"))
        suit = _suit(given)
        # "Förhand får ange vilken färg som helst … övriga spelare får bara välja någon av de
        # tre färgerna som inte slogs upp."
        if suit == turned and player != deal.forhand:
            others = " ".join(SUIT_SYMBOLS[s] for s in SUITS if s != turned)
            raise IllegalEvent(
                _(
                    "only förhand ({forhand}) may name the turned suit {turned}; {player} may "
                    "choose {suits}"
                ),
                forhand=deal.forhand,
                turned=SUIT_SYMBOLS[turned],
                player=player,
                suits=others,
            )
    order = _bidding_order(state, deal)
    passed = order[: order.index(player)]
    log = []
    if passed:
        said = _("Passed: {players}") if deal.round == 1 else _("Wieder: {players}")
        log.append(Line(said, players=listed(passed)))
    log.append(Line(_("{player} plays in {suit}"), player=player, suit=SUIT_SYMBOLS[suit]))
    state = replace(
        state,
        phase=PLAY,
        current=replace(deal, spelforare=(player,), trump=suit),
        transfers=(),
        log=tuple(log),
    )
    return replace(state, expected=_expected(state))


def _all_pass(state: State, event: Mapping[str, Any]) -> State:
    deal = state.current
    assert deal is not None
    if deal.round == 1:
        state = replace(
            state,
            current=replace(deal, round=2),
            transfers=(),
            log=(
                Line(
                    _("Everyone passes on {suit}: second round of bidding"),
                    suit=SUIT_SYMBOLS[deal.turned_suit],
                ),
            ),
        )
        return replace(state, expected=_expected(state))
    # "Om alla spelarna passar två gånger, avslutas given och turen att ge går vidare"
    row = DealRow(
        number=deal.number,
        dealer=deal.dealer,
        turned=_card(deal.turned_suit, deal.turned_rank),
        spelforare=(),
        trump="",
        outcome="passed",
        winner=None,
        la_vola=None,
        tricks={},
        amount_ore=deal.amount_ore,
        bet_in_play=deal.bet_in_play,
        betar_set=(),
        pot_after_ore=state.pot_ore,
    )
    return _next_deal(state, row, (), (Line(_("Everyone says wieder: the deal passes on")),))


def _la_vola(state: State, event: Mapping[str, Any]) -> State:
    deal = state.current
    assert deal is not None
    player = _player(state, event.get("player"), event, "player")
    taken = deal.trick_winners
    if deal.la_vola is not None:
        raise IllegalEvent(_("{player} has already said la vola"), player=deal.la_vola)
    if len(taken) > 2:
        raise IllegalEvent(
            _("la vola is said at the lead to the third trick; {count} tricks have been played"),
            count=len(taken),
        )
    if len(taken) < 2:
        raise IllegalEvent(
            _(
                "la vola is said by the player who took the first two tricks; they have not "
                "been played yet"
            )
        )
    if taken[0] != taken[1]:
        raise IllegalEvent(
            _("la vola is said by the player who took the first two tricks; nobody took both")
        )
    if player != taken[0]:
        raise IllegalEvent(
            _("only {first}, who took the first two tricks, may say la vola, not {player}"),
            first=taken[0],
            player=player,
        )
    state = replace(
        state,
        current=replace(deal, la_vola=player),
        transfers=(),
        log=(Line(_("{player} says la vola"), player=player),),
    )
    return replace(state, expected=_expected(state))


def _trick(state: State, event: Mapping[str, Any]) -> State:
    deal = state.current
    assert deal is not None
    winner = _player(state, event.get("winner"), event, "winner")
    taken = (*deal.trick_winners, winner)
    line = Line(_("Trick {number}: {player}"), number=len(taken), player=winner)
    if deal.la_vola is not None:
        # "Om spelaren som anger la vola förlorar ett stick, avbryts spelet."
        if winner != deal.la_vola:
            return _settle(state, _tally(taken), None, "lost", (line,))
        if len(taken) == TRICKS:
            return _settle(state, _tally(taken), winner, "won", (line,))
    elif decided(taken, state.players):
        return _settle(state, _tally(taken), winner_of(taken, state.players), None, (line,))
    state = replace(state, current=replace(deal, trick_winners=taken), transfers=(), log=(line,))
    return replace(state, expected=_expected(state))


def _tricks(state: State, event: Mapping[str, Any]) -> State:
    deal = state.current
    assert deal is not None
    if deal.trick_winners or deal.la_vola:
        raise IllegalEvent(
            _("the tricks are being recorded one by one; record the rest the same way (or undo)")
        )
    has_counts, has_winners = event.get("counts") is not None, event.get("winners") is not None
    if has_counts == has_winners:
        raise IllegalEvent(_("give either the number of tricks per player or the trick winners"))
    la = event.get("la_vola")
    la = None if la in (None, "") else _player(state, la, event, "la_vola")
    if has_winners:
        return _tricks_by_winners(state, event, la)
    return _tricks_by_counts(state, event, la)


def _tricks_by_winners(state: State, event: Mapping[str, Any], la: str | None) -> State:
    winners = event.get("winners")
    if not isinstance(winners, list | tuple):
        raise IllegalEvent(_("give who took each trick as a list, in order"))
    taken = tuple(_player(state, w, event, "winners") for w in winners)
    if len(taken) > TRICKS:
        raise IllegalEvent(_("a deal has five tricks, not {count}"), count=len(taken))
    line = Line(_("Tricks: {tricks}"), tricks=listed(taken))
    if la is not None:
        if taken[:2] != (la, la):
            raise IllegalEvent(
                _("{player} did not take the first two tricks, so he could not say la vola"),
                player=la,
            )
        lost = next((i for i, w in enumerate(taken) if w != la), None)
        if lost is not None:
            if lost < len(taken) - 1:
                raise IllegalEvent(
                    _("after la vola play stops at the trick {player} loses (trick {number})"),
                    player=la,
                    number=lost + 1,
                )
            return _settle(state, _tally(taken), None, "lost", (line,), la)
        if len(taken) < TRICKS:
            raise IllegalEvent(
                _("the la vola is not decided after {count} tricks"), count=len(taken)
            )
        return _settle(state, _tally(taken), la, "won", (line,), la)
    if not decided(taken, state.players):
        raise IllegalEvent(
            _("after these {count} tricks the deal is not decided yet: record more tricks"),
            count=len(taken),
        )
    return _settle(state, _tally(taken), winner_of(taken, state.players), None, (line,))


def _tricks_by_counts(state: State, event: Mapping[str, Any], la: str | None) -> State:
    given, first_two = event.get("counts"), event.get("first_two")
    if not isinstance(given, Mapping):
        raise IllegalEvent(_("give each player's number of tricks"))
    counts = dict.fromkeys(state.players, 0)
    for player, number in given.items():
        _player(state, player, event, "counts")
        if not is_whole(number) or not 0 <= number <= TRICKS:
            raise IllegalEvent(
                _("{player} cannot take {count} tricks"), player=player, count=repr(number)
            )
        counts[player] = number
    total = sum(counts.values())
    tricks = {p: n for p, n in counts.items() if n}
    line = Line(
        _("Tricks: {tricks}"),
        tricks=listed(Line(_("{player} {value}"), player=p, value=n) for p, n in tricks.items()),
    )
    if la is not None:
        own = counts[la]
        if own < 2:
            raise IllegalEvent(
                _(
                    "{player} took {count} trick(s), so he did not take the first two tricks and "
                    "could not say la vola"
                ),
                player=la,
                count=own,
            )
        if own == TRICKS:
            if total != TRICKS:  # five to the la vola player leave none for the others
                raise IllegalEvent(
                    _("the tricks add up to {total}, but a deal has {tricks}"),
                    total=total,
                    tricks=TRICKS,
                )
            return _settle(state, tricks, la, "won", (line,), la)
        if total != own + 1:
            raise IllegalEvent(
                _(
                    "after la vola play stops at the first trick {player} loses: the others took "
                    "{count} tricks, not 1"
                ),
                player=la,
                count=total - own,
            )
        return _settle(state, tricks, None, "lost", (line,), la)
    if total != TRICKS:
        raise IllegalEvent(
            _("the tricks add up to {total}, but a deal has {tricks}"), total=total, tricks=TRICKS
        )
    if first_two not in (None, ""):
        _player(state, first_two, event, "first_two")
        if counts[first_two] < 2:
            raise IllegalEvent(
                _("{player} took {count} trick(s), so he cannot have been the first to take two"),
                player=first_two,
                count=counts[first_two],
            )
    three = [p for p, n in counts.items() if n >= 3]
    twos = [p for p, n in counts.items() if n == 2]
    if three:
        winner = three[0]
    elif len(twos) == 2:
        if first_two in (None, ""):
            raise IllegalEvent(
                _("{player} and {other} took two tricks each: say who got his second first"),
                player=twos[0],
                other=twos[1],
            )
        winner = first_two
    else:
        winner = twos[0] if twos else None
    return _settle(state, tricks, winner, None, (line,))


def _settle(
    state: State,
    tricks: dict[str, int],
    winner: str | None,
    la_vola: str | None,
    log: tuple[Line, ...],
    said: str | None = None,
) -> State:
    """Settle a played deal; ``la_vola`` is "won"/"lost" when ``said`` (or the deal's) la vola
    player played for all five."""
    deal = state.current
    assert deal is not None
    result = settle(
        pot_ore=state.pot_ore,
        betar=state.betar,
        next_bet_id=state.next_bet_id,
        players=state.players,
        spelforare=deal.spelforare,
        winner=winner,
        rules=state.rules,
        la_vola=la_vola,
        deal=deal.number,
    )
    announced = deal.la_vola or said
    row = DealRow(
        number=deal.number,
        dealer=deal.dealer,
        turned=_card(deal.turned_suit, deal.turned_rank),
        spelforare=deal.spelforare,
        trump=deal.trump,
        outcome=result.outcome,
        winner=winner,
        la_vola=announced,
        tricks=tricks,
        amount_ore=deal.amount_ore,
        bet_in_play=deal.bet_in_play,
        betar_set=result.betar_set,
        pot_after_ore=result.pot_ore,
    )
    state = replace(
        state, pot_ore=result.pot_ore, betar=result.betar, next_bet_id=result.next_bet_id
    )
    if result.outcome == "la_vola_won" and winner is not None:
        state = replace(state, honours=(*state.honours, Honour(winner, LA_VOLA, deal.number)))
    return _next_deal(state, row, result.transfers, (*log, *result.lines))


def _next_deal(
    state: State, row: DealRow, transfers: tuple[Transfer, ...], log: tuple[Line, ...]
) -> State:
    nets = net_by_account(transfers)
    money = {p: won + nets.get(p, 0) for p, won in state.money.items()}
    dealer = left_of(state.players, row.dealer)
    state = replace(
        state,
        dealer=dealer,
        sheet=(*state.sheet, row),
        money=money,
        transfers=transfers,
        log=(*log, Line(_("New deal: {player} deals"), player=dealer)),
    )
    return _between_deals(state)


def _end(state: State, event: Mapping[str, Any]) -> State:
    if not state.sheet:
        raise IllegalEvent(_("no deal has been played this evening, so there is nothing to end"))
    pot = Ore(state.pot_ore)
    line = Line(_("The evening is over. The pot of {pot} stays for next time"), pot=pot)
    if state.betar:
        betar = listed(
            Line(_("bet {bet} ({amount})"), bet=b.id, amount=Ore(b.amount_ore)) for b in state.betar
        )
        line = Line(
            _("The evening is over. The pot of {pot}, {betar} stay for next time"),
            pot=pot,
            betar=betar,
        )
    return replace(
        state,
        phase=OVER,
        finished=True,
        standings=placements(state.money),
        expected=(),
        transfers=(),
        log=(line,),
    )


# --- the payloads ------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Word(Kind):
    """A suit or a rank as written (``"H"``, ``"♥"``, ``"hjärter"``, ``"10"``, ``10``): which
    words name one, ``_suit`` and ``_rank`` say."""

    description: str

    def accepts(self, value: Any, players: Sequence[str]) -> bool:
        if isinstance(value, str):
            return 0 < len(value.strip()) <= 24
        return is_whole(value) and 0 <= value <= 99

    def describe(self) -> Any:
        return self.description


@dataclass(frozen=True)
class _Flag(Flag):
    """``true`` or ``false``; also ``1`` and ``0``, as the engine has always read them."""

    def accepts(self, value: Any, players: Sequence[str]) -> bool:
        return value in (True, False)  # 1 == True, 0 == False


@dataclass(frozen=True)
class _Winners(Kind):
    """Who took each trick, in order: the same player may stand several times, so this is not
    ``Players``; how many tricks a deal has and who is not at the table, the handler says."""

    def accepts(self, value: Any, players: Sequence[str]) -> bool:
        return (
            isinstance(value, list | tuple)
            and len(value) <= MAX_LIST
            and all(isinstance(player, str) for player in value)
        )

    def describe(self) -> Any:
        return _("who took each trick, in order")


_SUIT = _Word(_("a suit (C, S, H, D)"))
_RANK = _Word(_("a rank (9, 10, J, Q, K, A, or other)"))

EVENTS = {
    "deal": EventType(
        _in_phase(DEAL, _deal),
        _("a deal"),
        {
            "suit": need(_SUIT, _("the suit of the turn-up")),
            "rank": need(_RANK, _("the rank of the turn-up")),
            "cutter_jack": may(_Flag(), _("whether the cutter took a bottom jack")),
            "dealer_takes": may(_Flag(), _("whether the dealer takes the turn-up")),
        },
    ),
    "bid": EventType(
        _in_phase(BIDDING, _bid),
        _("a bid"),
        {
            "player": need(Player(), _("the player who bids")),
            "suit": may(_SUIT, _("the trump suit named")),
        },
    ),
    "all_pass": EventType(_in_phase(BIDDING, _all_pass), _("a round in which everyone passes")),
    "la_vola": EventType(
        _in_phase(PLAY, _la_vola),
        _("a la vola"),
        {"player": need(Player(), _("the player who says la vola"))},
    ),
    "trick": EventType(
        _in_phase(PLAY, _trick), _("a trick"), {"winner": need(Player(), _("who took the trick"))}
    ),
    "tricks": EventType(
        _in_phase(PLAY, _tricks),
        _("a summary of the tricks"),
        {
            "counts": may(PerPlayer(Whole(0, TRICKS)), _("the tricks each player took")),
            "winners": may(_Winners(), _("the trick winners")),
            "first_two": may(Player(), _("who took two tricks first")),
            "la_vola": may(Player(), _("who said la vola")),
        },
    ),
    "end": EventType(_in_phase(DEAL, _end), _("the end of the evening")),
}
EVENT_TYPES = event_types(EVENTS)
GAME = Declaration(
    KEY,
    NAME,
    MIN_PLAYERS,
    MAX_PLAYERS,
    EVENT_TYPES,
    plays_from_pot=True,
    keeps_betar=True,
    draws_first_dealer=True,
    position=40,
)
