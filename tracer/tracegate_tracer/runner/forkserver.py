"""Warm starts: a run's process forked from a server that has imported what every such run imports first.

Most of a short pytest run is pytest's own import (0.28 s of a 0.38 s run of
one trivial test in an environment image), and the world-model and Comet kinds
start up to nine such processes per test. The server (boot/tracegate_forkserver.py)
is started once per driver and interpreter setting — the interpreter, its
flags, and every variable it reads at start (PYTHON*, LANG, LC_*): a child
must not differ from the fresh interpreter it stands in for — and forks each run
as a fresh process in every way the run can tell (that module's docstring).

A run is warm only when it asks to be (`Servers.spawn(..., fresh=...)`) and none of the
top-level modules it names as `fresh` was imported by the server: the package
under test, a target whose module the recorder must see executed, a mutated
package. Anything else — another command shape, a server that cannot start or
died, a preloaded name — runs as before, a fresh `subprocess.Popen` (spawn
returns None). TRACEGATE_WARM=0 turns warm starts off.
"""

from __future__ import annotations

import json
import os
import re
import selectors
import socket
import subprocess
import sys
from collections.abc import Collection, Sequence
from types import SimpleNamespace
from typing import Any

from .output import log

SERVER = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "boot",
                      "tracegate_forkserver.py")
FLAGS = frozenset({"-P", "-s"})
"""Interpreter flags a warm start reproduces (the server is started with them)."""
PRELOAD = {"pytest": "pytest",
           "tracegate_comet_call.py": "ast,builtins,contextlib,hashlib,importlib,inspect,io,json,re,signal,"
                                      "threading,time"}
"""What a server imports for a module run or a script, by module or script name: what the run imports first
(`-m pytest`: pytest itself, then its default plugins, _pytest_preload; B1's call runner: its standard-library
imports, its first lines)."""
PYTEST_PLUGINS = "pytest:plugins"
"""The server's name for pytest's default plugins (`_pytest.<name>` for each name of the installed pytest's
`_pytest.config.default_plugins`), less those named `!NAME` in the same preload."""
START_SECONDS = 60.0


def _startup_env(env: dict[str, str]) -> dict[str, str]:
    """The variables the interpreter reads at start, which a server must share with the runs it forks."""
    return {k: v for k, v in env.items() if k.startswith("PYTHON") or k in ("LANG", "LANGUAGE") or k.startswith("LC_")}


def _shape(command: Sequence[str]) -> tuple[tuple[str, ...], dict[str, Any]] | None:
    """`python [FLAGS] -m MODULE ARGS` or `python [FLAGS] SCRIPT ARGS` as (flags, request), or None."""
    if not command or command[0] != sys.executable:
        return None
    rest = list(command[1:])
    flags: list[str] = []
    while rest and rest[0] in FLAGS:
        flags.append(rest.pop(0))
    if len(rest) >= 2 and rest[0] == "-m" and rest[1] in PRELOAD:
        return tuple(flags), {"module": rest[1], "args": rest[2:]}
    if rest and not rest[0].startswith("-") and rest[0].endswith(".py"):
        return tuple(flags), {"script": rest[0], "args": rest[1:]}
    return None


def _pytest_preload(preload: str, args: Sequence[str]) -> str:
    """A pytest run's preload: pytest, then the default plugins its configuration imports, which are most of
    a warm run's start (54 ms of a 139 ms run of one short test, measured in an environment image) — less the
    ones its `-p no:NAME` blocks (and stepwise with the cache, as pytest blocks it), which it never imports.
    (An ini file's `addopts` may block one more: the module is then imported but never registered.)"""
    blocked: set[str] = set()
    for index, arg in enumerate(args):
        if arg == "--":
            break
        value = args[index + 1] if arg == "-p" and index + 1 < len(args) else arg[2:] if arg.startswith("-p") else ""
        if value.startswith("no:"):
            blocked.add(value[3:])
    if "cacheprovider" in blocked:
        blocked.add("stepwise")
    return ",".join([preload, PYTEST_PLUGINS, *(f"!{name}" for name in sorted(blocked))])


