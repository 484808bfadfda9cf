"""Tests for humanize.number: intcomma, intword, ordinal, apnumber, etc."""

import pytest

import humanize


def test_intcomma_integers_and_strings():
    assert humanize.intcomma(7) == "7"
    assert humanize.intcomma(1234) == "1,234"
    assert humanize.intcomma(9876543) == "9,876,543"
    assert humanize.intcomma("1000000") == "1,000,000"
    assert humanize.intcomma(-45000) == "-45,000"


def test_intcomma_floats_and_ndigits():
    assert humanize.intcomma(1234.5) == "1,234.5"
    assert humanize.intcomma(1234.5678, 2) == "1,234.57"
    assert humanize.intcomma("5678.25", 1) == "5,678.2"
    assert humanize.intcomma(10.0, 0) == "10"


def test_intcomma_invalid_and_non_finite():
    assert humanize.intcomma(None) == "None"
    assert humanize.intcomma("abc") == "abc"
    assert humanize.intcomma(float("nan")) == "NaN"
    assert humanize.intcomma("-inf") == "-Inf"


def test_intword_scales():
    assert humanize.intword(999) == "999"
    assert humanize.intword(12400) == "12.4 thousand"
    assert humanize.intword("3500000") == "3.5 million"
    assert humanize.intword(2_000_000_000) == "2.0 billion"
    assert humanize.intword(-7_300_000) == "-7.3 million"
    assert humanize.intword(1_234_567, "%0.3f") == "1.235 million"


def test_intword_rounds_up_to_next_power():
    # 999_999 rounds to 1000.0 thousand, which is bumped to the next unit
    assert humanize.intword(999_999) == "1.0 million"
    assert humanize.intword(10**100) == "1.0 googol"
    assert humanize.intword("not a number") == "not a number"
    assert humanize.intword(float("inf")) == "+Inf"


def test_ordinal_suffixes():
    results = [humanize.ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 102, 111)]
    assert results == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "102nd", "111th",
    ]
    assert humanize.ordinal("23") == "23rd"
    assert humanize.ordinal("spam") == "spam"
    assert humanize.ordinal(5, gender="female") == "5th"


def test_apnumber():
    assert [humanize.apnumber(n) for n in range(0, 10, 3)] == [
        "zero", "three", "six", "nine",
    ]
    assert humanize.apnumber(10) == "10"
    assert humanize.apnumber(-1) == "-1"
    assert humanize.apnumber("4") == "four"
    assert humanize.apnumber(None) == "None"


def test_fractional():
    assert humanize.fractional(0.25) == "1/4"
    assert humanize.fractional(2.5) == "2 1/2"
    assert humanize.fractional(3) == "3"
    assert humanize.fractional(1 / 3) == "1/3"
    assert humanize.fractional(-1.75) == "-1 3/4"
    assert humanize.fractional("many") == "many"


def test_scientific():
    assert humanize.scientific(500) == "5.00 x 10²"
    assert humanize.scientific(0.004) == "4.00 x 10⁻³"
    assert humanize.scientific(-12345, 1) == "-1.2 x 10⁴"
    assert humanize.scientific("7") == "7.00 x 10⁰"
    assert humanize.scientific("bad") == "bad"


def test_clamp_branches():
    assert humanize.clamp(0.5) == "0.5"
    assert humanize.clamp(0.001, floor=0.01) == "<0.01"
    assert humanize.clamp(0.999, format="{:.0%}", ceil=0.95) == ">95%"
    assert humanize.clamp(5, format=humanize.intword, floor=1e6, floor_token="under ") == (
        "under 1.0 million"
    )
    assert humanize.clamp(None) is None
    with pytest.raises(ValueError, match="Invalid format"):
        humanize.clamp(3, format=42)


def test_metric_prefixes():
    assert humanize.metric(1500, "V") == "1.50 kV"
    assert humanize.metric(2e8, "W") == "200 MW"
    assert humanize.metric(220e-6, "F") == "220 μF"
    assert humanize.metric(0) == "0.00"
    assert humanize.metric(999.9, "m") == "1.00 km"
    assert humanize.metric(1e40) == "1.00 x 10⁴⁰"
