"""``scoring.audit``: ``manage.py check_ledger`` also finds where the books and the games
disagree. Most tests play the toy game; one plays the demo club's three evenings."""

from __future__ import annotations

import importlib
from datetime import timedelta
from io import StringIO
from types import SimpleNamespace

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

import ledger
from ledger import audit as ledger_audit
from ledger.models import Account, AuditRecord, Entry, Source
from scoring import audit, recording
from scoring.models import Event, Game, GameStatus
from tests.concurrency import at_once, postgres_only
from tests.demo import demo_club
from tests.factories import make_club, make_member, make_user
from tests.ledger.test_audit import forge


@pytest.fixture
def game(toy, club, scorer, member):
    return recording.start_game(club, "toy", [scorer, member, "Gästen Gunnar"], scorer.user)


def append(game, type_, payload, key):
    game.refresh_from_db()
    return recording.append_event(
        game, type_, payload, expected_seq=game.seq, idempotency_key=key, by=None
    )


def check_ledger(club) -> tuple[bool, str]:
    """Whether ``manage.py check_ledger`` passes for the club, and what it said."""
    out, err = StringIO(), StringIO()
    try:
        call_command("check_ledger", club=club.slug, stdout=out, stderr=err)
    except CommandError:
        return False, err.getvalue()
    return True, out.getvalue()


def pot(club) -> Account:
    return Account.objects.get(club=club, key="pot:toy")


def test_the_books_agree_with_games_played_undone_and_voided(game, toy, club, scorer, member):
    append(game, "stake", {"player": "s0", "amount": 200}, "a")
    append(game, "stake", {"player": "s2", "amount": 300}, "b")  # the guest, through the box
    append(game, "stake", {"player": "s1", "amount": 50}, "c")
    append(game, "undo", {}, "d")
    append(game, "win", {"player": "s1"}, "e")
    voided = recording.start_game(club, "toy", [scorer, member], scorer.user)
    append(voided, "stake", {"player": "s1", "amount": 400}, "f")
    recording.void_game(voided, "Fel bord", None)
    still_open = recording.start_game(club, "toy", [member, scorer], scorer.user)
    append(still_open, "stake", {"player": "s0", "amount": 100}, "g")

    assert audit.check_game_money(club) == []
    ok, said = check_ledger(club)
    assert ok, said
    assert pot(club).balance_ore == 100


@pytest.mark.books_tampered
def test_it_names_the_pot_when_money_lands_there_outside_any_game(game, club):
    append(game, "stake", {"player": "s0", "amount": 200}, "a")
    cash = ledger.system_account(club, "cash")
    ledger.post(club, ledger.legs_for_transfer(cash, pot(club), 150), "Strö", Source.MANUAL, None)

    ok, said = check_ledger(club)
    assert not ok
    assert f"{club.slug}: pot:toy: the games left 200 öre there, its balance is 350 öre" in said


@pytest.mark.books_tampered
def test_it_names_the_game_whose_posting_was_edited(game, club, scorer):
    event = append(game, "stake", {"player": "s0", "amount": 200}, "a").event
    # Both legs, so the transaction still balances: only the games can tell it is wrong.
    Entry.objects.filter(transaction=event.money, amount_ore=200).update(amount_ore=300)
    Entry.objects.filter(transaction=event.money, amount_ore=-200).update(amount_ore=-300)

    ok, said = check_ledger(club)
    assert not ok
    label = f"{club.slug}: game {game.pk} (toy, open)"
    assert f"{label}: pot:toy should hold 200 öre from it, the ledger holds 300 öre" in said
    member_key = f"member:{scorer.pk}"
    assert f"{label}: {member_key} should hold -200 öre from it, the ledger holds -300 öre" in said


@pytest.mark.books_tampered
def test_it_catches_game_money_reversed_behind_the_games_back(game, club):
    # What a treasurer could do before the books refused it: the money went back, the game
    # (and the next evening's pot) still counted it.
    event = append(game, "stake", {"player": "s1", "amount": 200}, "a").event
    ledger.reverse(event.money, "Återförd i kassan", None, game_recording=True)

    ok, said = check_ledger(club)
    assert not ok
    assert f"game {game.pk} (toy, open): pot:toy should hold 200 öre from it" in said
    assert "pot:toy: the games left 200 öre there, its balance is 0 öre" in said


