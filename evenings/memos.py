"""The memos of an evening's money in the reader's language (``ledger.register_describer``):
a fee, the club's pot shared among the tables, the tables' pots brought home, a whist drive's
prizes, a payment of tonight's settle-up. Two queries for any number of transactions."""

from __future__ import annotations

import re

from django.utils import formats
from django.utils.translation import gettext as _

from engine import registry
from evenings.models import Attendee, Evening

_REF = re.compile(
    r"evening:(\d+):(fee:(\d+)|split:(\w+):([\d-]+)|merge:(\w+)|drive:\d+:prizes|paid)"
)


def describe_evening_money(transactions: list) -> dict:
    wanted = {tx: _REF.fullmatch(tx.ref or "") for tx in transactions}
    # A reversal keeps its reason, except a drive's prizes taken back by a correction
    # (evenings.drive_results.repay_prizes): that reason is the drive's own, said in the
    # reader's words.
    wanted = {
        tx: match
        for tx, match in wanted.items()
        if match and (not tx.reverses_id or match[2].startswith("drive:"))
    }
    if not wanted:
        return {}
    dates = dict(
        Evening.objects.filter(pk__in={int(m[1]) for m in wanted.values()}).values_list(
            "pk", "date"
        )
    )
    fee_ids = {int(m[3]) for m in wanted.values() if m[3]}
    names = {a.pk: a.name for a in Attendee.objects.filter(pk__in=fee_ids).select_related("member")}
    texts = {}
    for tx, match in wanted.items():
        day = dates.get(int(match[1]))
        if day is None:
            continue
        words = {"date": formats.date_format(day, "SHORT_DATE_FORMAT")}
        if match[3]:
            words["name"] = names.get(int(match[3]), "")
            texts[tx] = _("Evening %(date)s: fee, %(name)s") % words
        elif match[4]:
            words["tables"] = match[5]
            texts[tx] = _("Evening %(date)s: the club's pot shared among tables %(tables)s") % words
        elif match[6]:
            texts[tx] = _("Evening %(date)s: the tables' pots back to the club's pot") % words
        elif match[2] == "paid":
            texts[tx] = _("Evening %(date)s: settle-up") % words
        elif tx.reverses_id:
            texts[tx] = _("Whist drive %(date)s: prizes taken back, a round corrected") % words
        else:
            texts[tx] = _("Whist drive %(date)s: prizes") % words
        game = match[4] or match[6]
        if game:
            texts[tx] += f" ({_(registry.display_name(game))})"
    return texts
