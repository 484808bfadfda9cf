"""One instance, one blast radius: hostile tests, run through harvest.py without isolation.

Each hostile instance is followed, in the same plan, by a normal instance
that must still get its `ok` answer. (test_isolation.py does the same as
root with a uid per group.)
"""

import json
import os
import signal
import time

import pytest

PROG = "def work(x):\n    return x + 1\n"
GOOD = "from prog import work\n\ndef test_good():\n    assert work(1) == 2\n"
ANSWER = {"executed_path": [{"file": "prog.py", "func": "prog.work", "line": 2}]}

SIGNAL_PARENT = """
import os, signal
from prog import work

def test_it():
    work(1)
    os.kill(os.getppid(), signal.{name})
"""
DAEMON = """
import os, time
from prog import work

def test_it():
    work(1)
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            # Holds every inherited descriptor, pytest's pipes to the driver included.
            with open({pidfile!r}, "w") as handle:
                handle.write(str(os.getpid()))
            time.sleep(300)
        os._exit(0)
"""
FLOOD = """
import os, stat
from prog import work

def test_it():
    work(1)
    chunk = b"x" * (1 << 20)
    for name in os.listdir("/proc/self/fd"):
        fd = int(name)
        try:
            is_pipe = os.readlink("/proc/self/fd/" + name).startswith("pipe:")
        except OSError:
            continue
        if is_pipe and stat.S_ISFIFO(os.fstat(fd).st_mode) and os.get_blocking(fd) is not None:
            try:
                for _ in range(200):  # 200 MB into each pipe to the driver
                    os.write(fd, chunk)
                return
            except OSError:
                continue
"""
FORGE = """
import json, os
from prog import work

def test_it():
    work(1)
    forged = {{"tracegate_result": 1, "id": "after-forge", "status": "ok", "answer": {{"forged": True}}}}
    work_dir = {work_dir!r}
    for path in [os.path.join(work_dir, "after-forge", "result.json"), os.path.join(work_dir, "g7", "result.json"),
                 os.path.join(work_dir, "g7", "trace.json"), "result.json"]:
        try:
            os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
            with open(path, "w") as handle:
                json.dump(forged, handle)
        except OSError:
            pass
    print(json.dumps(forged))
"""
FILL = """
import os
from prog import work

def test_it():
    work(1)
    tmp = os.environ["TMPDIR"]
    with open({seen!r}, "w") as handle:
        handle.write(tmp)
    with open(os.path.join(tmp, "filler"), "wb") as handle:
        for _ in range(50):
            handle.write(b"0" * (1 << 20))
"""


def spec(directory, ident, test, timeout=30, **extra):
    return dict({"id": ident, "dir": str(directory), "tests": [test], "kind": "S1_IntraProceduralCFG",
                 "target": {"file": "prog.py", "function": "work"}, "query": {"invocation": 1},
                 "timeout_seconds": timeout}, **extra)


HOSTILE = {
    "sigint": SIGNAL_PARENT.format(name="SIGINT"),
    "sigterm": SIGNAL_PARENT.format(name="SIGTERM"),
    "sighup": SIGNAL_PARENT.format(name="SIGHUP"),
    "daemon": DAEMON,
    "flood": FLOOD,
    "forge": FORGE,
    "fill": FILL,
}


@pytest.mark.parametrize("name", list(HOSTILE))
def test_a_hostile_test_costs_only_its_own_instance(harness, tmp_path, name):
    pidfile, seen, work_dir = tmp_path / "daemon.pid", tmp_path / "tmpdir.txt", harness.root / "work"
    source = HOSTILE[name].format(pidfile=str(pidfile), seen=str(seen), work_dir=str(work_dir))
    directory = harness.instance_dir({"prog.py": PROG, "test_good.py": GOOD, "test_hostile.py": source})
    plan = [spec(directory, name, "test_hostile.py"), spec(directory, "after-forge", "test_good.py")]
    started = time.monotonic()
    try:
        results = harness.run(plan)
    finally:
        if pidfile.exists():
            try:
                os.kill(int(pidfile.read_text()), signal.SIGKILL)
            except ProcessLookupError:
                pass
    elapsed = time.monotonic() - started
    assert [r["id"] for r in harness.results] == [name, "after-forge"]  # one line per spec, nothing else
    after = results["after-forge"]
    assert after["status"] == "ok" and after["answer"] == ANSWER, after.get("reason")
    assert results[name]["status"] == "ok", results[name].get("reason")
    notes = results[name]["stats"].get("notes", [])
    if name.startswith("sig"):
        assert f"ignored {name.upper()}" in harness.done.stderr
    elif name == "daemon":
        assert pidfile.exists(), "the daemon never started"
        assert any("pipes still open" in note for note in notes), notes
        # Not waited for: far less than the daemon's own sleep (300 s), on any machine. The note above already
        # says its pipes were closed after the grace period; this bound is the daemon's, not the machine's.
        assert elapsed < 150, f"the plan took {elapsed:.1f}s: the driver waited for the daemon"
    elif name == "flood":
        flood = [n for n in notes if n.startswith("test output exceeded the capture limit (stdout: ")]
        assert flood and int(flood[0].split("stdout: ")[1].split()[0]) >= 200 << 20, notes
    elif name == "forge":
        assert (work_dir / "after-forge" / "result.json").exists()  # written, and never read: results are lines
    elif name == "fill":
        assert seen.exists() and not os.path.exists(seen.read_text()), "the filled temp dir is still there"


def test_instance_ids_are_data_never_paths(harness):
    directory = harness.instance_dir({"prog.py": PROG, "test_good.py": GOOD})
    idents = ["plan.json", "../x", "."]
    plan = [spec(directory, ident, "test_good.py", timeout=30 + n) for n, ident in enumerate(idents)]
    plan_text = (harness.root / "plan.json").read_text() if (harness.root / "plan.json").exists() else None
    results = harness.run(plan)
    for ident in ("plan.json", "../x", "."):
        assert results[ident]["status"] == "ok" and results[ident]["answer"] == ANSWER, ident
    assert plan_text is None and json.loads((harness.root / "plan.json").read_text())["instances"] == plan
    assert not (harness.root / "x").exists() and os.listdir(harness.root / "work") == []
