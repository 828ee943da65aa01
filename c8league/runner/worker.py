"""Worker processes: where players run, watched from the process that needs their results.

A player runs arbitrary code: it may end its process (``os._exit``, a crash in native
code, the out-of-memory killer), or hang where no timer in its own process can reach it
(one long C call, a loop that swallows every exception). So matches are played in
worker processes, and the supervising process (the runner, ``bots check``) watches
them through a :class:`Slot` in shared memory, where the match loop writes which player
it is calling (see :class:`~c8league.runner.loop.Watch`). A worker that dies or hangs
is killed and replaced; the slot says which seat was being called, at which call.
Its death is known from its exit (a pidfd, where Linux has one): the end of its pipe
alone decides nothing, since a player may close the worker's files and go on, and the
slot is read once the worker has exited.

A worker is a fork of its supervisor (players registered in-process come along) or,
with :func:`exec_worker`, a fresh interpreter (for processes that must not fork, such as
a Dask worker with its threads). Either way it

* dies with its supervisor: on Linux through the parent-death signal (``prctl``), and
  elsewhere through a thread that watches the parent's process id;
* ignores SIGINT, SIGTERM and SIGHUP: a Ctrl-C at the terminal (or ``timeout``, or
  the terminal closing) reaches the whole process group, and stopping the run is the
  supervisor's business (a ``KeyboardInterrupt`` in a worker therefore always comes
  from a player, see ``runner.loop.user_interrupt``);
* keeps what its players start (:class:`~c8league.players.containment.Keeper`): after
  each job it ends what they left running; after it exits its supervisor ends what it
  left (:func:`~c8league.players.containment.released`);
* reads jobs from a pipe and answers with messages: ``("report", key, value)`` as soon
  as a result is known (the reports of a chunk of matches, before the last match's
  players are closed), then ``("done", key, value)``, ``("failed", key, traceback)``
  if the job itself broke, or ``("replay", key, (why, reports))`` if the machine held
  a match up (see :class:`~c8league.errors.MachineFault`; the reports are those of the
  chunk's matches before it). A worker whose players left threads running ends its
  chunk after that match and exits once its job is done (they could not harm a later
  match).
"""

from __future__ import annotations

import contextlib
import ctypes
import mmap
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from multiprocessing import Pipe
from multiprocessing.connection import Connection, wait
from typing import Any

from c8league.errors import MachineFault
from c8league.interrupts import Stopped
from c8league.players.containment import Keeper, process_state, released
from c8league.players.external import keep
from c8league.results import MatchReport
from c8league.runner import guard, interleave
from c8league.runner.clock import run_delay
from c8league.runner.loop import HOOKS, Stop
from c8league.runner.tasks import (
    IDLE,
    STARTING,
    MatchTask,
    play_task,
)

GRACE_SECONDS = (0.5, 5.0)
"""How long past a match's limit a worker may go on before it is killed from outside:
the limit itself, but at least 0.5 and at most 5 seconds."""
CLOSE_SECONDS = 30.0
"""How long a worker may take to close a match's players once its result is out."""
STRAY_SECONDS = 4
"""A worker past its limit, but between two player calls, is given this many grace
periods before it is killed (it is usually just sending its report)."""
POLL_SECONDS = 0.05
"""How often a worker's progress is looked at while it may be about to overrun."""
EXIT_WAIT_SECONDS = 5.0
"""How long a worker that closed its end of the pipe is waited for where its exit cannot
be watched (no pidfd) before it is killed."""

_PR_SET_PDEATHSIG = 1


def grace(limit: float) -> float:
    low, high = GRACE_SECONDS
    return min(high, max(low, limit))


class Slot(ctypes.Structure):
    """A worker's progress, in memory shared with its supervisor."""

    _fields_ = [
        ("job", ctypes.c_int64),
        ("since", ctypes.c_double),
        ("phase", ctypes.c_int32),
        ("turn", ctypes.c_int32),
        ("calls", ctypes.c_int64),
        ("move", ctypes.c_int32),
        ("hook", ctypes.c_int32),
        ("index", ctypes.c_int32),
        ("lost", ctypes.c_double),
        ("ticked", ctypes.c_double),
        ("delay", ctypes.c_double),
        ("owners", ctypes.c_int32),
    ]
    job: int
    """The key of the job being run."""
    since: float
    """When the job began (``time.monotonic``, the same clock in every process)."""
    phase: int
    """``IDLE``, ``STARTING``, ``PLAYING`` or ``CLOSING`` (``runner.tasks``)."""
    turn: int
    calls: int
    move: int
    hook: int
    index: int
    """Which match of the job's chunk is being played (from 0)."""
    lost: float
    """Seconds of the match in which the worker could not run (``runner.clock.Clock``)."""
    ticked: float
    delay: float
    """The worker's time waiting for a processor when its clock last looked (-1: not
    yet in this match)."""
    owners: int
    """The seats (a bit each) of guarded players whose threads outlived their calls
    (``runner.guard``), in the match being played."""