@pytest.mark.books_tampered
def test_a_voided_game_must_net_zero(game, club):
    append(game, "stake", {"player": "s0", "amount": 200}, "a")
    recording.void_game(game, "Fel bord", None)
    assert check_ledger(club)[0]
    ref = f"game:{game.pk}:event:9"
    cash = ledger.system_account(club, "cash")
    ledger.post(
        club, ledger.legs_for_transfer(cash, pot(club), 70), "x", Source.GAME, None, ref=ref
    )

    ok, said = check_ledger(club)
    assert not ok
    assert f"game {game.pk} (toy, voided): pot:toy should hold 0 öre from it, " in said
    assert f"game {game.pk} (toy, voided): cash should hold 0 öre from it, " in said


@pytest.mark.books_tampered
def test_it_names_money_posted_for_a_game_the_club_does_not_have(game, club):
    cash = ledger.system_account(club, "cash")
    ref = "game:999999:event:1"
    legs = ledger.legs_for_transfer(
        cash, ledger.member_account(game.seats.get(position=1).member), 50
    )
    ledger.post(club, legs, "x", Source.GAME, None, ref=ref)

    ok, said = check_ledger(club)
    assert not ok
    assert "game 999999 (no such game here): cash should hold 0 öre from it, " in said


@pytest.mark.books_tampered
def test_it_reports_a_game_whose_events_no_longer_replay(game, club):
    append(game, "stake", {"player": "s0", "amount": 200}, "a")
    Event.objects.filter(game=game).update(payload={"player": "s9", "amount": 200})

    problems = audit.check_game_money(club)
    assert problems == [f"game {game.pk} (toy, open): its events no longer replay (no player 's9')"]


def test_it_reads_the_books_in_the_same_few_queries_however_many_games(game, toy, club, member):
    append(game, "stake", {"player": "s0", "amount": 200}, "a")
    with CaptureQueriesContext(connection) as one_game:
        assert audit.check_game_money(club) == []
    for n in range(4):
        more = recording.start_game(club, "toy", [member, "Gäst"], None)
        append(more, "stake", {"player": "s1", "amount": 10 + n}, f"m{n}")
        append(more, "stake", {"player": "s0", "amount": 10 + n}, f"n{n}")
    with CaptureQueriesContext(connection) as five_games:
        assert audit.check_game_money(club) == []
    # accounts, the games' entries, the league's results and what it is owed, games, seats,
    # events, the evenings' pot moves, the merges' records of moved seats
    assert len(five_games) == len(one_game) <= 9


@pytest.mark.books_tampered
def test_check_ledger_passes_on_the_demo_club_and_after_an_undo_and_a_void(
    db, django_capture_on_commit_callbacks
):
    club = demo_club()
    ok, said = check_ledger(club)
    assert ok, said

    # A treasurer cannot take back a Polskt pass evening's money from the books…
    last = Game.objects.filter(club=club, game_key="polskt_pass").latest("started_at")
    money = last.events.filter(money__isnull=False).last().money
    with pytest.raises(ledger.LedgerError):
        ledger.reverse(money, "Fel", None)
    # …the game can: an undo there, and voiding a cribbage game, keep the books in step.
    last.refresh_from_db()
    recording.undo_last(last, expected_seq=last.seq, idempotency_key="audit-undo", by=None)
    cribbage = Game.objects.filter(club=club, game_key="cribbage").earliest("started_at")
    with django_capture_on_commit_callbacks(execute=True):
        recording.void_game(cribbage, "Fel spelare", None)
    assert Game.objects.get(pk=cribbage.pk).status == GameStatus.VOIDED
    ok, said = check_ledger(club)
    assert ok, said

    # A stray payment into a betar account shows, named, with both amounts.
    bet = Account.objects.filter(club=club, key__startswith="bet:polskt_pass:").first()
    cash = ledger.system_account(club, "cash")
    ledger.post(club, ledger.legs_for_transfer(cash, bet, 500), "Strö", Source.MANUAL, None)
    ok, said = check_ledger(club)
    assert not ok
    assert (
        f"{bet.key}: the games left {bet.balance_ore} öre there, "
        f"its balance is {bet.balance_ore + 500} öre"
    ) in said


# --- the games' events in the club's audit chain --------------------------------------------


