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

from django.db import transaction
from django.db.models import Q
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from club.models import Club, Member, Season, User
from core.money import ore_to_decimal_text
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
) -> tuple[ExportJob, bool]:
    """The job for this statement and whether it is new (only then does the caller enqueue
    ``ledger.tasks.build_statement_task``). An earlier job of the last ``REUSE_WINDOW`` with the
    same parameters is reused while it waits or runs, or once done if no transaction has been
    posted since it was asked for (its document is then what a new build would make); a
    failed job never is."""
    params = _statement_params(season, member, language, file_format)
    with transaction.atomic():
        # Identical requests arriving together take turns here, so they find one another.
        Club.objects.select_for_update().filter(pk=club.pk).first()
        recent = (
            ExportJob.objects.filter(
                club=club,
                kind=ExportJob.Kind.SEASON_STATEMENT,
                created_at__gte=timezone.now() - REUSE_WINDOW,
            )
            .exclude(status=ExportJob.Status.FAILED)
            .defer("content")
        )
        for job in recent:  # newest first; a handful at most
            if job.params == params and _still_current(job):
                return job, False
        return start_season_statement(club, season, member, by, language, file_format), True


def _still_current(job: ExportJob) -> bool:
    if not job.is_finished:
        return True
    return not Transaction.objects.filter(club=job.club_id, created_at__gte=job.created_at).exists()


def start_season_statement(
    club: Club,
    season: Season,
    member: Member | None,
    by: User | None,
    language: str,
    file_format: str = "html",
) -> ExportJob:
    """Create the job; the caller enqueues ``ledger.tasks.build_statement_task`` on commit."""
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
    """Render the job's document, recording progress after each member. Safe to run twice."""
    job = ExportJob.objects.select_related("club").get(pk=job_id)
    params = job.params
    language = csv_language(params.get("language"))
    try:
        season = Season.objects.get(pk=params["season"], club=job.club)
        members = statement_members(job.club, season, params.get("member"))
        ExportJob.objects.filter(pk=job.pk).update(
            status=ExportJob.Status.RUNNING, done=0, total=len(members), error=""
        )
        done: list[MemberStatement] = []
        for index, member in enumerate(members, start=1):
            stmt = ledger.statement(ledger.member_account(member), season.start, season.end)
            lines = statements.statement_lines(stmt)
            done.append(MemberStatement(member, stmt, lines, _by_source(stmt, language)))
            ExportJob.objects.filter(pk=job.pk).update(done=index)
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
    except Exception as error:
        # The page must show that it failed, with or without a worker; the log has the rest.
        log.exception("export %s failed", job.pk)
        ExportJob.objects.filter(pk=job.pk).update(
            status=ExportJob.Status.FAILED, error=str(error)[:300], finished_at=timezone.now()
        )
    else:
        ExportJob.objects.filter(pk=job.pk).update(
            status=ExportJob.Status.DONE, content=content, finished_at=timezone.now()
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
