"""Sessions read from the cache and written through to the database (Django's ``cached_db``),
that keep working when the cache is down (issue 23 §3): every cache call goes through
``config.cache.guarded``, so a dead Redis costs a database read per request instead of a 500 on
every signed-in page. The database row is the truth, as in ``cached_db``; the cache only saves
the phones' live-sync poll its session query.

Only the synchronous calls are guarded. They are the ones made under uvicorn (ASGI) too: Django
runs the middleware's hooks and every view (all are synchronous) in worker threads, which call
the session's synchronous methods; the asynchronous ones (``aload``…) serve async views only,
and the app has none (``live.stream`` is an ASGI app of its own that reads no session).
"""

from __future__ import annotations

from django.contrib.sessions.backends import cached_db
from django.contrib.sessions.backends.db import SessionStore as DatabaseStore

from config.cache import guarded


class SessionStore(cached_db.SessionStore):
    # cached_db's own cache calls are replaced, not wrapped: the database's are called directly.
    def load(self) -> dict:
        key = self.cache_key
        data = guarded(lambda: self._cache.get(key), None)
        if data is not None:
            return data
        row = self._get_session_from_db()
        if not row:
            return {}
        data = self.decode(row.session_data)
        age = self.get_expiry_age(expiry=row.expire_date)
        guarded(lambda: self._cache.set(key, data, age), None, stale_key=key)
        return data

    def exists(self, session_key: str | None) -> bool:
        if not session_key:
            return False
        key = self.cache_key_prefix + session_key
        return guarded(lambda: key in self._cache, False) or DatabaseStore.exists(self, session_key)

    def save(self, must_create: bool = False) -> None:
        DatabaseStore.save(self, must_create)
        key, data, age = self.cache_key, self._session, self.get_expiry_age()
        guarded(lambda: self._cache.set(key, data, age), None, stale_key=key)

    def delete(self, session_key: str | None = None) -> None:
        DatabaseStore.delete(self, session_key)
        if session_key is None:
            if self.session_key is None:
                return
            session_key = self.session_key
        key = self.cache_key_prefix + session_key
        guarded(lambda: self._cache.delete(key), None, stale_key=key)
