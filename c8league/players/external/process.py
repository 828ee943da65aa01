"""The bot's process: starting it with its limits, waiting for it, killing it, and
saying why it ended.

The bot runs in a process group of its own and in an
:class:`~c8league.players.containment.Enclosure` (on Linux a cgroup of its own, or its
process tree), ended whole with everything it started when the bot is closed, however
those processes left it (``setsid``, a double fork). So that this happens whatever
happens to the process that started it (``kill -9`` included), each such process has
a :class:`~c8league.players.containment.Reaper`, a tiny process in a session of its own
that every bot registers with before it runs, and that ends the registered groups and
cgroups once that process is gone.

The memory limit is the POSIX data-size limit (``resource``). On Windows the bot runs
without a memory limit, in a job object that does the reaper's part (see
:mod:`c8league.players.external.windows`).
"""

from __future__ import annotations

import contextlib
import os
import re
import select
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from typing import IO, Any

from c8league import sandbox
from c8league.players.containment import (
    Enclosure,
    Keeper,
    Reaper,
    children,
    oldest,
    process_state,
)
from c8league.players.external import windows

try:
    import resource
except ImportError:  # not POSIX (Windows): bots run without resource limits
    resource = None  # type: ignore[assignment]

SIGKILL: int = getattr(signal, "SIGKILL", 9)
"""The status of a killed process (minus it); Windows has no such signal."""

LIMITED = resource is not None and sys.platform != "win32"
"""Whether the bot's ``memory_mb`` is applied (the hello tells the bot 0, no limit,
where it is not)."""

_MEMORY_MARKERS = re.compile(
    rb"MemoryError|out of memory|cannot allocate memory|bad_alloc|OutOfMemoryError"
    rb"|memory allocation of \d+ bytes failed",
    re.IGNORECASE,
)


