"""Everything a thumb taps is big enough: every link, button and tap label on every page a member
reaches, measured on a phone (390×844).

The pages: logged in as the demo member of the demo club, with a game of every kind in
progress (a cribbage game with its starter cut, so the pad shows its pegging buttons and Undo)
and some money moved, the test follows same-site links from the club home to depth 2 — the
sections of the tab bar, Play's start and help pages, the pads, the ledger, the league, the
calculators, the club list and the login pages. URLs that differ only in a number or a query
value (another member's statement, another page of a list) are one page, measured once; pads
are one per game and status (in progress, finished). Not followed: logging out, the admin, the
language switch, static files and what is not an HTML page (a download, a POST-only URL
answering 405).

The elements, after every ``<details>`` is opened: every visible ``a[href]``, ``button``,
``summary``, ``input`` of type submit, button or reset, ``label`` that wraps its input or names
a check box or radio button, and a check box or radio button without a label.

The rule: each is at least 44×44 CSS px (WCAG 2.5.5, "Target Size (Enhanced)"), unless it is
a link inside running text, which WCAG 2.5.8 exempts as "inline": the size of such a target is
set by the line height of the text around it. Precisely, a link is inline text when
  1. its computed ``display`` is ``inline`` (it flows in a line of text, not in a box of its
     own; a flex or grid item is blockified and never inline), and
  2. its nearest ancestor that is not ``display: inline`` or ``contents`` is a ``p`` or ``li``,
  3. whose text outside links holds a word (two or more letters in a row): "Så räknar appen
     poängen" alone in a paragraph, or links with only "·" or "→" between them, are not prose.
A failure lists the page, the element and its size.
"""

from __future__ import annotations

import re
from collections import defaultdict
from datetime import time
from urllib.parse import urlsplit

import pytest
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import Error as PlaywrightError

from club.demo import DEMO_PASSWORD, DEMO_USERNAME
from club.models import Member
from engine import registry
from scoring import recording
from scoring.models import Game
from tests.browser.conftest import hold_polls, log_in
from tests.demo import demo_club
from week import planning
from week.models import Schedule

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

MIN_PX = 44
DEPTH = 2
_NOT_PAGES = re.compile(r"^/(logout|admin|i18n|static|media)/|^/(sw\.js|manifest\.webmanifest)$")

# Returns [{text, width, height}] for each target on the page smaller than MIN_PX either way
# and not inline text (the module docstring's rule).
_MEASURE = """
minPx => {
  document.querySelectorAll("details").forEach((d) => { d.open = true; });
  const word = /\\p{L}{2,}/u;
  const isInline = (el) => {
    if (el.tagName !== "A" || getComputedStyle(el).display !== "inline") return false;
    let block = el.parentElement;
    while (block && ["inline", "contents"].includes(getComputedStyle(block).display)) {
      block = block.parentElement;
    }
    if (!block || !["P", "LI"].includes(block.tagName)) return false;
    const prose = block.cloneNode(true);
    prose.querySelectorAll("a").forEach((a) => a.remove());
    return word.test(prose.textContent);
  };
  const isTarget = (el) => {
    if (el.tagName === "LABEL") {
      const input = el.control;
      return !!input && (el.contains(input) || ["checkbox", "radio"].includes(input.type));
    }
    if (el.tagName === "INPUT" && ["checkbox", "radio"].includes(el.type)) {
      return el.labels.length === 0;
    }
    return true;
  };
  const selector = "a[href], button, summary, input[type=submit], input[type=button], " +
    "input[type=reset], label, input[type=checkbox], input[type=radio]";
  const small = [];
  for (const el of document.querySelectorAll(selector)) {
    if (!el.checkVisibility({ visibilityProperty: true }) || !isTarget(el)) continue;
    const box = el.getBoundingClientRect();
    if (box.width <= 1 || box.height <= 1) continue;  // not drawn (a screen-reader-only text)
    if (box.width >= minPx - 0.01 && box.height >= minPx - 0.01) continue;
    if (isInline(el)) continue;
    const text = (el.getAttribute("aria-label") || el.innerText || el.value || "")
      .replace(/\\s+/g, " ").trim().slice(0, 40);
    small.push({
      tag: el.tagName.toLowerCase(), text, cls: el.className || "",
      width: Math.round(box.width * 10) / 10, height: Math.round(box.height * 10) / 10,
    });
  }
  return small;
}
"""


