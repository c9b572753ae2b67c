"""Numbers as people type them (engine/digits.py): the digits 0–9 only, never too long to read."""

from __future__ import annotations

from engine.digits import BEYOND, decimal_number, foreign_digit, whole_number


def test_only_the_digits_0_to_9_make_a_number():
    assert whole_number("42") == 42 and whole_number(" 7 ") == 7 and whole_number("-3") == -3
    assert whole_number("007") == 7 and whole_number("0") == 0
    for odd in ("²", "①", "٣", "３", "𝟙", "Ⅳ", "½", "1_000", "+3", "3.0", "1e3", "", "-", " ", "٣٠", "1 2", "--1"):
        assert whole_number(odd) is None, odd


def test_a_number_too_long_to_matter_reads_as_beyond_every_range_without_being_computed():
    # int() refuses more than 4,300 digits (ValueError); these never reach it
    assert whole_number("9" * 100_000) == BEYOND and whole_number("-" + "1" * 5_000) == -BEYOND
    assert whole_number("0" * 5_000 + "12") == 12
    assert decimal_number("9" * 100_000 + ".5") == BEYOND


def test_a_decimal_is_digits_and_perhaps_a_point_never_nan_inf_or_an_exponent():
    assert decimal_number("1.5") == 1.5 and decimal_number("2") == 2.0 and decimal_number("-0.25") == -0.25
    for odd in ("nan", "inf", "-inf", "1e309", "1e3", "١٫٥", "1.", ".5", "1,5", "+1", "1.5.2", "²"):
        assert decimal_number(odd) is None, odd


def test_a_foreign_digit_is_any_numeric_character_outside_ascii_and_nothing_else():
    assert foreign_digit("3:5 c4 d4") is None and foreign_digit("ana on bob") is None
    assert foreign_digit("三郎 and ñ") is None  # letters of names, even those with a numeric value, are not digits
    for text, digit in (("3:²", "²"), ("①", "①"), ("c٤", "٤"), ("１", "１"), ("𝟙", "𝟙"), ("Ⅳ", "Ⅳ"), ("½", "½")):
        assert foreign_digit(text) == digit