@dataclass(frozen=True)
class Snapshot:
    """A copy of a :class:`Slot`, taken when its worker died or hung."""

    job: int
    since: float
    phase: int
    turn: int
    calls: int
    move: int
    hook: int
    index: int = 0
    owners: int = 0

    @property
    def busy(self) -> bool:
        """A player call is under way (``turn`` is its seat)."""
        return self.turn >= 0

    @property
    def seat(self) -> int:
        """The seat of the call under way, or of the last call made."""
        return self.turn if self.turn >= 0 else -1 - self.turn

    @property
    def call_name(self) -> str:
        return HOOKS[self.hook] if 0 <= self.hook < len(HOOKS) else "a call"

    def same_point(self, other: Snapshot) -> bool:
        """Whether two deaths of a match's process happened at the same point, with no
        other seat's code able to run then: the evidence that the call there ended it."""
        if (self.phase, self.busy, self.seat, self.calls) != (
            other.phase,
            other.busy,
            other.seat,
            other.calls,
        ):
            return False
        others = (self.owners | other.owners) & ~(1 << self.seat if self.seat >= 0 else 0)
        return not others


Handler = Callable[[Any, Slot, Callable[[object], None]], object]
"""Runs one job in a worker: ``(job, slot, send) -> value``; ``send`` sends an early
message."""


class Worker:
    """One worker process and its end of the pipe. Use :func:`fork_worker` or
    :func:`exec_worker` to start one."""

    def __init__(self, pid: int, conn: Connection, slot: Slot, memory: mmap.mmap) -> None:
        self.pid = pid
        self.conn = conn
        self.slot = slot
        self._memory = memory
        self.returncode: int | None = None
        self.pipe_closed = False
        """The worker closed its end of the pipe (it is exiting, or a player closed it)."""
        self.suspect: float | None = None
        """When the worker was first seen past its time (see :func:`overrun`)."""
        self.pidfd = -1
        """Readable once the worker has exited (Linux), -1 where there is none."""
        if hasattr(os, "pidfd_open"):
            with contextlib.suppress(OSError):
                self.pidfd = os.pidfd_open(pid)
        Keeper.here().keep(pid)
        _ENDS.add(conn)

    def __repr__(self) -> str:
        return f"<Worker {self.pid}>"

    def send(self, job: object) -> bool:
        """Send a job (None: exit when idle); False if the worker is gone."""
        try:
            self.conn.send(job)
        except (OSError, ValueError):
            return False
        return True

    def receive(self) -> tuple[list[tuple[Any, ...]], bool]:
        """The messages waiting, and whether the worker has exited (or, where its exit
        cannot be watched, closed its end of the pipe)."""
        messages: list[tuple[Any, ...]] = []
        if not self.pipe_closed:
            try:
                while self.conn.poll():
                    messages.append(self.conn.recv())
            except (EOFError, OSError):
                self.pipe_closed = True
        if self.pidfd >= 0:
            return messages, self.exited()
        return messages, self.pipe_closed

    def waitables(self) -> list[Connection | int]:
        """What to wait on for this worker's messages and exit."""
        found: list[Connection | int] = [] if self.pipe_closed else [self.conn]
        if self.pidfd >= 0:
            found.append(self.pidfd)
        return found

    def exited(self) -> bool:
        """Whether the worker has exited (its pidfd is readable); never waits."""
        if self.returncode is not None:
            return True
        if self.pidfd < 0:
            return False
        return bool(wait([self.pidfd], 0))

    def stopped(self) -> bool:
        """Whether the worker is stopped (``SIGSTOP``, a debugger): not running by its own
        doing (Linux; False elsewhere)."""
        return self.returncode is None and process_state(self.pid) in ("T", "t")

    def waited(self) -> float:
        """Seconds the worker has waited for a processor since its match clock last looked
        (Linux; 0.0 elsewhere, or before its clock first looked)."""
        last = self.slot.delay
        if last < 0:
            return 0.0
        return max(0.0, run_delay(self.pid) - last)

    def snapshot(self) -> Snapshot:
        s = self.slot
        return Snapshot(
            job=s.job,
            since=s.since,
            phase=s.phase,
            turn=s.turn,
            calls=s.calls,
            move=s.move,
            hook=s.hook,
            index=s.index,
            owners=s.owners,
        )

    def kill(self) -> None:
        """Kill the worker (its players' processes are killed by their reaper) and reap it."""
        self.signal_kill()
        self.reap()

    def signal_kill(self) -> None:
        """Send the worker SIGKILL, not waiting for it to exit: from a thread other than
        the one that reaps it."""
        if self.returncode is None:
            with contextlib.suppress(OSError):
                os.kill(self.pid, signal.SIGKILL)

    def reap(self, timeout: float | None = None) -> bool:
        """Wait up to ``timeout`` seconds (None: for ever) for the worker to exit."""
        if self.returncode is not None:
            return True
        end = None if timeout is None else time.monotonic() + timeout
        while True:
            try:
                pid, status = os.waitpid(self.pid, 0 if end is None else os.WNOHANG)
            except ChildProcessError:
                self.returncode = -signal.SIGKILL
                break
            if pid:
                self.returncode = os.waitstatus_to_exitcode(status)
                break
            assert end is not None
            remaining = end - time.monotonic()
            if remaining <= 0:
                return False
            if self.pidfd >= 0:
                wait([self.pidfd], remaining)  # readable at its exit: no polling
            else:
                time.sleep(min(0.005, remaining))
        self.close()
        released(self.pid)  # what it left running: its players' processes
        return True

    def stop(self, timeout: float = 5.0) -> None:
        """Ask the worker to exit once idle; kill it if it has not within ``timeout``."""
        if self.returncode is None:
            self.send(None)
            if not self.reap(timeout):
                self.kill()

    def close(self) -> None:
        _ENDS.discard(self.conn)
        self.conn.close()
        if self.pidfd >= 0:
            with contextlib.suppress(OSError):
                os.close(self.pidfd)
            self.pidfd = -1
        with contextlib.suppress(BufferError, ValueError):
            self._memory.close()

    def how(self) -> str:
        """How the worker ended, in words: ``exited with code 7``, ``was killed by SIGSEGV``."""
        if self.returncode == guard.FILES_CLOSED_EXIT:
            return "lost its pipe to c8league (a player closed its files)"
        return exit_words(self.returncode)


