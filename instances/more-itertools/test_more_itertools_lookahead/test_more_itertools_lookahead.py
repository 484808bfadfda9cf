import pytest
import more_itertools as mi


def test_peekable_peek_prepend_and_index():
    p = mi.peekable(iter(range(6)))
    assert p.peek() == 0
    assert next(p) == 0
    p.prepend(10, 11)
    assert [next(p), next(p)] == [10, 11]
    assert p[2] == 3
    assert p[:3] == [1, 2, 3]
    assert list(p) == [1, 2, 3, 4, 5]
    assert p.peek("done") == "done"
    with pytest.raises(StopIteration):
        p.peek()
    assert not p


def test_peekable_slices_with_steps():
    p = mi.peekable(iter("abcdefghij"))
    assert p[1:8:3] == ["b", "e", "h"]
    assert p[-1] == "j"
    assert p[::-2] == ["j", "h", "f", "d", "b"]
    with pytest.raises(IndexError):
        p[20]


def test_seekable_seek_and_relative():
    s = mi.seekable(iter(range(8)))
    assert [next(s) for _ in range(5)] == [0, 1, 2, 3, 4]
    s.seek(1)
    assert next(s) == 1
    s.relative_seek(-1)
    assert list(s) == [1, 2, 3, 4, 5, 6, 7]
    s.seek(6)
    assert s.peek() == 6
    assert len(s.elements()) == 8


def test_seekable_maxlen_forgets():
    s = mi.seekable(iter(range(10)), maxlen=3)
    assert list(mi.take(6, s)) == [0, 1, 2, 3, 4, 5]
    s.seek(0)
    assert list(s) == [3, 4, 5, 6, 7, 8, 9]


def test_spy_and_first_last():
    head, it = mi.spy("abcdef", 3)
    assert head == ["a", "b", "c"]
    assert "".join(it) == "abcdef"
    assert mi.first([5, 6]) == 5
    assert mi.first([], default="none") == "none"
    with pytest.raises(ValueError):
        mi.first([])
    assert mi.last(iter(range(5))) == 4
    assert mi.last([3, 2]) == 2
    assert mi.last(iter([]), default=-1) == -1
    with pytest.raises(ValueError):
        mi.last(iter([]))


def test_one_and_only():
    assert mi.one(["x"]) == "x"
    with pytest.raises(ValueError):
        mi.one([])
    with pytest.raises(ValueError):
        mi.one([1, 2, 3])
    with pytest.raises(KeyError):
        mi.one([1, 2], too_long=KeyError)
    assert mi.only([]) is None
    assert mi.only([7]) == 7
    assert mi.only([], default="d") == "d"
    with pytest.raises(ValueError):
        mi.only([1, 2])


def test_exactly_n_and_strictly_n():
    assert mi.exactly_n([True, False, True, True], 3)
    assert not mi.exactly_n(range(10), 4, lambda x: x < 5)
    assert mi.exactly_n(range(10), 5, lambda x: x < 5)
    assert list(mi.strictly_n("abc", 3)) == ["a", "b", "c"]
    with pytest.raises(ValueError):
        list(mi.strictly_n("ab", 3))
    with pytest.raises(ValueError):
        list(mi.strictly_n("abcd", 3))
    seen = []
    got = list(mi.strictly_n("ab", 4, too_short=lambda n: seen.append(n)))
    assert got == ["a", "b"] and seen == [2]


def test_zip_broadcast_and_zip_offset():
    assert list(mi.zip_broadcast([1, 2, 3], "ab", [4, 5, 6])) == [
        (1, "ab", 4), (2, "ab", 5), (3, "ab", 6)
    ]
    assert list(mi.zip_broadcast(1, 2, 3)) == [(1, 2, 3)]
    assert list(mi.zip_broadcast("xy", [1, 2], scalar_types=None)) == [("x", 1), ("y", 2)]
    with pytest.raises(ValueError):
        list(mi.zip_broadcast([1, 2, 3], 0, [1, 2], strict=True))
    assert list(mi.zip_offset("0123", "abcd", offsets=(0, 1))) == [
        ("0", "b"), ("1", "c"), ("2", "d")
    ]
    assert list(mi.zip_offset("012", "ab", offsets=(0, 1), longest=True, fillvalue="-")) == [
        ("0", "b"), ("1", "-"), ("2", "-")
    ]


def test_islice_extended_negative_indices():
    assert list(mi.islice_extended(iter(range(10)), -3, None)) == [7, 8, 9]
    assert list(mi.islice_extended(iter(range(10)), 2, -2, 3)) == [2, 5]
    assert list(mi.islice_extended(iter(range(10)), None, None, -3)) == [9, 6, 3, 0]
    assert list(mi.islice_extended(iter(range(10)), -2, 3, -2)) == [8, 6, 4]
    assert list(mi.islice_extended(iter("abcdef"))[1:4]) == ["b", "c", "d"]
    with pytest.raises(ValueError):
        list(mi.islice_extended(iter(range(5)), 0, 3, 0))


def test_collapse_and_sort_together():
    data = [1, [2, [3, [4, "ab"]]], (5,)]
    assert list(mi.collapse(data)) == [1, 2, 3, 4, "ab", 5]
    assert list(mi.collapse(data, levels=1)) == [1, 2, [3, [4, "ab"]], 5]
    assert list(mi.collapse([[1, (2,)], {3}], base_type=tuple)) == [1, (2,), 3]
    names, ages = mi.sort_together([["c", "a", "b"], [3, 1, 2]])
    assert names == ("a", "b", "c") and ages == (1, 2, 3)
    res = mi.sort_together([(4, 3, 1), ("x", "y", "z")], key_list=(0,), reverse=True)
    assert res == [(4, 3, 1), ("x", "y", "z")]
    with pytest.raises(ValueError):
        mi.sort_together([(1, 2), (3,)], strict=True)


def test_interleave_and_roundrobin():
    assert list(mi.interleave([1, 2, 3], "ab", [9, 8])) == [1, "a", 9, 2, "b", 8]
    assert list(mi.interleave_longest([1, 2, 3], "a", [7, 8])) == [1, "a", 7, 2, 8, 3]
    assert list(mi.roundrobin("ABC", "D", "EF")) == ["A", "D", "E", "B", "F", "C"]
    assert list(mi.interleave_evenly([[1, 2, 3, 4], ["a", "b"]])) == [1, 2, "a", 3, 4, "b"]
    with pytest.raises(ValueError):
        list(mi.interleave_evenly([[1, 2], ["a"]], lengths=[2]))
