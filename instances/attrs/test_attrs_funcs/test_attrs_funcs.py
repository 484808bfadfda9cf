from collections import OrderedDict, namedtuple

import pytest
import attr
import attrs
from attrs import define, field, frozen


@define
class Leaf:
    name: str
    weight: int = 1


@define
class Node:
    label: str
    children: list = field(factory=list)
    meta: dict = field(factory=dict)
    pair: tuple = (0, 0)
    _secret: str = "s"


def build_tree():
    return Node(
        "root",
        [Leaf("a", 2), Node("mid", [Leaf("b"), Leaf("c", 3)]), Leaf("d")],
        {"k": Leaf("m", 9), "n": 1},
        (Leaf("p"), 7),
    )


def test_asdict_recurses_through_containers():
    d = attrs.asdict(build_tree())
    assert d["label"] == "root"
    assert d["children"][0] == {"name": "a", "weight": 2}
    assert d["children"][1]["children"][1] == {"name": "c", "weight": 3}
    assert d["meta"] == {"k": {"name": "m", "weight": 9}, "n": 1}
    assert d["pair"] == ({"name": "p", "weight": 1}, 7)
    assert d["_secret"] == "s"


def test_asdict_shallow_and_dict_factory():
    t = build_tree()
    shallow = attrs.asdict(t, recurse=False)
    assert shallow["children"][0] is t.children[0]
    od = attr.asdict(Leaf("z", 5), dict_factory=OrderedDict)
    assert isinstance(od, OrderedDict)
    assert list(od.items()) == [("name", "z"), ("weight", 5)]


def test_asdict_filters_include_exclude():
    t = Node("x", [Leaf("a")], {}, (1, 2))
    only = attrs.asdict(t, filter=attrs.filters.include("label", attrs.fields(Node).pair))
    assert only == {"label": "x", "pair": (1, 2)}
    without = attrs.asdict(t, filter=attrs.filters.exclude(dict, "_secret", int))
    assert without == {"label": "x", "children": [{"name": "a"}], "pair": (1, 2)}
    by_attr = attrs.asdict(
        Leaf("q", 4), filter=lambda a, value: a.name != "weight"
    )
    assert by_attr == {"name": "q"}


def test_asdict_value_serializer_and_namedtuple():
    Pt = namedtuple("Pt", "x y")

    @define
    class Holder:
        p: tuple
        items: set

    h = Holder(Pt(1, 2), {3})
    d = attr.asdict(h, retain_collection_types=True)
    assert d["p"] == Pt(1, 2) and type(d["p"]) is Pt
    assert d["items"] == {3}
    calls = []

    def ser(inst, a, value):
        calls.append(a.name if a is not None else None)
        return value * 10 if isinstance(value, int) else value

    assert attrs.asdict(Leaf("w", 3), value_serializer=ser) == {"name": "w", "weight": 30}
    assert calls == ["name", "weight"]


def test_astuple_variants():
    t = build_tree()
    tup = attrs.astuple(t)
    assert tup[0] == "root"
    assert tup[1][0] == ("a", 2)
    assert tup[1][1][1] == [("b", 1), ("c", 3)]
    assert attrs.astuple(Leaf("x", 2), filter=attrs.filters.exclude(int)) == ("x",)
    assert attr.astuple(Leaf("x", 2), recurse=False, tuple_factory=list) == ["x", 2]


def test_evolve_and_private_names():
    t = Node("a", [], {}, (0, 0), "hidden")
    t2 = attrs.evolve(t, label="b", secret="new")
    assert t2.label == "b" and t2._secret == "new"
    assert t.label == "a"

    @frozen
    class F:
        x: int
        y: int = 0

    f = F(1)
    g = attrs.evolve(f, y=5)
    assert (g.x, g.y) == (1, 5) and f.y == 0
    with pytest.raises(TypeError):
        attrs.evolve(f, z=3)


def test_assoc_and_missing_attribute():
    @attr.s
    class C:
        x = attr.ib()
        y = attr.ib()

    c = C(1, 2)
    c2 = attr.assoc(c, y=9)
    assert (c2.x, c2.y) == (1, 9)
    assert c2 is not c and c.y == 2
    with pytest.raises(attrs.exceptions.AttrsAttributeNotFoundError):
        attr.assoc(c, nope=1)


def test_fields_has_and_errors():
    assert attrs.has(Node) and not attrs.has(dict)
    names = [a.name for a in attrs.fields(Node)]
    assert names == ["label", "children", "meta", "pair", "_secret"]
    assert attrs.fields(Node)._secret.alias == "secret"
    assert list(attrs.fields_dict(Leaf)) == ["name", "weight"]
    with pytest.raises(attrs.exceptions.NotAnAttrsClassError):
        attrs.fields(dict)
    assert attrs.fields(Leaf("a")) is attrs.fields(Leaf)
    with pytest.raises(TypeError):
        attrs.fields(42)
    with pytest.raises(attrs.exceptions.NotAnAttrsClassError):
        attrs.fields_dict(int)


def test_resolve_types_with_string_annotations():
    @define
    class A:
        a: "int"
        b: "list[A] | None" = None

    assert attrs.fields(A).a.type == "int"
    attrs.resolve_types(A, globals(), {"A": A})
    assert attrs.fields(A).a.type is int
    assert attrs.resolve_types(A) is A
