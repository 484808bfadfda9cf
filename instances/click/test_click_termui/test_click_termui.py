"""Terminal helpers: click.termui (style, prompt, confirm, pager) and click.utils (echo, files)."""

import io

import click
import pytest
from click.testing import CliRunner


def test_style_named_indexed_and_rgb_colors():
    assert click.style("hi", fg="red") == "\x1b[31mhi\x1b[0m"
    assert click.style("hi", fg="bright_blue", bg="white") == "\x1b[94m\x1b[47mhi\x1b[0m"
    assert click.style("x", fg=0) == "\x1b[38;5;0mx\x1b[0m"
    assert click.style("x", bg=200) == "\x1b[48;5;200mx\x1b[0m"
    assert click.style("x", fg=(10, 20, 30)) == "\x1b[38;2;10;20;30mx\x1b[0m"
    assert click.style(42, bold=True, underline=False, reset=False) == "\x1b[1m\x1b[24m42"


def test_style_rejects_invalid_colors():
    with pytest.raises(ValueError):
        click.style("x", fg="not-a-color")
    with pytest.raises(ValueError):
        click.style("x", fg=256)
    with pytest.raises(ValueError):
        click.style("x", fg=(1, 2, 300))
    with pytest.raises(ValueError):
        click.style("x", fg=True)


def test_unstyle_and_echo_strip_ansi_for_plain_streams():
    styled = click.style("a", fg="green") + " " + click.style("b", bold=True, italic=True)
    assert click.unstyle(styled) == "a b"
    buf = io.StringIO()
    click.echo(styled, file=buf)
    click.echo(file=buf)
    click.echo(123, file=buf, nl=False)
    assert buf.getvalue() == "a b\n\n123"
    colored = io.StringIO()
    click.echo(styled, file=colored, color=True)
    assert colored.getvalue() == styled + "\n"


def test_secho_and_echo_to_stderr_in_runner():
    @click.command()
    def cmd():
        click.secho("warn", fg="yellow", err=True)
        click.secho("info", bold=True)
        click.echo("plain", err=True)

    result = CliRunner().invoke(cmd, [])
    assert result.stdout == "info\n"
    assert result.stderr == "warn\nplain\n"
    colored = CliRunner().invoke(cmd, [], color=True)
    assert colored.stdout == "\x1b[1minfo\x1b[0m\n"


def test_prompt_retries_until_value_converts():
    @click.command()
    def cmd():
        n = click.prompt("Number", type=int)
        r = click.prompt("Ratio", type=click.FloatRange(0, 1), default=0.5)
        click.echo(f"got {n} {r}")

    result = CliRunner().invoke(cmd, [], input="abc\n\nx1\n12\n\n")
    assert result.exit_code == 0, result.output
    assert result.output.count("Error: 'abc' is not a valid integer.") == 1
    assert result.output.count("Error: 'x1' is not a valid integer.") == 1
    assert result.output.count("Number: ") == 4
    assert "Ratio [0.5]: " in result.output
    assert result.output.endswith("got 12 0.5\n")


def test_prompt_choice_and_confirmation():
    @click.command()
    def cmd():
        c = click.prompt("Pick", type=click.Choice(["red", "blue"]))
        pw = click.prompt("Password", hide_input=True, confirmation_prompt=True)
        click.echo(f"{c} {len(pw)}")

    result = CliRunner().invoke(cmd, [], input="green\nblue\nsecret\nsecreT\nhunter2\nhunter2\n")
    assert result.exit_code == 0, result.output
    assert "Pick (red, blue): " in result.output
    assert "Error: 'green' is not one of 'red', 'blue'." in result.output
    assert result.output.count("Error: The two entered values do not match.") == 1
    assert "secret" not in result.output
    assert result.output.endswith("blue 7\n")


def test_confirm_defaults_invalid_input_and_abort():
    @click.command()
    def cmd():
        a = click.confirm("Continue?", default=True)
        b = click.confirm("Really?")
        c = click.confirm("Sure?", default=None)
        click.echo(f"{a} {b} {c}")
        click.confirm("Delete everything?", abort=True)
        click.echo("deleted")

    result = CliRunner().invoke(cmd, [], input="\nmaybe\nno\n\nYES\nn\n")
    assert "Continue? [Y/n]: " in result.output
    assert "Really? [y/N]: " in result.output
    assert "Sure? [y/n]: " in result.output
    # "maybe" for Really? and the empty answer for Sure? (no default) are rejected
    assert result.output.count("Error: invalid input") == 2
    assert "True False True" in result.output
    assert result.exit_code == 1
    assert "Aborted!" in result.output
    assert "deleted" not in result.output


def test_echo_via_pager_without_tty_writes_everything():
    @click.command()
    def cmd():
        click.echo_via_pager(f"line {i}\n" for i in range(5))

    result = CliRunner().invoke(cmd, [])
    assert result.exit_code == 0, result.output
    # the pager always appends one final newline after the generated text
    assert result.output == "".join(f"line {i}\n" for i in range(5)) + "\n"


def test_open_file_lazy_and_atomic(tmp_path):
    target = tmp_path / "out.txt"
    lazy = click.open_file(str(target), "w", lazy=True)
    assert not target.exists()
    with lazy as fh:
        for word in ["one", "two", "three"]:
            fh.write(word + "\n")
    assert target.read_text() == "one\ntwo\nthree\n"

    with click.open_file(str(target), "w", atomic=True) as fh:
        fh.write("replaced\n")
        assert target.read_text() == "one\ntwo\nthree\n"
    assert target.read_text() == "replaced\n"

    with click.open_file(str(target)) as fh:
        assert fh.read() == "replaced\n"
    with pytest.raises(FileNotFoundError):
        click.open_file(str(tmp_path / "missing" / "x.txt"), "r")


def test_format_filename_variants(tmp_path):
    assert click.format_filename("/a/b/c.txt") == "/a/b/c.txt"
    assert click.format_filename("/a/b/c.txt", shorten=True) == "c.txt"
    assert click.format_filename(b"/tmp/bytes.bin", shorten=True) == "bytes.bin"
    assert click.format_filename("bad\udcffname") == "bad\ufffdname"
    assert click.format_filename(tmp_path / "p.txt", shorten=True) == "p.txt"
