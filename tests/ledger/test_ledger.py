from __future__ import annotations

from datetime import date, timedelta

import pytest
import time_machine
from django.conf import settings as django_settings
from django.urls import reverse
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ledger
from engine.base import MAX_AMOUNT_ORE, MAX_BALANCE_ORE
from ledger import checks
from ledger.models import Account, AccountKind, Entry, Source, Transaction
from ledger.postings import LedgerError
from tests.concurrency import at_once, postgres_only
from tests.conftest import client_for
from tests.factories import ledger_url_name, make_club, make_member

# Also on SQLite (tests/conftest.py): posting: constraints, locks and the zero sum on each database.
pytestmark = pytest.mark.sqlite


@pytest.fixture
def books(club, treasurer):
    cash = ledger.system_account(club, AccountKind.CASH)
    pot = ledger.pot_account(club, "pot:kille", "Killepotten")
    anna = ledger.member_account(make_member(club, "Anna"))
    bo = ledger.member_account(make_member(club, "Bo"))
    return {"cash": cash, "pot": pot, "anna": anna, "bo": bo, "by": treasurer.user}


def test_every_member_gets_an_account_when_added(club):
    person = make_member(club, "Cilla")
    account = Account.objects.get(member=person)
    assert account.kind == AccountKind.MEMBER
    assert account.name == "Cilla"
    assert account.balance_ore == 0


@pytest.mark.books_by_hand
def test_a_posting_moves_balances_and_sums_to_zero(club, books):
    tx = ledger.post(
        club, ledger.legs_for_transfer(books["anna"], books["pot"], 200), "Insats", "game", None
    )
    assert ledger.balance(books["anna"]) == -200
    assert ledger.balance(books["pot"]) == 200
    assert sum(tx.entries.values_list("amount_ore", flat=True)) == 0
    assert ledger.verify_balances(club) == []


@pytest.mark.parametrize(
    ("legs", "code"),
    [
        ([], "empty"),
        ([("anna", -100), ("bo", 99)], "unbalanced"),
        ([("anna", 0), ("bo", 0)], "zero"),
        ([("anna", -1.5), ("bo", 1.5)], "not_integer"),
    ],
)
def test_it_refuses_bad_postings_and_writes_nothing(club, books, legs, code):
    entries = [(books[name], amount) for name, amount in legs]
    with pytest.raises(LedgerError) as excinfo:
        ledger.post(club, entries, "fel", "manual", None)
    assert excinfo.value.code == code
    assert Transaction.objects.count() == 0
    assert Entry.objects.count() == 0


def test_it_refuses_an_account_of_another_club(club, books):
    foreign = ledger.system_account(make_club(), AccountKind.CASH)
    with pytest.raises(LedgerError) as excinfo:
        ledger.post(club, [(books["cash"], -5), (foreign, 5)], "x", "manual", None)
    assert excinfo.value.code == "foreign_account"


# --- limits on money ------------------------------------------------------------------------


def test_an_amount_above_the_ceiling_is_refused_naming_it_in_kronor(club, books):
    assert django_settings.MAX_AMOUNT_ORE == MAX_AMOUNT_ORE  # the default: the engine's bound
    ledger.post(
        club,
        ledger.legs_for_transfer(books["cash"], books["anna"], MAX_AMOUNT_ORE),
        "",
        "manual",
        None,
    )
    with pytest.raises(LedgerError) as excinfo:
        ledger.post(
            club,
            ledger.legs_for_transfer(books["cash"], books["anna"], MAX_AMOUNT_ORE + 1),
            "för mycket",
            "manual",
            None,
        )
    assert excinfo.value.code == "too_large"
    assert "1\u00a0000\u00a0000,00\u00a0kr" in excinfo.value.messages[0]
    assert Transaction.objects.count() == 1
    assert ledger.verify_balances(club) == []


def test_a_lowered_ceiling_holds_for_every_source_but_a_games(club, books, settings):
    settings.MAX_AMOUNT_ORE = 10_000
    for source in ("manual", "dues", "settlement"):
        with pytest.raises(LedgerError) as excinfo:
            ledger.post(
                club, [(books["cash"], -10_001), (books["anna"], 10_001)], "x", source, None
            )
        assert excinfo.value.code == "too_large"
    # A game's entries are the engine's arithmetic on bounded options (a skunk triples the
    # stake): the winning event must not be refused.
    ledger.post(
        club, ledger.legs_for_transfer(books["bo"], books["anna"], 30_000), "", "game", None
    )
    assert ledger.balance(books["anna"]) == 30_000


