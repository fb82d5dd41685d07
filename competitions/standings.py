"""Standings: a two-player event (cribbage, Kasino, …) and a multi-table event (Kille, …).

Design
------
Two-player events: ``two_player(games, rules, players=None) -> tuple[Line, ...]``.

- A ``Game`` is two players and their points (``second=None``: a bye). The one with more
  points wins; equal points are refused (a cribbage game always has a winner). With
  ``rules.game_to`` set (121 in cribbage) the winner must have exactly that and the loser less,
  since play stops the moment someone reaches it.
- Match points (the ACC cribbage format, the club's numbers in ``MatchRules``): ``win`` (2)
  for a win, ``loss`` (0) for a loss, and the winner's skunk bonus: ``skunk_bonus`` (1) when the
  loser ends under ``skunk_below`` (91), ``double_skunk_bonus`` (instead, 2 by default) under
  ``double_skunk_below`` (61). A club without skunk bonuses sets them to 0.
- Game points: points for and against; spread = for − against (cribbage: the winner's 121
  less the loser's score, negative for the loser), summed over the games.
- A bye counts as a win worth ``bye_points`` match points (``win`` when None) and
  ``bye_spread`` (0) spread; it has no opponent and no points for or against.
- Opponents' wins (Buchholz-like): the sum of the wins (byes included) of every opponent met,
  once per game played against them.
- The order: ``rules.order`` names the columns, each compared highest first; the default is
  match points, then spread, then opponents' wins (``("wins", "spread", "opponents_wins")``
  ranks by wins first). Players equal on every column share a rank (1, 2, 2, 4) and are listed
  in the order of ``players`` (the seeding), or of their first game when it is not given.

Multi-table events: ``multi_table(rounds, players=None) -> tuple[TableLine, ...]``.

- Each round is a mapping player → points (the table's result as the game's engine scores it);
  a player missing from a round (dropped, or not yet in) scores nothing in it.
- Ranked by the total, then the best single round, then count-back: the last round's points,
  then the one before, … (a missing round counts below any score); players equal on all of it
  share the rank, listed in the order of ``players`` or of first appearance.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from competitions.base import CompetitionError, PlayerId
from engine.errors import _
from engine.ranking import rank_lines


@dataclass(frozen=True)
class MatchRules:
    win: int = 2
    loss: int = 0
    skunk_bonus: int = 1
    double_skunk_bonus: int = 2
    skunk_below: int = 91
    double_skunk_below: int = 61
    game_to: int | None = 121
    bye_points: int | None = None  # None: a bye is worth a win
    bye_spread: int = 0
    order: tuple[str, ...] = ("match_points", "spread", "opponents_wins")


CRIBBAGE = MatchRules()


@dataclass(frozen=True)
class Game:
    first: PlayerId
    second: PlayerId | None  # None: a bye
    first_points: int = 0
    second_points: int = 0


@dataclass(frozen=True)
class Line:
    player: PlayerId
    rank: int = 0
    games: int = 0  # played, byes not included
    wins: int = 0  # byes included
    losses: int = 0
    byes: int = 0
    skunks: int = 0  # skunks given (double skunks included)
    double_skunks: int = 0
    match_points: int = 0
    points_for: int = 0
    points_against: int = 0
    spread: int = 0
    opponents_wins: int = 0
    opponents: tuple[PlayerId, ...] = field(default=(), repr=False)


def skunk_bonus(loser_points: int, rules: MatchRules = CRIBBAGE) -> int:
    """The winner's bonus match points for the loser's score."""
    if loser_points < rules.double_skunk_below:
        return rules.double_skunk_bonus
    if loser_points < rules.skunk_below:
        return rules.skunk_bonus
    return 0


def two_player(
    games: Iterable[Game],
    rules: MatchRules = CRIBBAGE,
    players: Sequence[PlayerId] | None = None,
) -> tuple[Line, ...]:
    """The standings from the games played (see the module docstring)."""
    seen: list[PlayerId] = list(players or ())
    tally: dict[PlayerId, dict] = {}

    def row(player: PlayerId) -> dict:
        if player not in tally:
            tally[player] = dict.fromkeys(_COUNTS, 0) | {"opponents": []}
            if player not in seen:
                seen.append(player)
        return tally[player]

    for player in seen:
        row(player)
    for game in games:
        if game.second is None:
            line = row(game.first)
            line["byes"] += 1
            line["wins"] += 1
            line["match_points"] += rules.win if rules.bye_points is None else rules.bye_points
            line["spread"] += rules.bye_spread
            continue
        _check_game(game, rules)
        won = game.first_points > game.second_points
        winner, loser = (game.first, game.second) if won else (game.second, game.first)
        high, low = sorted((game.first_points, game.second_points), reverse=True)
        w, lo = row(winner), row(loser)
        bonus = skunk_bonus(low, rules)
        w["wins"] += 1
        lo["losses"] += 1
        w["match_points"] += rules.win + bonus
        lo["match_points"] += rules.loss
        w["skunks"] += low < rules.skunk_below
        w["double_skunks"] += low < rules.double_skunk_below
        for line, mine, theirs, opponent in ((w, high, low, loser), (lo, low, high, winner)):
            line["games"] += 1
            line["points_for"] += mine
            line["points_against"] += theirs
            line["spread"] += mine - theirs
            line["opponents"].append(opponent)
    lines = []
    for player in seen:
        counts = tally[player]
        opponents_wins = sum(tally[o]["wins"] for o in counts["opponents"])
        lines.append(
            Line(
                player,
                opponents_wins=opponents_wins,
                opponents=tuple(counts["opponents"]),
                **{name: counts[name] for name in _COUNTS},
            )
        )
    return rank_lines(lines, lambda line: tuple(getattr(line, name) for name in rules.order))


_COUNTS = (
    "games",
    "wins",
    "losses",
    "byes",
    "skunks",
    "double_skunks",
    "match_points",
    "points_for",
    "points_against",
    "spread",
)


def _check_game(game: Game, rules: MatchRules) -> None:
    if game.first == game.second:
        raise CompetitionError(_("{player} cannot play against themselves"), player=game.first)
    points = (game.first_points, game.second_points)
    if game.first_points == game.second_points or min(points) < 0:
        raise CompetitionError(
            _("a game needs a winner: {first} {a} – {b} {second}"),
            first=game.first,
            second=game.second,
            a=game.first_points,
            b=game.second_points,
        )
    if rules.game_to is not None and max(points) != rules.game_to:
        raise CompetitionError(
            _("the winner ends on {target} exactly, not {points}"),
            target=rules.game_to,
            points=max(points),
        )


@dataclass(frozen=True)
class TableLine:
    player: PlayerId
    rank: int
    total: int
    rounds: tuple[int | None, ...]  # the player's points per round, None: not played
    best: int


def multi_table(
    rounds: Sequence[Mapping[PlayerId, int]], players: Sequence[PlayerId] | None = None
) -> tuple[TableLine, ...]:
    """The ranking of a multi-table event (see the module docstring)."""
    order: list[PlayerId] = list(players or ())
    for round_ in rounds:
        order += [player for player in round_ if player not in order]
    lines = []
    for player in order:
        scores = tuple(round_.get(player) for round_ in rounds)
        played = [score for score in scores if score is not None]
        lines.append(TableLine(player, 0, sum(played), scores, max(played) if played else 0))

    def key(line: TableLine) -> tuple:
        back = tuple(float("-inf") if s is None else s for s in reversed(line.rounds))
        return (line.total, line.best, back)

    return rank_lines(lines, key)
