"""What every executor shares: the number of workers by default, and closing a runner
at the end of a ``with`` block."""

from __future__ import annotations

import os
from types import TracebackType
from typing import Self


def default_workers() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


class ClosingRunner:
    """A runner used as a context manager: leaving the block calls ``close()``."""

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()

    def prepare(self) -> None:
        """Connect to whatever plays the matches, so that a run that cannot play stops
        before it writes anything (nothing to do by default)."""

    def close(self) -> None:
        """Release workers and connections (nothing by default)."""
