"""The world-model kinds' runs (W1-W4): one test, measured as the runner runs it, in separate processes.

A group of W specs shares one test (and one mutant, if any). Its runs, each
a fresh pytest process with tracegate's measuring plugin and no tracing:

* CLEAN_RUNS clean runs when a spec asks for wall time (else one): the
  outcome, which every run must agree on, and the wall time of each;
* one memory run (tracemalloc and the resident peak) when a spec asks W2;
* PROFILE_RUNS profile runs (settrace, profile.py) when a spec asks W4:
  each name's median over them is ranked, entries within TIE of each other
  listed by name (ranked()).

A mutant (`{file, line, original, replacement}`, recorded in the instance)
is applied to a private copy of its file's top-level package, which the
plugin imports in place of the original; the prompt's source is the mutated one. A test
that fails is an oracle only when its instance expects failure (mutants do).
The machine and runtime are recorded with every result (`measurement`).
"""

from __future__ import annotations

import json
import math
import os
import shutil
import signal
import stat
import statistics
import sys
from typing import Any

from .. import queries
from ..prompt.locate import Target, TargetNotFound, find_file, package_scope
from ..prompt.shown import Shown, prompt_slice
from ..prompt.testfiles import TestFileRefused, read_tests
from ..queries.world import BANDS, near_top
from ..runner import forkserver, pytest_run
from ..runner.sandbox import Sandbox
from . import provenance

CLEAN_RUNS = 5
PROFILE_RUNS = 3
PLUGIN = "tracegate_measure_plugin"
WORLD_KINDS = ("W1_Outcome", "W2_PeakMemory", "W3_WallTime", "W4_Profile")
Spec = dict[str, Any]
Result = dict[str, Any]


class Refused(Exception):
    """The group cannot be measured (every spec gets this reason, status invalid)."""


def is_world(kind: object) -> bool:
    return kind in WORLD_KINDS


