"""What leaves the books: CSV files for a spreadsheet, season statements to print or as PDF.

CSV
    Transactions (one line per entry, so a spreadsheet can sum by account) and balances (one
    line per account). The language is the one the page was shown in: Swedish files use ";"
    between fields and a decimal comma (what Swedish Excel and LibreOffice expect), English
    ones "," and a decimal point. Column names and the few fixed words are written here per
    language rather than through gettext: a file format must not change its header because a
    translation was edited, and a spreadsheet that reads "Belopp (kr)" keeps working. Files
    start with a UTF-8 byte order mark, without which Excel mangles å, ä and ö. Amounts are
    decimal kronor (``-12,50``); balances as people read them (cash in the box positive).
    Rows are produced lazily so the view can stream a club's whole history. Free text that a
    spreadsheet would run as a formula ("=HYPERLINK(…)" as a memo or a name) is written with a
    leading apostrophe (``text_cell``); amounts are never touched, so ``-12,50`` stays a number.

Season statements
    ``build_season_statement(job)`` renders, for every member (or one), the season's
    statement of their account — opening balance, a line per game and per payment or dues
    (``ledger.statements``) with the running balance, closing balance, totals by source — as one
    document, one member per A4 page: printable HTML, or (``params["format"] == "pdf"``) a PDF
    that WeasyPrint makes from that same HTML. Dates are written 2026-11-24 and amounts
    "1 234,50 kr" (Swedish; "SEK 1,234.50" in English). The PDF is kept in ``content`` as
    base64 text (``job_pdf`` reads it back), so a PDF job needs no column of its own; WeasyPrint
    fetches nothing, no file and no URL. The build runs in a Celery task and writes its
    progress to the ``ExportJob`` row after each member; the job page polls that.
    ``request_season_statement`` is what the page calls: the same statement asked for again
    (a double tap, twenty taps, a second treasurer) while one is being built, or after one was
    built that the books have not changed since, is that job — one build, not twenty, which
    without a broker would each hold a web worker for the build's second.

Jobs that die
    Nothing is left ``running`` or ``pending`` for ever. The request queues the build with
    ``core.tasks.enqueue_on_commit``, which never lets a broker error reach the treasurer: a job
    the broker did not take stays ``pending`` and the beat's sweep (``sweep_jobs``, every
    minute) queues it again once it has waited ``PENDING_GRACE``, until a worker takes it.
    A build begins by claiming its job (``pending`` → ``running``, a conditional update that
    must change one row), so a job queued twice is built once, and every later write of that
    build is conditional on its claim (status and ``attempts``): a build that lost its job
    writes nothing. The task acks late, is given back to the queue if its worker is lost, and
    has a soft and a hard time limit (``SOFT_TIME_LIMIT``, ``TIME_LIMIT``); the soft one, or
    any error, marks the job failed with a message in the job's language. ``updated_at`` is the
    heartbeat, moved at each member: a ``running`` job whose heartbeat has stood still for
    longer than the hard time limit (``STALE_AFTER``) has lost its worker, and the sweep
    queues it once more (``MAX_ATTEMPTS`` builds in all), then marks it failed ("the worker
    stopped"). The job page shows a failed job's message and a "Try again" button (its own
    one-time key: a double tap makes one job), which asks for the same statement afresh. The
    same statement asked for again never opens a failed or dead job; a ``pending`` one is
    opened and queued again if it has waited longer than ``PENDING_GRACE``.
"""

from __future__ import annotations

import base64
import csv
import io
import logging
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import date as Date
from datetime import timedelta

from celery.exceptions import SoftTimeLimitExceeded
from django.db import transaction
from django.db.models import F, Q
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from club.models import Club, Member, Season, User
from core.money import ore_to_decimal_text
from core.tasks import enqueue_on_commit
from ledger import services as ledger
from ledger import statements
from ledger.models import DEBIT_NORMAL_KINDS, Account, AccountKind, Entry, ExportJob, Transaction

log = logging.getLogger(__name__)

LANGUAGES = ("sv", "en")
DELIMITERS = {"sv": ";", "en": ","}
BOM = "\ufeff"

