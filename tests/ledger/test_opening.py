"""Opening the books from paper (``ledger.opening``, the treasurer's "Opening balances" page):
the Kille tin, two open Polskt pass betar, members' debts and the cash box posted as one
balanced, keyed, audited transaction against the opening equity; once per club, corrected by
reversal; shown as such on statements; and the games play from it with the books green."""

from __future__ import annotations

import html
import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

import evenings
import ledger
from club.models import Role
from ledger import opening as books
from ledger import statements
from ledger.models import Account, AccountKind, AuditRecord, Source, Transaction
from scoring import games, recording
from tests.concurrency import at_once, postgres_only
from tests.conftest import client_for
from tests.evenings.test_evenings import evening_with, start_at, tap
from tests.factories import make_club, make_member

KR = 100


@pytest.fixture
def people(club):
    names = ("Anna Berg", "Bertil Ek", "Cecilia Lund", "David Ås", "Erik Holm")
    return {name.split()[0].lower(): make_member(club, name) for name in names}


def paper_books(club, people, day=None) -> books.Opening:
    """The worked example: the Kille tin holds 340 kr; Anna's bet of 40 kr and Bertil's of
    25 kr are open; Cecilia owes 120 kr, David 35,50 kr; the club owes Erik 60 kr; the box holds
    1 000 kr (tin and betar included). Net worth: 1 000 − 340 − 65 + 120 + 35,50 − 60 = 690,50."""
    return books.Opening(
        date=day or timezone.localdate() - timedelta(days=10),
        pots={"kille": 340 * KR},
        bets=[
            books.OpeningBet("polskt_pass", 40 * KR, people["anna"]),
            books.OpeningBet("polskt_pass", 25 * KR, people["bertil"]),
        ],
        members=[
            (people["cecilia"], -120 * KR),
            (people["david"], -3550),
            (people["erik"], 60 * KR),
        ],
        cash_ore=1000 * KR,
    )


def balance(club, key) -> int:
    account = Account.objects.filter(club=club, key=key).first()
    return account.balance_ore if account else 0


def form_data(people, **extra) -> dict:
    data = {
        "submission": "first-tap",
        "date": (timezone.localdate() - timedelta(days=10)).isoformat(),
        "pot_kille": "340",
        "bet1_game": "polskt_pass",
        "bet1_amount": "40",
        "bet1_owner": people["anna"].pk,
        "bet2_game": "polskt_pass",
        "bet2_amount": "25 kr",
        "bet2_owner": people["bertil"].pk,
        f"member_{people['cecilia'].pk}": "-120",
        f"member_{people['david'].pk}": "−35,50",
        f"member_{people['erik'].pk}": "60",
        "cash": "1 000",
    }
    return data | extra


def page(club) -> str:
    return reverse("ledger:opening", args=[club.slug])


# --- the worked example ------------------------------------------------------------------------


def test_the_paper_books_are_one_balanced_keyed_audited_transaction(club, people, treasurer):
    opening = paper_books(club, people)
    assert opening.equity_ore == 69050  # worked by hand in ``paper_books``
    tx, posted = books.open_books(club, opening, treasurer.user, submission="x")
    assert posted
    assert (tx.source, tx.key, tx.date) == (Source.OPENING, "opening", opening.date)
    assert sum(e.amount_ore for e in tx.entries.all()) == 0
    assert balance(club, "pot:kille") == 34000
    assert balance(club, "bet:polskt_pass:1") == 4000
    assert balance(club, "bet:polskt_pass:2") == 2500
    assert Account.objects.get(key="bet:polskt_pass:1").member == people["anna"]
    assert Account.objects.get(key="bet:polskt_pass:2").member == people["bertil"]
    assert ledger.member_account(people["cecilia"]).balance_ore == -12000
    assert ledger.member_account(people["david"]).balance_ore == -3550
    assert ledger.member_account(people["erik"]).balance_ore == 6000
    assert balance(club, "cash") == -100000  # the box holds 1 000 kr (debit-normal)
    equity = Account.objects.get(club=club, key="opening")
    assert (equity.kind, equity.balance_ore, equity.label) == (
        AccountKind.OPENING,
        69050,
        "Ingående balanser",
    )
    assert AuditRecord.objects.filter(transaction=tx, action="post").count() == 1
    assert ledger.verify_books(club) == []


def test_a_treasury_figure_comes_out_of_the_equity(club, people, treasurer):
    opening = paper_books(club, people)
    opening.treasury_ore = 500 * KR
    tx, _posted = books.open_books(club, opening, treasurer.user)
    assert balance(club, "treasury") == 50000
    assert balance(club, "opening") == 69050 - 50000
    assert sum(e.amount_ore for e in tx.entries.all()) == 0


