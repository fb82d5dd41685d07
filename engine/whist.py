"""Whist: a score sheet for an evening of rubbers (populara_kortspel.sv.txt, "Whist regler";
NOTES.md W1–W8).

Four variants (``Rules.variant``):

- ``short`` (default): partners opposite — seats 0 & 2 (side 0) against 1 & 3 (side 1); the
  start form's seat order is the draw or choice of partners. Per deal the side that took more
  than six tricks scores one trick point per trick over six. Game at 5. Honours (option,
  default on): 4 points for all four of J-Q-K-A of trumps, 2 for three.
- ``long``: the same with game at 10.
- ``american``: game at 7, never any honours.
- ``guerre`` (whist à la guerre): everyone for himself; a point per trick over four, honours for
  3 / 4 / 5 of A-K-Q-J-10 (2 / 4 / 5 points), 9 wins the partie.

The rules of one deal (``score_deal``, pure):

- trick points: ``tricks − 6`` (``tricks − 4`` à la guerre), never below 0;
- W4: a side that scored no trick point in the deal cannot reach game with honours: it stops one
  short (4 in short whist, 9 in long, 8 à la guerre), from any score;
- W5: when a side makes game, the other side's honours in that deal do not count at all;
- W6: the game is worth 3 / 2 / 1 rubber points by the opponents' score *before* the deal; W2:
  treble at 0, double while the opponents have less than half the game, single from half (short
  1–2 / 3–4, long 1–4 / 5–9, American 1–3 / 4–6). Club option ``game_values="literal"``: the
  seed's numbers read literally (3 or more single) whatever the game;
- W1: points beyond game are not carried; both sides start the next game at 0.

A rubber (partnerships) is best of three (W8: 2–0 ends it); the winners add 2 bonus rubber
points, and the losers pay the difference (W3, ``settlement="each"``): each loser pays
``difference × stake_ore`` to one winner (seat order pairs them), so each winner receives it.
Club options: ``settlement="pair"`` (the losing pair pays it once between them, half each, an
odd öre from the first loser) and the Victorian extras ``game_stake_ore`` (per game of
difference) and ``rubber_stake_ore`` (per rubber), added to the same payment. À la guerre a
partie ends at the first deal in which someone reaches 9; W7: several players at 9 in the same
deal are resolved by ``guerre_tie`` — higher total, then more tricks in that deal (default),
tricks first, or a shared win; a full tie is shared. The text gives no money à la guerre: each
loser pays each winner ``guerre_stake_ore`` (default 0).

The evening (``new_game`` / ``apply``): rubber after rubber (partie after partie) until the
scorer ends the evening. Events:

- ``{"type": "deal", "tricks": {side: n}, "honours": "3-1"}`` — ``side`` is the side number
  (``0``/``1``, or ``"0"``/``"1"``; à la guerre the seat index) or a player key. The tricks of
  one side may be left out (the deal has 13; à la guerre one player may be left out); given in
  full they must add up to 13. ``honours`` is the split the table saw, one count per side in
  side order (à la guerre per seat: ``"2-1-1-1"``), as text or a list, or ``{side: count}``
  with one side left out (it held the rest); it must add up to the honours in play — four,
  A K Q J of trumps; five à la guerre, A K Q J 10 — and the points follow from it (a side with
  3 or 4, a player with 3–5). Games stored before the split replay unchanged: ``honours``
  absent or ``"none"`` (nobody scored them) and ``"side:count"`` (who held 3 or more) are still
  read (``_honours``). The deal row keeps the split (``DealRow.split``).
- ``{"type": "end_evening"}`` — once at least one rubber is finished; a rubber still running is
  not scored (no rubber points, no money).

Every event's payload is declared (``EVENTS``) and checked by ``engine.base.dispatch``.

What no table can produce (issue 25). A deal is played with one 52-card deck, 13 cards to each
of the four players, one card each to every trick; the pad records the tricks of each side
(player) and how the honours were split. Refused:

1. tricks that do not add up to the deal's 13, or a count outside 0–13 (a deal has 13 tricks,
   one per card of a hand);
2. an honours split that does not add up to the honours in play: four, A K Q J of trumps
   (five à la guerre, A K Q J 10) — a card exists once;
3. honours held that the tricks taken contradict. An honour loses its trick only to a higher
   trump in the same trick, and every higher trump than an honour is an honour too; each player
   plays one card to a trick (a side, two). So the side holding all four honours won the
   tricks they fell in — at least two, as the partners together play at most two of them to
   one trick; three honours win at least one trick (the one the opponents' single honour
   cannot reach). À la guerre each of a player's honours falls in a trick of its own: all five
   win five tricks, four at least three (the fifth can beat only one), three at least one; and
   the counts must be reachable together — with 3-2-0-0 the player with two honours can lose
   both only to two higher honours of the player with three, who then wins at least three
   tricks (``honour_tricks_possible``: an exhaustive search over who held which honour and
   which honours fell in the same trick). A split given in part (one side left out, à la
   guerre the rest of two or fewer) is refused only when no way of completing it fits.

Only item 3 is new in issue 25: a game stored before it (``setup["legacy_facts"]``, kept as
``State.legacy_facts``) replays without it.

Money moves only when a rubber (partie) ends, as transfers between the players. The state keeps
the current rubber's game score (``scores``), games, rubber points and deal rows, the finished
rubbers with their rows and money, and per player the evening's net rubber points (``points``;
à la guerre: parties won) and ``rubbers_won``. Standings (at the end of the evening) rank by
``points``: net rubber points, both partners alike — money follows rubber points except for the
Victorian extras, and it may be zero. ``teams`` maps each player to his side for the league's
team ratings; ``league_details`` carries ``rubbers_won``.

Calculators: ``trick_points``, ``honour_points``, ``game_value``, ``score_deal``, and
``score_rubber`` (one rubber from its deals, refusing deals after its winner is known).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from itertools import permutations
from typing import Any

from engine.base import (
    Declaration,
    EventType,
    Kind,
    Standing,
    Transfer,
    Whole,
    check_money,
    dispatch,
    event_types,
    is_whole,
    left_of,
    may,
    need,
    net_by_account,
    placements,
    seat_players,
)
from engine.errors import IllegalEvent, Line, Ore, _, listed

KEY = "whist"
NAME = _("Whist")
MIN_PLAYERS = 4
MAX_PLAYERS = 4

TRICKS = 13
VARIANTS = ("short", "long", "american", "guerre")
TARGETS = {"short": 5, "long": 10, "american": 7, "guerre": 9}
BOOK = {"short": 6, "long": 6, "american": 6, "guerre": 4}  # tricks that score nothing
HONOURS = {
    "short": {3: 2, 4: 4},
    "long": {3: 2, 4: 4},
    "american": {},  # "inga honnörspoäng"
    "guerre": {3: 2, 4: 4, 5: 5},  # three, four or all five of A-K-Q-J-10
}
# The honours in play: "de fyra högsta korten: Kn-D-K-E i trumffärgen"; à la guerre "de fem
# högsta korten (E-10)". A deal's split of them adds up to this.
HONOUR_CARDS = {"short": 4, "long": 4, "american": 4, "guerre": 5}
LEAST_SCORING = 3  # fewer than three honours never score
GAMES_TO_WIN = 2  # W8: best of three
RUBBER_BONUS = 2
TREBLE, DOUBLE, SINGLE = 3, 2, 1


@dataclass(frozen=True)
class Rules:
    variant: str = "short"
    honours: bool = True  # "ofta, men inte alltid": club option (never in American whist)
    stake_ore: int = 100  # per rubber point of difference
    settlement: str = "each"  # W3: each loser pays the difference; "pair": once between them
    game_values: str = "half"  # W2: double below half the game; "literal": 3 or more single
    game_stake_ore: int = 0  # W3, Victorian: per game of difference
    rubber_stake_ore: int = 0  # W3, Victorian: per rubber
    guerre_tie: str = "total_then_tricks"  # W7
    guerre_stake_ore: int = 0  # W7: the text gives no money à la guerre

    CHOICES = {
        "variant": VARIANTS,
        "settlement": ("each", "pair"),
        "game_values": ("half", "literal"),
        "guerre_tie": ("total_then_tricks", "tricks_then_total", "shared"),
    }
    LABELS = {
        "variant": _("Variant"),
        "honours": _("Honours"),
        "stake_ore": _("Stake per rubber point"),
        "settlement": _("Settlement"),
        "game_values": _("Rubber points per game"),
        "game_stake_ore": _("Stake per game of the rubber"),
        "rubber_stake_ore": _("Stake per rubber"),
        "guerre_tie": _("Tie at 9 (à la guerre)"),
        "guerre_stake_ore": _("Stake per partie (à la guerre)"),
    }
    CHOICE_LABELS = {
        "variant": {
            "short": _("Short whist, game at 5"),
            "long": _("Long whist, game at 10"),
            "american": _("American whist, game at 7"),
            "guerre": _("Whist à la guerre"),
        },
        "settlement": {
            "each": _("Each loser pays the difference"),
            "pair": _("The pair pays once, half each"),
        },
        "game_values": {
            "half": _("Double below half the game"),
            "literal": _("Double at 1–2, single from 3"),
        },
        "guerre_tie": {
            "total_then_tricks": _("Higher total, then more tricks"),
            "tricks_then_total": _("More tricks, then higher total"),
            "shared": _("Shared win"),
        },
    }

    def __post_init__(self) -> None:
        for name, allowed in self.CHOICES.items():
            if getattr(self, name) not in allowed:
                raise ValueError(f"{name} must be one of {', '.join(allowed)}")
        for name in ("stake_ore", "game_stake_ore", "rubber_stake_ore", "guerre_stake_ore"):
            value = getattr(self, name)
            if not is_whole(value) or value < 0:
                raise ValueError(f"{name} must be a whole number of öre, 0 or more")
        check_money(self)

    @property
    def partnership(self) -> bool:
        return self.variant != "guerre"

    @property
    def target(self) -> int:
        return TARGETS[self.variant]

    @property
    def with_honours(self) -> bool:
        return self.honours and bool(HONOURS[self.variant])


@dataclass(frozen=True)
class DealRow:
    """One line of the score sheet; tuples are per side (à la guerre: per seat)."""

    number: int  # in its rubber
    dealer: str
    tricks: tuple[int, ...]
    honours: tuple[int, ...]  # honours held that score (0: none that score)
    points: tuple[int, ...]  # what each side scored in the deal, W4 and W5 applied
    scores: tuple[int, ...]  # the game score after the deal (a game resets it afterwards)
    game: tuple[int, ...] = ()  # the side that made game (à la guerre: who won the partie)
    game_value: int = 0  # rubber points for that game
    games: tuple[int, ...] = ()  # games won in the rubber after the deal
    rubber_points: tuple[int, ...] = ()  # after the deal, the bonus included when it ends
    stopped: bool = False  # W4: honours without a trick point stopped short of game
    honours_void: bool = False  # W5: the other side made game
    split: tuple[int, ...] = ()  # the split the table saw, when given in full (else empty)


@dataclass(frozen=True)
class RubberRow:
    number: int
    winners: tuple[int, ...]  # the winning side (à la guerre: seats; W7 may share)
    games: tuple[int, ...]
    points: tuple[int, ...]  # rubber points, bonus included
    difference: int
    nets: dict[str, int]  # öre per player for this rubber
    deals: tuple[DealRow, ...]


@dataclass(frozen=True)
class DealScore:
    points: tuple[int, ...]
    scores: tuple[int, ...]
    game: tuple[int, ...] = ()
    game_value: int = 0
    stopped: bool = False
    honours_void: bool = False


@dataclass(frozen=True)
class State:
    players: tuple[str, ...]
    rules: Rules = Rules()
    sides: tuple[tuple[str, ...], ...] = ()
    teams: dict[str, int] = field(default_factory=dict)
    dealer: str = ""
    rubber: int = 1  # the number of the rubber (partie) being played
    scores: tuple[int, ...] = ()
    games: tuple[int, ...] = ()
    rubber_points: tuple[int, ...] = ()
    deals: tuple[DealRow, ...] = ()  # the running rubber's
    rubbers: tuple[RubberRow, ...] = ()
    points: dict[str, int] = field(default_factory=dict)  # net rubber points (guerre: parties)
    rubbers_won: dict[str, int] = field(default_factory=dict)
    transfers: tuple[Transfer, ...] = ()
    finished: bool = False
    standings: tuple[Standing, ...] = ()
    expected: tuple[str, ...] = ("deal",)
    log: tuple[Line, ...] = ()
    league_details: dict[str, dict[str, int]] = field(default_factory=dict)
    legacy_facts: bool = False  # a game stored before issue 25's checks (see the docstring)

    @property
    def money(self) -> dict[str, int]:
        """Each player's net öre over the evening: the finished rubbers' settlements."""
        nets = dict.fromkeys(self.players, 0)
        for rubber in self.rubbers:
            for player, amount in rubber.nets.items():
                nets[player] += amount
        return nets

    @property
    def honours_in_play(self) -> int:
        """How many honours a deal's split adds up to; 0 when honours do not count."""
        return HONOUR_CARDS[self.rules.variant] if self.rules.with_honours else 0


