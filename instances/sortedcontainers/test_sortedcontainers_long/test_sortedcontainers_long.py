"""Long executions of sortedcontainers, with state carried across calls.

Each test drives one area of the package through many calls on a single
object built with a small load factor (``_reset(4)``), so that sublists split,
merge and the positional index is rebuilt many times over the run.  The
inputs are deterministic patterns built by explicit loops (arithmetic
progressions, small-modulus sequences, strings built from the loop index),
and most checks compare against a plain-Python model kept beside the
container, or assert an aggregate at the end.  The point is to make the
package's own functions run long and deep, so that questions about what they
did take patient, step-by-step reasoning over the test and the source.
"""

import bisect
import operator

import pytest
from sortedcontainers import SortedDict, SortedKeyList, SortedList, SortedSet


def make_list(values, load=4):
    sl = SortedList()
    sl._reset(load)
    sl.update(values)
    return sl


def test_add_with_interleaved_bisect():
    # 48 adds; every third add is followed by two bisect queries.
    sl = make_list([])
    model = []
    total = 0
    for i in range(48):
        v = (i * 7 + 3) % 31
        sl.add(v)
        bisect.insort(model, v)
        if i % 3 == 2:
            left = sl.bisect_left(v)
            right = sl.bisect_right(v + i % 7)
            assert left == bisect.bisect_left(model, v)
            assert right == bisect.bisect_right(model, v + i % 7)
            total += left + right
    assert list(sl) == model
    assert len(sl) == 48
    assert total == 459
    assert len(sl._lists) == 8


