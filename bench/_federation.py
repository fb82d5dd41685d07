"""The federation's data for bench/bench_federation.py: clubs written with COPY.

``build(indices)`` makes the clubs of those numbers in the database Django is connected to
(bench_federation.py calls it in a child process per database):

1. A template club records a Kille evening, a cribbage game and a whist rubber through the
   real path (``scoring.recording``, the demo's generators from the pad hooks), so their
   events, summaries, snapshots and league results are ones the app wrote.
2. Every club is written with COPY (psycopg 3 ``cursor.copy()``) straight into the real tables:
   users, members, roles, seasons, accounts; games cycled from the templates (their events
   with seq 1..n, their snapshot, seats of the club's members, league results by seat); and
   transactions of two entries summing to zero (deposits from the cash box, stakes to the
   pot and between members, each naming one of the club's games by ``ref``); then the cached
   balances from the entries' sums. Rows are written in time order across the clubs, round
   by round (game g of every club, then game g + 1), as a federation's tables grow: one club's
   rows are spread over the whole table, not kept together.
3. The league's tables (standings, head-to-head, ratings, progress) are computed by
   ``league.recompute_club`` for the first club and copied to the others with their ids
   shifted: every club has the same games, so each would compute the same.
4. ANALYZE.

Left out, because no measured page reads them: the audit chain (``AuditRecord``), the
events' links to their transactions (``Event.money``) and club evenings. The books balance
per transaction and per account, but their game money is not the games' (``check_ledger``
would say so). Foreign keys are not checked during the COPY (``session_replication_role =
replica``): the ids are made consistent here.

Every club has the same shape (``sized``: full, or quick with ``--quick``); a club's rows sit
at fixed offsets from the first id of each table (``Ids``), so club ``c``'s member ``k`` or
game ``g`` is found by arithmetic, which is how the league's tables are copied.
"""

from __future__ import annotations

import dataclasses
import json
import random
import time
from datetime import UTC, datetime, timedelta

from _quick import sized

GENERATOR_VERSION = "1"  # change it when the data made here changes: kept databases are rebuilt

CLUBS = sized(500, quick=2)
MEMBERS = sized(60, quick=12)  # per club
EVENTS = sized(10_000, quick=200)  # per club, at least
TRANSACTIONS = sized(10_000, quick=200)  # per club, two entries each
MEASURED = CLUBS // 2  # the club whose pages are measured (the same slug on both databases)
KILLE_DEALS = sized(12, quick=2)

START = datetime(2025, 1, 1, 18, tzinfo=UTC)
SPAN = timedelta(days=600)
EVENT_STEP = timedelta(seconds=30)
SEASONS = ((2025, "Säsongen 2025"), (2026, "Säsongen 2026"))
TEMPLATE_GAMES = ("kille", "cribbage", "whist")
CHUNK = 50_000  # rows per COPY statement


def slug(index: int) -> str:
    return f"klubb-{index:03d}"


def database_label() -> str:
    """What a kept database is labelled with: made by this generator with these sizes."""
    return f"federation {GENERATOR_VERSION}:{CLUBS}:{MEMBERS}:{EVENTS}:{TRANSACTIONS}:{KILLE_DEALS}"


# --- building: the templates, recorded through the app -----------------------------------------


@dataclasses.dataclass
class Template:
    """A game recorded through the app, as rows to copy: its columns, its events' columns after
    (id, seq) and its league results by seat."""

    key: str
    seq: int
    players: int
    rules: str
    setup: str
    snapshot: str
    events: list[tuple[int, str]]  # (seq, "type\tpayload\tsummary") and lines after
    results: list[dict]


def record_templates() -> list[Template]:
    from club.members import add_member
    from club.models import Club, User
    from scoring import games, recording

    club = Club.objects.create(name="Mallklubben", slug="mall")
    user = User.objects.create_user("mall")
    members = [add_member(club, f"Mall {n}") for n in range(6)]
    templates = []
    for key in TEMPLATE_GAMES:
        demo = games.pad_for(key).demo
        table = demo.tables[0]
        if table.length:
            table = dataclasses.replace(table, length=KILLE_DEALS)
        game = recording.start_game(
            club,
            key,
            members[: table.players],
            user,
            rules=table.rules,
            setup=games.start_setup(club, key),
        )
        play(game, demo.generator(table, random.Random(f"federation:{key}")), user)
        templates.append(template_of(game))
    return templates


