#!/usr/bin/env python3
"""Generates the bundle's B1/B2 instances (Comet's kinds) from its packages' own code, screened by a real harvest.

For each package: its bundled tests run on the host under a profile hook that
records calls of its module-level functions whose arguments are plain literals
(scripts/comet/capture.py). Each such function gets seeded mutants
(tracer/tracegate_tracer/generate/mutants.py: flipped comparison, off by one, wrong
default, dropped branch, swapped arguments). Each mutant runs on the recorded
inputs and a few perturbations of them (scripts/comet/behave.py, the same call
runner verification uses), against the correct version twice (an input whose
behaviour differs between those two is dropped: not deterministic); a mutant
is kept when some input makes the buggy version behave differently (another
outcome, return value, output or exception), with that input as the
reference and up to three inputs on which both agree as the prompt's
examples. Mutants that fail on import, or on every input, are dropped.
Each mutant's reference is the killing input whose buggy run is the most
complex (its semantic complexity, the traced kinds' measure: scripts/comet/behave.py
traces it), and a choice (every timeout first: the rarest class; in each class
the most complex first, ties by a seeded hash) gives each package
up to --per-package bugs, each asked as B1 and as B2; every candidate is
harvested in Docker (`tracegate harvest`: the reference must expose the
mutant there too, and B2's reference test must be fail-to-pass, respellings
included), and only those with an oracle are written, beside the test file
that called the function (instances/<package>/<test dir>/). A package's
earlier B1/B2 instances are replaced. A report per package goes to
benchmark/comet/<package>.json.

Usage: python3 scripts/generate-comet.py [PACKAGE ...] [--per-package N] [--seed S]
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

from tracegate_tracer.generate import mutants
from tracegate_tracer.recording.linemap import module_name

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from comet.callees import callee_mutants
from screen_harvest import harvest_candidates

DEFAULT_PACKAGES = ["humanize", "boltons", "more-itertools", "natsort", "sqlparse", "click", "markdown",
                    "python-dateutil", "jinja2"]
CLI = os.path.join(ROOT, "dist", "cli", "index.js")
HERE = os.path.join(ROOT, "scripts", "comet")
RUNNER = ("pytest", "iniconfig", "packaging", "pluggy", "pygments")
KINDS = {"B1_BuggyIO": "b1", "B2_RegressionTest": "b2"}


def digest(*parts: object) -> str:
    return hashlib.sha256("\0".join(map(str, parts)).encode()).hexdigest()


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:40]


def site_of(package: str, work: str) -> tuple[str, str]:
    """The package's wheels (its pins but the test runner's) unpacked into one directory; (dir, environment)."""
    with open(os.path.join(ROOT, "instances", "environments", package + ".json"), encoding="utf-8") as handle:
        recipe = json.load(handle)
    wheels = os.path.join(work, "wheels", package)
    site = os.path.join(work, "site", package)
    if not os.path.isdir(site):
        pins = [p for p in recipe["packages"] if p.split("==")[0].lower() not in RUNNER]
        subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary", ":all:", "-q",
                        "--retries", "0", "--timeout", "10", "-d", wheels, *pins], check=True,
                       stderr=subprocess.DEVNULL)
        for wheel in sorted(glob.glob(os.path.join(wheels, "*.whl"))):
            with zipfile.ZipFile(wheel) as archive:
                archive.extractall(site)
    return site, recipe["name"]


def top_of(package: str, site: str) -> str:
    names = [n for n in os.listdir(site) if os.path.isfile(os.path.join(site, n, "__init__.py"))]
    wanted = package.replace("-", "_").replace("python_", "")
    for name in names:
        if name == wanted or name.replace("_", "") == wanted.replace("_", ""):
            return name
    raise SystemExit(f"{package}: no top-level package among {names}")


def run_json(args: list[str], env: dict[str, str], timeout: float, cwd: str) -> object | None:
    try:
        done = subprocess.run(args, capture_output=True, text=True, timeout=timeout, env=env, check=False,
                              cwd=cwd)
    except subprocess.TimeoutExpired:
        return None
    lines = [line for line in done.stdout.splitlines() if line.startswith("[")]
    try:
        return json.loads(lines[-1]) if lines else None
    except ValueError:
        return None


def behave(site: str, module: str, qualname: str, inputs: list[str], work: str,
           traced: bool = False) -> list | None:
    """What the function does on each input (traced: each run's semantic complexity instead: behave.py)."""
    config = os.path.join(work, "behave.json")
    with open(config, "w", encoding="utf-8") as handle:
        json.dump({"module": module, "qualname": qualname, "inputs": inputs, "traced": traced}, handle)
    env = dict(os.environ, PYTHONPATH=site, PYTHONHASHSEED="0", PYTHONDONTWRITEBYTECODE="1")
    # In a scratch directory: what a mutated function writes where it runs stays there.
    scratch = os.path.join(work, "cwd")
    os.makedirs(scratch, exist_ok=True)
    found = run_json([sys.executable, "-P", "-s", os.path.join(HERE, "behave.py"), config], env,
                     timeout=10 + 2.5 * len(inputs), cwd=scratch)
    return found if isinstance(found, list) and len(found) == len(inputs) else None


def perturbed(given: str) -> list[str]:
    """A few neighbours of a call's literal arguments: each int ±1 and 0, each str shortened and emptied."""
    import ast

    try:
        call = ast.parse(f"f({given})", mode="eval").body
    except SyntaxError:
        return []
    values = [ast.literal_eval(a) for a in call.args]
    keywords = [(k.arg, ast.literal_eval(k.value)) for k in call.keywords]
    out = []
    for index, value in enumerate(values):
        options: list[object] = []
        if type(value) is int:
            options = [value + 1, value - 1, 0, -value]
        elif type(value) is str:
            options = [value[:-1], "", value + value[-1:], value.upper()]
        elif type(value) in (list, tuple):
            options = [value[:-1], type(value)()]
        for option in options:
            changed = values[:index] + [option] + values[index + 1:]
            text = ", ".join([repr(v) for v in changed] + [f"{k}={v!r}" for k, v in keywords])
            if text != given and text not in out:
                out.append(text)
    return out[:8]


KEYS = ("outcome", "return", "stdout", "exception")


def same(a: dict, b: dict) -> bool:
    return all(a.get(k) == b.get(k) for k in KEYS)


def bugs_of(package: str, site: str, top: str, captured: dict, seed: int, work: str, log) -> list[dict]:
    """Every (function, mutant) with a killing input, its examples and the buggy outcome's class."""
    found = []
    for key in sorted(captured, key=lambda k: digest(seed, k)):
        entry = captured[key]
        module = module_name(entry["file"])
        inputs = list(entry["inputs"])
        for given in entry["inputs"][:10]:
            inputs += [p for p in perturbed(given) if p not in inputs]
        inputs = inputs[:60]
        first = behave(site, module, entry["qualname"], inputs, work)
        second = behave(site, module, entry["qualname"], inputs, work)
        if not first or not second:
            continue
        stable = [i for i, (a, b) in enumerate(zip(first, second)) if not a.get("refused") and same(a, b)
                  and a.get("outcome") != "timeout"]
        if not stable:
            continue
        with open(os.path.join(site, entry["file"]), encoding="utf-8") as handle:
            source = handle.read()
        # Every kind but the loop steps, interleaved; then up to four loop steps on top (the rarest
        # bugs and the only source of B1's timeouts: they should not wait their turn behind the rest).
        others = tuple(k for k in mutants.KINDS + mutants.MORE_KINDS if k != "flipped step")
        proposed = mutants.propose(source, entry["qualname"], f"{seed}:{key}", 10, others)
        proposed += mutants.propose(source, entry["qualname"], f"{seed}:{key}", 4, ("flipped step",))
        proposed = [dict(m, file=entry["file"]) for m in proposed] + callee_mutants(site, entry, f"{seed}:{key}", others)
        for mutant in proposed:
            copy = os.path.join(work, "mutant")
            shutil.rmtree(copy, ignore_errors=True)
            shutil.copytree(os.path.join(site, top), os.path.join(copy, top),
                            ignore=shutil.ignore_patterns("__pycache__"))
            path = os.path.join(copy, mutant["file"])
            with open(path, encoding="utf-8") as handle:
                lines = handle.read().splitlines(keepends=True)
            lines[mutant["line"] - 1] = lines[mutant["line"] - 1].replace(mutant["original"], mutant["replacement"])
            with open(path, "w", encoding="utf-8") as handle:
                handle.write("".join(lines))
            chosen = [inputs[i] for i in stable]
            buggy = behave(copy + os.pathsep + site, module, entry["qualname"], chosen, work)
            if not buggy:
                continue
            if all(b.get("refused") for b in buggy):
                continue  # the mutant does not import
            correct = [first[i] for i in stable]
            killing = [i for i, (b, c) in enumerate(zip(buggy, correct)) if not b.get("refused") and not same(b, c)]
            if not killing or len(killing) == len(chosen):
                continue  # no input tells them apart, or every one does (no example to show)
            agree = [i for i in range(len(chosen)) if i not in killing and not buggy[i].get("refused")]
            pick, semantic = hardest(copy + os.pathsep + site, module, entry["qualname"],
                                     [chosen[i] for i in killing[:KILLING_TRACED]], work)
            pick = killing[pick]
            found.append({"key": key, "file": entry["file"], "qualname": entry["qualname"],
                          "test_dir": entry["test_dir"], "test_file": entry["test_file"], "mutant": mutant,
                          "input": chosen[pick], "outcome": buggy[pick]["outcome"], "semantic": semantic,
                          "examples": [chosen[i] for i in agree[:3]]})
        log(f"{package}: {key}: {sum(1 for f in found if f['key'] == key)} bug(s)")
    return found


KILLING_TRACED = 12
"""A mutant's killing inputs whose buggy runs are traced to pick its reference (the first ones found)."""


def hardest(site: str, module: str, qualname: str, killing: list[str], work: str) -> tuple[int, float]:
    """Which killing input takes a reader furthest through the buggy version (the highest semantic complexity
    of its run, the traced kinds' measure; the first on ties), and that score (0 when none could be traced)."""
    scores = behave(site, module, qualname, killing, work, traced=True) or []
    ranked = [(score, -index) for index, score in enumerate(scores) if isinstance(score, int | float)]
    if not ranked:
        return 0, 0.0
    score, index = max(ranked)
    return -index, float(score)


def choose(found: list[dict], per_package: int, seed: int) -> list[dict]:
    """Up to `per_package` bugs, at most two per function, every timeout first, then crashes and oks interleaved;
    in each class the bugs whose reference runs are the most complex first (a path through several calls, a
    state built over iterations: `semantic`, measured by hardest()), ties broken by the seeded hash."""
    ordered = sorted(found, key=lambda f: (-f.get("semantic", 0.0),
                                           digest(seed, f["key"], json.dumps(f["mutant"], sort_keys=True))))
    by_class = {c: [f for f in ordered if f["outcome"] == c] for c in ("timeout", "crash", "ok")}
    chosen: list[dict] = []
    per_function: dict[str, int] = {}

    def take(bug: dict) -> None:
        if len(chosen) < per_package and per_function.get(bug["key"], 0) < 2:
            chosen.append(bug)
            per_function[bug["key"]] = per_function.get(bug["key"], 0) + 1

    for bug in by_class["timeout"]:
        take(bug)
    rest = [b for pair in zip(by_class["crash"], by_class["ok"]) for b in pair]
    rest += by_class["crash"][len(by_class["ok"]):] + by_class["ok"][len(by_class["crash"]):]
    for bug in rest:
        take(bug)
    return chosen


def instances_of(package: str, environment: str, bug: dict) -> list[dict]:
    out = []
    for kind, short in KINDS.items():
        ident = (f"{package}-{short}-{slug(bug['qualname'])}-"
                 f"{digest(kind, bug['file'], json.dumps(bug['mutant'], sort_keys=True))[:8]}")
        out.append({
            "dir": os.path.join(ROOT, "instances", package, bug["test_dir"]),
            "instance": {
                "id": ident, "kind": kind, "environment": environment, "tests": [bug["test_file"]],
                "target": {"file": bug["file"], "function": bug["qualname"]},
                "query": {"input": bug["input"], "examples": bug["examples"]},
                "timeout_seconds": 300,
                "mutant": {k: bug["mutant"][k] for k in ("file", "line", "original", "replacement", "description")},
            },
        })
    return out


def screen(package: str, found: list[dict], work: str) -> tuple[dict[str, dict], dict[str, str]]:
    """Harvests the candidates in a scratch copy of the suite; (kept id -> oracle answer, dropped id -> why)."""
    oracles, dropped, _said = harvest_candidates(package, found, work)
    kept = {ident: oracle["oracle_answer"] for ident, oracle in oracles.items()}
    for c in found:
        if c["instance"]["id"] not in kept:
            dropped.setdefault(c["instance"]["id"], "no oracle")
    return kept, dropped


def write(package: str, found: list[dict], kept: dict[str, dict]) -> int:
    for path in glob.glob(os.path.join(ROOT, "instances", package, "*", f"{package}-b[12]-*.instance.json")):
        os.unlink(path)
    written = 0
    for c in found:
        if c["instance"]["id"] not in kept:
            continue
        with open(os.path.join(c["dir"], c["instance"]["id"] + ".instance.json"), "w", encoding="utf-8") as out:
            json.dump(dict({"$schema": "../../instance.schema.json"}, **c["instance"]), out, indent=2)
            out.write("\n")
        written += 1
    return written


def fill_outcomes(packages: list[str], cache: str) -> int:
    """Each report's `b1_outcomes` (B1 id -> the buggy version's outcome) from a harvest of the bundle."""
    found: dict[str, str] = {}
    for path in glob.glob(os.path.join(cache, "oracles", "*", "oracle.json")):
        with open(path, encoding="utf-8") as handle:
            oracle = json.load(handle)
        if oracle["question_kind"] == "B1_BuggyIO":
            found[oracle["meta"]["instance_id"]] = oracle["oracle_answer"]["outcome"]
    for package in packages:
        path = os.path.join(ROOT, "benchmark", "comet", f"{package}.json")
        if not os.path.isfile(path):
            continue
        with open(path, encoding="utf-8") as handle:
            report = json.load(handle)
        ids = sorted(os.path.basename(f).removesuffix(".instance.json") for f in
                     glob.glob(os.path.join(ROOT, "instances", package, "*", f"{package}-b1-*.instance.json")))
        missing = [i for i in ids if i not in found]
        if missing:
            raise SystemExit(f"{cache} has no B1 oracle of {missing[0]} (and {len(missing) - 1} more): harvest "
                             "the bundle's B1 instances into it first")
        report["b1_outcomes"] = {i: found[i] for i in ids}
        with open(path, "w", encoding="utf-8") as handle:
            json.dump(report, handle, indent=2, sort_keys=True)
            handle.write("\n")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("packages", nargs="*", default=DEFAULT_PACKAGES)
    parser.add_argument("--per-package", type=int, default=24)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-screen", action="store_true", help="write the candidates without harvesting them")
    parser.add_argument("--outcomes-from", metavar="CACHE",
                        help="only fill each report's b1_outcomes from a harvest cache of the bundle's B1 instances")
    args = parser.parse_args()
    if args.outcomes_from:
        return fill_outcomes(args.packages, args.outcomes_from)
    work = tempfile.mkdtemp(prefix="tracegate-comet-")

    def log(message: str) -> None:
        print(message, file=sys.stderr, flush=True)

    os.makedirs(os.path.join(ROOT, "benchmark", "comet"), exist_ok=True)
    for package in args.packages:
        site, environment = site_of(package, work)
        top = top_of(package, site)
        dirs = sorted(d for d in glob.glob(os.path.join(ROOT, "instances", package, "test_*"))
                      if not d.endswith("_workloads"))
        out = os.path.join(work, f"{package}-captured.json")
        # No plugin of the host's Python (pytest-benchmark wrote `.benchmarks/` into the instance directories):
        # the tests run with pytest alone, as they do in the environment's image.
        env = dict(os.environ, PYTHONPATH=site, PYTHONHASHSEED="0", PYTHONDONTWRITEBYTECODE="1",
                   PYTEST_DISABLE_PLUGIN_AUTOLOAD="1")
        subprocess.run([sys.executable, os.path.join(HERE, "capture.py"), out, top, *dirs], env=env,
                       capture_output=True, check=False, timeout=1800)
        with open(out, encoding="utf-8") as handle:
            captured = json.load(handle)
        log(f"{package}: {len(captured)} function(s) called with literal arguments")
        found = bugs_of(package, site, top, captured, args.seed, work, log)
        chosen = choose(found, args.per_package, args.seed)
        candidates = [c for bug in chosen for c in instances_of(package, environment, bug)]
        if args.no_screen:
            kept, dropped = {c["instance"]["id"]: {} for c in candidates}, {}
        else:
            kept, dropped = screen(package, candidates, os.path.join(work, package))
        written = write(package, candidates, kept)
        classes = {c: sum(1 for b in chosen if b["outcome"] == c) for c in ("ok", "crash", "timeout")}
        outcomes = {ident: answer.get("outcome") for ident, answer in sorted(kept.items())
                    if isinstance(answer, dict) and "outcome" in answer}
        report = {"schema": "tracegate/generate-comet-report@1", "package": package, "seed": args.seed,
                  "functions": len(captured), "bugs_found": len(found), "bugs_chosen": len(chosen),
                  "classes": classes, "candidates": len(candidates), "written": written,
                  "b1_outcomes": outcomes,
                  "dropped": dict(sorted(dropped.items()))}
        with open(os.path.join(ROOT, "benchmark", "comet", f"{package}.json"), "w", encoding="utf-8") as handle:
            json.dump(report, handle, indent=2, sort_keys=True)
            handle.write("\n")
        log(f"{package}: {len(found)} bugs found, {len(chosen)} chosen {classes}, {written} of "
            f"{len(candidates)} instances written")
    shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
