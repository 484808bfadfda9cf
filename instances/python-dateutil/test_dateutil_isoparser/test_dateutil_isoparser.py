"""Tests for dateutil.parser.isoparse and the isoparser class."""

import datetime as dt

import pytest
from dateutil import tz
from dateutil.parser import isoparse, isoparser


def test_isoparse_calendar_dates():
    assert isoparse("2018") == dt.datetime(2018, 1, 1)
    assert isoparse("2018-04") == dt.datetime(2018, 4, 1)
    assert isoparse("2018-04-29") == dt.datetime(2018, 4, 29)
    assert isoparse("20180429") == dt.datetime(2018, 4, 29)


def test_isoparse_week_and_ordinal_dates():
    assert isoparse("2018-W17") == dt.datetime(2018, 4, 23)
    assert isoparse("2018-W17-7") == dt.datetime(2018, 4, 29)
    assert isoparse("2018W177") == dt.datetime(2018, 4, 29)
    assert isoparse("2018-119") == dt.datetime(2018, 4, 29)
    assert isoparse("2020-366") == dt.datetime(2020, 12, 31)


def test_isoparse_times():
    assert isoparse("2018-04-29T17") == dt.datetime(2018, 4, 29, 17)
    assert isoparse("2018-04-29T17:45") == dt.datetime(2018, 4, 29, 17, 45)
    assert isoparse("2018-04-29T174530") == dt.datetime(2018, 4, 29, 17, 45, 30)
    assert isoparse("2018-04-29T17:45:30.123456") == (
        dt.datetime(2018, 4, 29, 17, 45, 30, 123456)
    )
    assert isoparse("2018-04-29T17:45:30,5") == dt.datetime(2018, 4, 29, 17, 45, 30, 500000)


def test_isoparse_midnight_24():
    assert isoparse("2018-04-29T24:00") == dt.datetime(2018, 4, 30, 0, 0)
    with pytest.raises(ValueError):
        isoparse("2018-04-29T24:30")


def test_isoparse_timezones():
    utc = isoparse("2018-04-29T17:45Z")
    assert utc.tzinfo is tz.UTC
    plus = isoparse("2018-04-29T17:45+05:30")
    assert plus.utcoffset() == dt.timedelta(hours=5, minutes=30)
    minus = isoparse("2018-04-29T17:45-0800")
    assert minus.utcoffset() == dt.timedelta(hours=-8)
    zero = isoparse("2018-04-29T17:45+00:00")
    assert zero.utcoffset() == dt.timedelta(0)
    assert isoparse("2018-04-29T17:45-03").utcoffset() == dt.timedelta(hours=-3)


def test_isoparser_parse_isodate_and_isotime():
    parser_ = isoparser()
    assert parser_.parse_isodate("2019-12-31") == dt.date(2019, 12, 31)
    assert parser_.parse_isodate("2019-W01-1") == dt.date(2018, 12, 31)
    assert parser_.parse_isotime("08:15:02") == dt.time(8, 15, 2)
    assert parser_.parse_isotime("0815") == dt.time(8, 15)
    assert parser_.parse_tzstr("+0230") == tz.tzoffset(None, 9000)
    assert parser_.parse_tzstr("Z") is tz.UTC


def test_isoparser_custom_separator():
    parser_ = isoparser(sep=" ")
    assert parser_.isoparse("2018-04-29 17:45") == dt.datetime(2018, 4, 29, 17, 45)
    with pytest.raises(ValueError):
        parser_.isoparse("2018-04-29T17:45")
    with pytest.raises(ValueError):
        isoparser(sep="ab")


def test_isoparse_invalid_strings():
    bad = ["2018-13-01", "2018-04-31", "2018-W54", "201", "2018-04-29T17:45:61",
           "2018-04-29T17:45+25:00"]
    failures = 0
    for text in bad:
        try:
            isoparse(text)
        except ValueError:
            failures += 1
    assert failures == len(bad)


def test_isoparse_bytes_input():
    assert isoparse(b"2021-02-03T04:05:06") == dt.datetime(2021, 2, 3, 4, 5, 6)
    assert isoparse(b"2021-034") == dt.datetime(2021, 2, 3)
