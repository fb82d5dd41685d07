"""One language at a time (issue 15): every page a member of the demo club reaches, and every
game's pad, is rendered in Swedish and in English; the text a reader sees must not give the
other language away.

How it cannot be fooled: it reads the visible text only (not attributes, scripts or styles; a
part marked with its own ``lang``, such as the EN/SV switch, is that language's), from pages
found by following the links a member sees from the club's home (two levels), plus every pad
of the demo's games; and it fails on
- a giveaway word of the other language (short lists of everyday words that no game term
  shares: "och", "inte" … on English pages; "the", "with" … on Swedish ones);
- a ``snake_case`` identifier (an option or event name that was never given words);
- a placeholder that was never filled in (``%(name)s``, ``{name}``);
- a page whose own title is empty (a name that no longer reaches the page).
Each failure names the page, the language and the words around it.
"""

from __future__ import annotations

import re
from datetime import time
from html.parser import HTMLParser
from urllib.parse import urlsplit

import pytest
from django.test import Client
from django.utils import timezone

import evenings
from club.demo import DEMO_USERNAME
from club.models import Member, User
from engine import registry
from evenings import drives
from scoring import recording
from scoring.models import Game
from tests.demo import demo_club

ENGLISH_GIVEAWAYS = [
    "the", "and", "with", "players", "player", "game", "games", "deal", "deals", "record",
    "undo", "select", "option", "submission", "points", "tricks", "wins", "pays", "takes",
    "left", "who", "what", "how", "your", "this", "that", "there", "nobody", "everybody",
    # Game words (docs/game-terms.md): Swedish pages say "kort whist", "utan stick", "pass";
    # "starter" and "skunk" are not here: they are the Swedish cribbage text's own words.
    "short whist", "long whist", "american whist", "trick", "go",
]  # fmt: skip
# "given" (the deal) is not here: it is English too (the league's "skunks given / taken").
SWEDISH_GIVEAWAYS = [
    "och", "inte", "med", "spelare", "spelet", "giv", "betalar", "vinner", "tar",
    "kvar", "ingen", "alla", "ångra", "spara", "logga", "klubbar", "poäng", "stick", "vem",
    "hur", "din", "ditt", "detta", "eller", "för", "från", "till",
    # Names stored in Swedish when money moved (pots, memos), rendered from their keys.
    "pott", "priser", "medlemsavgift",
    # Game terms (docs/game-terms.md): English pages say the English word, with the Swedish term
    # beside it in parentheses where clubs use it, "eldest hand (förhand)"; never bare.
    "förhand", "bud", "budrunda", "betar", "spelförare",
]  # fmt: skip
# A Swedish game term is intended on an English page beside the English word, in parentheses.
SWEDISH_TERMS = {"förhand", "bud", "budrunda", "betar", "spelförare"}
SNAKE = re.compile(r"\b[a-z]+(?:_[a-z0-9]+)+\b")
PLACEHOLDER = re.compile(r"%\([a-z_]+\)[sd]|\{[a-z_]+\}")
SKIP = (
    "/logout",
    "/i18n/",
    "/admin/",
    "/static/",
    "/export",
    ".csv",
    ".pdf",
    "/sw.js",
    "/manifest",
)


class VisibleText(HTMLParser):
    """The text of a page as a reader sees it, leaving out scripts, styles, the head, and any
    part marked as another language than the page's."""

    HIDDEN = {"script", "style", "head", "template", "noscript"}
    VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "wbr"}

    def __init__(self, language: str):
        super().__init__()
        self.language = language
        self.stack: list[bool] = []  # per open element: hidden?
        self.parts: list[str] = []
        self.links: list[str] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "a" and attrs.get("href"):
            self.links.append(attrs["href"])
        if tag in self.VOID:
            return
        other = attrs.get("lang") and not attrs["lang"].startswith(self.language)
        hidden = tag in self.HIDDEN or bool(other) or (self.stack and self.stack[-1])
        self.stack.append(bool(hidden))

    def handle_endtag(self, tag):
        if tag not in self.VOID and self.stack:
            self.stack.pop()

    def handle_data(self, data):
        if not (self.stack and self.stack[-1]):
            self.parts.append(data)

    def text(self) -> str:
        return re.sub(r"\s+", " ", " ".join(self.parts))


def _read(client: Client, url: str, language: str) -> VisibleText | None:
    response = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
    if response.status_code != 200 or "text/html" not in response.get("Content-Type", ""):
        return None
    page = VisibleText(language)
    html = response.content.decode()
    page.feed(html)
    title = re.search(r"<title>(.*?)</title>", html, re.S)
    page.untitled = bool(title) and title.group(1).strip().startswith("·")
    return page