TRANSACTION_HEADERS = {
    "sv": ["Datum", "Verifikation", "Text", "Källa", "Konto", "Kontotyp", "Belopp (kr)", "Rättar"],
    "en": [
        "Date",
        "Transaction",
        "Memo",
        "Source",
        "Account",
        "Account type",
        "Amount (SEK)",
        "Corrects",
    ],
}
BALANCE_HEADERS = {
    "sv": ["Konto", "Kontotyp", "Saldo (kr)", "Stängt"],
    "en": ["Account", "Account type", "Balance (SEK)", "Closed"],
}
SOURCE_WORDS = {
    "sv": {
        "manual": "manuell",
        "game": "spel",
        "dues": "avgift",
        "settlement": "avräkning",
        "evening": "klubbkväll",
    },
    "en": {
        "manual": "manual",
        "game": "game",
        "dues": "dues",
        "settlement": "settlement",
        "evening": "club evening",
    },
}
KIND_WORDS = {
    "sv": {
        "member": "medlem",
        "pot": "pott",
        "bet": "bet",
        "treasury": "klubbkassa",
        "dues_income": "avgiftsintäkter",
        "expenses": "utgifter",
        "cash": "kontanter",
    },
    "en": {
        "member": "member",
        "pot": "pot",
        "bet": "bet",
        "treasury": "treasury",
        "dues_income": "dues income",
        "expenses": "expenses",
        "cash": "cash",
    },
}
YES = {"sv": "ja", "en": "yes"}
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def text_cell(value: str) -> str:
    """Free text (a memo, a name) as a spreadsheet must show it: a cell starting with ``=``,
    ``+``, ``-``, ``@``, tab or CR would be read as a formula, so it gets a leading apostrophe
    (OWASP, CSV injection). Amounts are written by the app from integers and stay numbers."""
    return "'" + value if value.startswith(FORMULA_STARTS) else value


def csv_language(language: str | None) -> str:
    language = (language or "sv")[:2]
    return language if language in LANGUAGES else "sv"


