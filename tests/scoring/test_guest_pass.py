"""A guest at the pad (scoring.guest, scoring.views_guest): the host's link records one game
without a login, and reaches nothing else."""

from __future__ import annotations

import re
import threading
import time

import pytest
from django.db import transaction
from django.test import Client
from django.urls import reverse

import evenings
from scoring import guest, recording
from scoring.models import Event, Game, GuestPass
from scoring.recording import turns
from tests.concurrency import at_once, postgres_only
from tests.factories import make_member
from tests.scoring.pad import HTMX, pad_url


@pytest.fixture
def evening(club):
    return evenings.open_evening(club, None)


@pytest.fixture
def game(toy, club, evening, scorer, member):
    """The toy game at table 1 of tonight's evening."""
    here = [evenings.check_in(evening, None, member=m) for m in (scorer, member)]
    [table] = evenings.form_tables(evening, "toy", [here], None)
    return recording.start_game(club, "toy", [scorer, member], scorer.user, table=table)


@pytest.fixture
def other_game(toy, club, evening, scorer):
    """Another game of the same club, at another table."""
    people = [make_member(club, name) for name in ("Olle Annan", "Petra Annan")]
    here = [evenings.check_in(evening, None, member=m) for m in people]
    [table] = evenings.form_tables(evening, "toy", [here], None)
    return recording.start_game(club, "toy", people, scorer.user, table=table)


def invite(scorer_client, game) -> str:
    """The host taps "Let a guest keep the score": the token of the link the pad shows."""
    page = scorer_client.post(reverse("scoring:guest-new", args=[game.club.slug, game.pk]))
    assert page.status_code == 200
    html = page.content.decode()
    assert 'data-testid="guest-qr"' in html
    assert "<svg" in html.split('data-testid="guest-qr"')[1]
    url = re.search(r'data-testid="guest-link">([^<]+)<', html)[1]
    assert url.startswith("http://testserver/g/")
    return url.rstrip("/").rsplit("/", 1)[1]


def guest_url(token: str, name: str = "guest-pad") -> str:
    return reverse(f"scoring:{name}", args=[token])


def stake(client: Client, token: str, game: Game, amount: int = 100, key: str | None = None):
    game.refresh_from_db()
    data = {
        "type": "stake",
        "expected_seq": game.seq,
        "idempotency_key": key or f"guest-{game.seq}",
        "p_player": "s0",
        "p_amount": amount,
    }
    return client.post(guest_url(token, "guest-event"), data, headers={"HX-Request": "true"})


def posts_to(html: str) -> set[str]:
    return set(re.findall(r'<form[^>]*action="([^"]*)"', html))


def test_the_host_makes_a_link_that_is_shown_once_and_stored_only_as_a_hash(scorer_client, game):
    token = invite(scorer_client, game)
    stored = GuestPass.objects.get()
    assert stored.game == game
    assert stored.token_hash == guest.hash_token(token) != token
    assert not GuestPass.objects.filter(token_hash__contains=token).exists()
    again = scorer_client.get(pad_url(game)).content.decode()
    assert token not in again
    assert 'data-testid="guest-active"' in again


def test_a_plain_member_cannot_make_a_guest_link(member_client, game):
    new = reverse("scoring:guest-new", args=[game.club.slug, game.pk])
    assert member_client.post(new).status_code == 403
    assert 'data-testid="guest-host"' not in member_client.get(pad_url(game)).content.decode()
    assert not GuestPass.objects.exists()


