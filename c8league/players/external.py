"""``external``: a bot in any language, run as a subprocess speaking JSON lines.

c8league writes one JSON object per line to the bot's standard input and reads one
JSON object per line from its standard output; ``docs/protocol.md`` describes every
message with a transcript. In short: a ``hello`` exchange at the start of a match,
a ``move`` request answered by a ``move`` for each decision, notices that need no
answer (``hand_start``, ``hand_end``, ``match_end``), then ``quit``.

A bot that answers too slowly, dies, runs out of memory or breaks the protocol
raises :class:`~c8league.errors.PlayerFault`, so the match loop records a forfeit
with the reason. The bot's standard error goes to a log file (``stderr_path``),
named in every fault's detail, capped at :data:`LOG_HEAD` + :data:`LOG_TAIL` bytes a
match.

The bot runs in a process group of its own, killed whole when the bot is closed. So
that it is killed whatever happens to the process that started it (``kill -9``
included), each such process has a reaper: a tiny process in a session of its own
that every bot registers with before it runs, and that kills the registered groups
when its parent's end of their pipe closes, which happens however the parent ends.
The memory limit is the POSIX data-size limit (``resource``). On Windows the bot runs
without a memory limit, in a job object that does the reaper's part, and its pipes
are relayed through sockets (see :mod:`c8league.players.windows`).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import select
import selectors
import shlex
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO, Any, NoReturn

from c8league.engine import HandResult, MatchResult, Move, Observation
from c8league.errors import CardError, PlayerFault, PluginError
from c8league.players import windows
from c8league.players.base import BasePlayer

try:
    import resource
except ImportError:  # not POSIX (Windows): bots run without resource limits
    resource = None  # type: ignore[assignment]

if sys.platform == "win32":  # pipes cannot be waited on: relayed through sockets
    from c8league.players import windows as _io
else:
    _io = os
"""``read``, ``write`` and ``close`` for the bot's streams."""

_SIGKILL = getattr(signal, "SIGKILL", 9)
_LIMITED = resource is not None and sys.platform != "win32"
"""Whether ``memory_mb`` is applied (the hello tells the bot 0, no limit, otherwise)."""

PROTOCOL_VERSION = 1
"""The protocol version c8league speaks, sent in ``hello``."""

MAX_LINE = 1 << 20
"""The longest line (bytes) accepted from a bot."""

LOG_HEAD = 512 * 1024
LOG_TAIL = 512 * 1024
"""A match's log of the bot's standard error keeps its first :data:`LOG_HEAD` and its
last :data:`LOG_TAIL` bytes, with a line saying how many were dropped in between."""

_MEMORY_MARKERS = re.compile(
    rb"MemoryError|out of memory|cannot allocate memory|bad_alloc|OutOfMemoryError"
    rb"|memory allocation of \d+ bytes failed",
    re.IGNORECASE,
)
_dumps = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode


class ExternalPlayer(BasePlayer):
    """A bot in any language, run as a subprocess speaking JSON lines on stdin/stdout.

    Options: ``command`` (a list, or a string split like a shell does), ``name``
    (default: the name the bot gives in its hello), ``move_time`` and ``startup_time``
    (seconds of wall-clock time per answer and for starting up), ``memory_mb`` (limit
    on the bot's data memory; 0 for none), ``cwd``, ``log_dir`` (where the bot's
    standard error is logged; default a temporary file, removed when empty) and
    ``env`` (variables added to the environment).
    """

    name = "external"

    grace_time = 1.0
    """Seconds a bot has to exit after ``quit`` before it is killed."""

    def __init__(
        self,
        command: str | list[str],
        name: str = "",
        move_time: float = 5.0,
        startup_time: float = 10.0,
        memory_mb: int = 1024,
        cwd: str | None = None,
        log_dir: str | None = None,
        env: dict[str, str] | None = None,
    ) -> None:
        argv = shlex.split(command) if isinstance(command, str) else [str(a) for a in command]
        if not argv:
            raise PluginError("external player: the command is empty")
        if move_time <= 0 or startup_time <= 0:
            raise PluginError("external player: move_time and startup_time must be positive")
        if memory_mb < 0:
            raise PluginError("external player: memory_mb must be 0 (no limit) or more")
        self.command = argv
        self.name = name or "external"
        self.move_time = float(move_time)
        self.startup_time = float(startup_time)
        self.memory_mb = int(memory_mb)
        self.cwd = cwd
        self.log_dir = log_dir
        self.env = dict(env) if env else None
        self.stderr_path: str | None = None
        """The log file of the bot's standard error."""
        self.pid: int | None = None
        """The process id of the bot (of the last one started)."""
        self.returncode: int | None = None
        """The bot's exit status once it has ended: the exit code, or minus the signal."""
        self.bot_name = ""
        self.bot_version = ""
        self._explicit_name = bool(name)
        self._proc: subprocess.Popen[bytes] | None = None
        self._selector: selectors.BaseSelector | None = None
        self._in: IO[bytes] | None = None
        self._out: IO[bytes] | None = None
        self._pidfd = -1
        self._job: windows.Job | None = None
        self._log: _Log | None = None
        self._errors = -1
        self._buffer = bytearray()
        self._fault: PlayerFault | None = None
        self._greeted = False
        self._answered = False
        self._seat = 0
        self._players = 0
        self._seed = 0
        self._started_at = 0.0
        self._max_rss_kb = 0
        self._encoder = _ObservationEncoder()

    # -- the player hooks -------------------------------------------------------------

    def start_match(self, seat: int, players: int, seed: int) -> None:
        """Start the bot's process; the hello exchange follows with the first observation
        (the hello carries the rules, which the first observation brings)."""
        self._start(seat, players, seed)

    def start_hand(self, observation: Observation) -> None:
        self._ready(observation)
        self._notify(
            '{"type":"hand_start","observation":' + self._encoder.encode(observation) + "}"
        )

    def choose(self, observation: Observation, legal: Sequence[Move]) -> Move:
        self._ready(observation)
        texts = [str(m) for m in legal]
        self._check_quiet()
        deadline = time.monotonic() + self.move_time
        self._send(
            '{"type":"move","observation":'
            + self._encoder.encode(observation)
            + ',"legal":'
            + _dumps(texts)
            + "}\n",
            deadline,
            "the move request",
        )
        answer = self._receive("move", deadline, f"no move within {self.move_time:g} s")
        return self._read_move(answer, legal, texts)

    def end_hand(self, observation: Observation, result: HandResult) -> None:
        if not self._active():
            return
        self._notify(
            '{"type":"hand_end","observation":'
            + self._encoder.encode(observation)
            + ',"result":'
            + _dumps(
                {
                    "kind": result.kind,
                    "winners": list(result.winners),
                    "points": list(result.points),
                    "penalties": list(result.penalties),
                    "turns": result.turns,
                    "countdown_scores": (
                        None if result.countdown_scores is None else list(result.countdown_scores)
                    ),
                }
            )
            + "}"
        )

    def end_match(self, result: MatchResult) -> None:
        """Send ``match_end`` then ``quit`` and close the bot's input, so that every bot
        at the table is already leaving when the players are closed one by one."""
        if not self._active():
            return
        self._notify(
            _dumps(
                {
                    "type": "match_end",
                    "result": {
                        "placements": list(result.placements),
                        "scores": list(result.scores),
                        "hands": result.hands,
                        "ended": result.ended,
                    },
                }
            )
        )
        self._write_now(b'{"type":"quit"}\n')
        self._close_input()

    def close(self) -> None:
        """End the bot: ``quit``, close its input, kill it (and anything it started) if
        it has not exited within :attr:`grace_time`; reap it. Safe to call twice."""
        timed_out = self._fault is not None and self._fault.reason == "timeout"
        self._stop(0.0 if timed_out else self.grace_time)

    # -- process ---------------------------------------------------------------------

    def _start(self, seat: int, players: int, seed: int) -> None:
        if self._proc is not None:
            self.close()
        self._seat, self._players, self._seed = seat, players, seed
        self._fault = None
        self._greeted = False
        self._answered = False
        self._buffer.clear()
        self._encoder = _ObservationEncoder()
        self.returncode = None
        self._max_rss_kb = 0
        self._log = self._open_log(seat)
        env = None if self.env is None else {**os.environ, **self.env}
        reaper = None if sys.platform == "win32" else _Reaper.here()
        errors, errors_in = os.pipe()
        try:
            proc = subprocess.Popen(
                self.command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=errors_in,
                cwd=self.cwd,
                env=env,
                bufsize=0,
                **_process_options(self.memory_mb, reaper),
            )
        except (OSError, subprocess.SubprocessError) as exc:
            os.close(errors)
            self._close_log()
            self._fault = PlayerFault("crash", f"cannot start {shlex.join(self.command)}: {exc}")
            raise self._fault from None
        finally:
            os.close(errors_in)
        assert proc.stdin is not None and proc.stdout is not None
        self._proc = proc
        self.pid = proc.pid
        self._started_at = time.monotonic()
        self._job = windows.Job.holding(proc.pid)
        self._in, self._out = proc.stdin, proc.stdout
        if _io is os:
            os.set_blocking(proc.stdin.fileno(), False)
            os.set_blocking(errors, False)
        else:  # sockets stand for the pipes
            relay = windows.Relay(proc.stdin, proc.stdout, errors)
            self._in, self._out = relay.stdin, relay.stdout  # type: ignore[assignment]
            errors = relay.errors
        self._errors = errors
        self._selector = selectors.DefaultSelector()
        assert self._out is not None
        self._selector.register(self._out.fileno(), selectors.EVENT_READ)
        self._selector.register(errors, selectors.EVENT_READ)
        if hasattr(os, "pidfd_open"):
            with contextlib.suppress(OSError):
                self._pidfd = os.pidfd_open(proc.pid)

    def _ready(self, observation: Observation) -> None:
        """Raise the earlier fault again, or start the bot and say hello if not done yet."""
        if self._fault is not None:
            raise PlayerFault(self._fault.reason, self._fault.detail)
        if self._proc is None:
            self._start(observation.seat, observation.players, 0)
        if not self._greeted:
            self._hello(observation)

    def _hello(self, observation: Observation) -> None:
        deadline = self._started_at + self.startup_time
        hello = {
            "type": "hello",
            "protocol": PROTOCOL_VERSION,
            "seat": self._seat,
            "players": self._players,
            "seed": self._seed,
            "rules": observation.rules.to_options(),
            "limits": {
                "move_time": self.move_time,
                "startup_time": self.startup_time,
                "memory_mb": self.memory_mb if _LIMITED else 0,
            },
        }
        self._send(_dumps(hello) + "\n", deadline, "the hello")
        answer = self._receive("hello", deadline, f"no hello within {self.startup_time:g} s")
        protocol = answer.get("protocol", PROTOCOL_VERSION)
        if protocol != PROTOCOL_VERSION:
            self._fail("protocol", f"the bot speaks protocol {protocol!r}, c8league speaks 1")
        history = answer.get("history", "full")
        if history not in ("full", "new"):
            self._fail("protocol", f'hello "history" must be "full" or "new", not {history!r}')
        self._encoder.incremental = history == "new"
        name, version = answer.get("name", ""), answer.get("version", "")
        if not isinstance(name, str) or not isinstance(version, str):
            self._fail("protocol", 'hello "name" and "version" must be strings')
        self.bot_name, self.bot_version = name, version
        if name and not self._explicit_name:
            self.name = name
        self._greeted = True

    def _active(self) -> bool:
        return self._proc is not None and self._greeted and self._fault is None

    def _stop(self, grace: float) -> None:
        proc = self._proc
        if proc is None:
            return
        try:
            if proc.returncode is None:
                if self._active() and self._in is not None:  # not told by end_match
                    self._write_now(b'{"type":"quit"}\n')
                self._close_input()
                if grace > 0:
                    self._reap(grace)
            _kill_group(proc.pid, self._job)  # the bot and anything it started
            self._job = None
            _Reaper.forget(proc.pid)
            if proc.returncode is None:
                self._reap(5.0)
        finally:
            if self._selector is not None:
                self._selector.close()
                self._selector = None
            self._read_errors()
            if self._errors >= 0:
                _io.close(self._errors)
                self._errors = -1
            self._close_input()
            if self._pidfd >= 0:
                with contextlib.suppress(OSError):
                    os.close(self._pidfd)
                self._pidfd = -1
            if self._out is not None:
                with contextlib.suppress(OSError):
                    self._out.close()
                self._out = None
            self._proc = None
            self._close_log()

    def _reap(self, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds for the bot to exit; keep its status."""
        proc = self._proc
        if proc is None or proc.returncode is not None:
            return True
        end = time.monotonic() + timeout
        delay = 0.0005
        while True:
            if not hasattr(os, "wait4"):  # Windows: no resource usage
                if proc.poll() is not None:
                    self.returncode = proc.returncode
                    return True
            else:
                try:
                    pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
                except ChildProcessError:  # reaped elsewhere: the status is lost
                    proc.returncode = self.returncode = -_SIGKILL
                    return True
                if pid:
                    proc.returncode = self.returncode = os.waitstatus_to_exitcode(status)
                    rss = usage.ru_maxrss
                    self._max_rss_kb = rss // 1024 if sys.platform == "darwin" else rss
                    return True
            remaining = end - time.monotonic()
            if remaining <= 0:
                return False
            self._read_errors()  # a bot blocked writing to a full pipe would never exit
            if self._pidfd >= 0:  # readable when the process exits
                poll = select.poll()
                poll.register(self._pidfd, select.POLLIN)
                if self._errors >= 0:
                    poll.register(self._errors, select.POLLIN)
                poll.poll(remaining * 1000)
            else:
                time.sleep(min(delay, remaining))
                delay = min(delay * 2, 0.02)

    # -- messages --------------------------------------------------------------------

    def _notify(self, text: str) -> None:
        self._send(text + "\n", time.monotonic() + self.move_time, "a notice")

    def _send(self, text: str, deadline: float, what: str) -> None:
        data = memoryview(text.encode())
        assert self._in is not None
        fd = self._in.fileno()
        while data:
            try:
                written = _io.write(fd, data)
            except BlockingIOError:
                written = 0
            except OSError:
                self._ended(f"while sending {what}")
            data = data[written:]
            if data:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    self._fail("timeout", f"the bot did not read {what} in time")
                with selectors.DefaultSelector() as sel:
                    sel.register(fd, selectors.EVENT_WRITE)
                    if self._errors >= 0:  # it may be blocked writing to standard error
                        sel.register(self._errors, selectors.EVENT_READ)
                    sel.select(remaining)
                self._read_errors()

    def _write_now(self, data: bytes) -> None:
        """Best effort, never waiting: a bot that does not read misses the message."""
        if self._in is not None:
            with contextlib.suppress(OSError):
                _io.write(self._in.fileno(), data)

    def _close_input(self) -> None:
        if self._in is not None:
            with contextlib.suppress(OSError):
                self._in.close()
            self._in = None

    def _receive(self, kind: str, deadline: float, late: str) -> dict[str, Any]:
        line = self._read_line(deadline, late, f"before answering the {kind} request")
        try:
            message = json.loads(line)
        except ValueError:
            self._fail("protocol", f"not a JSON line: {_clip(line)}")
        if not isinstance(message, dict) or message.get("type") != kind:
            self._fail("protocol", f'expected {{"type":"{kind}", ...}}, got {_clip(line)}')
        return message

    def _read_line(self, deadline: float, late: str, when: str) -> bytes:
        buffer = self._buffer
        assert self._selector is not None
        while True:
            end = buffer.find(b"\n")
            if end >= 0:
                line = bytes(buffer[:end])
                del buffer[: end + 1]
                if line.strip():
                    self._answered = True
                    return line
                continue
            if len(buffer) > MAX_LINE:
                self._fail("protocol", f"a line longer than {MAX_LINE} bytes")
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                if self._reap(0):
                    self._ended(when)
                hint = ""
                if buffer:
                    hint = f" (it wrote {len(buffer)} bytes without a newline)"
                elif not self._answered:
                    hint = " (does the bot flush its output after each line?)"
                self._fail("timeout", late + hint)
            for key, _ in self._selector.select(remaining):
                if key.fd == self._errors:
                    self._read_errors()
                    continue
                chunk = self._read_chunk()
                if not chunk:
                    self._ended(when)
                buffer += chunk

    def _read_chunk(self) -> bytes:
        assert self._out is not None
        try:
            return _io.read(self._out.fileno(), 65536)
        except OSError:
            return b""

    def _check_quiet(self) -> None:
        """A bot writes only to answer a request; anything else is a protocol fault."""
        assert self._selector is not None
        for key, _ in self._selector.select(0):
            if key.fd == self._errors:
                self._read_errors()
                continue
            chunk = self._read_chunk()
            if not chunk:
                self._ended("between moves")
            self._buffer += chunk
        if self._buffer.strip():
            line = bytes(self._buffer).strip().split(b"\n")[0]
            self._fail(
                "protocol", f"output nobody asked for (notices need no answer): {_clip(line)}"
            )

    def _read_move(self, answer: dict[str, Any], legal: Sequence[Move], texts: list[str]) -> Move:
        index = answer.get("index")
        if index is not None:
            if type(index) is not int or not 0 <= index < len(legal):
                self._fail("protocol", f"index {index!r} is not between 0 and {len(legal) - 1}")
            return legal[index]
        text = answer.get("move")
        if not isinstance(text, str):
            self._fail("protocol", 'a move answer needs "move" (the move text) or "index"')
        try:
            return legal[texts.index(text)]
        except ValueError:
            pass
        try:
            move = Move.parse(text)
        except CardError:
            self._fail("protocol", f"{text!r} is not a move (e.g. QS, 8H:S, 9C+9D, 5S!, draw)")
        if move in legal:
            return move
        # Well formed but not legal: the match loop records the forfeit as ``illegal``.
        self._fault = PlayerFault("illegal", f"{move} is not a legal move")
        self._tell_error(self._fault.reason, self._fault.detail)
        return move

    # -- faults ----------------------------------------------------------------------

    def _fail(self, reason: str, detail: str, *, stop: bool = False) -> NoReturn:
        """Record the fault, tell the bot, and raise; a bot that is stuck (or already
        dead) is stopped at once, any other gets :attr:`grace_time` in :meth:`close`."""
        self._fault = PlayerFault(reason, detail + self._log_note())
        self._tell_error(reason, detail)
        if stop or reason == "timeout":
            self._stop(0.0)
        raise PlayerFault(reason, self._fault.detail)

    def _tell_error(self, reason: str, detail: str) -> None:
        """Tell the bot why it is being stopped, then close its input."""
        error = {"type": "error", "reason": reason, "message": detail}
        self._write_now((_dumps(error) + "\n").encode())
        self._close_input()

    def _ended(self, when: str) -> NoReturn:
        """The bot closed its output or its input: it has exited (or is about to)."""
        if not self._reap(1.0):
            self._fail("crash", f"the bot closed its output {when}", stop=True)
        code = self.returncode
        assert code is not None
        if code < 0:
            try:
                how = f"was killed by {signal.Signals(-code).name}"
            except ValueError:
                how = f"was killed by signal {-code}"
        else:
            how = f"exited with code {code}"
        self._read_errors()
        tail = self._stderr_tail()
        marker = _MEMORY_MARKERS.search(tail)
        near_limit = self.memory_mb > 0 and self._max_rss_kb >= 0.9 * self.memory_mb * 1024
        reason = "crash"
        if marker or code == -_SIGKILL or (code != 0 and near_limit):
            reason = "memory"
        line = _marker_line(tail, marker) if marker else _last_line(tail)
        said = f"; stderr: {line}" if line else ""
        self._fail(reason, f"the bot {how} {when}{said}", stop=True)

    # -- the log of standard error -------------------------------------------------------

    def _open_log(self, seat: int) -> _Log:
        if self.stderr_path is None or not os.path.exists(self.stderr_path):
            slug = re.sub(r"[^A-Za-z0-9_.-]+", "-", self.name).strip("-") or "bot"
            directory = self.log_dir if self.log_dir is not None else tempfile.gettempdir()
            Path(directory).mkdir(parents=True, exist_ok=True)
            fd, path = tempfile.mkstemp(
                prefix=f"c8league-{slug}-seat{seat}-", suffix=".stderr.log", dir=directory
            )
            os.close(fd)
            self.stderr_path = path
        return _Log(self.stderr_path)

    def _read_errors(self) -> None:
        """Copy what the bot has written to its standard error so far into the log."""
        if self._errors < 0 or self._log is None:
            return
        while True:
            try:
                chunk = _io.read(self._errors, 65536)
            except BlockingIOError:
                return
            except OSError:
                chunk = b""
            if not chunk:  # the bot (and everything it started) closed it
                if self._selector is not None:
                    with contextlib.suppress(KeyError, ValueError):
                        self._selector.unregister(self._errors)
                _io.close(self._errors)
                self._errors = -1
                return
            self._log.write(chunk)

    def _close_log(self) -> None:
        if self._log is not None:
            self._log.close()
            self._log = None
        path = self.stderr_path
        if self.log_dir is None and path is not None and self._fault is None:
            with contextlib.suppress(OSError):
                if os.path.getsize(path) == 0:
                    os.unlink(path)

    def _log_note(self) -> str:
        return f" (stderr log: {self.stderr_path})" if self.stderr_path else ""

    def _stderr_tail(self, size: int = 8192) -> bytes:
        return b"" if self._log is None else self._log.last(size)


class _Log:
    """A match's log of the bot's standard error: the first :data:`LOG_HEAD` bytes go to
    the file as they come, the last :data:`LOG_TAIL` are kept here and written after a
    line saying how many were dropped, when the log is closed."""

    def __init__(self, path: str, head: int = LOG_HEAD, tail: int = LOG_TAIL) -> None:
        self.file = open(path, "ab", buffering=0)  # noqa: SIM115 (closed by close())
        self.start = self.file.tell()
        self.head = head
        self.size = tail
        self.written = 0
        self.tail = bytearray()
        self.dropped = 0

    def write(self, data: bytes) -> None:
        if self.written < self.head:
            part = data[: self.head - self.written]
            self.file.write(part)
            self.written += len(part)
            data = data[len(part) :]
        if data:
            self.tail += data
            extra = len(self.tail) - self.size
            if extra > 0:
                del self.tail[:extra]
                self.dropped += extra

    def last(self, size: int) -> bytes:
        """The last ``size`` bytes the bot wrote (for a fault's detail)."""
        recent = bytes(self.tail[-size:])
        need = size - len(recent)
        if need <= 0 or not self.written:
            return recent
        with open(self.file.name, "rb") as log:
            log.seek(self.start + max(0, self.written - need))
            return log.read(min(need, self.written)) + recent

    def close(self) -> None:
        if self.file.closed:
            return
        try:
            if self.dropped:
                note = (
                    f"\n[c8league: {self.dropped} bytes of standard error dropped here; the "
                    f"log of a match keeps its first {self.head} and last {self.size} bytes]\n"
                )
                self.file.write(note.encode())
            if self.tail:
                self.file.write(bytes(self.tail))
        finally:
            self.file.close()


class _Reaper:
    """This process's reaper (see the module docstring): ``python -I -S -c`` running
    :data:`_REAPER`, started with the first bot. A bot registers its process group by
    writing ``+GROUP`` to the reaper's pipe before it runs (so that no moment exists
    when it runs unregistered), and the player writes ``-GROUP`` once it has killed it.
    Each process has its own: a fork drops its parent's."""

    _lock = threading.Lock()
    _current: _Reaper | None = None

    def __init__(self) -> None:
        read, self.fd = os.pipe()
        try:
            self.proc: subprocess.Popen[bytes] | None = subprocess.Popen(
                [sys.executable, "-I", "-S", "-c", _REAPER, "c8league-reaper"],
                stdin=read,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,
            )
        except BaseException:
            os.close(self.fd)
            raise
        finally:
            os.close(read)
        self.owner = os.getpid()

    @classmethod
    def here(cls) -> _Reaper | None:
        """This process's reaper, started if need be (None if it cannot be)."""
        with cls._lock:
            current = cls._current
            if current is not None and current.proc is not None and current.proc.poll() is None:
                return current
            if current is not None:
                current.drop()
            while _INHERITED:  # a parent's reaper: let it see its parent's end alone
                with contextlib.suppress(OSError):
                    os.close(_INHERITED.pop())
            try:
                cls._current = _Reaper()
            except OSError:
                cls._current = None
            return cls._current

    @classmethod
    def forget(cls, group: int) -> None:
        """The group has been killed: nothing to do for it any more."""
        current = cls._current
        if current is not None and current.fd >= 0:
            with contextlib.suppress(OSError):
                os.write(current.fd, b"-%d\n" % group)

    def drop(self) -> None:
        if self.fd >= 0:
            with contextlib.suppress(OSError):
                os.close(self.fd)
            self.fd = -1

    @classmethod
    def _after_fork(cls) -> None:
        """In a forked child: the reaper is the parent's. Its pipe is closed when this
        process starts a reaper of its own, not now: this may be a bot's process about
        to register with it (``subprocess`` runs these hooks before ``preexec_fn``)."""
        current, cls._current = cls._current, None
        cls._lock = threading.Lock()
        if current is not None:
            _INHERITED.append(current.fd)
            if current.proc is not None:
                current.proc.returncode = 0  # not this process's child
                current.proc = None


_INHERITED: list[int] = []
if hasattr(os, "register_at_fork"):  # POSIX
    os.register_at_fork(after_in_child=_Reaper._after_fork)

_REAPER = """
import os, signal
signal.signal(signal.SIGINT, signal.SIG_IGN)
signal.signal(signal.SIGHUP, signal.SIG_IGN)
def stop(*args):
    raise SystemExit
signal.signal(signal.SIGTERM, stop)
groups, data = set(), b""
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
            if line[:1] == b"+":
                groups.add(int(line[1:]))
            elif line[:1] == b"-":
                groups.discard(int(line[1:]))
finally:
    for group in groups:
        try:
            os.killpg(group, signal.SIGKILL)
        except OSError:
            pass
"""
"""The reaper's program: reads ``+GROUP``/``-GROUP`` lines until its input ends, then
kills the groups still registered (see :class:`_Reaper`)."""


class _ObservationEncoder:
    """The JSON text of ``Observation.to_dict()``, reusing the text of the history
    already encoded for this hand; with ``incremental`` it sends only the new moves."""

    __slots__ = ("_count", "_hand", "_parts", "incremental")

    def __init__(self) -> None:
        self.incremental = False
        self._hand = -1
        self._count = 0
        self._parts: list[str] = []

    def encode(self, obs: Observation) -> str:
        history = obs.history
        n = len(history)
        if obs.hand_number != self._hand or n < self._count:
            self._hand = obs.hand_number
            self._count = 0
            self._parts = []
        start = self._count
        if n > start:
            self._parts.extend([f'[{seat},"{move}"]' for seat, move in history[start:n]])
            self._count = n
        suit = obs.suit
        drawn = obs.drawn_card
        head = _dumps(
            {
                "seat": obs.seat,
                "players": obs.players,
                "dealer": obs.dealer,
                "current": obs.current,
                "phase": obs.phase,
                "hand": [str(c) for c in obs.hand],
                "top": str(obs.top),
                "suit": None if suit is None else str(suit),
                "wild_top": obs.wild_top,
                "pending": obs.pending,
                "pending_kind": obs.pending_kind,
                "direction": obs.direction,
                "hand_sizes": list(obs.hand_sizes),
                "stock_size": obs.stock_size,
                "discard_size": obs.discard_size,
                "drawn": obs.drawn,
                "drawn_card": None if drawn is None else str(drawn),
                "turn": obs.turn,
                "scores": list(obs.scores),
                "wild_ranks": [None if r is None else r.label for r in obs.wild_ranks],
                "target": obs.target,
                "hand_number": obs.hand_number,
            }
        )
        if self.incremental:
            moves = ",".join(self._parts[start:])
            return f'{head[:-1]},"history_start":{start},"new_history":[{moves}]}}'
        return f'{head[:-1]},"history":[{",".join(self._parts)}]}}'


def _process_options(memory_mb: int, reaper: _Reaper | None) -> dict[str, Any]:
    """How the bot's process is started: in a process group of its own; on POSIX
    registered with the reaper and with its resource limits."""
    if sys.platform == "win32":
        return windows.popen_options()
    return {
        "start_new_session": True,
        "preexec_fn": _prepare(memory_mb, -1 if reaper is None else reaper.fd),
    }


def _kill_group(pid: int, job: windows.Job | None) -> None:
    """Kill the bot's process group: the bot and anything it started."""
    if sys.platform == "win32":
        windows.kill_tree(pid, job)
        return
    with contextlib.suppress(OSError):
        os.killpg(pid, _SIGKILL)


def _prepare(memory_mb: int, reaper: int) -> Callable[[], None]:
    """What the bot's process does before it runs (POSIX): register its new process group
    with the reaper (the pipe's end ``reaper``, closed when the bot's program starts),
    and set its resource limits (where the ``resource`` module is: not on every
    system)."""
    limit = memory_mb * 1024 * 1024
    if resource is not None:
        _, hard = resource.getrlimit(resource.RLIMIT_DATA)
        if hard != resource.RLIM_INFINITY:
            limit = min(limit, hard)

    def apply() -> None:
        if reaper >= 0:
            with contextlib.suppress(OSError):
                os.write(reaper, b"+%d\n" % os.getpid())
        if resource is None:
            return
        # RLIMIT_DATA counts the memory a program writes to (heap and private
        # mappings), not address space reserved but unused: Node.js, Java and Go
        # reserve gigabytes of address space, so RLIMIT_AS would stop them early.
        if memory_mb > 0:
            resource.setrlimit(resource.RLIMIT_DATA, (limit, limit))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))

    return apply


def _clip(line: bytes, size: int = 120) -> str:
    text = line.decode("utf-8", "replace").strip()
    return repr(text if len(text) <= size else text[:size] + "...")


def _last_line(tail: bytes) -> str:
    lines = [ln for ln in tail.decode("utf-8", "replace").splitlines() if ln.strip()]
    return lines[-1].strip()[:200] if lines else ""


def _marker_line(tail: bytes, marker: re.Match[bytes]) -> str:
    start = tail.rfind(b"\n", 0, marker.start()) + 1
    end = tail.find(b"\n", marker.end())
    return tail[start : end if end >= 0 else len(tail)].decode("utf-8", "replace").strip()[:200]
