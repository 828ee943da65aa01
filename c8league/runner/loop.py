"""The match loop: ask the player to act for a move, apply it, tell the others.

It belongs neither to the game nor to the players. A player that raises, returns
a move that is not legal, or reports a fault (time, memory, crash, protocol)
forfeits the match: it is placed last, the others keep their places by score.

A match may be given a time limit (``match_seconds``): a timer interrupts a player
that is still deciding when the limit passes (one stuck in a loop, say), and that
player forfeits with ``timeout``. Players run in this process, so this is the only
way to stop one that never returns (see :class:`_Deadline` for how, and its limits).
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from types import FrameType, TracebackType

from c8league.engine import Hand, HandRecord, HandResult, Match, MatchResult, Rules, derive_seed
from c8league.engine.match import placements
from c8league.errors import PlayerFault
from c8league.players.base import Player
from c8league.results import Forfeit as Forfeit  # re-export


@dataclass(frozen=True)
class MatchOutcome:
    result: MatchResult
    hand_results: list[HandResult]
    records: list[HandRecord]
    decisions: int
    forfeit: Forfeit | None = None
    totals: tuple[int, ...] = field(default=())


HandCallback = Callable[[int, HandResult], None]


class _MatchTimeout(BaseException):
    """Raised by the match timer wherever the match is. Not an ``Exception``, so that a
    player's own ``except Exception`` does not swallow it."""


class _Deadline:
    """A one-shot timer that raises :class:`_MatchTimeout` in this thread after
    ``seconds`` (none without a limit).

    In the main thread of a POSIX process (the process pool's workers, or a run with
    one worker) it is ``SIGALRM``, which also cuts a blocking call such as a long
    ``sleep`` short. In any other thread (a Dask worker's) a timer thread sets the
    exception asynchronously in this one; that takes effect at the next Python
    instruction, so it stops a player looping in Python but not one blocked in C.
    """

    def __init__(self, seconds: float | None) -> None:
        self.seconds = seconds
        if seconds is None:
            self.mode = ""
        elif hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread():
            self.mode = "signal"
        else:
            self.mode = "thread"
        self._previous: object = None
        self._target = threading.get_ident()
        self._guard = threading.Lock()
        self._done = False
        self._timer: threading.Timer | None = None

    def __enter__(self) -> None:
        if self.seconds is None:
            return
        seconds = max(self.seconds, 1e-3)
        if self.mode == "signal":
            self._previous = signal.signal(signal.SIGALRM, _raise_timeout)
            signal.setitimer(signal.ITIMER_REAL, seconds)
        else:
            self._timer = threading.Timer(seconds, self._fire)
            self._timer.daemon = True
            self._timer.start()

    def _fire(self) -> None:
        with self._guard:
            if not self._done:
                _set_async_exception(self._target, _MatchTimeout)

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if self.mode == "signal":
            try:
                signal.setitimer(signal.ITIMER_REAL, 0)
            finally:
                signal.signal(signal.SIGALRM, self._previous)  # type: ignore[arg-type]
        elif self._timer is not None:
            self._timer.cancel()
            with self._guard:
                self._done = True
                _set_async_exception(self._target, None)  # drop one not yet raised


def _set_async_exception(thread_id: int, exception: type[BaseException] | None) -> None:
    """Raise ``exception`` in thread ``thread_id`` at its next Python instruction (None:
    cancel one set and not yet raised)."""
    import ctypes

    ctypes.pythonapi.PyThreadState_SetAsyncExc(
        ctypes.c_ulong(thread_id), None if exception is None else ctypes.py_object(exception)
    )


def _raise_timeout(signum: int, frame: FrameType | None) -> None:
    raise _MatchTimeout


def play_match(
    rules: Rules,
    players: Sequence[Player],
    seed: int,
    *,
    on_hand: HandCallback | None = None,
    match_seconds: float | None = None,
) -> MatchOutcome:
    """Play one match with ``players`` in seat order, seeded by ``seed``, within
    ``match_seconds`` if given (see the module docstring)."""
    match = Match(rules, len(players), seed)
    decisions = [0] * len(players)
    forfeit: Forfeit | None = None
    try:
        with _Deadline(match_seconds):
            forfeit = _play(match, players, seed, decisions, on_hand, match_seconds)
    except _MatchTimeout:
        pass  # the timer went off as the match ended: the match stands as it ended
    result = match.result if forfeit is None else _forfeit_result(match, forfeit.seat)
    assert result is not None
    for p in players:
        with contextlib.suppress(Exception):  # the result stands whatever a player does now
            _hook(p, "end_match", result)
    for p in players:
        with contextlib.suppress(Exception):
            _hook(p, "close")
    return MatchOutcome(
        result=result,
        hand_results=list(match.hand_results),
        records=list(match.records),
        decisions=sum(decisions),
        forfeit=forfeit,
        totals=tuple(match.totals),
    )


def _play(
    match: Match,
    players: Sequence[Player],
    seed: int,
    decisions: list[int],
    on_hand: HandCallback | None,
    match_seconds: float | None,
) -> Forfeit | None:
    """Play the match until it ends or a seat forfeits; return the forfeit if any."""
    forfeit: Forfeit | None = None
    seat = 0
    try:
        _tell(players, "start_match", lambda s: (s, len(players), derive_seed(seed, "player", s)))
        _tell(players, "start_hand", lambda s: (match.hand.observation(s),))
        while match.result is None:
            seat = match.hand.current
            hand = match.hand
            legal = hand.legal_moves()
            decisions[seat] += 1
            move = players[seat].choose(hand.observation(seat), legal)
            if move not in legal:
                raise PlayerFault("illegal", f"{move!s} is not a legal move")
            ended = match.apply(move)
            if ended is not None:
                _tell(players, "end_hand", _end_hand_args(hand, ended))
                if on_hand is not None:
                    on_hand(len(match.hand_results), ended)
                if match.result is None:
                    _tell(players, "start_hand", lambda s: (match.hand.observation(s),))
    except _MatchTimeout:
        detail = f"still deciding when the match passed its limit of {match_seconds:g} s"
        forfeit = Forfeit(seat, "timeout", decisions[seat], detail)
    except _SeatFault as fault:
        seat = fault.seat
        forfeit = Forfeit(seat, fault.reason, decisions[seat], fault.detail)
    except PlayerFault as fault:
        forfeit = Forfeit(seat, fault.reason, decisions[seat], fault.detail)
    except Exception as exc:  # a player's own bug: it forfeits, the event goes on
        forfeit = Forfeit(seat, "exception", decisions[seat], f"{type(exc).__name__}: {exc}")
    return forfeit


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
    def __init__(self, seat: int, reason: str, detail: str) -> None:
        super().__init__(reason, detail)
        self.seat = seat


def _tell(players: Sequence[Player], hook: str, args: Callable[[int], tuple[object, ...]]) -> None:
    """Call an optional hook on every player; a failing hook is that player's fault."""
    for seat, player in enumerate(players):
        try:
            _hook(player, hook, *args(seat))
        except _MatchTimeout:
            raise _SeatFault(seat, "timeout", f"{hook}: still running at the time limit") from None
        except PlayerFault as fault:
            raise _SeatFault(seat, fault.reason, fault.detail) from None
        except Exception as exc:
            raise _SeatFault(seat, "exception", f"{hook}: {type(exc).__name__}: {exc}") from None


def _hook(player: object, name: str, *args: object) -> None:
    method = getattr(player, name, None)
    if method is not None:
        method(*args)
