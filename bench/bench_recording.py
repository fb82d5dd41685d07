"""Recording benchmark on PostgreSQL (issue: recording games at the table).

Appending one cribbage event through the real path (``scoring.recording.append_event``: row
lock, seq check, engine apply, event and snapshot, money to the ledger): median of 200, on a
game that already has a long history, so the cached state is what keeps the append cheap. Also
the first append after a cold cache (a full replay of the game's events), and the same append
through the HTTP view with the Django test client (form parsing and the pad re-render included).

The pad (``GET``, server time in the test client, and its SQL queries): a cribbage game of 200
events, and a Kille evening at a five-player table of 100 events played with random legal
choices — as a phone opens it (the page) and as htmx swaps it (the partial); after a cold cache
(the game replayed); and in a process one event behind (another worker recorded the last event).

Quick mode (``PROTOKOLL_BENCH_QUICK=1``, bench/_quick.py): games of 10 and 20 events, and at
most 3 runs of each (``timed``).
"""

from __future__ import annotations

import itertools
import random

from _django import bench_database, report, timed
from _quick import sized

bench_database("protokoll_bench_recording")

from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.urls import reverse  # noqa: E402

from club.members import add_member  # noqa: E402
from club.models import Club, Role, User  # noqa: E402
from engine.cards import KilleRank  # noqa: E402
from scoring import games, recording  # noqa: E402
from scoring.models import Game  # noqa: E402
from scoring.recording import replay  # noqa: E402

club = Club.objects.create(name="Benchklubben", slug="bench")
user = User.objects.create_user("skrivare", password="bench-password-1")
anna = add_member(club, "Anna", roles=[Role.SCORER], user=user)
bo = add_member(club, "Bo")
counter = itertools.count()


def new_game():
    game = recording.start_game(club, "cribbage", [anna, bo], user, rules={"target": 121})
    recording.append_event(
        game, "starter", {"card": "4H"}, expected_seq=0, idempotency_key="s", by=user
    )
    return game


def peg_once(game) -> None:
    # One point of pegging at a time: a long game never ends before the benchmark does.
    game.refresh_from_db(fields=["seq"])
    player = "s0" if game.seq % 2 else "s1"
    key = f"peg-{next(counter)}"
    recording.append_event(
        game,
        "peg",
        {"player": player, "points": 1},
        expected_seq=game.seq,
        idempotency_key=key,
        by=user,
    )


game = new_game()
report("append_event (cribbage peg), warm state", timed(lambda: peg_once(game), 200))


cold_game = new_game()
for _ in range(sized(150, quick=10)):
    peg_once(cold_game)


def cold_append() -> None:
    replay._STATE_CACHE.clear()
    peg_once(cold_game)


report(
    f"append_event after a cold cache ({cold_game.seq}+ events replayed)", timed(cold_append, 20)
)

client = Client()
client.force_login(user)
http_game = new_game()
url = reverse("scoring:game-event", args=[club.slug, http_game.pk])


def post_once() -> None:
    http_game.refresh_from_db(fields=["seq"])
    response = client.post(
        url,
        {
            "type": "peg",
            "p_player": "s0" if http_game.seq % 2 else "s1",
            "p_points": "1",
            "expected_seq": http_game.seq,
            "idempotency_key": f"http-{next(counter)}",
        },
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200, response.status_code


report("POST peg through the view (htmx pad re-render)", timed(post_once, 200))


# The phones' live sync: a poll that finds nothing new (every 2 s per phone at a club evening).
poll_url = reverse("scoring:game-poll", args=[club.slug, http_game.pk])
http_game.refresh_from_db(fields=["seq"])
poll_query = {"seq": http_game.seq}


def poll_once() -> None:
    response = client.get(poll_url, poll_query, HTTP_HX_REQUEST="true")
    assert response.status_code == 204, response.status_code


poll_once()  # the session reaches the cache
report("GET poll that finds nothing new (204, server time)", timed(poll_once, 1000))

pad_url = reverse("scoring:game-detail", args=[club.slug, http_game.pk])
report(
    f"GET pad (htmx), a cribbage game of {http_game.seq} events",
    timed(lambda: client.get(pad_url, HTTP_HX_REQUEST="true"), 200),
)


# A Kille evening at a five-player table, 100 events played with random legal choices: the pad
# as a phone opens it (the whole page) and as htmx swaps it (the pad partial).
def kille_event(state, rng: random.Random) -> tuple[str, dict]:
    phase, to_act = state.phase, state.to_act
    if phase == "ante":
        return "ante", {}
    if phase in ("declare", "declare2"):
        return ("bud" if rng.random() < 0.4 else "knock"), {"player": to_act}
    if phase == "fold":
        return ("fold" if rng.random() < 0.4 else "stay"), {"player": to_act}
    if phase == "tricks":
        return "fourth_trick", {"player": rng.choice(state.active)}
    if phase == "showing":
        return ("show" if rng.random() < 0.6 else "bud"), {"player": to_act}
    labels = rng.sample([rank.label for rank in KilleRank], len(state.active))
    return "reveal", {"cards": dict(zip(state.active, labels, strict=True))}


kille_players = [anna, bo, *(add_member(club, name) for name in ("Cilla", "Dan", "Eva"))]
kille = recording.start_game(
    club, "kille", kille_players, user, setup=games.start_setup(club, "kille")
)
rng = random.Random(100)
while kille.seq < sized(100, quick=20):
    event_type, payload = kille_event(recording.current_state(kille)[0], rng)
    recording.append_event(
        kille,
        event_type,
        payload,
        expected_seq=kille.seq,
        idempotency_key=f"kille-{next(counter)}",
        by=user,
    )
    kille.refresh_from_db()
kille_url = reverse("scoring:game-detail", args=[club.slug, kille.pk])
client.get(kille_url)  # the replay cache holds the game, as on a busy evening
queries: list[str] = []


def count_query(execute, sql, params, many, context):
    queries.append(sql)
    return execute(sql, params, many, context)


for label, headers in (("page", {}), ("htmx pad", {"HTTP_HX_REQUEST": "true"})):
    queries.clear()
    with connection.execute_wrapper(count_query):
        response = client.get(kille_url, **headers)
    assert response.status_code == 200, response.status_code
    report(
        f"GET pad ({label}), a Kille game of {kille.seq} events",
        timed(lambda headers=headers: client.get(kille_url, **headers), 200),
        f"queries={len(queries)}",
    )


def cold_pad() -> None:
    replay._STATE_CACHE.clear()
    client.get(kille_url)


report(f"GET pad (page) after a cold cache, {kille.seq} Kille events", timed(cold_pad, 50))

# Another gunicorn worker recorded the last event: this one holds the state one event back.
replay._STATE_CACHE.clear()
behind = Game.objects.get(pk=kille.pk)
behind.seq -= 1
recording.current_state(behind)


def pad_one_event_behind() -> None:
    replay._STATE_CACHE.pop(replay._cache_key(kille), None)
    client.get(kille_url)


report("GET pad (page), this process one event behind", timed(pad_one_event_behind, 50))
