"""Results the table confirms (issue 28, item 5): "Stämmer", or a dispute with a word.

Design
- **What is confirmed**: a game *as it stands at a seq* (``Confirmation.seq``). Any event
  recorded after it — the next deal, an undo, a correction — makes it stale: the game then
  needs a new word. Rows are append-only; a member's newer row (at any seq) supersedes his
  older ones, so "Stämmer" after a dispute takes the dispute back, and a dispute after
  "Stämmer" takes that back.
- **Who may**: a member seated at the game, with a login, who recorded *none* of the game's
  events. With several phones recording one game, each recorder vouches for his own taps and is
  no second pair of eyes for the game; only a player who entered nothing confirms. (A guest's
  taps through a guest pass name no member: they keep no seated member out.)
- **When** (``Club.confirm_when``): "at the end of the game" (default) offers it once the game
  is finished; "after each deal" also after every event that moved money — the simplest rule
  true of every game the engine knows, since a deal's money is settled when it ends (an
  event with ``Event.money``). An undo moves money back but ends no deal: after one, the pad
  waits for the next deal (or the end). A voided game takes no word.
- **Verdict** at the game's current seq (``verdict``): *disputed* while a current dispute is
  the member's latest word and no host resolution at that seq came after it; else *confirmed*
  when a current "Stämmer" (a member's latest word) or a resolution exists; else
  *unconfirmed*. ``open_disputes`` is the same rule for disputes in SQL, for the flags.
- **Resolving**: the host (a scorer) either undoes on the pad (the dispute becomes stale) or
  taps "confirm as it stands": a ``RESOLVED`` row naming him and keeping the disputes' words;
  it settles every dispute at its seq recorded before it. The host may also confirm as it
  stands a game that no seated member may confirm (everyone at the table recorded some of
  it), else a club that requires confirmation could never settle such a game.
- **Twice**: a tap carries a one-time key (unique per game): a double tap records once. The
  game row is locked while the word is checked and written, so a word is about the seq that
  the database says is current; a member's second identical word at the same seq adds nothing.
- **The other phones** (``_tell_the_table``): a word is not an event and does not change the
  game's seq. It is published on the game's live channel with a version that is not a seq
  (``"<seq>:c<id>"``), which every pad following the game takes as news and refreshes; the
  poll compares the newest word's id (``stamp``) besides the seq, and the word marks the
  seq's "nothing new" in the shared cache stale so that polls ask the database. A finished
  game's pad keeps following while its word may still change (``follows``).
- **Settling** (``settle_holds``, registered in ``evenings.tonight``): when the club requires
  it, tonight's "Paid: record it" is refused while a game at tonight's tables that moved
  anything is unconfirmed or disputed; the settle-up page names them before the tap.
- **Flags**: a disputed game shows on its pad (everyone), on the game list, on the evening page
  and board, and on the start page for the host (scorers) and the treasurer.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta

from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Exists, F, OuterRef, QuerySet
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from club.models import Club, ConfirmWhen, Member
from config.cache import guarded
from engine import registry
from evenings.tonight import Hold as Flag
from live import polls as live_polls
from live import signals as live_signals
from live import tokens as live_tokens
from scoring.models import Confirmation, ConfirmationKind, Event, Game, GameStatus
from scoring.recording import replay, turns

CONFIRMED, DISPUTED, UNCONFIRMED = "confirmed", "disputed", "unconfirmed"
MAX_WORD = Confirmation._meta.get_field("word").max_length
# How long a finished, confirmed game's pad keeps following the table: a late dispute still
# reaches the phones that show it.
FOLLOW_AFTER_FINISH = timedelta(hours=6)


class ConfirmRefused(ValidationError):
    """A word the game does not take now, in words a person can act on."""


# --- the verdict ---------------------------------------------------------------------------------


@dataclass
class Verdict:
    state: str = UNCONFIRMED
    confirmed_by: list[str] = field(default_factory=list)
    disputes: list[tuple[str, str]] = field(default_factory=list)  # (who, word)
    resolved_by: str = ""
    resolved_words: str = ""
    stale_words: int = 0  # words about an earlier seq of the game

    @property
    def disputed(self) -> bool:
        return self.state == DISPUTED

    @property
    def confirmed(self) -> bool:
        return self.state == CONFIRMED


def verdict(game: Game, rows: list[Confirmation] | None = None) -> Verdict:
    """The game's verdict at its current seq, from its rows (read with their members if not
    given), oldest first."""
    if rows is None:
        rows = list(game.confirmations.select_related("member").order_by("pk"))
    latest: dict[int, Confirmation] = {}
    resolution: Confirmation | None = None
    stale = 0
    for row in rows:
        if row.kind == ConfirmationKind.RESOLVED:
            if row.seq == game.seq:
                resolution = row
            continue
        latest[row.member_id] = row
    found = Verdict()
    for row in latest.values():
        if row.seq != game.seq:
            stale += 1
        elif row.kind == ConfirmationKind.CONFIRMED:
            found.confirmed_by.append(row.member.name)
        elif resolution is None or row.pk > resolution.pk:
            found.disputes.append((row.member.name, row.word))
    found.stale_words = stale
    if resolution is not None:
        found.resolved_by = resolution.member.name
        found.resolved_words = resolution.word
    if found.disputes:
        found.state = DISPUTED
    elif found.confirmed_by or resolution is not None:
        found.state = CONFIRMED
    return found


def open_disputes() -> QuerySet[Confirmation]:
    """The disputes that hold now: at the game's current seq, still their member's latest
    word, and no host's resolution at that seq after them (``verdict``'s rule, in SQL)."""
    later_word = Confirmation.objects.filter(
        game=OuterRef("game"), member=OuterRef("member"), pk__gt=OuterRef("pk")
    ).exclude(kind=ConfirmationKind.RESOLVED)
    later_resolution = Confirmation.objects.filter(
        game=OuterRef("game"),
        seq=OuterRef("seq"),
        kind=ConfirmationKind.RESOLVED,
        pk__gt=OuterRef("pk"),
    )
    return (
        Confirmation.objects.filter(kind=ConfirmationKind.DISPUTED, seq=F("game__seq"))
        .exclude(Exists(later_word))
        .exclude(Exists(later_resolution))
    )


def is_disputed() -> Exists:
    """For ``Game`` querysets: ``.annotate(disputed=is_disputed())``."""
    return Exists(open_disputes().filter(game=OuterRef("pk")))


def disputed_games(club: Club) -> QuerySet[Game]:
    return (
        Game.objects.for_club(club)
        .exclude(status=GameStatus.VOIDED)
        .filter(pk__in=open_disputes().filter(game__club=club).values("game"))
        .select_related("table")
        .order_by("-started_at")
    )


# --- who may, and when -------------------------------------------------------------------------


def offered(game: Game) -> bool:
    """Whether the game takes a word now (``Club.confirm_when``)."""
    if game.status == GameStatus.FINISHED:
        return True
    if game.status != GameStatus.OPEN or game.seq == 0:
        return False
    if game.club.confirm_when != ConfirmWhen.DEAL:
        return False
    last = Event.objects.filter(game=game, seq=game.seq).values_list("type", "money").first()
    return last is not None and last[0] != replay.UNDO and last[1] is not None


def _recorders(game: Game) -> set[int]:
    """The logins that recorded any of the game's events."""
    ids = Event.objects.filter(game=game, recorded_by__isnull=False).values_list(
        "recorded_by", flat=True
    )
    return set(ids)


