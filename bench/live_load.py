"""Phones that hold a live stream (issue 27 §3), for bench/load.py: asyncio, one ``httpx`` client.

Two parts, each against the running server (uvicorn: ``/live/`` is served only over ASGI):

*push* — the evening at its real pace, as static/js/live.js runs it. At each table four
phones; each GETs its pad (the session cookie sent as a header: with DEBUG off the app's
cookies are ``Secure`` and this client speaks plain HTTP, so it keeps its own), opens the
stream the pad names (``data-live``) and polls at most every 30 s (live.js's safety net) — and
at once when the stream opens, as live.js catches up. The first phone is the table's scorer:
every 10 s (the tables staggered) an undo, then the event it took back, exactly as
bench/locustfile.py's ``tap`` sends it (CSRF from the pad, ``expected_seq``, the pad's
idempotency key), then a GET of the pad for the next form. Each other phone, on a ``change``
newer than its pad, polls with its old seq and proof and reads the new pad (seq and proof)
from the answer. Measured, from the moment the scorer starts the tap: the tap itself (the
POST), the *signal* (the ``change`` arriving at another phone), the *update* (that phone holds
the new pad); a tap that some phone never saw (by the end of a grace period) is a missed update.

*idle* — many phones that only listen: streams opened in batches for tokens made in-process
(``live.tokens``), spread evenly over the open games' channels. The server's memory (VmRSS of
its processes, from /proc) before and after gives the memory per connection; then one signal
per channel is published in-process (``live.signals.publish`` in one transaction: PostgreSQL
delivers them at commit) and each phone's wait for it is measured from the commit.

Timestamps are ``time.monotonic()``; the client's own CPU time is measured beside the wall
time, so a run whose client was the bottleneck says so. ``meter`` (from bench/load.py) reads the
server's CPU seconds and the machine's busy seconds, taken when the clock starts and stops.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import json
import logging
import random
import re
import resource
import time
import uuid
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from http.cookiejar import DefaultCookiePolicy
from pathlib import Path

import httpx
from httpx_sse import aconnect_sse

SAFETY_SECONDS = 30  # live.js's SAFETY_MS: the poll a phone keeps while its stream is open
TAP_EVERY = 10  # seconds between a scorer's taps
RETRY_SECONDS = 3  # the stream's ``retry:``: a lost stream is reopened after it
GRACE_SECONDS = 10  # after the last tap, how long the other phones have to catch up
REQUEST_TIMEOUT = 30.0
SET_UP_CONCURRENCY = 16  # pads opened at once before the clock runs
IDLE_BATCH = 100  # streams opened at once by the idle phones
HTMX = {"HX-Request": "true"}
Meter = Callable[[], tuple[float, float]]  # (server CPU seconds, machine busy seconds)
logging.getLogger("httpx").setLevel(logging.WARNING)  # not a line per request

PAD_SEQ = re.compile(r'id="pad"[^>]*\bdata-seq="(\d+)"')
POLL_PROOF = re.compile(r'hx-get="[^"]*/poll/\?seq=(\d+)&amp;v=([0-9a-f]+)')
LIVE_URL = re.compile(r'data-live="([^"]+)"')
CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
UNDO_KEY = re.compile(r'name="idempotency_key" value="([0-9a-f]+)-undo"')
CSRF_COOKIE = re.compile(r"(?:^|\s)csrftoken=([^;]+)")


def client(host: str, connections: int) -> httpx.AsyncClient:
    """The one client of a part: connections enough for every stream, and no cookie jar (each
    phone sends its own cookies)."""
    jar = httpx.Cookies()
    jar.jar.set_policy(DefaultCookiePolicy(allowed_domains=[]))
    return httpx.AsyncClient(
        base_url=host,
        cookies=jar,
        limits=httpx.Limits(max_connections=connections, max_keepalive_connections=connections),
        timeout=httpx.Timeout(REQUEST_TIMEOUT),
    )


def stream_timeout() -> httpx.Timeout:
    return httpx.Timeout(REQUEST_TIMEOUT, read=None)  # a quiet stream is no error


def raise_fd_limit(wanted: int) -> int:
    """The open-files limit of this process (and the server it starts) raised towards
    ``wanted``, as far as the hard limit allows; the limit now."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if target > soft:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        soft = target
    return soft