class BotProcess:
    """A bot's running process, in a process group and an enclosure of its own registered
    with this process's reaper, its data memory limited to ``memory_mb`` MiB (0: no
    limit) and no core dumps; with ``sandboxed`` settings, in a sandbox
    (:mod:`c8league.sandbox`; ``env`` is then what the bot is given, not added to
    c8league's environment). Its standard input and output are pipes (:attr:`stdin`,
    :attr:`stdout`); its standard error goes to the descriptor ``stderr``.

    Raises :class:`OSError` or :class:`subprocess.SubprocessError` if it cannot start,
    :class:`~c8league.sandbox.SandboxError` if it cannot be sandboxed.
    """

    def __init__(
        self,
        command: Sequence[str],
        *,
        stderr: int,
        memory_mb: int,
        cwd: str | None = None,
        env: Mapping[str, str] | None = None,
        sandboxed: sandbox.Settings | None = None,
    ) -> None:
        keeper = None if sys.platform == "win32" else Keeper.here()
        self.enclosure: Enclosure | None = None
        """Where the bot and what it starts are kept (None on Windows: a job object)."""
        self.sandbox: sandbox.Wrapped | None = None
        """How the bot is sandboxed (None: it is not)."""
        self._core: set[int] | None = None
        reaper = None
        if keeper is not None:
            self.enclosure = keeper.enclosure()
            reaper = keeper.reaper()
        options: list[int] = []
        if sandboxed is not None:
            try:
                self.sandbox = sandbox.wrap(
                    command,
                    settings=sandboxed,
                    cwd=cwd,
                    env=env,
                    number=0 if self.enclosure is None else self.enclosure.number,
                )
            except BaseException:
                if self.enclosure is not None:
                    self.enclosure.close()
                raise
            read, write = os.pipe()
            try:
                os.write(write, self.sandbox.options)
            finally:
                os.close(write)
            options.append(read)
            command, cwd, env = self.sandbox.argv(read), None, {}
        if self.enclosure is not None:
            env = {**(os.environ if env is None else env), **self.enclosure.environment}
        nproc = 0 if self.sandbox is None else self.sandbox.max_processes
        try:
            self._popen = subprocess.Popen(
                command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=stderr,
                cwd=cwd,
                env=env,
                bufsize=0,
                pass_fds=options,
                **_process_options(memory_mb, reaper, self.enclosure, nproc),
            )
        except BaseException:
            if self.enclosure is not None:
                self.enclosure.close()
            raise
        finally:
            for fd in options:
                os.close(fd)
        popen = self._popen
        if self.enclosure is not None:
            self.enclosure.started(popen.pid)
        self._reaper = reaper
        assert popen.stdin is not None and popen.stdout is not None
        self.stdin: IO[bytes] = popen.stdin
        self.stdout: IO[bytes] = popen.stdout
        self.pid = popen.pid
        self.started_at = time.monotonic()
        """When it was started (``time.monotonic()``)."""
        self.max_rss_kb = 0
        """Its peak resident memory (KiB), known once it has been waited for."""
        self._job = windows.Job.holding(popen.pid)
        self._pidfd = -1
        if hasattr(os, "pidfd_open"):
            with contextlib.suppress(OSError):
                self._pidfd = os.pidfd_open(popen.pid)

    @property
    def returncode(self) -> int | None:
        """Its exit status once waited for: the exit code, or minus the signal."""
        return self._popen.returncode

    def wait(self, timeout: float, drain: Callable[[], int]) -> bool:
        """Wait up to ``timeout`` seconds for the process to exit; keep its status.
        While waiting, ``drain()`` copies what the bot writes to its standard error (a
        bot blocked writing to a full pipe would never exit) and returns that pipe's
        descriptor to watch, -1 for none."""
        proc = self._popen
        if proc.returncode is not None:
            return True
        end = time.monotonic() + timeout
        delay = 0.0005
        while True:
            if self._exited():
                return True
            remaining = end - time.monotonic()
            if remaining <= 0:
                return False
            errors = drain()
            if self._pidfd >= 0:  # readable when the process exits
                poll = select.poll()
                poll.register(self._pidfd, select.POLLIN)
                if errors >= 0:
                    poll.register(errors, select.POLLIN)
                poll.poll(remaining * 1000)
            else:
                time.sleep(min(delay, remaining))
                delay = min(delay * 2, 0.02)

    def exited(self) -> bool:
        """Whether the process has exited (its status is then kept); never waits."""
        return self._exited()

    def end_children(self) -> int:
        """End what the bot started and left running, however it left the bot (a double
        fork, ``setsid``: see its :class:`~c8league.players.containment.Enclosure`),
        leaving the bot itself running: at the end of a match, when its process is kept
        for the next. How many processes were ended. On Windows, and on POSIX systems
        other than Linux for what left the bot's process group, this waits for the
        bot's end, when its job or group is ended whole."""
        if self.enclosure is None:
            return 0
        return self.enclosure.sweep(self._sandbox_core())

    def _sandbox_core(self) -> set[int]:
        """A sandboxed bot's processes that are the sandbox itself, not what the bot
        started: bubblewrap, its first process in the sandbox, and the bot's program (the
        oldest child of that process; the others were adopted by it, having left the
        bot). Empty for a bot without a sandbox."""
        if self.sandbox is None:
            return set()
        if self._core is None:
            core = {self.pid}
            for first in children(self.pid):
                core.add(first)
                bot = oldest(children(first))
                if bot is not None:
                    self._core = core | {bot}
                    return self._core
            return core
        return self._core

    def _exited(self) -> bool:
        """Whether the process has exited, keeping its status (and, where the system
        says, its peak memory); never waits."""
        proc = self._popen
        if not hasattr(os, "wait4"):  # Windows: no resource usage
            return proc.poll() is not None
        try:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        except ChildProcessError:  # reaped elsewhere: the status is lost
            proc.returncode = -SIGKILL
            return True
        if not pid:
            return False
        proc.returncode = os.waitstatus_to_exitcode(status)
        if self.sandbox is not None and proc.returncode > 0:
            proc.returncode = sandbox.exit_status(proc.returncode)
        rss = usage.ru_maxrss
        self.max_rss_kb = rss // 1024 if sys.platform == "darwin" else rss
        return True

    def stopped(self) -> bool:
        """Whether a process of the bot is stopped (``SIGSTOP``, a debugger) (Linux; False
        elsewhere)."""
        if self._popen.returncode is not None:
            return False
        pids = [self.pid] if self.enclosure is None else self.enclosure.processes()
        return any(process_state(pid) in ("T", "t") for pid in pids)

    def stopped_note(self) -> str:
        """What a timeout's detail adds when a process of the bot is stopped: in a sandbox,
        where no other bot can reach it, its own doing; outside one, blame assumes that
        bots do not stop one another (see docs/faults.md)."""
        return " (its process was found stopped, as by SIGSTOP)" if self.stopped() else ""

    def kill(self) -> None:
        """Kill the bot and anything it started (its enclosure and process group, or on
        Windows its job); it is then the reaper's concern no more. It still has to be
        waited for."""
        if sys.platform == "win32":
            windows.kill_tree(self.pid, self._job)
            self._job = None
        elif self.enclosure is not None:
            self.enclosure.kill()
        if self._reaper is not None:
            self._reaper.forget_group(self.pid)

    def close(self) -> None:
        """Release what watches the process (once it has been killed and waited for)."""
        if self._pidfd >= 0:
            with contextlib.suppress(OSError):
                os.close(self._pidfd)
            self._pidfd = -1
        if self.enclosure is not None:
            self.enclosure.close()


