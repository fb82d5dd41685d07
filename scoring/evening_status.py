"""What the club evening's board shows of a table's games (``evenings.board``): who is ahead,
by what, and the pad's address.

Who is ahead is read from the game's snapshot as the game counts it, by the reader its pad hook
names (``Pad.evening_status``, made from the readers here or its own):

- a money game (Kille, Polskt pass) by money: each seat's net in the game (``nets``, by seat
  key ``s0``, ``s1`` …), the pots left out;
- a points game by its running score: the engine's per-player or per-side totals (cribbage's
  ``scores``, Fan tan's ``points``, Nittionio's ``totals`` …), with the game's own order where
  fewer is better or players go out (Kille elimination, Vändåtta, Stopp);
- a partnership game (whist, Fyrtioett, Femhundra with four, Kasino in pairs) by side: the
  side is named "Anna & Cissi".

A finished game is led by its standings' first place. Players or sides level at the top are all
named, "(lika)"; while everyone is level (no money moved, no points yet) nobody leads and the
board shows "–". The score shown is the leader's figure that puts it ahead.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from django.urls import reverse
from django.utils.translation import gettext as _

from core.money import format_ore
from engine import registry
from evenings.board import GameStatus
from scoring.games import names_of, pad_for
from scoring.models import Game
from scoring.models import GameStatus as Status


@dataclass(frozen=True)
class Rival:
    """A player, or a side of partners, and how far ahead they are as the game counts: a tuple
    compared from the first figure (larger is ahead), shown as ``shown``."""

    players: tuple[str, ...]
    measure: tuple[int, ...]
    shown: str


Reader = Callable[[dict, Sequence[str]], list[Rival]]


def whole(value: object) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def per_player(value: object, players: Sequence[str]) -> dict[str, int]:
    """A per-player figure as the snapshot holds it: a dict by seat key, or a list in seat
    order."""
    if isinstance(value, dict):
        return {p: whole(value.get(p)) for p in players}
    if isinstance(value, list) and len(value) == len(players):
        return {p: whole(v) for p, v in zip(players, value, strict=True)}
    return dict.fromkeys(players, 0)


def _signed_money(amount_ore: int) -> str:
    return ("+" if amount_ore > 0 else "") + format_ore(amount_ore)


def by_money(snapshot: dict, players: Sequence[str]) -> list[Rival]:
    nets = per_player(snapshot.get("nets"), players)
    return [Rival((p,), (nets[p],), _signed_money(nets[p])) for p in players]


def by_field(name: str) -> Reader:
    """Points in one per-player field, more is better, shared by partners (``teams``)."""

    def read(snapshot: dict, players: Sequence[str]) -> list[Rival]:
        points = per_player(snapshot.get(name), players)
        return _sides(
            snapshot, players, lambda side: (points[side[0]],), lambda side: str(points[side[0]])
        )

    return read


def _sides(snapshot, players, measure, shown) -> list[Rival]:
    """One rival per side (``teams``: player → side number), else per player; ``measure`` and
    ``shown`` read a side (a tuple of seat keys, partners share their figures)."""
    teams = snapshot.get("teams") if isinstance(snapshot.get("teams"), dict) else {}
    sides: dict[object, list[str]] = {}
    for p in players:
        sides.setdefault(teams.get(p, p), []).append(p)
    return [Rival(tuple(side), measure(tuple(side)), shown(tuple(side))) for side in sides.values()]


def by_side_list(snapshot: dict, players: Sequence[str]) -> list[Rival]:
    """Kasino: ``scores`` per side of ``sides``."""
    sides = [tuple(side) for side in snapshot.get("sides") or [] if isinstance(side, list)]
    scores = snapshot.get("scores") or []
    if not sides or len(scores) != len(sides):
        return []
    return [Rival(side, (whole(s),), str(whole(s))) for side, s in zip(sides, scores, strict=True)]


def still_in(name: str, *, out: str, fewer_is_better: bool = False) -> Reader:
    """A game players leave (``out``: who has left): those still in are ahead of those out,
    then by ``name`` (fewer first where ``fewer_is_better``)."""

    def read(snapshot: dict, players: Sequence[str]) -> list[Rival]:
        left = set(snapshot.get(out) or [])
        points = per_player(snapshot.get(name), players)
        sign = -1 if fewer_is_better else 1
        return [Rival((p,), (p not in left, sign * points[p]), str(points[p])) for p in players]

    return read


def rivals(game_key: str, snapshot: dict, players: Sequence[str]) -> list[Rival]:
    """Every player or side with its standing in the game so far, read by the game's pad hook
    (``Pad.evening_status``); a game without a reader is read by ``scores`` if it has them,
    else money."""
    reader = pad_for(game_key).evening_status
    if reader is None:
        reader = by_field("scores") if "scores" in snapshot else by_money
    return reader(snapshot, players)


def _finished(snapshot: dict, players: Sequence[str]) -> list[Rival]:
    """A finished game by its standings: first place ahead of the rest, partners together."""
    standings = [s for s in snapshot.get("standings") or [] if isinstance(s, dict)]
    place = {s.get("player"): whole(s.get("placement")) for s in standings}
    score = {s.get("player"): whole(s.get("score")) for s in standings}
    last = len(players) + 1
    return _sides(
        snapshot,
        players,
        lambda side: (-place.get(side[0], last),),
        lambda side: str(score.get(side[0], "")),
    )


def leaders(field: list[Rival]) -> list[Rival]:
    """Those ahead: the rivals with the best measure, or nobody while everyone is level."""
    if not field:
        return []
    best = max(rival.measure for rival in field)
    ahead = [rival for rival in field if rival.measure == best]
    return [] if len(ahead) == len(field) else ahead


def leader_text(ahead: list[Rival], names: Mapping[str, str]) -> str:
    """ "Gustav", "Anna & Cissi", "Anna, Bo (lika)"; "" for nobody."""
    named = [" & ".join(names.get(p, p) for p in rival.players) for rival in ahead]
    if len(named) > 1:
        return _("%(names)s (tied)") % {"names": ", ".join(named)}
    return named[0] if named else ""


def table_statuses(games: list[Game]) -> dict[int, GameStatus]:
    statuses = {}
    for game in games:  # with their seats and club loaded (evenings.board)
        if game.status == Status.VOIDED:
            continue
        seats = list(game.seats.all())
        players = [seat.key for seat in seats]
        snapshot = game.snapshot if isinstance(game.snapshot, dict) else {}
        if game.status == Status.FINISHED:
            field = _finished(snapshot, players)
        else:
            field = rivals(game.game_key, snapshot, players)
        ahead = leaders(field)
        statuses[game.pk] = GameStatus(
            game_id=game.pk,
            game_name=_(registry.display_name(game.game_key)),
            leader=leader_text(ahead, names_of(seats)),
            score=ahead[0].shown if ahead else "",
            url=reverse("scoring:game-detail", args=[game.club.slug, game.pk]),
            is_open=game.status == Status.OPEN,
        )
    return statuses
