"""Ledger benchmarks on PostgreSQL (issue: club books).

- The treasurer's club overview with 200 members and 1,000,000 entries: server time per
  request (median of 20) and its number of SQL queries.
- ``balance(account, at=...)`` of an account with 100,000 entries (a sum over the index),
  and ``balance(account)`` (the cached column).
- One member's statement of one month: ``statement()`` (what exports read) and the page a
  member opens (``ledger:account`` with a date range: server time and queries), for the member
  with 100,000 entries (some 5,000 in a month) and for an ordinary one (some 100 in a month),
  an early month and the latest; and the page without dates (all of the member's history, its
  latest lines shown), and its 20th page (older lines: a page reads back from the latest).
- ``post()`` of one two-entry transaction (median of 200), audit chain included.

Entries are bulk-inserted with SQL (generate_series) to build the data in seconds, in date
order as a club's books grow (500,000 two-entry transactions over 600 days; every fifth one is
the first member's; games of forty transactions referenced ``game:<id>:event:<seq>`` as
scoring posts them, and two transactions in 25 payments, so that the statement's lines are
games of several entries and payments of one); the cached balances are then set from the
entries' sums, exactly as post() would have left them.

Quick mode (``PROTOKOLL_BENCH_QUICK=1``, bench/_quick.py): 20 members, 2,000 entries (200 of
them the first member's), and at most 3 runs of each (``timed``).
"""

from __future__ import annotations

import datetime as dt

from _django import bench_database, report, timed
from _quick import sized

bench_database("protokoll_bench_ledger")

from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.urls import reverse  # noqa: E402

import ledger  # noqa: E402
from club.members import add_member  # noqa: E402
from club.models import Club, Role, User  # noqa: E402
from ledger.models import Account, Entry, Transaction  # noqa: E402

MEMBERS = sized(200, quick=20)
ENTRIES, BIG_ACCOUNT_ENTRIES = sized((1_000_000, 100_000), quick=(2_000, 200))

club = Club.objects.create(name="Benchklubben", slug="bench")
user = User.objects.create_user("kassor", password="bench-password-1")
add_member(club, "Kassören", roles=[Role.TREASURER], user=user)
for n in range(MEMBERS - 1):
    add_member(club, f"Medlem {n:03d}")
pot = ledger.pot_account(club, "pot:kille", "Killepotten")
cash = ledger.system_account(club, "cash")
member_ids = list(Account.objects.filter(club=club, kind="member").values_list("id", flat=True))
big = member_ids[0]

TX, ENTRY, ACCOUNT = (model._meta.db_table for model in (Transaction, Entry, Account))
with connection.cursor() as cursor:
    # 500,000 two-entry transactions over 600 days, in date order: a member pays the pot; every
    # fifth transaction (100,000) is the first member's, the rest go round the other 199. Most
    # are games' money, forty transactions a game (eight of them the first member's); two in
    # 25 are payments: the statement shows a line per game and one per payment.
    pairs = ENTRIES // 2
    cursor.execute(
        f"""
        INSERT INTO {TX} (club_id, date, memo, source, ref, created_at)
        SELECT %s, DATE '2025-01-01' + ((g - 1) * 600 / %s)::int,
               CASE WHEN g %% 25 IN (1, 13) THEN 'Swish' ELSE 'Insats' END,
               CASE WHEN g %% 25 IN (1, 13) THEN 'manual' ELSE 'game' END,
               CASE WHEN g %% 25 IN (1, 13) THEN ''
                    ELSE 'game:' || (1 + (g - 1) / 40) || ':event:' || (1 + (g - 1) %% 40) END,
               now()
        FROM generate_series(1, %s) g
        """,
        [club.pk, pairs, pairs],
    )
    cursor.execute(f"SELECT min(id) FROM {TX} WHERE club_id = %s", [club.pk])
    first_tx = cursor.fetchone()[0]
    cursor.execute(
        f"""
        INSERT INTO {ENTRY} (transaction_id, account_id, amount_ore, date)
        SELECT t.id,
               CASE WHEN (t.id - %s) %% %s = 0 THEN %s
                    ELSE (%s::bigint[])[2 + ((t.id - %s) %% %s)] END,
               -(100 + (t.id %% 400)), t.date
        FROM {TX} t WHERE t.club_id = %s
        UNION ALL
        SELECT t.id, %s, 100 + (t.id %% 400), t.date
        FROM {TX} t WHERE t.club_id = %s
        """,
        [
            first_tx,
            pairs // BIG_ACCOUNT_ENTRIES,
            big,
            member_ids,
            first_tx,
            len(member_ids) - 1,
            club.pk,
            pot.pk,
            club.pk,
        ],
    )
    cursor.execute(
        f"""
        UPDATE {ACCOUNT} a SET balance_ore = s.total
        FROM (SELECT account_id, sum(amount_ore) AS total FROM {ENTRY} GROUP BY account_id) s
        WHERE a.id = s.account_id
        """
    )
    cursor.execute("ANALYZE")
    cursor.execute(f"SELECT count(*) FROM {ENTRY}")
    entries = cursor.fetchone()[0]

print(f"club with {MEMBERS} members and {entries:,} entries on PostgreSQL")
assert ledger.verify_balances(club) == []

client = Client()
client.force_login(user)
url = reverse("ledger:overview", args=[club.slug])
client.get(url)  # warm up
queries: list[str] = []


def count_query(execute, sql, params, many, context):
    queries.append(sql)
    return execute(sql, params, many, context)


with connection.execute_wrapper(count_query):
    response = client.get(url)
assert response.status_code == 200
report(
    "club overview page (treasurer)", timed(lambda: client.get(url), 20), f"queries={len(queries)}"
)

account = Account.objects.get(pk=big)
count = account.entries.count()
report(f"balance(account) cached, {count:,} entries", timed(lambda: ledger.balance(account), 200))
report(
    f"balance(account, at=date), {count:,} entries",
    timed(lambda: ledger.balance(account, at=dt.date(2026, 6, 1)), 20),
)
other = Account.objects.get(pk=member_ids[1])
march = {"start": "2025-03-01", "end": "2025-03-31"}
for who in (account, other):
    in_march = who.entries.filter(date__range=(march["start"], march["end"])).count()
    report(
        f"statement(account, one month), {in_march:,} entries in it",
        timed(lambda who=who: ledger.statement(who, dt.date(2025, 3, 1), dt.date(2025, 3, 31)), 20),
    )
    page_url = reverse("ledger:account", args=[club.slug, who.pk])
    all_time = who.entries.count()
    latest = {"start": "2026-07-01", "end": "2026-07-31"}  # the books end in August 2026
    for label, query, runs in (
        (f"one month, {in_march:,} entries", march, 20),
        ("the latest whole month", latest, 20),
        (f"no dates: all {all_time:,} entries", {}, 20),
        ("no dates, page 20 (older lines)", {"page": "20"}, 20),
    ):
        queries.clear()
        with connection.execute_wrapper(count_query):
            response = client.get(page_url, query)
        assert response.status_code == 200, response.status_code
        report(
            f"statement page, {label}",
            timed(lambda page_url=page_url, query=query: client.get(page_url, query), runs),
            f"queries={len(queries)}",
        )
report(
    "post() one transfer (lock, entries, balances, audit)",
    timed(
        lambda: ledger.post(club, ledger.legs_for_transfer(other, pot, 100), "b", "manual", None),
        200,
    ),
)