def play(game, generator, user) -> None:
    """Append the generator's proposals that the engine accepts until the game is over (what the
    demo does, event by event through ``recording.append_event``)."""
    from engine.errors import EngineError
    from scoring import recording

    module = game.played.module
    for _attempt in range(2000):
        state, _nets = recording.current_state(game)
        if state.finished:
            return
        event = generator.propose(state)
        try:
            module.apply(state, event)
        except EngineError as error:
            generator.refused(event, error)
            continue
        payload = {k: v for k, v in event.items() if k != "type"}
        result = recording.append_event(
            game,
            event["type"],
            payload,
            expected_seq=game.seq,
            idempotency_key=f"mall-{game.pk}-{game.seq}",
            by=user,
        )
        game.seq = result.event.seq
        generator.accepted(event, result.state)
    raise RuntimeError(f"the template {game.game_key} game did not finish")


def template_of(game) -> Template:
    from league.models import GameResult
    from scoring.models import Game

    game = Game.objects.get(pk=game.pk)
    events = [
        (
            e.seq,
            "\t".join(
                (text(e.type), text(json.dumps(e.payload)), text(e.summary)),
            ),
            text(json.dumps(e.lines)),
        )
        for e in game.events.order_by("seq")
    ]
    results = list(
        GameResult.objects.filter(game_ref=f"game:{game.pk}")
        .order_by("seat")
        .values("seat", "team", "placement", "score", "net_ore", "players", "details")
    )
    if not results:
        raise RuntimeError(f"the template {game.game_key} game has no league results")
    return Template(
        key=game.game_key,
        seq=game.seq,
        players=game.seats.count(),
        rules=text(json.dumps(game.rules)),
        setup=text(json.dumps(game.setup)),
        snapshot=text(json.dumps(game.snapshot)),
        events=[(seq, f"{head}", lines) for seq, head, lines in events],
        results=results,
    )


def text(value: str | None) -> str:
    """A value in COPY's text format."""
    if value is None:
        return r"\N"
    return (
        value.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r")
    )


def ts(moment: datetime) -> str:
    return moment.isoformat()


# --- building: the clubs, with COPY ------------------------------------------------------------


@dataclasses.dataclass
class Ids:
    """The first id of each table's rows written here; a club's rows are at fixed offsets from
    them (``ci``: the club's place among the clubs written)."""

    clubs: list[int]
    user: int
    member: int
    season: int
    account: int
    game: int
    tx: int

    def member_id(self, ci: int, k: int) -> int:
        return self.member + ci * MEMBERS + k

    def account_id(self, ci: int, k: int) -> int:  # k < MEMBERS: a member's; then cash, pot
        return self.account + ci * (MEMBERS + 2) + k

    def game_id(self, ci: int, g: int) -> int:
        return self.game + g * len(self.clubs) + ci


def build(indices: list[int]) -> None:
    from django.core.management import call_command
    from django.db import connection

    call_command("migrate", verbosity=0)
    began = time.perf_counter()
    templates = record_templates()
    recorded = time.perf_counter()
    plan = games_plan(templates)
    ids = make_clubs(indices)
    connection.ensure_connection()
    raw = connection.connection
    raw.execute("SET session_replication_role = replica")  # FKs: consistent by construction
    copy_people(raw, ids)
    copy_games(raw, ids, plan)
    copy_books(raw, ids, len(plan))
    raw.execute("SET session_replication_role = DEFAULT")
    set_sequences(raw)
    copied = time.perf_counter()
    league_tables(raw, ids)
    raw.execute("ANALYZE")
    done = time.perf_counter()
    counts = {
        table: raw.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
        for table in ("club_member", "scoring_game", "scoring_event", "ledger_entry")
    }
    print(
        f"built {len(indices)} club(s): {counts['club_member']:,} members, "
        f"{counts['scoring_game']:,} games, {counts['scoring_event']:,} events, "
        f"{counts['ledger_entry']:,} ledger entries in {done - began:.1f} s "
        f"(templates {recorded - began:.1f} s, COPY {copied - recorded:.1f} s, "
        f"league and ANALYZE {done - copied:.1f} s)"
    )


