"""Long, stateful executions of click, for harder trace questions.

The other test files invoke a command a few times with literal arguments. Here
every test drives one area of the package through dozens of invocations whose
inputs are built by explicit loops (arithmetic progressions, small-modulus
patterns, names made from the index, argument lists of growing length), and
state is carried from one call to the next: a context object that accumulates
across invocations, a group that gains commands between help renderings, a
stack that a chain of subcommands transforms. The asserts check aggregates.

Everything is deterministic and can be worked out by hand from this file and the
package's source: no terminal size is consulted (every formatter and context
gets an explicit width, and CliRunner pins the width it uses), no environment
variable is read except those a test passes to CliRunner (which names every one
it reads), every program name is given, and nothing depends on the iteration
order of a set.
"""

import click
import pytest
from click.formatting import HelpFormatter, wrap_text
from click.shell_completion import ShellComplete
from click.testing import CliRunner
from click.utils import _make_default_short_help


def test_chained_stack_machine_over_growing_programs():
    # A chain group whose subcommands transform one stack kept in ctx.obj; the
    # same obj dict is passed to every invocation, so counters accumulate.
    @click.group(chain=True)
    @click.option("--start", type=int, default=0)
    @click.pass_context
    def calc(ctx, start):
        ctx.obj["runs"] += 1
        ctx.obj["stack"] = [start]

    @calc.command("push")
    @click.argument("n", type=click.IntRange(0, 20))
    @click.pass_obj
    def push(obj, n):
        obj["stack"].append(n)
        return n

    @calc.command("add")
    @click.pass_obj
    def add(obj):
        b = obj["stack"].pop()
        a = obj["stack"].pop()
        obj["stack"].append(a + b)
        return a + b

    @calc.command("mul")
    @click.option("--by", type=int, default=2)
    @click.pass_obj
    def mul(obj, by):
        obj["stack"][-1] *= by
        return obj["stack"][-1]

    @calc.command("dup")
    @click.pass_obj
    def dup(obj):
        obj["stack"].append(obj["stack"][-1])
        return obj["stack"][-1]

    @calc.result_callback()
    @click.pass_obj
    def finish(obj, results, start):
        obj["tops"].append(obj["stack"][-1])
        obj["steps"] += len(results)
        obj["sums"].append(sum(results))
        return results

    state = {"runs": 0, "steps": 0, "tops": [], "sums": []}
    runner = CliRunner()
    codes = []
    for i in range(32):
        args = ["--start", str(i % 4)] if i % 3 else []
        depth = 1  # the test's own count of the stack's height
        for j in range(i % 7 + 2):
            sel = (i * 7 + j * 3) % 5
            if sel == 1 and depth >= 2:
                args.append("add")
                depth -= 1
            elif sel == 2:
                args += ["mul", "--by", str(j % 3 + 1)] if j % 2 else ["mul"]
            elif sel == 3:
                args.append("dup")
                depth += 1
            elif sel == 4 and depth >= 2:
                args += ["add", "dup"]
            else:
                if i % 9 == 4 and j == 0:
                    value = str(25 + i)  # outside the IntRange
                elif i % 13 == 6 and j == 1:
                    value = "-1"  # looks like an option to the parser
                else:
                    value = str((i + j * 5) % 13)
                args += ["push", value]
                depth += 1
        if i % 11 == 10:
            args.append("pop")  # not a command of the group
        result = runner.invoke(calc, args, obj=state)
        codes.append(result.exit_code)
    assert [i for i, code in enumerate(codes) if code] == [6, 10, 13, 21, 22]
    assert {codes[i] for i in (6, 10, 13, 21, 22)} == {2}
    assert state["runs"] == 32
    assert len(state["tops"]) == len(state["sums"]) == 27
    assert state["steps"] == 142
    assert sum(state["tops"]) == 324
    assert max(state["tops"]) == 84
    assert sum(state["sums"]) == 1438
    assert state["stack"] == [26, 26]


