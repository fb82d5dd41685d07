"""core.inputs: every input read once, at the edge, or refused with a code."""

from __future__ import annotations

import json
from datetime import date

import pytest
from django import forms
from django.core.exceptions import ValidationError
from django.http import QueryDict

from core import inputs

# Also on SQLite (tests/conftest.py): JSON and text a database chokes on.
pytestmark = pytest.mark.sqlite


def refusal(function, *args, **kwargs) -> str:
    with pytest.raises(ValidationError) as excinfo:
        function(*args, **kwargs)
    assert excinfo.value.messages  # a message a person can read
    return excinfo.value.code


# --- numbers -----------------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "value"), [("0", 0), ("12", 12), (" 7 ", 7), ("-5", -5)])
def test_parse_int_reads_ascii_whole_numbers(text, value):
    assert inputs.parse_int(text, lo=-10, hi=100) == value


@pytest.mark.parametrize(
    "text", ["²", "١٢", "１２", "--5", "+5", "1e3", "12.0", "0x10", "1_000", "5-", "1 2"]
)
def test_parse_int_refuses_what_int_would_take_or_choke_on(text):
    assert refusal(inputs.parse_int, text, lo=-100, hi=100) == "invalid"


@pytest.mark.parametrize("text", ["9" * 5000, "-" + "9" * 5000, "9" * 19])
def test_parse_int_refuses_huge_numbers_before_converting_them(text):
    # int("9" * 5000) raises ValueError (Python's 4,300-digit limit).
    assert refusal(inputs.parse_int, text, lo=0, hi=10) == "range"


def test_parse_int_keeps_to_the_range_and_needs_a_value():
    assert refusal(inputs.parse_int, "11", lo=0, hi=10) == "range"
    assert refusal(inputs.parse_int, "-1", lo=0, hi=10) == "range"
    assert refusal(inputs.parse_int, "", lo=0, hi=10) == "required"
    assert refusal(inputs.parse_int, None, lo=0, hi=10) == "required"


# --- text --------------------------------------------------------------------------------------


def test_clean_text_strips_and_keeps_ordinary_text():
    assert inputs.clean_text("  Åsa Öberg 💚\t", max_length=20) == "Åsa Öberg 💚"
    assert inputs.clean_text("två\nrader", max_length=20, multiline=True) == "två\nrader"


@pytest.mark.parametrize("text", ["a\x00b", "\x00", "a\x1bb", "a\x7fb", "en\nrad"])
def test_clean_text_refuses_nul_and_control_characters(text):
    assert refusal(inputs.clean_text, text, max_length=20) == "control"


def test_clean_text_refuses_text_longer_than_its_column():
    assert inputs.clean_text("x" * 10, max_length=10) == "x" * 10
    assert refusal(inputs.clean_text, "x" * 11, max_length=10) == "max_length"
    assert refusal(inputs.clean_text, "x" * 10_000, max_length=10) == "max_length"
    assert refusal(inputs.clean_text, 12, max_length=10) == "invalid"


@pytest.mark.parametrize("text", ["", "a\x00", "a b", "a:b", "x" * 65, "١٢", "å"])
def test_parse_token_refuses_anything_but_a_short_urlsafe_key(text):
    assert refusal(inputs.parse_token, text) == "token"


def test_parse_token_accepts_the_keys_the_app_makes():
    assert inputs.parse_token("0f3a9c-deal") == "0f3a9c-deal"
    assert inputs.parse_token("Ab_9-" * 12 + "abcd") == "Ab_9-" * 12 + "abcd"


# --- dates -------------------------------------------------------------------------------------


def test_bounded_date_accepts_ten_years_either_side_of_today():
    today = date(2026, 3, 15)
    assert inputs.bounded_date(date(2016, 3, 15), today=today) == date(2016, 3, 15)
    assert inputs.bounded_date(date(2036, 3, 15), today=today) == date(2036, 3, 15)
    assert refusal(inputs.bounded_date, date(2016, 3, 14), today=today) == "date_range"
    assert refusal(inputs.bounded_date, date(1, 1, 1), today=today) == "date_range"
    assert refusal(inputs.bounded_date, date(9999, 12, 31), today=today) == "date_range"


def test_bounded_date_on_a_leap_day():
    assert inputs.date_bounds(date(2028, 2, 29)) == (date(2018, 2, 28), date(2038, 2, 28))


def test_the_date_field_refuses_dates_out_of_range():
    class Form(forms.Form):
        day = inputs.DateField()

    assert not Form({"day": "0001-01-01"}).is_valid()
    assert Form({"day": "0001-01-01"}).errors.as_data()["day"][0].code == "date_range"
    assert not Form({"day": "9999-12-31"}).is_valid()
    assert not Form({"day": "2024-02-30"}).is_valid()


# --- JSON and payloads ---------------------------------------------------------------------------