def games_plan(templates: list[Template]) -> list[Template]:
    """Every club's games, in order: the templates in turn until the club has ``EVENTS``."""
    plan, events = [], 0
    while events < EVENTS:
        template = templates[len(plan) % len(templates)]
        plan.append(template)
        events += template.seq
    return plan


def make_clubs(indices: list[int]) -> Ids:
    from django.db import connection

    from club.models import Club

    clubs = Club.objects.bulk_create(
        Club(name=f"Klubb {index:03d}", slug=slug(index), created_at=START) for index in indices
    )

    def next_id(table: str) -> int:
        with connection.cursor() as cursor:
            cursor.execute(f"SELECT coalesce(max(id), 0) + 1 FROM {table}")
            return cursor.fetchone()[0]

    return Ids(
        clubs=[club.pk for club in clubs],
        user=next_id("club_user"),
        member=next_id("club_member"),
        season=next_id("club_season"),
        account=next_id("ledger_account"),
        game=next_id("scoring_game"),
        tx=next_id("ledger_transaction"),
    )


def copy_rows(raw, table: str, columns: str, rows) -> None:
    """COPY ``rows`` (lines in COPY's text format, with their newline) in chunks."""
    chunk: list[str] = []

    def flush() -> None:
        with raw.cursor() as cursor, cursor.copy(f"COPY {table} ({columns}) FROM STDIN") as copy:
            copy.write("".join(chunk))
        chunk.clear()

    for row in rows:
        chunk.append(row)
        if len(chunk) >= CHUNK:
            flush()
    if chunk:
        flush()


def copy_people(raw, ids: Ids) -> None:
    joined = ts(START)
    copy_rows(
        raw,
        "club_user",
        "id, password, is_superuser, username, first_name, last_name, email, is_staff, "
        "is_active, date_joined",
        (
            f"{ids.user + ci}\t!\tf\tkassor-{club_id}\t\t\t\tf\tt\t{joined}\n"
            for ci, club_id in enumerate(ids.clubs)
        ),
    )
    copy_rows(
        raw,
        "club_member",
        "id, name, swish_number, active, joined_at, invite_token_hash, club_id, user_id, email",
        (
            f"{ids.member_id(ci, k)}\t{'Kassören' if k == 0 else f'Medlem {k:02d}'}\t\tt\t"
            f"{joined}\t\t{club_id}\t{ids.user + ci if k == 0 else r'\N'}\t\n"
            for ci, club_id in enumerate(ids.clubs)
            for k in range(MEMBERS)
        ),
    )
    copy_rows(
        raw,
        "club_membership",
        "role, granted_at, member_id",
        (
            f"{role}\t{joined}\t{ids.member_id(ci, 0)}\n"
            for ci in range(len(ids.clubs))
            for role in ("admin", "treasurer", "scorer")
        ),
    )
    copy_rows(
        raw,
        "club_season",
        'id, name, start, "end", club_id',
        (
            f"{ids.season + ci * len(SEASONS) + s}\t{name}\t{year}-01-01\t{year}-12-31\t{club_id}\n"
            for ci, club_id in enumerate(ids.clubs)
            for s, (year, name) in enumerate(SEASONS)
        ),
    )
    accounts = [("member", None, None)] * MEMBERS + [("cash", "cash", "Kassa")]
    accounts.append(("pot", "pot:kille", "Killepotten"))
    copy_rows(
        raw,
        "ledger_account",
        "id, kind, key, name, balance_ore, created_at, club_id, member_id",
        (
            f"{ids.account_id(ci, k)}\t{kind}\t{key or f'member:{ids.member_id(ci, k)}'}\t"
            f"{name or ('Kassören' if k == 0 else f'Medlem {k:02d}')}\t0\t{joined}\t{club_id}\t"
            f"{ids.member_id(ci, k) if kind == 'member' else r'\N'}\n"
            for ci, club_id in enumerate(ids.clubs)
            for k, (kind, key, name) in enumerate(accounts)
        ),
    )


