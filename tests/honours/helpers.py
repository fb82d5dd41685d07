"""A club with hand prizes and a cribbage table, for the honours tests."""

from __future__ import annotations

import ledger
from engine import cribbage
from honours import services
from ledger.models import AccountKind
from scoring import recording

PRIZE = 10_000  # 100 kr
A_29 = ["5C", "5D", "5H", "JS"]  # with the 5♠ cut


def prize(club, kind="cribbage:29:hand", amount=PRIZE, whole_pot=False, pot="Handpotten"):
    return services.save_prize(
        club, kind, amount_ore=amount, whole_pot=whole_pot, pot_name=pot, active=True
    )


def fund(club, amount, pot="Handpotten", key="fund"):
    pot_account = services.hand_pot(club, services.pot_key(pot))
    return services.fund_pot(club, pot_account, AccountKind.TREASURY, amount, None, key=key)


def pot_balance(club, pot="Handpotten"):
    return ledger.balance(services.hand_pot(club, services.pot_key(pot)))


def append(game, type_, payload, key):
    game.refresh_from_db()
    result = recording.append_event(
        game, type_, payload, expected_seq=game.seq, idempotency_key=key, by=None
    )
    game.refresh_from_db()
    return result


def undo(game, key):
    game.refresh_from_db()
    result = recording.undo_last(game, expected_seq=game.seq, idempotency_key=key, by=None)
    game.refresh_from_db()
    return result


def first_to_show(game) -> str:
    state, _nets = recording.current_state(game)
    return cribbage.show_order(state)[0]


def start_cribbage(club, players, by=None):
    return recording.start_game(club, "cribbage", players, by)


def cut_five(game):
    append(game, "starter", {"card": "5S"}, "cut")


def show_29(game, key="show"):
    player = first_to_show(game)
    return append(game, "show", {"player": player, "cards": A_29}, key), player
