"""What every executor shares: the number of workers by default, closing a runner at
the end of a ``with`` block, and what a cluster's runner tells of its workers."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
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


@dataclass(frozen=True)
class NoWorkers:
    """The cluster at ``address`` (None: the local one) has had no worker for ``seconds``;
    the run waits for one (told again while it waits)."""

    address: str | None
    seconds: float


@dataclass(frozen=True)
class WorkerLost:
    """The worker at ``worker`` left the cluster during the run; ``matches`` of the run's
    matches sent to it were not played yet, and are played again on another worker."""

    worker: str
    matches: int


@dataclass(frozen=True)
class WorkerJoined:
    """The worker at ``worker`` joined the cluster during the run, and plays too."""

    worker: str


ClusterEvent = NoWorkers | WorkerLost | WorkerJoined
Watch = Callable[[ClusterEvent], None]
"""Told, as it happens, what changes in a cluster's workers during a run."""
