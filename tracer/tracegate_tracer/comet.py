"""Comet's program-state kinds: a reply run against the buggy and the correct version, in the sandbox.

B1_BuggyIO and B2_RegressionTest ask about a function with a seeded mutant (a
hidden correct version exists). Their answers are not read off a trace: the
reply itself is run, once against each version, and the host scores what
happened (src/stages/score/comet.ts). The same run gives the harvest its
oracle: the instance's reference input (`query.input`, the input that killed
the mutant when the instance was made) must expose the mutant here too.

* B1: the reply's input (data: JSON or Python literals, never code) is given
  to the function in a fresh process per version (tracer/boot/tracegate_comet_call.py):
  `ok` with the return value's repr and the standard output, `crash` with the
  exception class, or `timeout` past CALL_SECONDS.
* B2: the reply's pytest file runs in a fresh pytest process per version, and
  again against a respelling of each (respell(): renamed locals, the module
  reformatted) whose file shows the *other* version's text while the
  interpreter runs its own (an unchecked hash-based .pyc): a test that reads
  source text or file bytes instead of behaviour gets different verdicts there.

Where the versions live (Versions): the package's own directory must be a
mount of its own (the Docker backend puts an anonymous volume there: a copy
of the image's package, writable by the driver only). The driver keeps both
versions in a directory only root can read, and installs one at a time at
the package's place before each run, with only its own byte-code (compiled
once per version, checked against the source's hash at each import, so no
other version's .pyc can be run); the reply's code
runs as the group's uid with no capabilities, so during a buggy run nothing
it can read holds the correct version. Without that mount (the local
backend) verification is refused, never run with the correct version lying
about. Every run is bounded (RLIMITS: address space, processes, file size; a
wall-clock limit), its processes killed and its files scrubbed before the
next, so state cannot pass from one version's run to the other's.
"""

from __future__ import annotations

import ast
import compileall
import hashlib
import importlib.util
import json
import os
import py_compile
import re
import resource
import shutil
import stat
import sys
from collections.abc import Callable, Collection
from typing import Any

from . import pytest_run, queries
from .linemap import find_function, module_name
from .sandbox import Sandbox

COMET_KINDS = ("B1_BuggyIO", "B2_RegressionTest")


def _bound(name: str, default: float) -> float:
    """A bound as TRACEGATE_COMET_BOUNDS sets it (a JSON object in the driver's environment, never forwarded into
    a container: the tracer's tests scale the bounds to stand in for a much faster or slower machine), else
    `default`. The rule that judges a run does not depend on them (docs/comet.md, "Bounds")."""
    try:
        value = json.loads(os.environ.get("TRACEGATE_COMET_BOUNDS") or "{}").get(name)
    except (ValueError, AttributeError):
        value = None
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) and value > 0 else default


CALL_SECONDS = _bound("call_seconds", 2.0)
"""A B1 call that runs longer is a `timeout` (the function's own time: the import is not counted)."""
CALL_PROCESS_SECONDS = _bound("call_process_seconds", 15.0)
"""A B1 process, import included: past this it is killed (a call stuck where the alarm cannot reach)."""
TEST_SECONDS = _bound("test_seconds", 20.0)
"""A B2 pytest run past this is stopped: a `fail` once a test has started, an `error` before."""
REFERENCE_SECONDS = int(_bound("reference_seconds", 5))
"""A reference test stops its call after this long (a buggy version that hangs fails it)."""
MEMORY_BYTES = int(_bound("memory_bytes", 1 << 30))
"""Address space of each run: an allocation past it is a MemoryError inside the run. Which of this bound and a
time bound a runaway reaches first depends on the machine's speed, so a run is judged the same either way: B1's
call is a `timeout` (tracegate_comet_call.py), B2's test a `fail` (judge_test_run)."""
PROCESSES = 64
"""Processes (and threads) the run's uid may have at once: a fork bomb stops here."""
FILE_BYTES = 64 << 20
"""Largest file a run may write."""
CAP = 4096
"""Characters of a return value's repr and of standard output kept (a longer one keeps its head, length and
digest, so two different long values still differ)."""
MAX_INPUT_CHARS = 65536
MAX_TEST_CHARS = 262144


class Refused(ValueError):
    """The instance cannot be verified here (its reason is the result's)."""


def is_comet(kind: object) -> bool:
    return kind in COMET_KINDS


# -- the versions -------------------------------------------------------------


def _copy(source: str, dest: str) -> None:
    shutil.copytree(source, dest, symlinks=False, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))


