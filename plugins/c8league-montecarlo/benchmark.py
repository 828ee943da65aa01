"""Measure ``montecarlo`` against another player over seeded matches.

    python benchmark.py                                # 400 two-player pagat matches vs greedy
    python benchmark.py --players 4 --matches 400      # montecarlo + 3 greedy
    python benchmark.py --preset countdown --set playouts=200 --processes 2

Match ``i`` is seeded from ``--seed`` and ``i``, and the bot's seat rotates with ``i``
(seat ``i mod players``), so every seat is played equally often and a run repeats
exactly. It prints the bot's match-win rate with a 95% Wilson interval (a first place
shared with k players counts 1/k), the rate a seat would win by chance, and the time
the bot spent per decision.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from c8league.engine import Move, Observation, Rules, derive_seed
from c8league.players.registry import create, parse_options
from c8league.runner.loop import play_match


class Timed:
    """Wraps a player to time its decisions."""

    def __init__(self, player: Any) -> None:
        self.player = player
        self.decisions = 0
        self.searched = 0
        self.seconds = 0.0
        self.slowest = 0.0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.player, name)

    def choose(self, observation: Observation, legal: Sequence[Move]) -> Move:
        start = time.perf_counter()
        move: Move = self.player.choose(observation, legal)
        spent = time.perf_counter() - start
        self.decisions += 1
        self.searched += len(legal) > 1
        self.seconds += spent
        self.slowest = max(self.slowest, spent)
        return move


@dataclass(frozen=True)
class Job:
    index: int
    seed: int
    players: int
    preset: str
    bot: str
    bot_options: dict[str, str]
    opponent: str


@dataclass(frozen=True)
class Outcome:
    index: int
    score: float
    decisions: int
    searched: int
    seconds: float
    slowest: float
    hands: int


def play(job: Job) -> Outcome:
    rules = Rules.from_options(job.preset)
    seat = job.index % job.players
    bot = Timed(create(job.bot, job.bot_options))
    players: list[Any] = [create(job.opponent) for _ in range(job.players)]
    players[seat] = bot
    outcome = play_match(rules, players, derive_seed(job.seed, "match", job.index))
    if outcome.forfeit is not None:
        raise RuntimeError(f"match {job.index}: forfeit {outcome.forfeit}")
    places = outcome.result.placements
    firsts = sum(1 for p in places if p == 1)
    score = 1.0 / firsts if places[seat] == 1 else 0.0
    return Outcome(
        job.index,
        score,
        bot.decisions,
        bot.searched,
        bot.seconds,
        bot.slowest,
        outcome.result.hands,
    )


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a rate."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (centre - half, centre + half)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=400)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--preset", default="pagat")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--processes", type=int, default=2, help="worker processes (1 or 2)")
    parser.add_argument("--bot", default="montecarlo")
    parser.add_argument("--opponent", default="greedy")
    parser.add_argument(
        "--set", action="append", default=[], metavar="OPTION=VALUE", help="a bot option"
    )
    args = parser.parse_args(argv)
    jobs = [
        Job(
            i,
            args.seed,
            args.players,
            args.preset,
            args.bot,
            parse_options(args.set),
            args.opponent,
        )
        for i in range(args.matches)
    ]
    start = time.perf_counter()
    processes = max(1, min(args.processes, 2))
    if processes == 1:
        outcomes = [play(job) for job in jobs]
    else:
        with multiprocessing.Pool(processes) as pool:
            outcomes = pool.map(play, jobs, chunksize=4)
    wall = time.perf_counter() - start
    wins = sum(o.score for o in outcomes)
    n = len(outcomes)
    low, high = wilson(wins, n)
    decisions = sum(o.decisions for o in outcomes)
    searched = sum(o.searched for o in outcomes)
    seconds = sum(o.seconds for o in outcomes)
    slowest = max(o.slowest for o in outcomes)
    hands = sum(o.hands for o in outcomes)
    options = " ".join(args.set) or "defaults"
    print(
        f"{args.bot} ({options}) vs {args.opponent}: {args.preset}, {args.players} players, "
        f"{n} matches ({hands} hands), seed {args.seed}"
    )
    print(
        f"match wins {wins:g}/{n} = {wins / n:.1%}  (95% CI {low:.1%} – {high:.1%}; "
        f"a seat's fair share {1 / args.players:.1%})"
    )
    print(
        f"time per decision {1000 * seconds / max(decisions, 1):.1f} ms "
        f"({decisions} decisions); per searched decision "
        f"{1000 * seconds / max(searched, 1):.1f} ms ({searched}); slowest {1000 * slowest:.0f} ms"
    )
    print(f"wall time {wall:.0f} s with {processes} process(es)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
