"""Runs small instances end-to-end through harvest.py, as the container does."""

import json
import os
import subprocess
import sys
import textwrap
from contextlib import contextmanager

import pytest

TRACER_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HARVEST = os.path.join(TRACER_ROOT, "harvest.py")
if TRACER_ROOT not in sys.path:
    sys.path.insert(0, TRACER_ROOT)


class Harness:
    def __init__(self, tmp_path):
        self.root = tmp_path

    def instance_dir(self, files, name="inst"):
        """Writes {relative path: source} into a fresh instance directory."""
        directory = self.root / name
        for rel, source in files.items():
            path = directory / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(textwrap.dedent(source).lstrip("\n"))
        return directory

    def run(self, instances, expect_exit=0, **plan_keys):
        """Runs a plan through harvest.py; returns {id: result} from its stdout."""
        self.done = run_plan(self.root, instances, **plan_keys)
        assert self.done.returncode == expect_exit, self.done.stderr
        return {result["id"]: result for result in self.results}

    @property
    def results(self):
        """The last run's result lines, in order (each checked to be one, and only one, result)."""
        return parse_results(self.done.stdout)

    def answer(self, files, kind, function, query, test="test_prog.py", file="prog.py", **extra):
        """One instance over `files`; asserts ok and returns its answer."""
        directory = self.instance_dir(files, name=f"inst-{len(list(self.root.iterdir()))}")
        spec = dict({"id": "one", "dir": str(directory), "tests": [test], "kind": kind,
                     "target": {"file": file, "function": function}, "query": query, "timeout_seconds": 60}, **extra)
        result = self.run([spec])["one"]
        assert result["status"] == "ok", result.get("reason")
        return result["answer"]


@contextmanager
def shared_core(spinners: int = 2):
    """One core shared with `spinners` busy processes (a machine that many times slower again, for what runs
    there); yields the function that pins a child to that core. One core, not all: the tests the suite runs
    beside this one keep the core they would have had."""
    core = max(os.sched_getaffinity(0))

    def pin() -> None:
        os.sched_setaffinity(0, {core})

    busy = [subprocess.Popen([sys.executable, "-c", "while True: pass"], preexec_fn=pin) for _ in range(spinners)]
    try:
        yield pin
    finally:
        for spinner in busy:
            spinner.kill()
            spinner.wait()


def plan_of(root, instances, **plan_keys):
    """The plan the tests send: {work_dir: root/work, isolation: null, instances, **plan_keys}."""
    return dict({"work_dir": str(root / "work"), "isolation": None, "instances": instances}, **plan_keys)


def run_plan(root, instances, timeout=300, **plan_keys):
    """harvest.py over plan_of(root, instances, **plan_keys); the finished process."""
    plan = root / "plan.json"
    plan.write_text(json.dumps(plan_of(root, instances, **plan_keys)))
    return subprocess.run([sys.executable, HARVEST, str(plan)], capture_output=True, text=True, timeout=timeout)


def parse_results(stdout):
    """Result lines of the driver's stdout: every line must be one."""
    results = []
    for line in stdout.splitlines():
        result = json.loads(line)
        assert result.pop("tracegate_result") == 1, line[:200]
        results.append(result)
    return results


def pytest_configure(config):
    config.addinivalue_line("markers", "needs_root: switches uids (isolation); not run unless root")


def pytest_collection_modifyitems(config, items):
    if os.geteuid() == 0:
        return
    not_run = [item for item in items if item.get_closest_marker("needs_root")]
    if not_run:
        config.hook.pytest_deselected(items=not_run)
        items[:] = [item for item in items if not item.get_closest_marker("needs_root")]
        config._tracegate_not_root = len(not_run)


def pytest_terminal_summary(terminalreporter, config):
    count = getattr(config, "_tracegate_not_root", 0)
    if count:
        terminalreporter.write_line(f"tracegate: {count} isolation test(s) not run: they switch uids and need root "
                                    f"(running as uid {os.geteuid()})")


@pytest.fixture
def harness(tmp_path):
    return Harness(tmp_path)


def lines_of(answer):
    return [step["line"] for step in answer["executed_path"]]


# -- the catalog: every program recorded once per backend, in one plan --------

BACKENDS = ["settrace"] + (["monitoring"] if sys.version_info >= (3, 12) else [])
_CATALOG_RUNS = {}


def catalog_specs(root):
    """Writes every catalog program under `root`; returns the plan's instances."""
    from catalog import PROGRAMS

    specs = []
    for prog in PROGRAMS:
        directory = root / prog["name"]
        for rel, source in prog["files"].items():
            path = directory / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(source)
        for case in prog["cases"]:
            ident, kind, function, query = case[:4]
            tests = case[5] if len(case) > 5 else "test_prog.py"
            specs.append({"id": "{}-{}".format(prog["name"], ident), "dir": str(directory),
                          "tests": [tests] if isinstance(tests, str) else list(tests), "kind": kind,
                          "target": {"file": "prog.py", "function": function}, "query": query,
                          "timeout_seconds": 60})
    return specs


def run_catalog(tmp_path_factory, backend):
    """{id: result} and the work dir (traces kept) of the whole catalog under one backend (cached per session)."""
    if backend not in _CATALOG_RUNS:
        root = tmp_path_factory.mktemp("catalog-" + backend)
        specs = [dict(spec, backend=backend) for spec in catalog_specs(root / "programs")]
        done = run_plan(root, specs, timeout=600, keep_traces=True)
        assert done.returncode == 0, done.stderr
        results = {result["id"]: result for result in parse_results(done.stdout)}
        assert len(results) == len(specs)
        _CATALOG_RUNS[backend] = (results, root / "work")
    return _CATALOG_RUNS[backend]