class Server:
    """One fork server: its process, its socket, and what it imported."""

    def __init__(self, key: tuple[Any, ...], flags: tuple[str, ...], env: dict[str, str], preload: str) -> None:
        self.key = key
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        env = dict(_startup_env(env), PATH=os.environ.get("PATH", "/usr/bin:/bin"), HOME="/nonexistent")
        try:
            self.process = subprocess.Popen(
                [sys.executable, *flags, SERVER, str(theirs.fileno()), preload], pass_fds=(theirs.fileno(),),
                env=env, cwd="/", stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, start_new_session=True,
            )
        finally:
            theirs.close()
        self.sock = ours
        self.buffer = b""
        self.sock.settimeout(START_SECONDS)
        hello = self.read()
        self.sock.settimeout(None)
        if not hello or not hello.get("ready"):
            raise OSError("the fork server did not start")
        self.modules = frozenset(hello.get("modules") or ())
        self.busy = False

    def read(self, block: bool = True) -> dict[str, Any] | None:
        """The server's next message; None at its end (or, not blocking, when none is there yet)."""
        while b"\n" not in self.buffer:
            try:
                data = self.sock.recv(65536) if block else self.sock.recv(65536, socket.MSG_DONTWAIT)
            except BlockingIOError:
                return None
            if not data:
                raise EOFError("the fork server ended")
            self.buffer += data
        line, _, self.buffer = self.buffer.partition(b"\n")
        return json.loads(line)

    def alive(self) -> bool:
        return self.process.poll() is None

    def close(self) -> None:
        try:
            self.sock.close()
        finally:
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


class ForkedChild:
    """A run forked by a server, as much of subprocess.Popen as the driver uses (pid, poll, wait, returncode,
    rusage, stdout, stderr). Its exit status and peak resident size come from the server's wait4."""

    def __init__(self, servers: Servers, server: Server, pid: int, stdout: int, stderr: int) -> None:
        self.servers = servers
        self.server = server
        self.pid = pid
        self.returncode: int | None = None
        self.rusage: Any = None
        self.stdout = os.fdopen(stdout, "rb", buffering=0)
        self.stderr = os.fdopen(stderr, "rb", buffering=0)
        self.selector = selectors.DefaultSelector()
        self.selector.register(server.sock, selectors.EVENT_READ)

    def _done(self, message: dict[str, Any] | None) -> int | None:
        if message is None:
            return None
        self.returncode = int(message["status"])
        self.rusage = SimpleNamespace(ru_maxrss=message.get("maxrss"))
        self.server.busy = False
        self.selector.close()
        return self.returncode

    def poll(self) -> int | None:
        if self.returncode is not None:
            return self.returncode
        try:
            return self._done(self.server.read(block=False))
        except (EOFError, OSError, ValueError):
            return self._lost()

    def wait(self, timeout: float | None = None) -> int:
        if self.returncode is not None:
            return self.returncode
        if timeout is not None and not self.selector.select(timeout):
            raise subprocess.TimeoutExpired(f"pid {self.pid}", timeout)
        try:
            code = self._done(self.server.read())
        except (EOFError, OSError, ValueError):
            code = self._lost()
        assert code is not None
        return code

    def idle(self, seconds: float) -> None:
        """Sleeps until the server has news of the child or `seconds` pass (the driver's watch loop)."""
        if self.returncode is None:
            self.selector.select(seconds)

    def _lost(self) -> int:
        """The server ended under the run (it was killed): the run counts as killed, and no server is reused."""
        self.servers.lost(self.server.key)
        self.returncode = -9
        self.rusage = None
        return self.returncode


def tops_of(files: Collection[Any]) -> set[str]:
    """The top-level modules of files named relative to an import root (`click/core.py` -> click; under a
    `src/` or `lib/` layout, the package below it too): what a run must import itself."""
    tops = set()
    for file in files:
        if not isinstance(file, str):
            continue
        parts = [p.removesuffix(".py") for p in file.replace("\\", "/").split("/") if p and p != "."]
        tops.update(parts[:2] if parts and parts[0] in ("src", "lib") else parts[:1])
    return tops


def fresh_for(specs: Collection[Any]) -> set[str]:
    """What runs for these specs must import themselves: the packages of their targets and mutants."""
    files = []
    for spec in specs:
        for key in ("target", "mutant"):
            value = spec.get(key) if isinstance(spec, dict) else None
            if isinstance(value, dict):
                files.append(value.get("file"))
    return tops_of(files)


