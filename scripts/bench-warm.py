#!/usr/bin/env python3
"""Warm starts vs fresh processes, side by side: one isolated pytest run of one short test, started fresh
(subprocess), forked by a fork server that imported pytest alone, and forked by one that imported pytest's
default plugins too (tracer/tracegate_tracer/runner/forkserver.py, as shipped), alternated.

Usage: python3 scripts/bench-warm.py [--image IMAGE] [--package NAME] [--runs N]

Runs itself inside IMAGE (an environment image: default the newest tracegate-env image of --package),
as the harvest does: the driver root, the run as a group's uid, the tracer mounted read-only. Prints
each mode's median and minimum wall time (the driver's, from spawn to reaped) and the ratio of the medians.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODES = ("fresh", "warm-pytest", "warm")
"""A fresh process; forked by a server that imported pytest alone; forked by one that imported its plugins too."""


def _image_of(package: str) -> str:
    listed = subprocess.run(["docker", "images", "--format", "{{.Repository}}:{{.Tag}}", "tracegate-env"],
                            capture_output=True, text=True, check=True).stdout.split()
    for image in listed:  # newest first
        label = subprocess.run(["docker", "image", "inspect", image, "--format",
                                '{{index .Config.Labels "tracegate.environment"}}'],
                               capture_output=True, text=True, check=False).stdout.strip()
        if label == package:
            return image
    sys.exit(f"no tracegate-env image of {package}: harvest it once first (tracegate harvest --instances "
             f"instances/{package})")


def outside(args: argparse.Namespace) -> None:
    image = args.image or _image_of(args.package)
    command = ["docker", "run", "--rm", "--network", "none", "-v", f"{ROOT}/tracer:/tracer:ro",
               "-v", f"{os.path.abspath(__file__)}:/bench.py:ro", "--entrypoint", "/opt/venv/bin/python", image,
               "/bench.py", "--inside", "--package", args.package, "--runs", str(args.runs)]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        sys.exit(done.stderr[-2000:])
    found = json.loads(done.stdout.strip().splitlines()[-1])
    print(f"image {image} ({args.package}), {args.runs} runs each, alternated")
    for mode in MODES:
        print(f"  {mode:11}  median {found[mode]['median']:.3f} s  min {found[mode]['min']:.3f} s")
    print(f"  fresh / warm (medians): {found['fresh']['median'] / found['warm']['median']:.2f}x")
    print(f"  warm-pytest / warm (medians): {found['warm-pytest']['median'] / found['warm']['median']:.2f}x")


def inside(args: argparse.Namespace) -> None:
    sys.path.insert(0, "/tracer")
    from tracegate_tracer.runner import forkserver, pytest_run
    from tracegate_tracer.runner.sandbox import Sandbox

    os.makedirs("/bench/run", exist_ok=True)
    with open("/bench/run/test_one.py", "w") as handle:
        handle.write(f"import {args.package}\n\n\ndef test_one():\n    assert {args.package}.__name__\n")
    for path in ("/bench", "/bench/run"):
        os.chmod(path, 0o755)
    os.chmod("/bench/run/test_one.py", 0o644)
    env = pytest_run.environment("/tracer", "tracegate_measure_plugin")
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_one.py"]
    seconds: dict[str, list[float]] = {mode: [] for mode in MODES}
    with_plugins = forkserver._pytest_preload
    for index in range(args.runs):
        for mode in MODES if index % 2 == 0 else MODES[::-1]:
            fresh = None if mode == "fresh" else {args.package}
            # `warm-pytest`: the server imports pytest alone, its plugins left to each run (the tree before).
            forkserver._pytest_preload = (lambda preload, _args: preload) if mode == "warm-pytest" else with_plugins
            sandbox = Sandbox("/bench/work", index, 30000 + index)
            os.makedirs(sandbox.work_dir, exist_ok=True)
            sandbox.prepare()
            started = time.perf_counter()
            outcome = pytest_run.run_command(command, "/bench/run", dict(env), 60, sandbox, fresh=fresh)
            seconds[mode].append(time.perf_counter() - started)
            sandbox.cleanup()
            if outcome.exit_code != 0:
                sys.exit(f"the {mode} run failed: {outcome.stdout[-500:]} {outcome.stderr[-500:]}")
    if not forkserver.SERVERS.running:
        sys.exit("no warm start happened (the fork server did not start)")
    forkserver.SERVERS.close_all()
    print(json.dumps({mode: {"median": statistics.median(v), "min": min(v)} for mode, v in seconds.items()}))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--image")
    parser.add_argument("--package", default="click")
    parser.add_argument("--runs", type=int, default=8)
    parser.add_argument("--inside", action="store_true", help=argparse.SUPPRESS)
    parsed = parser.parse_args()
    (inside if parsed.inside else outside)(parsed)
