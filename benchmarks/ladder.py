"""How many matches the ladder's matchmaking needs to find the true order of its bots.

Bots of known order are rated by c8league's TrueSkill (the settings a ladder league
uses: the defaults with ``tau = 0``, as ``leagues/arena.toml``) while three schedulers
choose their tables:

1. **ladder**: the ladder's matchmaking, ``c8league.schedule.ladder.next_step``, a step
   of 16 tables at a time from the ratings as they stand when the step begins;
2. **round robin**: the cycles of c8league's round-robin schedule
   (``c8league.schedule.roundrobin.round_robin``, as an event of that many cycles
   plays them), round after round;
3. **psyleague**: psyleague's rule: a bot below the minimum of matches (the ladder's
   ``MIN_MATCHES``) first, the fewest first, the other seats uniformly at random; once
   every bot has its minimum, uniformly random tables.

After each match every bot is ranked by its conservative rating μ − 3σ, as ``ladder
show`` ranks them. A run *settles* after the match from which that ranking equals the
true order to the end of the run (``--budget`` matches); a run still out of order at
its end counts as the budget and is counted as unsettled. Printed per scheduler: the
median over ``--seeds`` seeds of the matches to settle, the unsettled runs, and the
ratios of the ladder's median to the others' with their targets (0.6 of round robin's,
0.8 of psyleague's).

Playing every match for real would take hours with the Monte Carlo bots, so outcomes
come from a pool: every table of the bots (every combination of ``--table`` of them) is
played ``--pool`` times once, with ``c8league.runner.loop.play_match`` under the
``pagat`` rules, the seats turned from match to match, on two worker processes; a
scheduler that seats a table draws one of that table's pooled outcomes, uniformly with
replacement, from a generator seeded by the run's seed. The pool is kept in
``.benchmarks/`` (ignored by git) and reused while the bots, rules and pool size are the
same.

The true order is the pool's own: the bots ranked by their mean place over all of it
(every table played as often: a long round robin of 160 matches a table, 2,400 in
all), with each bot's share of its meetings with the next won (placing higher at a
table they share; a tie counts half). The script prints them and stops if the order is
not :data:`BOTS`'s, or if a bot wins less than :data:`CLEAR` of its meetings with the
next (with ``--quick``'s small pool it only says so).

The bots are six, not eight: among c8league's built-in bots, its Node.js example and
the Monte Carlo bot, only these have an order that a few thousand matches find. Against
greedy at two players, the Monte Carlo bot at 5, 20 and 50 playouts won 0.485 to 0.555
of 400 matches; at four players, at 5 to 200 playouts and with ``confidence = 0`` or
``infer = false``, 0.24 to 0.29 of 400 matches against three greedy (a fair share is
0.25); and its strength grows slowly with playouts while its cost grows in proportion
(most of the pool's 12 minutes are its 800 two-player matches at 400 playouts). At
4-player tables the Monte Carlo bot at 50 playouts, greedy and the Node.js example are
as good as tied (their shares in the 4-player pool: 0.512 and 0.503), so that no
scheduler can find their order: ``--table 4`` plays that pool, prints it, and stops.

Run: ``python benchmarks/ladder.py [--table 2] [--seeds 20] [--budget 3000]``: about
12 minutes on 2 busy cores the first time (the pool), seconds once the pool is kept;
``--quick`` for a small run (5 seeds, a pool of 40 matches a table, 2,000 matches a
run).
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import multiprocessing
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from c8league import about
from c8league.engine import derive_seed, preset_rules
from c8league.players import registry
from c8league.ratings import Rating, RatingModel, RatingSettings
from c8league.runner.loop import play_match
from c8league.schedule.ladder import MIN_MATCHES, STEP_TABLES, Rung, next_step
from c8league.schedule.roundrobin import CAPPED_SEARCH, cycle_length, round_robin

ROOT = Path(__file__).resolve().parents[1]
RULES = "pagat"
SETTINGS = RatingSettings(tau=0.0)
"""A ladder league's rating settings (``leagues/arena.toml``): bots do not drift."""


