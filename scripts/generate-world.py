#!/usr/bin/env python3
"""Generates the bundle's world-model instances (W1-W4) from its own tests, screened by a real harvest.

For each package, tests are picked (seeded) from the bundle's single-test
instances, each with the function that instance targets (the prompt's code
under test). Each picked test gets W1, W2, W3 and W4 instances, and W1
instances with seeded mutants of its target (tracer/tracegate_tracer/generate/mutants.py:
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

The measured kinds (W2 peak memory, W3 wall time) also get the package's
workloads (benchmark/<package>/workloads: its functions at three or four sizes,
each test keeping what it built, so times and peaks span orders of magnitude),
and after every package, a constant screen over the bundle: while one constant
answer would pass more than 22% of its W2 (W3) instances under the factor-2
rule, one of those it passes is dropped (seeded), so that a later harvest's
times leave it under a quarter; the figures go to benchmark/world/measured.json.
`--screen-only --measured-from CACHE` screens again on a later harvest's values
(a quiet machine's: the generator's own harvest may have had company).

Usage: python3 scripts/generate-world.py [PACKAGE ...] [--tests N] [--mutants M] [--seed S]
       python3 scripts/generate-world.py --screen-only [--measured-from CACHE]
"""

from __future__ import annotations

import argparse
import glob
import hashlib
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tracer"))

from tracegate_tracer.generate import mutants

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from screen_harvest import harvest_candidates

DEFAULT_PACKAGES = ["click", "jinja2", "rich", "humanize", "sqlparse", "more-itertools", "natsort", "boltons",
                    "sortedcontainers", "networkx"]
KINDS = {"W1_Outcome": "w1-outcome", "W2_PeakMemory": "w2-peak", "W3_WallTime": "w3-wall", "W4_Profile": "w4-profile"}
MEASURED = {"W2_PeakMemory": ("peak_bytes", 10_000), "W3_WallTime": ("wall_ms", 0.01)}
"""The kinds answered by a number, passed within FACTOR of it: (the answer's field, the scorer's floor)."""
FACTOR = 2.0
"""The default pass rule of W2/W3 (`world-factor`)."""
CONSTANT_SHARE = 0.25
"""At most this share of the bundle's W2 (W3) instances may be passed by one constant answer (the goal)."""
SCREEN_SHARE = 0.22
"""The share the screen leaves: below the goal, because the next harvest measures again. A screen to exactly a
quarter of one harvest's times left 26-31% to a constant on later harvests (two harvests' W3 times agree to
1.28x at the 90th percentile, and the fullest window gains an item or two: docs/world-model.md)."""
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


def workload_tests(package: str) -> list[dict]:
    """(dir, test, target, kinds) of the package's workloads (benchmark/<package>/workloads): its own tests of
    one package function each at three or four sizes, asked only W2 and W3 (they all pass: no outcome to ask).
    Their test file is copied into the suite's own directory for it (instances/<package>/<test file stem>/)."""
    folder = os.path.join(ROOT, "benchmark", package, "workloads")
    manifest_path = os.path.join(folder, "workloads.json")
    if not os.path.isfile(manifest_path):
        return []
    try:
        with open(manifest_path, encoding="utf-8") as handle:
            manifest = json.load(handle)
        missing = [key for key in ("file", "targets", "sizes") if key not in manifest]
        if missing:
            raise KeyError(missing[0])
    except (ValueError, KeyError, TypeError) as exc:
        raise SystemExit(f"{manifest_path}: not a workloads manifest ({type(exc).__name__}: {exc}); it is JSON "
                         '{"file": "test_<package>_workloads.py", "targets": {name: {file, function}}, '
                         '"sizes": [...]}: fix it and run again') from None
    with open(os.path.join(ROOT, "instances", "environments", package + ".json"), encoding="utf-8") as handle:
        environment = json.load(handle)["name"]
    test_dir = os.path.join(ROOT, "instances", package, manifest["file"].removesuffix(".py"))
    os.makedirs(test_dir, exist_ok=True)
    shutil.copyfile(os.path.join(folder, manifest["file"]), os.path.join(test_dir, manifest["file"]))
    return [{"dir": test_dir, "test": f"{manifest['file']}::test_{name}_{size}", "target": target,
             "environment": environment, "kinds": MEASURED}
            for name, target in manifest["targets"].items() for size in manifest["sizes"]]


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
            if kind not in t.get("kinds", KINDS):
                continue
            ident = f"{package}-{short}-{name}-{digest(kind, t['test'])[:8]}"
            found.append({"dir": t["dir"], "instance": dict(base, id=ident, kind=kind)})
        if "W1_Outcome" not in t.get("kinds", KINDS):
            continue  # a workload: measured, never mutated
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
    oracles, dropped, said = harvest_candidates(package, found, work)
    sys.stderr.write(said)
    kept = {}
    for ident, oracle in oracles.items():
        wall = (oracle["meta"].get("measurement") or {}).get("wall_ms")
        band = (oracle["meta"].get("measurement") or {}).get("band") or {}
        if wall and wall["max"] > max(wall["min"] * band.get("ratio", 2), wall["min"] + band.get("floor", 0)):
            # Its own five clean runs vary beyond the band two harvests must agree within: not a stable truth.
            dropped[ident] = f"unstable: clean runs {wall['min']}-{wall['max']} ms, beyond the band"
            continue
        kept[ident] = oracle["oracle_answer"]
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


