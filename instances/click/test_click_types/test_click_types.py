"""Value conversion in click.types: ranges, choices, datetimes, tuples, paths, files."""

import datetime
import enum
import uuid

import click
import pytest
from click.testing import CliRunner


class Color(enum.Enum):
    RED = "r"
    GREEN = "g"
    BLUE = "b"


def test_int_range_accepts_rejects_and_clamps():
    closed = click.IntRange(1, 10)
    assert closed.convert("1", None, None) == 1
    assert closed.convert("10", None, None) == 10
    with pytest.raises(click.BadParameter) as excinfo:
        closed.convert("11", None, None)
    assert "11 is not in the range 1<=x<=10." in str(excinfo.value)

    clamped = click.IntRange(0, 5, min_open=True, max_open=True, clamp=True)
    assert clamped.convert("-3", None, None) == 1
    assert clamped.convert("99", None, None) == 4
    assert clamped.convert("3", None, None) == 3
    assert repr(clamped) == "<IntRange 0<x<5 clamped>"


def test_int_range_half_open_and_non_numeric():
    lower_only = click.IntRange(min=3, min_open=True)
    assert lower_only.convert("4", None, None) == 4
    with pytest.raises(click.BadParameter) as excinfo:
        lower_only.convert("3", None, None)
    assert "x>3" in str(excinfo.value)
    with pytest.raises(click.BadParameter) as excinfo:
        lower_only.convert("four", None, None)
    assert "'four' is not a valid integer range." in str(excinfo.value)


def test_float_range_clamp_and_open_bound_rules():
    fr = click.FloatRange(0.0, 1.0, clamp=True)
    assert fr.convert("1.5", None, None) == 1.0
    assert fr.convert("-0.25", None, None) == 0.0
    assert fr.convert("0.5", None, None) == 0.5
    with pytest.raises(TypeError):
        click.FloatRange(0.0, 1.0, max_open=True, clamp=True)
    open_range = click.FloatRange(0.0, 1.0, max_open=True)
    with pytest.raises(click.BadParameter) as excinfo:
        open_range.convert("1.0", None, None)
    assert "0.0<=x<1.0" in str(excinfo.value)


def test_choice_case_insensitive_and_enum_choices():
    choice = click.Choice(["alpha", "Beta", "gamma", "delta"], case_sensitive=False)
    assert choice.convert("ALPHA", None, None) == "alpha"
    assert choice.convert("beta", None, None) == "Beta"
    assert choice.convert("Delta", None, None) == "delta"
    with pytest.raises(click.BadParameter) as excinfo:
        choice.convert("epsilon", None, None)
    assert "'epsilon' is not one of 'alpha', 'beta', 'gamma', 'delta'." in str(excinfo.value)

    colors = click.Choice(Color, case_sensitive=False)
    assert colors.convert("green", None, None) is Color.GREEN
    assert colors.convert("BLUE", None, None) is Color.BLUE


def test_choice_option_help_and_error_through_command():
    @click.command()
    @click.option("--level", type=click.Choice(["low", "mid", "high"]), default="mid", show_default=True)
    def cmd(level):
        click.echo(level)

    runner = CliRunner()
    assert runner.invoke(cmd, ["--level", "high"]).output == "high\n"
    assert runner.invoke(cmd, []).output == "mid\n"
    bad = runner.invoke(cmd, ["--level", "HIGH"])
    assert bad.exit_code == 2
    assert "'HIGH' is not one of 'low', 'mid', 'high'." in bad.output
    help_out = runner.invoke(cmd, ["--help"], terminal_width=80).output
    assert "[low|mid|high]" in help_out
    assert "[default: mid]" in help_out


def test_datetime_tries_formats_in_order():
    dt = click.DateTime(["%d/%m/%Y", "%Y%m%d", "%Y-%m-%d %H:%M"])
    assert dt.convert("25/12/2020", None, None) == datetime.datetime(2020, 12, 25)
    assert dt.convert("20210704", None, None) == datetime.datetime(2021, 7, 4)
    assert dt.convert("2022-01-02 03:04", None, None) == datetime.datetime(2022, 1, 2, 3, 4)
    fixed = datetime.datetime(2000, 1, 1, 12, 0)
    assert dt.convert(fixed, None, None) is fixed
    with pytest.raises(click.BadParameter) as excinfo:
        dt.convert("not a date", None, None)
    assert "does not match the formats" in str(excinfo.value)


