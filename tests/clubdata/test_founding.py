"""Founding a club: who may (CLUB_SIGNUP), the form, the service and ``manage.py create_club``."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.exceptions import ValidationError
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse

import ledger
from club.access import CURRENT_CLUB_SESSION_KEY
from club.models import Club, Member, Role, User
from clubdata import founding
from engine import registry
from tests.concurrency import at_once, postgres_only
from tests.factories import PASSWORD, make_user

# Also on SQLite (tests/conftest.py): a club founded on the embedded default.
pytestmark = pytest.mark.sqlite

FOUND = reverse("clubdata:club-found")


def logged_in(user: User) -> Client:
    client = Client()
    client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    return client


@pytest.fixture
def open_signup(settings):
    settings.CLUB_SIGNUP = "open"


@pytest.fixture
def invite_only(settings):
    settings.CLUB_SIGNUP = "invite"


@pytest.fixture
def anna(db):
    return User.objects.create_user("anna", password=PASSWORD, first_name="Anna", last_name="Ek")


def form(**fields) -> dict:
    return {
        "name": "Kille i Kungsholmen",
        "slug": "",
        "swish_number": "123 456 78 90",
        "games": ["kille", "cribbage"],
        **fields,
    }


# --- who may ----------------------------------------------------------------------------------


def test_with_open_signup_a_signed_in_user_founds_a_club_and_lands_on_it_as_admin(
    open_signup, anna
):
    client = logged_in(anna)
    response = client.post(FOUND, form())
    club = Club.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("club:club-home", args=[club.slug])
    assert (club.name, club.slug, club.swish_number) == (
        "Kille i Kungsholmen",
        "kille-i-kungsholmen",
        "123 456 78 90",
    )
    founder = Member.objects.get(club=club)
    assert (founder.user, founder.name) == (anna, "Anna Ek")
    assert founder.can(Role.ADMIN)
    assert client.session[CURRENT_CLUB_SESSION_KEY] == club.slug
    home = client.get(response["Location"])
    assert home.status_code == 200
    assert ledger.verify_books(club) == []


def test_with_invite_signup_a_plain_user_gets_a_page_that_says_how_clubs_are_made(
    invite_only, anna
):
    client = logged_in(anna)
    for response in (client.get(FOUND), client.post(FOUND, form())):
        assert response.status_code == 403
        assert "manage.py create_club" in response.content.decode()
    assert not Club.objects.exists()
    assert "found-club-link" not in client.get(reverse("club:home")).content.decode()


def test_with_invite_signup_a_staff_user_may_found_a_club(invite_only, anna):
    anna.is_staff = True
    anna.save()
    assert logged_in(anna).post(FOUND, form()).status_code == 302
    assert Club.objects.filter(members__user=anna).exists()


def test_a_visitor_is_sent_to_log_in(open_signup, client):
    response = client.get(FOUND)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))
    assert not founding.may_found(User(username="x", is_active=False, is_staff=True))


def test_no_club_and_the_club_list_offer_founding_only_to_who_may(settings, anna):
    client = logged_in(anna)
    for signup, shown in (("open", True), ("invite", False)):
        settings.CLUB_SIGNUP = signup
        for page in (reverse("club:home"), reverse("club:club-list")):
            html = client.get(page).content.decode()
            assert ("found-club-link" in html) is shown, (signup, page)


def test_the_form_offers_every_game_ticked_with_translated_names(open_signup, anna):
    response = logged_in(anna).get(FOUND)
    assert response.status_code == 200
    html = response.content.decode()
    for game in registry.all_games():
        assert f'value="{game.key}"' in html
    assert html.count("checked") == len(registry.all_games())
    response = logged_in(anna).get(FOUND, headers={"Accept-Language": "en"})
    assert "Whist" in response.content.decode()


# --- what is saved ----------------------------------------------------------------------------


def test_the_games_ticked_are_saved_in_the_play_pages_order(open_signup, anna):
    logged_in(anna).post(FOUND, form(games=["kille", "cribbage"]))
    assert Club.objects.get().games_played == ["cribbage", "kille"]


def test_every_game_ticked_is_saved_as_every_game(open_signup, anna):
    logged_in(anna).post(FOUND, form(games=list(registry.game_keys())))
    assert Club.objects.get().games_played == []


def test_a_club_without_games_is_refused(open_signup, anna):
    response = logged_in(anna).post(FOUND, form(games=[]))
    assert response.status_code == 422
    assert response.context["form"].has_error("games")
    assert not Club.objects.exists()


def test_a_slug_left_empty_is_suggested_from_the_name_swedish_letters_read_plainly(
    open_signup, anna
):
    Club.objects.create(name="Någon annan", slug="kasa-kille")  # the first suggestion is taken
    logged_in(anna).post(FOUND, form(name="Kåsa Kille", slug=""))
    assert Club.objects.get(name="Kåsa Kille").slug == "kasa-kille-2"
    assert founding.slug_base("Ölstugan Ärlig") == "olstugan-arlig"
    assert founding.slug_base("♠♥♦♣") == founding.FALLBACK_SLUG
    assert len(founding.slug_base("x" * 500)) <= 45


def test_the_hint_suggests_the_slug_while_the_name_is_typed(open_signup, anna):
    response = logged_in(anna).get(
        reverse("clubdata:club-found-slug"), {"name": "Kåsa Kille"}, headers={"HX-Request": "true"}
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="slug-hint"' in html
    assert "kasa-kille" in html
    assert "<html" not in html


def test_a_slug_taken_is_a_form_error_never_a_500(open_signup, anna):
    Club.objects.create(name="Annan klubb", slug="taken")
    response = logged_in(anna).post(FOUND, form(slug="taken"))
    assert response.status_code == 422
    assert response.context["form"].has_error("slug", code="slug_taken")
    assert Club.objects.count() == 1


def test_the_service_refuses_a_taken_slug_with_a_validation_error(anna):
    founding.found_club(anna, "Första", slug="klubben")
    other = make_user()
    with pytest.raises(ValidationError) as refused:
        founding.found_club(other, "Andra", slug="klubben")
    assert refused.value.code == "slug_taken"
    # The same name by another user is not the same founding either.
    with pytest.raises(ValidationError):
        founding.found_club(other, "Första", slug="klubben")
    assert Club.objects.count() == 1


def test_a_bad_swish_number_is_refused_and_nothing_is_made(open_signup, anna):
    response = logged_in(anna).post(FOUND, form(swish_number="070-ABC"))
    assert response.status_code == 422
    assert response.context["form"].has_error("swish_number", code="swish_number")
    assert not Club.objects.exists()
    with pytest.raises(ValidationError):
        founding.found_club(anna, "Klubben", swish_number="070-ABC")
    assert not Club.objects.exists()


@pytest.mark.parametrize(
    "fields",
    [
        {"name": "K" * 10_000},
        {"name": "Kille\x00klubben"},
        {"name": "   "},
        {"slug": "kil\x00le"},
        {"slug": "s" * 10_000},
        {"slug": "../admin"},
        {"slug": "åäö"},
        {"swish_number": "0\x0070"},
        {"swish_number": "9" * 10_000},
        {"games": ["kille", "x" * 10_000]},
        {"games": ["kille\x00"]},
    ],
)
def test_hostile_input_is_a_clear_refusal_and_nothing_is_made(open_signup, anna, fields):
    response = logged_in(anna).post(FOUND, form(**fields))
    assert response.status_code == 422
    assert response.context["form"].errors
    assert not Club.objects.exists()
    assert not Member.objects.exists()


def test_a_double_tap_makes_one_club(open_signup, anna):
    client = logged_in(anna)
    for slug in ("", "kik"):
        first = client.post(FOUND, form(slug=slug))
        second = client.post(FOUND, form(slug=slug))
        assert first.status_code == second.status_code == 302
        assert first["Location"] == second["Location"]
    assert Club.objects.count() == 2  # one per slug asked for, not four
    assert Member.objects.filter(user=anna).count() == 2


def test_a_double_tap_at_the_same_moment_makes_one_club(transactional_db, anna):
    postgres_only()
    for slug in ("", "kik"):
        clubs = at_once(
            lambda _n, slug=slug: founding.found_club(anna, "Kille i Kungsholmen", slug=slug),
            range(3),
        )
        assert len({club.pk for club in clubs}) == 1
    assert Club.objects.count() == 2
    for club in Club.objects.all():
        assert list(Member.objects.filter(club=club).values_list("user", flat=True)) == [anna.pk]


def test_a_chosen_slug_committed_by_the_same_founding_between_two_reads_is_that_club(
    transactional_db, anna, monkeypatch
):
    """The race CI met: the first founding commits after the second asked "mine already?" and
    before it asked "taken?". The second must answer with the first's club, not "taken"."""
    postgres_only()
    asked = founding._same_founding

    def the_other_tap_commits_in_between(user, name, slugs):
        monkeypatch.setattr(founding, "_same_founding", asked)
        seen = asked(user, name, slugs)
        at_once(lambda _n: founding.found_club(anna, "Kille i Kungsholmen", slug="kik"), [0])
        return seen

    monkeypatch.setattr(founding, "_same_founding", the_other_tap_commits_in_between)
    club = founding.found_club(anna, "Kille i Kungsholmen", slug="kik")
    assert Club.objects.get().pk == club.pk


