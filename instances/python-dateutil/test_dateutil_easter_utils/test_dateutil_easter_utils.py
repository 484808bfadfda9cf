"""Tests for dateutil.easter and dateutil.utils helpers."""

import datetime as dt

import pytest
from dateutil import easter, tz, utils


def test_western_easter_dates():
    years = [2000, 2008, 2019, 2024, 2038]
    got = [easter.easter(y) for y in years]
    assert got == [
        dt.date(2000, 4, 23), dt.date(2008, 3, 23), dt.date(2019, 4, 21),
        dt.date(2024, 3, 31), dt.date(2038, 4, 25),
    ]


def test_orthodox_and_julian_easter():
    assert easter.easter(2024, easter.EASTER_ORTHODOX) == dt.date(2024, 5, 5)
    assert easter.easter(2021, easter.EASTER_ORTHODOX) == dt.date(2021, 5, 2)
    assert easter.easter(2024, easter.EASTER_JULIAN) == dt.date(2024, 4, 22)


def test_invalid_easter_method():
    with pytest.raises(ValueError):
        easter.easter(2024, 4)
    with pytest.raises(ValueError):
        easter.easter(2024, 0)


def test_easter_sequence_loop():
    count_april = 0
    for year in range(2010, 2020):
        if easter.easter(year).month == 4:
            count_april += 1
    assert count_april == 8


def test_default_tzinfo():
    plus1 = tz.tzoffset("P1", 3600)
    naive = dt.datetime(2022, 1, 1, 8)
    aware = dt.datetime(2022, 1, 1, 8, tzinfo=tz.UTC)
    assert utils.default_tzinfo(naive, plus1).tzinfo is plus1
    assert utils.default_tzinfo(aware, plus1).tzinfo is tz.UTC


def test_within_delta():
    a = dt.datetime(2022, 1, 1, 8, 0, 0)
    b = dt.datetime(2022, 1, 1, 8, 0, 5)
    assert utils.within_delta(a, b, dt.timedelta(seconds=10))
    assert not utils.within_delta(a, b, dt.timedelta(seconds=2))
    assert utils.within_delta(b, a, dt.timedelta(seconds=-5))
