"""Python-Markdown extensions: toc, attr_list, admonition, meta, sane_lists, nl2br, smarty, wikilinks."""
import markdown
from markdown.extensions.toc import slugify, TocExtension


def test_toc_ids_and_nesting():
    m = markdown.Markdown(extensions=["toc"])
    html = m.convert("# Intro\n## Part A\n## Part B\n### Deep\n# Intro")
    assert '<h1 id="intro">Intro</h1>' in html
    assert '<h1 id="intro_1">Intro</h1>' in html
    tokens = m.toc_tokens
    assert [t["id"] for t in tokens] == ["intro", "intro_1"]
    assert [c["name"] for c in tokens[0]["children"]] == ["Part A", "Part B"]
    assert tokens[0]["children"][1]["children"][0]["level"] == 3
    assert m.toc.count("<li>") == 5


def test_toc_marker_and_depth():
    text = "[TOC]\n\n# A\n## B\n### C"
    m = markdown.Markdown(extensions=[TocExtension(toc_depth="2")])
    html = m.convert(text)
    assert html.startswith('<div class="toc">')
    assert 'href="#a"' in html and 'href="#b"' in html
    assert 'href="#c"' not in html


def test_toc_baselevel_and_permalink():
    m = markdown.Markdown(extensions=[TocExtension(baselevel=3, permalink=True)])
    html = m.convert("# Top\n## Next")
    assert html.startswith('<h3 id="top">Top<a class="headerlink" href="#top"')
    assert '<h4 id="next">' in html


def test_slugify_function():
    assert slugify("Hello, World!", "-") == "hello-world"
    assert slugify("  Many   spaces here ", "_") == "many_spaces_here"
    assert slugify("Ünïcödé Title", "-") == "unicode-title"


def test_attr_list_on_headers_and_inline():
    html = markdown.markdown("# Head {: #hid .big data-x=\"1\" }\n\n*em*{: .c1 .c2 }", extensions=["attr_list"])
    assert '<h1 class="big" data-x="1" id="hid">Head</h1>' in html
    assert '<em class="c1 c2">em</em>' in html


def test_admonitions():
    text = '!!! note "Be careful"\n    Body text.\n\n    More.\n\n!!! warning\n    Plain.'
    html = markdown.markdown(text, extensions=["admonition"])
    assert html.count('<div class="admonition') == 2
    assert '<p class="admonition-title">Be careful</p>' in html
    assert '<p class="admonition-title">Warning</p>' in html
    assert "<p>More.</p>" in html


def test_meta_data_parsing():
    m = markdown.Markdown(extensions=["meta"])
    html = m.convert("Title: My Doc\nAuthors: Ann\n    Bob\nTags: x\n\nBody here.")
    assert html == "<p>Body here.</p>"
    assert m.Meta == {"title": ["My Doc"], "authors": ["Ann", "Bob"], "tags": ["x"]}
    m.reset()
    assert m.convert("No meta here") == "<p>No meta here</p>"


def test_sane_lists_and_nl2br():
    mixed = "1. a\n2. b\n\n* c\n* d"
    plain = markdown.markdown(mixed)
    sane = markdown.markdown(mixed, extensions=["sane_lists"])
    # without sane_lists the bullet items are merged into the ordered list
    assert plain.count("<ol>") == 1 and plain.count("<ul>") == 0
    assert plain.count("<li>") == 4
    assert sane.count("<ol>") == 1 and sane.count("<ul>") == 1
    start = markdown.markdown("4. x\n5. y", extensions=["sane_lists"])
    assert '<ol start="4">' in start
    assert markdown.markdown("a\nb\nc", extensions=["nl2br"]) == "<p>a<br />\nb<br />\nc</p>"


def test_smarty_quotes_and_dashes():
    html = markdown.markdown("\"Hi\" -- it's 'quoted' --- ok...", extensions=["smarty"])
    assert html == "<p>&ldquo;Hi&rdquo; &ndash; it&rsquo;s &lsquo;quoted&rsquo; &mdash; ok&hellip;</p>"


def test_wikilinks():
    html = markdown.markdown("See [[Main Page]] and [[Other]].", extensions=["wikilinks"])
    assert '<a class="wikilink" href="/Main_Page/">Main Page</a>' in html
    assert '<a class="wikilink" href="/Other/">Other</a>' in html
