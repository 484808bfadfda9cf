import re

import pytest
import attrs
from attrs import define, field, validators as v


def test_instance_of_and_optional():
    @define
    class User:
        name: str = field(validator=v.instance_of(str))
        age = field(default=None, validator=v.optional(v.instance_of(int)))

    assert User("ann").age is None
    assert User("bob", 3).age == 3
    with pytest.raises(TypeError) as ei:
        User(5)
    assert ei.value.args[0].startswith("'name' must be <class 'str'>")
    with pytest.raises(TypeError):
        User("c", "3")


def test_in_validator_handles_type_errors():
    @define
    class Pick:
        letter: str = field(validator=v.in_("abc"))
        level: int = field(default=1, validator=v.in_([1, 2, 3]))

    assert Pick("b", 3).letter == "b"
    with pytest.raises(ValueError):
        Pick("z")
    with pytest.raises(ValueError):
        Pick(1)
    with pytest.raises(ValueError):
        Pick("a", 4)


def test_numeric_bounds_chain():
    @define
    class Percent:
        value: int = field(validator=[v.instance_of(int), v.ge(0), v.le(100)])
        step: int = field(default=1, validator=v.and_(v.gt(0), v.lt(10)))

    assert Percent(0).value == 0
    assert Percent(100, 9).step == 9
    for bad in (-1, 101):
        with pytest.raises(ValueError):
            Percent(bad)
    for bad_step in (0, 10):
        with pytest.raises(ValueError):
            Percent(5, bad_step)


def test_length_validators():
    @define
    class Code:
        text: str = field(validator=[v.min_len(2), v.max_len(4)])

    assert Code("ab").text == "ab"
    assert Code("abcd").text == "abcd"
    with pytest.raises(ValueError):
        Code("a")
    with pytest.raises(ValueError):
        Code("abcde")


def test_matches_re_modes():
    @define
    class Ident:
        full: str = field(validator=v.matches_re(r"[a-z]+\d*"))
        part: str = field(default="x1", validator=v.matches_re(r"\d", func=re.search))
        flag: str = field(default="ABC", validator=v.matches_re("abc", re.IGNORECASE))

    assert Ident("abc12").full == "abc12"
    with pytest.raises(ValueError):
        Ident("abc12!")
    with pytest.raises(ValueError):
        Ident("ok", "nodigit")
    with pytest.raises(ValueError):
        Ident("ok", "a1", "abd")
    with pytest.raises(ValueError):
        v.matches_re("a", func=len)


def test_deep_iterable_and_mapping():
    @define
    class Bag:
        items: list = field(
            validator=v.deep_iterable(v.instance_of(int), v.instance_of(list))
        )
        index: dict = field(
            factory=dict,
            validator=v.deep_mapping(v.instance_of(str), v.instance_of(int), v.instance_of(dict)),
        )

    b = Bag([1, 2, 3], {"a": 1, "b": 2})
    assert len(b.items) == 3 and b.index["b"] == 2
    with pytest.raises(TypeError):
        Bag([1, "2", 3])
    with pytest.raises(TypeError):
        Bag((1, 2))
    with pytest.raises(TypeError):
        Bag([1], {"a": 1, 2: 2})
    with pytest.raises(TypeError):
        Bag([1], {"a": "x"})


def test_or_and_not_validators_swallow_inner_errors():
    @define
    class Flex:
        value = field(validator=v.or_(v.instance_of(int), v.in_(["auto", "none"])))
        other = field(default=5, validator=v.not_(v.in_([0, 13])))

    assert Flex(3).value == 3
    assert Flex("auto").value == "auto"
    with pytest.raises(ValueError):
        Flex("manual")
    assert Flex(1, 12).other == 12
    with pytest.raises(ValueError):
        Flex(1, 13)


def test_is_callable_and_validate_function():
    @define
    class Hook:
        fn = field(validator=v.is_callable())
        n: int = field(
            default=0, validator=v.instance_of(int), on_setattr=attrs.setters.NO_OP
        )

    h = Hook(len)
    with pytest.raises(attrs.exceptions.NotCallableError):
        Hook(42)
    h.n = "oops"
    assert h.n == "oops"
    with pytest.raises(TypeError):
        attrs.validate(h)
    h.n = 3
    attrs.validate(h)
    assert h.n == 3


def test_validator_decorator_and_on_setattr():
    @define
    class Account:
        balance: int = field()

        @balance.validator
        def _check(self, attribute, value):
            if value < 0:
                raise ValueError(f"{attribute.name} negative")

    acct = Account(10)
    acct.balance = 5
    assert acct.balance == 5
    with pytest.raises(ValueError, match="balance negative"):
        acct.balance = -1
    with pytest.raises(ValueError):
        Account(-3)
    assert acct.balance == 5


def test_disabled_validators_context():
    @define
    class Pos:
        x: int = field(validator=v.gt(0))

    with v.disabled():
        assert v.get_disabled() is True
        assert Pos(-5).x == -5
    assert v.get_disabled() is False
    with pytest.raises(ValueError):
        Pos(-5)
