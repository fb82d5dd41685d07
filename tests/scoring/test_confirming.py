"""Results the table confirms (scoring.confirming): who may say "Stämmer" or dispute, what an
undo does to a word, a double tap, the flags for the host and the treasurer, the club's "after
each deal", and tonight's settle-up waiting for confirmed games when the club says so."""

from __future__ import annotations

import threading
import time

import pytest
from django.db import transaction
from django.urls import reverse

import evenings
from club.models import ConfirmWhen, Role
from clubdata import erase
from evenings import tonight
from ledger.models import AuditRecord, Transaction
from scoring import confirming, recording
from scoring.models import Confirmation, Game
from tests.concurrency import at_once, postgres_only
from tests.conftest import client_for
from tests.factories import make_club, make_member
from tests.scoring.pad import HTMX, pad_url

pytestmark = pytest.mark.django_db


def tap(game, type_, by, **payload):
    game.refresh_from_db()
    recording.append_event(
        game,
        type_,
        payload,
        expected_seq=game.seq,
        idempotency_key=f"{type_}-{game.seq}",
        by=by.user if by else None,
    )
    game.refresh_from_db()
    return game


def play(club, players, scorer, table=None):
    """A toy game the scorer records to its end: s0 stakes 5 kr, s1 takes the pot."""
    game = recording.start_game(club, "toy", players, scorer.user, table=table)
    tap(game, "stake", scorer, player="s0", amount=500)
    return tap(game, "win", scorer, player="s1")


def confirm_url(game):
    return reverse("scoring:game-confirm", args=[game.club.slug, game.pk])


def say(client, game, answer, *, word="", seq=None, key="k1"):
    data = {"answer": answer, "seq": game.seq if seq is None else seq, "idempotency_key": key}
    if word:
        data["word"] = word
    response = client.post(confirm_url(game), data, **HTMX)
    game.refresh_from_db()
    return response


@pytest.fixture
def game(toy, club, players, scorer):
    return play(club, players, scorer)


def test_another_player_at_the_table_confirms_and_the_pad_says_who(game, players):
    bo = players[1]
    response = say(client_for(bo), game, "confirmed")
    assert response.status_code == 200
    found = confirming.verdict(game)
    assert (found.state, found.confirmed_by) == ("confirmed", ["Bo Ek"])
    page = client_for(players[2]).get(pad_url(game)).content.decode()
    assert 'data-testid="confirmed"' in page
    assert "Bo Ek" in page


def test_the_recorder_and_an_outsider_and_an_onlooker_cannot(game, scorer, club, outsider):
    onlooker = make_member(club, "Vera Tittare")
    assert say(client_for(scorer), game, "confirmed").status_code == 422
    assert say(client_for(onlooker), game, "confirmed").status_code == 422
    assert say(client_for(outsider), game, "confirmed").status_code == 404
    assert not Confirmation.objects.exists()
    pad = client_for(scorer).get(pad_url(game)).content.decode()
    assert 'data-testid="confirm"' not in pad  # no button for him: the view would refuse it


def test_a_dispute_needs_a_word(game, players):
    cilla = client_for(players[2])
    assert say(cilla, game, "disputed", word="   ").status_code == 422
    assert not Confirmation.objects.exists()
    assert say(cilla, game, "disputed", word="Fel giv").status_code == 200
    assert confirming.verdict(game).disputes == [("Cilla Ros", "Fel giv")]


def test_an_undo_makes_a_word_stale(toy, club, players, scorer):
    game = recording.start_game(club, "toy", players, scorer.user)
    tap(game, "stake", scorer, player="s0", amount=500)
    tap(game, "stake", scorer, player="s1", amount=300)
    game = tap(game, "win", scorer, player="s1")
    say(client_for(players[1]), game, "disputed", word="Bo satsade inte")
    assert confirming.verdict(game).disputed
    game = tap(game, "undo", scorer)  # the host puts it right: the dispute is about seq 3
    game = tap(game, "win", scorer, player="s2")
    found = confirming.verdict(game)
    assert (found.state, found.stale_words) == ("unconfirmed", 1)
    assert not confirming.disputed_games(club).exists()
    # A word about the game before the undo is refused: the pad showed an older game.
    assert say(client_for(players[1]), game, "confirmed", seq=3, key="old").status_code == 422


