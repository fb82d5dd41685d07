"""A recorded event reaches every phone that follows its game, through the server production
runs (uvicorn, config.asgi): on PostgreSQL by ``pg_notify`` at commit to every process, on
SQLite by this process's hub. A rolled-back event reaches nobody; a LISTEN connection that
drops tells every phone to resync and then carries on."""

from __future__ import annotations

import queue
import threading
import time

import httpx
import pytest
from django.db import connection

from live import tokens
from scoring import recording
from tests.live.server import asgi_server
from tests.live.taps import stake, stake_then_fail

# Also on SQLite (tests/conftest.py): push by the in-process hub there, pg_notify here.
pytestmark = [pytest.mark.sqlite, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def served():
    with asgi_server() as server:
        yield server


class Listening:
    """A phone's stream in a thread of its own: ``next()`` is the next event (kind, data)."""

    def __init__(self, url: str) -> None:
        self.events: queue.Queue = queue.Queue()
        self.opened = threading.Event()
        self.client = httpx.Client(timeout=httpx.Timeout(5, read=None))
        threading.Thread(target=self._read, args=(url,), daemon=True).start()
        assert self.opened.wait(10), "the stream did not open"

    def _read(self, url: str) -> None:
        kind = None
        try:
            with self.client.stream("GET", url) as response:
                self.status = response.status_code
                self.opened.set()
                for line in response.iter_lines():
                    if line.startswith("event: "):
                        kind = line[7:]
                    elif line.startswith("data: "):
                        self.events.put((kind, line[6:]))
        except httpx.HTTPError:
            pass

    def next(self, timeout: float = 5.0):
        return self.events.get(timeout=timeout)

    def nothing_within(self, seconds: float) -> bool:
        try:
            self.events.get(timeout=seconds)
        except queue.Empty:
            return True
        return False

    def close(self) -> None:
        self.client.close()


def follow(served, *channels: str) -> Listening:
    return Listening(f"{served.url}/live/?t={tokens.sign(channels, None)}")


def test_an_event_reaches_every_phone_at_its_table_and_no_other(
    served, game, club, toy, scorer, member
):
    other = recording.start_game(club, "toy", [scorer, member], None)
    here = [follow(served, tokens.game_channel(game.pk)) for _ in range(3)]
    elsewhere = follow(served, tokens.game_channel(other.pk))
    try:
        stake(game, 0, "a")
        stake(game, 1, "b")
        for phone in here:
            assert phone.next() == ("change", f"g:{game.pk} 1")
            assert phone.next() == ("change", f"g:{game.pk} 2")
        assert elsewhere.nothing_within(0.3)
    finally:
        for phone in [*here, elsewhere]:
            phone.close()


def test_a_rolled_back_event_reaches_nobody(served, game):
    phone = follow(served, tokens.game_channel(game.pk))
    try:
        with pytest.raises(RuntimeError):
            stake_then_fail(game, 0, "a")
        assert phone.nothing_within(0.5)
        stake(game, 0, "b")
        assert phone.next() == ("change", f"g:{game.pk} 1")
    finally:
        phone.close()


def test_a_dropped_listen_connection_says_resync_and_carries_on(served, game):
    if connection.vendor != "postgresql":
        pytest.skip("the LISTEN connection is PostgreSQL's")
    phone = follow(served, tokens.game_channel(game.pk))
    try:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE query LIKE 'LISTEN protokoll_live%%' AND datname = current_database()"
            )
            assert cursor.fetchone() is not None
        assert phone.next() == ("resync", "*")
        deadline = time.monotonic() + 10
        seq = 0
        while True:  # the hub listens again within its back-off
            stake(game, seq, f"k{seq}")
            seq += 1
            try:
                kind, data = phone.next(timeout=0.5)
            except queue.Empty:
                assert time.monotonic() < deadline, "the hub never listened again"
                continue
            if kind == "change":
                break
        assert data == f"g:{game.pk} {seq}"
    finally:
        phone.close()


def test_the_evening_board_hears_a_guest_come_tables_form_and_a_game_start(served, club, scorer):
    import evenings

    evening = evenings.open_evening(club, None)
    board = follow(served, tokens.evening_channel(evening.pk))
    changed = ("change", f"e:{evening.pk} changed")
    try:
        guests = [evenings.check_in(evening, None, guest_name=n) for n in ("Ada", "Bo", "Cia")]
        assert [board.next() for _ in guests] == [changed] * 3
        (table,) = evenings.form_tables(evening, "stopp", [guests], None)
        assert board.next() == changed
        recording.start_game(club, "stopp", [g.name for g in guests], None, table=table)
        assert board.next() == changed
    finally:
        board.close()
