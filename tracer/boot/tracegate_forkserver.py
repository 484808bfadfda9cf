"""tracegate's fork server: `python [FLAGS] tracegate_forkserver.py SOCKET_FD PRELOAD`.

A run of the tests is a fresh process, but most of a short pytest run is
pytest's own import (0.28 s of a 0.38 s run of one trivial test, measured in an
environment image). This server is started once per driver and interpreter
setting (the flags and every variable the interpreter reads at start: the
driver keys servers by them, tracegate_tracer/forkserver.py), imports PRELOAD
(`pytest` and its default plugins, or a script's first imports, comma-separated) — exactly what every such run
imports first — and then
forks one child per run. A child is a fresh process as far as the run can
tell: its own session, the run's uid and gid with no supplementary groups and
dumpable again (so /proc/self is its own, as after exec), its umask and
resource limits, its standard streams, working directory, environment,
`sys.argv` and `sys.path[0]` as `python [FLAGS] -m MODULE` or `python [FLAGS]
SCRIPT` would have set them, the temp dir read again, tracegate's recorder
started as sitecustomize would have; then the module or script runs as
`__main__`, and the interpreter exits the usual way (threads joined, atexit,
streams flushed).

Protocol (one request at a time, over the Unix socket SOCKET_FD): the server
first writes `{"ready": true, "modules": [top-level names imported]}`; each
request is one JSON line with three descriptors attached (stdin, stdout,
stderr): `{"module" | "script", "args", "argv", "cwd", "env", "uid", "gid", "umask",
"rlimits": [[resource, soft, hard], ...], "path0", "populate"}` (argv: the
whole command, the child's `sys.orig_argv`; populate: a measured run,
Libc.populate); the server answers
`{"pid": N}` when the child runs and `{"status": S, "maxrss": KiB}` when it has
been reaped (S as `os.waitstatus_to_exitcode`). End of input ends the server.
Nothing of a request outlives its child in the server's memory.
"""

import sys


def _preload(names: list) -> None:
    """PRELOAD's modules in order; `pytest:plugins` is pytest's default plugins (`_pytest.<name>`), less the
    names given as `!NAME`: a pytest run imports them at its configuration, before anything of its own."""
    for name in names:
        if name == "pytest:plugins":
            try:
                from _pytest.config import default_plugins
            except ImportError:  # a pytest without the list: pytest alone
                continue
            skipped = {n[1:] for n in names if n.startswith("!")}
            for plugin in default_plugins:
                if plugin not in skipped:
                    __import__(f"_pytest.{plugin}")
        elif not name.startswith("!"):
            __import__(name)


_preload(list(filter(None, (sys.argv[2] if len(sys.argv) > 2 else "").split(","))))
# PRELOAD first, so that what it imports is told apart from the server's own modules.
_KEEP = frozenset(sys.modules)
"""What a run's process may find imported: the interpreter's start and PRELOAD; the rest is the server's."""

import runpy  # noqa: E402 - after the preload on purpose

_KEEP_MODULE = frozenset(sys.modules)
"""The same for `python -m`, which imports runpy at start."""

import gc  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import socket  # noqa: E402

MAX_FDS = 3
_SCRIPT_DIR = os.path.dirname(os.path.abspath(__file__))


STOPPING = ("SIGINT", "SIGTERM", "SIGHUP")
"""Signals the server ignores, as the driver does (a test may signal its parent: it costs only its own run)."""


def _ignore(signum: int, _frame: object) -> None:
    # A Python handler, not SIG_IGN, so that the child's reset below gives a fresh interpreter's handlers back.
    import signal

    os.write(2, f"tracegate: ignored {signal.Signals(signum).name} (the fork server stops with the driver)\n"
             .encode())


def _send(sock: socket.socket, message: dict) -> None:
    sock.sendall((json.dumps(message) + "\n").encode())


class Libc:
    """What a child needs of libc, made ready in the server. ctypes is imported for it and taken out of
    sys.modules again: a run imports ctypes itself, as a fresh interpreter would."""

    POPULATE_READ, POPULATE_WRITE = 22, 23  # madvise(2), Linux 5.14
    SKIP = ("[vvar]", "[vvar_vclock]", "[vdso]", "[vsyscall]")

    def __init__(self) -> None:
        before = set(sys.modules)
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        self.prctl, self.madvise = libc.prctl, libc.madvise
        self.madvise.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
        for name in set(sys.modules) - before:
            del sys.modules[name]

    def dumpable(self) -> None:
        """prctl(PR_SET_DUMPABLE, 1): after setuid a process is not dumpable, so its /proc/self would be root's
        and closed to it (clear_refs, fd); an exec resets that, a forked child calls this."""
        self.prctl(4, 1, 0, 0, 0)

    def populate(self) -> None:
        """Every page of the child's mappings made its own and mapped now, as a fresh interpreter's are by the
        time its imports are done: a forked child would otherwise pay, inside the measured test, a
        copy-on-write fault for each page it shares with the server and a minor fault for each file page it
        maps again (warm wall times were 1.13x fresh at the median, a resident peak 2x). Private writable
        mappings are written (MADV_POPULATE_WRITE), the rest read; a mapping that refuses is left as it is."""
        with open("/proc/self/maps", encoding="ascii", errors="replace") as handle:
            maps = handle.read().splitlines()
        for line in maps:
            fields = line.split()
            if len(fields) < 2 or fields[1][0] != "r" or (len(fields) > 5 and fields[5] in self.SKIP):
                continue
            start, end = (int(x, 16) for x in fields[0].split("-"))
            write = fields[1][1] == "w" and fields[1][3] == "p"
            self.madvise(start, end - start, self.POPULATE_WRITE if write else self.POPULATE_READ)


