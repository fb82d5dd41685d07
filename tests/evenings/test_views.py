"""The evening's pages: check-in, tables, starting a game at a table, the board, closing and
tonight's settle-up with "paid"."""

from __future__ import annotations

from datetime import date

import pytest
from django.urls import reverse

import evenings
import ledger
from club.models import Role
from evenings.models import Attendee, Table
from ledger.models import Account, AccountKind, Source, Transaction
from scoring.models import Game
from tests.conftest import client_for
from tests.factories import make_club, make_member


@pytest.fixture
def evening(club):
    return evenings.open_evening(club, None)


@pytest.fixture
def players(club):
    return [make_member(club, name) for name in ("Anna", "Bo", "Cissi", "Doris")]


def url(name, club, *args):
    return reverse(f"evenings:{name}", args=[club.slug, *args])


def test_a_member_checks_himself_in_once(club, evening, member_client, member):
    evenings.save_options(club, None, fee_ore=1500)
    evening.fee_ore = 1500
    evening.save()
    page = member_client.get(url("detail", club, evening.pk))
    assert page.status_code == 200
    assert 'data-testid="im-here"' in page.content.decode()
    for _tap in range(2):
        assert (
            member_client.post(url("detail", club, evening.pk), {"action": "here"}).status_code
            == 302
        )
    assert Attendee.objects.filter(evening=evening, member=member).count() == 1
    assert ledger.member_account(member).balance_ore == -1500
    page = member_client.get(url("detail", club, evening.pk)).content.decode()
    assert 'data-testid="im-here"' not in page


def test_only_the_host_checks_in_others(club, evening, member_client, scorer_client, players):
    post = {"action": "check-in", "members": [players[0].pk]}
    assert member_client.post(url("detail", club, evening.pk), post).status_code == 403
    assert scorer_client.post(url("detail", club, evening.pk), post).status_code == 302
    guest = {"action": "check-in", "guest_name": "Gästen Greta"}
    assert scorer_client.post(url("detail", club, evening.pk), guest).status_code == 302
    assert sorted(a.name for a in evening.attendees.all()) == ["Anna", "Gästen Greta"]
    # Nobody ticked and no name: the form says so where it was filled in.
    page = scorer_client.post(url("detail", club, evening.pk), {"action": "check-in"})
    assert page.status_code == 422
    assert "Kryssa för dem som kom eller skriv en ny gästs namn." in page.content.decode()
    assert scorer_client.post(url("detail", club, evening.pk), {"action": "?"}).status_code == 400


def earlier_guests(club, *names_by_evening):
    """Evenings before tonight, each with its guests (by name)."""
    for day, names in enumerate(names_by_evening, start=1):
        earlier = evenings.open_evening(club, None, date=date(2020, 1, day))
        for name in names:
            evenings.check_in(earlier, None, guest_name=name)


def test_the_host_checks_in_everyone_at_once(club, evening, scorer_client, players):
    evenings.save_options(club, None, fee_ore=2000)
    evening.fee_ore = 2000
    evening.save()
    earlier_guests(club, ["Greta", "Olle"], ["Greta"])
    page = scorer_client.get(url("detail", club, evening.pk))
    form = page.context["check_in"]
    # Every member of the club, ticked or not, and the guests of earlier evenings.
    assert [box.choice_label for box, _here in form.member_choices()] == sorted(
        m.name for m in club.members.filter(active=True)
    )
    regulars = {box.choice_label: box.data["value"].value for box, _ in form.regular_choices()}
    assert sorted(regulars) == ["Greta", "Olle"]
    post = {
        "action": "check-in",
        "members": [m.pk for m in players],
        "regulars": [regulars["Greta"]],
        "guest_name": "Nya Nils",
    }
    answer = scorer_client.post(url("detail", club, evening.pk), post)
    assert answer.status_code == 302
    names = sorted(a.name for a in evening.attendees.all())
    assert names == sorted(["Anna", "Bo", "Cissi", "Doris", "Greta", "Nya Nils"])
    # The fee once per attendee: four members' and two guests' (paid at the door).
    assert Transaction.objects.filter(ref__startswith=f"{evening.ref}:fee:").count() == 6
    assert [ledger.member_account(m).balance_ore for m in players] == [-2000] * 4
    # The same post again (a double submit): nobody twice, no second fee.
    assert scorer_client.post(url("detail", club, evening.pk), post).status_code == 302
    assert evening.attendees.count() == 6
    assert Transaction.objects.filter(ref__startswith=f"{evening.ref}:fee:").count() == 6
    # Who is here is shown as here, not offered again.
    page = scorer_client.get(url("detail", club, evening.pk))
    form = page.context["check_in"]
    here = {box.choice_label for box, is_here in form.member_choices() if is_here}
    assert here == {"Anna", "Bo", "Cissi", "Doris"}
    assert {box.choice_label for box, is_here in form.regular_choices() if is_here} == {"Greta"}
    text = page.content.decode()
    for member in players:
        assert f'name="members" value="{member.pk}"' not in text
    assert f'name="regulars" value="{regulars["Olle"]}"' in text


