"""One bot process playing several matches at once.

A bot that announces ``match_start`` and ``concurrent`` in its hello may be given the
matches of a chunk together (``runner.interleave``): each seat it holds in a match is a
:class:`Session`, every message names the session's number (``"match"``), and the
requests of all the matches waiting for it are written in one go, so that the bot
wakes once for many decisions. The bot answers requests in the order it received them.

Any fault ends the process (:meth:`SharedBot.fail`): the session whose request was
being answered (the oldest not answered) forfeits; the driver plays the process's other
matches again from their start, with a new process. ``move_time`` counts for each
request from when the bot could begin it: when it was written, or when the bot answered
the request before it, whichever is later.
"""

from __future__ import annotations

import selectors
import time
from collections import deque
from collections.abc import Hashable, Sequence
from typing import Any, NoReturn

from c8league.engine import HandResult, MatchResult, Move, Observation, Rules, wire
from c8league.errors import PlayerFault
from c8league.players.base import BasePlayer
from c8league.players.external import keep, protocol
from c8league.players.external.framing import MAX_LINE, LineTooLong, Overdue, PipeClosed
from c8league.players.external.player import BotRun, ExternalPlayer
from c8league.players.external.protocol import Violation

GRACE_SECONDS = 1.0
"""How long a bot that faulted has to exit after its ``error`` before it is killed."""


class BotFailed(Exception):
    """The shared bot faulted: ``session`` (None: none can be told) forfeits with
    ``fault``; the bot's other matches are to be played again."""

    def __init__(self, session: Session | None, fault: PlayerFault) -> None:
        super().__init__(fault.detail)
        self.session = session
        self.fault = fault


