"""The match loop: ask the player to act for a move, apply it, tell the others.

It belongs neither to the game nor to the players. A player that raises (anything,
``SystemExit`` included), returns a move that is not legal, or reports a fault (time,
memory, crash, protocol) forfeits the match: it is placed last, the others keep their
places by score. A ``KeyboardInterrupt`` stops the match only where it can be the
user's (see :func:`user_interrupt`): in the runner's worker processes, which leave
Ctrl-C to the process that runs the event, it is the player's fault like any other.

A match may be given a time limit (``match_seconds``): a timer interrupts a player
that is still deciding when the limit passes (one stuck in a loop, say), and that
player forfeits with ``timeout``. The timer interrupts players only, never the engine
between two player calls, so a match cut short is always a consistent position (see
:class:`_Deadline` for how, and its limits). The limit is on the match's clock
(:class:`~c8league.runner.clock.Clock`), which counts only time in which the process
could run: not time it was stopped (``SIGSTOP``, a suspended machine) or waited for a
processor; the machine holding the match up that way is a
:class:`~c8league.errors.MachineFault`, which goes through, and the runner plays the
match again. A process that supervises the match
from outside (``runner.worker``) reads its progress from a :class:`Watch`, and can
replay it to a given player call with a :class:`Stop`.
"""

from __future__ import annotations

import ctypes
import signal
import sys
import threading
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass, field
from types import FrameType, TracebackType
from typing import Any, Protocol

from c8league.engine import (
    Hand,
    HandRecord,
    HandResult,
    Match,
    MatchResult,
    Move,
    Observation,
    Rules,
    derive_seed,
)
from c8league.engine.match import MatchRecord, placements
from c8league.errors import MachineFault, PlayerFault
from c8league.players.base import BasePlayer, Player, adapt
from c8league.results import Forfeit, HandReport, Result
from c8league.runner.clock import TICK_SECONDS, Clock, ClockWatch

HOOKS = ("start_match", "start_hand", "choose", "end_hand", "end_match", "close")
"""The player calls, by the number a :class:`Watch` records in ``hook``."""
START_MATCH, START_HAND, CHOOSE, END_HAND = 0, 1, 2, 3


@dataclass(frozen=True)
class MatchOutcome:
    result: MatchResult
    hand_results: list[HandResult]
    records: list[HandRecord]
    decisions: int
    forfeit: Forfeit | None = None
    totals: tuple[int, ...] = field(default=())
    moves: MatchRecord | None = None
    """Every move of the match, hand by hand, the hand it stopped in included."""

    def hand_reports(self) -> tuple[HandReport, ...]:
        """The hands as stored: results and the records that replay them."""
        return tuple(
            HandReport(
                kind=r.kind,
                winners=r.winners,
                points=r.points,
                penalties=r.penalties,
                record=rec.to_json(),
            )
            for r, rec in zip(self.hand_results, self.records, strict=True)
        )

    def as_result(
        self, *, hands: bool = True, entered_by: str = "engine", stopped_hand: bool = True
    ) -> Result:
        """The match's result as storage stores it: with its hands (unless ``hands`` is
        false) and, unless ``stopped_hand`` is false, the moves of the hand it stopped
        in (a forfeit), as that hand's line of ``moves.to_text()``."""
        unfinished = None
        done = len(self.hand_results)
        if stopped_hand and self.moves is not None and len(self.moves.hands) > done:
            line = " ".join(self.moves.hands[done])
            unfinished = line if line or done else None  # (an empty text has no lines)
        return Result(
            placements=tuple(self.result.placements),
            scores=tuple(self.result.scores),
            ended=self.result.ended,
            hands=self.hand_reports() if hands else (),
            decisions=self.decisions,
            forfeit=self.forfeit,
            entered_by=entered_by,
            unfinished=unfinished,
        )


HandCallback = Callable[[int, HandResult], None]

PAST_THE_LIMIT = "still deciding when the match passed its limit"
"""How the forfeit of a player still deciding at the match's time limit begins."""


def past_the_limit(forfeit: Forfeit) -> bool:
    """Whether ``forfeit`` is a player's still deciding when the match's limit passed."""
    return forfeit.reason == "timeout" and forfeit.detail.startswith(PAST_THE_LIMIT)


