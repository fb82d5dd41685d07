"""Exports: CSV files in the UI's language, season statements (printable or PDF) built by a task
with progress."""

from __future__ import annotations

import csv
import io
from datetime import date, timedelta

import pytest
import time_machine
from celery import current_app
from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.urls import reverse
from django.utils import timezone, translation
from pypdf import PdfReader

import ledger
from club.models import Season
from ledger import csv_files, exports, season_statements
from ledger.models import AccountKind, ExportJob, Source
from ledger.tasks import build_statement_task
from tests.conftest import client_for
from tests.factories import ledger_url_name, make_member


def export_url(club, name, *args):
    return reverse(ledger_url_name(name), args=[club.slug, *args])


def in_language(client, language):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    return client


def read_csv(response) -> tuple[str, list[list[str]]]:
    text = b"".join(response.streaming_content).decode("utf-8")
    assert text.startswith("\ufeff")
    delimiter = ";" if text.splitlines()[0].count(";") else ","
    return delimiter, list(csv.reader(io.StringIO(text[1:]), delimiter=delimiter))


@pytest.fixture
def books(club):
    anna = ledger.member_account(make_member(club, "Anna Ek", login=False))
    bo = ledger.member_account(make_member(club, "Bo Al", login=False))
    pot = ledger.pot_account(club, "pot:kille", "Killepotten")
    cash = ledger.system_account(club, AccountKind.CASH)
    with time_machine.travel("2026-03-05 20:00 +0100"):
        ledger.post(club, ledger.legs_for_transfer(cash, anna, 15050), "In", Source.MANUAL, None)
        game = ledger.post(
            club, [(anna, -1250), (bo, -1250), (pot, 2500)], "Kille; insats", Source.GAME, None
        )
    with time_machine.travel("2026-04-01 20:00 +0200"):
        # As the game's void does: game money is reversed only by the game.
        ledger.reverse(game, "Fel spel", None, game_recording=True)
    return {"anna": anna, "bo": bo, "pot": pot, "cash": cash, "game": game}


def test_the_transactions_csv_in_swedish(treasurer_client, club, books):
    response = in_language(treasurer_client, "sv").get(export_url(club, "export-transactions"))
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert 'filename="transaktioner-' in response["Content-Disposition"]
    delimiter, rows = read_csv(response)
    assert delimiter == ";"
    assert rows[0] == [
        "Datum",
        "Verifikation",
        "Text",
        "Källa",
        "Konto",
        "Kontotyp",
        "Belopp (kr)",
        "Rättar",
    ]
    game = [r for r in rows[1:] if r[1] == str(books["game"].pk)]
    assert game == [
        [
            "2026-03-05",
            str(books["game"].pk),
            "Kille; insats",
            "spel",
            "Anna Ek",
            "medlem",
            "-12,50",
            "",
        ],
        [
            "2026-03-05",
            str(books["game"].pk),
            "Kille; insats",
            "spel",
            "Bo Al",
            "medlem",
            "-12,50",
            "",
        ],
        [
            "2026-03-05",
            str(books["game"].pk),
            "Kille; insats",
            "spel",
            "Pott: Kille",  # an account reads by what it is, in the file's language
            "pott",
            "25,00",
            "",
        ],
    ]
    reversal = [r for r in rows[1:] if r[7] == str(books["game"].pk)]
    assert [r[6] for r in reversal] == ["12,50", "12,50", "-25,00"]
    assert len(rows) == 1 + 2 + 3 + 3


def test_the_transactions_csv_in_english_and_by_date(treasurer_client, club, books):
    response = in_language(treasurer_client, "en").get(
        export_url(club, "export-transactions"), {"tx-start": "2026-03-01", "tx-end": "2026-03-31"}
    )
    assert 'filename="transactions-' in response["Content-Disposition"]
    delimiter, rows = read_csv(response)
    assert delimiter == ","
    assert rows[0] == [
        "Date",
        "Transaction",
        "Memo",
        "Source",
        "Account",
        "Account type",
        "Amount (SEK)",
        "Corrects",
    ]
    assert [(r[3], r[4], r[6]) for r in rows[1:]] == [
        ("manual", "Cash", "-150.50"),
        ("manual", "Anna Ek", "150.50"),
        ("game", "Anna Ek", "-12.50"),
        ("game", "Bo Al", "-12.50"),
        ("game", "Pot: Kille", "25.00"),
    ]