def server_rss(pid: int) -> int:
    """Resident memory of the server (VmRSS of its process and every descendant), in bytes."""
    pids, total = [pid], 0
    while pids:
        current = pids.pop()
        with contextlib.suppress(OSError):
            for line in Path(f"/proc/{current}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1]) * 1024
            for task in Path(f"/proc/{current}/task").iterdir():
                children = (task / "children").read_text().split()
                pids.extend(int(child) for child in children)
    return total


def run(coroutine):
    """``coroutine`` on a uvloop loop when uvloop is installed (a cheaper client)."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(coroutine)
    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        return runner.run(coroutine)


def since(meter: Meter, before: tuple[float, float]) -> tuple[float, float]:
    now = meter()
    return now[0] - before[0], now[1] - before[1]


def percentile(values: list[float], share: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


# --- push: the evening with streams ----------------------------------------------------------


@dataclass
class PushResult:
    tables: int
    phones: int
    seconds: float  # the measured part: from the first tap to the end of the grace period
    client_cpu: float
    taps_ms: list[float] = field(default_factory=list)
    signals_ms: list[float] = field(default_factory=list)
    updates_ms: list[float] = field(default_factory=list)
    polls: Counter = field(default_factory=Counter)  # by status
    errors: Counter = field(default_factory=Counter)
    missed_signals: int = 0
    missed_updates: int = 0
    connected: int = 0
    server_cpu: float = 0.0
    machine_cpu: float = 0.0


class Evening:
    """What the phones of one push run share: the client, the clock, the taps in flight."""

    def __init__(self, http: httpx.AsyncClient, result: PushResult) -> None:
        self.http = http
        self.result = result
        self.tapped: dict[tuple[int, int], float] = {}  # (game, seq) → when its tap started
        self.recorded: list[tuple[int, int]] = []  # taps that succeeded while the clock ran
        self.running = True
        self.stopped_taps = False

    def error(self, what: str) -> None:
        self.result.errors[what] += 1


class Phone:
    def __init__(self, evening: Evening, table: dict, session: str, scorer: bool) -> None:
        self.evening = evening
        self.table = table
        self.game = table["game"]
        self.session = session
        self.scorer = scorer
        self.seq = table["seq"]
        self.proof = table["proof"]
        self.csrf_cookie = ""
        self.form: dict[str, str] = {}
        self.live = ""
        self.wake = asyncio.Event()
        self.open = asyncio.Event()
        self.signalled: set[int] = set()
        self.updated: set[int] = set()
        self.tapping: int | None = None  # the seq this phone's own tap will make

    def headers(self, htmx: bool = False) -> dict[str, str]:
        cookie = f"sessionid={self.session}"
        if self.csrf_cookie:
            cookie += f"; csrftoken={self.csrf_cookie}"
        return {"Cookie": cookie, **(HTMX if htmx else {})}

    def read_pad(self, text: str) -> bool:
        """The seq and poll proof of a pad (a page, a poll's answer or a tap's)."""
        seq, poll = PAD_SEQ.search(text), POLL_PROOF.search(text)
        if not (seq and poll):
            return False
        self.arrived(int(seq[1]))
        self.proof = poll[2]
        return True

    def arrived(self, seq: int) -> None:
        """This phone now holds the pad at ``seq``: every tap up to it has reached it."""
        now = time.monotonic()
        for step in range(self.seq + 1, seq + 1):
            started = self.evening.tapped.get((self.game, step))
            if started is not None and not self.scorer and step not in self.updated:
                self.updated.add(step)
                self.evening.result.updates_ms.append(1000 * (now - started))
        self.seq = max(self.seq, seq)

    async def open_pad(self) -> bool:
        try:
            answer = await self.evening.http.get(self.table["pad"], headers=self.headers())
        except httpx.HTTPError as error:
            self.evening.error(f"pad GET: {type(error).__name__}")
            return False
        for cookie in answer.headers.get_list("set-cookie"):
            if found := CSRF_COOKIE.search(cookie):
                self.csrf_cookie = found[1]
        text = answer.text
        csrf, key, live = CSRF.search(text), UNDO_KEY.search(text), LIVE_URL.search(text)
        if answer.status_code != 200 or not (csrf and live and self.read_pad(text)):
            self.evening.error(f"pad GET answered {answer.status_code} without its form")
            return False
        self.form = {"csrf": csrf[1], "key": key[1] if key else ""}
        self.live = html.unescape(live[1])
        return True

    # --- the stream and the polls it sets off ------------------------------------------------
    async def follow(self) -> None:
        """The stream, reopened after ``RETRY_SECONDS`` when it is lost while the evening runs."""
        while self.evening.running:
            try:
                async with aconnect_sse(
                    self.evening.http,
                    "GET",
                    self.live,
                    headers={"Accept": "text/event-stream"},
                    timeout=stream_timeout(),
                ) as source:
                    if source.response.status_code != 200:
                        self.evening.error(f"stream answered {source.response.status_code}")
                    else:
                        self.open.set()
                        self.wake.set()  # live.js: on open, one poll catches up
                        async for event in source.aiter_sse():
                            self.heard(event.event, event.data)
                        if self.evening.running:
                            self.evening.error("stream ended")
            except httpx.HTTPError as error:
                if self.evening.running:
                    self.evening.error(f"stream: {type(error).__name__}")
            self.open.clear()
            if self.evening.running:
                await asyncio.sleep(RETRY_SECONDS)

    def heard(self, kind: str, data: str) -> None:
        if kind == "resync":
            self.wake.set()
            return
        if kind != "change":
            return
        channel, _, version = data.partition(" ")
        if channel != f"g:{self.game}" or not version.isdigit():
            return
        seq = int(version)
        if seq <= self.seq or seq == self.tapping:
            return  # this phone's pad, or its own tap on the way back
        started = self.evening.tapped.get((self.game, seq))
        if started is not None and seq not in self.signalled:
            self.signalled.add(seq)
            self.evening.result.signals_ms.append(1000 * (time.monotonic() - started))
        self.wake.set()

    async def keep_polling(self) -> None:
        """live.js with an open stream: a poll when woken, else one ``SAFETY_SECONDS`` after
        the last (at the next tick of the pad's 2 s timer)."""
        while self.evening.running:
            wait = SAFETY_SECONDS + random.uniform(0, 2)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.wake.wait(), wait)
            self.wake.clear()
            if self.evening.running:
                await self.poll()

    async def poll(self) -> None:
        url = f"{self.table['poll']}?seq={self.seq}&v={self.proof}"
        try:
            answer = await self.evening.http.get(url, headers=self.headers(htmx=True))
        except httpx.HTTPError as error:
            self.evening.error(f"poll: {type(error).__name__}")
            return
        self.evening.result.polls[answer.status_code] += 1
        if answer.status_code == 204:
            return
        if answer.status_code != 200 or not self.read_pad(answer.text):
            self.evening.error(f"poll answered {answer.status_code}")

    # --- the scorer ----------------------------------------------------------------------
    async def score(self, start_in: float) -> None:
        await asyncio.sleep(start_in)
        while not self.evening.stopped_taps:
            began = time.monotonic()
            await self.tap()
            await self.open_pad()
            await asyncio.sleep(max(0.0, began + TAP_EVERY - time.monotonic()))

    async def tap(self) -> None:
        """An undo when the game is as the plan made it (an even number of taps since), else
        the event that undo took back: bench/locustfile.py's ``Phone.tap``."""
        if not self.form:
            return
        data = {"csrfmiddlewaretoken": self.form["csrf"], "expected_seq": str(self.seq)}
        key = self.form["key"] or uuid.uuid4().hex
        if (self.seq - self.table["base"]) % 2 == 0:
            data |= {"idempotency_key": f"{key}-undo", "type": "undo"}
        else:
            redo = self.table["redo"]
            data |= {
                "idempotency_key": f"{key}-load",
                "type": redo["type"],
                "payload": json.dumps(redo["payload"]),
            }
        self.form = {}  # the key is spent: the next tap takes the form of the next pad
        step = (self.game, self.seq + 1)
        began = time.monotonic()
        self.evening.tapped[step] = began
        self.tapping = step[1]
        try:
            answer = await self.evening.http.post(
                self.table["event"], data=data, headers=self.headers(htmx=True)
            )
        except httpx.HTTPError as error:
            self.evening.error(f"tap: {type(error).__name__}")
            return
        finally:
            self.tapping = None
        self.evening.result.taps_ms.append(1000 * (time.monotonic() - began))
        found = PAD_SEQ.search(answer.text)
        if answer.status_code == 200 and found and int(found[1]) == step[1]:
            self.seq = step[1]
            self.evening.recorded.append(step)
        else:
            del self.evening.tapped[step]
            self.evening.error(f"tap answered {answer.status_code}")


async def push_evening(host: str, tables: list[dict], seconds: float, meter: Meter) -> PushResult:
    phones_count = sum(len(t["phones"]) for t in tables)
    result = PushResult(tables=len(tables), phones=phones_count, seconds=0.0, client_cpu=0.0)
    async with client(host, 2 * phones_count + 50) as http:
        evening = Evening(http, result)
        phones = [
            Phone(evening, table, session, scorer=place == 0)
            for table in tables
            for place, session in enumerate(table["phones"])
        ]
        # Set up before the clock runs: every pad opened, every stream open.
        gate = asyncio.Semaphore(SET_UP_CONCURRENCY)

        async def arrive(phone: Phone) -> bool:
            async with gate:
                return await phone.open_pad()

        ready = await asyncio.gather(*(arrive(p) for p in phones))
        if not all(ready):
            raise SystemExit(f"push: {ready.count(False)} of {len(phones)} pads did not open")
        tasks = [asyncio.create_task(p.follow()) for p in phones]
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(
                asyncio.gather(*(p.open.wait() for p in phones)), 30 + len(phones) / 20
            )
        result.connected = sum(p.open.is_set() for p in phones)
        tasks += [asyncio.create_task(p.keep_polling()) for p in phones]
        await asyncio.sleep(2)  # the catch-up polls of the streams' opening
        # The clock: taps for ``seconds``, then a grace period for the last ones to arrive.
        cpu, began, (server, machine) = time.process_time(), time.monotonic(), meter()
        scorers = [p for p in phones if p.scorer]
        tasks += [
            asyncio.create_task(p.score(TAP_EVERY * n / len(scorers)))
            for n, p in enumerate(scorers)
        ]
        await asyncio.sleep(seconds)
        evening.stopped_taps = True
        deadline = time.monotonic() + GRACE_SECONDS
        while time.monotonic() < deadline and (missing(phones, evening) or pending(phones)):
            await asyncio.sleep(0.2)
        await asyncio.sleep(0.5)
        result.seconds = time.monotonic() - began
        result.client_cpu = time.process_time() - cpu
        result.server_cpu, result.machine_cpu = since(meter, (server, machine))
        evening.running = False
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        result.missed_signals = sum(
            step[1] not in p.signalled for step, p in others_of(phones, evening)
        )
        result.missed_updates = missing(phones, evening)
    return result


def others_of(phones: list[Phone], evening: Evening):
    """Each (tap, phone that should hear of it) of the run."""
    by_game: dict[int, list[Phone]] = {}
    for phone in phones:
        if not phone.scorer:
            by_game.setdefault(phone.game, []).append(phone)
    for step in evening.recorded:
        for phone in by_game.get(step[0], ()):
            yield step, phone


def missing(phones: list[Phone], evening: Evening) -> int:
    return sum(step[1] not in p.updated for step, p in others_of(phones, evening))


def pending(phones: list[Phone]) -> bool:
    return any(p.tapping is not None for p in phones)


def run_push(host: str, tables: list[dict], seconds: float, meter: Meter) -> PushResult:
    return run(push_evening(host, tables, seconds, meter))


# --- idle: many phones that only listen ------------------------------------------------------


@dataclass
class IdleResult:
    wanted: int
    channels: int
    connected: int = 0
    failures: Counter = field(default_factory=Counter)
    rss_before: int = 0
    rss_after: int = 0
    connect_seconds: float = 0.0
    signals_ms: list[float] = field(default_factory=list)
    missing: int = 0
    seconds: float = 0.0
    client_cpu: float = 0.0
    server_cpu: float = 0.0
    machine_cpu: float = 0.0

    @property
    def per_connection(self) -> float:
        return (self.rss_after - self.rss_before) / self.connected if self.connected else 0.0


class Listener:
    def __init__(self, channel: str) -> None:
        from live import tokens

        self.url = f"/live/?t={tokens.sign([channel], None)}"
        self.channel = channel
        self.open = asyncio.Event()
        self.done = asyncio.Event()  # connected, or failed for good
        self.heard_at: float | None = None

    async def listen(self, http: httpx.AsyncClient, result: IdleResult) -> None:
        try:
            async with aconnect_sse(http, "GET", self.url, timeout=stream_timeout()) as source:
                if source.response.status_code != 200:
                    result.failures[f"answered {source.response.status_code}"] += 1
                    return
                self.open.set()
                self.done.set()
                async for event in source.aiter_sse():
                    if event.event == "change" and event.data.startswith(f"{self.channel} "):
                        self.heard_at = self.heard_at or time.monotonic()
                result.failures["stream ended"] += 1
        except httpx.HTTPError as error:
            result.failures[type(error).__name__] += 1
        finally:
            self.done.set()


def publish_all(channels: list[str]) -> float:
    """One signal per channel, in one transaction; when its commit began (the notifications
    are delivered at commit)."""
    from django.db import transaction

    from live.signals import publish

    with transaction.atomic():
        for channel in channels:
            publish(channel, "idle")
        committing = time.monotonic()
    return committing


async def idle_phones(
    host: str, games: list[int], count: int, server_pid: int, meter: Meter
) -> IdleResult:
    from live import tokens

    channels = [tokens.game_channel(game) for game in games]
    result = IdleResult(wanted=count, channels=len(channels))
    listeners = [Listener(channels[n % len(channels)]) for n in range(count)]
    async with client(host, count + 50) as http:
        result.rss_before = server_rss(server_pid)
        cpu, began, (server, machine) = time.process_time(), time.monotonic(), meter()
        tasks = []
        for start in range(0, count, IDLE_BATCH):
            batch = listeners[start : start + IDLE_BATCH]
            tasks += [asyncio.create_task(one.listen(http, result)) for one in batch]
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.gather(*(one.done.wait() for one in batch)), 60)
        result.connect_seconds = time.monotonic() - began
        result.connected = sum(one.open.is_set() for one in listeners)
        await asyncio.sleep(1)  # the last streams' first bytes
        result.rss_after = server_rss(server_pid)
        committed = await asyncio.to_thread(publish_all, channels)
        deadline = time.monotonic() + 30
        listening = [one for one in listeners if one.open.is_set()]
        while time.monotonic() < deadline and any(one.heard_at is None for one in listening):
            await asyncio.sleep(0.05)
        result.signals_ms = [
            1000 * (one.heard_at - committed) for one in listening if one.heard_at is not None
        ]
        result.missing = sum(one.heard_at is None for one in listening)
        result.seconds = time.monotonic() - began
        result.client_cpu = time.process_time() - cpu
        result.server_cpu, result.machine_cpu = since(meter, (server, machine))
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    return result


def run_idle(host: str, games: list[int], count: int, server_pid: int, meter: Meter) -> IdleResult:
    return run(idle_phones(host, games, count, server_pid, meter))
