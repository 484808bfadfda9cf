"""The generators' screen: candidate instances harvested for real (`tracegate harvest`) in a scratch suite.

Shared by scripts/generate-world.py and scripts/generate-comet.py: each candidate is written beside a copy of
its test directory (its other instances left out), the harvest runs in Docker into a scratch cache, and what
comes back is every oracle by instance id and, for the rest, why the harvest refused them.
"""

from __future__ import annotations

import glob
import json
import os
import re
import shutil
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CLI = os.path.join(ROOT, "dist", "cli", "index.js")


def harvest_candidates(package: str, found: list[dict], work: str) -> tuple[dict[str, dict], dict[str, str], str]:
    """(id -> oracle.json, dropped id -> why, the harvest's first stdout line or its stderr's tail)."""
    suite = os.path.join(work, "suite")
    shutil.rmtree(suite, ignore_errors=True)
    os.makedirs(os.path.join(suite, package))
    shutil.copytree(os.path.join(ROOT, "instances", "environments"), os.path.join(suite, "environments"))
    for c in found:
        target_dir = os.path.join(suite, package, os.path.basename(c["dir"]))
        if not os.path.isdir(target_dir):
            shutil.copytree(c["dir"], target_dir, ignore=shutil.ignore_patterns("*.instance.json"))
        with open(os.path.join(target_dir, c["instance"]["id"] + ".instance.json"), "w", encoding="utf-8") as out:
            json.dump(c["instance"], out, indent=2)
            out.write("\n")
    cache = os.path.join(work, "cache")
    run = subprocess.run(["node", CLI, "harvest", "--instances", suite, "--cache", cache],
                         capture_output=True, text=True, check=False)
    said = run.stdout.splitlines()[0] + "\n" if run.stdout else run.stderr[-2000:]
    oracles = {}
    for path in glob.glob(os.path.join(cache, "oracles", "*", "oracle.json")):
        with open(path, encoding="utf-8") as handle:
            oracle = json.load(handle)
        oracles[oracle["meta"]["instance_id"]] = oracle
    dropped = {}
    for line in run.stderr.splitlines():
        match = re.match(r"^\s+(\S+): (invalid|error|timeout) — (.*)$", line)
        if match and match.group(1) not in oracles:
            dropped[match.group(1)] = f"{match.group(2)}: {match.group(3)[:300]}"
    return oracles, dropped, said
