"""Celery tasks of the books: thin wrappers around service functions.

Arguments are ids (JSON only); every task is safe to run twice: dues are keyed per member and
period in the ledger, an export is claimed by one build.

The tasks stand on top of the books' modules, which never import them back: an export job
queues its build by the task's name (``ledger.exports.BUILD_TASK``) in Celery's registry,
where ``LedgerConfig.ready`` puts this module in every process.
"""

from __future__ import annotations

from celery import shared_task

from club.models import Club
from ledger import audit, dues, exports, season_statements


@shared_task
def charge_all_dues_task() -> dict[str, int]:
    """Daily (CELERY_BEAT_SCHEDULE): charge what is due for the current period, every club."""
    return {str(club_id): n for club_id, n in dues.charge_all_dues().items()}


@shared_task
def log_audit_heads_task() -> dict[str, str]:
    """Daily (CELERY_BEAT_SCHEDULE): each club's audit head into the log, outside the database."""
    return {str(club_id): head.digest for club_id, head in audit.log_audit_heads().items()}


@shared_task
def charge_dues_task(club_id: int) -> int:
    return len(dues.charge_dues(Club.objects.get(pk=club_id)).charged)


# Acked when done, and given back to the queue if its worker dies, so a build is not lost
# with a worker; the soft limit marks the job failed, the hard one stops a build that ignores
# it. The sweep below finishes what this cannot (a worker killed outright: ledger.exports).
@shared_task(
    acks_late=True,
    reject_on_worker_lost=True,
    soft_time_limit=exports.SOFT_TIME_LIMIT,
    time_limit=exports.TIME_LIMIT,
)
def build_statement_task(job_id: int) -> str:
    return season_statements.build_season_statement(job_id).status


@shared_task
def sweep_export_jobs_task() -> dict[str, int]:
    """Every minute (CELERY_BEAT_SCHEDULE): jobs never queued, or whose worker is gone."""
    return exports.sweep_jobs()


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
