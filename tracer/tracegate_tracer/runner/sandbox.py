"""One recording group's blast radius: its directories, its uid, and the cleanup after it.

Each group gets `work_dir/g<N>` (its trace config and trace) and a temp dir
inside it (TMPDIR; HOME too when isolated). Named by group index only: an
instance id is data, never a path.

Isolated (the plan asks for it and the driver runs as root, as in the
container): the group's pytest runs as uid = gid = `uid_base + N`, with no
supplementary groups, in its own session; its directories are owned by that
uid and closed to every other (0700). After the run, every process of that
uid is killed (a helper that setuid()s to it and calls kill(-1, SIGKILL)
reaches daemons that left the process group; then /proc is checked), and
every file the uid owns in /tmp, /dev/shm (POSIX shared memory and
semaphores) and /dev/mqueue, the group's dir and its temp dir is deleted,
and every SysV shared memory segment, semaphore set and message queue it
created or owns is removed (then checked: what is left is logged), so nothing
a test left behind can touch a later instance.

Not isolated (local backend, or not root): the same directories, TMPDIR in
the temp dir, the process group killed after the run, the temp dir deleted.
"""

from __future__ import annotations

import errno
import fnmatch
import itertools
import os
import signal
import stat
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from typing import IO, Any

# Runs as the group's uid: kill(-1) reaches every process of that uid but not itself.
_KILLER = """
import os, signal
for _ in range(100):
    try:
        os.kill(-1, signal.SIGKILL)
    except ProcessLookupError:
        break
"""
# Runs as the group's uid (a container's root lacks CAP_IPC_OWNER): removes the SysV IPC objects named in argv.
_IPC_REMOVER = """
import ctypes, sys
libc = ctypes.CDLL(None)
for item in sys.argv[1:]:
    table, ident = item.split(":")
    if table == "shm":
        libc.shmctl(int(ident), 0, None)
    elif table == "sem":
        libc.semctl(int(ident), 0, 0)
    else:
        libc.msgctl(int(ident), 0, None)
"""
SCRUB_ROOTS = ("/tmp", "/dev/shm", "/dev/mqueue")
SYSV_IPC = (("shm", "shmid"), ("sem", "semid"), ("msg", "msqid"))
"""/proc/sysvipc tables and their id column."""


def _uid_processes(uid: int) -> list[int]:
    """Live (not zombie) pids whose real, effective or saved uid is `uid` (from /proc)."""
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/status", encoding="utf-8") as handle:
                fields = dict(line.split(":", 1) for line in handle if ":" in line)
        except OSError:
            continue
        if fields.get("State", "").strip().startswith(("Z", "X")):
            continue
        if str(uid) in fields.get("Uid", "").split()[:3]:
            found.append(int(name))
    return found


def reap_orphans() -> None:
    """Reaps exited children nobody waits for: in a container the driver is PID 1, parent of every orphan."""
    while True:
        try:
            pid, _status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


FD_DEPTH = 64
"""Directories `remove_tree` holds open at once; a deeper one is first moved up into the tree's top."""
_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW


def remove_tree(path: str) -> bool:
    """Deletes `path` and everything under it, whatever its depth; whether it is gone.

    What a test leaves is hostile: a chain of directories thousands deep takes a
    recursive walk (os.walk, shutil.rmtree on 3.11) past the recursion limit, and its
    paths past PATH_MAX. So no recursion and no long paths: directories are opened
    relative to their parent, never through a symbolic link, at most FD_DEPTH at a
    time; a directory deeper than that is renamed up into the top one and emptied
    from there in a later round. What cannot be removed stays (the caller checks).
    """
    try:
        if not stat.S_ISDIR(os.lstat(path).st_mode):
            os.unlink(path)
            return True
        top = os.open(path, _DIR_FLAGS)
    except FileNotFoundError:
        return True
    except OSError:
        return False
    try:
        # Each directory is moved up at most once (it is then at depth 1), so the rounds end.
        names = itertools.count()
        while _empty(top, names):
            pass
    finally:
        os.close(top)
    try:
        os.rmdir(path)
    except FileNotFoundError:
        pass
    except OSError:
        return False
    return True