# --- calculators -----------------------------------------------------------------------------


def trick_points(tricks: int, variant: str = "short") -> int:
    """One point per trick over six (over four à la guerre)."""
    return max(0, tricks - BOOK[variant])


def honour_points(held: int, variant: str = "short") -> int:
    return HONOURS[variant].get(held, 0)


def game_value(opponents: int, rules: Rules = Rules()) -> int:
    """Rubber points for a game, by the opponents' score before the deal (W6, W2)."""
    if opponents == 0:
        return TREBLE
    if rules.game_values == "literal":
        return DOUBLE if opponents <= 2 else SINGLE
    return DOUBLE if 2 * opponents < rules.target else SINGLE


def _honours_only(score: int, honours: int, target: int) -> tuple[int, bool]:
    """W4: without a trick point in the deal, honours stop one short of game."""
    if honours and score + honours >= target:
        return max(score, target - 1), True
    return score + honours, False


def score_deal(
    rules: Rules, scores: Sequence[int], tricks: Sequence[int], honours: Sequence[int]
) -> DealScore:
    """One deal on the current game score: tricks and honours per side (per seat à la guerre)."""
    variant, target = rules.variant, rules.target
    tp = [trick_points(t, variant) for t in tricks]
    hp = [honour_points(h, variant) if rules.with_honours else 0 for h in honours]
    after = list(scores)
    stopped = False
    if rules.partnership:
        won = 0 if tp[0] else 1
        lost = 1 - won
        after[won] += tp[won] + hp[won]
        if after[won] >= target:
            # W5: the other side's honours do not count; W6: value by their score before.
            value = game_value(scores[lost], rules)
            points = tuple(after[s] - scores[s] for s in (0, 1))
            return DealScore(points, tuple(after), (won,), value, honours_void=hp[lost] > 0)
        after[lost], stopped = _honours_only(scores[lost], hp[lost], target)
        points = tuple(after[s] - scores[s] for s in (0, 1))
        return DealScore(points, tuple(after), stopped=stopped)
    for seat, score in enumerate(scores):
        if tp[seat]:
            after[seat] = score + tp[seat] + hp[seat]
        else:
            after[seat], held_back = _honours_only(score, hp[seat], target)
            stopped = stopped or held_back
    reached = [seat for seat, score in enumerate(after) if score >= target]
    points = tuple(a - b for a, b in zip(after, scores, strict=True))
    game = _guerre_winners(rules, reached, after, tricks)
    return DealScore(points, tuple(after), game, stopped=stopped)


