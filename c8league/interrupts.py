"""Stopping a command: Ctrl-C, ``kill`` (SIGTERM) and a closed terminal (SIGHUP) alike,
and holding them back while a unit of work is written.

A command stops the same way whichever of the three arrives: :func:`stop_signals`
makes SIGTERM and SIGHUP raise :class:`Stopped`, a :class:`KeyboardInterrupt`, where
Ctrl-C raises its own, so that everything that handles Ctrl-C (a run drops the batch
not yet written and says how to resume) handles them too; :func:`exit_status` is the
status the command then ends with (130, 143, 129: 128 and the signal's number).
Nothing is cut short: the exception unwinds through the command, so its cleanup (the
database closed, files flushed) runs as at any other end.

A stored record is whole or absent: a write transaction rolls back on any exception,
so an interrupt in the middle of one loses the unit, never half of it. An interrupt
that lands inside the database driver, though, can leave its connection in a state
that the rollback then trips over. :func:`deferred_interrupts` keeps these signals
from raising inside the block and raises as soon as the block is left, so the block's
transaction ends cleanly first (committed or rolled back).
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any

from c8league.errors import ExecutorLost, Interrupted

SIGNALS: tuple[signal.Signals, ...] = tuple(
    getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name)
)
"""The signals that stop a command: Ctrl-C, ``kill``, a closed terminal."""


class Stopped(KeyboardInterrupt):
    """SIGTERM or SIGHUP, raised where Ctrl-C raises :class:`KeyboardInterrupt`."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


def signal_of(exc: BaseException) -> int:
    """The signal that stopped the command with ``exc``: SIGINT for Ctrl-C."""
    return getattr(exc, "signum", signal.SIGINT)


def exit_status(signum: int) -> int:
    """The exit status of a command stopped by ``signum``: 128 + its number."""
    return 128 + int(signum)


def stopped_by(exc: BaseException) -> str:
    """How the command was stopped with ``exc``, in words that start its one line (see
    :func:`stopped_by_signal`)."""
    return stopped_by_signal(signal_of(exc))


def stopped_by_signal(signum: int) -> str:
    """``interrupted`` (Ctrl-C), ``interrupted by SIGTERM``, ``interrupted by SIGHUP``."""
    if signum == signal.SIGINT:
        return "interrupted"
    return f"interrupted by {signal.Signals(signum).name}"


@contextmanager
def stop_signals() -> Iterator[list[int]]:
    """During the block, SIGTERM and SIGHUP raise :class:`Stopped` and Ctrl-C raises
    :class:`KeyboardInterrupt` (where Python's own handler is in place), in the main
    thread; elsewhere the block runs unchanged. Yields the list of the signals received
    during the block, for a caller that must say how it was stopped when what was
    raised is lost (Typer turns a KeyboardInterrupt into exit status 130)."""
    seen: list[int] = []
    if threading.current_thread() is not threading.main_thread():
        yield seen
        return

    def stop(signum: int, frame: FrameType | None) -> None:
        seen.append(signum)
        if signum == signal.SIGINT:
            raise KeyboardInterrupt
        raise Stopped(signum)

    stop._stops = True  # type: ignore[attr-defined]
    previous: dict[int, Any] = {}
    number: int
    for number in SIGNALS:
        current = signal.getsignal(number)
        if (
            number != signal.SIGINT
            or current is signal.default_int_handler
            or (getattr(current, "_stops", False))
        ):
            previous[number] = signal.signal(number, stop)
    try:
        yield seen
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


@contextmanager
def deferred_interrupts() -> Iterator[None]:
    """Defer Ctrl-C, SIGTERM and SIGHUP until the end of the block, then raise what the
    first of them would have raised.

    Only in the main thread, for the signals handled by Python (the default SIGINT
    handler raises KeyboardInterrupt; :func:`stop_signals` makes the others raise); at
    the end of the block that handler is called for the signal held back. Elsewhere (a
    worker thread, a process that ignores them, an enclosing ``deferred_interrupts``
    block) the block runs unchanged. Keep the block short: a user's Ctrl-C waits for it.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    held: dict[int, Callable[[int, FrameType | None], Any]] = {}
    number: int
    for number in SIGNALS:
        handler = signal.getsignal(number)
        if callable(handler) and not getattr(handler, "_holds_interrupts", False):
            held[number] = handler
    if not held:
        yield
        return
    received: list[int] = []

    def hold(signum: int, frame: FrameType | None) -> None:
        received.append(signum)

    hold._holds_interrupts = True  # type: ignore[attr-defined]
    for number in held:
        signal.signal(number, hold)
    try:
        yield
    except BaseException:
        _restore(held)
        raise
    _restore(held)
    if received:
        held[received[0]](received[0], None)


def _restore(handlers: dict[int, Callable[[int, FrameType | None], Any]]) -> None:
    for number, handler in handlers.items():
        signal.signal(number, handler)


@contextmanager
def run_kept(kept: Callable[[], str], *, goes_on: str, again: str) -> Iterator[None]:
    """A run of matches that stops says what it kept (``kept()``: ``12 matches stored by
    this run``) and how it goes on (``goes_on``, then ``again``, the command that goes on
    where it ran): stopped by the user, as :class:`Interrupted`; when what played its
    matches went away, as :class:`ExecutorLost`."""
    try:
        yield
    except KeyboardInterrupt as exc:
        raise Interrupted(
            f"{stopped_by(exc)}: {kept()}, each whole; {goes_on}: {again}", signal_of(exc)
        ) from None
    except ExecutorLost as exc:
        raise ExecutorLost(f"{exc}: {kept()}, each whole; {goes_on}: {again}") from None