class Job:
    """One run, in the forked child."""

    def __init__(self, request: dict, fds: list[int], libc: Libc) -> None:
        self.request = request
        self.fds = fds
        self.libc = libc

    def start(self) -> None:
        try:
            self._become()
        except BaseException as exc:  # noqa: BLE001 - the run never starts half set up
            os.write(2, f"tracegate: the fork server could not start the run: {exc!r}\n".encode())
            os._exit(127)
        request = self.request
        if request.get("argv"):
            sys.orig_argv = list(request["argv"])  # the command a fresh process would have been started with
        if "module" in request:
            sys.argv = ["-m", *request["args"]]
            runpy.run_module(request["module"], run_name="__main__", alter_sys=True)
        else:
            sys.argv = [request["script"], *request["args"]]
            _run_script(request["script"])

    def _become(self) -> None:
        """The run's process: session, identity, limits, streams, folder, environment, path, recorder."""
        request = self.request
        import signal

        signal.signal(signal.SIGINT, signal.default_int_handler)  # a fresh interpreter's handlers
        for name in STOPPING[1:]:
            signal.signal(getattr(signal, name), signal.SIG_DFL)
        os.setsid()
        uid, gid = request.get("uid"), request.get("gid")
        if gid is not None:
            os.setgroups([])
            os.setresgid(gid, gid, gid)
        if uid is not None:
            os.setresuid(uid, uid, uid)
            self.libc.dumpable()
        if request.get("umask") is not None:
            os.umask(request["umask"])
        import resource

        for which, soft, hard in request.get("rlimits") or ():
            try:
                resource.setrlimit(which, (soft, hard))
            except (ValueError, OSError):
                pass
        for target, fd in enumerate(self.fds):
            os.dup2(fd, target)
        os.closerange(MAX_FDS, os.sysconf("SC_OPEN_MAX") if hasattr(os, "sysconf") else 65536)
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        import tempfile

        tempfile.tempdir = None  # read TMPDIR again
        if not getattr(sys.flags, "safe_path", False):
            del sys.path[0]  # this script's folder, put first at the server's start
            sys.path.insert(0, request["path0"])
        keep = _KEEP_MODULE if "module" in request else _KEEP
        for name in set(sys.modules) - keep:
            del sys.modules[name]  # the server's own modules (json, socket, ...): the run imports them itself
        boot = sys.modules.get("sitecustomize")
        if boot is not None and os.path.dirname(os.path.abspath(getattr(boot, "__file__", "") or "")) == _SCRIPT_DIR:
            boot._start_recorder()  # tracegate's: started as it would have been at the interpreter's start
        # The collector as a fresh interpreter's: nothing frozen (a test could read gc.get_freeze_count() and
        # answer differently warm and fresh), and a collection walks what a fresh one would.
        gc.unfreeze()
        if request.get("populate"):
            # A measured run: no page is shared with the server either.
            self.libc.populate()


def _run_script(path: str) -> None:
    """`python SCRIPT` without runpy (whose run_path would import pkgutil and the rest, which a fresh
    interpreter running a script has not): the script's code run as a new `__main__`."""
    loader = sys.modules["_frozen_importlib_external"].SourceFileLoader("__main__", path)
    main = type(sys)("__main__")
    main.__dict__.update(__file__=path, __cached__=None, __loader__=loader, __spec__=None,
                         __builtins__=sys.modules["builtins"])
    sys.modules["__main__"] = main
    with open(path, "rb") as handle:
        code = compile(handle.read(), path, "exec", dont_inherit=True)
    exec(code, main.__dict__)


def _serve(sock: socket.socket, libc: Libc) -> Job | None:
    """Serves requests until the driver closes the socket (None) or, in a forked child, its job."""
    reader = b""
    pending: list[int] = []
    while True:
        while b"\n" not in reader:
            data, fds, _flags, _addr = socket.recv_fds(sock, 1 << 20, MAX_FDS)
            if not data:
                for fd in fds:
                    os.close(fd)
                return None
            reader += data
            if fds:
                pending = fds
        line, _, reader = reader.partition(b"\n")
        request = json.loads(line)
        fds = pending
        pending = []
        sys.stdout.flush()
        sys.stderr.flush()
        # Everything the server made goes to the collector's permanent generation: no collection in the child
        # walks (and so copies) the server's pages. 35 ms less per run of one short test, measured.
        gc.freeze()
        pid = os.fork()
        if pid == 0:
            sock.close()
            return Job(request, fds, libc)
        for fd in fds:
            os.close(fd)
        del request, fds
        _send(sock, {"pid": pid})
        _, status, usage = os.wait4(pid, 0)
        _send(sock, {"status": os.waitstatus_to_exitcode(status), "maxrss": usage.ru_maxrss})


def main() -> "Job | None":
    import signal

    for name in STOPPING:
        signal.signal(getattr(signal, name), _ignore)
    sock = socket.socket(fileno=int(sys.argv[1]))
    modules = sorted({name.split(".")[0] for name in _KEEP})
    libc = Libc()
    _send(sock, {"ready": True, "modules": modules})
    return _serve(sock, libc)


if __name__ == "__main__":
    job = main()
    if job is None:
        sys.exit(0)
    job.start()  # the run's own exit, error or end ends the child as it would end a fresh interpreter
