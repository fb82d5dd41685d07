"""The start page's panels that belong to other apps (your balance and the pots from the books,
the latest winners from the league), without ``club`` importing those apps.

An app registers its panel once, in its ``AppConfig.ready``: ``register(order, template,
context)``, where ``context(request)`` gives the template's variables (``request.club`` and
``request.member`` are set by ``club_view``). The start page renders them in ``order``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.http import HttpRequest
from django.template.loader import render_to_string
from django.utils.safestring import SafeString


@dataclass(frozen=True)
class Panel:
    order: int
    template: str
    context: Callable[[HttpRequest], dict]


_PANELS: dict[str, Panel] = {}


def register(order: int, template: str, context: Callable[[HttpRequest], dict]) -> None:
    """Add (or, by its template, replace) a panel: registering twice is harmless."""
    _PANELS[template] = Panel(order, template, context)


def render_panels(request: HttpRequest) -> list[SafeString]:
    panels = sorted(_PANELS.values(), key=lambda panel: panel.order)
    return [render_to_string(p.template, p.context(request), request) for p in panels]
