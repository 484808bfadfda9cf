"""Workloads of rich at three sizes (about 20x apart) and a fourth, 2-4x the largest, for the measured kinds (W2
peak memory, W3 wall time): each test keeps what it built until it ends, so both its time and its peak grow with
the size."""

import io

from rich.console import Console
from rich.table import Table
from rich.text import Text


def _table(n):
    console = Console(file=io.StringIO(), width=80, color_system=None)
    table = Table("id", "name", "size")
    for i in range(n):
        table.add_row(str(i), f"item {i}", f"{i * 31} B")
    console.print(table)
    assert console.file.getvalue().count("item ") == n


def _wrap(n):
    console = Console(file=io.StringIO(), width=80, color_system=None)
    lines = Text(" ".join(f"word{i}" for i in range(n))).wrap(console, 40)
    assert len(lines) > n // 8


def test_table_small():
    _table(5)


def test_table_medium():
    _table(100)


def test_table_large():
    _table(2_000)


def test_wrap_small():
    _wrap(100)


def test_wrap_medium():
    _wrap(2_000)


def test_wrap_large():
    _wrap(40_000)


def test_table_xlarge():
    _table(8_000)


def test_wrap_xlarge():
    _wrap(160_000)
