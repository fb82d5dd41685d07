"""What the ledger adds to other apps' pages and events, connected in ``LedgerConfig.ready``:
every member has an account from the moment he is added (a ``post_save`` receiver, so
``club`` never imports the ledger), and the start page shows his balance and the pots."""

from __future__ import annotations

from django.db.models.signals import post_save
from django.http import HttpRequest

from club import panels
from club.models import Member
from ledger.accounts import member_account
from ledger.models import Account, AccountKind


def open_member_account(sender, instance: Member, created: bool, raw: bool = False, **kwargs):
    if created and not raw:
        member_account(instance)


def home_panel(request: HttpRequest) -> dict:
    pots = (
        Account.objects.for_club(request.club)
        .filter(kind__in=[AccountKind.POT, AccountKind.BET])
        .exclude(kind=AccountKind.BET, balance_ore=0)
        .order_by("-kind", "name")  # the pots, then the outstanding betar
    )
    return {"own": member_account(request.member), "pots": pots}


def connect() -> None:
    post_save.connect(open_member_account, sender=Member, dispatch_uid="ledger-member-account")
    panels.register(10, "ledger/_home_panel.html", home_panel)