def test_the_regulars_are_the_latest_twenty_guest_names(club, evening, scorer_client):
    earlier_guests(club, [f"Gäst {n}" for n in range(15)], [f"Gäst {n}" for n in range(10, 30)])
    form = scorer_client.get(url("detail", club, evening.pk)).context["check_in"]
    names = [box.choice_label for box, _here in form.regular_choices()]
    assert len(names) == 20
    assert set(names) == {f"Gäst {n}" for n in range(10, 30)}  # the latest evening's


@pytest.mark.parametrize(
    ("post", "refused"),
    [
        ({"members": ["{other}"]}, "members"),  # a member of another club
        ({"members": ["{anna}", "{other}"]}, "members"),  # one bad tick spoils the lot
        ({"members": ["999999"]}, "members"),  # no such member
        ({"members": ["9" * 40]}, "members"),
        ({"members": ["٣"]}, "members"),
        ({"members": ["{anna}"], "regulars": ["{anna_here}"]}, "regulars"),  # no earlier guest
        ({"regulars": ["{other_guest}"]}, "regulars"),  # another club's guest
        ({"guest_name": "   "}, "__all__"),  # an empty name, nobody ticked
        ({"guest_name": "x" * 101}, "guest_name"),
        ({"members": ["{anna}"], "guest_name": "Nul\x00"}, "guest_name"),
    ],
)
def test_a_hostile_check_in_changes_nothing(club, evening, scorer_client, players, post, refused):
    other = make_club()
    outsider = make_member(other, "Främling")
    abroad = evenings.open_evening(other, None, date=date(2020, 1, 1))
    other_guest = evenings.check_in(abroad, None, guest_name="Utländsk gäst")
    anna_here = evenings.check_in(evening, None, member=players[1])
    ids = {
        "other": outsider.pk,
        "anna": players[0].pk,
        "anna_here": anna_here.pk,
        "other_guest": other_guest.pk,
    }
    data = {
        key: [v.format(**ids) for v in value] if isinstance(value, list) else value
        for key, value in post.items()
    }
    before = (evening.attendees.count(), Transaction.objects.count())
    page = scorer_client.post(url("detail", club, evening.pk), {"action": "check-in", **data})
    assert page.status_code == 422
    assert list(page.context["check_in"].errors) == [refused]
    assert 'role="alert"' in page.content.decode()
    assert (evening.attendees.count(), Transaction.objects.count()) == before


def test_the_host_seats_a_table_and_starts_kille_there(club, evening, scorer_client, players):
    here = [evenings.check_in(evening, None, member=m) for m in players[:3]]
    post = {"action": "table", "game": "kille", "attendees": [a.pk for a in here]}
    assert scorer_client.post(url("detail", club, evening.pk), post).status_code == 302
    table = Table.objects.get(evening=evening)
    start = reverse("scoring:game-start", args=[club.slug, "kille"]) + f"?table={table.pk}"
    page = scorer_client.get(start)
    assert page.status_code == 200
    assert page.context["form"].initial["players"] == [m.pk for m in players[:3]]
    assert 'data-testid="start-table"' in page.content.decode()
    form = {
        "players": [m.pk for m in players[:3]],
        "order": ",".join(str(m.pk) for m in players[:3]),
        "table": table.pk,
        "submission": "start-1",
    }
    started = scorer_client.post(reverse("scoring:game-start", args=[club.slug, "kille"]), form)
    assert started.status_code == 302
    game = Game.objects.get()
    assert game.table == table
    assert game.pot_table == 1
    board = scorer_client.get(url("board", club, evening.pk), headers={"HX-Request": "true"})
    text = board.content.decode()
    assert 'data-testid="table-1"' in text
    assert "Anna, Bo, Cissi" in text
    assert reverse("scoring:game-detail", args=[club.slug, game.pk]) in text


