"""Workloads of click at three sizes (about 30x apart), for the measured kinds (W2 peak memory, W3 wall
time): each test keeps what it built until it ends, so both its time and its peak grow with the size."""

import click
from click.testing import CliRunner


@click.command()
@click.argument("count", type=int)
def lines(count):
    for i in range(count):
        click.echo(f"line {i}")


@click.command()
@click.argument("names", nargs=-1)
@click.option("--upper", is_flag=True)
def names(names, upper):
    click.echo(str(len([n.upper() if upper else n for n in names])))


def _echo(n):
    result = CliRunner().invoke(lines, [str(n)])
    assert result.exit_code == 0 and result.output.count("\n") == n


def _names(n):
    result = CliRunner().invoke(names, ["--upper", *(f"n{i}" for i in range(n))])
    assert result.exit_code == 0 and result.output.strip() == str(n)


def test_echo_small():
    _echo(30)


def test_echo_medium():
    _echo(1_000)


def test_echo_large():
    _echo(30_000)


def test_names_small():
    _names(30)


def test_names_medium():
    _names(1_000)


def test_names_large():
    _names(30_000)
