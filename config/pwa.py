"""The installable app: the web app manifest and the service worker.

Both are served from the site's root (a service worker controls only the paths below its own
URL, and the pads live under ``/c/…``). The worker itself is ``templates/pwa/sw.js``, built on
Workbox, whose runtime comes from the npm registry (``package.json``) and is copied into
``static/vendor/workbox/`` by the set-up; the worker loads it from there, never from a CDN.

What the worker caches (see the template for the routes):
- static files, stale-while-revalidate;
- score pads (``/c/<club>/games/<id>/``), network first: online a pad is always fresh, offline
  the last copy this phone saw is shown, read only (``static/js/pad.js``);
- an offline page for anything else opened without a network.
Nothing posted is cached: taps wait in the pad's outbox (``static/js/pad.js``), not here.
A page seen signed out empties the copies of pads (``static/js/app.js``): a shared phone
keeps no one's games.
"""

from __future__ import annotations

import json

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_safe

# Bump when the worker's routes or the shell change: the new worker drops older caches.
CACHE_VERSION = "1"


@require_safe
@cache_control(max_age=3600, public=True)
def manifest(request: HttpRequest) -> JsonResponse:
    data = {
        "name": "Protokoll",
        "short_name": "Protokoll",
        "description": _("Score card games at the table and keep the club's books."),
        "lang": request.LANGUAGE_CODE,
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "background_color": "#f6f5f0",
        "theme_color": "#14532d",
        "icons": [
            {"src": static("icons/icon-192.png"), "sizes": "192x192", "type": "image/png"},
            {"src": static("icons/icon-512.png"), "sizes": "512x512", "type": "image/png"},
            {
                "src": static("icons/icon-maskable-512.png"),
                "sizes": "512x512",
                "type": "image/png",
                "purpose": "maskable",
            },
            {"src": static("favicon.svg"), "sizes": "any", "type": "image/svg+xml"},
        ],
    }
    response = JsonResponse(data, json_dumps_params={"ensure_ascii": False})
    response["Content-Type"] = "application/manifest+json"
    return response


@require_safe
@cache_control(no_cache=True)
def service_worker(request: HttpRequest) -> HttpResponse:
    static_url = "/" + settings.STATIC_URL.lstrip("/")
    config = {
        "version": CACHE_VERSION,
        "static": static_url,
        "workboxSw": static("vendor/workbox/workbox-sw.js"),
        # workbox-sw asks for its modules by their plain names (WhiteNoise serves those too).
        "workbox": static_url + "vendor/workbox/",
        "shell": _shell(),
        "offline": reverse("offline"),
    }
    return render(
        request,
        "pwa/sw.js",
        {"config": json.dumps(config)},
        content_type="text/javascript; charset=utf-8",
    )


def _shell() -> list[str]:
    """What a pad needs to draw itself offline."""
    return [
        static("css/app.css"),
        static("js/app.js"),
        static("js/pad.js"),
        static("vendor/htmx.min.js"),
        static("favicon.svg"),
    ]


@require_safe
def offline(request: HttpRequest) -> HttpResponse:
    return render(request, "pwa/offline.html")