def _guerre_winners(
    rules: Rules, reached: list[int], totals: Sequence[int], tricks: Sequence[int]
) -> tuple[int, ...]:
    """W7: several players at 9 in one deal — by the club's choice; a full tie is shared."""
    if len(reached) <= 1 or rules.guerre_tie == "shared":
        return tuple(reached)
    if rules.guerre_tie == "tricks_then_total":
        key = {seat: (tricks[seat], totals[seat]) for seat in reached}
    else:
        key = {seat: (totals[seat], tricks[seat]) for seat in reached}
    best = max(key.values())
    return tuple(seat for seat in reached if key[seat] == best)


def score_rubber(deals: Sequence[Mapping[str, Any]], rules: Rules = Rules()) -> State:
    """The rubber calculator: one rubber from its deals (``deal`` payloads), for partnerships.

    Deals after the rubber's winner is known are refused: they would start a second rubber."""
    if not rules.partnership:
        raise IllegalEvent(_("the rubber calculator is for the partnership variants"))
    state = new_game(("s0", "s1", "s2", "s3"), rules)
    for number, deal in enumerate(deals, 1):
        if state.rubbers:
            raise IllegalEvent(
                _("the rubber was won in deal {won}; deal {number} would start a new one"),
                won=number - 1,
                number=number,
            )
        try:
            state = apply(state, {**deal, "type": "deal"})
        except IllegalEvent as error:
            # The refusal itself goes in whole (``str`` gives its English), so a translating
            # reader can put it in the user's language too.
            raise IllegalEvent(_("deal {number}: {error}"), number=number, error=error) from None
    return state


