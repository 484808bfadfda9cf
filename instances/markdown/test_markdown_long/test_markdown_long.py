"""Long, deep executions of Python-Markdown, for harder items.

Each test drives one area of the package through many calls over documents
and inputs that the test builds with explicit loops (small-modulus patterns,
names built from the index, nesting that grows and shrinks), often carrying
state from one call into the next: one Markdown instance converts a sequence
of documents, a registry goes through insert/remove/query cycles, an id set
or a token list is fed back into the next call. The asserts check aggregates.

Everything is deterministic: no random numbers, no clock, no files, no
iteration over sets of strings.
"""

import xml.etree.ElementTree as etree

import markdown
from markdown.extensions.toc import TocExtension, nest_toc_tokens, slugify, unique
from markdown.serializers import to_html_string, to_xhtml_string
from markdown.util import Registry


def test_registry_insert_remove_query_cycles():
    reg = Registry()
    replaced = 0
    misses = 0
    index_sum = 0
    heads = []
    for i in range(60):
        name = f"k{(i * 7 + 3) % 13}"
        if name in reg:
            replaced += 1
        # re-registering a name removes the old entry first
        reg.register(f"v{i}", name, (i * 5) % 9)
        if i % 4 == 3:
            # the name may be absent: non-strict removal ignores that
            reg.deregister(f"k{(i * 3) % 17}", strict=False)
        if i % 5 == 4:
            try:
                index_sum += reg.get_index_for_name(f"k{i % 15}")
            except ValueError:
                misses += 1
        if i % 10 == 9:
            top = reg[0:3]
            heads.append(list(top))
    assert replaced == 37
    assert misses == 5
    assert index_sum == 33
    assert len(heads) == 6
    assert heads[1] == ["v7", "v16", "v14"]
    assert heads[-1] == ["v52", "v50", "v59"]
    assert len(reg) == 12
    assert list(reg)[3:8] == ["v48", "v57", "v55", "v53", "v51"]
    assert reg[-1] == "v54"


def test_toc_headers_unique_ids_and_nesting():
    lines = []
    level = 1
    for i in range(36):
        step = (i * 7 + 3) % 5
        # climb at most one level at a time, fall back anywhere
        level = min(level + 1, 6) if step < 2 else (level if step < 4 else 1 + i % 3)
        title = f"Part {i % 6}" if i % 4 else f"Part {i % 6} & more"
        if i % 9 == 8:
            title += " {: #part-1_2 }"
        lines.append("#" * level + " " + title)
        if i % 3 == 2:
            lines.append("")
            lines.append(f"Text {i} with *em*.")
        lines.append("")
    m = markdown.Markdown(extensions=["toc", "attr_list"])
    html = m.convert("\n".join(lines))
    tokens = m.toc_tokens

    def walk(items, depth):
        out = []
        for t in items:
            out.append((depth, t["id"]))
            out.extend(walk(t["children"], depth + 1))
        return out

    flat = walk(tokens, 1)
    assert len(tokens) == 4
    assert max(d for d, _ in flat) == 5
    assert len(flat) == 36
    assert [i for _, i in flat][:12] == [
        "part-0-more", "part-1", "part-2", "part-3", "part-4-more", "part-5",
        "part-0", "part-1_1", "part-1_2", "part-3_1", "part-4", "part-5_1",
    ]
    assert html.count('id="part-1') == 10
    assert m.toc.count("<ul>") == 15

    # the same helpers called directly: each id fed back as the next base
    ids = set()
    made = []
    current = "sec"
    for i in range(40):
        base = current if i % 3 else f"sec{'' if i % 2 else '_' + str(i % 4)}"
        if i % 7 == 6:
            base = ""
        current = unique(base, ids)
        made.append(current)
    levels = [((i * 7 + 3) % 11) % 4 + 1 for i in range(45)]
    tokens = [{"level": lv, "id": f"t{i}"} for i, lv in enumerate(levels)]
    nested = nest_toc_tokens(tokens)

    def depth(items):
        return 1 + max((depth(t["children"]) for t in items), default=0)

    slugs = [slugify(f"  Héllo {name}  Wörld_{j % 3}!? ", "-" if j % 2 else "_") for j, name in enumerate(made[:10])]
    assert len(ids) == 40
    assert made[:10] == ["sec_0", "sec_1", "sec_2", "sec", "sec_3", "sec_4", "_1", "_2", "_3", "sec_5"]
    assert made[-1] == "sec_27"
    assert sum(name.startswith("_") for name in made) == 11
    assert len(nested) == 19
    assert depth(nested) == 3
    assert [t["id"] for t in nested][-6:] == ["t29", "t30", "t31", "t40", "t41", "t42"]
    assert slugs[3] == "hello-sec-world_0"
    assert slugs[7] == "hello-_2-world_1"
    assert sum(s.count("_") for s in slugs) == 27


