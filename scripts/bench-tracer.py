#!/usr/bin/env python3
"""Traced/untraced wall-time ratio of the bundled instances' tests, per backend.

    python3 scripts/bench-tracer.py [--runs 5] [--instances instances/core] [--backends settrace,monitoring]

For each bundled instance (whose target package the running interpreter can
import) and each of `--runs` rounds, runs the instance's pytest command
untraced, under each tracegate backend (recording what its query needs) and
under a naive tracer (sys.settrace with a local tracer on every frame: line
events everywhere), in an order that alternates round by round. Per mode it
sums the wall time over instances in each round and reports the median over
rounds of traced/untraced. Run it with the interpreter to measure (3.11:
settrace; 3.12+: both backends).
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TRACER = os.path.join(ROOT, "tracer")
sys.path.insert(0, TRACER)
from tracegate_tracer import queries  # noqa: E402

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


def run_once(spec, mode, work):
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", PYTHONHASHSEED="0")
    if mode == "naive":
        env["PYTHONPATH"] = os.path.join(work, "naive")
    elif mode != "untraced":
        config = dict(queries.recording_needs(spec["kind"], spec.get("query") or {}), target=spec["target"],
                      trace_path=os.path.join(work, "trace.json"), instance_dir=spec["dir"], backend=mode)
        path = os.path.join(work, "config.json")
        with open(path, "w") as handle:
            json.dump(config, handle)
        env.update(PYTHONPATH=os.path.join(TRACER, "boot"), TRACEGATE_TRACE=path,
                   PYTEST_PLUGINS="tracegate_pytest_plugin")
    started = time.perf_counter()
    subprocess.run(pytest_command(spec["tests"]), cwd=spec["dir"], env=env, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - started


def load_specs(root):
    specs = []
    for name in sorted(os.listdir(root)):
        path = os.path.join(root, name, "instance.json")
        if not os.path.exists(path):
            continue
        with open(path) as handle:
            spec = json.load(handle)
        package = spec["target"]["file"].split("/")[0]
        probe = subprocess.run([sys.executable, "-c", "import " + package], capture_output=True)
        if probe.returncode == 0:
            specs.append(dict(spec, dir=os.path.join(root, name)))
    return specs


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--instances", default=os.path.join(ROOT, "instances", "core"))
    default = "settrace,monitoring" if sys.version_info >= (3, 12) else "settrace"
    parser.add_argument("--backends", default=default)
    args = parser.parse_args()
    specs = load_specs(args.instances)
    modes = ["untraced"] + args.backends.split(",") + ["naive"]
    work = tempfile.mkdtemp(prefix="tg-bench-")
    os.makedirs(os.path.join(work, "naive"))
    with open(os.path.join(work, "naive", "sitecustomize.py"), "w") as handle:
        handle.write(NAIVE)
    totals = {mode: [] for mode in modes}
    for round_ in range(args.runs):
        order = modes if round_ % 2 == 0 else list(reversed(modes))
        spent = {mode: 0.0 for mode in modes}
        for spec in specs:
            for mode in order:
                spent[mode] += run_once(spec, mode, work)
        for mode in modes:
            totals[mode].append(spent[mode])
    ratios = {mode: statistics.median(t / u for t, u in zip(totals[mode], totals["untraced"])) for mode in modes[1:]}
    report = {"python": sys.version.split()[0], "instances": len(specs), "runs": args.runs,
              "untraced_seconds_median": round(statistics.median(totals["untraced"]), 3),
              "ratios": {mode: round(r, 3) for mode, r in ratios.items()}}
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