# --- manage.py create_club --------------------------------------------------------------------


def create_club(*args: str) -> str:
    out = StringIO()
    call_command("create_club", *args, stdout=out, stderr=StringIO())
    return out.getvalue().strip()


def test_the_command_founds_a_club_whatever_the_signup_setting(invite_only, anna):
    path = create_club(
        "--name", "Kille i Kungsholmen", "--admin", "anna", "--swish", "1234567890",
        "--games", "kille,polskt_pass",
    )  # fmt: skip
    club = Club.objects.get()
    assert path == f"/c/{club.slug}/" == "/c/kille-i-kungsholmen/"
    assert club.games_played == ["kille", "polskt_pass"]
    assert club.swish_number == "1234567890"
    assert Member.objects.get(club=club, user=anna).can(Role.ADMIN)
    assert ledger.verify_books(club) == []


def test_the_command_refuses_an_unknown_login_and_makes_nothing(db):
    with pytest.raises(CommandError, match="No login 'nobody'"):
        create_club("--name", "Klubben", "--admin", "nobody")
    assert not Club.objects.exists()


def test_the_command_refuses_a_taken_slug_and_an_unknown_game(anna):
    create_club("--name", "Klubben", "--admin", "anna", "--slug", "klubben")
    other = make_user("bertil")
    with pytest.raises(CommandError):
        create_club("--name", "Andra", "--admin", other.username, "--slug", "klubben")
    with pytest.raises(CommandError):
        create_club("--name", "Tredje", "--admin", "anna", "--games", "kille,schack")
    assert Club.objects.count() == 1


def test_the_command_makes_the_admin_login_with_the_password_from_the_environment(db, monkeypatch):
    monkeypatch.setenv("PROTOKOLL_ADMIN_PASSWORD", PASSWORD)
    create_club("--name", "Klubben", "--admin", "cecilia", "--create-admin")
    cecilia = User.objects.get(username="cecilia")
    assert cecilia.check_password(PASSWORD)
    assert Member.objects.get(user=cecilia).can(Role.ADMIN)


def test_the_command_makes_no_login_when_the_club_is_refused(db, monkeypatch):
    monkeypatch.setenv("PROTOKOLL_ADMIN_PASSWORD", PASSWORD)
    with pytest.raises(CommandError):
        create_club("--name", "\x00", "--admin", "cecilia", "--create-admin")
    assert not User.objects.filter(username="cecilia").exists()
