"""Celery: eager without a broker; a real worker against Redis runs a task."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from club.tasks import ping

ROOT = Path(__file__).resolve().parent.parent
REDIS = ("127.0.0.1", 6379)


def redis_answers() -> bool:
    try:
        with socket.create_connection(REDIS, timeout=1) as sock:
            sock.sendall(b"PING\r\n")
            return sock.recv(16).startswith(b"+PONG")
    except OSError:
        return False


def test_tasks_run_eagerly_without_a_broker(settings):
    assert settings.CELERY_TASK_ALWAYS_EAGER
    assert ping.delay(21).get(timeout=1) == {"pong": 42}


@pytest.mark.broker
def test_a_real_worker_on_redis_runs_a_task(tmp_path):
    if not redis_answers():
        pytest.skip("no Redis answers on 127.0.0.1:6379; the queue test needs a real broker")
    db = 15 - (os.getpid() % 8)  # xdist workers and parallel runs use different databases
    broker = f"redis://127.0.0.1:6379/{db}"
    env = {**os.environ, "CELERY_BROKER_URL": broker, "DATABASE_URL": f"sqlite:///{tmp_path}/w.db"}
    worker = subprocess.Popen(
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
    try:
        client = subprocess.run(
            [
                sys.executable,
                "-c",
                "import django, os; "
                "os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'config.settings'); "
                "django.setup(); from club.tasks import ping; "
                "r = ping.delay(20); print(r.get(timeout=60)); print(r.status)",
            ],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=90,
        )
    finally:
        worker.terminate()
        try:
            worker.wait(timeout=20)
        except subprocess.TimeoutExpired:
            worker.kill()
    assert client.returncode == 0, client.stderr + (worker.stdout.read() if worker.stdout else "")
    assert client.stdout.split() == ["{'pong':", "40}", "SUCCESS"]
