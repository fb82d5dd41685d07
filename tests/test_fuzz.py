"""Hostile input never gets a 500, and a refused request changes nothing (issue 13, section 5).

Every route of the URL resolver (Django's own admin and logout aside) is requested through the
test client as a signed-in admin, treasurer and scorer of a small club: one open Kille and one
open Stopp game, a finished game, members (one with an open invite), a payment, a season, a
closed period, a membership fee, a finished export and a public league link. Path parameters
are filled with those objects (and, for free-text parameters, with hostile text too).

Before fuzzing, every page is fetched once and its forms read: which fields each form sends to
which address, and with which values. Hypothesis then builds requests from them: GET with a
hostile query string, or POST with a hostile body (form-encoded or multipart, with or without
htmx's header), each field kept as the page sends it, replaced by a hostile value, left out or
sent twice, plus random fields. Hostile values: Unicode and huge numbers (``²``, ``١٢``,
``１２``, 5,000 nines, ``--5``, ``1e309``), NUL, 10 kB strings, JSON nested 10,000 deep, ``NaN``,
out-of-range dates, wrong types.

Each request runs in a savepoint that is rolled back afterwards, so every request meets the same
club (and a request that broke the database's transaction cannot spoil the next). Checked for
each one: never a 5xx (the client is built with ``raise_request_exception=False`` and DEBUG is
off, as in production, so a crash is a status, rendered by ``templates/500.html``); the sum of
all ledger entries stays zero; and after a 4xx the number of games, seats, events, transactions,
entries, members, logins, seasons, periods, audit records and export jobs is unchanged.
Problems are collected, not raised one by one, so one run reports every route that fails.

Hypothesis is derandomized (CI sees the same requests every run). ``PROTOKOLL_FUZZ_EXAMPLES``
sets the number of requests per route (default 10; the suite stays well under a minute); a long
run, e.g. ``PROTOKOLL_FUZZ_EXAMPLES=400``, prints its figures with ``-s``.
"""

from __future__ import annotations

import copy
import itertools
import logging
import os
import secrets
from collections import Counter, defaultdict
from datetime import timedelta
from html.parser import HTMLParser
from urllib.parse import urlencode, urlsplit

import pytest
from django.conf import settings as django_settings
from django.db import transaction
from django.db.models import Sum
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.utils import timezone
from hypothesis import HealthCheck, Phase, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

import evenings
import ledger
from club.models import Member, Role, Season, User
from competitions import running as competitions
from competitions.models import Competition, Entrant, Round, TableSeat
from evenings import table_links
from evenings.models import Evening
from honours import services as honours
from league.models import LeagueFormat
from ledger import dues, exports, payments, season_statements
from ledger.models import Account, AuditRecord, Entry, ExportJob, Period, Transaction
from notices import mail as notices_mail
from scoring import confirming, guest, recording
from scoring.models import Event, Game, Seat
from tests.factories import make_member, make_table
from tests.scoring.pad import post_event, start_from_form
from week import feed as week_feed
from week import replies as week_replies

EXAMPLES = int(os.environ.get("PROTOKOLL_FUZZ_EXAMPLES", "10"))

# --- hostile values --------------------------------------------------------------------------

DEEP_LIST = "[" * 10_000 + "]" * 10_000
DEEP_OBJECT = '{"a":' * 10_000 + "1" + "}" * 10_000
# Numbers people do not type, and numbers Python cannot hold as text.
NUMBERS = [
    "²",
    "١٢",
    "１２",
    "٣٫٥",
    "9" * 5000,
    "-" + "9" * 5000,
    "--5",
    "+5",
    "1e309",
    "-0",
    "0x10",
    "1_000",
    " 12 ",
    "12,50",
    "12.505",
    "1 250 kr",
    "2147483648",
    "9223372036854775808",
    "-9223372036854775809",
    "99999999999999999999",
    "-1",
    "0",
]
# Bytes a database refuses, text too long for any column, and the app's own vocabulary in the
# wrong place.
TEXTS = [
    "\x00",
    "a\x00b",
    "\x1b[31m",
    "\u202e",
    "\r\n",
    "x" * 10_000,
    "ö" * 5000,
    "💩" * 100,
    "",
    " ",
    "member:1",
    "member:\x00",
    "cash",
    "pot",
    "s0",
    "s9",
    "undo",
    "5h",
    "<script>alert(1)</script>",
    "' OR 1=1 --",
    "%00",
    "../../etc/passwd",
]
# JSON that parsers and databases choke on.
JSONS = [
    DEEP_LIST,
    DEEP_OBJECT,
    "NaN",
    "Infinity",
    "-Infinity",
    '{"x": NaN}',
    '{"x": Infinity}',
    '{"x": "\\u0000"}',
    '{"\\u0000": 1}',
    '{"' + "k" * 5000 + '": 1}',
    '{"points": ' + "9" * 5000 + "}",
    '{"points": 1e400}',
    '{"points": 99999999999999999999999}',
    '{"a": {"b": 1}}',
    '{"type": "undo"}',
    "[1, 2]",
    '"text"',
    "null",
    "true",
    "{}",
]
# Dates out of any range.
DATES = ["0001-01-01", "9999-12-31", "2024-02-30", "1-1-1", "0001-01-01T00:00", "-1-01-01"]
HOSTILE = NUMBERS + TEXTS + JSONS + DATES
# Field names: any form's names are added per page; these collide with the pad's payload.
NAMES = [
    "payload",
    "type",
    "expected_seq",
    "idempotency_key",
    "submission",
    "p_x",
    "p_x.y",
    "p_x[]",
    "p_points",
    "p_" + "k" * 300,
    "p_\x00",
    "form",
]
hostile_values = st.one_of(
    st.sampled_from(HOSTILE),
    st.text(max_size=20),
    st.integers().map(str),
)


