import pytest
from sortedcontainers import SortedKeyList


def make(values, key, load=4):
    skl = SortedKeyList(key=key)
    skl._reset(load)
    skl.update(values)
    return skl


WORDS = ["pear", "fig", "banana", "kiwi", "apple", "plum", "date", "cherry", "lime", "grape"]


def test_key_ordering_is_stable_for_ties():
    skl = make([], key=len)
    for w in WORDS:
        skl.add(w)
    assert [len(w) for w in skl] == sorted(len(w) for w in WORDS)
    assert list(skl)[:1] == ["fig"]
    four = [w for w in skl if len(w) == 4]
    assert four == ["pear", "kiwi", "plum", "date", "lime"]
    skl._check()


def test_contains_with_key_collisions():
    skl = make(WORDS, key=len)
    assert "kiwi" in skl
    assert "lime" in skl
    assert "mint" not in skl
    assert "zz" not in skl
    assert "abcdefghij" not in skl


def test_remove_and_discard_among_equal_keys():
    skl = make(WORDS, key=len)
    skl.remove("date")
    skl.discard("plum")
    skl.discard("nope")
    assert [w for w in skl if len(w) == 4] == ["pear", "kiwi", "lime"]
    with pytest.raises(ValueError):
        skl.remove("date")
    with pytest.raises(ValueError):
        skl.remove("abcdefghijkl")
    skl._check()


def test_index_and_count_with_key():
    skl = make([-5, 3, -3, 1, -1, 4, 2, -2, 5, 0], key=abs)
    assert list(skl) == [0, 1, -1, 2, -2, 3, -3, 4, -5, 5]
    assert skl.index(-3) == 6
    assert skl.index(5) == 9
    assert skl.count(2) == 1 and skl.count(-4) == 0
    with pytest.raises(ValueError):
        skl.index(-4)
    with pytest.raises(ValueError):
        skl.index(1, 3)
    with pytest.raises(ValueError):
        skl.index(9)


def test_bisect_by_value_and_key():
    skl = make(range(20), key=lambda x: -x)
    assert skl[0] == 19 and skl[-1] == 0
    assert skl.bisect_left(15) == 4
    assert skl.bisect_right(15) == 5
    assert skl.bisect_key_left(-10) == 9
    assert skl.bisect_key_right(-10) == 10
    assert skl.bisect_key_left(5) == 20
    assert skl.bisect_key_right(-100) == 0


def test_irange_key_bounds():
    skl = make(["aa", "b", "cccc", "ddd", "e", "ffffff", "gg"], key=len)
    assert list(skl.irange_key(2, 3)) == ["aa", "gg", "ddd"]
    assert list(skl.irange_key(2, 4, inclusive=(False, True))) == ["ddd", "cccc"]
    assert list(skl.irange_key(min_key=4)) == ["cccc", "ffffff"]
    assert list(skl.irange_key(max_key=1, reverse=True)) == ["e", "b"]
    assert list(skl.irange_key(7, 9)) == []


def test_irange_by_value():
    skl = make(range(30), key=lambda x: x % 10 * 100 + x)
    got = list(skl.irange(11, 3))
    assert got == [11, 21, 2, 12, 22, 3]
    assert list(skl.irange(5, 5)) == [5]


def test_pop_getitem_slices():
    skl = make([("b", 2), ("a", 9), ("c", 1), ("d", 5), ("e", 3)], key=lambda t: t[1])
    assert skl[0] == ("c", 1)
    assert skl[1:3] == [("b", 2), ("e", 3)]
    assert skl.pop() == ("a", 9)
    assert skl.pop(0) == ("c", 1)
    assert [t[0] for t in skl] == ["b", "e", "d"]
    with pytest.raises(IndexError):
        skl.pop(5)


def test_copy_add_mul_repr():
    skl = make([3, -1, 2], key=abs)
    cp = skl.copy()
    cp.add(-4)
    assert list(skl) == [-1, 2, 3]
    assert list(cp) == [-1, 2, 3, -4]
    both = skl + [0, -2]
    assert list(both) == [0, -1, 2, -2, 3]
    assert list(skl * 2) == [-1, -1, 2, 2, 3, 3]
    assert repr(SortedKeyList([1], key=abs)).startswith("SortedKeyList([1], key=")