def confirmers(game: Game, recorders: set[int] | None = None) -> list[Member]:
    """The seated members who may confirm: with a login, recorded none of the events."""
    recorders = _recorders(game) if recorders is None else recorders
    seated = [seat.member for seat in game.seats_by_key.values() if seat.member_id]
    return [m for m in seated if m.user_id and m.active and m.user_id not in recorders]


def may_word(game: Game, member: Member, recorders: set[int] | None = None) -> bool:
    return any(m.pk == member.pk for m in confirmers(game, recorders))


def may_resolve(game: Game, member: Member, found: Verdict, recorders=None) -> bool:
    """The host (a scorer) may confirm as it stands a disputed game, or one that no seated
    member may confirm."""
    if not member.is_scorer or not offered(game) or found.confirmed:
        return False
    return found.disputed or not confirmers(game, recorders)


# --- recording a word --------------------------------------------------------------------------


def record(
    game: Game, member: Member, kind: str, *, seq: int, key: str, word: str = ""
) -> Confirmation:
    """``member``'s word on ``game`` as it stood at ``seq`` (what his pad showed)."""
    word = " ".join(word.split())[:MAX_WORD]
    if kind not in (ConfirmationKind.CONFIRMED, ConfirmationKind.DISPUTED):
        raise ConfirmRefused(_("Unknown answer."), code="kind")
    if kind == ConfirmationKind.DISPUTED and not word:
        raise ConfirmRefused(
            _("Say in a word what is wrong, so the host can put it right."), code="word"
        )
    with transaction.atomic():
        game = turns._lock(game)
        existing = Confirmation.objects.filter(game=game, idempotency_key=key).first()
        if existing is not None:
            return existing
        _check_now(game, seq)
        if not may_word(game, member):
            raise ConfirmRefused(
                _(
                    "Only a player at this table who recorded none of its events may confirm "
                    "or dispute it."
                ),
                code="not_yours",
            )
        if kind == ConfirmationKind.CONFIRMED:
            word = ""
        last = Confirmation.objects.filter(game=game, member=member).exclude(
            kind=ConfirmationKind.RESOLVED
        )
        last = last.order_by("-pk").first()
        if last is not None and (last.seq, last.kind, last.word) == (seq, kind, word):
            return last  # said already, from another render of the pad
        row = Confirmation.objects.create(
            game=game, seq=seq, member=member, kind=kind, word=word, idempotency_key=key
        )
        _tell_the_table(game, row)
    return row