@pytest.mark.books_by_hand
def test_no_posting_takes_a_balance_beyond_its_bound(club, books):
    """The probe's 92 233 720 368 547 758 kr made every later posting to the member overflow
    bigint. Balances now stop far below it, with a refusal instead of a 500."""
    pot, anna = books["pot"], books["anna"]
    ledger.post(club, ledger.legs_for_transfer(pot, anna, MAX_BALANCE_ORE), "", "game", None)
    for legs in (
        ledger.legs_for_transfer(books["bo"], anna, 1),  # anna would hold too much
        ledger.legs_for_transfer(pot, books["bo"], 1),  # the pot would owe too much
    ):
        with pytest.raises(LedgerError) as excinfo:
            ledger.post(club, legs, "ett öre till", "game", None)
        assert excinfo.value.code == "balance_limit"
    with pytest.raises(LedgerError) as excinfo:
        ledger.post(
            club, ledger.legs_for_transfer(pot, anna, MAX_BALANCE_ORE + 1), "", "game", None
        )
    assert excinfo.value.code == "too_large"
    assert Transaction.objects.count() == 1
    assert ledger.balance(anna) == MAX_BALANCE_ORE
    # Money moving back is still fine, and the books agree with themselves.
    ledger.post(club, ledger.legs_for_transfer(anna, books["bo"], 500), "tillbaka", "manual", None)
    assert ledger.balance(anna) == MAX_BALANCE_ORE - 500
    assert ledger.verify_balances(club) == []


def test_it_refuses_a_closed_account(club, books):
    ledger.close_account(books["bo"])
    with pytest.raises(LedgerError) as excinfo:
        ledger.post(
            club, ledger.legs_for_transfer(books["anna"], books["bo"], 5), "x", "manual", None
        )
    assert excinfo.value.code == "closed_account"


def test_an_account_with_money_cannot_be_closed(club, books):
    ledger.post(club, ledger.legs_for_transfer(books["anna"], books["bo"], 5), "x", "manual", None)
    with pytest.raises(LedgerError):
        ledger.close_account(books["bo"])


def test_a_reversal_restores_every_balance_and_happens_once(club, books):
    tx = ledger.post(
        club,
        [(books["anna"], -300), (books["bo"], -200), (books["cash"], 500)],
        "Två inbetalningar",
        Source.MANUAL,
        None,
    )
    reversal = ledger.reverse(tx, "fel spelare", books["by"])
    assert reversal.reverses == tx
    for name in ("anna", "bo", "cash"):
        assert ledger.balance(books[name]) == 0
    with pytest.raises(LedgerError) as excinfo:
        ledger.reverse(tx, "igen", books["by"])
    assert excinfo.value.code == "reversed"
    with pytest.raises(LedgerError) as excinfo:
        ledger.reverse(reversal, "tillbaka", books["by"])
    assert excinfo.value.code == "reversal"


def test_a_reversal_without_a_reason_is_refused_and_changes_nothing(club, books):
    tx = ledger.post(
        club, [(books["anna"], -300), (books["cash"], 300)], "Inbetalning", Source.MANUAL, None
    )
    for reason in ("", "   "):
        with pytest.raises(LedgerError) as excinfo:
            ledger.reverse(tx, reason, books["by"])
        assert excinfo.value.code == "reason_required"
    assert Transaction.objects.filter(club=club).count() == 1
    assert ledger.balance(books["anna"]) == -300


def game_stake(club, books, game_id=17, seq=1):
    """A stake as scoring.recording posts it for a game's event."""
    ref = f"game:{game_id}:event:{seq}"
    legs = ledger.legs_for_transfer(books["anna"], books["pot"], 200)
    return ledger.post(club, legs, "Kille #17: Anna satsar", Source.GAME, None, key=ref, ref=ref)


