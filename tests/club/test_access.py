"""A member of club A gets 404 for every club-B page; anonymous users are sent to log in."""

from __future__ import annotations

import re

import pytest
from django.urls import URLPattern, URLResolver, get_resolver, reverse

import ledger
from club.models import Role
from ledger import payments
from ledger.models import AccountKind
from scoring import recording
from tests.conftest import client_for
from tests.factories import make_member


def club_url_names() -> list[tuple[str, list[str]]]:
    """Every named route that takes a club_slug, with its other argument names."""
    found: list[tuple[str, list[str]]] = []

    def walk(patterns, namespace: str | None) -> None:
        for entry in patterns:
            if isinstance(entry, URLResolver):
                walk(entry.url_patterns, entry.namespace or namespace)
            elif isinstance(entry, URLPattern) and entry.name:
                params = list(entry.pattern.converters)
                if "club_slug" in params:
                    name = f"{namespace}:{entry.name}" if namespace else entry.name
                    found.append((name, [p for p in params if p != "club_slug"]))

    walk(get_resolver().url_patterns, None)
    return found


CLUB_URLS = club_url_names()


def test_the_walk_finds_the_club_pages():
    names = {name for name, _ in CLUB_URLS}
    assert {"club:club-home", "club:member-list", "scoring:play", "ledger:overview"} <= names


def url_in(club, target, name: str, params: list[str]) -> str:
    # Other ids are those of objects in the target club, so only the club decides access.
    kwargs = {"club_slug": club.slug}
    for param in params:
        kwargs[param] = target.pk if param == "member_id" else 1
    return reverse(name, kwargs=kwargs)


@pytest.mark.parametrize(("name", "params"), CLUB_URLS)
def test_a_member_of_another_club_gets_404_for_every_club_page(name, params, club, outsider):
    intruder = client_for(outsider)  # an admin of the other club, to be sure roles don't help
    url = url_in(club, make_member(club, login=False), name, params)
    statuses = {intruder.get(url).status_code, intruder.post(url).status_code}
    # 404 for the method the page takes; 405 for the other one, which reveals nothing either.
    assert 404 in statuses
    assert statuses <= {404, 405}


@pytest.mark.parametrize(("name", "params"), CLUB_URLS)
def test_an_anonymous_visitor_is_sent_to_log_in(name, params, client, club, member):
    url = url_in(club, member, name, params)
    response = client.get(url)
    if response.status_code == 405:
        response = client.post(url)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_a_member_sees_their_own_club(member_client, club):
    response = member_client.get(reverse("club:club-home", args=[club.slug]))
    assert response.status_code == 200
    assert club.name in response.content.decode()


def test_an_inactive_member_is_shut_out(member, member_client, club):
    member.active = False
    member.save()
    assert member_client.get(reverse("club:club-home", args=[club.slug])).status_code == 404


# --- one definition of who may do what ---------------------------------------------------------


def test_a_treasurer_is_not_a_scorer_and_an_admin_may_do_everything(
    member, scorer, treasurer, admin_member
):
    assert treasurer.can(Role.TREASURER)
    assert not treasurer.can(Role.SCORER)
    assert not treasurer.is_scorer
    assert scorer.is_scorer
    assert not scorer.is_treasurer
    assert all(admin_member.can(role) for role in Role)
    assert member.can(Role.MEMBER)
    assert not any(member.can(role) for role in (Role.SCORER, Role.TREASURER, Role.ADMIN))
    admin_member.active = False
    assert not any(admin_member.can(role) for role in Role)


@pytest.fixture
def stage(club):
    """Something for every button to act on: an open game, a manual transaction, a member
    without a login, the club's cash account."""
    players = [make_member(club, "Bo Spelare", login=False), make_member(club, "Cilla Spelare")]
    game = recording.start_game(club, "cribbage", players, None)
    cash = ledger.system_account(club, AccountKind.CASH)
    return {"club": club, "game": game, "cash": cash}


def _url(name: str, club, *args) -> str:
    return reverse(name, args=[club.slug, *args])


def _shown(page: str, url: str) -> bool:
    """Whether the page offers ``url`` as a link or a form's target."""
    return re.search(rf'(?:href|action|hx-get|hx-post)="{re.escape(url)}[?#"]', page) is not None


# (what, page it is offered on, where it leads, how it is used). ``transaction`` and ``guest``
# stand for the acting member's own transaction and a member without a login.
ACTIONS = [
    ("start a game", "scoring:play", ("scoring:game-start", "cribbage"), "get"),
    ("record at the table", "scoring:game-detail", ("scoring:game-event", "game"), "post"),
    ("void a game", "scoring:game-detail", ("scoring:game-void", "game"), "get"),
    ("record a payment", "ledger:overview", ("ledger:payment",), "get"),
    ("transfer", "ledger:overview", ("ledger:transfer",), "get"),
    ("settle up", "ledger:overview", ("ledger:settle",), "get"),
    ("close a period", "ledger:overview", ("ledger:periods",), "get"),
    ("membership fee", "ledger:overview", ("ledger:dues",), "get"),
    ("exports", "ledger:overview", ("ledger:export-list",), "get"),
    ("the club's cash", "ledger:overview", ("ledger:account", "cash"), "get"),
    ("reverse", "ledger:transaction", ("ledger:reverse", "transaction"), "post"),
    ("invite", "club:member-list", ("club:member-invite", "guest"), "post"),
    ("league settings", "league:standings", ("league:settings",), "get"),
    ("share the league", "league:standings", ("league:share",), "post"),
]
PAGE_ARGS = {"scoring:game-detail": "game", "ledger:transaction": "transaction"}


@pytest.mark.parametrize(
    "roles",
    [[], [Role.SCORER], [Role.TREASURER], [Role.SCORER, Role.TREASURER], [Role.ADMIN]],
    ids=["member", "scorer", "treasurer", "scorer+treasurer", "admin"],
)
def test_for_each_role_a_page_shows_exactly_the_actions_its_views_allow(stage, roles):
    club = stage["club"]
    me = make_member(club, "Jag", roles=roles)
    guest = make_member(club, "Gäst Utan Login", login=False)
    mine = payments.record_payment(club, "cash_in", 500, "", None, member=me)
    ids = {"game": stage["game"].pk, "cash": stage["cash"].pk, "transaction": mine.pk}
    ids["guest"] = guest.pk
    client = client_for(me)
    pages: dict[str, str] = {}
    shown, allowed = {}, {}
    for what, page_name, (target, *args), method in ACTIONS:
        if page_name not in pages:
            page_args = [ids[PAGE_ARGS[page_name]]] if page_name in PAGE_ARGS else []
            response = client.get(_url(page_name, club, *page_args))
            assert response.status_code == 200, page_name
            pages[page_name] = response.content.decode()
        url = _url(target, club, *(ids.get(a, a) for a in args))
        shown[what] = _shown(pages[page_name], url)
        # Refused for the role: 403 (or 404 where what exists is itself not shown). Anything
        # else (a page, a form error, a stale pad's 409) means the role got through.
        status = getattr(client, method)(url).status_code
        allowed[what] = status not in (403, 404)
    assert shown == allowed
    # And the roles do decide something: a plain member is offered none of it, an admin all.
    if not roles:
        assert not any(shown.values())
    if roles == [Role.ADMIN]:
        assert all(shown.values())
    assert shown["record at the table"] == (Role.SCORER in roles or Role.ADMIN in roles)
