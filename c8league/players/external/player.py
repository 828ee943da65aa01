"""The ``external`` player: it runs a bot's process (:mod:`.process`), speaks to it
through its pipes (:mod:`.framing`) in the protocol's messages (:mod:`.protocol`), and
turns whatever goes wrong into the bot's :class:`~c8league.errors.PlayerFault`. A bot
that plays match after match in one process is kept between matches where the
process playing them allows it (:mod:`.keep`)."""

from __future__ import annotations

import contextlib
import functools
import os
import shlex
import subprocess
import time
from collections.abc import Callable, Iterator, Sequence
from contextvars import ContextVar
from typing import Any, Literal, NoReturn

from pydantic import Field, field_validator

from c8league import sandbox
from c8league.engine import HandResult, MatchResult, Move, Observation, Rules, wire
from c8league.errors import PlayerFault, PluginError
from c8league.players.base import BasePlayer, PlayerOptions
from c8league.players.external import keep, protocol
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
from c8league.players.external.protocol import Violation
from c8league.sandbox import Mode

_LOG_LABEL: ContextVar[str] = ContextVar("c8league_external_log_label", default="")


@contextlib.contextmanager
def logs_named(match: str) -> Iterator[None]:
    """Within the block, the logs of bots' matches begun are named by ``match`` (an
    event's ``match-17``, a duel's ``deal3A``, a check's ``pagat-game2-again``): a log
    a match, also for a bot kept between matches (see docs/protocol.md)."""
    token = _LOG_LABEL.set(match)
    try:
        yield
    finally:
        _LOG_LABEL.reset(token)


_SECONDS_MAX = 86_400.0
_MEMORY_MB_MAX = 1 << 20  # 1 TiB


@functools.lru_cache(maxsize=64)
def split_command(command: str) -> tuple[str, ...]:
    """``command``'s words as a shell splits them (``shlex.split``; ``ValueError`` if it
    cannot), kept: a bot's player is made again for each of its matches."""
    return tuple(shlex.split(command))


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
    restart: Literal["fault", "match"] = "fault"
    sandbox: Mode = "auto"
    scratch_mb: int = Field(64, ge=1, le=1 << 20)
    network: bool = False
    ro_paths: list[str] | None = None
    max_processes: int = Field(256, ge=1, le=1 << 22)

    @field_validator("command")
    @classmethod
    def _command(cls, value: str | list[str]) -> str | list[str]:
        try:
            argv = split_command(value) if isinstance(value, str) else value
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


class BotRun:
    """One run of a bot's program: its process, its pipes, the log of its standard error
    (one file a run, capped match by match) and what it said in its hello. It lives for
    one match, or for many where it is kept between them (:mod:`.keep`)."""

    def __init__(
        self, process: BotProcess, channel: Channel, log: StderrLog, *, temporary: bool
    ) -> None:
        self.process = process
        self.channel = channel
        self.log = log
        self.stderr_path = log.file.name
        self.temporary = temporary
        """The log is a temporary file, removed at the end if the bot wrote nothing."""
        self.hello: protocol.Hello | None = None
        """What the bot said in its hello (None until it has)."""
        self.matches = 0
        """Matches begun in this run."""
        self.numbers = 0
        """Match numbers given to a concurrent bot so far (see :meth:`number`)."""

    def number(self) -> int:
        """A new match number, for a bot that plays several matches at once."""
        self.numbers += 1
        return self.numbers

    def ended_fault(self, when: str, memory_mb: int) -> tuple[str, str]:
        """The fault of a bot whose process has ended (its status known): its reason and
        detail, with what its standard error last said."""
        assert self.process.returncode is not None
        self.channel.drain()
        tail = self.log.last(8192)
        reason, detail = exit_fault(
            self.process.returncode, when, tail, memory_mb, self.process.max_rss_kb
        )
        if self.matches > 1 and self.hello is not None and self.hello.concurrent:
            detail += f" (the process had begun {self.matches} matches, several at once)"
        elif self.matches > 1:
            detail += f" (the process was playing its match {self.matches})"
        return reason, detail

    # -- as kept between matches (keep.KeptBot) --------------------------------------

    def alive(self) -> bool:
        return self.process.returncode is None and not self.process.exited()

    def leave(self) -> None:
        self.channel.write_now(protocol.QUIT)
        self.channel.close_input()

    def end(self, deadline: float) -> None:
        process, channel = self.process, self.channel
        try:
            if process.returncode is None:
                process.wait(max(0.0, deadline - time.monotonic()), channel.drain)
            process.kill()  # the bot and anything it started
            if process.returncode is None:
                process.wait(5.0, channel.drain)
        finally:
            channel.close()
            process.close()
            self.log.close()
            if self.temporary:
                forget_log(self.stderr_path)


