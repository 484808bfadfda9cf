import pytest
import attrs
from attrs import define, field, converters as c, setters, validators as v


def test_plain_converters_on_init_and_setattr():
    @define
    class Temp:
        celsius: float = field(converter=float)
        label: str = field(default=5, converter=str)

    t = Temp("21.5")
    assert t.celsius == 21.5 and t.label == "5"
    t.celsius = "3"
    assert t.celsius == 3.0
    with pytest.raises(ValueError):
        Temp("warm")


def test_optional_converter():
    @define
    class Maybe:
        n = field(default=None, converter=c.optional(int))

    assert Maybe().n is None
    assert Maybe("7").n == 7
    assert Maybe(None).n is None
    with pytest.raises(ValueError):
        Maybe("x")


def test_default_if_none_variants():
    @define
    class Opts:
        a = field(default=None, converter=c.default_if_none(0))
        b = field(default=None, converter=c.default_if_none(factory=list))
        d = field(default=None, converter=c.default_if_none(attrs.Factory(dict)))

    o = Opts()
    assert (o.a, o.b, o.d) == (0, [], {})
    assert Opts(3, [1], {"k": 1}).b == [1]
    assert Opts().b is not o.b
    with pytest.raises(TypeError):
        c.default_if_none()
    with pytest.raises(TypeError):
        c.default_if_none(0, factory=list)
    with pytest.raises(ValueError):
        c.default_if_none(attrs.Factory(lambda s: s, takes_self=True))


def test_to_bool_accepts_many_spellings():
    trues = [True, "true", "T", "Yes", "y", "ON", "1", 1]
    falses = [False, "false", "f", "NO", "n", "off", "0", 0]
    assert [c.to_bool(x) for x in trues] == [True] * len(trues)
    assert [c.to_bool(x) for x in falses] == [False] * len(falses)
    for bad in ("maybe", 2, None):
        with pytest.raises(ValueError):
            c.to_bool(bad)


def test_pipe_converters_in_order():
    @define
    class Slug:
        text: str = field(converter=c.pipe(str.strip, str.lower, lambda s: s.replace(" ", "-")))

    assert Slug("  Hello World ").text == "hello-world"
    assert Slug("A B C").text == "a-b-c"
    conv = c.pipe(int, lambda n: n * 2, str)
    assert conv("21") == "42"
    assert c.pipe()(5) == 5


def test_converter_object_takes_self_and_field():
    def scale(value, self_, fld):
        return value * self_.factor if fld.name == "size" else value

    @define
    class Scaled:
        factor: int
        size: int = field(converter=attrs.Converter(scale, takes_self=True, takes_field=True))

    s = Scaled(3, 4)
    assert s.size == 12
    s.size = 5
    assert s.size == 15
    assert Scaled(0, 9).size == 0


def test_setters_frozen_and_pipe():
    @define
    class Rec:
        ident: int = field(on_setattr=setters.frozen)
        name: str = field(
            converter=str,
            validator=v.min_len(1),
            on_setattr=setters.pipe(setters.convert, setters.validate),
        )

    r = Rec(1, "x")
    with pytest.raises(attrs.exceptions.FrozenAttributeError):
        r.ident = 2
    r.name = 42
    assert r.name == "42"
    with pytest.raises(ValueError):
        r.name = ""
    assert r.ident == 1


def test_custom_on_setattr_hook_counts_calls():
    log = []

    def record(inst, attrib, new):
        log.append((attrib.name, new))
        return new + 1

    @define(on_setattr=record)
    class Counter:
        hits: int = 0
        misses: int = 0

    ctr = Counter()
    for i in range(3):
        ctr.hits = i
    ctr.misses = 10
    assert ctr.hits == 3 and ctr.misses == 11
    assert log == [("hits", 0), ("hits", 1), ("hits", 2), ("misses", 10)]


def test_frozen_class_rejects_on_setattr():
    with pytest.raises(ValueError):
        @attrs.frozen(on_setattr=setters.validate)
        class Bad:
            x: int

    @attrs.frozen
    class Good:
        x: int = field(converter=int)

    assert Good("4").x == 4