def test_a_guest_records_on_the_pad_without_a_login_through_the_members_service(
    scorer_client, game
):
    token = invite(scorer_client, game)
    guest_client = Client()
    page = guest_client.get(guest_url(token))
    assert page.status_code == 200
    html = page.content.decode()
    assert 'data-testid="pad-note"' in html
    # The pad's polls go to the guest's own link; the page shows no club's pages.
    assert f'hx-get="{guest_url(token, "guest-poll")}?seq=0' in html
    assert 'class="tabbar"' not in html
    assert f"/c/{game.club.slug}/" not in html
    answer = stake(guest_client, token, game, key="tap-1")
    assert answer.status_code == 200
    event = Event.objects.get(game=game)
    assert (event.type, event.recorded_by, event.guest_pass) == (
        "stake",
        None,
        GuestPass.objects.get(),
    )
    # A double tap records once; a stale phone gets 409 and the pad.
    assert stake(guest_client, token, game, key="tap-1").status_code == 200
    assert Event.objects.filter(game=game).count() == 1
    # Its forms (the undo, here) post to the guest's link too.
    html = guest_client.get(guest_url(token)).content.decode()
    assert posts_to(html) == {reverse("set_language"), guest_url(token, "guest-event")}
    # The history says a guest recorded it.
    row = re.search(r'data-seq="1">(.*?)</li>', html, re.DOTALL)[1]
    assert "· gäst" in row
    data = {"type": "score", "expected_seq": 0, "idempotency_key": "tap-2", "p_player": "s0"}
    stale = guest_client.post(guest_url(token, "guest-event"), {**data, "p_points": 3}, **HTMX)
    assert stale.status_code == 409
    assert Event.objects.filter(game=game).count() == 1
    # The host's phone sees it: its poll brings the pad with the guest's stake.
    poll = scorer_client.get(
        reverse("scoring:game-poll", args=[game.club.slug, game.pk]) + "?seq=0", **HTMX
    )
    assert poll.status_code == 200
    assert 'data-seq="1"' in poll.content.decode()


@pytest.mark.parametrize("game_key", ["stopp", "kille", "whist", "femhundra"])
def test_every_form_of_a_real_pad_posts_to_the_guests_link(game_key, scorer_client, club, scorer):
    from engine import registry

    needed = registry.get(game_key).min_players
    seated = [scorer, *(make_member(club, f"Spelare {n}") for n in range(1, needed))]
    game = recording.start_game(club, game_key, seated, scorer.user)
    token = invite(scorer_client, game)
    html = Client().get(guest_url(token)).content.decode()
    actions = posts_to(html)
    assert guest_url(token, "guest-event") in actions
    assert actions <= {reverse("set_language"), guest_url(token, "guest-event")}
    assert f"/c/{club.slug}/" not in html


def test_a_guest_undoes_his_own_tap_but_only_in_his_game(scorer_client, game):
    token = invite(scorer_client, game)
    guest_client = Client()
    stake(guest_client, token, game)
    page = guest_client.get(guest_url(token)).content.decode()
    assert 'data-testid="undo"' in page
    game.refresh_from_db()
    undo = {"type": "undo", "expected_seq": game.seq, "idempotency_key": "undo-1"}
    assert guest_client.post(guest_url(token, "guest-event"), undo, **HTMX).status_code == 200
    game.refresh_from_db()
    assert game.seq == 2
    assert Event.objects.get(game=game, seq=2).guest_pass_id == GuestPass.objects.get().pk


def scoring_routes(club, game_id: int) -> list[tuple[str, str]]:
    """Every route of the club's games that takes a game id, with that id."""
    args = [club.slug, game_id]
    names = ["game-detail", "game-poll", "game-event", "game-void", "guest-new", "guest-close"]
    return [
        (method, reverse(f"scoring:{name}", args=args))
        for name in names
        for method in ("get", "post")
    ]


def test_a_guest_token_reaches_no_other_game_and_no_club_page(
    scorer_client, game, other_game, club, evening
):
    token = invite(scorer_client, game)
    guest_client = Client()
    guest_client.get(guest_url(token))  # the guest's phone has the page (and its CSRF cookie)
    before = Event.objects.count()
    for game_id in (other_game.pk, game.pk, 0, 999_999):
        for method, url in scoring_routes(club, game_id):
            data = {"type": "stake", "expected_seq": 0, "p_player": "s0", "p_amount": 100}
            answer = getattr(guest_client, method)(url, data if method == "post" else None)
            # No login: every club page sends the guest to log in (or refuses the method).
            assert answer.status_code in (302, 403, 405), (url, answer.status_code)
            if answer.status_code == 302:
                assert answer["Location"].startswith(reverse("login"))
    for url in (
        reverse("evenings:detail", args=[club.slug, evening.pk]),
        reverse("evenings:board", args=[club.slug, evening.pk]),
        reverse("ledger:overview", args=[club.slug]),
        reverse("scoring:play", args=[club.slug]),
        "/admin/",
    ):
        assert guest_client.get(url).status_code == 302, url
    # The guest's link names no game: a changed token is no link at all.
    for changed in (token[:-1], token + "A", token.upper(), token[::-1]):
        assert guest_client.get(guest_url(changed)).status_code == 404
        assert stake(guest_client, changed, game).status_code == 404
    assert Event.objects.count() == before
    # A pass is for its own game even if it reached the service with another (belt and braces).
    with pytest.raises(recording.EventRefused):
        recording.append_event(
            other_game,
            "score",
            {"player": "s0", "points": 1},
            expected_seq=0,
            idempotency_key="x",
            by=None,
            guest_pass=GuestPass.objects.get(),
        )
    assert Event.objects.count() == before


