"""The answers for requests that fail: 400, 403, 404 and 500, translated and in the app's style.

Django calls these (``handler400`` … in ``config/urls.py``) with DEBUG off. The 4xx pages extend
``base.html``; an htmx request gets only the page's ``message`` partial, since htmx swaps error
answers into the spot the request aimed at (a pad, a table), where a whole page does not belong.

The 500 page is rendered without the request: whatever broke it (a dropped database connection,
a context processor that raised) must not break the error page too. ``500.html`` is therefore
self-contained: the stylesheet, the active language, and a link home.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, HttpResponseServerError
from django.shortcuts import render
from django.template import loader
from django.views.decorators.csrf import requires_csrf_token


def _is_htmx(request: HttpRequest) -> bool:
    # Read from the header: an early failure may come before django-htmx has looked.
    return request.headers.get("HX-Request") == "true"


def _page(request: HttpRequest, status: int, context: dict | None = None) -> HttpResponse:
    template = f"{status}.html" + ("#message" if _is_htmx(request) else "")
    return render(request, template, context or {}, status=status)


@requires_csrf_token
def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    return _page(request, 400)


@requires_csrf_token
def permission_denied(request: HttpRequest, exception: Exception) -> HttpResponse:
    # Our refusals say why in the user's language ("Your role at this club does not allow
    # this."); Django's own carry no message, and the page says it in general.
    message = exception.args[0] if exception.args and isinstance(exception.args[0], str) else ""
    return _page(request, 403, {"exception": message})


@requires_csrf_token
def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    return _page(request, 404)


# The last resort, should even 500.html fail (its stylesheet missing from the static manifest).
PLAIN_500 = "<!doctype html><title>500</title><h1>Server error (500)</h1>"


@requires_csrf_token
def server_error(request: HttpRequest) -> HttpResponse:
    template = "500.html" + ("#message" if _is_htmx(request) else "")
    try:
        body = loader.get_template(template).render()
    except Exception:  # noqa: BLE001 - an error page must answer whatever else is broken
        body = PLAIN_500
    return HttpResponseServerError(body)