def test_a_double_tap_records_once(game, players):
    bo = client_for(players[1])
    for _tap in range(2):
        assert say(bo, game, "confirmed", key="same").status_code == 200
    assert say(bo, game, "confirmed", key="another-render").status_code == 200
    assert Confirmation.objects.count() == 1


def test_a_newer_word_of_the_same_member_supersedes_the_older(game, players):
    bo = client_for(players[1])
    say(bo, game, "disputed", word="Fel", key="a")
    say(bo, game, "confirmed", key="b")
    assert confirming.verdict(game).state == "confirmed"
    assert not confirming.disputed_games(game.club).exists()


def test_the_disputed_game_is_flagged_for_the_host_and_the_treasurer(
    toy, club, players, scorer, treasurer, member
):
    evening = evenings.open_evening(club, None)
    here = [evenings.check_in(evening, None, member=m) for m in players]
    (table,) = evenings.form_tables(evening, "toy", [here], None)
    game = play(club, players, scorer, table=table)
    say(client_for(players[2]), game, "disputed", word="Två kronor fel")
    home = reverse("club:club-home", args=[club.slug])
    evening_pages = [
        reverse("evenings:detail", args=[club.slug, evening.pk]),
        reverse("evenings:board", args=[club.slug, evening.pk]),
    ]
    for who in (scorer, treasurer):
        start = client_for(who).get(home).content.decode()
        assert 'data-testid="disputes-panel"' in start
        assert f"#{game.pk}" in start
        for url in evening_pages:
            page = client_for(who).get(url).content.decode()
            assert 'data-testid="evening-flags"' in page, url
            assert "Två kronor fel" in page, url
    for url in evening_pages:  # a plain member sees the game's own flag, not the host's list
        assert "evening-flags" not in client_for(member).get(url).content.decode()
    listed = client_for(member).get(reverse("scoring:game-list", args=[club.slug]))
    assert 'data-testid="history-disputed"' in listed.content.decode()  # members see it too
    assert "disputes-panel" not in client_for(member).get(home).content.decode()
    # The host confirms it as it stands: the flag goes, the word is kept and names him.
    assert say(client_for(scorer), game, "resolve", key="r").status_code == 200
    found = confirming.verdict(game)
    assert (found.state, found.resolved_by) == ("confirmed", scorer.name)
    assert "Två kronor fel" in found.resolved_words
    assert "disputes-panel" not in client_for(scorer).get(home).content.decode()


def test_only_the_host_resolves_and_only_a_disputed_game(game, players, scorer):
    assert say(client_for(scorer), game, "resolve", key="r0").status_code == 422
    say(client_for(players[1]), game, "disputed", word="Fel", key="d")
    assert say(client_for(players[2]), game, "resolve", key="r1").status_code == 422
    assert say(client_for(scorer), game, "resolve", key="r2").status_code == 200


def test_after_each_deal_the_pad_asks_after_every_event_with_money(toy, club, players, scorer):
    game = recording.start_game(club, "toy", players, scorer.user)
    game = tap(game, "stake", scorer, player="s0", amount=500)
    assert not confirming.offered(game)  # the club asks at the end of the game
    club.confirm_when = ConfirmWhen.DEAL
    club.save()
    game.club = club
    assert confirming.offered(game)
    game = tap(game, "score", scorer, player="s1", points=3)  # moved no money: no deal ended
    assert not confirming.offered(game)
    game = tap(game, "stake", scorer, player="s1", amount=200)
    assert say(client_for(players[2]), game, "confirmed").status_code == 200
    game = tap(game, "undo", scorer)
    assert not confirming.offered(game)
    assert confirming.verdict(game).state == "unconfirmed"