def run(specs: list[Spec], results: list[Result], sandbox: Sandbox, tracer_root: str) -> list[Result]:
    first = specs[0]
    timeout = first.get("timeout_seconds") or 60
    try:
        tests, run_dir, instance_dir = _one_test(first)
        test_sources = read_tests(tests, run_dir)
        mutant = first.get("mutant")
        mutant_root = _apply_mutant(mutant, [run_dir, instance_dir], sandbox) if mutant else None
    except (Refused, TestFileRefused, ValueError) as exc:
        return [dict(r, status="invalid", reason=str(exc)) for r in results]
    roots = ([mutant_root] if mutant_root else []) + [run_dir, instance_dir]
    targets: list[Target | None] = []
    for spec, result in zip(specs, results, strict=True):
        try:
            target = Target(spec["target"]["file"], spec["target"]["function"], roots)
            result["context"] = dict(target.context, tests=test_sources, **prompt_slice(target))
            targets.append(target)
        except (TargetNotFound, SyntaxError, OSError, KeyError, TypeError) as exc:
            result.update(status="invalid", reason=str(exc) or type(exc).__name__)
            targets.append(None)
    found = [t for t in targets if t is not None]
    if not found:
        return results
    scope = package_scope(found[0].path, found[0].file, instance_dir)
    kinds = {spec.get("kind") for spec in specs}
    env = pytest_run.environment(tracer_root, PLUGIN)
    copy = None  # the plugin imports this top-level package from the private copy
    if mutant_root:
        copy = {"root": mutant_root,
                "top": first["mutant"]["file"].replace("\\", "/").lstrip("/").split("/")[0].removesuffix(".py")}
    measurement: dict[str, Any] = {"load": {"before": provenance.load()}}
    timed = "W3_WallTime" in kinds
    runs = CLEAN_RUNS if timed else 1
    # An outcome starts warm (forkserver.py); a measurement starts fresh. A forked child pays
    # first-touch costs in the test — copy-on-write faults on its parent's objects, its parent's file pages
    # mapped lazily — which a fresh process paid during its imports: warm wall times were 1.13x fresh at the
    # median (p90 1.95x). TRACEGATE_WARM_MEASURE=1 starts the clean and profile runs warm, the child first
    # making every page of its writable mappings its own (`populate`, Linux 5.14): the world-model harvest
    # took 19% less time, but against fresh harvests its wall times were 1.05x at the median (p90 1.20x,
    # where two fresh harvests are 0.99x, p90 1.04x) and 4% of its profiles' leaders differed (0.6% between
    # two fresh ones): the speed would be bought with the answers. The memory run is always fresh: a
    # populated child's arenas hold room a fresh process would have had to map, and small peaks read low.
    # A clean run that times nothing (no W3 asked: its outcome is all it gives) starts warm too.
    warm_measure = os.environ.get("TRACEGATE_WARM_MEASURE") == "1" and forkserver.can_populate()
    own = forkserver.fresh_for(specs)  # what a warm run must still import itself
    clean_fresh = own if warm_measure or not timed else None
    measure_fresh = own if warm_measure else None
    try:
        clean = [_run_once("clean", tests, run_dir, instance_dir, scope, env, timeout, sandbox, i, copy,
                           clean_fresh, timed) for i in range(runs)]
        outcomes = {json.dumps(c["outcome"], sort_keys=True) for c in clean}
        if len(outcomes) > 1:
            raise Refused(f"the test's outcome differs between clean runs ({' vs '.join(sorted(outcomes))})")
        measurement["outcome"] = clean[0]["outcome"]
        walls = [c["wall_ms"] for c in clean if c["wall_ms"] is not None]
        measurement["wall_ms"] = walls if len(walls) == len(clean) else None
        measurement["load"]["after"] = provenance.load()
        if "W2_PeakMemory" in kinds:
            measurement["peak"] = _run_once("memory", tests, run_dir, instance_dir, scope, env, timeout, sandbox,
                                            0, copy)["peak"]
        if "W4_Profile" in kinds:
            measurement["profile"] = _median_profile([
                _run_once("profile", tests, run_dir, instance_dir, scope, env, timeout, sandbox, i, copy,
                          measure_fresh, True)["profile"]
                for i in range(PROFILE_RUNS)])
    except TimeoutError as exc:
        return [r if r.get("status") == "invalid" else dict(r, status="timeout", reason=str(exc)) for r in results]
    except Refused as exc:
        return [r if r.get("status") == "invalid" else dict(r, status="invalid", reason=str(exc)) for r in results]
    meta = provenance.meta(measurement, first.get("mutant"), scope)
    for index, (spec, result) in enumerate(zip(specs, results, strict=True)):
        if targets[index] is None:
            continue
        result["stats"].update(pytest_exit_code=clean[0]["exit_code"], runs=len(clean))
        outcome = measurement["outcome"]
        if outcome["outcome"] != "passed" and not spec.get("expect_failure"):
            what = outcome["exception_type"] or outcome["signal"] or outcome["outcome"]
            results[index] = dict(result, status="invalid",
                                  reason=f"the test {outcome['outcome']} ({what}): a failing test is not an oracle "
                                         "unless the instance sets expect_failure")
            continue
        target, query = targets[index], spec.get("query") or {}
        try:
            rule = queries.rule_for(spec.get("kind"), query)
            context = queries.Context(target.file, target.func, target.linemap, target.node)
            asked, kind_meta = measurement, dict(meta)
            if measurement.get("profile"):
                # A profile is asked only about the code its prompt shows (shown.py); `executed` keeps all that ran.
                asked = dict(measurement, profile=Shown(result["context"]).only(measurement["profile"]))
                kind_meta["near_top"] = near_top(asked["profile"])
            answer = rule.answer(asked, query, context)
        except queries.Invalid as exc:
            results[index] = dict(result, status="invalid", reason=str(exc))
            continue
        if spec.get("kind") in BANDS:
            kind_meta["band"] = BANDS[spec["kind"]]
        results[index] = dict(result, status="ok", answer=answer, measurement=kind_meta)
    return results


def _one_test(spec: Spec) -> tuple[list[str], str, str]:
    tests = spec.get("tests")
    if not isinstance(tests, list) or len(tests) != 1 or not isinstance(tests[0], str) or "::" not in tests[0]:
        raise Refused("world-model kinds ask about one test: give exactly one pytest node id (file::test)")
    instance_dir = os.path.abspath(spec["dir"])
    run_dir = spec.get("cwd") or instance_dir
    if not isinstance(run_dir, str) or not os.path.isabs(run_dir) or not os.path.isdir(run_dir):
        raise Refused(f"cwd must be an absolute directory, got {run_dir!r}")
    return tests, run_dir, instance_dir


