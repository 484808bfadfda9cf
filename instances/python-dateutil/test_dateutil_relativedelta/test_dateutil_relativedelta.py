"""Tests for dateutil.relativedelta arithmetic, normalization and weekdays."""

import datetime as dt

import pytest
from dateutil.relativedelta import FR, MO, SU, TH, relativedelta


def test_add_relative_months_and_years_clips_day():
    base = dt.date(2020, 1, 31)
    assert base + relativedelta(months=1) == dt.date(2020, 2, 29)
    assert base + relativedelta(months=13) == dt.date(2021, 2, 28)
    assert base + relativedelta(years=1, months=-2) == dt.date(2020, 11, 30)
    assert base - relativedelta(months=2) == dt.date(2019, 11, 30)


def test_absolute_fields_replace():
    base = dt.datetime(2021, 5, 17, 13, 45, 10)
    assert base + relativedelta(year=1999, month=2, day=31) == (
        dt.datetime(1999, 2, 28, 13, 45, 10)
    )
    assert base + relativedelta(hour=0, minute=0, second=0) == dt.datetime(2021, 5, 17)
    assert base + relativedelta(day=1, months=+1, days=-1) == (
        dt.datetime(2021, 5, 31, 13, 45, 10)
    )


def test_weekday_relative():
    base = dt.date(2021, 5, 17)  # a Monday
    assert base + relativedelta(weekday=FR) == dt.date(2021, 5, 21)
    assert base + relativedelta(weekday=MO) == dt.date(2021, 5, 17)
    assert base + relativedelta(weekday=MO(+2)) == dt.date(2021, 5, 24)
    assert base + relativedelta(weekday=SU(-1)) == dt.date(2021, 5, 16)
    # fourth Thursday of November (US Thanksgiving)
    assert dt.date(2021, 1, 1) + relativedelta(month=11, day=1, weekday=TH(4)) == (
        dt.date(2021, 11, 25)
    )


def test_difference_between_datetimes():
    a = dt.datetime(2023, 3, 10, 12, 0)
    b = dt.datetime(2020, 1, 25, 8, 30)
    delta = relativedelta(a, b)
    assert (delta.years, delta.months, delta.days) == (3, 1, 13)
    assert (delta.hours, delta.minutes) == (3, 30)
    back = relativedelta(b, a)
    assert back == relativedelta(years=-3, months=-1, days=-16, hours=-3, minutes=-30)
    assert b + delta == a
    assert a + back == b


def test_normalization_of_large_units():
    rd = relativedelta(hours=50, minutes=125, seconds=3700, microseconds=2_500_000)
    assert rd.days == 2
    assert rd.hours == 5
    assert rd.minutes == 6
    assert rd.seconds == 42
    assert rd.microseconds == 500000
    assert relativedelta(months=27).years == 2
    assert relativedelta(months=27).months == 3


def test_fractional_and_normalized():
    rd = relativedelta(days=1.5, hours=2)
    assert rd.days == 1.5
    assert rd.normalized() == relativedelta(days=1, hours=14)
    norm = relativedelta(days=1.25, hours=1.5).normalized()
    assert norm == relativedelta(days=1, hours=7, minutes=30)
    with pytest.raises(ValueError):
        relativedelta(months=1.5)


def test_weeks_property_and_yearday():
    rd = relativedelta(weeks=3, days=2)
    assert rd.days == 23
    assert rd.weeks == 3
    rd.weeks = 1
    assert rd.days == 9
    assert dt.date(2021, 1, 1) + relativedelta(yearday=60) == dt.date(2021, 3, 1)
    assert dt.date(2020, 1, 1) + relativedelta(nlyearday=60) == dt.date(2020, 3, 1)
    assert dt.date(2020, 1, 1) + relativedelta(yearday=60) == dt.date(2020, 2, 29)


def test_operators():
    a = relativedelta(months=2, days=3)
    b = relativedelta(months=1, days=10, hour=5)
    total = a + b
    assert total.months == 3 and total.days == 13 and total.hour == 5
    diff = a - relativedelta(days=5)
    assert diff == relativedelta(months=2, days=-2)
    assert a * 3 == relativedelta(months=6, days=9)
    assert relativedelta(days=9) / 3 == relativedelta(days=3)
    assert abs(relativedelta(days=-4, hours=-1)) == relativedelta(days=4, hours=1)
    assert not relativedelta()
    assert bool(relativedelta(minute=0))
    assert a + dt.timedelta(days=1, seconds=90) == relativedelta(
        months=2, days=4, minutes=1, seconds=30
    )


def test_invalid_construction():
    with pytest.raises(TypeError):
        relativedelta(dt.date(2020, 1, 1), "x")
    with pytest.raises(ValueError):
        relativedelta(yearday=400)
    with pytest.raises(TypeError):
        relativedelta(days=1) + "nope"


def test_repr_lists_nonzero_fields():
    r = repr(relativedelta(years=1, days=-2, hour=3))
    assert r == "relativedelta(years=+1, days=-2, hour=3)"
