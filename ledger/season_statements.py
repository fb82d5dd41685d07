"""Season statements as a document: for every member (or one), the season's statement of
their account, one member per A4 page, built by a worker for an export job.

Each member's page holds the opening balance, a line per game and per payment or dues
(``ledger.statements``) with the running balance, the closing balance and the totals by source
(in the words of the CSV files, ``ledger.csv_files``). Dates are written 2026-11-24 and
amounts "1 234,50 kr" (Swedish; "SEK 1,234.50" in English). ``build_season_statement`` runs
in a Celery task (``ledger.tasks.build_statement_task``): it claims the job, writes its
progress (the heartbeat) to the ``ExportJob`` row after each member — the job page polls
that — and stores the printable HTML or its PDF. The job's life around the build (the request,
the claim, failing, the sweep) is ``ledger.exports``'.
"""

from __future__ import annotations

import base64
import logging
from dataclasses import dataclass

from celery.exceptions import SoftTimeLimitExceeded
from django.db.models import Q
from django.template.loader import render_to_string
from django.utils import timezone, translation

from club.models import Club, Member, Season
from ledger import statements
from ledger.accounts import member_account
from ledger.csv_files import SOURCE_WORDS, csv_language
from ledger.exports import (
    BROKEN,
    SOFT_TIME_LIMIT,
    TOO_SLOW,
    claim_job,
    fail_job,
    html_to_pdf,
    owned_job,
    statement_format,
)
from ledger.models import AccountKind, Entry, ExportJob

log = logging.getLogger("ledger.exports")  # the exports' log, where the job's life is logged too


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
    statement: statements.Statement
    lines: list[statements.Line]
    by_source: list[tuple[str, int]]


def _by_source(stmt: statements.Statement, language: str) -> list[tuple[str, int]]:
    totals: dict[str, int] = {}
    for row in stmt.rows:
        source = row.entry.transaction.source
        totals[source] = totals.get(source, 0) + row.amount_ore
    words = SOURCE_WORDS[language]
    return [(words.get(s, s), amount) for s, amount in sorted(totals.items())]


def build_season_statement(job_id: int) -> ExportJob:
    """Claim the job and render its document, recording progress (the heartbeat) after each
    member. A job that is not waiting is returned as it is. Safe to run twice."""
    attempt = claim_job(job_id)
    job = ExportJob.objects.select_related("club").get(pk=job_id)
    if attempt is None:
        return job
    params = job.params
    language = csv_language(params.get("language"))
    try:
        season = Season.objects.get(pk=params["season"], club=job.club)
        members = statement_members(job.club, season, params.get("member"))
        owned_job(job.pk, attempt).update(total=len(members), updated_at=timezone.now())
        done: list[MemberStatement] = []
        for index, member in enumerate(members, start=1):
            stmt = statements.statement(member_account(member), season.start, season.end)
            lines = statements.statement_lines(stmt)
            done.append(MemberStatement(member, stmt, lines, _by_source(stmt, language)))
            owned_job(job.pk, attempt).update(done=index, updated_at=timezone.now())
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
        fail_job(job, attempt, TOO_SLOW)
    except Exception:
        # The page must show that it failed, with or without a worker; the log has the rest.
        log.exception("export %s failed", job.pk)
        fail_job(job, attempt, BROKEN)
    else:
        now = timezone.now()
        owned_job(job.pk, attempt).update(
            status=ExportJob.Status.DONE, content=content, finished_at=now, updated_at=now
        )
    job.refresh_from_db()
    return job