@dataclass(frozen=True)
class Bot:
    name: str
    plugin: str
    options: tuple[tuple[str, object], ...] = ()


BOTS: tuple[Bot, ...] = (
    Bot("Monte Carlo 400", "montecarlo", (("playouts", 400),)),
    Bot("Monte Carlo 50", "montecarlo", (("playouts", 50),)),
    Bot("Greedy", "greedy"),
    Bot("Node example", "node-example"),
    Bot("Random Playable", "random", (("playable_first", True),)),
    Bot("Random", "random"),
)
"""The bots, best first: the true order (see the module docstring)."""

CLEAR = 0.54
"""The least share of its meetings with the next bot a bot must win for the order to
be clear."""

Table = tuple[int, ...]
"""Bots by their index in :data:`BOTS`, in increasing order."""
Pool = dict[Table, list[tuple[int, ...]]]
"""Each table's outcomes: the places of its bots, in the table's order."""


# -- the pool of outcomes ---------------------------------------------------------------


def _play(task: tuple[Table, int]) -> tuple[Table, int, tuple[int, ...]]:
    """Play match ``i`` of ``table``, its seats turned by ``i``; the places in the
    table's order."""
    table, i = task
    k = len(table)
    seated = [table[(s + i) % k] for s in range(k)]
    players = [registry.create(BOTS[b].plugin, dict(BOTS[b].options)) for b in seated]
    seed = derive_seed("ladder-benchmark", k, *table, i)
    outcome = play_match(preset_rules(RULES), players, seed)
    place = dict(zip(seated, outcome.result.placements, strict=True))
    return table, i, tuple(place[b] for b in table)


def _cost(table: Table) -> int:
    """A rough cost, to start the slow tables first."""
    return sum(int(dict(BOTS[b].options).get("playouts", 1)) for b in table)  # type: ignore[call-overload]


def pool_path(size: int, matches: int) -> Path:
    key = json.dumps([RULES, size, matches, [(b.plugin, b.options) for b in BOTS]])
    digest = hashlib.sha256(key.encode()).hexdigest()[:12]
    return ROOT / ".benchmarks" / f"ladder-pool-{size}p-{matches}-{digest}.json"


def load_pool(size: int, matches: int, workers: int) -> Pool:
    """Every table of ``size`` bots played ``matches`` times (from the cache if there)."""
    path = pool_path(size, matches)
    if path.exists():
        data = json.loads(path.read_text())
        return {tuple(json.loads(k)): [tuple(p) for p in v] for k, v in data.items()}
    tables = sorted(itertools.combinations(range(len(BOTS)), size), key=_cost, reverse=True)
    tasks = [(t, i) for t in tables for i in range(matches)]
    pool: Pool = {t: [()] * matches for t in tables}
    start = time.perf_counter()
    print(f"playing the pool: {len(tasks)} matches of {len(tables)} tables ...", flush=True)
    with multiprocessing.Pool(workers) as processes:
        for done, (table, i, places) in enumerate(processes.imap_unordered(_play, tasks), 1):
            pool[table][i] = places
            if done % 500 == 0:
                print(f"  {done}/{len(tasks)} ({time.perf_counter() - start:.0f} s)", flush=True)
    print(f"pool played in {time.perf_counter() - start:.0f} s", flush=True)
    path.parent.mkdir(exist_ok=True)
    path.write_text(json.dumps({json.dumps(list(t)): v for t, v in pool.items()}))
    return pool


def pool_order(pool: Pool) -> tuple[list[int], list[float], list[float]]:
    """The bots best first by their mean place over the pool; each bot's mean place; and
    the share of its meetings with the next bot of that order in which it placed higher
    (a tie counts half)."""
    n = len(BOTS)
    places = [0.0] * n
    counts = [0] * n
    above = [[0.0] * n for _ in range(n)]
    met = [[0] * n for _ in range(n)]
    for table, outcomes in pool.items():
        for outcome in outcomes:
            for a, pa in zip(table, outcome, strict=True):
                places[a] += pa
                counts[a] += 1
                for b, pb in zip(table, outcome, strict=True):
                    if a != b:
                        met[a][b] += 1
                        above[a][b] += 1.0 if pa < pb else 0.5 if pa == pb else 0.0
    mean = [places[b] / counts[b] for b in range(n)]
    order = sorted(range(n), key=lambda b: mean[b])
    shares = [above[a][b] / met[a][b] for a, b in itertools.pairwise(order)]
    return order, mean, shares


