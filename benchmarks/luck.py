"""How much luck the luck adjustment takes out of a duel, and what it costs.

For each pairing of bots and table size, plays N deals as a duel plays them (deal i
twice with the same seed; A, then B, in seat i mod K; at 2 players the other bot in the
other seat, at K > 2 ``greedy`` in the other seats), in this process, and measures per
pair, with a = A's share in A's match, b = B's in B's match, and c the corrections
(``c8league.duel.luck``, the shipped weights):

* the variance of a − b if the two matches were dealt independently, Var(a) + Var(b);
* duplicate deals, Var(a − b);
* duplicate deals adjusted for luck, Var((a − c_a) − (b − c_b));

and the ratios of the last two to the first: by Wald's approximation, the ratio of the
games a sequential test needs to a decision (the same hypotheses, the same truth).
Then 200 sequential tests run on pairs resampled from the measured ones (bounds elo0 0
and elo1 the measured Elo, α = β = 0.05): independent deals (a and b from different
pairs, the GSPRT), duplicate (the GSPRT) and adjusted (the duel's adjusted test); the
median games to a decision of each. And the CPU cost: the time of the corrections of a
pair's two matches against the time of playing them, interleaved pair by pair.

``--duel-games N`` measures instead the CPU time of stored duels of N games with and
without ``--luck-adjust`` (two copies of random:playable_first=true, a 0/5 test that
runs after every pair; this process and its worker, alternating, best of 3), and the
time of one adjusted and one raw test after 3,000 pairs.
``--h0-runs N`` measures instead two copies of ``random:playable_first=true`` with
different seeds (the same bot, its own randomness apart) at 2 and 4 players, and runs N
adjusted tests on their pairs resampled with the adjusted differences moved to mean 0
(H0 true): the share that accepts H1 should be α = 5%.

Run: ``python benchmarks/luck.py [--pairs N] [--mc-pairs N] [--playouts N] [--preset P]
[--players K...] [--no-mc] [--h0-runs N]``.
"""

from __future__ import annotations

import argparse
import math
import random
import resource
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from c8league.duel.book import deal_seed
from c8league.duel.luck import MatchLuck
from c8league.duel.running import DuelRequest, create_duel, run_duel
from c8league.duel.stats import DuelTally, SprtSpec, elo_from_score
from c8league.engine import Rules
from c8league.players import registry
from c8league.runner.loop import play_match
from c8league.standings import match_points
from c8league.storage import open_database

SEED = 11
TWINS = ("random:playable_first=true,seed=1", "random:playable_first=true,seed=2")
"""Two copies of a bot that differ by their own randomness only."""
SPRTS = 200


@dataclass
class Measured:
    label: str
    players: int
    pairs: list[tuple[int, int, float, float]]
    """Per pair: A's and B's shares in units of 1/(2(K−1)), and their corrections."""
    play_seconds: float
    luck_seconds: float


def _bot(spec: str) -> object:
    name, _, options = spec.partition(":")
    parsed: dict[str, object] = {}
    for item in filter(None, options.split(",")):
        key, _, value = item.partition("=")
        parsed[key] = {"true": True, "false": False}.get(
            value, int(value) if value.isdigit() else value
        )
    return registry.create(name, parsed)


def measure(a: str, b: str, players: int, pairs: int, preset: str = "pagat") -> Measured:
    rules = Rules.from_options(preset, {})
    luck = MatchLuck(rules, players, preset)
    steps = 2 * (players - 1)
    found: list[tuple[int, int, float, float]] = []
    play = adjust = 0.0
    for deal in range(pairs):
        seed = deal_seed(SEED, deal)
        seat = deal % players
        shares, corrections = [], []
        for me, other in ((a, b), (b, a)):
            specs = [other if players == 2 else "greedy"] * players
            specs[seat] = me
            bots = [_bot(spec) for spec in specs]
            start = time.process_time()
            outcome = play_match(rules, bots, seed)  # type: ignore[arg-type]
            middle = time.process_time()
            assert outcome.moves is not None
            corrections.append(luck.correction(seed, outcome.moves.to_text(), seat))
            end = time.process_time()
            play += middle - start
            adjust += end - middle
            shares.append(round(match_points(outcome.result.placements)[seat] * steps))
        found.append((shares[0], shares[1], corrections[0], corrections[1]))
    return Measured(f"{a} vs {b}", players, found, play, adjust)


def _var(values: Sequence[float]) -> float:
    return statistics.pvariance(values)