def best_constant(values: list[float], floor: float, factor: float = FACTOR) -> tuple[float, int]:
    """The constant answer passing most of `values` under the pass rule (max(a/b, b/a) <= factor, both floored),
    and how many it passes: a window [c/factor, c*factor] of the sorted values, at its fullest."""
    xs = sorted(max(v, floor) for v in values)
    best, count, j = (xs[0] * factor if xs else 0.0), 0, 0
    for i, low in enumerate(xs):
        while j < len(xs) and xs[j] <= low * factor * factor * (1 + 1e-12):
            j += 1
        if j - i > count:
            best, count = low * factor, j - i
    return best, count


def measured_answers(cache: str) -> dict[str, dict]:
    """The W2/W3 answers of a harvest cache (`tracegate harvest --cache DIR`), by instance id."""
    found: dict[str, dict] = {}
    for path in sorted(glob.glob(os.path.join(cache, "oracles", "*", "oracle.json"))):
        try:
            with open(path, encoding="utf-8") as handle:
                oracle = json.load(handle)
        except (OSError, ValueError):
            continue
        kind = oracle.get("question_kind") if isinstance(oracle, dict) else None
        if kind not in MEASURED or oracle.get("status", "ok") != "ok":
            continue
        answer, ident = oracle.get("oracle_answer"), (oracle.get("meta") or {}).get("instance_id")
        value = answer.get(MEASURED[kind][0]) if isinstance(answer, dict) else None
        # Only a measurement screens: a number, finite, not negative (a hand-edited or forged entry is no value).
        if isinstance(ident, str) and type(value) in (int, float) and math.isfinite(value) and value >= 0:
            found[ident] = answer
    return found


