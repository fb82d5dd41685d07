"""The evening report, against an evening worked by hand.

The club: no fee; Kille, base stake 2 kr, small stake 1 kr; the tables keep their pots (carry).
Bo's Swish number is 070-123 45 67; the club's none.

Thursday 12 November 2026: Anna, Cilla, David at table 1 (s0 Anna deals, förhand s1 Cilla).
Table 1's pot is empty, so everyone antes 2 kr (pot 6 kr). Cilla knocks, David and Anna fold:
Cilla takes the 6 kr and everyone pays the small stake, 1 kr (pot 3 kr). Cilla +3 kr, Anna
−3 kr, David −3 kr. Nobody settles up. The league (n−1 points: one per player below you):
Cilla 2 points, Anna and David 0.

Thursday 19 November 2026 (the report's evening): Anna, Bo, Cilla at table 1 (s0 Anna, förhand
s1 Bo); table 1 kept its 3 kr. Bo knocks, Cilla and Anna fold: Bo takes the 3 kr and everyone
pays 1 kr (pot 3 kr again).
- Tonight: Bo +2 kr (1 game, 1 won), Anna −1 kr, Cilla −1 kr (1 game each, none won); ranked by
  result, then wins, then name: Bo, Anna, Cilla. Table 1, Kille: won by Bo.
- The settle-up: Anna pays Bo 1 kr, Cilla pays Bo 1 kr (Swish links to Bo's number).
- Balances: Anna −3 − 1 = −4 kr; Bo +2 kr; Cilla +3 − 1 = +2 kr.
- The league, before tonight → after: Cilla 2 points in 1 game (1st); Anna and David 0 (shared
  2nd); Bo not in it. After: Bo 2 points in 1 game (2.0 a game) is 1st, Cilla 2 points in 2
  games (1.0) 2nd, Anna 0 in 2 and David 0 in 1 share 3rd. Tonight's players: Bo – → 1,
  Cilla 1 → 2, Anna 2 → 3.
- The pots after tonight: table 1's Kille pot, 3 kr.
"""

from __future__ import annotations

from datetime import date

import pytest
from django.core import mail
from django.urls import reverse

import evenings
from notices.models import OwedMail
from scoring import games, recording
from tests.evenings.test_evenings import tap
from tests.notices.conftest import with_address

KR = 100


def play_table(table, knocker_folds):
    club = table.evening.club
    players = [seat.attendee.member for seat in table.seats.order_by("position")]
    game = recording.start_game(
        club,
        "kille",
        players,
        None,
        rules={"base_stake_ore": 2 * KR, "small_stake_ore": 1 * KR},
        setup=games.start_setup(club, "kille", table=table.number),
        table=table,
    )
    if "ante" in recording.current_state(game)[0].expected:
        tap(game, "ante")
    tap(game, "knock", player="s1")
    tap(game, "fold", player="s2")
    tap(game, "fold", player="s0")
    tap(game, "end_evening")
    return game


def an_evening(club, day, people):
    evening = evenings.open_evening(club, None, date=day, games=["kille"])
    here = [evenings.check_in(evening, None, member=p) for p in people]
    (table,) = evenings.form_tables(evening, "kille", [here], None)
    play_table(table, None)
    return evening


@pytest.fixture
def worked(club, django_capture_on_commit_callbacks):
    """The two evenings of the module's docstring; the mail of the second as sent."""
    anna = with_address(club, "Anna Ås", "anna@example.org")
    bo = with_address(club, "Bo Ek", "bo@example.org")
    bo.swish_number = "070-123 45 67"
    bo.save(update_fields=["swish_number"])
    cilla = with_address(club, "Cilla Ros", "cilla@example.org")
    david = with_address(club, "David Dal", "david@example.org")
    with django_capture_on_commit_callbacks(execute=True):
        first = an_evening(club, date(2026, 11, 12), [anna, cilla, david])
    with django_capture_on_commit_callbacks(execute=True):
        evenings.close_evening(first, None)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        second = an_evening(club, date(2026, 11, 19), [anna, bo, cilla])
    with django_capture_on_commit_callbacks(execute=True):
        evenings.close_evening(second, None)
    return {"evening": second, "anna": anna, "bo": bo, "cilla": cilla, "david": david}


