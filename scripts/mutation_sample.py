#!/usr/bin/env python3
"""A mutation sample: 25 deliberate breaks spread over the apps, each of which the suite must catch.

Issue 35 asked that reshaping the suite (what runs where, the books' check only where money may
have moved, the demo club copied in) lose nothing it catches. Coverage says which lines ran; this
says whether a wrong line is *noticed*. Each break is one small edit of the kind a tired person
makes — a wrong sign in a pot, a lock left out, an ``on_commit`` skipped, a refusal dropped, a
seat order, a language leak, a tie-break swapped, a day off — applied to a checkout, the tests
that guard that part run the way ``scripts/test.sh`` runs them (the PostgreSQL pass, then the
SQLite pass with ``PROTOKOLL_SUITE_PASS`` and ``DATABASE_URL`` set as there, so the suite's own
rule of what runs where decides), stopped at the first failure, and the file put back.

A break is *caught* when a test fails in either pass; *missed* when both pass. Each break lists
the test files that guard it: a sample of the suite, not the whole of it, so a missed break is
a real gap (no file of its part noticed) and a caught one is caught by the whole suite too.

    .venv/bin/python scripts/mutation_sample.py                 # this checkout
    .venv/bin/python scripts/mutation_sample.py --tree /tmp/old # another (e.g. a worktree)
    .venv/bin/python scripts/mutation_sample.py --only audit-hmac-input

Run it on a quiet checkout: it edits files in place and puts each back (also on Ctrl-C). It needs
the PostgreSQL that ``scripts/ensure_postgres.sh`` gives. Exit status 1 if any break is missed.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Break:
    name: str
    app: str
    what: str
    path: str
    old: str
    new: str
    tests: tuple[str, ...]


BREAKS = (
    Break(
        "kille-pot-sign",
        "engine",
        "a Kille showing's winner pays the pot instead of taking it (the sign of a pot payout)",
        "engine/kille.py",
        "transfers.append(Transfer(POT, winner, pot_ore + penalty))",
        "transfers.append(Transfer(winner, POT, pot_ore + penalty))",
        ("tests/engine/test_kille.py",),
    ),
    Break(
        "skipped-lock",
        "week",
        "a reply to an evening no longer locks the evening (select_for_update left out)",
        "week/replies.py",
        "return Evening.objects.select_for_update().get(pk=evening.pk)",
        "return Evening.objects.get(pk=evening.pk)",
        ("tests/week/test_replies.py",),
    ),
    Break(
        "missing-on-commit",
        "core",
        "a task owed by a transaction is published before the commit, not after it",
        "core/tasks.py",
        "    transaction.on_commit(lambda: publish(task, *args))",
        "    publish(task, *args)",
        ("tests/scoring/test_recording.py", "tests/notices/test_outbox.py"),
    ),
    Break(
        "dropped-refusal-31",
        "engine",
        "cribbage's play lets a count reach 32 (the refusal past 31 loosened)",
        "engine/cribbage.py",
        "    if count > 31:\n        raise IllegalEvent(",
        "    if count > 32:\n        raise IllegalEvent(",
        ("tests/engine/test_cribbage.py",),
    ),
    Break(
        "seat-order",
        "competitions",
        "round 1 of a championship deals the tables in reverse order",
        "competitions/seating.py",
        "return [field[start::tables] for start in range(tables)]",
        "return [field[start::tables] for start in reversed(range(tables))]",
        ("tests/competitions/test_seating.py",),
    ),
    Break(
        "language-leak",
        "notices",
        "a member's mail is written in the site's language, not the one the member chose",
        "notices/outbox.py",
        "with translation.override(language):",
        "with translation.override(settings.LANGUAGE_CODE):",
        ("tests/notices",),
    ),
    Break(
        "league-points",
        "league",
        "a shared first place earns 3 league points instead of 1 (3-1-0 scheme)",
        "league/tables.py",
        "return 1 if shared_first else 3",
        "return 3",
        ("tests/league/test_league.py", "tests/league/test_formats.py"),
    ),
    Break(
        "audit-hmac-input",
        "ledger",
        "an audit record's seal no longer covers its data (the HMAC's input)",
        "ledger/audit.py",
        '        "data": record.data,\n    }\n    message',
        '        "data": None,\n    }\n    message',
        ("tests/ledger/test_audit.py",),
    ),
    Break(
        "club-scoping",
        "competitions",
        "a competition is looked up among every club's, not the member's club's",
        "competitions/views.py",
        'Competition.objects.select_related("club"), pk=competition_id, club=request.club',
        'Competition.objects.select_related("club"), pk=competition_id',
        ("tests/competitions/test_views.py",),
    ),
    Break(
        "double-tap",
        "scoring",
        "a repeated idempotency key is not answered with the event it already made",
        "scoring/recording/turns.py",
        "    existing = Event.objects.filter(game=game, idempotency_key=key).first()\n"
        "    if existing is not None:",
        "    existing = Event.objects.filter(game=game, idempotency_key=key).first()\n"
        "    if existing is not None and False:",
        ("tests/scoring/test_recording.py",),
    ),
    Break(
        "prize-rounding",
        "competitions",
        "the öre a prize split's rounding leaves are not handed out",
        "competitions/prizes.py",
        "    for place in range(pool_ore - sum(amounts)):\n        amounts[place] += 1",
        "    for place in range(pool_ore - sum(amounts)):\n        amounts[place] += 0",
        ("tests/competitions/test_prizes.py",),
    ),
    Break(
        "pad-outbox-js",
        "static",
        "the pad's outbox keeps a tap in memory only, not in localStorage",
        "static/js/pad.js",
        "localStorage.setItem(key, JSON.stringify(data));",
        "void data;",
        ("tests/browser/test_pad_outbox.py",),
    ),
    Break(
        "tie-break-order",
        "competitions",
        "a multi-table ranking breaks ties by the last rounds before the best round",
        "competitions/standings.py",
        "return (line.total, line.best, back)",
        "return (line.total, back, line.best)",
        ("tests/competitions/test_standings.py",),
    ),
    Break(
        "date-off-by-one",
        "league",
        "a season's results stop at the start of its last day, not at its end",
        "league/tables.py",
        "datetime.combine(end + timedelta(days=1), time.min, tzinfo=zone),",
        "datetime.combine(end, time.min, tzinfo=zone),",
        ("tests/league/test_league.py",),
    ),
    Break(
        "export-field",
        "ledger",
        "the transactions CSV leaves the reversed transaction's number empty",
        "ledger/csv_files.py",
        'str(tx.reverses_id or ""),',
        '"",',
        ("tests/ledger/test_exports.py", "tests/ledger/test_ledger_views.py"),
    ),
    Break(
        "kronor-decimals",
        "core",
        '"12,5" is read as 12 kr 5 öre, not 12 kr 50 öre',
        "core/money.py",
        'int(decimals.ljust(2, "0") or 0)',
        'int(decimals.rjust(2, "0") or 0)',
        ("tests/core",),
    ),
    Break(
        "crib-flush",
        "engine",
        "the crib scores a four-card flush (only a five-card flush counts there)",
        "engine/cribbage.py",
        "return 0 if crib else 4  # the crib scores only a five-card flush",
        "return 4",
        ("tests/engine/test_cribbage.py",),
    ),
    Break(
        "guerre-book",
        "engine",
        "whist à la guerre counts tricks over six, not over four",
        "engine/whist.py",
        "return max(0, tricks - BOOK[variant])",
        "return max(0, tricks - 6)",
        ("tests/engine/test_whist.py",),
    ),
    Break(
        "archive-books-unchecked",
        "clubdata",
        "an imported archive's books are not checked before it is kept",
        "clubdata/archive_import.py",
        "problems = ledger.verify_books(club)",
        "problems = []",
        ("tests/clubdata/test_archive.py",),
    ),
    Break(
        "former-member-in",
        "club",
        "a member who left (inactive) still gets into the club's pages",
        "club/access.py",
        ".filter(club__slug=club_slug, user=user, active=True)",
        ".filter(club__slug=club_slug, user=user)",
        ("tests/club", "tests/config/test_urls.py"),
    ),
    Break(
        "swish-amount",
        "ledger",
        "a Swish link writes 5 öre as .5 (50 öre)",
        "ledger/settle.py",
        '"amt": f"{kronor}.{ore:02d}",',
        '"amt": f"{kronor}.{ore}",',
        ("tests/ledger/test_settle.py",),
    ),
    Break(
        "hand-prize-beyond-pot",
        "honours",
        "a hand prize pays its full amount even when the pot holds less",
        "honours/services.py",
        "amount = held if prize.whole_pot else min(prize.amount_ore, held)",
        "amount = held if prize.whole_pot else prize.amount_ore",
        ("tests/honours/test_paying.py",),
    ),
    Break(
        "foreign-account",
        "ledger",
        "a posting accepts another club's account",
        "ledger/postings.py",
        "        if account.club_id != club.pk:\n            raise LedgerError(",
        "        if account.club_id != club.pk and False:\n            raise LedgerError(",
        ("tests/ledger/test_ledger.py",),
    ),
    Break(
        "table-sizes",
        "evenings",
        "an evening's tables are listed smaller first (the bigger tables come first)",
        "evenings/tables.py",
        "return [base + 1] * extra + [base] * (tables - extra)",
        "return [base] * (tables - extra) + [base + 1] * extra",
        ("tests/evenings",),
    ),
    Break(
        "wait-list-order",
        "week",
        "a freed seat goes to the last in line, not the first",
        "week/replies.py",
        'waiting=True).order_by("queued_at", "pk"))',
        'waiting=True).order_by("-queued_at", "-pk"))',
        ("tests/week/test_replies.py",),
    ),
)


def postgres_url() -> str:
    out = subprocess.run(
        ["scripts/ensure_postgres.sh"], cwd=HERE, check=True, capture_output=True, text=True
    )
    return out.stdout.strip().splitlines()[-1]


def apply(tree: Path, brk: Break) -> str:
    """The file's text before the break; the break written. Refuses a site that moved."""
    path = tree / brk.path
    text = path.read_text()
    count = text.count(brk.old)
    if count != 1:
        raise SystemExit(f"{brk.name}: {brk.path} holds the site {count} times, not once")
    path.write_text(text.replace(brk.old, brk.new))
    return text


