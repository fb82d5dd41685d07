"""Settle-up: which payments bring the members' balances to zero. Pure maths, no database.

Balances are integer öre keyed by account key ("member:12", "cash"): positive = is owed money,
negative = owes money (the ledger's sign for members, see ``club.models``). A
``Payment(payer, payee, amount_ore)`` is money the payer hands the payee outside the books;
recorded, it raises the payer's balance and lowers the payee's by the amount.

Fewest payments
    Money only has to move inside a group of people whose balances sum to zero, and a group of
    k people can always be settled with k − 1 payments (each payment squares at least one of
    them, the last squares two). So the minimum over all plans is n − (the largest number of
    disjoint zero-sum groups the n non-zero balances can be split into). For up to
    ``EXACT_LIMIT`` non-zero balances that number is found exactly by dynamic programming over
    subsets: ``best[mask]`` is the most zero-sum groups the members in ``mask`` split into,
    computed as the best over "which member was added last", plus one when ``mask`` itself
    sums to zero (2^12 · 12 steps); walking the table back yields the groups. Above the limit
    the problem is NP-hard and a greedy plan is used: first every pair of exactly opposite
    balances, then the largest debtor pays the largest creditor until all are square (at most
    n − 1 payments).

The treasurer's settle-up
    ``members_plan`` is the settle-up page's rule: the members' balances settled in one of its
    modes (the fewest payments among them, everyone with the club's box, or one member). Money
    in pots and the box is not the members', so whatever does not net to zero among the
    members is settled with the club; the page only reads the balances and shows the plan.

Swish
    ``swish_payment_url`` builds Swish's payment link
    ``https://app.swish.nu/1/p/sw/?sw=<payee>&amt=<kronor.öre>&cur=SEK&msg=<message>&edit=msg``.
    Chosen over the two older formats because one URL serves every way a phone meets it:
    tapped on a phone with Swish it opens the app with payee, amount and message filled in
    (a universal/app link); scanned as a QR code it works from the phone's camera as well as
    from the scanner inside the Swish app; and on a device without Swish it opens a web page
    instead of failing. The alternatives: ``swish://payment?data=<JSON>`` (payee, amount,
    message as a JSON object) opens only where the app is installed and does nothing from a
    camera; Swish's QR "C-format" (``C<payee>;<amount>;<message>;<lock mask>``, the QR-code
    API manual's encoding specification) is understood only by the Swish app's own scanner and
    cannot be tapped. The amount is locked (``edit=msg`` lets the payer reword the message
    only); a mobile number is sent in international form without "+" (``46701234567``),
    a Swish business number (123…) as it is. The message is cut to Swish's 50 characters.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import quote, urlencode

import segno
from django.utils.translation import gettext

from core.money import format_ore

EXACT_LIMIT = 12
SWISH_MESSAGE_LENGTH = 50
SWISH_LINK = "https://app.swish.nu/1/p/sw/"


class SettlementError(ValueError):
    """Balances or a request that cannot be settled; the message is shown to the treasurer."""


@dataclass(frozen=True, order=True)
class Payment:
    payer: str
    payee: str
    amount_ore: int


# --- plans ---------------------------------------------------------------------------------


def _nonzero(balances: Mapping[str, int]) -> dict[str, int]:
    cleaned: dict[str, int] = {}
    for key, amount in balances.items():
        if isinstance(amount, bool) or not isinstance(amount, int):
            raise SettlementError(f"{key}: balances are whole öre")
        if amount:
            cleaned[key] = amount
    return cleaned


def _require_zero_sum(balances: Mapping[str, int]) -> None:
    total = sum(balances.values())
    if total:
        raise SettlementError(
            f"The balances sum to {total} öre, not zero: someone outside them must take part."
        )


def plan_settlement(balances: Mapping[str, int]) -> list[Payment]:
    """The fewest payments that bring every balance to zero (exact up to 12 non-zero)."""
    owed = _nonzero(balances)
    _require_zero_sum(owed)
    if not owed:
        return []
    keys = sorted(owed)
    if len(keys) <= EXACT_LIMIT:
        groups = zero_sum_groups([owed[k] for k in keys])
        plan: list[Payment] = []
        for group in groups:
            plan.extend(_settle_group({keys[i]: owed[keys[i]] for i in group}))
        return plan
    return _greedy({k: owed[k] for k in keys}, pair_first=True)


def zero_sum_groups(amounts: list[int]) -> list[list[int]]:
    """Indices of ``amounts`` (non-zero, summing to zero) split into the largest possible
    number of disjoint zero-sum groups. Exponential in ``len(amounts)``: callers keep it ≤ 12."""
    n = len(amounts)
    if n == 0:
        return []
    full = (1 << n) - 1
    sums = [0] * (full + 1)
    for mask in range(1, full + 1):
        low = mask & -mask
        sums[mask] = sums[mask ^ low] + amounts[low.bit_length() - 1]
    best = [0] * (full + 1)
    for mask in range(1, full + 1):
        top = 0
        rest = mask
        while rest:
            low = rest & -rest
            rest ^= low
            top = max(top, best[mask ^ low])
        best[mask] = top + (1 if sums[mask] == 0 else 0)
    # Walk back: remove members one by one keeping the optimum; every time the remaining set
    # sums to zero, what was removed since the last such point is one group.
    groups: list[list[int]] = []
    current: list[int] = []
    mask = full
    while mask:
        gain = 1 if sums[mask] == 0 else 0
        if gain and current:
            groups.append(current)
            current = []
        rest = mask
        while rest:
            low = rest & -rest
            rest ^= low
            if best[mask ^ low] + gain == best[mask]:
                current.append(low.bit_length() - 1)
                mask ^= low
                break
        else:  # pragma: no cover - best[mask] is always reached by some member
            raise AssertionError("subset table is inconsistent")
    if current:
        groups.append(current)
    return [sorted(g) for g in groups]


def _settle_group(group: dict[str, int]) -> list[Payment]:
    """k members summing to zero, with no zero-sum part: k − 1 payments."""
    return _greedy(group, pair_first=False)


def _greedy(balances: dict[str, int], *, pair_first: bool) -> list[Payment]:
    left = dict(balances)
    plan: list[Payment] = []
    if pair_first:
        by_amount: dict[int, list[str]] = {}
        for key in sorted(left):
            if left[key] > 0:
                by_amount.setdefault(left[key], []).append(key)
        for debtor in sorted(left):
            amount = -left[debtor]
            if amount > 0 and by_amount.get(amount):
                creditor = by_amount[amount].pop(0)
                plan.append(Payment(debtor, creditor, amount))
                left[debtor] = left[creditor] = 0
    while True:
        debtors = [k for k in left if left[k] < 0]
        creditors = [k for k in left if left[k] > 0]
        if not debtors or not creditors:
            break
        debtor = min(debtors, key=lambda k: (left[k], k))
        creditor = min(creditors, key=lambda k: (-left[k], k))
        amount = min(-left[debtor], left[creditor])
        plan.append(Payment(debtor, creditor, amount))
        left[debtor] += amount
        left[creditor] -= amount
    return plan


def settle_against(balances: Mapping[str, int], party: str = "cash") -> list[Payment]:
    """Everyone settles with ``party`` (the club's box): debtors pay it, it pays creditors.

    The balances need not sum to zero: the party takes up the difference. Its own balance, if
    given, is ignored."""
    owed = _nonzero(balances)
    owed.pop(party, None)
    plan = []
    for key in sorted(owed):
        amount = owed[key]
        plan.append(Payment(key, party, -amount) if amount < 0 else Payment(party, key, amount))
    return plan


def settle_one(
    balances: Mapping[str, int], key: str, amount_ore: int | None = None
) -> list[Payment]:
    """Bring one member to zero — or ``amount_ore`` closer to it — with the fewest payments.

    The others with the opposite sign take part, largest first (which needs the fewest of
    them); one whose balance matches exactly is preferred, so they end square too."""
    owed = _nonzero(balances)
    _require_zero_sum(owed)
    own = owed.get(key, 0)
    if not own:
        raise SettlementError(f"{key} is already square.")
    if amount_ore is None:
        amount_ore = abs(own)
    if isinstance(amount_ore, bool) or not isinstance(amount_ore, int) or amount_ore <= 0:
        raise SettlementError("The amount must be a positive number of öre.")
    if amount_ore > abs(own):
        raise SettlementError(f"{key} has only {abs(own)} öre to settle, not {amount_ore}.")
    sign = 1 if own > 0 else -1
    others = sorted(
        (k for k, v in owed.items() if k != key and v * sign < 0),
        key=lambda k: (-abs(owed[k]), k),
    )
    exact = next((k for k in others if abs(owed[k]) == amount_ore), None)
    if exact is not None:
        others.remove(exact)
        others.insert(0, exact)
    plan = []
    remaining = amount_ore
    for other in others:
        if not remaining:
            break
        part = min(remaining, abs(owed[other]))
        plan.append(Payment(other, key, part) if sign > 0 else Payment(key, other, part))
        remaining -= part
    return plan


# The settle-up page's modes: the fewest payments among the members, everyone with the club's
# box, one member.
MODES = ("all", "treasury", "one")


def members_plan(
    balances: Mapping[str, int],
    mode: str,
    key: str | None = None,
    amount_ore: int | None = None,
    *,
    club: str = "cash",
) -> list[Payment]:
    """The members' balances settled in one of the ``MODES``: ``all``, the fewest payments;
    ``treasury``, everyone with ``club`` (the box); ``one``, member ``key`` brought to zero, or
    ``amount_ore`` closer to it. Money in pots and the box is not the members': whatever does
    not net to zero among the members is settled with ``club``."""
    if mode == "treasury":
        return settle_against(balances, party=club)
    total = sum(balances.values())
    with_club = {**balances, club: -total} if total else dict(balances)
    if mode == "one":
        return settle_one(with_club, key, amount_ore)
    if mode != "all":
        raise SettlementError(f"{mode} is no way to settle up.")
    return plan_settlement(with_club)


def apply_plan(balances: Mapping[str, int], plan: list[Payment]) -> dict[str, int]:
    """The balances after the plan's payments are recorded (payer up, payee down)."""
    after = dict(balances)
    for payment in plan:
        after[payment.payer] = after.get(payment.payer, 0) + payment.amount_ore
        after[payment.payee] = after.get(payment.payee, 0) - payment.amount_ore
    return after


# --- words and Swish -------------------------------------------------------------------------


def describe(payment: Payment, names: Mapping[str, str]) -> str:
    """One line a person can read aloud, in the reader's language: "Anna betalar 12,50 kr till
    Bo." / "Anna pays Bo SEK 12.50." """
    text = gettext("%(payer)s pays %(payee)s %(amount)s.") % {
        "payer": names.get(payment.payer, payment.payer),
        "payee": names.get(payment.payee, payment.payee),
        "amount": format_ore(payment.amount_ore),
    }
    return text[:1].upper() + text[1:]


def swish_number(number: str) -> str:
    """The payee as Swish's link wants it, or ``SettlementError`` for what is not a number."""
    digits = re.sub(r"[\s\-()./]", "", number or "")
    if digits.startswith("+"):
        digits = digits[1:]
    elif digits.startswith("00"):
        digits = digits[2:]
    if not (digits.isascii() and digits.isdigit()):  # "١٢" passes isdigit() alone
        raise SettlementError(f"“{number}” is not a Swish number.")
    if digits.startswith("0") and len(digits) == 10:  # Swedish mobile number 07x-xxx xx xx
        digits = "46" + digits[1:]
    if not 8 <= len(digits) <= 15:
        raise SettlementError(f"“{number}” is not a Swish number.")
    return digits


def swish_payment_url(number: str, amount_ore: int, message: str) -> str:
    """Swish's prefilled payment link (see the module docstring for the format chosen)."""
    if isinstance(amount_ore, bool) or not isinstance(amount_ore, int) or amount_ore <= 0:
        raise SettlementError("A Swish payment needs a positive amount.")
    kronor, ore = divmod(amount_ore, 100)
    query = {
        "sw": swish_number(number),
        "amt": f"{kronor}.{ore:02d}",
        "cur": "SEK",
        "msg": (message or "").strip()[:SWISH_MESSAGE_LENGTH],
        "edit": "msg",
    }
    return f"{SWISH_LINK}?{urlencode(query, quote_via=quote)}"


def swish_qr_svg(url: str) -> str:
    """An inline SVG QR code of ``url`` (no XML declaration, scalable by CSS)."""
    qr = segno.make(url, error="m", micro=False)
    return qr.svg_inline(scale=4, border=2, dark="#000", light="#fff", omitsize=True, title="Swish")