@pytest.mark.books_by_hand
def test_it_refuses_to_reverse_a_game_transaction(club, books):
    tx = game_stake(club, books)
    with pytest.raises(LedgerError) as excinfo:
        ledger.reverse(tx, "fel spelare", books["by"])
    assert excinfo.value.code == "game_money"
    assert "#17" in excinfo.value.message
    assert Transaction.objects.filter(club=club).count() == 1
    assert ledger.balance(books["pot"]) == 200
    assert ledger.verify_audit(club) == []
    # Game money without a game reference is still the game's.
    untagged = ledger.post(
        club, ledger.legs_for_transfer(books["bo"], books["pot"], 100), "x", Source.GAME, None
    )
    with pytest.raises(LedgerError) as excinfo:
        ledger.reverse(untagged, "fel", books["by"])
    assert excinfo.value.code == "game_money"


def test_the_games_own_undo_and_void_may_reverse_its_money_and_nothing_else(club, books):
    tx = game_stake(club, books)
    reversal = ledger.reverse(tx, "Ångrat i spel #17", None, game_recording=True)
    assert reversal.ref == tx.ref == "game:17:event:1"
    assert ledger.balance(books["pot"]) == 0
    manual = ledger.post(
        club, ledger.legs_for_transfer(books["cash"], books["anna"], 500), "In", "manual", None
    )
    with pytest.raises(LedgerError) as excinfo:
        ledger.reverse(manual, "ångra", None, game_recording=True)
    assert excinfo.value.code == "not_game_money"
    assert not Transaction.objects.filter(reverses=manual).exists()


def test_a_key_makes_a_posting_idempotent(club, books):
    first = ledger.post(
        club, ledger.legs_for_transfer(books["anna"], books["bo"], 7), "a", "dues", None, key="k1"
    )
    again = ledger.post(
        club, ledger.legs_for_transfer(books["anna"], books["bo"], 7), "a", "dues", None, key="k1"
    )
    assert first.pk == again.pk
    assert ledger.balance(books["bo"]) == 7


@pytest.mark.books_by_hand
def test_balance_at_a_date_and_a_statement_with_running_balance(club, books):
    with time_machine.travel("2026-03-01 12:00 +0100"):
        ledger.post(
            club, ledger.legs_for_transfer(books["cash"], books["anna"], 1000), "In", "manual", None
        )
    with time_machine.travel("2026-03-05 12:00 +0100"):
        ledger.post(
            club, ledger.legs_for_transfer(books["anna"], books["pot"], 200), "Insats", "game", None
        )
    with time_machine.travel("2026-03-09 12:00 +0100"):
        ledger.post(
            club, ledger.legs_for_transfer(books["anna"], books["bo"], 300), "Skuld", "manual", None
        )
    assert ledger.balance(books["anna"], at=date(2026, 3, 4)) == 1000
    assert ledger.balance(books["anna"], at=date(2026, 3, 5)) == 800
    assert ledger.balance(books["anna"]) == 500
    stmt = ledger.statement(books["anna"], date(2026, 3, 2), date(2026, 3, 31))
    assert stmt.opening_ore == 1000
    assert [(r.amount_ore, r.running_ore) for r in stmt.rows] == [(-200, 800), (-300, 500)]
    assert stmt.closing_ore == 500


def test_a_closed_period_refuses_postings_and_its_report_never_changes(club, books):
    with time_machine.travel("2026-01-10 12:00 +0100"):
        ledger.post(
            club, ledger.legs_for_transfer(books["cash"], books["anna"], 1000), "In", "manual", None
        )
        tx = ledger.post(
            club, ledger.legs_for_transfer(books["anna"], books["bo"], 200), "Lån", "manual", None
        )
    with time_machine.travel("2026-02-02 12:00 +0100"):
        period = ledger.close_period(
            club, "Januari", date(2026, 1, 1), date(2026, 1, 31), books["by"]
        )
        report_before = sorted(
            period.balances.values_list("account_id", "opening_ore", "closing_ore")
        )
        with pytest.raises(LedgerError) as excinfo:
            ledger.post(
                club,
                ledger.legs_for_transfer(books["anna"], books["bo"], 5),
                "sent",
                "manual",
                None,
                date=date(2026, 1, 15),
            )
        assert excinfo.value.code == "closed_period"
        # The correction goes into the open period, referring to the old transaction.
        reversal = ledger.reverse(tx, "fel belopp", books["by"])
    assert reversal.date == date(2026, 2, 2)
    assert ledger.balance(books["anna"], at=date(2026, 1, 31)) == 800
    assert ledger.balance(books["anna"]) == 1000
    period.refresh_from_db()
    assert (
        sorted(period.balances.values_list("account_id", "opening_ore", "closing_ore"))
        == report_before
    )
    assert ledger.statement(books["anna"], period.start, period.end).closing_ore == 800


