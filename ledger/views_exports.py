"""The treasurer's exports: CSV files of the books and season statements (printable or PDF).

A statement is built by a Celery task (``ledger.tasks.build_statement_task``) queued when the
request commits; asking again for the same statement while it is being built (or after, if the
books have not changed) opens that job instead of queueing another. Without a broker the task
runs eagerly inside the request, so the job page opens finished; with one it opens running and
polls its progress fragment every second (htmx, ``#progress``) until the document is ready.
A failed job's page says why and offers "Try again": a POST to the job's own address with the
form's one-time key, answered with the fresh job's page (``ledger.exports.retry_statement``).
"""

from __future__ import annotations

from django.core.exceptions import ObjectDoesNotExist
from django.http import Http404, HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.csp import CSP
from django.utils.translation import get_language
from django.views.decorators.csp import csp_override
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from club.access import club_view
from club.models import Role
from club.seasons import current_season
from core.forms import IdempotentForm
from ledger import csv_files, exports
from ledger.forms import BalanceDateForm, DateRangeForm, StatementForm
from ledger.models import ExportJob

FILE_NAMES = {
    "sv": {"transactions": "transaktioner", "balances": "saldon"},
    "en": {"transactions": "transactions", "balances": "balances"},
}


def _language() -> str:
    return csv_files.csv_language(get_language())


def _page(request: HttpRequest, status: int = 200, **forms) -> HttpResponse:
    season = current_season(request.club)  # a club without seasons gets this year's
    context = {
        "range_form": forms.get("range_form") or DateRangeForm(prefix="tx"),
        "balance_form": forms.get("balance_form") or BalanceDateForm(prefix="bal"),
        "statement_form": forms.get("statement_form")
        or StatementForm(club=request.club, initial={"season": season.pk}),
        "jobs": ExportJob.objects.filter(club=request.club)[:10],
    }
    return render(request, "ledger/exports.html", context, status=status)


@require_safe
@club_view(role=Role.TREASURER)
def export_list(request: HttpRequest) -> HttpResponse:
    return _page(request)


def _csv_response(request: HttpRequest, what: str, chunks) -> StreamingHttpResponse:
    name = FILE_NAMES[_language()][what]
    today = timezone.localdate().isoformat()
    response = StreamingHttpResponse(chunks, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = (
        f'attachment; filename="{name}-{request.club.slug}-{today}.csv"'
    )
    return response


@require_safe
@club_view(role=Role.TREASURER)
def transactions_csv(request: HttpRequest) -> HttpResponse:
    form = DateRangeForm(request.GET, prefix="tx")
    if not form.is_valid():
        return _page(request, status=422, range_form=form)
    data = form.cleaned_data
    chunks = csv_files.transactions_csv(request.club, _language(), data["start"], data["end"])
    return _csv_response(request, "transactions", chunks)


@require_safe
@club_view(role=Role.TREASURER)
def balances_csv(request: HttpRequest) -> HttpResponse:
    form = BalanceDateForm(request.GET, prefix="bal")
    if not form.is_valid():
        return _page(request, status=422, balance_form=form)
    chunks = csv_files.balances_csv(request.club, _language(), form.cleaned_data["at"])
    return _csv_response(request, "balances", chunks)


@require_POST
@club_view(role=Role.TREASURER)
def statement_start(request: HttpRequest) -> HttpResponse:
    form = StatementForm(request.POST, club=request.club)
    if not form.is_valid():
        return _page(request, status=422, statement_form=form)
    job, _new = exports.request_season_statement(
        request.club,
        form.cleaned_data["season"],
        form.cleaned_data["member"],
        request.user,
        _language(),
        exports.statement_format(request.POST.get("format")),
    )
    return redirect("ledger:export-job", club_slug=request.club.slug, job_id=job.pk)


def _visible_job(request: HttpRequest, job_id: int, *, defer: bool = False) -> ExportJob:
    """The treasurer sees every export; a member sees the statements of his own account."""
    jobs = ExportJob.objects.defer("content") if defer else ExportJob.objects.all()
    job = get_object_or_404(jobs, pk=job_id, club=request.club)
    own = (
        job.kind == ExportJob.Kind.SEASON_STATEMENT
        and (job.params or {}).get("member") == request.member.pk
    )
    if not (own or request.member.can(Role.TREASURER)):
        raise Http404
    return job


@require_POST
@club_view()
def my_statement_start(request: HttpRequest) -> HttpResponse:
    """A member's own statement of the current season as a PDF, made by the export job."""
    job, _new = exports.request_season_statement(
        request.club,
        current_season(request.club),
        request.member,
        request.user,
        _language(),
        "pdf",
    )
    return redirect("ledger:export-job", club_slug=request.club.slug, job_id=job.pk)


@require_http_methods(["GET", "HEAD", "POST"])
@club_view()
def export_job(request: HttpRequest, job_id: int) -> HttpResponse:
    """The job's progress; a POST is a failed job's "Try again"."""
    job = _visible_job(request, job_id, defer=True)
    errors = []
    if request.method == "POST":
        posted = IdempotentForm(request.POST)
        if posted.is_valid():
            try:
                job = exports.retry_statement(job, request.user, posted.ledger_key("retry"))
            except ObjectDoesNotExist:  # its season or member is gone: nothing to make again
                raise Http404 from None
            return redirect("ledger:export-job", club_slug=request.club.slug, job_id=job.pk)
        errors = posted.errors["submission"]
    context = {"job": job, "retry_form": IdempotentForm(), "retry_errors": errors}
    template = "ledger/export_job.html#progress" if request.htmx else "ledger/export_job.html"
    return render(request, template, context, status=422 if errors else 200)


# The document carries its own print styles and no script: it must read the same opened
# from the site or from a downloaded file.
DOCUMENT_CSP = {
    "default-src": [CSP.NONE],
    "style-src": [CSP.UNSAFE_INLINE],
    "img-src": [CSP.SELF, "data:"],
    "base-uri": [CSP.NONE],
    "form-action": [CSP.NONE],
    "frame-ancestors": [CSP.NONE],
}


@require_safe
@csp_override(DOCUMENT_CSP)
@club_view()
def export_document(request: HttpRequest, job_id: int) -> HttpResponse:
    job = _visible_job(request, job_id)
    if job.status != ExportJob.Status.DONE:
        raise Http404
    if exports.is_pdf(job):
        # Always a download: the phone hands the file to its PDF reader, and no browser's
        # built-in viewer meets the document's strict policy.
        response = HttpResponse(exports.job_pdf(job), content_type="application/pdf")
        name = f"{request.club.slug}-{job.pk}.pdf"
        response["Content-Disposition"] = f'attachment; filename="{name}"'
        return response
    response = HttpResponse(job.content, content_type="text/html; charset=utf-8")
    if request.GET.get("download"):
        name = f"{request.club.slug}-{job.pk}.html"
        response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response
