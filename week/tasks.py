"""The week's beat tasks (config/settings.py CELERY_BEAT_SCHEDULE): plan every club's coming
evenings once a day, and queue the day-before reminders every hour. Both safe to run twice:
planning finds the evenings it made, the outbox's rows are unique."""

from celery import shared_task
from django.utils import timezone


@shared_task
def plan_ahead_all() -> int:
    from week import planning

    return planning.plan_all(timezone.localdate())


@shared_task
def send_reminders() -> int:
    from week import mails  # the mail's (notices) code, loaded when the task runs

    return mails.queue_reminders(timezone.now())