def test_nested_lists_one_instance_many_documents():
    m = markdown.Markdown()
    totals = {"ul": 0, "ol": 0, "li": 0, "p": 0}
    lengths = []
    for doc in range(6):
        lines = []
        depth = 0
        for i in range(12 + doc * 2):
            step = (i * 7 + 3 + doc) % 4
            depth = min(depth + 1, 3) if step == 0 else (max(depth - 1, 0) if step == 1 else depth)
            marker = f"{i + 1}." if (depth + doc) % 2 else "-"
            lines.append("    " * depth + f"{marker} item {doc}-{i}")
            if (i + doc) % 5 == 4:
                lines.append("")
        html = m.reset().convert("\n".join(lines))
        for tag in totals:
            totals[tag] += html.count(f"<{tag}>") + html.count(f"<{tag} ")
        lengths.append(len(html))
    assert totals == {"ul": 8, "ol": 11, "li": 96, "p": 32}
    assert sum(lengths) == 2377
    assert lengths[0] == 286


def test_tables_with_code_pipes_and_ragged_rows():
    m = markdown.Markdown(extensions=["tables"])
    cells = []
    for t in range(3):
        ncol = 2 + t
        header = "| " + " | ".join(f"h{t}{c}" for c in range(ncol)) + " |"
        aligns = [":--", ":-:", "--:", "---"]
        sep = "|" + "|".join(aligns[(c + t) % 4] for c in range(ncol)) + "|"
        rows = [header, sep]
        for r in range(10):
            parts = []
            for c in range((r + t) % (ncol + 2)):
                kind = (r * 7 + c * 3 + t) % 6
                if kind == 0:
                    parts.append(f"`a|{r}`")
                elif kind == 1:
                    parts.append(f"b\\|{c}")
                elif kind == 2:
                    parts.append(f"``c`|{r}``")
                elif kind == 3:
                    parts.append(f"\\`d|{c}")
                else:
                    parts.append(f"e{r}{c}")
            rows.append("| " + " | ".join(parts) + " |")
        html = m.reset().convert("\n".join(rows))
        cells.append((html.count("<td"), html.count("<td></td>"), html.count("<code>"),
                      html.count("text-align: center"), html.count("<tr>")))
    assert [c[0] for c in cells] == [20, 30, 40]
    assert [c[1] for c in cells] == [0, 6, 2]
    assert [c[2] for c in cells] == [2, 6, 8]
    assert sum(c[3] for c in cells) == 33
    assert all(c[4] == 11 for c in cells)


def test_inline_patterns_growing_paragraph():
    m = markdown.Markdown()
    pieces = ["*em*", "**strong**", "`co<de>`", "[l](/u)", "_x_", "snake_case_word",
              "\\*lit\\*", "<span>s</span>", "AT&T", "![i](/p.png)", "***both***"]
    text = ""
    counts = []
    pick = 0
    for i in range(30):
        pick = (pick * 7 + 3 + i % 4) % len(pieces)
        text += (" " if text else "") + pieces[pick]
        html = m.convert(text)
        counts.append(html.count("<em>") + 2 * html.count("<strong>") + 3 * html.count("<code>"))
        # the links of this output shift the next pick
        pick += html.count("<a ")
    assert len(counts) == 30
    assert sum(counts) == 376
    assert counts[:6] == [0, 3, 3, 4, 4, 7]
    assert counts[-1] == 22
    assert len(html) == 530
    assert html.startswith('<p><a href="/u">l</a> <strong><em>both</em></strong> snake_case_word <em>x</em>')