class Watch(ClockWatch, Protocol):
    """Where the loop writes which player it is calling, for a process that watches the
    match from outside (e.g. shared memory). Written before and after every call; the
    match's clock writes what it left out (:class:`~c8league.runner.clock.ClockWatch`)."""

    turn: int
    """The seat being called; ``-1 - seat`` once that call has returned."""
    calls: int
    """Player calls made in the match so far, the current one included (1-based)."""
    move: int
    """The called seat's decision number in the match (as in :attr:`Forfeit.move_number`)."""
    hook: int
    """Which call: an index into :data:`HOOKS`."""


@dataclass(frozen=True, slots=True)
class Stop:
    """Replay a match up to player call number ``call`` (as counted by :attr:`Watch.calls`)
    and let the seat called there forfeit without making the call: how a match whose
    process died or hung inside that call gets the result it would have had in-process.
    ``reason`` ``timeout`` words the forfeit as the match limit does; any other reason
    uses ``detail``. The match limit's timer is off in a replay."""

    call: int
    seat: int
    reason: str
    detail: str = ""


class MatchTimeout(BaseException):
    """Raised by the match timer in a player's call (or thrown into a match played step
    by step, :class:`MatchSteps`). Not an ``Exception``, so that a player's own
    ``except Exception`` does not swallow it."""


class AnswersLater(Protocol):
    """A player asked for its move now that answers later: one seat of a bot playing
    several matches at once (``players.external.shared``), in a match played step by
    step (:class:`MatchSteps`). It says so with ``answers_later = True``."""

    answers_later: bool

    def request(self, observation: Observation, legal: list[Move]) -> Move | None:
        """Ask for a move (the question may wait to be sent with others); the move at
        once if there is no need to ask (a forced move)."""

    def reply(self, answer: Any) -> Move:
        """The move of the answer to :meth:`request`; raises the player's fault."""


