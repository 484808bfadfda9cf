import click
from click.testing import CliRunner


@click.command()
@click.option("-v", "--verbose", count=True)
@click.option("--name")
@click.argument("paths", nargs=-1)
def cli(verbose, name, paths):
    click.echo(f"{verbose}|{name}|{','.join(paths)}")


def test_mixed_arguments():
    result = CliRunner().invoke(cli, ["-v", "--name=bob", "a.txt", "--", "-x"])
    assert result.exit_code == 0, result.output
    assert result.output == "1|bob|a.txt,-x\n"