def test_footnotes_repeated_references():
    m = markdown.Markdown(extensions=["footnotes"])
    results = []
    for doc in range(3):
        body = []
        for i in range(24):
            label = f"n{(i * (5 + doc) + 3) % (7 + doc)}"
            body.append(f"Word{i}[^{label}]")
        # only some labels get a definition; the others stay literal text
        defs = [f"[^n{k}]: Note {k} for doc {doc}." for k in range(9) if (k + doc) % 3]
        html = m.convert(" ".join(body) + "\n\n" + "\n".join(defs))
        results.append((html.count('class="footnote-ref"'), html.count('class="footnote-backref"'),
                        html.count("[^n"), html.count("fnref3:"), html.count('<li id="fn:')))
        m.reset()
    assert [r[0] for r in results] == [13, 18, 16]
    assert [r[1] for r in results] == [15, 21, 16]
    assert [r[2] for r in results] == [11, 6, 8]
    assert sum(r[3] for r in results) == 22
    assert all(r[4] == 6 for r in results)


def test_abbr_def_list_and_smarty_documents():
    m = markdown.Markdown(extensions=["abbr", "def_list", "smarty"])
    found = []
    for doc in range(4):
        lines = []
        for i in range(10):
            term = f"T{(i * 3 + doc) % 7}"
            lines.append(f"{term} uses HTML and CSS{i % 3}")
            lines.append(f":   \"Def\" of {term} -- it's {'ABC' if i % 2 else 'XYZ'}...")
            if i % 4 == 3:
                lines.append(f":   second 'def' --- {i}")
            lines.append("")
        lines.append("*[HTML]: Hyper Text")
        lines.append(f"*[CSS{doc % 3}]: Sheets {doc}")
        if doc % 2:
            lines.append("*[ABC]: Alphabet")
        html = m.convert("\n".join(lines))
        found.append((html.count("<dt>"), html.count("<dd>"), html.count("<abbr"),
                      html.count("&ldquo;"), html.count("&ndash;"), html.count("&mdash;"), html.count("&hellip;")))
        m.reset()
    assert [f[2] for f in found] == [14, 18, 13, 19]
    assert all(f[:2] == (10, 12) for f in found)
    assert sum(f[3] + f[4] + f[5] + f[6] for f in found) == 128


def test_fenced_code_with_attributes_and_attr_lists():
    m = markdown.Markdown(extensions=["fenced_code", "attr_list"])
    lines = []
    for i in range(20):
        fence = ("`" if i % 2 else "~") * (3 + i % 3)
        kind = (i * 7 + 3) % 6
        if kind == 0:
            opener = f"{fence}py"
        elif kind == 1:
            opener = f"{fence} {{ .c{i % 4} #f{i} data-k=\"{i % 3}\" }}"
        elif kind == 2:
            opener = f"{fence}{{.lang{i % 2} .extra}}"
        elif kind == 3:
            opener = fence
        elif kind == 4:
            opener = f"{fence} {{ #only{i} }}"
        else:
            # text after the closing brace: not an attribute list
            opener = f"{fence} {{ .bad{i} }} x }}"
        lines += [opener, f"x = {i} < {i + 1}", "```" if fence[0] == "~" else "~~~", fence, ""]
        lines.append(f"Para {i}\n{{: .p{i % 3} }}" if i % 2 else f"## Head {i} {{: #h{i} .hc }}")
        lines.append("")
    html = m.convert("\n".join(lines))
    assert html.count("<pre") == 17
    assert html.count('class="language-') == 6
    assert html.count('id="f') == 3
    assert html.count("data-k=") == 3
    assert html.count('class="p') == 10
    assert html.count('class="hc"') == 7
    assert html.count("&lt;") == 20


