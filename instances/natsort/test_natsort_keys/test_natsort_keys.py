"""Tests for natsort key generation and low-level helpers."""

import pytest

from natsort import chain_functions, natsort_key, natsort_keygen, ns, numeric_regex_chooser
from natsort import utils


def test_default_key_splits_components():
    assert natsort_key("a10b2") == ("a", 10, "b", 2)
    assert natsort_key("42") == ("", 42)
    assert natsort_key("1 2") == ("", 1, " ", 2)
    assert natsort_key("abc") == ("abc",)
    assert natsort_key("") == ()


def test_key_for_numbers_and_none():
    assert natsort_key(7) == ("", 7)
    assert natsort_key(2.5) == ("", 2.5)
    assert natsort_key(None) == ("", float("-inf"), "2")


def test_keygen_float_and_signed():
    key = natsort_keygen(alg=ns.REAL)
    assert key("x-1.5y2") == ("x", -1.5, "y", 2.0)
    assert key("1.5e3") == ("", 1500.0)
    intkey = natsort_keygen(alg=ns.SIGNED)
    assert intkey("a-3-4") == ("a", -3, "", -4)


def test_keygen_with_user_key_and_sorting():
    key = natsort_keygen(key=lambda s: s.split("_")[1])
    data = ["q_v10", "r_v9", "s_v100"]
    assert sorted(data, key=key) == ["r_v9", "q_v10", "s_v100"]
    assert key("x_v3") == ("v", 3)


def test_keygen_nested_and_bytes():
    assert natsort_key(("a1", 3, b"zz")) == (("a", 1), ("", 3), (b"zz",))
    icase = natsort_keygen(alg=ns.IGNORECASE)
    assert icase(b"ABC") == (b"abc",)
    assert icase("ABC5") == ("abc", 5)


def test_keygen_groupletters_and_lowercasefirst():
    g = natsort_keygen(alg=ns.GROUPLETTERS)
    assert g("Ab1") == ("aAbb", 1)
    lf = natsort_keygen(alg=ns.LOWERCASEFIRST)
    assert lf("Ab1") == ("aB", 1)


def test_invalid_alg():
    with pytest.raises(ValueError):
        natsort_keygen(alg="nope")
    with pytest.raises(ValueError):
        natsort_keygen(alg=None)


def test_numeric_regex_chooser():
    assert numeric_regex_chooser(ns.INT).startswith(r"\d+|[")
    assert numeric_regex_chooser(ns.SIGNED).startswith(r"[-+]?\d+|[")
    assert numeric_regex_chooser(ns.REAL).startswith(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE]")
    assert "[eE]" not in numeric_regex_chooser(ns.FLOAT | ns.NOEXP)
    assert utils.regex_chooser(ns.REAL).split("a-1.5b") == ["a", "-1.5", "b"]
    assert utils.regex_chooser(ns.INT).split("a-1.5b") == ["a-", "1", ".", "5", "b"]


def test_chain_functions():
    f = chain_functions([str.strip, str.upper, len])
    assert f("  abc ") == 3
    assert chain_functions([])("same") == "same"
    single = chain_functions([str.title])
    assert single("hello world") == "Hello World"


def test_groupletters_and_sep_inserter():
    assert utils.groupletters("Apple") == "aAppppllee"
    assert list(utils.sep_inserter(iter([1, 2, "a", 3, 4.0, 5]), "")) == [
        "", 1, "", 2, "a", 3, "", 4.0, "", 5,
    ]
    assert list(utils.sep_inserter(iter([]), "")) == []
    assert list(utils.sep_inserter(iter(["x"]), "")) == ["x"]
