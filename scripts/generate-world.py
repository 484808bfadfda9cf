#!/usr/bin/env python3
"""Generates the bundle's world-model instances (W1-W4) from its own tests, screened by a real harvest.

For each package, tests are picked (seeded) from the bundle's single-test
instances, each with the function that instance targets (the prompt's code
under test). Each picked test gets W1, W2, W3 and W4 instances, and W1
instances with seeded mutants of its target (tracer/tracegate_tracer/mutants.py:
flipped comparison, off by one, wrong default; `expect_failure`, since a
mutant is there to make tests fail). The target's source comes from the
environment's own wheel (`pip download`). Every candidate is harvested twice
in Docker (`tracegate harvest`); only those that gave an agreed oracle are
kept (and a wall time only when its own five clean runs stay within the band), and mutants are thinned (seeded) so that about 40% of the kept W1
instances do not pass (survivors dropped beyond that share; never more than
half failing). Kept instances are written beside the test
files they ask about (instances/<package>/<test file>/); a package's earlier
world-model instances are replaced. A report per package goes to
benchmark/world/<package>.json.

Usage: python3 scripts/generate-world.py [PACKAGE ...] [--tests N] [--mutants M] [--seed S]
"""

from __future__ import annotations

import argparse
import glob
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tracer"))

from tracegate_tracer import mutants

DEFAULT_PACKAGES = ["click", "jinja2", "rich", "humanize", "sqlparse", "more-itertools", "natsort", "boltons"]
KINDS = {"W1_Outcome": "w1-outcome", "W2_PeakMemory": "w2-peak", "W3_WallTime": "w3-wall", "W4_Profile": "w4-profile"}
CLI = os.path.join(ROOT, "dist", "cli", "index.js")


def digest(*parts: object) -> str:
    return hashlib.sha256("\0".join(map(str, parts)).encode()).hexdigest()


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:40]


def picked_tests(package: str, count: int, seed: int) -> list[dict]:
    """(dir, test, target) of the package's single-test instances, one per test, seeded."""
    found: dict[str, dict] = {}
    for path in sorted(glob.glob(os.path.join(ROOT, "instances", package, "*", "*.instance.json"))):
        with open(path, encoding="utf-8") as handle:
            instance = json.load(handle)
        if instance["kind"].startswith("W") or len(instance["tests"]) != 1 or "::" not in instance["tests"][0]:
            continue
        if "[" in instance["tests"][0]:
            continue  # a parametrized id names one case; the kinds here ask about a whole test function
        test = instance["tests"][0]
        found.setdefault(test, {"dir": os.path.dirname(path), "test": test, "target": instance["target"],
                                "environment": instance["environment"]})
    ordered = sorted(found.values(), key=lambda t: digest(seed, package, t["test"]))
    # One test per target where possible: more of the package's code asked about.
    chosen, targets = [], set()
    for t in ordered:
        key = (t["target"]["file"], t["target"]["function"])
        if key not in targets:
            chosen.append(t)
            targets.add(key)
    chosen += [t for t in ordered if t not in chosen]
    return chosen[:count]


def wheel_sources(environment: str, cache: str) -> list[str]:
    """The environment's wheels (its pinned packages but pytest's), downloaded once."""
    with open(os.path.join(ROOT, "instances", "environments", environment + ".json"), encoding="utf-8") as handle:
        recipe = json.load(handle)
    folder = os.path.join(cache, environment)
    if not os.path.isdir(folder):
        pins = [p for p in recipe["packages"]
                if p.split("==")[0].lower() not in ("pytest", "iniconfig", "packaging", "pluggy", "pygments")]
        subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary", ":all:", "-q",
                        "--retries", "0", "--timeout", "10", "-d", folder, *pins], check=True,
                       stderr=subprocess.DEVNULL)
    return sorted(glob.glob(os.path.join(folder, "*.whl")))


def target_source(wheels: list[str], rel: str) -> str | None:
    for wheel in wheels:
        with zipfile.ZipFile(wheel) as archive:
            if rel in archive.namelist():
                return archive.read(rel).decode("utf-8")
    return None


def candidates(package: str, tests: list[dict], per_test: int, seed: int, wheel_cache: str) -> list[dict]:
    found = []
    for t in tests:
        base = {"environment": t["environment"], "tests": [t["test"]], "target": t["target"], "query": {},
                "timeout_seconds": 120}
        name = slug(t["test"].split("::", 1)[1])
        for kind, short in KINDS.items():
            ident = f"{package}-{short}-{name}-{digest(kind, t['test'])[:8]}"
            found.append({"dir": t["dir"], "instance": dict(base, id=ident, kind=kind)})
        source = target_source(wheel_sources(t["environment"], wheel_cache), t["target"]["file"])
        if source is None:
            continue
        for m in mutants.propose(source, t["target"]["function"], f"{seed}:{t['test']}", per_test):
            mutant = dict(m, file=t["target"]["file"])
            ident = f"{package}-w1-mutant-{name}-{digest(t['test'], json.dumps(mutant, sort_keys=True))[:8]}"
            found.append({"dir": t["dir"], "instance": dict(base, id=ident, kind="W1_Outcome", expect_failure=True,
                                                             mutant=mutant)})
    return found