def test_a_reversed_date_range_is_a_form_error(treasurer_client, club, books):
    response = treasurer_client.get(
        export_url(club, "export-transactions"), {"tx-start": "2026-04-01", "tx-end": "2026-03-01"}
    )
    assert response.status_code == 422
    assert response.context["range_form"].errors


def test_the_balances_csv_in_both_languages_now_and_at_a_date(treasurer_client, club, books):
    _, rows = read_csv(in_language(treasurer_client, "sv").get(export_url(club, "export-balances")))
    assert rows[0] == ["Konto", "Kontotyp", "Saldo (kr)", "Stängt"]
    lines = {r[0]: r[1:] for r in rows[1:]}
    assert lines["Anna Ek"] == ["medlem", "150,50", ""]
    assert lines["Kontanter"] == ["kontanter", "150,50", ""]  # cash in the box reads positive
    assert lines["Pott: Kille"] == ["pott", "0,00", ""]
    client = in_language(treasurer_client, "en")
    _, rows = read_csv(client.get(export_url(club, "export-balances"), {"bal-at": "2026-03-31"}))
    assert rows[0] == ["Account", "Account type", "Balance (SEK)", "Closed"]
    lines = {r[0]: r[1:] for r in rows[1:]}
    assert lines["Anna Ek"] == ["member", "138.00", ""]
    assert lines["Pot: Kille"] == ["pot", "25.00", ""]


def test_the_csv_streams_without_a_query_per_row(
    treasurer_client, club, books, django_assert_max_num_queries
):
    response = treasurer_client.get(export_url(club, "export-transactions"))
    with django_assert_max_num_queries(2):
        b"".join(response.streaming_content)


