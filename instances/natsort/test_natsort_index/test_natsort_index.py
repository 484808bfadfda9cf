"""Tests for index_natsorted, index_realsorted and order_by_index."""

import pytest

from natsort import index_natsorted, index_realsorted, ns, order_by_index


def test_index_natsorted_basic():
    data = ["num3", "num5", "num2", "num10"]
    assert index_natsorted(data) == [2, 0, 1, 3]


def test_order_by_index_applies_to_parallel_lists():
    names = ["num3", "num5", "num2", "num10"]
    values = ["c", "e", "b", "j"]
    idx = index_natsorted(names)
    assert order_by_index(names, idx) == ["num2", "num3", "num5", "num10"]
    assert order_by_index(values, idx) == ["b", "c", "e", "j"]


def test_order_by_index_iterator():
    it = order_by_index(["a", "b", "c"], [2, 0, 1], iter=True)
    assert not isinstance(it, list)
    assert list(it) == ["c", "a", "b"]


def test_index_natsorted_reverse_and_key():
    data = [("x", "v2"), ("y", "v10"), ("z", "v1")]
    assert index_natsorted(data, key=lambda t: t[1]) == [2, 0, 1]
    assert index_natsorted(data, key=lambda t: t[1], reverse=True) == [1, 0, 2]


def test_index_realsorted():
    data = ["a-1.5", "a2", "a-10", "a0.25"]
    assert index_realsorted(data) == [2, 0, 3, 1]
    assert index_natsorted(data) == [3, 1, 0, 2]


def test_index_with_algorithm_flags():
    data = ["B2", "a10", "A1", "b1"]
    assert index_natsorted(data, alg=ns.IGNORECASE) == [2, 1, 3, 0]
    assert index_natsorted(data) == [2, 0, 1, 3]


def test_index_natsorted_empty_and_single():
    assert index_natsorted([]) == []
    assert index_natsorted(["only1"]) == [0]


def test_order_by_index_bad_index():
    with pytest.raises(IndexError):
        order_by_index(["a", "b"], [0, 5])
