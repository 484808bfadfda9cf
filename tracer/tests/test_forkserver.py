"""Warm starts (forkserver.py): a run forked from a fork server behaves as the fresh process it stands in for.

Each test runs the same command through pytest_run.run_command twice, fresh (no `fresh` set given) and warm,
and compares what the run saw and what the driver got back; the warm one must really have been forked (the driver's
Outcome.warm: the run itself cannot tell, its sys.argv and sys.orig_argv are a fresh process's), so a fallback to a
fresh process cannot pass for a warm start.
"""

import json
import os
import signal
import sys
import textwrap
import threading
import time

import pytest

from tracegate_tracer.runner import forkserver, pytest_run
from tracegate_tracer.runner.sandbox import Sandbox

from conftest import TRACER_ROOT

SEEN = """
import atexit, gc, json, os, sys, tempfile, threading, time

def _kind(link):
    return "file" if link.startswith("/") else link.split(":")[0]


def test_seen():
    seen = {
        "cwd": os.getcwd(), "path0": sys.path[0], "argv0": os.path.basename(sys.argv[0]),
        "env": os.environ.get("TG_PROBE"), "trace": os.environ.get("TRACEGATE_TRACE"),
        "tmp": tempfile.gettempdir(), "hashseed": os.environ.get("PYTHONHASHSEED"),
        "hash": hash("tracegate"), "orig_argv": sys.orig_argv,
        "session": os.getsid(0) == os.getpid(), "main": sys.modules["__main__"].__name__,
        "modules": sorted(sys.modules),
        "gc": [gc.get_freeze_count(), gc.isenabled(), list(gc.get_threshold())],
        "fds": sorted(_kind(os.readlink(f"/proc/self/fd/{fd}")) for fd in os.listdir("/proc/self/fd")
                      if fd not in ("0", "1", "2") and os.path.exists(f"/proc/self/fd/{fd}")),
    }
    with open(os.environ["TG_OUT"], "w") as handle:
        json.dump(seen, handle)
    def late():
        time.sleep(0.2)
        with open(os.environ["TG_OUT"] + ".thread", "w") as handle:
            handle.write("joined")
    threading.Thread(target=late).start()  # not a daemon: the interpreter's exit waits for it
    atexit.register(lambda: open(os.environ["TG_OUT"] + ".atexit", "w").write("ran"))
"""


@pytest.fixture
def place(tmp_path):
    folder = tmp_path / "run"
    folder.mkdir()
    (folder / "test_seen.py").write_text(textwrap.dedent(SEEN))
    yield folder
    forkserver.SERVERS.close_all()


def _env(out):
    env = pytest_run.environment(TRACER_ROOT, "tracegate_measure_plugin")
    env.pop("PYTEST_PLUGINS", None)
    return dict(env, TG_PROBE="probe", TG_OUT=str(out), PYTEST_DISABLE_PLUGIN_AUTOLOAD="1")


