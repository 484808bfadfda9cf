"""Tests for dateutil.rrule: rrule, rruleset and rrulestr (explicit dtstart)."""

import datetime as dt

import pytest
from dateutil import rrule as rr
from dateutil.rrule import (
    DAILY, FR, HOURLY, MO, MONTHLY, TU, WE, WEEKLY, YEARLY, rrule, rruleset, rrulestr,
)

START = dt.datetime(2021, 1, 1, 9, 0)


def test_daily_count_and_interval():
    days = list(rrule(DAILY, count=4, dtstart=START))
    assert [d.day for d in days] == [1, 2, 3, 4]
    every_third = list(rrule(DAILY, interval=3, count=4, dtstart=START))
    assert [d.day for d in every_third] == [1, 4, 7, 10]


def test_weekly_byweekday_until():
    r = rrule(WEEKLY, byweekday=(MO, WE, FR), dtstart=START,
              until=dt.datetime(2021, 1, 13, 23, 0))
    assert [d.day for d in r] == [1, 4, 6, 8, 11, 13]
    assert r.count() == 6


def test_monthly_bymonthday_and_negative():
    last_days = list(rrule(MONTHLY, bymonthday=-1, count=4, dtstart=START))
    assert [(d.month, d.day) for d in last_days] == [(1, 31), (2, 28), (3, 31), (4, 30)]
    thirtyfirsts = list(rrule(MONTHLY, bymonthday=31, count=3, dtstart=START))
    assert [d.month for d in thirtyfirsts] == [1, 3, 5]


def test_monthly_nth_weekday_and_bysetpos():
    second_tuesdays = list(rrule(MONTHLY, byweekday=TU(2), count=3, dtstart=START))
    assert [d.date() for d in second_tuesdays] == [
        dt.date(2021, 1, 12), dt.date(2021, 2, 9), dt.date(2021, 3, 9),
    ]
    last_workday = list(rrule(MONTHLY, byweekday=(MO, TU, WE, rr.TH, FR), bysetpos=-1,
                              count=3, dtstart=START))
    assert [d.day for d in last_workday] == [29, 26, 31]


def test_yearly_byyearday_byweekno_byeaster():
    r = list(rrule(YEARLY, byyearday=(1, 100, -1), count=3, dtstart=START))
    assert [d.date() for d in r] == [
        dt.date(2021, 1, 1), dt.date(2021, 4, 10), dt.date(2021, 12, 31),
    ]
    wk = list(rrule(YEARLY, byweekno=20, byweekday=MO, count=2, dtstart=START))
    assert [d.date() for d in wk] == [dt.date(2021, 5, 17), dt.date(2022, 5, 16)]
    easter = list(rrule(YEARLY, byeaster=0, count=3, dtstart=START))
    assert [d.date() for d in easter] == [
        dt.date(2021, 4, 4), dt.date(2022, 4, 17), dt.date(2023, 4, 9),
    ]


def test_hourly_byhour_and_query_methods():
    r = rrule(HOURLY, byhour=(9, 12, 15), dtstart=START, count=7)
    items = list(r)
    assert [(d.day, d.hour) for d in items] == [
        (1, 9), (1, 12), (1, 15), (2, 9), (2, 12), (2, 15), (3, 9),
    ]
    assert r.after(dt.datetime(2021, 1, 1, 12)) == dt.datetime(2021, 1, 1, 15)
    assert r.after(dt.datetime(2021, 1, 1, 12), inc=True) == dt.datetime(2021, 1, 1, 12)
    assert r.before(dt.datetime(2021, 1, 2, 10)) == dt.datetime(2021, 1, 2, 9)
    between = r.between(dt.datetime(2021, 1, 1, 10), dt.datetime(2021, 1, 2, 13))
    assert len(between) == 4
    assert r[2] == dt.datetime(2021, 1, 1, 15)
    assert r[-1] == dt.datetime(2021, 1, 3, 9)
    assert dt.datetime(2021, 1, 2, 12) in r


def test_rruleset_with_exdate_and_exrule():
    s = rruleset()
    s.rrule(rrule(DAILY, count=10, dtstart=START))
    s.exrule(rrule(WEEKLY, byweekday=(rr.SA, rr.SU), dtstart=START, count=10))
    s.exdate(dt.datetime(2021, 1, 5, 9, 0))
    s.rdate(dt.datetime(2021, 1, 20, 9, 0))
    assert [d.day for d in s] == [1, 4, 6, 7, 8, 20]


def test_rrulestr_parsing():
    # Only rule parts are given as text; dtstart is passed explicitly so the
    # embedded date parser never needs a wall-clock default.
    r = rrulestr("FREQ=WEEKLY;INTERVAL=2;COUNT=3;BYDAY=TU,TH", dtstart=START)
    # the first week (Dec 28 - Jan 3) has no TU/TH on or after dtstart
    assert [d.day for d in r] == [12, 14, 26]
    r2 = rrulestr("FREQ=YEARLY;BYMONTH=2,8;BYMONTHDAY=10;COUNT=4", dtstart=START)
    assert [(d.year, d.month) for d in r2] == [(2021, 2), (2021, 8), (2022, 2), (2022, 8)]
    r3 = rrulestr("RRULE:FREQ=MONTHLY;BYDAY=-1FR;COUNT=3", dtstart=START)
    assert [d.day for d in r3] == [29, 26, 26]


def test_rrulestr_forceset_with_exrule():
    text = "RRULE:FREQ=DAILY;COUNT=6\nEXRULE:FREQ=DAILY;INTERVAL=2;COUNT=2"
    s = rrulestr(text, dtstart=START, forceset=True)
    assert isinstance(s, rruleset)
    assert [d.day for d in s] == [2, 4, 5, 6]
    multi = rrulestr("RRULE:FREQ=WEEKLY;COUNT=2\nRRULE:FREQ=MONTHLY;COUNT=2",
                     dtstart=START)
    assert [d.date() for d in multi] == [
        dt.date(2021, 1, 1), dt.date(2021, 1, 8), dt.date(2021, 2, 1),
    ]


def test_rrule_str_and_replace():
    r = rrule(WEEKLY, count=2, byweekday=(MO, FR), dtstart=START)
    text = str(r)
    assert "FREQ=WEEKLY" in text
    assert "COUNT=2" in text
    assert "BYDAY=MO,FR" in text
    r2 = r.replace(count=4)
    assert [d.day for d in r2] == [1, 4, 8, 11]


def test_rrule_invalid_arguments():
    with pytest.raises(ValueError):
        rrulestr("FREQ=SOMETIMES;COUNT=2", dtstart=START)
    with pytest.raises(ValueError):
        rrulestr("FREQ=DAILY;BOGUS=1", dtstart=START)
    with pytest.raises(ValueError):
        rrule(DAILY, dtstart=START, bysetpos=0)