def _evening_with_a_game(club, players, scorer):
    evening = evenings.open_evening(club, None)
    here = [evenings.check_in(evening, None, member=m) for m in players]
    (table,) = evenings.form_tables(evening, "toy", [here], None)
    return evening, play(club, players, scorer, table=table)


def _pay(client, club, evening, players, key):
    """Tonight's first payment as the settle-up page offers it."""
    summary = reverse("evenings:summary", args=[club.slug, evening.pk])
    (row, *_rest) = client.get(summary).context["rows"]
    paid = {
        "payer": row["payment"].payer,
        "payee": row["payment"].payee,
        "amount_ore": row["payment"].amount_ore,
        "submission": key,
    }
    return client.post(summary, paid, follow=True)


def test_with_the_club_option_paid_waits_for_the_confirmation(toy, club, players, scorer):
    club.confirm_to_settle = True
    club.save()
    evening, game = _evening_with_a_game(club, players, scorer)
    host = client_for(scorer)
    summary = reverse("evenings:summary", args=[club.slug, evening.pk])
    page = host.get(summary).content.decode()
    assert 'data-testid="settle-holds"' in page
    assert f"#{game.pk}" in page
    refused = _pay(host, club, evening, players, "t1").content.decode()
    assert f"#{game.pk}" in refused
    assert not Transaction.objects.filter(ref=f"{evening.ref}:paid").exists()
    say(client_for(players[2]), game, "disputed", word="Fel", key="d")
    assert "Fel" in _pay(host, club, evening, players, "t2").content.decode()
    assert not Transaction.objects.filter(ref=f"{evening.ref}:paid").exists()
    say(client_for(players[2]), game, "confirmed", key="c")
    assert 'data-testid="settle-holds"' not in host.get(summary).content.decode()
    _pay(host, club, evening, players, "t3")
    assert Transaction.objects.filter(ref=f"{evening.ref}:paid").count() == 1


def test_without_the_club_option_nothing_waits(toy, club, players, scorer):
    evening, _game = _evening_with_a_game(club, players, scorer)
    assert tonight.settle_holds(evening) == []
    _pay(client_for(scorer), club, evening, players, "t1")
    assert Transaction.objects.filter(ref=f"{evening.ref}:paid").count() == 1


def test_a_word_tells_the_other_phones(game, players, settings, django_capture_on_commit_callbacks):
    published = []
    from live import signals

    original = signals.publish
    signals.publish = lambda channel, version: published.append((channel, str(version)))
    try:
        with django_capture_on_commit_callbacks(execute=True):
            say(client_for(players[1]), game, "confirmed")
    finally:
        signals.publish = original
    (row,) = Confirmation.objects.all()
    assert published == [(f"g:{game.pk}", f"{game.seq}:c{row.pk}")]


def test_a_finished_games_poll_brings_a_new_word(game, players, scorer):
    poll = reverse("scoring:game-poll", args=[game.club.slug, game.pk])
    host = client_for(scorer)
    assert host.get(poll, {"seq": game.seq, "c": 0}).status_code == 204
    say(client_for(players[1]), game, "confirmed")
    (row,) = Confirmation.objects.all()
    answered = host.get(poll, {"seq": game.seq, "c": 0}, **HTMX)
    assert answered.status_code == 200
    assert 'data-testid="confirmed"' in answered.content.decode()
    assert host.get(poll, {"seq": game.seq, "c": row.pk}).status_code == 204


def test_the_host_confirms_as_it_stands_a_game_nobody_else_may(toy, club, scorer, players):
    bo = players[1]
    game = recording.start_game(club, "toy", [scorer, bo], scorer.user)
    tap(game, "stake", scorer, player="s0", amount=500)
    game = tap(game, "win", bo, player="s1")  # both recorded: neither is a second pair of eyes
    assert say(client_for(bo), game, "confirmed").status_code == 422
    assert say(client_for(scorer), game, "resolve", key="r").status_code == 200
    assert confirming.verdict(game).confirmed


