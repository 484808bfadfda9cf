"""Application discovery and CLI commands (flask.cli)."""

import sys
import types

import click
import pytest
from click.testing import CliRunner
from flask import Flask, current_app
from flask.cli import (
    AppGroup,
    FlaskGroup,
    NoAppException,
    ScriptInfo,
    find_app_by_string,
    find_best_app,
    locate_app,
    prepare_import,
    routes_command,
    with_appcontext,
)

CLEAN_ENV = {"FLASK_APP": None, "FLASK_DEBUG": None, "FLASK_RUN_FROM_CLI": None}


def module(name, **attrs):
    mod = types.ModuleType(name)
    mod.__dict__.update(attrs)
    return mod


def test_find_best_app_by_name_and_single_instance():
    app = Flask("one")
    assert find_best_app(module("m1", app=app)) is app
    assert find_best_app(module("m2", application=app)) is app
    assert find_best_app(module("m3", whatever=app, other=1)) is app
    with pytest.raises(NoAppException) as excinfo:
        find_best_app(module("m4", a=Flask("a"), b=Flask("b")))
    assert "Detected multiple Flask applications in module 'm4'" in str(excinfo.value)


def test_find_best_app_factories():
    made = Flask("made")

    def create_app():
        return made

    def make_app(config):
        return made

    def create_app_broken():
        raise TypeError("inside factory")

    assert find_best_app(module("f1", create_app=create_app)) is made
    with pytest.raises(NoAppException) as excinfo:
        find_best_app(module("f2", make_app=make_app))
    assert "could not call it without arguments" in str(excinfo.value)
    with pytest.raises(TypeError) as excinfo:
        find_best_app(module("f3", create_app=create_app_broken))
    assert str(excinfo.value) == "inside factory"
    with pytest.raises(NoAppException) as excinfo:
        find_best_app(module("f4", nothing=None))
    assert "Failed to find Flask application or factory" in str(excinfo.value)


def test_find_app_by_string_parses_names_and_calls():
    apps = {}

    def factory(name="dflt", *, debug=False):
        apps[name] = Flask(name)
        apps[name].debug = debug
        return apps[name]

    mod = module("strmod", factory=factory, app=Flask("plain"), value=42)
    assert find_app_by_string(mod, "app").name == "plain"
    assert find_app_by_string(mod, "factory()").name == "dflt"
    got = find_app_by_string(mod, "factory('x', debug=True)")
    assert got.name == "x" and got.debug is True
    bad_inputs = {
        "factory(1, 2)": "could not be called with the specified arguments",
        "missing": "Failed to find attribute 'missing'",
        "value": "A valid Flask application was not obtained",
        "factory(os.sep)": "Failed to parse arguments as literal values",
        "a.b()": "Function reference must be a simple name",
        "1 +": "Failed to parse",
        "[app]": "Failed to parse",
    }
    for expr, fragment in bad_inputs.items():
        with pytest.raises(NoAppException) as excinfo:
            find_app_by_string(mod, expr)
        assert fragment in str(excinfo.value), expr


def test_prepare_import_and_locate_app(tmp_path, monkeypatch):
    monkeypatch.setattr(sys, "path", list(sys.path))
    pkg = tmp_path / "benchpkg_cli"
    (pkg / "inner").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "inner" / "__init__.py").write_text("")
    (pkg / "inner" / "webapp.py").write_text(
        "from flask import Flask\napp = Flask('located')\ndef build(n):\n    return Flask(f'built{n}')\n"
    )
    (tmp_path / "standalone_cli_mod.py").write_text("X = 1\n")
    assert prepare_import(str(pkg / "inner" / "webapp.py")) == "benchpkg_cli.inner.webapp"
    assert sys.path[0] == str(tmp_path)
    assert prepare_import(str(pkg / "inner" / "__init__.py")) == "benchpkg_cli.inner"
    assert prepare_import(str(tmp_path / "standalone_cli_mod.py")) == "standalone_cli_mod"
    try:
        assert locate_app("benchpkg_cli.inner.webapp", None).name == "located"
        assert locate_app("benchpkg_cli.inner.webapp", "build(3)").name == "built3"
        assert locate_app("no_such_module_for_bench", None, raise_if_not_found=False) is None
        with pytest.raises(NoAppException) as excinfo:
            locate_app("no_such_module_for_bench", None)
        assert "Could not import 'no_such_module_for_bench'" in str(excinfo.value)
    finally:
        for name in list(sys.modules):
            if name.startswith("benchpkg_cli"):
                del sys.modules[name]


