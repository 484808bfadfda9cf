"""Tests for boltons.iterutils iteration helpers and remap."""

import pytest

from boltons import iterutils as iu


def test_chunked_and_chunk_ranges():
    assert iu.chunked(range(10), 3) == [[0, 1, 2], [3, 4, 5], [6, 7, 8], [9]]
    assert iu.chunked(range(10), 3, fill=None) == [
        [0, 1, 2], [3, 4, 5], [6, 7, 8], [9, None, None],
    ]
    assert iu.chunked("abcdefg", 2, count=2) == ["ab", "cd"]
    assert list(iu.chunk_ranges(input_size=10, chunk_size=4)) == [(0, 4), (4, 8), (8, 10)]
    assert list(iu.chunk_ranges(input_size=10, chunk_size=4, overlap_size=1)) == [
        (0, 4), (3, 7), (6, 10),
    ]
    with pytest.raises(ValueError):
        iu.chunked([1, 2], 0)


def test_windowed_and_pairwise():
    assert iu.windowed(range(5), 3) == [(0, 1, 2), (1, 2, 3), (2, 3, 4)]
    assert iu.windowed(range(3), 2, fill=None) == [(0, 1), (1, 2), (2, None)]
    assert iu.pairwise([1, 2, 3, 4]) == [(1, 2), (2, 3), (3, 4)]
    assert iu.pairwise([1, 2], end="x") == [(1, 2), (2, "x")]


def test_split_and_strip():
    assert iu.split(["hi", "hello", None, None, "sup", None]) == [["hi", "hello"], ["sup"]]
    assert iu.split([1, 2, 0, 3, 0, 4], sep=0) == [[1, 2], [3], [4]]
    assert iu.split([1, 2, 0, 3, 0, 4], sep=0, maxsplit=1) == [[1, 2], [3, 0, 4]]
    assert iu.split("a1b2c", sep=str.isdigit) == [["a"], ["b"], ["c"]]
    assert iu.strip([0, 0, 1, 2, 0, 3, 0], 0) == [1, 2, 0, 3]
    assert iu.lstrip("aabca", "a") == ["b", "c", "a"]
    assert iu.rstrip([1, 2, None, None]) == [1, 2]


def test_frange_and_backoff():
    assert iu.frange(5) == [0.0, 1.0, 2.0, 3.0, 4.0]
    assert iu.frange(1, 2, 0.25) == [1.0, 1.25, 1.5, 1.75]
    assert iu.backoff(1, 16) == [1.0, 2.0, 4.0, 8.0, 16.0]
    assert iu.backoff(1, 10, count=6) == [1.0, 2.0, 4.0, 8.0, 10.0, 10.0]
    assert iu.backoff(2, 100, factor=3) == [2.0, 6.0, 18.0, 54.0, 100.0]
    with pytest.raises(ValueError):
        iu.backoff(5, 1)


def test_bucketize_partition_unique_redundant():
    assert iu.bucketize(range(7), key=lambda x: x % 3) == {0: [0, 3, 6], 1: [1, 4], 2: [2, 5]}
    assert iu.bucketize(["a", "bb", "cc", "d"], key=len, value_transform=str.upper) == {
        1: ["A", "D"], 2: ["BB", "CC"],
    }
    evens, odds = iu.partition(range(8), key=lambda x: x % 2 == 0)
    assert (evens, odds) == ([0, 2, 4, 6], [1, 3, 5, 7])
    assert iu.unique([3, 1, 3, 2, 1, 4]) == [3, 1, 2, 4]
    assert iu.unique(["a", "B", "b", "A"], key=str.lower) == ["a", "B"]
    assert iu.redundant([1, 2, 3, 2, 1, 1]) == [2, 1]
    assert iu.redundant([1, 2, 3, 2, 1], groups=True) == [[2, 2], [1, 1]]


def test_one_first_same_flatten():
    assert iu.one([0, 0, 7]) == 7
    assert iu.one([1, 2]) is None
    assert iu.one([], default="none") == "none"
    assert iu.first([0, None, "", 5, 6]) == 5
    assert iu.first([1, 2, 3], key=lambda x: x > 1) == 2
    assert iu.first([], default="d") == "d"
    assert iu.same([4, 4, 4])
    assert not iu.same([4, 4, 5])
    assert iu.flatten([1, [2, (3, [4])], [], 5]) == [1, 2, 3, 4, 5]


def test_remap_transform():
    data = {"a": 1, "b": {"c": None, "d": [1, None, 3]}, "e": None}
    drop_none = iu.remap(data, visit=lambda p, k, v: v is not None)
    assert drop_none == {"a": 1, "b": {"d": [1, 3]}}
    doubled = iu.remap(data, visit=lambda p, k, v: (k, v * 2) if isinstance(v, int) else True)
    assert doubled["b"]["d"] == [2, None, 6]
    assert doubled["a"] == 2


def test_remap_collects_paths():
    seen = []

    def visit(path, key, value):
        if not isinstance(value, (dict, list)):
            seen.append(path + (key,))
        return True

    iu.remap({"x": [10, {"y": 20}], "z": 30}, visit=visit)
    assert seen == [("x", 0), ("x", 1, "y"), ("z",)]


def test_get_path_and_research():
    root = {"a": {"b": [{"c": 1}, {"c": 2, "d": 4}]}}
    assert iu.get_path(root, ("a", "b", 1, "d")) == 4
    assert iu.get_path(root, "a.b.0.c") == 1
    assert iu.get_path(root, ("a", "x"), default="dflt") == "dflt"
    with pytest.raises(iu.PathAccessError):
        iu.get_path(root, ("a", "b", 5))
    found = iu.research(root, query=lambda p, k, v: k == "c")
    assert found == [(("a", "b", 0, "c"), 1), (("a", "b", 1, "c"), 2)]


def test_soft_sorted_and_untyped_sorted():
    assert iu.soft_sorted(["c", "a", "z", "b", "y"], first=["z"], last=["a"]) == [
        "z", "b", "c", "y", "a",
    ]
    assert iu.untyped_sorted([3, "b", 1.5, "a", 2]) == [1.5, 2, 3, "a", "b"]
    assert iu.is_iterable([1]) and not iu.is_iterable(5)
    assert iu.is_scalar("text") and not iu.is_scalar([])
