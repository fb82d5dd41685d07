"""What a game's pad says about how the game ended: why it was voided, and its result to share.

``{% void_reason game as reason %}`` reads the void's audit record (one query, only for a voided
game); ``{% game_share game seats game_name as share %}`` gives the text and link of a finished
game's Share button (``templates/_share.html``).
"""

from __future__ import annotations

from django import template
from django.urls import reverse
from django.utils.translation import gettext as _

from scoring import history
from scoring.models import Game, GameStatus

register = template.Library()


@register.simple_tag
def void_reason(game: Game) -> str:
    if game.status != GameStatus.VOIDED:
        return ""
    return history.void_reasons(game.club_id, [game]).get(game.pk, "")


@register.simple_tag(takes_context=True)
def game_share(context, game: Game, seats, game_name: str) -> dict:
    """``{"title", "text", "url"}`` for a finished game: "Kille #12: Bo Ek won." and the pad."""
    names = ", ".join(winner.name for winner in history.winners(game, list(seats)))
    title = f"{game_name} #{game.pk}"
    text = _("%(game)s: %(names)s won.") % {"game": title, "names": names} if names else title
    path = reverse("scoring:game-detail", args=[context["club"].slug, game.pk])
    request = context.get("request")
    return {
        "title": title,
        "text": text,
        "url": request.build_absolute_uri(path) if request else path,
    }