def test_script_info_load_app_caches_and_errors():
    calls = []

    def create():
        calls.append(1)
        return Flask("scripted")

    info = ScriptInfo(create_app=create, set_debug_flag=False)
    first = info.load_app()
    assert first.name == "scripted"
    assert info.load_app() is first
    assert calls == [1]
    with pytest.raises(NoAppException):
        ScriptInfo(app_import_path="no_such_module_for_bench_2", set_debug_flag=False).load_app()


def test_app_group_commands_run_inside_app_context():
    app = Flask("grp")
    app.config["GREETING"] = "hey"
    users = AppGroup("users", help="User commands.")

    @users.command("greet")
    @click.argument("names", nargs=-1)
    def greet(names):
        for n in names:
            click.echo(f"{current_app.config['GREETING']} {n}")

    @users.command("count", with_appcontext=False)
    def count():
        click.echo("no ctx needed")

    app.cli.add_command(users)
    runner = app.test_cli_runner()
    result = runner.invoke(args=["users", "greet", "a", "b", "c"])
    assert result.exit_code == 0, result.output
    assert result.output == "hey a\nhey b\nhey c\n"
    assert runner.invoke(args=["users", "count"]).output == "no ctx needed\n"


def test_flask_group_with_factory_and_custom_command():
    def create_app():
        app = Flask("factory_app")

        @app.cli.command("hello")
        @click.option("--times", type=int, default=1)
        def hello(times):
            click.echo(" ".join(["hi"] * times) + f" from {current_app.name}")

        return app

    cli = FlaskGroup(create_app=create_app, load_dotenv=False)
    runner = CliRunner()
    result = runner.invoke(cli, ["hello", "--times", "3"], env=CLEAN_ENV)
    assert result.exit_code == 0, result.output
    assert result.output == "hi hi hi from factory_app\n"
    help_result = runner.invoke(cli, ["--help"], env=CLEAN_ENV, terminal_width=100)
    assert help_result.exit_code == 0
    assert "hello" in help_result.output and "routes" in help_result.output
    bad = runner.invoke(cli, ["nonexistent-cmd"], env=CLEAN_ENV)
    assert bad.exit_code == 2
    assert "No such command 'nonexistent-cmd'" in bad.output


def test_routes_command_table_and_sorting():
    app = Flask("routes_app", static_folder=None)
    app.add_url_rule("/zeta", "zeta", lambda: "z", methods=["GET", "POST"])
    app.add_url_rule("/alpha/<int:n>", "alpha", lambda n: "a")
    app.add_url_rule("/m", "middle_endpoint", lambda: "m", methods=["DELETE"])
    runner = app.test_cli_runner()
    out = [line.rstrip() for line in runner.invoke(routes_command, []).output.splitlines()]
    assert out == [
        "Endpoint         Methods    Rule",
        "---------------  ---------  --------------",
        "alpha            GET        /alpha/<int:n>",
        "middle_endpoint  DELETE     /m",
        "zeta             GET, POST  /zeta",
    ]
    by_rule = runner.invoke(routes_command, ["--sort", "rule"]).output.splitlines()
    assert [line.split()[-1] for line in by_rule[2:]] == ["/alpha/<int:n>", "/m", "/zeta"]
    all_methods = runner.invoke(routes_command, ["--all-methods", "--sort", "methods"]).output
    assert "GET, HEAD, OPTIONS, POST" in all_methods
    empty = Flask("empty_app", static_folder=None)
    assert empty.test_cli_runner().invoke(routes_command, []).output == "No routes were registered.\n"


def test_with_appcontext_decorator_on_plain_click_command():
    app = Flask("decorated")

    @click.command()
    @with_appcontext
    def show():
        click.echo(current_app.name)

    runner = app.test_cli_runner()
    assert runner.invoke(show).output == "decorated\n"
    result = CliRunner().invoke(show, [], obj=ScriptInfo(create_app=lambda: Flask("other"), set_debug_flag=False))
    assert result.output == "other\n"
