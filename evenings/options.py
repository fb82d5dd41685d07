"""The club's evening options: the fee per attendee, what the fee is (table money or an entry
fee), what happens to the tables' pots between evenings, and the drive's prize shares.

Design
- ``options_for(club)`` finds the club's one row (made on first use); ``save_options`` changes
  it in one transaction. A fee above the club's ceiling on single amounts is refused
  (``ledger.check_amount``).
- The options decide where money goes, so every save is sealed in the audit chain in its
  transaction (``seal_options``, a ``post_save`` receiver connected in ``EveningsConfig.ready``)
  and ``check_options_sealed``, a book check, compares the row with its newest seal: options
  changed behind the app's back are named by field.
- An evening copies the options as it opens (``evenings.opening``): a later change does not
  rewrite an evening.

Relies on ``ledger`` (the ceiling, the field comparison) and ``ledger.ownership`` (the seals).
"""

from __future__ import annotations

import json

from django.db import transaction

import ledger
from club.models import Club, User
from evenings.models import EveningOptions
from ledger import ownership

OPTIONS_SUBJECT = "evening_options"


def options_for(club: Club) -> EveningOptions:
    options, _created = EveningOptions.objects.get_or_create(club=club)
    return options


def save_options(club: Club, by: User | None, **fields) -> EveningOptions:
    """Change the club's evening options (fee, what the fee is, the pot policy, prize shares).
    They decide where money goes: every save is sealed in the audit chain, in its transaction
    (``seal_options``, a ``post_save`` receiver), and ``check_options_sealed`` compares. A fee
    above the club's ceiling on single amounts is refused (``ledger.check_amount``)."""
    if "fee_ore" in fields:
        ledger.check_amount(fields["fee_ore"], club)
    with transaction.atomic():
        options = options_for(club)
        for name, value in fields.items():
            setattr(options, name, value)
        options.save()
    return options


def options_state(options: EveningOptions) -> dict:
    return {
        "fee_ore": options.fee_ore,
        "fee_kind": options.fee_kind,
        "pot_policy": options.pot_policy,
        "prize_percents": options.prize_percents,
    }


def seal_options(sender, instance: EveningOptions, raw: bool = False, **kwargs) -> None:
    if not raw:
        ownership.seal(instance.club, OPTIONS_SUBJECT, options_state(instance))


def check_options_sealed(club: Club) -> list[str]:
    """The club's evening options against their newest seal (a book check)."""
    options = EveningOptions.objects.filter(club=club).first()
    sealed = ownership.latest_seals(club, OPTIONS_SUBJECT).get(OPTIONS_SUBJECT)
    if options is None:
        return [] if sealed is None else ["the evening options are gone, their seal is not"]
    if sealed is None:
        return ["the evening options have no sealed record: they were set behind the app's back"]
    now = json.loads(json.dumps(options_state(options)))
    fields = ledger.changed_fields(sealed, now)
    return (
        [f"the evening options changed behind the app's back ({', '.join(fields)})"]
        if fields
        else []
    )
