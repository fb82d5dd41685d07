"""A member's own data (clubdata.mydata): the JSON worked by hand for a small club, the PDF,
who may download whose, and the links on the account page."""

from __future__ import annotations

import io
import json
from datetime import timedelta

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import timezone
from pypdf import PdfReader

import evenings
import ledger
from club.models import Role, Season
from clubdata import mydata
from engine import registry
from ledger import payments
from ledger.models import AccountKind
from scoring import games, recording
from tests.conftest import client_for
from tests.factories import make_member
from tests.scoring import toy_game


@pytest.fixture(name="toy")
def toy_fixture():
    registry.register(toy_game)
    games.register(games.Pad(toy_game.KEY))
    yield
    games.unregister(toy_game.KEY)
    registry.unregister(toy_game.KEY)


def play(club, players, by, *, staker: str, winner: str, stake: int):
    game = recording.start_game(club, "toy", players, by.user)
    recording.append_event(
        game,
        "stake",
        {"player": staker, "amount": stake},
        expected_seq=0,
        idempotency_key="a",
        by=by.user,
    )
    recording.append_event(
        game, "win", {"player": winner}, expected_seq=1, idempotency_key="b", by=by.user
    )
    game.refresh_from_db()
    return game


@pytest.fixture(name="small_club")
def small_club_fixture(toy, club, member, treasurer, django_capture_on_commit_callbacks):
    """Maja Medlem and Bo Ek play two games, Maja pays 100 kr in and comes to an evening
    (fee 20 kr). Maja: -3 kr in the first game (her stake, Bo won), +5 kr in the second (Bo's
    stake, she won), +100 kr, -20 kr = 82 kr."""
    today = timezone.localdate()
    Season.objects.create(
        club=club, name="Säsongen", start=today - timedelta(days=30), end=today + timedelta(days=30)
    )
    bo = make_member(club, "Bo Ek")
    with django_capture_on_commit_callbacks(execute=True):
        first = play(club, [member, bo], treasurer, staker="s0", winner="s1", stake=300)
        second = play(club, [bo, member], treasurer, staker="s0", winner="s1", stake=500)
    payments.record_payment(
        club, payments.PaymentKind.CASH_IN, 10_000, "Swish", treasurer.user, member=member
    )
    evenings.save_options(club, treasurer.user, fee_ore=2000)
    evening = evenings.open_evening(club, treasurer.user, title="Torsdagskille")
    evenings.check_in(evening, treasurer.user, member=member)
    member.email = "maja@example.org"
    member.swish_number = "0701234567"
    member.save()
    member.user.email = "maja.login@example.org"
    member.user.save()
    return {"bo": bo, "games": (first, second), "evening": evening}


def test_the_json_holds_a_small_clubs_member_worked_by_hand(club, member, small_club):
    first, second = small_club["games"]
    data = json.loads(mydata.member_data_json(member))
    assert data["format"] == "protokoll-member-data"
    assert data["version"] == 1
    assert data["club"] == {"name": club.name, "slug": club.slug}
    assert data["member"] | {"joined_at": None} == {
        "id": member.pk,
        "name": "Maja Medlem",
        "email": "maja@example.org",
        "swish_number": "0701234567",
        "roles": ["member"],
        "active": True,
        "joined_at": None,
        "left_at": None,
        "erased_at": None,
    }
    assert data["login"]["username"] == member.user.username
    assert data["login"]["email"] == "maja.login@example.org"
    assert "password" not in json.dumps(data["login"])
    # His games, his seat and his result; the other players only counted.
    assert [
        (g["game"], g["seat"], g["players"], g["placement"], g["score"], g["net_ore"])
        for g in data["games"]
    ] == [(first.pk, 0, 2, 2, 0, -300), (second.pk, 1, 2, 1, 100, 500)]
    assert "Bo Ek" not in json.dumps(data["games"])
    assert [(r["game"], r["placement"], r["net_ore"]) for r in data["league"]["results"]] == [
        (f"game:{first.pk}", 2, -300),
        (f"game:{second.pk}", 1, 500),
    ]
    (standing,) = data["league"]["standings"]
    assert (standing["season"], standing["played"], standing["won"], standing["net_ore"]) == (
        "Säsongen",
        2,
        1,
        200,
    )
    # The statement: every entry, in öre and formatted, with the running balance.
    (account,) = data["accounts"]
    assert (account["kind"], account["balance_ore"]) == (AccountKind.MEMBER, 8200)
    assert [(e["amount_ore"], e["running_ore"], e["source"]) for e in account["entries"]] == [
        (-300, -300, "game"),
        (500, 200, "game"),
        (10_000, 10_200, "manual"),
        (-2000, 8200, "evening"),
    ]
    assert account["entries"][2]["memo"] == "Swish"
    assert account["entries"][2]["amount"] == "100,00\xa0kr"
    assert all(isinstance(e["amount_ore"], int) for e in account["entries"])
    (evening,) = data["evenings"]
    assert (evening["evening"], evening["title"], evening["fee_ore"]) == (
        small_club["evening"].pk,
        "Torsdagskille",
        2000,
    )
    assert evening["date"] == timezone.localdate().isoformat()


