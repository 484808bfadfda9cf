import click
from click.testing import CliRunner


@click.command()
@click.option("--count", type=int, default=1)
@click.option("--ratio", type=float, default=0.5)
def cli(count, ratio):
    click.echo(count * ratio)


def test_bad_ratio():
    result = CliRunner().invoke(cli, ["--count", "4", "--ratio", "half"])
    assert result.exit_code == 2
    assert "'half' is not a valid float." in result.output