def _compiled(root: str) -> None:
    """Byte-code beside every module of a version, written once and checked against its source's hash at each
    import (CHECKED_HASH: a .pyc never stands in for other text), so that the runs of a bug (six, each a fresh
    process) do not each compile the package from source again."""
    compileall.compile_dir(root, quiet=2, invalidation_mode=py_compile.PycInvalidationMode.CHECKED_HASH)


_PRISTINE: dict[str, str] = {}
"""The correct version of each package (its place -> a copy), copied and compiled once per driver: each bug of
the package starts from this copy instead of copying and compiling the whole package again."""


def _pristine(place: str, work_dir: str) -> str:
    """The compiled copy of the package at `place`, made at the first bug of a driver (the place then holds the
    correct version, as every Versions.close leaves it), in a folder only the driver can read."""
    found = _PRISTINE.get(place)
    if found is not None and os.path.isdir(found):
        return found
    folder = os.path.join(work_dir, "comet-pristine")
    os.makedirs(folder, mode=0o700, exist_ok=True)
    os.chmod(folder, 0o700)  # the correct version is never readable to a run
    dest = os.path.join(folder, hashlib.sha256(place.encode()).hexdigest()[:16])
    shutil.rmtree(dest, ignore_errors=True)
    _copy(place, dest)
    _compiled(dest)
    _PRISTINE[place] = dest
    return dest


def _public(root: str) -> None:
    for directory, _dirs, files in os.walk(root):
        os.chmod(directory, 0o755)
        for name in files:
            os.chmod(os.path.join(directory, name), 0o644)


