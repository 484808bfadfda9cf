"""Isolation (the container's mode): as root, each group runs as its own uid and is scrubbed after.

Needs root (uids are switched with setuid/setgid); when not root, conftest
deselects these tests and prints why. The test uid must be able to run the interpreter and import pytest: when
this interpreter lives where other uids cannot reach (e.g. under a 0700
/root), pytest and its dependencies are copied to a world-readable dir and a
system python of the same version runs the plan.
"""

import importlib.metadata
import json
import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
import time

import pytest

import hostile_parsers
from conftest import HARVEST, TRACER_ROOT, parse_results

UID_BASE = 47000
# Not root: conftest deselects these and says why (a skip would read as a gap in the container suite).
pytestmark = pytest.mark.needs_root
VERSION = "{}.{}".format(*sys.version_info[:2])


def _runs_as(uid, python, env):
    try:
        done = subprocess.run([python, "-c", "import pytest"], user=uid, group=uid, extra_groups=[], env=env,
                              cwd="/", capture_output=True, timeout=60)
    except OSError:  # e.g. the interpreter is under a directory that uid cannot enter
        return False
    return done.returncode == 0


def _copy_pytest(dest):
    """pytest and its dependencies' files, copied into `dest` (world-readable)."""
    for name in ("pytest", "pluggy", "iniconfig", "packaging", "pygments"):
        try:
            dist = importlib.metadata.distribution(name)
        except importlib.metadata.PackageNotFoundError:
            continue
        for file in dist.files or ():
            source = dist.locate_file(file)
            target = os.path.join(dest, str(file))
            if os.path.isfile(source) and ".." not in str(file):
                os.makedirs(os.path.dirname(target), exist_ok=True)
                shutil.copyfile(source, target)


@pytest.fixture(scope="module")
def world():
    """(root dir every uid can read, python, env, harvest.py path) for isolated plans."""
    root = tempfile.mkdtemp(prefix="tracegate-isolation-")
    os.chmod(root, 0o755)
    env = dict(os.environ)
    python = sys.executable
    if not _runs_as(UID_BASE, python, env):
        site = os.path.join(root, "site")
        _copy_pytest(site)
        for dirpath, _dirs, _files in os.walk(root):
            os.chmod(dirpath, 0o755)
        env["PYTHONPATH"] = site
        candidates = [f"/usr/bin/python{VERSION}", f"/usr/local/bin/python{VERSION}"]
        python = next((c for c in candidates if os.access(c, os.X_OK) and _runs_as(UID_BASE, c, env)), None)
        if python is None:
            shutil.rmtree(root, ignore_errors=True)
            pytest.skip(f"no python {VERSION} that other uids can run with pytest (this one: {sys.executable})")
        print(f"isolation tests: {sys.executable} is not reachable by uid {UID_BASE}; using {python} "
              f"with pytest copied to {site}")
    harvest = HARVEST
    if not _reaches(UID_BASE, python, env, TRACER_ROOT):
        # The checkout sits under a directory other uids cannot enter (mktemp -d is 0700):
        # the tracer goes where they can, as the container's read-only mount would have it.
        tracer = os.path.join(root, "tracer")
        shutil.copytree(TRACER_ROOT, tracer, ignore=shutil.ignore_patterns("tests", "__pycache__"))
        for dirpath, _dirs, files_ in os.walk(tracer):
            os.chmod(dirpath, 0o755)
            for name_ in files_:
                os.chmod(os.path.join(dirpath, name_), 0o644)
        harvest = os.path.join(tracer, "harvest.py")
        print(f"isolation tests: uid {UID_BASE} cannot reach {TRACER_ROOT}; using a copy in {tracer}")
    yield root, python, env, harvest
    shutil.rmtree(root, ignore_errors=True)


