"""Tests for boltons.dictutils: OrderedMultiDict, OneToOne, ManyToMany, FrozenDict."""

import pytest

from boltons.dictutils import FrozenDict, ManyToMany, OMD, OneToOne, subdict


def test_omd_add_getlist_and_get():
    omd = OMD()
    for k, v in [("a", 1), ("b", 2), ("a", 3), ("c", 4), ("a", 5)]:
        omd.add(k, v)
    assert omd["a"] == 5
    assert omd.getlist("a") == [1, 3, 5]
    assert omd.getlist("missing") == []
    assert list(omd.keys()) == ["a", "b", "c"]
    assert list(omd.keys(multi=True)) == ["a", "b", "a", "c", "a"]
    assert len(omd) == 3


def test_omd_items_and_inverted():
    omd = OMD([("x", 1), ("y", 2), ("x", 3)])
    assert omd.items(multi=True) == [("x", 1), ("y", 2), ("x", 3)]
    assert omd.items() == [("x", 3), ("y", 2)]
    assert omd.inverted().items(multi=True) == [(1, "x"), (2, "y"), (3, "x")]
    assert omd.todict() == {"x": 3, "y": 2}
    assert omd.todict(multi=True) == {"x": [1, 3], "y": [2]}


def test_omd_pop_and_poplast():
    omd = OMD([("k", 1), ("j", 2), ("k", 3), ("k", 4)])
    assert omd.poplast("k") == 4
    assert omd.getlist("k") == [1, 3]
    assert omd.popall("k") == [1, 3]
    assert "k" not in omd
    assert omd.pop("j") == 2
    assert omd.pop("zz", "dflt") == "dflt"
    with pytest.raises(KeyError):
        omd.pop("zz")


def test_omd_update_extend_and_setitem():
    omd = OMD([("a", 1), ("a", 2)])
    omd.update_extend({"a": 3, "b": 4})
    assert omd.getlist("a") == [1, 2, 3]
    omd["a"] = 9
    assert omd.getlist("a") == [9]
    omd.update([("b", 5), ("c", 6)])
    assert omd.items(multi=True) == [("a", 9), ("b", 5), ("c", 6)]
    assert omd.counts() == OMD([("a", 1), ("b", 1), ("c", 1)])


def test_omd_sorted_and_sortedvalues():
    omd = OMD([("b", 3), ("a", 2), ("b", 1), ("a", 4)])
    assert omd.sorted().items(multi=True) == [("a", 2), ("a", 4), ("b", 1), ("b", 3)]
    by_value = omd.sorted(key=lambda item: item[1])
    assert by_value.items(multi=True) == [("b", 1), ("a", 2), ("b", 3), ("a", 4)]
    assert omd.sortedvalues().items(multi=True) == [("b", 1), ("a", 2), ("b", 3), ("a", 4)]
    assert omd.sorted(reverse=True).keys() == ["b", "a"]


def test_omd_equality_and_copy():
    a = OMD([("x", 1), ("y", 2), ("x", 3)])
    b = OMD([("x", 1), ("y", 2), ("x", 3)])
    c = OMD([("y", 2), ("x", 1), ("x", 3)])
    assert a == b
    assert a != c
    assert a == {"x": 3, "y": 2}
    d = a.copy()
    d.add("z", 0)
    assert "z" not in a and "z" in d


def test_one_to_one():
    o2o = OneToOne({"a": 1, "b": 2})
    assert o2o.inv[1] == "a"
    o2o["c"] = 3
    assert o2o.inv[3] == "c"
    o2o["a"] = 10
    assert 1 not in o2o.inv
    assert o2o.inv[10] == "a"
    del o2o["b"]
    assert 2 not in o2o.inv
    with pytest.raises(ValueError):
        OneToOne.unique({"x": 1, "y": 1})


def test_many_to_many():
    m2m = ManyToMany([("a", 1), ("a", 2), ("b", 2), ("c", 3)])
    assert sorted(m2m["a"]) == [1, 2]
    assert sorted(m2m.inv[2]) == ["a", "b"]
    m2m.remove("a", 2)
    assert sorted(m2m.inv[2]) == ["b"]
    m2m.add("d", 3)
    assert sorted(m2m.inv[3]) == ["c", "d"]
    del m2m["c"]
    assert sorted(m2m.inv[3]) == ["d"]
    assert sorted(m2m.iteritems()) == [("a", 1), ("b", 2), ("d", 3)]


def test_frozendict_and_subdict():
    fd = FrozenDict({"a": 1, "b": 2})
    assert hash(fd) == hash(FrozenDict({"b": 2, "a": 1}))
    assert fd.updated({"c": 3}) == {"a": 1, "b": 2, "c": 3}
    with pytest.raises(TypeError):
        fd["a"] = 5
    with pytest.raises(TypeError):
        fd.pop("a")
    assert subdict({"a": 1, "b": 2, "c": 3}, keep=["a", "c"]) == {"a": 1, "c": 3}
    assert subdict({"a": 1, "b": 2, "c": 3}, drop=["b"]) == {"a": 1, "c": 3}