def screen(package: str, found: list[dict], work: str) -> tuple[dict[str, dict], dict[str, str]]:
    """Harvests the candidates in a scratch copy of the suite; (kept id -> oracle answer, dropped id -> why)."""
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
    sys.stderr.write(run.stdout.splitlines()[0] + "\n" if run.stdout else run.stderr[-2000:])
    kept, dropped = {}, {}
    for path in glob.glob(os.path.join(cache, "oracles", "*", "oracle.json")):
        with open(path, encoding="utf-8") as handle:
            oracle = json.load(handle)
        ident = oracle["meta"]["instance_id"]
        wall = (oracle["meta"].get("measurement") or {}).get("wall_ms")
        band = (oracle["meta"].get("measurement") or {}).get("band") or {}
        if wall and wall["max"] > max(wall["min"] * band.get("ratio", 2), wall["min"] + band.get("floor", 0)):
            # Its own five clean runs vary beyond the band two harvests must agree within: not a stable truth.
            dropped[ident] = f"unstable: clean runs {wall['min']}-{wall['max']} ms, beyond the band"
            continue
        kept[ident] = oracle["oracle_answer"]
    for line in run.stderr.splitlines():
        match = re.match(r"^\s+(\S+): (invalid|error|timeout) — (.*)$", line)
        if match and match.group(1) not in kept:
            dropped[match.group(1)] = f"{match.group(2)}: {match.group(3)[:300]}"
    for c in found:
        dropped.setdefault(c["instance"]["id"], "no oracle") if c["instance"]["id"] not in kept else None
    return kept, dropped


def balance(found: list[dict], kept: dict[str, dict], seed: int, share: float = 0.4) -> list[str]:
    """Mutant W1 instances dropped (seeded) so that about `share` of the kept W1 instances do not pass:
    passing mutants (survivors) beyond what that share leaves room for, or failing ones above half."""
    w1 = [c["instance"] for c in found if c["instance"]["kind"] == "W1_Outcome" and c["instance"]["id"] in kept]
    order = lambda ident: digest(seed, ident)
    failing = [i["id"] for i in w1 if kept[i["id"]]["outcome"] != "passed"]
    survivors = sorted([i["id"] for i in w1 if i.get("mutant") and kept[i["id"]]["outcome"] == "passed"], key=order)
    plain = [i["id"] for i in w1 if not i.get("mutant") and kept[i["id"]]["outcome"] == "passed"]
    thinned = []
    room = max(0, round(len(failing) / share) - len(failing) - len(plain))
    thinned += survivors[room:]
    failing_mutants = sorted([i for i in failing if next(c for c in w1 if c["id"] == i).get("mutant")], key=order)
    passing = len(plain) + min(room, len(survivors))
    while failing_mutants and len(failing) > passing:  # never more than half failing
        drop = failing_mutants.pop(0)
        failing.remove(drop)
        thinned.append(drop)
    return thinned


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("packages", nargs="*", default=DEFAULT_PACKAGES)
    parser.add_argument("--tests", type=int, default=6, help="tests per package (default 6)")
    parser.add_argument("--mutants", type=int, default=6, help="mutants proposed per test (default 6)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    if not os.path.isfile(CLI):
        sys.exit(f"generate-world: {CLI} is missing: run npm run bundle")
    wheel_cache = tempfile.mkdtemp(prefix="tg-world-wheels-")
    for package in args.packages:
        tests = picked_tests(package, args.tests, args.seed)
        if not tests:
            sys.exit(f"generate-world: no single-test instances in instances/{package}")
        found = candidates(package, tests, args.mutants, args.seed, wheel_cache)
        work = tempfile.mkdtemp(prefix=f"tg-world-{package}-")
        kept, dropped = screen(package, found, work)
        thinned = balance(found, kept, args.seed)
        for ident in thinned:
            kept.pop(ident)
            dropped[ident] = "thinned: about 40% of the W1 instances fail (at most half)"
        for old in glob.glob(os.path.join(ROOT, "instances", package, "*", f"{package}-w[1-4]-*.instance.json")):
            os.remove(old)
        for c in found:
            if c["instance"]["id"] in kept:
                with open(os.path.join(c["dir"], c["instance"]["id"] + ".instance.json"), "w",
                          encoding="utf-8") as out:
                    json.dump(c["instance"], out, indent=2)
                    out.write("\n")
        w1 = [c["instance"]["id"] for c in found if c["instance"]["kind"] == "W1_Outcome" and c["instance"]["id"] in kept]
        report = {
            "schema": "tracegate/generate-world-report@1", "package": package, "seed": args.seed,
            "tests": [t["test"] for t in tests], "candidates": len(found), "kept": len(kept),
            "by_kind": {k: sum(1 for c in found if c["instance"]["kind"] == k and c["instance"]["id"] in kept)
                        for k in KINDS},
            "w1_not_passing": sum(1 for i in w1 if kept[i]["outcome"] != "passed"), "w1": len(w1),
            "dropped": dict(sorted(dropped.items())),
        }
        with open(os.path.join(ROOT, "benchmark", "world", f"{package}.json"), "w", encoding="utf-8") as out:
            json.dump(report, out, indent=2)
            out.write("\n")
        print(f"generate-world: {package}: {len(kept)} of {len(found)} kept ({report['by_kind']}); "
              f"W1 not passing {report['w1_not_passing']}/{report['w1']}", flush=True)
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
