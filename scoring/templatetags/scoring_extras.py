from django import template
from django.urls import reverse

register = template.Library()


@register.filter
def get_item(mapping, key):
    """``{{ mapping|get_item:key }}``: a dict lookup by a variable key."""
    return mapping.get(key, "") if hasattr(mapping, "get") else ""


_BOARD_WIDTH, _BOARD_MARGIN, _BOARD_TRACK = 360, 8, 34


@register.inclusion_tag("scoring/pads/_cribbage_board.html")
def cribbage_board(state, seats) -> dict:
    """An SVG cribbage board (``scoring/pads/_cribbage_board.html``): one track per player,
    front and back pegs, the score to go. ``state`` is the cribbage engine's State; this works
    out where each peg and hole goes, the template draws them."""
    target = state.rules.target
    span = _BOARD_WIDTH - 2 * _BOARD_MARGIN

    def x(points: int) -> str:
        return f"{_BOARD_MARGIN + span * points / target:.1f}"

    step = 5 if target > 61 else 1
    tracks = [
        {
            "index": index,
            "y": 14 + index * _BOARD_TRACK,
            "label_y": 14 + index * _BOARD_TRACK + 18,
            "name": seat.name,
            "score": state.scores[seat.key],
            "to_go": target - state.scores[seat.key],
            "front": x(state.scores[seat.key]),
            "back": x(state.back_pegs[seat.key]),
            "dealer": seat.key == state.dealer,
            "holes": [{"x": x(h), "five": h % 5 == 0} for h in range(0, target + 1, step)],
        }
        for index, seat in enumerate(seats)
    ]
    return {
        "width": _BOARD_WIDTH,
        "height": 14 + len(seats) * _BOARD_TRACK,
        "left": _BOARD_MARGIN,
        "right": _BOARD_WIDTH - _BOARD_MARGIN,
        "tracks": tracks,
    }


@register.filter
def pretty_card(code) -> str:
    """``5D`` → ``5♦`` (the stored code of a card as the pad shows it)."""
    from engine.cards import parse_card  # noqa: PLC0415
    from engine.errors import CardError  # noqa: PLC0415

    try:
        return parse_card(str(code)).pretty
    except CardError:
        return str(code)


# --- the pad's event form ----------------------------------------------------------------------


class EventFormNode(template.Node):
    def __init__(self, nodelist, options: dict):
        self.nodelist = nodelist
        self.options = options

    def render(self, context) -> str:
        values = {name: value.resolve(context) for name, value in self.options.items()}
        game = context["game"]
        event_type = values.get("type") or ""
        inner = {
            # A guest's pad posts to its own link (scoring.views_guest).
            "action": context.get("event_url")
            or reverse("scoring:game-event", args=[game.club.slug, game.pk]),
            "event_type": event_type,
            "key": values.get("key") or event_type or "event",
            "class": values.get("class") or "",
            "testid": values.get("testid") or "",
            "body": self.nodelist.render(context),
        }
        form = context.template.engine.get_template("scoring/pads/_event_form.html")
        with context.push(**inner):
            return form.render(context)


@register.tag
def event_form(parser, token):
    """``{% event_form type="deal" class="card step" testid="n99-deal" %} … {% endevent_form %}``:
    the one way a pad writes a form that records an event. It posts to the game's event URL and
    carries the CSRF token, the expected seq, an idempotency key (``key``, default the type; it
    tells apart the forms of one page) and, if given, the event type; the outbox in
    ``static/js/pad.js`` sends it. Options: ``type``, ``key``, ``class``, ``testid``."""
    bits = token.split_contents()[1:]
    options = {}
    for bit in bits:
        name, _, value = bit.partition("=")
        if name not in ("type", "key", "class", "testid") or not value:
            raise template.TemplateSyntaxError(
                f"event_form takes type=, key=, class=, testid=: {bit}"
            )
        options[name] = parser.compile_filter(value)
    nodelist = parser.parse(("endevent_form",))
    parser.delete_first_token()
    return EventFormNode(nodelist, options)


@register.filter
def signed(value) -> str:
    """A whole number as people read it in print: a minus sign (−), not a hyphen (``-60`` →
    ``−60``); anything else as it is."""
    if isinstance(value, int) and not isinstance(value, bool) and value < 0:
        return f"\u2212{-value}"
    return value