_ENDS: set[Connection] = set()
"""The supervisor's ends of every live worker's pipe: a new worker closes its copies, so
that each worker sees the end of its own pipe when its supervisor dies."""


def exit_words(code: int | None) -> str:
    if code is None:
        return "ended"
    if code >= 0:
        return f"exited with code {code}"
    try:
        return f"was killed by {signal.Signals(-code).name}"
    except ValueError:
        return f"was killed by signal {-code}"


def can_fork() -> bool:
    """Whether workers can be forked here (POSIX)."""
    return hasattr(os, "fork")


SEND_BUFFER = 4 << 20
"""The size asked of the buffer of a worker's messages to its supervisor (the system may
give less): a chunk's reports then fit in it, and the worker goes on playing while its
supervisor is busy storing results rather than reading."""


def _pipe() -> tuple[Connection, Connection]:
    """The supervisor's end and the worker's end of a new worker's pipe."""
    here, there = Pipe()
    with contextlib.suppress(OSError, ValueError, AttributeError):
        end = socket.socket(fileno=os.dup(there.fileno()))
        try:
            end.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER)
        finally:
            end.close()
    return here, there


def fork_worker(handler: Handler) -> Worker:
    """Fork a worker that runs ``handler`` for each job it is sent."""
    memory = mmap.mmap(-1, ctypes.sizeof(Slot))
    slot = Slot.from_buffer(memory)
    here, there = _pipe()
    parent = os.getpid()
    Keeper.here()  # chosen before the first worker: it may adopt what a worker leaves
    with interrupts_blocked():
        pid = os.fork()
    if pid == 0:  # the worker
        code = 0
        try:
            here.close()
            for end in list(_ENDS):
                end.close()
            _ENDS.clear()
            become_worker(parent)
            serve(there, slot, handler)
        except (KeyboardInterrupt, Stopped):  # a stop signal that beat become_worker: the
            code = 70  # run is being stopped, and says so itself
        except BaseException:
            code = 70
            with contextlib.suppress(BaseException):
                traceback.print_exc()
        finally:
            with contextlib.suppress(BaseException):
                keep.release()  # the bots kept between matches are told to quit
            os._exit(code)
    there.close()
    return Worker(pid, here, slot, memory)


