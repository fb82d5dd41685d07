"""Locust users for bench/load.py: the phones and readers of a club evening, and one closed-loop
client per route for the capacity runs.

The plan (the JSON file ``LOAD_PLAN`` names, written by bench/load.py) holds the club's open
tables (pad, poll and event URLs, the seq and its poll proof, the event to tap) and a signed-in
session per phone. A poll carries the seq and the proof of the pad the phone holds
(``?seq=N&v=HEX``, as the pad's ``hx-get`` names it), so that with a shared cache the server
can answer one that finds nothing new before Django (``live.polls``); a phone that gets a new
pad reads both from it. The phones here poll every 2 s, as a pad without a stream does (under
gunicorn, or where the stream does not connect); bench/live_load.py has the phones that hold one.
Each phone takes the next place at the next table: table ``n // 4``, the first of its four
phones being the table's scorer. With ``--processes`` every Locust process numbers its users
``local × processes + its index`` (``LOAD_PROCESSES``), so the places are not taken twice.

Request names are the route groups the report shows: ``poll``, ``tap``, ``pad GET``,
``league``, ``ledger``, ``healthz``.
"""

from __future__ import annotations

import itertools
import json
import os
import random
import re
from collections import defaultdict
from http.cookiejar import Cookie, DefaultCookiePolicy
from urllib.parse import urlsplit

from locust import FastHttpUser, between, constant, constant_pacing, task

PLAN = json.loads(open(os.environ["LOAD_PLAN"]).read())  # noqa: SIM115
PROCESSES = int(os.environ.get("LOAD_PROCESSES", "1"))
TABLES = PLAN["tables"]
PHONES = [(table, place) for table in TABLES for place in range(len(table["phones"]))]
HTMX = {"HX-Request": "true"}  # what htmx sends with the poll, and pad.js with a tap
POLL_SECONDS = 2  # hx-trigger="every 2s" (templates/scoring/game_detail.html)
TAP_EVERY = 5  # polls: a tap every 10 s per table

PAD_SEQ = re.compile(r'id="pad"[^>]*\bdata-seq="(\d+)"')
POLL_PROOF = re.compile(r'hx-get="[^"]*/poll/\?seq=(\d+)&amp;v=([0-9a-f]+)')
CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
UNDO_KEY = re.compile(r'name="idempotency_key" value="([0-9a-f]+)-undo"')

_numbers: dict[str, itertools.count] = defaultdict(itertools.count)


def place(user: FastHttpUser, places: int) -> int:
    """This user's place among ``places``: a different one for each user of its class."""
    index = getattr(user.environment.runner, "worker_index", 0)
    return (next(_numbers[type(user).__name__]) * PROCESSES + index) % places


def sign_in(user: FastHttpUser, session_key: str) -> None:
    """The session cookie a phone has after signing in.

    With DEBUG off the app's cookies are ``Secure``: a phone sends them back because it speaks
    HTTPS to the proxy. Here the client speaks plain HTTP to gunicorn, so it is told to send
    them over HTTP too (a policy of the client only; the server runs as in production)."""
    host = urlsplit(user.host).hostname or "127.0.0.1"
    user.client.cookiejar.set_policy(DefaultCookiePolicy(secure_protocols=("https", "http")))
    user.client.cookiejar.set_cookie(
        Cookie(
            0,
            "sessionid",
            session_key,
            None,
            False,
            host,
            False,
            False,
            "/",
            True,
            False,
            None,
            True,
            None,
            None,
            {},
        )  # fmt: skip
    )