# -- the schedulers ---------------------------------------------------------------------


@dataclass
class League:
    """The bots' ratings and counts as a run goes on."""

    ratings: list[Rating]
    matches: list[int]
    last_step: list[int]


Scheduler = Callable[[League, int], list[Table]]
"""The next tables to play (a step, a round or one table), given the league and the
step's number (from 1)."""


def ladder(model: RatingModel, size: int, seed: int) -> Scheduler:
    initial = model.initial().sigma

    def quality(table: Sequence[Rung]) -> float:
        return model.quality([Rating(r.mu, r.sigma) for r in table])

    def tables(league: League, step: int) -> list[Table]:
        rungs = [
            Rung(b, r.mu, r.sigma, league.matches[b], league.last_step[b])
            for b, r in enumerate(league.ratings)
        ]
        made = next_step(
            rungs,
            size=size,
            step=step,
            seed=seed,
            quality=quality,
            initial_sigma=initial,
            tables=STEP_TABLES,
            min_matches=MIN_MATCHES,
        )
        return [tuple(sorted(t)) for t in made]

    return tables


def cycles(size: int, seed: int, budget: int) -> Scheduler:
    """c8league's round-robin schedule, as an event of as many cycles as the budget needs
    plays it. Where the bots do not fill its tables (6 bots at 4-player tables: it seats
    them at two tables of 3), every table of ``size`` of them in turn instead, each
    cycle in an order drawn from the seed."""
    n = len(BOTS)
    rounds: list[list[Table]]
    if n % size == 0:
        per_cycle = cycle_length(n, size) * (n // size)
        planned = round_robin(
            list(range(n)), size, cycles=-(-budget // per_cycle), seed=seed, search=CAPPED_SEARCH
        )
        rounds = [[tuple(sorted(t)) for t in r.tables] for r in planned]
    else:
        rng = random.Random(derive_seed("cycles", seed))
        every = list(itertools.combinations(range(n), size))
        rounds = []
        while len(rounds) < budget:
            rng.shuffle(every)
            rounds.extend([t] for t in every)

    def tables(_league: League, step: int) -> list[Table]:
        return rounds[step - 1]

    return tables


def psyleague(size: int, seed: int) -> Scheduler:
    rng = random.Random(derive_seed("psyleague", seed))

    def tables(league: League, _step: int) -> list[Table]:
        bots = list(range(len(BOTS)))
        rng.shuffle(bots)
        newcomers = sorted(
            (b for b in bots if league.matches[b] < MIN_MATCHES), key=lambda b: league.matches[b]
        )[:size]
        others = [b for b in bots if b not in newcomers]
        return [tuple(sorted(newcomers + rng.sample(others, size - len(newcomers))))]

    return tables


SCHEDULERS = ("ladder", "round robin", "psyleague")
TARGETS = (("round robin", 0.6), ("psyleague", 0.8))
"""The ladder's median matches to settle over another scheduler's: at most this."""


def make_scheduler(name: str, model: RatingModel, size: int, seed: int, budget: int) -> Scheduler:
    if name == "ladder":
        return ladder(model, size, seed)
    if name == "round robin":
        return cycles(size, seed, budget)
    return psyleague(size, seed)


# -- a run ------------------------------------------------------------------------------


def settle(task: tuple[str, int, int, int, int]) -> tuple[str, int, int | None]:
    """Run scheduler ``name`` for ``budget`` matches from ``seed``: the matches after
    which the order by μ − 3σ is the true order to the end (None: it is not at the end)."""
    name, size, pool_matches, seed, budget = task
    pool = _POOLS[(size, pool_matches)]
    model = RatingModel(SETTINGS)
    n = len(BOTS)
    league = League([model.initial()] * n, [0] * n, [0] * n)
    scheduler = make_scheduler(name, model, size, seed, budget)
    draw = random.Random(derive_seed("outcomes", name, seed))
    played = wrong = step = 0
    truth = list(range(n))
    while played < budget:
        step += 1
        for table in scheduler(league, step):
            if played == budget:
                break
            outcomes = pool[table]
            places = outcomes[draw.randrange(len(outcomes))]
            rated = model.rate([league.ratings[b] for b in table], list(places))
            for b, r in zip(table, rated, strict=True):
                league.ratings[b] = r
                league.matches[b] += 1
                league.last_step[b] = step
            played += 1
            ranks = [league.ratings[b].conservative for b in truth]
            if not all(a > b for a, b in itertools.pairwise(ranks)):
                wrong = played
    return name, seed, None if wrong == budget else wrong


_POOLS: dict[tuple[int, int], Pool] = {}


def _init(pools: dict[tuple[int, int], Pool]) -> None:
    _POOLS.update(pools)


def run(
    size: int,
    pool_matches: int,
    seeds: int,
    budget: int,
    workers: int,
    schedulers: Sequence[str] = SCHEDULERS,
    *,
    strict: bool = True,
) -> None:
    pool = load_pool(size, pool_matches, workers)
    order, mean, shares = pool_order(pool)
    print(f"\n{size}-player tables, pool of {pool_matches} matches a table")
    print("the pool's order (mean place; share of the meetings with the next bot won):")
    for rank, b in enumerate(order):
        share = f"{shares[rank]:.3f}" if rank < len(shares) else ""
        print(f"  {rank + 1}. {BOTS[b].name:<16} {mean[b]:.3f}  {share}")
    if order != list(range(len(BOTS))):
        print("the pool's order is not BOTS's order: choose bots whose order is clear")
        raise SystemExit(1)
    if min(shares) < CLEAR:
        print(f"a bot wins less than {CLEAR} of its meetings with the next: no clear order")
        if strict:
            raise SystemExit(1)
    tasks = [(name, size, pool_matches, s, budget) for name in schedulers for s in range(seeds)]
    start = time.perf_counter()
    settled: dict[str, list[int | None]] = {name: [] for name in schedulers}
    with multiprocessing.Pool(workers, _init, ({(size, pool_matches): pool},)) as processes:
        for name, _seed, matches in processes.imap_unordered(settle, tasks):
            settled[name].append(matches)
    print(f"{seeds} seeds, {budget} matches a run ({time.perf_counter() - start:.0f} s)")
    medians = {}
    print(f"  {'scheduler':<12} {'median':>7} {'unsettled':>9}   matches to settle, by seed")
    for name in schedulers:
        counts = [budget if m is None else m for m in settled[name]]
        medians[name] = statistics.median(counts)
        unsettled = sum(1 for m in settled[name] if m is None)
        print(
            f"  {name:<12} {medians[name]:>7.1f} {unsettled:>9}   "
            + " ".join(str(c) for c in sorted(counts))
        )
    for other, target in TARGETS:
        if "ladder" not in medians or other not in medians:
            continue
        ratio = medians["ladder"] / medians[other]
        verdict = "met" if ratio <= target else "missed"
        print(f"  ladder / {other}: {ratio:.2f} (target ≤ {target}: {verdict})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--table", type=int, nargs="+", default=[2], help="table sizes")
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--budget", type=int, default=3000, help="matches a run")
    parser.add_argument("--pool", type=int, default=160, help="matches a table in the pool")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--quick", action="store_true", help="5 seeds, a smaller pool")
    args = parser.parse_args()
    if args.quick:
        args.seeds, args.pool, args.budget = 5, 40, 2000
    print(about.header(), flush=True)
    for size in args.table:
        run(size, args.pool, args.seeds, args.budget, args.workers, strict=not args.quick)


if __name__ == "__main__":
    main()