def constant_screen(seed: int, measured_from: str | None = None) -> dict:
    """Over every package's kept W2 (W3) instances (their reports' `oracles`), the ones dropped (seeded) from where
    one constant answer passes most of them, until it passes at most SCREEN_SHARE of what is left: their instance
    files removed, their reports told why. Returns the figures before and after (benchmark/world/measured.json).
    With `measured_from` (a harvest cache of the bundle's W2/W3 instances), the reports' values are first replaced
    by that harvest's: a generator's values drift from a later, quieter harvest's (docs/world-model.md)."""
    reports = {}
    for path in sorted(glob.glob(os.path.join(ROOT, "benchmark", "world", "*.json"))):
        if not path.endswith("measured.json"):
            with open(path, encoding="utf-8") as handle:
                reports[path] = json.load(handle)
    if measured_from:
        again = measured_answers(measured_from)
        kept = [i for report in reports.values() for kind in MEASURED
                for i in (report.get("oracles") or {}).get(kind, {})]
        missing = [i for i in kept if i not in again]
        if missing:
            sys.exit(f"generate-world: {measured_from} holds no usable measurement (a finite number) of "
                     f"{len(missing)} kept W2/W3 instance(s) ({', '.join(missing[:3])}, ...): harvest them into it "
                     "(tracegate harvest --categories W2,W3 --cache DIR) and run again")
        for report in reports.values():
            for kind in MEASURED:
                for i in (report.get("oracles") or {}).get(kind, {}):
                    report["oracles"][kind][i] = again[i]
    figures: dict[str, dict] = {}
    for kind, (field, floor) in MEASURED.items():
        value = {i: max(float(answer[field]), floor) for report in reports.values()
                 for i, answer in (report.get("oracles") or {}).get(kind, {}).items()}
        ids = sorted(value)
        before = best_constant(list(value.values()), floor)
        dropped: list[str] = []
        while ids:
            constant, count = best_constant([value[i] for i in ids], floor)
            if count <= SCREEN_SHARE * len(ids):
                break
            inside = [i for i in ids if max(value[i] / constant, constant / value[i]) <= FACTOR]
            drop = min(inside, key=lambda i: digest(seed, "constant", i))
            ids.remove(drop)
            dropped.append(drop)
            why = f"constant: {constant:.4g} within a factor {FACTOR:g} of {count} of {len(ids) + 1} {kind} of the bundle"
            for path, report in reports.items():
                if drop in (report.get("oracles") or {}).get(kind, {}):
                    del report["oracles"][kind][drop]
                    report["dropped"][drop] = why
                    report["kept"] -= 1
                    report["by_kind"][kind] -= 1
            for old in glob.glob(os.path.join(ROOT, "instances", "*", "*", f"{drop}.instance.json")):
                os.remove(old)
        after = best_constant([value[i] for i in ids], floor)
        figures[kind] = {"before": {"n": len(value), "constant": before[0], "passes": before[1]},
                         "after": {"n": len(ids), "constant": after[0], "passes": after[1],
                                   "share": round(after[1] / len(ids), 4) if ids else None},
                         "spread": round(max(value[i] for i in ids) / min(value[i] for i in ids), 1) if ids else None,
                         "dropped": len(dropped)}
    for path, report in reports.items():
        report["dropped"] = dict(sorted(report["dropped"].items()))
        with open(path, "w", encoding="utf-8") as out:
            json.dump(report, out, indent=2)
            out.write("\n")
    result = {"schema": "tracegate/world-measured@1", "seed": seed, "factor": FACTOR, "share": SCREEN_SHARE,
              "goal": CONSTANT_SHARE,
              "kinds": figures}
    with open(os.path.join(ROOT, "benchmark", "world", "measured.json"), "w", encoding="utf-8") as out:
        json.dump(result, out, indent=2)
        out.write("\n")
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("packages", nargs="*", default=DEFAULT_PACKAGES)
    parser.add_argument("--tests", type=int, default=6, help="tests per package (default 6)")
    parser.add_argument("--mutants", type=int, default=6, help="mutants proposed per test (default 6)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--screen-only", action="store_true",
                        help="only the bundle's constant screen, over the reports already in benchmark/world")
    parser.add_argument("--measured-from", metavar="CACHE",
                        help="with --screen-only: screen on this harvest cache's W2/W3 values (they replace the "
                             "reports' values)")
    args = parser.parse_args()
    if args.measured_from and not args.screen_only:
        parser.error("--measured-from goes with --screen-only")
    if args.screen_only:
        args.packages = []
    if not os.path.isfile(CLI):
        sys.exit(f"generate-world: {CLI} is missing: run npm run bundle")
    wheel_cache = tempfile.mkdtemp(prefix="tg-world-wheels-")
    for package in args.packages:
        tests = picked_tests(package, args.tests, args.seed)
        if not tests:
            sys.exit(f"generate-world: no single-test instances in instances/{package}")
        tests += workload_tests(package)
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
            "oracles": {k: {i: kept[i] for i in sorted(kept) if i.startswith(f"{package}-{KINDS[k]}-")}
                        for k in MEASURED},
            "dropped": dict(sorted(dropped.items())),
        }
        with open(os.path.join(ROOT, "benchmark", "world", f"{package}.json"), "w", encoding="utf-8") as out:
            json.dump(report, out, indent=2)
            out.write("\n")
        print(f"generate-world: {package}: {len(kept)} of {len(found)} kept ({report['by_kind']}); "
              f"W1 not passing {report['w1_not_passing']}/{report['w1']}", flush=True)
        shutil.rmtree(work, ignore_errors=True)
    screened = constant_screen(args.seed, args.measured_from)
    for kind, f in screened["kinds"].items():
        print(f"generate-world: {kind}: a constant passed {f['before']['passes']} of {f['before']['n']}; "
              f"{f['dropped']} dropped, now {f['after']['passes']} of {f['after']['n']}, spread {f['spread']}x",
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
