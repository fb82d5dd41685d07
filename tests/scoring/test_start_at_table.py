"""A game started at a club evening's table: the players sit as the table was seated (guests
too: the start form lists members and guests apart), everyone playing is at the evening, and a
guest's money goes to the guest's account for the evening."""

from __future__ import annotations

import uuid

import pytest
from django.urls import reverse

import evenings
from ledger.models import Account
from scoring import recording
from scoring.models import Game
from tests.factories import make_member


@pytest.fixture
def seated(club):
    """The draw's table of the issue: Ivar, Greta (a guest), Gustav, Frida, Hanna."""
    evening = evenings.open_evening(club, None)
    people = {n: make_member(club, n) for n in ("Ivar", "Gustav", "Frida", "Hanna")}
    here = {n: evenings.check_in(evening, None, member=m) for n, m in people.items()}
    here["Greta"] = evenings.check_in(evening, None, guest_name="Greta")
    order = ["Ivar", "Greta", "Gustav", "Frida", "Hanna"]
    (table,) = evenings.form_tables(evening, "kille", [[here[n] for n in order]], None)
    return table, people, here


def start_form(table, people):
    members = [people[n].pk for n in ("Ivar", "Gustav", "Frida", "Hanna")]
    return {
        "players": members,
        "order": ",".join(map(str, members)),
        "guests": "Greta",
        "table": table.pk,
        "submission": uuid.uuid4().hex,
    }


def test_the_guest_keeps_the_seat_the_table_drew(club, seated, scorer_client):
    table, people, here = seated
    start = reverse("scoring:game-start", args=[club.slug, "kille"]) + f"?table={table.pk}"
    page = scorer_client.get(start).content.decode()
    assert "1&nbsp;Ivar, 2&nbsp;Greta, 3&nbsp;Gustav, 4&nbsp;Frida, 5&nbsp;Hanna" in page
    answer = scorer_client.post(
        reverse("scoring:game-start", args=[club.slug, "kille"]), start_form(table, people)
    )
    assert answer.status_code == 302
    game = Game.objects.get()
    seats = list(game.seats.order_by("position"))
    assert [s.name for s in seats] == ["Ivar", "Greta", "Gustav", "Frida", "Hanna"]
    assert seats[1].attendee == here["Greta"]


def test_a_changed_line_up_keeps_the_forms_order(club, seated, scorer_client):
    table, people, _here = seated
    form = start_form(table, people) | {"guests": ""}
    answer = scorer_client.post(reverse("scoring:game-start", args=[club.slug, "kille"]), form)
    assert answer.status_code == 302
    names = [s.name for s in Game.objects.get().seats.order_by("position")]
    assert names == ["Ivar", "Gustav", "Frida", "Hanna"]


def test_a_guest_who_loses_at_a_table_owes_it_on_her_own_account(club, seated):
    table, _people, here = seated
    players = [s.attendee.member or s.attendee.guest_name for s in table.seats.order_by("position")]
    game = recording.start_game(
        club,
        "kille",
        players,
        None,
        setup={"pot_ore": 0},
        rules={"base_stake_ore": 300},
        table=table,
    )
    recording.append_event(
        game, "ante", {}, expected_seq=0, idempotency_key=uuid.uuid4().hex, by=None
    )
    guest = Account.objects.get(club=club, key=f"guest:{here['Greta'].pk}")
    assert guest.balance_ore == -300
    assert guest.label == "Greta (gäst)"
    assert not Account.objects.filter(club=club, key="cash").exclude(balance_ore=0).exists()
    nights = {n.attendee.name: n for n in evenings.summary(table.evening)}
    assert (nights["Greta"].games, nights["Greta"].net_ore) == (1, -300)


def test_a_guest_typed_on_the_start_form_is_checked_in(club, seated):
    table, people, _here = seated
    players = [people["Ivar"], "Okänd gäst"]
    recording.start_game(club, "kille", players, None, setup={"pot_ore": 0}, table=table)
    names = {a.name for a in table.evening.attendees.all()}
    assert "Okänd gäst" in names
