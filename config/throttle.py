"""Limits on what a stranger can make the app do (issue 23 §7).

Login guesses (django-axes): ``AXES_LOCKOUT_PARAMETERS`` lists the username-and-address group
first and the address alone second. Axes holds every group to one limit; ``AxesHandler`` holds
the address alone to ``LOGIN_IP_FAILURE_LIMIT`` instead, so guesses spread over many usernames
from one address are stopped too, and a member's good login resets only her own count (Axes
would reset the whole address: a guesser with an account of his own could wipe his count).

Reset mails: ``reset_mail_allowed`` counts requests per address and per client in the cache,
per clock hour. When the cache is down the counts are kept in this process's memory instead
(``config.cache``): each worker then allows the hourly number, never an unlimited one.
"""

from __future__ import annotations

import hashlib
import time

from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_failure_limit
from django.conf import settings
from django.core.cache import cache as default_cache
from django.core.cache.backends.locmem import LocMemCache
from django.db.models import Sum

from config.cache import guarded

_local = LocMemCache("protokoll-throttle-fallback", {"OPTIONS": {"MAX_ENTRIES": 10_000}})
HOUR = 3600


class AxesHandler(AxesDatabaseHandler):
    def get_failures(self, request, credentials=None) -> int:
        member, *address = (
            attempts.aggregate(total=Sum("failures_since_start"))["total"] or 0
            for attempts in self.get_user_attempts(request, credentials)
        )
        if address and address[0] >= settings.LOGIN_IP_FAILURE_LIMIT:
            return max(member, get_failure_limit(request, credentials))
        return member

    def reset_user_attempts(self, request, credentials=None) -> int:
        member_attempts = self.filter_user_attempts(request, credentials)[0]
        count, _ = member_attempts.delete()
        return count


def _bump(key: str) -> int:
    def on(cache) -> int:
        cache.add(key, 0, HOUR)
        return cache.incr(key)

    count = guarded(lambda: on(default_cache), None)
    return on(_local) if count is None else count


def _key(kind: str, value: str) -> str:
    digest = hashlib.sha256(value.encode()).hexdigest()[:32]
    return f"protokoll.reset.{kind}.{int(time.time()) // HOUR}.{digest}"


def reset_mail_allowed(email: str, client: str | None) -> bool:
    """Count one reset request for ``email`` from ``client``: may it be mailed?"""
    by_address = _bump(_key("address", email.strip().lower()))
    by_client = _bump(_key("client", client or "unknown"))
    return (
        by_address <= settings.PASSWORD_RESET_MAILS_PER_ADDRESS
        and by_client <= settings.PASSWORD_RESET_MAILS_PER_CLIENT
    )