def exec_worker() -> Worker:
    """Start a worker in a fresh interpreter that plays match tasks
    (:func:`serve_matches`): for a process that must not fork, e.g. one with threads
    that may hold locks."""
    size = ctypes.sizeof(Slot)
    fd = os.memfd_create("c8league-slot") if hasattr(os, "memfd_create") else _temp_fd()
    try:
        os.ftruncate(fd, size)
        memory = mmap.mmap(fd, size)
        here, there = _pipe()
        argv = [str(there.fileno()), str(fd), str(os.getpid())]
        Keeper.here()
        with interrupts_blocked():  # the blocked mask outlives exec until the worker is set up
            proc = subprocess.Popen(
                [sys.executable, "-m", "c8league.runner.worker", *argv],
                pass_fds=(there.fileno(), fd),
                stdin=subprocess.DEVNULL,
            )
    finally:
        os.close(fd)
    there.close()
    proc.returncode = 0  # the Worker reaps it: keep subprocess from reaping it first
    return Worker(proc.pid, here, Slot.from_buffer(memory), memory)


def _temp_fd() -> int:
    fd, path = tempfile.mkstemp(prefix="c8league-slot-")
    os.unlink(path)
    return fd


STOP_SIGNALS: tuple[signal.Signals, ...] = tuple(
    getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name)
)
"""The signals that stop a run (Ctrl-C, ``kill``, a closed terminal): the supervisor's
to handle, ignored by workers."""


@contextlib.contextmanager
def interrupts_blocked() -> Iterator[None]:
    """Block the :data:`STOP_SIGNALS` in this thread for the block: a process started
    inside it (fork, or fork and exec) begins with them blocked, so a Ctrl-C that
    arrives while it starts waits until :func:`become_worker` ignores it, instead of
    raising in the new process before it is a worker. In this process a signal that
    arrived meanwhile is delivered when the block ends."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, set(STOP_SIGNALS))
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def become_worker(parent: int) -> None:
    """Set up this process as a worker of ``parent``: die with it, ignore the signals
    that stop a run (the supervisor stops it), no terminal input. SIGTERM and SIGHUP
    get a handler that does nothing rather than being ignored, so that the programs
    its players start do not inherit their being ignored."""
    for number in STOP_SIGNALS:
        ignored = number == signal.SIGINT  # (see runner.loop.user_interrupt)
        signal.signal(number, signal.SIG_IGN if ignored else _ignore)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, set(STOP_SIGNALS))
    for number in (signal.SIGALRM, signal.SIGCHLD):
        signal.signal(number, signal.SIG_DFL)
    with contextlib.suppress(OSError):
        devnull = os.open(os.devnull, os.O_RDONLY)
        os.dup2(devnull, 0)
        os.close(devnull)
    if not die_with_parent(parent):
        threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()


def _ignore(signum: int, frame: object) -> None:
    """A stop signal in a worker: the supervisor's to handle."""


def die_with_parent(parent: int) -> bool:
    """Ask the kernel to kill this process when its parent dies (Linux); exit at once if
    ``parent`` is already gone. False where the kernel cannot."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) != 0:
            return False
    except (OSError, AttributeError):
        return False
    if os.getppid() != parent:
        os._exit(1)
    return True


def _watch_parent(parent: int) -> None:
    while True:
        time.sleep(0.5)
        if os.getppid() != parent:
            os._exit(1)


def serve(conn: Connection, slot: Slot, handler: Handler) -> None:
    """The worker's loop: run each job sent until the pipe closes or None arrives; after
    each, end what its players left running. A worker whose pipe a player closed exits
    with :data:`~c8league.runner.guard.FILES_CLOSED_EXIT`."""
    keeper = Keeper.here()
    keeper.hold_later()  # at the first bot not of c8league
    guard.watch_pipe(conn.fileno())

    def send(message: object) -> None:
        try:
            conn.send(message)
        except OSError:
            if guard.pipe_intact():
                raise
            os._exit(guard.FILES_CLOSED_EXIT)

    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            if not guard.pipe_intact():
                os._exit(guard.FILES_CLOSED_EXIT)
            return
        if job is None:
            return
        key = job[0]
        slot.job, slot.index = key, 0
        begin(slot)
        try:
            message: tuple[object, ...] = ("done", key, handler(job, slot, send))
        except MachineFault as exc:
            done = exc.reports if isinstance(exc, HeldUp) else []
            message = ("replay", key, (str(exc), done))
        except BaseException:
            message = ("failed", key, traceback.format_exc())
        slot.phase = IDLE
        keeper.sweep()
        send(message)
        if slot.owners:  # players' threads still run: they must not reach another match
            return


def begin(slot: Slot) -> None:
    """A job, or a match of a chunk, begins: its clock and its evidence start afresh."""
    now = time.monotonic()
    slot.since, slot.phase, slot.turn, slot.calls = now, STARTING, -1, 0
    slot.lost, slot.ticked, slot.delay, slot.owners = 0.0, now, -1.0, 0


class HeldUp(MachineFault):
    """The machine held up a match of a chunk (see :func:`play_match_job`): the reports
    of the chunk's matches before it go with it."""

    def __init__(self, why: str, reports: list[MatchReport]) -> None:
        super().__init__(why)
        self.reports = reports