# --- the evening -------------------------------------------------------------------------------


def new_game(
    players: Sequence[str],
    rules: Rules = Rules(),
    first_dealer: str | None = None,
    legacy_facts: bool = False,
) -> State:
    players, dealer = seat_players(players, "Whist", MIN_PLAYERS, MAX_PLAYERS, first_dealer)
    if rules.partnership:
        sides = ((players[0], players[2]), (players[1], players[3]))
    else:
        sides = tuple((p,) for p in players)
    zeros = (0,) * len(sides)
    return State(
        players=players,
        rules=rules,
        sides=sides,
        teams={p: i for i, side in enumerate(sides) for p in side},
        dealer=dealer,
        scores=zeros,
        games=zeros,
        rubber_points=zeros,
        points=dict.fromkeys(players, 0),
        rubbers_won=dict.fromkeys(players, 0),
        league_details={p: {"rubbers_won": 0} for p in players},
        legacy_facts=bool(legacy_facts),
    )


def apply(state: State, event: Mapping[str, Any]) -> State:
    if state.finished:
        raise IllegalEvent(_("the evening is over; no more deals can be recorded"))
    return dispatch(state, event, EVENTS, game=NAME)


def side_label(state: State, side: int) -> str:
    return " & ".join(state.sides[side])


def _side(state: State, side: int) -> object:
    """A side in a log line: its player à la guerre, else the pair as a Line."""
    players = state.sides[side]
    if len(players) == 1:
        return players[0]
    return Line(_("{player} & {partner}"), player=players[0], partner=players[1])


# --- reading a deal ----------------------------------------------------------------------------


def _words(name: str) -> Any:
    """A field of a deal in the reader's words (its declaration's), for a refusal."""
    return EVENTS["deal"].payload[name].words