class _Turns:
    """Every call into a player goes through :meth:`call` (:meth:`ask` for a move, its
    hot path written out; :meth:`tell` for a hook of every player): it counts the calls
    and each seat's decisions, tells the :class:`Watch`, and is the only place where the
    match timer may interrupt. :meth:`forfeit` says what a fault raised there costs."""

    __slots__ = (
        "calls",
        "choosers",
        "decisions",
        "fired",
        "later",
        "lock",
        "players",
        "seat",
        "stop",
        "stop_call",
        "target",
        "watch",
    )

    def __init__(
        self, players: Sequence[BasePlayer], watch: Watch | None, stop: Stop | None
    ) -> None:
        self.players = players
        self.choosers = [player.choose for player in players]
        self.later = [player.answers_later for player in players]
        """The seats that answer later (:class:`AnswersLater`)."""
        self.decisions = [0] * len(players)
        """Each seat's decisions so far."""
        self.watch = watch
        self.stop = stop
        self.stop_call = 0 if stop is None else stop.call
        """The call that forfeits in a replay (0: none)."""
        self.calls = 0
        self.seat = -1
        """The seat being called; -1 between calls (the engine's turn)."""
        self.fired = False
        """The match limit has passed."""
        self.lock: threading.Lock | None = None
        """Set when the timer is a thread (see :class:`_Deadline`)."""
        self.target = threading.get_ident()

    def call(self, seat: int, hook: int, move: int, fn: Callable[..., Any], *args: Any) -> Any:
        self.calls = calls = self.calls + 1
        watch = self.watch
        if watch is not None:
            watch.calls, watch.move, watch.hook, watch.turn = calls, move, hook, seat
        if calls == self.stop_call or self.fired:
            self._refuse()
        try:
            self.seat = seat
            result = fn(*args)
        finally:
            self._leave(seat)
        if self.fired:  # it swallowed the interruption and returned
            raise MatchTimeout
        return result

    def ask(self, seat: int, view: Observation, legal: list[Move]) -> Move:
        """Ask ``seat`` for its next decision: :meth:`call` of its ``choose`` written out,
        as this is the loop's hot path. A move not in ``legal`` is a fault."""
        decisions = self.decisions
        decisions[seat] = move = decisions[seat] + 1
        self.calls = calls = self.calls + 1
        watch = self.watch
        if watch is not None:
            watch.calls, watch.move, watch.hook, watch.turn = calls, move, CHOOSE, seat
        if calls == self.stop_call or self.fired:
            self._refuse()
        try:
            self.seat = seat
            chosen = self.choosers[seat](view, legal)
        finally:
            if self.lock is None:
                self.seat = -1
                if watch is not None:
                    watch.turn = -1 - seat
            else:
                self._leave(seat)
        if self.fired:  # it swallowed the interruption and returned
            raise MatchTimeout
        if chosen not in legal:
            raise PlayerFault("illegal", f"{chosen!s} is not a legal move")
        return chosen

    def ask_later(self, seat: int, view: Observation, legal: list[Move]) -> Move | None:
        """Ask ``seat``, which answers later (:class:`AnswersLater`): its move if there
        is no need to ask (a forced move), else None: the player is to be yielded until
        its answer is sent in, and the answer given to :meth:`reply`. No watch, stop or
        timer here: a match played so is limited from outside (:class:`MatchSteps`).
        Not a generator of its own: it runs once for every move of such a player."""
        self.decisions[seat] += 1
        self.calls += 1
        player: AnswersLater = self.players[seat]  # type: ignore[assignment]
        return player.request(view, legal)

    def reply(self, player: AnswersLater, answer: object, legal: list[Move]) -> Move:
        """The move of ``player``'s ``answer`` to :meth:`ask_later`."""
        chosen = player.reply(answer)
        if chosen not in legal:
            raise PlayerFault("illegal", f"{chosen!s} is not a legal move")
        return chosen

    def tell(self, hook: int, args: Callable[[int], tuple[object, ...]]) -> None:
        """Call an optional hook on every player, with ``args(seat)``; a failing hook is
        that player's fault."""
        name = HOOKS[hook]
        for seat, player in enumerate(self.players):
            if name not in player.hooks:
                continue
            method = player.hook(name)
            try:
                self.call(seat, hook, self.decisions[seat], method, *args(seat))
            except MatchTimeout:
                raise _SeatFault(
                    seat, "timeout", f"{name}: still running at the time limit"
                ) from None
            except PlayerFault as fault:
                raise _SeatFault(seat, fault.reason, fault.detail, fault.request) from None
            except MachineFault:
                raise
            except BaseException as exc:
                if user_interrupt(exc):
                    raise
                raise _SeatFault(seat, "exception", f"{name}: {describe(exc)}") from None

    def forfeit(self, exc: BaseException, seat: int, match_seconds: float | None) -> Forfeit:
        """The forfeit that ``exc``, raised while ``seat`` was to act, stands for. What is
        no player's doing goes through: the machine holding the match up, the user's
        Ctrl-C."""
        decisions = self.decisions
        if isinstance(exc, MatchTimeout):
            detail = f"{PAST_THE_LIMIT} of {match_seconds:g} s"
            return Forfeit(seat, "timeout", decisions[seat], detail)
        if isinstance(exc, _SeatFault):  # from a hook told to every seat
            return Forfeit(exc.seat, exc.reason, decisions[exc.seat], exc.detail, exc.request)
        if isinstance(exc, PlayerFault):
            return Forfeit(seat, exc.reason, decisions[seat], exc.detail, exc.request)
        if isinstance(exc, MachineFault) or user_interrupt(exc):
            raise exc
        # A player's own bug (SystemExit and the like included): it forfeits, the run
        # goes on.
        return Forfeit(seat, "exception", decisions[seat], describe(exc))

    def _refuse(self) -> None:
        """The call about to be made is not made: it is the one a replay forfeits, or
        the limit passed between two calls (this player is next to act)."""
        stop = self.stop
        if stop is not None and self.calls == stop.call and stop.reason != "timeout":
            raise PlayerFault(stop.reason, stop.detail)
        raise MatchTimeout

    def _leave(self, seat: int) -> None:
        lock = self.lock
        if lock is None:
            self.seat = -1
        else:
            with lock:
                self.seat = -1
                fired = self.fired
            if fired:  # drop an interruption set but not yet raised: not in engine code
                _set_async_exception(self.target, None)
        if self.watch is not None:
            self.watch.turn = -1 - seat


