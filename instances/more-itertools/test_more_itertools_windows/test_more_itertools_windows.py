import pytest
import more_itertools as mi


def test_windowed_basic_and_step():
    assert list(mi.windowed([1, 2, 3, 4, 5], 3)) == [(1, 2, 3), (2, 3, 4), (3, 4, 5)]
    assert list(mi.windowed(range(7), 3, step=2)) == [(0, 1, 2), (2, 3, 4), (4, 5, 6)]
    assert list(mi.windowed(range(6), 4, step=3)) == [(0, 1, 2, 3), (3, 4, 5, None)]


def test_windowed_fillvalue_and_short_input():
    assert list(mi.windowed([1, 2], 4, fillvalue="x")) == [(1, 2, "x", "x")]
    assert list(mi.windowed([], 2)) == []
    assert list(mi.windowed("abcdef", 6)) == [tuple("abcdef")]


def test_windowed_invalid_arguments():
    with pytest.raises(ValueError):
        list(mi.windowed([1, 2, 3], -1))
    with pytest.raises(ValueError):
        list(mi.windowed([1, 2, 3], 0))
    with pytest.raises(ValueError):
        list(mi.windowed([1, 2, 3], 2, step=0))


def test_sliding_window_and_triplewise():
    assert list(mi.sliding_window("abcde", 2)) == [
        ("a", "b"), ("b", "c"), ("c", "d"), ("d", "e")
    ]
    assert list(mi.sliding_window(range(3), 5)) == []
    assert list(mi.triplewise(range(6))) == [(0, 1, 2), (1, 2, 3), (2, 3, 4), (3, 4, 5)]


def test_chunked_variants():
    assert list(mi.chunked(range(7), 3)) == [[0, 1, 2], [3, 4, 5], [6]]
    assert list(mi.chunked(range(6), 3, strict=True)) == [[0, 1, 2], [3, 4, 5]]
    with pytest.raises(ValueError):
        list(mi.chunked(range(7), 3, strict=True))
    assert list(mi.chunked([], 4)) == []


def test_chunked_even_balances_sizes():
    assert list(mi.chunked_even(range(10), 3)) == [[0, 1, 2], [3, 4, 5], [6, 7], [8, 9]]
    assert list(mi.chunked_even(range(9), 3)) == [[0, 1, 2], [3, 4, 5], [6, 7, 8]]
    sizes = [len(c) for c in mi.chunked_even(range(11), 4)]
    assert sizes == [4, 4, 3]


def test_ichunked_consumed_out_of_order():
    chunks = list(mi.ichunked(range(8), 3))
    assert [list(c) for c in chunks] == [[0, 1, 2], [3, 4, 5], [6, 7]]
    it = mi.ichunked("abcdefg", 2)
    first = next(it)
    second = next(it)
    assert list(second) == ["c", "d"]
    assert list(first) == ["a", "b"]


def test_sliced_and_strict():
    assert list(mi.sliced("abcdefgh", 3)) == ["abc", "def", "gh"]
    assert list(mi.sliced((1, 2, 3, 4), 2, strict=True)) == [(1, 2), (3, 4)]
    with pytest.raises(ValueError):
        list(mi.sliced([1, 2, 3], 2, strict=True))


def test_grouper_modes():
    assert list(mi.grouper("ABCDEFG", 3, fillvalue="x")) == [
        ("A", "B", "C"), ("D", "E", "F"), ("G", "x", "x")
    ]
    assert list(mi.grouper("ABCDEFG", 3, incomplete="ignore")) == [
        ("A", "B", "C"), ("D", "E", "F")
    ]
    with pytest.raises(ValueError):
        list(mi.grouper("ABCDEFG", 3, incomplete="strict"))
    with pytest.raises(ValueError):
        list(mi.grouper("ABC", 2, incomplete="bogus"))


def test_windowed_complete_and_substrings():
    got = list(mi.windowed_complete(range(4), 2))
    assert got == [
        ((), (0, 1), (2, 3)),
        ((0,), (1, 2), (3,)),
        ((0, 1), (2, 3), ()),
    ]
    with pytest.raises(ValueError):
        list(mi.windowed_complete(range(3), 5))
    assert list(mi.substrings("abc")) == [
        ("a",), ("b",), ("c",), ("a", "b"), ("b", "c"), ("a", "b", "c")
    ]
    assert list(mi.substrings_indexes("abc", reverse=True))[0] == ("abc", 0, 3)


def test_constrained_batches_and_stagger():
    items = [b"12345", b"123", b"1234567", b"1", b"12"]
    batches = list(mi.constrained_batches(items, 10))
    assert batches == [(b"12345", b"123"), (b"1234567", b"1", b"12")]
    batches = list(mi.constrained_batches(items, 10, max_count=2))
    assert batches == [(b"12345", b"123"), (b"1234567", b"1"), (b"12",)]
    assert list(mi.stagger([0, 1, 2, 3])) == [(None, 0, 1), (0, 1, 2), (1, 2, 3)]
    assert list(mi.stagger("abc", offsets=(0, 1), longest=True, fillvalue="-")) == [
        ("a", "b"), ("b", "c"), ("c", "-")
    ]
