"""Start-up: how long the commands an organiser types one after another take, beside
``python -c pass`` measured in the same run.

Each command runs as a process of its own, as typed in a terminal (``python -m
c8league …``, which is what the ``c8league`` script runs), with the c8league this
Python imports (the installed one; in a checkout, ``PYTHONPATH=.`` measures the
checkout). The commands take turns,
each once per turn, so that a machine getting busier slows them all alike; the figures
are medians over the turns. A first turn, not counted, warms the disk cache and writes
the bytecode caches (the benchmark drops ``PYTHONDONTWRITEBYTECODE`` for its
processes), as a user's second command finds them.

Printed per command: the median wall time, the same above bare Python, and the
median CPU time of the process (user + system, where the platform reports it: on a
machine busy with other work the wall time grows, the CPU time much less). The
database commands read a database prepared in a temporary folder: a league of the
built-in bots whose event has been played, and the club league of
``leagues/club-swiss.toml`` with a round paired and two tables entered.

Targets (wall time): ``--help`` under 0.15 s above bare Python, ``rules list`` under
0.2 s, a database read under 0.6 s. The exit status is 1 if one is missed.

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

HELP_ABOVE_PYTHON = 0.15
RULES_LIST = 0.2
DATABASE_READ = 0.6


@dataclass(frozen=True)
class Case:
    label: str
    args: tuple[str, ...]
    target: float | None
    above_python: bool = False
    """Whether the target is for the time above bare Python (else the whole time)."""


CASES = (
    Case("c8league --help", ("--help",), HELP_ABOVE_PYTHON, above_python=True),
    Case("c8league --version", ("--version",), None),
    Case("c8league rules list", ("rules", "list"), RULES_LIST),
    Case("c8league players list", ("players", "list"), DATABASE_READ),
    Case("c8league league list", ("league", "list"), DATABASE_READ),
    Case("c8league event standings cup", ("event", "standings", "cup"), DATABASE_READ),
    Case("c8league event status cup", ("event", "status", "cup"), DATABASE_READ),
    Case("c8league result list thursday", ("result", "list", "thursday"), DATABASE_READ),
    Case("c8league ratings show night", ("ratings", "show", "night"), DATABASE_READ),
)
BARE = "python -c pass"


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
    wall: dict[str, list[float]] = {BARE: [], **{case.label: [] for case in CASES}}
    cpu: dict[str, list[float]] = {label: [] for label in wall}
    with tempfile.TemporaryDirectory(prefix="c8league-startup-") as tmp:
        db = prepare(Path(tmp), env)
        commands = {BARE: [sys.executable, "-c", "pass"]} | {
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

    python = statistics.median(wall[BARE])
    print(what_runs(env))
    print(f"medians of {args.runs} runs in seconds, each command a new process")
    print(f"{'command':<32} {'wall':>6} {'above python':>13} {'cpu':>6}  target")
    print(f"{BARE:<32} {python:>6.3f} {'':>13} {median(cpu[BARE]):>6}")
    missed = 0
    for case in CASES:
        seconds = statistics.median(wall[case.label])
        goal = ""
        if case.target is not None:
            figure = seconds - python if case.above_python else seconds
            met = figure < case.target
            missed += not met
            what = "above python" if case.above_python else "wall"
            goal = f"{what} < {case.target:.2f}: {'met' if met else 'MISSED'}"
        print(
            f"{case.label:<32} {seconds:>6.3f} {seconds - python:>+13.3f} "
            f"{median(cpu[case.label]):>6}  {goal}"
        )
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
