"""Tests for path sorting (ns.PATH), path_splitter and decoding helpers."""

from pathlib import PurePosixPath

import pytest

from natsort import as_ascii, as_utf8, decoder, natsort_keygen, natsorted, ns
from natsort.utils import path_splitter


def test_path_splitter_components():
    assert list(path_splitter("dir/sub/file10.tar.gz")) == [
        "dir", "sub", "file10", ".tar", ".gz",
    ]
    assert list(path_splitter("a/b.c.d.e")) == ["a", "b.c", ".d", ".e"]
    assert list(path_splitter("report.2021")) == ["report.2021"]
    assert list(path_splitter("data/archive.verylong")) == ["data", "archive.verylong"]


def test_path_splitter_without_base_treatment():
    assert list(path_splitter("x/y10.txt", treat_base=False)) == ["x", "y10.txt"]
    assert list(path_splitter(PurePosixPath("/root/f1.py"))) == ["/", "root", "f1", ".py"]


def test_path_sorting_vs_plain():
    data = ["./folder/file (1).txt", "./folder/file.txt",
            "./folder (1)/file.txt", "./folder (10)/file.txt"]
    assert natsorted(data, alg=ns.PATH) == [
        "./folder/file.txt", "./folder/file (1).txt",
        "./folder (1)/file.txt", "./folder (10)/file.txt",
    ]
    assert natsorted(data) == [
        "./folder (1)/file.txt", "./folder (10)/file.txt",
        "./folder/file (1).txt", "./folder/file.txt",
    ]


def test_path_key_structure():
    key = natsort_keygen(alg=ns.PATH)
    assert key("a/b2.txt") == (("a",), ("b", 2), (".txt",))
    assert key(PurePosixPath("d1/e")) == (("d", 1), ("e",))
    assert key(5) == (("", 5),)
    assert key(b"raw") == ((b"raw",),)


def test_path_sorting_purepaths_and_ignorecase():
    paths = [PurePosixPath("B/x2"), PurePosixPath("a/x10"), PurePosixPath("a/x9")]
    assert natsorted(paths, alg=ns.PATH | ns.IGNORECASE) == [
        PurePosixPath("a/x9"), PurePosixPath("a/x10"), PurePosixPath("B/x2"),
    ]


def test_decoder_and_helpers():
    dec = decoder("latin-1")
    assert dec(b"caf\xe9") == "caf\xe9"
    assert dec(12) == 12
    assert as_utf8(b"na\xc3\xafve") == "na\xefve"
    assert as_ascii(b"plain") == "plain"
    with pytest.raises(UnicodeDecodeError):
        as_ascii(b"\xff")


def test_sorting_bytes_with_decoder_key():
    data = [b"file10", b"file9", b"file1"]
    assert natsorted(data) == [b"file1", b"file10", b"file9"]
    assert natsorted(data, key=as_utf8) == [b"file1", b"file9", b"file10"]
