"""A member of club A gets 404 for every club-B page; anonymous users are sent to log in."""

from __future__ import annotations

import pytest
from django.urls import URLPattern, URLResolver, get_resolver, reverse

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
    assert {"club:club-home", "club:member-list", "scoring:play", "club:ledger"} <= names


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