def sequential(
    measured: Measured, spec: SprtSpec, rng: random.Random, how: str, cap: int = 20_000
) -> int:
    """Games to a decision of one test on pairs resampled from ``measured`` (``cap`` if
    none)."""
    players, pairs = measured.players, measured.pairs
    steps = 2 * (players - 1)
    tally = DuelTally(players, luck=how == "adjusted")
    n = len(pairs)
    for count in range(1, cap + 1):
        a, b, la, lb = pairs[rng.randrange(n)]
        if how == "independent":
            b = pairs[rng.randrange(n)][1]
        tally.add(a / steps, b / steps)
        if tally.luck is not None:
            tally.luck.add(a, b, la, lb)
        if tally.sprt(spec).decision.value != "undecided":
            return 2 * count
    return 2 * cap


def report(measured: Measured, *, sprts: bool = True) -> None:
    steps = 2 * (measured.players - 1)
    a = [p[0] / steps for p in measured.pairs]
    b = [p[1] / steps for p in measured.pairs]
    a_adj = [p[0] / steps - p[2] for p in measured.pairs]
    b_adj = [p[1] / steps - p[3] for p in measured.pairs]
    independent = _var(a) + _var(b)
    duplicate = _var([x - y for x, y in zip(a, b, strict=True)])
    adjusted = _var([x - y for x, y in zip(a_adj, b_adj, strict=True)])
    mean = statistics.fmean(x - y for x, y in zip(a, b, strict=True))
    mean_adj = statistics.fmean(x - y for x, y in zip(a_adj, b_adj, strict=True))
    se = (duplicate / len(a)) ** 0.5
    score = (1 + mean) / 2
    elo = elo_from_score(min(max(score, 0.001), 0.999))
    print(f"{measured.label}, {measured.players} players, {len(a)} pairs:")
    print(
        f"  mean paired difference raw {mean:+.4f} ± {1.96 * se:.4f}, adjusted {mean_adj:+.4f}"
        f" ± {1.96 * (adjusted / len(a)) ** 0.5:.4f} (Elo {elo:+.1f})"
    )
    print(
        f"  variance per pair: independent {independent:.4f}, duplicate {duplicate:.4f}"
        f" ({duplicate / independent:.3f}×), duplicate+adjusted {adjusted:.4f}"
        f" ({adjusted / independent:.3f}×; {adjusted / duplicate:.3f}× duplicate)"
    )
    if not sprts:
        return
    spec = SprtSpec.parse(f"elo0=0 elo1={max(5.0, round(abs(elo), 1))}")
    rng = random.Random(SEED)
    medians = {
        how: statistics.median(sequential(measured, spec, rng, how) for _ in range(SPRTS))
        for how in ("independent", "duplicate", "adjusted")
    }
    base = medians["independent"]
    print(
        f"  {SPRTS} resampled SPRTs [{spec.elo0:.1f}, {spec.elo1:.1f}], median games: "
        + ", ".join(f"{how} {games:.0f} ({games / base:.2f}×)" for how, games in medians.items())
    )
    print(
        f"  CPU: playing {1000 * measured.play_seconds / (2 * len(a)):.2f} ms a game, "
        f"adjusting {1000 * measured.luck_seconds / (2 * len(a)):.2f} ms a game "
        f"({100 * measured.luck_seconds / measured.play_seconds:.1f} %)",
        flush=True,
    )


