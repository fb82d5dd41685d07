"""The hand prizes' memos in the reader's language (``ledger.register_describer``): "Hand prize:
a 29 hand, game #17, deal 3", read from the transaction's key, so no query."""

from __future__ import annotations

import re

from django.utils.translation import gettext as _

from honours.models import kind_name
from ledger.models import Transaction

# honour:game:<id>:<deal>:<seat>:<kind>:<n>, the kind itself holding colons
_KEY = re.compile(r"honour:game:(\d+):(\d+):(\d+):(.+):(\d+)")


def describe_prizes(transactions: list[Transaction]) -> dict[Transaction, str]:
    texts = {}
    for tx in transactions:
        match = _KEY.fullmatch(tx.key or "")
        if match and tx.reverses_id is None:
            texts[tx] = _("Hand prize: %(hand)s, game #%(game)s, deal %(deal)s") % {
                "hand": kind_name(match[4]),
                "game": match[1],
                "deal": match[2],
            }
    return texts
