"""Groups, subcommand resolution, chaining, contexts, defaults and envvars (click.core)."""

import click
import pytest
from click.testing import CliRunner


def make_cli():
    @click.group()
    @click.option("--debug/--no-debug", default=False)
    @click.pass_context
    def cli(ctx, debug):
        ctx.ensure_object(dict)
        ctx.obj["debug"] = debug
        ctx.obj["log"] = []

    @cli.group()
    @click.pass_obj
    def db(obj):
        obj["log"].append("db")

    @db.command("migrate")
    @click.option("--steps", type=int, default=1)
    @click.pass_obj
    def migrate(obj, steps):
        for i in range(steps):
            obj["log"].append(f"step{i}")
        click.echo(f"debug={obj['debug']} log={','.join(obj['log'])}")

    @cli.command("status")
    def status():
        click.echo("ok")

    @cli.command("start")
    def start():
        click.echo("starting")

    return cli


def test_nested_group_dispatch_and_obj_passing():
    cli = make_cli()
    result = CliRunner().invoke(cli, ["--debug", "db", "migrate", "--steps", "3"])
    assert result.exit_code == 0, result.output
    assert result.output == "debug=True log=db,step0,step1,step2\n"
    result = CliRunner().invoke(cli, ["db", "migrate"])
    assert result.output == "debug=False log=db,step0\n"


def test_unknown_command_error_and_suggestion():
    cli = make_cli()
    result = CliRunner().invoke(cli, ["stat"])
    assert result.exit_code == 2
    assert "No such command 'stat'." in result.output
    result = CliRunner().invoke(cli, ["db", "migrat"])
    assert result.exit_code == 2
    assert "No such command 'migrat'." in result.output


def test_group_without_subcommand_shows_usage():
    cli = make_cli()
    result = CliRunner().invoke(cli, [])
    assert result.exit_code == 2
    assert "Usage:" in result.output and "Commands:" in result.output

    @click.group(invoke_without_command=True)
    @click.pass_context
    def top(ctx):
        click.echo(f"sub={ctx.invoked_subcommand}")

    @top.command()
    def leaf():
        click.echo("leaf")

    assert CliRunner().invoke(top, []).output == "sub=None\n"
    assert CliRunner().invoke(top, ["leaf"]).output == "sub=leaf\nleaf\n"


def test_chained_group_with_result_callback():
    @click.group(chain=True)
    def pipeline():
        pass

    @pipeline.result_callback()
    def combine(results):
        total = 0
        for value in results:
            total += value
        click.echo(f"total={total} n={len(results)}")

    @pipeline.command()
    @click.argument("x", type=int)
    def add(x):
        return x

    @pipeline.command()
    @click.argument("x", type=int)
    def sub(x):
        return -x

    result = CliRunner().invoke(pipeline, ["add", "5", "sub", "2", "add", "10", "add", "1"])
    assert result.exit_code == 0, result.output
    assert result.output == "total=14 n=4\n"
    result = CliRunner().invoke(pipeline, ["sub", "3"])
    assert result.output == "total=-3 n=1\n"


def test_token_normalize_func_for_commands_and_options():
    @click.group(context_settings={"token_normalize_func": lambda s: s.lower()})
    def cli():
        pass

    @cli.command()
    @click.option("--Name", "name")
    def hello(name):
        click.echo(f"hello {name}")

    result = CliRunner().invoke(cli, ["HELLO", "--NAME", "Ann"])
    assert result.exit_code == 0, result.output
    assert result.output == "hello Ann\n"


