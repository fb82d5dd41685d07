"""A club evening that starts from the week's replies and ends with its report, the books asked
(``check_ledger``'s checks) after every step that writes money.

The club: table money 10 kr a head, a Kille pot of 10 kr from before, confirmation required
before tonight's money is settled. Tonight is planned for six seats.

1. Replies: Anna, Bertil (+1 Greta), Cecilia, David come (5 seats); Erik takes the sixth;
   Frida waits. David cancels (twice: a double tap): Frida is promoted, once.
2. Opening tonight opens the planned evening; the check-in is offered those who said coming and
   Greta; all six and Greta check in: 7 × 10 kr to the treasury, Greta's guest account −10 kr.
3. Table 1 (Anna, Bertil, Cecilia) is formed, then table 2 (Erik, Greta, Frida) in a second step:
   the club's pot is shared, 5 kr each.
4. Each table plays one deal: förhand (s1) knocks, the others fold: s1 takes the 5 kr pot and
   everyone pays the 1 kr small stake: s1 +4 (Bertil, Greta), the others −1; each pot 3 kr.
5. Paid is refused while the games are unconfirmed; a player confirms each; Paid goes through.
6. Closing: the report is owed to every member who came and has an address, once.
"""

from __future__ import annotations

from datetime import time

import pytest
from django.utils import timezone

import evenings
from evenings import attendance
from evenings.models import EveningOptions, EveningStatus, PotPolicy
from ledger.models import Transaction
from notices.models import OwedMail
from scoring import confirming
from tests.conftest import client_for
from tests.evenings.test_evenings import tap
from tests.evenings.test_whole_evening import KR, assert_books_agree, balance, seed_club_pot
from tests.evenings.test_whole_evening import start_at as kille_at
from tests.factories import make_member
from tests.scoring.test_confirming import _pay
from week import planning, replies
from week.models import Schedule

# Also on SQLite (tests/conftest.py): the whole week.
pytestmark = pytest.mark.sqlite

NAMES = ["Anna", "Bertil", "Cecilia", "David", "Erik", "Frida"]


def knock_and_fold(game):
    tap(game, "knock", player="s1")
    tap(game, "fold", player="s2")
    tap(game, "fold", player="s0")
    tap(game, "end_evening")


def test_an_evening_from_the_replies_to_the_report_keeps_the_books_right(
    club, scorer, django_capture_on_commit_callbacks
):
    club.confirm_to_settle = True
    club.save(update_fields=["confirm_to_settle"])
    EveningOptions.objects.create(club=club, fee_ore=10 * KR, pot_policy=PotPolicy.CARRY)
    seed_club_pot(club)
    people = {n: make_member(club, f"{n} {n[0]}son") for n in NAMES}
    for name, member in people.items():
        member.email = f"{name.lower()}@example.se"
        member.save(update_fields=["email"])
    today = timezone.localdate()
    Schedule.objects.create(
        club=club, weekday=today.weekday(), start_time=time(23, 59), first_date=today, cap=6
    )
    with django_capture_on_commit_callbacks(execute=True):
        planned = planning.plan_ahead(club, today)[0]
    assert (planned.date, planned.status) == (today, EveningStatus.PLANNED)
    assert_books_agree(club)

    # 1. Replies, a wait-list and a promotion.
    for name, guest in [("Anna", ""), ("Bertil", "Greta"), ("Cecilia", ""), ("David", "")]:
        replies.answer(planned, people[name], "coming", guest)
    assert not replies.answer(planned, people["Erik"], "coming").waiting
    assert replies.answer(planned, people["Frida"], "coming").waiting
    with django_capture_on_commit_callbacks(execute=True):
        replies.answer(planned, people["David"], "not")
        replies.answer(planned, people["David"], "not")
    assert not planned.replies.get(member=people["Frida"]).waiting
    assert OwedMail.objects.filter(kind="promotion", member=people["Frida"]).count() == 1

    # 2. Tonight opens the planned evening; the check-in starts from the replies.
    evening = evenings.open_evening(club, None, games=["kille"])
    assert (evening.pk, evening.status, evening.fee_ore) == (planned.pk, EveningStatus.OPEN, 1000)
    offered = attendance.expected(evening)
    coming = ["Anna", "Bertil", "Cecilia", "Erik", "Frida"]
    assert set(offered.coming) == {people[n].pk for n in coming}
    assert offered.guests == ("Greta",)
    here = {n: evenings.check_in(evening, None, member=people[n]) for n in coming}
    here["Greta"] = evenings.check_in(evening, None, guest_name="Greta")
    assert balance(club, "treasury") == 60 * KR
    assert balance(club, f"guest:{here['Greta'].pk}") == -10 * KR
    assert_books_agree(club)

    # 3. Two tables, formed one after the other.
    (one,) = evenings.form_tables(evening, "kille", [[here[n] for n in coming[:3]]], None)
    (two,) = evenings.form_tables(
        evening, "kille", [[here["Erik"], here["Greta"], here["Frida"]]], None
    )
    assert [balance(club, f"pot:kille:{n}") for n in (1, 2)] == [5 * KR, 5 * KR]
    assert_books_agree(club)

    # 4. Each table's deal.
    with django_capture_on_commit_callbacks(execute=True):
        first, second = kille_at(one), kille_at(two)
        knock_and_fold(first)
        knock_and_fold(second)
    assert [balance(club, f"pot:kille:{n}") for n in (1, 2)] == [3 * KR, 3 * KR]
    assert balance(club, f"guest:{here['Greta'].pk}") == -6 * KR  # her losses stay hers
    assert_books_agree(club)

    # 5. Paid waits for the table's word.
    host = client_for(scorer)  # the evening's host records tonight's payments
    _pay(host, club, evening, None, "before")
    assert not Transaction.objects.filter(ref=evenings.paid_ref(evening)).exists()
    for game, who in ((first, "Anna"), (second, "Erik")):
        game.refresh_from_db()
        confirming.record(game, people[who], "confirmed", seq=game.seq, key=f"ok-{who}")
    assert evenings.tonight.settle_holds(evening) == []
    _pay(host, club, evening, None, "after")
    assert Transaction.objects.filter(ref=evenings.paid_ref(evening)).count() == 1
    assert_books_agree(club)

    # 6. Closing owes the report to the members who came, once.
    with django_capture_on_commit_callbacks(execute=True):
        evenings.close_evening(evening, None)
        evenings.close_evening(evening, None)
    reported = OwedMail.objects.filter(kind="report", object_id=evening.pk)
    assert sorted(m.member.name.split()[0] for m in reported) == sorted(coming)
    assert_books_agree(club)