def sent_to(address):
    (message,) = [m for m in mail.outbox if m.to == [address]]
    return message


def html_of(message):
    ((content, kind),) = message.alternatives
    assert kind == "text/html"
    return content


SWISH_1_KR = "https://app.swish.nu/1/p/sw/?sw=46701234567&amt=1.00&cur=SEK"


def test_each_attendee_with_an_address_is_owed_one_report_written_in_the_closing(worked):
    evening = worked["evening"]
    rows = OwedMail.objects.filter(kind="report", object_id=evening.pk)
    assert sorted(r.member.name for r in rows) == ["Anna Ås", "Bo Ek", "Cilla Ros"]
    assert {r.status for r in rows} == {"sent"}
    assert sorted(m.to[0] for m in mail.outbox) == [
        "anna@example.org",
        "bo@example.org",
        "cilla@example.org",
    ]


def test_the_report_in_swedish_has_anna_s_figures_in_text_and_html(worked):
    message = sent_to("anna@example.org")
    assert message.subject == "Kortklubben Spader Kung: kvällen den 19 november 2026"
    for body in (message.body, html_of(message)):
        assert "Du förlorade 1,00\xa0kr i kväll." in body
        assert "Ditt saldo i klubben: −4,00\xa0kr" in body
        assert "Betala Bo Ek 1,00\xa0kr." in body
        assert "Bord 1, Kille: vunnet av Bo Ek" in body
        assert "Pott: Kille, bord 1" in body
        assert "3,00\xa0kr" in body
    text = message.body
    assert "1. Bo Ek: 2,00\xa0kr (1 spel, 1 vunna)" in text
    assert "2. Anna Ås: −1,00\xa0kr (1 spel, 0 vunna)" in text
    assert "3. Cilla Ros: −1,00\xa0kr (1 spel, 0 vunna)" in text
    assert "Bo Ek: – → 1 (2 poäng)" in text
    assert "Cilla Ros: 1 → 2 (2 poäng)" in text
    assert "Anna Ås: 2 → 3 (0 poäng)" in text
    assert "David" not in text  # not here tonight
    assert SWISH_1_KR in text
    assert SWISH_1_KR.replace("&", "&amp;") in html_of(message)


def test_the_report_in_english_has_bo_s_figures_in_text_and_html(worked, client):
    from notices.models import MailChoice

    bo, evening = worked["bo"], worked["evening"]
    MailChoice.objects.filter(member=bo).delete()
    MailChoice.objects.create(member=bo, language="en")
    OwedMail.objects.filter(member=bo).update(status="owed", due_at=evening.opened_at)
    mail.outbox.clear()
    from notices import outbox

    assert outbox.sweep() == 1
    message = sent_to("bo@example.org")
    assert message.subject == "Kortklubben Spader Kung: the evening of 19 November 2026"
    for body in (message.body, html_of(message)):
        assert "You won SEK 2.00 tonight." in body
        assert "Your balance at the club: SEK 2.00" in body
        assert "Anna Ås pays you SEK 1.00." in body
        assert "Cilla Ros pays you SEK 1.00." in body
        assert "Table 1, Kille: won by Bo Ek" in body
        assert "Pot: Kille, table 1" in body
        assert "Swish" not in body.split("The league")[0].split("Tonight")[0]  # he pays nobody
    assert "1. Bo Ek: SEK 2.00 (1 game, 1 won)" in message.body
    assert "Bo Ek: – → 1 (2 points)" in message.body
    assert '<html lang="en">' in html_of(message)