def a_club_with_games_and_money():
    """The demo club with its evenings recorded (finished games, money, league results) and one
    game of every kind in progress (seated by name order, the fewest players the game allows),
    a cribbage game with its starter cut."""
    club = demo_club()
    members = list(Member.objects.filter(club=club).order_by("name"))
    for info in registry.all_games():
        game = recording.start_game(club, info.key, members[: info.min_players], None)
        if info.key == "cribbage":
            recording.append_event(
                game, "starter", {"card": "5D"}, expected_seq=0, idempotency_key="cut", by=None
            )
    # The club's week: Thursdays planned ahead, so the start page shows the answer buttons and
    # links to the week's pages (week.views).
    Schedule.objects.create(
        club=club, weekday=3, start_time=time(18, 30), first_date=timezone.localdate(), cap=8
    )
    planning.plan_ahead(club, timezone.localdate())
    # A competition under way (issue 29): the start page's panel links to the list, the list to
    # its page (round 1's tables, a bye, the entrants, the admin's buttons).
    from competitions import running as competitions

    cup = competitions.announce(
        club, None, name="Höstcupen", kind="swiss", game_key="cribbage", rounds=3
    )
    for entrant in members[:5]:
        competitions.enter(cup, None, member=entrant)
    competitions.start(cup, None)
    competitions.announce(club, None, name="Julcupen", kind="round_robin", game_key="kasino")
    # A hand prize and its funded pot (honours, issue 29): the start page links the prizes'
    # pages, and the pot's form has a pot to choose.
    from honours import services as honours
    from ledger.models import AccountKind

    honours.save_prize(
        club, "cribbage:29:hand", amount_ore=10_000, whole_pot=False, pot_name="Handpotten"
    )
    pot = honours.hand_pot(club, honours.pot_key("Handpotten"))
    honours.fund_pot(club, pot, AccountKind.TREASURY, 50_000, None, key="tap-fund")
    return club


def page_key(url: str, pads: dict[str, str]) -> str:
    """One key for URLs that differ only in a number or a query value; for pads, one per game
    and status (``pads``: path → key)."""
    parts = urlsplit(url)
    if parts.path in pads:
        return pads[parts.path]
    query = sorted(q.split("=")[0] for q in parts.query.split("&") if q)
    return re.sub(r"\d+", "N", parts.path) + "?" + "&".join(query)


def first_of_each(pads: dict[str, str]) -> list[str]:
    """A pad's path for each kind of pad."""
    return list({kind: path for path, kind in reversed(pads.items())}.values())


def links_on(page, origin: str) -> list[str]:
    hrefs = page.eval_on_selector_all("a[href]:not([download])", "as => as.map((a) => a.href)")
    found = []
    for href in hrefs:
        parts = urlsplit(href)
        if f"{parts.scheme}://{parts.netloc}" == origin and not _NOT_PAGES.match(parts.path):
            found.append(href.split("#")[0])
    return found


def open_html(page, url: str) -> bool:
    """Open the URL; False if it is no HTML page (a download, or an answer other than 200:
    a POST-only URL answers 405)."""
    try:
        response = page.goto(url)
    except PlaywrightError:
        return False  # a download ("Download is starting")
    return (
        response is not None
        and response.status == 200
        and response.headers.get("content-type", "").startswith("text/html")
    )