def false_positives(measured: Measured, spec: SprtSpec, runs: int, cap: int = 50_000) -> None:
    """The adjusted test on pairs resampled from ``measured`` with their adjusted
    differences moved to mean 0 (H0 true, elo0 = 0): how often it accepts H1."""
    steps = 2 * (measured.players - 1)
    diffs = [(a / steps - la) - (b / steps - lb) for a, b, la, lb in measured.pairs]
    mean = statistics.fmean(diffs)
    rng = random.Random(SEED)
    accepted = undecided = 0
    games = []
    for _ in range(runs):
        tally = DuelTally(measured.players, luck=True)
        assert tally.luck is not None
        decision = "undecided"
        while decision == "undecided" and tally.luck.pairs < cap:
            d = diffs[rng.randrange(len(diffs))] - mean
            tally.add(0.5, 0.5)
            tally.luck.add(steps // 2, steps // 2, 0.0, d)
            decision = tally.sprt(spec).decision.value
        games.append(2 * tally.luck.pairs)
        accepted += decision == "H1"
        undecided += decision == "undecided"
    share = accepted / runs
    print(
        f"  {runs} resampled adjusted SPRTs {spec} under H0 ({measured.label}, "
        f"{measured.players} players): H1 accepted {100 * share:.1f} % "
        f"(± {196 * (share * (1 - share) / runs) ** 0.5:.1f}), undecided at {2 * cap} games "
        f"{undecided}, median games {statistics.median(games):.0f}",
        flush=True,
    )


def _cpu() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def duel_cost(games: int, rounds: int = 3) -> None:
    """The CPU time (this process and its workers, reaped at the end of each duel) of a
    stored duel of two copies of random:playable_first=true (:data:`TWINS`), its test
    0/5 (undecided within ``games``: it runs after every pair), on one worker, with and
    without ``luck_adjust``, alternating; the best of ``rounds`` each."""
    best: dict[bool, float] = {False: math.inf, True: math.inf}
    with tempfile.TemporaryDirectory() as folder:
        db = open_database(str(Path(folder) / "c.db"))
        for round_ in range(rounds):
            for luck in (False, True):
                request = DuelRequest(
                    a=TWINS[0],
                    b=TWINS[1],
                    sprt="elo0=0 elo1=5",
                    max_games=games,
                    name=f"d{round_}{int(luck)}",
                    luck_adjust=luck,
                )
                name = create_duel(db, request)
                start = _cpu()
                run_duel(db, name, workers=1)
                best[luck] = min(best[luck], _cpu() - start)
    plain, adjusted = best[False], best[True]
    print(
        f"stored duel, {TWINS[0]} vs {TWINS[1]}, 2 players, SPRT 0/5, {games} games, 1 "
        f"worker, CPU best of {rounds}: {1000 * plain / games:.2f} ms a game, with "
        f"--luck-adjust {1000 * adjusted / games:.2f} ms (+{100 * (adjusted / plain - 1):.1f} %)",
        flush=True,
    )


def test_cost(pairs: int = 3000, calls: int = 50) -> None:
    """The time of one adjusted test, and of one raw test, after ``pairs`` pairs of
    uniform shares and corrections of spread 0.05 (2 and 4 players)."""
    rng = random.Random(SEED)
    spec = SprtSpec.parse("elo0=0 elo1=5")
    for players in (2, 4):
        steps = 2 * (players - 1)
        tally = DuelTally(players, luck=True)
        assert tally.luck is not None
        for _ in range(pairs):
            a, b = rng.randrange(steps + 1), rng.randrange(steps + 1)
            tally.add(a / steps, b / steps)
            tally.luck.add(a, b, rng.gauss(0, 0.05), rng.gauss(0, 0.05))
        times = []
        for test in (tally.sprt, tally.raw_sprt):
            start = time.process_time()
            for _ in range(calls):
                test(spec)
            times.append((time.process_time() - start) / calls)
        print(
            f"test after {pairs} pairs, {players} players: adjusted {1000 * times[0]:.2f} ms, "
            f"raw {1000 * times[1]:.2f} ms",
            flush=True,
        )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=400)
    parser.add_argument("--mc-pairs", type=int, default=100)
    parser.add_argument("--playouts", type=int, default=150)
    parser.add_argument("--players", type=int, nargs="*", default=[2, 4, 7])
    parser.add_argument("--no-mc", action="store_true")
    parser.add_argument("--preset", default="pagat")
    parser.add_argument(
        "--h0-runs", type=int, default=0, help="SPRTs under H0 per bound pair (0: none)"
    )
    parser.add_argument(
        "--duel-games", type=int, default=0, help="measure a stored duel's CPU (0: no)"
    )
    args = parser.parse_args(argv)
    if args.duel_games:
        test_cost()
        duel_cost(args.duel_games)
        return 0
    if args.h0_runs:
        twins = TWINS
        for players in (2, 4):
            measured = measure(*twins, players, args.pairs, args.preset)
            report(measured, sprts=False)
            for bounds in ("elo0=0 elo1=20", "elo0=0 elo1=40"):
                false_positives(measured, SprtSpec.parse(bounds), args.h0_runs)
        return 0
    random_bot = "random:playable_first=true"
    for players in args.players:
        report(measure("greedy", random_bot, players, args.pairs, args.preset))
    if not args.no_mc:
        for players in args.players:
            if players == 7:
                continue
            mc = f"montecarlo:playouts={args.playouts}"
            report(measure("greedy", mc, players, args.mc_pairs, args.preset))
    return 0


if __name__ == "__main__":
    sys.exit(main())