class Versions:
    """The buggy and correct versions of the mutated package (and their respellings), one installed at a time."""

    def __init__(self, mutant: dict[str, Any], store: str, unmasked_ok: bool = False) -> None:
        rel = str(mutant.get("file", "")).replace("\\", "/").lstrip("/")
        parts = rel.split("/")
        if len(parts) < 2 or ".." in parts or not rel.endswith(".py") or not parts[0].isidentifier():
            raise Refused(f"mutant file must be a .py file inside a package, got {mutant.get('file')!r}")
        self.top, self.inner = parts[0], "/".join(parts[1:])
        spec = importlib.util.find_spec(self.top)
        if spec is None or not spec.submodule_search_locations:
            raise Refused(f"package {self.top} is not installed as a package in this environment")
        self.place = os.path.realpath(list(spec.submodule_search_locations)[0])
        self.root = os.path.dirname(self.place)
        if not unmasked_ok and not os.path.ismount(self.place):
            raise Refused(f"{self.place} is not a mount of its own, so the correct version would stay readable "
                          "to the reply's code: B1/B2 are verified only in the Docker backend")
        self.mutant = mutant
        self.rel = rel
        self.store = store
        shutil.rmtree(store, ignore_errors=True)
        os.makedirs(store, mode=0o700)
        os.chmod(store, 0o700)
        shutil.copytree(_pristine(self.place, os.path.dirname(store)), self.path("correct"), symlinks=False)
        self.correct_text = self._read("correct")
        self.buggy_text = apply_mutant(self.correct_text, mutant, rel)
        shutil.copytree(self.path("correct"), self.path("buggy"), symlinks=False)
        self._write("buggy", self.buggy_text)
        source = os.path.join(self.path("buggy"), self.inner)
        try:  # the mutated module's byte-code; the rest is the correct version's
            py_compile.compile(source, cfile=importlib.util.cache_from_source(source), doraise=True,
                               invalidation_mode=py_compile.PycInvalidationMode.CHECKED_HASH)
        except py_compile.PyCompileError:
            pass  # its import compiles it from source and fails there, as a fresh process's would
        self.installed: str | None = None

    def path(self, name: str) -> str:
        return os.path.join(self.store, name)

    def _read(self, name: str) -> str:
        with open(os.path.join(self.path(name), self.inner), encoding="utf-8") as handle:
            return handle.read()

    def _write(self, name: str, text: str) -> None:
        with open(os.path.join(self.path(name), self.inner), "w", encoding="utf-8") as handle:
            handle.write(text)

    def respelled(self, qualname: str) -> None:
        """Prepares `buggy_respelled` and `correct_respelled`: each runs the respelling of its version and shows
        the respelling of the other's text (an unchecked hash-based .pyc beside the other's source)."""
        texts = {"buggy": respell(self.buggy_text, qualname), "correct": respell(self.correct_text, qualname)}
        other = {"buggy": "correct", "correct": "buggy"}
        for name, text in texts.items():
            dest = self.path(f"{name}_respelled")
            shutil.rmtree(dest, ignore_errors=True)
            shutil.copytree(self.path("correct"), dest, symlinks=False)  # its byte-code too (_compiled)
            source = os.path.join(dest, self.inner)
            with open(source, "w", encoding="utf-8") as handle:
                handle.write(text)
            cache = importlib.util.cache_from_source(source)
            py_compile.compile(source, cfile=cache, doraise=True,
                               invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
            with open(source, "w", encoding="utf-8") as handle:
                handle.write(texts[other[name]])

    def install(self, name: str) -> None:
        """Puts version `name` at the package's place (and nothing else: no other version, no stale .pyc)."""
        for entry in os.listdir(self.place):
            path = os.path.join(self.place, entry)
            if os.path.isdir(path) and not os.path.islink(path):
                shutil.rmtree(path)
            else:
                os.unlink(path)
        source = self.path(name)
        for entry in os.listdir(source):
            src, dst = os.path.join(source, entry), os.path.join(self.place, entry)
            if os.path.isdir(src):
                shutil.copytree(src, dst, symlinks=False)
            else:
                shutil.copy2(src, dst)
        _public(self.place)
        self.installed = name

    def close(self) -> None:
        """The correct version back in place (the container's volume goes with it; a host test's package stays)."""
        if self.installed not in (None, "correct"):
            self.install("correct")
        shutil.rmtree(self.store, ignore_errors=True)


def apply_mutant(text: str, mutant: dict[str, Any], rel: str) -> str:
    lines = text.splitlines(keepends=True)
    line, original, replacement = mutant.get("line"), mutant.get("original"), mutant.get("replacement")
    if isinstance(line, bool) or not isinstance(line, int) or not isinstance(original, str) or not original \
            or not isinstance(replacement, str):
        raise Refused("mutant must be {file, line, original, replacement}")
    if not 1 <= line <= len(lines) or lines[line - 1].count(original) != 1:
        raise Refused(f"mutant does not apply: line {line} of {rel} does not contain {original!r} exactly once "
                      "(the package changed?)")
    lines[line - 1] = lines[line - 1].replace(original, replacement)
    return "".join(lines)


# -- the respelling -------------------------------------------------------------


class _Renamer(ast.NodeTransformer):
    def __init__(self, names: dict[str, str]) -> None:
        self.names = names

    def visit_Name(self, node: ast.Name) -> ast.Name:
        if node.id in self.names:
            node.id = self.names[node.id]
        return node


def _renamable(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> list[str]:
    """Locals of `fn` that can be renamed without changing what it does: assigned plainly in its own body, not a
    parameter, not declared global or nonlocal, and not bound again by a nested scope; none at all when the
    function can see its own names (locals(), vars(), eval, exec, an f-string's `=`)."""
    params = {a.arg for a in fn.args.posonlyargs + fn.args.args + fn.args.kwonlyargs}
    params |= {a.arg for a in (fn.args.vararg, fn.args.kwarg) if a is not None}
    declared: set[str] = set()
    stored: set[str] = set()
    nested_bound: set[str] = set()
    for node in ast.walk(fn):
        if isinstance(node, (ast.Global, ast.Nonlocal)):
            declared.update(node.names)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
                node.func.id in ("locals", "vars", "eval", "exec", "dir"):
            return []
        elif isinstance(node, ast.JoinedStr):
            return []  # `f"{x=}"` prints the name
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)) and node is not fn:
            for inner in ast.walk(node):
                if isinstance(inner, ast.arg):
                    nested_bound.add(inner.arg)
                elif isinstance(inner, ast.Name) and isinstance(inner.ctx, ast.Store):
                    nested_bound.add(inner.id)
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                nested_bound.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            stored.add(node.id)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            nested_bound.update((alias.asname or alias.name).split(".")[0] for alias in node.names)
    return sorted(stored - params - declared - nested_bound)


def respell(source: str, qualname: str) -> str:
    """The same module spelled otherwise: the target's plain locals renamed (`_tg_v1`, …, in sorted order) and
    every statement re-rendered (`ast.unparse`: comments gone, spacing, quotes and parentheses its own)."""
    tree = ast.parse(source)
    fn = find_function(tree, qualname)
    if fn is not None:
        names = {name: f"_tg_v{i}" for i, name in enumerate(_renamable(fn), start=1)}
        if names:
            taken = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
            if not taken & set(names.values()):
                for statement in fn.body:
                    _Renamer(names).visit(statement)
    text = ast.unparse(ast.fix_missing_locations(tree)) + "\n"
    compile(text, "<respelled>", "exec")
    return text


