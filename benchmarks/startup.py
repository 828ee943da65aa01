"""Start-up: how long the commands an organiser types one after another take, each as
a ratio to its floor: importing the libraries it cannot do without, measured in the
same run.

A command that only parses its arguments and prints (``--help``, ``rules list``) cannot
start faster than ``python -c 'import typer'``; a command that reads the database
cannot start faster than ``python -c 'import typer, sqlmodel'``. Dividing by that floor
keeps the figure meaningful on a slower or busier machine, where both grow alike (on
one machine ``import typer, sqlmodel`` alone takes 0.9 s; on another 0.3 s).

Each command runs as a process of its own, as typed in a terminal (``python -m
c8league …``, which is what the ``c8league`` script runs), with the c8league this
Python imports (the installed one; in a checkout, ``PYTHONPATH=.`` measures the
checkout). The commands and the floors take turns, each once per turn, so that a
machine getting busier slows them all alike; the ratio is the median over the turns of
the command's time over its floor's in the same turn. A first turn, not counted, warms
the disk cache and writes the bytecode caches (the benchmark drops
``PYTHONDONTWRITEBYTECODE`` for its processes), as a user's second command finds them.

Printed per command: the median wall time, its floor's, the ratio, and the median CPU
time of the process (user + system, where the platform reports it). The database
commands read a database prepared in a temporary folder: a league of the built-in bots
whose event has been played, and the club league of ``leagues/club-swiss.toml`` with a
round paired and two tables entered.

Targets (ratio to the floor): ``--help`` and ``rules list`` at most 1.5, a database read
at most 1.15. The exit status is 1 if one is missed. Beside ``--help`` and ``rules list``
the ratio to a peer is printed too: the smallest Typer program showing its help, or
printing a rich table, which pays what Typer loads to run any command (its click
adapters import pydantic) and what rich's help costs.

Run: ``python benchmarks/startup.py [--runs N]``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

LEAGUE = """\
name = "night"
table_size = 4

[rules]
preset = "pagat"

[[entrants]]
name = "Greedy"
bot = "greedy"

[[entrants]]
name = "Greedy II"
bot = "greedy"

[[entrants]]
name = "Random"
bot = "random"

[[entrants]]
name = "Random II"
bot = "random"
options = { playable_first = true }

[[entrants]]
name = "Random III"
bot = "random"

