"""B1/B2 verdicts do not depend on the machine's speed (docs/comet.md, "Bounds").

A runaway loop that allocates reaches either the memory bound or a time bound first, depending on how fast the
machine is at that moment; the verdicts must be the same either way. Each bug below is harvested (B1's reference
call, B2's reference test against both versions and their respellings) with the bounds as shipped, and with the
bounds scaled to stand in for a much faster machine (memory runs out long before any alarm) and a much slower
one (every alarm long before memory runs out), idle, and for the bugs that race the clock also on a core shared
with two spinning processes (a machine three times slower again). The runaway's messages show that the race
really went each way.
"""

import json
import os
import subprocess
import sys
import textwrap
from contextlib import contextmanager

import pytest

from tracegate_tracer.comet.runs import judge_test_run

from conftest import HARVEST, parse_results, plan_of, shared_core

BOUNDS = '''
    import time


    def grow(n):
        out = []
        while n > 0:
            out.append(n)
            n -= 1
        return out


    def make(n):
        return [0] * n


    def depth(n):
        return 0 if n <= 0 else 1 + depth(n - 1)


    def pause(n):
        time.sleep(n * 0)
        return n
    '''
BUGS = {  # name: (function, (original, replacement), the reference input)
    "runaway": ("grow", ("n -= 1", "n -= 0"), "3"),
    "huge": ("make", ("[0] * n", "[0] * n ** 12"), "9"),
    "recursion": ("depth", ("depth(n - 1)", "depth(n + 1)"), "2"),
    "sleep": ("pause", ("n * 0", "n * 1000"), "5"),
}
EXPECTED = {  # B1: the buggy version's outcome (and exception); B2: the reference test's four verdicts
    "runaway": ("timeout", None), "huge": ("timeout", None), "recursion": ("crash", "RecursionError"),
    "sleep": ("timeout", None),
}
SOURCE = textwrap.dedent(BOUNDS).lstrip("\n")
F2P = {"buggy": "fail", "correct": "pass", "buggy_respelled": "fail", "correct_respelled": "pass"}
FAST = {"memory_bytes": 128 << 20, "call_seconds": 60, "reference_seconds": 60, "test_seconds": 120}
"""A much faster machine: a runaway fills its memory long before any alarm. The alarms are a minute away (at 6 s
the runaway once lost that race under load). Run idle: spinners would only slow the race that memory wins
anyway (22 s loaded against 6 s idle, one image; the two images' suites ran it on one core shared six ways)."""
RACES = ["runaway", "recursion"]
"""The bugs whose outcome races the clock: which bound a growing list or a deepening stack reaches first."""
SLOW = {"call_seconds": 0.25, "reference_seconds": 1}
"""A much slower machine: every alarm long before a runaway fills its memory (1 GiB in a quarter second would be
some 130 million appends a second)."""


@pytest.fixture
def site(tmp_path):
    root = tmp_path / "site"
    (root / "boundpkg").mkdir(parents=True)
    (root / "boundpkg" / "__init__.py").write_text("")
    (root / "boundpkg" / "mod.py").write_text(SOURCE)
    return root


SPINNERS = 2
"""Busy processes sharing the harvest's one core when loaded: the harvest gets a third of it, a machine three
times slower."""


@contextmanager
def busy(loaded: bool):
    """When `loaded`, the harvest and SPINNERS spinning processes share one core (the block gets the function
    that pins a child there); else no pinning."""
    if not loaded:
        yield None
        return
    with shared_core(SPINNERS) as pin:
        yield pin


def harvest(tmp_path, root, name, bugs, bounds=None, loaded=False):
    """Each bug's B1 and B2 harvested in one plan: {bug: {"b1": result, "b2": result}}."""
    specs = []
    for bug in bugs:
        function, (original, replacement), given = BUGS[bug]
        line = next(i for i, text in enumerate(SOURCE.splitlines(), start=1) if original in text)
        mutant = {"file": "boundpkg/mod.py", "line": line, "original": original, "replacement": replacement}
        spec = {"dir": str(tmp_path), "tests": ["test_x.py"], "target": {"file": "boundpkg/mod.py",
                "function": function}, "mutant": mutant, "query": {"input": given},
                "unmasked_for_tests": True}
        specs += [dict(spec, id=f"{bug}-b1", kind="B1_BuggyIO"), dict(spec, id=f"{bug}-b2", kind="B2_RegressionTest")]
    work = tmp_path / name
    work.mkdir()
    plan = work / "plan.json"
    plan.write_text(json.dumps(plan_of(work, specs)))
    env = dict(os.environ, PYTHONPATH=str(root), TRACEGATE_COMET_BOUNDS=json.dumps(bounds or {}))
    with busy(loaded) as pin:
        done = subprocess.run([sys.executable, HARVEST, str(plan)], capture_output=True, text=True, timeout=600,
                              env=env, preexec_fn=pin)
    assert done.returncode == 0, done.stderr
    found = {r["id"]: r for r in parse_results(done.stdout)}
    return {bug: {"b1": found[f"{bug}-b1"], "b2": found[f"{bug}-b2"]} for bug in bugs}