def _apply_mutant(mutant: Any, dirs: list[str], sandbox: Sandbox) -> str:
    """A private copy of the mutated file's top-level package with the mutant applied; its root directory."""
    if not isinstance(mutant, dict) or not all(isinstance(mutant.get(k), str) and mutant[k]
                                               for k in ("file", "original", "replacement")) \
            or isinstance(mutant.get("line"), bool) or not isinstance(mutant.get("line"), int):
        raise Refused("mutant must be {file, line, original, replacement} (a line of the file, and a text of "
                      "that line replaced once)")
    rel = mutant["file"].replace("\\", "/").lstrip("/")
    if ".." in rel.split("/") or not rel.endswith(".py"):
        raise Refused(f"mutant file must be a .py path inside the environment, got {mutant['file']!r}")
    path = find_file(rel, dirs)
    if path is None:
        raise Refused(f"mutant file {rel} not found")
    root = path[: len(path) - len(rel)]
    top = rel.split("/", 1)[0]
    copy_root = sandbox.path("mutant")
    os.makedirs(copy_root, exist_ok=True)
    source = os.path.join(root, top)
    if os.path.isdir(source):
        shutil.copytree(source, os.path.join(copy_root, top), symlinks=False,
                        ignore=shutil.ignore_patterns("__pycache__"))
    else:
        shutil.copy2(source, os.path.join(copy_root, top))
    target = os.path.join(copy_root, rel)
    with open(target, encoding="utf-8") as handle:
        lines = handle.read().splitlines(keepends=True)
    line = mutant["line"]
    if not 1 <= line <= len(lines) or lines[line - 1].count(mutant["original"]) != 1:
        raise Refused(f"mutant does not apply: line {line} of {rel} does not contain {mutant['original']!r} "
                      "exactly once (the package changed?)")
    lines[line - 1] = lines[line - 1].replace(mutant["original"], mutant["replacement"])
    with open(target, "w", encoding="utf-8") as handle:
        handle.write("".join(lines))
    for dirpath, _dirnames, filenames in os.walk(copy_root):
        os.chmod(dirpath, 0o755)
        for name in filenames:
            os.chmod(os.path.join(dirpath, name), 0o644)
    return copy_root


def _run_once(mode: str, tests: list[str], run_dir: str, instance_dir: str, scope: str, env: dict[str, str],
              timeout: float, sandbox: Sandbox, index: int, copy: dict[str, str] | None,
              fresh: set[str] | None = None, populate: bool = False) -> dict[str, Any]:
    """One measuring process: what it measured of the one test it ran (`fresh`, `populate`: run_command's)."""
    name = f"measure-{mode}-{index}"
    out = sandbox.path(name + ".jsonl")
    config = sandbox.write_private(name + ".json", json.dumps(
        {"mode": mode, "out": out, "scope": scope, "instance_dir": instance_dir, "mutant": copy}))
    command = [sys.executable, "-m", "pytest", "-q", "-rfE", "-p", "no:cacheprovider", *tests]
    outcome = pytest_run.run_command(command, run_dir, dict(env, TRACEGATE_MEASURE=config), timeout, sandbox,
                                     fresh=fresh, populate=populate)
    sandbox.fresh_tmp()
    if outcome.timed_out:
        raise TimeoutError(f"timeout after {timeout}s ({mode} run)")
    problem = outcome.problem()
    if problem:
        raise Refused(problem)
    events = _read_events(out)
    started = [e for e in events if e.get("event") == "start"]
    ended = [e for e in events if e.get("event") == "end"]
    if len(started) != 1:
        raise Refused(f"the {mode} run ran {len(started)} tests: the node id must name exactly one test")
    if len(ended) > 1:
        raise Refused(f"the {mode} run's measurement holds {len(ended)} ends for one test: "
                      "the test wrote to its own measurement")
    code = outcome.exit_code
    if not ended:
        killed = signal.Signals(-code).name if isinstance(code, int) and code < 0 else None
        if mode != "clean" or killed is None:
            raise Refused(f"the test never finished its {mode} run (pytest exit {code})")
        return {"outcome": {"outcome": "error", "exception_type": None, "failure_line": None, "signal": killed},
                "wall_ms": None, "exit_code": code}
    record = ended[0]
    phases = record.get("phases") or {}
    wall_ns = record.get("wall_ns")
    if not isinstance(phases, dict) or isinstance(wall_ns, bool) or not isinstance(wall_ns, int | float):
        raise Refused(f"the {mode} run's measurement is malformed (phases {type(phases).__name__}, wall time "
                      f"{wall_ns!r:.40}): the test wrote to its own measurement")
    measured = {"outcome": _outcome(phases, record.get("exception")), "wall_ms": wall_ns / 1e6,
                "exit_code": code, "peak": _peak(record) if mode == "memory" else None,
                "profile": record.get("profile")}
    _cross_check(measured, outcome, mode)
    return measured


SLACK_MS = 50.0
"""The parent's clock and the plugin's differ by the process's start and end: the plugin's wall time may not
pass the parent's by more than this."""
SLACK_BYTES = 4 * 1024 * 1024