def test_meta_reset_cycles_one_instance():
    m = markdown.Markdown(extensions=["meta"])
    key_total = 0
    value_total = 0
    bodies = 0
    for doc in range(25):
        lines = ["---"] if doc % 3 == 0 else []
        for k in range((doc * 7 + 3) % 6):
            lines.append(f"Key{(k + doc) % 4}: value {doc}.{k}")
            if (k + doc) % 3 == 0:
                lines.append(f"    more {k}")
        if doc % 3 == 0:
            lines.append("..." if doc % 2 else "---")
        lines.append("")
        lines.append(f"Body {doc}")
        html = m.convert("\n".join(lines))
        key_total += len(m.Meta)
        value_total += sum(len(v) for v in m.Meta.values())
        bodies += html == f"<p>Body {doc}</p>"
        m.reset()
    assert key_total == 59
    assert value_total == 84
    assert bodies == 25


def test_serializers_on_built_tree():
    root = etree.Element("div")
    parent = root
    for i in range(30):
        tag = ["p", "br", "span", "img", "hr", "script", "em"][(i * 3 + 1) % 7]
        el = etree.SubElement(parent, tag)
        if i % 2:
            el.set("title", f"a&b <{i}> \"q\"\n")
        if i % 5 == 0:
            el.set("hidden", "hidden")
        el.set(f"data-{i % 3}", "x&amp;y")
        el.text = f"t{i} < & >" if i % 3 else None
        el.tail = f" tail{i}&" if i % 4 == 1 else None
        if tag in ("p", "span", "em") and i % 2 == 0:
            parent = el
    comment = etree.Comment(" c < 1 ")
    root.append(comment)
    html = to_html_string(root)
    xhtml = to_xhtml_string(root)
    assert len(html) == 1896
    assert len(xhtml) == 1810
    assert (html.count(" />"), xhtml.count(" />")) == (0, 14)
    assert html.count("&#10;") + xhtml.count("&#10;") == 0
    assert html.count(" hidden") == 6
    assert html.count("&amp;") == 71
    assert html.count("</") == 17


def test_raw_html_blocks_and_markdown_between():
    m = markdown.Markdown()
    stash_sizes = []
    for doc in range(3):
        lines = []
        for i in range(12):
            kind = (i * 7 + 3 + doc) % 6
            if kind == 0:
                lines.append(f"<div class=\"d{i}\">\n*raw {i}*\n</div>")
            elif kind == 1:
                lines.append(f"<!-- note {i} -->")
            elif kind == 2:
                lines.append(f"<p>open {i}")
            elif kind == 3:
                lines.append(f"<hr>\nafter {i}")
            elif kind == 4:
                lines.append(f"> quote *{i}*\n> > inner {i}")
            else:
                lines.append(f"    code <{i}>")
            lines.append("")
        html = m.convert("\n".join(lines))
        stash_sizes.append((len(m.htmlStash.rawHtmlBlocks), html.count("<blockquote>"), html.count("<pre>"),
                            html.count("<em>"), html.count("<!--")))
        m.reset()
    assert [s[0] for s in stash_sizes] == [4, 3, 3]
    assert [s[1] for s in stash_sizes] == [2, 2, 0]
    assert sum(s[2] + s[3] + s[4] for s in stash_sizes) == 11


def test_toc_extension_configs_parsed_or_rejected():
    words = ["yes", "off", "maybe", "1", "none", "On", "2", True, 0]
    errors = []
    anchors = 0
    permalinks = 0
    toc_links = 0
    doc = "\n".join(f"{'#' * (1 + k % 4)} Head {k}" for k in range(8))
    for i in range(24):
        kwargs = {
            "anchorlink": words[(i * 7 + 3) % 9],
            "permalink": words[(i * 5 + 1) % 9],
            "toc_depth": f"{1 + i % 2}-{2 + i % 3}" if i % 4 else 3,
        }
        if i % 8 == 7:
            kwargs["colour"] = "red"  # not an option of the extension
        try:
            ext = TocExtension(**kwargs)
        except (ValueError, KeyError) as exc:
            errors.append(type(exc).__name__)
            continue
        html = markdown.Markdown(extensions=[ext]).convert("[TOC]\n\n" + doc)
        anchors += html.count('class="toclink"')
        permalinks += html.count('class="headerlink"')
        toc_links += html.split("</div>")[0].count("<a ")
    assert errors == ["ValueError", "ValueError", "KeyError", "ValueError",
                      "ValueError", "KeyError", "ValueError", "ValueError"]
    assert anchors == 56
    assert permalinks == 96
    assert toc_links == 84