# -- one run ---------------------------------------------------------------------


RLIMITS = ((resource.RLIMIT_AS, MEMORY_BYTES, MEMORY_BYTES), (resource.RLIMIT_NPROC, PROCESSES, PROCESSES),
           (resource.RLIMIT_FSIZE, FILE_BYTES, FILE_BYTES), (resource.RLIMIT_CORE, 0, 0))
"""Each run's bounds, set in the child after it became the group's uid."""


class _Bounded:
    """The group's sandbox with each child's limits and a clean environment (nothing of the driver's)."""

    def __init__(self, sandbox: Sandbox) -> None:
        self.sandbox = sandbox

    def popen_options(self) -> dict[str, Any]:
        return self.sandbox.popen_options()

    def rlimits(self) -> tuple[tuple[int, int, int], ...]:
        return RLIMITS

    def environment(self, env: dict[str, str]) -> dict[str, str]:
        return self.sandbox.environment(env)

    def kill_processes(self, child: Any) -> int:
        return self.sandbox.kill_processes(child)


def _fresh(config: dict[str, Any], fresh: Collection[str]) -> set[str]:
    """What a call's process must import itself: the package asked for, and the called module's top."""
    return set(fresh) | {str(config.get("module", "")).split(".")[0]}


def _clean_env(root: str) -> dict[str, str]:
    """Nothing of the driver's environment: the path, the package's root (already on sys.path in an environment
    image; a host test's package is not), stable hashes, no bytecode written."""
    return {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8", "PYTHONHASHSEED": "0",
            "PYTHONDONTWRITEBYTECODE": "1", "PYTHONIOENCODING": "utf-8", "PYTHONPATH": root}


def _between(sandbox: Sandbox) -> None:
    """What one run left (its files anywhere, IPC objects, temp dir) gone before the next."""
    sandbox.cleanup()
    sandbox.prepare()


def call_once(config: dict[str, Any], root: str, sandbox: Sandbox, tracer_root: str,
              fresh: Collection[str] = ()) -> dict[str, Any]:
    """One B1 call in a fresh process: {outcome, return, stdout, exception, seconds} or {refused}. `fresh`:
    the mutated package (a warm start's server must not have imported it: pytest_run.run_command)."""
    out = sandbox.path("call-result.json")
    path = sandbox.write_private("call.json", json.dumps(dict(config, out=out, cap=CAP, call_seconds=CALL_SECONDS)))
    runner = os.path.join(tracer_root, "boot", "tracegate_comet_call.py")
    command = [sys.executable, "-P", "-s", runner, path]
    run = pytest_run.run_command(command, sandbox.tmp, _clean_env(root), CALL_PROCESS_SECONDS, _Bounded(sandbox),
                                 fresh=_fresh(config, fresh))
    found: dict[str, Any] = {"seconds": run.seconds}
    if run.timed_out:
        found.update(outcome="timeout")
    else:
        try:
            with open(out, encoding="utf-8") as handle:
                written = json.load(handle)
        except (OSError, ValueError):
            written = None
        if isinstance(written, dict) and run.exit_code == 0 and (
                written.get("refused") or written.get("outcome") in ("ok", "crash", "timeout")):
            found.update({k: v for k, v in written.items() if k in ("outcome", "return", "stdout", "exception",
                                                                    "message", "refused")})
        elif isinstance(run.exit_code, int) and run.exit_code < 0:
            import signal

            found.update(outcome="crash", exception=signal.Signals(-run.exit_code).name,
                         message="the process was killed by a signal")
        else:
            found.update(outcome="crash", exception="SystemExit",
                         message=f"the process ended (exit {run.exit_code}) before the call returned")
    _between(sandbox)
    return found


B2_PLUGIN = "tracegate_b2_plugin"
"""tracer/boot/b2/: tells the driver how far a B2 run got (a test started, a MemoryError, pytest's status)."""


