"""Tests for humanize.time.precisedelta and its unit helpers.

precisedelta internally asks humanize.time._now() for a reference instant; it
is pinned to a fixed datetime so traces do not depend on the wall clock.
"""

import datetime as dt

import pytest

import humanize
import humanize.time as htime

FIXED_NOW = dt.datetime(2024, 1, 1, 0, 0, 0)


@pytest.fixture(autouse=True)
def _fixed_now(monkeypatch):
    monkeypatch.setattr(htime, "_now", lambda: FIXED_NOW)


def test_precisedelta_mixed_units():
    delta = dt.timedelta(days=2, seconds=3633, microseconds=123000)
    assert humanize.precisedelta(delta) == "2 days, 1 hour and 33.12 seconds"
    assert humanize.precisedelta(delta, format="%0.4f") == (
        "2 days, 1 hour and 33.1230 seconds"
    )


def test_precisedelta_microsecond_resolution():
    delta = dt.timedelta(seconds=5, microseconds=7250)
    assert humanize.precisedelta(delta, minimum_unit="microseconds") == (
        "5 seconds, 7 milliseconds and 250 microseconds"
    )
    assert humanize.precisedelta(delta, minimum_unit="milliseconds") == (
        "5 seconds and 7.25 milliseconds"
    )


def test_precisedelta_suppress_units():
    delta = dt.timedelta(days=2, hours=1, minutes=30)
    assert humanize.precisedelta(delta, suppress=["days"]) == "49 hours and 30 minutes"
    assert humanize.precisedelta(delta, suppress=["days", "hours"]) == "2970 minutes"
    short = dt.timedelta(seconds=90, microseconds=100)
    assert humanize.precisedelta(
        short, suppress=["seconds", "milliseconds", "microseconds"]
    ) == "1.50 minutes"


def test_precisedelta_minimum_unit_larger_than_value():
    assert humanize.precisedelta(dt.timedelta(seconds=1), minimum_unit="minutes") == (
        "0.02 minutes"
    )
    assert humanize.precisedelta(dt.timedelta(seconds=0.1), minimum_unit="minutes") == (
        "0 minutes"
    )
    assert humanize.precisedelta(dt.timedelta(hours=36), minimum_unit="days") == (
        "1.50 days"
    )


def test_precisedelta_years_and_months():
    delta = dt.timedelta(days=365 * 2 + 62)
    assert humanize.precisedelta(delta) == "2 years, 2 months and 1 day"
    assert humanize.precisedelta(delta, minimum_unit="years", format="%0.1f") == (
        "2.2 years"
    )
    assert humanize.precisedelta(dt.timedelta(days=400), suppress=["months"]) == (
        "1 year and 35 days"
    )


def test_precisedelta_numbers_and_rounding_promotion():
    assert humanize.precisedelta(3725) == "1 hour, 2 minutes and 5 seconds"
    assert humanize.precisedelta(59.999) == "1 minute"
    assert humanize.precisedelta(7200, minimum_unit="hours", format="%d") == "2 hours"


def test_precisedelta_invalid_inputs():
    assert humanize.precisedelta(None) == "None"
    assert humanize.precisedelta("soon") == "soon"
    with pytest.raises(ValueError, match="no suitable replacement"):
        humanize.precisedelta(
            dt.timedelta(days=1),
            minimum_unit="months",
            suppress=["months", "years"],
        )


def test_unit_helpers():
    Unit = htime.Unit
    assert htime._suitable_minimum_unit(Unit.HOURS, []) is Unit.HOURS
    assert htime._suitable_minimum_unit(Unit.HOURS, [Unit.HOURS, Unit.DAYS]) is (
        Unit.MONTHS
    )
    lowered = htime._suppress_lower_units(Unit.MINUTES, [Unit.YEARS])
    assert sorted(u.name for u in lowered) == sorted(
        ["MICROSECONDS", "MILLISECONDS", "SECONDS", "YEARS"]
    )
    assert htime._quotient_and_remainder(100, 24, Unit.DAYS, Unit.HOURS, [], "%0.2f") == (
        4, 4,
    )