def run_pass(tree: Path, brk: Break, number: int, pg_url: str) -> tuple[bool, str, float]:
    """(caught, the first failing test or the summary, seconds) for one pass."""
    env = dict(os.environ, PROTOKOLL_SUITE_PASS=str(number))
    # A database of its own per checkout: two samples (an old checkout and this one) may run
    # at once, beside the suite.
    own = re.sub(r"/[^/]*$", f"/protokoll_mutation_{re.sub(r'\W', '_', tree.name)}", pg_url)
    env["DATABASE_URL"] = own if number == 2 else f"sqlite:///{tree}/.mutation.sqlite3"
    env["PROTOKOLL_BENCH_DATABASE_URL"] = pg_url
    started = time.monotonic()
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", *brk.tests],
        cwd=tree,
        env=env,
        capture_output=True,
        text=True,
    )
    seconds = time.monotonic() - started
    output = result.stdout + result.stderr
    failed = re.findall(r"^(?:FAILED|ERROR) (\S+)", output, re.MULTILINE)
    summary = (output.strip().splitlines() or [""])[-1]
    if result.returncode == 5 or "no tests ran" in summary:
        return False, f"pass {number}: no test ran", seconds
    if result.returncode == 0:
        return False, f"pass {number}: {summary}", seconds
    return True, f"pass {number}: {failed[0] if failed else summary}", seconds