def run_test_file(test_text: str, root: str, sandbox: Sandbox, tracer_root: str,
                  fresh: Collection[str] = ()) -> dict[str, Any]:
    """One B2 run of the reply's test file in a fresh pytest process: {verdict, exit_code, seconds, reason?}."""
    folder = sandbox.path("regression")
    os.mkdir(folder, 0o700)
    if sandbox.uid is not None:
        os.chown(folder, sandbox.uid, sandbox.uid)
    name = os.path.join(folder, "test_regression.py")
    fd = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(test_text)
    progress = os.path.join(folder, ".tracegate-progress")
    env = dict(_clean_env(root), TRACEGATE_B2_PROGRESS=progress)
    env["PYTHONPATH"] = os.pathsep.join([env["PYTHONPATH"], os.path.join(tracer_root, "boot", "b2")])
    command = [sys.executable, "-P", "-s", "-m", "pytest", "-q", "-rfE", "-p", "no:cacheprovider",
               "-p", B2_PLUGIN, "-o", "addopts=", "test_regression.py"]
    run = pytest_run.run_command(command, folder, env, TEST_SECONDS, _Bounded(sandbox), fresh=fresh)
    found = judge_test_run(run.exit_code, run.timed_out, _progress(progress), run.problem)
    found.update(exit_code=run.exit_code, seconds=run.seconds)
    _between(sandbox)
    return found