def test_the_page_confirms_the_whole_opening_then_posts_it_once(club, people, treasurer):
    client = client_for(treasurer)
    form = client.get(page(club))
    assert form.status_code == 200
    assert 'name="pot_kille"' in form.content.decode()
    confirm = client.post(page(club), form_data(people))
    text = confirm.content.decode()
    assert confirm.status_code == 200
    assert 'data-testid="opening-confirm"' in text
    assert "340,00\u00a0kr" in text
    assert "−35,50\u00a0kr" in text
    assert "690,50\u00a0kr" in text  # the club's net worth
    assert not Transaction.objects.filter(club=club).exists()  # nothing posted yet

    # "Post the opening" sends what the confirmation carries, nothing else.
    carried = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', text))
    assert carried["pot_kille"] == "340"
    posted = client.post(
        page(club), {k: html.unescape(v) for k, v in carried.items()} | {"post": "1"}
    )
    assert posted.status_code == 302
    again = client.post(page(club), form_data(people, post="1"))  # the double tap
    assert again.status_code == 302
    assert Transaction.objects.filter(club=club, source=Source.OPENING).count() == 1
    assert balance(club, "opening") == 69050
    shown = client.get(page(club)).content.decode()
    assert 'data-testid="opening-standing"' in shown
    assert 'data-testid="opening-reverse"' in shown
    assert 'name="pot_kille"' not in shown


def test_only_a_treasurer_opens_the_books_and_only_of_his_club(club, people, member, outsider):
    assert client_for(member).get(page(club)).status_code == 403
    assert client_for(outsider).get(page(club)).status_code == 404
    assert client_for(member).post(page(club), form_data(people, post="1")).status_code == 403
    assert not Transaction.objects.exists()


def test_the_overview_links_the_page_for_treasurers(club, treasurer, member):
    overview = reverse("ledger:overview", args=[club.slug])
    assert page(club) in client_for(treasurer).get(overview).content.decode()
    assert page(club) not in client_for(member).get(overview).content.decode()


# --- once per club, corrected by reversal ----------------------------------------------------


def test_a_second_opening_is_refused_while_the_first_stands(club, people, treasurer):
    books.open_books(club, paper_books(club, people), treasurer.user, submission="a")
    with pytest.raises(ledger.LedgerError) as refusal:
        books.open_books(club, paper_books(club, people), treasurer.user, submission="b")
    assert refusal.value.code == "opened"
    other = make_member(club, "Tove Kassör", roles=[Role.TREASURER])
    response = client_for(other).post(page(club), form_data(people, submission="b", post="1"))
    assert response.status_code == 409
    assert 'data-testid="opening-standing"' in response.content.decode()
    assert Transaction.objects.filter(club=club, source=Source.OPENING).count() == 1
    assert balance(club, "pot:kille") == 34000


def test_after_its_reversal_a_corrected_opening_is_posted_under_a_new_key(club, people, treasurer):
    first, _posted = books.open_books(club, paper_books(club, people), treasurer.user)
    client = client_for(treasurer)
    reversed_ = client.post(
        reverse("ledger:reverse", args=[club.slug, first.pk]), {"reason": "Fel i burken"}
    )
    assert reversed_.status_code == 302
    assert balance(club, "pot:kille") == balance(club, "opening") == 0
    assert 'name="pot_kille"' in client.get(page(club)).content.decode()  # offered again

    response = client.post(page(club), form_data(people, pot_kille="350", post="1"))
    assert response.status_code == 302
    second = books.standing_opening(club)
    assert second.key == "opening:2"
    assert balance(club, "pot:kille") == 35000
    # The betar get the next free numbers, in the order entered.
    assert (balance(club, "bet:polskt_pass:3"), balance(club, "bet:polskt_pass:4")) == (4000, 2500)
    assert games.start_setup(club, "polskt_pass")["next_bet_id"] == 5


