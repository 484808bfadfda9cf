"""Shell completion resolution in click.shell_completion."""

import click
import pytest
from click.shell_completion import (
    BashComplete,
    CompletionItem,
    ShellComplete,
    ZshComplete,
    get_completion_class,
    split_arg_string,
)


def build_cli():
    @click.group()
    @click.option("--verbose", "-v", count=True)
    @click.option("--config", type=click.Path())
    def cli(verbose, config):
        pass

    @cli.command()
    @click.option("--format", "fmt", type=click.Choice(["json", "jsonl", "yaml", "toml"]))
    @click.option("--limit", type=int)
    @click.option("--hidden-opt", hidden=True)
    @click.argument("target", type=click.Choice(["prod", "preview", "dev"]))
    @click.argument("extras", nargs=-1, shell_complete=lambda ctx, param, inc: [
        CompletionItem(v, help="extra") for v in ["x1", "x2", "y1"] if v.startswith(inc)
    ])
    def deploy(fmt, limit, hidden_opt, target, extras):
        pass

    @cli.command()
    def destroy():
        pass

    @cli.command(hidden=True)
    def debugging():
        pass

    @cli.group()
    def db():
        pass

    @db.command()
    def dump():
        pass

    @db.command()
    def drop():
        pass

    return cli


def complete(args, incomplete, cli=None):
    comp = ShellComplete(cli or build_cli(), {}, "prog", "_PROG_COMPLETE")
    return [item.value for item in comp.get_completions(args, incomplete)]


def test_complete_subcommand_names():
    assert complete([], "d") == ["db", "deploy", "destroy"]
    assert complete([], "de") == ["deploy", "destroy"]
    assert complete(["db"], "d") == ["drop", "dump"]
    assert complete([], "z") == []


def test_complete_option_names_skips_hidden():
    assert complete(["deploy"], "--") == ["--format", "--limit", "--help"]
    assert complete([], "--") == ["--verbose", "--config", "--help"]
    assert complete(["-v", "-v", "deploy"], "--l") == ["--limit"]


def test_complete_choice_option_values():
    assert complete(["deploy", "--format"], "js") == ["json", "jsonl"]
    assert complete(["deploy", "--format"], "") == ["json", "jsonl", "yaml", "toml"]
    assert complete(["deploy"], "--format=y") == ["yaml"]


def test_complete_positional_arguments_in_order():
    assert complete(["deploy"], "p") == ["prod", "preview"]
    assert complete(["deploy", "--limit", "3"], "d") == ["dev"]
    assert complete(["deploy", "prod"], "x") == ["x1", "x2"]
    assert complete(["deploy", "prod", "x1", "x2"], "") == ["x1", "x2", "y1"]


def test_complete_after_double_dash_treats_value_as_argument():
    assert complete(["deploy", "prod", "--"], "-") == []
    assert complete(["deploy", "--"], "pr") == ["prod", "preview"]


def test_path_option_returns_file_marker():
    items = ShellComplete(build_cli(), {}, "prog", "_PROG_COMPLETE").get_completions(["--config"], "fo")
    assert [(i.value, i.type) for i in items] == [("fo", "file")]


def test_bash_and_zsh_formatting_and_source():
    cli = build_cli()
    bash = BashComplete(cli, {}, "my-prog", "_MY_PROG_COMPLETE")
    assert bash.func_name == "_my_prog_completion"
    items = bash.get_completions(["deploy", "prod"], "x")
    assert [bash.format_completion(i) for i in items] == ["plain,x1", "plain,x2"]
    assert "_my_prog_completion" in bash.source()
    zsh = ZshComplete(cli, {}, "my-prog", "_MY_PROG_COMPLETE")
    assert [zsh.format_completion(i) for i in items] == ["plain\nx1\nextra", "plain\nx2\nextra"]
    assert get_completion_class("bash") is BashComplete
    assert get_completion_class("tcsh") is None


def test_split_arg_string_handles_incomplete_quotes():
    assert split_arg_string("a b 'c d'") == ["a", "b", "c d"]
    assert split_arg_string("example 'my file") == ["example", "my file"]
    assert split_arg_string('x "y z') == ["x", "y z"]
    assert split_arg_string("one\\ two three") == ["one two", "three"]
    assert split_arg_string("") == []


def test_completion_parses_resiliently_without_invoking():
    calls = []

    def cb(ctx, param, value):
        calls.append((value, ctx.resilient_parsing))
        return value

    @click.command()
    @click.option("--name", prompt=True, callback=cb)
    @click.argument("kind", type=click.Choice(["aa", "ab", "b"]))
    def cmd(name, kind):
        calls.append("ran")

    assert complete(["--name", "x"], "a", cli=cmd) == ["aa", "ab"]
    # the callback sees resilient parsing; the command body and prompt never run
    assert calls == [("x", True)]
    with pytest.raises(NotImplementedError):
        ShellComplete(cmd, {}, "cmd", "_X").get_completion_args()
