"""Sandboxed execution: jinja2.sandbox attribute checks, format strings and operators."""

import operator

import pytest
from jinja2 import UndefinedError
from jinja2.exceptions import SecurityError
from jinja2.sandbox import (
    ImmutableSandboxedEnvironment,
    SandboxedEnvironment,
    is_internal_attribute,
    modifies_known_mutable,
    unsafe,
)


class Account:
    def __init__(self, owner, balance):
        self.owner = owner
        self.balance = balance
        self._secret = "hidden"

    def describe(self):
        return f"{self.owner}:{self.balance}"

    @unsafe
    def wipe(self):
        self.balance = 0
        return "wiped"


def test_safe_attribute_and_method_access():
    env = SandboxedEnvironment()
    acct = Account("ann", 5)
    assert env.from_string("{{ a.owner }} {{ a.describe() }}").render(a=acct) == "ann ann:5"
    assert env.from_string("{{ items|map('upper')|join(',') }}").render(items=["x", "y"]) == "X,Y"


def test_private_and_dunder_attributes_become_undefined():
    env = SandboxedEnvironment()
    acct = Account("ann", 5)
    assert env.from_string("[{{ a._secret }}]").render(a=acct) == "[]"
    assert env.from_string("[{{ a.__class__ }}]").render(a=acct) == "[]"
    with pytest.raises(SecurityError):
        env.from_string("{{ a.__class__ + 1 }}").render(a=acct)
    with pytest.raises(SecurityError):
        env.from_string("{{ f.__globals__['os'] }}").render(f=test_safe_attribute_and_method_access)


def test_unsafe_methods_cannot_be_called():
    env = SandboxedEnvironment()
    acct = Account("bob", 9)
    with pytest.raises(SecurityError) as excinfo:
        env.from_string("{{ a.wipe() }}").render(a=acct)
    assert "is not safely callable" in str(excinfo.value)
    assert acct.balance == 9


def test_internal_attribute_rules():
    def fn():
        pass

    gen = (i for i in range(1))
    assert is_internal_attribute(fn, "__code__")
    assert is_internal_attribute(fn, "__globals__")
    assert is_internal_attribute(Account("a", 1).describe, "__self__")
    assert is_internal_attribute(type, "mro")
    assert is_internal_attribute(gen, "gi_frame")
    assert is_internal_attribute("x", "__len__")
    assert not is_internal_attribute("x", "upper")
    assert not is_internal_attribute(fn, "fn_name")


def test_modifies_known_mutable():
    assert modifies_known_mutable([], "append")
    assert modifies_known_mutable({}, "setdefault")
    assert modifies_known_mutable(set(), "add")
    assert not modifies_known_mutable([], "index")
    assert not modifies_known_mutable({}, "get")
    assert not modifies_known_mutable("abc", "upper")


def test_immutable_sandbox_blocks_mutation():
    env = ImmutableSandboxedEnvironment()
    data = [1, 2]
    assert env.from_string("{{ xs|length }} {{ xs.index(2) }}").render(xs=data) == "2 1"
    with pytest.raises(SecurityError):
        env.from_string("{{ xs.append(3) }}").render(xs=data)
    with pytest.raises(SecurityError):
        env.from_string("{{ d.update({'a': 1}) }}").render(d={})
    assert data == [1, 2]
    mutable_env = SandboxedEnvironment()
    assert mutable_env.from_string("{{ xs.append(3) }}{{ xs|length }}").render(xs=data) == "None3"


def test_format_string_escapes_are_checked():
    env = SandboxedEnvironment()
    acct = Account("ann", 5)
    assert env.from_string("{{ '{0} has {1}'.format(a.owner, a.balance) }}").render(a=acct) == "ann has 5"
    assert env.from_string("{{ '{x:>4}|'.format(x=7) }}").render() == "   7|"
    assert env.from_string("[{{ '{0.__class__}'.format(a) }}]").render(a=acct) == "[]"
    with pytest.raises(SecurityError):
        env.from_string("{{ '{0.__class__.mro}'.format(a) }}").render(a=acct)
    # private attributes in a format field resolve to an empty undefined
    assert env.from_string("[{{ '{0._secret}'.format(a) }}]").render(a=acct) == "[]"


def test_range_limit_and_intercepted_operators():
    env = SandboxedEnvironment()
    assert env.from_string("{{ range(5)|list|length }}").render() == "5"
    with pytest.raises(OverflowError):
        env.from_string("{{ range(200000)|list|length }}").render()

    class LimitedPower(SandboxedEnvironment):
        intercepted_binops = frozenset(["**"])
        intercepted_unops = frozenset(["-"])

        def call_binop(self, context, operator_name, left, right):
            if operator_name == "**" and right > 10:
                raise SecurityError("exponent too large")
            return super().call_binop(context, operator_name, left, right)

        def call_unop(self, context, operator_name, arg):
            return operator.neg(arg) * 10

    lp = LimitedPower()
    assert lp.from_string("{{ 2 ** 8 }}").render() == "256"
    assert lp.from_string("{{ x ** y }}").render(x=3, y=4) == "81"
    assert lp.from_string("{{ -x }}").render(x=2) == "-20"
    with pytest.raises(SecurityError):
        lp.from_string("{{ x ** y }}").render(x=2, y=64)


def test_custom_is_safe_attribute_override():
    class OnlyPublicOwner(SandboxedEnvironment):
        def is_safe_attribute(self, obj, attr, value):
            if isinstance(obj, Account) and attr == "balance":
                return False
            return super().is_safe_attribute(obj, attr, value)

    env = OnlyPublicOwner()
    acct = Account("cy", 100)
    assert env.from_string("{{ a.owner }}[{{ a.balance }}]").render(a=acct) == "cy[]"
    assert env.from_string("{{ a['owner'] }}").render(a={"owner": "dict ok"}) == "dict ok"
    with pytest.raises(SecurityError) as excinfo:
        env.from_string("{{ a.balance + 1 }}").render(a=acct)
    assert not isinstance(excinfo.value, UndefinedError)
    assert "access to attribute 'balance' of 'Account' object is unsafe." in str(excinfo.value)
