"""Headers every answer gets, and who a request really comes from.

``SecurityHeadersMiddleware``
    - ``Permissions-Policy`` on every response (settings.PERMISSIONS_POLICY): the app uses no
      camera, microphone, location, payment or USB, so it denies them all, to itself and to
      anything it might ever embed.
    - ``Cache-Control: private, no-store`` on every response to a signed-in request (the
      books, the pads, exports and statements are nobody else's business: no shared proxy and
      no browser disk cache keeps them) and on the few pages that carry a secret for a
      signed-out visitor (the invite page, settings.NO_STORE_ROUTES). A view that set its own
      ``Cache-Control`` keeps it: the manifest is public, the service worker revalidates.
      The service worker's own copies of pads (config/pwa.py) live in the Cache API, which
      ``no-store`` does not govern, so a pad still opens offline. Static files keep
      WhiteNoise's own ``Cache-Control``.
    It comes first in settings.MIDDLEWARE, so it sees every answer last: redirects made by
    other middleware, error pages, static files and django-axes' lockout page get them too.

``client_ip(request)``
    The address django-axes counts failed logins against. Behind ``TRUSTED_PROXIES`` reverse
    proxies, each appending the address it saw to ``X-Forwarded-For``, the client is the
    entry that many places from the right; whatever a client wrote further left is its own
    claim and is ignored. With no proxy (the default) it is ``REMOTE_ADDR``: a header anyone
    can send must not let a guesser pick a fresh address for every try.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils.cache import patch_cache_control


def permissions_policy_header(policy: dict[str, list[str]]) -> str:
    """``{"camera": []}`` → ``camera=()``; ``{"fullscreen": ["self"]}`` → ``fullscreen=(self)``."""
    return ", ".join(f"{feature}=({' '.join(allow)})" for feature, allow in policy.items())


class SecurityHeadersMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.permissions_policy = permissions_policy_header(settings.PERMISSIONS_POLICY)
        self.no_store_routes = frozenset(settings.NO_STORE_ROUTES)

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        response.setdefault("Permissions-Policy", self.permissions_policy)
        if not response.has_header("Cache-Control") and self._private(request):
            patch_cache_control(response, private=True, no_store=True)
        return response

    def _private(self, request: HttpRequest) -> bool:
        match = request.resolver_match
        if match is not None and match.view_name in self.no_store_routes:
            return True
        user = getattr(request, "user", None)
        return bool(user is not None and user.is_authenticated)


def client_ip(request: HttpRequest) -> str | None:
    remote = request.META.get("REMOTE_ADDR")
    proxies = settings.TRUSTED_PROXIES
    if proxies <= 0:
        return remote
    hops = [hop.strip() for hop in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
    if len(hops) < proxies:
        return remote
    candidate = hops[-proxies]
    try:
        return str(ipaddress.ip_address(candidate))
    except ValueError:
        # Our own proxy wrote this entry, so it is never junk unless the count is wrong;
        # the proxy's address is then the safe bucket (one counter, not one per lie).
        return remote
