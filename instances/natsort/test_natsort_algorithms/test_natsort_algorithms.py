"""Tests for the ns algorithm flags and realsorted."""

from natsort import natsorted, ns, realsorted


def test_int_vs_float():
    data = ["x1.10", "x1.9", "x1.2"]
    assert natsorted(data) == ["x1.2", "x1.9", "x1.10"]
    assert natsorted(data, alg=ns.FLOAT) == ["x1.10", "x1.2", "x1.9"]


def test_signed_numbers():
    data = ["t+5", "t-3", "t0", "t-10"]
    # without SIGNED the sign stays in the text part ("t" < "t+" < "t-")
    assert natsorted(data) == ["t0", "t+5", "t-3", "t-10"]
    assert natsorted(data, alg=ns.SIGNED) == ["t-10", "t-3", "t0", "t+5"]


def test_realsorted_and_exponents():
    data = ["num5.10", "num-3", "num5.3", "num2", "num1e3"]
    assert realsorted(data) == ["num-3", "num2", "num5.10", "num5.3", "num1e3"]
    assert natsorted(["a1e3", "a2"], alg=ns.FLOAT | ns.NOEXP) == ["a1e3", "a2"]
    assert natsorted(["a1e3", "a2"], alg=ns.FLOAT) == ["a2", "a1e3"]


def test_float_special_tokens():
    data = ["v.5", "v-inf", "vnan", "v2.", "v1"]
    # inf/nan glued to letters are not numbers, so they sort as text
    assert natsorted(data, alg=ns.REAL) == ["v.5", "v1", "v2.", "v-inf", "vnan"]
    bare = ["5", "-inf", "nan", "inf", "-2"]
    assert natsorted(bare, alg=ns.REAL) == ["-inf", "nan", "-2", "5", "inf"]
    assert natsorted(bare, alg=ns.REAL | ns.NANLAST) == ["-inf", "-2", "5", "nan", "inf"]


def test_ignorecase():
    data = ["Banana", "apple", "cherry", "Apple2", "apple10"]
    assert natsorted(data) == ["Apple2", "Banana", "apple", "apple10", "cherry"]
    assert natsorted(data, alg=ns.IGNORECASE) == [
        "apple", "Apple2", "apple10", "Banana", "cherry",
    ]


def test_lowercasefirst_and_groupletters():
    data = ["Ab", "ab", "Ba", "ba"]
    assert natsorted(data) == ["Ab", "Ba", "ab", "ba"]
    assert natsorted(data, alg=ns.LOWERCASEFIRST) == ["ab", "ba", "Ab", "Ba"]
    assert natsorted(data, alg=ns.GROUPLETTERS) == ["Ab", "ab", "Ba", "ba"]
    assert natsorted(data, alg=ns.G | ns.LF) == ["ab", "Ab", "ba", "Ba"]


def test_numafter():
    data = ["b", "2", "a", "10"]
    assert natsorted(data) == ["2", "10", "a", "b"]
    assert natsorted(data, alg=ns.NUMAFTER) == ["a", "b", "2", "10"]


def test_compatibility_normalize():
    data = ["a\u2460", "a2", "a\u2463"]  # circled digits one and four
    assert natsorted(data, alg=ns.COMPATIBILITYNORMALIZE) == ["a\u2460", "a2", "a\u2463"]


def test_unicode_digits():
    data = ["x\u0663", "x2", "x\u0661\u0660"]  # arabic-indic 3 and 10
    assert natsorted(data) == ["x2", "x\u0663", "x\u0661\u0660"]


def test_combined_flags_on_records():
    rows = ["Item-2.5", "item-10", "ITEM1e1", "item0.5"]
    assert natsorted(rows, alg=ns.REAL | ns.IGNORECASE) == [
        "item-10", "Item-2.5", "item0.5", "ITEM1e1",
    ]
