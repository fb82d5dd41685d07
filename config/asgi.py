"""The ASGI application: ``/live/`` (server-sent events, ``live.stream``) ahead of Django, the
shared-cache poll answer (``live.polls``) ahead of Django's handler, and the lifespan (the hub's
LISTEN connection is closed at shutdown)."""

import asyncio
import os
import warnings
from urllib.parse import parse_qsl

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
# WhiteNoise's static files are file iterators; Django's ASGI handler reads them in a thread and
# says so on every one. Nothing is wrong with that for files.
warnings.filterwarnings("ignore", message="StreamingHttpResponse must consume synchronous")
django_application = get_asgi_application()

from live import polls, stream  # noqa: E402 - needs the settings get_asgi_application loaded
from live.hub import hub  # noqa: E402


async def lifespan(receive, send) -> None:
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            await hub.close()
            await send({"type": "lifespan.shutdown.complete"})
            return


async def application(scope, receive, send):
    if scope["type"] == "lifespan":
        return await lifespan(receive, send)
    if scope["type"] == "http":
        path = scope["path"]
        if path.startswith(stream.PREFIX):
            return await stream.app(scope, receive, send)
        if scope["method"] == "GET" and path.endswith("/poll/"):
            query = dict(parse_qsl(scope.get("query_string", b"").decode("latin-1")))
            # In a worker thread: a cache that hangs must not hold every stream on this loop.
            if await asyncio.to_thread(polls.nothing_new, path, query):
                return await polls.answer_asgi(send)
    return await django_application(scope, receive, send)