@pytest.mark.parametrize("value", ["abc", "99999999999999999999999", "0"])
def test_a_start_at_a_table_that_is_not_there_is_a_404(club, scorer_client, value):
    start = reverse("scoring:game-start", args=[club.slug, "kille"]) + f"?table={value}"
    assert scorer_client.get(start).status_code == 404


def test_another_clubs_table_is_a_404(club, scorer_client):
    other = make_club()
    evening = evenings.open_evening(other, None)
    here = [evenings.check_in(evening, None, guest_name=n) for n in ("A", "B", "C")]
    (table,) = evenings.form_tables(evening, "kille", [here], None)
    start = reverse("scoring:game-start", args=[club.slug, "kille"]) + f"?table={table.pk}"
    assert scorer_client.get(start).status_code == 404


def test_the_draw_seats_everyone_not_yet_at_a_table(club, evening, scorer_client, players):
    for m in players:
        evenings.check_in(evening, None, member=m)
    post = {"action": "draw", "game": "whist"}
    assert scorer_client.post(url("detail", club, evening.pk), post).status_code == 302
    (table,) = Table.objects.filter(evening=evening)
    assert table.seats.count() == 4
    # Nobody left to seat: the refusal is read on the page, in view of the button.
    page = scorer_client.post(url("detail", club, evening.pk), post, follow=True)
    assert "Whist" in page.content.decode()


def test_the_big_screen_board(club, evening, member_client):
    page = member_client.get(url("board", club, evening.pk) + "?tv=1").content.decode()
    assert 'class="evening-board tv tv-f40 tv-tc1"' in page  # nobody yet: the largest type
    assert 'hx-trigger="every 5s, live"' in page


def test_closing_with_an_open_game_says_which_table(club, evening, scorer_client, players):
    here = [evenings.check_in(evening, None, member=m) for m in players[:3]]
    (table,) = evenings.form_tables(evening, "kille", [here], None)
    from scoring import games, recording

    recording.start_game(
        club,
        "kille",
        players[:3],
        None,
        setup=games.start_setup(club, "kille", 1),
        table=table,
    )
    page = scorer_client.post(url("close", club, evening.pk), follow=True)
    assert "bord 1" in page.content.decode()
    evening.refresh_from_db()
    assert evening.is_open


def test_tonights_settle_up_is_recorded_once_and_the_plan_shrinks(club, evening, scorer_client):
    anna, bo = make_member(club, "Anna"), make_member(club, "Bo")
    for m in (anna, bo):
        evenings.check_in(evening, None, member=m)
    ledger.post(
        club,
        [(ledger.member_account(anna), 700), (ledger.member_account(bo), -700)],
        "Kvällens spel",
        Source.EVENING,
        None,
        ref=f"{evening.ref}:test",
    )
    page = scorer_client.get(url("summary", club, evening.pk))
    rows = page.context["rows"]
    assert [(r["payment"].payer, r["payment"].payee, r["payment"].amount_ore) for r in rows] == [
        (f"member:{bo.pk}", f"member:{anna.pk}", 700)
    ]
    paid = {
        "payer": f"member:{bo.pk}",
        "payee": f"member:{anna.pk}",
        "amount_ore": 700,
        "submission": "abc-1",
    }
    for _tap in range(2):
        assert scorer_client.post(url("summary", club, evening.pk), paid).status_code == 302
    assert Transaction.objects.filter(ref=f"{evening.ref}:paid").count() == 1
    page = scorer_client.get(url("summary", club, evening.pk))
    assert page.context["rows"] == []
    assert 'data-testid="settled"' in page.content.decode()
    hostile = dict(paid, payer="treasury", submission="abc-2")
    assert scorer_client.post(url("summary", club, evening.pk), hostile).status_code == 400