class _Deadline:
    """A timer that interrupts the player being called once the match has had
    ``seconds`` of time (none without a limit), by raising :class:`MatchTimeout` in its
    call.

    In the main thread of a POSIX process (the worker processes of a run, or of
    ``bots check``) it is ``SIGALRM`` every :data:`TICK_SECONDS`, and the time is the
    match's clock (:class:`~c8league.runner.clock.Clock`); the signal also cuts a
    blocking call such as a long ``sleep`` short, and keeps interrupting a player that
    swallows the interruption. In any other thread a timer thread sets the exception
    asynchronously in this one after ``seconds`` of wall-clock time; that takes effect
    at the next Python instruction, so it stops a player looping in Python but not one
    blocked in C. The limit passing while the engine runs marks it as passed: the next
    player called forfeits. A player that is stuck for good (in C, or swallowing every
    interruption) is beyond any timer in its own process: the runner's worker processes
    are watched from outside for that (``runner.worker``).
    """

    def __init__(self, seconds: float | None, turns: _Turns) -> None:
        self.seconds = seconds
        self.turns = turns
        if seconds is None:
            self.mode = ""
        elif hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread():
            self.mode = "signal"
        else:
            self.mode = "thread"
            turns.lock = threading.Lock()
        self._previous: Any = None
        self._done = False
        self._timer: threading.Timer | None = None
        self._clock: Clock | None = None
        self._unraisable: Callable[[Any], object] | None = None
        self._quiet: Callable[[Any], object] | None = None

    def __enter__(self) -> None:
        if self.seconds is None:
            return
        seconds = max(self.seconds, 1e-3)
        self._unraisable = sys.unraisablehook
        sys.unraisablehook = self._quiet = _without_timeouts(self._unraisable)
        if self.mode == "signal":
            self._clock = Clock(self.turns.watch).__enter__()
            self._previous = signal.signal(signal.SIGALRM, self._on_alarm)
            self._arm(min(seconds, TICK_SECONDS))
        else:
            self._timer = threading.Timer(seconds, self._fire)
            self._timer.daemon = True
            self._timer.start()

    def _arm(self, seconds: float) -> None:
        assert self._clock is not None
        self._clock.expect(seconds)
        signal.setitimer(signal.ITIMER_REAL, seconds, TICK_SECONDS)

    def _on_alarm(self, signum: int, frame: FrameType | None) -> None:
        turns = self.turns
        if not turns.fired:
            assert self._clock is not None and self.seconds is not None
            remaining = max(self.seconds, 1e-3) - self._clock.look()
            if remaining > 0:
                self._arm(min(remaining, TICK_SECONDS))
                return
            turns.fired = True
        # Never in the frames that enter and leave a call: the call's bookkeeping would
        # be left half done (the call itself raises the timeout once it has left).
        if turns.seat >= 0 and frame is not None and frame.f_code not in _WRAPPER_CODES:
            raise MatchTimeout

    def _fire(self) -> None:
        turns = self.turns
        assert turns.lock is not None
        with turns.lock:
            turns.fired = True
            if not self._done and turns.seat >= 0:
                _set_async_exception(turns.target, MatchTimeout)

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if self._unraisable is not None and sys.unraisablehook is self._quiet:
            sys.unraisablehook = self._unraisable  # (unless another has been put in since)
        if self.mode == "signal":
            try:
                signal.setitimer(signal.ITIMER_REAL, 0)
            finally:
                signal.signal(signal.SIGALRM, self._previous)
                if self._clock is not None:
                    self._clock.__exit__()
        elif self._timer is not None:
            self._timer.cancel()
            assert self.turns.lock is not None
            with self.turns.lock:
                self._done = True
            if self.turns.fired:
                _set_async_exception(self.turns.target, None)  # drop one not yet raised


def _without_timeouts(hook: Callable[[Any], object]) -> Callable[[Any], object]:
    """``sys.unraisablehook`` while a match is timed: the timer's :class:`MatchTimeout`
    raised where Python cannot pass it on (a finalizer, or a weak reference's callback,
    run by the garbage collector in the middle of the player's call) is dropped, not
    printed as a traceback: the timer raises it again (the signal's next tick, or the
    call's end), and everything else goes to ``hook``."""

    def unraisable(what: Any) -> object:
        if what.exc_type is MatchTimeout:
            return None
        return hook(what)

    return unraisable


