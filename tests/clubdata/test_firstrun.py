"""The first-run guide on a new club's start page: each step ticks off as the club does it, and
the whole list goes away when all are done."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

import evenings
import ledger
from club.models import Member, Role, Season, User
from clubdata import firstrun, founding
from ledger.models import AccountKind, Source
from tests.conftest import client_for
from tests.factories import PASSWORD, make_member

# Also on SQLite (tests/conftest.py): a new club's first steps on the embedded default.
pytestmark = pytest.mark.sqlite


@pytest.fixture
def founder(db):
    return User.objects.create_user("anna", password=PASSWORD)


@pytest.fixture
def new_club(founder):
    return founding.found_club(founder, "Kille i Kungsholmen")


@pytest.fixture
def founder_client(founder):
    client = Client()
    client.force_login(founder, backend="django.contrib.auth.backends.ModelBackend")
    return client


def checklist(client: Client, club) -> dict[str, str] | None:
    """Each step's key and state ("yes"/"no" done) as the start page shows it, or None."""
    response = client.get(reverse("club:club-home", args=[club.slug]))
    assert response.status_code == 200
    html = response.content.decode()
    if 'data-testid="firstrun"' not in html:
        return None
    return {
        key: html.split(f'data-step="{key}" data-done="', 1)[1][:3].strip('"')
        for key in ("members", "opening", "season", "invites", "evening")
    }


def post_opening(club, founder_member: Member) -> None:
    ledger.post(
        club,
        [
            (ledger.member_account(founder_member), -5000),
            (ledger.system_account(club, AccountKind.OPENING), 5000),
        ],
        "Opening balances",
        Source.OPENING,
        None,
    )


def test_a_new_club_shows_every_step_undone_with_links_for_its_admin(new_club, founder_client):
    assert checklist(founder_client, new_club) == dict.fromkeys(
        ("members", "opening", "season", "invites", "evening"), "no"
    )
    html = founder_client.get(reverse("club:club-home", args=[new_club.slug])).content.decode()
    for name in ("club:member-list", "league:settings", "evenings:list"):
        assert f'href="{reverse(name, args=[new_club.slug])}"' in html


def test_the_steps_tick_off_one_by_one_and_the_list_goes_away(new_club, founder, founder_client):
    founder_member = Member.objects.get(club=new_club, user=founder)
    bo = make_member(new_club, "Bo Ek", login=False)
    assert checklist(founder_client, new_club) == {
        "members": "yes", "opening": "no", "season": "no", "invites": "no", "evening": "no",
    }  # fmt: skip
    bo.new_invite()
    assert checklist(founder_client, new_club)["invites"] == "yes"
    Season.objects.create(club=new_club, name="Hösten", start="2026-08-01", end="2026-12-31")
    assert checklist(founder_client, new_club)["season"] == "yes"
    post_opening(new_club, founder_member)
    assert checklist(founder_client, new_club) == {
        "members": "yes", "opening": "yes", "season": "yes", "invites": "yes", "evening": "no",
    }  # fmt: skip
    evenings.open_evening(new_club, founder)
    assert checklist(founder_client, new_club) is None


def test_a_member_with_a_login_counts_as_let_in(new_club, founder_client):
    make_member(new_club, "Cilla Ros", login=True)
    assert checklist(founder_client, new_club)["invites"] == "yes"


def test_plain_members_and_scorers_never_see_it(new_club):
    for roles in ((), (Role.SCORER,)):
        person = make_member(new_club, roles=roles)
        assert checklist(client_for(person), new_club) is None


def test_a_treasurer_sees_it_with_links_only_to_the_pages_his_role_opens(new_club):
    treasurer = make_member(new_club, "Kerstin Kassör", roles=[Role.TREASURER])
    client = client_for(treasurer)
    assert checklist(client, new_club) is not None
    html = client.get(reverse("club:club-home", args=[new_club.slug])).content.decode()
    assert f'href="{reverse("league:settings", args=[new_club.slug])}"' not in html
    assert f'href="{reverse("evenings:list", args=[new_club.slug])}"' in html


def test_the_opening_step_links_to_the_opening_page_once_it_exists(new_club, founder):
    try:
        url = reverse("ledger:opening", args=[new_club.slug])
    except Exception:  # noqa: BLE001 - the opening page is another part's, maybe not yet in
        url = None
    member = Member.objects.get(club=new_club, user=founder)
    opening = next(s for s in firstrun.steps(new_club, member) if s.key == "opening")
    assert opening.url == url


def test_it_costs_two_queries_and_nothing_for_a_plain_member(
    new_club, founder, rf, django_assert_num_queries
):
    with django_assert_num_queries(2):
        firstrun.progress(new_club)
    plain = make_member(new_club, "Maja Medlem")
    request = rf.get("/")
    request.club, request.member = new_club, Member.objects.get(pk=plain.pk)
    request.member.roles  # noqa: B018 - as club_view loads them, before counting
    with django_assert_num_queries(0):
        assert firstrun.panel(request) == {"firstrun": None}


def test_an_established_club_sees_nothing(club, admin_member, admin_client_):
    make_member(club, "Bo Ek")
    Season.objects.create(club=club, name="Våren", start="2026-01-01", end="2026-06-30")
    post_opening(club, admin_member)
    evenings.open_evening(club, admin_member.user)
    assert checklist(admin_client_, club) is None