def _cross_check(measured: dict[str, Any], outcome: pytest_run.Outcome, mode: str) -> None:
    """The plugin runs inside the measured process, so the test could have written what it reports: each
    figure is checked against the parent's view of that process (pytest's exit status, the parent's clock,
    the kernel's peak resident size from wait4) and the run refused when they disagree."""
    kind, code = measured["outcome"]["outcome"], outcome.exit_code
    if (kind == "passed") != (code == 0):
        raise Refused(f"the {mode} run's measured outcome ({kind}) disagrees with pytest's exit status {code}: "
                      "the test wrote to its own measurement")
    wall_ms = measured["wall_ms"]
    if not isinstance(wall_ms, int | float) or not 0 <= wall_ms <= outcome.seconds * 1000 + SLACK_MS:
        raise Refused(f"the {mode} run's measured wall time ({wall_ms} ms) is not within the process's "
                      f"{outcome.seconds:g} s: the test wrote to its own measurement")
    peak = measured["peak"]
    if peak is None:
        return
    rss, traced = peak.get("rss"), peak.get("traced")
    kernel = outcome.max_rss_bytes
    if kernel is not None and isinstance(rss, int | float) and rss > kernel + SLACK_BYTES:
        raise Refused(f"the memory run's measured resident peak ({rss:g} bytes) passes the kernel's "
                      f"({kernel} bytes): the test wrote to its own measurement")
    ceiling = max(kernel or 0, _memory_ceiling())
    if not isinstance(traced, int | float) or not 0 <= traced <= ceiling:
        raise Refused(f"the memory run's traced peak ({traced} bytes) is beyond the machine's memory "
                      f"({ceiling} bytes): the test wrote to its own measurement")


def _memory_ceiling() -> int:
    """The most memory any allocation here could have had: the machine's memory and swap."""
    info = provenance.meminfo()
    return info.get("MemTotal", 0) + info.get("SwapTotal", 0) or 1 << 50


def _median_profile(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """Each name's median over the profile runs (0 in a run it did not appear in), ranked again: one run's
    scheduling noise does not reorder close entries."""
    merged: dict[str, Any] = {}
    for key in ("time_func", "time_line", "alloc_func", "alloc_line"):
        values: dict[str, list[int]] = {}
        for run in runs:
            for name, value in run[key]:
                values.setdefault(name, []).append(value)
        medians = {name: statistics.median(v + [0] * (len(runs) - len(v))) for name, v in values.items()}
        merged[key] = [[name, value] for name, value in ranked(medians)]
    return merged


TIE = 0.10
"""Entries of a profile within this share of the hottest of their group count as tied (listed by name)."""


def ranked(values: dict[str, float]) -> list[tuple[str, float]]:
    """Hottest first, in tie groups: from the hottest entry not yet placed, every entry within TIE of it forms
    a group, listed by name. Two entries a few percent apart swap places between harvests (the scheduler's
    noise, even over the median of PROFILE_RUNS runs), and a profile's top entry is what its pass rule reads:
    in a group they are placed by name, the same in every harvest."""
    by_value = sorted(values.items(), key=lambda kv: (-kv[1], kv[0]))
    placed: list[tuple[str, float]] = []
    start = 0
    while start < len(by_value):
        floor = by_value[start][1] * (1 - TIE)
        end = start + 1
        while end < len(by_value) and by_value[end][1] >= floor:
            end += 1
        placed.extend(sorted(by_value[start:end]))
        start = end
    return placed


def _outcome(phases: dict[str, str], exception: dict[str, Any] | None) -> dict[str, Any]:
    states = set(phases.values())
    if "skipped" in states or "xfailed" in states:
        raise Refused("the test was skipped or xfailed: its outcome is not a prediction about running it")
    if phases.get("call") == "failed" and phases.get("setup") == "passed":
        kind = "failed"
    elif "failed" in states:
        kind = "error"
    else:
        kind = "passed"
    exception = exception or {}
    return {"outcome": kind, "exception_type": exception.get("type") if kind != "passed" else None,
            "failure_line": exception.get("line") if kind != "passed" else None, "signal": None}


def _peak(record: dict[str, Any]) -> dict[str, Any]:
    traced, rss = record.get("traced_peak") or 0, record.get("rss_peak")
    for value in (traced, rss):
        if value is not None and (isinstance(value, bool) or not isinstance(value, int | float)
                                  or not math.isfinite(value)):
            raise Refused(f"the memory run's measured peak is not a number ({value!r:.40}): "
                          "the test wrote to its own measurement")
    traced = int(traced)
    return {"bytes": max(traced, int(rss or 0)), "traced": traced, "rss": rss, "rss_method": record.get("rss_method")}


def _read_events(path: str) -> list[dict[str, Any]]:
    """The plugin's lines, read without following a symlink the tests may have planted."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError as exc:
        raise Refused(f"the measuring plugin wrote nothing ({exc.strerror})") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise Refused("the measuring plugin's output is not a regular file")
        with os.fdopen(fd, "rb", closefd=False) as handle:
            data = handle.read(64 * 1024 * 1024)
    finally:
        os.close(fd)
    events = []
    for line in data.decode("utf-8", "replace").splitlines():
        try:
            event = json.loads(line)
        except ValueError:
            continue
        if isinstance(event, dict):
            events.append(event)
    return events
