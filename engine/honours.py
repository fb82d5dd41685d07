"""The famous hands a club may name for a prize (issue 29): what the engines detect from what is
recorded, and which hands cannot happen at all.

- ``Honour``: one special hand in a game: the player (seat key), the kind (``KINDS``), the deal
  number in the game (1, 2, …) and a detail (the cards when they were given). An engine's
  ``State.honours`` holds every honour of the game so far; replay rebuilds it, so an undo takes
  the hand away.
- ``KINDS``: every kind a club can choose, by game key, each with its name (marked for
  translation). Cribbage: a show of 29, 28 or 24 points, in the hand or the crib, counted by
  points or by cards (29 in the crib is possible: the four cards are the crib's). Polskt pass:
  a won la vola.
- ``IMPOSSIBLE``: hands a club might ask for that no table can produce, with the reason, so the
  settings page can say why it cannot be chosen. Kille (Kungsholmskille and the elimination
  game): three of a kind. The Kille deck has two of each of its 21 ranks
  (``engine.cards.KilleRank``, ``engine.kille.COPIES``) and each engine refuses a third
  equal card in a deal (``engine.kille.check_copies``), so three of a kind cannot be held or shown.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.errors import Text, _


@dataclass(frozen=True)
class Honour:
    """A special hand: ``player`` (seat key) held ``kind`` in deal ``deal`` (1, 2, …)."""

    player: str
    kind: str
    deal: int
    detail: str = ""


@dataclass(frozen=True)
class HonourKind:
    key: str
    game_key: str
    name: Text


# The totals of a cribbage show that clubs reward, highest first.
CRIBBAGE_TOTALS = (29, 28, 24)


def cribbage_kind(points: int, crib: bool) -> str:
    return f"cribbage:{points}:{'crib' if crib else 'hand'}"


_CRIBBAGE_NAMES = {
    cribbage_kind(29, False): _("a 29 hand"),
    cribbage_kind(29, True): _("a 29 crib"),
    cribbage_kind(28, False): _("a 28 hand"),
    cribbage_kind(28, True): _("a 28 crib"),
    cribbage_kind(24, False): _("a 24 hand"),
    cribbage_kind(24, True): _("a 24 crib"),
}
LA_VOLA = "polskt_pass:la_vola"

KINDS: dict[str, HonourKind] = {
    kind.key: kind
    for kind in (
        *(HonourKind(key, "cribbage", name) for key, name in _CRIBBAGE_NAMES.items()),
        HonourKind(LA_VOLA, "polskt_pass", _("a won la vola")),
    )
}

# Asked for, but no table can produce it: (the hand's name, why).
IMPOSSIBLE: dict[str, tuple[Text, Text]] = {
    game: (
        _("three of a kind"),
        _(
            "the Kille deck has two cards of each rank, so nobody can hold or show three of a "
            "kind; the app refuses a third equal card in a deal"
        ),
    )
    for game in ("kille", "kille_elimination")
}


def kinds_for(game_key: str) -> tuple[HonourKind, ...]:
    return tuple(kind for kind in KINDS.values() if kind.game_key == game_key)


def cribbage_honour(player: str, points: int, crib: bool, deal: int, cards=()) -> Honour | None:
    """The honour a cribbage show of ``points`` is, if any."""
    if points not in CRIBBAGE_TOTALS:
        return None
    return Honour(player, cribbage_kind(points, crib), deal, " ".join(str(c) for c in cards))
