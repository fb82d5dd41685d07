"""A Kille championship played through real games at tonight's evening (issue 29).

Kille plays from a pot, and a pot is at one table at a time; a championship's tables play at
once. So each competition table plays at tonight's table of the same number, whose pot is its
own (``evenings.table_numbered``), as two Kille tables of any club evening do.

Worked by hand (kungsholmskille.sv.txt, NOTES K2, K6; base stake 2 kr, small stake 1 kr):
eight players A…H enter; round 1 deals them like cards to two tables of four:
table 1 A C E G, table 2 B D F H. Each table's pot starts empty, so the deal opens with the
stake: four times 200 = 800 öre in the pot. The second seat (förhand: C at table 1, D at table
2) knocks and everyone folds: he takes the 800 and everyone, he too, pays the small stake for
the next deal (K6): C and D +800 − 200 − 100 = +500, the other six −200 − 100 = −300; 400 öre
stay in each table's pot. The tables end their round between deals: standings C 500, D 500
(equal: rank 1 both, C entered first), then A, B, E, F, G, H at −300.
Round 2 re-seats by the standings: table 1 C D A B, table 2 E F G H. Table 1's game starts
from the 400 round 1's table 1 left there (no opening stake: the pot is not empty).
"""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

import evenings
from competitions import running, tables
from competitions.models import Kind
from evenings.models import Attendee
from ledger.models import Account
from scoring import recording
from tests.competitions.playing import append, start
from tests.conftest import client_for
from tests.factories import make_member


def walk_over(game):
    """Förhand (s1) knocks and the other three fold; then the table ends its round."""
    if "ante" in recording.current_state(game)[0].expected:
        append(game, "ante", {}, f"{game.pk}-ante")
    append(game, "knock", {"player": "s1"}, f"{game.pk}-knock")
    for n, seat in enumerate(("s2", "s3", "s0")):
        append(game, "fold", {"player": seat}, f"{game.pk}-fold-{n}")
    append(game, "end_evening", {}, f"{game.pk}-end")
    game.refresh_from_db()
    assert game.status == "finished"
    return game


def seated(round_):
    return [
        [s.entrant.name for s in t.seats.order_by("position")]
        for t in round_.tables.order_by("number")
    ]


def pot(club, number):
    account = Account.objects.filter(club=club, key=f"pot:kille:{number}").first()
    return account.balance_ore if account else 0


def test_a_kille_championship_plays_at_tonights_tables_each_from_its_own_pot(club, scorer):
    players = [make_member(club, name) for name in "ABCDEFGH"]
    competition = running.announce(
        club, scorer.user, name="Kille-KM", kind=Kind.CHAMPIONSHIP, game_key="kille",
        rounds=2, table_size=4,
    )  # fmt: skip
    for member in players:
        running.enter(competition, scorer.user, member=member)
    first = running.start(competition, scorer.user)
    assert seated(first) == [list("ACEG"), list("BDFH")]
    one, two = first.tables.order_by("number")

    # Without tonight's evening there is no table pot to play from.
    with pytest.raises(ValidationError) as refused:
        start(one, scorer.user)
    assert refused.value.code == "no_evening"

    evening = evenings.open_evening(club, scorer.user)
    games = [start(one, scorer.user), start(two, scorer.user)]  # both open at once
    assert [(g.table.evening_id, g.table.number) for g in games] == [
        (evening.pk, 1),
        (evening.pk, 2),
    ]
    assert Attendee.objects.filter(evening=evening).count() == 8  # checked in as they sat down
    for game in games:
        walk_over(game)
    assert (pot(club, 1), pot(club, 2)) == (400, 400)

    lines = tables.standings(competition)
    assert [(row.rank, row.entrant.name, row.total) for row in lines] == [
        (1, "C", 500), (1, "D", 500),
        (3, "A", -300), (3, "B", -300), (3, "E", -300), (3, "F", -300), (3, "G", -300),
        (3, "H", -300),
    ]  # fmt: skip

    # A pot game's score is money won at the table: the page shows it in kronor.
    page = (
        client_for(scorer)
        .get(reverse("competitions:detail", args=[club.slug, competition.pk]))
        .content.decode()
    )
    assert "5,00\xa0kr" in page
    assert "−3,00\xa0kr" in page

    second = running.next_round(competition, scorer.user)
    assert seated(second) == [list("CDAB"), list("EFGH")]
    table_one = second.tables.get(number=1)
    game = start(table_one, scorer.user)
    assert game.table.number == 1
    assert game.setup["pot_ore"] == 400  # what round 1 left at table 1
    assert "ante" not in recording.current_state(game)[0].expected


def test_tonights_table_number_plays_one_game(club, scorer):
    evening = evenings.open_evening(club, scorer.user)
    table = evenings.table_numbered(evening, 3, "kille")
    assert evenings.table_numbered(evening, 3, "kille") == table
    with pytest.raises(ValidationError) as refused:
        evenings.table_numbered(evening, 3, "polskt_pass")
    assert refused.value.code == "table_game"
    assert evenings.open_tonight(club) == evening