@pytest.fixture
def played(game, club, scorer, member):
    """A game with two stakes, an undo and a score; a second game staked and voided."""
    append(game, "stake", {"player": "s0", "amount": 200}, "a")
    append(game, "stake", {"player": "s1", "amount": 50}, "b")
    append(game, "undo", {}, "c")
    append(game, "score", {"player": "s2", "points": 3}, "d")
    voided = recording.start_game(club, "toy", [member, scorer], scorer.user)
    append(voided, "stake", {"player": "s0", "amount": 100}, "e")
    recording.void_game(voided, "Fel bord", scorer.user)
    return SimpleNamespace(game=game, voided=voided)


def record_of(club, subject: str) -> AuditRecord:
    return AuditRecord.objects.get(club=club, subject=subject)


def test_every_event_undo_and_voiding_is_sealed_in_the_clubs_chain(club, played, scorer):
    g, v = played.game.pk, played.voided.pk
    subjects = [record.subject for record in ledger.audit_records(club, "event", "void")]
    assert subjects == [
        *(f"game:{g}:event:{seq}" for seq in (1, 2, 3, 4)),
        f"game:{v}:event:1",
        f"game:{v}",
    ]
    undo = record_of(club, f"game:{g}:event:3")
    assert undo.data["type"] == "undo"
    assert undo.data["payload"] == {"undoes": 2}
    assert record_of(club, f"game:{v}").data == {"game": v, "reason": "Fel bord"}
    assert record_of(club, f"game:{v}").by == scorer.user
    assert audit.check_game_events(club) == []
    ok, said = check_ledger(club)
    assert ok, said


def _edit_payload(played):
    Event.objects.filter(game=played.game, seq=4).update(payload={"player": "s1", "points": 3})


def _edit_recorder(played):
    Event.objects.filter(game=played.game, seq=4).update(recorded_by=make_user())


def _edit_time(played):
    event = Event.objects.get(game=played.game, seq=4)
    Event.objects.filter(pk=event.pk).update(created_at=event.created_at - timedelta(hours=2))


def _delete_event(played):
    event = Event.objects.get(game=played.game, seq=4)
    with connection.cursor() as cursor:
        cursor.execute("DELETE FROM scoring_event WHERE id = %s", [event.pk])


def _unvoid(played):
    Game.objects.filter(pk=played.voided.pk).update(status=GameStatus.OPEN)


TAMPERING = {
    "an edited payload": (_edit_payload, "game {g} event 4 (score) changed since it was recorded"),
    "a changed recorder": (_edit_recorder, "game {g} event 4 (score) changed since it was"),
    "a changed time": (_edit_time, "game {g} event 4 (score) changed since it was recorded"),
    "a deleted event": (_delete_event, "game {g} event 4 (score), recorded in record"),
    "an un-voided game": (_unvoid, "game {v} was voided (record"),
}


@pytest.mark.books_tampered
@pytest.mark.parametrize(("tamper", "expected"), TAMPERING.values(), ids=TAMPERING.keys())
def test_an_event_changed_behind_the_apps_back_shows(club, played, tamper, expected):
    tamper(played)
    ok, said = check_ledger(club)
    assert not ok
    assert expected.format(g=played.game.pk, v=played.voided.pk) in said


def _refresh(record: AuditRecord) -> dict:
    """The attacker's view of a game record: the event's row as it is now."""
    if "seq" not in record.data:
        return record.data
    event = Event.objects.get(game_id=record.data["game"], seq=record.data["seq"])
    return recording.event_audit_data(event)


@pytest.mark.books_tampered
@pytest.mark.parametrize(("tamper", "_expected"), TAMPERING.values(), ids=TAMPERING.keys())
def test_an_event_changed_is_caught_even_after_the_chain_is_recomputed_without_the_key(
    club, played, tamper, _expected
):
    tamper(played)
    # The attacker also removes the records that would give the change away, then re-chains.
    g, v = played.game.pk, played.voided.pk
    gone = [f"game:{g}:event:4"] if tamper is _delete_event else []
    gone += [f"game:{v}"] if tamper is _unvoid else []
    AuditRecord.objects.filter(club=club, subject__in=gone).delete()
    forge(club, "a-guessed-key", refresh=_refresh)
    assert audit.check_game_events(club) == []  # the rows and the records agree again…

    ok, said = check_ledger(club)
    assert not ok  # …but no record is sealed with the club's key
    assert f"{club.slug}: record 1: its seal does not match" in said


