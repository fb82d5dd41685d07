"""Kungsholmskille: one evening at the table, deal by deal, with the club's pot that carries over
(kungsholmskille.sv.txt; NOTES.md K1–K11).

The engine follows a deal as the table experiences it, one event per thing that happens, so the
pad can ask "what just happened?" and offer one button per player.

Phases of a deal (``State.phase``) and the events each accepts
- ``ante`` — only at the start of an evening whose pot is empty, or every evening with the club
  option ``opening_stake_each_evening`` (K2). ``{"type": "ante"}``: everyone pays the base
  stake into the pot.
- ``declare`` — the first declaration, clockwise from förhand (left of the dealer):
  ``{"type": "bud" | "knock", "player": p}``, each in turn (``State.to_act``). All bud is a
  budrunda: everyone pays the small stake and the deal passes.
- ``fold`` — after a knock, the fold round, once round the table: everyone but the knocker
  (K3), from his left to his right, in turn (``State.to_act``) says ``{"type": "stay", "player":
  p}`` or ``{"type": "fold", "player": p}``. ``State.may_fold`` lists who has yet to speak,
  ``State.stayed`` who stayed; a player who stayed cannot fold later, and nobody speaks out of
  turn. A folding förhand hands the role to the nearest player still in on his left (K9). When
  all but the knocker have folded he takes the whole pot without play and everyone pays the
  small stake (K6). The round closes after the player on the knocker's right.
  Games recorded before staying was an event (``new_game(..., implied_stays=True)``): only folds
  were tapped, so a fold may skip players, who are taken to have stayed, and the exchange or the
  second declaration closes the round, everyone not yet heard staying.
- ``declare2`` — the optional exchange ``{"type": "exchange", "counts": {p: 0–2}}`` (the app
  only keeps the counts, 0–2 for each player still in), then the second declaration clockwise
  from förhand among the players still in: ``bud`` / ``knock``; folding is no longer allowed.
  All bud is a budrunda in which only the folders pay the small stake if anyone folded, else
  everyone (K4).
- ``tricks`` — either the four tricks, each ``{"type": "trick", "cards": {p: card}}`` for every
  player still in (the engine knows the play order: förhand leads, then the winner of each
  trick), or just ``{"type": "fourth_trick", "player": p}``. The highest card wins a trick, the
  later of two equal highest. The play rule (overtake or equal if you can, else play your lowest)
  is checked as far as the recorded cards tell: a play is refused as soon as a card the player
  shows later (in a later trick or at the showing) proves he had a card the rule required.
- ``showing`` — clockwise from the fourth-trick winner among the players still in: ``bud`` or
  ``{"type": "show", "player": p}`` (lägga upp). All bud is a budrunda paid as in ``declare2``.
- ``reveal`` — once someone shows, everyone shows: ``{"type": "reveal", "cards": {p: card}}``
  for every player still in. ``settle_showing`` decides and pays (below); the pot goes out.

Money (K1): every stake and payment is a ``Transfer`` between a player and ``"pot"``; the next
deal's stakes are posted with the deal that caused them, so the pot after each event is the pot
for the next deal. A deal moves money only when it ends (and the opening stake), so
``State.pot_ore`` never goes negative (K11): each payout is the whole pot.

Settling a showing (``settle_showing``, a pure calculator): the first shower wins with the
lowest card; otherwise the other player with an equal or lower card wins, and with two of them
tied the one seated last counting clockwise from the fourth-trick winner (K7). A beaten first
shower pays the winner as much as the pot held (K8) — into the pot, which pays the winner pot
and penalty together. Next deal's stakes: each loser at the showing pays the base stake; the
winner and the folders play free; with two at the showing (club option, K5) the loser pays base
+ small and every other player at the table the small stake. Three equal cards are refused.

The evening has no natural end: ``{"type": "end_evening"}`` between deals finishes the game with
standings by net money won (placement 1 = most; ``Standing.score`` in öre) and
``league_details[p]["pots_won"]``. Whatever is in the pot stays in the club's pot account; the
next evening's ``new_game(..., pot_ore=…)`` starts with it.

What no table can produce (issue 25: every fact of a deal agrees with the Kille deck — 21 ranks,
two of each, five cards dealt to each player one by one — and with every other fact of the deal);
each is refused with a message naming the cards and players:

1. A card exists twice. No rank is seen more than twice in one deal, counting the cards played
   in the recorded tricks and the cards shown at the end together (``check_copies``): three
   equal cards at a showing, or a card shown that two others already played, are refused.
2. A folded player is out: he stays or folds once, cannot fold after staying, exchanges nothing,
   plays no card, takes no trick (the fourth trick included) and shows no card; the knocker
   does not fold. Every player still in plays one card to each trick and shows one card.
3. Each player holds five cards: four tricks and one card shown. The exchange gives at most two
   cards to each player still in, which the talong always holds (42 − 5 × 6 = 12 = 2 × 6).
4. The play follows the cards: förhand leads the first trick, the winner of each trick (the
   highest card, the later of two equal highest) leads the next, and the play rule (overtake
   or equal if you can, else play your lowest) holds against every card the player shows later
   in the deal — in a later trick or at the showing (``check_tricks``).
5. The fourth-trick winner, when tapped after the first three tricks were recorded card by card
   (the winner of the third leads the fourth), is a player the cards let take it: his
   fourth-trick card was in his hand at the earlier tricks (so it is below every card he
   played under and not below the card he played instead), and with the last cards shown,
   nobody after him in the trick can hold a card that reaches his (``fourth_trick_winners``;
   checked when tapped and again at the showing). Added by issue 25: a game stored before it
   replays with ``new_game(..., legacy_facts=True)``, which skips this check only.
6. The showing round goes clockwise from the fourth-trick winner among the players still in; the
   one who lays up first is the player whose turn it was, the others having said bud.

Every deal that ends leaves a ``DealRow`` in ``State.deals`` (what happened and who paid what);
``State.won_ore`` is each player's net over the evening. Card names are the ``KilleRank`` labels
(``"blaren"``, ``"7"``, ``"värdshus"``); anything ``parse_kille_card`` reads is accepted.
Each type's payload is declared in ``EVENTS``; ``dispatch`` refuses an unknown type, an unknown
or missing key and a value of the wrong kind before the handler runs.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any, NoReturn

from engine.base import (
    POT,
    CardName,
    Declaration,
    EventType,
    Field,
    OneOf,
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
    kr,
    left_of,
    need,
    net_by_account,
    placements,
    seat_players,
)
from engine.cards import KilleRank, as_illegal_event, parse_kille_card
from engine.errors import IllegalEvent, Line, Ore, _, listed

KEY = "kille"
NAME = _("Kille")

# Asked for as a prize hand, but no table can produce it (engine.honours): two of each rank,
# and a third equal card in a deal is refused (check_copies).
IMPOSSIBLE_PRIZE_HAND = (
    _("three of a kind"),
    _(
        "the Kille deck has two cards of each rank, so nobody can hold or show three of a "
        "kind; the app refuses a third equal card in a deal"
    ),
)
MIN_PLAYERS, MAX_PLAYERS = 2, 6

TRICKS = 4
MAX_EXCHANGE = 2
COPIES = 2  # the Kille deck has two of every rank


@dataclass(frozen=True)
class Rules:
    base_stake_ore: int = 200  # "en insats på två kronor"; after a showing, each loser
    small_stake_ore: int = 100  # after a budrunda and a walkover
    two_player_rule: bool = True  # K5: with two at the showing, pay as if a budrunda followed
    opening_stake_each_evening: bool = False  # K2: else only when the pot starts empty

    LABELS = {
        "base_stake_ore": _("Base stake"),
        "small_stake_ore": _("Small stake"),
        "two_player_rule": _("Two at the showing pay as after a round of bids (budrunda)"),
        "opening_stake_each_evening": _("Opening stake every evening"),
    }

    def __post_init__(self) -> None:
        for name in ("base_stake_ore", "small_stake_ore"):
            value = getattr(self, name)
            if not is_whole(value) or value < 0:
                raise ValueError(f"{name} must be a whole number of öre, 0 or more, not {value!r}")
        check_money(self)


@dataclass(frozen=True)
class Trick:
    leader: str
    plays: tuple[tuple[str, str], ...]  # (player, card) in play order
    winner: str


@dataclass(frozen=True)
class DealRow:
    """One finished deal: what happened and the money it moved (next deal's stakes included)."""

    number: int
    dealer: str
    outcome: str  # "budrunda", "walkover" (all but one folded) or "showing"
    pot_before: int
    pot_after: int
    nets: dict[str, int]
    winner: str | None = None
    knocker: str | None = None
    folded: tuple[str, ...] = ()
    fourth_trick: str | None = None
    first_shower: str | None = None
    cards: dict[str, str] = field(default_factory=dict)
    penalty_ore: int = 0


@dataclass(frozen=True)
class Settlement:
    """The result of one showing: who wins and every transfer, next deal's stakes included."""

    winner: str
    first: str
    lowest: str
    pot_ore: int
    penalty_ore: int
    transfers: tuple[Transfer, ...]
    nets: dict[str, int]
    pot_after_ore: int
    two_player: bool
    lines: tuple[Line, ...]


@dataclass(frozen=True)
class State:
    players: tuple[str, ...]
    rules: Rules
    dealer: str
    forhand: str
    pot_ore: int
    start_pot_ore: int
    phase: str = "declare"
    deal_no: int = 1
    calls: tuple[tuple[str, str], ...] = ()  # this round's calls: (player, "bud"/"knock"/…)
    knocker: str | None = None
    active: tuple[str, ...] = ()  # players still in the deal, in seat order
    folded: tuple[str, ...] = ()
    may_fold: tuple[str, ...] = ()  # the fold round: who has yet to stay or fold, in turn
    stayed: tuple[str, ...] = ()
    exchanged: dict[str, int] = field(default_factory=dict)
    tricks: tuple[Trick, ...] = ()
    leader: str | None = None
    fourth_trick: str | None = None
    first_shower: str | None = None
    to_act: str | None = None
    won_ore: dict[str, int] = field(default_factory=dict)
    pots_won: dict[str, int] = field(default_factory=dict)
    deals: tuple[DealRow, ...] = ()
    transfers: tuple[Transfer, ...] = ()
    finished: bool = False
    standings: tuple[Standing, ...] = ()
    expected: tuple[str, ...] = ()
    log: tuple[Line, ...] = ()
    league_details: dict[str, dict[str, int]] = field(default_factory=dict)
    implied_stays: bool = False  # recorded before staying was an event (see the docstring)
    legacy_facts: bool = (
        False  # recorded before issue 25's checks (see "What no table can produce")
    )


_STATE_FIELDS = frozenset(f.name for f in fields(State))


def _update(state: State, **changes: Any) -> State:
    """``dataclasses.replace`` for ``State`` without re-running ``__init__``: State checks
    nothing on creation, and a replay makes several of these per event (a third of the time
    of replaying an evening went into ``replace``)."""
    unknown = changes.keys() - _STATE_FIELDS
    if unknown:
        raise TypeError(f"State has no field {', '.join(sorted(unknown))}")
    new = object.__new__(State)
    new.__dict__.update(state.__dict__)
    new.__dict__.update(changes)
    return new


# --- small helpers ---------------------------------------------------------------------------


def card(text: KilleRank | str | int) -> KilleRank:
    """A Kille card from an event; ``IllegalEvent`` with the parser's message if it is none."""
    if isinstance(text, KilleRank):
        return text
    if isinstance(text, bool) or not isinstance(text, str | int):
        raise IllegalEvent(_("{card} is not in the Kille deck"), card=repr(text))
    with as_illegal_event():
        return parse_kille_card(str(text))


def check_copies(ranks: Iterable[KilleRank]) -> None:
    """K7: two of each rank, so three equal cards mean a recording error."""
    for rank, count in Counter(ranks).items():
        if count > COPIES:
            raise IllegalEvent(
                _("{card} is recorded {count} times, but the deck has only two of each card"),
                card=rank.label,
                count=count,
            )


def _pay(players: Iterable[str], amount: int) -> list[Transfer]:
    return [Transfer(p, POT, amount) for p in players] if amount > 0 else []


# --- the settlement calculator ---------------------------------------------------------------


def showing_winner(
    cards: Mapping[str, KilleRank], first: str, fourth_trick: str, seat_order: Sequence[str]
) -> str:
    """Who takes the pot: the first shower if he alone is lowest, else the other with an equal
    or lower card; of two such, the one seated last clockwise from the fourth-trick winner."""
    lowest = min(cards.values())
    others = [p for p, rank in cards.items() if rank == lowest and p != first]
    if not others:
        return first
    if len(others) == 1:
        return others[0]
    order = clockwise(seat_order, fourth_trick, cards)
    return max(others, key=order.index)


def settle_showing(
    cards: Mapping[str, KilleRank | str],
    first: str,
    fourth_trick: str,
    pot_ore: int,
    players: Sequence[str] | None = None,
    rules: Rules = Rules(),
) -> Settlement:
    """Settle one showing: ``cards`` maps each player at the showing to his last card, ``first``
    showed first, ``fourth_trick`` won the fourth trick, ``pot_ore`` is the pot at the showing,
    ``players`` everyone at the table in seat order (folders too; default: the showers in the
    order given). Returns the winner and every transfer, next deal's stakes included."""
    ranks = {p: card(c) for p, c in cards.items()}
    seats = tuple(players) if players is not None else tuple(ranks)
    if len(ranks) < 2:
        raise IllegalEvent(_("a showing needs at least two players"))
    for player in ranks:
        if player not in seats:
            raise IllegalEvent(_("{player} is not at the table"), player=repr(player))
    if first not in ranks:
        raise IllegalEvent(
            _("the first shower {player} is not among the players at the showing"),
            player=repr(first),
        )
    if fourth_trick not in ranks:
        raise IllegalEvent(
            _("the fourth-trick winner {player} is not at the showing"), player=repr(fourth_trick)
        )
    if not is_whole(pot_ore) or pot_ore < 0:
        raise IllegalEvent(_("the pot cannot be negative or fractional: {pot}"), pot=repr(pot_ore))
    check_pot(pot_ore)
    check_copies(ranks.values())

    winner = showing_winner(ranks, first, fourth_trick, seats)
    penalty = pot_ore if winner != first else 0
    transfers: list[Transfer] = []
    shown = [
        Line(_("{player} {value}"), player=p, value=ranks[p].label) for p in seats if p in ranks
    ]
    lines = [Line(_("{player} lays up: {cards}"), player=first, cards=listed(shown))]
    if penalty:
        transfers.append(Transfer(first, POT, penalty))
    if pot_ore + penalty:
        transfers.append(Transfer(POT, winner, pot_ore + penalty))
    if winner == first:
        lines.append(
            Line(
                _("{player} has the lowest card and wins the pot of {amount}"),
                player=winner,
                amount=Ore(pot_ore),
            )
        )
    else:
        lines.append(
            Line(
                _(
                    "{player} has {card} and wins the pot of {amount}; {first} pays {player} "
                    "as much ({penalty})"
                ),
                player=winner,
                card=ranks[winner].label,
                amount=Ore(pot_ore),
                first=first,
                penalty=Ore(penalty),
            )
        )

    losers = [p for p in seats if p in ranks and p != winner]
    two_player = len(ranks) == 2 and rules.two_player_rule
    base, small = rules.base_stake_ore, rules.small_stake_ore
    if two_player:
        # K5: as if a budrunda followed at once; the deal still passes only one seat.
        (loser,) = losers
        transfers += _pay([loser], base + small)
        transfers += _pay([p for p in seats if p != loser], small)
        lines.append(
            Line(
                _("Two at the showing: {player} puts in {amount}, the others {small}"),
                player=loser,
                amount=Ore(base + small),
                small=Ore(small),
            )
        )
    else:
        transfers += _pay(losers, base)
        if losers and base:
            lines.append(
                Line(
                    _("Stake for the next deal: {players} {amount} each"),
                    players=listed(losers),
                    amount=Ore(base),
                )
            )
    nets = net_by_account(transfers)
    return Settlement(
        winner=winner,
        first=first,
        lowest=min(ranks.values()).label,
        pot_ore=pot_ore,
        penalty_ore=penalty,
        transfers=tuple(transfers),
        nets={p: nets.get(p, 0) for p in seats},
        pot_after_ore=pot_ore + nets.get(POT, 0),
        two_player=two_player,
        lines=tuple(lines),
    )


# --- the trick rule --------------------------------------------------------------------------


def check_tricks(
    tricks: Sequence[Sequence[tuple[str, KilleRank]]],
    last: Mapping[str, KilleRank] | None = None,
) -> None:
    """Refuse a play that the cards shown later prove illegal.

    "Om spelaren på tur har ett eller flera kort av minst lika hög valör som den dittills högsta
    … måste hen sticka över med något av dessa kort. Om spelaren inte kan sticka över, måste hen
    spela sin lägsta valör på handen." A player's hand at trick j holds every card he plays from
    trick j on, and his last card."""
    # Where each later card shows: the number of the trick it is played in, or None when it is
    # the card shown at the end.
    later: dict[str, list[tuple[KilleRank, int | None]]] = {}
    for player, rank in (last or {}).items():
        later.setdefault(player, []).append((rank, None))
    checks: list[tuple[int, str, KilleRank, KilleRank, list[tuple[KilleRank, int | None]]]] = []
    for number in range(len(tricks), 0, -1):
        highest: KilleRank | None = None
        plays = tricks[number - 1]
        for player, rank in plays:
            if highest is not None:
                checks.append((number, player, rank, highest, list(later.get(player, []))))
            highest = rank if highest is None else max(highest, rank)
        for player, rank in plays:
            later.setdefault(player, []).append((rank, number))
    for number, player, rank, highest, held in sorted(checks, key=lambda c: c[0]):
        if rank >= highest:
            continue
        played = {"player": player, "card": rank.label, "number": number}
        for other, where in held:
            if other >= highest:
                _refuse_play(
                    _MUST_OVERTAKE, where, **played, highest=highest.label, held=other.label
                )
        for other, where in held:
            if other < rank:
                _refuse_play(_MUST_PLAY_LOWEST, where, **played, held=other.label)


# The play rule's refusals, by where the card that proves them shows: (at the end, in a trick).
_MUST_OVERTAKE = (
    _(
        "{player} played {card} in trick {number} under {highest}, but held "
        "{held} (shown at the end): a player who can overtake or equal must"
    ),
    _(
        "{player} played {card} in trick {number} under {highest}, but held "
        "{held} (played in trick {trick}): a player who can overtake or equal "
        "must"
    ),
)
_MUST_PLAY_LOWEST = (
    _(
        "{player} played {card} in trick {number}, but held the lower {held} "
        "(shown at the end): a player who cannot overtake must play his "
        "lowest card"
    ),
    _(
        "{player} played {card} in trick {number}, but held the lower {held} "
        "(played in trick {trick}): a player who cannot overtake must play his "
        "lowest card"
    ),
)


def _refuse_play(templates: tuple[str, str], where: int | None, **params: Any) -> NoReturn:
    if where is None:
        raise IllegalEvent(templates[0], **params)
    raise IllegalEvent(templates[1], **params, trick=where)


def fourth_trick_winners(
    tricks: Sequence[Sequence[tuple[str, KilleRank]]],
    last: Mapping[str, KilleRank] | None = None,
    candidates: Iterable[str] | None = None,
) -> frozenset[str]:
    """Who (of ``candidates``, default everyone still in) can have taken the fourth trick when
    the first three are known (the winner of the third leads it) and, if given, everyone's last
    card.

    A player's fourth-trick card was in his hand at every earlier trick: where he played under
    the highest card there, it is below that card and not below the one he played (he could not
    overtake and played his lowest). In the fourth trick he holds that card and his last card,
    and the play rule holds: a player who plays under the highest card so far holds no card that
    reaches it and plays the lower of his two. The search goes through every fourth-trick card
    each player may have held, the two copies of each rank shared by the recorded cards and the
    fourth-trick cards; before the last cards are shown, a player who plays under is taken to
    keep a last card that allows it."""
    used = Counter(rank for trick in tricks for _p, rank in trick)
    used.update((last or {}).values())
    order = [player for player, _rank in tricks[-1]]
    best = max(rank for _p, rank in tricks[-1])
    leader = [p for p, rank in tricks[-1] if rank == best][-1]
    order = order[order.index(leader) :] + order[: order.index(leader)]
    low: dict[str, int] = dict.fromkeys(order, 0)
    high: dict[str, int] = dict.fromkeys(order, len(KilleRank))  # exclusive
    for trick in tricks:
        highest: KilleRank | None = None
        for player, rank in trick:
            if highest is not None and rank < highest:
                low[player] = max(low[player], rank)
                high[player] = min(high[player], highest)
            highest = rank if highest is None else max(highest, rank)
    may_hold = {p: [r for r in KilleRank if low[p] <= r < high[p]] for p in order}

    def plays(player: str, highest: int, spare: tuple[int, ...]) -> Iterable[KilleRank]:
        """The fourth-trick cards he may have played over ``highest`` (-1: he leads)."""
        for rank in may_hold[player]:
            if not spare[rank]:
                continue
            if highest >= 0 and rank < highest:
                # Under the highest: he holds nothing that reaches it and plays his lowest.
                if last is None:
                    yield rank  # his last card is open: one below the highest, not below this
                elif last[player] < highest and rank <= last[player]:
                    yield rank
            else:
                yield rank

    spare = tuple(COPIES - min(COPIES, used[rank]) for rank in KilleRank)

    def takes(winner: str) -> bool:
        """A search for one fourth trick that ``winner`` takes; it stops at the first found."""
        failed: set[tuple[int, int, bool, tuple[int, ...]]] = set()

        def search(position: int, highest: int, on_top: bool, left: tuple[int, ...]) -> bool:
            if position == len(order):
                return on_top
            key = (position, highest, on_top, left)
            if key in failed:
                return False
            player = order[position]
            for rank in plays(player, highest, left):
                over = rank >= highest
                if player == winner and not over:
                    continue  # the winner overtakes or equals
                if on_top and over:
                    continue  # after the winner, nobody reaches his card
                rest = tuple(n - (r == rank) for r, n in enumerate(left))
                top = (player == winner) if over else on_top
                if search(position + 1, max(highest, rank), top, rest):
                    return True
            failed.add(key)
            return False

        return search(0, -1, False, spare)

    asked = order if candidates is None else [p for p in order if p in set(candidates)]
    return frozenset(p for p in asked if takes(p))


def _check_fourth_trick(
    state: State, player: str, last: Mapping[str, KilleRank] | None = None
) -> None:
    """Issue 25: with the first three tricks recorded, the fourth-trick winner must be someone
    the cards let take it."""
    if state.legacy_facts or len(state.tricks) != TRICKS - 1:
        return
    if player in fourth_trick_winners(_known_plays(state), last, candidates=(player,)):
        return
    assert state.leader is not None
    if last is None:
        raise IllegalEvent(
            _(
                "{player} cannot have taken the fourth trick: {leader} led it, and the cards "
                "played in the first three tricks leave {player} no card that wins it under the "
                "play rule"
            ),
            player=player,
            leader=state.leader,
        )
    raise IllegalEvent(
        _(
            "{player} cannot have taken the fourth trick: {leader} led it, and the cards played "
            "in the first three tricks and shown at the end leave {player} no card that wins it "
            "under the play rule"
        ),
        player=player,
        leader=state.leader,
    )


# --- the game --------------------------------------------------------------------------------


def new_game(
    players: Sequence[str],
    rules: Rules = Rules(),
    first_dealer: str | None = None,
    pot_ore: int = 0,
    implied_stays: bool = False,
    legacy_facts: bool = False,
) -> State:
    """``implied_stays``: replay a game recorded before staying was an event of the fold round
    (a fold may skip players, who stayed; the exchange or a call closes the round).
    ``legacy_facts``: replay a game recorded before the checks marked (issue 25) in "What no
    table can produce", which are then skipped."""
    seated, dealer = seat_players(players, "Kille", MIN_PLAYERS, MAX_PLAYERS, first_dealer)
    if not is_whole(pot_ore) or pot_ore < 0:
        raise IllegalEvent(
            _("the pot cannot start negative or fractional: {pot}"), pot=repr(pot_ore)
        )
    check_pot(pot_ore)
    needs_ante = pot_ore == 0 or rules.opening_stake_each_evening
    forhand = left_of(seated, dealer)
    state = State(
        players=seated,
        rules=rules,
        dealer=dealer,
        forhand=forhand,
        pot_ore=pot_ore,
        start_pot_ore=pot_ore,
        phase="ante" if needs_ante else "declare",
        active=seated,
        won_ore=dict.fromkeys(seated, 0),
        pots_won=dict.fromkeys(seated, 0),
        implied_stays=bool(implied_stays),
        legacy_facts=bool(legacy_facts),
    )
    return _with_turn(state)


def apply(state: State, event: Mapping[str, Any]) -> State:
    if state.finished:
        raise IllegalEvent(_("the evening is over; start a new game for the next evening"))
    return _with_turn(dispatch(_update(state, transfers=(), log=()), event, EVENTS, game=NAME))


def _player(state: State, event: Mapping[str, Any]) -> str:
    return event["player"]  # a player at the table (EVENTS)


def _round_order(state: State) -> list[str]:
    """Who speaks, in order, in the current round of calls."""
    if state.phase == "declare":
        return clockwise(state.players, state.forhand, state.players)
    if state.phase == "declare2":
        return clockwise(state.players, state.forhand, state.active)
    if state.phase == "showing":
        assert state.fourth_trick is not None
        return clockwise(state.players, state.fourth_trick, state.active)
    return []


def _check_turn(state: State, player: str) -> None:
    if player not in state.active:
        raise IllegalEvent(_("{player} has folded and is out of this deal"), player=player)
    if player != state.to_act:
        order = _round_order(state)
        raise IllegalEvent(
            _("it is {turn}'s turn, not {player}'s: the calls go clockwise from {first}"),
            turn=state.to_act,
            player=player,
            first=order[0],
        )


def _with_turn(state: State) -> State:
    """Fill in whose turn it is and what may come next."""
    order = _round_order(state)
    to_act = order[len(state.calls)] if len(state.calls) < len(order) else None
    if state.phase == "fold":
        to_act = state.may_fold[0] if state.may_fold else None
    expected = {
        "ante": ("ante", "end_evening"),
        "declare": ("bud", "knock") + (() if state.calls else ("end_evening",)),
        "fold": ("stay", "fold") + (("exchange", "bud", "knock") if state.implied_stays else ()),
        "declare2": (("exchange",) if not state.calls and not state.exchanged else ())
        + ("bud", "knock"),
        "tricks": ("trick", "fourth_trick"),
        "showing": ("bud", "show"),
        "reveal": ("reveal",),
        "over": (),
    }[state.phase]
    return _update(state, to_act=to_act, expected=expected)


def _money(state: State, transfers: Sequence[Transfer]) -> tuple[int, dict[str, int]]:
    nets = net_by_account(transfers)
    pot = state.pot_ore + nets.get(POT, 0)
    if pot < 0:  # K11: a payout larger than the pot is a recording error
        raise IllegalEvent(
            _("the pot holds {amount} and cannot pay out more"), amount=kr(state.pot_ore)
        )
    won = {p: state.won_ore[p] + nets.get(p, 0) for p in state.players}
    return pot, won


def _end_deal(
    state: State,
    outcome: str,
    transfers: Sequence[Transfer],
    lines: Sequence[Line],
    *,
    winner: str | None = None,
    cards: Mapping[str, str] | None = None,
    penalty: int = 0,
) -> State:
    """Book the deal's money (next deal's stakes included, K1) and pass the deal one seat."""
    pot, won = _money(state, transfers)
    nets = net_by_account(transfers)
    row = DealRow(
        number=state.deal_no,
        dealer=state.dealer,
        outcome=outcome,
        pot_before=state.pot_ore,
        pot_after=pot,
        nets={p: nets.get(p, 0) for p in state.players},
        winner=winner,
        knocker=state.knocker,
        folded=state.folded,
        fourth_trick=state.fourth_trick,
        first_shower=state.first_shower,
        cards=dict(cards or {}),
        penalty_ore=penalty,
    )
    pots_won = dict(state.pots_won)
    if winner is not None:
        pots_won[winner] += 1
    dealer = left_of(state.players, state.dealer)
    return _update(
        state,
        phase="declare",
        dealer=dealer,
        forhand=left_of(state.players, dealer),
        deal_no=state.deal_no + 1,
        calls=(),
        knocker=None,
        active=state.players,
        folded=(),
        may_fold=(),
        stayed=(),
        exchanged={},
        tricks=(),
        leader=None,
        fourth_trick=None,
        first_shower=None,
        pot_ore=pot,
        won_ore=won,
        pots_won=pots_won,
        deals=(*state.deals, row),
        transfers=tuple(transfers),
        log=(*state.log, *lines, Line(_("New deal: {player} deals"), player=dealer)),
    )


def _budrunda(state: State) -> State:
    """All said bud. In the first declaration everyone pays the small stake; later (K4) only the
    folders if anyone folded, else everyone."""
    payers = state.folded if state.folded else state.players
    small = state.rules.small_stake_ore
    if payers == state.players:
        line = Line(_("Round of bids (budrunda): everyone pays {amount}"), amount=Ore(small))
    else:
        line = Line(
            _("Round of bids (budrunda): {players} pay {amount}"),
            players=listed(payers),
            amount=Ore(small),
        )
    return _end_deal(state, "budrunda", _pay(payers, small), [line])


# --- handlers --------------------------------------------------------------------------------


def _on_ante(state: State, event: Mapping[str, Any]) -> State:
    if state.phase != "ante":
        if not state.deals and not state.calls and state.phase == "declare":
            raise IllegalEvent(
                _("no opening stake: the pot carried over from last time already holds the stakes")
            )
        raise IllegalEvent(_("the opening stake is paid once, before the first deal"))
    base = state.rules.base_stake_ore
    transfers = _pay(state.players, base)
    pot, won = _money(state, transfers)
    return _update(
        state,
        phase="declare",
        pot_ore=pot,
        won_ore=won,
        transfers=tuple(transfers),
        log=(Line(_("Opening stake: everyone puts {amount} in the pot"), amount=Ore(base)),),
    )


def _close_fold_round(state: State) -> State:
    return _with_turn(_update(state, phase="declare2", may_fold=(), calls=()))


def _leave_fold_round(state: State) -> State:
    """A call or the exchange while the fold round is open: refused until everyone in it has
    stayed or folded; in a game with implied stays it closes the round, everyone not yet heard
    staying."""
    if state.phase != "fold":
        return state
    if not state.implied_stays:
        raise IllegalEvent(
            _("the fold round is not over: it is {player}'s turn to stay or fold"),
            player=state.may_fold[0],
        )
    return _close_fold_round(_update(state, stayed=(*state.stayed, *state.may_fold)))


_NOT_NOW = {
    ("bud", "ante"): _("a bid (bud) is not possible now: pay the opening stake first"),
    ("bud", "tricks"): _(
        "a bid (bud) is not possible now: the cards are being played: record the tricks or who "
        "took the fourth trick"
    ),
    ("bud", "reveal"): _(
        "a bid (bud) is not possible now: the cards are on the table: record what everyone showed"
    ),
    ("knock", "ante"): _("a knock is not possible now: pay the opening stake first"),
    ("knock", "tricks"): _(
        "a knock is not possible now: the cards are being played: record the tricks or who took "
        "the fourth trick"
    ),
}


def _refuse_outside_calls(state: State, kind: str) -> None:
    """``kind`` is "bud" or "knock": a call outside the rounds of calls (a knock in the showing
    round is refused before this)."""
    raise IllegalEvent(_NOT_NOW.get((kind, state.phase), _("this call is not possible now")))


def _on_bud(state: State, event: Mapping[str, Any]) -> State:
    player = _player(state, event)
    state = _leave_fold_round(state)
    if state.phase not in ("declare", "declare2", "showing"):
        _refuse_outside_calls(state, "bud")
    _check_turn(state, player)
    state = _update(
        state,
        calls=(*state.calls, (player, "bud")),
        log=(Line(_("{player} bids (bud)"), player=player),),
    )
    if len(state.calls) == len(_round_order(state)):
        return _budrunda(state)
    return state


def _on_knock(state: State, event: Mapping[str, Any]) -> State:
    player = _player(state, event)
    if state.phase in ("showing", "reveal"):
        raise IllegalEvent(
            _("the showing round has begun: a knock is no longer possible (say bud or lägg upp)")
        )
    state = _leave_fold_round(state)
    if state.phase not in ("declare", "declare2"):
        _refuse_outside_calls(state, "knock")
    _check_turn(state, player)
    if state.phase == "declare":
        others = [p for p in state.players if p != player]
        return _update(
            state,
            phase="fold",
            knocker=player,
            calls=(),
            may_fold=tuple(clockwise(state.players, left_of(state.players, player), others)),
            log=(Line(_("{player} knocks"), player=player),),
        )
    return _update(
        state,
        phase="tricks",
        calls=(*state.calls, (player, "knock")),
        leader=state.forhand,  # "Förhand spelar ut till det första sticket."
        log=(Line(_("{player} knocks – play"), player=player),),
    )


def _fold_round_turn(state: State, player: str, kind: str) -> State:
    """Check that ``player`` may stay or fold (``kind``) now: the fold round is on, he is not
    the knocker, has not spoken in it yet, and it is his turn. With implied stays, the players
    before him in the round are taken to have stayed."""
    if state.phase in ("ante", "declare"):
        raise IllegalEvent(_NOBODY_KNOCKED[kind])
    if kind == "fold" and player in state.stayed:
        raise IllegalEvent(_("{player} stayed and cannot fold later"), player=player)
    if state.phase != "fold":
        raise IllegalEvent(_ROUND_OVER[kind])
    if player == state.knocker:
        raise IllegalEvent(_KNOCKER[kind], player=player)
    if player in state.folded:
        raise IllegalEvent(_("{player} has folded and is out of this deal"), player=player)
    if player in state.stayed:
        raise IllegalEvent(_("{player} has already stayed"), player=player)
    skipped = state.may_fold[: state.may_fold.index(player)]
    if skipped and not state.implied_stays:
        raise IllegalEvent(
            _(
                "it is {turn}'s turn to stay or fold, not {player}'s: the fold round goes once "
                "round from the knocker's left to his right"
            ),
            turn=state.may_fold[0],
            player=player,
        )
    return _update(
        state,
        stayed=(*state.stayed, *skipped),
        may_fold=state.may_fold[len(skipped) + 1 :],
    )


_NOBODY_KNOCKED = {
    "fold": _("nobody has knocked yet: folding comes after a knock"),
    "stay": _("nobody has knocked yet: staying comes after a knock"),
}
_ROUND_OVER = {
    "fold": _("folding is no longer allowed: the fold round is over"),
    "stay": _("staying is said in the fold round, and it is over"),
}
_KNOCKER = {
    "fold": _("{player} knocked and cannot fold"),
    "stay": _("{player} knocked: the others stay or fold"),
}


def _on_stay(state: State, event: Mapping[str, Any]) -> State:
    player = _player(state, event)
    state = _fold_round_turn(state, player, "stay")
    state = _update(
        state, stayed=(*state.stayed, player), log=(Line(_("{player} stays"), player=player),)
    )
    return state if state.may_fold else _close_fold_round(state)


def _on_fold(state: State, event: Mapping[str, Any]) -> State:
    player = _player(state, event)
    state = _fold_round_turn(state, player, "fold")
    active = tuple(p for p in state.active if p != player)
    forhand = state.forhand
    line = Line(_("{player} folds"), player=player)
    if player == forhand:
        forhand = clockwise(state.players, player, active)[0]  # K9
        line = Line(
            _("{player} folds; {forhand} is now eldest hand"), player=player, forhand=forhand
        )
    state = _update(
        state,
        folded=(*state.folded, player),
        active=active,
        forhand=forhand,
        log=(line,),
    )
    if len(active) == 1:
        return _walkover(state, active[0])
    return state if state.may_fold else _close_fold_round(state)


def _walkover(state: State, winner: str) -> State:
    """K6: the one left takes the whole pot without play; then everyone pays the small stake."""
    small = state.rules.small_stake_ore
    transfers = [Transfer(POT, winner, state.pot_ore)] if state.pot_ore else []
    transfers += _pay(state.players, small)
    lines = [
        Line(
            _("{player} takes the pot of {amount} without play"),
            player=winner,
            amount=Ore(state.pot_ore),
        ),
        Line(_("Everyone pays {amount} for the next deal"), amount=Ore(small)),
    ]
    return _end_deal(state, "walkover", transfers, lines, winner=winner)


def _on_exchange(state: State, event: Mapping[str, Any]) -> State:
    if state.exchanged:
        raise IllegalEvent(_("the exchange is already recorded for this deal"))
    if state.phase not in ("fold", "declare2") or state.calls:
        raise IllegalEvent(
            _("the exchange comes after the folding and before the second declaration")
        )
    state = _leave_fold_round(state)
    counts = event["counts"]  # players at the table, each with 0–2 cards (EVENTS)
    for player in counts:
        if player not in state.active:
            raise IllegalEvent(_("{player} has folded and exchanges nothing"), player=player)
    order = clockwise(state.players, state.forhand, state.active)
    exchanged = {p: counts.get(p, 0) for p in order}
    counts = [Line(_("{player} {value}"), player=p, value=n) for p, n in exchanged.items()]
    line = Line(_("Exchange: {counts}"), counts=listed(counts))
    return _update(state, exchanged=exchanged, log=(line,))


def _cards_of_active(state: State, event: Mapping[str, Any]) -> dict[str, KilleRank]:
    """``cards``: one card for every player still in, and nobody else."""
    cards = event["cards"]  # players at the table, each with a card's text (EVENTS)
    for player in cards:
        if player not in state.active:
            raise IllegalEvent(_("{player} has folded and has no card here"), player=player)
    missing = [p for p in state.active if p not in cards]
    if missing:
        raise IllegalEvent(_("the card of {players} is missing"), players=", ".join(missing))
    return {p: card(cards[p]) for p in state.active}


def _known_plays(state: State) -> list[list[tuple[str, KilleRank]]]:
    return [[(p, parse_kille_card(c)) for p, c in trick.plays] for trick in state.tricks]


def _on_trick(state: State, event: Mapping[str, Any]) -> State:
    if state.phase != "tricks":
        raise IllegalEvent(_("tricks are played after the second knock, before the showing"))
    cards = _cards_of_active(state, event)
    assert state.leader is not None
    order = clockwise(state.players, state.leader, state.active)
    plays = [(p, cards[p]) for p in order]
    known = [*_known_plays(state), plays]
    check_copies(rank for trick in known for _p, rank in trick)
    check_tricks(known)
    best = max(rank for _p, rank in plays)
    winner = [p for p, rank in plays if rank == best][-1]  # the later of equal highest
    trick = Trick(state.leader, tuple((p, r.label) for p, r in plays), winner)
    number = len(state.tricks) + 1
    line = Line(
        _("Trick {number}: {cards} – {player} takes the trick"),
        number=number,
        cards=listed(Line(_("{player} {value}"), player=p, value=r.label) for p, r in plays),
        player=winner,
    )
    state = _update(state, tricks=(*state.tricks, trick), leader=winner, log=(line,))
    if number == TRICKS:
        state = _to_showing(state, winner)
    return state


def _to_showing(state: State, winner: str) -> State:
    return _update(state, phase="showing", fourth_trick=winner, calls=())


def _on_fourth_trick(state: State, event: Mapping[str, Any]) -> State:
    player = _player(state, event)
    if state.phase != "tricks":
        raise IllegalEvent(
            _("the fourth trick is taken after the second knock, before the showing")
        )
    if player not in state.active:
        raise IllegalEvent(_("{player} has folded and took no trick"), player=player)
    _check_fourth_trick(state, player)
    return _to_showing(
        _update(state, log=(Line(_("{player} took the fourth trick"), player=player),)), player
    )


def _on_show(state: State, event: Mapping[str, Any]) -> State:
    player = _player(state, event)
    if state.phase != "showing":
        message = {
            "reveal": _("the cards are already up: record what everyone showed"),
            "tricks": _("first record who took the fourth trick"),
        }.get(state.phase, _("a player lays up his card in the showing round, after the tricks"))
        raise IllegalEvent(message)
    _check_turn(state, player)
    return _update(
        state,
        phase="reveal",
        first_shower=player,
        calls=(*state.calls, (player, "show")),
        log=(Line(_("{player} lays up"), player=player),),
    )


def _on_reveal(state: State, event: Mapping[str, Any]) -> State:
    if state.phase != "reveal":
        raise IllegalEvent(_("the cards are shown once someone has laid up his card"))
    cards = _cards_of_active(state, event)
    known = _known_plays(state)
    check_copies([*(rank for trick in known for _p, rank in trick), *cards.values()])
    if known:
        check_tricks(known, cards)
    assert state.fourth_trick is not None
    if len(known) == TRICKS - 1:  # the fourth trick was tapped after three recorded tricks
        _check_fourth_trick(state, state.fourth_trick, cards)
    assert state.first_shower is not None
    assert state.fourth_trick is not None
    settlement = settle_showing(
        cards,
        first=state.first_shower,
        fourth_trick=state.fourth_trick,
        pot_ore=state.pot_ore,
        players=state.players,
        rules=state.rules,
    )
    return _end_deal(
        state,
        "showing",
        settlement.transfers,
        settlement.lines[1:],
        winner=settlement.winner,
        cards={p: r.label for p, r in cards.items()},
        penalty=settlement.penalty_ore,
    )


def _on_end_evening(state: State, event: Mapping[str, Any]) -> State:
    if state.phase not in ("ante", "declare") or state.calls:
        raise IllegalEvent(_("the evening ends between deals: finish this deal first (or undo it)"))
    return _update(
        state,
        phase="over",
        finished=True,
        standings=placements(state.won_ore),
        league_details={p: {"pots_won": state.pots_won[p]} for p in state.players},
        log=(
            Line(
                _("Evening over; the pot of {amount} is kept for next time"),
                amount=Ore(state.pot_ore),
            ),
        ),
    )


def _who(words: Any) -> dict[str, Field]:
    """The payload of a call or a tap: one player, ``words`` saying which."""
    return {"player": need(Player(), words)}


# A card as text, or a lilja's number as a number (a form sends "3" as 3).
CARD = OneOf(CardName(), Whole(1, 12))

EVENTS = {
    "ante": EventType(_on_ante, _("the opening stake")),
    "bud": EventType(_on_bud, _("a bid (bud)"), _who(_("the player who bids"))),
    "knock": EventType(_on_knock, _("a knock"), _who(_("the player who knocks"))),
    "stay": EventType(_on_stay, _("staying in"), _who(_("the player who stays"))),
    "fold": EventType(_on_fold, _("a fold"), _who(_("the player who folds"))),
    "exchange": EventType(
        _on_exchange,
        _("the exchange"),
        {"counts": need(PerPlayer(Whole(0, MAX_EXCHANGE)), _("the cards each player exchanged"))},
    ),
    "trick": EventType(
        _on_trick, _("a trick"), {"cards": need(PerPlayer(CARD), _("the cards played"))}
    ),
    "fourth_trick": EventType(
        _on_fourth_trick, _("the fourth trick"), _who(_("the player who took the fourth trick"))
    ),
    "show": EventType(_on_show, _("laying up"), _who(_("the player who lays up"))),
    "reveal": EventType(
        _on_reveal, _("the showing"), {"cards": need(PerPlayer(CARD), _("the cards shown"))}
    ),
    "end_evening": EventType(_on_end_evening, _("the end of the evening")),
}
EVENT_TYPES = event_types(EVENTS)
GAME = Declaration(
    KEY,
    NAME,
    MIN_PLAYERS,
    MAX_PLAYERS,
    EVENT_TYPES,
    plays_from_pot=True,
    draws_first_dealer=True,
    position=20,
)