def test_default_datetime_formats_via_command():
    @click.command()
    @click.option("--when", type=click.DateTime())
    def cmd(when):
        click.echo(when.isoformat())

    runner = CliRunner()
    assert runner.invoke(cmd, ["--when", "2019-03-04"]).output == "2019-03-04T00:00:00\n"
    assert runner.invoke(cmd, ["--when", "2019-03-04 05:06:07"]).output == "2019-03-04T05:06:07\n"
    bad = runner.invoke(cmd, ["--when", "04.03.2019"])
    assert bad.exit_code == 2
    assert "'04.03.2019' does not match the formats" in bad.output


def test_bool_uuid_and_tuple_types():
    b = click.BOOL
    assert [b.convert(v, None, None) for v in ["yes", " On ", "0", "F", "true"]] == [
        True,
        True,
        False,
        False,
        True,
    ]
    with pytest.raises(click.BadParameter):
        b.convert("maybe", None, None)

    u = click.UUID.convert(" 12345678-1234-5678-1234-567812345678 ", None, None)
    assert u == uuid.UUID("12345678-1234-5678-1234-567812345678")
    with pytest.raises(click.BadParameter):
        click.UUID.convert("zzzz", None, None)

    tup = click.Tuple([int, float, str, bool])
    assert tup.name == "<integer float text boolean>"
    assert tup.arity == 4
    assert tup.convert(["3", "2.5", "x", "no"], None, None) == (3, 2.5, "x", False)
    with pytest.raises(click.BadParameter) as excinfo:
        tup.convert(["1", "2"], None, None)
    assert "4 values are required, but 2 were given." in str(excinfo.value)


def test_path_type_checks(tmp_path):
    f = tmp_path / "data.txt"
    f.write_text("hello\n")
    d = tmp_path / "subdir"
    d.mkdir()

    must_exist = click.Path(exists=True)
    assert must_exist.convert(str(f), None, None) == str(f)
    with pytest.raises(click.BadParameter) as excinfo:
        must_exist.convert(str(tmp_path / "missing.txt"), None, None)
    assert "does not exist" in str(excinfo.value)

    files_only = click.Path(dir_okay=False)
    with pytest.raises(click.BadParameter) as excinfo:
        files_only.convert(str(d), None, None)
    assert "is a directory" in str(excinfo.value)

    dirs_only = click.Path(file_okay=False, path_type=type(tmp_path))
    with pytest.raises(click.BadParameter) as excinfo:
        dirs_only.convert(str(f), None, None)
    assert "is a file" in str(excinfo.value)
    assert dirs_only.convert(str(d), None, None) == d
    assert click.Path().convert(str(tmp_path / "nope"), None, None) == str(tmp_path / "nope")


def test_file_type_reads_and_writes_via_command(tmp_path):
    src = tmp_path / "in.txt"
    src.write_text("line one\nline two\nline three\n")
    dst = tmp_path / "out.txt"

    @click.command()
    @click.argument("infile", type=click.File("r"))
    @click.argument("outfile", type=click.File("w", lazy=True))
    def cmd(infile, outfile):
        count = 0
        for line in infile:
            outfile.write(line.upper())
            count += 1
        click.echo(count)

    runner = CliRunner()
    result = runner.invoke(cmd, [str(src), str(dst)])
    assert result.exit_code == 0, result.output
    assert result.output == "3\n"
    assert dst.read_text() == "LINE ONE\nLINE TWO\nLINE THREE\n"

    missing = runner.invoke(cmd, [str(tmp_path / "absent.txt"), str(dst)])
    assert missing.exit_code == 2
    assert "No such file or directory" in missing.output


def test_func_param_type_and_convert_type_guessing():
    def parse_pair(value):
        left, right = value.split(":")
        return int(left), int(right)

    pair = click.types.convert_type(parse_pair)
    assert isinstance(pair, click.types.FuncParamType)
    assert pair.convert("3:4", None, None) == (3, 4)
    with pytest.raises(click.BadParameter):
        pair.convert("3-4", None, None)

    assert click.types.convert_type(None, 1.5) is click.FLOAT
    assert click.types.convert_type(None, True) is click.BOOL
    assert isinstance(click.types.convert_type((int, str)), click.Tuple)
    assert click.types.convert_type((int, str)).name == "<integer text>"