def test_periods_cannot_overlap_or_lie_in_the_future(club, books):
    with time_machine.travel("2026-03-02 12:00 +0100"):
        ledger.close_period(club, "Feb", date(2026, 2, 1), date(2026, 2, 28), None)
        with pytest.raises(LedgerError):
            ledger.close_period(club, "Överlapp", date(2026, 2, 15), date(2026, 3, 1), None)
        with pytest.raises(LedgerError):
            ledger.close_period(club, "Mars", date(2026, 3, 1), date(2026, 3, 31), None)


def test_a_period_from_the_calendars_first_day_opens_at_zero(club, books):
    # The day before 0001-01-01 does not exist: date.fromordinal(0) raised (HTTP 500).
    ledger.post(
        club, ledger.legs_for_transfer(books["cash"], books["anna"], 700), "In", "manual", None
    )
    yesterday = timezone.localdate() - timedelta(days=1)
    period = ledger.close_period(club, "Allt", date.min, yesterday, None)
    assert set(period.balances.values_list("opening_ore", flat=True)) <= {0}


@pytest.mark.books_tampered
def test_the_audit_trail_verifies_and_detects_an_edited_row(club, books):
    tx = ledger.post(
        club,
        ledger.legs_for_transfer(books["anna"], books["bo"], 200),
        "Lån",
        "manual",
        books["by"],
    )
    ledger.reverse(tx, "ångra", books["by"])
    today = timezone.localdate()
    with time_machine.travel(today + timedelta(days=2)):
        ledger.close_period(club, "Stängd", today - timedelta(days=400), today, None)
    assert ledger.verify_audit(club) == []
    # Someone edits an amount in the database behind the ledger's back.
    Entry.objects.filter(transaction=tx, amount_ore=200).update(amount_ore=2000)
    problems = ledger.verify_audit(club)
    assert any("content changed" in p for p in problems)


@pytest.mark.books_tampered
def test_the_audit_check_detects_a_memo_edit_and_a_deleted_record(club, books):
    ledger.post(
        club, ledger.legs_for_transfer(books["anna"], books["pot"], 200), "Insats", "game", None
    )
    ledger.post(
        club, ledger.legs_for_transfer(books["bo"], books["pot"], 200), "Insats", "game", None
    )
    Transaction.objects.filter(memo="Insats").update(memo="Något annat")
    assert ledger.verify_audit(club)
    from ledger.models import AuditRecord

    Transaction.objects.update(memo="Insats")
    AuditRecord.objects.filter(seq=1).delete()
    assert any("missing" in p or "no audit" in p for p in ledger.verify_audit(club))


# --- property: money is conserved ----------------------------------------------------------

ACCOUNTS = ["cash", "pot", "anna", "bo"]
postings = st.lists(
    st.one_of(
        st.tuples(
            st.just("post"),
            st.lists(
                # Up to four legs and the cash leg balancing them: each under the ceiling.
                st.tuples(
                    st.sampled_from(ACCOUNTS), st.integers(-(2 * 10**7), 2 * 10**7).filter(bool)
                ),
                min_size=1,
                max_size=4,
            ),
        ),
        st.tuples(st.just("reverse"), st.integers(0, 50)),
    ),
    max_size=12,
)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@pytest.mark.books_by_hand
@given(steps=postings)
def test_any_sequence_of_postings_and_reversals_conserves_money(club, books, steps):
    for kind, payload in steps:
        if kind == "post":
            legs = [(books[name], amount) for name, amount in payload]
            legs.append((books["cash"], -sum(a for _n, a in payload)))  # balance it
            legs = [(acc, a) for acc, a in legs if a != 0]
            if not legs:
                continue
            ledger.post(club, legs, "prop", "manual", None)
        else:
            candidates = list(
                Transaction.objects.filter(
                    club=club, reverses__isnull=True, reversed_by__isnull=True
                )
            )
            if not candidates:
                continue
            tx = candidates[payload % len(candidates)]
            before = {n: ledger.balance(books[n]) for n in ACCOUNTS}
            touched = dict(tx.entries.values_list("account_id", "amount_ore"))
            ledger.reverse(tx, "prop", None)
            for name in ACCOUNTS:
                expected = before[name] - sum(
                    e.amount_ore for e in tx.entries.all() if e.account_id == books[name].pk
                )
                assert ledger.balance(books[name]) == expected, touched
        total = sum(Account.objects.filter(club=club).values_list("balance_ore", flat=True))
        assert total == 0
    assert ledger.verify_balances(club) == []
    assert ledger.verify_audit(club) == []


