"""Console rendering of layout renderables (rich.console, rich.panel, rich.padding, rich.align,
rich.columns, rich.rule, rich.tree)."""

import datetime
import io

from rich import box
from rich.align import Align
from rich.columns import Columns
from rich.console import Console, Group
from rich.padding import Padding
from rich.panel import Panel
from rich.rule import Rule
from rich.tree import Tree


def make_console(width=30, **kwargs):
    return Console(
        file=io.StringIO(),
        width=width,
        force_terminal=False,
        color_system=None,
        legacy_windows=False,
        _environ={},
        **kwargs,
    )


def render(renderable, width=30, **kwargs):
    console = make_console(width, **kwargs)
    console.print(renderable)
    return console.file.getvalue()


def test_panel_with_title_subtitle_and_wrapping():
    out = render(Panel("Hello panel text that wraps around", title="Title", subtitle="sub", box=box.ASCII))
    assert out.splitlines() == [
        "+---------- Title -----------+",
        "| Hello panel text that      |",
        "| wraps around               |",
        "+----------- sub ------------+",
    ]
    fit = render(Panel.fit("fit", box=box.ROUNDED, padding=(0, 2)))
    assert fit.splitlines() == ["╭───────╮", "│  fit  │", "╰───────╯"]


def test_padding_and_alignment():
    assert render(Padding("pad", (1, 2, 0, 4))) == " " * 30 + "\n" + "    pad" + " " * 23 + "\n"
    assert render(Align.right("r"), width=10) == "         r\n"
    assert render(Align.center("mid"), width=11) == "    mid    \n"
    aligned = render(Align("x", align="center", vertical="middle", height=3), width=5)
    assert aligned.splitlines() == ["     ", "  x  ", "     "]


def test_columns_layout_fills_rows():
    out = render(Columns([f"item{i}" for i in range(7)], padding=(0, 1)), width=30)
    assert [line.rstrip() for line in out.splitlines()] == [
        "item0 item1 item2 item3 item4",
        "item5 item6",
    ]
    eq = render(Columns([f"w{i}" * (i % 3 + 1) for i in range(7)], equal=True, expand=True), width=30)
    assert [line.rstrip() for line in eq.splitlines()] == [
        "w0      w1w1      w2w2w2    w3",
        "w4w4    w5w5w5    w6",
    ]
    narrow = render(Columns(["aaaa", "bbbb", "cccc"]), width=9)
    assert [line.rstrip() for line in narrow.splitlines()] == ["aaaa bbbb", "cccc"]
    single = render(Columns(["aaaa", "bbbb", "cccc"]), width=8)
    assert [line.rstrip() for line in single.splitlines()] == ["aaaa", "bbbb", "cccc"]


def test_rules_with_titles_and_alignment():
    assert render(Rule("Section", characters="="), width=20) == "===== Section ======\n"
    assert render(Rule(align="left", title="L"), width=12) == "L ──────────\n"
    assert render(Rule(characters="-+"), width=7) == "-+-+-+-\n"
    assert render(Rule("a very long title indeed"), width=10) == "─ a ver… ─\n"


def test_tree_guides_nested_levels():
    tree = Tree("root")
    a = tree.add("a")
    a.add("a1")
    a.add("a2").add("deep")
    tree.add("b")
    tree.add("c", guide_style="bold")
    hidden = tree.add("collapsed", expanded=False)
    hidden.add("never shown")
    assert render(tree).splitlines() == [
        "root",
        "├── a",
        "│   ├── a1",
        "│   └── a2",
        "│       └── deep",
        "├── b",
        "├── c",
        "└── collapsed",
    ]
    ascii_tree = Tree("r", guide_style="")
    ascii_tree.add("x").add("y")
    assert render(ascii_tree, width=20, safe_box=True).splitlines() == ["r", "└── x", "    └── y"]


def test_group_and_nested_panels():
    assert render(Group("one", Rule(characters="-"), "two"), width=10) == "one\n----------\ntwo\n"
    nested = render(Panel(Panel("in", box=box.ASCII), box=box.ASCII), width=12)
    assert nested.splitlines() == [
        "+----------+",
        "| +------+ |",
        "| | in   | |",
        "| +------+ |",
        "+----------+",
    ]


def test_log_with_fixed_clock_and_export_text():
    console = make_console(
        40,
        record=True,
        log_time=True,
        log_path=False,
        get_datetime=lambda: datetime.datetime(2024, 1, 2, 3, 4, 5),
        log_time_format="[%H:%M:%S]",
    )
    console.log("logged", 1, [1, 2])
    console.print("[bold]x[/bold]")
    text = console.export_text()
    assert [line.rstrip() for line in text.splitlines()] == ["[03:04:05] logged 1", "           [1, 2]", "x"]
    assert console.export_text() == ""


def test_capture_overflow_and_soft_wrap():
    console = make_console(20)
    with console.capture() as capture:
        console.print("captured", style="bold")
        console.print("two", "parts", sep="|", end="!\n")
    assert capture.get() == "captured\ntwo|parts!\n"
    assert render("a" * 25, width=10, soft_wrap=True) == "a" * 25 + "\n"
    c = make_console(10)
    c.print("abcdefghijklmno", overflow="ellipsis", no_wrap=True)
    c.print("abcdefghijklmno", overflow="fold")
    c.print("abcdefghijklmno", overflow="crop", no_wrap=True)
    assert c.file.getvalue() == "abcdefghi…\nabcdefghij\nklmno\nabcdefghij\n"


def test_export_html_and_measure():
    console = make_console(40, record=True)
    console.print("[red]hi[/red] plain")
    html = console.export_html(inline_styles=True, code_format="{code}")
    assert html.startswith('<span style="color: #800000; text-decoration-color: #800000">hi</span> plain')
    m = make_console(40).measure(Panel("abc"))
    assert (m.minimum, m.maximum) == (7, 7)
    m2 = make_console(40).measure("hello world")
    assert (m2.minimum, m2.maximum) == (5, 11)
