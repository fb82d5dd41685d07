"""Celery tasks of the books: thin wrappers around service functions.

Arguments are ids (JSON only); every task is safe to run twice: dues are keyed per member and
period in the ledger, an export rebuilds its document.
"""

from __future__ import annotations

from celery import shared_task

from club.models import Club
from ledger import dues, exports, services


@shared_task
def charge_all_dues_task() -> dict[str, int]:
    """Daily (CELERY_BEAT_SCHEDULE): charge what is due for the current period, every club."""
    return {str(club_id): n for club_id, n in dues.charge_all_dues().items()}


@shared_task
def log_audit_heads_task() -> dict[str, str]:
    """Daily (CELERY_BEAT_SCHEDULE): each club's audit head into the log, outside the database."""
    return {str(club_id): head.digest for club_id, head in services.log_audit_heads().items()}


@shared_task
def charge_dues_task(club_id: int) -> int:
    return len(dues.charge_dues(Club.objects.get(pk=club_id)).charged)


@shared_task
def build_statement_task(job_id: int) -> str:
    return exports.build_season_statement(job_id).status


@shared_task
def backup_task() -> dict[str, object]:
    """Nightly (CELERY_BEAT_SCHEDULE) when BACKUP_DIR is set: a backup of the whole database,
    the newest BACKUP_KEEP kept (ledger.backups). Twice is harmless: a second file, pruned."""
    from ledger import backups

    if not backups.setting_dir():
        return {"skipped": "BACKUP_DIR is not set"}
    made = backups.backup()
    backups.log.info("backup %s: %d bytes in %.1f s", made.path, made.size, made.seconds)
    return {"path": str(made.path), "bytes": made.size, "removed": len(made.removed)}
