"""Tests for humanize.time.naturaldelta and naturaltime (explicit `when` only)."""

import datetime as dt

import pytest

import humanize

WHEN = dt.datetime(2024, 3, 15, 12, 0, 0)


def test_naturaldelta_seconds_minutes_hours():
    td = dt.timedelta
    assert humanize.naturaldelta(td(seconds=0)) == "a moment"
    assert humanize.naturaldelta(td(seconds=1)) == "a second"
    assert humanize.naturaldelta(td(seconds=30)) == "30 seconds"
    assert humanize.naturaldelta(td(seconds=90)) == "2 minutes"
    assert humanize.naturaldelta(td(minutes=59, seconds=50)) == "an hour"
    assert humanize.naturaldelta(td(hours=5)) == "5 hours"
    assert humanize.naturaldelta(td(hours=23, minutes=40)) == "a day"


def test_naturaldelta_days_months_years():
    td = dt.timedelta
    assert humanize.naturaldelta(td(days=1)) == "a day"
    assert humanize.naturaldelta(td(days=9)) == "9 days"
    assert humanize.naturaldelta(td(days=35)) == "a month"
    assert humanize.naturaldelta(td(days=100)) == "3 months"
    assert humanize.naturaldelta(td(days=100), months=False) == "100 days"
    assert humanize.naturaldelta(td(days=363)) == "a year"


def test_naturaldelta_more_than_a_year():
    td = dt.timedelta
    assert humanize.naturaldelta(td(days=365)) == "a year"
    assert humanize.naturaldelta(td(days=370)) == "1 year, 5 days"
    assert humanize.naturaldelta(td(days=400)) == "1 year, 1 month"
    assert humanize.naturaldelta(td(days=500)) == "1 year, 4 months"
    assert humanize.naturaldelta(td(days=500), months=False) == "1 year, 135 days"
    assert humanize.naturaldelta(td(days=365 * 1500)) == "1,500 years"


def test_naturaldelta_numeric_and_invalid():
    assert humanize.naturaldelta(45) == "45 seconds"
    assert humanize.naturaldelta(-7200) == "2 hours"
    assert humanize.naturaldelta("bogus") == "bogus"
    assert humanize.naturaldelta(float("nan")) == "nan"


def test_naturaldelta_sub_second_units():
    td = dt.timedelta
    assert humanize.naturaldelta(td(microseconds=400), minimum_unit="microseconds") == (
        "400 microseconds"
    )
    assert humanize.naturaldelta(td(microseconds=4000), minimum_unit="microseconds") == (
        "4 milliseconds"
    )
    assert humanize.naturaldelta(td(microseconds=2500), minimum_unit="milliseconds") == (
        "2 milliseconds"
    )
    assert humanize.naturaldelta(td(microseconds=2500)) == "a moment"


def test_naturaldelta_bad_minimum_unit():
    with pytest.raises(ValueError, match="not supported"):
        humanize.naturaldelta(dt.timedelta(hours=1), minimum_unit="hours")
    with pytest.raises(KeyError):
        humanize.naturaldelta(dt.timedelta(hours=1), minimum_unit="fortnights")


def test_naturaltime_past_datetimes():
    assert humanize.naturaltime(WHEN - dt.timedelta(seconds=10), when=WHEN) == (
        "10 seconds ago"
    )
    assert humanize.naturaltime(WHEN - dt.timedelta(minutes=3), when=WHEN) == (
        "3 minutes ago"
    )
    assert humanize.naturaltime(WHEN - dt.timedelta(days=2), when=WHEN) == "2 days ago"
    assert humanize.naturaltime(WHEN, when=WHEN) == "now"


def test_naturaltime_numbers_and_timedeltas():
    assert humanize.naturaltime(30, when=WHEN) == "30 seconds ago"
    assert humanize.naturaltime(30, future=True, when=WHEN) == "30 seconds from now"
    assert humanize.naturaltime(dt.timedelta(hours=4), when=WHEN) == "4 hours ago"
    assert humanize.naturaltime(3600 * 24 * 60, when=WHEN) == "2 months ago"
    assert humanize.naturaltime("later", when=WHEN) == "later"


def test_naturaltime_minimum_unit_and_months_flag():
    value = WHEN - dt.timedelta(milliseconds=250)
    assert humanize.naturaltime(value, minimum_unit="milliseconds", when=WHEN) == (
        "250 milliseconds ago"
    )
    old = WHEN - dt.timedelta(days=45)
    assert humanize.naturaltime(old, when=WHEN) == "a month ago"
    assert humanize.naturaltime(old, months=False, when=WHEN) == "45 days ago"