def crawl_and_measure(
    page, start: str, origin: str, pads: dict[str, str]
) -> tuple[list[str], dict[tuple, list]]:
    """Breadth first from ``start`` to DEPTH: the pages measured, and the small targets
    grouped by kind (tag, class and size in whole px) as [(page, text), …]."""
    seen = {page_key(start, pads), *pads.values()}
    # Every kind of pad, whichever page of History lists it; measured, not followed.
    queue = [(start, 0), *((origin + path, DEPTH) for path in first_of_each(pads))]
    measured, small_ones = [], defaultdict(list)
    while queue:
        url, depth = queue.pop(0)
        if not open_html(page, url):
            continue
        landed = urlsplit(page.url)  # after any redirect
        path = landed.path + (f"?{landed.query}" if landed.query else "")
        if path in measured:
            continue
        seen.add(page_key(page.url, pads))
        measured.append(path)
        for small in page.evaluate(_MEASURE, MIN_PX):
            kind = (small["tag"], small["cls"], round(small["width"]), round(small["height"]))
            small_ones[kind].append((path, small["text"]))
        # A page wider than the phone scrolls sideways: a thumb misses what is off the edge.
        wide = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        if wide > 1:
            small_ones[("html", "wider than the screen", wide, 0)].append((path, ""))
        if depth == DEPTH:
            continue
        for link in links_on(page, origin):
            if page_key(link, pads) not in seen:
                seen.add(page_key(link, pads))
                queue.append((link, depth + 1))
    return measured, small_ones


def described(small_ones: dict[tuple, list]) -> list[str]:
    """One line per kind of small target: its size, examples of its text, and its pages."""
    lines = []
    for (tag, cls, width, height), found in sorted(small_ones.items(), key=lambda i: -len(i[1])):
        pages = sorted({page for page, _ in found})
        texts = sorted({text for _, text in found})
        lines.append(
            f"<{tag} class={cls!r}> {width}×{height} px, {len(found)}× on {len(pages)} pages: "
            f"{', '.join(repr(t) for t in texts[:4])}{' …' if len(texts) > 4 else ''} "
            f"({', '.join(pages[:3])}{' …' if len(pages) > 3 else ''})"
        )
    return lines


def test_every_tap_target_a_member_reaches_is_thumb_sized(page, live_server, output_dir):
    club = a_club_with_games_and_money()
    hold_polls(page.context)
    log_in(page, live_server, DEMO_USERNAME, DEMO_PASSWORD)
    page.wait_for_url(re.compile(r"/c/"))

    start = f"{live_server.url}/c/{club.slug}/"
    pads = {
        reverse("scoring:game-detail", args=[club.slug, game.pk]): f"{game.game_key}:{game.status}"
        for game in Game.objects.filter(club=club)
    }
    measured, small_ones = crawl_and_measure(page, start, live_server.url, pads)
    report = described(small_ones)
    (output_dir / "small-targets.txt").write_text(
        "\n".join([*report, "", "Pages measured:", *measured]) + "\n"
    )

    kinds_of_pad = {pads[p] for p in measured if p in pads}
    assert kinds_of_pad == set(pads.values()), f"not every pad was reached: {kinds_of_pad}"
    for must in ("/play/", "/games/", "/ledger/", "/league/", "/calc/", "/clubs/", "/account/"):
        assert any(must in p for p in measured), f"no page of {must} was reached: {measured}"
    assert any("/week/" in p for p in measured), f"no page of the week was reached: {measured}"
    assert any("/honours/fund/" in p for p in measured), f"no hand prize page: {measured}"
    assert any(p.endswith("/mail/") for p in measured), f"the mail page was not reached: {measured}"
    # The page a mail's unsubscribe link opens (notices): no page links to it.
    from notices.mail import unsubscribe_token

    reader = Member.objects.filter(club=club).first()
    token = unsubscribe_token(reader, "report")
    assert open_html(page, live_server.url + reverse("notices:unsubscribe", args=[token]))
    assert page.evaluate(_MEASURE, MIN_PX) == [], "the unsubscribe page has small targets"
    assert any("/competitions/" in p for p in measured), f"no competition page: {measured}"
    # A competition's board (issue 29), three links from the start page.
    cup = club.competitions.get(name="Höstcupen")
    assert open_html(
        page, live_server.url + reverse("competitions:board", args=[club.slug, cup.pk])
    )
    assert page.evaluate(_MEASURE, MIN_PX) == [], "the competition's board has small targets"
    assert not report, f"targets under {MIN_PX} px:\n" + "\n".join(report)