def test_option_parser_clusters_counts_and_multiples():
    @click.command()
    @click.option("-v", "--verbose", count=True)
    @click.option("-q", "--quiet", is_flag=True)
    @click.option("-t", "--tag", multiple=True)
    @click.option("-p", "--point", nargs=2, type=int)
    @click.option(
        "--mode", type=click.Choice(["fast", "slow", "auto"], case_sensitive=False), default="auto"
    )
    @click.option("--color/--no-color", default=True)
    @click.argument("files", nargs=-1)
    def tool(verbose, quiet, tag, point, mode, color, files):
        return verbose, quiet, tag, point, mode, color, files

    results = []
    for i in range(40):
        args = []
        cluster = "v" * (i % 4) + ("q" if i % 3 == 0 else "")
        if cluster:
            args.append("-" + cluster)
        for j in range(i % 5):
            name = f"k{(i + j) % 5}"
            args += ["-t", name] if j % 2 else [f"--tag={name}"]
        if i % 6 == 5:
            args.append(f"-vt{i % 4}")  # a value attached inside a short cluster
        if i % 4 == 1:
            args += ["-p", str(i), str(-i)]
        if i % 2:
            args += ["--mode", ["FAST", "slow", "Auto"][i % 3]]
        if i % 5 == 2:
            args.append("--no-color")
        args += [f"f{i}"] if i % 3 else []
        if i % 7 == 0:
            args += ["--", "-x", f"g{i}"]
        results.append(tool.main(args, prog_name="tool", standalone_mode=False))

    errors = []
    for i in range(15):
        bad = [["-p", str(i)], ["--mode", "medium"], ["-vz"], ["--colour"], ["--quiet=yes"]][i % 5]
        with pytest.raises(click.UsageError) as exc_info:
            tool.main(bad + ([f"f{i}"] if i % 3 else []), prog_name="tool", standalone_mode=False)
        errors.append((type(exc_info.value).__name__, exc_info.value.format_message()))

    assert len(results) == 40
    assert sum(r[0] for r in results) == 66  # -v counts
    assert sum(r[1] for r in results) == 14  # -q
    tags = [t for r in results for t in r[2]]
    assert len(tags) == 86
    assert sorted(set(tags)) == ["1", "3", "k0", "k1", "k2", "k3", "k4"]
    assert [r[3] for r in results if r[3] is not None][:3] == [(1, -1), (5, -5), (9, -9)]
    assert [r[4] for r in results].count("auto") == 26
    assert sum(not r[5] for r in results) == 8
    files = [f for r in results for f in r[6]]
    assert len(files) == 38 and files.count("-x") == 6
    assert [name for name, _ in errors[:5]] == [
        "BadOptionUsage",
        "BadParameter",
        "NoSuchOption",
        "NoSuchOption",
        "BadOptionUsage",
    ]
    assert [name for name, _ in errors].count("BadParameter") == 5
    assert (
        errors[3][1] == "No such option '--colour'. (Did you mean one of: '--color', '--no-color'?)"
    )


def test_type_conversions_through_options_with_failures():
    @click.command()
    @click.option("--level", type=click.IntRange(0, 20, clamp=True))
    @click.option("--slot", type=click.IntRange(0, 20, min_open=True, max_open=True))
    @click.option("--ratio", type=click.FloatRange(-1.5, 2.5))
    @click.option(
        "--kind", type=click.Choice(["alpha", "beta", "gamma", "delta"], case_sensitive=False)
    )
    @click.option("--pair", type=(int, click.Choice(["x", "y", "z"])), multiple=True)
    @click.option("--on", type=bool)
    def cmd(level, slot, ratio, kind, pair, on):
        pass

    ctx = click.Context(cmd, info_name="cmd")
    params = {p.name: p for p in cmd.params}
    converted = {name: [] for name in params}
    failures = {name: 0 for name in params}
    last_message = {}
    for i in range(44):
        raw = {
            "level": str((i * 7 + 3) % 11 * 3 - 6),
            "slot": str((i * 5) % 23 - 1),
            "ratio": str(i / 4 - 2),
            "kind": ["ALPHA", "beta", "Gamma", "eps", "delta"][i % 5],
            "pair": [(str(i + k), "xyzw"[(i + k) % 4]) for k in range(i % 3)]
            + ([(str(i),)] if i % 9 == 8 else []),
            "on": ["yes", "0", "On", "maybe", "f", "TRUE"][i % 6],
        }
        for name, param in params.items():
            try:
                converted[name].append(param.process_value(ctx, raw[name]))
            except click.BadParameter as e:
                failures[name] += 1
                last_message[name] = e.format_message()

    assert failures == {"level": 0, "slot": 8, "ratio": 27, "kind": 9, "pair": 13, "on": 7}
    # clamping never fails: every level value is kept
    assert len(converted["level"]) == 44 and sum(converted["level"]) == 412
    assert converted["level"].count(20) == 8 and converted["level"].count(0) == 12
    assert sum(converted["slot"]) == 351
    assert sum(converted["ratio"]) == 8.5
    assert converted["kind"].count("delta") == 8
    assert sum(len(p) for p in converted["pair"]) == 21
    assert sum(converted["on"]) == 22
    assert last_message["slot"] == "Invalid value for '--slot': 20 is not in the range 0<x<20."
    assert last_message["pair"] == "Invalid value for '--pair': 'w' is not one of 'x', 'y', 'z'."
    assert last_message["ratio"].endswith("8.75 is not in the range -1.5<=x<=2.5.")


