"""Workloads of humanize at three sizes (about 20x apart), for the measured kinds (W2 peak memory, W3 wall
time): each test keeps what it built until it ends, so both its time and its peak grow with the size."""

import humanize


def _intcomma(n):
    out = [humanize.intcomma(i * 7919) for i in range(n)]
    assert out[-1] == f"{(n - 1) * 7919:,}"


def _naturalsize(n):
    out = [humanize.naturalsize(i * 1021) for i in range(n)]
    assert out[0] == "0 Bytes" and len(out) == n


def test_intcomma_small():
    _intcomma(100)


def test_intcomma_medium():
    _intcomma(2_000)


def test_intcomma_large():
    _intcomma(40_000)


def test_naturalsize_small():
    _naturalsize(100)


def test_naturalsize_medium():
    _naturalsize(2_000)


def test_naturalsize_large():
    _naturalsize(40_000)
