"""A fifteenth game is its own files and nothing else (``docs/adding-a-game.md``).

The first test writes a game that is in no list of ours into a temporary package: its engine
module (with ``GAME``), its pad hook and its pad template, as a club's own game would be. It joins
through the public hooks (``engine.registry.register``, ``scoring.games.register``) and is played
end to end through the views as a scorer's phone plays it: the Play page offers it, the start
page starts it, the pad records its events and refuses a bad one, and the finished game's money
is in the ledger and its result in the league. It leaves again at the end.

The second reads the tracked tree: a built-in game's key appears only in that game's own files
(its engine module, pad hook, calculator, templates and styles) and in tests, docs,
translations, migrations and benchmarks — so that nothing else has to be edited to add one.
"""

from __future__ import annotations

import fnmatch
import importlib
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from django.urls import reverse

from engine import registry
from league.models import GameResult, Standing
from scoring import games
from scoring.models import GameStatus
from tests.scoring.pad import balances, p_fields, pad_url, post_event, start_from_form

pytestmark = pytest.mark.usefixtures("in_english")

KEY = "femtonde"
PACKAGE = "a_clubs_own_games"

ENGINE = '''
"""Femtonde: the first to reach the target (15 points) wins; each other player pays him the
stake."""

from __future__ import annotations

from dataclasses import dataclass, replace

from engine.base import (
    Declaration,
    EventType,
    Player,
    Transfer,
    Whole,
    check_money,
    dispatch,
    event_types,
    need,
    placements,
)
from engine.errors import IllegalEvent, Line, _

KEY = "femtonde"
NAME = _("Femtonde")
MIN_PLAYERS, MAX_PLAYERS = 2, 4


@dataclass(frozen=True)
class Rules:
    target: int = 15
    stake_ore: int = 200

    LABELS = {"target": _("Points to win"), "stake_ore": _("Stake")}

    def __post_init__(self) -> None:
        check_money(self)


@dataclass(frozen=True)
class State:
    players: tuple[str, ...]
    rules: Rules
    scores: dict
    transfers: tuple = ()
    finished: bool = False
    standings: tuple = ()
    expected: tuple = ("points",)
    log: tuple = ()


def new_game(players, rules=Rules()):
    return State(tuple(players), rules, dict.fromkeys(players, 0))


def apply(state, event):
    if state.finished:
        raise IllegalEvent(_("the game is over"))
    return dispatch(state, event, EVENTS, game=NAME)


def _points(state, event):
    player, points = event["player"], event["points"]
    scores = {**state.scores, player: state.scores[player] + points}
    line = Line(_("{player} +{points}"), player=player, points=points)
    if scores[player] < state.rules.target:
        return replace(state, scores=scores, transfers=(), log=(line,))
    stake = state.rules.stake_ore
    paid = tuple(Transfer(p, player, stake) for p in state.players if p != player and stake)
    return replace(
        state,
        scores=scores,
        transfers=paid,
        finished=True,
        expected=(),
        standings=placements(scores),
        log=(line,),
    )


EVENTS = {
    "points": EventType(
        _points,
        _("points"),
        {"player": need(Player(), _("the player")), "points": need(Whole(1, 15), _("the points"))},
    )
}
EVENT_TYPES = event_types(EVENTS)
GAME = Declaration(KEY, NAME, MIN_PLAYERS, MAX_PLAYERS, EVENT_TYPES, position=150)
'''

HOOK = '''
"""Femtonde's pad: each player's points, and one form for a player's points."""

from scoring.evening_status import by_field
from scoring.games import Pad, names_of


def pad_context(game, state, seats):
    names = names_of(seats)
    return {
        "ff_rows": [
            {"key": p, "name": names[p], "score": state.scores[p]} for p in state.players
        ],
        "ff_points": range(1, state.rules.target + 1),
    }


PAD = Pad(
    "femtonde",
    template="scoring/pads/femtonde.html",
    context=pad_context,
    evening_status=by_field("scores"),
)
'''

TEMPLATE = """{% load i18n scoring_extras %}
<section class="card">
  <ul class="tiles">
    {% for row in ff_rows %}
      <li class="tile" data-testid="ff-score-{{ row.key }}">
        <span class="tile-name">{{ row.name }}</span><span class="tile-score">{{ row.score }}</span>
      </li>
    {% endfor %}
  </ul>
</section>
{% if can_record %}
  {% event_form type="points" class="card" testid="ff-points" %}
    {% for row in ff_rows %}
      <label><input type="radio" name="p_player" value="{{ row.key }}"> {{ row.name }}</label>
    {% endfor %}
    {% for n in ff_points %}
      <label><input type="radio" name="p_points" value="{{ n }}"> {{ n }}</label>
    {% endfor %}
    <button type="submit">{% translate "Save" %}</button>
  {% endevent_form %}
{% endif %}
"""


