"""The books and the league left ``club`` for apps of their own (club 0009, ledger and league
0001/0002). A club's data made before the move is all there after it: the same rows under the
same ids, the balances the entries sum to, the game's money still linked, and new rows keep
counting from where the old ones stopped (PostgreSQL's identity sequences survive the rename).
"""

from __future__ import annotations

from datetime import date

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

import ledger
from league.models import GameResult, Standing
from ledger.models import Account, AccountKind, Entry, Source, Transaction
from scoring.models import Event

# Also on SQLite (tests/conftest.py): the migrations.
pytestmark = pytest.mark.sqlite

BEFORE = [("club", "0008_club_public_league_money"), ("scoring", "0007_event_lines_from_replay")]


def migrate(targets) -> None:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)


def leaves():
    return MigrationExecutor(connection).loader.graph.leaf_nodes()


@pytest.fixture
def old_apps(transactional_db):
    """The schema as it was before the move; forward to today's afterwards, whatever happens."""
    migrate(BEFORE)
    yield MigrationExecutor(connection).loader.project_state(BEFORE).apps
    migrate(leaves())


def make_old_club(apps) -> dict:
    """A small club in the old schema: two members, a pot, a game whose event moved money, a
    season table."""
    now = timezone.now()
    club = apps.get_model("club", "Club").objects.create(name="Gamla", slug="gamla")
    member_model = apps.get_model("club", "Member")
    anna = member_model.objects.create(club=club, name="Anna")
    bo = member_model.objects.create(club=club, name="Bo")
    account = apps.get_model("club", "Account")
    anna_acc = account.objects.create(
        club=club, kind="member", key=f"member:{anna.pk}", name="Anna", member=anna
    )
    pot = account.objects.create(club=club, kind="pot", key="pot:kille", name="Pott: Kille")
    tx = apps.get_model("club", "Transaction").objects.create(
        club=club, date=date(2026, 11, 1), memo="Insats", source="game", ref="game:1:event:1"
    )
    entry = apps.get_model("club", "Entry")
    entry.objects.create(transaction=tx, account=anna_acc, amount_ore=-400, date=tx.date)
    entry.objects.create(transaction=tx, account=pot, amount_ore=400, date=tx.date)
    account.objects.filter(pk=anna_acc.pk).update(balance_ore=-400)
    account.objects.filter(pk=pot.pk).update(balance_ore=400)
    game = apps.get_model("scoring", "Game").objects.create(
        club=club, game_key="kille", snapshot={}
    )
    event = apps.get_model("scoring", "Event").objects.create(
        game=game, seq=1, type="stake", payload={}, money=tx, created_at=now
    )
    season = apps.get_model("club", "Season").objects.create(
        club=club, name="2026", start=date(2026, 1, 1), end=date(2026, 12, 31)
    )
    result = apps.get_model("club", "GameResult")
    for seat, (member, place) in enumerate([(anna, 1), (bo, 2)]):
        result.objects.create(
            club=club,
            game_ref=f"game:{game.pk}",
            game_key="kille",
            finished_at=now,
            member=member,
            seat=seat,
            placement=place,
            score=0,
            players=2,
        )
    apps.get_model("club", "Standing").objects.create(
        season=season,
        game_key="kille",
        member=anna,
        rank=1,
        played=1,
        won=1,
        points=1,
        net_ore=0,
    )
    return {"club": club.pk, "anna": anna_acc.pk, "pot": pot.pk, "tx": tx.pk, "event": event.pk}


@pytest.mark.books_tampered
def test_the_move_keeps_every_row_and_link(old_apps):
    ids = make_old_club(old_apps)

    migrate(leaves())

    pot = Account.objects.get(pk=ids["pot"])
    assert (pot.key, pot.kind, pot.balance_ore) == ("pot:kille", AccountKind.POT, 400)
    assert Account.objects.get(pk=ids["anna"]).balance_ore == -400
    tx = Transaction.objects.get(pk=ids["tx"])
    assert sorted(e.amount_ore for e in tx.entries.all()) == [-400, 400]
    assert Event.objects.get(pk=ids["event"]).money_id == tx.pk
    assert GameResult.objects.filter(club=ids["club"]).count() == 2
    assert Standing.objects.get(member__name="Anna").points == 1
    # The tables have their new names and the old ones are gone.
    tables = connection.introspection.table_names()
    assert {"ledger_account", "ledger_entry", "league_gameresult"} <= set(tables)
    assert not {"club_account", "club_entry", "club_gameresult"} & set(tables)


@pytest.mark.books_tampered
def test_after_the_move_the_books_go_on_where_they_stopped(old_apps):
    ids = make_old_club(old_apps)

    migrate(leaves())

    pot = Account.objects.get(pk=ids["pot"])
    cash = ledger.system_account(pot.club, AccountKind.CASH)
    assert cash.pk > ids["pot"]  # the id sequence carried over
    tx = ledger.post(pot.club, ledger.legs_for_transfer(pot, cash, 150), "Ut", Source.MANUAL, None)
    assert tx.pk > ids["tx"]
    pot.refresh_from_db()
    assert pot.balance_ore == 250 == sum(e.amount_ore for e in Entry.objects.filter(account=pot))