def can_populate(release: str | None = None) -> bool:
    """Whether this kernel populates a mapping on request (madvise MADV_POPULATE_*, Linux 5.14): without it a
    warm child's first touches would fall inside its measured test, so a measurement starts fresh."""
    numbers = re.match(r"(\d+)\.(\d+)", release if release is not None else os.uname().release)
    return bool(numbers) and (int(numbers[1]), int(numbers[2])) >= (5, 14)


class Servers:
    """The driver's fork servers, one per setting (`key`: flags, preload, start-up environment), and the settings
    whose server could not start (never tried again)."""

    def __init__(self) -> None:
        self.running: dict[tuple[Any, ...], Server] = {}
        self.refused: set[tuple[Any, ...]] = set()

    def spawn(self, command: Sequence[str], cwd: str, env: dict[str, str], options: dict[str, Any],
              rlimits: Sequence[tuple[int, int, int]], fresh: Collection[str],
              populate: bool = False) -> ForkedChild | None:
        """`command` forked warm, as Popen(command, cwd, env, stdin=DEVNULL, stdout=PIPE, stderr=PIPE,
        start_new_session=True, close_fds=True, **options) with `rlimits` set in the child; None when it cannot
        be (the caller starts it fresh). `populate`: a measured run, whose child owns and maps every page before
        it starts (the server's Libc.populate)."""
        if os.environ.get("TRACEGATE_WARM") == "0" or not hasattr(socket, "send_fds"):
            return None
        shape = _shape(command)
        if shape is None or set(options) - {"user", "group", "extra_groups", "umask"} or options.get("extra_groups"):
            return None
        flags, request = shape
        preload = PRELOAD.get(request.get("module") or os.path.basename(request["script"]), "")
        if request.get("module") == "pytest":
            preload = _pytest_preload(preload, request["args"])
        key = (flags, preload, tuple(sorted(_startup_env(env).items())))
        if key in self.refused:
            return None
        server = self.running.get(key)
        if server is not None and not server.alive():
            self.running.pop(key, None)
            server = None
        if server is None:
            try:
                server = self.running[key] = Server(key, flags, env, preload)
            except (OSError, EOFError, ValueError) as exc:
                self.refused.add(key)
                log(f"tracegate: warm starts off for {' '.join(flags) or 'no flags'} {preload or '(script)'}: {exc}")
                return None
        if server.busy or server.modules & set(fresh):
            return None
        # sys.path[0] as the interpreter puts it: `-m`, the working directory; a script, its real folder.
        path0 = cwd if "module" in request else os.path.dirname(os.path.realpath(os.path.join(cwd, request["script"])))
        request.update(argv=list(command), cwd=cwd, env=env, path0=os.path.abspath(path0), uid=options.get("user"),
                       gid=options.get("group"), umask=options.get("umask"), rlimits=[list(r) for r in rlimits],
                       populate=populate)
        stdin = os.open(os.devnull, os.O_RDONLY)
        out_r, out_w = os.pipe()
        err_r, err_w = os.pipe()
        try:
            socket.send_fds(server.sock, [(json.dumps(request) + "\n").encode()], [stdin, out_w, err_w])
            server.busy = True
            started = server.read()
        except (OSError, EOFError, ValueError) as exc:
            for fd in (out_r, err_r):
                os.close(fd)
            self.running.pop(key, None)
            log(f"tracegate: the fork server failed ({exc}); this run starts fresh")
            return None
        finally:
            for fd in (stdin, out_w, err_w):
                os.close(fd)
        if not started or "pid" not in started:
            for fd in (out_r, err_r):
                os.close(fd)
            self.running.pop(key, None)
            return None
        return ForkedChild(self, server, int(started["pid"]), out_r, err_r)

    def lost(self, key: tuple[Any, ...]) -> None:
        """The server of `key` ended under a run: never reused."""
        self.running.pop(key, None)

    def close_all(self) -> None:
        """Ends every server (the driver's end)."""
        while self.running:
            _, server = self.running.popitem()
            try:
                server.close()
            except OSError:
                pass


SERVERS = Servers()
"""The driver's servers (harvest.py ends them with SERVERS.close_all())."""
