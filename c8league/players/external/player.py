"""The ``external`` player: it runs a bot's process (:mod:`.process`), speaks to it
through its pipes (:mod:`.framing`) in the protocol's messages (:mod:`.protocol`), and
turns whatever goes wrong into the bot's :class:`~c8league.errors.PlayerFault`."""

from __future__ import annotations

import contextlib
import os
import shlex
import subprocess
import time
from collections.abc import Sequence
from typing import Any, NoReturn

from pydantic import Field, field_validator

from c8league.engine import HandResult, MatchResult, Move, Observation
from c8league.errors import MachineFault, PlayerFault, PluginError
from c8league.players.base import BasePlayer, PlayerOptions
from c8league.players.external import protocol
from c8league.players.external.framing import (
    MAX_LINE,
    Channel,
    LineTooLong,
    Overdue,
    PipeClosed,
    StderrLog,
    log_path,
)
from c8league.players.external.process import LIMITED, BotProcess, exit_fault
from c8league.players.external.protocol import ObservationEncoder, Violation

_SECONDS_MAX = 86_400.0
_MEMORY_MB_MAX = 1 << 20  # 1 TiB


class ExternalOptions(PlayerOptions):
    """The options of the ``external`` player (:class:`ExternalPlayer`)."""

    command: str | list[str]
    name: str = ""
    move_time: float = Field(5.0, gt=0, le=_SECONDS_MAX)
    startup_time: float = Field(10.0, gt=0, le=_SECONDS_MAX)
    memory_mb: int = Field(1024, ge=0, le=_MEMORY_MB_MAX)
    cwd: str | None = None
    log_dir: str | None = None
    env: dict[str, str] | None = None

    @field_validator("command")
    @classmethod
    def _command(cls, value: str | list[str]) -> str | list[str]:
        try:
            argv = shlex.split(value) if isinstance(value, str) else value
        except ValueError as exc:
            raise ValueError(f"cannot split the command: {exc}") from None
        if not argv or not argv[0]:
            raise ValueError("the command is empty")
        if any("\0" in arg for arg in argv):
            raise ValueError("the command holds a NUL character")
        return value

    @field_validator("env")
    @classmethod
    def _env(cls, value: dict[str, str] | None) -> dict[str, str] | None:
        for key, item in (value or {}).items():
            if not key or "=" in key or "\0" in key or "\0" in item:
                raise ValueError(f"{key!r} is not an environment variable name and value")
        return value


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
    options_model = ExternalOptions

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
        self._process: BotProcess | None = None
        self._channel: Channel | None = None
        """The running bot's pipes: set with :attr:`_process`."""
        self._log: StderrLog | None = None
        self._fault: PlayerFault | None = None
        self._greeted = False
        self._seat = 0
        self._players = 0
        self._seed = 0
        self._encoder = ObservationEncoder()

    # -- the player hooks -------------------------------------------------------------

    def start_match(self, seat: int, players: int, seed: int) -> None:
        """Start the bot's process; the hello exchange follows with the first observation
        (the hello carries the rules, which the first observation brings)."""
        self._start(seat, players, seed)

    def start_hand(self, observation: Observation) -> None:
        self._ready(observation)
        self._notify(protocol.hand_start(self._encoder.encode(observation)))

    def choose(self, observation: Observation, legal: Sequence[Move]) -> Move:
        self._ready(observation)
        texts = [str(m) for m in legal]
        self._check_quiet()
        deadline = time.monotonic() + self.move_time
        request = protocol.move_request(self._encoder.encode(observation), texts)
        self._send(request, deadline, "the move request")
        answer = self._receive("move", deadline, f"no move within {self.move_time:g} s")
        try:
            move, is_legal = protocol.read_move(answer, legal, texts)
        except Violation as exc:
            self._fail("protocol", str(exc))
        if not is_legal:
            # Well formed but not legal: the match loop records the forfeit as ``illegal``.
            self._fault = PlayerFault("illegal", f"{move} is not a legal move")
            self._tell_error(self._fault.reason, self._fault.detail)
        return move

    def end_hand(self, observation: Observation, result: HandResult) -> None:
        if not self._active():
            return
        self._notify(protocol.hand_end(self._encoder.encode(observation), result))

    def end_match(self, result: MatchResult) -> None:
        """Send ``match_end`` then ``quit`` and close the bot's input, so that every bot
        at the table is already leaving when the players are closed one by one."""
        if not self._active():
            return
        self._notify(protocol.match_end(result))
        self._write_now(protocol.QUIT)
        self._close_input()

    def held_up(self) -> str:
        """Why the bot cannot run now, not by its own doing: its process is stopped
        (``SIGSTOP``, a debugger). Its time then is not its own (see ``runner.loop``)."""
        if self._process is not None and self._process.stopped():
            return f"the process of bot {self.name!r} was found stopped from outside"
        return ""

    def close(self) -> None:
        """End the bot: ``quit``, close its input, kill it (and anything it started) if
        it has not exited within :attr:`grace_time`; reap it. Safe to call twice."""
        timed_out = self._fault is not None and self._fault.reason == "timeout"
        self._stop(0.0 if timed_out else self.grace_time)

    # -- the bot's run ---------------------------------------------------------------

    def _start(self, seat: int, players: int, seed: int) -> None:
        if self._process is not None:
            self.close()
        self._seat, self._players, self._seed = seat, players, seed
        self._fault = None
        self._greeted = False
        self._encoder = ObservationEncoder()
        self.returncode = None
        if self.stderr_path is None or not os.path.exists(self.stderr_path):
            self.stderr_path = log_path(self.name, seat, self.log_dir)
        self._log = log = StderrLog(self.stderr_path)
        env = None if self.env is None else {**os.environ, **self.env}
        errors, errors_in = os.pipe()
        try:
            process = BotProcess(
                self.command, stderr=errors_in, memory_mb=self.memory_mb, cwd=self.cwd, env=env
            )
        except (OSError, subprocess.SubprocessError) as exc:
            os.close(errors)
            self._close_log()
            self._fault = PlayerFault("crash", f"cannot start {shlex.join(self.command)}: {exc}")
            raise self._fault from None
        finally:
            os.close(errors_in)
        self._process = process
        self.pid = process.pid
        self._channel = Channel(process.stdin, process.stdout, errors, log)

    def _ready(self, observation: Observation) -> None:
        """Raise the earlier fault again, or start the bot and say hello if not done yet."""
        if self._fault is not None:
            raise PlayerFault(self._fault.reason, self._fault.detail)
        if self._process is None:
            self._start(observation.seat, observation.players, 0)
        if not self._greeted:
            self._hello(observation)

    def _hello(self, observation: Observation) -> None:
        assert self._process is not None
        deadline = self._process.started_at + self.startup_time
        message = protocol.hello(
            seat=self._seat,
            players=self._players,
            seed=self._seed,
            rules=observation.rules,
            move_time=self.move_time,
            startup_time=self.startup_time,
            memory_mb=self.memory_mb if LIMITED else 0,
        )
        self._send(message, deadline, "the hello")
        answer = self._receive("hello", deadline, f"no hello within {self.startup_time:g} s")
        try:
            hello = protocol.read_hello(answer)
        except Violation as exc:
            self._fail("protocol", str(exc))
        self._encoder.incremental = hello.incremental
        self.bot_name, self.bot_version = hello.name, hello.version
        if hello.name and not self._explicit_name:
            self.name = hello.name
        self._greeted = True

    def _active(self) -> bool:
        return self._process is not None and self._greeted and self._fault is None

    def _stop(self, grace: float) -> None:
        process, channel = self._process, self._channel
        if process is None or channel is None:
            return
        try:
            if process.returncode is None:
                if self._active():  # not told by end_match
                    channel.write_now(protocol.QUIT)
                channel.close_input()
                if grace > 0:
                    self._reap(grace)
            process.kill()  # the bot and anything it started
            if process.returncode is None:
                self._reap(5.0)
        finally:
            channel.close()
            process.close()
            self._process = self._channel = None
            self._close_log()

    def _reap(self, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds for the bot to exit; keep its status."""
        process, channel = self._process, self._channel
        if process is None or channel is None:
            return True
        done = process.wait(timeout, channel.drain)
        self.returncode = process.returncode
        return done

    # -- lines -----------------------------------------------------------------------

    def _notify(self, line: str) -> None:
        self._send(line, time.monotonic() + self.move_time, "a notice")

    def _send(self, line: str, deadline: float, what: str) -> None:
        assert self._channel is not None
        try:
            self._channel.send(line.encode(), deadline)
        except PipeClosed:
            self._ended(f"while sending {what}")
        except Overdue:
            self._not_held_up()
            self._fail("timeout", f"the bot did not read {what} in time")

    def _write_now(self, data: bytes) -> None:
        """Best effort, never waiting: a bot that does not read misses the message."""
        if self._channel is not None:
            self._channel.write_now(data)

    def _close_input(self) -> None:
        if self._channel is not None:
            self._channel.close_input()

    def _receive(self, kind: str, deadline: float, late: str) -> dict[str, Any]:
        """The bot's answer to the ``kind`` request, by ``deadline``."""
        when = f"before answering the {kind} request"
        assert self._channel is not None
        try:
            line = self._channel.read_line(deadline)
        except LineTooLong:
            self._fail("protocol", f"a line longer than {MAX_LINE} bytes")
        except PipeClosed:
            self._ended(when)
        except Overdue as overdue:
            if self._reap(0):
                self._ended(when)
            self._not_held_up()
            self._fail("timeout", late + overdue.hint)
        try:
            return protocol.answer(line, kind)
        except Violation as exc:
            self._fail("protocol", str(exc))

    def _check_quiet(self) -> None:
        """A bot writes only to answer a request; anything else is a protocol fault."""
        assert self._channel is not None
        try:
            line = self._channel.unasked()
        except PipeClosed:
            self._ended("between moves")
        if line is not None:
            self._fail(
                "protocol",
                f"output nobody asked for (notices need no answer): {protocol.clip(line)}",
            )

    # -- faults ----------------------------------------------------------------------

    def _not_held_up(self) -> None:
        """Before a timeout: a bot whose process is stopped is not out of time by its own
        doing; the match is to be played again."""
        why = self.held_up()
        if why:
            self._stop(0.0)
            raise MachineFault(why)

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
        self._write_now(protocol.error(reason, detail))
        self._close_input()

    def _ended(self, when: str) -> NoReturn:
        """The bot closed its output or its input: it has exited (or is about to)."""
        if not self._reap(1.0):
            self._fail("crash", f"the bot closed its output {when}", stop=True)
        process, channel = self._process, self._channel
        assert process is not None and channel is not None and self.returncode is not None
        channel.drain()
        tail = b"" if self._log is None else self._log.last(8192)
        reason, detail = exit_fault(self.returncode, when, tail, self.memory_mb, process.max_rss_kb)
        self._fail(reason, detail, stop=True)

    # -- the log of standard error -------------------------------------------------------

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
