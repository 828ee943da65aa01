"""Holding Ctrl-C back while a unit of work is written.

A stored record is whole or absent: a write transaction rolls back on any exception,
so an interrupt in the middle of one loses the unit, never half of it. An interrupt
that lands inside the database driver, though, can leave its connection in a state
that the rollback then trips over. :func:`deferred_interrupts` keeps ``SIGINT`` from
raising inside the block and raises :class:`KeyboardInterrupt` as soon as the block
is left, so the block's transaction ends cleanly first (committed or rolled back).
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType


@contextmanager
def deferred_interrupts() -> Iterator[None]:
    """Defer ``SIGINT`` (Ctrl-C) until the end of the block, then raise
    :class:`KeyboardInterrupt` if one arrived.

    Only in the main thread of a process with a Python handler for ``SIGINT`` (the
    default one raises KeyboardInterrupt); at the end of the block that handler is
    called for the interrupt held back. Elsewhere (a worker thread, a process that
    ignores ``SIGINT``, an enclosing ``deferred_interrupts`` block) the block runs
    unchanged. Keep the block short: a user's Ctrl-C waits for it.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.getsignal(signal.SIGINT)
    if not callable(previous) or getattr(previous, "_holds_interrupts", False):
        yield
        return
    received: list[int] = []

    def hold(signum: int, frame: FrameType | None) -> None:
        received.append(signum)

    hold._holds_interrupts = True  # type: ignore[attr-defined]
    signal.signal(signal.SIGINT, hold)
    try:
        yield
    except BaseException:
        signal.signal(signal.SIGINT, previous)
        raise
    signal.signal(signal.SIGINT, previous)
    if received:
        previous(signal.SIGINT, None)
