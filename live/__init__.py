"""Live: every phone at a table learns of a new event as it is recorded (issue 27).

The shape
---------
A change is a *signal*, never content: ``g:<game id> <seq>`` ("game 12 is at seq 57") or
``e:<evening id> <version>``. A phone that hears one fetches the pad (or the board) through the
ordinary, permission-checked GET it already polls. So the stream needs no session, no database
and no thread per connection, and a phone that misses a signal loses nothing: it polls.

1. **Publishing** (``live.signals``). ``scoring.recording.turns._store`` calls
   ``game_changed(game)`` inside the event's transaction. On PostgreSQL that is a
   ``pg_notify`` — delivered by the database *at commit*, in commit order, never for a
   rolled-back event — so every process of every host hears it. On SQLite (the embedded,
   one-process mode) the signal is handed to this process's hub after commit.
2. **Fan-out** (``live.hub``). One hub per process, on the ASGI server's event loop: one
   ``LISTEN`` connection to PostgreSQL (opened on the first subscriber, reopened with back-off
   when it drops: every subscriber is then told to *resync*, i.e. poll once), and a set of
   bounded queues per channel. A phone too slow to read its queue is told to resync instead of
   the queue growing.
3. **The stream** (``live.stream``): a plain ASGI app under ``/live/`` (config/asgi.py routes
   it there, ahead of Django): server-sent events, one long-lived response per phone. The URL
   carries a signed token (``live.tokens``) naming the channels the page was allowed to follow
   when it was rendered, for whom, and until when; no cookie is read. A comment every 20 s keeps
   proxies from closing an idle stream; ``retry:`` tells the browser when to reconnect.
4. **The poll, nearly free** (``live.polls``). The pad still polls: as the fallback for a phone
   whose stream does not connect (a buffering proxy, an old browser, WSGI-only hosting) and,
   rarely, as a safety net beside a stream. A poll carries the seq the phone has and a token the
   pad was rendered with (an HMAC of game and seq: only a phone that was shown the pad at that
   seq can make it). When the shared cache says that seq is still the game's newest, the answer
   is 204 before sessions or the database are touched. The cache only ever says "current" for a
   seq whose event committed, and an event marks the seq before it "stale" before it commits: a
   stale or missing mark falls through to the ordinary poll view, which asks the database.
5. **The page** (static/js/live.js): opens an ``EventSource`` for the URL the page names; on a
   signal newer than the page it triggers the page's own refresh (htmx); while the stream is
   open the 2 s poll is skipped (one in 30 s still goes); on open, one poll catches up what
   happened while it was away.

Embedded mode (``make run``) serves the app with uvicorn, one process: push works there with the
in-process hub. Under a WSGI server ``/live/`` is not served, the page's stream fails to open and
the pad polls every 2 s as before.
"""
