"""Options shared by sub-commands: ``--json``, and how matches are played (``--workers``,
``--executor``, ``--address``, ``--match-seconds``, ``--move-seconds``, ``--clock``) for
``event run`` and ``duel``."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated

import typer

from c8league.errors import UsageError

JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON.")]

TABLE_MAX = 100_000
"""The highest table number a command accepts (numbers go to the database as 64-bit
integers; far above any real table count, a bigger one is a typo)."""
ROUND_MAX = 1_000_000
"""The highest round number a command accepts."""


class Executor(StrEnum):
    processes = "processes"
    dask = "dask"


class Sandbox(StrEnum):
    auto = "auto"
    required = "required"
    off = "off"


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


MoveSecondsOpt = Annotated[
    float | None,
    typer.Option(
        "--move-seconds",
        help="A bot that takes longer over one decision forfeits with timeout (an external "
        "bot's move_time is lowered to it). Default: the bots' own limits.",
        min=0.001,
        max=86_400.0,
    ),
]
ClockOpt = Annotated[
    str | None,
    typer.Option(
        "--clock",
        metavar="SECONDS+INCREMENT",
        help="A match clock for each seat, as chess testers give it: '60+0.5' is 60 s a "
        "match plus 0.5 s after each move ('60': no increment). A bot whose time runs out "
        "forfeits with timeout; an external bot is told its time left with each move "
        "request. Instead of --move-seconds.",
    ),
]
SandboxOpt = Annotated[
    Sandbox | None,
    typer.Option(
        "--sandbox",
        help="Run every external bot in a sandbox (auto: where this machine can; required: "
        "refuse bots that cannot be sandboxed, Python plugins not of c8league among them; "
        "off: none), in place of each bot's own sandbox option (docs/faults.md).",
    ),
]
MaxForfeitsOpt = Annotated[
    int,
    typer.Option(
        "--max-forfeits",
        help="Stop the run when one bot forfeits this many matches in a row (0: never).",
        min=0,
    ),
]
ProgressEveryOpt = Annotated[
    str,
    typer.Option(
        "--progress-every",
        help="When stderr is not a terminal (a log, CI), print a progress line every N "
        "games or matches ('200') or every N seconds ('30s').",
    ),
]


class Every:
    """When to print a progress line: every ``count`` games (matches), or every
    ``seconds``; read from ``--progress-every`` (``200`` or ``30s``)."""

    def __init__(self, text: str) -> None:
        raw = text.strip().lower()
        self.count: int | None = None
        self.seconds: float | None = None
        try:
            if raw.endswith("s"):
                self.seconds = float(raw[:-1])
                ok = self.seconds > 0
            else:
                self.count = int(raw)
                ok = self.count > 0
        except ValueError:
            ok = False
        if not ok:
            raise UsageError(
                f"--progress-every takes a number of games ('200') or of seconds ('30s'), "
                f"not {text!r}"
            )
        self.last_count = 0
        self.last_time: float | None = None

    def due(self, done: int, now: float) -> bool:
        """Whether a line is due after ``done`` games at time ``now`` (then it is counted
        as printed)."""
        if self.last_time is None:
            self.last_time = now
        if self.count is not None:
            due = done - self.last_count >= self.count
        else:
            assert self.seconds is not None
            due = now - self.last_time >= self.seconds
        if due:
            self.last_count, self.last_time = done, now
        return due