class Phone(FastHttpUser):
    """One of the four phones at a table: polls every 2 s; the scorer also taps every 10 s
    (an undo, then the same event again) and loads the pad after each tap."""

    fixed_count = len(PHONES)
    wait_time = constant_pacing(POLL_SECONDS)

    def on_start(self) -> None:
        self.table, seat = PHONES[place(self, len(PHONES))]
        self.scorer = seat == 0
        sign_in(self, self.table["phones"][seat])
        self.ticks = random.randrange(TAP_EVERY)  # the tables do not all tap at once
        self.seq = self.table["seq"]
        self.proof = self.table["proof"]
        self.form: dict[str, str] = {}
        self.open_pad()

    @task
    def evening(self) -> None:
        self.poll()
        self.ticks += 1
        if self.scorer and self.ticks % TAP_EVERY == 0:
            self.tap()
            self.open_pad()

    def read_pad(self, text: str) -> bool:
        """The seq and the poll proof of a pad (a page, a poll's answer, a tap's)."""
        seq, poll = PAD_SEQ.search(text), POLL_PROOF.search(text)
        if not (seq and poll):
            return False
        self.seq, self.proof = int(seq[1]), poll[2]
        return True

    def poll(self) -> None:
        url = f"{self.table['poll']}?seq={self.seq}&v={self.proof}"
        with self.client.get(url, headers=HTMX, name="poll", catch_response=True) as answer:
            if answer.status_code == 204:
                answer.success()
            elif answer.status_code == 200 and self.read_pad(answer.text or ""):
                answer.success()  # another phone recorded: the new pad
            else:
                answer.failure(f"poll answered {answer.status_code}")

    def open_pad(self) -> None:
        with self.client.get(self.table["pad"], name="pad GET", catch_response=True) as answer:
            text = answer.text or ""
            csrf, key = CSRF.search(text), UNDO_KEY.search(text)
            if answer.status_code != 200 or not (csrf and self.read_pad(text)):
                answer.failure(f"pad answered {answer.status_code} without its form")
                return
            self.form = {"csrf": csrf[1], "key": key[1] if key else ""}
            answer.success()

    def tap(self) -> None:
        """An undo when the game is as the plan left it (an even number of taps since), else
        the event that undo took back, as the generic pad's form sends it (a JSON payload)."""
        if not self.form:
            return
        data = {
            "csrfmiddlewaretoken": self.form["csrf"],
            "expected_seq": str(self.seq),
        }
        if (self.seq - self.table["base"]) % 2 == 0:
            data |= {"idempotency_key": f"{self.form['key']}-undo", "type": "undo"}
        else:
            redo = self.table["redo"]
            data |= {
                "idempotency_key": f"{self.form['key']}-load",
                "type": redo["type"],
                "payload": json.dumps(redo["payload"]),
            }
        with self.client.post(
            self.table["event"], data=data, headers=HTMX, name="tap", catch_response=True
        ) as answer:
            if answer.status_code == 200 and self.read_pad(answer.text or ""):
                answer.success()
            else:
                answer.failure(f"tap answered {answer.status_code}")
        self.form = {}  # the key is spent: the next tap takes the form of the next pad


class Reader(FastHttpUser):
    """A member between deals: the league table, a player's page, the club's books, their own
    statement."""

    fixed_count = len(PLAN["readers"])
    wait_time = between(3, 8)

    def on_start(self) -> None:
        sign_in(self, PLAN["readers"][place(self, len(PLAN["readers"]))])

    @task(3)
    def league(self) -> None:
        self.client.get(random.choice(PLAN["league"]), name="league")

    @task(2)
    def ledger(self) -> None:
        self.client.get(random.choice(PLAN["ledger"]), name="ledger")


# --- capacity: one route, as fast as the clients can ask -----------------------------------


class _Flood(FastHttpUser):
    """Signed in as one of the phones; each request at a table drawn at random."""

    abstract = True
    wait_time = constant(0)

    def on_start(self) -> None:
        table, seat = PHONES[place(self, len(PHONES))]
        sign_in(self, table["phones"][seat])


class PollFlood(_Flood):
    """A live-sync poll that finds nothing new (no one taps in this run), with its proof."""

    @task
    def poll(self) -> None:
        table = random.choice(TABLES)
        url = f"{table['poll']}?seq={table['seq']}&v={table['proof']}"
        with self.client.get(url, headers=HTMX, name="poll", catch_response=True) as answer:
            if answer.status_code == 204:
                answer.success()
            else:
                answer.failure(f"poll answered {answer.status_code}, not 204")


class PadFlood(_Flood):
    """A table's pad page."""

    @task
    def pad(self) -> None:
        self.client.get(random.choice(TABLES)["pad"], name="pad GET")


class LeagueFlood(_Flood):
    """The club's league table."""

    @task
    def league(self) -> None:
        self.client.get(PLAN["league"][0], name="league")


class HealthzFlood(FastHttpUser):
    """``/healthz``: no session, one ``SELECT 1``; the server's ceiling for comparison."""

    wait_time = constant(0)

    @task
    def healthz(self) -> None:
        self.client.get("/healthz", name="healthz")
