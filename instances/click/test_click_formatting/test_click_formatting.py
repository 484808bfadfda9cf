"""Help text rendering: click.formatting, click._textwrap and Command.get_help."""

import click
from click.formatting import HelpFormatter, join_options, measure_table, wrap_text
from click.testing import CliRunner
from click.utils import _make_default_short_help


def test_wrap_text_single_paragraph_widths():
    text = "The quick brown fox jumps over the lazy dog and keeps running far away"
    assert wrap_text(text, width=20) == (
        "The quick brown fox\njumps over the lazy\ndog and keeps\nrunning far away"
    )
    assert wrap_text(text, width=40) == (
        "The quick brown fox jumps over the lazy\ndog and keeps running far away"
    )
    assert wrap_text("alpha beta gamma delta", width=12, initial_indent="> ", subsequent_indent="  ") == (
        "> alpha beta\n  gamma\n  delta"
    )


def test_wrap_text_preserves_paragraphs_and_raw_blocks():
    text = (
        "First para that is long enough to wrap around.\n\n"
        "\b\nkeep  this\n  as is\n\n"
        "    Indented para text that wraps too."
    )
    assert wrap_text(text, width=24, preserve_paragraphs=True) == (
        "First para that is long\nenough to wrap around.\n\n"
        "keep  this\n  as is\n\n"
        "    Indented para text\n    that wraps too."
    )


def test_wrap_text_ignores_ansi_styles_when_measuring():
    styled = " ".join(click.style(w, fg="red") for w in ["one", "two", "three", "four"])
    wrapped = wrap_text(styled, width=9)
    assert click.unstyle(wrapped) == "one two\nthree\nfour"


def test_help_formatter_usage_and_definition_list():
    f = HelpFormatter(width=40)
    f.write_usage("prog", "[OPTIONS] SRC DST " + "EXTRA " * 8)
    f.write_heading("Options")
    with f.indentation():
        f.write_dl(
            [
                ("-a, --alpha", "Alpha option with a long description that wraps."),
                ("--b", "Short."),
                ("--very-long-option-name-here", "Goes on next line."),
            ]
        )
    out = f.getvalue()
    lines = out.splitlines()
    assert lines[0] == "Usage: prog [OPTIONS] SRC DST EXTRA"
    assert lines[1] == "            EXTRA EXTRA EXTRA EXTRA"
    assert lines[3] == "Options:"
    assert lines[4].startswith("  -a, --alpha") and lines[4].endswith("Alpha")
    assert "  --b                           Short." in lines
    assert "  --very-long-option-name-here  Goes on" in lines
    # the description column is forced to a minimum of 10 characters
    assert [line.strip() for line in lines[4:11]] == [
        "-a, --alpha                   Alpha",
        "option",
        "with a",
        "long descr",
        "iption",
        "that",
        "wraps.",
    ]


def test_help_formatter_sections_and_text():
    f = HelpFormatter(width=30, indent_increment=4)
    with f.section("Notes"):
        f.write_text("A note that is long enough to need wrapping at thirty.")
    with f.section("More"):
        f.write_dl([("x", "ex"), ("yy", "why")], col_spacing=3)
    assert f.getvalue() == (
        "Notes:\n"
        "    A note that is long enough\n"
        "    to need wrapping at\n"
        "    thirty.\n"
        "\nMore:\n"
        "    x    ex\n"
        "    yy   why\n"
    )


def test_measure_table_and_join_options():
    assert measure_table([("a", "bbb"), ("cccc", "d"), ("ee", "ffffff")]) == (4, 6)
    assert measure_table([("one",), ("three", "x", "yz")]) == (5, 1, 2)
    assert join_options(["--foo", "-f", "/x"]) == ("-f, /x, --foo", True)
    assert join_options(["--bar", "--baz"]) == ("--bar, --baz", False)


def test_default_short_help_truncation():
    long_help = "This is a fairly long help text that will need to be cut somewhere sensible"
    assert _make_default_short_help("Short help.") == "Short help."
    assert _make_default_short_help(long_help) == "This is a fairly long help text that will..."
    assert _make_default_short_help(long_help, 20) == "This is a fairly..."
    assert _make_default_short_help("Exactly.  More text after the end.") == "Exactly."
    assert _make_default_short_help("\b\nRaw block first line") == "Raw block first line"
    assert _make_default_short_help("") == ""


@click.command(epilog="See the docs for more.", context_settings={"terminal_width": 60, "max_content_width": 60})
@click.option("-n", "--count", type=int, default=3, show_default=True, help="How many times to greet.")
@click.option("--name", required=True, help="Who to greet.")
@click.option("--secret", hidden=True)
@click.option("--mode", type=click.Choice(["fast", "slow"]), help="Speed mode.")
@click.option("--ratio", type=click.FloatRange(0, 1), help="A ratio.")
@click.argument("extra", nargs=-1)
def greet(count, name, secret, mode, ratio, extra):
    """Greet somebody several times.

    The greeting is printed once per line and is not
    rewrapped in this paragraph.
    """


def test_command_help_page_contents():
    result = CliRunner().invoke(greet, ["--help"], prog_name="greet")
    assert result.exit_code == 0
    out = result.output
    assert out.startswith("Usage: greet [OPTIONS] [EXTRA]...\n")
    assert "  Greet somebody several times.\n" in out
    assert "-n, --count INTEGER" in out
    assert "How many times to greet.  [default:\n                       3]" in out
    assert "--name TEXT" in out and "[required]" in out
    assert "--secret" not in out
    assert "--mode [fast|slow]" in out
    assert "--ratio FLOAT RANGE" in out and "[0<=x<=1]" in out
    assert out.rstrip().endswith("See the docs for more.")
    assert "  The greeting is printed once per line and is not rewrapped\n  in this paragraph.\n" in out
    assert max(len(line) for line in out.splitlines()) <= 60


def test_group_help_lists_commands_with_short_help():
    @click.group(context_settings={"terminal_width": 70})
    def cli():
        """Top level."""

    @cli.command()
    def build():
        """Build the project from sources and write the artifacts to the output dir."""

    @cli.command(short_help="Remove stuff.")
    def clean():
        """Remove generated files."""

    @cli.command(deprecated=True)
    def old():
        """Legacy command."""

    out = CliRunner().invoke(cli, ["--help"], prog_name="tool").output
    assert "Commands:\n" in out
    cmd_lines = out.split("Commands:\n", 1)[1].splitlines()
    assert [line.split()[0] for line in cmd_lines] == ["build", "clean", "old"]
    assert "Build the project from sources and write the artifacts..." in cmd_lines[0]
    assert "Remove stuff." in cmd_lines[1]
    assert "(DEPRECATED)" in cmd_lines[2]