def test_wrap_text_widths_paragraphs_and_long_words():
    words = [f"w{i}" + "x" * (i % 7) for i in range(36)]
    stats = []
    for k in range(24):
        width = 10 + (k * 5) % 31
        text = " ".join(words[: 8 + k])
        if k % 4 == 3:
            # a word longer than the widest width
            text += " " + "L" * (20 + k)
        if k % 5 == 1:
            text += " " + click.style("styled" * 4, fg="green") + " tail"
        preserve = k % 2 == 0
        if preserve:
            text = (
                text
                + "\n\n\b\n  keep   this\n  as is\n\n    indented "
                + " ".join(words[k : k + 6])
            )
        out = wrap_text(
            text,
            width=width,
            initial_indent="> " if k % 3 else "",
            subsequent_indent="  " * (k % 3),
            preserve_paragraphs=preserve,
        )
        lines = out.splitlines()
        stats.append((width, len(lines), max(len(click.unstyle(line)) for line in lines)))

    # each output, its lines joined again, is rewrapped narrower with a word added
    text = " ".join(words[:12])
    line_counts = []
    for k in range(14):
        out = wrap_text(text, width=36 - 2 * k, subsequent_indent=" " * (k % 3))
        line_counts.append(len(out.splitlines()))
        text = " ".join(line.strip() for line in out.splitlines()) + f" n{k}"

    assert sum(n for _, n, _ in stats) == 298
    assert [n for _, n, _ in stats][:8] == [18, 7, 12, 4, 9, 3, 10, 12]
    # the outputs with a line longer than their width
    assert [k for k, (width, _, longest) in enumerate(stats) if longest > width] == [0]
    assert line_counts == [2, 3, 3, 3, 4, 4, 4, 5, 6, 6, 8, 10, 10, 15]
    assert out.splitlines()[-1] == " n11 n12"


def test_help_formatter_definition_lists_and_usage_widths():
    outputs = []
    for k in range(20):
        width = 30 + (k * 9) % 50
        formatter = HelpFormatter(indent_increment=2 + k % 3, width=width)
        args = " ".join(f"[ARG{j}]" for j in range(k % 6 + 2))
        formatter.write_usage("prog" + "-sub" * (k % 5), args)
        rows = []
        for j in range(k % 8 + 2):
            first = f"--opt-{j}" + "-x" * ((j + k) % 9)
            second = (
                ""
                if (j * 3 + k) % 7 == 0
                else " ".join(f"h{j}{n}" for n in range((j + k) % 11 + 1))
            )
            rows.append((first, second))
        with formatter.section("Options"):
            formatter.write_dl(rows, col_max=12 + k % 4 * 6)
            if k % 3 == 0:
                with formatter.section("Nested"):
                    formatter.write_text("nested text " * (k % 5 + 1))
        formatter.write_paragraph()
        outputs.append(formatter.getvalue())

    line_counts = [len(o.splitlines()) for o in outputs]
    assert line_counts == [10, 7, 8, 13, 15, 13, 36, 20, 8, 12, 8, 9, 22, 16, 15, 18, 8, 17, 16, 12]
    assert sum(line_counts) == 283
    # a usage line whose prefix leaves too little room puts the arguments below it
    assert [k for k, o in enumerate(outputs) if o.splitlines()[0].endswith(" ")] == [
        0,
        6,
        12,
        17,
        18,
    ]
    assert sum(o.count("Nested:") for o in outputs) == 7


