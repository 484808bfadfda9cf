import pytest
import attr
import attrs
from attrs import define, field, frozen, Factory


def test_define_with_annotations_defaults_and_factory():
    @define
    class Point:
        x: int
        y: int = 0
        tags: list = Factory(list)

    p = Point(3)
    q = Point(1, 2, ["a"])
    assert (p.x, p.y, p.tags) == (3, 0, [])
    assert q.tags == ["a"]
    assert Point(3) == p
    assert Point(3).tags is not p.tags
    assert repr(q) == "Point(x=1, y=2, tags=['a'])"
    assert [a.name for a in attrs.fields(Point)] == ["x", "y", "tags"]


def test_define_without_annotations_falls_back_to_fields():
    @define
    class Legacy:
        a = field()
        b = field(default=5)
        c = field(factory=dict)

    obj = Legacy(1)
    assert (obj.a, obj.b, obj.c) == (1, 5, {})
    assert attrs.fields_dict(Legacy)["b"].default == 5
    with pytest.raises(attrs.exceptions.UnannotatedAttributeError):
        @define(auto_attribs=True)
        class Mixed:
            a: int
            b = field()


def test_slots_and_frozen_behaviour():
    @frozen
    class Color:
        r: int
        g: int
        b: int

    c = Color(1, 2, 3)
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        c.r = 9
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        del c.g
    assert hash(c) == hash(Color(1, 2, 3))
    assert "__dict__" not in dir(c)
    assert {c, Color(1, 2, 3), Color(3, 2, 1)} == {Color(1, 2, 3), Color(3, 2, 1)}


def test_ordering_and_equality_options():
    @define(order=True)
    class Version:
        major: int
        minor: int
        label: str = field(default="", eq=False)

    vs = [Version(1, 10), Version(1, 2, "rc"), Version(0, 9)]
    assert sorted(vs) == [Version(0, 9), Version(1, 2), Version(1, 10)]
    assert Version(1, 2, "a") == Version(1, 2, "b")
    assert Version(2, 0) > Version(1, 99)
    assert Version(1, 2).__lt__(5) is NotImplemented
    with pytest.raises(TypeError):
        Version(1, 1) < 5


def test_kw_only_and_init_false():
    @define(kw_only=True)
    class Config:
        host: str
        port: int = 80
        debug: bool = field(default=False, init=False)

    cfg = Config(host="h", port=8080)
    assert (cfg.host, cfg.port, cfg.debug) == ("h", 8080, False)
    with pytest.raises(TypeError):
        Config("h")
    with pytest.raises(TypeError):
        Config(host="h", debug=True)


def test_mandatory_after_default_is_rejected():
    with pytest.raises(ValueError):
        @define
        class Bad:
            a: int = 1
            b: int


def test_post_init_and_default_decorator():
    @define
    class Rect:
        w: int
        h: int
        area: int = field(init=False)
        label: str = field()

        @label.default
        def _label_default(self):
            return f"{self.w}x{self.h}"

        def __attrs_post_init__(self):
            self.area = self.w * self.h

    r = Rect(3, 4)
    assert r.area == 12 and r.label == "3x4"
    assert Rect(2, 5, "custom").label == "custom"


def test_inheritance_collects_attributes_in_mro_order():
    @define
    class Base:
        a: int
        b: int = 2

    @define
    class Child(Base):
        c: int = 3

    @define
    class GrandChild(Child):
        b: int = 20
        d: int = 4

    assert [f.name for f in attrs.fields(Child)] == ["a", "b", "c"]
    assert [f.name for f in attrs.fields(GrandChild)] == ["a", "c", "b", "d"]
    g = GrandChild(1)
    assert (g.a, g.b, g.c, g.d) == (1, 20, 3, 4)
    assert attrs.fields(GrandChild).b.inherited is False
    assert attrs.fields(GrandChild).c.inherited is True


def test_classic_attr_s_api():
    @attr.s
    class Old:
        x = attr.ib()
        y = attr.ib(default=attr.Factory(lambda self: self.x * 2, takes_self=True))

    o = Old(4)
    assert o.y == 8
    assert Old(1, 1) == Old(1, 1)
    assert not attr.has(int)
    assert attr.has(Old)

    with pytest.raises(attrs.exceptions.DefaultAlreadySetError):
        @attr.s
        class Twice:
            z = attr.ib(default=1)

            @z.default
            def _z(self):
                return 2


def test_mutable_define_hash_and_unhashable():
    @define
    class Box:
        v: int

    with pytest.raises(TypeError):
        hash(Box(1))

    @define(unsafe_hash=True)
    class HBox:
        v: int
        note: str = field(default="", hash=False)

    assert hash(HBox(1, "a")) == hash(HBox(1, "b"))
    assert len({HBox(1), HBox(2), HBox(1)}) == 2
