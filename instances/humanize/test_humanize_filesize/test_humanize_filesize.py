"""Tests for humanize.filesize.naturalsize in its decimal, binary and GNU modes."""

import humanize
from humanize.filesize import naturalsize


def test_decimal_bytes_and_single_byte():
    assert naturalsize(0) == "0 Bytes"
    assert naturalsize(1) == "1 Byte"
    assert naturalsize(-1) == "-1 Byte"
    assert naturalsize(999) == "999 Bytes"


def test_decimal_units():
    sizes = [1000, 1_500_000, 3 * 10**9, 42 * 10**12]
    assert [naturalsize(s) for s in sizes] == ["1.0 kB", "1.5 MB", "3.0 GB", "42.0 TB"]


def test_decimal_rounding_steps_up_a_unit():
    assert naturalsize(999_999) == "1.0 MB"
    assert naturalsize(999_949) == "999.9 kB"


def test_binary_units():
    assert naturalsize(1024, binary=True) == "1.0 KiB"
    assert naturalsize(3000, binary=True) == "2.9 KiB"
    assert naturalsize(5 * 1024**3, binary=True) == "5.0 GiB"
    assert naturalsize(-4096, binary=True) == "-4.0 KiB"


def test_gnu_units():
    assert naturalsize(300, gnu=True) == "300B"
    assert naturalsize(1, gnu=True) == "1B"
    assert naturalsize(3000, gnu=True) == "2.9K"
    assert naturalsize(3000, gnu=True, format="%.3f") == "2.930K"
    assert naturalsize(2 * 1024**2, True, True) == "2.0M"


def test_string_input_and_custom_format():
    assert naturalsize("2500") == "2.5 kB"
    assert naturalsize("123456789", format="%.2f") == "123.46 MB"
    assert humanize.naturalsize(10**28) == "10.0 RB"


def test_beyond_largest_suffix():
    assert naturalsize(3 * 10**34) == "30000.0 QB"
    assert naturalsize(2**110, binary=True) == "1024.0 QiB"
