"""Tests for boltons.statsutils.Stats and helpers."""

import pytest

from boltons.statsutils import Stats, describe, format_histogram_counts, mean, median


DATA = [1, 2, 2, 3, 4, 5, 5, 5, 9, 14]


def test_basic_moments():
    s = Stats(DATA)
    assert s.count == 10
    assert s.mean == 5.0
    assert s.median == 4.5
    assert s.min == 1 and s.max == 14
    assert s.variance == pytest.approx(13.6)
    assert s.std_dev == pytest.approx(13.6 ** 0.5)


def test_module_level_shortcuts():
    assert mean([1, 2, 3, 4]) == 2.5
    assert median([5, 1, 3]) == 3
    assert median([4, 1, 3, 2]) == 2.5


def test_quantiles_and_iqr():
    s = Stats(list(range(1, 10)))
    assert s.get_quantile(0.5) == 5
    assert s.get_quantile(0.25) == 3
    assert s.get_quantile(0.75) == 7
    assert s.iqr == 4
    assert s.trimean == 5.0
    with pytest.raises(ValueError):
        s.get_quantile(1.5)


def test_mad_and_zscore():
    s = Stats(DATA)
    assert s.median_abs_dev == 2.0
    assert s.get_zscore(5) == 0.0
    assert s.get_zscore(1) == pytest.approx(-4 / 13.6 ** 0.5)


def test_trim_relative():
    s = Stats(list(range(10)))
    s.trim_relative(0.2)
    assert s.count == 6
    assert s.min == 2 and s.max == 7
    assert s.mean == 4.5


def test_histogram_counts():
    s = Stats(DATA)
    counts = s.get_histogram_counts(bins=[0, 5, 10])
    assert counts == [(0.0, 5), (5.0, 4), (10.0, 1)]
    auto = s.get_histogram_counts(bins=3)
    assert auto == [(1.0, 8), (5.3, 1), (9.6, 1)]


def test_format_histogram():
    s = Stats(DATA)
    text = s.format_histogram(bins=[0, 5, 10], width=30)
    lines = text.splitlines()
    assert [line.split(":")[0].strip() for line in lines] == ["0.0", "5.0", "10.0"]
    assert [line.count("#") for line in lines] == [21, 17, 4]
    raw = format_histogram_counts([(0, 2), (10, 4)], width=20)
    assert raw == " 0: 2 ######\n10: 4 #############"


def test_describe_and_empty():
    summary = describe([3, 1, 2])
    assert summary["count"] == 3
    assert summary["mean"] == 2.0
    assert summary["min"] == 1 and summary["max"] == 3
    empty = Stats([])
    assert empty.mean == 0.0
    assert empty.count == 0


def test_default_and_clear_cache():
    s = Stats([1, 2, 3])
    assert s.mean == 2.0
    s.data.append(10)
    assert s.mean == 2.0  # cached
    s.clear_cache()
    assert s.mean == 4.0
    assert Stats([], default=-1).mean == -1
