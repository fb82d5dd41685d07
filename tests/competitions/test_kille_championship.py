"""A 12-player Kille championship with a drop after round 1, worked by hand, and the places
rule of a championship with a final table."""

from __future__ import annotations

import pytest

from competitions.base import CompetitionError
from competitions.championship import championship_places
from competitions.prizes import split
from competitions.seating import final_table, reseat, seat_field
from competitions.standings import multi_table
from engine import kille

ENTRANTS = list("ABCDEFGHIJKL")  # in order of entry
TABLE = 4  # the club's most per table; Kille itself seats 2 to 6 (Kungsholmskille: högst sex)
FEE_ORE = 2500

ROUND_1 = {
    # table 1: A, D, G, J
    "A": 300, "D": -100, "G": 50, "J": -250,
    # table 2: B, E, H, K
    "B": 200, "E": -300, "H": 150, "K": -50,
    # table 3: C, F, I, L
    "C": -150, "F": 300, "I": -200, "L": 50,
}  # fmt: skip
ROUND_2 = {
    # table 1: A, F, B, G
    "A": -250, "F": 50, "B": 150, "G": 50,
    # table 2: L, K, D, C
    "L": 250, "K": -100, "D": -50, "C": -100,
    # table 3: I, J, E
    "I": 100, "J": -150, "E": 50,
}  # fmt: skip
FINAL = {"F": -150, "B": 250, "L": 50, "G": -150}