def _side_of(state: State, key: Any, field: Any) -> int:
    """A side by its number (à la guerre: the seat) or by one of its players; ``field`` names
    the deal's field it was given in, in words."""
    if is_whole(key) or isinstance(key, str) and key.isdigit():
        index = int(key)
        if 0 <= index < len(state.sides):
            return index
        raise IllegalEvent(
            _("{field}: there is no side {number}; they are 0–{last}"),
            field=field,
            number=index,
            last=len(state.sides) - 1,
        )
    if key in state.teams:
        return state.teams[key]
    raise IllegalEvent(
        _("{field}: {value} is neither a side nor a player at this table"),
        field=field,
        value=repr(key),
    )


def _per_side(state: State, value: Mapping[str, Any], field: Any) -> dict[int, int]:
    result: dict[int, int] = {}
    for key, number in value.items():
        side = _side_of(state, key, field)
        if side in result:
            raise IllegalEvent(
                _("{field}: {side} is given twice"), field=field, side=side_label(state, side)
            )
        if not is_whole(number):
            raise IllegalEvent(
                _("{field}: {value} is not a whole number"), field=field, value=repr(number)
            )
        result[side] = number
    return result


def _give_the_tricks(state: State) -> IllegalEvent:
    if state.rules.partnership:
        return IllegalEvent(_("give the tricks of each side; a deal has {tricks}"), tricks=TRICKS)
    return IllegalEvent(
        _("give the tricks of each player (one may be left out); a deal has {tricks}"),
        tricks=TRICKS,
    )


def _tricks(state: State, event: Mapping[str, Any]) -> tuple[int, ...]:
    value = event.get("tricks")
    if not isinstance(value, Mapping) or not value:
        raise _give_the_tricks(state)
    given = _per_side(state, value, _words("tricks"))
    for number in given.values():
        if not 0 <= number <= TRICKS:
            raise IllegalEvent(
                _("{field}: {count} is not a number between 0 and {tricks}"),
                field=_words("tricks"),
                count=number,
                tricks=TRICKS,
            )
    count = len(state.sides)
    if len(given) == count - 1:
        (missing,) = set(range(count)) - set(given)
        given[missing] = max(0, TRICKS - sum(given.values()))
    elif len(given) != count:
        raise _give_the_tricks(state)
    total = sum(given.values())
    if total != TRICKS:
        raise IllegalEvent(
            _("the tricks add up to {total}, but a deal has {tricks}"), total=total, tricks=TRICKS
        )
    return tuple(given[side] for side in range(count))