def game_start(g: int, games: int) -> datetime:
    return START + SPAN * g / games


def seat_member(g: int, position: int) -> int:
    """Which of the club's members sits at ``position`` in its game ``g`` (distinct per game)."""
    return (g * 7 + position) % MEMBERS


def copy_games(raw, ids: Ids, plan: list[Template]) -> None:
    clubs = list(enumerate(ids.clubs))

    def games():
        for g, t in enumerate(plan):
            started = game_start(g, len(plan))
            finished = ts(started + EVENT_STEP * t.seq)
            for ci, club_id in clubs:
                yield (
                    f"{ids.game_id(ci, g)}\t{t.key}\t{t.rules}\t{t.setup}\tfinished\t{t.seq}\t"
                    f"{t.snapshot}\t{ts(started)}\t{finished}\t{club_id}\t{ids.user + ci}\n"
                )

    copy_rows(
        raw,
        "scoring_game",
        "id, game_key, rules, setup, status, seq, snapshot, started_at, finished_at, club_id, "
        "created_by_id",
        games(),
    )
    copy_rows(
        raw,
        "scoring_seat",
        "position, guest_name, game_id, member_id",
        (
            f"{p}\t\t{ids.game_id(ci, g)}\t{ids.member_id(ci, seat_member(g, p))}\n"
            for g, t in enumerate(plan)
            for ci, _club in clubs
            for p in range(t.players)
        ),
    )

    def events():
        for g, t in enumerate(plan):
            started = game_start(g, len(plan))
            times = [ts(started + EVENT_STEP * seq) for seq, _head, _lines in t.events]
            for ci, _club in clubs:
                game_id, user = ids.game_id(ci, g), ids.user + ci
                for (seq, head, lines), at in zip(t.events, times, strict=True):
                    yield f"{seq}\t{head}\t{at}\tf{seq}\t{user}\t{game_id}\t{lines}\n"

    copy_rows(
        raw,
        "scoring_event",
        "seq, type, payload, summary, created_at, idempotency_key, recorded_by_id, game_id, lines",
        events(),
    )

    def results():
        for g, t in enumerate(plan):
            finished = ts(game_start(g, len(plan)) + EVENT_STEP * t.seq)
            for ci, club_id in clubs:
                for r in t.results:
                    team = r"\N" if r["team"] is None else r["team"]
                    member = ids.member_id(ci, seat_member(g, r["seat"]))
                    yield (
                        f"game:{ids.game_id(ci, g)}\t{t.key}\t{finished}\t\t{r['seat']}\t{team}\t"
                        f"{r['placement']}\t{r['score']}\t{r['net_ore']}\t{r['players']}\t"
                        f"{text(json.dumps(r['details']))}\t{club_id}\t{member}\n"
                    )

    copy_rows(
        raw,
        "league_gameresult",
        "game_ref, game_key, finished_at, guest_name, seat, team, placement, score, net_ore, "
        "players, details, club_id, member_id",
        results(),
    )