def test_the_newest_event_deleted_with_its_record_is_caught_by_the_saved_head(club, played):
    saved = ledger.audit_head(club).digest
    newest = recording.start_game(club, "toy", [played.game.seats.first().member, "Gäst"], None)
    append(newest, "score", {"player": "s1", "points": 2}, "f")
    later = ledger.audit_head(club).digest
    # The newest event and its record go, and the game is put back as it was.
    AuditRecord.objects.filter(club=club, subject=f"game:{newest.pk}:event:1").delete()
    with connection.cursor() as cursor:
        cursor.execute("DELETE FROM scoring_event WHERE game_id = %s", [newest.pk])
    Game.objects.filter(pk=newest.pk).update(seq=0)

    assert check_ledger(club)[0]
    out, err = StringIO(), StringIO()
    call_command("check_ledger", "--expect", saved, stdout=out, stderr=err)
    assert "the expected head is record" in out.getvalue()
    with pytest.raises(CommandError):
        call_command("check_ledger", "--expect", later, stdout=StringIO(), stderr=err)
    assert f"{later}: the expected head is not in the audit trail" in err.getvalue()


@pytest.mark.books_tampered
def test_an_event_added_behind_the_apps_back_shows(club, game):
    Event.objects.create(
        game=game, seq=1, type="score", payload={"player": "s0", "points": 1}, idempotency_key="x"
    )
    assert audit.check_game_events(club) == [
        f"game {game.pk} event 1 (score) has no audit record: it was added behind the app's back"
    ]


def test_a_refused_event_leaves_no_record(club, game):
    before = AuditRecord.objects.filter(club=club).count()
    with pytest.raises(recording.EventRefused):
        append(game, "stake", {"player": "s7", "amount": 200}, "a")
    assert AuditRecord.objects.filter(club=club).count() == before


def test_an_event_recorded_for_an_earlier_time_is_sealed_now(club, game):
    earlier = timezone.now() - timedelta(days=7)
    event = recording.append_event(
        game,
        "score",
        {"player": "s0", "points": 1},
        expected_seq=0,
        idempotency_key="k",
        by=None,
        at=earlier,
    ).event
    record = record_of(club, f"game:{game.pk}:event:1")
    assert event.created_at == earlier
    assert record.data["created_at"] == ledger.audit_time(earlier)
    assert record.at > earlier + timedelta(days=6)
    assert audit.check_game_events(club) == []


def test_checking_the_events_takes_the_same_few_queries_however_many_games(club, game, member):
    append(game, "stake", {"player": "s0", "amount": 200}, "a")
    with CaptureQueriesContext(connection) as one_game:
        assert audit.check_game_events(club) == []
    for n in range(4):
        more = recording.start_game(club, "toy", [member, "Gäst"], None)
        append(more, "stake", {"player": "s1", "amount": 10 + n}, f"m{n}")
    with CaptureQueriesContext(connection) as five_games:
        assert audit.check_game_events(club) == []
    assert len(five_games) == len(one_game) <= 4


def test_the_upgrade_seals_old_events_as_recording_does(club, played):
    migration = importlib.import_module("scoring.migrations.0003_audit_events")
    for record in AuditRecord.objects.filter(club=club, action="event"):
        event = Event.objects.get(game_id=record.data["game"], seq=record.data["seq"])
        assert migration._data(event) == recording.event_audit_data(event) == record.data
        assert migration._seal(record) == ledger_audit._seal(record) == record.digest


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_six_tables_recording_at_once_keep_one_unbroken_chain(toy):
    postgres_only()
    club = make_club()
    people = [make_member(club, f"Spelare {n}", login=False) for n in range(6)]
    games = [
        recording.start_game(club, "toy", [people[n], people[(n + 1) % 6]], None) for n in range(6)
    ]

    def play(game) -> None:
        for n in range(10):
            # Stakes post money, scores do not: both kinds append to the one chain.
            kind, payload = (
                ("stake", {"player": "s0", "amount": 10 + n})
                if n % 5 == 4
                else ("score", {"player": "s1", "points": n})
            )
            append(game, kind, payload, f"{game.pk}-{n}")

    at_once(play, games)
    assert ledger.verify_audit(club) == []
    assert audit.check_game_events(club) == []
    records = AuditRecord.objects.filter(club=club)
    assert records.filter(action=AuditRecord.Action.EVENT).count() == 6 * 10  # every event
    assert records.filter(action=AuditRecord.Action.POST).count() == 6 * 2  # every posting
