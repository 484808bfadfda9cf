import pytest
import attr
import attrs
from attrs import define, field


def test_make_class_from_list_and_dict():
    P = attrs.make_class("P", ["x", "y"])
    p = P(1, 2)
    assert (p.x, p.y) == (1, 2)
    assert repr(p) == "P(x=1, y=2)"
    Q = attrs.make_class("Q", {"a": attrs.field(default=3), "b": attrs.field(factory=list)})
    assert Q().a == 3 and Q().b == []
    assert [f.name for f in attrs.fields(Q)] == ["a", "b"]


def test_make_class_with_bases_and_options():
    Base = attrs.make_class("Base", ["a"])
    Sub = attrs.make_class("Sub", {"b": attr.ib(default=0)}, bases=(Base,), frozen=True)
    s = Sub(1, 2)
    assert (s.a, s.b) == (1, 2)
    assert isinstance(s, Base)
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        s.b = 5
    with pytest.raises(TypeError):
        attrs.make_class("Bad", 42)


def test_cmp_using_custom_equality():
    AbsEq = attrs.cmp_using(eq=lambda a, b: abs(a) == abs(b), lt=lambda a, b: abs(a) < abs(b))

    @define(order=True)
    class Mag:
        v: int = field(eq=AbsEq)

    assert Mag(-3) == Mag(3)
    assert Mag(2) < Mag(-5)
    assert sorted([Mag(-4), Mag(1), Mag(-2)]) == [Mag(1), Mag(2), Mag(4)]
    with pytest.raises(ValueError):
        attrs.cmp_using(lt=lambda a, b: a < b)


def test_field_order_and_eq_keys():
    @define(order=True)
    class Word:
        text: str = field(eq=str.lower, order=len)

    assert Word("ABC") == Word("abc")
    assert Word("zz") < Word("aaa")
    assert sorted(Word(w) for w in ["ccc", "a", "bb"]) == [Word("a"), Word("bb"), Word("ccc")]
    assert attrs.fields(Word).text.eq_key is str.lower


def test_pre_init_and_post_init_hooks():
    calls = []

    @define
    class Hooked:
        a: int
        b: int = 0

        def __attrs_pre_init__(self, a, b=0):
            calls.append(("pre", a, b))

        def __attrs_post_init__(self):
            calls.append(("post", self.a, self.b))

    Hooked(1)
    Hooked(2, b=3)
    assert calls == [("pre", 1, 0), ("post", 1, 0), ("pre", 2, 3), ("post", 2, 3)]


def test_aliases_and_private_attributes():
    @define
    class Acc:
        _balance: int
        owner: str = field(alias="holder")
        _note: str = field(default="", alias="memo")

    a = Acc(10, holder="ann", memo="hi")
    assert (a._balance, a.owner, a._note) == (10, "ann", "hi")
    assert [f.alias for f in attrs.fields(Acc)] == ["balance", "holder", "memo"]
    with pytest.raises(TypeError):
        Acc(1, owner="x")


def test_attribute_evolve_and_field_transformer():
    def upper_defaults(cls, fields):
        out = []
        for f in fields:
            if isinstance(f.default, str):
                f = f.evolve(default=f.default.upper())
            out.append(f)
        return out

    @define(field_transformer=upper_defaults)
    class Greeting:
        word: str = "hello"
        count: int = 2
        sep: str = "-"

    g = Greeting()
    assert (g.word, g.count, g.sep) == ("HELLO", 2, "-")
    assert attrs.fields(Greeting).word.default == "HELLO"


def test_inspect_class_props_and_errors():
    @define(order=True, kw_only=True)
    class Cfg:
        x: int = 0

    props = attrs.inspect(Cfg)
    assert props.is_slotted is True
    assert props.kw_only.value == "yes"
    assert props.added_ordering is True and props.is_frozen is False
    with pytest.raises(attrs.exceptions.NotAnAttrsClassError):
        attrs.inspect(int)

    @define
    class Sub(Cfg):
        y: int = 1

    assert attrs.inspect(Sub).kw_only.value == "no"
    assert Sub(x=5, y=2).x == 5


def test_auto_detect_keeps_user_methods():
    @define
    class Custom:
        v: int

        def __repr__(self):
            return f"<Custom {self.v}>"

        def __eq__(self, other):
            return isinstance(other, Custom) and self.v % 10 == other.v % 10

        __hash__ = None

    assert repr(Custom(3)) == "<Custom 3>"
    assert Custom(13) == Custom(3)
    assert Custom(4) != Custom(3)
    assert attrs.fields(Custom).v.name == "v"