def verdicts(results):
    """What must not depend on the machine: B1's outcome and exception, B2's four verdicts."""
    out = {}
    for bug, pair in results.items():
        assert pair["b1"]["status"] == "ok", (bug, pair["b1"].get("reason"))
        assert pair["b2"]["status"] == "ok", (bug, pair["b2"].get("reason"))
        answer = pair["b1"]["answer"]
        runs = pair["b2"]["verification"]["runs"]
        out[bug] = ((answer["outcome"], answer["exception"]), {name: run["verdict"] for name, run in runs.items()})
    return out


def test_a_runaway_gets_the_same_verdicts_whichever_bound_it_reaches_first(tmp_path, site):
    shipped = harvest(tmp_path, site, "shipped", list(BUGS))
    fast = harvest(tmp_path, site, "fast", ["runaway", "huge", "recursion"], FAST)
    # Loaded, the bugs whose outcome is a race with the clock (growth, depth); a sleep and one huge allocation
    # end the same way at any speed, so they run idle (the spinners' two cores' worth of burn is this suite's
    # costliest minute, and npm test runs other work beside it).
    slow = harvest(tmp_path, site, "slow", RACES, SLOW, loaded=True)
    slow_idle = harvest(tmp_path, site, "slow-idle", ["runaway", "huge", "sleep"], SLOW)
    expected = {bug: (EXPECTED[bug], F2P) for bug in BUGS}
    assert verdicts(shipped) == expected
    assert verdicts(fast) == {bug: expected[bug] for bug in fast}
    assert verdicts(slow) == {bug: expected[bug] for bug in RACES}
    assert verdicts(slow_idle) == {bug: expected[bug] for bug in slow_idle}
    # The race went each way: memory first on the fast machine, the alarms first on the slow one.
    assert fast["runaway"]["b1"]["verification"]["runs"]["buggy"]["message"] == "ran out of memory"
    assert "out of memory" in fast["runaway"]["b2"]["verification"]["runs"]["buggy"]["reason"]
    assert slow["runaway"]["b1"]["verification"]["runs"]["buggy"]["message"] == "ran past 0.25s"
    assert "reason" not in slow["runaway"]["b2"]["verification"]["runs"]["buggy"]  # the reference's alarm: a failure
    # One huge allocation is out of memory at once, on any machine; a recursion without bound is RecursionError.
    assert shipped["huge"]["b1"]["verification"]["runs"]["buggy"]["message"] == "ran out of memory"


@pytest.mark.parametrize("exit_code, timed_out, progress, verdict, reason", [
    (0, False, ["start", "finish", "0"], "pass", None),
    (1, False, ["start", "finish", "1"], "fail", None),
    # A MemoryError in a test, then pytest itself dies reporting it (an uncaught exception: exit 1 with no verdict).
    (1, False, ["start", "memory"], "fail", "out of memory"),
    (3, False, ["start", "memory", "finish", "3"], "fail", "out of memory"),
    (None, True, ["start"], "fail", "ran past"),
    (-9, False, ["start"], "fail", "killed by SIGKILL"),
    (0, False, ["start"], "fail", "without pytest's verdict"),  # os._exit(0) in a test is not a pass
    (0, False, [], "error", "no test started"),
    (2, False, ["finish", "2"], "error", "collection failed"),
    (None, True, [], "error", "ran past"),  # a module-level runaway: collection never ended
    (5, False, ["finish", "5"], "error", "no test started"),
], ids=["pass", "fail", "memory-then-crash", "internal-error", "time", "killed", "exit-0", "nothing",
        "collection", "collecting-forever", "no-tests"])
def test_one_rule_judges_every_way_a_run_ends(exit_code, timed_out, progress, verdict, reason):
    found = judge_test_run(exit_code, timed_out, progress, lambda: "collection failed")
    assert found["verdict"] == verdict
    assert (reason is None and "reason" not in found) or reason in found["reason"]