def test_a_twelve_player_kille_championship_with_a_drop_after_round_one():
    """The director's sheet.

    Field: A … L entered in that order, entry fee 25 kr each. Kille seats 2 to 6 (the engine's
    declaration, Kungsholmskille "högst sex spelare"); the club plays at most 4 a table.

    Round 1 (``seat_field``). 12 players, at most 4 a table: ceil(12 / 4) = 3 tables of 4.
    Dealt like cards, A → 1, B → 2, C → 3, D → 1, …:
        table 1: A D G J     table 2: B E H K     table 3: C F I L
    Results, net öre won at the table over the round's deals (each table sums to 0):
        table 1: A +300, D −100, G  +50, J −250   (300 − 100 + 50 − 250 = 0)
        table 2: B +200, E −300, H +150, K  −50   (200 − 300 + 150 − 50 = 0)
        table 3: C −150, F +300, I −200, L  +50   (−150 + 300 − 200 + 50 = 0)

    Standings after round 1 (``multi_table``: total, best round, count-back; after one round
    all three are the same number, so equals share the rank, listed in order of entry):
        1 A 300, 1 F 300, 3 B 200, 4 H 150, 5 G 50, 5 L 50, 7 K −50, 8 D −100, 9 C −150,
        10 I −200, 11 J −250, 12 E −300

    H drops after round 1 (his fee stays in the pool). Round 2 (``reseat``) seats the other 11
    by the standings: ceil(11 / 4) = 3 tables, 11 = 4 + 4 + 3, the bigger tables first; table
    1 takes the top four, and so on:
        table 1: A F B G     table 2: L K D C     table 3: I J E
    Results:
        table 1: A −250, F  +50, B +150, G +50    (−250 + 50 + 150 + 50 = 0)
        table 2: L +250, K −100, D  −50, C −100   (250 − 100 − 50 − 100 = 0)
        table 3: I +100, J −150, E  +50           (100 − 150 + 50 = 0)

    Standings after round 2 (total = round 1 + round 2; best = the better round):
        F 300 +  50 =  350, best 300  ┐ equal totals: the best round puts F first
        B 200 + 150 =  350, best 200  ┘
        L  50 + 250 =  300
        H 150 +  —  =  150  (no round 2: it counts nothing)
        G  50 +  50 =  100
        A 300 − 250 =   50
        I −200 + 100 = −100
        D −100 −  50 = −150, best −50, last round −50  ┐ equal total and best: count-back,
        K  −50 − 100 = −150, best −50, last round −100 ┘ D's last round is better
        E −300 +  50 = −250, best  50  ┐ equal totals: E's best round is better
        C −150 − 100 = −250, best −100 ┘
        J −250 − 150 = −400
    Ranks 1 … 12 in that order, no shared rank.

    Final table (``final_table``) of 4 from the standings of those still playing (H is out):
    F, B, L, G. Its result: B +250, L +50, F −150, G −150 (250 + 50 − 150 − 150 = 0).

    Places (``championship_places``): the final places 1–4 by its points, equal points by the
    standing before the final; the rest by the standing.
        1 B (+250), 2 L (+50), 3 F (−150, stood 1st), 4 G (−150, stood 5th),
        5 H, 6 A, 7 I, 8 D, 9 K, 10 E, 11 C, 12 J

    Prizes (``prizes.split``): the pool is 12 × 25 kr = 300 kr = 30 000 öre (H paid too);
    50 / 30 / 20 %: B 15 000, L 9 000, F 6 000; 15 000 + 9 000 + 6 000 = 30 000.
    Had the fee been 25.01 kr: 30 012 öre; 50 % = 15 006, 30 % = 9 003 (9 003.6 down),
    20 % = 6 002 (6 002.4 down), 30 011 in all; the öre left goes to 1st: B 15 007.
    """
    assert kille.MIN_PLAYERS <= 2 <= TABLE <= kille.MAX_PLAYERS
    for round_ in (ROUND_1, ROUND_2, FINAL):
        assert sum(round_.values()) == 0
    bounds = {"max_size": TABLE, "min_size": kille.MIN_PLAYERS}

    round_1 = seat_field(ENTRANTS, **bounds)
    assert round_1 == [list("ADGJ"), list("BEHK"), list("CFIL")]
    for table in round_1:  # each table's result sums to zero
        assert sum(ROUND_1[p] for p in table) == 0

    after_1 = multi_table([ROUND_1], ENTRANTS)
    assert [(line.rank, line.player, line.total) for line in after_1] == [
        (1, "A", 300),
        (1, "F", 300),
        (3, "B", 200),
        (4, "H", 150),
        (5, "G", 50),
        (5, "L", 50),
        (7, "K", -50),
        (8, "D", -100),
        (9, "C", -150),
        (10, "I", -200),
        (11, "J", -250),
        (12, "E", -300),
    ]

    dropped = {"H"}
    round_2 = reseat([line.player for line in after_1 if line.player not in dropped], **bounds)
    assert round_2 == [list("AFBG"), list("LKDC"), list("IJE")]
    for table in round_2:
        assert sum(ROUND_2[p] for p in table) == 0

    after_2 = multi_table([ROUND_1, ROUND_2], ENTRANTS)
    assert [(line.rank, line.player, line.total, line.best) for line in after_2] == [
        (1, "F", 350, 300),
        (2, "B", 350, 200),
        (3, "L", 300, 250),
        (4, "H", 150, 150),
        (5, "G", 100, 50),
        (6, "A", 50, 300),
        (7, "I", -100, 100),
        (8, "D", -150, -50),
        (9, "K", -150, -50),
        (10, "E", -250, 50),
        (11, "C", -250, -100),
        (12, "J", -400, -150),
    ]
    assert after_2[3].rounds == (150, None)

    final = final_table([line.player for line in after_2 if line.player not in dropped], 4)
    assert final == list("FBLG")

    places = championship_places([ROUND_1, ROUND_2], FINAL, ENTRANTS)
    assert [(place.rank, place.player) for place in places] == list(
        enumerate("BLFGHAIDKECJ", start=1)
    )
    assert [(place.player, place.final, place.standing) for place in places[:4]] == [
        ("B", 250, 2),
        ("L", 50, 3),
        ("F", -150, 1),
        ("G", -150, 5),
    ]
    assert (places[4].player, places[4].total, places[4].final) == ("H", 150, None)
    assert [place.total for place in places[:4]] == [350, 300, 350, 100]  # the final not added

    ranking = [(place.player, place.rank) for place in places]
    prizes = split(len(ENTRANTS) * FEE_ORE, (50, 30, 20), ranking)
    assert [(p.player, p.amount_ore) for p in prizes] == [("B", 15000), ("L", 9000), ("F", 6000)]
    assert sum(p.amount_ore for p in prizes) == 30000

    odd = split(len(ENTRANTS) * 2501, (50, 30, 20), ranking)
    assert [(p.player, p.amount_ore) for p in odd] == [("B", 15007), ("L", 9003), ("F", 6002)]
    assert sum(p.amount_ore for p in odd) == 30012


def test_without_a_final_table_the_places_are_the_standings():
    rounds = [ROUND_1, ROUND_2]
    places = championship_places(rounds, None, ENTRANTS)
    standing = multi_table(rounds, ENTRANTS)
    assert [(p.player, p.rank) for p in places] == [(line.player, line.rank) for line in standing]
    assert all(p.final is None for p in places)


def test_finalists_equal_on_the_final_and_the_standing_share_a_place():
    rounds = [{"a": 10, "b": 10, "c": 5, "d": 5, "e": 5}]
    places = championship_places(rounds, {"a": 3, "b": 3}, list("abcde"))
    # c, d and e stood equal: they share 3rd, the first place after the final's two.
    assert [(p.player, p.rank) for p in places] == [
        ("a", 1),
        ("b", 1),
        ("c", 3),
        ("d", 3),
        ("e", 3),
    ]
    # b stood equal with a, but the final put b ahead.
    assert [p.player for p in championship_places(rounds, {"a": 1, "b": 2})][:2] == ["b", "a"]


def test_a_finalist_who_played_no_round_is_refused():
    with pytest.raises(CompetitionError, match="z is at the final table"):
        championship_places([{"a": 1, "b": -1}], {"a": 0, "z": 0})
