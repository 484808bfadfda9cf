"""Core block processors of Python-Markdown (markdown.blockprocessors)."""
import markdown


def md(text, **kw):
    return markdown.markdown(text, **kw)


def test_hash_and_setext_headers():
    assert md("# One\n## Two ##\n###### Six") == "<h1>One</h1>\n<h2>Two</h2>\n<h6>Six</h6>"
    assert md("Title\n=====\n\nSub\n---") == "<h1>Title</h1>\n<h2>Sub</h2>"


def test_paragraphs_and_line_joining():
    out = md("first line\nsecond line\n\n\nnew para")
    assert out == "<p>first line\nsecond line</p>\n<p>new para</p>"
    assert md("a  \nb") == "<p>a<br />\nb</p>"


def test_unordered_and_ordered_lists():
    out = md("* a\n* b\n* c")
    assert out.count("<li>") == 3
    assert out.startswith("<ul>")
    ol = md("3. x\n7. y\n1. z")
    assert ol.startswith("<ol>")
    assert ol.count("<li>") == 3
    loose = md("- a\n\n- b")
    assert "<li>\n<p>a</p>\n</li>" in loose


def test_nested_lists():
    text = "- one\n    - two\n        - three\n    - four\n- five"
    out = md(text)
    assert out.count("<ul>") == 3
    assert out.count("<li>") == 5
    assert out.index("three") < out.index("four") < out.index("five")


def test_blockquotes_nested_and_lazy():
    out = md("> quote\n> > inner\n> back")
    assert out.count("<blockquote>") == 2
    lazy = md("> first\ncontinued\n\nafter")
    assert lazy == "<blockquote>\n<p>first\ncontinued</p>\n</blockquote>\n<p>after</p>"


def test_indented_code_block():
    out = md("para\n\n    def f():\n        return 1\n\n    x = f()\n\nend")
    assert "<pre><code>def f():\n    return 1\n\nx = f()\n</code></pre>" in out
    assert md("    <b>&</b>") == "<pre><code>&lt;b&gt;&amp;&lt;/b&gt;\n</code></pre>"


def test_horizontal_rules():
    for rule in ["***", "- - -", "_____", "* * * *"]:
        assert md("a\n\n" + rule + "\n\nb") == "<p>a</p>\n<hr />\n<p>b</p>"
    assert md("text\n***\nmore").count("<hr />") == 1


def test_raw_html_block_passthrough():
    out = md("<div class=\"x\">\n*not emphasised*\n</div>\n\n*emph*")
    assert "<div class=\"x\">\n*not emphasised*\n</div>" in out
    assert out.endswith("<p><em>emph</em></p>")
    inline_html = md("a <span>b</span> c")
    assert inline_html == "<p>a <span>b</span> c</p>"


def test_list_items_with_paragraphs_and_code():
    text = "1. item\n\n    more text\n\n        code here\n\n2. next"
    out = md(text)
    assert out.count("<li>") == 2
    assert "<p>more text</p>" in out
    assert "<pre><code>code here\n</code></pre>" in out


def test_empty_and_whitespace_input():
    assert md("") == ""
    assert md("   \n\n  \n") == ""
    assert md("\n\nx\n\n") == "<p>x</p>"
