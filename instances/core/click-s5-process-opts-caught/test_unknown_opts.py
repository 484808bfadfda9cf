import click
from click.testing import CliRunner


@click.command()
@click.option("-v", "verbose", is_flag=True)
@click.option("-q", "quiet", is_flag=True)
@click.option("--level", type=int, default=0)
def cli(verbose, quiet, level):
    click.echo(f"{verbose} {quiet} {level}")


def test_grouped_flags():
    result = CliRunner().invoke(cli, ["-vq", "--level=3"])
    assert result.output == "True True 3\n"


def test_misspelled_long_option():
    result = CliRunner().invoke(cli, ["--levle", "3"])
    assert result.exit_code == 2
    assert "No such option '--levle'" in result.output