def csv_lines(header: list[str], rows: Iterable[list[str]], language: str) -> Iterator[str]:
    """The file as text chunks: BOM and header first, then one chunk per row."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=DELIMITERS[language], lineterminator="\r\n")

    def flush() -> str:
        text = buffer.getvalue()
        buffer.seek(0)
        buffer.truncate()
        return text

    writer.writerow(header)
    yield BOM + flush()
    for row in rows:
        writer.writerow(row)
        yield flush()


def transaction_rows(
    club: Club, language: str, start: Date | None = None, end: Date | None = None
) -> Iterator[list[str]]:
    entries = Entry.objects.filter(transaction__club=club)
    if start is not None:
        entries = entries.filter(date__gte=start)
    if end is not None:
        entries = entries.filter(date__lte=end)
    entries = entries.select_related("transaction", "account").order_by(
        "date", "transaction_id", "id"
    )
    sources, kinds = SOURCE_WORDS[language], KIND_WORDS[language]
    for entry in entries.iterator(chunk_size=2000):
        tx = entry.transaction
        yield [
            entry.date.isoformat(),
            str(tx.pk),
            text_cell(tx.memo),
            sources.get(tx.source, tx.source),
            text_cell(entry.account.label),
            kinds.get(entry.account.kind, entry.account.kind),
            ore_to_decimal_text(entry.amount_ore, language),
            str(tx.reverses_id or ""),
        ]


def transactions_csv(
    club: Club, language: str, start: Date | None = None, end: Date | None = None
) -> Iterator[str]:
    language = csv_language(language)
    return csv_lines(
        TRANSACTION_HEADERS[language], transaction_rows(club, language, start, end), language
    )


def balance_rows(club: Club, language: str, at: Date | None = None) -> Iterator[list[str]]:
    accounts = Account.objects.for_club(club).order_by("kind", "name")
    at_date = ledger.balances_at(club, at) if at is not None else None
    kinds = KIND_WORDS[language]
    for account in accounts:
        amount = account.balance_ore if at_date is None else at_date.get(account.pk, 0)
        if account.kind in DEBIT_NORMAL_KINDS:
            amount = -amount
        yield [
            text_cell(account.label),
            kinds.get(account.kind, account.kind),
            ore_to_decimal_text(amount, language),
            YES[language] if account.closed_at else "",
        ]


def balances_csv(club: Club, language: str, at: Date | None = None) -> Iterator[str]:
    language = csv_language(language)
    return csv_lines(BALANCE_HEADERS[language], balance_rows(club, language, at), language)


# --- season statements -----------------------------------------------------------------------


# How long an identical request may be answered with an earlier job.
REUSE_WINDOW = timedelta(minutes=10)

# The build task's limits (seconds): a season of a big club builds in well under a minute.
SOFT_TIME_LIMIT = 240
TIME_LIMIT = 300
# A job waiting this long was not queued (the broker was away) or its message was lost.
PENDING_GRACE = timedelta(seconds=60)
# A running job whose heartbeat stood still longer than the hard limit: no worker is on it.
STALE_AFTER = timedelta(seconds=TIME_LIMIT + 60)
# Builds started per job: the first, and once more if its worker was lost.
MAX_ATTEMPTS = 2

# What a failed job says, in the job's language (written with the job).
TOO_SLOW = gettext_lazy("It took too long to make; try again later.")
BROKEN = gettext_lazy("Something went wrong while it was being made.")
WORKER_LOST = gettext_lazy("The work on it stopped before it was done.")


FORMATS = ("html", "pdf")


def statement_format(value: str | None) -> str:
    return value if value in FORMATS else "html"


def _statement_params(
    season: Season, member: Member | None, language: str, file_format: str = "html"
) -> dict:
    return {
        "season": season.pk,
        "member": member.pk if member else None,
        "language": csv_language(language),
        "format": statement_format(file_format),
    }


def request_season_statement(
    club: Club,
    season: Season,
    member: Member | None,
    by: User | None,
    language: str,
    file_format: str = "html",
    key: str | None = None,
) -> tuple[ExportJob, bool]:
    """The job for this statement and whether it is new; a new job is queued when the caller's
    transaction commits (``ledger.tasks.build_statement_task``). An earlier job of the last
    ``REUSE_WINDOW`` with the same parameters is reused while it waits or runs, or once done if
    no transaction has been posted since it was asked for (its document is then what a new
    build would make); a failed job never is, nor a running one whose worker is gone
    (``STALE_AFTER``). A waiting job that was not taken within ``PENDING_GRACE`` is queued
    again. ``key``: the "Try again" form's one-time key; the job made with it is the answer to
    that key for good."""
    params = _statement_params(season, member, language, file_format)
    with transaction.atomic():
        # Identical requests arriving together take turns here, so they find one another.
        Club.objects.select_for_update().filter(pk=club.pk).first()
        if key is not None:
            keyed = ExportJob.objects.filter(club=club, key=key).defer("content").first()
            if keyed is not None:
                return keyed, False
        now = timezone.now()
        recent = (
            ExportJob.objects.filter(
                club=club,
                kind=ExportJob.Kind.SEASON_STATEMENT,
                created_at__gte=now - REUSE_WINDOW,
            )
            .exclude(status=ExportJob.Status.FAILED)
            .exclude(status=ExportJob.Status.RUNNING, updated_at__lt=now - STALE_AFTER)
            .defer("content")
        )
        for job in recent:  # newest first; a handful at most
            if job.params == params and _still_current(job):
                if job.status == ExportJob.Status.PENDING and job.updated_at < now - PENDING_GRACE:
                    _queue_again(job, now)
                return job, False
        job = start_season_statement(club, season, member, by, language, file_format, key=key)
        _queue(job.pk)
        return job, True


def _still_current(job: ExportJob) -> bool:
    if not job.is_finished:
        return True
    return not Transaction.objects.filter(club=job.club_id, created_at__gte=job.created_at).exists()


def _queue(job_id: int) -> None:
    from ledger.tasks import build_statement_task  # noqa: PLC0415 - ledger.tasks imports this module

    enqueue_on_commit(build_statement_task, job_id)


def _queue_again(job: ExportJob, now) -> bool:
    """Queue a waiting job once more (a claim on its heartbeat: one sweep or request does)."""
    claimed = ExportJob.objects.filter(
        pk=job.pk, status=ExportJob.Status.PENDING, updated_at=job.updated_at
    ).update(updated_at=now)
    if claimed:
        _queue(job.pk)
    return bool(claimed)


def retry_statement(job: ExportJob, by: User | None, key: str) -> ExportJob:
    """The "Try again" of a failed job: the same statement asked for afresh (``key``: the
    form's one-time key, so a double tap makes one job). A job that has not failed is left
    as it is and returned."""
    if job.status != ExportJob.Status.FAILED:
        return job
    params = job.params
    season = Season.objects.get(pk=params["season"], club=job.club_id)
    member = None
    if params.get("member"):
        member = Member.objects.for_club(job.club).get(pk=params["member"])
    fresh, _new = request_season_statement(
        job.club,
        season,
        member,
        by,
        csv_language(params.get("language")),
        statement_format(params.get("format")),
        key=key,
    )
    return fresh


def sweep_jobs() -> dict[str, int]:
    """The beat's sweep (every minute): waiting jobs not taken within ``PENDING_GRACE`` are
    queued again; running jobs whose heartbeat stood still longer than ``STALE_AFTER`` are
    queued once more, or failed after ``MAX_ATTEMPTS`` builds. Counts by what was done."""
    now = timezone.now()
    counts = {"queued": 0, "retried": 0, "failed": 0}
    unfinished = ExportJob.objects.defer("content").order_by("updated_at", "id")
    waiting = unfinished.filter(status=ExportJob.Status.PENDING, updated_at__lt=now - PENDING_GRACE)
    for job in waiting:
        counts["queued"] += _queue_again(job, now)
    lost = unfinished.filter(status=ExportJob.Status.RUNNING, updated_at__lt=now - STALE_AFTER)
    for job in lost:
        if job.attempts < MAX_ATTEMPTS:
            retried = (
                _owned(job.pk, job.attempts)
                .filter(updated_at=job.updated_at)
                .update(status=ExportJob.Status.PENDING, done=0, updated_at=now)
            )
            if retried:
                log.warning("export %s lost its worker; queued again", job.pk)
                _queue(job.pk)
                counts["retried"] += 1
        elif _fail(job, job.attempts, WORKER_LOST):
            log.warning("export %s lost its worker %s times; failed", job.pk, job.attempts)
            counts["failed"] += 1
    return counts


def _owned(job_id: int, attempt: int):
    """The job, as long as it is still the running build ``attempt``'s."""
    return ExportJob.objects.filter(pk=job_id, status=ExportJob.Status.RUNNING, attempts=attempt)


def _claim(job_id: int) -> int | None:
    """Take a waiting job for this build: its attempt number, or None if it is not waiting
    (taken by another build, done, failed: a message delivered twice does nothing)."""
    with transaction.atomic():
        claimed = ExportJob.objects.filter(pk=job_id, status=ExportJob.Status.PENDING).update(
            status=ExportJob.Status.RUNNING,
            attempts=F("attempts") + 1,
            done=0,
            total=0,
            error="",
            updated_at=timezone.now(),
        )
        if not claimed:
            return None
        return ExportJob.objects.values_list("attempts", flat=True).get(pk=job_id)


def _fail(job: ExportJob, attempt: int, message) -> bool:
    """Mark build ``attempt`` of the job failed with ``message`` in the job's language."""
    with translation.override(csv_language(job.params.get("language"))):
        error = str(message)
    now = timezone.now()
    return bool(
        _owned(job.pk, attempt).update(
            status=ExportJob.Status.FAILED, error=error[:300], finished_at=now, updated_at=now
        )
    )


def start_season_statement(
    club: Club,
    season: Season,
    member: Member | None,
    by: User | None,
    language: str,
    file_format: str = "html",
    key: str | None = None,
) -> ExportJob:
    """Create the job, waiting; ``request_season_statement`` queues it."""
    params = _statement_params(season, member, language, file_format)
    with translation.override(language):
        title = (
            _("Statement %(season)s: %(member)s") % {"season": season.name, "member": member.name}
            if member
            else _("Statements %(season)s: all members") % {"season": season.name}
        )
    if params["format"] == "pdf":
        title += " (PDF)"
    return ExportJob.objects.create(
        club=club,
        kind=ExportJob.Kind.SEASON_STATEMENT,
        params=params,
        title=title,
        requested_by=by,
        key=key,
    )


def statement_members(club: Club, season: Season, member_id: int | None) -> list[Member]:
    members = Member.objects.for_club(club)
    if member_id:
        return list(members.filter(pk=member_id))
    # Everyone active, and anyone gone who still had money moving by the season's end.
    moved = Entry.objects.filter(date__lte=season.end, account__kind=AccountKind.MEMBER)
    return list(
        members.filter(Q(active=True) | Q(accounts__in=moved.values("account_id")))
        .distinct()
        .order_by("name")
    )


@dataclass(frozen=True)
class MemberStatement:
    member: Member
    statement: ledger.Statement
    lines: list[statements.Line]
    by_source: list[tuple[str, int]]


def _by_source(stmt: ledger.Statement, language: str) -> list[tuple[str, int]]:
    totals: dict[str, int] = {}
    for row in stmt.rows:
        source = row.entry.transaction.source
        totals[source] = totals.get(source, 0) + row.amount_ore
    words = SOURCE_WORDS[language]
    return [(words.get(s, s), amount) for s, amount in sorted(totals.items())]


def build_season_statement(job_id: int) -> ExportJob:
    """Claim the job and render its document, recording progress (the heartbeat) after each
    member. A job that is not waiting is returned as it is. Safe to run twice."""
    attempt = _claim(job_id)
    job = ExportJob.objects.select_related("club").get(pk=job_id)
    if attempt is None:
        return job
    params = job.params
    language = csv_language(params.get("language"))
    try:
        season = Season.objects.get(pk=params["season"], club=job.club)
        members = statement_members(job.club, season, params.get("member"))
        _owned(job.pk, attempt).update(total=len(members), updated_at=timezone.now())
        done: list[MemberStatement] = []
        for index, member in enumerate(members, start=1):
            stmt = ledger.statement(ledger.member_account(member), season.start, season.end)
            lines = statements.statement_lines(stmt)
            done.append(MemberStatement(member, stmt, lines, _by_source(stmt, language)))
            _owned(job.pk, attempt).update(done=index, updated_at=timezone.now())
        with translation.override(language):
            content = render_to_string(
                "ledger/export_statement_document.html",
                {
                    "club": job.club,
                    "season": season,
                    "statements": done,
                    "title": job.title,
                    "made_at": timezone.now(),
                    "language": language,
                },
            )
        if statement_format(params.get("format")) == "pdf":
            content = base64.b64encode(html_to_pdf(content)).decode("ascii")
    except SoftTimeLimitExceeded:
        log.warning("export %s took longer than %s s", job.pk, SOFT_TIME_LIMIT)
        _fail(job, attempt, TOO_SLOW)
    except Exception:
        # The page must show that it failed, with or without a worker; the log has the rest.
        log.exception("export %s failed", job.pk)
        _fail(job, attempt, BROKEN)
    else:
        now = timezone.now()
        _owned(job.pk, attempt).update(
            status=ExportJob.Status.DONE, content=content, finished_at=now, updated_at=now
        )
    job.refresh_from_db()
    return job


# --- PDF -----------------------------------------------------------------------------------


def html_to_pdf(html: str) -> bytes:
    """The printable document as an A4 PDF (its page rules are in the template)."""
    # Imported here: WeasyPrint loads Pango when imported, which only the export worker needs.
    from weasyprint import HTML
    from weasyprint.urls import URLFetcher

    # No protocol allowed: a statement is made from its own HTML alone, whatever a memo says.
    return HTML(string=html, url_fetcher=URLFetcher(allowed_protocols=())).write_pdf()


def is_pdf(job: ExportJob) -> bool:
    return statement_format(job.params.get("format")) == "pdf"


def job_pdf(job: ExportJob) -> bytes:
    """The finished PDF job's file."""
    return base64.b64decode(job.content)