def _set_async_exception(thread_id: int, exception: type[BaseException] | None) -> None:
    """Raise ``exception`` in thread ``thread_id`` at its next Python instruction (None:
    cancel one set and not yet raised)."""
    ctypes.pythonapi.PyThreadState_SetAsyncExc(
        ctypes.c_ulong(thread_id), None if exception is None else ctypes.py_object(exception)
    )


def user_interrupt(exc: BaseException) -> bool:
    """Whether ``exc`` may be a Ctrl-C of the user, which stops a match rather than
    forfeit it: a ``KeyboardInterrupt`` in the main thread of a process that handles
    SIGINT (a person playing at the terminal leaves the match this way too). In the
    runner's worker processes, which ignore SIGINT, it never is: a player raised it."""
    return (
        isinstance(exc, KeyboardInterrupt)
        and threading.current_thread() is threading.main_thread()
        and callable(signal.getsignal(signal.SIGINT))
    )


def describe(exc: BaseException) -> str:
    """An exception as a forfeit's detail: ``RuntimeError: boom``, ``SystemExit: 3``."""
    text = str(exc)
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def play_match(
    rules: Rules,
    players: Sequence[Player],
    seed: int,
    *,
    on_hand: HandCallback | None = None,
    match_seconds: float | None = None,
    watch: Watch | None = None,
    stop: Stop | None = None,
    reported: Callable[[MatchOutcome], None] | None = None,
) -> MatchOutcome:
    """Play one match with ``players`` in seat order, seeded by ``seed``, within
    ``match_seconds`` if given (see the module docstring).

    ``watch`` receives the progress of the match call by call; ``stop`` replays it to a
    call and forfeits the seat called there; ``reported`` is called with the outcome as
    soon as it is known, before the players are told the match ended and closed."""
    seated = [adapt(player) for player in players]
    match = Match(rules, len(seated), seed)
    turns = _Turns(seated, watch, stop)
    if any(turns.later):
        raise TypeError("a player that answers later plays in MatchSteps only")
    try:
        with _Deadline(None if stop is not None else match_seconds, turns):
            steps = _steps(match, seed, turns, on_hand=on_hand, match_seconds=match_seconds)
            try:
                next(steps)  # no player answers later: it runs to the end
            except StopIteration as done:
                forfeit = done.value
        outcome = _outcome(match, turns, forfeit)
        if reported is not None:
            reported(outcome)
        for p in seated:  # the result stands whatever a player does now
            _finish(p.end_match, outcome.result)
    finally:
        for p in seated:
            _finish(p.close)
    return outcome


class MatchSteps:
    """A match played step by step, for matches played at once in one process
    (``runner.interleave``): :meth:`advance` plays it until a player that answers later
    (:class:`AnswersLater`) has been asked, and returns that player, or returns the
    outcome once the match is over; its answer is sent in with the next
    :meth:`advance`, its fault with :meth:`fail`. Each move is the same as in
    :func:`play_match`, so the match is the same. No timer interrupts a player here:
    the caller limits the match's time (:meth:`fail` with :class:`MatchTimeout`)."""

    def __init__(
        self,
        rules: Rules,
        players: Sequence[Player],
        seed: int,
        match_seconds: float | None = None,
    ) -> None:
        self.players = [adapt(player) for player in players]
        self.match = Match(rules, len(players), seed)
        self.turns = _Turns(self.players, None, None)
        self.match_seconds = match_seconds
        self._steps = _steps(
            self.match, seed, self.turns, on_hand=None, match_seconds=match_seconds
        )

    def advance(self, answer: object = None) -> AnswersLater | MatchOutcome:
        try:
            return self._steps.send(answer)
        except StopIteration as done:
            return _outcome(self.match, self.turns, done.value)

    def fail(self, exc: BaseException) -> AnswersLater | MatchOutcome:
        """The player asked last faulted with ``exc`` (a ``PlayerFault``, or
        :class:`MatchTimeout` for the match's time limit)."""
        try:
            return self._steps.throw(exc)
        except StopIteration as done:
            return _outcome(self.match, self.turns, done.value)

    def abandon(self) -> None:
        """Stop playing it (it is to be played again from the start)."""
        self._steps.close()

    def finish(self, result: MatchResult | None) -> None:
        """Tell the players the match is over (``result``; None: abandoned), then close
        them, whatever they raise but a user's Ctrl-C."""
        try:
            if result is not None:
                for p in self.players:
                    _finish(p.end_match, result)
        finally:
            for p in self.players:
                _finish(p.close)