@pytest.mark.parametrize(
    ("text", "written"),
    [
        ('=HYPERLINK("http://x")', '\'=HYPERLINK("http://x")'),
        ("+46 70 123 45 67", "'+46 70 123 45 67"),
        ("-2+3", "'-2+3"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\t=1", "'\t=1"),
        ("\r=1", "'\r=1"),
        ("Kille; insats", "Kille; insats"),
        ("Anna Ek", "Anna Ek"),
        ("a=b", "a=b"),
        ("", ""),
    ],
)
def test_free_text_that_a_spreadsheet_would_run_gets_an_apostrophe(text, written):
    assert csv_files.text_cell(text) == written


def test_formula_like_memos_and_names_are_neutralised_and_amounts_stay_numbers(
    treasurer_client, club
):
    eve = ledger.member_account(make_member(club, '=HYPERLINK("http://x","Eva")', login=False))
    cash = ledger.system_account(club, AccountKind.CASH)
    ledger.post(club, ledger.legs_for_transfer(eve, cash, 1250), "@kaffe", Source.MANUAL, None)
    ledger.post(club, ledger.legs_for_transfer(cash, eve, 500), "+tillbaka", Source.MANUAL, None)
    ledger.post(club, ledger.legs_for_transfer(eve, cash, 100), "-=1+1", Source.MANUAL, None)

    _, rows = read_csv(
        in_language(treasurer_client, "sv").get(export_url(club, "export-transactions"))
    )
    eves = [r for r in rows[1:] if "HYPERLINK" in r[4]]
    assert {r[4] for r in eves} == {'\'=HYPERLINK("http://x","Eva")'}
    assert [(r[2], r[6]) for r in eves] == [
        ("'@kaffe", "-12,50"),
        ("'+tillbaka", "5,00"),
        ("'-=1+1", "-1,00"),
    ]

    _, rows = read_csv(in_language(treasurer_client, "en").get(export_url(club, "export-balances")))
    lines = {r[0]: r[1:] for r in rows[1:]}
    # Eve owes 8.50: a negative amount, written as a plain number a spreadsheet can sum.
    assert lines['\'=HYPERLINK("http://x","Eva")'] == ["member", "-8.50", ""]


# --- season statements ---------------------------------------------------------------------


@pytest.fixture
def season(club):
    return Season.objects.create(
        club=club, name="Vår 2026", start=date(2026, 1, 1), end=date(2026, 6, 30)
    )


def test_the_statement_task_builds_the_document_and_reports_progress(
    treasurer_client, club, books, season, monkeypatch, django_capture_on_commit_callbacks
):
    seen: list[tuple[str, int, int]] = []
    statement = ledger.statement

    def watching(account, start, end):
        job = ExportJob.objects.get()
        seen.append((job.status, job.done, job.total))
        return statement(account, start, end)

    monkeypatch.setattr(season_statements.statements, "statement", watching)
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        response = treasurer_client.post(
            export_url(club, "export-statement"), {"season": season.pk}
        )
    assert len(callbacks) == 1
    job = ExportJob.objects.get()
    assert response["Location"] == export_url(club, "export-job", job.pk)
    # Anna, Bo and the treasurer; progress stored before each member's statement is read.
    assert seen == [("running", 0, 3), ("running", 1, 3), ("running", 2, 3)]
    assert (job.status, job.done, job.total) == ("done", 3, 3)
    document = treasurer_client.get(export_url(club, "export-document", job.pk))
    assert document["Content-Type"] == "text/html; charset=utf-8"
    assert "unsafe-inline" in document["Content-Security-Policy"]
    html = document.content.decode()
    assert html.count('class="member"') == 3
    assert "Anna Ek" in html
    assert "Vår 2026" in html
    assert "138,00\u00a0kr" in html  # Anna after the game, before the reversal…
    assert "150,50\u00a0kr" in html  # …and at the end of the season
    download = treasurer_client.get(export_url(club, "export-document", job.pk), {"download": "1"})
    assert download["Content-Disposition"].startswith("attachment;")


def test_one_members_statement_in_english(treasurer_client, club, books, season):
    response = in_language(treasurer_client, "en").post(
        export_url(club, "export-statement"), {"season": season.pk, "member": books["bo"].member_id}
    )
    job = ExportJob.objects.get()
    build_statement_task.delay(job.pk)  # without a broker the task ran already; again is harmless
    job.refresh_from_db()
    assert response.status_code == 302
    assert job.total == 1
    assert job.title == "Statement Vår 2026: Bo Al"
    html = job.content
    assert "Bo Al" in html
    assert "Anna Ek" not in html
    assert "SEK 0.00" in html


def test_the_progress_fragment_polls_until_the_document_is_ready(treasurer_client, club, season):
    job = exports.start_season_statement(club, season, None, None, "sv")
    ExportJob.objects.filter(pk=job.pk).update(status="running", done=1, total=3)
    fragment = treasurer_client.get(
        export_url(club, "export-job", job.pk), headers={"HX-Request": "true"}
    )
    text = fragment.content.decode()
    assert text.lstrip().startswith('<section id="progress"')
    assert "<html" not in text
    assert 'hx-trigger="every 1s"' in text
    assert 'value="1" max="3"' in text
    assert treasurer_client.get(export_url(club, "export-document", job.pk)).status_code == 404
    # A build claims a waiting job only (a running one is another build's): this is that build.
    ExportJob.objects.filter(pk=job.pk).update(status="pending", done=0, total=0)
    season_statements.build_season_statement(job.pk)
    text = treasurer_client.get(
        export_url(club, "export-job", job.pk), headers={"HX-Request": "true"}
    ).content.decode()
    assert "hx-trigger" not in text
    assert export_url(club, "export-document", job.pk) in text
    full = treasurer_client.get(export_url(club, "export-job", job.pk)).content.decode()
    assert "<html" in full


def test_a_failed_statement_says_so(treasurer_client, club, season):
    job = exports.start_season_statement(club, season, None, None, "sv")
    season.delete()
    season_statements.build_season_statement(job.pk)
    job.refresh_from_db()
    assert job.status == "failed"
    page = treasurer_client.get(export_url(club, "export-job", job.pk)).content.decode()
    assert 'role="alert"' in page
    assert "hx-trigger" not in page


def test_members_and_other_clubs_get_nothing(member_client, club, other_club, books, season):
    job = exports.start_season_statement(club, season, None, None, "sv")
    season_statements.build_season_statement(job.pk)
    names = ["export-list", "export-transactions", "export-balances"]
    for name in names:
        assert member_client.get(export_url(club, name)).status_code == 403
    # The club's statement is not hers: a member finds only her own (404, as for any job).
    assert member_client.get(export_url(club, "export-document", job.pk)).status_code == 404
    assert member_client.get(export_url(club, "export-job", job.pk)).status_code == 404
    assert (
        member_client.post(export_url(club, "export-statement"), {"season": season.pk}).status_code
        == 403
    )
    stranger = client_for(make_member(other_club, "Främling", roles=["treasurer"]))
    for name in names:
        assert stranger.get(export_url(club, name)).status_code == 404
    assert stranger.get(export_url(club, "export-job", job.pk)).status_code == 404
    # Their own club's address with our job's id reveals nothing either.
    assert stranger.get(export_url(other_club, "export-job", job.pk)).status_code == 404
    assert stranger.get(export_url(other_club, "export-document", job.pk)).status_code == 404
    response = stranger.post(export_url(other_club, "export-statement"), {"season": season.pk})
    assert response.status_code == 422
    assert ExportJob.objects.count() == 1


def test_the_exports_page_offers_every_export(treasurer_client, club, season):
    page = treasurer_client.get(export_url(club, "export-list"))
    assert page.status_code == 200
    assert season in page.context["statement_form"].fields["season"].queryset
    ledger_page = treasurer_client.get(
        reverse("ledger:overview", args=[club.slug])
    ).content.decode()
    assert export_url(club, "export-list") in ledger_page
    assert reverse("ledger:dues", args=[club.slug]) in ledger_page


def test_a_job_queues_the_build_task_by_its_name():
    # ``ledger.exports`` finds the task in Celery's registry (``ledger.tasks`` imports it).
    assert current_app.tasks[exports.BUILD_TASK] is build_statement_task._get_current_object()


# --- the same statement asked for again --------------------------------------------------------


def test_the_same_statement_asked_for_twenty_times_is_built_once(
    treasurer_client, club, books, season, monkeypatch, django_capture_on_commit_callbacks
):
    built: list[int] = []
    build = season_statements.build_season_statement
    monkeypatch.setattr(
        season_statements, "build_season_statement", lambda pk: built.append(pk) or build(pk)
    )
    url = export_url(club, "export-statement")
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        locations = {
            treasurer_client.post(url, {"season": season.pk})["Location"] for _ in range(20)
        }
    job = ExportJob.objects.get()
    assert locations == {export_url(club, "export-job", job.pk)}
    assert len(callbacks) == 1
    assert built == [job.pk]
    assert job.status == ExportJob.Status.DONE


def test_a_waiting_statement_is_reused_and_a_changed_one_is_not(
    treasurer_client, club, books, season
):
    url = export_url(club, "export-statement")
    # No callbacks run here: the job waits, as for a worker that has not picked it up yet.
    first = treasurer_client.post(url, {"season": season.pk})["Location"]
    assert treasurer_client.post(url, {"season": season.pk})["Location"] == first
    job = ExportJob.objects.get()
    # Other parameters are another statement.
    treasurer_client.post(url, {"season": season.pk, "member": books["bo"].member_id})
    in_language(treasurer_client, "en").post(url, {"season": season.pk})
    assert ExportJob.objects.count() == 3
    # Done, and the books unchanged since: the same document.
    season_statements.build_season_statement(job.pk)
    in_language(treasurer_client, "sv")
    assert treasurer_client.post(url, {"season": season.pk})["Location"] == first
    # A posting since: a new build.
    ledger.post(
        club, ledger.legs_for_transfer(books["cash"], books["bo"], 100), "In", Source.MANUAL, None
    )
    assert treasurer_client.post(url, {"season": season.pk})["Location"] != first
    assert ExportJob.objects.count() == 4


def test_a_failed_or_old_job_is_never_reused(club, books, season):
    job, new = exports.request_season_statement(club, season, None, None, "sv")
    assert new
    ExportJob.objects.filter(pk=job.pk).update(status=ExportJob.Status.FAILED)
    failed_again, new = exports.request_season_statement(club, season, None, None, "sv")
    assert new
    assert failed_again != job
    with time_machine.travel(timezone.now() + exports.REUSE_WINDOW + timedelta(seconds=1)):
        # Still waiting after the window: its worker is lost; ask again.
        later, new = exports.request_season_statement(club, season, None, None, "sv")
    assert new
    assert later not in (job, failed_again)


# --- PDF statements ----------------------------------------------------------------------------


def page_text(page) -> str:
    # The document's no-break spaces ("1 234,50 kr") may come out of the PDF as plain ones.
    return page.extract_text().replace("\u00a0", " ")


def pdf_text(data: bytes) -> tuple[list, str]:
    reader = PdfReader(io.BytesIO(data))
    return reader.pages, "\n".join(page_text(page) for page in reader.pages)


def test_a_pdf_statement_is_built_by_the_task_on_a4_in_swedish(
    treasurer_client, club, books, season, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        response = treasurer_client.post(
            export_url(club, "export-statement"), {"season": season.pk, "format": "pdf"}
        )
    job = ExportJob.objects.get()
    assert (job.status, job.done, job.total) == ("done", 3, 3)
    assert job.title == "Kontoutdrag Vår 2026: alla medlemmar (PDF)"
    page = treasurer_client.get(response["Location"]).content.decode()
    assert 'data-testid="export-pdf"' in page
    download = treasurer_client.get(export_url(club, "export-document", job.pk))
    assert download["Content-Type"] == "application/pdf"
    assert download["Content-Disposition"] == f'attachment; filename="{club.slug}-{job.pk}.pdf"'
    pages, text = pdf_text(download.content)
    assert len(pages) == 3  # one member a page
    assert [round(float(x)) for x in pages[0].mediabox[2:]] == [595, 842]  # A4 in points
    anna = next(page_text(p) for p in pages if "Anna Ek" in page_text(p))
    assert club.name in anna
    assert "Kontoutdrag: Anna Ek" in anna
    assert "2026-01-01 – 2026-06-30 (Vår 2026)" in anna
    assert "Ingående saldo 2026-01-01 0,00 kr" in anna
    assert "Utgående saldo 2026-06-30 150,50 kr" in anna
    assert "2026-03-05 Kille; insats" in anna
    assert "Bo Al" in text


def test_a_pdf_for_one_member_in_english(treasurer_client, club, books, season):
    in_language(treasurer_client, "en").post(
        export_url(club, "export-statement"),
        {"season": season.pk, "member": books["anna"].member_id, "format": "pdf"},
    )
    job = ExportJob.objects.get()
    build_statement_task.delay(job.pk)  # the task on commit, which a test never reaches
    job.refresh_from_db()
    pages, text = pdf_text(exports.job_pdf(job))
    assert len(pages) == 1
    assert "Statement: Anna Ek" in text
    assert "Closing balance 2026-06-30 SEK 150.50" in text


def test_a_pdf_and_a_printable_page_of_the_same_statement_are_two_jobs(
    treasurer_client, club, season
):
    url = export_url(club, "export-statement")
    pdf = treasurer_client.post(url, {"season": season.pk, "format": "pdf"})["Location"]
    html = treasurer_client.post(url, {"season": season.pk})["Location"]
    assert pdf != html
    assert treasurer_client.post(url, {"season": season.pk, "format": "pdf"})["Location"] == pdf
    assert treasurer_client.post(url, {"season": season.pk, "format": "doc"})["Location"] == html


@pytest.mark.books_by_hand
def test_a_game_is_one_line_of_the_document(club, member, season):
    own = ledger.member_account(member)
    pot = ledger.pot_account(club, "pot:kille", "Killepotten")
    with time_machine.travel("2026-03-05 20:00 +0100"):
        for seq, amount in enumerate([-200, 500, -100], start=1):
            ref = f"game:7:event:{seq}"
            memo = f"Kille #7: giv {seq}"
            legs = [(own, amount), (pot, -amount)]
            ledger.post(club, legs, memo, Source.GAME, None, key=ref, ref=ref)
    job = exports.start_season_statement(club, season, member, None, "sv", "pdf")
    _pages, text = pdf_text(exports.job_pdf(season_statements.build_season_statement(job.pk)))
    assert "2026-03-05 Kille #7 · 3 poster 2,00 kr 2,00 kr" in text
    assert "giv 2" not in text


@time_machine.travel("2026-03-10 12:00 +0100")  # within the season, login and all
def test_a_member_downloads_his_own_statement_as_a_pdf_and_no_one_elses(
    club, books, season, django_capture_on_commit_callbacks
):
    member = make_member(club, "Anna Inloggad")
    client = client_for(member)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("ledger:my-statement", args=[club.slug]))
    job = ExportJob.objects.get()
    assert job.params["member"] == member.pk
    assert job.params["format"] == "pdf"
    page = client.get(response["Location"])
    assert 'data-testid="export-pdf"' in page.content.decode()
    download = client.get(export_url(club, "export-document", job.pk))
    assert download["Content-Type"] == "application/pdf"
    _pages, text = pdf_text(download.content)
    assert "Kontoutdrag: Anna Inloggad" in text
    assert "Anna Ek" not in text  # her statement only, not the club's
    # Another member sees neither her job nor its document; the exports list stays the
    # treasurer's.
    other = client_for(make_member(club, "Olle Annan"))
    assert other.get(response["Location"]).status_code == 404
    assert other.get(export_url(club, "export-document", job.pk)).status_code == 404
    assert client.get(export_url(club, "export-list")).status_code == 403


# --- jobs that die (issue 23, item 2) ----------------------------------------------------------


def later(delta: timedelta):
    return time_machine.travel(timezone.now() + delta, tick=False)


def waiting_job(club, season, language="sv") -> ExportJob:
    """A job asked for whose queueing never happened (the broker was away)."""
    job, new = exports.request_season_statement(club, season, None, None, language)
    assert new
    return job


def running_job(club, season, attempts=1, language="sv") -> ExportJob:
    """A job a worker took and then went quiet on (killed: its heartbeat stands still)."""
    job = waiting_job(club, season, language)
    ExportJob.objects.filter(pk=job.pk).update(
        status="running", attempts=attempts, done=1, total=3, updated_at=timezone.now()
    )
    return job


def status_of(job) -> tuple[str, int]:
    job.refresh_from_db()
    return job.status, job.attempts


def test_a_job_that_was_never_queued_is_queued_by_the_sweep(
    club, books, season, django_capture_on_commit_callbacks
):
    job = waiting_job(club, season)
    with later(exports.PENDING_GRACE - timedelta(seconds=1)):
        assert exports.sweep_jobs() == {"queued": 0, "retried": 0, "failed": 0}
    with (
        later(exports.PENDING_GRACE + timedelta(seconds=1)),
        django_capture_on_commit_callbacks(execute=True) as callbacks,
    ):
        assert exports.sweep_jobs() == {"queued": 1, "retried": 0, "failed": 0}
    assert len(callbacks) == 1
    assert status_of(job) == ("done", 1)
    assert exports.sweep_jobs() == {"queued": 0, "retried": 0, "failed": 0}


def test_a_running_job_whose_worker_is_gone_is_built_once_more(
    club, books, season, django_capture_on_commit_callbacks
):
    job = running_job(club, season)
    with later(exports.STALE_AFTER - timedelta(seconds=1)):
        assert exports.sweep_jobs()["retried"] == 0  # its worker may still be on it
    assert status_of(job) == ("running", 1)
    with (
        later(exports.STALE_AFTER + timedelta(seconds=1)),
        django_capture_on_commit_callbacks(execute=True),
    ):
        assert exports.sweep_jobs() == {"queued": 0, "retried": 1, "failed": 0}
    assert status_of(job) == ("done", 2)


@pytest.mark.parametrize(
    ("language", "message"),
    [
        ("sv", "Arbetet med det avbröts innan det var klart."),
        ("en", "The work on it stopped before it was done."),
    ],
)
def test_a_job_whose_worker_is_lost_twice_fails_with_a_message(club, season, language, message):
    job = running_job(club, season, attempts=exports.MAX_ATTEMPTS, language=language)
    with later(exports.STALE_AFTER + timedelta(seconds=1)):
        assert exports.sweep_jobs() == {"queued": 0, "retried": 0, "failed": 1}
    assert status_of(job) == ("failed", exports.MAX_ATTEMPTS)
    assert job.error == message
    assert job.finished_at is not None


@pytest.mark.parametrize(
    ("raised", "language", "message"),
    [
        (SoftTimeLimitExceeded(), "sv", "Det tog för lång tid att skapa; försök igen senare."),
        (SoftTimeLimitExceeded(), "en", "It took too long to make; try again later."),
        (KeyError("internal detail"), "sv", "Något gick fel när det skapades."),
    ],
)
def test_a_build_that_runs_out_of_time_or_breaks_fails_with_a_message_in_its_language(
    club, books, season, monkeypatch, raised, language, message
):
    def breaks(account, start, end):
        raise raised

    monkeypatch.setattr(season_statements.statements, "statement", breaks)
    job = season_statements.build_season_statement(waiting_job(club, season, language).pk)
    assert (job.status, job.error) == ("failed", message)
    assert "internal detail" not in job.error  # the log has that, not the treasurer's page


def test_a_job_queued_twice_is_built_once(club, books, season, monkeypatch):
    built: list[int] = []
    statement = ledger.statement
    monkeypatch.setattr(
        season_statements.statements, "statement", lambda *args: built.append(1) or statement(*args)
    )
    job = waiting_job(club, season)
    assert season_statements.build_season_statement(job.pk).status == "done"
    assert season_statements.build_season_statement(job.pk).status == "done"
    assert len(built) == 2  # Anna and Bo, once each
    assert status_of(job) == ("done", 1)


def test_a_build_whose_job_was_taken_from_it_writes_nothing(club, books, season, monkeypatch):
    statement = ledger.statement

    def swept_meanwhile(account, start, end):
        # The sweep gave up on this build (its worker seemed gone) while it was still going.
        ExportJob.objects.update(status="failed", error="gone")
        return statement(account, start, end)

    monkeypatch.setattr(season_statements.statements, "statement", swept_meanwhile)
    job = season_statements.build_season_statement(waiting_job(club, season).pk)
    assert (job.status, job.error, job.done, job.content) == ("failed", "gone", 0, "")


def test_a_dead_job_is_not_opened_again_and_a_late_waiting_one_is_queued_again(
    club, books, season, django_capture_on_commit_callbacks
):
    job = running_job(club, season)
    with later(exports.STALE_AFTER + timedelta(seconds=1)):
        fresh, new = exports.request_season_statement(club, season, None, None, "sv")
    assert new
    assert fresh != job
    with (
        later(exports.STALE_AFTER + exports.PENDING_GRACE + timedelta(seconds=2)),
        django_capture_on_commit_callbacks(execute=True) as callbacks,
    ):
        again, new = exports.request_season_statement(club, season, None, None, "sv")
    assert (again, new) == (fresh, False)
    assert len(callbacks) == 1  # queued once more, and built
    assert status_of(fresh) == ("done", 1)


# --- "Try again" -------------------------------------------------------------------------------


def failed_job(club, season, member=None, language="sv") -> ExportJob:
    job, _ = exports.request_season_statement(club, season, member, None, language)
    with translation.override(language):
        error = str(exports.WORKER_LOST)
    ExportJob.objects.filter(pk=job.pk).update(
        status="failed", error=error, finished_at=timezone.now()
    )
    job.refresh_from_db()
    return job


def retry_key(page) -> str:
    return page.context["retry_form"]["submission"].value()


def test_a_failed_job_says_why_and_offers_to_try_again(
    treasurer_client, club, books, season, django_capture_on_commit_callbacks
):
    job = failed_job(club, season, language="en")
    url = export_url(club, "export-job", job.pk)
    page = in_language(treasurer_client, "en").get(url)
    text = page.content.decode()
    assert "The work on it stopped before it was done." in text
    assert 'data-testid="export-retry"' in text
    assert f'action="{url}"' in text
    fragment = treasurer_client.get(url, headers={"HX-Request": "true"}).content.decode()
    assert "Try again" in fragment
    assert "hx-trigger" not in fragment
    key = retry_key(page)
    with django_capture_on_commit_callbacks(execute=True):
        response = treasurer_client.post(url, {"submission": key})
    fresh = ExportJob.objects.exclude(pk=job.pk).get()
    assert response["Location"] == export_url(club, "export-job", fresh.pk)
    assert (fresh.status, fresh.params) == ("done", job.params)
    assert status_of(job)[0] == "failed"  # the failed one stays as it was
    # The double tap, even once the fresh job has failed in turn: the same answer.
    ExportJob.objects.filter(pk=fresh.pk).update(status="failed")
    assert treasurer_client.post(url, {"submission": key})["Location"] == response["Location"]
    assert ExportJob.objects.count() == 2


def test_a_member_tries_his_own_statement_again(
    member_client, club, member, season, django_capture_on_commit_callbacks
):
    job = failed_job(club, season, member)
    url = export_url(club, "export-job", job.pk)
    key = retry_key(member_client.get(url))
    with django_capture_on_commit_callbacks(execute=True):
        response = member_client.post(url, {"submission": key})
    fresh = ExportJob.objects.exclude(pk=job.pk).get()
    assert response["Location"] == export_url(club, "export-job", fresh.pk)
    assert fresh.params["member"] == member.pk


def test_a_hostile_try_again_changes_nothing(
    treasurer_client, member_client, club, other_club, books, season
):
    job = failed_job(club, season)
    url = export_url(club, "export-job", job.pk)
    for data in ({}, {"submission": ""}, {"submission": "x" * 500}, {"submission": "'; drop"}):
        response = treasurer_client.post(url, data)
        assert response.status_code == 422
        assert 'role="alert"' in response.content.decode()
    assert member_client.post(url, {"submission": "k1"}).status_code == 404  # not hers
    stranger = client_for(make_member(other_club, "Främling", roles=["treasurer"]))
    assert stranger.post(url, {"submission": "k2"}).status_code == 404
    assert (
        stranger.post(
            export_url(other_club, "export-job", job.pk), {"submission": "k3"}
        ).status_code
        == 404
    )
    assert treasurer_client.put(url).status_code == 405
    # A job that has not failed is not made again.
    done = season_statements.build_season_statement(waiting_job(club, season, "en").pk)
    done_url = export_url(club, "export-job", done.pk)
    assert treasurer_client.post(done_url, {"submission": "k4"})["Location"] == done_url
    # Nothing to make again: its season is gone.
    gone = exports.start_season_statement(club, season, None, None, "en", "pdf")
    ExportJob.objects.filter(pk=gone.pk).update(status="failed")
    ExportJob.objects.filter(pk=gone.pk).update(params={**gone.params, "season": 0})
    gone_url = export_url(club, "export-job", gone.pk)
    assert treasurer_client.post(gone_url, {"submission": "k5"}).status_code == 404
    assert ExportJob.objects.count() == 3
    assert status_of(job)[0] == "failed"