def _honours(state: State, event: Mapping[str, Any]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The honours each side held that score, and the split the table saw (empty when it was
    not given in full).

    The split is one number per side in side order (à la guerre per seat): ``"3-1"``, ``[3, 1]``,
    ``"2-1-1-1"``; or a mapping side → count, in which one side may be left out (it held the
    rest) — à la guerre several, when the rest (two or fewer) cannot score. Given in full it
    adds up to the honours in play: four, A K Q J of trumps (five à la guerre, A K Q J 10).
    Stored games replay in the old forms too: absent or ``"none"`` (nobody scored them), and
    ``"side:count"`` / ``{side: count}`` (who held three or more), read as the split they imply.
    """
    count = len(state.sides)
    value = event.get("honours")
    if value in (None, "", "none", 0) or value == {}:
        return (0,) * count, ()
    given = _honours_given(state, value)
    if not HONOURS[state.rules.variant]:
        raise IllegalEvent(_("American whist has no honours"))
    if not state.rules.honours:
        raise IllegalEvent(_("this club plays without honours"))
    cards = HONOUR_CARDS[state.rules.variant]
    total = sum(given.values())
    missing = [side for side in range(count) if side not in given]
    if total > cards or (not missing and total != cards):
        raise _honours_do_not_add_up(state, total)
    if len(missing) == 1:
        given[missing[0]] = cards - total
    elif missing and cards - total >= LEAST_SCORING:
        raise IllegalEvent(
            _("give the honours of each player (one may be left out): {rest} are not given"),
            rest=cards - total,
        )
    held = tuple(
        given.get(side, 0) if honour_points(given.get(side, 0), state.rules.variant) else 0
        for side in range(count)
    )
    split = tuple(given[side] for side in range(count)) if len(given) == count else ()
    return held, split


def _honours_given(state: State, value: Any) -> dict[int, int]:
    """The counts an ``honours`` payload gives, by side (see ``_honours``)."""
    count = len(state.sides)
    if isinstance(value, str) and ":" in value:  # the old "side:count"
        holder, _colon, number = value.partition(":")
        if not number.strip().isdigit():
            raise IllegalEvent(_("honours are written side:count, e.g. 0:4 (or none)"))
        value = {holder.strip(): int(number)}
    elif isinstance(value, str):
        parts = [part.strip() for part in _SPLIT_MARKS.split(value.strip())]
        if not all(part.isdigit() for part in parts):
            raise _honours_split_form(state)
        value = [int(part) for part in parts]
    if isinstance(value, list | tuple):
        if len(value) != count:
            raise _honours_split_form(state)
        return dict(enumerate(value))
    return _per_side(state, value, _words("honours"))


_SPLIT_MARKS = re.compile(r"[-–—/]")


def _honours_split_form(state: State) -> IllegalEvent:
    if state.rules.partnership:
        return IllegalEvent(_("honours are written as the split, one number per side, e.g. 3-1"))
    return IllegalEvent(
        _("honours are written as the split, one number per player in seat order, e.g. 2-1-1-1")
    )


def _honours_do_not_add_up(state: State, total: int) -> IllegalEvent:
    if state.rules.partnership:
        return IllegalEvent(
            _("the honours add up to {total}, but there are four (A K Q J of trumps)"),
            total=total,
        )
    return IllegalEvent(
        _("the honours add up to {total}, but there are five (A K Q J 10 of trumps)"),
        total=total,
    )


# --- honours and tricks together (issue 25) --------------------------------------------------


@cache
def honour_wins(split: tuple[int, ...], per_trick: int) -> frozenset[tuple[int, ...]]:
    """The fewest tricks each side (à la guerre each player) must win with the honours it holds,
    as every minimal vector over who held which honour and which honours fell in one trick.

    ``split`` counts the honours per side (they are the top trumps, highest first); a side plays
    at most ``per_trick`` cards to one trick (two partners, or one player). A trick holding
    honours is won by the side of the highest of them: nothing else can beat an honour.
    """
    cards = sum(split)
    owners_list = [side for side, count in enumerate(split) for _n in range(count)]
    found: set[tuple[int, ...]] = set()
    for owners in set(permutations(owners_list)):
        for groups in _partitions(list(range(cards))):
            if any(
                sum(owners[c] == side for c in group) > per_trick
                for group in groups
                for side in range(len(split))
            ):
                continue
            wins = [0] * len(split)
            for group in groups:
                wins[owners[min(group)]] += 1  # the lowest index is the highest honour
            found.add(tuple(wins))
    return frozenset(
        v
        for v in found
        if not any(o != v and all(a <= b for a, b in zip(o, v, strict=True)) for o in found)
    )


def _partitions(items: list[int]) -> list[list[list[int]]]:
    """Every way to cut ``items`` into groups (the tricks the honours fell in)."""
    if not items:
        return [[]]
    first, rest = items[0], items[1:]
    result = []
    for groups in _partitions(rest):
        result.append([[first], *groups])
        for index in range(len(groups)):
            result.append([*groups[:index], [first, *groups[index]], *groups[index + 1 :]])
    return result


def honour_tricks_possible(
    split: Sequence[int], tricks: Sequence[int], partnership: bool = True
) -> bool:
    """Whether a deal can have this honours split (per side, in full) with these tricks."""
    per_trick = 2 if partnership else 1
    return any(
        all(w <= t for w, t in zip(wins, tricks, strict=True))
        for wins in honour_wins(tuple(split), per_trick)
    )


def _completions(given: Mapping[int, int], count: int, rest: int) -> list[tuple[int, ...]]:
    """The full splits a split given in part may stand for (the rest shared by the others)."""
    missing = [side for side in range(count) if side not in given]
    result = []

    def fill(index: int, left: int, split: dict[int, int]) -> None:
        if index == len(missing):
            if left == 0:
                result.append(tuple(split[side] for side in range(count)))
            return
        for number in range(left + 1):
            fill(index + 1, left - number, {**split, missing[index]: number})

    fill(0, rest, dict(given))
    return result


def _check_honour_tricks(state: State, event: Mapping[str, Any], tricks: tuple[int, ...]) -> None:
    """Item 3 of the docstring: the honours held and the tricks taken agree."""
    value = event.get("honours")
    if value in (None, "", "none", 0) or value == {} or not state.honours_in_play:
        return
    given = _honours_given(state, value)
    count = len(state.sides)
    cards = state.honours_in_play
    partnership = state.rules.partnership
    splits = _completions(given, count, cards - sum(given.values()))
    if any(honour_tricks_possible(split, tricks, partnership) for split in splits):
        return
    per_trick = 2 if partnership else 1
    for side in range(count):
        if side not in given:
            continue
        least = min(wins[side] for split in splits for wins in honour_wins(tuple(split), per_trick))
        if tricks[side] < least:
            template = (
                _(
                    "{side} held {held} of the four honours (A K Q J of trumps): an honour "
                    "loses only to a higher one in the same trick, so they took at least "
                    "{least} tricks, not {tricks}"
                )
                if partnership
                else _(
                    "{side} held {held} of the five honours (A K Q J 10 of trumps): an honour "
                    "loses only to a higher one in the same trick, so {side} took at least "
                    "{least} tricks, not {tricks}"
                )
            )
            raise IllegalEvent(
                template,
                side=_side(state, side),
                held=given[side],
                least=least,
                tricks=tricks[side],
            )
    raise IllegalEvent(
        _(
            "the honours held ({split}) cannot go with the tricks taken ({tricks}): an honour "
            "loses only to a higher honour of another player in the same trick"
        ),
        split="–".join(str(n) for n in splits[0]) if len(splits) == 1 else "?",
        tricks="–".join(str(n) for n in tricks),
    )


# --- scoring it ----------------------------------------------------------------------------------


def _play_deal_event(state: State, event: Mapping[str, Any]) -> State:
    return _play_deal(replace(state, transfers=(), log=()), event)


def _play_deal(state: State, event: Mapping[str, Any]) -> State:
    tricks = _tricks(state, event)
    honours, split = _honours(state, event)
    if not state.legacy_facts:
        _check_honour_tricks(state, event, tricks)
    result = score_deal(state.rules, state.scores, tricks, honours)
    games = list(state.games)
    rubber_points = list(state.rubber_points)
    for side in result.game:
        games[side] += 1
        rubber_points[side] += result.game_value
    over = bool(result.game) and (
        not state.rules.partnership or games[result.game[0]] == GAMES_TO_WIN
    )
    if over and state.rules.partnership:
        rubber_points[result.game[0]] += RUBBER_BONUS
    row = DealRow(
        number=len(state.deals) + 1,
        dealer=state.dealer,
        tricks=tricks,
        honours=honours,
        split=split,
        points=result.points,
        scores=result.scores,
        game=result.game,
        game_value=result.game_value,
        games=tuple(games),
        rubber_points=tuple(rubber_points),
        stopped=result.stopped,
        honours_void=result.honours_void,
    )
    dealer = left_of(state.players, state.dealer)  # the deal passes to the left
    zeros = (0,) * len(state.sides)
    state = replace(
        state,
        dealer=dealer,
        scores=zeros if result.game else result.scores,  # W1: nothing carried
        games=tuple(games),
        rubber_points=tuple(rubber_points),
        deals=(*state.deals, row),
        log=tuple(_deal_log(state, row)),
    )
    if over:
        state = _close_rubber(state, row)
    state = replace(state, log=(*state.log, Line(_("New deal: {player} deals"), player=dealer)))
    return _with_expected(state)


def _deal_log(state: State, row: DealRow) -> list[Line]:
    """One line per side that scored or held honours, then the game or the score."""
    lines = []
    for side, points in enumerate(row.points):
        tricks = trick_points(row.tricks[side], state.rules.variant)
        held = row.honours[side]
        parts = []
        if tricks:
            parts.append(
                Line(_("{tricks} tricks +{points}"), tricks=row.tricks[side], points=tricks)
            )
        if held and row.honours_void:
            parts.append(Line(_("honours {held} do not count"), held=held))
        elif held and points - tricks < honour_points(held, state.rules.variant):
            parts.append(
                Line(
                    _("honours {held} without a trick: stays at {score}"),
                    held=held,
                    score=row.scores[side],
                )
            )
        elif held:
            parts.append(Line(_("honours {held} +{points}"), held=held, points=points - tricks))
        if side in row.game and state.rules.partnership:
            parts.append(Line(_("game, {value} rubber points"), value=row.game_value))
        if parts:
            lines.append(Line(_("{side}: {parts}"), side=_side(state, side), parts=listed(parts)))
    if not row.game:
        scores = "–".join(str(s) for s in row.scores)
        lines.append(Line(_("Score {scores}"), scores=scores))
    return lines


def _close_rubber(state: State, row: DealRow) -> State:
    rules = state.rules
    winners = row.game
    points = dict(state.points)
    won = dict(state.rubbers_won)
    losers = [p for side, players in enumerate(state.sides) if side not in winners for p in players]
    if rules.partnership:
        (side,) = winners
        other = 1 - side
        difference = state.rubber_points[side] - state.rubber_points[other]
        games_difference = state.games[side] - state.games[other]
        amount = (
            difference * rules.stake_ore
            + games_difference * rules.game_stake_ore
            + rules.rubber_stake_ore
        )
        transfers = _settle(rules, state.sides[other], state.sides[side], amount)
        for player in state.players:
            points[player] += difference if state.teams[player] == side else -difference
        score = "–".join(str(p) for p in (state.rubber_points[side], state.rubber_points[other]))
        line = Line(_("{side} win the rubber {score}"), side=_side(state, side), score=score)
    else:
        difference = 0
        transfers = tuple(
            Transfer(loser, state.sides[seat][0], rules.guerre_stake_ore)
            for seat in winners
            for loser in losers
            if rules.guerre_stake_ore
        )
        for seat in winners:
            points[state.sides[seat][0]] += 1
        line = Line(
            _("{sides} win the partie") if len(winners) > 1 else _("{sides} wins the partie"),
            sides=listed((_side(state, s) for s in winners), last_and=True),
        )
    for seat in winners:
        for player in state.sides[seat]:
            won[player] += 1
    nets = {k: v for k, v in net_by_account(transfers).items() if v}
    paid = [
        Line(
            _("{payer} pays {payee} {amount}"),
            payer=t.payer,
            payee=t.payee,
            amount=Ore(t.amount_ore),
        )
        for t in transfers
    ]
    record = RubberRow(
        number=state.rubber,
        winners=winners,
        games=state.games,
        points=state.rubber_points,
        difference=difference,
        nets=nets,
        deals=state.deals,
    )
    zeros = (0,) * len(state.sides)
    return replace(
        state,
        rubber=state.rubber + 1,
        scores=zeros,
        games=zeros,
        rubber_points=zeros,
        deals=(),
        rubbers=(*state.rubbers, record),
        points=points,
        rubbers_won=won,
        league_details={p: {"rubbers_won": n} for p, n in won.items()},
        transfers=transfers,
        log=(*state.log, line, *paid),
    )


def _settle(
    rules: Rules, losers: Sequence[str], winners: Sequence[str], amount: int
) -> tuple[Transfer, ...]:
    """W3: each loser pays one winner (seat order pairs them) — the amount, or half of it."""
    # The pair pays once: half each, an odd öre from the first loser.
    half = (amount - amount // 2, amount // 2)
    shares = half if rules.settlement == "pair" else (amount, amount)
    return tuple(
        Transfer(loser, winner, share)
        for loser, winner, share in zip(losers, winners, shares, strict=True)
        if share > 0
    )


def _with_expected(state: State) -> State:
    return replace(state, expected=("deal", "end_evening") if state.rubbers else ("deal",))


def _end_evening(state: State, event: Mapping[str, Any]) -> State:
    if not state.rubbers:
        raise IllegalEvent(
            _("no rubber is finished yet: play one to the end, or let an admin void the game")
        )
    line = Line(_("Evening over"))
    if state.deals:
        line = Line(
            _("Evening over; the rubber in progress does not count (deals: {deals})"),
            deals=len(state.deals),
        )
    return replace(
        state,
        transfers=(),
        finished=True,
        standings=placements(state.points),
        expected=(),
        log=(line,),
    )


# --- the payloads ------------------------------------------------------------------------------


def _side_key(key: Any) -> bool:
    """A side's number (à la guerre a seat's), as a number or as text, or a player's key: which
    one it is, ``_side_of`` says."""
    return is_whole(key) or isinstance(key, str) and 0 < len(key) <= 40


@dataclass(frozen=True)
class _PerSide(Kind):
    """A mapping from sides (by number, or by one of their players) to values of one kind."""

    of: Kind

    def accepts(self, value: Any, players: Sequence[str]) -> bool:
        return self._mapping(value, players) and all(
            self.of.accepts(item, players) for item in value.values()
        )

    @staticmethod
    def _mapping(value: Any, players: Sequence[str]) -> bool:
        return (
            isinstance(value, Mapping)
            and len(value) <= len(players)
            and all(_side_key(side) for side in value)
        )

    def describe(self) -> Any:
        return IllegalEvent(
            _("sides by number or players at the table, each with {kind}"),
            kind=self.of.describe(),
        )

    def refusal(self, event: Any, field: Any, value: Any, players: Sequence[str]) -> Any:
        if not self._mapping(value, players):
            return super().refusal(event, field, value, players)
        for side, item in value.items():
            if not self.of.accepts(item, players):
                return IllegalEvent(
                    _("{event}: {field}: {player} must be {kind}, not {value}"),
                    event=event,
                    field=field,
                    player=side,
                    kind=self.of.describe(),
                    value=repr(item),
                )
        return None


@dataclass(frozen=True)
class _Honours(Kind):
    """The honours of a deal (see ``_honours``): the split as text (``"3-1"``) or a list, counts
    by side, or one of the old forms (``"none"``, ``"0:4"``)."""

    def accepts(self, value: Any, players: Sequence[str]) -> bool:
        count = Whole(0, max(HONOUR_CARDS.values()))
        if isinstance(value, str):
            return len(value) <= 24
        if isinstance(value, list | tuple):
            return len(value) <= len(players) and all(count.accepts(n, players) for n in value)
        return value == 0 and is_whole(value) or _PerSide(count).accepts(value, players)

    def describe(self) -> Any:
        return _("the honours split, e.g. 3-1, or how many each side held")


EVENTS = {
    "deal": EventType(
        _play_deal_event,
        _("a deal"),
        {
            "tricks": need(_PerSide(Whole(0, TRICKS)), _("the tricks taken")),
            "honours": may(_Honours(), _("the honours")),
        },
    ),
    "end_evening": EventType(_end_evening, _("the end of the evening")),
}
EVENT_TYPES = event_types(EVENTS)
GAME = Declaration(
    KEY,
    NAME,
    MIN_PLAYERS,
    MAX_PLAYERS,
    EVENT_TYPES,
    draws_first_dealer=True,
    position=50,
)
