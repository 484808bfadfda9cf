"""Tests for natsort.natsorted with default and simple options."""

import pytest

from natsort import natsorted, ns


def test_version_strings():
    data = ["v1.10", "v1.2", "v1.9", "v1.1", "v10.0"]
    assert natsorted(data) == ["v1.1", "v1.2", "v1.9", "v1.10", "v10.0"]


def test_filenames_with_numbers():
    data = ["img12.png", "img10.png", "img2.png", "img1.png", "IMG3.png"]
    assert natsorted(data) == ["IMG3.png", "img1.png", "img2.png", "img10.png", "img12.png"]


def test_reverse():
    data = ["a2", "a10", "a1", "b1"]
    assert natsorted(data, reverse=True) == ["b1", "a10", "a2", "a1"]


def test_key_function():
    records = [("beta", "x10"), ("alpha", "x9"), ("gamma", "x100")]
    assert natsorted(records, key=lambda r: r[1]) == [
        ("alpha", "x9"), ("beta", "x10"), ("gamma", "x100"),
    ]
    assert natsorted(records, key=lambda r: r[0], reverse=True)[0] == ("gamma", "x100")


def test_mixed_numbers_and_strings():
    data = ["a5", 3, "a2", 1.5, "10", "b"]
    assert natsorted(data) == [1.5, 3, "10", "a2", "a5", "b"]


def test_nested_iterables():
    data = [("a10", "b1"), ("a2", "b20"), ("a2", "b3")]
    assert natsorted(data) == [("a2", "b3"), ("a2", "b20"), ("a10", "b1")]


def test_none_and_nan_ordering():
    nan = float("nan")
    result = natsorted([10, None, 2, nan, 5])
    assert result[0] != result[0]  # nan first
    assert result[1] is None
    assert result[2:] == [2, 5, 10]
    last = natsorted([10, None, 2, nan, 5], alg=ns.NANLAST)
    assert last[:3] == [2, 5, 10]
    assert last[3] is None
    assert last[4] != last[4]


def test_adjacent_numbers_and_leading_digits():
    data = ["1a", "10", "1", "a1", "2b3", "2b"]
    assert natsorted(data) == ["1", "1a", "2b", "2b3", "10", "a1"]


def test_presort_makes_equivalent_order_stable():
    data = ["a01", "a1", "a001"]
    assert natsorted(data) == ["a01", "a1", "a001"]
    assert natsorted(data, alg=ns.PRESORT) == ["a001", "a01", "a1"]


def test_invalid_alg_raises():
    with pytest.raises(TypeError):
        natsorted(["a1"], alg="FLOAT")
    with pytest.raises(TypeError):
        natsorted(["a1", 2, b"x"])
