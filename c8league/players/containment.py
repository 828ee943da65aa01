"""Containment: whatever a bot starts ends with its match, however it leaves the bot.

A bot may start processes of its own, and they may try to leave it: fork twice so that
the grandchild is adopted by another process, or call ``setsid`` to leave the bot's
session and process group. A process that runs bots (a worker of a run or of ``bots
check``, or the command itself) keeps them through its :class:`Keeper`, by the best
means the system offers, chosen once per process (:attr:`Keeper.mode`):

* ``cgroup`` (Linux, where cgroup v2 is mounted, the process's cgroup is writable, e.g.
  as root or in a systemd user session that delegates it, and ``cgroup.kill`` exists,
  kernel 5.14 or newer). The keeper makes a cgroup ``c8league-PID`` beside the one its
  process started in. Each bot process runs in a cgroup of its own inside it
  (``bot-N``), which no process it starts can leave and which ``cgroup.kill`` ends
  whole; a process that runs Python bots itself (a worker) moves into ``play`` inside
  it, where whatever those bots start is found.
* ``subreaper`` (Linux otherwise): the keeper is its descendants' child subreaper
  (``PR_SET_CHILD_SUBREAPER``), so that a process that leaves a bot is adopted by the
  keeper rather than by init, and is found among the keeper's own children; a bot's
  processes are found as its descendants in ``/proc``.
* ``group`` (other POSIX systems): a bot runs in a process group of its own, ended
  whole; a process that calls ``setsid`` leaves it. (On Windows the external player
  puts the bot in a job object instead, see :mod:`c8league.players.external.windows`.)

The setting ``C8LEAGUE_CGROUPS=0`` in the environment keeps c8league from making cgroups
(``subreaper`` then, on Linux).

Two objects make the interface:

* :class:`Enclosure`, one per bot process: entered by the process before its program
  runs; :meth:`~Enclosure.mark` notes what the bot runs when a match begins,
  :meth:`~Enclosure.sweep` ends what it started since, :meth:`~Enclosure.kill` ends it
  and everything it started. A bot process that serves many matches calls ``mark`` and
  ``sweep`` at each match's boundaries.
* :class:`Keeper`, one per process: makes enclosures, and with :meth:`~Keeper.hold`
  and :meth:`~Keeper.sweep` keeps what the Python bots running in this process start.
  :func:`released` ends what a keeper process left behind once it has exited.

Whatever happens to the process that keeps the bots (``kill -9`` included), its
:class:`Reaper`, a tiny process of its own, ends the cgroups and process groups that
were registered with it as soon as that process is gone.
"""

from __future__ import annotations

import contextlib
import ctypes
import itertools
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import ClassVar

PREFIX = "c8league-"
"""The name of a keeper's cgroup is this and its process id."""
ENV_VAR = "C8LEAGUE_CGROUPS"
"""``0`` (or ``off``, ``no``, ``false``): make no cgroups."""
TOKEN_VAR = "C8LEAGUE_ENCLOSURE"
"""In a bot process's environment: its enclosure's token, inherited by what it starts,
by which the processes that left it are known (``subreaper`` mode)."""
KILL_WAIT_SECONDS = 2.0
"""How long the processes of a cgroup ended whole are waited for before giving up."""
SWEEP_ROUNDS = 100
"""A process tree is swept at most this many times over (its processes may fork while
they are being ended)."""

_PR_SET_CHILD_SUBREAPER = 36
_SIGKILL: int = getattr(signal, "SIGKILL", 9)
_SIGSTOP: int | None = getattr(signal, "SIGSTOP", None)


