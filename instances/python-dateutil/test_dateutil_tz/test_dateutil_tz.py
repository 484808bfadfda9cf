"""Tests for dateutil.tz classes that need no system zoneinfo files."""

import datetime as dt

import pytest
from dateutil import tz


def test_tzoffset_and_utc():
    plus2 = tz.tzoffset("PLUS2", 7200)
    d = dt.datetime(2020, 5, 1, 12, 0, tzinfo=plus2)
    assert d.utcoffset() == dt.timedelta(hours=2)
    assert d.tzname() == "PLUS2"
    assert d.astimezone(tz.UTC) == dt.datetime(2020, 5, 1, 10, 0, tzinfo=tz.UTC)
    assert tz.tzoffset(None, 0) == tz.UTC
    assert tz.tzoffset("A", dt.timedelta(hours=-3)).utcoffset(None) == dt.timedelta(hours=-3)
    assert tz.tzutc() is tz.UTC


def test_tzstr_dst_rules():
    eastern = tz.tzstr("EST5EDT,M3.2.0,M11.1.0")
    winter = dt.datetime(2021, 1, 15, 12, tzinfo=eastern)
    summer = dt.datetime(2021, 7, 15, 12, tzinfo=eastern)
    assert winter.utcoffset() == dt.timedelta(hours=-5)
    assert summer.utcoffset() == dt.timedelta(hours=-4)
    assert winter.tzname() == "EST"
    assert summer.tzname() == "EDT"
    assert summer.dst() == dt.timedelta(hours=1)


def test_tzstr_default_rules_and_no_dst():
    implicit = tz.tzstr("EST5EDT")
    assert dt.datetime(2021, 7, 1, tzinfo=implicit).tzname() == "EDT"
    fixed = tz.tzstr("JST-9")
    assert dt.datetime(2021, 7, 1, tzinfo=fixed).utcoffset() == dt.timedelta(hours=9)
    assert dt.datetime(2021, 7, 1, tzinfo=fixed).dst() == dt.timedelta(0)
    with pytest.raises(ValueError, match="unknown string format"):
        tz.tzstr("EST5EDT,M3.2.0")
    with pytest.raises(ValueError):
        tz.tzstr("5")


def test_tzstr_explicit_rule_forms():
    offsets = []
    for text in ("EST+5EDT+4,M4.1.0/2,M10.5.0/2", "EST5EDT4,95/02:00:00,298/02:00"):
        zone = tz.tzstr(text)
        offsets.append([
            dt.datetime(2021, month, 1, tzinfo=zone).utcoffset().total_seconds() / 3600
            for month in (1, 4, 7, 11)
        ])
    assert offsets == [[-5.0, -5.0, -4.0, -5.0], [-5.0, -5.0, -4.0, -5.0]]
    assert dt.datetime(2021, 7, 1, tzinfo=tz.tzstr("UTC+3")).utcoffset() == (
        dt.timedelta(hours=3)
    )
    assert dt.datetime(2021, 7, 1, tzinfo=tz.tzstr("GMT-3")).utcoffset() == (
        dt.timedelta(hours=-3)
    )


def test_tzrange_transitions():
    cet = tz.tzrange("CET", 3600, "CEST")
    assert dt.datetime(2021, 2, 1, tzinfo=cet).utcoffset() == dt.timedelta(hours=1)
    assert dt.datetime(2021, 8, 1, tzinfo=cet).utcoffset() == dt.timedelta(hours=2)
    start, end = cet.transitions(2021)
    assert start < end
    assert start.month == 4 and end.month == 10


def test_ambiguous_and_imaginary_times():
    eastern = tz.tzstr("EST5EDT,M3.2.0,M11.1.0")
    fall_back = dt.datetime(2021, 11, 7, 1, 30)
    assert tz.datetime_ambiguous(fall_back, eastern)
    assert not tz.datetime_ambiguous(dt.datetime(2021, 11, 7, 3, 30), eastern)
    first = fall_back.replace(tzinfo=eastern)
    second = tz.enfold(first, fold=1)
    assert first.utcoffset() == dt.timedelta(hours=-4)
    assert second.utcoffset() == dt.timedelta(hours=-5)
    spring = dt.datetime(2021, 3, 14, 2, 30, tzinfo=eastern)
    assert not tz.datetime_exists(spring)
    assert tz.resolve_imaginary(spring) == dt.datetime(2021, 3, 14, 3, 30, tzinfo=eastern)


def test_fromutc_conversion():
    eastern = tz.tzstr("EST5EDT,M3.2.0,M11.1.0")
    times = [dt.datetime(2021, 11, 7, h, 0, tzinfo=tz.UTC) for h in range(4, 8)]
    local = [t.astimezone(eastern) for t in times]
    assert [(t.hour, t.utcoffset().total_seconds() / 3600) for t in local] == [
        (0, -4.0), (1, -4.0), (1, -5.0), (2, -5.0),
    ]


def test_tzical_from_string():
    import io

    ics = "\r\n".join([
        "BEGIN:VTIMEZONE",
        "TZID:Test/Zone",
        "BEGIN:STANDARD",
        "DTSTART:19701025T030000",
        "RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU",
        "TZOFFSETFROM:+0200",
        "TZOFFSETTO:+0100",
        "TZNAME:TST",
        "END:STANDARD",
        "BEGIN:DAYLIGHT",
        "DTSTART:19700329T020000",
        "RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU",
        "TZOFFSETFROM:+0100",
        "TZOFFSETTO:+0200",
        "TZNAME:TDT",
        "END:DAYLIGHT",
        "END:VTIMEZONE",
        "",
    ])
    cal = tz.tzical(io.StringIO(ics))
    assert cal.keys() == ["Test/Zone"]
    zone = cal.get()
    assert dt.datetime(2021, 1, 10, tzinfo=zone).utcoffset() == dt.timedelta(hours=1)
    assert dt.datetime(2021, 7, 10, tzinfo=zone).utcoffset() == dt.timedelta(hours=2)
    assert dt.datetime(2021, 7, 10, tzinfo=zone).tzname() == "TDT"


def test_tz_comparisons_and_repr():
    assert tz.tzoffset("X", 3600) == tz.tzoffset("Y", 3600)
    assert tz.tzoffset("X", 3600) != tz.tzoffset("X", 7200)
    assert repr(tz.tzoffset("X", 3600)) == "tzoffset('X', 3600)"
    assert tz.tzstr("EST5EDT") == tz.tzstr("EST5EDT")
    assert repr(tz.UTC) == "tzutc()"
