"""The rows of a settle-up page: who pays whom in words, the Swish link and its QR code, and a
payment above the single-amount ceiling cut into payments each page can record. Shared by the
treasurer's settle-up (``ledger.views``) and tonight's (``evenings``)."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponseBadRequest
from django.utils.translation import gettext as _

from club.models import Club
from core import inputs
from ledger import payments, settle
from ledger.postings import amount_ceiling

# Who pays and who is paid in a settle-up row: a member's account, a guest's (tonight's
# settle-up), or the club's box.
SETTLE_PARTY = re.compile(r"cash|member:[0-9]{1,18}|guest:[0-9]{1,18}")
SUBMISSION = re.compile(r"[A-Za-z0-9_-]{1,64}")
MAX_ORE_TEXT = 2**63 - 1  # what a bigint holds; the ledger's ceiling refuses far less


def within_ceiling(plan: list[settle.Payment], club: Club | None = None) -> list[settle.Payment]:
    """A payment above the ceiling on single amounts (the club's, else the instance's
    ``settings.MAX_AMOUNT_ORE``: ``ledger.amount_ceiling``) as several payments at most the
    ceiling each: every row can then be recorded as it is proposed."""
    ceiling = amount_ceiling(club)
    parts = []
    for payment in plan:
        left = payment.amount_ore
        while left > 0:
            parts.append(dataclasses.replace(payment, amount_ore=min(left, ceiling)))
            left -= ceiling
    return parts


def payment_rows(
    plan: list[settle.Payment],
    names: Mapping[str, str],
    numbers: Mapping[str, str],
    message: str,
    club: Club | None = None,
) -> list[dict]:
    """One row per payment, read aloud payer by payer ("Bertil pays Doris…, Bertil pays
    Einar…, Cecilia pays…"), with the payee's Swish link and QR code where he has a number."""
    plan = sorted(
        within_ceiling(plan, club),
        key=lambda p: (names.get(p.payer, p.payer), names.get(p.payee, p.payee)),
    )
    rows = []
    for payment in plan:
        number = numbers.get(payment.payee, "")
        url = svg = ""
        if number:
            try:
                url = settle.swish_payment_url(number, payment.amount_ore, message)
            except settle.SettlementError:
                url = ""
            else:
                svg = settle.swish_qr_svg(url)
        rows.append(
            {
                "payment": payment,
                "text": settle.describe(payment, names),
                "swish_url": url,
                "qr_svg": svg,
                "payee_has_swish": bool(number),
            }
        )
    return rows


def record_paid(
    request: HttpRequest, *, key_prefix: str, ref: str = ""
) -> HttpResponseBadRequest | None:
    """A row's "Paid: record it": its hidden fields read once (the parties, the amount, the
    one-time key ``key_prefix:<submission>``, so a double tap records once), then the payment
    recorded, the outcome said in a message. A post the page cannot have sent is a 400."""
    payer, payee = request.POST.get("payer", ""), request.POST.get("payee", "")
    try:
        amount = inputs.parse_int(request.POST.get("amount_ore", ""), lo=1, hi=MAX_ORE_TEXT)
    except ValidationError:
        return HttpResponseBadRequest(_("The amount must be a positive number of öre."))
    if not all(SETTLE_PARTY.fullmatch(key) for key in (payer, payee)):
        return HttpResponseBadRequest(_("Settle-up moves money between members and the club."))
    submission = request.POST.get("submission", "")
    if not SUBMISSION.fullmatch(submission):
        # The page always sends its key; without one a resent post would record twice.
        return HttpResponseBadRequest(
            _("The form was sent without its submission key; reload the page and try again.")
        )
    try:
        payments.record_settlement(
            request.club,
            payer,
            payee,
            amount,
            request.user,
            key=f"{key_prefix}:{submission}",
            ref=ref,
        )
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, _("The payment was recorded."))
    return None