def resolve(game: Game, host: Member, *, seq: int, key: str) -> Confirmation:
    """The host's "confirm as it stands", keeping the disputes' words."""
    with transaction.atomic():
        game = turns._lock(game)
        existing = Confirmation.objects.filter(game=game, idempotency_key=key).first()
        if existing is not None:
            return existing
        _check_now(game, seq)
        found = verdict(game)
        if not may_resolve(game, host, found):
            raise ConfirmRefused(
                _("Only the host may confirm a disputed game as it stands."), code="not_host"
            )
        words = "; ".join(f"{who}: {word}" for who, word in found.disputes)[:MAX_WORD]
        row = Confirmation.objects.create(
            game=game,
            seq=seq,
            member=host,
            kind=ConfirmationKind.RESOLVED,
            word=words,
            idempotency_key=key,
        )
        _tell_the_table(game, row)
    return row


def _check_now(game: Game, seq: int) -> None:
    if seq != game.seq:
        raise ConfirmRefused(
            _("The game changed since your pad showed it: check it and answer again."),
            code="stale",
        )
    if not offered(game):
        raise ConfirmRefused(_("This game takes no confirmation now."), code="not_now")


def _tell_the_table(game: Game, row: Confirmation) -> None:
    """Every pad following the game refreshes (see the module docstring): the seq's "nothing
    new" in the shared cache is marked stale now and again at commit (a poll in between may
    have put it back), and the game's channel hears a version that is not a seq."""
    if live_polls.enabled():
        stale = live_polls.key(game.pk, game.seq)

        def mark() -> None:
            guarded(
                lambda: cache.set(stale, live_polls.STALE, live_polls.TTL), None, stale_key=stale
            )

        mark()
        transaction.on_commit(mark)
    live_signals.publish(live_tokens.game_channel(game.pk), f"{game.seq}:c{row.pk}")


def stamp(game: Game) -> int:
    """The id of the game's newest word (0: none): what the pad's polls carry."""
    return game.confirmations.order_by("-pk").values_list("pk", flat=True).first() or 0


# --- what pages show ---------------------------------------------------------------------------


