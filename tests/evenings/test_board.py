"""The evening board's leader of each table: who is ahead in the game as the game counts it.
Money for a money game (Kille, Polskt pass: the seats' nets), points for a points game, a side
for a partnership game; tied leaders named with "lika", and "–" while nobody is ahead."""

from __future__ import annotations

import itertools

import pytest

import evenings
from evenings import board
from scoring import games, recording
from tests.factories import make_member

_keys = itertools.count()


@pytest.fixture
def evening(club):
    return evenings.open_evening(club, None)


def table_game(club, evening, game_key: str, names: list[str], rules: dict | None = None):
    """A table of ``names`` (in seat order) at the evening with a game of ``game_key`` started."""
    people = [make_member(club, name) for name in names]
    here = [evenings.check_in(evening, None, member=m) for m in people]
    (table,) = evenings.form_tables(evening, game_key, [here], None)
    setup = games.start_setup(club, game_key, table.number)
    return recording.start_game(club, game_key, people, None, rules=rules, setup=setup, table=table)


def play(game, *events) -> None:
    for event_type, payload in events:
        game.refresh_from_db()
        recording.append_event(
            game,
            event_type,
            payload,
            expected_seq=game.seq,
            idempotency_key=f"t{next(_keys)}",
            by=None,
        )


def leader_at(evening, number: int) -> tuple[str, str]:
    (row,) = [row for row in board.board(evening)["tables"] if row.table.number == number]
    assert row.current is not None
    return row.current.leader or "–", row.current.score


def test_a_kille_table_is_led_by_the_seat_with_the_most_money(club, evening):
    game = table_game(club, evening, "kille", ["Gustav", "Bertil", "Cilla", "Dan"])
    # Nobody is ahead until money moves between the players: after the ante (2 kr each into
    # the pot) and a budrunda (1 kr each) everyone is at −3 kr.
    play(game, ("ante", {}))
    assert leader_at(evening, 1) == ("–", "")
    calls = [("s1", "bud"), ("s2", "bud"), ("s3", "bud"), ("s0", "bud")]
    play(game, *[(kind, {"player": p}) for p, kind in calls])
    assert leader_at(evening, 1) == ("–", "")
    # Deal 2: Gustav (s0) takes the 12 kr pot and 12 kr from Bertil, who shows and loses; the
    # losers Bertil and Cilla pay 2 kr each into the pot. Gustav: −3 + 12 + 12 = +21 kr;
    # Bertil −3 − 12 − 2 = −17; Cilla −3 − 2 = −5; Dan −3.
    calls = [("s2", "knock"), ("s3", "fold"), ("s0", "stay"), ("s1", "stay"), ("s2", "knock")]
    play(game, *[(kind, {"player": p}) for p, kind in calls])
    play(
        game,
        ("fourth_trick", {"player": "s0"}),
        ("bud", {"player": "s0"}),
        ("show", {"player": "s1"}),
        ("reveal", {"cards": {"s0": "blompottan", "s1": "3", "s2": "kille"}}),
    )
    game.refresh_from_db()
    assert game.snapshot["nets"] == {"s0": 2100, "s1": -1700, "s2": -500, "s3": -300, "pot": 400}
    assert leader_at(evening, 1) == ("Gustav", "+21,00\xa0kr")


def test_two_kille_tables_each_have_their_own_leader(club, evening):
    # The evening: "Leder: –" at both Kille tables, whoever had won what.
    one = table_game(club, evening, "kille", ["Gustav", "Anna", "Cilla", "Dan"])
    two = table_game(club, evening, "kille", ["Bertil", "Erik", "Fia", "Gun"])
    assert [r.table.number for r in board.board(evening)["tables"]] == [1, 2]
    for game in (one, two):
        play(game, ("ante", {}))
        calls = [("s1", "bud"), ("s2", "bud"), ("s3", "bud"), ("s0", "bud")]
        play(game, *[(kind, {"player": p}) for p, kind in calls])
    # Table 1 only: Gustav wins the deal above (+21 kr); at table 2 all are still at −3 kr,
    # then Bertil, in the first seat there, wins the same deal.
    deal = [("s2", "knock"), ("s3", "fold"), ("s0", "stay"), ("s1", "stay"), ("s2", "knock")]
    showing = [
        ("fourth_trick", {"player": "s0"}),
        ("bud", {"player": "s0"}),
        ("show", {"player": "s1"}),
        ("reveal", {"cards": {"s0": "blompottan", "s1": "3", "s2": "kille"}}),
    ]
    play(one, *[(kind, {"player": p}) for p, kind in deal], *showing)
    assert leader_at(evening, 1) == ("Gustav", "+21,00\xa0kr")
    assert leader_at(evening, 2) == ("–", "")
    play(two, *[(kind, {"player": p}) for p, kind in deal], *showing)
    assert leader_at(evening, 1) == ("Gustav", "+21,00\xa0kr")
    assert leader_at(evening, 2) == ("Bertil", "+21,00\xa0kr")


def test_a_points_game_is_led_by_the_most_points_and_a_tie_names_both(club, evening):
    game = table_game(club, evening, "president", ["Anna", "Bo", "Cissi", "Doris"])
    assert leader_at(evening, 1) == ("–", "")  # nobody has a point yet
    # President, four players: 3, 2, 1 and 0 points in the order they go out (PR2).
    play(game, ("deal", {"order": ["s0", "s1", "s2", "s3"]}))
    assert leader_at(evening, 1) == ("Anna", "3")
    # Bo out first, then Anna, Doris, Cissi: Anna 3 + 2 = 5, Bo 2 + 3 = 5, Cissi 1, Doris 1.
    play(game, ("deal", {"order": ["s1", "s0", "s3", "s2"]}))
    assert leader_at(evening, 1) == ("Anna, Bo (lika)", "5")


def test_a_points_game_in_english(club, evening, in_english):
    game = table_game(club, evening, "president", ["Anna", "Bo", "Cissi", "Doris"])
    play(game, ("deal", {"order": ["s0", "s1", "s2", "s3"]}))
    play(game, ("deal", {"order": ["s1", "s0", "s3", "s2"]}))
    assert leader_at(evening, 1) == ("Anna, Bo (tied)", "5")


def test_a_partnership_game_is_led_by_a_side(club, evening):
    game = table_game(club, evening, "whist", ["Anna", "Bo", "Cissi", "Doris"])
    assert leader_at(evening, 1) == ("–", "")
    # Short whist, partners opposite: Anna & Cissi (side 0) against Bo & Doris (side 1). Side
    # 0 takes 8 tricks: 8 − 6 = 2 trick points; the honours split 2–2 scores nothing.
    play(game, ("deal", {"tricks": {"0": 8}, "honours": "2-2"}))
    assert leader_at(evening, 1) == ("Anna & Cissi", "2–0")
    # Side 1 takes 10 tricks with all four honours: 4 + 4 = 8, game (5 is game), and as side 0
    # had 2 (under half of 5: double) side 1 wins a game worth 2 rubber points; the new game
    # starts at 0–0. Bo & Doris lead on games, 1 to 0 (the figure that decides is shown).
    play(game, ("deal", {"tricks": {"1": 10}, "honours": "0-4"}))
    game.refresh_from_db()
    assert game.snapshot["games"] == [0, 1]
    assert game.snapshot["scores"] == [0, 0]
    assert leader_at(evening, 1) == ("Bo & Doris", "1–0")