def test_an_opening_the_games_have_played_from_can_no_longer_be_reversed(club, people, treasurer):
    tx, _posted = books.open_books(club, paper_books(club, people), treasurer.user)
    players = [people["anna"], people["bertil"], people["erik"]]
    game = recording.start_game(
        club, "kille", players, None, setup=games.start_setup(club, "kille")
    )
    tap(game, "bud", player="s1")  # a budrunda: 1 kr each into the tin
    tap(game, "bud", player="s2")
    tap(game, "bud", player="s0")
    assert balance(club, "pot:kille") == 34300
    assert books.reversal_refusal(tx)
    with pytest.raises(ledger.LedgerError) as refusal:
        ledger.reverse(tx, "Fel", treasurer.user)
    assert refusal.value.code == "opening_played"
    response = client_for(treasurer).post(
        reverse("ledger:reverse", args=[club.slug, tx.pk]), {"reason": "Fel"}
    )
    assert response.status_code == 422
    assert not Transaction.objects.filter(reverses=tx).exists()
    shown = client_for(treasurer).get(page(club)).content.decode()
    assert 'data-testid="opening-not-reversible"' in shown
    assert 'data-testid="opening-reverse"' not in shown


def test_an_opening_reversed_before_play_leaves_nothing_behind(club, people, treasurer):
    tx, _posted = books.open_books(club, paper_books(club, people), treasurer.user)
    payment = ledger.post(
        club,
        [
            (ledger.member_account(people["cecilia"]), 5000),
            (ledger.system_account(club, "cash"), -5000),
        ],
        "Cecilia betalar",
        Source.MANUAL,
        None,
    )
    assert books.reversal_refusal(tx) is None  # a member's payment is no game
    ledger.reverse(tx, "Fel datum", treasurer.user)
    assert balance(club, "pot:kille") == 0
    assert ledger.member_account(people["cecilia"]).balance_ore == 5000
    assert payment.pk


# --- dates and hostile input -------------------------------------------------------------------


def test_a_future_date_or_one_in_a_closed_period_is_refused(club, people, treasurer):
    today = timezone.localdate()
    with pytest.raises(ledger.LedgerError) as future:
        books.open_books(club, paper_books(club, people, today + timedelta(days=1)), None)
    assert future.value.code == "future_date"
    ledger.close_period(
        club, "Förra året", today - timedelta(days=60), today - timedelta(days=30), None
    )
    with pytest.raises(ledger.LedgerError) as closed:
        books.open_books(club, paper_books(club, people, today - timedelta(days=40)), None)
    assert closed.value.code == "closed_period"
    client = client_for(treasurer)
    for day in (today + timedelta(days=1), today - timedelta(days=40)):
        response = client.post(page(club), form_data(people, date=day.isoformat(), post="1"))
        assert response.status_code == 422
    assert not Transaction.objects.filter(source=Source.OPENING).exists()


@pytest.mark.parametrize(
    "hostile",
    [
        {"pot_kille": "-340"},
        {"pot_kille": "1e9"},
        {"pot_kille": "NaN"},
        {"pot_kille": "12,345"},
        {"pot_kille": "9" * 200},
        {"pot_kille": "99999999999999"},
        {"pot_kille": "1000001"},  # above the instance's ceiling of 1 000 000 kr
        {"cash": "-5"},
        {"cash": "\x00"},
        {"bet1_owner": ""},  # a bet nobody put in
        {"bet1_owner": "99999999999999999999999"},
        {"bet1_game": "cribbage"},
        {"bet1_amount": "0"},
        {"date": "2026-02-30"},
        {"date": "1000-01-01"},
        {"submission": ""},
    ],
)
def test_hostile_input_is_refused_and_nothing_posted(club, people, treasurer, hostile):
    response = client_for(treasurer).post(page(club), form_data(people, post="1") | hostile)
    assert response.status_code == 422
    assert not Transaction.objects.exists()


def test_the_clubs_own_ceiling_and_another_clubs_member_are_refused(club, people, treasurer):
    client = client_for(treasurer)
    stranger = make_member(make_club(), "Olle Främling")
    response = client.post(page(club), form_data(people, bet1_owner=stranger.pk, post="1"))
    assert response.status_code == 422
    club.max_amount_ore = 500 * KR
    club.save()
    response = client.post(page(club), form_data(people, post="1"))
    assert response.status_code == 422  # the cash box's 1 000 kr is above 500 kr
    # Each line fits, but the net worth (0 − 340 − 65 + 120 + 35,50 − 400 = −649,50) does not.
    owed = {f"member_{people['erik'].pk}": "400", "cash": ""}
    response = client.post(page(club), form_data(people, post="1") | owed)
    assert response.status_code == 422
    assert "649,50" in response.content.decode()
    assert not Transaction.objects.exists()


def test_a_foreign_member_is_refused_by_the_service_too(club, people):
    opening = paper_books(club, people)
    opening.members.append((make_member(make_club(), "Olle Främling"), -100))
    with pytest.raises(ledger.LedgerError) as refusal:
        books.open_books(club, opening, None)
    assert refusal.value.code == "foreign"


