"""A SWE-Flux-format instance, run by its own harness as its `eval.sh` would run it.

The spec names the run's QA directory (mounted read-only at `dir`), the
instance in it, and the image's checkout (`cwd`, e.g. /testbed). SWE-Flux's
runner copies the QA directory into the checkout (`/testbed/<qa>`) and runs
`eval.sh` with ROOT_DIR=/testbed, so a parser that checks a traced file lies
inside its working directory works; tracegate stages the same way. The host
gives a SWE-Flux job a writable copy of the checkout (a fresh volume at its
path, written by the driver only); in it, `<qa>` and `logs/<qa>` are links to
the group's own copies in the sandbox (a bounded scratch space the group's uid
owns), so the tests write nowhere in the checkout itself. A checkout that
cannot be written (another host) gets the former staging: a private root of a
symlink for every entry of the checkout beside those copies. As the harness
stages an instance, the run's shared harness files (`shared/files/`: the trace
plugin and conftest) are copied beside the instance's own files, never over
them. eval.sh runs as the group's uid (its test under its own trace plugin,
then its own parser); what its tests leave running is killed when pytest ends
(the reaper plugin), before the parser runs. The driver reads the
`oracle.json` it wrote from the group's copy, opening each path component
without following a symlink. The mounted QA directory is the host's harness
view: no published oracle.json is in it, so none is in the copies either (the
host compares the re-run with the published one).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import stat
from typing import Any

from .prompt.locate import TargetNotFound, named_definition
from .runner import pytest_run
from .runner.sandbox import Sandbox

NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")
MAX_ORACLE_BYTES = 4 * 1024 * 1024
MAX_TEST_BYTES = 256 * 1024
REAPER = "tracegate_reaper_plugin"
ORACLE_KEYS = ("oracle_answer", "question", "question_kind", "template_answer")
_PYTEST_SUMMARY = re.compile(r"^=+ (.*\b(passed|failed|errors?|skipped|deselected|xfailed)\b.*) =+$")
_SKIPPED_NAMES = {"__pycache__", ".pytest_cache"}


class Refused(Exception):
    """The instance cannot run: the message says why (status invalid)."""


def run(spec: dict[str, Any], sandbox: Sandbox, result: dict[str, Any], tracer_root: str,
        slot: int = 0) -> dict[str, Any]:
    """{status, answer?, reason?, question?, template_answer?, context?} of one SWE-Flux instance."""
    try:
        harness = spec.get("swe_flux") or {}
        qa, instance = harness.get("qa"), harness.get("instance")
        for key, value in (("qa", qa), ("instance", instance)):
            if not isinstance(value, str) or not NAME.match(value) or value in ("shared", "logs"):
                raise Refused(f"swe_flux.{key} must be a plain name, got {value!r}")
        checkout = spec.get("cwd")
        if not isinstance(checkout, str) or not os.path.isabs(checkout) or not os.path.isdir(checkout):
            raise Refused(f"the image has no checkout at {checkout!r} (SWE-Flux instances run in /testbed)")
        source = os.path.abspath(spec["dir"])
        if not os.path.isfile(os.path.join(source, instance, "eval.sh")):
            raise Refused(f"{instance}/eval.sh is missing")
        context = _context(spec, source, qa, checkout)  # before anything runs: a target it cannot show is refused
        copies = _copies(source, qa, instance, sandbox.path(f"root-{slot}"), sandbox.uid)
        root, staged = _stage_in_checkout(checkout, qa, copies, sandbox.uid)
        if root is None:
            root = _private_root(checkout, qa, copies)
    except Refused as exc:
        return dict(result, status="invalid", reason=str(exc))
    try:
        timeout = spec.get("timeout_seconds") or 600
        env = _environment(tracer_root, sandbox.uid is not None)
        eval_sh = os.path.join(root, qa, instance, "eval.sh")
        outcome = pytest_run.run_command(["bash", eval_sh, root], root, env, timeout, sandbox)
        try:
            oracle, unread = _read_oracle(root, ["logs", qa, instance, "oracle.json"]), ""
        except Refused as exc:
            oracle, unread = None, str(exc)
    finally:
        for path in reversed(staged):
            _remove(path)
    result["stats"].update(pytest_exit_code=outcome.exit_code, seconds=outcome.seconds)
    if outcome.notes:
        result["stats"]["notes"] = outcome.notes
    if outcome.timed_out:
        return dict(result, status="timeout", reason=f"timeout after {timeout}s (eval.sh)", context=context)
    output = outcome.stdout + "\n" + outcome.stderr
    if outcome.exit_code != 0:
        reason = _why_failed(output, outcome.exit_code, parser_wrote=oracle is not None)
        return dict(result, status="invalid", reason=reason, context=context)
    if oracle is None:
        return dict(result, status="invalid", reason=unread, context=context)
    if spec.get("kind") is not None and oracle["question_kind"] != spec["kind"]:
        return dict(result, status="invalid", context=context,
                    reason=f"oracle.json says question_kind {oracle['question_kind']!r}, the instance {spec['kind']!r}")
    return dict(result, status="ok", answer=oracle["oracle_answer"], question=oracle["question"],
                template_answer=oracle["template_answer"], context=context)


def _copies(source: str, qa: str, instance: str, copies: str, uid: int | None) -> str:
    """The group's copies, in the sandbox: `<copies>/<qa>` (the QA directory, the shared harness files beside
    the instance's own) and an empty `<copies>/logs/<qa>`, owned by the group's uid."""
    os.mkdir(copies, 0o755)
    target = os.path.join(copies, qa)
    _copy_tree(source, target)
    shared = os.path.join(target, "shared", "files")
    files = os.path.join(target, instance, "files")
    if os.path.isdir(shared):
        os.makedirs(files, exist_ok=True)
        for name in sorted(os.listdir(shared)):
            here = os.path.join(shared, name)
            if os.path.isfile(here) and not os.path.exists(os.path.join(files, name)):
                shutil.copyfile(here, os.path.join(files, name))
    os.makedirs(os.path.join(copies, "logs", qa))
    _own(copies, uid)
    return copies


def _stage_in_checkout(checkout: str, qa: str, copies: str, uid: int | None) -> tuple[str | None, list[str]]:
    """Stages in the checkout, as SWE-Flux's runner does: `<checkout>/<qa>` and `<checkout>/logs/<qa>` are
    real directories (copies of the group's copies, owned by its uid), so a parser that finds the repository
    through `Path(__file__).resolve()` finds the checkout, as one that works from the cwd does. (checkout, what
    the staging made, to remove after the run), or (None, []) when the checkout cannot be written."""
    if os.path.lexists(os.path.join(checkout, qa)):
        raise Refused(f"the QA directory {qa!r} collides with {os.path.join(checkout, qa)}, an entry of the "
                      "repository: rename the run's QA directory")
    made: list[str] = []
    logs = os.path.join(checkout, "logs")
    if os.path.lexists(logs) and (os.path.islink(logs) or not os.path.isdir(logs)
                                  or os.path.lexists(os.path.join(logs, qa))):
        return None, []  # the image has its own there: the private root leaves it out
    try:
        if not os.path.lexists(logs):
            os.mkdir(logs, 0o755)
            made.append(logs)
        for there, here in ((os.path.join(checkout, qa), os.path.join(copies, qa)),
                            (os.path.join(logs, qa), os.path.join(copies, "logs", qa))):
            made.append(there)
            _copy_tree(here, there)
            _own(there, uid)
    except OSError:  # a read-only checkout
        for path in reversed(made):
            _remove(path)
        return None, []
    return checkout, made


def _own(path: str, uid: int | None) -> None:
    if uid is None:
        return
    for directory, dirs, names in os.walk(path):
        os.chown(directory, uid, uid)
        for name in dirs + names:
            os.lchown(os.path.join(directory, name), uid, uid)


def _remove(path: str) -> None:
    """What the staging made: a copied tree (its links not followed), or the logs directory it made."""
    try:
        if os.path.isdir(path) and not os.path.islink(path):
            shutil.rmtree(path)
        else:
            os.unlink(path)
    except OSError:
        pass


def _private_root(checkout: str, qa: str, copies: str) -> str:
    """A checkout that cannot be written: beside the copies, a symlink for every entry of the checkout."""
    for name in sorted(os.listdir(checkout)):
        if name not in (qa, "logs") and not os.path.lexists(os.path.join(copies, name)):
            os.symlink(os.path.join(checkout, name), os.path.join(copies, name))
    return copies


def _copy_tree(source: str, target: str, depth: int = 0) -> None:
    """Regular files and directories only (no symlink is followed or copied), caches and any published
    `<instance>/oracle.json` left out (the host's view has none; a directory given directly may)."""
    os.mkdir(target, 0o755)
    for name in sorted(os.listdir(source)):
        if name in _SKIPPED_NAMES or (depth == 1 and name == "oracle.json"):
            continue
        here, there = os.path.join(source, name), os.path.join(target, name)
        mode = os.lstat(here).st_mode
        if stat.S_ISDIR(mode):
            _copy_tree(here, there, depth + 1)
        elif stat.S_ISREG(mode):
            shutil.copyfile(here, there)
            os.chmod(there, 0o755 if name.endswith(".sh") else 0o644)


def _environment(tracer_root: str, reap: bool) -> dict[str, str]:
    """eval.sh's environment: the driver's without its TRACEGATE_ settings, stable hashes, no bytecode or
    pytest cache written, and (as the group's own uid) the reaper plugin, which kills what the tests left
    running when pytest ends (boot/tracegate_reaper_plugin.py)."""
    # As tracegate's own runs load their plugin (boot/ on PYTHONPATH, the plugin in PYTEST_PLUGINS).
    env = pytest_run.environment(tracer_root, REAPER) if reap else dict(os.environ)
    for name in [n for n in env if n.startswith("TRACEGATE_")]:
        env.pop(name)
    env.update(PYTHONDONTWRITEBYTECODE="1", PYTHONHASHSEED="0", PYTEST_ADDOPTS="-p no:cacheprovider")
    if reap:
        env["TRACEGATE_REAP"] = "1"
    return env


def _why_failed(output: str, code: int | None, parser_wrote: bool = False) -> str:
    """eval.sh stopped: the tests failed (pytest's summary says so), the instance's parser did, or a step after
    the parser wrote its oracle.json."""
    lines = [line.strip() for line in output.splitlines() if line.strip()]
    summary = None
    for index, line in enumerate(lines):
        match = _PYTEST_SUMMARY.match(line)
        if match:
            summary = (index, match.group(1))
    if summary is None:
        return f"eval.sh exited {code} before pytest finished: {lines[-1] if lines else 'no output'}"
    index, text = summary
    if re.search(r"\b(failed|errors?)\b", text):
        return f"the instance's tests failed (pytest: {text}); eval.sh exited {code}"
    after = lines[index + 1:]
    if parser_wrote:
        last = after[-1] if after else "no output"
        return f"eval.sh exited {code} after its parser wrote oracle.json (a later step failed: {last})"
    detail = next((line for line in reversed(after) if "Error" in line or line.startswith("ERROR")), None)
    detail = detail or (after[-1] if after else "no output")
    return f"the instance's parser failed: {detail} (eval.sh exited {code})"


def _read_oracle(root: str, parts: list[str]) -> dict[str, Any]:
    """The oracle.json the run wrote, each component opened without following a symlink."""
    fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY)
    try:
        for part in parts[:-1]:
            try:
                nxt = os.open(part, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=fd)
            except OSError as exc:
                raise Refused(f"no oracle.json written ({'/'.join(parts)}: {exc.strerror})") from None
            os.close(fd)
            fd = nxt
        try:
            file_fd = os.open(parts[-1], os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK, dir_fd=fd)
        except OSError as exc:
            raise Refused(f"no oracle.json written ({'/'.join(parts)}: {exc.strerror})") from None
    finally:
        os.close(fd)
    with os.fdopen(file_fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
            raise Refused("oracle.json is not a regular file")
        data = handle.read(MAX_ORACLE_BYTES + 1)
    if len(data) > MAX_ORACLE_BYTES:
        raise Refused(f"oracle.json is larger than {MAX_ORACLE_BYTES // (1024 * 1024)} MiB")
    try:
        oracle = json.loads(data)
    except ValueError as exc:
        raise Refused(f"oracle.json is not JSON ({exc})") from None
    if not isinstance(oracle, dict) or any(key not in oracle for key in ORACLE_KEYS):
        raise Refused(f"oracle.json must be an object with {', '.join(ORACLE_KEYS)}")
    if not isinstance(oracle["question"], str) or not isinstance(oracle["question_kind"], str):
        raise Refused("oracle.json: question and question_kind must be strings")
    return oracle


def _context(spec: dict[str, Any], source: str, qa: str, checkout: str) -> dict[str, Any]:
    """The prompt's code: the target's source when it can be found, and the instance's test file.

    Read from the image's checkout and the mounted QA directory, never from the
    private root (its uid could have replaced anything in it).
    """
    target = spec.get("target") or {}
    file, function = str(target.get("file") or ""), str(target.get("function") or "")
    context: dict[str, Any] = {"file": file, "func": function, "first_line": 1, "source": ""}
    if file and function and "unknown" not in (file, function):
        # TRACE_FILE and TRACE_FUNC name what the model is shown: one that names nothing is refused.
        try:
            context = dict(named_definition(file, function, [checkout]))
        except TargetNotFound as exc:
            raise Refused(f"TRACE_FUNC {function!r} of TRACE_FILE {file!r}: {exc}") from None
        except (SyntaxError, ValueError, OSError) as exc:
            raise Refused(f"TRACE_FILE {file!r} cannot be read as Python ({type(exc).__name__}: {exc})") from None
    tests = []
    for test in spec.get("tests") or []:
        name = str(test).split("::")[0]
        if not name.startswith(qa + "/"):
            continue
        path = os.path.join(source, name[len(qa) + 1:])
        try:
            if os.path.isfile(path) and not os.path.islink(path) and os.path.getsize(path) <= MAX_TEST_BYTES:
                with open(path, encoding="utf-8", errors="replace") as handle:
                    tests.append({"name": name, "source": handle.read()})
        except OSError:
            pass
    context["tests"] = tests
    return context