@pytest.fixture
def fifteenth(tmp_path, settings, monkeypatch):
    """Femtonde, written into a temporary package and registered as a game from outside joins:
    its engine module, its pad hook and its pad template, nothing else."""
    package = tmp_path / PACKAGE
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / f"{KEY}.py").write_text(textwrap.dedent(ENGINE))
    (package / f"{KEY}_pad.py").write_text(textwrap.dedent(HOOK))
    pads = tmp_path / "templates" / "scoring" / "pads"
    pads.mkdir(parents=True)
    (pads / f"{KEY}.html").write_text(TEMPLATE)
    monkeypatch.syspath_prepend(str(tmp_path))
    templates = settings.TEMPLATES[0]
    settings.TEMPLATES = [{**templates, "DIRS": [*templates["DIRS"], tmp_path / "templates"]}]

    info = registry.register(importlib.import_module(f"{PACKAGE}.{KEY}"))
    games.register(importlib.import_module(f"{PACKAGE}.{KEY}_pad").PAD)
    yield info
    games.unregister(KEY)
    registry.unregister(KEY)
    for name in [name for name in sys.modules if name.split(".")[0] == PACKAGE]:
        del sys.modules[name]


def test_a_game_from_its_own_files_plays_end_to_end_through_the_views(
    fifteenth, scorer_client, club, players, django_capture_on_commit_callbacks
):
    start_url = reverse("scoring:game-start", args=[club.slug, KEY])
    play = scorer_client.get(reverse("scoring:play", args=[club.slug])).content.decode()
    assert start_url in play
    assert "Femtonde" in play
    start = scorer_client.get(start_url)
    assert start.status_code == 200
    assert "Points to win" in start.content.decode()

    game = start_from_form(scorer_client, club, KEY, players, target="10", stake_ore="3")
    assert game.rules == {"target": 10, "stake_ore": 300}
    page = scorer_client.get(pad_url(game)).content.decode()
    assert 'data-testid="ff-points"' in page
    assert 'data-testid="ff-score-s1"' in page

    post_event(scorer_client, game, "points", p_fields(player="s1", points=6), status=200)
    assert game.snapshot["scores"] == {"s0": 0, "s1": 6, "s2": 0}
    refused = post_event(scorer_client, game, "points", p_fields(player="s9", points=2))
    assert refused.status_code == 422
    assert game.seq == 1
    with django_capture_on_commit_callbacks(execute=True):
        finished = post_event(
            scorer_client, game, "points", p_fields(player="s1", points=4), status=200
        )
    assert game.status == GameStatus.FINISHED
    assert 'data-testid="ff-points"' not in finished.content.decode()

    # The money is in the ledger: each other player paid Bo (s1) the stake.
    assert balances(players) == [-300, 600, -300]
    # The result is in the league, and its table names the game.
    results = GameResult.objects.filter(game_ref=game.ref, game_key=KEY).order_by("seat")
    assert [(r.placement, r.net_ore) for r in results] == [(2, -300), (1, 600), (2, -300)]
    assert Standing.objects.filter(season__club=club, game_key=KEY).count() == 3
    league = reverse("league:standings", args=[club.slug]) + f"?game={KEY}"
    table = scorer_client.get(league).content.decode()
    assert "Femtonde" in table
    assert "Bo Ek" in table


# Where a game's key may appear: its own files, and what documents, tests, translates, migrates
# or measures the games (``docs/adding-a-game.md``).
def _own_or_about(key: str) -> tuple[str, ...]:
    return (
        f"engine/{key}.py",
        f"scoring/games/{key}.py",
        f"scoring/calculators/{key}.py",
        f"templates/*{key}*",
        f"static/*{key}*",
        "tests/*",
        "docs/*",
        "locale/*",
        "*/migrations/*",
        "bench/*",
    )


# Keys no ordinary word or other game's name contains, so a hit is a hit.
DISTINCT_KEYS = (
    "vandatta",
    "fyrtioett",
    "nittionio",
    "femhundra",
    "tvamanswhist",
    "kille_elimination",
    KEY,
)


def _tracked_files() -> list[str]:
    root = Path(__file__).resolve().parents[2]
    listed = subprocess.run(
        ["git", "ls-files", "-z"], cwd=root, capture_output=True, check=True, text=True
    )
    return [name for name in listed.stdout.split("\0") if name]


@pytest.mark.parametrize("key", DISTINCT_KEYS)
def test_a_games_key_appears_only_in_its_own_files(key):
    root = Path(__file__).resolve().parents[2]
    allowed = _own_or_about(key)
    found = []
    for name in _tracked_files():
        if any(fnmatch.fnmatch(name, pattern) for pattern in allowed):
            continue
        path = root / name
        if not path.is_file():
            continue  # deleted in the work tree, not yet committed
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue  # a binary file (an image, a font)
        if key in text:  # the key as code writes it; "Femhundra" in prose names no file
            found.append(name)
    assert found == [], f"{key!r} is named outside its own files: {found}"
