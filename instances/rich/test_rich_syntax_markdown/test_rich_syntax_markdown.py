"""Syntax highlighting and Markdown rendering (rich.syntax, rich.markdown)."""

import io

import pytest
from rich.console import Console
from rich.markdown import Markdown
from rich.syntax import Syntax

CODE = "def add(a, b):\n    total = a + b\n    return total\n\n\nprint(add(1, 2))\n"

MD = """# Title

Some *emphasis* and **strong** text with `code`.

- one
- two
  - nested

1. first
2. second

```python
x = 1
```

> quoted text

[link](http://example.com)

---
"""


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


def test_syntax_with_line_numbers():
    assert render_lines(Syntax(CODE, "python", theme="ansi_dark", line_numbers=True)) == [
        "  1 def add(a, b):",
        "  2     total = a + b",
        "  3     return total",
        "  4",
        "  5",
        "  6 print(add(1, 2))",
        "  7",
    ]


def test_syntax_line_range_and_start_line():
    assert render_lines(Syntax(CODE, "python", theme="ansi_dark", line_numbers=True, line_range=(2, 3))) == [
        "  2     total = a + b",
        "  3     return total",
    ]
    many = "\n".join(f"x{i} = {i}" for i in range(1, 13))
    lines = render_lines(Syntax(many, "python", theme="ansi_dark", line_numbers=True, start_line=95))
    assert lines[0] == "   95 x1 = 1"
    assert lines[-1] == "  106 x12 = 12"
    assert len(lines) == 12


def test_syntax_word_wrap_tabs_and_code_width():
    wrapped = render_lines(
        Syntax("x = 'a very long string literal that will need wrapping'", "python", theme="ansi_dark", word_wrap=True),
        width=30,
    )
    assert wrapped == ["x = 'a very long string", "literal that will need", "wrapping'"]
    assert render_lines(Syntax("a\tb", "text", tab_size=4, theme="ansi_dark", code_width=10)) == ["a   b"]
    cropped = render_lines(Syntax("0123456789abcdef", "text", theme="ansi_dark", code_width=8))
    assert cropped == ["01234567"]


def test_syntax_highlight_tokens_and_lexer_guessing():
    syntax = Syntax(CODE, "python", theme="ansi_dark")
    highlighted = syntax.highlight(CODE)
    assert highlighted.plain == CODE
    assert len(highlighted.spans) > 5
    keyword_texts = sorted({CODE[s.start:s.end] for s in highlighted.spans if str(s.style) == "bright_blue"})
    assert keyword_texts == ["1", "2", "def", "return"]
    assert Syntax.guess_lexer("module.py") == "python"
    assert Syntax.guess_lexer("notes.unknownext") == "default"
    assert Syntax.guess_lexer("data.json") == "json"


def test_syntax_unknown_lexer_falls_back_to_plain_text():
    syntax = Syntax("plain <b>text</b>", "no-such-language", theme="ansi_dark")
    assert syntax.lexer is None
    assert render_lines(syntax) == ["plain <b>text</b>"]
    assert syntax.highlight("plain").spans == []


def test_syntax_from_path(tmp_path):
    path = tmp_path / "script.py"
    path.write_text("import os\n\nprint(os.sep)\n")
    syntax = Syntax.from_path(str(path), theme="ansi_dark", line_numbers=True)
    assert syntax.lexer.name == "Python"
    assert render_lines(syntax) == ["  1 import os", "  2", "  3 print(os.sep)", "  4"]
    with pytest.raises(FileNotFoundError):
        Syntax.from_path(str(tmp_path / "missing.py"))


def test_markdown_block_elements():
    lines = render_lines(Markdown(MD))
    assert lines == [
        "                 Title",
        "",
        "Some emphasis and strong text with code.",
        "",
        " • one",
        " • two",
        "    • nested",
        "",
        " 1 first",
        " 2 second",
        "",
        "",
        " x = 1",
        "",
        "",
        "▌ quoted text",
        "",
        "link",
        "",
        "-" * 40,
        "",
    ]


def test_markdown_wrapping_headings_and_hyperlinks_off():
    md = Markdown("## Sub heading\n\n" + "word " * 12 + "\n\n[site](http://example.com)", hyperlinks=False)
    lines = render_lines(md, width=24)
    assert lines == [
        "Sub heading",
        "",
        "word word word word word",
        "word word word word word",
        "word word",
        "",
        "site",
        "(http://example.com)",
    ]


def test_markdown_nested_ordered_list_numbers():
    md = Markdown("3. three\n4. four\n   1. inner a\n   2. inner b\n5. five\n")
    assert render_lines(md) == [
        "",
        " 3 three",
        " 4 four",
        "    1 inner a",
        "    2 inner b",
        " 5 five",
    ]