class SharedBot:
    """A kept bot process (:class:`~c8league.players.external.player.BotRun`) whose
    hello said ``concurrent``, serving the sessions of several matches."""

    def __init__(self, run: BotRun, key: Hashable, player: ExternalPlayer) -> None:
        assert run.hello is not None and run.hello.concurrent
        self.run = run
        self.key = key
        self.memory_mb = player.memory_mb
        self.waiting: deque[Session] = deque()
        """Sessions whose request is out (written or held), oldest first."""
        self.written = 0
        """How many of :attr:`waiting` (the oldest) have been written."""
        self.free_at = 0.0
        """When the bot could begin the oldest waiting request (``time.monotonic``)."""
        self.broken = False
        run.log.close()  # (its tail: what the bot wrote while it waited, too)
        run.log = type(run.log)(run.stderr_path)
        run.channel.use_log(run.log)

    @classmethod
    def take(cls, player: ExternalPlayer) -> SharedBot | None:
        """The kept process of ``player``'s bot, if it has one that plays several
        matches at once (one that does not is left kept)."""
        if player.restart == "match":
            return None
        key = player.key
        run = keep.take(key)
        if not isinstance(run, BotRun):
            return None
        if run.hello is None or not run.hello.concurrent:
            keep.give(key, run)
            return None
        return cls(run, key, player)

    # -- writing --------------------------------------------------------------------

    def hold(self, line: str) -> None:
        self.run.channel.hold(line.encode())

    def ask(self, session: Session, line: str) -> None:
        self.hold(line)
        self.waiting.append(session)

    def flush(self) -> None:
        """Write every line held, the requests with them; raises :class:`BotFailed`."""
        now = time.monotonic()
        if self.written == 0:
            self.free_at = now
        try:
            self.run.channel.send(b"", now + self._move_time())
        except PipeClosed:  # (it ended answering the oldest request, if any was out)
            self.ended(
                "before answering the move request"
                if self.written
                else "while sending the move request"
            )
        except Overdue:
            self._timeout("the bot did not read its requests in time")
        self.written = len(self.waiting)

    def _move_time(self) -> float:
        return self.waiting[0].move_time if self.waiting else 5.0

    # -- reading --------------------------------------------------------------------

    def fds(self) -> list[int]:
        return self.run.channel.fds()

    def deadline(self) -> float:
        return self.free_at + self._move_time()

    def answers(self) -> list[tuple[Session, int | dict[str, Any]]]:
        """The answers the bot has written so far, read without waiting, each with its
        session: the move's index where the answer has the usual shape, else the message
        read. A ``view`` request is answered here. Raises :class:`BotFailed`."""
        try:
            lines = self.run.channel.ready_lines()
        except LineTooLong:
            self._protocol(f"a line longer than {MAX_LINE} bytes")
        except PipeClosed:
            self.ended("before answering the move request")
        got: list[tuple[Session, int | dict[str, Any]]] = []
        waiting = self.waiting
        for line in lines:
            if not self.written:
                self._protocol(f"output nobody asked for: {protocol.clip(line)}")
            session = waiting[0]
            usual = protocol.numbered_index(line)
            message: int | dict[str, Any]
            if usual is not None:
                number, message = usual
            else:
                try:
                    message = protocol.answer(line, "move", "view")
                    number = protocol.match_of(message)
                except Violation as exc:
                    self._protocol(str(exc))
            if number != session.number:
                self._protocol(
                    f"an answer for match {number} where match {session.number}'s was due"
                )
            if not isinstance(message, int) and message["type"] == "view":
                self._send_view(session)
                continue
            waiting.popleft()
            self.written -= 1
            got.append((session, message))
        if got:
            self.free_at = time.monotonic()
        return got

    def overdue(self) -> NoReturn:
        """The oldest request is past its time: the bot faults (the detail says so if a
        process of the bot was found stopped, as by ``SIGSTOP``)."""
        self._timeout(f"no move within {self._move_time():g} s" + self.run.process.stopped_note())

    def _send_view(self, session: Session) -> None:
        assert session.view is not None
        text = protocol.view_answer(session.encoder.view(session.view, whole=True))
        try:
            self.run.channel.send(wire.numbered(text, session.number).encode(), self.deadline())
        except PipeClosed:
            self.ended("while reading its view")
        except Overdue:
            self._timeout("the bot did not read its view in time")

    # -- faults ---------------------------------------------------------------------

    def _protocol(self, detail: str) -> NoReturn:
        raise self.fail(self._blamed(), "protocol", detail)

    # A bot out of time, or whose process ended, may have been deciding for any of the
    # matches whose requests it had read: one that writes its answers in batches has
    # not written those it had found before the one it is stuck on. No match is blamed;
    # all of the bot's matches are played again one at a time, where a fault is its own
    # match's (and so the same, whatever the timing).

    def _timeout(self, detail: str) -> NoReturn:
        raise self.fail(None, "timeout", detail)

    def ended(self, when: str) -> NoReturn:
        process = self.run.process
        if process.returncode is None and not process.wait(1.0, self.run.channel.drain):
            raise self.fail(None, "crash", f"the bot closed its output {when}")
        reason, detail = self.run.ended_fault(when, self.memory_mb)
        raise self.fail(None, reason, detail)

    def _blamed(self) -> Session | None:
        return self.waiting[0] if self.waiting else None

    def fail(self, session: Session | None, reason: str, detail: str) -> BotFailed:
        """The bot faulted in ``session``'s match: tell it, end its process (at once for
        a timeout), and say who forfeits."""
        request = None if session is None else session.request_number()
        if self.broken:
            return BotFailed(session, PlayerFault(reason, detail + self._log_note(), request))
        self.broken = True
        self.run.temporary = False  # the fault names its log: it stays
        number = None if session is None else session.number
        channel = self.run.channel
        channel.write_now(protocol.error(reason, detail, number))
        channel.close_input()
        self.end(0.0 if reason == "timeout" else GRACE_SECONDS)
        return BotFailed(session, PlayerFault(reason, detail + self._log_note(), request))

    def _log_note(self) -> str:
        return f" (stderr log: {self.run.stderr_path})"

    # -- the end --------------------------------------------------------------------

    def give_back(self) -> None:
        """The matches are over: keep the process for later ones (if it is well), else
        end it."""
        if self.broken:
            return
        channel = self.run.channel
        try:
            channel.send(b"", time.monotonic() + GRACE_SECONDS)  # the last notices
            quiet = channel.unasked() is None
        except (PipeClosed, Overdue):
            quiet = False
        if quiet and self.run.alive():
            self.run.process.end_children()
            channel.drain()
            if keep.give(self.key, self.run):
                return
        self.broken = True
        self.run.leave()
        self.end(GRACE_SECONDS)

    def end(self, grace: float) -> None:
        self.run.end(time.monotonic() + grace)


