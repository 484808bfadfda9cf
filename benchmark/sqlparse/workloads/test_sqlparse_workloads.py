"""Workloads of sqlparse at three sizes (about 20x apart) and a fourth, 2-4x the largest, for the measured kinds
(W2 peak memory, W3 wall time): each test keeps what it built until it ends, so both its time and its peak grow
with the size."""

import sqlparse


def _script(n):
    return " ".join(f"select a{i}, b from t{i % 7} where x = {i} and y in (1, 2);" for i in range(n))


def _format(n):
    out = sqlparse.format(_script(n), reindent=True, keyword_case="upper")
    assert out.count("SELECT") == n


def _split(n):
    out = sqlparse.split(_script(n))
    assert len(out) == n


def test_format_small():
    _format(3)


def test_format_medium():
    _format(60)


def test_format_large():
    _format(1_200)


def test_split_small():
    _split(3)


def test_split_medium():
    _split(60)


def test_split_large():
    _split(1_200)


def test_format_xlarge():
    _format(3_600)


def test_split_xlarge():
    _split(4_800)