def copy_books(raw, ids: Ids, games: int) -> None:
    """Per club ``TRANSACTIONS`` transactions of two entries, in date order across the clubs:
    every tenth a deposit from the cash box to a member, the others a member's stake to the pot
    or to another member, naming one of the club's games of about that time."""
    clubs = list(enumerate(ids.clubs))
    pot, cash = MEMBERS + 1, MEMBERS
    made = ts(START)

    def plan(t: int) -> tuple[str, str, str, int, int, int]:
        """(source, memo, ref template, payer, payee, amount) of the club's transaction t."""
        payer, amount = (t * 7) % MEMBERS, 100 + (t * 37) % 900
        if t % 10 == 0:
            return "manual", "Insättning", "", cash, payer, amount * 10
        payee = pot if t % 3 == 0 else (payer + 1 + t % 5) % MEMBERS
        return "game", "Kille", "game:{game}:event:1", payer, payee, amount

    plans = [plan(t) for t in range(TRANSACTIONS)]
    days = [(START.date() + SPAN * t / TRANSACTIONS).isoformat() for t in range(TRANSACTIONS)]

    def tx_id(ci: int, t: int) -> int:
        return ids.tx + t * len(clubs) + ci

    copy_rows(
        raw,
        "ledger_transaction",
        "id, date, memo, source, ref, created_at, club_id, created_by_id",
        (
            f"{tx_id(ci, t)}\t{days[t]}\t{memo}\t{source}\t"
            f"{ref.format(game=ids.game_id(ci, t * games // TRANSACTIONS))}\t{made}\t{club_id}\t"
            f"{ids.user + ci}\n"
            for t, (source, memo, ref, _payer, _payee, _amount) in enumerate(plans)
            for ci, club_id in clubs
        ),
    )
    copy_rows(
        raw,
        "ledger_entry",
        "amount_ore, date, account_id, transaction_id",
        (
            f"{sign * amount}\t{days[t]}\t{ids.account_id(ci, account)}\t{tx_id(ci, t)}\n"
            for t, (_source, _memo, _ref, payer, payee, amount) in enumerate(plans)
            for ci, _club in clubs
            for sign, account in ((-1, payer), (1, payee))
        ),
    )
    raw.execute(
        """
        UPDATE ledger_account a SET balance_ore = s.total
        FROM (SELECT account_id, sum(amount_ore) AS total FROM ledger_entry GROUP BY account_id) s
        WHERE a.id = s.account_id AND a.club_id = ANY(%s)
        """,
        [ids.clubs],
    )


def set_sequences(raw) -> None:
    """The identity sequences past the ids written here, so the app's own inserts go on."""
    for table in (
        "club_user",
        "club_member",
        "club_season",
        "ledger_account",
        "scoring_game",
        "ledger_transaction",
    ):
        raw.execute(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), max(id)) FROM {table}")


def league_tables(raw, ids: Ids) -> None:
    """The first club's league computed by the app, copied to the others with ids shifted."""
    from club.models import Club
    from league import recompute_club
    from league.models import HeadToHead, LeagueProgress, RatingPoint, Standing

    recompute_club(Club.objects.get(pk=ids.clubs[0]))
    raw.execute("CREATE TEMPORARY TABLE fed_map (club_id bigint, dm bigint, ds bigint, dg bigint)")
    copy_rows(
        raw,
        "fed_map",
        "club_id, dm, ds, dg",
        (
            f"{club_id}\t{ci * MEMBERS}\t{ci * len(SEASONS)}\t{ci}\n"
            for ci, club_id in enumerate(ids.clubs)
            if ci > 0
        ),
    )
    shifted = {
        "club_id": "m.club_id",
        "member_id": "t.member_id + m.dm",
        "opponent_id": "t.opponent_id + m.dm",
        "season_id": "t.season_id + m.ds",
        "game_ref": "'game:' || (split_part(t.game_ref, ':', 2)::bigint + m.dg)",
    }
    first = ids.clubs[0]
    for model, mine in (
        (Standing, f"t.season_id IN (SELECT id FROM club_season WHERE club_id = {first})"),
        (HeadToHead, f"t.season_id IN (SELECT id FROM club_season WHERE club_id = {first})"),
        (RatingPoint, f"t.club_id = {first}"),
        (LeagueProgress, f"t.club_id = {first}"),
    ):
        columns = [f.column for f in model._meta.concrete_fields if f.column != "id"]
        values = [shifted.get(column, f"t.{column}") for column in columns]
        raw.execute(
            f"INSERT INTO {model._meta.db_table} ({', '.join(columns)}) "
            f"SELECT {', '.join(values)} FROM {model._meta.db_table} t CROSS JOIN fed_map m "
            f"WHERE {mine}"
        )
