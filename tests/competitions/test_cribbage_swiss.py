"""A hand-worked 8-player cribbage Swiss of 3 rounds, pairings and standings by hand.

The rules (../shared/rules/cribbage.sv.txt, "Vinst och skunk"): a game is won by the first to
121 (play stops there); a loser under 91 is skunked, under 61 double-skunked. The club's match
points (ACC): 2 for a win, +1 for a skunk, +2 (instead) for a double skunk, 0 for a loss. Order:
match points, then spread (points for − against), then opponents' wins.

Seeding A B C D E F G H; everyone on 0, so round 1 pairs neighbours, the higher seed first.

Round 1                          mp    spread
  T1 A 121 – B 100               A 2   A +21, B −21
  T2 C 121 – D  85  skunk        C 3   C +36, D −36
  T3 E 110 – F 121               F 2   F +11, E −11
  T4 G  55 – H 121  double       H 4   H +66, G −66
Standings: H 4 (+66), C 3 (+36), A 2 (+21), F 2 (+11), E 0 (−11), B 0 (−21), D 0 (−36),
G 0 (−66). Score groups: {H} {C} {A F} {E B D G}; ranks H0 C1 A2 F3 E4 B5 D6 G7.

Round 2. H and C are alone in their groups: H–C costs 1 (one group apart), the rest pair
within their groups without a repeat: A–F, E–B, D–G (all neighbours in rank): groups 1,
ranks 1+1+1+1 = 4, the least. Seats: after round 1 the first seats were A C E G, so the one
who sat second sits first: H–C, F–A, B–E, D–G.
  T1 H 121 – C 118               H 2   H +3,  C −3
  T2 F  90 – A 121  skunk        A 3   A +31, F −31
  T3 B 121 – E  95               B 2   B +26, E −26
  T4 D 121 – G  60  double       D 4   D +61, G −61
Standings: H 6 (+69), A 5 (+52), D 4 (+25), C 3 (+33), B 2 (+5), F 2 (−20), E 0 (−37),
G 0 (−127). Groups {H} {A} {D} {C} {B F} {E G}; ranks H0 A1 D2 C3 B4 F5 E6 G7.

Round 3. D–C met in round 1. H–A costs 1 (H–D would cost 4 and leave A–C at 4). Then D
(group 2) takes B or F (4 each) and C (group 3) the other (1); E–G 0: groups 6 either way,
ranks D–B 4 + C–F 4 = 8 against D–F 9 + C–B 1 = 10, so H–A, D–B, C–F, E–G (ranks 1+4+4+1).
Every player has sat first once and second once: the higher-ranked sits first.
  T1 H 121 – A 110               H 2   H +11, A −11
  T2 D 100 – B 121               B 2   B +21, D −21
  T3 C 121 – F  80  skunk        C 3   C +41, F −41
  T4 E 121 – G 105               E 2   E +16, G −16

Final standings (wins: H 3, A 2, B 2, C 2, D 1, E 1, F 1, G 0):
  1 H  mp 8  spread  +80  (66+3+11)        opponents' wins G0+C2+A2 = 4
  2 C  mp 6  spread  +74  (36−3+41)        D1+H3+F1 = 5
  3 A  mp 5  spread  +41  (21+31−11)       B2+F1+H3 = 6
  4 B  mp 4  spread  +26  (−21+26+21)      A2+E1+D1 = 4
  5 D  mp 4  spread   +4  (−36+61−21)      C2+G0+B2 = 4   (B above D on spread)
  6 E  mp 2  spread  −21  (−11−26+16)      F1+B2+G0 = 3
  7 F  mp 2  spread  −61  (11−31−41)       E1+A2+C2 = 5   (E above F on spread)
  8 G  mp 0  spread −143  (−66−61−16)      H3+D1+E1 = 5
"""

from __future__ import annotations

from competitions.base import Pairing
from competitions.standings import CRIBBAGE, Game, two_player
from competitions.swiss import Entrant, pair_round

SEEDING = list("ABCDEFGH")

SCORES = [
    {"A": 121, "B": 100, "C": 121, "D": 85, "E": 110, "F": 121, "G": 55, "H": 121},
    {"H": 121, "C": 118, "F": 90, "A": 121, "B": 121, "E": 95, "D": 121, "G": 60},
    {"H": 121, "A": 110, "D": 100, "B": 121, "C": 121, "F": 80, "E": 121, "G": 105},
]

EXPECTED_PAIRINGS = [
    [("A", "B"), ("C", "D"), ("E", "F"), ("G", "H")],
    [("H", "C"), ("F", "A"), ("B", "E"), ("D", "G")],
    [("H", "A"), ("D", "B"), ("C", "F"), ("E", "G")],
]


def test_three_rounds_pair_and_rank_as_worked_by_hand():
    games: list[Game] = []
    history: list[Pairing] = []
    for number, scores in enumerate(SCORES):
        lines = two_player(games, CRIBBAGE, players=SEEDING)
        round_ = pair_round([Entrant(line.player, line.match_points) for line in lines], history)
        assert [(p.first, p.second) for p in round_.pairings] == EXPECTED_PAIRINGS[number]
        assert round_.bye is None
        history += round_.pairings
        games += [
            Game(p.first, p.second, scores[p.first], scores[p.second]) for p in round_.pairings
        ]

    lines = two_player(games, CRIBBAGE, players=SEEDING)
    table = [
        (line.rank, line.player, line.match_points, line.spread, line.opponents_wins)
        for line in lines
    ]
    assert table == [
        (1, "H", 8, 80, 4),
        (2, "C", 6, 74, 5),
        (3, "A", 5, 41, 6),
        (4, "B", 4, 26, 4),
        (5, "D", 4, 4, 4),
        (6, "E", 2, -21, 3),
        (7, "F", 2, -61, 5),
        (8, "G", 0, -143, 5),
    ]
    by_player = {line.player: line for line in lines}
    assert (by_player["C"].skunks, by_player["C"].double_skunks) == (2, 0)
    assert (by_player["H"].skunks, by_player["H"].double_skunks) == (1, 1)
    assert (by_player["H"].points_for, by_player["H"].points_against) == (363, 283)
    assert (by_player["G"].wins, by_player["G"].losses, by_player["G"].games) == (0, 3, 3)


def test_standings_after_round_one_put_spread_before_the_seeding():
    games = [
        Game("A", "B", 121, 100),
        Game("C", "D", 121, 85),
        Game("E", "F", 110, 121),
        Game("G", "H", 55, 121),
    ]
    lines = two_player(games, CRIBBAGE, players=SEEDING)
    assert [line.player for line in lines] == list("HCAFEBDG")
