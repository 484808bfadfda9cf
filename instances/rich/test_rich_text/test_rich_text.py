"""Rich text objects and console markup (rich.text, rich.markup, rich._wrap, rich.ansi)."""

import io

import pytest
from rich.console import Console
from rich.errors import MarkupError
from rich.markup import escape, render
from rich.style import Style
from rich.text import Span, Text


def make_console(width=40):
    return Console(
        file=io.StringIO(),
        width=width,
        force_terminal=False,
        color_system=None,
        legacy_windows=False,
        _environ={},
    )


def test_markup_render_spans():
    t = render("[bold]Hello[/bold] [red on white]world[/] and [link=https://x.y]link[/link]")
    assert t.plain == "Hello world and link"
    assert t.spans == [Span(0, 5, "bold"), Span(6, 11, "red on white"), Span(16, 20, "link https://x.y")]
    nested = Text.from_markup("[b]bold [i]both[/i][/b] \\[literal]")
    assert nested.plain == "bold both [literal]"
    assert nested.spans == [Span(0, 9, "bold"), Span(5, 9, "italic")]


def test_markup_errors_and_escape():
    with pytest.raises(MarkupError) as excinfo:
        render("[bold]x[/italic]")
    assert "closing tag '[/italic]' at position 7 doesn't match any open tag" in str(excinfo.value)
    with pytest.raises(MarkupError) as excinfo:
        render("x[/]")
    assert "has nothing to close" in str(excinfo.value)
    assert escape("[bold]x[/bold]") == "\\[bold]x\\[/bold]"
    assert render(escape("[red]not markup[/red]")).plain == "[red]not markup[/red]"


def test_wrap_at_several_widths():
    console = make_console()
    t = Text("The quick brown fox jumps over the lazy dog")
    assert [line.plain for line in t.wrap(console, 10)] == ["The quick ", "brown fox ", "jumps over", "the lazy ", "dog"]
    assert [line.plain for line in t.wrap(console, 15)] == ["The quick brown", "fox jumps over ", "the lazy dog"]
    assert [line.plain for line in t.wrap(console, 12, justify="full")] == [
        "The    quick",
        "brown    fox",
        "jumps   over",
        "the lazy dog",
    ]
    assert [line.plain for line in Text("abcdefghijklmnop").wrap(console, 5)] == ["abcde", "fghij", "klmno", "p"]
    assert [line.plain for line in Text("one\ntwo three").wrap(console, 5)] == ["one", "two ", "three"]


def test_truncate_pad_align_and_tabs():
    t = Text("hello world")
    t.truncate(8, overflow="ellipsis")
    assert t.plain == "hello w…"
    t = Text("hello")
    t.truncate(10, pad=True)
    assert t.plain == "hello     "
    t = Text("hi")
    t.align("center", 8)
    assert t.plain == "   hi   "
    t = Text("hi")
    t.align("right", 5, character=".")
    assert t.plain == "...hi"
    t = Text("\tab\tc")
    t.expand_tabs(4)
    assert t.plain == "    ab  c"
    assert Text("ab 中文 cd").cell_len == 10


def test_split_divide_and_slicing_keep_spans():
    assert [p.plain for p in Text("a,b,,c").split(",")] == ["a", "b", "", "c"]
    assert [p.plain for p in Text("a,b,c").split(",", include_separator=True)] == ["a,", "b,", "c"]
    styled = Text("0123456789")
    styled.stylize("bold", 1, 7)
    parts = styled.divide([2, 5, 9])
    assert [p.plain for p in parts] == ["01", "234", "5678", "9"]
    assert [p.spans for p in parts] == [[Span(1, 2, "bold")], [Span(0, 3, "bold")], [Span(0, 2, "bold")], []]
    s = Text("Hello World")
    s.stylize("bold", 0, 5)
    s.stylize("red", 3, 8)
    assert s[2:9].spans == [Span(0, 3, "bold"), Span(1, 6, "red")]
    assert s[4].plain == "o"


def test_highlight_regex_and_words():
    t = Text("foo bar foo baz foo")
    assert t.highlight_regex(r"foo", "bold") == 3
    assert t.highlight_words(["bar", "baz"], "red") == 2
    assert sorted((s.start, s.end, s.style) for s in t.spans) == [
        (0, 3, "bold"),
        (4, 7, "red"),
        (8, 11, "bold"),
        (12, 15, "red"),
        (16, 19, "bold"),
    ]
    kv = Text("a=1 b=22 c=333")
    assert kv.highlight_regex(r"(?P<key>\w)=(?P<value>\d+)", style_prefix="kv.") == 3
    assert [(s.start, s.end, s.style) for s in kv.spans if s.style == "kv.value"] == [(2, 3, "kv.value"), (6, 8, "kv.value"), (11, 14, "kv.value")]


def test_assemble_join_and_markup_property():
    a = Text.assemble("a", ("b", "bold"), Text("c", style="red"), " d")
    assert a.plain == "abc d"
    assert a.spans == [Span(1, 2, "bold"), Span(2, 3, "red")]
    assert a.markup == "a[bold]b[red][/bold]c[/red] d"
    j = Text(", ").join([Text("x", style="bold"), Text("y"), Text("z", style="i")])
    assert j.plain == "x, y, z"
    assert j.spans == [Span(0, 1, "bold"), Span(6, 7, "i")]
    assert (Text("p") + "q" + Text("r")).plain == "pqr"


def test_from_ansi_decodes_sgr_codes():
    t = Text.from_ansi("\x1b[1mbold\x1b[0m plain \x1b[31;42mcolor\x1b[0m\x1b[38;5;200mX\x1b[38;2;1;2;3mY\x1b[0m")
    assert t.plain == "bold plain colorXY"
    styles = [(s.start, s.end, s.style) for s in t.spans]
    assert styles[0] == (0, 4, Style(bold=True))
    assert styles[1] == (11, 16, Style(color="color(1)", bgcolor="color(2)"))
    assert styles[2] == (16, 17, Style(color="color(200)"))
    assert styles[3] == (17, 18, Style(color="#010203"))


def test_indentation_detection_and_guides():
    code = Text("def f():\n    if x:\n        return 1\n    return 2\n")
    assert code.detect_indentation() == 4
    assert code.with_indent_guides(indent_size=4).plain == "def f():\n│   if x:\n│   │   return 1\n│   return 2\n"
    two = Text("a:\n  b:\n    c\n")
    assert two.detect_indentation() == 2


def test_render_text_through_console_with_justify():
    console = make_console(width=20)
    console.print(Text("left"), justify="left")
    console.print(Text("center"), justify="center")
    console.print(Text("right"), justify="right")
    console.print("[bold]wrapped text that goes past the width[/bold]")
    out = console.file.getvalue().splitlines()
    # justified lines are padded to the full width
    assert out == [
        "left                ",
        "       center       ",
        "               right",
        "wrapped text that ",
        "goes past the width",
    ]