def _progress(path: str) -> list[str]:
    """The plugin's lines (a few bytes each), read without following a link the test may have put there."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return []
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return []
        data = os.read(fd, 4096)
    finally:
        os.close(fd)
    return data.decode("ascii", "replace").split()[:64] if data else []


def judge_test_run(exit_code: int | None, timed_out: bool, progress: list[str],
                   problem: Callable[[], str | None] = lambda: None) -> dict[str, Any]:
    """A B2 run's verdict by one rule, whichever bound a runaway reaches first and wherever the exhaustion
    surfaces (docs/comet.md, "Bounds"):

    * `pass` — pytest's own verdict was that every test passed (its session ended with status 0, and so did
      the process);
    * `fail` — a test started and the run did not pass: a test failed, or the run ended otherwise once tests
      were running (out of memory, past TEST_SECONDS, killed, the interpreter crashed);
    * `error` — no test started: the file did not collect, held no test, or the run ended before a test began.

    `progress` is what tracegate_b2_plugin wrote (`start`, `memory`, `finish N`)."""
    import signal

    started = "start" in progress
    statuses = [progress[i + 1] for i, word in enumerate(progress[:-1]) if word == "finish"]
    finished = int(statuses[-1]) if statuses and statuses[-1].lstrip("-").isdigit() else None
    if not timed_out and exit_code == 0 and finished == 0:
        return {"verdict": "pass"}
    if timed_out:
        why = f"the test ran past {TEST_SECONDS:g}s"
    elif "memory" in progress:
        why = f"the test ran out of memory (MemoryError past the run's {MEMORY_BYTES >> 20} MiB)"
    elif isinstance(exit_code, int) and exit_code < 0:
        why = f"the test process was killed by {signal.Signals(-exit_code).name}"
    elif finished is None or finished != exit_code:
        why = f"the test process ended (exit {exit_code}) without pytest's verdict"
    else:
        why = None
    if started:
        return {"verdict": "fail", **({"reason": why[:300]} if why else {})}
    if why is None or finished is not None:
        why = problem() or f"pytest exit {exit_code}"
    return {"verdict": "error", "reason": f"no test started: {why}"[:300]}


# -- a spec ---------------------------------------------------------------------


def _target(target: Any) -> tuple[str, str]:
    if not isinstance(target, dict) or not isinstance(target.get("file"), str) \
            or not isinstance(target.get("function"), str):
        raise Refused("target must be {file, function}")
    return module_name(target["file"]), target["function"]


def verify(kind: str, target: Any, mutant: Any, reply: Any, sandbox: Sandbox, tracer_root: str,
           unmasked_ok: bool = False, versions: Versions | None = None) -> dict[str, Any]:
    """What the reply does against each version: the `verification` of the result line. With `versions`
    (a harvest's, shared by one bug's specs) they are used and left open; else made here and closed."""
    if not isinstance(mutant, dict):
        raise Refused("B1/B2 need the instance's mutant")
    module, qualname = _target(target)
    if not isinstance(reply, dict):
        raise Refused("the reply to verify must be an object")
    own = versions is None
    if versions is None:
        versions = Versions(mutant, os.path.join(sandbox.work_dir, f"comet-{sandbox.index}"), unmasked_ok)
    try:
        if kind == "B1_BuggyIO":
            given = reply.get("input")
            if len(json.dumps(given)) > MAX_INPUT_CHARS:
                return {"kind": kind, "refused": f"the input is over {MAX_INPUT_CHARS} characters"}
            runs = {}
            for name in ("buggy", "correct"):
                versions.install(name)
                runs[name] = call_once({"module": module, "qualname": qualname, "input": given},
                                       versions.root, sandbox, tracer_root, {versions.top})
                if runs[name].get("refused"):
                    return {"kind": kind, "refused": runs[name]["refused"]}
            return {"kind": kind, "runs": runs}
        test = reply.get("test")
        if not isinstance(test, str) or not test.strip():
            return {"kind": kind, "refused": "the reply has no test file"}
        if len(test) > MAX_TEST_CHARS:
            return {"kind": kind, "refused": f"the test file is over {MAX_TEST_CHARS} characters"}
        runs = {}
        for name in ("buggy", "correct"):
            versions.install(name)
            runs[name] = run_test_file(test, versions.root, sandbox, tracer_root, {versions.top})
        if runs["buggy"]["verdict"] == "fail" and runs["correct"]["verdict"] == "pass":
            # Only a test that tells the versions apart is run against their respellings.
            versions.respelled(qualname)
            for name in ("buggy_respelled", "correct_respelled"):
                versions.install(name)
                runs[name] = run_test_file(test, versions.root, sandbox, tracer_root, {versions.top})
        return {"kind": kind, "runs": runs}
    finally:
        if own:
            versions.close()


def exposes(verification: dict[str, Any]) -> bool:
    """B1: the two versions behave differently on the input (outcome, return value, output or exception)."""
    runs = verification.get("runs") or {}
    keys = ("outcome", "return", "stdout", "exception")
    buggy, correct = runs.get("buggy") or {}, runs.get("correct") or {}
    return bool(buggy and correct) and any(buggy.get(k) != correct.get(k) for k in keys)


def fail_to_pass(verification: dict[str, Any]) -> bool:
    runs = verification.get("runs") or {}
    verdict = {name: (run or {}).get("verdict") for name, run in runs.items()}
    return verdict.get("buggy") == "fail" and verdict.get("correct") == "pass" \
        and verdict.get("buggy_respelled") == "fail" and verdict.get("correct_respelled") == "pass"


IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def reference_test(module: str, qualname: str, reply_input: Any, correct: dict[str, Any]) -> str:
    """A fail-to-pass test from a killing input and the correct version's behaviour on it (B2's reference): the
    call (stopped after REFERENCE_SECONDS, so a buggy version that hangs fails it; the alarm is cancelled as the
    call ends, so it never fires in pytest's own work after the test) must behave as the correct version did."""
    head = qualname.split(".")[0]
    rest = qualname[len(head):]
    if isinstance(reply_input, str):
        call = [f"    return {head}{rest}({reply_input})"]
    else:
        call = [f"    given = json.loads({json.dumps(reply_input)!r})",
                "    if isinstance(given, list):",
                "        given = {'args': given, 'kwargs': {}}",
                f"    return {head}{rest}(*given.get('args', []), **given.get('kwargs', {{}}))"]
    lines = ["import contextlib", "import io", "import json", "import re", "import signal", "",
             f"from {module} import {head}", "", "",
             "def _stop(signum, frame):", f"    raise TimeoutError('over {REFERENCE_SECONDS:g}s')", "", "",
             "def _target():", *call, "", "",
             "def _call():", "    signal.signal(signal.SIGALRM, _stop)", f"    signal.alarm({REFERENCE_SECONDS})",
             "    try:", "        return _target()", "    finally:", "        signal.alarm(0)", "", "",
             "def _shown(text):", "    return re.sub(r' at 0x[0-9a-fA-F]+', ' at 0x…', text)", "", "",
             "def test_regression():", "    out = io.StringIO()"]
    if correct.get("outcome") == "crash":
        name = str(correct.get("exception"))
        lines += ["    try:", "        with contextlib.redirect_stdout(out):", "            _call()",
                  "    except TimeoutError:", "        raise",
                  "    except BaseException as exc:", "        kind = type(exc)",
                  "        found = kind.__name__ if kind.__module__ == 'builtins' else "
                  "f'{kind.__module__}.{kind.__qualname__}'",
                  f"        assert found == {name!r}", "    else:",
                  f"        raise AssertionError({'expected ' + name!r})"]
    else:
        lines += ["    with contextlib.redirect_stdout(out):", "        value = _call()",
                  f"    assert _shown(repr(value)) == {correct.get('return')!r}",
                  f"    assert _shown(out.getvalue()) == {correct.get('stdout')!r}"]
    return "\n".join(lines) + "\n"


def call_batch(config: dict[str, Any], root: str, sandbox: Sandbox, tracer_root: str,
               fresh: Collection[str] = ()) -> tuple[dict[str, Any] | None, list[dict[str, Any]]]:
    """Several calls in one fresh process (the prompt's examples: they describe, they are not verified), after
    `config["first"]` if given (the reference input: called in a child forked after the import, the state a
    fresh process's call meets, so the harvest's reference costs no process of its own). (first's result,
    or None when it was not called or the import started threads — then it needs call_once; the calls')."""
    out = sandbox.path("calls-result.json")
    count = len(config["inputs"])
    first = "first" in config
    config = dict(config, out=out, cap=CAP, call_seconds=CALL_SECONDS, first_seconds=CALL_PROCESS_SECONDS)
    path = sandbox.write_private("calls.json", json.dumps(config))
    runner = os.path.join(tracer_root, "boot", "tracegate_comet_call.py")
    run = pytest_run.run_command([sys.executable, "-P", "-s", runner, path], sandbox.tmp, _clean_env(root),
                                 CALL_PROCESS_SECONDS * (1 + first) + CALL_SECONDS * count, _Bounded(sandbox),
                                 fresh=_fresh(config, fresh))
    try:
        with open(out, encoding="utf-8") as handle:
            written = json.load(handle)
    except (OSError, ValueError):
        written = None
    _between(sandbox)
    if first and isinstance(written, dict):
        called, written = written.get("first"), written.get("calls")
        if not isinstance(called, dict | None):
            written = None
    else:
        called = None
    if run.timed_out or run.exit_code != 0 or not isinstance(written, list) or len(written) != count:
        raise Refused(f"the example calls did not run (exit {run.exit_code}{', timed out' if run.timed_out else ''})")
    return called, written


def _reference_calls(given: Any, inputs: list[Any], module: str, qualname: str, versions: Versions,
                     sandbox: Sandbox, tracer_root: str) -> tuple[dict[str, Any], dict[str, list[dict[str, Any]]]]:
    """The reference input's B1 verification (as verify() makes it; `seconds` the call's, without the import)
    and what each version does on the prompt's examples (None: they did not run): one process per version,
    the reference called first in a forked child (call_batch), in a process of its own only when it could
    not be."""
    if len(json.dumps(given)) > MAX_INPUT_CHARS:
        raise Refused(f"the reference input cannot run: the input is over {MAX_INPUT_CHARS} characters")
    runs: dict[str, Any] = {}
    seen: dict[str, Any] = {}
    for name in ("buggy", "correct"):
        versions.install(name)
        config = {"module": module, "qualname": qualname, "inputs": inputs, "first": given}
        try:
            called, seen[name] = call_batch(config, versions.root, sandbox, tracer_root, {versions.top})
        except Refused:
            called, seen[name] = None, None
        if called is None:
            runs[name] = call_once({"module": module, "qualname": qualname, "input": given}, versions.root,
                                   sandbox, tracer_root, {versions.top})
        else:
            runs[name] = {"seconds": called.get("seconds"), **{k: v for k, v in called.items() if k != "seconds"}}
        if runs[name].get("refused"):
            raise Refused(f"the reference input cannot run: {runs[name]['refused']}")
    return {"kind": "B1_BuggyIO", "runs": runs}, seen


def _examples(inputs: list[Any], seen: dict[str, Any]) -> list[dict[str, Any]]:
    """The prompt's example calls with what the buggy version does; each must not expose the mutant."""
    if not inputs:
        return []
    if not isinstance(seen.get("buggy"), list) or not isinstance(seen.get("correct"), list):
        raise Refused("the example calls did not run")
    examples = []
    for given, buggy, correct in zip(inputs, seen["buggy"], seen["correct"], strict=True):
        if buggy.get("refused") or correct.get("refused"):
            why = buggy.get("refused") or correct.get("refused")
            raise Refused(f"example {json.dumps(given)[:80]} cannot run: {why}")
        if exposes({"runs": {"buggy": buggy, "correct": correct}}):
            raise Refused(f"example {json.dumps(given)[:80]} exposes the mutant: not an example")
        examples.append({"input": given, **{k: buggy[k] for k in ("outcome", "return", "stdout", "exception")
                                            if k in buggy}})
    return examples


def harvest(specs: list[dict[str, Any]], results: list[dict[str, Any]], sandbox: Sandbox,
            tracer_root: str) -> list[dict[str, Any]]:
    """B1/B2 instances of one bug (the same target, mutant and query: group.py runs them together): the
    reference input verified once (it must still expose the mutant), the prompt's context once (the buggy
    function, example calls on which both versions agree), then each spec's gold: B1 the buggy version's
    behaviour on the reference input, B2 a fail-to-pass test built from it (verified too)."""
    first = specs[0]
    try:
        if not isinstance(first.get("mutant"), dict):
            raise Refused("B1/B2 need the instance's mutant")
        # One copy of both versions for the group: every spec of the bug uses it.
        versions = Versions(first["mutant"], os.path.join(sandbox.work_dir, f"comet-{sandbox.index}"),
                            bool(first.get("unmasked_for_tests")))
    except Refused as exc:
        return [dict(result, status="invalid", reason=str(exc)) for result in results]
    try:
        try:
            shared = _reference(first, versions, sandbox, tracer_root)
        except Refused as exc:
            return [dict(result, status="invalid", reason=str(exc)) for result in results]
        out = []
        for spec, result in zip(specs, results, strict=True):
            try:
                out.append(_gold(spec, result, shared, versions, sandbox, tracer_root))
            except Refused as exc:
                out.append(dict(result, status="invalid", reason=str(exc)))
        return out
    finally:
        versions.close()


def _reference(spec: dict[str, Any], versions: Versions, sandbox: Sandbox, tracer_root: str) -> dict[str, Any]:
    """What every spec of one bug shares: the reference input's verification and the prompt's context."""
    from .locate import Target, TargetNotFound

    query, mutant = spec.get("query") or {}, spec.get("mutant")
    module, qualname = _target(spec.get("target"))
    unmasked = bool(spec.get("unmasked_for_tests"))
    if "input" not in query:
        raise Refused("B1/B2 instances need `query.input`: the input that exposes the mutant")
    if not isinstance(mutant, dict):
        raise Refused("B1/B2 need the instance's mutant")
    inputs = list(query.get("examples") or [])
    b1, seen = _reference_calls(query["input"], inputs, module, qualname, versions, sandbox, tracer_root)
    if not exposes(b1):
        raise Refused("the reference input does not expose the mutant here (both versions behave the same)")
    if b1["runs"]["correct"].get("outcome") == "timeout":
        raise Refused("the correct version times out on the reference input")
    examples = _examples(inputs, seen)
    versions.install("buggy")
    try:
        located = Target(spec["target"]["file"], qualname, [versions.root])
    except (TargetNotFound, SyntaxError, OSError) as exc:
        raise Refused(str(exc) or type(exc).__name__) from None
    return {"b1": b1, "context": dict(located.context, calls=examples), "module": module, "qualname": qualname,
            "unmasked": unmasked}


def _gold(spec: dict[str, Any], result: dict[str, Any], shared: dict[str, Any], versions: Versions,
          sandbox: Sandbox, tracer_root: str) -> dict[str, Any]:
    kind, query = spec.get("kind"), spec.get("query") or {}
    b1 = shared["b1"]
    buggy, correct = b1["runs"]["buggy"], b1["runs"]["correct"]
    measured: dict[str, Any] = {"input": query["input"], "buggy": buggy, "test": None}
    verification = b1
    if kind == "B2_RegressionTest":
        measured["test"] = reference_test(shared["module"], shared["qualname"], query["input"], correct)
        verification = verify(kind, spec["target"], spec.get("mutant"), {"test": measured["test"]}, sandbox,
                              tracer_root, shared["unmasked"], versions)
        if not fail_to_pass(verification):
            runs = {k: v.get("verdict") for k, v in (verification.get("runs") or {}).items()}
            raise Refused(f"the reference test is not fail-to-pass here ({runs})")
    answer = queries.rule_for(kind, query).answer(measured, query, None)
    return dict(result, status="ok", answer=answer, context=shared["context"], verification=verification)


def run_verify(spec: dict[str, Any], result: dict[str, Any], sandbox: Sandbox, tracer_root: str) -> dict[str, Any]:
    """A verify spec ({id, verify: {kind, target, mutant, reply}}): the reply run against both versions."""
    order = spec.get("verify")
    if not isinstance(order, dict) or not is_comet(order.get("kind")):
        return dict(result, status="invalid", reason="verify needs {kind: B1_BuggyIO | B2_RegressionTest, target, "
                                                     "mutant, reply}")
    try:
        verification = verify(order["kind"], order.get("target"), order.get("mutant"), order.get("reply"), sandbox,
                              tracer_root, bool(spec.get("unmasked_for_tests")))
    except Refused as exc:
        return dict(result, status="invalid", reason=str(exc))
    return dict(result, status="ok", verification=verification)
