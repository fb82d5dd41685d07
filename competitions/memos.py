"""The memos of a competition's money in the reader's language (``ledger.register_describer``):
an entry fee ("Vårcupen: entry fee, Anna") and the prizes ("Vårcupen: prizes"), from the
transaction's key with today's names, not the memo stored in the language of whoever posted
it. Two queries for any number of transactions."""

from __future__ import annotations

import re

from django.utils.translation import gettext as _

from competitions.models import Competition, Entrant
from ledger.models import Transaction

_KEY = re.compile(r"competition:(\d+):(?:entrant:(\d+)|prizes)")


def describe_competition_money(transactions: list[Transaction]) -> dict[Transaction, str]:
    found = {}
    for tx in transactions:
        match = _KEY.fullmatch(tx.key or "")
        if match and tx.reverses_id is None:
            found[tx] = (int(match[1]), int(match[2]) if match[2] else None)
    if not found:
        return {}
    names = dict(
        Competition.objects.filter(pk__in={c for c, _e in found.values()}).values_list("pk", "name")
    )
    entrants = Entrant.objects.select_related("member").in_bulk(
        {e for _c, e in found.values() if e is not None}
    )
    texts = {}
    for tx, (competition, entrant) in found.items():
        if competition not in names:
            continue
        if entrant is None:
            texts[tx] = _("%(competition)s: prizes") % {"competition": names[competition]}
        elif entrant in entrants:
            texts[tx] = _("%(competition)s: entry fee, %(name)s") % {
                "competition": names[competition],
                "name": entrants[entrant].name,
            }
    return texts
