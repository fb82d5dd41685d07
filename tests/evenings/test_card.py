"""The evening's results card: what it says, and that it is a real square PNG."""

from __future__ import annotations

import io

from django.urls import reverse
from PIL import Image

import evenings
import ledger
from evenings import card
from ledger.models import Source
from tests.factories import make_member


def test_the_card_names_the_club_the_date_the_top_three_and_the_pots(club, in_english):
    evening = evenings.open_evening(club, None)
    people = [make_member(club, name) for name in ("Anna", "Bo", "Cissi", "Doris")]
    here = [evenings.check_in(evening, None, member=m) for m in people]
    evenings.form_tables(evening, "kille", [here[:3]], None)
    ledger.post(
        club,
        [(ledger.member_account(people[1]), 2500), (ledger.member_account(people[3]), -2500)],
        "Kvällen",
        Source.EVENING,
        None,
        ref=f"{evening.ref}:test",
    )

    lines = card.card_lines(evening)

    texts = [text for _style, text in lines]
    assert texts[0] == club.name
    assert texts[1].startswith("Club evening ")
    assert texts[3].startswith("1. Bo")
    assert "25.00" in texts[3]
    assert any(t.startswith("Table 1, Kille: pot") for t in texts)


def test_the_card_is_a_square_png(club, member_client):
    evening = evenings.open_evening(club, None)
    response = member_client.get(reverse("evenings:card", args=[club.slug, evening.pk]))
    assert response.status_code == 200
    assert response["Content-Type"] == "image/png"
    image = Image.open(io.BytesIO(response.content))
    assert image.format == "PNG"
    assert image.size == (card.SIZE, card.SIZE)
    # Not a blank square: the text is drawn in a second colour.
    assert len(image.getcolors(maxcolors=100000) or []) > 2
