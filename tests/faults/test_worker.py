"""Export jobs when things break (issue 23, item 2): a statement asked for with the broker away
is built when it is back (the beat's sweep queues it), and a job whose worker is killed in the
middle of the build is built again or failed by the sweep, never left running."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from datetime import date, timedelta
from pathlib import Path

import pytest
import time_machine
from django.db import connection
from django.urls import reverse
from django.utils import timezone

from club.models import Season
from ledger import exports
from ledger.models import ExportJob
from ledger.tasks import sweep_export_jobs_task
from tests.concurrency import postgres_only
from tests.factories import ledger_url_name, make_member
from tests.faults.conftest import closed_port, redis_answers

ROOT = Path(__file__).resolve().parent.parent.parent


@pytest.fixture
def season(club):
    return Season.objects.create(
        club=club, name="Vår 2026", start=date(2026, 1, 1), end=date(2026, 6, 30)
    )


def later(delta: timedelta):
    return time_machine.travel(timezone.now() + delta, tick=False)


def test_a_statement_asked_for_with_the_broker_away_is_built_when_it_is_back(
    treasurer_client, club, season, broker, django_capture_on_commit_callbacks, caplog
):
    make_member(club, "Anna Ek", login=False)
    broker(f"redis://127.0.0.1:{closed_port()}/0")
    started = time.perf_counter()
    with django_capture_on_commit_callbacks(execute=True):
        response = treasurer_client.post(
            reverse(ledger_url_name("export-statement"), args=[club.slug]), {"season": season.pk}
        )
    answered_ms = (time.perf_counter() - started) * 1000
    print(f"the statement was asked for in {answered_ms:.0f} ms with the broker away")
    job = ExportJob.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse(ledger_url_name("export-job"), args=[club.slug, job.pk])
    assert job.status == ExportJob.Status.PENDING
    assert "could not queue ledger.tasks.build_statement_task" in caplog.text
    assert treasurer_client.get(response["Location"]).status_code == 200

    broker(None)  # back (tasks run in-process: a worker's stand-in); the beat's sweep runs
    with (
        later(exports.PENDING_GRACE + timedelta(seconds=1)),
        django_capture_on_commit_callbacks(execute=True),
    ):
        assert sweep_export_jobs_task.delay().get() == {"queued": 1, "retried": 0, "failed": 0}
    job.refresh_from_db()
    assert (job.status, job.done, job.total, job.attempts) == ("done", 2, 2, 1)


def database_url() -> str:
    """The test database, for a worker in another process (it sees what the test commits)."""
    s = connection.settings_dict
    password = f":{s['PASSWORD']}" if s.get("PASSWORD") else ""
    return (
        f"postgresql://{s['USER']}{password}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}"
        f"/{s['NAME']}"
    )


def start_worker(broker_url: str) -> subprocess.Popen:
    env = {**os.environ, "CELERY_BROKER_URL": broker_url, "DATABASE_URL": database_url()}
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "config",
            "worker",
            "--pool=solo",
            "--concurrency=1",
            "--loglevel=WARNING",
            "--without-heartbeat",
            "--without-gossip",
            "--without-mingle",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


def wait_for(condition, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return False


@pytest.mark.broker
@pytest.mark.postgres
@pytest.mark.slow
def test_a_worker_killed_in_the_middle_of_a_statement_does_not_leave_it_running(
    transactional_db, club, season, broker
):
    postgres_only()
    if not redis_answers():
        pytest.skip("no Redis answers on 127.0.0.1:6379; the worker test needs a real broker")
    import redis  # noqa: PLC0415 - only with a real broker

    for n in range(60):  # a PDF of 60 pages: seconds of work, time to kill it
        make_member(club, f"Medlem {n:02}", login=False)
    db = 15 - (os.getpid() % 8)  # as tests/test_celery.py: parallel runs use other databases
    broker_url = f"redis://127.0.0.1:6379/{db}"
    redis.Redis.from_url(broker_url).flushdb()
    broker(broker_url)
    worker = start_worker(broker_url)
    try:
        # Committed (transactional_db): queued at once, and the worker reads the test's rows.
        job, new = exports.request_season_statement(club, season, None, None, "sv", "pdf")
        assert new
        running = wait_for(
            lambda: ExportJob.objects.filter(pk=job.pk, status="running", done__gt=0).exists(), 90
        )
        assert running, worker.stdout.read() if worker.poll() is not None else "not taken"
        worker.send_signal(signal.SIGKILL)  # as the OOM killer or a lost machine would
        worker.wait(timeout=20)
    finally:
        if worker.poll() is None:
            worker.kill()
            worker.wait(timeout=20)
    job.refresh_from_db()
    print(f"killed at {job.done} of {job.total} members")
    assert (job.status, job.attempts) == ("running", 1)  # and nothing will move it but the sweep
    redis.Redis.from_url(broker_url).flushdb()  # the unacked message is the sweep's now

    broker(None)  # the next worker: in-process
    with later(exports.STALE_AFTER - timedelta(seconds=5)):
        assert exports.sweep_jobs()["retried"] == 0  # not yet: a live build may be that slow
    with later(exports.STALE_AFTER + timedelta(seconds=1)):
        assert sweep_export_jobs_task.delay().get() == {"queued": 0, "retried": 1, "failed": 0}
    job.refresh_from_db()
    assert (job.status, job.attempts, job.done, job.total) == ("done", 2, 60, 60)
    assert exports.job_pdf(job).startswith(b"%PDF")