def test_group_gains_commands_between_help_renderings():
    @click.group(context_settings={"terminal_width": 60, "max_content_width": 60})
    @click.option("--level", type=click.IntRange(1, 9), default=3, show_default=True)
    @click.option("--name", default="main", show_default=True, help="Name of the run.")
    def root(level, name):
        pass

    summaries = []
    for i in range(30):
        words = [f"word{(i + j) % 6}" for j in range(i % 13 + 1)]
        stop = (i * 5) % 7
        if stop < len(words) and i % 2:
            words[stop] += "."
        helptext = " ".join(words)
        root.add_command(
            click.Command(
                f"c{i:02d}",
                help=helptext,
                hidden=i % 10 == 9,
                deprecated=i % 8 == 7,
                callback=lambda: None,
            )
        )
        if i % 3 == 2:
            ctx = click.Context(
                root, info_name="root", terminal_width=40 + i, max_content_width=40 + i
            )
            text = root.get_help(ctx)
            summaries.append(
                (len(text.splitlines()), text.count("..."), text.count("(DEPRECATED)"))
            )
    short = [
        _make_default_short_help(" ".join(f"x{j}" * (j % 3 + 1) for j in range(n)), n * 2)
        for n in range(1, 16)
    ]

    # (lines, "..." occurrences, deprecated labels) after every third added command
    assert summaries == [
        (14, 1, 0),
        (17, 1, 0),
        (19, 3, 1),
        (21, 3, 1),
        (23, 4, 1),
        (26, 4, 2),
        (27, 4, 2),
        (30, 4, 3),
        (33, 5, 3),
        (35, 4, 3),
    ]
    assert len(root.commands) == 30
    assert short[:4] == ["x0", "...", "x0...", "x0..."]
    assert short[-1] == "x0 x1x1 x2x2x2 x3 x4x4..."
    assert sum(len(text) for text in short) == 207


def test_positional_nargs_unpacking_over_growing_argv():
    @click.command()
    @click.argument("head")
    @click.argument("middle", nargs=-1)
    @click.argument("tail", nargs=2, type=int)
    def star_mid(head, middle, tail):
        return head, middle, tail

    @click.command()
    @click.argument("pair", nargs=2)
    @click.argument("one")
    @click.argument("rest", nargs=-1, required=True)
    def star_end(pair, one, rest):
        return pair, one, rest

    mid, end, errors = [], [], []
    for n in range(22):
        # the last two words are digits, the others are named by their index
        argv = [str(j * 3 % 10) if j >= n - 2 else f"a{j}" for j in range(n)]
        try:
            head, middle, tail = star_mid.main(argv, prog_name="mid", standalone_mode=False)
            mid.append((head, len(middle), sum(tail)))
        except click.UsageError as e:
            errors.append(("mid", n, type(e).__name__))
        try:
            pair, one, rest = star_end.main(argv, prog_name="end", standalone_mode=False)
            end.append((pair, one, len(rest)))
        except click.UsageError as e:
            errors.append(("end", n, type(e).__name__))

    assert errors == [
        ("mid", 0, "MissingParameter"),
        ("end", 0, "MissingParameter"),
        ("mid", 1, "MissingParameter"),
        ("end", 1, "BadArgumentUsage"),
        ("mid", 2, "BadArgumentUsage"),
        ("end", 2, "MissingParameter"),
        ("end", 3, "MissingParameter"),
    ]
    assert len(mid) == 19 and len(end) == 18
    assert {head for head, _, _ in mid} == {"a0"}
    assert sum(count for _, count, _ in mid) == 171
    assert sum(total for _, _, total in mid) == 177
    assert [t for _, _, t in mid][:6] == [9, 15, 11, 7, 13, 9]
    assert end[0] == (("a0", "a1"), "6", 1)
    assert sum(count for _, _, count in end) == 171