def _reaches(uid, python, env, path):
    """True when `uid` can read `path` (every directory above it searchable)."""
    done = subprocess.run([python, "-c", "import os, sys; os.listdir(sys.argv[1])", path], user=uid, group=uid,
                          extra_groups=[], env=env, capture_output=True, timeout=60)
    return done.returncode == 0


def _instance(root, name, files):
    directory = os.path.join(root, name)
    for rel, source in files.items():
        path = os.path.join(directory, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as handle:
            handle.write(textwrap.dedent(source).lstrip("\n"))
    for dirpath, _dirs, files_ in os.walk(directory):
        os.chmod(dirpath, 0o755)
        for name_ in files_:
            os.chmod(os.path.join(dirpath, name_), 0o644)
    return directory


def _run(world, instances, name):
    root, python, env, harvest = world
    plan = os.path.join(root, name + ".json")
    with open(plan, "w") as handle:
        json.dump({"work_dir": os.path.join(root, name + "-work"), "isolation": {"uid_base": UID_BASE},
                   "instances": instances}, handle)
    done = subprocess.run([python, harvest, plan], capture_output=True, text=True, timeout=300, env=env)
    assert done.returncode == 0, done.stderr
    return {r["id"]: r for r in parse_results(done.stdout)}, done


PROG = """
def who(uid, gid, groups, home, tmp, refused, warm=None, dumpable=None):
    seen = 1
    return seen
"""
WHO = """
import os, signal, sys
from prog import who

def test_who():
    try:
        os.kill(os.getppid(), signal.SIGINT)
        refused = "sent"
    except PermissionError:
        refused = "refused"
    # Forked by a fork server: its parent's command line says so (the one tell left: docs/reliability.md).
    with open(f"/proc/{os.getppid()}/cmdline", "rb") as handle:
        warm = b"tracegate_forkserver" in handle.read()
    try:
        with open("/proc/self/clear_refs", "w") as handle:  # its own /proc, as after an exec
            handle.write("5")
        dumpable = True
    except OSError:
        dumpable = False
    who(os.getuid(), os.getgid(), os.getgroups(), os.environ["HOME"], os.environ["TMPDIR"], refused, warm, dumpable)
"""
LITTER = """
import os, time
from prog import who

def test_litter():
    with open("/tmp/tracegate-litter-%d" % os.getuid(), "w") as handle:
        handle.write("left behind")
    with open(os.path.join(os.environ["TMPDIR"], "big"), "wb") as handle:
        handle.write(b"0" * (50 << 20))
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            time.sleep(300)
        os._exit(0)
    who(os.getuid(), 0, [], "", "", "")
"""


def _alive(uid):
    """Pids of live (not zombie) processes whose real uid is `uid`, from /proc (no ps in slim images)."""
    alive = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/status") as handle:
                status = dict(line.split(":", 1) for line in handle if ":" in line)
        except OSError:
            continue
        if status["Uid"].split()[0] == str(uid) and not status["State"].strip().startswith("Z"):
            alive.append(pid)
    return alive


def _spec(directory, ident, test, variables, timeout=60):
    return {"id": ident, "dir": directory, "tests": [test], "kind": "S3_ProgramState",
            "target": {"file": "prog.py", "function": "who"},
            "query": {"line": 2, "hit": 1, "variables": variables}, "timeout_seconds": timeout}


def _state(result):
    assert result["status"] == "ok", result.get("reason")
    return {row["variable"]: row["value"] for row in result["answer"]["observed_state"]}


def test_each_group_runs_as_its_own_uid_and_cannot_signal_the_driver(world):
    directory = _instance(world[0], "who", {"prog.py": PROG, "test_who.py": WHO})
    variables = ["uid", "gid", "groups", "home", "tmp", "refused", "warm", "dumpable"]
    results, done = _run(world, [_spec(directory, "first", "test_who.py", variables),
                                 _spec(directory, "second", "test_who.py", variables, timeout=61)], "who")
    first, second = _state(results["first"]), _state(results["second"])
    assert (first["uid"], first["gid"], first["groups"]) == (str(UID_BASE), str(UID_BASE), "[]")
    assert (second["uid"], second["gid"]) == (str(UID_BASE + 1), str(UID_BASE + 1))
    assert first["refused"] == "'refused'" and "ignored SIGINT" not in done.stderr
    assert (first["warm"], first["dumpable"]) == ("True", "True")  # a warm start, a fresh process all the same
    assert first["home"] == first["tmp"] and first["tmp"].endswith("/g0/tmp'")
    assert results["first"]["stats"]["uid"] == UID_BASE and results["second"]["stats"]["uid"] == UID_BASE + 1


def test_what_a_group_leaves_is_killed_and_deleted(world):
    directory = _instance(world[0], "litter", {"prog.py": PROG, "test_litter.py": LITTER, "test_who.py": WHO})
    started = time.monotonic()
    results, _done = _run(world, [_spec(directory, "litter", "test_litter.py", ["uid"]),
                                  _spec(directory, "next", "test_who.py", ["uid", "refused"], timeout=61)], "litter")
    elapsed = time.monotonic() - started
    assert _state(results["litter"])["uid"] == str(UID_BASE)
    assert any("killed" in note for note in results["litter"]["stats"].get("notes", []))
    assert _state(results["next"]) == {"refused": "'refused'", "uid": str(UID_BASE + 1)}
    assert not os.path.exists(f"/tmp/tracegate-litter-{UID_BASE}")
    alive = _alive(UID_BASE)
    assert not alive, f"processes of uid {UID_BASE} still running: {alive}"
    assert os.listdir(os.path.join(world[0], "litter-work")) == []
    assert elapsed < 30


# -- instance parsers: a process of the group's uid, after the tests' are gone --

WHO_PARSER = """
import builtins, os, signal, sys, time

DAEMON = {daemon}


def _ppid(pid):
    with open("/proc/%d/status" % pid) as handle:
        return int(next(line.split()[1] for line in handle if line.startswith("PPid:")))


def _uid_processes(uid):
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open("/proc/%s/status" % pid) as handle:
                status = dict(line.split(":", 1) for line in handle if ":" in line)
        except OSError:
            continue
        if status["Uid"].split()[0] == str(uid) and not status["State"].strip().startswith("Z"):
            found.append(int(pid))
    return found


def answer(trace, query):
    driver = _ppid(os.getppid())  # the parser's parent is its supervisor; the driver is one up
    try:
        os.kill(driver, signal.SIGKILL)
        kill = "sent"
    except PermissionError:
        kill = "refused"
    forged = 0
    try:
        fds = os.listdir("/proc/%d/fd" % driver)  # the result stream is among the driver's descriptors
    except PermissionError:
        fds = []
    for fd in fds:
        try:
            with open("/proc/%d/fd/%s" % (driver, fd), "w") as handle:
                handle.write('{{"tracegate_result": 1, "id": "forged"}}\\n')
            forged += 1
        except OSError:
            pass
    others = [pid for pid in _uid_processes(os.getuid()) if pid not in (os.getpid(), os.getppid())]
    report = {{"uid": os.getuid(), "gid": os.getgid(), "groups": os.getgroups(), "home": os.environ["HOME"],
              "tmp": os.environ["TMPDIR"], "kill": kill, "forged": forged, "others": len(others),
              "left": os.listdir(os.environ["TMPDIR"]), "planted": hasattr(builtins, "TRACEGATE_PLANTED")}}
    if DAEMON:  # and litter for the next parser: a file in the temp dir, a usercustomize in the user site of HOME
        site = os.path.join(os.environ["HOME"], ".local", "lib", "python%d.%d" % sys.version_info[:2],
                            "site-packages")
        os.makedirs(site)
        with open(os.path.join(site, "usercustomize.py"), "w") as handle:
            handle.write("import builtins\\nbuiltins.TRACEGATE_PLANTED = True\\n")
        with open(os.path.join(os.environ["TMPDIR"], "left-behind"), "w") as handle:
            handle.write("for the next parser")
        if os.fork() == 0:
            os.setsid()
            if os.fork() == 0:
                time.sleep(300)
            os._exit(0)
    return report
"""


def _parser_spec(directory, ident, parser, timeout=hostile_parsers.PARSER_TIMEOUT):
    return {"id": ident, "dir": directory, "tests": ["test_good.py"], "kind": "S1_IntraProceduralCFG",
            "target": {"file": "prog.py", "function": "work"}, "query": {"invocation": 1},
            "timeout_seconds": timeout, "parser": parser}


def test_instance_parsers_run_as_the_groups_uid_and_cannot_reach_the_driver(world):
    directory = _instance(world[0], "parsers", {
        "prog.py": hostile_parsers.PROG, "test_good.py": hostile_parsers.GOOD,
        "daemon.py": WHO_PARSER.format(daemon=True), "who.py": WHO_PARSER.format(daemon=False)})
    results, done = _run(world, [_parser_spec(directory, "daemon", "daemon.py"),
                                 _parser_spec(directory, "who", "who.py"),
                                 _parser_spec(directory, "next", "who.py", timeout=30)], "parsers")
    assert [r["id"] for r in parse_results(done.stdout)] == ["daemon", "who", "next"]
    for ident, uid in (("daemon", UID_BASE), ("who", UID_BASE), ("next", UID_BASE + 1)):
        result = results[ident]
        assert result["status"] == "ok", (ident, result.get("reason"))
        answer = result["answer"]
        assert (answer["uid"], answer["gid"], answer["groups"]) == (uid, uid, []), ident
        assert answer["home"] == answer["tmp"] and answer["tmp"].endswith(f"/g{uid - UID_BASE}/tmp"), ident
        assert (answer["kill"], answer["forged"], answer["others"]) == ("refused", 0, 0), ident
        assert (answer["left"], answer["planted"]) == ([], False), ident  # a fresh HOME, no user site
        assert result["stats"]["uid"] == uid
    # The daemon held the parser's pipes: found by uid after the parser, before the next parser of the group;
    # and what it left in its HOME (a file, a usercustomize) is gone for the next one.
    assert "killed 1 process(es) the instance parser left running" in results["daemon"]["stats"]["notes"]
    assert not _alive(UID_BASE), f"processes of uid {UID_BASE} still running"


def test_each_hostile_parser_costs_only_its_own_instance_when_isolated(world):
    files = {"prog.py": hostile_parsers.PROG, "test_good.py": hostile_parsers.GOOD,
             "good.py": hostile_parsers.GOOD_PARSER}
    plan = []
    for name, (source, _status, _reason) in hostile_parsers.HOSTILE.items():
        files[f"{name}.py"] = source
        plan += [_parser_spec("", name, f"{name}.py"), _parser_spec("", f"after-{name}", "good.py")]
    directory = _instance(world[0], "hostile-parsers", files)
    plan = [dict(spec, dir=directory) for spec in plan] + [_parser_spec(directory, "next", "good.py", timeout=30)]
    results, done = _run(world, plan, "hostile-parsers")  # one recording group for all but `next`
    assert [r["id"] for r in parse_results(done.stdout)] == [spec["id"] for spec in plan]
    for name, (_source, status, reason) in hostile_parsers.HOSTILE.items():
        hostile, after = results[name], results[f"after-{name}"]
        assert hostile["status"] == status and hostile.get("reason", "").startswith(reason or ""), hostile
        assert after["status"] == "ok" and after["answer"] == {"lines": [2]}, (name, after.get("reason"))
        assert hostile["stats"]["uid"] == after["stats"]["uid"] == UID_BASE
    assert results["next"]["answer"] == {"lines": [2]} and results["next"]["stats"]["uid"] == UID_BASE + 1
    assert not _alive(UID_BASE)
