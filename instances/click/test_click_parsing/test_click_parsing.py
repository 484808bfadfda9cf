"""Option and argument parsing through click's parser (click.parser / click.core)."""

import click
import pytest
from click.testing import CliRunner


@click.command()
@click.option("-v", "--verbose", count=True)
@click.option("-q", "--quiet", is_flag=True)
@click.option("-o", "--output", default="-")
@click.option("-n", "--number", type=int, default=1)
@click.argument("files", nargs=-1)
def tool(verbose, quiet, output, number, files):
    click.echo(f"v={verbose} q={quiet} o={output} n={number} files={'|'.join(files)}")


@click.command()
@click.argument("src", nargs=2)
@click.argument("middle", nargs=-1)
@click.argument("dst")
def copy(src, middle, dst):
    click.echo(f"src={','.join(src)} middle={','.join(middle)} dst={dst}")


@click.command()
@click.option("--point", nargs=3, type=int)
@click.option("--tag", "tags", multiple=True)
@click.option("--flag/--no-flag", default=False)
def shapes(point, tags, flag):
    click.echo(f"point={point} tags={','.join(tags)} flag={flag}")


def run(cmd, args, **kwargs):
    return CliRunner().invoke(cmd, args, **kwargs)


def test_clustered_short_flags_are_counted():
    result = run(tool, ["-vvvq", "a", "b"])
    assert result.exit_code == 0, result.output
    assert result.output == "v=3 q=True o=- n=1 files=a|b\n"


def test_short_option_with_attached_value_inside_cluster():
    result = run(tool, ["-vvofile.txt", "-n5", "x", "y", "z"])
    assert result.exit_code == 0, result.output
    assert result.output == "v=2 q=False o=file.txt n=5 files=x|y|z\n"


def test_long_options_with_equals_and_separate_values():
    result = run(tool, ["--output=out.bin", "--number", "42", "--verbose", "--verbose", "f1"])
    assert result.exit_code == 0, result.output
    assert result.output == "v=2 q=False o=out.bin n=42 files=f1\n"


def test_double_dash_stops_option_processing():
    result = run(tool, ["-v", "--", "-q", "--output", "x"])
    assert result.exit_code == 0, result.output
    assert result.output == "v=1 q=False o=- n=1 files=-q|--output|x\n"


def test_interspersed_args_between_options():
    result = run(tool, ["one", "-v", "two", "--quiet", "three", "-n", "7"])
    assert result.exit_code == 0, result.output
    assert result.output == "v=1 q=True o=- n=7 files=one|two|three\n"


def test_unknown_long_option_suggests_close_match():
    result = run(tool, ["--outptu", "x"])
    assert result.exit_code == 2
    assert "No such option '--outptu'. Did you mean '--output'?" in result.output


def test_unknown_short_option_in_cluster():
    result = run(tool, ["-vvx"])
    assert result.exit_code == 2
    assert "No such option '-x'." in result.output


def test_option_missing_or_bad_value():
    result = run(tool, ["a", "--number"])
    assert result.exit_code == 2
    assert "Option '--number' requires an argument." in result.output
    result = run(tool, ["-n", "seven"])
    assert result.exit_code == 2
    assert "'seven' is not a valid integer." in result.output


def test_variadic_argument_between_fixed_arguments():
    result = run(copy, ["a", "b", "c", "d", "e", "f"])
    assert result.exit_code == 0, result.output
    assert result.output == "src=a,b middle=c,d,e dst=f\n"
    result = run(copy, ["a", "b", "z"])
    assert result.exit_code == 0, result.output
    assert result.output == "src=a,b middle= dst=z\n"


def test_missing_fixed_argument_reports_error():
    result = run(copy, ["a", "b"])
    assert result.exit_code == 2
    assert "Missing argument 'DST'." in result.output
    result = run(copy, ["only"])
    assert result.exit_code == 2
    assert "Argument 'src' takes 2 values." in result.output


def test_multi_value_options_multiple_and_boolean_pairs():
    result = run(shapes, ["--point", "1", "2", "3", "--tag", "a", "--tag", "b", "--tag", "c", "--flag"])
    assert result.exit_code == 0, result.output
    assert result.output == "point=(1, 2, 3) tags=a,b,c flag=True\n"
    result = run(shapes, ["--no-flag", "--tag", "only"])
    assert result.exit_code == 0, result.output
    assert result.output == "point=None tags=only flag=False\n"
    result = run(shapes, ["--point", "1", "2"])
    assert result.exit_code == 2
    assert "requires 3 arguments" in result.output


def test_parse_args_directly_on_context():
    ctx = tool.make_context("tool", ["-vv", "--output", "o.txt", "p1", "p2"])
    assert ctx.params["verbose"] == 2
    assert ctx.params["output"] == "o.txt"
    assert ctx.params["files"] == ("p1", "p2")
    with pytest.raises(click.NoSuchOption) as excinfo:
        tool.make_context("tool", ["--bogus"])
    assert excinfo.value.option_name == "--bogus"
