"""Inline patterns of Python-Markdown (markdown.inlinepatterns)."""
import markdown


def md(text, **kw):
    return markdown.markdown(text, **kw)


def test_emphasis_and_strong():
    assert md("*a* _b_ **c** __d__") == "<p><em>a</em> <em>b</em> <strong>c</strong> <strong>d</strong></p>"
    assert md("***both***") == "<p><strong><em>both</em></strong></p>"
    assert md("**bold *and em* here**") == "<p><strong>bold <em>and em</em> here</strong></p>"


def test_intraword_underscore_not_emphasis():
    assert md("snake_case_name") == "<p>snake_case_name</p>"
    assert md("a*b*c") == "<p>a<em>b</em>c</p>"


def test_code_spans_escape_html():
    assert md("use `a < b` here") == "<p>use <code>a &lt; b</code> here</p>"
    assert md("``code with ` tick``") == "<p><code>code with ` tick</code></p>"


def test_inline_links_and_titles():
    assert md("[x](http://e.com)") == '<p><a href="http://e.com">x</a></p>'
    assert md('[x](/p "T")') == '<p><a href="/p" title="T">x</a></p>'
    assert md("[a](u1) and [b](<u 2>)") == '<p><a href="u1">a</a> and <a href="u 2">b</a></p>'


def test_reference_links():
    text = "[one][1], [two][], [Three]\n\n[1]: /first\n[two]: /second 'Second'\n[three]: /third"
    out = md(text)
    assert '<a href="/first">one</a>' in out
    assert '<a href="/second" title="Second">two</a>' in out
    assert '<a href="/third">Three</a>' in out
    assert md("[missing][nope]") == "<p>[missing][nope]</p>"


def test_images():
    assert md("![alt](/img.png)") == '<p><img alt="alt" src="/img.png" /></p>'
    assert md('![a b](/i.png "cap")') == '<p><img alt="a b" src="/i.png" title="cap" /></p>'
    ref = md("![logo][l]\n\n[l]: /logo.svg")
    assert ref == '<p><img alt="logo" src="/logo.svg" /></p>'


def test_autolinks_and_emails():
    assert md("<http://a.b/c>") == '<p><a href="http://a.b/c">http://a.b/c</a></p>'
    mail = md("<me@example.com>")
    assert mail.startswith("<p><a href=\"")
    assert "&#109;" in mail or "&#x6d;" in mail or "mailto" in mail
    assert "@" not in mail.replace("&#64;", "")


def test_backslash_escapes():
    assert md(r"\*not em\*") == "<p>*not em*</p>"
    assert md(r"1\. not a list") == "<p>1. not a list</p>"
    assert md(r"\\ \` \_") == "<p>\\ ` _</p>"


def test_entities_and_ampersands():
    assert md("AT&T &copy; &#169; 4 < 5") == "<p>AT&amp;T &copy; &#169; 4 &lt; 5</p>"


def test_nested_link_with_emphasis_and_code():
    out = md("[**bold** `code` *em*](/x)")
    assert out == '<p><a href="/x"><strong>bold</strong> <code>code</code> <em>em</em></a></p>'


def test_unclosed_markers_left_literal():
    assert md("*open and never closed") == "<p>*open and never closed</p>"
    assert md("[text](unclosed") == "<p>[text](unclosed</p>"
    assert md("**a*") == "<p>*<em>a</em></p>"
