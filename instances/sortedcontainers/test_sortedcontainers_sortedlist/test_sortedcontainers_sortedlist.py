import pytest
from sortedcontainers import SortedList


def make(values, load=4):
    sl = SortedList()
    sl._reset(load)
    sl.update(values)
    return sl


def test_add_keeps_order_across_sublists():
    sl = make([])
    for v in [15, 3, 9, 27, 1, 12, 30, 6, 21, 18, 24, 0]:
        sl.add(v)
    assert list(sl) == [0, 1, 3, 6, 9, 12, 15, 18, 21, 24, 27, 30]
    assert len(sl._lists) > 1
    sl._check()
    assert len(sl) == 12


def test_update_large_batch_then_small_batch():
    sl = make(range(0, 40, 2))
    assert len(sl) == 20
    sl.update([5, 1, 33])
    assert sl[:5] == [0, 1, 2, 4, 5]
    assert 33 in sl and 35 not in sl
    sl.update(range(100, 140))
    assert len(sl) == 63
    assert sl[-1] == 139
    sl._check()


def test_getitem_positive_negative_and_errors():
    sl = make(range(10, 60, 5))
    assert sl[0] == 10
    assert sl[3] == 25
    assert sl[-1] == 55
    assert sl[-4] == 40
    assert sl[7] == 45
    with pytest.raises(IndexError):
        sl[10]
    with pytest.raises(IndexError):
        sl[-11]
    with pytest.raises(IndexError):
        SortedList()[0]


def test_remove_discard_and_missing():
    sl = make([5, 1, 4, 1, 3, 9, 2, 6, 5, 3, 5])
    sl.remove(5)
    assert sl.count(5) == 2
    sl.discard(100)
    sl.discard(1)
    assert sl.count(1) == 1
    for v in (9, 6, 4):
        sl.remove(v)
    assert list(sl) == [1, 2, 3, 3, 5, 5]
    with pytest.raises(ValueError):
        sl.remove(42)
    with pytest.raises(ValueError):
        sl.remove(4)
    sl._check()


def test_bisect_and_count():
    sl = make([1, 2, 2, 2, 3, 5, 5, 8, 13, 13, 13, 21])
    assert sl.bisect_left(2) == 1
    assert sl.bisect_right(2) == 4
    assert sl.bisect_left(4) == 5
    assert sl.bisect_right(13) == 11
    assert sl.bisect_left(0) == 0
    assert sl.bisect_right(100) == 12
    assert [sl.count(v) for v in (2, 5, 13, 4, 21)] == [3, 2, 3, 0, 1]


def test_index_with_bounds():
    sl = make(["a", "b", "b", "c", "d", "d", "d", "e", "f", "g"])
    assert sl.index("d") == 4
    assert sl.index("d", 5) == 5
    assert sl.index("b", -9) == 1
    assert sl.index("g") == 9
    with pytest.raises(ValueError):
        sl.index("z")
    with pytest.raises(ValueError):
        sl.index("b", 3)
    with pytest.raises(ValueError):
        sl.index("d", 0, 4)
    with pytest.raises(ValueError):
        SortedList().index(1)


def test_pop_from_various_positions():
    sl = make(range(20))
    assert sl.pop() == 19
    assert sl.pop(0) == 0
    assert sl.pop(5) == 6
    assert sl.pop(-3) == 16
    assert len(sl) == 16
    sl._check()
    with pytest.raises(IndexError):
        sl.pop(40)
    with pytest.raises(IndexError):
        SortedList().pop()


def test_delitem_index_and_slice():
    sl = make(range(30))
    del sl[3]
    del sl[-1]
    assert sl[3] == 4 and sl[-1] == 28
    del sl[10:20]
    assert len(sl) == 18
    del sl[::3]
    assert list(sl) == [1, 2, 5, 6, 8, 9, 21, 22, 24, 25, 27, 28]
    sl._check()


def test_unsupported_mutations_raise():
    sl = make([3, 1, 2])
    with pytest.raises(NotImplementedError):
        sl.append(4)
    with pytest.raises(NotImplementedError):
        sl.insert(0, 0)
    with pytest.raises(NotImplementedError):
        sl.extend([7])
    with pytest.raises(NotImplementedError):
        sl.reverse()
    with pytest.raises(NotImplementedError):
        sl[0] = 5
    assert type(SortedList([1, -3], key=abs)).__name__ == "SortedKeyList"

    class Sub(SortedList):
        pass

    with pytest.raises(TypeError):
        Sub([1], key=abs)


def test_arithmetic_and_comparison():
    a = make([3, 1, 2])
    b = make([2, 5])
    c = a + b
    assert list(c) == [1, 2, 2, 3, 5]
    a += [0, 4]
    assert list(a) == [0, 1, 2, 3, 4]
    assert list(b * 3) == [2, 2, 2, 5, 5, 5]
    b *= 2
    assert list(b) == [2, 2, 5, 5]
    assert make([1, 2]) < make([1, 3])
    assert make([1, 2]) == [1, 2]
    assert make([4]) != [4, 4]
    assert repr(make([2, 1])) == "SortedList([1, 2])"
