"""Table layout: column width calculation, wrapping, boxes and sections (rich.table, rich._ratio)."""

import io

import pytest
from rich import box
from rich._ratio import ratio_distribute, ratio_reduce, ratio_resolve
from rich.console import Console
from rich.errors import NotRenderableError
from rich.measure import Measurement
from rich.table import Column, Table


def make_console(width=40):
    return Console(
        file=io.StringIO(),
        width=width,
        force_terminal=False,
        color_system=None,
        legacy_windows=False,
        _environ={},
    )


def render_lines(renderable, width=40):
    console = make_console(width)
    console.print(renderable)
    return [line.rstrip() for line in console.file.getvalue().splitlines()]


def stock_table():
    t = Table(title="Stock", box=box.ASCII)
    t.add_column("Item")
    t.add_column("Qty", justify="right")
    t.add_column("Note")
    t.add_row("apple", "3", "fresh")
    t.add_row("banana", "12", "a rather long note that must wrap")
    t.add_row("kiwi", "100", None)
    return t


def test_ascii_table_wraps_long_cell():
    assert render_lines(stock_table()) == [
        "                 Stock",
        "+--------------------------------------+",
        "| Item   | Qty | Note                  |",
        "|--------+-----+-----------------------|",
        "| apple  |   3 | fresh                 |",
        "| banana |  12 | a rather long note    |",
        "|        |     | that must wrap        |",
        "| kiwi   | 100 |                       |",
        "+--------------------------------------+",
    ]


def test_table_natural_width_when_narrow_content():
    t = Table(box=box.ASCII)
    t.add_column("k")
    t.add_column("value")
    for k, v in [("a", "1"), ("bb", "22"), ("ccc", "333")]:
        t.add_row(k, v)
    assert render_lines(t) == [
        "+-------------+",
        "| k   | value |",
        "|-----+-------|",
        "| a   | 1     |",
        "| bb  | 22    |",
        "| ccc | 333   |",
        "+-------------+",
    ]
    assert t.row_count == 3


def test_expand_with_ratios_and_footer():
    t = Table(box=box.SIMPLE, show_footer=True, expand=True)
    t.add_column("A", footer="sum", ratio=1)
    t.add_column("B", footer="6", ratio=2, justify="center")
    for i in range(1, 4):
        t.add_row(f"r{i}", str(i))
    assert render_lines(t, width=30) == [
        "",
        "  A                B",
        " ────────────────────────────",
        "  r1               1",
        "  r2               2",
        "  r3               3",
        " ────────────────────────────",
        "  sum              6",
        "",
    ]


def test_grid_and_padding():
    g = Table.grid(padding=(0, 2))
    g.add_column()
    g.add_column(justify="right")
    g.add_row("x", "1")
    g.add_row("longer", "22")
    assert render_lines(g) == ["x        1", "longer  22"]


def test_sections_lines_and_ellipsis_overflow():
    t = Table(box=box.MINIMAL, show_lines=True)
    t.add_column("n", no_wrap=True, overflow="ellipsis", max_width=6)
    t.add_column("v")
    t.add_row("abcdefghij", "1")
    t.add_row("ab", "2")
    t.add_section()
    t.add_row("z", "3")
    assert render_lines(t) == [
        "         ╷",
        "  n      │ v",
        "╶────────┼───╴",
        "  abcde… │ 1",
        "╶────────┼───╴",
        "  ab     │ 2",
        "╶────────┼───╴",
        "  z      │ 3",
        "         ╵",
    ]


def test_columns_collapse_when_too_narrow():
    t = Table(box=box.ASCII)
    for i in range(6):
        t.add_column(f"col{i}")
    t.add_row(*["x" * 8 for _ in range(6)])
    assert render_lines(t, width=30) == [
        "+----------------------------+",
        "| c… | c… | c… | c… | c… | … |",
        "|----+----+----+----+----+---|",
        "| x… | x… | x… | x… | x… | … |",
        "+----------------------------+",
    ]


def test_measurement_and_min_width():
    console = make_console()
    m = Measurement.get(console, console.options, stock_table())
    assert (m.minimum, m.maximum) == (25, 40)
    t = Table(box=box.ASCII, min_width=20)
    t.add_column("a")
    t.add_row("1")
    lines = render_lines(t)
    assert len(lines[0]) == 20
    assert lines[1] == "| a                |"


def test_add_row_validation_and_column_objects():
    t = Table(Column("one", justify="center"), "two")
    assert [c.header for c in t.columns] == ["one", "two"]
    t.add_row("a")
    assert [list(c.cells) for c in t.columns] == [["a"], [""]]
    # extra cells create new columns, back-filled for earlier rows
    t.add_row("1", "2", "3")
    assert len(t.columns) == 3
    assert [str(c) for c in t.columns[2].cells] == ["", "3"]
    with pytest.raises(NotRenderableError):
        t.add_row(object())


def test_ratio_helpers():
    assert ratio_distribute(10, [1, 1, 1]) == [4, 3, 3]
    assert ratio_distribute(10, [1, 2, 3], minimums=[3, 1, 1]) == [3, 3, 4]
    assert ratio_distribute(7, [2, 5]) == [2, 5]
    assert ratio_reduce(5, [1, 1, 1], [10, 10, 10], [10, 10, 10]) == [8, 8, 9]
    assert ratio_reduce(0, [1, 1], [5, 5], [5, 5]) == [5, 5]

    class Edge:
        def __init__(self, size=None, ratio=1, minimum_size=1):
            self.size = size
            self.ratio = ratio
            self.minimum_size = minimum_size

    assert ratio_resolve(20, [Edge(size=5), Edge(ratio=1), Edge(ratio=3)]) == [5, 3, 12]
    assert ratio_resolve(10, [Edge(size=4), Edge(ratio=1, minimum_size=8)]) == [4, 8]


def test_heavy_and_rounded_boxes_with_title_caption():
    t = Table(title="T", caption="cap", box=box.ROUNDED, title_justify="left", caption_justify="right")
    t.add_column("h")
    t.add_row("v1")
    t.add_row("v2")
    assert render_lines(t) == [
        "T",
        "╭────╮",
        "│ h  │",
        "├────┤",
        "│ v1 │",
        "│ v2 │",
        "╰────╯",
        "   cap",
    ]
