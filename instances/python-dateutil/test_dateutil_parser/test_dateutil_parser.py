"""Tests for dateutil.parser.parse (always with an explicit default datetime)."""

import datetime as dt

import pytest
from dateutil import parser, tz

DEFAULT = dt.datetime(2020, 6, 15, 0, 0, 0)


def p(text, **kwargs):
    kwargs.setdefault("default", DEFAULT)
    return parser.parse(text, **kwargs)


def test_parse_iso_like_strings():
    assert p("2003-09-25T10:49:41") == dt.datetime(2003, 9, 25, 10, 49, 41)
    assert p("2003-09-25 10:49") == dt.datetime(2003, 9, 25, 10, 49)
    assert p("20030925T104941") == dt.datetime(2003, 9, 25, 10, 49, 41)
    assert p("20030925") == dt.datetime(2003, 9, 25)
    assert p("10:49:41.502") == dt.datetime(2020, 6, 15, 10, 49, 41, 502000)


def test_parse_month_names_and_weekdays():
    assert p("Thu Sep 25 10:36:28 2003") == dt.datetime(2003, 9, 25, 10, 36, 28)
    assert p("September 25, 2003") == dt.datetime(2003, 9, 25)
    assert p("25 Sep 2003") == dt.datetime(2003, 9, 25)
    assert p("Sep-25-2003") == dt.datetime(2003, 9, 25)
    assert p("March of 2011") == dt.datetime(2011, 3, 15)


def test_parse_fills_missing_fields_from_default():
    assert p("Sep 2003") == dt.datetime(2003, 9, 15)
    assert p("10 am") == dt.datetime(2020, 6, 15, 10, 0)
    assert p("2011") == dt.datetime(2011, 6, 15)
    assert p("5:30pm") == dt.datetime(2020, 6, 15, 17, 30)
    assert p("12am") == dt.datetime(2020, 6, 15, 0, 0)


def test_parse_dayfirst_and_yearfirst():
    assert p("01/05/2009") == dt.datetime(2009, 1, 5)
    assert p("01/05/2009", dayfirst=True) == dt.datetime(2009, 5, 1)
    assert p("2009/01/05") == dt.datetime(2009, 1, 5)
    assert p("2009.05.01", yearfirst=True, dayfirst=True) == dt.datetime(2009, 1, 5)
    assert p("13/02/2010") == dt.datetime(2010, 2, 13)


def test_parse_hms_labels():
    assert p("10h36m28s") == dt.datetime(2020, 6, 15, 10, 36, 28)
    assert p("10h 36m") == dt.datetime(2020, 6, 15, 10, 36)
    assert p("2003-09-25 10h 5m") == dt.datetime(2003, 9, 25, 10, 5)
    assert p("12 h 30 m 15 s") == dt.datetime(2020, 6, 15, 12, 30, 15)
    assert p("3 hours") == dt.datetime(2020, 6, 15, 3, 0)
    assert p("1.5h") == dt.datetime(2020, 6, 15, 1, 30)


def test_parse_numeric_offsets():
    r1 = p("2003-09-25 10:49:41 +0300")
    assert r1.utcoffset() == dt.timedelta(hours=3)
    r2 = p("2003-09-25 10:49:41 -05:30")
    assert r2.utcoffset() == dt.timedelta(hours=-5, minutes=-30)
    # "Z" is normalised to the name "UTC"; map it explicitly so the result
    # does not depend on the host timezone.
    r3 = p("2003-09-25T10:49:41Z", tzinfos={"UTC": tz.UTC})
    assert r3.tzinfo is tz.UTC
    r4 = p("2003-09-25 10:49:41 +0300", ignoretz=True)
    assert r4.tzinfo is None


def test_parse_with_tzinfos():
    tzinfos = {"BRST": -7200, "XYZ": tz.tzoffset("XYZ", 3600)}
    a = p("2012-01-19 17:21:00 BRST", tzinfos=tzinfos)
    assert a.utcoffset() == dt.timedelta(hours=-2)
    assert a.tzname() == "BRST"
    b = p("2012-01-19 17:21 XYZ", tzinfos=tzinfos)
    assert b.utcoffset() == dt.timedelta(hours=1)

    def lookup(name, offset):
        return tz.tzoffset(name, 4 * 3600)

    c = p("2012-01-19 17:21 ABC", tzinfos=lookup)
    assert c.utcoffset() == dt.timedelta(hours=4)


def test_parse_fuzzy_and_fuzzy_with_tokens():
    text = "Today is 25 of September of 2003, exactly at 10:49:41 with timezone -03:00."
    got = p(text, fuzzy=True)
    assert got.replace(tzinfo=None) == dt.datetime(2003, 9, 25, 10, 49, 41)
    assert got.utcoffset() == dt.timedelta(hours=-3)
    res, tokens = p("Meet me on Jan 3 2021 at noonish", fuzzy_with_tokens=True)
    assert res == dt.datetime(2021, 1, 3)
    assert tokens == ("Meet me on ", " ", "at noonish")


def test_parse_errors_escape():
    with pytest.raises(parser.ParserError):
        p("not a date at all")
    with pytest.raises(parser.ParserError):
        p("")
    with pytest.raises(parser.ParserError, match="day is out of range"):
        p("2003-02-30")
    with pytest.raises(TypeError):
        parser.parse(20030925, default=DEFAULT)
    with pytest.raises(parser.ParserError, match="hour must be in"):
        p("2003-09-25 25:00")
    with pytest.raises(ValueError):
        p("Sep 2003 foo")


def test_parse_ampm_ordinals_and_jump_words():
    assert p("12:15 pm") == dt.datetime(2020, 6, 15, 12, 15)
    assert p("12:15 am") == dt.datetime(2020, 6, 15, 0, 15)
    assert p("Tuesday, 2 Feb 2010 at 8 a.m.") == dt.datetime(2010, 2, 2, 8, 0)
    assert p("3rd of May 2001") == dt.datetime(2001, 5, 3)
    assert p("1999-12-31 23:59:59.999999") == dt.datetime(1999, 12, 31, 23, 59, 59, 999999)
    # a lone weekday moves forward from the default date (a Monday)
    assert p("Wed") == dt.datetime(2020, 6, 17)
    with pytest.raises(parser.ParserError):
        p("June 5 2010 noon")
    assert p("June 5 2010 noon", fuzzy=True) == dt.datetime(2010, 6, 5)
