import pytest
from sortedcontainers import SortedSet


def make(values, key=None, load=4):
    ss = SortedSet(key=key)
    ss._list._reset(load)
    ss.update(values)
    return ss


def test_add_dedup_and_order():
    ss = make([])
    for v in [5, 3, 5, 9, 1, 3, 7, 9, 2, 8, 2, 0]:
        ss.add(v)
    assert list(ss) == [0, 1, 2, 3, 5, 7, 8, 9]
    assert len(ss) == 8
    assert ss.count(5) == 1 and ss.count(4) == 0
    assert 7 in ss and 6 not in ss
    ss._check()


def test_remove_discard_pop():
    ss = make(range(0, 30, 3))
    ss.remove(9)
    ss.discard(10)
    ss.discard(12)
    assert list(ss) == [0, 3, 6, 15, 18, 21, 24, 27]
    with pytest.raises(KeyError):
        ss.remove(9)
    assert ss.pop() == 27
    assert ss.pop(0) == 0
    assert ss.pop(2) == 15
    with pytest.raises(IndexError):
        SortedSet().pop()
    ss._check()


def test_index_getitem_delitem():
    ss = make("thequickbrownfox")
    assert "".join(ss) == "bcefhiknoqrtuwx"
    assert ss[0] == "b" and ss[-1] == "x"
    assert ss[2:5] == ["e", "f", "h"]
    assert ss.index("q") == 9
    with pytest.raises(ValueError):
        ss.index("z")
    del ss[0]
    del ss[1:4]
    assert "".join(ss) == "ciknoqrtuwx"
    assert "e" not in ss


def test_union_intersection_difference():
    a = make(range(0, 20, 2))
    b = make(range(0, 20, 3))
    assert list(a | b) == [0, 2, 3, 4, 6, 8, 9, 10, 12, 14, 15, 16, 18]
    assert list(a & b) == [0, 6, 12, 18]
    assert list(a - b) == [2, 4, 8, 10, 14, 16]
    assert list(a ^ b) == [2, 3, 4, 8, 9, 10, 14, 15, 16]
    assert list(a.union([1], [19])) == [0, 1, 2, 4, 6, 8, 10, 12, 14, 16, 18, 19]
    assert list(a.intersection(b, [6, 12, 13])) == [6, 12]
    assert list(a.difference([0, 2], [4])) == [6, 8, 10, 12, 14, 16, 18]


def test_inplace_set_operations():
    s = make(range(10))
    s -= {1, 2, 3}
    assert list(s) == [0, 4, 5, 6, 7, 8, 9]
    s &= range(5, 15)
    assert list(s) == [5, 6, 7, 8, 9]
    s ^= [9, 10, 11]
    assert list(s) == [5, 6, 7, 8, 10, 11]
    s |= [1, 20]
    assert list(s) == [1, 5, 6, 7, 8, 10, 11, 20]
    s.difference_update(range(6, 9))
    assert list(s) == [1, 5, 10, 11, 20]
    s._check()


def test_comparisons_subset_superset():
    small = make([2, 4])
    big = make([1, 2, 3, 4])
    assert small < big
    assert small <= big
    assert big > small
    assert not big < big
    assert small.issubset(big)
    assert big.issuperset([1, 4])
    assert small.isdisjoint([1, 3])
    assert make([3, 1]) == {1, 3}
    assert make([3, 1]) != {1, 3, 5}


def test_key_function_set():
    ss = make(["Bob", "alice", "Carol", "dave", "Eve"], key=str.lower)
    assert list(ss) == ["alice", "Bob", "Carol", "dave", "Eve"]
    assert ss.bisect_key_left("c") == 2
    assert list(ss.irange_key("b", "d")) == ["Bob", "Carol"]
    assert ss.index("dave") == 3


def test_irange_islice_bisect():
    ss = make(range(1, 40, 4))
    assert list(ss.irange(5, 21)) == [5, 9, 13, 17, 21]
    assert list(ss.irange(5, 21, inclusive=(False, True), reverse=True)) == [21, 17, 13, 9]
    assert list(ss.islice(1, 4)) == [5, 9, 13]
    assert ss.bisect_left(13) == 3
    assert ss.bisect_right(13) == 4
    assert ss.bisect(14) == 4
    assert list(reversed(ss))[:3] == [37, 33, 29]


def test_copy_clear_repr():
    ss = make([3, 1, 2])
    cp = ss.copy()
    cp.add(0)
    assert list(ss) == [1, 2, 3] and list(cp) == [0, 1, 2, 3]
    assert repr(ss) == "SortedSet([1, 2, 3])"
    cp.clear()
    assert len(cp) == 0 and not cp
