"""Template tags for the pages that follow a channel (``live``'s docstring):

{% live_stream_url game=game as url %}             the pad's stream ("" if none)
{% live_stream_url evening=evening games=games %}  the board's: the evening and its games
{% live_channels game=game %}                      the same channels, for the page's script
{% live_poll_proof game %}                         what the pad's polls carry
"""

from __future__ import annotations

from django import template

from live import polls, tokens
from live.stream import PREFIX, offered

register = template.Library()


def channels_of(game=None, evening=None, games=()) -> list[str]:
    channels = [tokens.game_channel(g.pk) for g in (*games, *([game] if game else []))]
    if evening is not None:
        channels.append(tokens.evening_channel(evening.pk))
    return sorted(set(channels))


@register.simple_tag(takes_context=True)
def live_stream_url(context, game=None, evening=None, games=()) -> str:
    """The stream's URL, or "" where this server does not stream (``live.stream.offered``)."""
    request = context.get("request")
    if not offered(request):
        return ""
    user = getattr(request, "user", None)
    user_id = user.pk if user is not None and user.is_authenticated else None
    return f"{PREFIX}?t={tokens.sign(channels_of(game, evening, games), user_id)}"


@register.simple_tag
def live_channels(game=None, evening=None, games=()) -> str:
    return " ".join(channels_of(game, evening, games))


@register.simple_tag
def live_poll_proof(game) -> str:
    return polls.proof(game.pk, game.seq)
