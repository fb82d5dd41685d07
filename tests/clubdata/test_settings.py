"""The admins' settings page (clubdata.settings): each section saves and records its money
changes old -> new, nothing when unchanged, bad input refused with nothing changed; the start
form and Play follow the club's games and defaults; the club's money ceiling holds."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import timezone

import evenings
import ledger
from club.models import Club, PlacementScheme
from clubdata import settings as club_settings
from evenings.models import EveningOptions
from ledger.models import AccountKind, AuditRecord, Transaction
from tests.conftest import client_for
from tests.factories import make_member


def page_url(club) -> str:
    return reverse("clubdata:settings", args=[club.slug])


def game_url(club, game_key: str) -> str:
    return reverse("clubdata:settings-game", args=[club.slug, game_key])


def changes(club) -> list[dict]:
    return [
        record.data
        for record in AuditRecord.objects.filter(
            club=club, action=AuditRecord.Action.SETTINGS
        ).order_by("seq")
    ]


def snapshot(club) -> tuple:
    """Everything the page can change, and the chain's length: equal before and after a
    refused post."""
    club = Club.objects.get(pk=club.pk)
    options = EveningOptions.objects.filter(club=club).first()
    return (
        club.name,
        club.swish_number,
        club.games_played,
        club.game_defaults,
        club.placement_scheme,
        club.provisional_games,
        club.skunks_in_league,
        club.public_league_money,
        club.max_amount_ore,
        options and evenings.options_state(options),
        AuditRecord.objects.filter(club=club).count(),
    )


def league_data(club, **changes) -> dict:
    data = {
        "section": "league",
        "league-placement_scheme": club.placement_scheme,
        "league-provisional_games": str(club.provisional_games),
    }
    if club.skunks_in_league:
        data["league-skunks_in_league"] = "on"
    if club.public_league_money:
        data["league-public_league_money"] = "on"
    for name, value in changes.items():
        key = f"league-{name}"
        if value is False:
            data.pop(key, None)
        else:
            data[key] = "on" if value is True else value
    return data


def evening_data(**changes) -> dict:
    data = {
        "section": "evenings",
        "evenings-fee": "0",
        "evenings-fee_kind": "table",
        "evenings-pot_policy": "carry",
        "evenings-prize_percents": "",
    }
    return data | {f"evenings-{name}": value for name, value in changes.items()}


# --- who may --------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["settings", "settings-game"])
def test_only_the_clubs_admins_reach_the_pages(
    name, club, admin_client_, member_client, scorer_client, treasurer_client, outsider
):
    args = [club.slug] + (["kille"] if name == "settings-game" else [])
    url = reverse(f"clubdata:{name}", args=args)
    assert admin_client_.get(url).status_code == 200
    for client in (member_client, scorer_client, treasurer_client):
        assert client.get(url).status_code == 403
        assert client.post(url, {"section": "club", "club-name": "Kapad"}).status_code == 403
    assert client_for(outsider).get(url).status_code == 404
    assert Club.objects.get(pk=club.pk).name == club.name


def test_the_start_page_links_the_settings_for_admins_only(club, admin_client_, member_client):
    home = reverse("club:club-home", args=[club.slug])
    assert page_url(club) in admin_client_.get(home).content.decode()
    assert page_url(club) not in member_client.get(home).content.decode()


# --- each section ---------------------------------------------------------------------------


def test_the_club_section_saves_and_records_the_swish_number_old_to_new(club, admin_client_):
    data = {"section": "club", "club-name": "Spader Kung", "club-swish_number": "123 456 78 90"}
    response = admin_client_.post(page_url(club), data)
    assert response.status_code == 302
    club.refresh_from_db()
    assert (club.name, club.swish_number) == ("Spader Kung", "123 456 78 90")
    # The name does not touch money; the number payments go to does.
    assert changes(club) == [
        {"field": "swish_number", "old": "", "new": "123 456 78 90"},
    ]
    record = AuditRecord.objects.get(club=club, action=AuditRecord.Action.SETTINGS)
    assert record.subject == "settings:swish_number"
    assert record.by.username == club.members.get(name="Arne Admin").user.username
    page = admin_client_.get(page_url(club)).content.decode()
    assert "123 456 78 90" in page.split('id="changes"')[1]


def test_saving_with_nothing_changed_records_nothing(club, admin_client_):
    posts = [
        {"section": "club", "club-name": club.name, "club-swish_number": ""},
        {"section": "games"},
        league_data(club),
        evening_data(),
        {"section": "ceiling", "ceiling-ceiling": ""},
    ]
    admin_client_.post(page_url(club), evening_data())  # the options' row, made on first use
    before = snapshot(club)
    for data in posts:
        assert admin_client_.post(page_url(club), data).status_code == 302
    assert admin_client_.post(game_url(club, "cribbage"), {}).status_code == 302
    assert snapshot(club) == before
    assert changes(club) == []


def test_the_games_section_keeps_the_played_games_in_the_registrys_order(club, admin_client_):
    data = {"section": "games", "games-games_played": ["polskt_pass", "kille"]}
    assert admin_client_.post(page_url(club), data).status_code == 302
    club.refresh_from_db()
    assert club.games_played == ["kille", "polskt_pass"]
    assert changes(club) == []  # which games are played moves no money


def test_play_offers_only_the_played_games_and_the_start_page_of_another_is_404(
    club, admin_client_, scorer_client
):
    play = reverse("scoring:play", args=[club.slug])
    kille_start = reverse("scoring:game-start", args=[club.slug, "kille"])
    cribbage_start = reverse("scoring:game-start", args=[club.slug, "cribbage"])
    assert cribbage_start in scorer_client.get(play).content.decode()  # empty: every game
    admin_client_.post(page_url(club), {"section": "games", "games-games_played": ["kille"]})
    page = scorer_client.get(play).content.decode()
    assert kille_start in page
    assert cribbage_start not in page
    assert scorer_client.get(kille_start).status_code == 200
    assert scorer_client.get(cribbage_start).status_code == 404


def test_the_league_section_saves_and_records_only_the_public_money(club, admin_client_):
    data = league_data(
        club,
        placement_scheme=PlacementScheme.THREE_ONE_ZERO,
        provisional_games="3",
        skunks_in_league=True,
        public_league_money=True,
    )
    assert admin_client_.post(page_url(club), data).status_code == 302
    club.refresh_from_db()
    assert club.placement_scheme == PlacementScheme.THREE_ONE_ZERO
    assert club.provisional_games == 3
    assert club.skunks_in_league
    assert club.public_league_money
    assert changes(club) == [{"field": "public_league_money", "old": False, "new": True}]


def test_the_league_section_offers_the_public_link_through_the_leagues_own_service(
    club, admin_client_
):
    page = admin_client_.get(page_url(club)).content.decode()
    assert reverse("league:share", args=[club.slug]) in page
    admin_client_.post(reverse("league:share", args=[club.slug]), {"action": "share"})
    club.refresh_from_db()
    page = admin_client_.get(page_url(club)).content.decode()
    assert reverse("league:shared", args=[club.league_share_token]) in page


def test_the_evening_section_saves_and_records_each_money_option(club, admin_client_):
    data = evening_data(fee="20", fee_kind="entry", pot_policy="merge", prize_percents="60/40")
    assert admin_client_.post(page_url(club), data).status_code == 302
    options = evenings.options_for(club)
    assert (options.fee_ore, options.fee_kind, options.pot_policy) == (2000, "entry", "merge")
    assert options.prize_percents == [60, 40]
    assert changes(club) == [
        {"field": "fee_ore", "old": 0, "new": 2000},
        {"field": "fee_kind", "old": "table", "new": "entry"},
        {"field": "pot_policy", "old": "carry", "new": "merge"},
        {"field": "prize_percents", "old": [], "new": [60, 40]},
    ]
    page = admin_client_.get(page_url(club)).content.decode().split('id="changes"')[1]
    assert "20,00\u00a0kr" in page  # money formatted, not öre
    assert "60/40" in page


def test_the_ceiling_section_saves_and_records_old_to_new(club, admin_client_):
    assert admin_client_.post(page_url(club), {"section": "ceiling", "ceiling-ceiling": "100"})
    club.refresh_from_db()
    assert club.max_amount_ore == 10_000
    assert ledger.amount_ceiling(club) == 10_000
    admin_client_.post(page_url(club), {"section": "ceiling", "ceiling-ceiling": ""})
    club.refresh_from_db()
    assert club.max_amount_ore is None
    assert changes(club) == [
        {"field": "max_amount_ore", "old": None, "new": 10_000},
        {"field": "max_amount_ore", "old": 10_000, "new": None},
    ]


def test_a_games_defaults_are_saved_recorded_and_offered_by_the_start_form(
    club, admin_client_, scorer_client
):
    data = {"base_stake_ore": "5", "small_stake_ore": "2,50", "two_player_rule": "on"}
    assert admin_client_.post(game_url(club, "kille"), data).status_code == 302
    club.refresh_from_db()
    assert club.game_defaults == {
        "kille": {
            "base_stake_ore": 500,
            "small_stake_ore": 250,
            "two_player_rule": True,
            "opening_stake_each_evening": False,
        }
    }
    assert changes(club) == [
        {"field": "kille.base_stake_ore", "old": None, "new": 500},
        {"field": "kille.opening_stake_each_evening", "old": None, "new": False},
        {"field": "kille.small_stake_ore", "old": None, "new": 250},
        {"field": "kille.two_player_rule", "old": None, "new": True},
    ]
    start = scorer_client.get(reverse("scoring:game-start", args=[club.slug, "kille"]))
    form = start.context["form"]
    assert form.fields["rule_base_stake_ore"].initial == "5,00"
    assert form.fields["rule_small_stake_ore"].initial == "2,50"
    # The defaults page shows what was saved.
    page = admin_client_.get(game_url(club, "kille"))
    assert page.context["form"].fields["base_stake_ore"].initial == "5,00"


def test_the_clubs_defaults_come_before_its_last_games_options(club, scorer, scorer_client):
    from scoring import recording

    players = [scorer, make_member(club, "Bo"), make_member(club, "Cilla")]
    recording.start_game(club, "kille", players, scorer.user, rules={"base_stake_ore": 300})
    url = reverse("scoring:game-start", args=[club.slug, "kille"])
    form = scorer_client.get(url).context["form"]
    assert form.fields["rule_base_stake_ore"].initial == "3,00"  # the last game's
    club_settings.save_game_defaults(club, None, "kille", {"base_stake_ore": 700})
    form = scorer_client.get(url).context["form"]
    assert form.fields["rule_base_stake_ore"].initial == "7,00"
    assert form.fields["rule_small_stake_ore"].initial == "1,00"  # the engine's


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"stake_ore": "-5"}, "stake_ore"),  # negative
        ({"stake_ore": "1000001"}, "stake_ore"),  # above the instance's ceiling
        ({"stake_ore": "tolv"}, "stake_ore"),
        ({"stake_ore": "5\x00"}, "stake_ore"),
        ({"target": "99"}, "target"),  # not one of the rules' choices
    ],
)
def test_a_default_the_rules_or_the_ceiling_refuse_changes_nothing(
    club, admin_client_, data, field
):
    before = snapshot(club)
    response = admin_client_.post(game_url(club, "cribbage"), data)
    assert response.status_code == 422
    assert response.context["form"].errors[field]
    assert snapshot(club) == before


def test_a_stake_the_engine_refuses_is_refused_in_its_words(club, admin_client_):
    before = snapshot(club)
    response = admin_client_.post(game_url(club, "polskt_pass"), {"stake_ore": "0"})
    assert response.status_code == 422
    assert response.context["form"].non_field_errors()
    assert snapshot(club) == before


def test_an_unknown_game_has_no_defaults_page(club, admin_client_):
    base = page_url(club) + "games/"
    for key in ("poker", "..%2Fkille", "kille%00", "KILLE", "x" * 5000):
        assert admin_client_.get(f"{base}{key}/").status_code == 404
        assert admin_client_.post(f"{base}{key}/", {"stake_ore": "5"}).status_code == 404


@pytest.mark.parametrize(
    "data",
    [
        {"section": "club", "club-name": "Spader\x00Kung", "club-swish_number": ""},
        {"section": "club", "club-name": "", "club-swish_number": ""},
        {"section": "club", "club-name": "x" * 101, "club-swish_number": ""},
        {"section": "club", "club-name": "Spader", "club-swish_number": "<script>"},
        {"section": "games", "games-games_played": ["kille", "poker"]},
        {"section": "games", "games-games_played": ["../../etc/passwd"]},
        {"section": "league"},
        {"section": "league", "league-placement_scheme": "5-0", "league-provisional_games": "1"},
        {"section": "league", "league-placement_scheme": "n-1", "league-provisional_games": "²"},
        evening_data(fee="-20"),
        evening_data(fee="1e9"),
        evening_data(fee_kind="gift"),
        evening_data(prize_percents="60/60"),
        evening_data(prize_percents="=HYPERLINK()"),
        {"section": "ceiling", "ceiling-ceiling": "1000000,01"},  # above the instance's
        {"section": "ceiling", "ceiling-ceiling": "-100"},
        {"section": "ceiling", "ceiling-ceiling": "0"},
        {"section": "ceiling", "ceiling-ceiling": "9" * 5000},
        {"section": "bogus"},
        {},
    ],
)
def test_bad_input_is_refused_and_changes_nothing(club, admin_client_, data):
    before = snapshot(club)
    response = admin_client_.post(page_url(club), data)
    assert response.status_code == 422
    assert snapshot(club) == before


def test_a_ceiling_above_the_instances_names_the_instances(club, admin_client_, settings):
    settings.MAX_AMOUNT_ORE = 50_000
    response = admin_client_.post(page_url(club), {"section": "ceiling", "ceiling-ceiling": "501"})
    assert response.status_code == 422
    assert "500,00\u00a0kr" in " ".join(response.context["forms"]["ceiling"].errors["ceiling"])
    assert Club.objects.get(pk=club.pk).max_amount_ore is None


def test_a_ceiling_below_the_clubs_own_fee_or_stake_is_refused(club, admin_client_):
    evenings.save_options(club, None, fee_ore=3000)
    club_settings.save_game_defaults(club, None, "kille", {"base_stake_ore": 2000})
    response = admin_client_.post(page_url(club), {"section": "ceiling", "ceiling-ceiling": "25"})
    assert response.status_code == 422
    assert Club.objects.get(pk=club.pk).max_amount_ore is None
    response = admin_client_.post(page_url(club), {"section": "ceiling", "ceiling-ceiling": "30"})
    assert response.status_code == 302
    assert Club.objects.get(pk=club.pk).max_amount_ore == 3000


def test_an_evening_fee_above_the_clubs_ceiling_is_refused(club, admin_client_):
    club_settings.save_ceiling(club, None, 1000)
    response = admin_client_.post(page_url(club), evening_data(fee="10,01"))
    assert response.status_code == 422
    assert "10,00\u00a0kr" in " ".join(response.context["forms"]["evenings"].errors["fee"])
    assert evenings.options_for(club).fee_ore == 0


# --- two admins at once --------------------------------------------------------------------


def test_two_admins_saving_at_once_both_have_their_change_recorded(club):
    first, second = Club.objects.get(pk=club.pk), Club.objects.get(pk=club.pk)  # both stale
    club_settings.save_ceiling(first, None, 5000)
    club_settings.save_ceiling(second, None, 7000)
    club_settings.save_club_fields(first, None, {"swish_number": "1231111111"})
    club_settings.save_club_fields(second, None, {"swish_number": "1232222222"})
    assert changes(club) == [
        {"field": "max_amount_ore", "old": None, "new": 5000},
        {"field": "max_amount_ore", "old": 5000, "new": 7000},
        {"field": "swish_number", "old": "", "new": "1231111111"},
        {"field": "swish_number", "old": "1231111111", "new": "1232222222"},
    ]
    # One game's defaults do not overwrite another's saved from a stale page.
    club_settings.save_game_defaults(first, None, "kille", {"base_stake_ore": 300})
    club_settings.save_game_defaults(second, None, "cribbage", {"stake_ore": 1000})
    assert set(Club.objects.get(pk=club.pk).game_defaults) == {"kille", "cribbage"}


# --- the money ceiling where amounts are checked --------------------------------------------


def test_a_payment_above_the_clubs_ceiling_is_refused_naming_the_ceiling(
    club, treasurer_client, member
):
    club_settings.save_ceiling(club, None, 10_000)
    url = reverse("ledger:payment", args=[club.slug])
    data = {
        "kind": "cash_in",
        "member": member.pk,
        "amount": "100,01",
        "date": timezone.localdate().isoformat(),
        "submission": "k1",
    }
    response = treasurer_client.post(url, data)
    assert response.status_code == 422
    assert "100,00\u00a0kr" in " ".join(response.context["form"].errors["amount"])
    assert not Transaction.objects.filter(club=club).exists()
    assert treasurer_client.post(url, data | {"amount": "100"}).status_code == 302
    assert Transaction.objects.filter(club=club).count() == 1


def test_the_books_refuse_a_posting_above_the_clubs_ceiling(club, member):
    club_settings.save_ceiling(club, None, 10_000)
    club.refresh_from_db()
    cash = ledger.system_account(club, AccountKind.CASH)
    with pytest.raises(ledger.LedgerError) as refusal:
        ledger.post(
            club,
            ledger.legs_for_transfer(cash, ledger.member_account(member), 10_001),
            "x",
            "manual",
            None,
        )
    assert "100,00\u00a0kr" in refusal.value.messages[0]
    assert not Transaction.objects.filter(club=club).exists()


def test_a_stake_above_the_clubs_ceiling_is_refused_at_the_start(club, scorer, scorer_client):
    club_settings.save_ceiling(club, None, 1000)
    players = [scorer, make_member(club, "Bo"), make_member(club, "Cilla")]
    url = reverse("scoring:game-start", args=[club.slug, "kille"])
    data = {
        "players": [p.pk for p in players],
        "base_stake_ore": "x",
        "rule_base_stake_ore": "10,01",
        "rule_small_stake_ore": "1",
        "submission": "k1",
    }
    response = scorer_client.post(url, data)
    assert response.status_code == 422
    assert response.context["form"].has_error("rule_base_stake_ore", code="too_large")
    # A club default above a ceiling lowered since (set behind the page) is refused too,
    # when the form leaves the option to it.
    Club.objects.filter(pk=club.pk).update(game_defaults={"kille": {"small_stake_ore": 5000}})
    data = data | {"rule_base_stake_ore": "10", "rule_small_stake_ore": ""}
    response = scorer_client.post(url, data)
    assert response.status_code == 422
    assert response.context["form"].has_error("rule_small_stake_ore", code="too_large")
    data["rule_small_stake_ore"] = "5"
    assert scorer_client.post(url, data).status_code == 302
