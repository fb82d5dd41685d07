"""Every game in the registry has one pad hook (``scoring.games.Pad``) whose template, styles
and calculator exist: a game is described in its engine module and its hook, nowhere else."""

from __future__ import annotations

from importlib import import_module

import pytest
from django.contrib.staticfiles import finders
from django.template.loader import get_template

from engine import registry
from scoring import games

GAMES = registry.game_keys()


@pytest.mark.parametrize("key", GAMES)
def test_every_game_has_a_pad_hook_whose_parts_exist(key):
    pad = games.pad_for(key)
    assert pad in games.pads(), f"{key} has no registered pad hook"
    assert pad.template != games.GENERIC_TEMPLATE
    get_template(pad.template)
    assert pad.css is None or finders.find(pad.css), pad.css
    assert pad.context is not None
    if pad.calculator:
        calculator = import_module(pad.calculator)
        assert calculator.urlpatterns
        assert calculator.LINKS


def test_every_pad_hook_belongs_to_a_game():
    assert {pad.key for pad in games.pads()} <= set(GAMES)


def test_a_game_without_a_hook_gets_the_generic_pad():
    pad = games.pad_for("no-such-game")
    assert pad.template == games.GENERIC_TEMPLATE
    assert games.pad_context(type("G", (), {"game_key": "no-such-game"})(), None, []) == {}


def test_a_game_from_elsewhere_joins_and_leaves_through_the_public_hooks(toy):
    assert "toy" in registry.game_keys()
    assert games.pad_for("toy").template == games.GENERIC_TEMPLATE
    with pytest.raises(TypeError, match="not a game module"):
        registry.register(type(toy.module)("other"))
    impostor = type(toy.module)("impostor")
    impostor.__dict__.update({**vars(toy.module), "__name__": "impostor", "KEY": "kille"})
    with pytest.raises(ValueError, match="taken"):
        registry.register(impostor)
    with pytest.raises(ValueError, match="built-in"):
        registry.unregister("kille")


def test_the_event_form_tag_writes_what_the_outbox_sends(rf, club, scorer):
    from django.template import Context, Template  # noqa: PLC0415

    from scoring import recording  # noqa: PLC0415
    from tests.factories import make_table  # noqa: PLC0415

    game = recording.start_game(club, "president", make_table(club, scorer, 3), scorer.user)
    html = Template(
        '{% load scoring_extras %}{% event_form type="out" class="card" testid="t" %}'
        "<button>Go</button>{% endevent_form %}"
        '{% event_form key="b" %}<i>x</i>{% endevent_form %}'
    ).render(Context({"game": game, "event_key": "k1", "csrf_token": "tok"}))
    first, second = html.split("</form>")[:2]
    action = f'action="/c/{club.slug}/games/{game.pk}/events/"'
    assert f'<form method="post" {action} class="card" data-testid="t">' in first
    assert 'name="type" value="out"' in first
    assert 'name="idempotency_key" value="k1-out"' in first
    assert f'name="expected_seq" value="{game.seq}"' in first
    assert "<button>Go</button>" in first
    assert 'name="type"' not in second  # the buttons name the type
    assert 'name="idempotency_key" value="k1-b"' in second
    assert "<i>x</i>" in second
