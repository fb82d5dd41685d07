"""Every route that answers GET answers HEAD the same way (monitors, link checkers and proxies
send HEAD): the test walks the URL resolver, fills each path parameter with a real object of a
small club, and asks as a signed-in member who holds every role."""

from __future__ import annotations

from datetime import date

import pytest
from django.contrib.auth.tokens import default_token_generator
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

import evenings
import ledger
from club.models import Club, Role
from club.seasons import current_season
from evenings import table_links
from ledger import exports, season_statements
from ledger.models import AccountKind, Source
from notices.mail import unsubscribe_token
from scoring import guest, recording
from tests.conftest import client_for
from tests.factories import make_member
from week import feed

# Also on SQLite (tests/conftest.py): every page once.
pytestmark = [pytest.mark.sqlite, pytest.mark.django_db]


def routes(patterns=None, namespace: str | None = None):
    """(view name, parameter names) for every named route outside Django's admin."""
    for pattern in get_resolver().url_patterns if patterns is None else patterns:
        if isinstance(pattern, URLResolver):
            inner = pattern.namespace or namespace
            if inner != "admin":  # Django's own class-based views; they answer HEAD themselves
                yield from routes(pattern.url_patterns, inner)
        elif isinstance(pattern, URLPattern) and pattern.name:
            name = f"{namespace}:{pattern.name}" if namespace else pattern.name
            yield name, list(pattern.pattern.converters)


@pytest.fixture
def small_club(club):
    boss = make_member(club, "Bodil Bas", roles=[Role.ADMIN, Role.TREASURER, Role.SCORER])
    other = make_member(club, "Olof Annan")
    invited = make_member(club, "Inga Inbjuden", login=False)
    cash = ledger.system_account(club, AccountKind.CASH)
    own = ledger.member_account(other)
    tx = ledger.post(club, ledger.legs_for_transfer(cash, own, 5000), "Insats", Source.MANUAL, None)
    period = ledger.close_period(club, "2025", date(2025, 1, 1), date(2025, 12, 31), None)
    game = recording.start_game(club, "cribbage", [boss, other], boss.user)
    job = exports.start_season_statement(club, current_season(club), None, None, "sv")
    season_statements.build_season_statement(job.pk)
    evening = evenings.open_evening(club, None)
    table = evenings.form_tables(
        evening,
        "cribbage",
        [[evenings.check_in(evening, None, member=m) for m in (boss, other)]],
        None,
    )[0]
    _, guest_token = guest.create_pass(game, boss.user)
    Club.objects.filter(pk=club.pk).update(league_share_token="en-delad-ligatabell-for-alla")
    user = boss.user
    # A competition under way (issue 29): its pages, and a table's pad link (scoring).
    from competitions import running as competitions

    cup = competitions.announce(club, None, name="Cup", kind="swiss", game_key="cribbage", rounds=1)
    for entrant in (boss, other):
        competitions.enter(cup, None, member=entrant)
    cup_table = competitions.start(cup, None).tables.get()
    return {
        "competition_id": cup.pk,
        "table_id": cup_table.pk,
        "client": client_for(boss),
        "club_slug": club.slug,
        "game_key": "cribbage",
        "game_id": game.pk,
        "tx_id": tx.pk,
        "account_id": own.pk,
        "period_id": period.pk,
        "member_id": other.pk,
        "job_id": job.pk,
        "evening_id": evening.pk,
        "kind": "cribbage:29:hand",  # honours:prize (issue 29)
        "uidb64": urlsafe_base64_encode(force_bytes(user.pk)),
        "token": {
            "invite-accept": invited.new_invite(),
            "league:shared": "en-delad-ligatabell-for-alla",
            "password-reset-confirm": default_token_generator.make_token(user),
            "notices:unsubscribe": unsubscribe_token(other, "report"),
            "week:calendar": feed.new_token(other),
            "scoring:table-follow": table_links.token_for(table),
            "scoring:table-follow-poll": table_links.token_for(table),
            "scoring:guest-pad": guest_token,
            "scoring:guest-poll": guest_token,
            "scoring:guest-event": guest_token,
        },
    }


def test_every_get_route_answers_head(small_club):
    client = small_club["client"]
    asked = 0
    for name, parameters in routes():
        kwargs = {}
        for parameter in parameters:
            value = small_club[parameter]
            kwargs[parameter] = value[name] if isinstance(value, dict) else value
        head = client.head(reverse(name, kwargs=kwargs))
        if head.status_code == 405:
            # Refused: only right for a route that does not answer GET either.
            assert "GET" not in head["Allow"], (name, head["Allow"])
            continue
        assert head.status_code < 500, (name, head.status_code)
        body = b"".join(head.streaming_content) if head.streaming else head.content
        assert body == b"", name
        asked += 1
    # The walk found the pages, not just a few: pads, the books, exports, the league, logins.
    assert asked >= 40


def test_healthz_answers_head(client):
    response = client.head(reverse("healthz"))
    assert response.status_code in (200, 503)
    assert response.content == b""
