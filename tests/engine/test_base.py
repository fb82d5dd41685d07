"""The bounds on money every game shares (engine/base.py): options and pots carried in."""

from __future__ import annotations

import dataclasses

import pytest

from engine import kille, polskt_pass, registry, stopp
from engine.base import MAX_AMOUNT_ORE, MAX_BALANCE_ORE, check_money
from engine.errors import IllegalEvent, RulesError

# Every money option of every game: a Rules field named *_ore.
MONEY_OPTIONS = [
    (info.key, field.name)
    for info in registry.all_games()
    for field in dataclasses.fields(info.module.Rules)
    if field.name.endswith("_ore")
]
# Options other money options need to be legal at the bound: a Stopp unit at the ceiling is
# worth it only with a capital of one unit.
COMPANIONS = {("stopp", "unit_ore"): {"capital": 1}}


def test_the_games_have_money_options_to_bound():
    assert {key for key, _name in MONEY_OPTIONS} >= {
        "cribbage",
        "kille",
        "polskt_pass",
        "whist",
        "stopp",
        "fantan",
    }


@pytest.mark.parametrize(("key", "name"), MONEY_OPTIONS)
def test_every_money_option_stops_at_the_bound(key, name):
    rules_class = registry.get(key).module.Rules
    companions = COMPANIONS.get((key, name), {})
    assert getattr(rules_class(**companions, **{name: MAX_AMOUNT_ORE}), name) == MAX_AMOUNT_ORE
    with pytest.raises(RulesError) as refusal:
        rules_class(**companions, **{name: MAX_AMOUNT_ORE + 1})
    assert refusal.value.params["option"] == name
    assert str(refusal.value) == (
        "an amount in the rules can be at most 1000000 kr, not 1000000,01 kr"
    )


def test_a_refusal_of_a_rules_value_is_still_a_value_error():
    # Callers that catch ValueError for any bad option keep working.
    with pytest.raises(ValueError, match="at most"):
        registry.get("cribbage").module.Rules(stake_ore=10**30)


def test_a_cribbage_stake_is_a_whole_number_of_ore_from_zero():
    rules_class = registry.get("cribbage").module.Rules
    for bad in (-1, 1.5, "10", True):
        with pytest.raises(RulesError):
            rules_class(stake_ore=bad)


def test_check_money_leaves_other_options_alone():
    @dataclasses.dataclass(frozen=True)
    class Rules:
        target: int = 10**30
        stake_ore: int = 5

        def __post_init__(self) -> None:
            check_money(self)

    assert Rules().target == 10**30


def test_a_stopp_capital_is_bounded_by_what_it_is_worth():
    assert stopp.Rules(capital=1000, unit_ore=100_000).capital == 1000  # 1 000 000 kr
    with pytest.raises(RulesError, match="starting capital worth 1001000 kr"):
        stopp.Rules(capital=1001, unit_ore=100_000)
    # Counters move no money: any capital.
    assert stopp.Rules(capital=10**9, real_money=False, unit_ore=0).capital == 10**9


def test_a_pot_carried_into_kille_is_bounded():
    players = ["s0", "s1", "s2"]
    assert kille.new_game(players, pot_ore=MAX_BALANCE_ORE).pot_ore == MAX_BALANCE_ORE
    with pytest.raises(IllegalEvent, match="a pot or bet can hold at most"):
        kille.new_game(players, pot_ore=MAX_BALANCE_ORE + 1)
    with pytest.raises(IllegalEvent, match="a pot or bet can hold at most"):
        kille.settle_showing({"s0": "1", "s1": "2"}, "s0", "s0", MAX_BALANCE_ORE + 1)


def test_a_pot_and_betar_carried_into_polskt_pass_are_bounded():
    players = ["s0", "s1", "s2"]
    with pytest.raises(IllegalEvent, match="a pot or bet can hold at most"):
        polskt_pass.new_game(players, pot_ore=MAX_BALANCE_ORE + 1)
    bet = {"id": 1, "amount_ore": MAX_BALANCE_ORE + 1, "owners": ["s0"]}
    with pytest.raises(IllegalEvent, match="a pot or bet can hold at most"):
        polskt_pass.new_game(players, betar=[bet])
