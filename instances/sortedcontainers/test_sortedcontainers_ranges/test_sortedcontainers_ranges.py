import pytest
from sortedcontainers import SortedList


def make(values, load=4):
    sl = SortedList()
    sl._reset(load)
    sl.update(values)
    return sl


def test_irange_inclusive_variants():
    sl = make(range(0, 60, 3))
    assert list(sl.irange(10, 25)) == [12, 15, 18, 21, 24]
    assert list(sl.irange(12, 24)) == [12, 15, 18, 21, 24]
    assert list(sl.irange(12, 24, inclusive=(False, False))) == [15, 18, 21]
    assert list(sl.irange(12, 24, inclusive=(True, False))) == [12, 15, 18, 21]
    assert list(sl.irange(None, 7)) == [0, 3, 6]
    assert list(sl.irange(50)) == [51, 54, 57]
    assert list(sl.irange(30, 20)) == []


def test_irange_reverse_and_duplicates():
    sl = make([1, 2, 2, 2, 3, 3, 4, 4, 4, 4, 5, 6, 6])
    assert list(sl.irange(2, 4, reverse=True)) == [4, 4, 4, 4, 3, 3, 2, 2, 2]
    assert list(sl.irange(2, 4, inclusive=(False, True))) == [3, 3, 4, 4, 4, 4]
    assert list(sl.irange(4, 4, inclusive=(False, False))) == []
    assert list(sl.irange(minimum=5, reverse=True)) == [6, 6, 5]


def test_islice_ranges():
    sl = make(range(100, 130))
    assert list(sl.islice(0, 3)) == [100, 101, 102]
    assert list(sl.islice(25)) == [125, 126, 127, 128, 129]
    assert list(sl.islice(-4, -1)) == [126, 127, 128]
    assert list(sl.islice(5, 9, reverse=True)) == [108, 107, 106, 105]
    assert list(sl.islice(10, 5)) == []
    assert list(sl.islice(stop=2, reverse=True)) == [101, 100]


def test_getitem_slices_with_steps():
    sl = make(range(25))
    assert sl[3:9] == [3, 4, 5, 6, 7, 8]
    assert sl[::5] == [0, 5, 10, 15, 20]
    assert sl[20:5:-4] == [20, 16, 12, 8]
    assert sl[-3:] == [22, 23, 24]
    assert sl[:] == list(range(25))
    assert sl[30:40] == []
    assert sl[::-8] == [24, 16, 8, 0]


def test_iteration_forward_and_reverse():
    sl = make([9, 4, 7, 1, 8, 2, 6, 3, 5, 0, 11, 10])
    fwd = [v for v in sl]
    assert fwd == list(range(12))
    rev = list(reversed(sl))
    assert rev == list(range(11, -1, -1))
    total = 0
    for v in sl.irange(3, 8):
        total += v
    assert total == 33


def test_mixed_add_remove_then_positional_queries():
    sl = make([])
    for i in range(20):
        sl.add((i * 7) % 20)
    for v in (0, 5, 10, 15):
        sl.remove(v)
    assert len(sl) == 16
    assert sl[0] == 1 and sl[4] == 6 and sl[-1] == 19
    assert sl.index(11) == 8
    assert sl.bisect_left(10) == 8
    del sl[2:14:3]
    assert list(sl) == [1, 2, 4, 6, 8, 9, 12, 13, 16, 17, 18, 19]
    sl._check()


def test_reset_load_preserves_values():
    sl = make(range(40), load=4)
    nlists_small = len(sl._lists)
    sl._reset(10)
    nlists_large = len(sl._lists)
    assert nlists_small > nlists_large
    assert list(sl) == list(range(40))
    assert sl[17] == 17
    sl._check()


def test_clear_and_contains_after_shrink():
    sl = make(range(16))
    for v in range(0, 16, 2):
        sl.discard(v)
    assert list(sl) == [1, 3, 5, 7, 9, 11, 13, 15]
    assert all(v in sl for v in (1, 7, 15))
    assert not any(v in sl for v in (0, 8, 16))
    sl.clear()
    assert len(sl) == 0 and 1 not in sl
    with pytest.raises(IndexError):
        sl[-1]