def try_break(tree: Path, brk: Break, pg_url: str) -> dict:
    original = apply(tree, brk)
    try:
        seen, seconds = [], 0.0
        for number in (2, 1):
            caught, said, took = run_pass(tree, brk, number, pg_url)
            seen.append(said)
            seconds += took
            if caught:
                return {"name": brk.name, "caught": True, "by": said, "seconds": round(seconds)}
        return {"name": brk.name, "caught": False, "by": "; ".join(seen), "seconds": round(seconds)}
    finally:
        (tree / brk.path).write_text(original)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tree", type=Path, default=HERE, help="the checkout to break")
    parser.add_argument("--only", action="append", help="a break's name (repeatable)")
    parser.add_argument("--json", type=Path, help="also write the results here")
    parser.add_argument("--list", action="store_true", help="list the breaks and stop")
    args = parser.parse_args()
    chosen = [b for b in BREAKS if not args.only or b.name in args.only]
    if args.list:
        for brk in chosen:
            print(f"{brk.name:26} {brk.app:13} {brk.what}")
        return 0
    tree = args.tree.resolve()
    pg_url = postgres_url()
    results = []
    for index, brk in enumerate(chosen, 1):
        print(f"[{index}/{len(chosen)}] {brk.name}: {brk.what}", flush=True)
        result = try_break(tree, brk, pg_url)
        mark = "caught" if result["caught"] else "MISSED"
        print(f"    {mark} in {result['seconds']} s by {result['by']}", flush=True)
        results.append(result)
    missed = [r["name"] for r in results if not r["caught"]]
    print(f"{len(results) - len(missed)} of {len(results)} caught")
    if missed:
        print("missed:", ", ".join(missed))
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