def hostile_for(page_value: str):
    """Hostile values, mostly of the kind the page sends here: numbers where it sends a
    number, dates for a date, JSON for JSON; anything hostile otherwise."""
    if page_value.strip().lstrip("-").isdigit():
        kind = st.sampled_from(NUMBERS)
    elif page_value.startswith(("{", "[")):
        kind = st.sampled_from(JSONS)
    elif len(page_value) == 10 and page_value[4:5] == "-" and page_value[7:8] == "-":
        kind = st.sampled_from(DATES)
    else:
        return hostile_values
    return st.one_of(kind, kind, hostile_values)


field_names = st.one_of(st.sampled_from(NAMES), st.text(min_size=1, max_size=12))


# --- the club --------------------------------------------------------------------------------


@pytest.fixture
def world(club, django_capture_on_commit_callbacks):
    """The club every request meets, and the objects that fill the routes' path parameters."""
    boss = make_member(club, "Bo Boss", roles=[Role.ADMIN, Role.TREASURER, Role.SCORER])
    client = Client(raise_request_exception=False)
    client.force_login(boss.user)
    table = make_table(club, boss, 4)
    invited = make_member(club, "Ines Inbjuden", login=False)
    invite_token = invited.new_invite()
    today = timezone.localdate()
    last_year = today.replace(year=today.year - 1, month=1, day=1)
    ledger.close_period(
        club, "Förra året", last_year, last_year.replace(month=12, day=31), boss.user
    )
    payment = payments.record_payment(
        club, "cash_in", 5000, "Insättning", boss.user, member=table[1]
    )
    season = Season.objects.create(
        club=club, name="Säsongen", start=today - timedelta(days=30), end=today + timedelta(days=60)
    )
    dues.save_plan(club, 20000, "yearly", True)
    kille = start_from_form(client, club, "kille", table, two_player_rule="on")
    post_event(client, kille, "ante", status=200)
    stopp = recording.start_game(club, "stopp", table[:3], boss.user, rules={"capital": 5})
    post_event(client, stopp, "deal", {"p_cards.s0": "0", "p_cards.s1": "3", "p_cards.s2": "2"})
    finished = recording.start_game(
        club, "stopp", [boss, table[1], "Gästen Gun"], boss.user, rules={"capital": 1}
    )
    with django_capture_on_commit_callbacks(execute=True):
        post_event(
            client, finished, "deal", {"p_cards.s0": "0", "p_cards.s1": "3", "p_cards.s2": "2"}
        )
    finished.refresh_from_db()
    assert finished.status == "finished", finished.snapshot
    # A dispute on it (scoring.confirming): the host's "confirm as it stands" is on its pad.
    confirming.record(finished, table[1], "disputed", seq=finished.seq, key="fuzz", word="Fel")
    job = exports.start_season_statement(club, season, None, boss.user, "sv")
    season_statements.build_season_statement(job.pk)
    club.league_share_token = secrets.token_urlsafe(32)
    club.save(update_fields=["league_share_token"])
    pot = Account.objects.get(club=club, key="pot:kille")
    evening = evenings.open_evening(club, boss.user)
    here = [evenings.check_in(evening, boss.user, member=m) for m in table[:4]]
    evenings.form_tables(evening, "whist", [here], boss.user)
    closed = evenings.open_evening(club, boss.user, date=today - timedelta(days=7))
    evenings.close_evening(closed, boss.user)
    # The club's week: an evening planned ahead with a reply, and the boss's calendar link.
    planned = Evening.objects.create(club=club, date=today + timedelta(days=7), status="planned")
    week_replies.answer(planned, table[1], "coming", "Greta")
    calendar_token = week_feed.new_token(boss)
    params = {
        "club_slug": [club.slug],
        "game_id": [kille.pk, stopp.pk, finished.pk],
        "game_key": ["kille", "stopp", "cribbage", "whist"],
        "tx_id": [payment.pk, kille.events.exclude(money=None).first().money_id],
        "account_id": [ledger.member_account(table[1]).pk, pot.pk],
        "period_id": [Period.objects.get(club=club).pk],
        "member_id": [table[1].pk, invited.pk],
        "job_id": [job.pk],
        "evening_id": [evening.pk, closed.pk, planned.pk],
    }
    # The competitions (issue 29): a Swiss under way (round 1's tables: scoring's pad link) with
    # a fee, and one announced.
    cup = competitions.announce(
        club, boss.user, name="Cupen", kind="swiss", game_key="cribbage", rounds=2,
        entry_fee_ore=2000, prize_percents=[100],
    )  # fmt: skip
    for entrant in table[:4]:
        competitions.enter(cup, boss.user, member=entrant)
    round_1 = competitions.start(cup, boss.user)
    soon = competitions.announce(
        club, boss.user, name="Snart", kind="round_robin", game_key="kasino"
    )
    params["competition_id"] = [cup.pk, soon.pk]
    params["table_id"] = [t.pk for t in round_1.tables.all()]
    params["kind"] = ["cribbage:29:hand", "polskt_pass:la_vola"]  # honours:prize (issue 29)
    honours.save_prize(  # a hand prize and its pot: the pot form has a pot to choose
        club, "cribbage:29:hand", amount_ore=10_000, whole_pot=False, pot_name="Handpotten"
    )
    # Routes whose parameters are free text: the real value and hostile ones.
    hostile_tokens = ["\x00", "x" * 300, "a" * 43, "%00", "٣"]
    # A table's link and a guest's link (scoring.guest).
    table_token = table_links.token_for(evening.tables.first())
    guest_token = guest.create_pass(kille, boss.user)[1]
    special = {
        "invite-accept": [{"token": t} for t in [invite_token, *hostile_tokens]],
        # The unsubscribe link of a mail (no login): a real one and hostile ones.
        "notices:unsubscribe": [
            {"token": t}
            for t in [notices_mail.unsubscribe_token(table[1], "report"), *hostile_tokens]
        ],
        "league:shared": [{"token": t} for t in [club.league_share_token, *hostile_tokens]],
        "week:calendar": [{"token": t} for t in [calendar_token, *hostile_tokens]],
        "scoring:table-follow": [{"token": t} for t in [table_token, *hostile_tokens]],
        "scoring:table-follow-poll": [
            {"token": t, "game_id": g}
            for t in [table_token, *hostile_tokens]
            for g in (0, kille.pk)
        ],
        **{
            f"scoring:guest-{name}": [{"token": t} for t in [guest_token, *hostile_tokens]]
            for name in ("pad", "poll", "event")
        },
        "password-reset-confirm": [
            {"uidb64": uid, "token": t}
            for uid in ("MQ", "\x00", "x" * 300)
            for t in ("set-password", *hostile_tokens)
        ],
    }
    return {"client": client, "params": params, "special": special}


