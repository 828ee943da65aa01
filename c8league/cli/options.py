"""Options shared by sub-commands: ``--json``, and how matches are played (``--workers``,
``--executor``, ``--address``, ``--match-seconds``) for ``event run`` and ``duel``."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated

import typer

JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON.")]


class Executor(StrEnum):
    processes = "processes"
    dask = "dask"


WorkersOpt = Annotated[
    int | None, typer.Option(help="Worker processes (default: all cores).", min=1)
]
ExecutorOpt = Annotated[
    Executor,
    typer.Option(help="Where matches are played: processes on this machine, or a Dask cluster."),
]
AddressOpt = Annotated[
    str | None,
    typer.Option(
        help="Dask scheduler address (tcp://HOST:8786); without it, --executor dask "
        "starts a local cluster."
    ),
]
MatchSecondsOpt = Annotated[
    float,
    typer.Option(
        "--match-seconds",
        help="A bot still deciding when its match has taken this long forfeits it.",
        min=0.001,
        max=86_400.0,
    ),
]


def where_played(workers: int | None, executor: Executor, address: str | None) -> str:
    """Where the matches are played, in words: ``2 workers``, ``Dask tcp://…``, ``local
    Dask cluster, 2 workers``."""
    from c8league.runner.executors import default_workers

    count = workers or default_workers()
    where = f"{count} worker{'s' if count != 1 else ''}"
    if executor is Executor.dask:
        where = f"Dask {address}" if address else f"local Dask cluster, {where}"
    return where
