"""Python-Markdown 'extra' extensions: tables, fenced_code, def_list, abbr, footnotes, md_in_html."""
import pytest
import markdown


def md(text, exts, **kw):
    return markdown.markdown(text, extensions=exts, **kw)


def test_table_basic_and_alignment():
    text = "| a | b | c |\n|:--|:-:|--:|\n| 1 | 2 | 3 |\n| 4 | 5 | 6 |"
    out = md(text, ["tables"])
    assert out.count("<tr>") == 3
    assert out.count("<td") == 6
    assert '<th style="text-align: left;">a</th>' in out
    assert '<td style="text-align: center;">5</td>' in out
    assert '<td style="text-align: right;">6</td>' in out


def test_table_without_outer_pipes_and_escapes():
    text = "x | y\n--- | ---\n`a|b` | c\\|d"
    out = md(text, ["tables"])
    assert "<td><code>a|b</code></td>" in out
    assert "<td>c|d</td>" in out
    assert out.count("<th>") == 2


def test_table_short_rows_padded():
    out = md("| a | b | c |\n|---|---|---|\n| 1 |", ["tables"])
    assert out.count("<td>") == 3
    assert "<td></td>" in out


def test_fenced_code_with_language():
    text = "```python\ndef f():\n    return 1\n```\n\n~~~\nplain <x>\n~~~"
    out = md(text, ["fenced_code"])
    assert '<pre><code class="language-python">def f():\n    return 1\n</code></pre>' in out
    assert "<pre><code>plain &lt;x&gt;\n</code></pre>" in out


def test_fenced_code_attributes():
    out = md("``` { .lang #ident }\ncode\n```", ["fenced_code"])
    assert 'id="ident"' in out
    assert 'class="language-lang"' in out


def test_definition_lists():
    text = "Apple\n:   A fruit.\n:   A company.\n\nPear\n:   Another fruit."
    out = md(text, ["def_list"])
    assert out.count("<dt>") == 2
    assert out.count("<dd>") == 3
    assert out.startswith("<dl>")


def test_abbreviations():
    text = "The HTML spec and CSS.\n\n*[HTML]: Hyper Text Markup Language\n*[CSS]: Cascading Style Sheets"
    out = md(text, ["abbr"])
    assert '<abbr title="Hyper Text Markup Language">HTML</abbr>' in out
    assert '<abbr title="Cascading Style Sheets">CSS</abbr>' in out
    assert "*[" not in out


def test_footnotes_numbering_and_backrefs():
    text = "One[^a] two[^b] again[^a].\n\n[^a]: First note.\n[^b]: Second note."
    out = md(text, ["footnotes"])
    assert out.count('class="footnote-ref"') == 3
    assert '<div class="footnote">' in out
    assert out.count("<li id=\"fn:") == 2
    assert out.index("First note") < out.index("Second note")
    assert "fnref2:a" in out


def test_footnote_undefined_left_as_text():
    out = md("Text[^missing].", ["footnotes"])
    assert out == "<p>Text[^missing].</p>"


def test_md_in_html_and_extra_bundle():
    text = '<div markdown="1">\n*inside*\n</div>\n\nTerm\n:   Def\n\n| h |\n|---|\n| v |'
    out = md(text, ["extra"])
    assert "<em>inside</em>" in out
    assert "<dl>" in out
    assert "<table>" in out


def test_unknown_extension_raises():
    with pytest.raises((ImportError, AttributeError)):
        markdown.markdown("x", extensions=["definitely_not_an_extension_xyz"])