# --- the routes ------------------------------------------------------------------------------


def _routes(patterns=None, namespace: str = "") -> list[tuple[str, tuple[str, ...]]]:
    """Every named route as ``(name for reverse, its path parameters)``, the admin's aside."""
    found = []
    for entry in get_resolver().url_patterns if patterns is None else patterns:
        if isinstance(entry, URLResolver):
            if entry.namespace == "admin":
                continue
            inner = f"{namespace}{entry.namespace}:" if entry.namespace else namespace
            converters = tuple(getattr(entry.pattern, "converters", {}))
            found += [(n, converters + p) for n, p in _routes(entry.url_patterns, inner)]
        elif isinstance(entry, URLPattern) and entry.name:
            found.append((namespace + entry.name, tuple(getattr(entry.pattern, "converters", {}))))
    return found


# Logging out would end the session the client shares between requests; it is a plain form
# without fields (Django's own view).
SKIPPED = {"logout"}


def _urls(route: str, names: tuple[str, ...], world: dict) -> list[str]:
    """The route's addresses: its parameters filled with the club's objects. A route with a
    parameter the fixture does not know fails here: add its objects to ``world``."""
    if route in world["special"]:
        return [reverse(route, kwargs=kwargs) for kwargs in world["special"][route]]
    choices = [world["params"][name] for name in names]
    return [
        reverse(route, kwargs=dict(zip(names, values, strict=True)))
        for values in itertools.product(*choices)
    ]