def test_the_club_chooses_on_the_settings_page(club, admin_client_):
    url = reverse("clubdata:settings", args=[club.slug])
    data = {
        "section": "confirming",
        "confirming-confirm_when": "deal",
        "confirming-confirm_to_settle": "on",
    }
    assert admin_client_.post(url, data).status_code == 302
    club.refresh_from_db()
    assert (club.confirm_when, club.confirm_to_settle) == ("deal", True)
    # Whether a game's money waits for the table is about money: the change is audited.
    change = AuditRecord.objects.get(club=club, subject="settings:confirm_to_settle")
    assert (change.data["old"], change.data["new"]) == (False, True)
    assert 'data-testid="settings-confirming"' in admin_client_.get(url).content.decode()


def test_a_member_without_the_role_sees_no_resolve_button(game, players, club):
    say(client_for(players[1]), game, "disputed", word="Fel")
    viewer = make_member(club, "Vera", roles=[Role.MEMBER])
    assert 'data-testid="resolve"' not in client_for(viewer).get(pad_url(game)).content.decode()


def test_erasing_a_member_takes_his_name_out_of_the_words(game, players, admin_member):
    say(client_for(players[2]), game, "disputed", word="Bo Ek räknade fel, bo ek!")
    erase.erase_member(players[1], admin_member)
    (row,) = Confirmation.objects.all()
    assert row.word == "Före detta medlem 1 räknade fel, Före detta medlem 1!"


@pytest.mark.django_db(transaction=True)
def test_one_players_phones_confirming_at_once_record_once(toy):
    postgres_only()
    club = make_club()
    scorer, bo = make_member(club, "Sam", roles=[Role.SCORER]), make_member(club, "Bo")
    game = play(club, [scorer, bo], scorer)

    def word(key: str) -> int:
        fresh = Game.objects.get(pk=game.pk)
        return confirming.record(fresh, bo, "confirmed", seq=game.seq, key=key).pk

    assert len(set(at_once(word, [f"tap-{n}" for n in range(10)]))) == 1
    assert Confirmation.objects.filter(game=game).count() == 1


@pytest.mark.django_db(transaction=True)
def test_paid_waits_for_a_dispute_in_flight_and_is_refused_by_it(toy, club, players, scorer):
    """The settle gate and the payment are one transaction with the evening's games locked: a
    dispute that holds its game's row when the treasurer taps Paid lands first, and the gate
    then sees it (PostgreSQL: SQLite has no row locks)."""
    postgres_only()
    club.confirm_to_settle = True
    club.save()
    evening, game = _evening_with_a_game(club, players, scorer)
    confirming.record(game, players[2], "confirmed", seq=game.seq, key="ok")
    host = client_for(scorer)
    summary = reverse("evenings:summary", args=[club.slug, evening.pk])
    (row, *_rest) = host.get(summary).context["rows"]  # the page as the treasurer sees it
    paid = {
        "payer": row["payment"].payer,
        "payee": row["payment"].payee,
        "amount_ore": row["payment"].amount_ore,
        "submission": "t1",
    }
    locked, times = threading.Event(), {}

    def dispute_in_flight(_n) -> None:
        with transaction.atomic():
            fresh = Game.objects.select_for_update().get(pk=game.pk)
            locked.set()
            time.sleep(0.5)
            confirming.record(fresh, players[1], "disputed", seq=game.seq, word="Fel", key="no")
            times["dispute commits"] = time.monotonic()

    def pay(_n) -> None:
        locked.wait(timeout=10)
        times["answer"] = host.post(summary, paid)
        times["paid answered"] = time.monotonic()

    at_once(lambda work: work(0), [dispute_in_flight, pay])
    assert times["paid answered"] >= times["dispute commits"]
    assert times["answer"].status_code == 302
    assert not Transaction.objects.filter(ref=f"{evening.ref}:paid").exists()