class Keeper:
    """What this process keeps of the processes its bots start (see the module
    docstring). Use :meth:`here`: one per process, made on first use."""

    _current: Keeper | None = None
    _lock = threading.Lock()

    def __init__(self) -> None:
        self.pid = os.getpid()
        self.mode = "group" if os.name == "posix" else "none"
        self.base: Path | None = None
        """The cgroup this process started in (``cgroup`` mode)."""
        self.root: Path | None = None
        """This keeper's cgroup, ``base/c8league-PID``, made on first use."""
        self.holding = False
        """Whether this process keeps what its own Python bots start (:meth:`hold`)."""
        self.deferred = False
        """Whether it is to hold once a bot not of c8league is built (:meth:`hold_later`)."""
        self.dirty = False
        """Whether something may have been started since the last :meth:`sweep`."""
        self.kept: set[int] = set()
        """Children of this process that a sweep spares: bots' processes, workers, the
        reaper."""
        self._marked: set[int] = set()
        """Children this process had when it became a subreaper: not its bots'."""
        self._numbers = itertools.count(1)
        self._reaper: Reaper | None = None
        if sys.platform.startswith("linux"):
            base = _cgroup_base() if _cgroups_wanted() else None
            if base is not None:
                self.mode, self.base = "cgroup", base
            else:
                self._become_subreaper()

    @classmethod
    def here(cls) -> Keeper:
        """This process's keeper, made on first use (the mode is chosen then)."""
        with cls._lock:
            current = cls._current
            if current is None or current.pid != os.getpid():
                current = cls._current = Keeper()
            return current

    @classmethod
    def discard(cls) -> None:
        """Drop this process's keeper: its reaper ends what it kept (its cgroup), it is no
        subreaper any more, and the next use chooses a mode again (after a change of
        :data:`ENV_VAR`, say)."""
        with cls._lock:
            current, cls._current = cls._current, None
        if current is None or current.pid != os.getpid():
            return
        if current.root is not None:
            if current.holding and current.base is not None:
                with contextlib.suppress(OSError):  # out of the cgroup about to end
                    _write(current.base / "cgroup.procs", "0")
            end_cgroup(current.root)
        if current._reaper is not None:
            current._reaper.drop()
        if current.mode == "subreaper":
            _set_subreaper(False)

    def _become_subreaper(self) -> None:
        if _set_subreaper():
            self.mode = "subreaper"
            self._marked = set(children(self.pid))
        else:
            self.mode = "group"

    def _root(self) -> Path | None:
        """This keeper's cgroup, made (with the reaper that ends it) on first use; None,
        and ``subreaper`` mode from now on, if it cannot be made."""
        if self.root is not None or self.mode != "cgroup":
            return self.root
        assert self.base is not None
        root = self.base / f"{PREFIX}{self.pid}"
        try:
            _clear_stale(self.base)
            if root.exists():  # left by a process of the same id: end what is in it
                end_cgroup(root)
            root.mkdir()
        except OSError:
            self._become_subreaper()
            return None
        self.root = root
        self.reaper()
        return root

    # -- bots' processes ----------------------------------------------------------------

    def enclosure(self) -> Enclosure:
        """A new enclosure for a bot process about to start (see :class:`Enclosure`)."""
        self.dirty = True
        root = self._root()
        number = next(self._numbers)
        path = None
        if root is not None:
            path = root / f"bot-{number}"
            try:
                path.mkdir()
            except OSError:
                path = None
        return Enclosure(self, path, number)

    def reaper(self) -> Reaper | None:
        """This process's reaper, started on first use (None if it cannot be)."""
        reaper = self._reaper
        if reaper is not None and reaper.alive():
            return reaper
        if reaper is not None:
            reaper.drop()
        # Started from the cgroup this process began in, the reaper is born there: moving
        # a process between cgroups costs the kernel some 20 ms, so only a process that
        # has moved into ``play`` moves its reaper out of it.
        away = self.mode == "cgroup" and self.holding
        self._reaper = reaper = Reaper.start(self.base if away else None)
        if reaper is not None:
            self.kept.add(reaper.pid)
            if self.root is not None:
                reaper.register_cgroup(self.root)
        return reaper

    def reaper_pid(self) -> int | None:
        """The process id of this process's reaper, if it has one."""
        return None if self._reaper is None else self._reaper.pid

    # -- the bots running in this process -------------------------------------------------

    def hold(self) -> None:
        """Keep what the Python bots running in this process start, to be ended by
        :meth:`sweep`: move into the ``play`` cgroup (``cgroup`` mode); in ``subreaper``
        mode this process adopts them from the start."""
        if self.holding:
            return
        root = self._root()
        if root is not None:
            play = root / "play"
            try:
                play.mkdir(exist_ok=True)
                _write(play / "cgroup.procs", "0")
            except OSError:  # cannot move: keep them as a subreaper does
                self._become_subreaper()
        self.holding = self.mode in ("cgroup", "subreaper")

    def hold_later(self) -> None:
        """:meth:`hold`, but only once a Python bot not of c8league is about to be built in
        this process (:func:`before_foreign_bot`): a worker that plays c8league's own
        players (and external bots, each enclosed apart) makes no cgroup and starts no
        reaper, which would cost it tens of milliseconds before its first match."""
        self.deferred = True

    def keep(self, pid: int) -> None:
        """Spare the child ``pid`` in sweeps (a bot's process, a worker)."""
        self.kept.add(pid)

    def let_go(self, pid: int) -> None:
        self.kept.discard(pid)

    def sweep(self) -> int:
        """End what this process's bots started and left running: in ``cgroup`` mode the
        processes in this process's ``play`` cgroup but itself; in ``subreaper`` mode its
        children that it neither keeps nor had before, with everything they started.
        Returns how many processes were ended (0 when there was nothing to do)."""
        if not self.dirty:
            return 0
        self.dirty = False
        if self.mode == "cgroup" and self.holding:
            return self._sweep_play()
        if self.mode == "subreaper":
            return self._sweep_children()
        return 0

    def _sweep_play(self) -> int:
        assert self.root is not None
        play = self.root / "play"
        strays = set(cgroup_members(play)) - {self.pid}
        if not strays:
            return 0
        # Out of the cgroup, end it whole (no process in it can fork meanwhile), back in.
        try:
            _write(self.root / "cgroup.procs", "0")
            end_cgroup(play, remove=False)
            _write(play / "cgroup.procs", "0")
        except OSError:
            kill_all(strays)
        _reap(strays)
        return len(strays)

    def _sweep_children(self) -> int:
        ended: set[int] = set()
        for _ in range(SWEEP_ROUNDS):
            strays = [
                pid
                for pid in children(self.pid)
                if pid not in self.kept and pid not in self._marked and pid not in ended
            ]
            zombies = [pid for pid in strays if _zombie(pid)]
            _reap(zombies)
            live = [pid for pid in strays if pid not in zombies]
            if not live and not zombies:
                break
            for pid in live:  # its children are adopted by this process: the next round
                kill_tree(pid)
            _reap(live)
            ended.update(strays)
        return len(ended)