def _problems(text: str, language: str) -> list[str]:
    giveaways = SWEDISH_GIVEAWAYS if language == "en" else ENGLISH_GIVEAWAYS
    found = []
    for word in giveaways:
        for match in re.finditer(rf"(?<![\w-]){re.escape(word)}(?![\w-])", text, re.IGNORECASE):
            if _beside_its_english(text, match, language):
                continue
            found.append(f"{word!r} in …{text[max(0, match.start() - 40) : match.end() + 40]}…")
            break
    for pattern in (SNAKE, PLACEHOLDER):
        for match in pattern.finditer(text):
            found.append(
                f"{match.group()!r} in …{text[max(0, match.start() - 40) : match.end() + 40]}…"
            )
    return found


def _beside_its_english(text: str, match: re.Match, language: str) -> bool:
    """A Swedish game term in parentheses on an English page, "eldest hand (förhand)": intended
    (docs/game-terms.md)."""
    return (
        language == "en"
        and match.group().lower() in SWEDISH_TERMS
        and text[match.start() - 1 : match.start()] == "("
        and text[match.end() : match.end() + 1] == ")"
    )


def _club_evening(club, user):
    """Tonight at the demo club: everyone here, a Kille table and a whist drive under way, so
    the evening's pages (two links from the evening list) have all their parts."""
    evening = evenings.open_evening(club, user, title="Torsdag")
    here = [evenings.check_in(evening, user, member=m) for m in Member.objects.filter(club=club)]
    evenings.form_tables(evening, "kille", [here[:4]], user)
    drive = drives.start_drive(evening, here[:8], user)
    drives.report(drive, 1, 1, 30, 22, None, user)
    return evening


def _club_week(club, user) -> list[str]:
    """The club's week at the demo club: Thursdays planned, a reply with a +1 and a wait-list;
    the week's pages (the start page's panel links to them too)."""
    from week import planning, replies
    from week.models import Schedule

    today = timezone.localdate()
    Schedule.objects.create(club=club, weekday=3, start_time=time(18, 30), first_date=today, cap=1)
    first = planning.plan_ahead(club, today)[0]
    members = list(Member.objects.filter(club=club).order_by("pk"))
    replies.answer(first, members[0], "coming", "Greta")
    replies.answer(first, members[1], "coming")
    replies.answer(first, members[2], "maybe")
    base = f"/c/{club.slug}/week/"
    return [base, base + "schedule/", f"{base}evenings/{first.pk}/"]


def _club_competitions(club, user) -> list[str]:
    """The competitions at the demo club (issue 29): a cribbage Swiss finished with its prizes,
    one running (round 1's tables, a bye), a championship after a round and one announced;
    their pages and boards (the start page's panel links to the list)."""
    from competitions import results, running, tables

    members = list(Member.objects.filter(club=club).order_by("pk"))

    def played(competition, entrants):
        for entrant in entrants:
            running.enter(competition, user, member=entrant)
        running.start(competition, user)
        for row in tables.round_view(running.current_round(competition)):
            if not row.is_bye:
                rows = [
                    results.Row(entrant, 121 - 10 * place, place + 1)
                    for place, (entrant, _result) in enumerate(row.seats)
                ]
                results.record(row.table, f"game:lang-{row.table.pk}", rows)
        return competition

    done = running.announce(
        club, user, name="Vårcupen", kind="swiss", game_key="cribbage", rounds=1,
        entry_fee_ore=5000, prize_percents=[60, 40],
    )  # fmt: skip
    running.finish(played(done, members[:4]), user)
    under_way = running.announce(
        club, user, name="Höstcupen", kind="swiss", game_key="cribbage", rounds=3
    )
    for entrant in members[:5]:
        running.enter(under_way, user, member=entrant)
    running.start(under_way, user)
    championship = running.announce(
        club, user, name="Mästerskapet", kind="championship", game_key="stopp", rounds=2,
        table_size=4, final_table_size=3,
    )  # fmt: skip
    played(championship, members[:8])
    running.announce(club, user, name="Julcupen", kind="round_robin", game_key="kasino")
    base = f"/c/{club.slug}/competitions/"
    pages = [base]
    for competition in (done, under_way, championship):
        pages += [f"{base}{competition.pk}/", f"{base}{competition.pk}/board/"]
    return [*pages, f"{base}{under_way.pk}/board/?tv=1"]