@dataclass(frozen=True)
class JobEnd:
    """How one job sent to a worker ended (see :func:`supervise`)."""

    kind: str
    """``done`` (``value`` is what it sent), ``failed`` (``value`` is the traceback),
    ``died`` or ``hung`` (the worker was killed; ``snapshot`` says where it was), or
    ``machine`` (the machine held the job up: ``value`` says how; play it again)."""
    value: Any = None
    snapshot: Snapshot | None = None
    how: str = ""
    """For ``died``: how the worker ended, in words."""


CONFIRM_SECONDS = 0.15
"""A worker that seems to have overrun is looked at again this much later before it is
killed: time for its match clock to account for a stop that has just ended (the
supervisor, stopped with it, may wake first)."""


def overrun(worker: Worker, limit: float | None, now: float) -> tuple[str, float | None]:
    """For a worker that has started a job limited to ``limit`` seconds: ``hung`` if it
    has overrun (to be killed: its player's time is out), ``machine`` if it is found
    stopped (``SIGSTOP``: not its player's doing), else ``""``; and when to look again
    (None: no need).

    Its time is its match clock's (``runner.loop.Clock``), the time it could run: the
    clock's last reading, less the time the worker has waited for a processor since.
    It has overrun when it is still inside a player's call a grace period past the
    limit (the player ignores the match timer), or when it is between calls
    :data:`STRAY_SECONDS` grace periods past it (it is usually sending its report), in
    two looks :data:`CONFIRM_SECONDS` apart."""
    if limit is None:
        return "", None
    slot = worker.slot
    g = grace(limit)
    lost = slot.lost
    end = slot.since + lost + limit + g
    if now <= end:
        worker.suspect = None
        return "", end
    if worker.stopped():
        return "machine", None
    lost += worker.waited()
    end = slot.since + lost + limit + g
    if now <= end:
        worker.suspect = None
        return "", end
    if slot.turn < 0:
        end = slot.since + lost + limit + STRAY_SECONDS * g
        if now <= end:
            return "", min(end, now + POLL_SECONDS)
    if worker.suspect is None:
        worker.suspect = now
    confirm = worker.suspect + CONFIRM_SECONDS
    return ("hung", None) if now >= confirm else ("", confirm)


def supervise(worker: Worker, key: int, limit: float | None) -> JobEnd:
    """Wait for the job ``key`` sent to ``worker``: its first ``report`` or its ``done``
    (then the end of its closing, up to :data:`CLOSE_SECONDS`), its exit, or its
    overrun of ``limit`` seconds (see :func:`overrun`), when the worker is killed."""
    value: Any = None
    reported: float | None = None
    while True:
        now = time.monotonic()
        slot = worker.slot
        end: float | None
        if reported is not None:
            verdict = "hung" if now > reported + CLOSE_SECONDS else ""
            end = reported + CLOSE_SECONDS
        elif slot.job == key and slot.phase != IDLE:
            verdict, end = overrun(worker, limit, now)
        else:
            verdict, end = "", now + POLL_SECONDS  # not started yet
        if verdict:
            snapshot = worker.snapshot()
            worker.kill()
            if reported is not None:
                return JobEnd("done", value)
            if verdict == "machine":
                return JobEnd("machine", "its process was stopped", snapshot)
            return JobEnd("hung", snapshot=snapshot)
        if not wait(worker.waitables(), None if end is None else max(0.0, end - now)):
            continue
        messages, dead = worker.receive()
        for kind, got, message in messages:
            if got != key:
                continue
            if kind == "report":
                value, reported = message, time.monotonic()
            elif kind == "done":
                return JobEnd("done", message if reported is None else value)
            elif kind == "failed":
                return JobEnd("failed", message)
            elif kind == "replay":
                return JobEnd("machine", message[0])
        if dead:
            if not worker.reap(EXIT_WAIT_SECONDS):
                worker.kill()
            if reported is not None:
                return JobEnd("done", value)
            return JobEnd("died", snapshot=worker.snapshot(), how=worker.how())