def test_default_map_and_envvar_sources():
    @click.command()
    @click.option("--port", type=int, default=8000, show_envvar=True)
    @click.option("--host", envvar="APP_HOST_FOR_TEST", default="localhost")
    @click.pass_context
    def serve(ctx, port, host):
        src = ctx.get_parameter_source("port").name
        hsrc = ctx.get_parameter_source("host").name
        click.echo(f"{host}:{port} {src} {hsrc}")

    runner = CliRunner()
    assert runner.invoke(serve, []).output == "localhost:8000 DEFAULT DEFAULT\n"
    assert runner.invoke(serve, ["--port", "1"]).output == "localhost:1 COMMANDLINE DEFAULT\n"
    r = runner.invoke(serve, [], default_map={"port": 9001})
    assert r.output == "localhost:9001 DEFAULT_MAP DEFAULT\n"
    r = runner.invoke(serve, [], env={"APP_HOST_FOR_TEST": "example.org"})
    assert r.output == "example.org:8000 DEFAULT ENVIRONMENT\n"
    r = runner.invoke(serve, [], auto_envvar_prefix="SRV", env={"SRV_PORT": "7070"})
    assert r.output == "localhost:7070 ENVIRONMENT DEFAULT\n"


def test_multiple_envvar_value_splitting():
    @click.command()
    @click.option("--path", "paths", multiple=True, envvar="TEST_PATHS_SPLIT")
    @click.option("--pair", nargs=2, type=int, envvar="TEST_PAIR_SPLIT")
    def cmd(paths, pair):
        click.echo(f"{list(paths)} {pair}")

    r = CliRunner().invoke(cmd, [], env={"TEST_PATHS_SPLIT": "a b  c", "TEST_PAIR_SPLIT": "4 5"})
    assert r.exit_code == 0, r.output
    assert r.output == "['a', 'b', 'c'] (4, 5)\n"


def test_callbacks_and_eager_options():
    calls = []

    def record(ctx, param, value):
        calls.append((param.name, value))
        return value

    def print_version(ctx, param, value):
        if not value or ctx.resilient_parsing:
            return
        click.echo("version 1.2.3")
        ctx.exit()

    @click.command()
    @click.option("--a", callback=record, default="x")
    @click.option("--version", is_flag=True, is_eager=True, expose_value=False, callback=print_version)
    @click.option("--b", callback=record, type=int, default=0)
    def cmd(a, b):
        click.echo(f"{a}{b}")

    r = CliRunner().invoke(cmd, ["--b", "4", "--a", "q"])
    assert r.output == "q4\n"
    assert sorted(calls) == [("a", "q"), ("b", 4)]
    calls.clear()
    r = CliRunner().invoke(cmd, ["--a", "z", "--version"])
    assert r.exit_code == 0
    assert r.output == "version 1.2.3\n"
    assert calls == []


def test_bad_parameter_from_callback_and_usage_error_escape():
    def must_be_even(ctx, param, value):
        if value % 2:
            raise click.BadParameter("must be even")
        return value

    @click.command()
    @click.option("--n", type=int, callback=must_be_even, default=0)
    def cmd(n):
        click.echo(n)

    r = CliRunner().invoke(cmd, ["--n", "3"])
    assert r.exit_code == 2
    assert "Invalid value for '--n': must be even" in r.output

    with pytest.raises(click.BadParameter):
        cmd.main(["--n", "5"], standalone_mode=False)
    assert cmd.main(["--n", "6"], standalone_mode=False) is None


def test_context_invoke_and_forward():
    @click.group()
    def cli():
        pass

    @cli.command()
    @click.option("--count", type=int, default=1)
    def base(count):
        click.echo("base" * count)

    @cli.command()
    @click.option("--count", type=int, default=2)
    @click.pass_context
    def wrapper(ctx, count):
        ctx.forward(base)
        ctx.invoke(base, count=3)

    r = CliRunner().invoke(cli, ["wrapper", "--count", "2"])
    assert r.exit_code == 0, r.output
    assert r.output == "basebase\nbasebasebase\n"


def test_command_collection_and_list_commands():
    @click.group()
    def g1():
        pass

    @g1.command()
    def zeta():
        click.echo("z")

    @g1.command()
    def alpha():
        click.echo("a")

    @click.group()
    def g2():
        pass

    @g2.command()
    def mid():
        click.echo("m")

    coll = click.CommandCollection(sources=[g1, g2])
    ctx = click.Context(coll)
    assert coll.list_commands(ctx) == ["alpha", "mid", "zeta"]
    assert CliRunner().invoke(coll, ["mid"]).output == "m\n"
    assert CliRunner().invoke(coll, ["zeta"]).output == "z\n"
    assert coll.get_command(ctx, "nope") is None