class _FormReader(HTMLParser):
    """The forms of a page: where each one sends, how, and its fields with their values."""

    def __init__(self, page: str):
        super().__init__(convert_charrefs=True)
        self.page = page
        self.forms: list[tuple[str, str, dict[str, set[str]]]] = []
        self.current: dict[str, set[str]] | None = None
        self.select: str | None = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form":
            method = "POST" if "hx-post" in attrs else (attrs.get("method") or "get").upper()
            target = attrs.get("hx-post") or attrs.get("action") or attrs.get("hx-get") or ""
            self.current = defaultdict(set)
            self.forms.append((urlsplit(target).path or self.page, method, self.current))
        elif self.current is None:
            return
        elif tag == "option" and self.select:
            self.current[self.select].add(attrs.get("value") or "")
        elif tag == "select" and attrs.get("name"):
            self.select = attrs["name"]
        elif tag in ("input", "button", "textarea") and attrs.get("name"):
            self.current[attrs["name"]].add(attrs.get("value") or "")

    def handle_endtag(self, tag):
        if tag == "form":
            self.current = None
        elif tag == "select":
            self.select = None


Form = tuple[str, tuple[tuple[str, tuple[str, ...]], ...]]  # method, ((name, values), …)


def _read_forms(client: Client, urls: list[str]) -> tuple[dict[str, list[Form]], dict]:
    """Each address's forms (from every page that sends to it) and the methods it allows."""
    forms: dict[str, set[Form]] = defaultdict(set)
    allowed: dict[str, list[str]] = {}
    for url in urls:
        methods = client.options(url).get("Allow", "GET, POST")
        allowed[url] = [m for m in ("GET", "POST") if m in methods] or ["GET", "POST"]
        response = client.get(url)
        if response.status_code != 200 or "html" not in response.get("Content-Type", ""):
            continue
        reader = _FormReader(url)
        reader.feed(response.content.decode())
        for target, method, fields in reader.forms:
            shape = tuple(sorted((name, tuple(sorted(values))) for name, values in fields.items()))
            forms[target].add((method, shape))
    return {target: sorted(shapes) for target, shapes in forms.items()}, allowed


# --- one request -----------------------------------------------------------------------------


COUNTED = (Game, Seat, Event, Transaction, Entry, Member, User, Season, Period, AuditRecord)
# Issue 29: a refused league format (league:settings) makes no row; the world has none.
COUNTED = (*COUNTED, LeagueFormat)
COUNTED = (*COUNTED, Competition, Entrant, Round, TableSeat)  # issue 29


def _counts() -> tuple[int, ...]:
    return (*(model.objects.count() for model in COUNTED), ExportJob.objects.count())


def _ledger_sum() -> int:
    return Entry.objects.aggregate(total=Sum("amount_ore"))["total"] or 0


# How a field of a real form is sent: mostly as the page has it, so that the hostile part of a
# request gets past the parts that are right.
TREATMENTS = ["page"] * 5 + ["hostile"] * 3 + ["missing", "twice"]


@st.composite
def hostile_request(draw, urls: list[str], forms: dict[str, list[Form]], allowed: dict):
    url = draw(st.sampled_from(urls))
    own_forms = [form for form in forms.get(url, []) if form[0] in allowed[url]]
    method, shape = draw(st.sampled_from(own_forms)) if own_forms else ("", ())
    method = method or draw(st.sampled_from(allowed[url]))
    fields: list[tuple[str, str]] = []
    for name, values in shape:
        treatment = draw(st.sampled_from(TREATMENTS))
        if treatment == "missing":
            continue
        page_value = draw(st.sampled_from(values)) if values else ""
        value = draw(hostile_for(page_value)) if treatment == "hostile" else page_value
        fields.append((name, value))
        if treatment == "twice":
            fields.append((name, draw(st.one_of(st.just(page_value), hostile_for(page_value)))))
    fields += draw(st.lists(st.tuples(field_names, hostile_values), max_size=2))
    encoding = draw(st.sampled_from(["form", "multipart"]))
    htmx = draw(st.booleans())
    return url, method, fields, encoding, htmx