def test_a_finished_game_is_read_only_for_the_guest(scorer_client, game):
    token = invite(scorer_client, game)
    guest_client = Client()
    stake(guest_client, token, game)
    game.refresh_from_db()
    win = {"type": "win", "expected_seq": game.seq, "idempotency_key": "win", "p_player": "s0"}
    assert guest_client.post(guest_url(token, "guest-event"), win, **HTMX).status_code == 200
    game.refresh_from_db()
    assert not game.is_open
    html = guest_client.get(guest_url(token)).content.decode()
    assert posts_to(html) == {reverse("set_language")}
    assert 'data-note="guest-over"' in html
    undo = {"type": "undo", "expected_seq": game.seq, "idempotency_key": "late-undo"}
    refused = guest_client.post(guest_url(token, "guest-event"), undo, **HTMX)
    assert refused.status_code == 422
    assert Event.objects.filter(game=game).count() == game.seq == 2


def test_a_closed_link_says_so_and_records_nothing(scorer_client, game):
    token = invite(scorer_client, game)
    guest_client = Client()
    stake(guest_client, token, game)
    close = reverse("scoring:guest-close", args=[game.club.slug, game.pk])
    assert scorer_client.post(close).status_code == 302
    assert scorer_client.post(close).status_code == 302  # twice: still closed, nothing else
    page = guest_client.get(guest_url(token))
    assert page.status_code == 403
    assert 'data-testid="link-closed"' in page.content.decode()
    assert stake(guest_client, token, game).status_code == 403
    poll = guest_client.get(guest_url(token, "guest-poll") + "?seq=0", **HTMX)
    assert poll.status_code == 403
    assert 'id="pad"' in poll.content.decode()  # the polling pad is replaced by the notice
    assert Event.objects.filter(game=game).count() == 1
    assert guest.revoke(game) == 0
    # Refused by the service too, under the game's lock.
    game.refresh_from_db()
    with pytest.raises(recording.EventRefused):
        recording.append_event(
            game,
            "score",
            {"player": "s0", "points": 1},
            expected_seq=game.seq,
            idempotency_key="after-close",
            by=None,
            guest_pass=GuestPass.objects.get(),
        )


def test_readers_outside_the_club_are_not_told_who_recorded_what(scorer_client, game):
    """A login name is the club's business: the member's pad names the login that recorded
    an event, the follower's and the guest's pages do not."""
    from evenings import table_links

    scorer_client.post(
        reverse("scoring:game-event", args=[game.club.slug, game.pk]),
        {
            "type": "stake",
            "expected_seq": 0,
            "idempotency_key": "host-1",
            "p_player": "s0",
            "p_amount": 100,
        },
        **HTMX,
    )
    login = game.seats.get(position=0).member.user.username
    assert f"· {login}" in scorer_client.get(pad_url(game)).content.decode()
    follow = reverse("scoring:table-follow", args=[table_links.token_for(game.table)])
    token = invite(scorer_client, game)
    for page in (Client().get(follow), Client().get(guest_url(token))):
        assert page.status_code == 200
        html = page.content.decode()
        assert 'data-seq="1"' in html
        assert login not in html