def follows(game: Game, found: Verdict) -> bool:
    """Whether a finished game's pad keeps polling and following the table: while its word may
    still change."""
    if game.status != GameStatus.FINISHED:
        return False
    recent = game.finished_at and timezone.now() - game.finished_at < FOLLOW_AFTER_FINISH
    return bool(recent) or not found.confirmed


def pad_panel(game: Game, member: Member | None) -> dict:
    """The pad's confirmation section: the verdict, the buttons the member may use."""
    rows = list(game.confirmations.select_related("member").order_by("pk"))
    found = verdict(game, rows)
    now = offered(game)
    recorders = _recorders(game) if now else set()
    mine = None
    if member is not None:
        words = [r for r in rows if r.member_id == member.pk and r.kind != "resolved"]
        mine = words[-1] if words and words[-1].seq == game.seq else None
    return {
        "verdict": found,
        "offered": now,
        "may_word": now and member is not None and may_word(game, member, recorders),
        "may_resolve": now and member is not None and may_resolve(game, member, found, recorders),
        "mine": mine,
        "stamp": rows[-1].pk if rows else 0,
        # Guests and followers (scoring.views_guest) poll their own way: a finished game's pad
        # follows the table for members only.
        "follows": member is not None and follows(game, found),
        "shown": game.status != GameStatus.VOIDED and (bool(rows) or now),
    }


def game_name(game: Game) -> str:
    name = _(registry.display_name(game.game_key))
    if game.table_id:
        return _("Table %(number)s, %(game)s #%(id)s") % {
            "number": game.table.number,
            "game": name,
            "id": game.pk,
        }
    return f"{name} #{game.pk}"


def _flag(game: Game, text: str) -> Flag:
    url = reverse("scoring:game-detail", args=[game.club.slug, game.pk])
    return Flag(f"{game_name(game)}: {text}", url)


def evening_games(evening) -> list[Game]:
    """The games at the evening's tables that moved anything (not voided)."""
    games = (
        Game.objects.filter(table__evening=evening, seq__gt=0)
        .exclude(status=GameStatus.VOIDED)
        .select_related("table")
        .prefetch_related("confirmations__member")
        .order_by("table__number", "pk")
    )
    found = list(games)
    for game in found:
        game.club = evening.club
    return found


def _verdicts(evening) -> list[tuple[Game, Verdict]]:
    return [
        (game, verdict(game, sorted(game.confirmations.all(), key=lambda r: r.pk)))
        for game in evening_games(evening)
    ]


def _disputed_text(found: Verdict) -> str:
    words = "; ".join(f"{who}: “{word}”" for who, word in found.disputes)
    return _("disputed (%(words)s)") % {"words": words}


def settle_holds(evening) -> list[Flag]:
    """Why tonight's money may not be settled yet (``evenings.tonight.register_settle_gate``):
    the games not confirmed, when the club requires it."""
    if not evening.club.confirm_to_settle:
        return []
    holds = []
    for game, found in _verdicts(evening):
        if found.disputed:
            holds.append(_flag(game, _disputed_text(found)))
        elif not found.confirmed:
            holds.append(_flag(game, _("not yet confirmed")))
    return holds


def evening_flags(evening) -> list[Flag]:
    """The disputed games at the evening's tables (``evenings.tonight.register_flags``)."""
    disputed = open_disputes().filter(game__table__evening=evening).values("game")
    games = (
        Game.objects.filter(pk__in=disputed)
        .exclude(status=GameStatus.VOIDED)
        .select_related("table")
        .prefetch_related("confirmations__member")
        .order_by("table__number", "pk")
    )
    flags = []
    for game in games:
        game.club = evening.club
        found = verdict(game, sorted(game.confirmations.all(), key=lambda r: r.pk))
        flags.append(_flag(game, _disputed_text(found)))
    return flags


def home_panel(request) -> dict:
    """The start page's panel (``club.panels``): disputed games, for the host and treasurer."""
    member = getattr(request, "member", None)
    if member is None or not (member.is_scorer or member.is_treasurer):
        return {"disputed": []}
    games = list(disputed_games(request.club)[:10])
    for game in games:
        game.club = request.club
    return {"disputed": [_flag(game, _("disputed")) for game in games]}
