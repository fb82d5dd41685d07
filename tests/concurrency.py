"""Races for the concurrency tests: real threads, each with its own database connection,
released together at a barrier. PostgreSQL only: SQLite's shared in-memory test database
serialises writers and refuses concurrent readers, so it proves nothing about row locks."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable

import pytest
from django.db import connection


def postgres_only() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("row locks under real concurrency are a PostgreSQL test")


def at_once[T, R](work: Callable[[T], R], arguments: Iterable[T]) -> list[R]:
    """``work(argument)`` for each argument in a thread of its own, all started together; the
    results in the order they finished. The first error a thread raised is raised here."""
    arguments = list(arguments)
    start = threading.Barrier(len(arguments))
    results: list[R] = []
    errors: list[BaseException] = []

    def run(argument: T) -> None:
        try:
            start.wait(timeout=30)
            results.append(work(argument))
        except BaseException as error:  # noqa: BLE001 - raised in the test's thread below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(argument,)) for argument in arguments]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if errors:
        raise errors[0]
    return results