class Enclosure:
    """Where one bot process and everything it starts are kept: a cgroup of its own
    (``cgroup`` mode), else its process tree, the processes that left the tree but
    carry its :attr:`token` in their environment (adopted by the keeper, ``subreaper``
    mode), and its process group. Made by :meth:`Keeper.enclosure` before the process
    starts, which is given :attr:`environment`; :meth:`enter` runs in the new process
    before its program, :meth:`started` is told its process id."""

    def __init__(self, keeper: Keeper, cgroup: Path | None, number: int) -> None:
        self.keeper = keeper
        self.cgroup = cgroup
        self.number = number
        """This bot process's number among those of its keeper."""
        self.token = f"{keeper.pid}-{number}"
        self.pid = 0
        self._marked: set[int] = set()
        self._procs = -1
        if cgroup is not None:
            try:
                self._procs = os.open(cgroup / "cgroup.procs", os.O_WRONLY | os.O_CLOEXEC)
            except OSError:
                self._remove()

    @property
    def mode(self) -> str:
        """``cgroup`` if the bot has a cgroup of its own, else the keeper's mode."""
        if self.cgroup is not None:
            return "cgroup"
        return "group" if self.keeper.mode == "cgroup" else self.keeper.mode

    @property
    def environment(self) -> dict[str, str]:
        """What to add to the bot process's environment: its :attr:`token`."""
        return {TOKEN_VAR: self.token}

    def enter(self) -> None:
        """In the bot's new process, before its program runs: move into the cgroup."""
        if self._procs >= 0:
            with contextlib.suppress(OSError):
                os.write(self._procs, b"0")

    def started(self, pid: int) -> None:
        """The bot's process has started as ``pid`` (in a process group of its own)."""
        self.pid = pid
        self.keeper.keep(pid)
        if self._procs >= 0:
            os.close(self._procs)
            self._procs = -1

    def processes(self) -> list[int]:
        """The bot's process and every process it started that is still running (that
        has not left it: see the module docstring)."""
        if self.cgroup is not None:
            return cgroup_members(self.cgroup, recursive=True)
        found = [self.pid, *descendants(self.pid)] if self.pid else []
        for orphan in self._adopted():
            if orphan not in found:
                found.extend([orphan, *descendants(orphan)])
        return found

    def _adopted(self) -> list[int]:
        """The keeper's children that left this bot's tree (``subreaper`` mode)."""
        if self.keeper.mode != "subreaper":
            return []
        keeper = self.keeper
        return [
            pid
            for pid in children(keeper.pid)
            if pid not in keeper.kept and pid not in keeper._marked and _carries(pid, self.token)
        ]

    def mark(self) -> None:
        """A match begins: what runs now is the bot's own, spared by :meth:`sweep`."""
        self._marked = set(self.processes())

    def sweep(self, own: Iterable[int] = ()) -> int:
        """End what the bot started since :meth:`mark` and left running, but not the bot's
        process (nor ``own``: the processes of its sandbox, say), and wait (up to
        :data:`KILL_WAIT_SECONDS`) until it is gone; returns how many processes were
        ended."""
        if not self.pid:
            return 0
        spare = self._marked | {self.pid, *own}
        if self.cgroup is not None:
            strays = self._sweep_cgroup(spare)
        else:
            strays = [pid for pid in self.processes() if pid not in spare]
            stop_all(strays)
            kill_all(strays)
            _reap(strays)
        _gone(strays)
        return len(strays)

    def _sweep_cgroup(self, spare: set[int]) -> list[int]:
        """Kill the processes of the bot's cgroup but ``spare``; those killed."""
        assert self.cgroup is not None
        strays: list[int] = []
        frozen = _freeze(self.cgroup, True)  # no process in it forks meanwhile
        try:
            members = cgroup_members(self.cgroup, recursive=True)
            strays = [pid for pid in members if pid not in spare]
            kill_all(strays)
        finally:
            if frozen:
                _freeze(self.cgroup, False)
        return strays

    def kill(self) -> None:
        """End the bot's process and everything it started (it still has to be waited
        for, as the bot's parent does)."""
        if self.cgroup is not None:
            end_cgroup(self.cgroup, remove=False)
        else:
            tree = self.processes()
            stop_all(tree)  # none forks while the tree is looked at again
            tree.extend(pid for pid in self.processes() if pid not in tree)
            kill_all(tree)
            _reap(pid for pid in tree if pid != self.pid)  # (adopted: this process's)
        if self.pid and os.name == "posix":
            with contextlib.suppress(OSError):
                os.killpg(self.pid, _SIGKILL)

    def close(self) -> None:
        """Release the enclosure, once the bot's process has been ended and waited for."""
        if self._procs >= 0:
            os.close(self._procs)
            self._procs = -1
        if self.pid:
            self.keeper.let_go(self.pid)
        self._remove()

    def _remove(self) -> None:
        if self.cgroup is not None:
            end_cgroup(self.cgroup)
            self.cgroup = None


