"""Are a league's ratings calibrated, before and after ``ratings fit``?

A league of eight bots at 4-player tables (the built-in random, playable-first and
greedy bots, the Node.js example, and the Monte Carlo bot at 10, 30, 100 and 150
playouts; TrueSkill with ``tau = 0``, as a bots' league) plays a training event of
``--cycles`` round-robin cycles, then a test event of as many on other deals. The
ratings as they stand after training predict every test match, each pair of seats that
did not tie: the chance that one places above the other,

    P(i above j) = Φ((μi − μj) / √(2β² + σi² + σj²)),

once with TrueSkill's default β (25/6) and once with the β ``ratings fit`` finds on the
training event. Printed for each: the log-loss of the predictions (natural log; 0.693 is
a coin's), the expected calibration error over 10 bins of the predicted chance, and
the bins (predicted against how often it came true). The targets: calibration error at
most 0.03 and log-loss at most 0.39 after the fit.

Run: ``python benchmarks/calibration.py [--cycles 20] [--workers 2]`` (some 280 matches
an event at the default; ``--cycles 4`` for a quick look).
"""

from __future__ import annotations

import argparse
import math
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

from c8league.ratings.fit import Rated
from c8league.ratings.model import Rating, RatingModel, RatingSettings

BOTS = [
    ("Random", "random", ""),
    ("Playable", "random", "playable_first = true"),
    ("Greedy", "greedy", ""),
    ("Node", "node-example", ""),
    ("MC 10", "montecarlo", "playouts = 10"),
    ("MC 30", "montecarlo", "playouts = 30"),
    ("MC 100", "montecarlo", "playouts = 100"),
    ("MC 150", "montecarlo", "playouts = 150"),
]
BINS = 10


def league_file(cycles: int) -> str:
    lines = [
        'name = "calib"',
        "table_size = 4",
        "[rules]",
        'preset = "pagat"',
        "[rating]",
        "tau = 0",
    ]
    for name, bot, options in BOTS:
        lines += ["[[entrants]]", f'name = "{name}"', f'bot = "{bot}"']
        if options:
            lines.append(f"options = {{ {options} }}")
    for event, seed in (("train", 1), ("test", 2)):
        lines += [
            "[[events]]",
            f'name = "{event}"',
            'format = "round_robin"',
            f"cycles = {cycles}",
            f"seed = {seed}",
        ]
    return "\n".join(lines) + "\n"


def c8league(db: Path, *args: str) -> None:
    command = [sys.executable, "-m", "c8league", "--db", str(db), *args]
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)


def judged(
    ratings: dict[int, tuple[float, float]], tests: list[tuple[list[int], list[int]]], beta: float
) -> tuple[float, float, list[tuple[float, float, int]]]:
    """Log-loss, calibration error and bins of the test pairs' predictions."""
    counts, chance, came = [0] * BINS, [0.0] * BINS, [0] * BINS
    loss, pairs = 0.0, 0
    for entrants, places in tests:
        for i in range(len(entrants)):
            for j in range(i + 1, len(entrants)):
                if places[i] == places[j]:
                    continue
                (mi, si), (mj, sj) = ratings[entrants[i]], ratings[entrants[j]]
                spread = math.sqrt(2 * beta * beta + si * si + sj * sj)
                p = 0.5 * math.erfc(-(mi - mj) / spread / math.sqrt(2))
                won = places[i] < places[j]
                loss -= math.log(max(p if won else 1 - p, 1e-12))
                pairs += 1
                for q, right in ((p, won), (1 - p, not won)):  # both sides: symmetric bins
                    k = min(BINS - 1, int(q * BINS))
                    counts[k] += 1
                    chance[k] += q
                    came[k] += right
    total = sum(counts)
    error = sum(abs(chance[k] - came[k]) for k in range(BINS)) / total if total else 0.0
    bins = [
        (chance[k] / counts[k], came[k] / counts[k], counts[k]) for k in range(BINS) if counts[k]
    ]
    return loss / pairs, error, bins


def replayed(results: list[Rated], settings: RatingSettings) -> dict[int, tuple[float, float]]:
    """The ratings after ``results`` under ``settings``, each entrant's (μ, σ)."""
    model = RatingModel(settings)
    ratings: dict[int, Rating] = {}
    for r in results:
        before = [ratings.get(e, model.initial()) for e in r.entrants]
        after = model.rate(before, r.places, r.forfeited)
        for entrant, rating in zip(r.entrants, after, strict=True):
            ratings[entrant] = rating
    return {e: (r.mu, r.sigma) for e, r in ratings.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--cycles", type=int, default=20)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()

    from c8league.ratings.fit import fit, league_results
    from c8league.storage import open_database
    from c8league.storage import ratings as stored_ratings
    from c8league.storage.leagues import get_league

    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "calib.db"
        toml = Path(folder) / "calib.toml"
        toml.write_text(league_file(args.cycles))
        c8league(db, "league", "import", str(toml))
        started = time.perf_counter()
        c8league(db, "event", "run", "train", "--workers", str(args.workers))
        database = open_database(f"sqlite:///{db}")
        with database.session() as session:
            league = get_league(session, "calib")
            assert league.id is not None
            settings = RatingSettings.from_json(league.rating)
            trained = league_results(session, league.id)
            current = stored_ratings.current(session, league.id, None)
        stored = {e: (mu, sigma) for e, (mu, sigma, _) in current.items()}
        fitted = fit(trained, settings).after.beta
        c8league(db, "event", "run", "test", "--workers", str(args.workers))
        with database.session() as session:
            every = league_results(session, league.id)
        database.close()
        tests = [(list(r.entrants), list(r.places)) for r in every[len(trained) :]]
        seconds = time.perf_counter() - started
    print(f"{len(trained)} training matches, {len(tests)} test matches ({seconds:.0f} s)")
    assert replayed(trained, settings) == stored  # (the ratings as the league stored them)
    for label, beta in (("default", settings.beta), ("fitted", fitted)):
        # The ratings of the training event under this β: μ's scale is β's.
        ratings = replayed(trained, replace(settings, beta=beta))
        loss, error, bins = judged(ratings, tests, beta)
        print(f"{label:8} β {beta:6.3f}: log-loss {loss:.3f}, calibration error {error:.3f}")
        print("   " + "  ".join(f"{p:.2f}→{o:.2f} ({n})" for p, o, n in bins))
    print("targets after the fit: calibration error ≤ 0.03, log-loss ≤ 0.39")


if __name__ == "__main__":
    main()