def test_the_treasurer_records_tonights_payments_a_member_may_not(
    club, evening, treasurer, treasurer_client, member_client
):
    anna, bo = make_member(club, "Anna"), make_member(club, "Bo")
    for m in (anna, bo):
        evenings.check_in(evening, None, member=m)
    ledger.post(
        club,
        [(ledger.member_account(anna), 300), (ledger.member_account(bo), -300)],
        "Kvällens spel",
        Source.EVENING,
        None,
        ref=f"{evening.ref}:test",
    )
    assert not treasurer.can(Role.SCORER)
    page = treasurer_client.get(url("summary", club, evening.pk))
    assert page.context["is_host"]
    paid = {
        "payer": f"member:{bo.pk}",
        "payee": f"member:{anna.pk}",
        "amount_ore": 300,
        "submission": "t-1",
    }
    assert member_client.post(url("summary", club, evening.pk), paid).status_code == 403
    assert not Transaction.objects.filter(ref=f"{evening.ref}:paid").exists()
    assert treasurer_client.post(url("summary", club, evening.pk), paid).status_code == 302
    assert Transaction.objects.filter(ref=f"{evening.ref}:paid").count() == 1


def test_a_member_of_another_club_sees_nothing(club, evening, other_club):
    stranger = client_for(make_member(other_club, "Främling"))
    assert stranger.get(url("detail", club, evening.pk)).status_code == 404


def test_the_options_page_is_the_admins(club, admin_client_, member_client):
    assert member_client.get(url("options", club)).status_code == 403
    post = {"fee": "20", "fee_kind": "table", "pot_policy": "merge", "prize_percents": "60/40"}
    for wrong in ("60/50", "40/60", "fem/tio"):
        refused = admin_client_.post(url("options", club), dict(post, prize_percents=wrong))
        assert refused.status_code == 422
        assert f'value="{wrong}"' in refused.content.decode()  # kept for mending
    assert admin_client_.post(url("options", club), post).status_code == 302
    options = evenings.options_for(club)
    assert (options.fee_ore, options.pot_policy) == (2000, "merge")
    assert options.prize_percent_list() == (60, 40)
    evening = evenings.open_evening(club, None, date=date(2030, 1, 1))
    assert (evening.fee_ore, evening.pot_policy) == (2000, "merge")
    assert Account.objects.filter(club=club, kind=AccountKind.TREASURY).count() == 0


def test_a_table_seated_by_hand_sits_in_the_order_tapped(club, evening, scorer_client, players):
    here = [evenings.check_in(evening, None, member=m) for m in players[:3]]
    tapped = [here[2], here[0], here[1]]
    post = {
        "action": "table",
        "game": "kille",
        "attendees": [a.pk for a in here],
        "order": ",".join(str(a.pk) for a in tapped),
    }
    assert scorer_client.post(url("detail", club, evening.pk), post).status_code == 302
    table = Table.objects.get(evening=evening)
    assert [s.attendee_id for s in table.seats.order_by("position")] == [a.pk for a in tapped]


def test_the_board_asks_the_same_number_of_queries_for_one_table_or_three(club, scorer_client):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from scoring import games, recording

    def board_queries(tables: int) -> int:
        evening = evenings.open_evening(club, None, date=date(2030, 1, tables))
        people = [make_member(club, f"T{tables}-{n}") for n in range(3 * tables)]
        here = [evenings.check_in(evening, None, member=m) for m in people]
        groups = [here[3 * n : 3 * n + 3] for n in range(tables)]
        for table in evenings.form_tables(evening, "kille", groups, None):
            players = [s.attendee.member for s in table.seats.order_by("position")]
            setup = games.start_setup(club, "kille", table.number)
            recording.start_game(club, "kille", players, None, setup=setup, table=table)
        board = url("board", club, evening.pk)
        scorer_client.get(board, headers={"HX-Request": "true"})  # the session's first read
        with CaptureQueriesContext(connection) as queries:
            page = scorer_client.get(board, headers={"HX-Request": "true"})
        assert page.content.decode().count('data-testid="table-leader"') == tables
        return len(queries)

    assert board_queries(1) == board_queries(3)