class ExternalPlayer(BasePlayer):
    """A bot in any language, run as a subprocess speaking JSON lines on stdin/stdout.

    Options: ``command`` (a list, or a string split like a shell does), ``name``
    (default: the name the bot gives in its hello), ``move_time`` and ``startup_time``
    (seconds of wall-clock time per answer and for starting up), ``memory_mb`` (limit
    on the bot's data memory; 0 for none), ``cwd``, ``log_dir`` (where the bot's
    standard error is logged; default a temporary file, removed when empty), ``env``
    (variables added to the environment; in a sandbox, the only ones besides ``PATH``,
    ``HOME`` and ``LANG``) and ``restart``: ``fault`` (the default: a bot that announces
    ``match_start`` keeps its process from match to match, where matches are played one
    after another, until it faults) or ``match`` (a new process for every match).

    The sandbox (:mod:`c8league.sandbox`): ``sandbox`` (``auto``: where this
    machine can, ``required``: never without, ``off``: never; a run's ``--sandbox`` takes
    its place), ``scratch_mb`` (the size of its writable ``/tmp``), ``network`` (allowed
    or not), ``ro_paths`` (more paths it may read) and ``max_processes`` (processes and
    threads of its own at once). A sandbox that is required but cannot be had raises
    :class:`~c8league.sandbox.SandboxError` here, before any match.
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
        restart: str = "fault",
        sandbox: str = "auto",
        scratch_mb: int = 64,
        network: bool = False,
        ro_paths: Sequence[str] | None = None,
        max_processes: int = 256,
    ) -> None:
        argv = (
            list(split_command(command)) if isinstance(command, str) else [str(a) for a in command]
        )
        if not argv:
            raise PluginError("external player: the command is empty")
        if move_time <= 0 or startup_time <= 0:
            raise PluginError("external player: move_time and startup_time must be positive")
        if memory_mb < 0:
            raise PluginError("external player: memory_mb must be 0 (no limit) or more")
        if restart not in ("fault", "match"):
            raise PluginError(
                f'external player: restart must be "fault" or "match", not {restart!r}'
            )
        self.sandbox_mode, self.sandboxed = _sandboxed(
            sandbox, scratch_mb, network, ro_paths, max_processes
        )
        """The bot's sandbox, as its option and the run's ``--sandbox`` choose, and its
        settings (None: it runs without one)."""
        self.command = argv
        self.name = name or "external"
        self.move_time = float(move_time)
        self.startup_time = float(startup_time)
        self.memory_mb = int(memory_mb)
        self.cwd = cwd
        self.log_dir = log_dir
        self.env = dict(env) if env else None
        self.restart = restart
        self.stderr_path: str | None = None
        """The log file of the bot's standard error."""
        self.pid: int | None = None
        """The process id of the bot (of the last one started or taken up)."""
        self.returncode: int | None = None
        """The bot's exit status once it has ended: the exit code, or minus the signal."""
        self.bot_name = ""
        self.bot_version = ""
        self.kept = False
        """Whether this match's bot was a process kept from an earlier match."""
        self.version = ""
        """The digest of the bot's version, where the run gives it: a process kept from a
        match of another version (the bot's files changed since) is not reused."""
        self._explicit_name = bool(name)
        self._run: BotRun | None = None
        self._fault: PlayerFault | None = None
        self._told = False
        """The bot has been told of this match (by its hello, or ``match_start``)."""
        self._ended = False
        """The match ended well for this bot (``match_end`` was sent)."""
        self._seat = 0
        self._players = 0
        self._seed = 0
        self._encoder = wire.ObservationEncoder()
        self._skip_forced = False
        self._requests = 0
        """Move requests sent in this match (the forced moves played for it left out)."""
        self._forced = 0
        """Forced moves c8league played for it in this match (``skip_forced``)."""
        self._number: int | None = None
        """This match's number, for a bot that plays several matches at once."""
        self.clock: tuple[float, float] | None = None
        """The match clock the seat is held to (``--clock``): its seconds and increment,
        told in the hello (or ``match_start``); it is kept outside, by
        ``runner.clock.SeatClock``. None: none."""
        self.time_left = 0.0
        """With a :attr:`clock`, the seat's time left for its next decision, set before
        each: sent with the move request, and the bot's limit on it (in place of
        :attr:`move_time`)."""

    @property
    def plays_at_once(self) -> bool:
        """Whether the bot's process, started (or taken up), plays several matches at once
        (its hello announced ``concurrent``), where it may (not with ``restart =
        "match"``)."""
        return self.restart != "match" and self._concurrent()

    @property
    def requests(self) -> int:
        """Move requests sent to the bot in this match (the forced moves c8league played
        for it left out)."""
        return self._requests

    @property
    def key(self) -> tuple[object, ...]:
        """What makes two bots' processes interchangeable between matches."""
        env = None if self.env is None else tuple(sorted(self.env.items()))
        return (
            tuple(self.command),
            self.cwd,
            env,
            self.memory_mb,
            self.log_dir,
            self.sandboxed,
            self.version,
        )

    # -- the player hooks -------------------------------------------------------------

    def start_match(self, seat: int, players: int, seed: int) -> None:
        """Start the bot's process, or take up one kept from an earlier match; the hello
        (or ``match_start``) follows with the first observation, which brings the
        rules."""
        self._begin(seat, players, seed)

    def start_hand(self, observation: Observation) -> None:
        self._ready(observation)
        self._notify(self._say(protocol.hand_start(self._encoder.view(observation))))

    def choose(self, observation: Observation, legal: Sequence[Move]) -> Move:
        if self._fault is not None or self._run is None or not self._told:
            self._ready(observation)
        if len(legal) == 1 and self._skip_forced:
            self._forced += 1
            return legal[0]  # the bot sees it in its next view
        self._requests += 1
        texts = [str(m) for m in legal]
        self._check_quiet()
        request = wire.move_request(self._encoder.view(observation), texts)
        clock = self.clock
        if clock is None:
            deadline = time.monotonic() + self.move_time
            late = f"no move within {self.move_time:g} s"
        else:
            deadline = time.monotonic() + max(self.time_left, 0.0)
            request = protocol.with_clock(request, self.time_left, clock[1])
            late = (
                f"its clock ran out ({clock[0]:g}+{clock[1]:g}): no move within the "
                f"{self.time_left:.3f} s left"
            )
        self._send(self._say(request), deadline, "the move request")
        answer = self._receive(deadline, late, "move", "view")
        while answer["type"] == "view":  # the bot asks for its whole view first
            view = self._say(protocol.view_answer(self._encoder.view(observation, whole=True)))
            self._send(view, deadline, "its view")
            answer = self._receive(deadline, late, "move", "view")
        try:
            move, is_legal = protocol.read_move(answer, legal, texts)
        except Violation as exc:
            self._fail("protocol", str(exc))
        if not is_legal:
            # Well formed but not legal: an ``illegal`` forfeit, the log named as for any.
            detail = f"{move} is not a legal move"
            self._fault = PlayerFault("illegal", detail + self._log_note(), self._request())
            self._tell_error("illegal", detail)
            raise self._again()
        return move

    def end_hand(self, observation: Observation, result: HandResult) -> None:
        if not self._active():
            return
        self._notify(self._say(protocol.hand_end(self._encoder.view(observation), result)))

    def end_match(self, result: MatchResult) -> None:
        """Send ``match_end``; then, unless the bot is to be kept for another match,
        ``quit``, and close its input, so that every bot at the table is already leaving
        when the players are closed one by one."""
        if not self._active():
            return
        self._notify(self._say(protocol.match_end(result)), now=True)
        self._ended = True
        if not self._keepable():
            self._write_now(protocol.QUIT)
            self._close_input()

    def close(self) -> None:
        """Keep the bot for another match if it may be kept (see :mod:`.keep`); else end
        it: ``quit``, close its input, kill it (and anything it started) if it has not
        exited within :attr:`grace_time`; reap it. Safe to call twice."""
        run = self._run
        if run is not None and self._ended and self._keepable() and self._keep(run):
            return
        timed_out = self._fault is not None and self._fault.reason == "timeout"
        self._stop(0.0 if timed_out else self.grace_time)

    def warm(self, rules: Rules, players: int, seat: int = 0) -> None:
        """Start the bot before its first match, as a check that it can: its process is
        started and must answer the ``hello`` of a table of ``players`` under ``rules``
        (its seed 0). Raises :class:`PlayerFault` if it cannot. A bot that plays match
        after match is then kept (where bots are kept) for its first match, which begins
        with ``match_start``; any other is ended by :meth:`close`."""
        self._begin(seat, players, 0)
        run = self._run
        assert run is not None
        if run.hello is None:
            self._hello(self.match_facts(protocol.hello, rules))
        self._told = self._ended = True

    # -- the bot's run ---------------------------------------------------------------

    def _begin(self, seat: int, players: int, seed: int) -> None:
        if self._run is not None:
            self.close()
        self.seated(seat, players, seed)
        self._fault = None
        self._told = self._ended = False
        self._number = None
        self._requests = self._forced = 0
        self.returncode = None
        kept = keep.take(self.key) if self.restart != "match" else None
        if isinstance(kept, BotRun):
            self._take_up(kept)
        else:
            self._start()

    def _start(self) -> None:
        self.kept = self._skip_forced = False
        self.stderr_path = log_path(self.name, self._seat, self.log_dir, _LOG_LABEL.get())
        log = StderrLog(self.stderr_path)
        settings = self.sandboxed
        if settings is not None:
            env = self.env
        else:
            env = None if self.env is None else {**os.environ, **self.env}
        errors, errors_in = os.pipe()
        try:
            process = BotProcess(
                self.command,
                stderr=errors_in,
                memory_mb=self.memory_mb,
                cwd=self.cwd,
                env=env,
                sandboxed=settings,
            )
        except (OSError, subprocess.SubprocessError, sandbox.SandboxError) as exc:
            os.close(errors)
            log.close()
            self._fault = PlayerFault("crash", f"cannot start {shlex.join(self.command)}: {exc}")
            if self.log_dir is None:
                forget_log(self.stderr_path)
            raise self._fault from None
        finally:
            os.close(errors_in)
        self.pid = process.pid
        channel = Channel(process.stdin, process.stdout, errors, log)
        self._run = BotRun(process, channel, log, temporary=self.log_dir is None)
        self._encoder = wire.ObservationEncoder()

    def _take_up(self, run: BotRun) -> None:
        """Take up a bot kept from an earlier match: a log of this match's own (the last
        match's keeps what the bot wrote while it waited), and its view in the form it
        asked for."""
        self.kept = True
        self._run = run
        self.pid = run.process.pid
        run.log.close()  # (its tail: what the bot wrote while it waited, too)
        if run.temporary:
            forget_log(run.stderr_path)
        run.stderr_path = log_path(self.name, self._seat, self.log_dir, _LOG_LABEL.get())
        self.stderr_path = run.stderr_path
        run.log = StderrLog(run.stderr_path)
        run.channel.use_log(run.log)
        assert run.hello is not None
        self._greeted(run.hello)
        self._encoder = wire.ObservationEncoder(run.hello.form)

    def _ready(self, observation: Observation) -> None:
        """Raise the earlier fault again, or start the bot and tell it of the match (its
        hello, or ``match_start``) if not done yet."""
        if self._fault is not None:
            raise self._again()
        if self._run is None:
            self._begin(observation.seat, observation.players, 0)
        if not self._told:
            run = self._run
            assert run is not None
            if run.hello is not None and not self._match_start(observation.rules):
                self._stop(0.0)  # gone or stuck between matches: a new process plays
                self._start()
                run = self._run
            if run is not None and run.hello is None:
                self._hello(self.match_facts(protocol.hello, observation.rules))
                if self._concurrent():  # its hello opens no match
                    self._match_start(observation.rules)
            assert run is not None
            run.matches += 1
            self._told = True

    def seated(self, seat: int, players: int, seed: int) -> None:
        """This match's seat, table size and player's seed (for :meth:`match_facts`)."""
        self._seat, self._players, self._seed = seat, players, seed

    def match_facts(self, write: Callable[..., str], rules: Rules) -> str:
        """The ``hello`` or ``match_start`` of this match: the seat, the table, the
        player's seed, the rules and the limits."""
        return write(
            seat=self._seat,
            players=self._players,
            seed=self._seed,
            rules=rules,
            move_time=self.move_time,
            startup_time=self.startup_time,
            memory_mb=self.memory_mb if LIMITED else 0,
            clock=self.clock,
        )

    def _match_start(self, rules: Rules) -> bool:
        """Tell a kept bot of its next match and read its answer; False if it has ended
        or does not answer within :attr:`startup_time` (it played no part of this match:
        a new process takes its place, with no fault)."""
        run = self._run
        assert run is not None
        if self._concurrent():  # a notice, numbered, with the next line
            self._number = run.number()
            run.channel.hold(self._say(self.match_facts(protocol.match_start, rules)).encode())
            return run.alive()
        deadline = time.monotonic() + self.startup_time
        try:
            run.channel.send(self.match_facts(protocol.match_start, rules).encode(), deadline)
            line = run.channel.read_line(deadline)
        except (PipeClosed, Overdue):
            return False
        except LineTooLong:
            self._fail("protocol", f"a line longer than {MAX_LINE} bytes")
        try:
            protocol.answer(line, "match_start")
        except Violation as exc:
            self._fail("protocol", str(exc))
        return True

    def _hello(self, message: str) -> None:
        run = self._run
        assert run is not None
        deadline = run.process.started_at + self.startup_time
        self._send(message, deadline, "the hello")
        answer = self._receive(deadline, f"no hello within {self.startup_time:g} s", "hello")
        try:
            hello = protocol.read_hello(answer)
        except Violation as exc:
            self._fail("protocol", str(exc))
        run.hello = hello
        self._encoder.form = hello.form
        self._greeted(hello)

    def _greeted(self, hello: protocol.Hello) -> None:
        self.bot_name, self.bot_version = hello.name, hello.version
        self._skip_forced = hello.skip_forced
        if hello.name and not self._explicit_name:
            self.name = hello.name

    def _concurrent(self) -> bool:
        """Whether the bot plays several matches at once: its messages name their match."""
        run = self._run
        return run is not None and run.hello is not None and run.hello.concurrent

    def _say(self, line: str) -> str:
        """``line`` naming this match, to a bot that plays several at once."""
        return line if self._number is None else wire.numbered(line, self._number)

    def _active(self) -> bool:
        return self._run is not None and self._told and self._fault is None

    def _keepable(self) -> bool:
        """Whether the bot may play another match in its process."""
        run = self._run
        return (
            run is not None
            and self._fault is None
            and self.restart != "match"
            and run.hello is not None
            and run.hello.matches
            and keep.enabled()
        )

    def _keep(self, run: BotRun) -> bool:
        """Leave the bot, its match over, to a later match; False if it cannot be kept
        (it has ended, or wrote what nobody asked for)."""
        try:
            quiet = run.channel.unasked() is None
        except PipeClosed:
            quiet = False
        if not quiet or not run.alive():
            return False
        run.process.end_children()
        run.channel.drain()
        if not keep.give(self.key, run):
            return False
        self._run = None
        return True

    def _stop(self, grace: float) -> None:
        run = self._run
        if run is None:
            return
        process, channel = run.process, run.channel
        try:
            if process.returncode is None:
                if self._active():  # (a no-op if end_match told it and closed its input)
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
            self._run = None
            run.log.close()
            if self._fault is None and run.temporary:
                forget_log(run.stderr_path)

    def _reap(self, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds for the bot to exit; keep its status."""
        run = self._run
        if run is None:
            return True
        done = run.process.wait(timeout, run.channel.drain)
        self.returncode = run.process.returncode
        return done

    # -- lines -----------------------------------------------------------------------

    def _notify(self, line: str, *, now: bool = False) -> None:
        """Send a notice: with the next line sent (the bot then reads both when it wakes),
        or ``now``."""
        if now:
            self._send(line, time.monotonic() + self.move_time, "a notice")
        elif self._run is not None:
            self._run.channel.hold(line.encode())

    def _send(self, line: str, deadline: float, what: str) -> None:
        assert self._run is not None
        try:
            self._run.channel.send(line.encode(), deadline)
        except PipeClosed:
            self._ended_early(f"while sending {what}")
        except Overdue:
            self._fail("timeout", f"the bot did not read {what} in time" + self._stopped_note())

    def _write_now(self, data: bytes) -> None:
        """Best effort, never waiting: a bot that does not read misses the message."""
        if self._run is not None:
            self._run.channel.write_now(data)

    def _close_input(self) -> None:
        if self._run is not None:
            self._run.channel.close_input()

    def _receive(self, deadline: float, late: str, *kinds: str) -> dict[str, Any]:
        """The bot's answer to a request, by ``deadline``: a message of one of ``kinds``
        (the request's own first)."""
        when = f"before answering the {kinds[0]} request"
        assert self._run is not None
        try:
            line = self._run.channel.read_line(deadline)
        except LineTooLong:
            self._fail("protocol", f"a line longer than {MAX_LINE} bytes")
        except PipeClosed:
            self._ended_early(when)
        except Overdue as overdue:
            if self._reap(0):
                self._ended_early(when)
            self._fail("timeout", late + overdue.hint + self._stopped_note())
        try:
            message = protocol.answer(line, *kinds)
            if self._number is not None and protocol.match_of(message) != self._number:
                raise Violation(
                    f"an answer for match {message['match']} where match {self._number}'s was due"
                )
        except Violation as exc:
            self._fail("protocol", str(exc))
        return message

    def _check_quiet(self) -> None:
        """A bot writes only to answer a request; anything else is a protocol fault."""
        assert self._run is not None
        try:
            line = self._run.channel.unasked()
        except PipeClosed:
            self._ended_early("between moves")
        if line is not None:
            self._fail(
                "protocol",
                f"output nobody asked for (notices need no answer): {protocol.clip(line)}",
            )

    # -- faults ----------------------------------------------------------------------

    def _stopped_note(self) -> str:
        return "" if self._run is None else self._run.process.stopped_note()

    def _fail(self, reason: str, detail: str, *, stop: bool = False) -> NoReturn:
        """Record the fault, tell the bot, and raise; a bot that is stuck (or already
        dead) is stopped at once, any other gets :attr:`grace_time` in :meth:`close`."""
        self._fault = PlayerFault(reason, detail + self._log_note(), self._request())
        self._tell_error(reason, detail)
        if stop or reason == "timeout":
            self._stop(0.0)
        raise self._again()

    def _again(self) -> PlayerFault:
        """The fault recorded, as a new exception to raise."""
        fault = self._fault
        assert fault is not None
        return PlayerFault(fault.reason, fault.detail, fault.request)

    def _request(self) -> int | None:
        """The number of the request the bot was answering (or the requests it had
        answered, between two), where c8league played forced moves for it: it counts
        its requests, not its seat's moves (None where they are the same)."""
        return self._requests if self._forced else None

    def _tell_error(self, reason: str, detail: str) -> None:
        """Tell the bot why it is being stopped, then close its input."""
        self._write_now(protocol.error(reason, detail, self._number))
        self._close_input()

    def _ended_early(self, when: str) -> NoReturn:
        """The bot closed its output or its input: it has exited (or is about to)."""
        if not self._reap(1.0):
            self._fail("crash", f"the bot closed its output {when}", stop=True)
        run = self._run
        assert run is not None and self.returncode is not None
        reason, detail = run.ended_fault(when, self.memory_mb)
        self._fail(reason, detail, stop=True)

    # -- the log of standard error -------------------------------------------------------

    def _log_note(self) -> str:
        return f" (stderr log: {self.stderr_path})" if self.stderr_path else ""


def _sandboxed(
    mode: str,
    scratch_mb: int,
    network: bool,
    ro_paths: Sequence[str] | None,
    max_processes: int,
) -> tuple[Mode, sandbox.Settings | None]:
    """The mode of a bot's sandbox, as its option and the run's ``--sandbox`` choose, and
    the sandbox it runs in, as this machine allows (None: none); a required one that
    cannot be had is a :class:`~c8league.sandbox.SandboxError`."""
    chosen = sandbox.effective(sandbox.check_mode(mode))
    if chosen == "off":
        return chosen, None
    found = sandbox.support()
    if not found.available:
        if chosen == "required":
            raise sandbox.SandboxError(
                f"external player: the sandbox is required, but {found.problem}",
                hint=found.hint,
            )
        return chosen, None
    return chosen, sandbox.Settings(
        mode=chosen,
        scratch_mb=int(scratch_mb),
        network=bool(network),
        ro_paths=tuple(str(p) for p in ro_paths or ()),
        max_processes=int(max_processes),
    )


def forget_log(path: str) -> None:
    """Remove a temporary log that holds nothing."""
    with contextlib.suppress(OSError):
        if os.path.getsize(path) == 0:
            os.unlink(path)