def _send(client: Client, url, method, fields, encoding, htmx):
    headers = {"HX-Request": "true"} if htmx else {}
    if method == "GET":
        return client.get(url, QueryDictData(fields), headers=headers)
    if encoding == "form":
        return client.post(
            url,
            urlencode(fields),
            content_type="application/x-www-form-urlencoded",
            headers=headers,
        )
    return client.post(url, QueryDictData(fields), headers=headers)


class QueryDictData(dict):
    """Fields in order, a name possibly repeated, as the client's encoders take them."""

    def __init__(self, fields: list[tuple[str, str]]):
        grouped: dict[str, list[str]] = defaultdict(list)
        for name, value in fields:
            grouped[name].append(value)
        super().__init__(grouped)


def _short(fields) -> str:
    return ", ".join(f"{n[:20]!r}={v[:20]!r}{'…' if len(v) > 20 else ''}" for n, v in fields)


def _problem(response, before) -> str | None:
    """What is wrong with an answer, in words that group alike failures; None if nothing."""
    status = response.status_code
    if status >= 500:
        error = getattr(response, "exc_info", None)
        return f"{status}: {repr(error[1])[:160] if error else 'no exception'}"
    if _ledger_sum() != 0:
        return f"{status}: the ledger no longer sums to zero"
    if 400 <= status < 500:
        after = _counts()
        if after != before:
            kinds = [m.__name__ for m, a, b in zip(COUNTED, before, after, strict=False) if a != b]
            return f"{status} but it changed {kinds or ['ExportJob']}"
    return None


def _fuzz(route, urls, forms, allowed, client, cookies, statuses, problems) -> None:
    """``EXAMPLES`` hostile requests to one route, each in a savepoint rolled back after it."""

    @hypothesis_settings(
        max_examples=EXAMPLES,
        deadline=None,
        derandomize=True,
        database=None,
        phases=[Phase.explicit, Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(request=hostile_request(urls, forms, allowed))
    def fuzz(request):
        url, method, fields, encoding, htmx = request
        client.cookies = copy.deepcopy(cookies)
        with transaction.atomic():
            before = _counts()
            response = _send(client, url, method, fields, encoding, htmx)
            if getattr(response, "streaming", False):
                try:
                    b"".join(response.streaming_content)
                except Exception as error:  # noqa: BLE001 - a crash while streaming is a 500
                    response.status_code = 500
                    response.exc_info = (type(error), error, None)
            statuses[response.status_code] += 1
            problem = _problem(response, before)
            if problem:
                example = f"{method} {url[:60]} [{_short(fields)}]"
                problems.setdefault(f"{route} → {problem}", []).append(example)
            transaction.set_rollback(True)

    fuzz()


# --- the test --------------------------------------------------------------------------------


@pytest.fixture
def quiet_refusals():
    """Thousands of refusals are expected here: log only the errors."""
    names = ("django.request", "django.security", "axes")
    loggers = [logging.getLogger(name) for name in names]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(logging.ERROR)
    yield
    for logger, level in zip(loggers, levels, strict=True):
        logger.setLevel(level)


@pytest.mark.django_db
@pytest.mark.usefixtures("quiet_refusals")
def test_hostile_requests_get_a_clear_answer_and_a_refusal_changes_nothing(world):
    assert not django_settings.DEBUG  # the production error pages, not the debug ones
    client: Client = world["client"]
    urls = {route: _urls(route, names, world) for route, names in _routes() if route not in SKIPPED}
    forms, allowed = _read_forms(client, [u for route_urls in urls.values() for u in route_urls])
    cookies = copy.deepcopy(client.cookies)
    statuses: Counter[int] = Counter()
    problems: dict[str, list[str]] = {}  # what went wrong → the requests it happened to

    for route, route_urls in urls.items():
        _fuzz(route, route_urls, forms, allowed, client, cookies, statuses, problems)

    found = sum(len(examples) for examples in problems.values())
    print(  # noqa: T201 - the figures of a long run, shown with -s
        f"\nfuzz: {sum(statuses.values())} requests to {len(urls)} routes; "
        f"statuses {dict(sorted(statuses.items()))}; {found} problems of {len(problems)} kinds"
    )
    assert not problems, "\n".join(
        f"{len(examples)} × {cause}\n    e.g. {examples[0]}" for cause, examples in problems.items()
    )
