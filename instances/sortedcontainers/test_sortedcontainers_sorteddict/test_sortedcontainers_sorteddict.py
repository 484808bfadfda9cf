import pytest
from sortedcontainers import SortedDict


def make(pairs, load=4, key=None):
    sd = SortedDict(key) if key is not None else SortedDict()
    sd._list._reset(load)
    sd.update(pairs)
    return sd


def test_insertion_and_iteration_order():
    sd = make([])
    for k in ["m", "c", "x", "a", "q", "f", "z", "b", "k"]:
        sd[k] = ord(k) - ord("a")
    assert list(sd) == ["a", "b", "c", "f", "k", "m", "q", "x", "z"]
    assert list(reversed(sd))[:3] == ["z", "x", "q"]
    sd["m"] = -1
    assert len(sd) == 9 and sd["m"] == -1
    sd._check()


def test_delete_and_pop_with_defaults():
    sd = make({i: i * i for i in range(12)})
    del sd[5]
    assert 5 not in sd
    assert sd.pop(7) == 49
    assert sd.pop(7, "gone") == "gone"
    with pytest.raises(KeyError):
        sd.pop(99)
    with pytest.raises(KeyError):
        del sd[5]
    assert list(sd.keys()) == [0, 1, 2, 3, 4, 6, 8, 9, 10, 11]
    sd._check()


def test_popitem_and_peekitem_positions():
    sd = make({"d": 4, "a": 1, "c": 3, "b": 2, "e": 5, "f": 6})
    assert sd.peekitem() == ("f", 6)
    assert sd.peekitem(0) == ("a", 1)
    assert sd.peekitem(-3) == ("d", 4)
    assert sd.popitem() == ("f", 6)
    assert sd.popitem(0) == ("a", 1)
    assert sd.popitem(1) == ("c", 3)
    assert list(sd.items()) == [("b", 2), ("d", 4), ("e", 5)]
    with pytest.raises(KeyError):
        SortedDict().popitem()
    with pytest.raises(IndexError):
        sd.peekitem(10)


def test_setdefault_and_fromkeys():
    sd = make({})
    for word in "the quick brown fox jumps over the lazy dog the end".split():
        sd.setdefault(word, 0)
        sd[word] += 1
    assert sd["the"] == 3
    assert sd.keys()[0] == "brown"
    assert sd.setdefault("fox", 100) == 1
    fk = SortedDict.fromkeys("cab", 0)
    assert list(fk.items()) == [("a", 0), ("b", 0), ("c", 0)]


def test_views_indexing_and_slicing():
    sd = make({k: k * 10 for k in range(15, 0, -1)})
    keys, values, items = sd.keys(), sd.values(), sd.items()
    assert keys[0] == 1 and keys[-1] == 15
    assert values[4] == 50
    assert items[2:5] == [(3, 30), (4, 40), (5, 50)]
    assert keys.index(9) == 8
    assert values.index(120) == 11
    with pytest.raises(ValueError):
        values.index(7)
    assert keys.count(3) == 1
    del keys[0:3]
    assert sd.keys()[0] == 4 and len(sd) == 12
    del items[-1]
    assert 15 not in sd


def test_bisect_index_irange():
    sd = make({k: str(k) for k in range(0, 50, 5)})
    assert sd.bisect_left(12) == 3
    assert sd.bisect_right(15) == 4
    assert sd.index(25) == 5
    assert list(sd.irange(12, 31)) == [15, 20, 25, 30]
    assert list(sd.irange(10, 30, inclusive=(False, False))) == [15, 20, 25]
    assert list(sd.islice(2, 5)) == [10, 15, 20]
    assert list(sd.islice(2, 5, reverse=True)) == [20, 15, 10]
    with pytest.raises(ValueError):
        sd.index(13)


def test_key_function_dict():
    sd = make({"Banana": 1, "apple": 2, "cherry": 3, "Date": 4}, key=str.lower)
    assert list(sd) == ["apple", "Banana", "cherry", "Date"]
    assert sd.key is str.lower
    sd["avocado"] = 5
    assert sd.keys()[1] == "avocado"
    assert sd.index("cherry") == 3


def test_update_variants_and_merge_ops():
    sd = make({3: "c"})
    sd.update([(1, "a")])
    sd.update({i: "n" for i in range(10, 20)})
    assert len(sd) == 12
    other = SortedDict({0: "z", 3: "C"})
    merged = sd | other
    assert isinstance(merged, SortedDict)
    assert merged[3] == "C" and merged.keys()[0] == 0
    sd |= {2: "b"}
    assert sd.keys()[:3] == [1, 2, 3]
    cp = sd.copy()
    cp.clear()
    assert len(cp) == 0 and len(sd) == 13


def test_equality_and_repr():
    a = make({2: "b", 1: "a"})
    b = SortedDict([(1, "a"), (2, "b")])
    assert a == b
    assert a == {1: "a", 2: "b"}
    assert repr(b) == "SortedDict({1: 'a', 2: 'b'})"
    b[3] = "c"
    assert a != b
