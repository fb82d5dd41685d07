"""Driving a game's pad as a phone does, for the pad tests of every game.

A pad's form posts the event's ``type``, the ``expected_seq`` the page was drawn at, an
``idempotency_key`` (one per tap) and the event's fields as ``p_<name>``; the few buttons that
carry a whole event send it as JSON in ``payload``. htmx adds its ``HX-Request`` header. The
start page posts the members ticked, the seat order they were tapped in and the options as
``rule_<name>``.

Each test module keeps the helper that shapes its own game's form (bids and tricks per seat,
the category chips …) and hands the posting to :func:`post_event`.
"""

from __future__ import annotations

import json

from django.http import HttpResponse
from django.test import Client
from django.urls import reverse

import ledger
from club.models import Club, Member
from scoring.models import Game

HTMX = {"HTTP_HX_REQUEST": "true"}
# For modules that read the engine's messages word for word (the UI is Swedish by default).
HTMX_IN_ENGLISH = {**HTMX, "HTTP_ACCEPT_LANGUAGE": "en"}


def pad_url(game: Game) -> str:
    return reverse("scoring:game-detail", args=[game.club.slug, game.pk])


def event_url(game: Game) -> str:
    return reverse("scoring:game-event", args=[game.club.slug, game.pk])


def p_fields(**fields) -> dict[str, object]:
    """A form's inputs as the pad names them: ``player="s1"`` is ``p_player``."""
    return {f"p_{name}": value for name, value in fields.items()}


def post_event(
    client: Client,
    game: Game,
    type_: str,
    fields: dict | None = None,
    *,
    payload: dict | None = None,
    seq: int | None = None,
    key: str | None = None,
    headers: dict | None = None,
    status: int | None = None,
) -> HttpResponse:
    """Post one event to the game's pad and return the response; ``game`` is fresh afterwards.

    ``seq`` defaults to the game's current one, ``key`` to one per type and seq (a new tap);
    ``headers`` to htmx's. With ``status``, the response must have it.
    """
    game.refresh_from_db()
    seq = game.seq if seq is None else seq
    data = {
        "type": type_,
        "expected_seq": seq,
        "idempotency_key": key or f"{type_}-{seq}",
        **(fields or {}),
    }
    if payload is not None:
        data["payload"] = json.dumps(payload)
    response = client.post(event_url(game), data, **(HTMX if headers is None else headers))
    if status is not None:
        assert response.status_code == status, response.content.decode()[:2000]
    game.refresh_from_db()
    return response


def start_form(players: list[Member], order: list[Member] | None = None, **rules) -> dict:
    """What the start page posts: ``players`` ticked, seated as tapped (``order``, else as
    listed), and the options, ``target="61"`` as ``rule_target``."""
    return {
        "players": [p.pk for p in players],
        "order": ",".join(str(p.pk) for p in (order or players)),
        **{f"rule_{name}": value for name, value in rules.items()},
    }


def start_from_form(client: Client, club: Club, key: str, players: list[Member], **rules) -> Game:
    """Start a game as the start page does (which also hands the club's pots to the engine)."""
    url = reverse("scoring:game-start", args=[club.slug, key])
    response = client.post(url, start_form(players, **rules))
    assert response.status_code == 302, response.content.decode()[:2000]
    return Game.objects.filter(club=club, game_key=key).latest("pk")


def help_page(client: Client, key: str, language: str) -> str:
    url = reverse("scoring:game-help", args=[key])
    return client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()


def balances(members: list[Member]) -> list[int]:
    """Each member's balance in öre, in the order given."""
    return [ledger.balance(ledger.member_account(m)) for m in members]