# --- statements --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("sv", "Ingående balans (från pappersböckerna)"),
        ("en", "Opening balance (from the paper books)"),
    ],
)
def test_statements_show_the_opening_as_such(club, people, treasurer, language, words):
    opening = paper_books(club, people)
    tx, _posted = books.open_books(club, opening, treasurer.user)
    cecilia = client_for(people["cecilia"])
    cecilia.cookies["django_language"] = language
    own = ledger.member_account(people["cecilia"])
    statement = cecilia.get(reverse("ledger:account", args=[club.slug, own.pk])).content.decode()
    assert words in statement
    pot = Account.objects.get(club=club, key="pot:kille")
    client = client_for(treasurer)
    client.cookies["django_language"] = language
    for url in (
        reverse("ledger:account", args=[club.slug, pot.pk]),
        reverse("ledger:transaction", args=[club.slug, tx.pk]),
    ):
        assert words in client.get(url).content.decode(), url
    lines = statements.statement_lines(ledger.statement(own))
    assert [line.source for line in lines] == [Source.OPENING]


# --- the games play from it ------------------------------------------------------------------


def test_a_kille_game_started_after_the_opening_plays_from_the_tins_340_kr(club, people):
    books.open_books(club, paper_books(club, people), None)
    players = [people["anna"], people["bertil"], people["erik"]]
    game = recording.start_game(
        club, "kille", players, None, setup=games.start_setup(club, "kille")
    )
    assert game.setup["pot_ore"] == game.snapshot["pot_ore"] == 34000
    for seat in ("s1", "s2", "s0"):  # a budrunda: 1 kr each into the tin
        tap(game, "bud", player=seat)
    assert balance(club, "pot:kille") == 34300
    assert ledger.verify_books(club) == []


def test_at_a_club_evening_the_kille_table_plays_from_the_tins_340_kr(club, people):
    books.open_books(club, paper_books(club, people), None)
    evening, here = evening_with(club, list(people.values())[:3])
    (table,) = evenings.form_tables(evening, "kille", [here], None)
    assert balance(club, "pot:kille:1") == 34000
    game = start_at(table)
    assert game.setup["pot_ore"] == 34000
    assert ledger.verify_books(club) == []


def test_a_polskt_pass_game_sees_the_two_open_betar_with_their_owners(club, people):
    books.open_books(club, paper_books(club, people), None)
    setup = games.start_setup(club, "polskt_pass")
    assert [(b["id"], b["amount_ore"]) for b in setup["betar"]] == [(1, 4000), (2, 2500)]
    assert setup["next_bet_id"] == 3
    assert books.bet_owners(club, "polskt_pass") == {1: ["Anna Berg"], 2: ["Bertil Ek"]}
    assert [b["owners"] for b in setup["betar"]] == [["Anna Berg"], ["Bertil Ek"]]
    players = [people["cecilia"], people["david"], people["erik"]]
    game = recording.start_game(club, "polskt_pass", players, None, setup=setup)
    assert [(b["id"], b["amount_ore"]) for b in game.snapshot["betar"]] == [(1, 4000), (2, 2500)]
    assert ledger.verify_books(club) == []


@pytest.mark.books_tampered
def test_the_books_check_still_names_a_pot_filled_by_hand(club, people):
    books.open_books(club, paper_books(club, people), None)
    pot = ledger.game_pot(club, "kille")
    ledger.post(
        club, [(pot, 100), (ledger.system_account(club, "cash"), -100)], "x", "manual", None
    )
    assert any("pot:kille" in problem for problem in ledger.verify_books(club))


# --- two treasurers at once --------------------------------------------------------------------


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_treasurers_opening_at_once_post_one():
    postgres_only()
    club = make_club()
    people = {
        name.lower(): make_member(club, name)
        for name in ("Anna", "Bertil", "Cecilia", "David", "Erik")
    }
    kerstin = make_member(club, "Kerstin", roles=[Role.TREASURER])
    tove = make_member(club, "Tove", roles=[Role.TREASURER])

    def treasurer(who) -> int:
        client = client_for(who)
        client.raise_request_exception = False
        data = form_data(people, submission=f"tap-{who.pk}", post="1")
        return client.post(page(club), data).status_code

    statuses = sorted(at_once(treasurer, [kerstin, tove]))
    assert statuses == [302, 409]
    assert Transaction.objects.filter(club=club, source=Source.OPENING).count() == 1
    assert balance(club, "pot:kille") == 34000
    assert ledger.verify_books(club) == []
