"""Where matches are played, in words, for the commands that play them (``event run``,
``duel``)."""

from __future__ import annotations

from c8league.cli.options import Executor
from c8league.runner.base import default_workers


def where_played(workers: int | None, executor: Executor, address: str | None) -> str:
    """Where the matches are played, in words: ``2 workers``, ``Dask tcp://…``, ``local
    Dask cluster, 2 workers``."""
    count = workers or default_workers()
    where = f"{count} worker{'s' if count != 1 else ''}"
    if executor is Executor.dask:
        where = f"Dask {address}" if address else f"local Dask cluster, {where}"
    return where
