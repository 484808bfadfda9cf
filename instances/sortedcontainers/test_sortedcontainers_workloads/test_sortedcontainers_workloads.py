"""Workloads of sortedcontainers at three sizes (8x apart) and a fourth, 2-4x the largest, for the measured
kinds (W2 peak memory, W3 wall time): each test keeps what it built until it ends, so both its time and its peak
grow with the size."""

from sortedcontainers import SortedDict, SortedList


def _add(n):
    items = SortedList()
    for i in range(n):
        items.add((i * 7919) % n)
    assert len(items) == n and items[0] == 0 and items[-1] == n - 1


def _setitem(n):
    table = SortedDict()
    for i in range(n):
        table[f"k{(i * 7919) % n:07d}"] = i
    assert len(table) == n and table.peekitem(0)[0] == "k0000000"


def _bisect(n):
    evens = SortedList(range(0, 2 * n, 2))
    places = [evens.bisect_left(q) for q in range(0, 2 * n, 3)]
    assert places[1] == 2 and len(places) == -(-2 * n // 3)


def test_add_small():
    _add(4_000)


def test_add_medium():
    _add(32_000)


def test_add_large():
    _add(256_000)


def test_setitem_small():
    _setitem(2_000)


def test_setitem_medium():
    _setitem(16_000)


def test_setitem_large():
    _setitem(128_000)


def test_bisect_small():
    _bisect(10_000)


def test_bisect_medium():
    _bisect(80_000)


def test_bisect_large():
    _bisect(640_000)


def test_add_xlarge():
    _add(1_024_000)


def test_setitem_xlarge():
    _setitem(512_000)


def test_bisect_xlarge():
    _bisect(1_600_000)
