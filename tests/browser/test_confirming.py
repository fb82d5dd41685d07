"""Results the table confirms, on two phones (issue 28, item 5): the host recorded the game to its
end; Bertil, at the table, taps "Stämmer" on his own phone, and the host's pad, which shows the
finished game, learns of it by itself. Screenshots in test-results/."""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from club.demo import DEMO_PASSWORD, DEMO_USERNAME
from club.models import ConfirmWhen, Member, Membership, Role, User
from scoring import recording
from scoring.models import Confirmation
from tests.browser.conftest import hold_polls, log_in, seated
from tests.browser.test_tap_queue import slow_network
from tests.browser.test_tap_targets import _MEASURE, MIN_PX
from tests.demo import demo_members

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_player_confirms_on_his_phone_and_the_hosts_pad_shows_it(live_server, phones, output_dir):
    club = demo_members()
    players = seated(club, 3)
    host_user = User.objects.get(username=DEMO_USERNAME)
    game = recording.start_game(club, "stopp", players, host_user, rules={"capital": 1})
    recording.append_event(
        game,
        "deal",
        {"cards": {"s0": 0, "s1": 3, "s2": 2}},
        expected_seq=0,
        idempotency_key="deal",
        by=host_user,
    )
    bertil = Member.objects.get(club=club, name="Bertil Holm")
    assert bertil in players
    bertil.user = User.objects.create_user("bertil", password="bertil-kille-121")
    bertil.save(update_fields=["user"])
    pad = live_server.url + reverse("scoring:game-detail", args=[club.slug, game.pk])

    host, second = phones(), phones()
    log_in(host, live_server, DEMO_USERNAME, DEMO_PASSWORD)
    host.goto(pad)
    expect(host.get_by_test_id("confirming")).to_have_attribute("data-state", "unconfirmed")
    expect(host.get_by_test_id("confirm")).to_have_count(0)  # he recorded it

    log_in(second, live_server, "bertil", "bertil-kille-121")
    second.goto(pad)
    assert second.evaluate(_MEASURE, MIN_PX) == []  # "Stämmer", the word, "Dispute": thumb-sized
    second.screenshot(path=output_dir / "a-player-asked-to-confirm.png")
    second.get_by_test_id("confirm").click()
    expect(second.get_by_test_id("confirming")).to_have_attribute("data-state", "confirmed")
    expect(host.get_by_test_id("confirming")).to_have_attribute("data-state", "confirmed")
    expect(host.get_by_test_id("confirmed")).to_contain_text("Bertil Holm")
    host.screenshot(path=output_dir / "the-hosts-pad-confirmed-by-another-phone.png")


def test_a_word_and_the_next_deal_tapped_on_a_slow_network_both_record(live_server, phones):
    """pad.js queues a tap made while an earlier one is on its way. "Stämmer" carries no
    expected seq: the deal tapped behind it must still go with its own (it went as NaN once,
    and the server refused it). The club asks after each deal; Bertil, a scorer who has
    recorded nothing yet, confirms deal 1 and at once records deal 2."""
    club = demo_members()
    club.confirm_when = ConfirmWhen.DEAL
    club.save(update_fields=["confirm_when"])
    players = seated(club, 3)
    host_user = User.objects.get(username=DEMO_USERNAME)
    game = recording.start_game(club, "stopp", players, host_user, rules={"capital": 10})
    recording.append_event(
        game,
        "deal",
        {"cards": {"s0": 0, "s1": 3, "s2": 2}},
        expected_seq=0,
        idempotency_key="deal-1",
        by=host_user,
    )
    bertil = Member.objects.get(club=club, name="Bertil Holm")
    bertil.user = User.objects.create_user("bertil", password="bertil-kille-121")
    bertil.save(update_fields=["user"])
    Membership.objects.get_or_create(member=bertil, role=Role.SCORER)

    phone = phones(network_failures_ok=True, service_workers="block")
    log_in(phone, live_server, "bertil", "bertil-kille-121")
    hold_polls(phone)
    phone.goto(live_server.url + reverse("scoring:game-detail", args=[club.slug, game.pk]))
    slow_network(phone, 1500)
    phone.get_by_test_id("confirm").click()
    for seat, cards in (("s0", "2"), ("s1", "0"), ("s2", "1")):
        phone.locator(f"#pad input[name='p_cards.{seat}'][value='{cards}']").check(force=True)
    phone.locator("#pad form", has=phone.locator("input[name='p_cards.s0']")).locator(
        "button[type=submit]"
    ).first.click()
    expect(phone.locator("#pad")).to_have_attribute("data-seq", "2", timeout=20_000)
    assert Confirmation.objects.filter(game=game, member=bertil, seq=1).exists()
    assert list(game.events.values_list("seq", "type")) == [(1, "deal"), (2, "deal")]
