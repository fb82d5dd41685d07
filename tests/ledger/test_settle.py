"""Settle-up: the maths (club.settle) and the treasurer's page."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest
from django.urls import reverse
from django.utils import translation
from hypothesis import given, settings
from hypothesis import strategies as st

import ledger
from ledger import settle
from ledger.models import AccountKind, Source, Transaction
from ledger.settle import Payment, SettlementError
from tests.conftest import client_for
from tests.factories import ledger_url_name, make_member

# --- the maths -----------------------------------------------------------------------------


def set_partitions(items: list[int]):
    """Every way to split ``items`` into non-empty groups (Bell(n) of them)."""
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for partition in set_partitions(rest):
        yield [[first], *partition]
        for i in range(len(partition)):
            yield [*partition[:i], [first, *partition[i]], *partition[i + 1 :]]


def brute_force_minimum(amounts: list[int]) -> int:
    """n − the most groups of any partition whose every group sums to zero."""
    indices = list(range(len(amounts)))
    most = max(
        len(p)
        for p in set_partitions(indices)
        if all(sum(amounts[i] for i in group) == 0 for group in p)
    )
    return len(amounts) - most


def balanced(draw_values: list[int]) -> dict[str, int]:
    values = [v for v in draw_values if v]
    values.append(-sum(values))
    return {f"member:{i}": v for i, v in enumerate(values) if v}


amounts = st.integers(-5000, 5000)
# Small amounts make zero-sum groups (and so real savings) common.
small_amounts = st.integers(-9, 9)


def assert_valid(balances: dict[str, int], plan: list[Payment]) -> None:
    assert all(p.amount_ore > 0 and p.payer != p.payee for p in plan)
    assert set(settle.apply_plan(balances, plan).values()) <= {0}


def test_it_finds_the_minimum_where_greedy_does_not():
    # Two zero-sum groups: {a −7, b 4, c 3} and {d 5, e 5, f −10}: 2 + 2 payments.
    balances = {"a": -7, "b": 4, "c": 3, "d": 5, "e": 5, "f": -10}
    plan = settle.plan_settlement(balances)
    assert_valid(balances, plan)
    assert len(plan) == 4
    assert len(settle._greedy(balances, pair_first=True)) == 5


def test_it_pays_exact_opposites_directly():
    plan = settle.plan_settlement({"a": -250, "b": 250, "c": -100, "d": 100})
    assert sorted(plan) == [Payment("a", "b", 250), Payment("c", "d", 100)]


def test_nothing_to_settle_and_balances_that_do_not_sum_to_zero():
    assert settle.plan_settlement({}) == []
    assert settle.plan_settlement({"a": 0, "b": 0}) == []
    with pytest.raises(SettlementError):
        settle.plan_settlement({"a": -100, "b": 99})
    with pytest.raises(SettlementError):
        settle.plan_settlement({"a": -1.5, "b": 1.5})


@settings(max_examples=150, deadline=None)
@given(st.lists(small_amounts, min_size=1, max_size=7))
def test_the_plan_is_as_short_as_the_best_zero_sum_partition(values):
    balances = balanced(values)
    plan = settle.plan_settlement(balances)
    assert_valid(balances, plan)
    if balances:
        assert len(plan) == brute_force_minimum(list(balances.values()))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.one_of(small_amounts, amounts), min_size=1, max_size=11))
def test_up_to_twelve_members_it_never_loses_to_greedy_and_zeroes_everyone(values):
    balances = balanced(values)
    plan = settle.plan_settlement(balances)
    assert_valid(balances, plan)
    assert len(plan) <= len(settle._greedy(balances, pair_first=True))
    assert len(plan) <= max(len(balances) - 1, 0)


@settings(max_examples=25, deadline=None)
@given(st.lists(amounts.filter(bool), min_size=13, max_size=40))
def test_above_twelve_a_greedy_plan_still_zeroes_everyone(values):
    balances = balanced(values)
    assert len(balances) > settle.EXACT_LIMIT
    plan = settle.plan_settlement(balances)
    assert_valid(balances, plan)
    assert len(plan) <= len(balances) - 1


@settings(max_examples=60, deadline=None)
@given(st.lists(amounts, min_size=1, max_size=15), st.data())
def test_settling_one_member_squares_them_and_nobody_overshoots(values, data):
    balances = balanced(values)
    if not balances:
        return
    key = data.draw(st.sampled_from(sorted(balances)))
    part = data.draw(st.one_of(st.none(), st.integers(1, abs(balances[key]))))
    plan = settle.settle_one(balances, key, part)
    after = settle.apply_plan(balances, plan)
    moved = abs(balances[key]) if part is None else part
    assert abs(after[key]) == abs(balances[key]) - moved
    assert all(key in (p.payer, p.payee) for p in plan)
    for other, before in balances.items():  # the others move toward zero, never past it
        assert abs(after[other]) <= abs(before)
        assert after[other] * before >= 0


def test_settling_one_member_refuses_more_than_the_balance_and_a_square_member():
    balances = {"a": -300, "b": 300}
    with pytest.raises(SettlementError):
        settle.settle_one(balances, "a", 301)
    with pytest.raises(SettlementError):
        settle.settle_one({**balances, "c": 0}, "c")
    assert settle.settle_one(balances, "a", 100) == [Payment("a", "b", 100)]


def test_settling_against_the_club_is_one_payment_per_member():
    plan = settle.settle_against({"a": -300, "b": 200, "c": 0, "cash": 999})
    assert plan == [Payment("a", "cash", 300), Payment("cash", "b", 200)]


def test_what_the_members_do_not_net_to_zero_is_settled_with_the_club():
    balances = {"member:1": 500, "member:2": -200}
    plan = settle.members_plan(balances, "all")
    assert plan == [Payment("cash", "member:1", 300), Payment("member:2", "member:1", 200)]
    assert settle.members_plan(balances, "one", "member:2") == [
        Payment("member:2", "member:1", 200)
    ]
    assert settle.members_plan(balances, "one", "member:1", 100) == [
        Payment("cash", "member:1", 100)
    ]
    assert settle.members_plan(balances, "treasury") == [
        Payment("cash", "member:1", 500),
        Payment("member:2", "cash", 200),
    ]
    assert settle.members_plan({"member:1": 300, "member:2": -300}, "all") == [
        Payment("member:2", "member:1", 300)
    ]
    with pytest.raises(SettlementError):
        settle.members_plan(balances, "everyone")


def test_a_plan_reads_aloud_in_both_languages():
    names = {"member:1": "Anna", "member:2": "Bo", "cash": "klubben"}
    with translation.override("sv"):
        assert (
            settle.describe(Payment("member:1", "member:2", 1250), names)
            == "Anna betalar 12,50\u00a0kr till Bo."
        )
        assert settle.describe(Payment("cash", "member:2", 5), names).startswith("Klubben ")
    with translation.override("en"):
        assert (
            settle.describe(Payment("member:1", "member:2", 1250), names)
            == "Anna pays Bo SEK 12.50."
        )


def test_the_swish_link_carries_payee_amount_and_message():
    url = settle.swish_payment_url("070-123 45 67", 14567, "Spader Kung: avräkning " + "x" * 60)
    parts = urlsplit(url)
    assert f"{parts.scheme}://{parts.netloc}{parts.path}" == "https://app.swish.nu/1/p/sw/"
    query = {k: v[0] for k, v in parse_qs(parts.query).items()}
    assert query["sw"] == "46701234567"
    assert query["amt"] == "145.67"
    assert query["cur"] == "SEK"
    assert query["msg"].startswith("Spader Kung: avräkning x")
    assert len(query["msg"]) == settle.SWISH_MESSAGE_LENGTH
    assert query["edit"] == "msg"  # the amount is not the payer's to change
    assert "+" not in parts.query  # spaces as %20, which every Swish version reads


@pytest.mark.parametrize(
    ("number", "expected"),
    [
        ("1231181189", "1231181189"),
        ("+46 70 123 45 67", "46701234567"),
        ("0046701234567", "46701234567"),
    ],
)
def test_swish_numbers_are_normalised(number, expected):
    assert settle.swish_number(number) == expected


@pytest.mark.parametrize("number", ["", "ring Bo", "12"])
def test_what_is_not_a_swish_number_is_refused(number):
    with pytest.raises(SettlementError):
        settle.swish_payment_url(number, 100, "x")


def test_a_swish_payment_needs_a_positive_amount():
    with pytest.raises(SettlementError):
        settle.swish_payment_url("0701234567", 0, "x")


def test_the_qr_code_is_an_inline_svg_of_the_link():
    url = settle.swish_payment_url("0701234567", 100, "x")
    svg = settle.swish_qr_svg(url)
    assert svg.startswith("<svg")
    assert "<path" in svg
    assert svg != settle.swish_qr_svg(settle.swish_payment_url("0701234567", 200, "x"))


# --- the page ------------------------------------------------------------------------------


def settle_url(club, name="ledger-settle"):
    return reverse(ledger_url_name(name), args=[club.slug])


@pytest.fixture
def evening(club):
    """After an evening: Anna owes 120 kr, Bo is owed 80 kr, Cilla 40 kr."""
    anna = make_member(club, "Anna", login=False, swish_number="0701111111")
    bo = make_member(club, "Bo", login=False, swish_number="0702222222")
    cilla = make_member(club, "Cilla", login=False)
    accounts = {m.name: ledger.member_account(m) for m in (anna, bo, cilla)}
    ledger.post(
        club,
        [(accounts["Anna"], -12000), (accounts["Bo"], 8000), (accounts["Cilla"], 4000)],
        "Kille",
        Source.GAME,
        None,
    )
    return accounts


def test_the_treasurer_sees_the_plan_with_swish_links(treasurer_client, club, evening):
    response = treasurer_client.get(settle_url(club))
    assert response.status_code == 200
    rows = response.context["rows"]
    assert [r["text"] for r in rows] == [
        "Anna betalar 80,00\u00a0kr till Bo.",
        "Anna betalar 40,00\u00a0kr till Cilla.",
    ]
    assert "sw=46702222222" in rows[0]["swish_url"]
    assert rows[0]["qr_svg"].startswith("<svg")
    assert rows[1]["swish_url"] == ""
    assert not rows[1]["payee_has_swish"]
    page = response.content.decode()
    assert "https://app.swish.nu/1/p/sw/?sw=46702222222&amp;amt=80.00" in page


def test_recording_a_payment_moves_the_balances_once(treasurer_client, club, evening):
    rows = treasurer_client.get(settle_url(club)).context["rows"]
    payment = rows[0]["payment"]
    data = {
        "payer": payment.payer,
        "payee": payment.payee,
        "amount_ore": payment.amount_ore,
        "submission": "abc-1",
    }
    response = treasurer_client.post(settle_url(club, "ledger-settle-confirm"), data)
    assert response.status_code == 302
    treasurer_client.post(settle_url(club, "ledger-settle-confirm"), data)  # a double tap
    assert Transaction.objects.filter(club=club, source=Source.SETTLEMENT).count() == 1
    assert ledger.balance(evening["Anna"]) == -4000
    assert ledger.balance(evening["Bo"]) == 0
    rows = treasurer_client.get(settle_url(club)).context["rows"]
    assert [r["text"] for r in rows] == ["Anna betalar 40,00\u00a0kr till Cilla."]


@pytest.mark.parametrize(
    "data",
    [
        {"payer": "member:1", "payee": "member:2", "amount_ore": "-5"},
        {"payer": "member:1", "payee": "member:2", "amount_ore": "tolv"},
        {"payer": "pot:kille", "payee": "cash", "amount_ore": "100"},
    ],
)
def test_the_confirm_view_refuses_what_settle_up_never_proposes(treasurer_client, club, data):
    response = treasurer_client.post(settle_url(club, "ledger-settle-confirm"), data)
    assert response.status_code == 400
    assert not Transaction.objects.filter(club=club).exists()


@pytest.mark.parametrize("submission", [None, "", "ab\x00c", "k" * 65])
def test_the_confirm_view_refuses_a_row_without_its_key(
    treasurer_client, club, evening, submission
):
    data = {"payer": evening["Anna"].key, "payee": evening["Bo"].key, "amount_ore": "8000"}
    if submission is not None:
        data["submission"] = submission
    response = treasurer_client.post(settle_url(club, "ledger-settle-confirm"), data)
    assert response.status_code == 400
    assert "inskickningsnyckel" in response.content.decode()
    assert not Transaction.objects.filter(source=Source.SETTLEMENT).exists()


def test_a_payment_above_the_ceiling_is_proposed_in_parts_each_recordable(
    treasurer_client, club, evening, settings
):
    settings.MAX_AMOUNT_ORE = 5000  # 50 kr: Anna's 80 kr to Bo is two payments
    rows = treasurer_client.get(settle_url(club)).context["rows"]
    assert [r["text"] for r in rows] == [
        "Anna betalar 50,00\u00a0kr till Bo.",
        "Anna betalar 30,00\u00a0kr till Bo.",
        "Anna betalar 40,00\u00a0kr till Cilla.",
    ]
    for n, row in enumerate(rows):
        payment = row["payment"]
        data = {
            "payer": payment.payer,
            "payee": payment.payee,
            "amount_ore": payment.amount_ore,
            "submission": f"k-{n}",
        }
        assert (
            treasurer_client.post(settle_url(club, "ledger-settle-confirm"), data).status_code
            == 302
        )
    assert Transaction.objects.filter(source=Source.SETTLEMENT).count() == 3
    assert {ledger.balance(account) for account in evening.values()} == {0}


def test_the_confirm_view_refuses_an_amount_above_the_ceiling(treasurer_client, club, evening):
    data = {
        "payer": evening["Anna"].key,
        "payee": evening["Bo"].key,
        "amount_ore": "100000001",
        "submission": "k",
    }
    response = treasurer_client.post(settle_url(club, "ledger-settle-confirm"), data, follow=True)
    assert "högst 1\u00a0000\u00a0000,00\u00a0kr" in response.content.decode()
    assert not Transaction.objects.filter(source=Source.SETTLEMENT).exists()


def test_settling_a_chosen_amount_of_one_member(treasurer_client, club, evening):
    response = treasurer_client.get(
        settle_url(club), {"mode": "one", "one-member": evening["Anna"].key, "one-amount": "50"}
    )
    rows = response.context["rows"]
    assert [r["text"] for r in rows] == ["Anna betalar 50,00\u00a0kr till Bo."]


@pytest.mark.parametrize(
    ("amount", "code"),
    [("121", "more_than_balance"), ("12,505", "decimals"), ("mycket", "invalid"), ("0", "zero")],
)
def test_a_bad_chosen_amount_is_a_field_error(treasurer_client, club, evening, amount, code):
    response = treasurer_client.get(
        settle_url(club), {"mode": "one", "one-member": evening["Anna"].key, "one-amount": amount}
    )
    assert response.status_code == 200
    assert response.context["one_form"].has_error("amount", code=code)
    assert response.context["rows"] == []


@pytest.mark.books_by_hand
def test_everyone_against_the_club_when_members_do_not_net_to_zero(treasurer_client, club, evening):
    pot = ledger.pot_account(club, "pot:kille", "Killepotten")
    ledger.post(club, [(evening["Cilla"], -1000), (pot, 1000)], "Insats", Source.GAME, None)
    plan = [r["payment"] for r in treasurer_client.get(settle_url(club)).context["rows"]]
    # Members net −10 kr (the pot holds it): the club's box takes the difference.
    assert (
        sum(p.amount_ore for p in plan if p.payee == "cash")
        - sum(p.amount_ore for p in plan if p.payer == "cash")
        == 1000
    )
    response = treasurer_client.get(settle_url(club), {"mode": "treasury"})
    texts = [r["text"] for r in response.context["rows"]]
    assert len(texts) == 3
    assert all("klubben" in t.lower() for t in texts)
    assert ledger.system_account(club, AccountKind.CASH).balance_ore == 0


def test_a_member_cannot_settle_and_another_clubs_treasurer_sees_nothing(
    member_client, club, other_club, evening
):
    assert member_client.get(settle_url(club)).status_code == 403
    data = {"payer": evening["Anna"].key, "payee": evening["Bo"].key, "amount_ore": "100"}
    assert member_client.post(settle_url(club, "ledger-settle-confirm"), data).status_code == 403
    stranger = client_for(make_member(other_club, "Främling", roles=["treasurer"]))
    assert stranger.get(settle_url(club)).status_code == 404
    assert stranger.post(settle_url(club, "ledger-settle-confirm"), data).status_code == 404
    assert not Transaction.objects.filter(source=Source.SETTLEMENT).exists()


@pytest.mark.parametrize(
    ("payer", "payee", "amount"),
    [
        ("member:1", "member:2", "9" * 5000),
        ("member:1", "member:2", "١٢"),
        ("member:1", "member:2", "²"),
        ("member:1", "member:2", "--5"),
        ("member:\x00", "cash", "100"),
        ("member:" + "1" * 300, "cash", "100"),
        ("member:١", "cash", "100"),
        ("cash\x00", "member:1", "100"),
    ],
)
def test_the_confirm_view_reads_its_hidden_fields_once_and_refuses_junk(
    treasurer_client, club, evening, payer, payee, amount
):
    data = {"payer": payer, "payee": payee, "amount_ore": amount, "submission": "abc-1"}
    response = treasurer_client.post(settle_url(club, "ledger-settle-confirm"), data)
    assert response.status_code == 400
    assert not Transaction.objects.filter(source=Source.SETTLEMENT).exists()


@pytest.mark.parametrize("number", ["٠٧٠١٢٣٤٥٦٧", "０７０１２３４５６７"])
def test_a_swish_number_in_other_digits_is_refused(number):
    with pytest.raises(SettlementError):
        settle.swish_number(number)
