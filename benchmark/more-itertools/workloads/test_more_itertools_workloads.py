"""Workloads of more-itertools at three sizes (about 30x apart), for the measured kinds (W2 peak memory, W3 wall
time): each test keeps what it built until it ends, so both its time and its peak grow with the size."""

import more_itertools as mi


def _windowed(n):
    out = list(mi.windowed(range(n), 4))
    assert len(out) == n - 3 and out[-1] == (n - 4, n - 3, n - 2, n - 1)


def _chunked(n):
    out = list(mi.chunked(range(n), 7))
    assert len(out) == -(-n // 7) and sum(len(c) for c in out) == n


def test_windowed_small():
    _windowed(300)


def test_windowed_medium():
    _windowed(9_000)


def test_windowed_large():
    _windowed(270_000)


def test_chunked_small():
    _chunked(300)


def test_chunked_medium():
    _chunked(9_000)


def test_chunked_large():
    _chunked(270_000)