def _open_oom_adj() -> int:
    """This process's ``/proc/self/oom_score_adj`` open for writing, or -1 (not Linux)."""
    try:
        return os.open("/proc/self/oom_score_adj", os.O_WRONLY)
    except OSError:
        return -1


def exit_fault(
    code: int, when: str, stderr_tail: bytes, memory_mb: int, max_rss_kb: int
) -> tuple[str, str]:
    """The fault of a bot that ended with status ``code`` ``when`` (e.g. "before
    answering the move request"): its reason, ``memory`` or ``crash``, and its detail,
    with the line of standard error that says why (``stderr_tail``: its last bytes).

    Out of memory: its standard error says so, it was killed by ``SIGKILL`` (the
    kernel's out-of-memory killer), or it failed with its peak memory near the limit.
    """
    if code < 0:
        try:
            how = f"was killed by {signal.Signals(-code).name}"
        except ValueError:
            how = f"was killed by signal {-code}"
    else:
        how = f"exited with code {code}"
    marker = _MEMORY_MARKERS.search(stderr_tail)
    near_limit = memory_mb > 0 and max_rss_kb >= 0.9 * memory_mb * 1024
    reason = "crash"
    if marker or code == -SIGKILL or (code != 0 and near_limit):
        reason = "memory"
    line = _marker_line(stderr_tail, marker) if marker else _last_line(stderr_tail)
    said = f"; stderr: {line}" if line else ""
    return reason, f"the bot {how} {when}{said}"


def _last_line(tail: bytes) -> str:
    lines = [ln for ln in tail.decode("utf-8", "replace").splitlines() if ln.strip()]
    return lines[-1].strip()[:200] if lines else ""


def _marker_line(tail: bytes, marker: re.Match[bytes]) -> str:
    start = tail.rfind(b"\n", 0, marker.start()) + 1
    end = tail.find(b"\n", marker.end())
    return tail[start : end if end >= 0 else len(tail)].decode("utf-8", "replace").strip()[:200]


def _process_options(
    memory_mb: int, reaper: Reaper | None, enclosure: Enclosure | None, nproc: int = 0
) -> dict[str, Any]:
    """How the bot's process is started: in a process group of its own; on POSIX in its
    enclosure, registered with the reaper and with its resource limits."""
    if sys.platform == "win32":
        return windows.popen_options()
    return {
        "start_new_session": True,
        "preexec_fn": _prepare(memory_mb, -1 if reaper is None else reaper.fd, enclosure, nproc),
    }


def _prepare(
    memory_mb: int, reaper: int, enclosure: Enclosure | None, nproc: int = 0
) -> Callable[[], None]:
    """What the bot's process does before it runs (POSIX): enter its enclosure, register
    its new process group with the reaper (the pipe's end ``reaper``, closed when the
    bot's program starts), make it a process the kernel ends first when the machine runs
    out of memory (Linux ``oom_score_adj`` 1000: before c8league and its workers), and
    set its resource limits (where the ``resource`` module is: not on
    every system): ``nproc``, if not 0, the processes its user may have (a sandbox's user
    of its own)."""
    limit = memory_mb * 1024 * 1024
    if resource is not None:
        _, hard = resource.getrlimit(resource.RLIMIT_DATA)
        if hard != resource.RLIM_INFINITY:
            limit = min(limit, hard)

    def apply() -> None:
        for name in ("SIGINT", "SIGTERM", "SIGHUP"):  # as a program started anew has them
            if hasattr(signal, name):
                with contextlib.suppress(ValueError, OSError):
                    signal.signal(getattr(signal, name), signal.SIG_DFL)
        if enclosure is not None:
            enclosure.enter()
        if reaper >= 0:
            with contextlib.suppress(OSError):
                os.write(reaper, b"+%d\n" % os.getpid())
        oom = _open_oom_adj()  # (what it starts inherits it)
        if oom >= 0:
            with contextlib.suppress(OSError):
                os.write(oom, b"1000")
            os.close(oom)
        if resource is None:
            return
        # RLIMIT_DATA counts the memory a program writes to (heap and private
        # mappings), not address space reserved but unused: Node.js, Java and Go
        # reserve gigabytes of address space, so RLIMIT_AS would stop them early.
        if memory_mb > 0:
            resource.setrlimit(resource.RLIMIT_DATA, (limit, limit))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        if nproc > 0:
            resource.setrlimit(resource.RLIMIT_NPROC, (nproc, nproc))

    return apply
