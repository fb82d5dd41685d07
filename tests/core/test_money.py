import pytest
from django.core.exceptions import ValidationError

from core.money import format_ore, ore_to_decimal_text, parse_kronor


@pytest.mark.parametrize(
    ("text", "ore"),
    [
        ("12", 1200),
        ("12,5", 1250),
        ("12.50", 1250),
        ("12,50 kr", 1250),
        ("1 250 kr", 125000),
        ("SEK 12.50", 1250),
        ("0,05", 5),
        ("99:-", 9900),
    ],
)
def test_it_reads_amounts_as_people_type_them(text, ore):
    assert parse_kronor(text) == ore


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("12,505", "decimals"),
        ("-5", "negative"),
        ("0", "zero"),
        ("0,00 kr", "zero"),
        ("tolv", "invalid"),
        ("12,5,0", "invalid"),
        ("", "required"),
    ],
)
def test_it_refuses_what_is_not_an_allowed_amount(text, code):
    with pytest.raises(ValidationError) as excinfo:
        parse_kronor(text)
    assert excinfo.value.code == code


def test_negative_and_zero_when_allowed():
    assert parse_kronor("-5", allow_negative=True) == -500
    assert parse_kronor("0", allow_zero=True) == 0


def test_it_formats_in_both_languages():
    assert format_ore(1250, "sv") == "12,50\u00a0kr"
    assert format_ore(-123456789, "sv") == "−1\u00a0234\u00a0567,89\u00a0kr"
    assert format_ore(1250, "en") == "SEK 12.50"
    assert format_ore(-5, "en") == "−SEK 0.05"
    assert ore_to_decimal_text(-1250, "sv") == "-12,50"
    assert ore_to_decimal_text(1250, "en") == "12.50"


@pytest.mark.parametrize("text", ["١٢", "１２", "١٢,٥٠", "²", "12,٥", "--5", "1e3", "1\x002"])
def test_it_reads_ascii_digits_only(text):
    # "١٢" (Arabic-Indic) and "１２" (full-width) match \d and int() reads them as 12.
    with pytest.raises(ValidationError) as excinfo:
        parse_kronor(text)
    assert excinfo.value.code == "invalid"


@pytest.mark.parametrize("text", ["9" * 5000, "9" * 14, "1" + "0" * 20 + ",50"])
def test_it_refuses_more_digits_than_any_amount_has_before_reading_them(text):
    with pytest.raises(ValidationError) as excinfo:
        parse_kronor(text)
    assert excinfo.value.code in ("invalid", "too_large")


def test_a_refusal_quotes_the_text_short_and_printable():
    with pytest.raises(ValidationError) as excinfo:
        parse_kronor("x\x00" * 40)
    (message,) = excinfo.value.messages
    assert "\x00" not in message
    assert len(message) < 120