def _outcome(match: Match, turns: _Turns, forfeit: Forfeit | None) -> MatchOutcome:
    result = match.result if forfeit is None else _forfeit_result(match, forfeit.seat)
    assert result is not None
    return MatchOutcome(
        result=result,
        hand_results=list(match.hand_results),
        records=list(match.records),
        decisions=sum(turns.decisions),
        forfeit=forfeit,
        totals=tuple(match.totals),
        moves=MatchRecord.of(match),
    )


def forfeit_result(rules: Rules, players: int, seed: int, loser: int) -> MatchResult:
    """The result of a match forfeited by ``loser`` before any hand was played."""
    return _forfeit_result(Match(rules, players, seed), loser)


def _finish(hook: Callable[..., None], *args: object) -> None:
    """Call a closing hook; whatever it raises is ignored but a Ctrl-C of the user."""
    try:
        hook(*args)
    except BaseException as exc:
        if user_interrupt(exc):
            raise


def _steps(
    match: Match,
    seed: int,
    turns: _Turns,
    *,
    on_hand: HandCallback | None,
    match_seconds: float | None,
) -> Generator[AnswersLater, Any, Forfeit | None]:
    """Play the match until it ends or a seat forfeits; return the forfeit if any.

    Ask the current player for a move, apply it, and at the end of a hand tell every
    player what they may see of it. A player that answers later is yielded, and its
    answer sent in (:class:`MatchSteps`); with none, the match runs to its end at the
    first ``next``."""
    seat = 0
    later = turns.later
    try:
        turns.tell(START_MATCH, _start_match_args(match.players, seed))
        turns.tell(START_HAND, lambda s: (match.hand.observation(s),))
        while match.result is None:
            hand = match.hand
            seat = hand.current
            legal = hand.legal_moves()
            if later[seat]:
                move = turns.ask_later(seat, hand.observation(seat), legal)
                if move is None:  # asked: it answers when its answer is sent in
                    asked: AnswersLater = turns.players[seat]  # type: ignore[assignment]
                    move = turns.reply(asked, (yield asked), legal)
            else:
                move = turns.ask(seat, hand.observation(seat), legal)
            ended = match.apply(move)
            if ended is not None:
                turns.tell(END_HAND, _end_hand_args(hand, ended))
                if on_hand is not None:
                    on_hand(len(match.hand_results), ended)
                if match.result is None:
                    turns.tell(START_HAND, lambda s: (match.hand.observation(s),))
    except GeneratorExit:
        raise
    except BaseException as exc:
        return turns.forfeit(exc, seat, match_seconds)
    return None


_WRAPPER_CODES = (_Turns.call.__code__, _Turns.ask.__code__, _Turns._leave.__code__)
"""The frames that enter and leave a player's call (see :meth:`_Deadline._on_alarm`)."""


def _start_match_args(players: int, seed: int) -> Callable[[int], tuple[object, ...]]:
    return lambda seat: (seat, players, derive_seed(seed, "player", seat))


def _end_hand_args(hand: Hand, result: HandResult) -> Callable[[int], tuple[object, ...]]:
    return lambda seat: (hand.observation(seat), result)


def _forfeit_result(match: Match, loser: int) -> MatchResult:
    """The forfeiting seat is placed last; the others keep their places by score."""
    countdown = match.rules.countdown
    scores = tuple(match.hand.scores) if countdown else tuple(match.totals)
    others = [s for s in range(match.players) if s != loser]
    ranked = placements([scores[s] for s in others], higher_is_better=not countdown)
    places = [0] * match.players
    for s, place in zip(others, ranked, strict=True):
        places[s] = place
    places[loser] = match.players
    return MatchResult(tuple(places), scores, len(match.hand_results), "forfeit")


class _SeatFault(PlayerFault):
    def __init__(self, seat: int, reason: str, detail: str, request: int | None = None) -> None:
        super().__init__(reason, detail, request)
        self.seat = seat
