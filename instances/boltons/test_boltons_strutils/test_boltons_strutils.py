"""Tests for boltons.strutils text helpers."""

import pytest

from boltons import strutils


def test_camel_and_under_conversion():
    assert strutils.camel2under("BasicParseTest") == "basic_parse_test"
    assert strutils.camel2under("HTTPResponseCode") == "http_response_code"
    assert strutils.under2camel("complex_tokenizer") == "ComplexTokenizer"
    assert strutils.under2camel("_private_name") == "_PrivateName"


def test_slugify_and_split_punct_ws():
    assert strutils.slugify("First post! Hi!!!!~1    ") == "first_post_hi_1"
    assert strutils.slugify("Kurt Gödel's pretty cool.", ascii=True) == (
        b"kurt_goedel_s_pretty_cool"
    )
    assert strutils.slugify("A B C", delim="-", lower=False) == "A-B-C"
    assert strutils.split_punct_ws("a, b;; c!") == ["a", "b", "c"]


def test_ordinalize_and_cardinalize():
    assert [strutils.ordinalize(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 102)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "102nd",
    ]
    assert strutils.ordinalize(23, ext_only=True) == "rd"
    assert strutils.cardinalize("box", 1) == "box"
    assert strutils.cardinalize("box", 3) == "boxes"
    assert strutils.cardinalize("Wolf", 2) == "Wolves"


def test_pluralize_and_singularize():
    words = ["mouse", "city", "bus", "leaf", "Person", "sheep", "ox"]
    assert [strutils.pluralize(w) for w in words] == [
        "mice", "cities", "buses", "leaves", "People", "sheep", "oxen",
    ]
    assert [strutils.singularize(w) for w in ["mice", "cities", "Buses", "children"]] == [
        "mouse", "city", "Bus", "child",
    ]
    assert strutils.unit_len([1, 2, 3], "file") == "3 files"
    assert strutils.unit_len([], "file") == "No files"


def test_int_list_roundtrip():
    assert strutils.parse_int_list("1,3,5-8,10-11,15") == [1, 3, 5, 6, 7, 8, 10, 11, 15]
    assert strutils.format_int_list([1, 3, 5, 6, 7, 8, 10, 11, 15]) == "1,3,5-8,10-11,15"
    assert strutils.format_int_list([9, 1, 2, 3], delim_space=True) == "1-3, 9"
    assert strutils.complement_int_list("1,3,5-8,10-11,15") == "0,2,4,9,12-14"
    assert strutils.complement_int_list("3-5", range_start=1, range_end=8) == "1-2,6-7"
    assert strutils.int_ranges_from_int_list("1,3,5-8") == ((1, 1), (3, 3), (5, 8))


def test_bytes2human_and_a10n():
    assert strutils.bytes2human(128991) == "126K"
    assert strutils.bytes2human(100001221) == "95M"
    assert strutils.bytes2human(0, 1) == "0.0B"
    assert strutils.bytes2human(1024 ** 3 * 3, 2) == "3.00G"
    assert strutils.a10n("internationalization") == "i18n"
    assert strutils.a10n("cat") == "c1t"
    assert strutils.a10n("ab") == "ab"


def test_multi_replace():
    assert strutils.multi_replace("The cat sat", {"cat": "dog", "sat": "ran"}) == (
        "The dog ran"
    )
    mr = strutils.MultiReplace([("a", "1"), ("aa", "2"), ("b+", "B")], regex=True)
    assert mr.sub("aab bbb a") == "11B B 1"
    ci = strutils.MultiReplace({"hello": "bye"}, flags=__import__("re").IGNORECASE)
    assert ci.sub("Hello HELLO hello") == "bye bye bye"
    with pytest.raises(TypeError):
        strutils.MultiReplace(42)


def test_ansi_ascii_and_html():
    assert strutils.strip_ansi("\x1b[0m\x1b[1;36mart\x1b[46;34m") == "art"
    assert strutils.asciify("Beyoncé") == b"Beyonce"
    assert strutils.is_ascii("plain") is True
    assert strutils.is_ascii("café") is False
    assert strutils.html2text("<p>Hello <b>world</b> &amp; more</p>") == "Hello world & more"


def test_indent_splitlines_and_unwrap():
    assert strutils.indent("a\n\nb", "> ") == "> a\n\n> b"
    assert list(strutils.iter_splitlines("x\ny\r\nz")) == ["x", "y", "z"]
    text = "Short\nlines here.\n\nNext para\ngoes on."
    assert strutils.unwrap_text(text) == "Short lines here.\n\nNext para goes on."


def test_misc_helpers():
    assert strutils.is_uuid("e682ccca-5a4c-4ef2-9711-73f9ad1e15ea")
    assert not strutils.is_uuid("0221f0d9-d4b1-11e3-8d62-0800275e3a51")  # v1, not v4
    assert strutils.is_uuid("0221f0d9-d4b1-11e3-8d62-0800275e3a51", version=0)
    assert not strutils.is_uuid("not-a-uuid")
    assert strutils.args2sh(["aa", "[bb]", "cc'cc", "dd\"dd"]) == (
        "aa '[bb]' 'cc'\"'\"'cc' 'dd\"dd'"
    )
    assert strutils.find_hashtags("#atag http://asite/#ahash #b2") == ["atag", "b2"]
    assert strutils.human_readable_list(["a", "b", "c"]) == "a, b, and c"
    assert strutils.ellipsize("abcdefghij", 6) == "abcde\u2026"
    assert strutils.ellipsize("abc", 6) == "abc"
    assert strutils.ellipsize("abcdefghijklmnop", 9, ellipsis="...") == "abcdef..."
