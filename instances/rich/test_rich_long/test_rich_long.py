"""Long, deep executions of rich, for harder items.

Each test drives one area of the package (console markup, the ANSI decoder,
segment division, cell measurement, text wrapping and justification, the
prompt loop, progress tasks on a fake clock, pretty printing, layouts, colour
downgrading, span division and rendering) through dozens of calls over inputs
that the test builds with explicit loops from the loop index (small-modulus
patterns, strings named after the index, structures that grow). State is
carried from one call to the next: a piece of one call's output goes into the
next call's input, or one object is transformed again and again. The asserts
check aggregates.

Everything is deterministic: consoles write to StringIO at a fixed width (and
height, for the layout) with a fixed colour system (none, or "standard" for the
progress bars) and an empty environment, the progress clock is a counter in
the test, and there are no random numbers, no files, no emoji and no iteration
over sets of strings.
"""

import io

from rich.ansi import AnsiDecoder
from rich.cells import cell_len, chop_cells, set_cell_size, split_graphemes, split_text
from rich.color import Color, ColorParseError, ColorSystem, blend_rgb
from rich.console import Console
from rich.errors import MarkupError
from rich.layout import Layout
from rich.markup import escape, render
from rich.pretty import pretty_repr
from rich.progress import (
    BarColumn,
    DownloadColumn,
    MofNCompleteColumn,
    Progress,
    TaskProgressColumn,
    TimeRemainingColumn,
    TransferSpeedColumn,
)
from rich.prompt import Confirm, FloatPrompt, IntPrompt, Prompt
from rich.segment import Segment
from rich.style import Style
from rich.text import Text


def make_console(width=40, **kwargs):
    return Console(
        file=io.StringIO(),
        width=width,
        force_terminal=False,
        color_system=None,
        legacy_windows=False,
        _environ={},
        **kwargs,
    )


def test_markup_render_nested_tags_carrying_plain_text():
    tags = ["bold", "italic", "red", "on blue", "u"]
    carry = "start"
    failed = []
    span_total = 0
    plain_total = 0
    for i in range(40):
        depth = i % 4 + 1
        opened = [tags[(i + d * 3) % 5] for d in range(depth)]
        parts = [f"[{tag}]w{d}{i % 7} " for d, tag in enumerate(opened)]
        # the tail of the previous result, escaped so that its brackets stay literal
        parts.append(escape(carry))
        if i % 3 == 0:
            parts.append(f" \\[lit{i}]")
        if i % 5 == 2:
            parts.append(f" [@click=handler({i}, 'k{i % 3}')]btn[/]")
        if i % 6 == 4:
            parts.append(" \\\\[bold]bs[/bold]")
        # close innermost first, some implicitly; every other time the outermost stays open
        for d in range(depth - 1, 0 if i % 2 else -1, -1):
            parts.append("[/]" if (i + d) % 3 == 0 else f"[/{opened[d]}]")
        if i % 7 == 6:
            parts.append("[/]" * (depth + 1))
        if i % 9 == 8:
            parts.append("[/nope]")
        try:
            text = render("".join(parts))
        except MarkupError as error:
            failed.append((i, "nothing to close" in str(error)))
            continue
        span_total += len(text.spans)
        plain_total += len(text.plain)
        carry = text.plain[-12:]
    assert failed == [
        (6, True),
        (8, False),
        (13, True),
        (17, False),
        (20, True),
        (26, False),
        (27, True),
        (34, True),
        (35, False),
    ]
    assert span_total == 88
    assert plain_total == 810
    assert carry == " btn [lit39]"