class Session(BasePlayer):
    """One seat of one match played by a :class:`SharedBot`: a player that answers
    later (``runner.loop.AnswersLater``), its messages naming its match number."""

    answers_later = True

    def __init__(self, bot: SharedBot, player: ExternalPlayer) -> None:
        hello = bot.run.hello
        assert hello is not None
        self.bot = bot
        self.name = player.name
        self.move_time = player.move_time
        self.facts = player
        self.number = bot.run.number()
        self.encoder = wire.ObservationEncoder(hello.form)
        self.skip_forced = hello.skip_forced
        self.view: Observation | None = None
        """The view of the request out (for a ``view`` request)."""
        self._legal: Sequence[Move] = ()
        self._told = False
        self._requests = 0
        """Move requests sent in this match."""
        self._forced = 0
        """Forced moves c8league played for the bot in this match (``skip_forced``)."""

    def request_number(self) -> int | None:
        """The request the bot is answering, where c8league played forced moves for it
        (it counts requests, its seat moves: ``results.Forfeit.request``); else None."""
        return self._requests if self._forced else None

    def _say(self, line: str) -> None:
        self.bot.hold(wire.numbered(line, self.number))

    def start_match(self, seat: int, players: int, seed: int) -> None:
        self.facts.seated(seat, players, seed)

    def _begin(self, rules: Rules) -> None:
        self._say(self.facts.match_facts(protocol.match_start, rules))
        self.bot.run.matches += 1
        self._told = True

    def start_hand(self, observation: Observation) -> None:
        if not self._told:
            self._begin(observation.rules)
        self._say(protocol.hand_start(self.encoder.view(observation)))

    def choose(self, observation: Observation, legal: Sequence[Move]) -> Move:
        raise TypeError("a session answers later: request, then reply")

    def request(self, observation: Observation, legal: list[Move]) -> Move | None:
        if len(legal) == 1 and self.skip_forced:
            self._forced += 1
            return legal[0]  # the bot sees it in its next view
        self._requests += 1
        self.view, self._legal = observation, legal
        view = self.encoder.view(observation)
        self.bot.ask(self, wire.move_request(view, wire.texts(legal), self.number))
        return None

    def reply(self, answer: Any) -> Move:
        """The move of the bot's ``answer``: its index (see :meth:`SharedBot.answers`)
        or its message."""
        legal = self._legal
        if type(answer) is int and answer < len(legal):
            return legal[answer]
        try:
            move, is_legal = protocol.read_move(
                {"index": answer} if type(answer) is int else answer, legal
            )
        except Violation as exc:
            raise self.bot.fail(self, "protocol", str(exc)).fault from None
        if not is_legal:
            raise self.bot.fail(self, "illegal", f"{move} is not a legal move").fault
        return move

    def end_hand(self, observation: Observation, result: HandResult) -> None:
        if not self.bot.broken:
            self._say(protocol.hand_end(self.encoder.view(observation), result))

    def end_match(self, result: MatchResult) -> None:
        if not self.bot.broken:
            self._say(protocol.match_end(result))


def wait_for(bots: Sequence[SharedBot], deadline: float) -> None:
    """Wait until one of ``bots`` has written, or ``deadline`` (``time.monotonic``);
    what a single bot wrote is read (a bot that ended raises :class:`BotFailed`)."""
    if len(bots) == 1:
        bot = bots[0]
        try:
            bot.run.channel.wait(max(0.0, deadline - time.monotonic()))
        except PipeClosed:
            bot.ended("before answering the move request")
        return
    with selectors.DefaultSelector() as selector:
        for bot in bots:
            for fd in bot.fds():
                selector.register(fd, selectors.EVENT_READ)
        selector.select(max(0.0, deadline - time.monotonic()))
