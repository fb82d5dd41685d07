"""Demo evenings: games recorded through the real recording path, for the demo club.

Random but legal deals of the games whose engines exist, so the history, the ledger and the
league have something to show. A seeded generator proposes deals and the engine accepts or
refuses each, so the demo is the same every time.
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone

from club import league, ledger
from club.models import AccountKind, Club, GameResult, Member, User
from engine import registry
from scoring import recording


@transaction.atomic
def record_evenings(club: Club, user: User) -> None:
    """Three weekly evenings of every demo game, once: a club with postings is left alone."""
    if club.transactions.exists():
        return
    rng = random.Random(2026)
    members = list(Member.objects.for_club(club).order_by("name"))
    cash = ledger.system_account(club, AccountKind.CASH)
    for member in members[:8]:
        ledger.post(
            club,
            ledger.legs_for_transfer(cash, ledger.member_account(member), 10000),
            "Insättning",
            "manual",
            user,
        )
    evening = timezone.now() - timedelta(days=21)
    for week in range(3):
        for key, make_deal in DEMO_GAMES.items():
            try:
                info = registry.get(key)
            except KeyError:
                continue
            players = rng.sample(members, info.min_players if key != "femhundra" else 3)
            game = recording.start_game(club, key, players, user)
            _play(game, make_deal, rng, user)
            _backdate(game, evening + timedelta(days=7 * week, hours=rng.randint(0, 3)))
    league.recompute_club(club)


def _play(game, make_deal, rng: random.Random, user: User) -> None:
    for _attempt in range(400):
        game.refresh_from_db()
        if not game.is_open:
            return
        seats = [seat.key for seat in game.seats.all()]
        event = make_deal(seats, rng)
        try:
            recording.append_event(
                game,
                event.pop("type"),
                event,
                expected_seq=game.seq,
                idempotency_key=f"demo-{game.pk}-{game.seq}-{_attempt}",
                by=user,
            )
        except recording.EventRefused:
            continue


def _backdate(game, when: datetime) -> None:
    """Demo games happened on earlier evenings: move their times (and results) back."""
    type(game).objects.filter(pk=game.pk).update(
        started_at=when, finished_at=when + timedelta(hours=1)
    )
    game.events.update(created_at=when)
    GameResult.objects.filter(game_ref=game.ref).update(finished_at=when + timedelta(hours=1))


def _split(total: int, parts: int, rng: random.Random) -> list[int]:
    cuts = sorted(rng.randint(0, total) for _ in range(parts - 1))
    return [b - a for a, b in zip([0, *cuts], [*cuts, total], strict=True)]


def _fyrtioett_deal(seats: list[str], rng: random.Random) -> dict:
    tricks = _split(13, 4, rng)
    bids = [max(1, min(13, t + rng.choice((-1, 0, 0, 1)))) for t in tricks]
    return {
        "type": "deal",
        "bids": dict(zip(seats, bids, strict=True)),
        "tricks": dict(zip(seats, tricks, strict=True)),
    }


def _nittionio_deal(seats: list[str], rng: random.Random) -> dict:
    tricks = _split(9, 3, rng)
    bids = [max(0, min(9, t + rng.choice((-1, 0, 0, 1)))) for t in tricks]
    return {
        "type": "deal",
        "bids": dict(zip(seats, bids, strict=True)),
        "tricks": dict(zip(seats, tricks, strict=True)),
    }


def _femhundra_deal(seats: list[str], rng: random.Random) -> dict:
    declarer = rng.choice(seats)
    level = rng.randint(6, 8)
    tricks = _split(10, len(seats), rng)
    return {
        "type": "deal",
        "declarer": declarer,
        "contract": f"{level}{rng.choice('SCDH')}",
        "tricks": dict(zip(seats, tricks, strict=True)),
    }


DEMO_GAMES = {
    "fyrtioett": _fyrtioett_deal,
    "nittionio": _nittionio_deal,
    "femhundra": _femhundra_deal,
}