def test_shell_completion_over_growing_arg_lists():
    @click.group()
    @click.option("--verbose", "-v", count=True)
    @click.option("--profile", type=click.Choice(["dev", "prod", "stage"]))
    def cli(verbose, profile):
        pass

    @cli.group(chain=True)
    def pipe():
        pass

    for name in ["load", "lint", "link", "pack", "push", "prune"]:

        @pipe.command(name, help=f"Run the {name} step.")
        @click.option("--level", type=click.Choice(["low", "mid", "max"]))
        @click.option("--flag", is_flag=True)
        def step(level, flag):
            pass

    @cli.command()
    @click.argument("target", type=click.Choice(["alpha", "beta", "bravo"]))
    @click.argument("extra", nargs=-1)
    def deploy(target, extra):
        pass

    comp = ShellComplete(cli, {}, "cli", "_CLI_COMPLETE")
    found = []
    prefixes = ["", "l", "p", "-", "--", "--l", "b", "a", "pr", "m"]
    for i in range(36):
        args = ["-v"] * (i % 3)
        if i % 4 == 0:
            args += ["--profile", "dev"]
        if i % 2:
            args += ["pipe"] + ["load", "lint", "pack", "push"][: i % 5]
            if i % 6 == 5:
                args += ["--level"]
        elif i % 4 == 2:
            args += ["deploy"]
            if i % 8 == 6:
                args += ["beta"]
        incomplete = prefixes[i % len(prefixes)]
        items = comp.get_completions(list(args), incomplete)
        found.append([item.value for item in items])

    # each round completes the chain and appends the last suggestion
    chain = ["pipe"]
    rounds = []
    for k in range(8):
        values = [item.value for item in comp.get_completions(list(chain), "")]
        rounds.append(len(values))
        if not values:
            break
        chain.append(values[-1 - k % 2] if len(values) > 1 else values[0])

    assert len(found) == 36
    assert sum(len(values) for values in found) == 37
    assert sum(1 for values in found if not values) == 17
    assert found[:5] == [
        ["deploy", "pipe"],
        ["link", "lint"],
        [],
        ["--level", "--flag", "--help"],
        ["--help"],
    ]
    assert found[11] == ["low"] and found[29] == ["mid", "max"]
    assert found[24] == ["--verbose", "--help"]
    assert rounds == [6, 5, 4, 3, 2, 1, 0]
    assert chain == ["pipe", "push", "pack", "prune", "lint", "load", "link"]


