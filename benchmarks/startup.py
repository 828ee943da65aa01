"""Start-up: how long the commands an organiser types one after another take, beside
``python -c pass`` measured in the same run.

Each command runs as its own process, as typed in a terminal (``python -m c8league
…``, which is what the ``c8league`` script runs). The commands are run in turns, each
once per turn, so a machine that gets busier slows them all alike; the figure is the
median over the turns. A first turn, not counted, warms the disk cache and writes the
bytecode caches (the benchmark drops ``PYTHONDONTWRITEBYTECODE`` for its processes),
as a user's second command finds them.

The database commands read a database prepared in a temporary folder: a league of
the built-in bots whose event has been played, and a club league with a round
entered by hand. Targets: ``--help`` under 0.15 s above bare Python, ``rules list``
under 0.2 s, a database read under 0.6 s.

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
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

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

# (what is measured, the arguments after ``c8league``, its target, whether the target
# is above bare Python (True) or the whole time (False)).
COMMANDS: list[tuple[str, list[str], float, bool]] = [
    ("c8league --help", ["--help"], HELP_ABOVE_PYTHON, True),
    ("c8league --version", ["--version"], HELP_ABOVE_PYTHON, True),
    ("c8league rules list", ["rules", "list"], RULES_LIST, False),
    ("c8league players list", ["players", "list"], DATABASE_READ, False),
    ("c8league league list", ["league", "list"], DATABASE_READ, False),
    ("c8league event standings cup", ["event", "standings", "cup"], DATABASE_READ, False),
    ("c8league event status cup", ["event", "status", "cup"], DATABASE_READ, False),
    ("c8league result list thursday", ["result", "list", "thursday"], DATABASE_READ, False),
    ("c8league ratings show night", ["ratings", "show", "night"], DATABASE_READ, False),
]


def environment() -> dict[str, str]:
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPATH"] = os.pathsep.join(
        [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]
    )
    env["COLUMNS"] = "100"
    return env


def c8league(args: Sequence[str], db: Path, env: dict[str, str]) -> list[str]:
    return [sys.executable, "-m", "c8league", "--db", str(db), *args]


def prepare(folder: Path, env: dict[str, str]) -> Path:
    """A database with a played bot event and a club round entered by hand."""
    db = folder / "night.db"
    league = folder / "night.toml"
    league.write_text(LEAGUE, encoding="utf-8")
    steps = [
        ["league", "import", str(league)],
        ["event", "run", "cup", "--workers", "1"],
        ["league", "import", str(ROOT / "leagues" / "club-swiss.toml")],
        ["event", "pair", "thursday"],
        ["event", "publish", "thursday"],
    ]
    for args in steps:
        subprocess.run(c8league(args, db, env), env=env, check=True, capture_output=True)
    sheet = json.loads(
        subprocess.run(
            c8league(["event", "sheet", "thursday", "--format", "json"], db, env),
            env=env,
            check=True,
            capture_output=True,
            text=True,
        ).stdout
    )
    for table in sheet["tables"][:2]:
        names = table["seats"]
        scores = ",".join(
            [f"{names[0]}={table['target']}", *(f"{n}={10 * i}" for i, n in enumerate(names[1:]))]
        )
        subprocess.run(
            c8league(
                ["result", "add", "thursday", "--table", str(table["table"]), "--scores", scores],
                db,
                env,
            ),
            env=env,
            check=True,
            capture_output=True,
        )
    return db


def timed(command: Sequence[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    done = subprocess.run(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(
            f"{' '.join(command)} failed ({done.returncode}): {done.stderr.decode()[-400:]}"
        )
    return seconds


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9, help="Turns measured (default 9).")
    args = parser.parse_args(argv)

    from c8league import about

    env = environment()
    with tempfile.TemporaryDirectory(prefix="c8league-startup-") as tmp:
        db = prepare(Path(tmp), env)
        bare = [sys.executable, "-c", "pass"]
        commands = [(label, c8league(a, db, env)) for label, a, _, _ in COMMANDS]
        times: dict[str, list[float]] = {"python -c pass": []} | {c[0]: [] for c in COMMANDS}
        for turn in range(args.runs + 1):
            for label, command in [("python -c pass", bare), *commands]:
                seconds = timed(command, env)
                if turn > 0:
                    times[label].append(seconds)

    medians = {label: statistics.median(values) for label, values in times.items()}
    python = medians["python -c pass"]
    print(about.header())
    print(f"median of {args.runs} runs, each command a new process")
    print(f"{'command':<32} {'median s':>9} {'above python':>13} {'target':>16}")
    print(f"{'python -c pass':<32} {python:>9.3f} {'':>13} {'':>16}")
    missed = 0
    for label, _, target, above in COMMANDS:
        median = medians[label]
        measured = median - python if above else median
        ok = measured < target
        missed += not ok
        goal = f"{'+' if above else '<'}{target:.2f} s {'ok' if ok else 'MISSED'}"
        print(f"{label:<32} {median:>9.3f} {median - python:>+13.3f} {goal:>16}")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