def test_the_report_carries_the_one_click_unsubscribe_headers(worked):
    message = sent_to("cilla@example.org")
    link = message.extra_headers["List-Unsubscribe"]
    assert link.startswith("<http://127.0.0.1:8000/mail/unsubscribe/")
    assert link.endswith("/>")
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert message.extra_headers["Auto-Submitted"] == "auto-generated"
    sent = message.message()
    assert sent["List-Unsubscribe"] == link
    assert sent.get_content_type() == "multipart/alternative"
    assert link[1:-1] in message.body
    assert link[1:-1] in html_of(message)
    assert "https://" not in html_of(message).split("<body")[0]  # no external assets


@pytest.mark.parametrize("language", ["sv", "en"])
def test_the_report_speaks_one_language(worked, language):
    """The mail as its reader sees it, by the same rules as every page (tests/test_languages)."""
    from notices import outbox
    from notices.models import MailChoice
    from tests.test_languages import VisibleText, _problems

    for name in ("anna", "bo", "cilla"):
        MailChoice.objects.update_or_create(member=worked[name], defaults={"language": language})
    evening = worked["evening"]
    OwedMail.objects.filter(object_id=evening.pk).update(status="owed", due_at=evening.opened_at)
    mail.outbox.clear()
    assert outbox.sweep() == 3
    for message in mail.outbox:
        html = VisibleText(language)
        html.feed(html_of(message))
        for text in (message.subject, message.body, html.text()):
            assert _problems(text, language) == [], text


def test_closing_through_the_page_with_the_mail_server_away_closes_and_keeps_the_reports_owed(
    club, scorer, raising_mailer, django_capture_on_commit_callbacks
):
    """The eager send runs in the closing request: it must not break the tap nor lose a mail."""
    from tests.conftest import client_for

    people = [
        with_address(club, name, f"{name.split()[0].lower()}@example.org")
        for name in ("Anna Ås", "Bo Ek", "Cilla Ros")
    ]
    with django_capture_on_commit_callbacks(execute=True):
        evening = an_evening(club, date(2026, 11, 19), people)
    close = reverse("evenings:close", args=[club.slug, evening.pk])
    with django_capture_on_commit_callbacks(execute=True):
        response = client_for(scorer).post(close)
    assert response.status_code == 302
    evening.refresh_from_db()
    assert evening.status == "closed"
    rows = OwedMail.objects.filter(kind="report", object_id=evening.pk).order_by("member_id")
    assert [(r.status, r.attempts) for r in rows] == [("owed", 1), ("owed", 0), ("owed", 0)]
    assert mail.outbox == []


def test_the_reader_s_own_rows_stand_out(worked):
    html = html_of(sent_to("anna@example.org"))
    mine = 'style="font-weight:bold;background:#f0fdf4;"><td style="padding:6px 4px;'
    assert html.count(mine) == 2  # tonight's line and the league's
    assert f'{mine}border-bottom:1px solid #e5e7eb;">2. Anna Ås<' in html
    assert f'{mine}border-bottom:1px solid #e5e7eb;">Anna Ås<' in html


def test_the_reports_of_one_evening_read_its_results_once(worked, django_assert_max_num_queries):
    """Thirty readers must not cost thirty readings of the evening: one batch shares them."""
    from notices import outbox

    evening = worked["evening"]
    owed = OwedMail.objects.filter(object_id=evening.pk)

    def resend(count):
        owed.filter(member__in=[worked[n] for n in ("anna", "bo", "cilla")][:count]).update(
            status="owed", due_at=evening.opened_at
        )
        from django.db import connection
        from django.test.utils import CaptureQueriesContext

        with CaptureQueriesContext(connection) as queries:
            assert outbox.sweep() == count
        return len(queries)

    one, three = resend(1), resend(3)
    assert three - one <= 2 * 12, (one, three)
    print("Q", one, three)  # a reader adds a dozen queries, not the evening's