def test_default_map_envvars_and_obj_accumulation():
    @click.group()
    @click.option("--level", type=int, default=1, envvar="TOOL_LEVEL")
    @click.pass_context
    def tool(ctx, level):
        ctx.obj["levels"].append(level)

    @tool.group()
    @click.option("--remote", default="origin")
    @click.pass_obj
    def repo(obj, remote):
        obj["remotes"].append(remote)

    @repo.command()
    @click.option("--depth", type=int, default=5)
    @click.option("--path", "paths", multiple=True, envvar="TOOL_PATHS")
    @click.option("--span", nargs=2, type=int, multiple=True, envvar="TOOL_SPANS")
    @click.option("--fast", "speed", flag_value="quick", envvar="TOOL_FAST")
    @click.pass_context
    def sync(ctx, depth, paths, span, speed):
        sources = ctx.obj["sources"]
        for name in ("depth", "paths", "span", "speed"):
            src = ctx.get_parameter_source(name).name
            sources[src] = sources.get(src, 0) + 1
        ctx.obj["depths"].append(depth)
        ctx.obj["paths"] += len(paths)
        ctx.obj["span_total"] += sum(b - a for a, b in span)
        ctx.obj["speeds"].append(speed)

    state = {
        "levels": [],
        "remotes": [],
        "sources": {},
        "depths": [],
        "paths": 0,
        "span_total": 0,
        "speeds": [],
    }
    runner = CliRunner()
    codes = []
    for i in range(30):
        args = []
        if i % 5 == 1:
            args += ["--level", str(i)]
        args.append("repo")
        if i % 4 == 3:
            args += ["--remote", f"r{i % 3}"]
        args.append("sync")
        if i % 6 == 0:
            args += ["--depth", str(i // 2)]
        if i % 7 == 4:
            args += ["--path", f"p{i}", "--path", f"q{i}"]
        if i % 8 == 5:
            args += ["--span", str(i), str(i * 2)]
        # every variable is named, None unsets it: the real environment is never read
        env = dict.fromkeys(["TOOL_LEVEL", "TOOL_PATHS", "TOOL_SPANS"])
        if i % 3 == 1:
            env["TOOL_LEVEL"] = str(100 + i)
        if i % 4 == 2:
            env["TOOL_PATHS"] = " ".join(f"e{j}" for j in range(i % 5 + 1))
        if i % 3 == 2:
            env["TOOL_SPANS"] = " ".join(str(j * j) for j in range(2 * (i % 4)))
        env["TOOL_FAST"] = ["quick", "yes", "0", "bogus", ""][i % 5]
        default_map = None
        if i % 5 == 3:
            default_map = {"repo": {"remote": "upstream", "sync": {"depth": i}}}
        result = runner.invoke(tool, args, obj=state, env=env, default_map=default_map)
        codes.append(result.exit_code)

    assert codes == [0] * 30
    assert sum(state["levels"]) == 1025
    assert state["levels"][:8] == [1, 1, 1, 1, 104, 1, 6, 107]
    assert state["remotes"].count("origin") == 19 and state["remotes"].count("upstream") == 4
    # four parameters of sync, thirty runs
    assert state["sources"] == {
        "COMMANDLINE": 13,
        "DEFAULT": 72,
        "ENVIRONMENT": 30,
        "DEFAULT_MAP": 5,
    }
    assert sum(state["depths"]) == 205
    assert state["paths"] == 24
    assert state["span_total"] == 117
    assert state["speeds"][:5] == ["quick", "quick", "False", None, None]
    assert state["speeds"].count("quick") == 12


def test_unknown_options_normalization_and_suggestions():
    @click.command(context_settings={"token_normalize_func": str.lower})
    @click.option("--alpha-level", type=int, default=0)
    @click.option("--beta", is_flag=True)
    @click.option("--gamma-ray", default="g")
    @click.option("-d", "delta", count=True)
    def cmd(alpha_level, beta, gamma_ray, delta):
        click.echo(f"{alpha_level}:{beta}:{gamma_ray}:{delta}")

    names = ["--alpha-level", "--beta", "--gamma-ray", "-d"]
    runner = CliRunner()
    outputs = []
    retries = []
    for i in range(30):
        name = names[i % 4]
        if i % 3 == 1:
            name = name.upper()
        elif i % 3 == 2 and len(name) > 3:
            name = name[:-2] + name[-1]  # drop the next-to-last letter
        args = [name]
        if "alpha" in name.lower() or "gamma" in name.lower():
            args.append(str(i))
        if i % 5 == 4:
            args.append("-" + "d" * (i % 4 + 1))
        if i % 7 == 6:
            args.append("--zz")  # close to no option
        result = runner.invoke(cmd, args)
        last = result.output.strip().splitlines()[-1]
        if result.exit_code == 2 and "Did you mean" in last:
            # retry with the option the error message suggests
            suggested = last.split("Did you mean ")[1].strip("'?")
            retries.append(suggested)
            result = runner.invoke(cmd, [suggested, *args[1:]])
            last = result.output.strip().splitlines()[-1]
        outputs.append((result.exit_code, last))

    assert [i for i, (code, _) in enumerate(outputs) if code] == [6, 13, 20, 27]
    assert {line for code, line in outputs if code} == {"Error: No such option '--zz'."}
    assert retries == ["--gamma-ray", "--beta", "--alpha-level"] * 2 + ["--gamma-ray", "--beta"]
    fields = [line.split(":") for code, line in outputs if code == 0]
    assert sum(int(f[0]) for f in fields) == 92  # --alpha-level values
    assert sum(f[1] == "True" for f in fields) == 7
    assert sum(int(f[3]) for f in fields) == 19  # -d counts
    assert outputs[14] == (0, "0:False:14:3")


def test_callback_order_follows_invocation_and_eagerness():
    log = []

    def record(ctx, param, value):
        log.append(param.name)
        if param.name == "a" and value % 7 == 5:
            raise click.BadParameter(f"{value} is refused")
        return value

    @click.command()
    @click.option("--a", type=int, default=0, callback=record)
    @click.option("--b", type=int, default=0, callback=record)
    @click.option("--c", is_flag=True, is_eager=True, callback=record)
    @click.option("--d", multiple=True, callback=record)
    @click.argument("rest", nargs=-1, callback=record)
    def cmd(a, b, c, d, rest):
        return a + b + len(d) + len(rest) + (10 if c else 0)

    orders = []
    totals = []
    refused = 0
    for i in range(30):
        args = []
        for j in range(i % 4 + 2):
            kind = (i + j * 2) % 5
            if kind == 0:
                args += ["--a", str(i + j)]
            elif kind == 1:
                args += ["--b", str(j)]
            elif kind == 2:
                args.append("--c")
            elif kind == 3:
                args += ["--d", f"k{i % 3}"]
            else:
                args.append(f"r{j}")
        log.clear()
        try:
            totals.append(cmd.main(args, prog_name="cmd", standalone_mode=False))
        except click.BadParameter:
            refused += 1
        orders.append("".join(name[0] for name in log))

    assert all(order[0] == "c" for order in orders)
    assert orders[:6] == ["carbd", "cbdar", "cbdra", "cdabr", "cbrad", "ca"]
    assert refused == 2 and len(totals) == 28
    assert [i for i, order in enumerate(orders) if len(order) < 5] == [5, 18]
    assert sum(totals) == 554
    assert max(totals) == 45