def test_a_member_downloads_his_own_json(member_client, club, member, small_club):
    response = member_client.get(reverse("clubdata:my-data-json", args=[club.slug]))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/json")
    assert "attachment" in response["Content-Disposition"]
    data = json.loads(response.content)
    assert data["member"]["id"] == member.pk


def pdf_text(data: bytes) -> str:
    reader = PdfReader(io.BytesIO(data))
    return "\n".join(page.extract_text() for page in reader.pages).replace("\u00a0", " ")


def test_the_pdf_is_a_pdf_with_his_name_and_statement(member_client, club, member, small_club):
    response = member_client.get(reverse("clubdata:my-data-pdf", args=[club.slug]))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert response.content.startswith(b"%PDF")
    text = pdf_text(response.content)
    assert "Maja Medlem" in text
    assert "Dina uppgifter" in text  # Swedish by default
    assert "82,00 kr" in text
    assert "Torsdagskille" in text


def test_the_pdf_is_in_the_members_language(member_client, club, member, small_club):
    member_client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    response = member_client.get(reverse("clubdata:my-data-pdf", args=[club.slug]))
    text = pdf_text(response.content)
    assert "Your data" in text
    assert "SEK 82.00" in text


def test_another_members_data_is_404_to_a_member(member_client, club, small_club, other_club):
    bo = small_club["bo"]
    for name in ("clubdata:member-data-json", "clubdata:member-data-pdf"):
        assert member_client.get(reverse(name, args=[club.slug, bo.pk])).status_code == 404
    stranger = make_member(other_club, "Sara Annan")
    url = reverse("clubdata:my-data-json", args=[other_club.slug])
    assert member_client.get(url).status_code == 404  # not her club
    assert client_for(stranger).get(url).status_code == 200


def test_an_admin_downloads_any_member_of_his_club(admin_client_, club, small_club, outsider):
    bo = small_club["bo"]
    response = admin_client_.get(reverse("clubdata:member-data-json", args=[club.slug, bo.pk]))
    assert response.status_code == 200
    assert json.loads(response.content)["member"]["name"] == "Bo Ek"
    pdf = admin_client_.get(reverse("clubdata:member-data-pdf", args=[club.slug, bo.pk]))
    assert pdf.content.startswith(b"%PDF")
    assert "Bo Ek" in pdf_text(pdf.content)
    # Another club's member by id, through this club: nothing.
    url = reverse("clubdata:member-data-json", args=[club.slug, outsider.pk])
    assert admin_client_.get(url).status_code == 404


def test_a_member_of_no_club_and_a_stranger_get_nothing(client, club, member):
    url = reverse("clubdata:my-data-json", args=[club.slug])
    assert client.get(url).status_code == 302  # to the login
    lonely = make_member(club, "Lina Ensam")
    lonely.active = False
    lonely.save()
    assert client_for(lonely).get(url).status_code == 404


def test_the_account_page_lists_a_line_per_club(member_client, club, member, other_club):
    other = make_member(other_club, "Maja Medlem", login=False)
    other.user = member.user
    other.save()
    page = member_client.get(reverse("account")).content.decode()
    assert reverse("clubdata:my-data-pdf", args=[club.slug]) in page
    assert reverse("clubdata:my-data-json", args=[other_club.slug]) in page


def test_the_member_page_fragment_offers_downloads_and_erasure_to_admins(
    rf, club, member, admin_member
):
    from django.template.loader import render_to_string

    def fragment(person, me):
        request = rf.get("/")
        request.member = me
        return render_to_string(
            "clubdata/_member_danger.html",
            {"person": person, "me": me, "club": club},
            request=request,
        )

    shown = fragment(member, admin_member)
    assert reverse("clubdata:member-data-pdf", args=[club.slug, member.pk]) in shown
    assert reverse("clubdata:member-erase", args=[club.slug, member.pk]) in shown
    assert "member-erase" not in fragment(admin_member, admin_member)  # not oneself
    assert fragment(member, member).strip() == ""  # not for members
    member.erased_at = timezone.now()
    assert "member-erase" not in fragment(member, admin_member)


def test_the_document_feeding_the_pdf_has_every_part(club, member, small_club):
    html = mydata.member_data_html(member)
    for part in ("Maja Medlem", "maja@example.org", "0701234567", "Torsdagskille", "Säsongen"):
        assert part in html
    assert member.user.username in html
    assert f">{Role.MEMBER.label}<" in html  # roles by their labels, in the reader's language


def test_a_member_with_nothing_yet_gets_an_empty_but_whole_file(member_client, club, member):
    data = json.loads(member_client.get(reverse("clubdata:my-data-json", args=[club.slug])).content)
    assert (data["games"], data["evenings"]) == ([], [])
    assert [(a["balance_ore"], a["entries"]) for a in data["accounts"]] == [(0, [])]
    assert data["league"] == {"results": [], "standings": []}
    pdf = member_client.get(reverse("clubdata:my-data-pdf", args=[club.slug]))
    assert pdf.content.startswith(b"%PDF")


def test_the_statement_memos_are_in_the_readers_language(club, member, small_club):
    ledger.describe([])  # the describers are registered by the apps
    data = mydata.member_data(member)
    memos = [e["memo"] for e in data["accounts"][0]["entries"]]
    assert memos[0].startswith("Toy #")
    assert "Maja Medlem" in memos[0]
