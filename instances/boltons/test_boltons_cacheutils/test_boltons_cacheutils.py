"""Tests for boltons.cacheutils: LRU, LRI, cached decorators and counters."""

import pytest

from boltons.cacheutils import (
    LRI, LRU, MinIDMap, ThresholdCounter, cached, cachedmethod, cachedproperty,
)


def test_lru_eviction_order():
    cache = LRU(max_size=3)
    for i, ch in enumerate("abcd"):
        cache[ch] = i
    assert "a" not in cache
    assert list(cache.keys()) == ["b", "c", "d"]
    _ = cache["b"]  # touch b so c becomes least recently used
    cache["e"] = 4
    assert "c" not in cache
    assert sorted(cache.keys()) == ["b", "d", "e"]


def test_lru_hit_miss_counters():
    cache = LRU(max_size=2)
    cache["x"] = 1
    assert cache.get("x") == 1
    assert cache.get("y") is None
    with pytest.raises(KeyError):
        cache["nope"]
    assert cache.hit_count == 1
    assert cache.miss_count == 2
    assert cache.soft_miss_count == 1  # from get()


def test_lru_on_miss_and_setdefault():
    cache = LRU(max_size=3, on_miss=lambda k: k * 2)
    assert cache["ab"] == "abab"
    assert cache.miss_count == 1
    assert cache.soft_miss_count == 0
    # on_miss fills the key before setdefault's default is used
    assert cache.setdefault("q", 5) == "qq"
    assert cache.pop("q") == "qq"
    assert cache.pop("q", None) is None
    cache.update({"m": 1, "n": 2})
    assert len(cache) == 3
    cache.clear()
    assert len(cache) == 0


def test_lri_eviction_ignores_access():
    cache = LRI(max_size=2)
    cache["a"] = 1
    cache["b"] = 2
    _ = cache["a"]
    cache["c"] = 3
    assert "a" not in cache
    assert sorted(cache) == ["b", "c"]
    assert cache.hit_count == 1


def test_cached_function_decorator():
    calls = []
    store = {}

    @cached(store)
    def square(x):
        calls.append(x)
        return x * x

    results = [square(n) for n in (2, 3, 2, 2, 4, 3)]
    assert results == [4, 9, 4, 4, 16, 9]
    assert calls == [2, 3, 4]
    assert len(store) == 3


def test_cached_typed_and_scoped():
    calls = []

    @cached(LRU(max_size=8), typed=True)
    def ident(x):
        calls.append(type(x).__name__)
        return x

    ident(1)
    ident(1.0)
    ident(1)
    assert calls == ["int", "float"]


def test_cachedmethod_and_cachedproperty():
    class Counter:
        def __init__(self):
            self.cache = LRU(max_size=4)
            self.calls = 0

        @cachedmethod("cache")
        def compute(self, n):
            self.calls += 1
            return n + 100

        @cachedproperty
        def expensive(self):
            self.calls += 10
            return "done"

    c = Counter()
    assert [c.compute(n) for n in (1, 2, 1, 1)] == [101, 102, 101, 101]
    assert c.calls == 2
    assert c.expensive == "done"
    assert c.expensive == "done"
    assert c.calls == 12


def test_threshold_counter():
    tc = ThresholdCounter(threshold=0.2)
    for word in "a b a c a d a e f a b".split():
        tc.add(word)
    assert tc["a"] == 5
    # infrequent keys are periodically pruned, so only 6 of 11 adds survive
    assert tc.get_common_count() == 6
    assert tc.get_uncommon_count() == 5
    assert tc.most_common() == [("a", 5), ("b", 1)]
    assert "c" not in tc
    assert tc.threshold == 0.2
    assert tc.total == 11


def test_min_id_map():
    class Obj:
        pass

    m = MinIDMap()
    objs = [Obj() for _ in range(4)]
    ids = [m.get(o) for o in objs]
    assert ids == [0, 1, 2, 3]
    assert m.get(objs[1]) == 1
    m.drop(objs[1])
    newer = Obj()
    assert m.get(newer) == 1
    assert len(m) == 4


def test_invalid_sizes():
    with pytest.raises(ValueError):
        LRU(max_size=0)
    with pytest.raises(ValueError):
        ThresholdCounter(threshold=1.5)