def _empty(top: int, names: Iterator[int]) -> int:
    """Deletes what it can under the open directory `top`; the count of directories it moved up into
    `top` instead of opening (deeper than FD_DEPTH), which the next round empties."""
    moved = 0
    stack: list[tuple[int, Any, str]] = []  # (directory fd, its open listing, its name in the parent)
    fd, listing, name = top, os.scandir(top), ""
    try:
        while True:
            entry = next(listing, None)
            if entry is None:
                listing.close()
                if not stack:
                    return moved
                parent, parent_listing, parent_name = stack.pop()
                os.close(fd)
                try:
                    os.rmdir(name, dir_fd=parent)
                except OSError:
                    pass
                fd, listing, name = parent, parent_listing, parent_name
                continue
            try:
                is_dir = entry.is_dir(follow_symlinks=False)
            except OSError:
                is_dir = False
            if not is_dir:
                try:
                    os.unlink(entry.name, dir_fd=fd)
                except OSError:
                    pass
                continue
            if len(stack) + 1 >= FD_DEPTH:
                moved += _move_up(entry.name, fd, top, names)
                continue
            try:
                child = os.open(entry.name, _DIR_FLAGS, dir_fd=fd)
            except OSError:
                continue
            try:
                child_listing = os.scandir(child)
            except OSError:
                os.close(child)
                continue
            stack.append((fd, listing, name))
            fd, listing, name = child, child_listing, entry.name
    finally:
        listing.close()
        if fd != top:
            os.close(fd)
        for held, held_listing, _name in stack:
            held_listing.close()
            if held != top:
                os.close(held)


def _move_up(name: str, fd: int, top: int, names: Iterator[int]) -> int:
    """Renames directory `name` (in `fd`) into `top` under a fresh name; 1 when it moved."""
    for number in itertools.islice(names, 100):
        try:
            os.rename(name, f".tracegate-deep-{number}", src_dir_fd=fd, dst_dir_fd=top)
            return 1
        except FileExistsError:
            continue
        except OSError as exc:
            if exc.errno == errno.ENOTEMPTY:
                continue  # a directory of that name is there already: the next name
            return 0
    return 0


def _remove_owned(root: str, uid: int) -> int:
    """Deletes every file and directory under `root` (not `root` itself) owned by `uid`; the count.

    Iterative: a directory owned by `uid` is removed whole (remove_tree, any depth); one owned by
    another is searched, since the uid may have written into it (a world-writable directory)."""
    removed = 0
    pending = [root]
    while pending:
        directory = pending.pop()
        try:
            with os.scandir(directory) as listing:
                entries = list(listing)
        except OSError:
            continue
        for entry in entries:
            try:
                info = entry.stat(follow_symlinks=False)
            except OSError:
                continue
            if info.st_uid == uid:
                if stat.S_ISDIR(info.st_mode):
                    remove_tree(entry.path)
                else:
                    try:
                        os.unlink(entry.path)
                    except OSError:
                        continue
                removed += 1
            elif stat.S_ISDIR(info.st_mode):
                pending.append(entry.path)
    return removed


def _sysv_owned(uid: int) -> list[tuple[str, int]]:
    """The SysV IPC objects (table, id) that `uid` created or owns, from /proc/sysvipc."""
    found = []
    for table, column in SYSV_IPC:
        try:
            with open(f"/proc/sysvipc/{table}", encoding="utf-8") as handle:
                rows = [line.split() for line in handle.read().splitlines()]
        except OSError:
            continue
        if not rows or not {column, "uid", "cuid"} <= set(rows[0]):
            continue
        at = {name: rows[0].index(name) for name in (column, "uid", "cuid")}
        for row in rows[1:]:
            try:
                if uid in (int(row[at["uid"]]), int(row[at["cuid"]])):
                    found.append((table, int(row[at[column]])))
            except (IndexError, ValueError):
                continue
    return found


def _remove_sysv(uid: int) -> list[tuple[str, int]]:
    """Removes `uid`'s SysV shared memory segments, semaphore sets and message queues (as `uid`: their owner
    may, where a container's root may not); those still there."""
    owned = _sysv_owned(uid)
    if owned:
        subprocess.run([sys.executable, "-I", "-S", "-c", _IPC_REMOVER, *(f"{t}:{i}" for t, i in owned)],
                       user=uid, group=uid, extra_groups=[], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, timeout=30, check=False)
    return _sysv_owned(uid)


