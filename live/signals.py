"""Publishing: "this channel is at this version", sent when the transaction that made it commits.

Called inside the transaction that writes the change. On PostgreSQL ``pg_notify`` is itself
transactional: the database delivers it at commit, in commit order, and drops it on rollback;
every listening process hears it. Elsewhere (SQLite: one process) it is handed to this
process's hub by a commit hook.
"""

from __future__ import annotations

from django.db import connection, transaction

from live import polls, tokens
from live.hub import PG_CHANNEL, hub


def publish(channel: str, version: int | str) -> None:
    payload = f"{channel} {version}"
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_notify(%s, %s)", [PG_CHANNEL, payload])
    else:
        transaction.on_commit(lambda: hub.deliver_threadsafe(channel, str(version)))


def game_changed(game_id: int, seq: int) -> None:
    """A game reached ``seq`` (inside the transaction that took it there)."""
    polls.mark(game_id, seq)
    publish(tokens.game_channel(game_id), seq)


def evening_changed(evening_id: int) -> None:
    """Something on an evening's board changed other than a game's events (a table formed, a
    guest came, the evening closed): its board refreshes. The version is only news."""
    publish(tokens.evening_channel(evening_id), "changed")
