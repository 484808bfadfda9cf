"""Runs an instance's tests under the recorder in a child process."""

import os
import re
import signal
import subprocess
import sys
import time

PLUGIN = "tracegate_pytest_plugin"
# pytest exit codes that leave no trustworthy run behind.
_EXIT_REASONS = {
    2: "pytest collection error", 3: "pytest internal error", 4: "pytest usage error", 5: "no tests collected",
}

_EXCEPTION_LINE = re.compile(r"^[A-Za-z_][\w.]*(Error|Exception|Exit|Interrupt)\b")


class Outcome:
    def __init__(self, exit_code, timed_out, seconds, stdout, stderr):
        self.exit_code, self.timed_out, self.seconds = exit_code, timed_out, seconds
        self.stdout, self.stderr = stdout, stderr

    def problem(self):
        """Why the run cannot give an oracle (None if it can)."""
        reason = _EXIT_REASONS.get(self.exit_code)
        if reason is None:
            return None
        line = _error_line(self.stdout + "\n" + self.stderr)
        return f"{reason}: {line}" if line else reason

    def failed_tests(self):
        """Node ids of the tests pytest reported FAILED or ERROR (its `-rfE` summary), in order."""
        found = []
        for line in self.stdout.splitlines():
            for marker in ("FAILED ", "ERROR "):
                if line.startswith(marker):
                    node = line[len(marker):].split(" - ", 1)[0].strip()
                    if node and node not in found:
                        found.append(node)
        return found

    def failure(self):
        """Why a run whose tests failed is not an oracle (None unless pytest exited 1)."""
        if self.exit_code != 1:
            return None
        failed = self.failed_tests()
        if not failed:
            return "tests failed (pytest exit 1)"
        shown = ", ".join(failed[:5]) + (f" and {len(failed) - 5} more" if len(failed) > 5 else "")
        return f"tests failed: {shown} (a failing test is not an oracle unless the instance sets expect_failure)"


def _error_line(output):
    """pytest's most telling error line (`E   SyntaxError: ...`, `ERROR: not found: ...`)."""
    lines = [line.strip() for line in output.splitlines() if line.strip()]
    errors = [line[1:].strip() for line in lines if line.startswith("E ")]
    for line in errors:
        if _EXCEPTION_LINE.match(line):
            return line
    if errors:
        return errors[0]
    for line in lines:
        if line.startswith("ERROR"):
            return line
    return lines[-1] if lines else ""


def run(tests, instance_dir, tracer_root, config_path, timeout):
    env = dict(os.environ)
    boot = os.path.join(tracer_root, "boot")
    env["PYTHONPATH"] = os.pathsep.join([boot] + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    env["PYTHONHASHSEED"] = "0"  # str hashes (and so set/dict-of-set orders) stable across runs
    env["TRACEGATE_TRACE"] = config_path
    plugins = [p for p in env.get("PYTEST_PLUGINS", "").split(",") if p.strip()]
    env["PYTEST_PLUGINS"] = ",".join(plugins + [PLUGIN])
    env.pop("PYTEST_ADDOPTS", None)
    # -rfE: the summary names each failed or erroring test (`FAILED <nodeid> - …`).
    command = [sys.executable, "-m", "pytest", "-q", "-rfE", "-p", "no:cacheprovider", *tests]
    started = time.monotonic()
    child = subprocess.Popen(
        command, cwd=instance_dir, env=env, stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
    )
    try:
        stdout, stderr = child.communicate(timeout=timeout)
        timed_out = False
    except subprocess.TimeoutExpired:
        _kill_group(child)
        stdout, stderr = child.communicate()
        timed_out = True
    seconds = round(time.monotonic() - started, 3)
    decode = lambda data: data.decode("utf-8", "replace")  # noqa: E731
    return Outcome(child.returncode, timed_out, seconds, decode(stdout), decode(stderr))


def _kill_group(child):
    try:
        os.killpg(child.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        child.kill()
