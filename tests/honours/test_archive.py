"""A club's archive carries its hand prizes and the prizes paid, with their ids rewritten."""

from __future__ import annotations

import io

import ledger
from clubdata import archive
from clubdata.archive_import import import_club
from honours.models import HandPrize, HonourPaid
from scoring.models import Game
from tests.honours.helpers import cut_five, fund, prize, show_29, start_cribbage, undo


def test_a_club_with_a_paid_and_a_taken_back_prize_moves_with_its_books_green(
    club, scorer, member, django_capture_on_commit_callbacks
):
    prize(club)
    fund(club, 50_000)
    game = start_cribbage(club, [scorer, member])
    cut_five(game)
    show_29(game)
    undo(game, "undo")
    show_29(game, key="again")
    out = io.BytesIO()
    archive.write_archive(club, out)
    with django_capture_on_commit_callbacks(execute=True):
        copy = import_club(out.getvalue()).club
    assert HandPrize.objects.filter(club=copy).count() == 1
    rows = list(HonourPaid.objects.filter(club=copy).order_by("pk"))
    copied_game = Game.objects.get(club=copy)
    assert [row.game_ref for row in rows] == [copied_game.ref] * 2
    assert [row.reversed_at is None for row in rows] == [False, True]
    paid = rows[1]
    assert paid.transaction.club == copy
    assert paid.transaction.key.startswith(f"honour:{copied_game.ref}:")
    assert paid.payee_key == f"member:{paid.member.pk}"
    assert paid.member.club == copy
    assert ledger.verify_books(copy) == []