def test_remove_and_discard_merge_sublists():
    # Only multiples of 3 (up to 177) are present at the start.
    sl = make_list(range(0, 180, 3))
    model = list(range(0, 180, 3))
    removed = missing = 0
    middles = []
    for i in range(40):
        v = (i * 13 + 5) % 190
        if i % 4 == 3:
            # Always a multiple of 3; past the maximum every other time.
            d = v - v % 3 + (180 if i % 8 == 7 else 0)
            sl.discard(d)
            if d in model:
                model.remove(d)
        else:
            try:
                sl.remove(v)
            except ValueError:
                missing += 1
                assert v not in model
            else:
                removed += 1
                model.remove(v)
        if i % 5 == 0:
            mid = sl[len(sl) // 2]
            middles.append(sl.index(mid))
    assert list(sl) == model
    assert removed == 10
    assert missing == 20
    assert len(sl) == 45
    assert middles == [30, 28, 28, 27, 25, 25, 24, 23]
    with pytest.raises(ValueError):
        sl.remove(1000)


def test_pop_at_cycling_positions():
    sl = make_list(range(0, 150, 3))
    model = list(range(0, 150, 3))
    popped = []
    errors = 0
    for i in range(44):
        n = len(sl)
        idx = [0, -1, 2, -3, n // 2, -(n // 3) - 1, n - 2, (i * 7) % n][i % 8]
        got = sl.pop(idx)
        assert got == model.pop(idx)
        popped.append(got)
        if i % 9 == 4:
            # Positions past either end.
            with pytest.raises(IndexError):
                sl.pop(n + i)
            with pytest.raises(IndexError):
                sl.pop(-n - 1 - i % 3)
            errors += 2
    assert list(sl) == model
    assert len(sl) == 6
    assert sum(popped) == 3348
    assert errors == 10


def test_getitem_and_delitem_walk():
    sl = make_list(range(100))
    model = list(range(100))
    acc = 0
    for i in range(24):
        n = len(sl)
        # Far positions alternate in sign; near ones stay close to either end.
        a = (i * 7) % n - (i % 2) * n
        b = (i * 5) % 9 - 4
        x, y = sl[a], sl[b]
        assert x == model[a] and y == model[b]
        acc += x + y
        lo = i % 5
        hi = lo + 6 + i % 9
        assert sl[lo:hi] == model[lo:hi]
        if i % 4 == 0:
            assert sl[i : i + 24 : 4 + i % 3] == model[i : i + 24 : 4 + i % 3]
        if i % 4 == 2:
            assert sl[hi:lo:-1] == model[hi:lo:-1]
        k = (i * 11) % (n - 6)
        if i % 3 == 0:
            del sl[k]
            del model[k]
        elif i % 3 == 1:
            del sl[k : k + 2]
            del model[k : k + 2]
        else:
            del sl[k : k + 6 : 2]
            del model[k : k + 6 : 2]
    assert list(sl) == model
    assert acc == 2354
    assert len(sl) == 52
    # One wide slice deletion at the end.
    del sl[5:40]
    assert list(sl) == model[:5] + model[40:]


def test_islice_and_irange_windows():
    values = [(i * 5) % 23 for i in range(46)]
    sl = make_list(values)
    model = sorted(values)
    inclusives = ((True, True), (False, True), (True, False), (False, False))
    total = count = 0
    for i in range(24):
        start = (i * 7) % 40 - 8
        stop = start + 3 + i % 13
        rev = i % 2 == 1
        window = list(sl.islice(start, stop, reverse=rev))
        expect = model[slice(start, stop)]
        assert window == (expect[::-1] if rev else expect)
        lo = None if i % 8 == 5 else (i * 3) % 26
        hi = None if i % 8 == 6 else (i * 3) % 26 + i % 6
        incl = inclusives[i % 4]
        rng = list(sl.irange(lo, hi, inclusive=incl, reverse=i % 3 == 0))
        ref = [
            v
            for v in model
            if (lo is None or (v >= lo if incl[0] else v > lo))
            and (hi is None or (v <= hi if incl[1] else v < hi))
        ]
        assert rng == (ref[::-1] if i % 3 == 0 else ref)
        total += sum(window) + sum(rng)
        count += len(window) + len(rng)
    assert total == 4000
    assert count == 366


def test_index_and_count_with_bounds():
    # Quadratic residues mod 17: nine distinct values, repeated.
    values = [(i * i) % 17 for i in range(51)]
    sl = make_list(values)
    model = sorted(values)
    found = []
    failures = 0
    for i in range(36):
        v = (i * 7) % 20 if i % 4 == 3 else (i * i) % 17
        start = (i * 5) % 60 - 20
        stop = start + 15 + i % 25
        assert sl.count(v) == model.count(v)
        try:
            pos = sl.index(v, start, stop)
        except ValueError:
            failures += 1
            with pytest.raises(ValueError):
                model.index(v, start, stop)
        else:
            assert pos == model.index(v, start, stop)
            found.append(pos)
    assert failures == 23
    assert found == [21, 10, 27, 33, 33, 39, 3, 33, 27, 45, 9, 21, 20]
    assert sum(sl.count(v) for v in range(18)) == 51


def test_keylist_len_key_with_ties():
    # 35 distinct words; key=len gives seven words of each length 1..5.
    words = ["abcdefg"[i % 7] * (1 + (i * 3) % 5) for i in range(35)]
    skl = SortedKeyList(key=len)
    skl._reset(4)
    model = []
    for w in words:
        skl.add(w)
        model.append(w)
    model.sort(key=len)
    index_sum = misses = bounded_misses = 0
    for i in range(35):
        w = words[(i * 4) % 35]
        assert w in skl and skl.count(w) == 1
        assert skl.index(w) == model.index(w)
        index_sum += skl.index(w)
        lo = (i * 3) % 30 - 6
        hi = lo + 12 + i % 10
        try:
            pos = skl.index(w, lo, hi)
        except ValueError:
            bounded_misses += 1
            with pytest.raises(ValueError):
                model.index(w, lo, hi)
        else:
            assert pos == model.index(w, lo, hi)
        if i % 3 == 0:
            skl.remove(w)
            model.remove(w)
        probe = "xyz"[i % 3] * (1 + i % 6)
        assert probe not in skl
        try:
            skl.remove(probe)
        except ValueError:
            misses += 1
        k = 1 + i % 5
        assert skl.bisect_key_left(k) == sum(len(m) < k for m in model)
        assert skl.bisect_key_right(k) == sum(len(m) <= k for m in model)
        incl = (i % 2 == 0, i % 3 != 0)
        got = list(skl.irange_key(k, k + 1, inclusive=incl, reverse=i % 4 == 1))
        ref = [
            m
            for m in model
            if (len(m) >= k if incl[0] else len(m) > k)
            and (len(m) <= k + 1 if incl[1] else len(m) < k + 1)
        ]
        assert got == (ref[::-1] if i % 4 == 1 else ref)
    assert list(skl) == model
    assert index_sum == 464
    assert misses == 35
    assert bounded_misses == 22
    assert len(skl) == 23


def test_sorteddict_ledger():
    sd = SortedDict()
    sd._reset(4)
    model = {}
    popped_total = 0
    key_errors = 0
    for i in range(40):
        k = f"k{(i * 7) % 29:02d}"
        sd[k] = i
        model[k] = i
        d = f"k{(i * 5 + 1) % 31:02d}"
        assert sd.setdefault(d, -i) == model.setdefault(d, -i)
        if i % 4 == 1:
            g = f"k{(i * 3) % 33:02d}"
            popped_total += sd.pop(g, 100) - model.pop(g, 100)
            with pytest.raises(KeyError):
                sd.pop("missing")
            key_errors += 1
        if i % 6 == 5:
            idx = (i * 2) % len(sd) - len(sd) // 2
            key, value = sd.popitem(idx)
            assert model.pop(key) == value
        if i % 7 == 3:
            assert sd.peekitem(i % len(sd)) == sorted(model.items())[i % len(sd)]
        if i % 10 == 9:
            first = sd.keys()[0]
            del sd[first]
            del model[first]
            with pytest.raises(KeyError):
                del sd[first]
            key_errors += 1
    assert list(sd.items()) == sorted(model.items())
    assert popped_total == 0
    assert key_errors == 14
    assert len(sd) == 27
    assert sd.keys()[5] == "k07"
    assert sd.values()[-3] == 37
    assert sd.items()[10:13] == sorted(model.items())[10:13]
    # Views delete by position and by slice.
    del sd.keys()[2:5]
    del sd.values()[-1]
    assert len(sd) == 23
    # Two updates of different sizes.
    sd.update({"k99": 1})
    sd.update({f"k{j:02d}": j for j in range(0, 40, 4)})
    assert sum(sd.values()) == 539
    assert list(sd) == sorted(sd)


def test_sortedset_algebra():
    # Integer elements only, so the set's iteration order is fixed.
    ss = SortedSet()
    ss._reset(4)
    model = set()
    removed_missing = 0
    for i in range(30):
        ss.add((i * 7) % 45)
        model.add((i * 7) % 45)
        ss.discard((i * 4) % 45)
        model.discard((i * 4) % 45)
        try:
            ss.remove((i * 11) % 45)
        except KeyError:
            removed_missing += 1
        else:
            model.remove((i * 11) % 45)
        if i % 5 == 4:
            v = ss.pop(i % len(ss))
            model.remove(v)
        if i % 6 == 2:
            ss.update(range(i, i + 3))
            model.update(range(i, i + 3))
        if i % 6 == 5:
            ss.update(range(40, 60, 1 + i % 4))
            model.update(range(40, 60, 1 + i % 4))
        if i % 7 == 6:
            ss.difference_update(range(0, 45, 9))
            model.difference_update(range(0, 45, 9))
        if i % 10 == 9:
            ss.difference_update(range(i, i + 2))
            model.difference_update(range(i, i + 2))
        assert list(ss) == sorted(model)
    other = SortedSet(range(0, 60, 4))
    assert list(ss & other) == sorted(model & set(other))
    assert list(ss ^ other) == sorted(model ^ set(other))
    assert list(ss | other) == sorted(model | set(other))
    assert list(ss - other) == sorted(model - set(other))
    assert (ss & other) <= ss and (ss | other) >= other
    ss.intersection_update(range(20, 60))
    ss.symmetric_difference_update(range(50, 55))
    assert removed_missing == 20
    assert list(ss) == [20, 23, 25, 28, 32, 33, 40, 42, 44, 46, 48, 51, 53, 56, 58]


def test_update_batches_and_arithmetic():
    sl = make_list([])
    model = []
    lows = []
    for i in range(16):
        # Batch sizes vary with i (1 to 7 values).
        batch = [(i * 13 + j * 5) % 37 for j in range(1 + (i * 3) % 7)]
        sl.update(batch)
        model = sorted(model + batch)
        assert len(sl) == len(model)
        lows.append(sl[len(sl) // 3])
        if i % 5 == 4:
            sl += [i, i + 1]
            model = sorted(model + [i, i + 1])
    assert list(sl) == model
    assert sum(lows) == 174
    doubled = sl * 2
    assert len(doubled) == 2 * len(sl)
    combined = sl + list(range(0, 37, 6))
    assert combined[len(combined) // 2] == 18
    cp = sl.copy()
    assert cp == sl and cp != sl[:-1]
    cp.add(-1)
    assert cp < sl and sl > cp and cp <= sl and sl >= cp
    small = make_list(range(6))
    small *= 3
    assert list(small) == sorted(list(range(6)) * 3)
    assert [sl.count(v) for v in range(0, 37, 9)] == [
        model.count(v) for v in range(0, 37, 9)
    ]


def test_sorteddict_with_key_function():
    # operator.neg orders keys from largest to smallest.
    sd = SortedDict(operator.neg)
    sd._reset(4)
    for i in range(36):
        sd[(i * 11) % 50] = i
    assert list(sd) == sorted(sd, reverse=True)
    acc = 0
    for i in range(20):
        k = (i * 9) % 50
        acc += sd.bisect_key_left(-k) + sd.bisect_key_right(-k)
        acc += sd.bisect_left(k) - sd.bisect_right(k)
        acc += sum(sd.irange_key(-k - 5, -k, inclusive=(i % 2 == 0, True)))
        acc += len(list(sd.islice(i, i + 4, reverse=i % 3 == 0)))
        if k in sd:
            acc += sd.index(k)
        if i % 4 == 3:
            key, _ = sd.popitem(0)
            acc += key
        if i % 5 == 2:
            key, value = sd.peekitem(-1 - i % 3)
            acc += key - value
    assert acc == 2692
    assert len(sd) == 31
    assert list(sd.irange(30, 20)) == sorted(
        (k for k in sd if 20 <= k <= 30), reverse=True
    )