def test_parse_json_reads_an_ordinary_payload():
    assert inputs.parse_json('{"tricks": {"s0": 4}, "cards": ["5H", "JD"], "ok": true}') == {
        "tricks": {"s0": 4},
        "cards": ["5H", "JD"],
        "ok": True,
    }


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("[" * 10_000 + "]" * 10_000, "payload_size"),
        ("[" * 100 + "]" * 100, "payload_depth"),
        ("[" * 3000 + "]" * 3000, "payload_depth"),
        ('{"a": {"b": {"c": {"d": {"e": {"f": 1}}}}}}', "payload_depth"),
        ('{"x": NaN}', "payload_number"),
        ('{"x": Infinity}', "payload_number"),
        ('{"x": -Infinity}', "payload_number"),
        ('{"x": 1.5}', "payload_number"),
        ('{"x": 1e400}', "payload_number"),
        ('{"x": ' + "9" * 5000 + "}", "payload_number"),
        ('{"x": ' + "9" * 100 + "}", "payload_number"),
        ('{"x": 9007199254740993}', "payload_number"),
        ('{"x": "a\\u0000b"}', "payload_text"),
        ('{"a\\u0000": 1}', "payload_key"),
        ('{"' + "k" * 41 + '": 1}', "payload_key"),
        ('{"": 1}', "payload_key"),
        ('{"x": "' + "y" * 201 + '"}', "payload_text"),
        ("{broken", "payload"),
        ("", "payload"),
    ],
)
def test_parse_json_refuses_what_a_database_or_a_parser_chokes_on(text, code):
    assert refusal(inputs.parse_json, text) == code


def test_check_json_refuses_values_built_from_form_fields_too():
    assert refusal(inputs.check_json, {"x": float("nan")}) == "payload_number"
    assert refusal(inputs.check_json, {1: "a"}) == "payload_key"
    assert refusal(inputs.check_json, {"x": object()}) == "payload"
    assert refusal(inputs.check_json, {"x": ["y" * 150] * 60}) == "payload_size"


def payload(query: str) -> dict:
    return inputs.parse_payload(QueryDict(query))


def test_parse_payload_builds_the_payload_from_the_pads_fields():
    assert payload("type=deal&p_points=5&p_who=s1&p_ok=true&p_cards[]=5H&p_cards[]=JD") == {
        "points": 5,
        "who": "s1",
        "ok": True,
        "cards": ["5H", "JD"],
    }
    assert payload("p_bids.s0=4&p_bids.s1=-2&p_empty=&p_last=") == {"bids": {"s0": 4, "s1": -2}}
    assert payload("payload=" + json.dumps({"suit": "H"}) + "&p_cutter_jack=true") == {
        "suit": "H",
        "cutter_jack": True,
    }


def test_parse_payload_reads_unicode_digits_as_text_not_numbers():
    assert payload("p_points=%C2%B2") == {"points": "²"}
    assert payload("p_points=%D9%A1%D9%A2") == {"points": "١٢"}
    assert payload("p_points=--5") == {"points": "--5"}


@pytest.mark.parametrize(
    ("query", "code"),
    [
        ('payload={"x": 1}&p_x=2', "payload_collision"),
        ('payload={"x": {"a": 1}}&p_x.y=2', "payload_collision"),
        ("p_x=1&p_x.y=2", "payload_collision"),
        ("p_x.y=2&p_x=1", "payload_collision"),
        ("p_x[]=1&p_x=1", "payload_collision"),
        ("p_points=" + "9" * 5000, "payload_number"),
        ("p_points=" + "9" * 17, "payload_number"),
        ("p_note=%00", "payload_text"),
        ("p_note=" + "x" * 10_000, "payload_text"),
        ("p_" + "k" * 300 + "=1", "payload_key"),
        ("p_=1", "payload_key"),
        ("p_x.=1", "payload_key"),
        ("payload=[1, 2]", "payload"),
        ("payload=NaN", "payload_number"),
    ],
)
def test_parse_payload_refuses_fields_that_collide_or_cannot_be_stored(query, code):
    assert refusal(payload, query.replace("+", "%2B")) == code


# --- form fields -------------------------------------------------------------------------------


def test_the_integer_field_reads_ascii_digits_within_its_bounds():
    class Form(forms.Form):
        n = inputs.IntegerField(min_value=0, max_value=100)

    assert Form({"n": "42"}).is_valid()
    for text in ("١٢", "１２", "²", "9" * 5000, "101", "-1"):
        assert not Form({"n": text}).is_valid(), text


def test_the_text_field_refuses_control_characters():
    class Form(forms.Form):
        name = inputs.TextField(max_length=10)

    assert Form({"name": " Åsa "}).is_valid()
    assert not Form({"name": "Å\x1bsa"}).is_valid()
    assert not Form({"name": "Å\x00sa"}).is_valid()
    assert not Form({"name": "x" * 11}).is_valid()


@pytest.mark.parametrize("value", ["99999999999999999999", "9" * 5000, "²", "١٢", "-1", "1.0"])
def test_a_multiple_choice_that_cannot_be_a_key_is_refused_before_the_database(db, value):
    from club.models import Club  # noqa: PLC0415

    multiple = inputs.ModelMultipleChoiceField(queryset=Club.objects.all())
    with pytest.raises(ValidationError) as refused:
        multiple.clean(["1", value])
    assert refused.value.code == "invalid_choice"