def _club_honours(club) -> list[str]:
    """The hand prizes at the demo club (issue 29): a 29 hand paid from a funded pot, so the
    season's honours list it; the prizes' pages (the start page's panel links to them)."""
    from engine import cribbage
    from honours import services as honours
    from ledger.models import AccountKind

    honours.save_prize(
        club, "cribbage:29:hand", amount_ore=10_000, whole_pot=False, pot_name="Handpotten"
    )
    pot = honours.hand_pot(club, honours.pot_key("Handpotten"))
    honours.fund_pot(club, pot, AccountKind.TREASURY, 50_000, None, key="lang-fund")
    game = recording.start_game(club, "cribbage", list(Member.objects.filter(club=club))[:2], None)
    recording.append_event(
        game, "starter", {"card": "5S"}, expected_seq=0, idempotency_key="c", by=None
    )
    game.refresh_from_db()
    player = cribbage.show_order(recording.current_state(game)[0])[0]
    recording.append_event(
        game,
        "show",
        {"player": player, "cards": ["5C", "5D", "5H", "JS"]},
        expected_seq=1,
        idempotency_key="s",
        by=None,
    )
    base = f"/c/{club.slug}/honours/"
    return [base, base + "prizes/", base + "prizes/cribbage:29:hand/", base + "fund/"]


def _demo_pages(client: Client) -> list[str]:
    """The pages of the demo club a member reaches: two levels of links from the club's home,
    and the pad of every game (the demo's finished ones and an open one of each kind)."""
    club = demo_club()
    user = User.objects.get(username=DEMO_USERNAME)
    _league_format(club)  # issue 29: the league's pages under a format
    evening = _club_evening(club, user)
    week_pages = _club_week(club, user)
    client.force_login(user)
    home = f"/c/{club.slug}/"
    pages = {home}
    frontier = [home]
    for _level in range(2):
        found = []
        for url in frontier:
            page = _read(client, url, "sv")
            for link in page.links if page else []:
                parts = urlsplit(link)
                if parts.netloc or not parts.path.startswith("/"):
                    continue
                if any(skip in parts.path for skip in SKIP):
                    continue
                path = parts.path + (f"?{parts.query}" if parts.query else "")
                if path not in pages:
                    pages.add(path)
                    found.append(path)
        frontier = found
    members = list(Member.objects.filter(club=club).order_by("pk"))
    for info in registry.all_games():  # an open game of each kind: the pads' entry forms
        recording.start_game(club, info.key, members[: info.min_players], user)
    for game in Game.objects.filter(club=club).order_by("game_key", "pk"):
        pages.add(f"/c/{club.slug}/games/{game.pk}/")
    tonight = f"/c/{club.slug}/evenings/{evening.pk}/"
    for part in ("", "board/", "board/?tv=1", "drive/", "summary/", "../options/"):
        pages.add(
            tonight + part if not part.startswith("..") else f"/c/{club.slug}/evenings/options/"
        )
    pages.update(week_pages)
    pages.update(_club_honours(club))  # issue 29: the hand prizes' pages
    pages.update(_club_competitions(club, user))  # issue 29: the competition pages
    # The club's mail (notices): an unsubscribe link as a mail carries it (the mail page itself
    # is linked from the start page).
    from notices.mail import unsubscribe_token

    pages.add(f"/mail/unsubscribe/{unsubscribe_token(members[0], 'report')}/")
    return sorted(pages)


@pytest.mark.parametrize("language", ["sv", "en"])
def test_every_page_speaks_one_language(db, client, language):
    pages = _demo_pages(client)
    assert len(pages) > 30, pages
    failures = []
    for url in pages:
        page = _read(client, url, language)
        if page is None:
            continue
        failures += [
            f"{url} [{language}]: {problem}" for problem in _problems(page.text(), language)
        ]
        if page.untitled:  # a name that no longer reaches the page (a title " · Club")
            failures.append(f"{url} [{language}]: the page's own title is empty")
    assert not failures, f"{len(failures)} leaks:\n" + "\n".join(failures[:120])


def _league_format(club) -> None:
    """Issue 29: the demo club counts its league under a format (the best 2 evenings, a point
    per evening, a points table, at least 3 evenings to be ranked), so the league page and the
    players' pages say which format applies and show counted, dropped and unranked lines."""
    from league import incremental
    from league.models import LeagueFormat

    LeagueFormat.objects.create(
        club=club,
        best=2,
        participation=1,
        points_table="2: 2\n3: 3 1\n4: 4 2 1\n5: 5 3 2 1\n6: 6 4 3 2 1",
        minimum=3,
    )
    incremental.recompute_club(club)