def test_ansi_decoder_keeps_style_between_lines():
    sgrs = [
        "1",
        "0",
        "31;42",
        "38;5;{n}",
        "38;2;{r};{g};{b}",
        "48;5;{n}",
        "3;4",
        "22",
        "48;2;{r};{g};{b}",
        "38",
        "9;39",
        "0;1;7",
    ]
    lines = []
    for i in range(36):
        parts = []
        for j in range(i % 4 + 1):
            code = sgrs[(i * 5 + j * 7) % len(sgrs)].format(
                n=(i * 37 + j) % 256, r=i * 7 % 256, g=j * 60, b=(i * j) % 256
            )
            parts.append(f"\x1b[{code}mt{i}.{j} ")
        if i % 5 == 3:
            parts.append(f"\x1b]8;id={i};https://e.x/{i}\x1b\\link\x1b]8;;\x1b\\")
        if i % 6 == 1:
            parts.insert(0, "junk\r")
        if i % 8 == 5:
            parts.append("\x1b(Bq")
        lines.append("".join(parts))
    decoder = AnsiDecoder()
    # one decoder for every line: the style left by one line applies to the next
    texts = list(decoder.decode("\n".join(lines)))
    assert len(texts) == 36
    assert sum(len(text.spans) for text in texts) == 92
    assert sum(len(text.plain) for text in texts) == 549
    assert [text.plain for text in texts[:8]] == [
        "t0.0 ",
        "t1.0 t1.1 ",
        "t2.0 t2.1 t2.2 ",
        "t3.0 t3.1 t3.2 t3.3 link",
        "t4.0 ",
        "t5.0 t5.1 q",
        "t6.0 t6.1 t6.2 ",
        "t7.0 t7.1 t7.2 t7.3 ",
    ]
    assert sorted(str(span.style) for span in texts[7].spans) == [
        "bold italic underline reverse",
        "bold reverse",
        "on #31b415",
    ]
    assert str(decoder.style) == "not bold not dim #f5b469 on color(2)"


def test_segment_divide_crop_and_simplify_cycle():
    bold, red = Style(bold=True), Style(color="red")
    styles = [None, bold, red]
    line = [Segment("ab中c", bold), Segment("文字de", None)]
    widths = []
    pieces = 0
    for i in range(30):
        width = sum(segment.cell_length for segment in line)
        cuts = sorted(dict.fromkeys((i * 3 + k * 5) % 17 + 1 for k in range(i % 4 + 1)))
        cuts = [cut for cut in cuts if cut < width] + [width]
        parts = list(Segment.divide(line, cuts))
        pieces += sum(len(part) for part in parts)
        # the last part is cropped or padded, then the line is rebuilt from it and the others
        tail = Segment.adjust_line_length(parts[-1], 4 + i % 5, style=red, pad=i % 2 == 0)
        extra = Segment(("x字" if i % 3 else "yy") + str(i % 10), styles[i % 3])
        line = list(Segment.simplify(tail + [extra] + [seg for part in parts[:-1] for seg in part]))
        widths.append(sum(segment.cell_length for segment in line))
    assert widths[:10] == [8, 12, 17, 20, 25, 24, 20, 24, 19, 22]
    assert sum(widths) == 634
    assert pieces == 246
    assert [segment.text for segment in line] == ["字8 5", "x xx字96", "xx", " ", "x ", " ", "x"]

    stream = []
    for i in range(40):
        text = "字" * (i % 3) + f"s{i}" + ("\n" if i % 4 == 3 else "")
        stream.append(Segment(text, bold if i % 2 else None))
    cropped = list(Segment.split_and_crop_lines(stream, 9, pad=True))
    assert ["".join(segment.text for segment in row) for row in cropped] == [
        "s0字s1字 \n",
        "字s4字字s\n",
        "字字s8s9 \n",
        "s12字s13 \n",
        "字s16字字\n",
        "字字s20s2\n",
        "s24字s25 \n",
        "字s28字字\n",
        "字字s32s3\n",
        "s36字s37 \n",
    ]


def test_cell_chopping_on_a_sliding_mixed_width_window():
    window = ""
    chopped_lines = 0
    left_cells = 0
    sized = []
    graphemes = 0
    for i in range(40):
        chunk = ("中" if i % 3 == 0 else "a") + ("e\u0301" if i % 4 == 1 else "") + str(i % 10)
        # the window keeps the last 18 characters of everything appended so far
        window = (window + chunk)[-18:]
        chopped = chop_cells(window, i % 7 + 2)
        chopped_lines += len(chopped)
        left, _right = split_text(window, (i * 5) % (cell_len(window) + 1))
        left_cells += cell_len(left)
        sized.append(set_cell_size(window, i % 13 + 1))
        spans, _cells = split_graphemes(window)
        graphemes += len(spans)
    assert chopped_lines == 189
    assert left_cells == 308
    assert graphemes == 600
    assert window == "中e\u03013a4a5中6ae\u03017a8中9"
    assert sized[-5:] == ["ae\u03019中0a1a2", "\u03019中0a1a2中e\u0301", "a1a2中e\u03013a4a5", "a2中e\u03013a4a5中6", " "]
    assert [cell_len(item) for item in sized] == [i % 13 + 1 for i in range(40)]


