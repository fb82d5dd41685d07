"""Exports a treasurer or member asks for and a worker makes: the jobs, from the request to
the finished file, and the PDF.

An export is an ``ExportJob`` row (today: a season statement, ``ledger.season_statements``
builds its document). ``request_season_statement`` is what the page calls: the same statement
asked for again (a double tap, twenty taps, a second treasurer) while one is being built, or
after one was built that the books have not changed since, is that job — one build, not
twenty, which without a broker would each hold a web worker for the build's second. A
document is printable HTML, or (``params["format"] == "pdf"``) a PDF that WeasyPrint makes
from that same HTML (``html_to_pdf``), kept in ``content`` as base64 text (``job_pdf`` reads
it back), so a PDF job needs no column of its own; WeasyPrint fetches nothing, no file and no
URL.

Jobs that die
    Nothing is left ``running`` or ``pending`` for ever. The request queues the build with
    ``core.tasks.enqueue_on_commit``, which never lets a broker error reach the treasurer: a job
    the broker did not take stays ``pending`` and the beat's sweep (``sweep_jobs``, every
    minute) queues it again once it has waited ``PENDING_GRACE``, until a worker takes it.
    A build begins by claiming its job (``claim_job``: ``pending`` → ``running``, a conditional
    update that must change one row), so a job queued twice is built once, and every later
    write of that build is conditional on its claim (status and ``attempts``, ``owned_job``):
    a build that lost its job writes nothing. The task acks late, is given back to the queue
    if its worker is lost, and has a soft and a hard time limit (``SOFT_TIME_LIMIT``,
    ``TIME_LIMIT``); the soft one, or any error, marks the job failed with a message in the
    job's language (``fail_job``). ``updated_at`` is the heartbeat, moved at each member: a
    ``running`` job whose heartbeat has stood still for longer than the hard time limit
    (``STALE_AFTER``) has lost its worker, and the sweep queues it once more (``MAX_ATTEMPTS``
    builds in all), then marks it failed ("the worker stopped"). The job page shows a failed
    job's message and a "Try again" button (its own one-time key: a double tap makes one
    job), which asks for the same statement afresh. The same statement asked for again never
    opens a failed or dead job; a ``pending`` one is opened and queued again if it has waited
    longer than ``PENDING_GRACE``.

The build is queued by its task's name (``BUILD_TASK``, in Celery's registry, where
``LedgerConfig.ready`` puts ``ledger.tasks``): ``ledger.tasks`` imports this module for the
sweep and the limits, so this module does not import the tasks back.
"""

from __future__ import annotations

import base64
import logging
from datetime import timedelta

from celery import current_app
from django.db import transaction
from django.db.models import F
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from club.models import Club, Member, Season, User
from core.tasks import enqueue_on_commit
from ledger.csv_files import csv_language
from ledger.models import ExportJob, Transaction

log = logging.getLogger(__name__)

# The task that builds a job's document (``ledger.tasks.build_statement_task``), by its name.
BUILD_TASK = "ledger.tasks.build_statement_task"


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
    enqueue_on_commit(current_app.tasks[BUILD_TASK], job_id)


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
                owned_job(job.pk, job.attempts)
                .filter(updated_at=job.updated_at)
                .update(status=ExportJob.Status.PENDING, done=0, updated_at=now)
            )
            if retried:
                log.warning("export %s lost its worker; queued again", job.pk)
                _queue(job.pk)
                counts["retried"] += 1
        elif fail_job(job, job.attempts, WORKER_LOST):
            log.warning("export %s lost its worker %s times; failed", job.pk, job.attempts)
            counts["failed"] += 1
    return counts


def owned_job(job_id: int, attempt: int):
    """The job, as long as it is still the running build ``attempt``'s."""
    return ExportJob.objects.filter(pk=job_id, status=ExportJob.Status.RUNNING, attempts=attempt)


def claim_job(job_id: int) -> int | None:
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


def fail_job(job: ExportJob, attempt: int, message) -> bool:
    """Mark build ``attempt`` of the job failed with ``message`` in the job's language."""
    with translation.override(csv_language(job.params.get("language"))):
        error = str(message)
    now = timezone.now()
    return bool(
        owned_job(job.pk, attempt).update(
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