[[events]]
name = "cup"
format = "round_robin"
cycles = 2
seed = 7
"""

TYPER = "import typer"
TYPER_SQLMODEL = "import typer, sqlmodel"
FLOORS = (TYPER, TYPER_SQLMODEL)

# Peers, not floors: a two-command Typer app showing its help, and one printing a rich
# table. What Typer itself loads to run a command (its click adapters, which import
# pydantic) and to draw help with rich is in them and not in ``import typer``: the
# ratio to a peer is what c8league adds over the smallest Typer program doing the same.
_APP = (
    "import typer\n"
    "app = typer.Typer()\n"
    "@app.command()\n"
    "def show() -> None:\n"
    "    from rich.console import Console\n"
    "    from rich.table import Table\n"
    "    t = Table(title='presets'); t.add_column('name'); t.add_row('pagat')\n"
    "    Console().print(t)\n"
    "@app.command()\n"
    "def other() -> None: ...\n"
)
TYPER_APP_HELP = _APP + "app(['--help'])"
TYPER_APP_TABLE = _APP + "app(['show'])"
TABLE_IMPORTS = "import typer, rich.console, rich.table"
PYDANTIC_IMPORTS = "import typer, pydantic, rich.console, rich.table"
ADAPTERS_IMPORTS = "import typer._adapters, rich.console, rich.table"
PEERS = {
    TYPER_APP_HELP: "a Typer app's --help",
    TYPER_APP_TABLE: "a Typer app's table",
    # Where a printing command's time above ``import typer`` goes: rich's table, pydantic,
    # and Typer's adapters (what Typer loads to run any command; they import pydantic and
    # build an adapter per parameter).
    TABLE_IMPORTS: "import: typer, rich table",
    PYDANTIC_IMPORTS: "import: typer, pydantic, rich table",
    ADAPTERS_IMPORTS: "import: typer._adapters, rich table",
}

PRINTING = 1.5
DATABASE_READ = 1.15


@dataclass(frozen=True)
class Case:
    label: str
    args: tuple[str, ...]
    floor: str
    """The import the command cannot start faster than."""
    target: float | None
    """The most the command may take, as a ratio to its floor."""
    peer: str | None = None
    """The smallest Typer program doing the same, if any."""


CASES = (
    Case("c8league --help", ("--help",), TYPER, PRINTING, TYPER_APP_HELP),
    Case("c8league --version", ("--version",), TYPER, None),
    Case("c8league rules list", ("rules", "list"), TYPER, PRINTING, TYPER_APP_TABLE),
    Case("c8league players list", ("players", "list"), TYPER_SQLMODEL, DATABASE_READ),
    Case("c8league league list", ("league", "list"), TYPER_SQLMODEL, DATABASE_READ),
    Case("c8league event standings cup", ("event", "standings", "cup"), TYPER_SQLMODEL,
         DATABASE_READ),
    Case("c8league event status cup", ("event", "status", "cup"), TYPER_SQLMODEL,
         DATABASE_READ),
    Case("c8league result list thursday", ("result", "list", "thursday"), TYPER_SQLMODEL,
         DATABASE_READ),
    Case("c8league ratings show night", ("ratings", "show", "night"), TYPER_SQLMODEL,
         DATABASE_READ),
)  # fmt: skip


def environment() -> dict[str, str]:
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["COLUMNS"] = "100"
    return env


def what_runs(env: dict[str, str]) -> str:
    """What runs as ``python -m c8league`` here: the engine, version and package folder."""
    code = "import c8league, c8league.about as a; print(a.header()); print(c8league.__file__)"
    header, where = run([sys.executable, "-c", code], env).splitlines()
    return f"{header}\nc8league from {Path(where).parent}"


def c8league(db: Path, *args: str) -> list[str]:
    return [sys.executable, "-m", "c8league", "--db", str(db), *args]


def run(command: Sequence[str], env: dict[str, str]) -> str:
    done = subprocess.run(command, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed ({done.returncode}): {done.stderr[-500:]}")
    return done.stdout


def prepare(folder: Path, env: dict[str, str]) -> Path:
    """A database with a played bot event and a club round with two tables entered."""
    db = folder / "night.db"
    league = folder / "night.toml"
    league.write_text(LEAGUE, encoding="utf-8")
    for args in (
        ("league", "import", str(league)),
        ("event", "run", "cup", "--workers", "1"),
        ("league", "import", str(ROOT / "leagues" / "club-swiss.toml")),
        ("event", "pair", "thursday"),
        ("event", "publish", "thursday"),
    ):
        run(c8league(db, *args), env)
    sheet = json.loads(run(c8league(db, "event", "sheet", "thursday", "--format", "json"), env))
    for table in sheet["tables"][:2]:
        first, *others = table["seats"]
        scores = [f"{first}={table['target']}", *(f"{n}={10 * i}" for i, n in enumerate(others))]
        run(
            c8league(
                db, "result", "add", "thursday", "--table", str(table["table"]),
                "--scores", ",".join(scores),
            ),
            env,
        )  # fmt: skip
    return db


def timed(command: Sequence[str], env: dict[str, str]) -> tuple[float, float | None]:
    """Wall and CPU seconds of one run of ``command`` (CPU None where not reported)."""
    start = time.perf_counter()
    process = subprocess.Popen(
        command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    cpu: float | None = None
    if hasattr(os, "wait4"):
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - start
        process.returncode = os.waitstatus_to_exitcode(status)
        cpu = usage.ru_utime + usage.ru_stime
    else:
        process.wait()
        wall = time.perf_counter() - start
    if process.returncode != 0:
        run(command, env)  # again, to show its error
    return wall, cpu


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9, help="Turns measured (default 9).")
    args = parser.parse_args(argv)

    env = environment()
    labels = [*FLOORS, *PEERS, *(case.label for case in CASES)]
    wall: dict[str, list[float]] = {label: [] for label in labels}
    cpu: dict[str, list[float]] = {label: [] for label in labels}
    with tempfile.TemporaryDirectory(prefix="c8league-startup-") as tmp:
        db = prepare(Path(tmp), env)
        commands = {code: [sys.executable, "-c", code] for code in (*FLOORS, *PEERS)} | {
            case.label: c8league(db, *case.args) for case in CASES
        }
        for turn in range(args.runs + 1):
            for label, command in commands.items():
                seconds, cpu_seconds = timed(command, env)
                if turn > 0:
                    wall[label].append(seconds)
                    if cpu_seconds is not None:
                        cpu[label].append(cpu_seconds)

    def median(values: list[float]) -> str:
        return f"{statistics.median(values):.3f}" if values else "—"

    print(what_runs(env))
    print(f"medians of {args.runs} turns in seconds, each command a new process")
    print(f"{'command':<36} {'wall':>6} {'floor':>6} {'× floor':>8} {'cpu':>6}  target")
    for floor in FLOORS:
        label = f"python -c '{floor}'"
        print(f"{label:<36} {median(wall[floor]):>6} {'':>6} {'':>8} {median(cpu[floor]):>6}")
    for peer, label in PEERS.items():
        print(f"{label:<36} {median(wall[peer]):>6} {'':>6} {'':>8} {median(cpu[peer]):>6}")
    missed = 0
    for case in CASES:
        ratio = statistics.median(
            mine / floor for mine, floor in zip(wall[case.label], wall[case.floor], strict=True)
        )
        goal = ""
        if case.target is not None:
            met = ratio <= case.target
            missed += not met
            goal = f"≤ {case.target:.2f}× {case.floor!r}: {'met' if met else 'MISSED'}"
        if case.peer is not None:
            beside = statistics.median(
                mine / peer for mine, peer in zip(wall[case.label], wall[case.peer], strict=True)
            )
            goal += f" ({beside:.2f}× {PEERS[case.peer]})"
        print(
            f"{case.label:<36} {median(wall[case.label]):>6} {median(wall[case.floor]):>6} "
            f"{ratio:>7.2f}× {median(cpu[case.label]):>6}  {goal}"
        )
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
