import click
from click.testing import CliRunner


@click.command()
@click.option("--times", type=int, default=1)
@click.argument("name")
def greet(times, name):
    for _ in range(times):
        click.echo(f"hello {name}")


def test_greet_twice():
    result = CliRunner().invoke(greet, ["--times", "2", "ann"])
    assert result.output == "hello ann\nhello ann\n"