def _run(place, name, fresh, command=None, timeout=60.0, env_extra=None):
    sandbox = Sandbox(str(place.parent / f"work-{name}"), 0, None)
    os.makedirs(sandbox.work_dir, exist_ok=True)
    sandbox.prepare()
    out = place.parent / f"{name}.json"
    command = command or [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_seen.py"]
    outcome = pytest_run.run_command(command, str(place), dict(_env(out), **(env_extra or {})), timeout, sandbox,
                                     fresh=fresh)
    return outcome, out


PYTEST = [sys.executable, "-m", "pytest", "-q"]


@pytest.mark.parametrize("blocking", [["-p", "no:cacheprovider"], ["-pno:cacheprovider", "-p", "no:doctest"]])
def test_a_warm_run_sees_what_a_fresh_one_sees(place, blocking):
    # `modules` too: the server preloads pytest's default plugins, less those the command blocks.
    command = [*PYTEST, *blocking, "test_seen.py"]
    cold, cold_out = _run(place, "cold", None, command)
    warm, warm_out = _run(place, "warm", set(), command)
    assert cold.exit_code == warm.exit_code == 0, (cold.stdout, warm.stdout, warm.stderr)
    seen = {name: json.loads(path.read_text()) for name, path in (("cold", cold_out), ("warm", warm_out))}
    assert cold.warm is False and warm.warm is True
    for key in ("cwd", "path0", "argv0", "orig_argv", "env", "trace", "hashseed", "hash", "session", "main", "fds",
                "modules", "gc"):
        assert seen["warm"][key] == seen["cold"][key], key
    assert seen["warm"]["tmp"].endswith("/tmp") and seen["warm"]["tmp"] != seen["cold"]["tmp"]  # each its TMPDIR
    assert "socket" not in seen["warm"]["fds"]  # nothing of the server's
    for path in (warm_out, cold_out):
        assert open(f"{path}.thread").read() == "joined"
        assert open(f"{path}.atexit").read() == "ran"
    assert warm.max_rss_bytes and warm.max_rss_bytes > 1 << 20  # the server's wait4 of the child
    assert "1 passed" in warm.stdout


def test_a_pytest_preload_leaves_out_the_plugins_a_run_blocks():
    preload = forkserver._pytest_preload("pytest", ["-q", "-p", "no:doctest", "-pno:cacheprovider", "-p", "xdist",
                                                    "--", "-p", "no:junitxml"])
    assert preload == "pytest,pytest:plugins,!cacheprovider,!doctest,!stepwise"
    assert forkserver._pytest_preload("pytest", ["test_x.py"]) == "pytest,pytest:plugins"


def test_exit_codes_and_errors_come_back_as_from_a_fresh_process(place):
    (place / "fail.py").write_text("import sys\nprint('out'); print('err', file=sys.stderr)\nraise KeyError('x')\n")
    (place / "code.py").write_text("import sys\nsys.exit(7)\n")
    for script, code in (("fail.py", 1), ("code.py", 7)):
        command = [sys.executable, "-P", "-s", str(place / script)]
        cold, _ = _run(place, "cold", None, command)
        warm, _ = _run(place, "warm", set(), command)
        assert cold.exit_code == warm.exit_code == code
        assert cold.stdout == warm.stdout
        if script == "fail.py":
            assert "KeyError: 'x'" in warm.stderr and "err" in warm.stderr and warm.stdout.strip() == "out"


def test_a_preloaded_package_named_fresh_runs_in_a_fresh_process(place):
    warm, out = _run(place, "warm", set())
    assert warm.exit_code == 0 and warm.warm is True
    # `pytest` (or anything the server imported) must be imported by the run itself: no warm start then.
    again, out = _run(place, "again", {"pytest"})
    assert again.exit_code == 0 and again.warm is False


def test_a_timeout_kills_a_warm_run_and_the_server_serves_the_next(place):
    (place / "test_slow.py").write_text("import time\n\ndef test_slow():\n    time.sleep(60)\n")
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_slow.py"]
    started = time.monotonic()
    slow, _ = _run(place, "slow", set(), command, timeout=3.0)
    assert slow.timed_out and time.monotonic() - started < 30
    after, out = _run(place, "after", set())
    assert after.exit_code == 0 and after.warm is True


def test_a_server_killed_under_a_run_costs_that_run_only(place):
    started = place / "started"
    (place / "test_wait.py").write_text(f"import pathlib\nimport time\n\ndef test_wait():\n"
                                        f"    pathlib.Path({str(started)!r}).touch()\n    time.sleep(5)\n")
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_wait.py"]
    _run(place, "first", set())  # the server is up
    (server,) = forkserver.SERVERS.running.values()

    def kill_server() -> None:
        # The server dies once the run is under way (its test has started), however long the start took.
        deadline = time.monotonic() + 30
        while not started.exists() and time.monotonic() < deadline:
            time.sleep(0.01)
        os.kill(server.process.pid, signal.SIGKILL)

    killer = threading.Thread(target=kill_server)
    killer.start()
    try:
        lost, _ = _run(place, "lost", set(), command, timeout=30.0)
    finally:
        killer.join()
    assert started.exists()
    assert lost.exit_code == -9  # counted as killed, never as passed
    after, out = _run(place, "after", set())  # a new server
    assert after.exit_code == 0 and after.warm is True


def test_warm_starts_can_be_turned_off(place, monkeypatch):
    monkeypatch.setenv("TRACEGATE_WARM", "0")
    run, out = _run(place, "off", set())
    assert run.exit_code == 0 and run.warm is False


def test_the_packages_a_spec_names_are_what_its_runs_import_fresh():
    specs = [{"target": {"file": "click/core.py", "function": "f"}},
             {"target": {"file": "src/pkg/mod.py", "function": "g"}, "mutant": {"file": "lib2/x.py"}},
             {"target": "not an object"}, "not a spec"]
    assert forkserver.fresh_for(specs) == {"click", "src", "pkg", "lib2"}


def test_a_warm_script_finds_the_modules_a_fresh_interpreter_has(place):
    (place / "mods.py").write_text("import sys\nprint(__file__, __name__, sys.path[0] == __file__.rsplit('/', 1)[0])\n"
                                   "print(' '.join(sorted(sys.modules)))\n")
    command = [sys.executable, "-P", "-s", str(place / "mods.py")]
    cold, _ = _run(place, "cold", None, command)
    warm, _ = _run(place, "warm", set(), command)
    assert forkserver.SERVERS.running, "the script ran warm"
    assert warm.stdout.splitlines()[0] == cold.stdout.splitlines()[0]  # __file__, __name__, sys.path[0]
    assert sorted(warm.stdout.split()) == sorted(cold.stdout.split())
    assert len(cold.stdout.split()) > 20


ROLLUP = """
import os


def test_rollup():
    with open("/proc/self/smaps_rollup") as handle:
        fields = dict(line.split(":", 1) for line in handle.read().splitlines()[1:])
    with open(os.environ["TG_OUT"], "w") as out:
        out.write(str(int(fields["Shared_Dirty"].split()[0])))
"""


def test_a_measured_warm_run_owns_its_pages_before_it_starts(place):
    # A forked child shares the server's dirty pages until it writes them, and would pay a copy-on-write fault
    # for each inside the measured test; populated (a measurement), it owns them before the run starts.
    (place / "test_rollup.py").write_text(textwrap.dedent(ROLLUP))
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_rollup.py"]
    shared = {}
    for populate in (False, True):
        sandbox = Sandbox(str(place.parent / f"work-rollup-{populate}"), 0, None)
        os.makedirs(sandbox.work_dir, exist_ok=True)
        sandbox.prepare()
        out = place.parent / f"rollup-{populate}.txt"
        outcome = pytest_run.run_command(command, str(place), _env(out), 60.0, sandbox, fresh=set(),
                                         populate=populate)
        assert outcome.exit_code == 0, outcome.stdout
        shared[populate] = int(out.read_text())  # KiB
    assert shared[False] > 2048 and shared[True] < 1024, shared


def test_a_measurement_starts_warm_only_where_the_kernel_can_populate_its_pages():
    assert forkserver.can_populate("6.18.44-fc-v1252")
    assert forkserver.can_populate("5.14.0-362.el9.x86_64")
    assert not forkserver.can_populate("5.10.0-28-amd64")
    assert not forkserver.can_populate("4.19.0")
    assert not forkserver.can_populate("unknown")
