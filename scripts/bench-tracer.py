#!/usr/bin/env python3
"""Traced/untraced wall-time ratio of the bundled instances' tests, per backend.

    python3 scripts/bench-tracer.py [--runs 5] [--instances instances/core] [--backends settrace,monitoring]
                                    [--baseline-tracer /tmp/old/tracer]

For each bundled instance (whose target package the running interpreter can
import) and each of `--runs` rounds, runs the instance's pytest command
untraced, under each tracegate backend (recording what its query needs) and
under a naive tracer (sys.settrace with a local tracer on every frame: line
events everywhere), in an order that alternates round by round. Per mode it
sums the wall time over instances in each round and reports the median over
rounds of traced/untraced, by wall time (`ratios`) and by the child's CPU time
(`cpu_ratios`: user + system, less moved by other load on a shared machine).
Run it with the interpreter to measure (3.11: settrace; 3.12+: both backends).
Each tracer tree is byte-compiled first, as the harvest driver does
(harvest.py), so no traced run pays for compiling the tracer.

Besides the bundled instances (tiny tests: start-up dominates), two
longer-running workloads are written to a temporary directory so that
per-event costs show: `click-many` invokes a click command 3,000 times (the
target, click's short-option matcher, runs 6,000 times; a hundred thousand
other frames run around it) and `cpu-outside` spends ~1 s in a pure-Python
helper that is not the target (a naive tracer pays a line event per line;
tracegate should pay nothing). Their ratios are reported apart.
"""

import argparse
import compileall
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TRACER = os.path.join(ROOT, "tracer")
sys.path.insert(0, TRACER)
from tracegate_tracer import queries

NAIVE = '''
import sys, threading
def _local(frame, event, arg):
    return _local
def _global(frame, event, arg):
    return _local
sys.settrace(_global)
threading.settrace(_global)
'''


def pytest_command(tests):
    return [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *tests]


def run_once(spec, mode, work, baseline=None):
    """(wall, CPU) seconds of one pytest run; mode "untraced", "naive", "<backend>" or "<backend>@base"."""
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", PYTHONHASHSEED="0")
    if mode == "naive":
        env["PYTHONPATH"] = os.path.join(work, "naive")
    elif mode != "untraced":
        backend, _at, base = mode.partition("@")
        tracer = baseline if base else TRACER
        config = dict(queries.recording_needs(spec["kind"], spec.get("query") or {}), target=spec["target"],
                      trace_path=os.path.join(work, "trace.json"), instance_dir=spec["dir"], backend=backend)
        path = os.path.join(work, "config.json")
        with open(path, "w") as handle:
            json.dump(config, handle)
        env.update(PYTHONPATH=os.path.join(tracer, "boot"), TRACEGATE_TRACE=path,
                   PYTEST_PLUGINS="tracegate_pytest_plugin")
    before, started = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter()
    subprocess.run(pytest_command(spec["tests"]), cwd=spec["dir"], env=env, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, check=False)
    wall, after = time.perf_counter() - started, resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


LONG = {
    "click-many": ({"test_many.py": """
import click
from click.testing import CliRunner


@click.command()
@click.option("-v", "--verbose", count=True)
@click.option("-q", is_flag=True)
@click.argument("name")
def greet(verbose, q, name):
    click.echo("%s %s %s" % (verbose, q, name))


def test_many():
    runner = CliRunner()
    for i in range(3000):
        result = runner.invoke(greet, ["-vvq", "-v", "n%d" % i])
        assert result.output == "3 True n%d\\n" % i
"""}, "S2_Loops", {"file": "click/parser.py", "function": "_OptionParser._match_short_opt"},
        {"invocation": 1, "loop_line": 396}),
    "cpu-outside": ({"prog.py": """
def crunch(n):
    total = 0
    for i in range(n):
        total += i * i % 7
    return total


def target(x):
    y = x + 1
    return y * 2
""", "test_prog.py": """
from prog import crunch, target


def test_work():
    assert target(1) == 4
    assert crunch(12_000_000) > 0
"""}, "S1_IntraProceduralCFG", {"file": "prog.py", "function": "target"}, {"invocation": 1}),
}


