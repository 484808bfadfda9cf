"""Python-Markdown core API: Markdown class, Registry, custom processors, serializers, files."""
import re
import xml.etree.ElementTree as etree
import pytest
import markdown
from markdown.extensions import Extension
from markdown.preprocessors import Preprocessor
from markdown.inlinepatterns import InlineProcessor
from markdown.treeprocessors import Treeprocessor
from markdown.postprocessors import Postprocessor
from markdown.blockprocessors import BlockProcessor
from markdown.util import Registry


class StripComments(Preprocessor):
    def run(self, lines):
        return [l for l in lines if not l.startswith("%%")]


class DelInline(InlineProcessor):
    def handleMatch(self, m, data):
        el = etree.Element("del")
        el.text = m.group(1)
        return el, m.start(0), m.end(0)


class CountHeaders(Treeprocessor):
    def run(self, root):
        count = 0
        for el in root.iter():
            if re.fullmatch(r"h[1-6]", el.tag):
                count += 1
                el.set("data-n", str(count))
        self.md.header_count = count


class Shout(Postprocessor):
    def run(self, text):
        return text.replace("!!", "<b>!</b>")


class BoxBlock(BlockProcessor):
    RE = re.compile(r"^\[box\]\n")

    def test(self, parent, block):
        return bool(self.RE.match(block))

    def run(self, parent, blocks):
        block = blocks.pop(0)
        div = etree.SubElement(parent, "div")
        div.set("class", "box")
        self.parser.parseChunk(div, self.RE.sub("", block))


class DemoExtension(Extension):
    def extendMarkdown(self, md):
        md.preprocessors.register(StripComments(md), "strip", 30)
        md.inlinePatterns.register(DelInline(r"~~(.+?)~~", md), "del", 175)
        md.treeprocessors.register(CountHeaders(md), "count", 5)
        md.postprocessors.register(Shout(md), "shout", 1)
        md.parser.blockprocessors.register(BoxBlock(md.parser), "box", 100)


def test_custom_extension_pipeline():
    m = markdown.Markdown(extensions=[DemoExtension()])
    html = m.convert("%% hidden\n# A\n\n~~gone~~ kept!!\n\n## B\n\n[box]\n*inside*")
    assert "hidden" not in html
    assert '<h1 data-n="1">A</h1>' in html
    assert '<h2 data-n="2">B</h2>' in html
    assert "<del>gone</del> kept<b>!</b>" in html
    assert '<div class="box">\n<p><em>inside</em></p>\n</div>' in html
    assert m.header_count == 2


def test_markdown_instance_reuse_and_reset():
    m = markdown.Markdown(extensions=["footnotes", DemoExtension()])
    first = m.convert("x[^1]\n\n[^1]: note")
    assert "footnote" in first
    m.reset()
    second = m.convert("# only")
    assert second == '<h1 data-n="1">only</h1>'
    assert m.header_count == 1


def test_output_formats():
    text = "a  \nb\n\n![i](/x.png)\n\n---"
    xhtml = markdown.markdown(text, output_format="xhtml")
    html = markdown.markdown(text, output_format="html")
    assert "<br />" in xhtml and "<hr />" in xhtml and 'src="/x.png" />' in xhtml
    assert "<br>" in html and "<hr>" in html and 'src="/x.png">' in html


def test_invalid_output_format():
    with pytest.raises(KeyError):
        markdown.Markdown(output_format="nonsense")


def test_registry_ordering_and_errors():
    reg = Registry()
    reg.register("low", "low", 10)
    reg.register("high", "high", 90)
    reg.register("mid", "mid", 50)
    assert list(reg) == ["high", "mid", "low"]
    assert reg.get_index_for_name("mid") == 1
    assert "mid" in reg and len(reg) == 3
    reg.deregister("mid")
    assert list(reg) == ["high", "low"]
    with pytest.raises(ValueError):
        reg.deregister("mid")
    reg.deregister("mid", strict=False)
    with pytest.raises(ValueError):
        reg.get_index_for_name("missing")
    assert reg["high"] == "high"


def test_builtin_registries_contents():
    m = markdown.Markdown()
    inline_names = list(m.inlinePatterns)
    assert len(m.inlinePatterns) >= 10
    assert "backtick" in m.inlinePatterns
    assert "hashheader" in m.parser.blockprocessors
    assert m.parser.blockprocessors.get_index_for_name("empty") == 0
    assert len(inline_names) == len(m.inlinePatterns)


def test_convert_file_roundtrip(tmp_path):
    src = tmp_path / "in.md"
    dst = tmp_path / "out.html"
    src.write_text("# Title\n\nSome *text*.\n", encoding="utf-8")
    markdown.markdownFromFile(input=str(src), output=str(dst), encoding="utf-8")
    assert dst.read_text(encoding="utf-8") == "<h1>Title</h1>\n<p>Some <em>text</em>.</p>"


def test_extension_configs_by_name():
    html = markdown.markdown("# A B", extensions=["toc"], extension_configs={"toc": {"slugify": lambda v, s: "X" + s + str(len(v))}})
    assert '<h1 id="X-3">A B</h1>' in html


def test_html_escaping_and_safe_stash():
    html = markdown.markdown("<b>raw</b> and `<i>`\n\n<script>x</script>")
    assert "<b>raw</b>" in html
    assert "<code>&lt;i&gt;</code>" in html
    assert "<script>x</script>" in html
    m = markdown.Markdown()
    m.convert("<p>a</p>\n\n<p>b</p>")
    assert len(m.htmlStash.rawHtmlBlocks) == 2