@contextmanager
def kept() -> Iterator[Keeper]:
    """Around a match played in this process (``c8league play``): keep what its Python
    bots start (:meth:`Keeper.hold`), and end what they left running when the block
    ends."""
    keeper = Keeper.here()
    keeper.hold()
    try:
        yield keeper
    finally:
        keeper.dirty = True
        keeper.sweep()


def before_foreign_bot() -> None:
    """A Python bot not of c8league is about to be built, its plugin perhaps imported, in
    this process: a keeper that holds later (:meth:`Keeper.hold_later`) holds now,
    before any of the bot's code runs."""
    keeper = Keeper._current
    if keeper is not None and keeper.pid == os.getpid() and keeper.deferred:
        keeper.hold()


def ready_moves() -> Callable[[], None]:
    """Ready the kernel to move processes between cgroups, ahead of bots about to start
    (in ``cgroup`` mode; elsewhere nothing is done); the call returned waits for that
    (a moment at most) and is to be made once they have started.

    The first move of a process into a cgroup after a quiet while waits for an RCU grace
    period, 5 to 30 ms, and each bot's process moves into its enclosure before its
    program runs, so that each run of bots would wait for one. A shell is started here
    that moves itself into the cgroup it was born in, a move in name only that starts
    the grace period at once, while the workers start and load their bots: a move made
    during the period, or soon after it, waits for what is left of it at most."""
    keeper = Keeper.here()
    if keeper.mode != "cgroup" or keeper.base is None or not os.path.exists(_SHELL):
        return _nothing
    try:
        mover = subprocess.Popen(
            [_SHELL, "-c", 'echo 0 > "$1"', "c8league-ready", str(keeper.base / "cgroup.procs")],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
    except (OSError, subprocess.SubprocessError):
        return _nothing

    def done() -> None:
        try:
            mover.wait(READY_WAIT_SECONDS)
        except subprocess.TimeoutExpired:
            mover.kill()
            mover.wait()

    return done


_SHELL = "/bin/sh"
READY_WAIT_SECONDS = 1.0
"""How long :func:`ready_moves`'s shell is waited for before it is killed."""


def _nothing() -> None:
    return None


def released(pid: int) -> None:
    """The process ``pid``, a keeper (a worker), has exited and been waited for: end what
    it left (in ``cgroup`` mode its cgroup, with its bots and what they started; in
    ``subreaper`` mode, this process having adopted them, this process's strays)."""
    keeper = Keeper.here()
    keeper.let_go(pid)
    if keeper.mode == "cgroup":
        assert keeper.base is not None
        root = keeper.base / f"{PREFIX}{pid}"
        if root.exists():
            end_cgroup(root)
    elif keeper.mode == "subreaper":
        keeper.dirty = True
        keeper.sweep()


# -- cgroups --------------------------------------------------------------------------------


def _cgroups_wanted() -> bool:
    return os.environ.get(ENV_VAR, "").strip().lower() not in ("0", "off", "no", "false")


def _cgroup_base() -> Path | None:
    """The writable cgroup v2 directory this process started in (outside any keeper's
    cgroup), if the kernel has ``cgroup.kill``; None otherwise."""
    try:
        mount = _cgroup2_mount()
        with open("/proc/self/cgroup") as file:
            lines = file.read().splitlines()
    except OSError:
        return None
    if mount is None:
        return None
    path = next((line[3:] for line in lines if line.startswith("0::")), None)
    if path is None or ".." in path.split("/"):
        return None
    parts = [p for p in path.split("/") if p]
    for index, part in enumerate(parts):
        if part.startswith(PREFIX):  # inside a keeper's cgroup: its base is ours too
            parts = parts[:index]
            break
    base = Path(mount, *parts)
    if not ((base / "cgroup.kill").exists() or (not parts and _kernel_at_least(5, 14))):
        return None  # (the root cgroup has no cgroup.kill of its own)
    if not (os.access(base, os.W_OK) and os.access(base / "cgroup.procs", os.W_OK)):
        return None
    return base


def _kernel_at_least(major: int, minor: int) -> bool:
    numbers = os.uname().release.split("-")[0].split(".")
    try:
        return (int(numbers[0]), int(numbers[1])) >= (major, minor)
    except (IndexError, ValueError):
        return False


def _cgroup2_mount() -> str | None:
    with open("/proc/self/mountinfo") as file:
        for line in file:
            fields = line.split()
            try:
                dash = fields.index("-")
            except ValueError:
                continue
            if fields[dash + 1] == "cgroup2":
                return _unescape(fields[4])
    return None


def _unescape(text: str) -> str:
    """A path from ``/proc/self/mountinfo`` (spaces and the like are octal escapes)."""
    if "\\" not in text:
        return text
    return text.encode("latin-1").decode("unicode_escape").encode("latin-1").decode()


def _clear_stale(base: Path) -> None:
    """Remove keepers' cgroups left by processes that are gone and were not cleaned up
    (a whole run killed at once, reaper included)."""
    for entry in base.iterdir():
        name = entry.name
        if not name.startswith(PREFIX) or not name[len(PREFIX) :].isdigit():
            continue
        if _alive(int(name[len(PREFIX) :])):
            continue
        with contextlib.suppress(OSError):
            end_cgroup(entry)


def cgroup_members(path: Path, *, recursive: bool = False) -> list[int]:
    """The processes in the cgroup ``path`` (and in the cgroups inside it)."""
    found: list[int] = []
    for cgroup in _tree(path) if recursive else [path]:
        try:
            with open(cgroup / "cgroup.procs") as file:
                found.extend(int(line) for line in file.read().split())
        except OSError:
            continue
    return found


def end_cgroup(path: Path, *, remove: bool = True) -> bool:
    """End every process in the cgroup ``path`` and in the cgroups inside it
    (``cgroup.kill``), wait for them to be gone (up to :data:`KILL_WAIT_SECONDS`), and
    remove the cgroups if ``remove``. Whether it is empty."""
    try:
        _write(path / "cgroup.kill", "1")
    except FileNotFoundError:
        return True
    except OSError:
        kill_all(cgroup_members(path, recursive=True))
    deadline = time.monotonic() + KILL_WAIT_SECONDS
    delay = 0.0005
    while _populated(path):
        if time.monotonic() > deadline:
            return False
        time.sleep(delay)
        delay = min(delay * 2, 0.02)
    if remove:
        for cgroup in reversed(_tree(path)):  # the cgroups inside first
            with contextlib.suppress(OSError):
                cgroup.rmdir()
    return True


def _tree(path: Path) -> list[Path]:
    """The cgroup ``path`` and the cgroups inside it, each before those inside it (any
    that vanish meanwhile are left out)."""
    found = []
    for top, _, _ in os.walk(path):
        found.append(Path(top))
    return found


def _populated(path: Path) -> bool:
    try:
        with open(path / "cgroup.events") as file:
            return "populated 1" in file.read()
    except OSError:
        return False


def _freeze(path: Path, frozen: bool) -> bool:
    """Freeze (or thaw) the cgroup and wait until it is; whether it was done."""
    value = "1" if frozen else "0"
    try:
        _write(path / "cgroup.freeze", value)
    except OSError:
        return False
    deadline = time.monotonic() + KILL_WAIT_SECONDS
    while time.monotonic() < deadline:
        try:
            with open(path / "cgroup.events") as file:
                if f"frozen {value}" in file.read():
                    return True
        except OSError:
            return False
        time.sleep(0.001)
    return True


def _write(path: Path, text: str) -> None:
    fd = os.open(path, os.O_WRONLY)
    try:
        os.write(fd, text.encode())
    finally:
        os.close(fd)


# -- process trees (/proc) ------------------------------------------------------------------


def _set_subreaper(on: bool = True) -> bool:
    """Make this process the child subreaper of its descendants, or no more (Linux)."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return bool(libc.prctl(_PR_SET_CHILD_SUBREAPER, int(on), 0, 0, 0) == 0)
    except (OSError, AttributeError):
        return False


def children(pid: int) -> list[int]:
    """The child processes of ``pid`` (Linux ``/proc``; empty elsewhere)."""
    found: list[int] = []
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return found
    for task in tasks:
        try:
            with open(f"/proc/{pid}/task/{task}/children") as file:
                found.extend(int(child) for child in file.read().split())
        except OSError:
            continue
    return found


def descendants(pid: int) -> list[int]:
    """Every process below ``pid`` in the process tree, parents before their children."""
    found: list[int] = []
    queue = [pid]
    seen = {pid}
    while queue:
        for child in children(queue.pop(0)):
            if child not in seen:
                seen.add(child)
                found.append(child)
                queue.append(child)
    return found


def stop_all(pids: Iterable[int]) -> None:
    """Stop the processes (``SIGSTOP``), so that none forks while they are being ended."""
    if _SIGSTOP is None:
        return
    for pid in pids:
        with contextlib.suppress(OSError):
            os.kill(pid, _SIGSTOP)


def kill_all(pids: Iterable[int]) -> None:
    for pid in pids:
        with contextlib.suppress(OSError):
            os.kill(pid, _SIGKILL)


def kill_tree(pid: int) -> None:
    """End ``pid`` and its descendants: stopped first, parents first, then killed."""
    tree = [pid]
    for _ in range(SWEEP_ROUNDS):
        stop_all(tree)
        more = [child for child in descendants(pid) if child not in tree]
        if not more:
            break
        tree.extend(more)
    kill_all(tree)


def _reap(pids: Iterable[int]) -> None:
    """Wait for those of ``pids`` that are this process's children (ended), briefly."""
    deadline = time.monotonic() + KILL_WAIT_SECONDS
    for pid in pids:
        while True:
            try:
                done, _ = os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:
                break
            except OSError:
                break
            if done or time.monotonic() > deadline:
                break
            time.sleep(0.001)


def _gone(pids: Iterable[int]) -> None:
    """Wait until the processes ``pids``, killed, are gone (or zombies left to their
    parents), up to :data:`KILL_WAIT_SECONDS`."""
    waiting = list(pids)
    deadline = time.monotonic() + KILL_WAIT_SECONDS
    delay = 0.0005
    while waiting and time.monotonic() < deadline:
        waiting = [pid for pid in waiting if process_state(pid) not in ("Z", "X", "", "?")]
        if waiting:
            time.sleep(delay)
            delay = min(delay * 2, 0.02)


def _carries(pid: int, token: str) -> bool:
    """Whether the environment of process ``pid`` holds the enclosure ``token``."""
    try:
        with open(f"/proc/{pid}/environ", "rb") as file:
            environ = file.read()
    except OSError:
        return False
    return f"{TOKEN_VAR}={token}".encode() in environ.split(b"\0")


def _zombie(pid: int) -> bool:
    return process_state(pid) in ("Z", "X", "")


def oldest(pids: Iterable[int]) -> int | None:
    """The process of ``pids`` started first (Linux ``/proc``), None if none is found."""
    found: list[tuple[int, int]] = []
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat", "rb") as file:
                fields = file.read().rsplit(b")", 1)[-1].split()
            found.append((int(fields[19]), pid))  # field 22, its start time
        except (OSError, IndexError, ValueError):
            continue
    return min(found)[1] if found else None


def process_state(pid: int) -> str:
    """The state letter of a process in ``/proc`` (``R``, ``S``, ``T`` stopped, ``Z``…),
    ``""`` if it is gone, ``?`` where there is no ``/proc``."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as file:
            stat = file.read()
    except FileNotFoundError:
        return ""
    except OSError:
        return "?"
    return stat.rsplit(b")", 1)[-1].split()[0].decode()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    return True


# -- the reaper -------------------------------------------------------------------------------


class Reaper:
    """A process's reaper: ``python -I -S -c`` running :data:`REAPER` with the process's
    id, in a session of its own (and, in ``cgroup`` mode, outside the cgroups it ends).
    Registered process groups (``+GROUP``, written by a bot's process before its
    program runs, so that no moment exists when it runs unregistered) and cgroups
    (``+PATH``) are ended when the process that started the reaper is gone: its end of
    the pipe closes, and then its parent process id changes. Each process has its own:
    a fork drops its parent's."""

    _inherited: ClassVar[list[int]] = []

    def __init__(self, proc: subprocess.Popen[bytes], fd: int) -> None:
        self.proc: subprocess.Popen[bytes] | None = proc
        self.pid = proc.pid
        self.fd = fd
        self.owner = os.getpid()

    @classmethod
    def start(cls, base: Path | None) -> Reaper | None:
        """Start a reaper (None if it cannot be); in ``base``'s cgroup if given."""
        while cls._inherited:  # a parent's reaper: let it see its parent's end alone
            with contextlib.suppress(OSError):
                os.close(cls._inherited.pop())
        read, fd = os.pipe()
        preexec = None
        if base is not None:
            procs = os.open(base / "cgroup.procs", os.O_WRONLY | os.O_CLOEXEC)

            def preexec() -> None:
                with contextlib.suppress(OSError):
                    os.write(procs, b"0")

        try:
            proc = subprocess.Popen(
                [sys.executable, "-I", "-S", "-c", REAPER, "c8league-reaper", str(os.getpid())],
                stdin=read,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,
                preexec_fn=preexec,
            )
        except (OSError, subprocess.SubprocessError):
            os.close(fd)
            return None
        finally:
            os.close(read)
            if base is not None:
                os.close(procs)
        return cls(proc, fd)

    def alive(self) -> bool:
        return self.fd >= 0 and self.proc is not None and self.proc.poll() is None

    def register_group(self, group: int) -> None:
        self._say(b"+%d\n" % group)

    def forget_group(self, group: int) -> None:
        self._say(b"-%d\n" % group)

    def register_cgroup(self, path: Path) -> None:
        self._say(b"+" + os.fsencode(path) + b"\n")

    def _say(self, line: bytes) -> None:
        if self.fd >= 0:
            with contextlib.suppress(OSError):
                os.write(self.fd, line)

    def drop(self) -> None:
        if self.fd >= 0:
            with contextlib.suppress(OSError):
                os.close(self.fd)
            self.fd = -1

    @classmethod
    def _after_fork(cls) -> None:
        """In a forked child: the keeper and its reaper are the parent's. The reaper's pipe
        is closed when this process starts a reaper of its own, not now: this may be a
        bot's process about to register with it (``subprocess`` runs these hooks before
        ``preexec_fn``)."""
        keeper = Keeper._current
        Keeper._current = None
        Keeper._lock = threading.Lock()
        if keeper is not None and keeper._reaper is not None:
            reaper = keeper._reaper
            cls._inherited.append(reaper.fd)
            if reaper.proc is not None:
                reaper.proc.returncode = 0  # not this process's child
                reaper.proc = None


if hasattr(os, "register_at_fork"):  # POSIX
    os.register_at_fork(after_in_child=Reaper._after_fork)


REAPER = """
import os, signal, sys, time
signal.signal(signal.SIGINT, signal.SIG_IGN)
signal.signal(signal.SIGHUP, signal.SIG_IGN)
def stop(*args):
    raise SystemExit
signal.signal(signal.SIGTERM, stop)
owner = int(sys.argv[2])
groups, cgroups, data = set(), set(), b""
def end(path):
    try:
        with open(os.path.join(path, "cgroup.kill"), "w") as f:
            f.write("1")
    except OSError:
        pass
    deadline = time.monotonic() + 2
    while time.monotonic() < deadline:
        try:
            with open(os.path.join(path, "cgroup.events")) as f:
                if "populated 0" in f.read():
                    break
        except OSError:
            break
        time.sleep(0.005)
    for top, dirs, files in os.walk(path, topdown=False):
        try:
            os.rmdir(top)
        except OSError:
            pass
try:
    while True:
        try:
            chunk = os.read(0, 65536)
        except InterruptedError:
            continue
        except OSError:
            break
        if not chunk:
            break
        data += chunk
        *lines, data = data.split(b"\\n")
        for line in lines:
            sign, what = line[:1], line[1:]
            if what[:1] == b"/":
                (cgroups.add if sign == b"+" else cgroups.discard)(os.fsdecode(what))
            elif sign == b"+":
                groups.add(int(what))
            elif sign == b"-":
                groups.discard(int(what))
    while os.getppid() == owner:  # its descriptor was closed, not by its end: wait for it
        time.sleep(0.05)
finally:
    for group in groups:
        try:
            os.killpg(group, signal.SIGKILL)
        except OSError:
            pass
    for path in cgroups:
        end(path)
"""
"""The reaper's program: reads ``+GROUP``/``-GROUP``/``+PATH``/``-PATH`` lines until its
input ends, waits for the process that started it to be gone, then ends the groups and
cgroups still registered (see :class:`Reaper`)."""