def long_specs(work):
    """The longer-running workloads, written under `work` (click-many only if click imports)."""
    specs = []
    for name, (files, kind, target, query) in LONG.items():
        package = target["file"].split("/")[0] if "/" in target["file"] else None
        if package and subprocess.run([sys.executable, "-c", "import " + package], capture_output=True,
                                      check=False).returncode:
            continue
        directory = os.path.join(work, "long", name)
        os.makedirs(directory)
        for rel, text in files.items():
            with open(os.path.join(directory, rel), "w") as handle:
                handle.write(text.lstrip("\n"))
        specs.append({"id": name, "dir": directory, "tests": [next(f for f in files if f.startswith("test_"))],
                      "kind": kind, "target": target, "query": query})
    return specs


def load_specs(root):
    specs = []
    for name in sorted(os.listdir(root)):
        path = os.path.join(root, name, "instance.json")
        if not os.path.exists(path):
            continue
        with open(path) as handle:
            spec = json.load(handle)
        package = spec["target"]["file"].split("/")[0]
        probe = subprocess.run([sys.executable, "-c", "import " + package], capture_output=True, check=False)
        if probe.returncode == 0:
            specs.append(dict(spec, dir=os.path.join(root, name)))
    return specs


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--instances", default=os.path.join(ROOT, "instances", "core"))
    default = "settrace,monitoring" if sys.version_info >= (3, 12) else "settrace"
    parser.add_argument("--backends", default=default)
    parser.add_argument("--baseline-tracer", help="another tracer/ dir (e.g. `git archive` of an older commit) "
                        "measured side by side as <backend>@base")
    args = parser.parse_args()
    specs = load_specs(args.instances)
    backends = args.backends.split(",")
    based = [b + "@base" for b in backends] if args.baseline_tracer else []
    modes = ["untraced"] + backends + based + ["naive"]
    work = tempfile.mkdtemp(prefix="tg-bench-")
    os.makedirs(os.path.join(work, "naive"))
    with open(os.path.join(work, "naive", "sitecustomize.py"), "w") as handle:
        handle.write(NAIVE)
    for tree in filter(None, (TRACER, args.baseline_tracer)):
        for folder in ("tracegate_tracer", "boot"):
            compileall.compile_dir(os.path.join(tree, folder), quiet=2)
    groups = {"bundled": specs, "long": long_specs(work)}
    # Per group, mode and measure (0 wall, 1 CPU): each round's sum over the group's instances.
    totals = {group: {mode: ([], []) for mode in modes} for group in groups}
    each = {spec["id"]: {mode: ([], []) for mode in modes} for spec in groups["long"]}
    for round_ in range(args.runs):
        order = modes if round_ % 2 == 0 else list(reversed(modes))
        for group, members in groups.items():
            spent = {mode: [0.0, 0.0] for mode in modes}
            for spec in members:
                for mode in order:
                    measured = run_once(spec, mode, work, args.baseline_tracer)
                    for measure, value in enumerate(measured):
                        spent[mode][measure] += value
                        if spec["id"] in each:
                            each[spec["id"]][mode][measure].append(value)
            for mode in modes:
                for measure in (0, 1):
                    totals[group][mode][measure].append(spent[mode][measure])

    def ratios(seconds, measure):
        base = seconds["untraced"][measure]
        return {mode: round(statistics.median(t / u for t, u in zip(seconds[mode][measure], base)), 3)
                for mode in modes[1:]}

    report = {"python": sys.version.split()[0], "runs": args.runs}
    for group, members in groups.items():
        if not members:
            continue
        seconds = totals[group]
        report[group] = {"instances": [spec["id"] for spec in members],
                         "untraced_seconds_median": round(statistics.median(seconds["untraced"][0]), 3),
                         "ratios": ratios(seconds, 0), "cpu_ratios": ratios(seconds, 1)}
    if each:  # per long workload: where per-event costs show
        report["long"]["per_instance"] = {
            ident: {"untraced_seconds_median": round(statistics.median(t["untraced"][0]), 3),
                    "ratios": ratios(t, 0), "cpu_ratios": ratios(t, 1)}
            for ident, t in each.items()}
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
