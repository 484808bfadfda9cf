import click
from click.testing import CliRunner


@click.command()
@click.option("-v", "verbose", count=True)
@click.option("-n", "number", type=int)
@click.option("-x", "extra", is_flag=True)
def cli(verbose, number, extra):
    click.echo(f"v={verbose} n={number} x={extra}")


def test_combined_short_flags():
    result = CliRunner().invoke(cli, ["-vvn3", "-x"])
    assert result.exit_code == 0, result.output
    assert result.output == "v=2 n=3 x=True\n"