def test_the_guest_poll_answers_204_until_something_happens(scorer_client, game):
    token = invite(scorer_client, game)
    guest_client = Client()
    poll = guest_url(token, "guest-poll")
    assert guest_client.get(poll + "?seq=0", **HTMX).status_code == 204
    recording.append_event(
        game, "score", {"player": "s1", "points": 2}, expected_seq=0, idempotency_key="m", by=None
    )
    answer = guest_client.get(poll + "?seq=0", **HTMX)
    assert answer.status_code == 200
    assert 'data-seq="1"' in answer.content.decode()


@pytest.mark.parametrize(
    "token",
    ["x", "A" * 32, "A" * 65, "ä" * 32, "%00" * 12, "..", "0" * 40, "a b", "\u202e" * 30],
)
def test_hostile_guest_tokens_are_a_plain_404(client, token, db):
    for name in ("guest-pad", "guest-poll"):
        assert client.get(guest_url(token, name)).status_code == 404
    assert client.post(guest_url(token, "guest-event"), {"type": "x"}).status_code == 404


@pytest.mark.parametrize("language", ["sv", "en"])
def test_the_links_pages_speak_one_language(language, scorer_client, club, evening, scorer):
    """The pages of a guest's and a table's link, as tests/test_languages.py reads pages (that
    test follows a member's links, which never lead here)."""
    from evenings import table_links
    from tests.test_languages import VisibleText, _problems

    people = [scorer, *(make_member(club, name) for name in ("Bo Ek", "Cilla Ros"))]
    here = [evenings.check_in(evening, None, member=m) for m in people]
    [table] = evenings.form_tables(evening, "stopp", [here], None)
    follow = reverse("scoring:table-follow", args=[table_links.token_for(table)])
    headers = {"HTTP_ACCEPT_LANGUAGE": language}
    waiting = VisibleText(language)
    waiting.feed(Client().get(follow, **headers).content.decode())
    failures = [f"waiting [{language}]: {p}" for p in _problems(waiting.text(), language)]
    game = recording.start_game(club, "stopp", people, scorer.user, table=table)
    token = invite(scorer_client, game)
    phone = Client()
    pages = {
        "host": (scorer_client, "post", reverse("scoring:guest-new", args=[club.slug, game.pk])),
        "guest": (phone, "get", guest_url(token)),
        "no such guest link": (phone, "get", guest_url("A" * 32)),
        "follow": (phone, "get", follow),
        "no such table": (phone, "get", reverse("scoring:table-follow", args=["1-0"])),
    }
    for name, (client, method, url) in pages.items():
        response = getattr(client, method)(url, **headers)
        assert response.status_code in (200, 404), (name, response.status_code)
        page = VisibleText(language)
        page.feed(response.content.decode())
        failures += [
            f"{name} [{language}]: {problem}" for problem in _problems(page.text(), language)
        ]
    close = reverse("scoring:guest-close", args=[club.slug, game.pk])
    scorer_client.post(close)
    page = VisibleText(language)
    page.feed(phone.get(guest_url(token), **headers).content.decode())
    failures += [f"closed [{language}]: {p}" for p in _problems(page.text(), language)]
    assert not failures, "\n".join(failures)


@pytest.mark.django_db(transaction=True)
def test_closing_the_link_waits_for_a_tap_in_flight(toy, club, scorer, member):
    """A tap holds the game's row lock from its check of the pass to its commit; closing the
    link takes the same lock, so it answers only after that tap is recorded, and every later
    tap finds the pass closed (PostgreSQL: SQLite has no row locks)."""
    postgres_only()
    game = recording.start_game(club, "toy", [scorer, member], scorer.user)
    guest.create_pass(game, scorer.user)
    locked, times = threading.Event(), {}

    def tap_in_flight(_n) -> None:
        with transaction.atomic():
            turns._lock(game)
            locked.set()
            time.sleep(0.4)
            times["tap commits"] = time.monotonic()

    def close(_n) -> None:
        locked.wait(timeout=10)
        guest.revoke(Game.objects.get(pk=game.pk))
        times["closed"] = time.monotonic()

    at_once(lambda work: work(0), [tap_in_flight, close])
    assert times["closed"] >= times["tap commits"]