class Sandbox:
    """The directories and identity of one recording group."""

    def __init__(self, work_dir: str, index: int, uid: int | None) -> None:
        self.index = index
        self.uid = uid
        self.work_dir = work_dir
        self.dir = os.path.join(work_dir, f"g{index}")
        self.tmp = os.path.join(self.dir, "tmp")

    def prepare(self) -> None:
        """Fresh, empty directories for the group (owned by its uid when isolated)."""
        remove_tree(self.dir)
        os.makedirs(self.tmp, mode=0o700)
        if self.uid is not None:
            for path in (self.dir, self.tmp):
                os.chown(path, self.uid, self.uid)
                os.chmod(path, 0o700)

    def fresh_tmp(self) -> None:
        """An empty temp dir again, and the group's dir as prepare() left it: what one child of the group
        (tests, an instance parser) did to them never reaches the next. Call it when the uid has no processes."""
        if self.uid is not None:
            os.chown(self.dir, self.uid, self.uid)  # a real directory: the uid cannot replace it in work_dir
            os.chmod(self.dir, 0o700)
        if os.path.islink(self.tmp) or (os.path.lexists(self.tmp) and not os.path.isdir(self.tmp)):
            os.unlink(self.tmp)
        remove_tree(self.tmp)
        os.mkdir(self.tmp, 0o700)
        if self.uid is not None:
            os.chown(self.tmp, self.uid, self.uid)
            os.chmod(self.tmp, 0o700)

    def path(self, name: str) -> str:
        return os.path.join(self.dir, name)

    def write_private(self, name: str, text: str) -> str:
        """A file the group's tests may read but that the driver wrote (root-owned when isolated)."""
        path = self.path(name)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        return path

    def handover(self, data: bytes) -> IO[bytes]:
        """A private copy of `data` for one child's stdin: an unlinked, root-owned file outside the group's dirs.

        The child reads it through the descriptor it is given; no path names it, so no other process of the
        group's uid (an earlier instance parser, say) can swap or change what it reads.
        """
        handle = tempfile.TemporaryFile(dir=self.work_dir)
        handle.write(data)
        handle.flush()
        handle.seek(0)
        return handle

    # -- what pytest_run and instance_parser ask ------------------------------

    def popen_options(self) -> dict[str, Any]:
        if self.uid is None:
            return {}
        return {"user": self.uid, "group": self.uid, "extra_groups": [], "umask": 0o077}

    def environment(self, env: dict[str, str]) -> dict[str, str]:
        env = dict(env, TMPDIR=self.tmp, TEMP=self.tmp, TMP=self.tmp)
        if self.uid is not None:
            env.update(HOME=self.tmp, USER=f"tracegate{self.uid}", LOGNAME=f"tracegate{self.uid}")
        return env

    def kill_processes(self, child: subprocess.Popen[bytes]) -> int:
        """Kills what the run left running; how many processes were found still alive."""
        exited = child.poll() is not None
        left = 0
        try:
            os.killpg(child.pid, signal.SIGKILL)
            left = 1 if exited else 0  # the group outlived its leader
        except (ProcessLookupError, PermissionError):
            pass
        child.wait()
        if self.uid is None:
            return left
        survivors = _uid_processes(self.uid)
        if not survivors:
            return left
        subprocess.run([sys.executable, "-I", "-S", "-c", _KILLER], user=self.uid, group=self.uid, extra_groups=[],
                       stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       timeout=30, check=False)
        for _ in range(50):  # the driver (CAP_KILL) finishes off any that raced the helper
            reap_orphans()
            remaining = _uid_processes(self.uid)
            if not remaining:
                break
            for pid in remaining:
                try:
                    os.kill(pid, signal.SIGKILL)
                except OSError:
                    pass
            time.sleep(0.01)
        reap_orphans()
        return max(left, len(survivors))

    def cleanup(self, keep: tuple[str, ...] = ()) -> None:
        """Deletes what the group left: its uid's files everywhere it could write, then its dirs."""
        if self.uid is not None:
            for root in SCRUB_ROOTS:
                _remove_owned(root, self.uid)
            left = _remove_sysv(self.uid)
            if left:
                print(f"tracegate: group {self.index} left SysV IPC objects that could not be removed: "
                      f"{left[:5]}", file=sys.stderr)
        remove_tree(self.tmp)
        if not keep:
            remove_tree(self.dir)
            return
        for name in os.listdir(self.dir) if os.path.isdir(self.dir) else ():
            if not any(fnmatch.fnmatchcase(name, pattern) for pattern in keep):
                path = self.path(name)
                if os.path.isdir(path) and not os.path.islink(path):
                    remove_tree(path)
                else:
                    os.unlink(path)