# -- playing matches --------------------------------------------------------------------------

MatchJob = tuple[int, Sequence[MatchTask], Stop | None, Callable[[MatchTask], Any] | None]
"""(key, tasks, stop, play): a chunk of match tasks, played in order. ``stop`` (a
replay, see :class:`~c8league.runner.loop.Stop`) goes with a chunk of one task.
``play`` None plays each task with ``play_task``; any other function (simulated
matches, in benchmarks) is called with the task alone."""


def play_match_job(job: MatchJob, slot: Slot, send: Callable[[object], None]) -> object:
    """A :data:`Handler` that plays a chunk of match tasks and sends their reports in one
    message as soon as the last result is known, before that match's players are closed
    (the others' are closed as each ends). ``slot.index`` says which match is being
    played; each starts its clock and its evidence afresh (:func:`begin`). External
    bots that play match after match in one process are kept between matches (and
    jobs) until the worker ends (``players.external.keep``).

    After each match, what its players started and left running is ended (the
    :class:`~c8league.players.containment.Keeper`'s sweep; a kept bot's own are ended
    when it is kept). A match whose players left threads running ends the chunk: the
    reports so far are returned, the rest are played elsewhere, and the worker exits
    (see :func:`serve`). A match the machine held up raises :class:`HeldUp` with the
    reports before it."""
    key, tasks, stop, play = job
    keep.enable()  # a worker plays match after match: bots that can may keep their process
    reports: list[MatchReport] = []
    last = len(tasks) - 1
    sent = False

    def reported(report: MatchReport) -> None:
        nonlocal sent
        reports.append(report)
        if len(reports) > last:
            send(("report", key, reports))
            sent = True
        slot.since = time.monotonic()

    keeper = Keeper.here()
    early: dict[int, MatchReport] | None = None
    if play is None and stop is None:
        try:
            early = interleave.play_chunk(tasks, slot, reported)
        except MachineFault as exc:
            keeper.sweep()
            raise HeldUp(str(exc), reports) from None
        keeper.sweep()
    handed = len(reports)
    for index, task in enumerate(tasks):
        if index < handed:  # played at once with others (``runner.interleave``)
            continue
        if early and index in early:
            reported(early.pop(index))
            continue
        slot.index = index
        begin(slot)
        if play is not None:
            reported(play(task))
            continue
        count = len(reports)
        try:
            report = play_task(task, watch=slot, stop=stop, reported=reported)
        except MachineFault as exc:
            keeper.sweep()
            if len(reports) == count:
                raise HeldUp(str(exc), reports) from None
        except BaseException:
            if len(reports) == count:
                last_line = traceback.format_exc().strip().splitlines()[-1:] or ["?"]
                report = MatchReport.failed(task.match_id, f"playing it failed: {last_line[0]}")
            # (else its result is out: closing its players failed, the result stands)
        keeper.sweep()
        if len(reports) == count:  # not reported early: it could not be played
            reported(report)
        if slot.owners:  # its players' threads still run: no other match is played here
            break
    return None if sent else reports


def serve_matches(conn: Connection, slot: Slot) -> None:
    try:
        serve(conn, slot, play_match_job)
    finally:
        keep.release()


def main(argv: list[str]) -> None:
    """``python -m c8league.runner.worker PIPE_FD SLOT_FD PARENT_PID`` (see
    :func:`exec_worker`)."""
    conn = Connection(int(argv[0]))
    memory = mmap.mmap(int(argv[1]), ctypes.sizeof(Slot))
    os.close(int(argv[1]))
    become_worker(int(argv[2]))
    serve_matches(conn, Slot.from_buffer(memory))


if __name__ == "__main__":
    main(sys.argv[1:])
