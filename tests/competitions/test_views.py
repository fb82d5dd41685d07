"""The competition pages (issue 29, item 5): the list and the admin's "announce" form, a
competition's page (entrants, the round's tables with their pads' links and QR codes, the
standings, the admin's start / next round / finish, the winners' card), the board and the start
page's panel; refusals in place (422) in both languages, other clubs' competitions 404, a double
tap acts once."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from competitions import results, running, tables
from competitions.models import Competition, Entrant, Kind, Round, Status
from tests.conftest import client_for
from tests.factories import make_member

pytestmark = pytest.mark.django_db


def list_url(club) -> str:
    return reverse("competitions:list", args=[club.slug])


def detail_url(competition) -> str:
    return reverse("competitions:detail", args=[competition.club.slug, competition.pk])


def board_url(competition) -> str:
    return reverse("competitions:board", args=[competition.club.slug, competition.pk])


ANNOUNCE = {
    "name": "Höstens cribbage",
    "kind": "swiss",
    "game_key": "cribbage",
    "rounds": "3",
    "skunks": "on",
    "entry_fee": "50",
    "prize_percents": "50/30/20",
    "starts_at": "",
    "submission": "k1",
}


def announced(club, by, **fields) -> Competition:
    kwargs = {"name": "Cribbage-Swiss", "kind": Kind.SWISS, "game_key": "cribbage", "rounds": 3}
    return running.announce(club, by.user, **(kwargs | fields))


def with_entrants(competition, members) -> list[Entrant]:
    return [running.enter(competition, None, member=m) for m in members]


def finish_round(round_: Round) -> None:
    """Every table of the round finished: the first seat wins 121 to 100."""
    for row in tables.round_view(round_):
        if row.is_bye:
            continue
        rows = [
            results.Row(entrant, 121 if place == 0 else 100, place + 1)
            for place, (entrant, _result) in enumerate(row.seats)
        ]
        results.record(row.table, f"game:test-{row.table.pk}", rows)


# --- the list and the announce form ----------------------------------------------------------


def test_a_member_sees_the_list_without_the_announce_form(club, member, admin_member):
    announced(club, admin_member, name="Vårens Swiss")
    page = client_for(member).get(list_url(club))
    assert page.status_code == 200
    text = page.content.decode()
    assert "Vårens Swiss" in text
    assert 'data-testid="announce-form"' not in text
    assert client_for(member).post(list_url(club), ANNOUNCE).status_code == 403
    assert Competition.objects.count() == 1


def test_an_admin_announces_a_cribbage_swiss_with_a_fee_and_prizes(club, admin_member):
    client = client_for(admin_member)
    assert 'data-testid="announce-form"' in client.get(list_url(club)).content.decode()
    response = client.post(list_url(club), ANNOUNCE | {"entry_fee": "50,00"})
    assert response.status_code == 302
    competition = Competition.objects.get()
    assert response.url == detail_url(competition)
    assert (competition.kind, competition.game_key, competition.rounds) == ("swiss", "cribbage", 3)
    assert competition.entry_fee_ore == 5000
    assert competition.prize_percents == [50, 30, 20]
    assert competition.skunks is True
    assert competition.status == Status.ANNOUNCED
    page = client.get(detail_url(competition)).content.decode()
    assert "Höstens cribbage" in page
    assert "50,00\xa0kr" in page


def test_a_double_tap_on_announce_announces_once(club, admin_member):
    client = client_for(admin_member)
    first = client.post(list_url(club), ANNOUNCE)
    second = client.post(list_url(club), ANNOUNCE)
    assert first.status_code == second.status_code == 302
    assert first.url == second.url
    assert Competition.objects.count() == 1


@pytest.mark.parametrize(
    ("fields", "swedish", "english"),
    [
        ({"prize_percents": "50/60"}, "110", "110"),
        ({"prize_percents": "femtio"}, "hela procent", "whole percentages"),
        ({"entry_fee": "-50"}, "negativt", "negative"),
        ({"entry_fee": "9" * 40}, "för stort", "too large"),
        ({"rounds": "9" * 5000}, "", ""),
        ({"rounds": ""}, "Hur många omgångar", "How many rounds"),
        ({"game_key": "poker"}, "poker", "poker"),
        ({"game_key": "whist"}, "inte ett spel för två", "not a game for two"),
        ({"kind": "knockout"}, "knockout", "knockout"),
        ({"name": ""}, "", ""),
        ({"name": "x" * 10_000}, "", ""),
        ({"name": "a\x00b"}, "", ""),
        ({"starts_at": "0001-01-01T00:00"}, "", ""),
        (
            {"kind": "championship", "game_key": "kille_elimination", "table_size": "9"},
            "2 till 6",
            "2 to 6",
        ),
        ({"game_key": "kille"}, "inte ett spel för två", "not a game for two"),
        ({"prize_percents": ""}, "prispotten", "prize pool"),
        ({"submission": ""}, "", ""),
    ],
)
def test_the_announce_form_refuses_in_place_in_both_languages(
    club, admin_member, fields, swedish, english
):
    client = client_for(admin_member)
    for language, words in (("sv", swedish), ("en", english)):
        response = client.post(list_url(club), ANNOUNCE | fields, HTTP_ACCEPT_LANGUAGE=language)
        assert response.status_code == 422, (fields, response.status_code)
        text = response.content.decode()
        assert 'role="alert"' in text
        assert words in text, (language, fields, text[text.find('role="alert"') - 200 :][:600])
        if fields.get("name", ANNOUNCE["name"]) == ANNOUNCE["name"]:
            assert 'value="Höstens cribbage"' in text  # nothing lost
    assert not Competition.objects.exists()


def test_a_round_robin_needs_no_rounds_and_a_championship_any_game(club, admin_member):
    client = client_for(admin_member)
    robin = ANNOUNCE | {"name": "Kasino runt", "kind": "round_robin", "game_key": "kasino"}
    assert client.post(list_url(club), robin | {"rounds": ""}).status_code == 302
    championship = ANNOUNCE | {
        "name": "Kille-SM",
        "kind": "championship",
        "game_key": "kille_elimination",
        "table_size": "5",
        "final_table_size": "5",
        "deals_per_round": "20",
        "submission": "k2",
    }
    assert client.post(list_url(club), championship).status_code == 302
    kille = Competition.objects.get(name="Kille-SM")
    assert kille.rounds == 3
    assert (kille.table_size, kille.final_table_size, kille.deals_per_round) == (5, 5, 20)
    assert kille.skunks is False  # not a cribbage option


def test_the_list_reads_the_same_few_queries_for_ten_competitions(
    club, admin_member, django_assert_max_num_queries
):
    client = client_for(admin_member)
    client.get(list_url(club))
    members = [make_member(club) for _ in range(4)]
    for n in range(10):
        competition = announced(club, admin_member, name=f"Tävling {n}")
        with_entrants(competition, members)
        if n % 3 == 0:
            running.start(competition, None)
    with django_assert_max_num_queries(12):
        page = client.get(list_url(club))
    assert page.content.decode().count('data-testid="competition-row"') == 10


# --- who sees what --------------------------------------------------------------------------


def test_another_clubs_competition_is_not_found(club, other_club, member, outsider):
    theirs = announced(other_club, outsider, name="Grannarnas")
    client = client_for(member)
    for url in (detail_url(theirs), board_url(theirs)):
        assert client.get(url).status_code == 404
    mine_url = reverse("competitions:detail", args=[club.slug, theirs.pk])
    assert client.get(mine_url).status_code == 404
    assert client.post(mine_url, {"action": "enter-me"}).status_code == 404
    assert not theirs.entrants.exists()
    assert client_for(outsider).get(list_url(club)).status_code == 404  # not his club


def test_the_pages_need_a_login(club, admin_member, client):
    competition = announced(club, admin_member)
    for url in (list_url(club), detail_url(competition), board_url(competition)):
        response = client.get(url)
        assert response.status_code == 302
        assert "/login/" in response.url


def test_a_member_may_enter_himself_but_not_run_the_competition(club, member, admin_member):
    competition = announced(club, admin_member)
    client = client_for(member)
    page = client.get(detail_url(competition)).content.decode()
    assert 'data-testid="enter-me"' in page
    assert 'data-testid="start-competition"' not in page
    assert client.post(detail_url(competition), {"action": "enter-me"}).status_code == 302
    assert client.post(detail_url(competition), {"action": "enter-me"}).status_code == 302
    assert competition.entrants.get().member == member  # the double tap entered once
    for action in ("start", "next-round", "finish", "enter"):
        response = client.post(detail_url(competition), {"action": action, "guest_name": "X"})
        assert response.status_code == 403, action
    competition.refresh_from_db()
    assert competition.status == Status.ANNOUNCED
    assert competition.entrants.count() == 1


def test_a_scorer_enters_a_member_and_a_guest_and_withdraws_one(club, scorer, admin_member):
    competition = announced(club, admin_member)
    other = make_member(club, "Olga Annan")
    client = client_for(scorer)
    url = detail_url(competition)
    assert client.post(url, {"action": "enter", "member": other.pk}).status_code == 302
    assert client.post(url, {"action": "enter", "guest_name": "Gäst Gunnar"}).status_code == 302
    assert client.post(url, {"action": "enter", "guest_name": "Gäst Gunnar"}).status_code == 302
    names = [e.name for e in competition.entrants.order_by("seed")]
    assert names == ["Olga Annan", "Gäst Gunnar"]
    page = client.get(url).content.decode()
    assert "Gäst Gunnar" in page
    refused = client.post(url, {"action": "enter"})
    assert refused.status_code == 422
    assert "Välj en medlem eller skriv en gästs namn" in refused.content.decode()
    for hostile in ("9" * 5000, "²", "-1", "\x00"):
        response = client.post(url, {"action": "enter", "member": hostile})
        assert response.status_code == 422, hostile
        response = client.post(url, {"action": "withdraw", "entrant": hostile})
        assert response.status_code in (404, 422), hostile
    assert competition.entrants.count() == 2
    guest = competition.entrants.get(member=None)
    assert client.post(url, {"action": "withdraw", "entrant": guest.pk}).status_code == 302
    assert client.post(url, {"action": "withdraw", "entrant": guest.pk}).status_code == 302
    guest.refresh_from_db()
    assert guest.dropped_after is not None or not competition.entrants.filter(pk=guest.pk)


def test_an_unknown_action_is_a_bad_request(club, admin_member):
    competition = announced(club, admin_member)
    response = client_for(admin_member).post(detail_url(competition), {"action": "explode"})
    assert response.status_code == 400


# --- running it -------------------------------------------------------------------------------


def test_the_admin_starts_and_the_page_shows_two_tables_with_their_links(club, admin_member):
    competition = announced(club, admin_member)
    players = [make_member(club, f"Spelare {n}") for n in range(4)]
    with_entrants(competition, players)
    client = client_for(admin_member)
    url = detail_url(competition)
    assert client.post(url, {"action": "start"}).status_code == 302
    assert client.post(url, {"action": "start"}).status_code == 302  # the double tap
    assert competition.round_set.count() == 1
    page = client.get(url).content.decode()
    assert 'data-testid="competition-table-1"' in page
    assert 'data-testid="competition-table-2"' in page
    assert page.count('data-testid="table-link"') == 2
    assert page.count("<svg") >= 2  # the QR codes
    assert "http://testserver/" in page  # the links are absolute: a QR code is read elsewhere
    assert 'data-testid="start-table-game"' in page  # the admin may start the games
    # The tables play: "Next round" waits and says why; a post anyway is refused in place.
    assert 'data-testid="waiting"' in page
    assert "2 av 2 bord spelar fortfarande." in page
    refused = client.post(url, {"action": "next-round", "round": "1"})
    assert refused.status_code == 422
    assert competition.round_set.count() == 1


def test_next_round_and_finish_act_once_and_the_results_card_shows_the_prizes(club, admin_member):
    competition = announced(
        club, admin_member, rounds=2, entry_fee_ore=5000, prize_percents=[70, 30]
    )
    players = [make_member(club, f"Spelare {n}") for n in range(4)]
    with_entrants(competition, players)
    client = client_for(admin_member)
    url = detail_url(competition)
    client.post(url, {"action": "start"})
    finish_round(running.current_round(competition))
    page = client.get(url).content.decode()
    assert 'data-testid="waiting"' not in page
    assert 'data-testid="standing"' in page
    for _tap in range(2):
        assert client.post(url, {"action": "next-round", "round": "1"}).status_code == 302
    assert competition.round_set.count() == 2
    earlier = client.get(url).content.decode()
    earlier = earlier[earlier.index('data-testid="earlier-rounds"') :]
    assert earlier.count('data-testid="earlier-table"') == 2  # round 1's two tables
    assert earlier.count("<strong>121</strong>") == 2  # and who won them
    finish_round(running.current_round(competition))
    for _tap in range(2):
        assert client.post(url, {"action": "finish"}).status_code == 302
    competition.refresh_from_db()
    assert competition.status == Status.FINISHED
    page = client.get(url).content.decode()
    assert 'data-testid="results-card"' in page
    # Round 1: the first seats won; round 2 put the two winners together (its first seat won
    # again) and the two losers (one won): 2-0 first, two on 1-1 with the same spread share
    # second place's 30 % (30 kr each).
    won = [(entrant.name, place, prize) for entrant, place, prize in tables.winners(competition)]
    assert [w[1:] for w in won] == [(1, 14000), (2, 3000), (2, 3000)]
    winners_card = page[page.index('data-testid="results-card"') :]
    assert winners_card.count("140,00\xa0kr") == 1  # 70 % of 4 × 50 kr
    assert winners_card.count("30,00\xa0kr") == 2
    assert "200,00\xa0kr" in winners_card  # the pool
    assert 'data-testid="enter-me"' not in page
    assert 'data-testid="table-qr"' not in page  # nothing is left to play


def test_the_board_answers_htmx_with_its_fragment(club, member, admin_member):
    competition = announced(club, admin_member)
    with_entrants(competition, [make_member(club) for _ in range(4)])
    running.start(competition, None)
    client = client_for(member)
    full = client.get(board_url(competition))
    assert full.status_code == 200
    assert "<html" in full.content.decode()
    assert "0 av 2 bord klara" in full.content.decode()
    fragment = client.get(board_url(competition), headers={"HX-Request": "true"})
    assert fragment.status_code == 200
    text = fragment.content.decode()
    assert "<html" not in text
    assert text.lstrip().startswith('<div id="board"')
    assert 'hx-trigger="every 5s"' in text
    tv = client.get(board_url(competition) + "?tv=1").content.decode()
    assert "evening-board tv tv-f" in tv


def test_the_start_page_shows_the_running_and_the_announced(club, member, admin_member):
    home = reverse("club:club-home", args=[club.slug])
    client = client_for(member)
    assert 'data-testid="competitions-link"' in client.get(home).content.decode()
    soon = announced(club, admin_member, name="Snart")
    under_way = announced(club, admin_member, name="Pågår")
    with_entrants(under_way, [make_member(club) for _ in range(4)])
    running.start(under_way, None)
    page = client.get(home).content.decode()
    assert "Snart" in page
    assert "Pågår" in page
    assert "omgång 1" in page
    assert 'data-testid="panel-enter"' in page
    response = client.post(detail_url(soon), {"action": "enter-me"})
    assert response.status_code == 302
    assert soon.entrants.filter(member=member).exists()
    assert "du är med" in client.get(home).content.decode()


def test_a_competitions_page_and_board_read_the_same_queries_for_4_or_16_entrants(
    club, admin_member
):
    client = client_for(admin_member)
    counts = []
    for size in (4, 16):
        competition = announced(club, admin_member, name=f"{size} spelare")
        with_entrants(competition, [make_member(club) for _ in range(size)])
        running.start(competition, None)
        finish_round(running.current_round(competition))
        for url in (detail_url(competition), board_url(competition)):
            client.get(url)
            with CaptureQueriesContext(connection) as queries:
                assert client.get(url).status_code == 200
            counts.append(len(queries))
    assert counts[:2] == counts[2:], counts


def test_a_championship_seats_its_final_table_and_shows_each_rounds_score(club, admin_member):
    competition = announced(
        club,
        admin_member,
        name="Stopp-SM",
        kind=Kind.CHAMPIONSHIP,
        game_key="stopp",
        rounds=2,
        table_size=4,
        final_table_size=3,
    )
    with_entrants(competition, [make_member(club, f"Spelare {n}") for n in range(8)])
    client = client_for(admin_member)
    url = detail_url(competition)
    client.post(url, {"action": "start"})
    round_1 = running.current_round(competition)
    assert [len(row.seats) for row in tables.round_view(round_1)] == [4, 4]
    for row in tables.round_view(round_1):
        rows = [
            results.Row(entrant, 40 - 10 * place, place + 1)
            for place, (entrant, _result) in enumerate(row.seats)
        ]
        results.record(row.table, f"game:test-{row.table.pk}", rows)
    page = client.get(url).content.decode()
    assert "Placera finalbordet" in page
    assert "O1" in page  # a column per round
    assert "Final" in page
    assert client.post(url, {"action": "next-round", "round": "1"}).status_code == 302
    final = running.current_round(competition)
    assert final.is_final
    page = client.get(url).content.decode()
    assert "Finalbordet" in page
    assert page.count('data-testid="seats"') == 1
    [row] = tables.round_view(final)
    assert len(row.seats) == 3
    rows = [
        results.Row(entrant, 30 - 10 * place, place + 1)
        for place, (entrant, _result) in enumerate(row.seats)
    ]
    results.record(row.table, f"game:test-{row.table.pk}", rows)
    assert client.post(url, {"action": "finish"}).status_code == 302
    page = client.get(url).content.decode()
    # No fee, no prizes: the card shows the standings' top three, the final table's order.
    card = page[
        page.index('data-testid="results-card"') : page.index(
            "</section>", page.index('data-testid="results-card"')
        )
    ]
    assert card.count('data-testid="winner"') == 3
    assert [e.name for e, _result in row.seats][0] in card
    assert 'data-testid="next-round"' not in page
    standings = page[page.index('data-testid="standings"') :]
    assert standings.count('<th scope="col" class="num">') >= 2  # round 1, total, final
    assert "O2" not in standings  # round 2 is the final: its own column


def test_a_member_withdraws_himself_but_nobody_else(club, member, admin_member):
    competition = announced(club, admin_member)
    other = make_member(club, "Olga Annan")
    mine, theirs = with_entrants(competition, [member, other])
    client = client_for(member)
    url = detail_url(competition)
    page = client.get(url).content.decode()
    assert page.count('data-testid="withdraw"') == 1  # his own row only
    assert client.post(url, {"action": "withdraw", "entrant": theirs.pk}).status_code == 403
    assert client.post(url, {"action": "withdraw", "entrant": mine.pk}).status_code == 302
    mine.refresh_from_db()
    theirs.refresh_from_db()
    assert mine.dropped_after is not None
    assert theirs.dropped_after is None
    assert 'data-testid="enter-me"' not in client.get(url).content.decode()