# --- concurrency on PostgreSQL -------------------------------------------------------------


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_sixteen_threads_posting_at_once_lose_nothing():
    postgres_only()
    club = make_club()
    accounts = [
        ledger.member_account(make_member(club, f"Tråd {i}", login=False)) for i in range(16)
    ]

    def worker(index: int) -> None:
        me, other = accounts[index], accounts[(index + 1) % 16]
        for n in range(50):
            ledger.post(
                club, ledger.legs_for_transfer(me, other, n + 1), f"t{index}-{n}", "manual", None
            )

    at_once(worker, range(16))
    assert Transaction.objects.filter(club=club).count() == 800
    assert ledger.verify_balances(club) == []
    assert ledger.verify_audit(club) == []
    # Each member paid 1+…+50 and received the same from the previous one.
    assert set(Account.objects.filter(club=club).values_list("balance_ore", flat=True)) == {0}


# --- permissions across clubs ---------------------------------------------------------------


def test_a_treasurer_of_another_club_can_neither_post_nor_reverse_here(club, books, other_club):
    tx = ledger.post(
        club, ledger.legs_for_transfer(books["cash"], books["anna"], 500), "In", "manual", None
    )
    stranger = client_for(make_member(other_club, "Främling", roles=["treasurer"]))
    anna = books["anna"].member_id
    here = [
        ("ledger-payment", [], {"kind": "cash_in", "member": anna, "amount": "10"}),
        ("ledger-transfer", [], {"payer": anna, "payee": anna, "amount": "1"}),
        ("ledger-reverse", [tx.pk], {"reason": "fel"}),
    ]
    for name, args, data in here:
        response = stranger.post(club_url(club, name, *args), data)
        assert response.status_code == 404, name
    # Our ids under their own club's address reveal nothing either.
    assert stranger.get(club_url(other_club, "ledger-transaction", tx.pk)).status_code == 404
    response = stranger.post(club_url(other_club, "ledger-reverse", tx.pk), {"reason": "fel"})
    assert response.status_code == 404
    assert Transaction.objects.filter(club=club).count() == 1
    assert ledger.balance(books["anna"]) == 500


def club_url(club, name, *args):
    return reverse(ledger_url_name(name), args=[club.slug, *args])


@pytest.mark.books_tampered
def test_the_check_ledger_command_passes_clean_books_and_fails_edited_ones(club, books):
    from io import StringIO

    from django.core.management import CommandError, call_command

    # Not the pot: only games put money there, and no game was played.
    tx = ledger.post(
        club, ledger.legs_for_transfer(books["anna"], books["bo"], 200), "Lån", "manual", None
    )
    out = StringIO()
    call_command("check_ledger", club=club.slug, stdout=out)
    assert "agree" in out.getvalue()
    Entry.objects.filter(transaction=tx, amount_ore=200).update(amount_ore=300)
    with pytest.raises(CommandError, match="problem"):
        call_command("check_ledger", club=club.slug, stdout=StringIO(), stderr=StringIO())


@pytest.mark.books_tampered
def test_check_ledger_runs_the_checks_other_apps_register(club, books, monkeypatch):
    from io import StringIO

    from django.core.management import CommandError, call_command

    monkeypatch.setattr(checks, "_BOOK_CHECKS", [])
    seen = []

    def pot_is_odd(checked_club):
        seen.append(checked_club)
        return ["the pot is odd"]

    ledger.register_check(pot_is_odd)
    ledger.register_check(pot_is_odd)
    err = StringIO()
    with pytest.raises(CommandError, match="1 problem"):
        call_command("check_ledger", club=club.slug, stdout=StringIO(), stderr=err)
    assert err.getvalue() == f"{club.slug}: the pot is odd\n"
    assert seen == [club]


def test_scoring_registers_its_check_of_the_games_money():
    from scoring import audit

    assert audit.check_game_money in ledger.registered_checks()