def test_text_wrap_justify_and_overflow_chain():
    console = make_console(60)
    words = ["alpha", "be", "gamma", "supercalifragilistic", "x", "delta", "epsilon"]
    text = Text("seed words here")
    counts = []
    for i in range(30):
        width = 5 + (i * 7) % 13
        justify = ["left", "full", "center", "right"][i % 4]
        overflow = ["fold", "crop", "ellipsis"][i % 3]
        # new words in front of the last 25 characters of the previous result
        text = Text(" ".join(words[(i + k) % 7] for k in range(i % 5 + 2)) + " " + text.plain[-25:])
        text.stylize("bold", i % 5, i % 5 + 6)
        lines = text.wrap(console, width, justify=justify, overflow=overflow, no_wrap=i % 10 == 9)
        counts.append(len(lines))
        text = Text("|").join(lines)
    assert counts == [5, 4, 6, 6, 8, 3, 6, 4, 4, 1, 3, 3, 5, 7, 5, 7, 5, 4, 5, 1, 2, 4, 4, 6, 5, 3, 5, 6, 8, 1]
    assert sum(counts) == 136
    assert text.plain == "be gamma sup…"


def test_prompts_retry_until_a_valid_answer():
    console = make_console(50, record=True)
    answers = []
    total = 0
    for i in range(24):
        # zero to three lines that every prompt rejects, before the ones it may accept
        bad = [f"x{i}", "", f"{i},5"][: (i // 4) % 4]
        kind = i % 4
        if kind == 0:
            lines = bad + [f"{total % 50 + i}"]
            answer = IntPrompt.ask(f"n{i}", console=console, stream=io.StringIO("\n".join(lines) + "\n"))
            total += answer
        elif kind == 1:
            choices = [f"k{(i + j) % 5}" for j in range(3)]
            # an upper-case choice, then (read only if that one is refused) the first choice
            lines = bad + [choices[total % 3].upper()]
            answer = Prompt.ask(
                f"pick{i}",
                choices=choices,
                case_sensitive=i % 8 != 5,
                console=console,
                stream=io.StringIO("\n".join(lines + [choices[0]]) + "\n"),
            )
            total += len(answer) + int(answer[-1])
        elif kind == 2:
            lines = bad + ["maybe", "Y" if total % 2 else "n"]
            answer = Confirm.ask(f"ok{i}", console=console, default=True, stream=io.StringIO("\n".join(lines) + "\n"))
            total += int(answer)
        else:
            # when i % 8 == 7 the stream runs dry before a number is given
            lines = bad + ([] if i % 8 == 7 else [f"{i / 4}"])
            answer = FloatPrompt.ask(f"f{i}", console=console, default=1.5, stream=io.StringIO("".join(f"{x}\n" for x in lines)))
            total += int(answer * 2)
        answers.append(answer)
    out = console.export_text()
    assert answers == [
        0, "k1", True, 0.75,
        9, "k2", False, 1.5,
        29, "k4", False, 2.75,
        23, "k3", True, 1.5,
        59, "k2", False, 4.75,
        35, "k3", True, 1.5,
    ]  # fmt: skip
    assert total == 209
    assert out.count("Please") == 37
    assert out.count("select one") == 10
    assert len(out.splitlines()) == 38


def test_progress_tasks_on_a_fake_clock():
    clock = [0.0]
    console = make_console(60)
    progress = Progress(console=console, auto_refresh=False, get_time=lambda: clock[0], speed_estimate_period=5.0)
    columns = [
        TimeRemainingColumn(compact=True),
        DownloadColumn(binary_units=True),
        MofNCompleteColumn(),
        TaskProgressColumn(show_speed=True),
        TransferSpeedColumn(),
    ]
    bar_console = Console(
        file=io.StringIO(), width=30, color_system="standard", force_terminal=True, legacy_windows=False, _environ={}
    )
    bar_column = BarColumn(bar_width=12)
    bars = []
    ids = [progress.add_task(f"t{k}", total=[1000, 2000, None][k]) for k in range(3)]
    rendered = []
    for i in range(45):
        # the clock moves on before every step; the three tasks take turns
        clock[0] += 0.5 + (i % 3) * 0.25
        task_id = ids[i % 3]
        if i % 5 == 4:
            progress.update(task_id, advance=(i * 37) % 200, description=f"u{i}")
        else:
            progress.advance(task_id, (i * 53) % 300)
        if i == 30:
            progress.reset(ids[0], total=500)
        task = progress.tasks[i % 3]
        rendered.append(tuple(str(column(task)) for column in columns))
        if i % 5 == 2:
            segments = list(bar_console.render(bar_column(task)))
            bars.append((len(segments), "".join(segment.text for segment in segments)))
    summary = [
        (task.description, task.completed, task.finished_time, task.time_remaining, round(task.speed, 3))
        for task in progress.tasks
    ]
    assert summary == [
        ("u39", 526, 9.0, 0.0, 37.556),
        ("u34", 2178, 32.75, 0.0, 44.222),
        ("u44", 1893, None, None, 22.444),
    ]
    assert [row[0] for row in rendered].count("--:--") == 4
    assert rendered[-9:] == [
        ("00:03", "357/500 bytes", "357/500", " 71%", "48 bytes/s"),
        ("00:01", "1.9/2.0 KiB", "1979/2000", " 99%", "48 bytes/s"),
        ("", "1.8/? KiB", "1792/?", "59.8 it/s", "59 bytes/s"),
        ("00:03", "400/500 bytes", "400/500", " 80%", "33 bytes/s"),
        ("00:01", "2.0/2.0 KiB", "1999/2000", "100%", "40 bytes/s"),
        ("", "1.8/? KiB", "1865/?", "63.8 it/s", "63 bytes/s"),
        ("00:00", "526/500 bytes", "526/500", "100%", "37 bytes/s"),
        ("00:00", "2.1/2.0 KiB", "2178/2000", "100%", "44 bytes/s"),
        ("", "1.8/? KiB", "1893/?", "22.4 it/s", "22 bytes/s"),
    ]
    assert bars == [
        (12, "━" * 12),
        (3, "━╸━━━━━━━━━━"),
        (3, "━━━━╺━━━━━━━"),
        (12, "━" * 12),
        (3, "━━━━━━━╺━━━━"),
        (1, "━" * 12),
        (12, "━" * 12),
        (2, "━━━━━━━━━━━╸"),
        (1, "━" * 12),
    ]


def test_pretty_repr_of_a_growing_structure():
    data = {"k0": [0]}
    heights = []
    for i in range(20):
        # the same dict grows every step and is printed again with other limits
        node = data.setdefault(f"k{i % 5}", [])
        node.append({"i": i, "t": (i, str(i) * (i % 4)), "l": list(range(i % 6))})
        if i % 4 == 3:
            data[f"n{i}"] = {"inner": node[-2:], "depth": [[i, [i + 1, [i + 2]]]]}
        out = pretty_repr(data, max_width=30 + i % 3 * 20, max_length=6 + i % 4, max_depth=2 + i % 3, max_string=5)
        heights.append(len(out.splitlines()))
    assert heights == [1, 4, 5, 10, 8, 15, 11, 22, 25, 15, 29, 43, 25, 33, 46, 45, 32, 43, 45, 47]
    assert sum(heights) == 504
    assert len(out) == 1246
    assert out.splitlines()[:8] == [
        "{",
        "    'k0': [",
        "        0,",
        "        {'i': 0, 't': (...), 'l': [...]},",
        "        {'i': 5, 't': (...), 'l': [...]},",
        "        {'i': 10, 't': (...), 'l': [...]},",
        "        {'i': 15, 't': (...), 'l': [...]}",
        "    ],",
    ]


def test_layout_splits_grow_a_tree():
    console = make_console(48, height=12)
    root = Layout(name="n0")
    # names of the layouts not split yet, in the order they were made (plus names that were never made)
    leaves = ["n0"]
    missing = 0
    visible_regions = []
    for i in range(1, 25):
        target = leaves[(i * 5) % len(leaves)]
        try:
            node = root[target]
        except KeyError:
            missing += 1
            continue
        first = Layout(f"a{i}", name=f"n{i}a", ratio=i % 3 + 1, minimum_size=i % 4)
        second = Layout(f"b{i}", name=f"n{i}b", size=i % 5 or None, visible=i % 7 != 3)
        if i % 2:
            node.split_row(first, second)
        else:
            node.split_column(first, second)
        leaves.remove(target)
        leaves += [f"n{i}a", f"n{i}b"]
        if i % 6 == 0:
            leaves.append(f"gone{i}")  # a name no layout has
        if i % 4 == 0:
            # render the whole tree into a 48 x 12 screen and count the regions with an area
            console.print(root)
            visible_regions.append(sum(1 for region, _lines in root.map.values() if region.width and region.height))
    out = console.file.getvalue().splitlines()
    assert missing == 4
    assert visible_regions == [4, 8, 10, 13, 13, 15]
    assert len(out) == 72
    assert leaves[-4:] == ["n22b", "n24a", "n24b", "gone24"]
    assert [row.rstrip() for row in out[-12:]] == [
        "a13                                        b13ab",
        "                                              22",
        "                                              11",
        "",
        "",
        "",
        "a14",
        "",
        "a22                                            b",
        "",
        "                                               a",
        "",
    ]


def test_color_downgrade_and_style_render_chain():
    mixed = Color.parse("#102030")
    numbers = []
    errors = 0
    codes = []
    for i in range(40):
        forms = [
            f"#{(i * 37) % 256:02x}{(i * 91) % 256:02x}{(i * 13) % 256:02x}",
            f"rgb({i * 6},{255 - i * 6},{(i * i) % 256})",
            f"color({(i * 29) % 256})",
            ["red", "grey50", "bright_cyan", "navy_blue", "default"][i % 5],
            f"#{i}zz",
            f"color({300 + i})",
        ]
        try:
            color = Color.parse(forms[i % 6])
        except ColorParseError:
            errors += 1
            continue
        for system in (ColorSystem.EIGHT_BIT, ColorSystem.STANDARD, ColorSystem.WINDOWS):
            numbers.append(color.downgrade(system).number)
        style = Style(color=color, bgcolor=mixed, bold=i % 2 == 0)
        system = [ColorSystem.STANDARD, ColorSystem.EIGHT_BIT, ColorSystem.TRUECOLOR][i % 3]
        codes.append(style.render("x", color_system=system))
        # the background of the next style drifts a quarter of the way towards this colour
        mixed = Color.from_triplet(blend_rgb(mixed.get_truecolor(), color.get_truecolor(), 0.25))
    assert errors == 12
    assert len(numbers) == 84
    assert numbers[:12] == [16, 0, 0, 46, 2, 10, 58, 3, 2, 17, 4, 0]
    assert numbers.count(None) == 6
    assert sum(number for number in numbers if number is not None) == 3072
    assert codes[-4:] == [
        "\x1b[1;36;100mx\x1b[0m",
        "\x1b[38;5;161;48;5;60mx\x1b[0m",
        "\x1b[1;38;5;78;48;2;123;87;123mx\x1b[0m",
        "\x1b[39;100mx\x1b[0m",
    ]
    assert mixed.triplet.hex == "#57595e"


def test_text_spans_divide_and_render():
    console = make_console(40)
    text = Text("".join(f"tok{i % 10} " for i in range(24)))
    segment_counts = []
    for i in range(24):
        length = len(text)
        text.stylize(["bold", "red", "italic", "on blue"][i % 4], (i * 7) % length, (i * 7) % length + 3 + i % 9)
        found = text.highlight_regex(rf"tok[{i % 10}{(i + 5) % 10}]", "underline") if i % 4 == 0 else 0
        offsets = list(range(3 + i % 4, length, 9 + i % 5))
        parts = text.divide(offsets)
        segment_counts.append(sum(len(list(part.render(console))) for part in parts) + found)
        # reassemble the parts rotated by one: the first part moves to the end
        text = Text("").join(parts[1:] + parts[:1])
    assert segment_counts[:8] == [27, 26, 29, 31, 46, 47, 51, 55]
    assert sum(segment_counts) == 1808
    assert len(text) == 120
    assert len(text.spans) == 180
    assert text.plain[:30] == "1 tok2 tok3 tok0 tok1 tok2 tok"
