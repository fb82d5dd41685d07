"""Guests at the table (issue 28, item 4): following a table read-only, recording one game.

Two links, both carried in the URL path of every request they make and never in a session (a
link passed on is a link, not a login that sticks to the phone):

- **A table's link** ``/t/<token>/`` (``evenings.table_links``: the table's id, signed). It
  outlives the table's games: it opens the table's game (``table_game``: the open one, else the
  latest) — for a member of the club his pad, for anyone else a read-only page of the same
  score sheet and history, refreshed by the pad's own poll and live stream, with no forms and
  no way to the club's pages.
- **A guest's link** ``/g/<token>/``: the host's leave for someone without a login to record
  one game (``GuestPass``). The secret is random (``secrets.token_urlsafe``), shown once on the
  host's pad as a link and a QR code; only its SHA-256 is stored. It records with the same
  service as members (``recording.append_event`` with ``guest_pass``: seq and idempotency
  checked alike, the event stored without a user and with the pass), for its own game only and
  only while that game is open and the pass not revoked — checked again under the game's lock
  (``recording.turns._check_guest``), which revoking takes too. Once the game is over the link
  shows the game read-only; a revoked link answers 403 with a page that says so.
"""

from __future__ import annotations

import hashlib
import re
import secrets

from django.db import transaction
from django.db.models import Prefetch
from django.urls import reverse
from django.utils import timezone

from club.models import User
from evenings.models import Table
from scoring.models import Game, GameStatus, GuestPass, Seat
from scoring.recording import turns

# token_urlsafe(24): 32 characters of A-Z a-z 0-9 - _ (192 random bits).
TOKEN_BYTES = 24
_TOKEN = re.compile(r"[A-Za-z0-9_-]{20,64}")


def table_path(token: str) -> str:
    """What a table's link is (registered with ``evenings.table_links`` in ``ScoringConfig``)."""
    return reverse("scoring:table-follow", args=[token])


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def create_pass(game: Game, by: User | None) -> tuple[GuestPass, str]:
    """A new pass for ``game`` and its secret (shown once; only its hash is kept)."""
    token = secrets.token_urlsafe(TOKEN_BYTES)
    guest_pass = GuestPass.objects.create(game=game, token_hash=hash_token(token), created_by=by)
    return guest_pass, token


def revoke(game: Game) -> int:
    """Close every open pass of the game, under the game's lock (a guest's tap in flight either
    committed before or is refused after). Returns how many were open: 0 the second time."""
    with transaction.atomic():
        turns._lock(game)
        return GuestPass.objects.filter(game=game, revoked_at__isnull=True).update(
            revoked_at=timezone.now()
        )


def active(game: Game) -> bool:
    return GuestPass.objects.filter(game=game, revoked_at__isnull=True).exists()


def pass_for(token: object) -> GuestPass | None:
    """The pass a token is the secret of (revoked or not), or None; any text is safe here."""
    if not isinstance(token, str) or not _TOKEN.fullmatch(token):
        return None
    return GuestPass.objects.filter(token_hash=hash_token(token)).first()


def game_of(game_id: int) -> Game:
    """A game with what its pad reads (as ``scoring.views._game``, without a club to scope by:
    the caller holds a pass or a table's link to this very game)."""
    return (
        Game.objects.select_related("club", "table")
        .defer("snapshot")
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("member")))
        .get(pk=game_id)
    )


def table_game(table: Table) -> Game | None:
    """The table's game now: the newest open one, else the newest not voided, else the newest."""
    games = Game.objects.filter(table=table).order_by("-started_at", "-pk")
    found = (
        games.filter(status=GameStatus.OPEN).values_list("pk", flat=True).first()
        or games.exclude(status=GameStatus.VOIDED).values_list("pk", flat=True).first()
        or games.values_list("pk", flat=True).first()
    )
    return game_of(found) if found else None
