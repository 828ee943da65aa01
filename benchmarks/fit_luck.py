"""Fit the weights of the luck adjustment (``c8league/duel/luck_values.py``) by self-play.

For each rule preset and table size, plays matches of the built-in bots, one bot at
every seat, drawn at random for each match (``greedy``, ``random:playable_first=true``,
``random``, and in a share of the matches the Monte Carlo plugin at a few playouts),
replays each match's record for the features of its chance events
(``c8league.duel.luck``), and fits each seat's placement share on them by least
squares (with an intercept). Every feature has expectation 0, so this picks the weights
that leave the least variance in the share minus its correction: the best linear
control variate on these features. The fit has two steps (:func:`fit_samples`): each
feature's weight on the points of the hand it happened in, then how much a hand's
points weigh on the match's share, plain and times the match's progress.

Everything follows from ``--seed``: the bots drawn, the match seeds, the bots' own
seeds. The weights are rounded to 4 significant digits, so the same run gives the same
file on any machine (floating-point sums in one order; a machine whose arithmetic
differs in the last bits could round a weight differently).

Run: ``python benchmarks/fit_luck.py [--matches N] [--seed S] [--out FILE]``; the
shipped values are ``python benchmarks/fit_luck.py --out c8league/duel/luck_values.py``
(the defaults). ``--check`` fits again and compares with the shipped file.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from c8league.duel.luck import FEATURE_NAMES, FEATURES, OWN, LuckReader
from c8league.engine import Rules
from c8league.engine.rules import PRESETS
from c8league.engine.seeds import derive_seed
from c8league.players import registry
from c8league.runner.loop import play_match
from c8league.standings import match_points

MATCHES = 400
"""Matches per preset and table size."""
SEED = 1
MONTECARLO_SHARE = 0.1
"""The share of matches with one Monte Carlo seat (its plugin installed)."""
MONTECARLO_PLAYOUTS = 10
TABLES = (2, 3, 4, 5, 6, 7, 8)
BOTS = (
    ("greedy", {}),
    ("random", {"playable_first": True}),
    ("random", {}),
)


def _bots(
    rng: random.Random, players: int, montecarlo: bool
) -> list[tuple[str, dict[str, object]]]:
    """One bot at every seat: the hand's points then vary with the cards and the bots'
    own choices, not with which seat holds the stronger bot."""
    if montecarlo and rng.random() < MONTECARLO_SHARE:
        return [
            ("montecarlo", {"playouts": MONTECARLO_PLAYOUTS, "seed": rng.randrange(2**31)})
            for _ in range(players)
        ]
    return [BOTS[rng.randrange(len(BOTS))]] * players


class Samples:
    """What the fit reads from self-play: per hand and seat, the hand's plain features
    (its own events, then the other seats' mean) and its net points; per match and
    seat, all of its features and its share."""

    def __init__(self) -> None:
        self.hand_rows: list[list[float]] = []
        self.hand_points: list[float] = []
        self.rows: list[list[float]] = []
        self.shares: list[float] = []


def samples(preset: str, players: int, matches: int, seed: int) -> Samples:
    """Self-play of ``matches`` matches of ``preset`` at ``players``."""
    rules = Rules.from_options(preset, {})
    reader = LuckReader(rules, players)
    rng = random.Random(derive_seed(seed, f"{preset}/{players}", 0))
    montecarlo = "montecarlo" in registry.discover()
    target = rules.target_for(players)
    found = Samples()
    for _ in range(matches):
        seats = _bots(rng, players, montecarlo)
        bots = [registry.create(name, dict(options)) for name, options in seats]
        outcome = play_match(rules, bots, rng.randrange(2**63))
        assert outcome.moves is not None
        snapshots: list[list[list[float]]] = []
        found.rows.extend(reader.features(outcome.moves, snapshots))
        shares = match_points(outcome.result.placements)
        found.shares.extend(shares)
        before = [[0.0] * OWN for _ in range(players)]
        for h, after in enumerate(snapshots):
            if rules.countdown:
                points = list(shares)
            elif h < len(outcome.hand_results):
                got = outcome.hand_results[h].points
                points = [(p - sum(got) / players) / target for p in got]
            else:
                break  # a hand the match stopped in
            plain = [
                [a - b for a, b in zip(now[::2], was[::2], strict=True)]
                for now, was in zip(after, before, strict=True)
            ]
            for seat in range(players):
                others = [
                    sum(plain[j][k] for j in range(players) if j != seat) / (players - 1)
                    for k in range(OWN // 2)
                ]
                found.hand_rows.append([*plain[seat], *others])
                found.hand_points.append(points[seat])
            before = after
    return found


def least_squares(rows: Sequence[Sequence[float]], ys: Sequence[float]) -> list[float]:
    """Weights w (no intercept among them) minimising Σ(y − c − w·x)², with a tiny ridge
    that keeps a feature that is always 0 (none of its cards under the rules) at 0."""
    k = len(rows[0]) + 1
    xtx = [[0.0] * k for _ in range(k)]
    xty = [0.0] * k
    for row, y in zip(rows, ys, strict=True):
        x = [1.0, *row]
        for i in range(k):
            xi = x[i]
            if xi == 0.0:
                continue
            xty[i] += xi * y
            line = xtx[i]
            for j in range(k):
                line[j] += xi * x[j]
    for i in range(1, k):
        xtx[i][i] += 1e-6 * len(rows)
    return _solve(xtx, xty)[1:]


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting."""
    n = len(b)
    m = [[*row, value] for row, value in zip(a, b, strict=True)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[pivot] = m[pivot], m[col]
        for r in range(col + 1, n):
            factor = m[r][col] / m[col][col]
            if factor:
                for c in range(col, n + 1):
                    m[r][c] -= factor * m[col][c]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (m[r][n] - sum(m[r][c] * x[c] for c in range(r + 1, n))) / m[r][r]
    return x


def _round(value: float) -> float:
    return float(f"{value:.4g}")


def fit_samples(found: Samples) -> tuple[float, ...]:
    """Two steps: the weight of each feature on a hand's net points (many hands, a
    target close to the cards), then two scales of that per-hand value on the match's
    share, plain and times the match's progress; rounded to 4 significant digits."""
    per_hand = least_squares(found.hand_rows, found.hand_points)
    half = OWN // 2
    values = []
    for row in found.rows:
        plain = [*row[0:OWN:2], *row[OWN::2]]
        late = [*row[1:OWN:2], *row[OWN + 1 :: 2]]
        values.append(
            [
                sum(w * x for w, x in zip(per_hand, plain, strict=True)),
                sum(w * x for w, x in zip(per_hand, late, strict=True)),
            ]
        )
    scale, scale_late = least_squares(values, found.shares)
    weights = [0.0] * FEATURES
    for k, w in enumerate(per_hand):
        whose, what = divmod(k, half)
        weights[whose * OWN + 2 * what] = scale * w
        weights[whose * OWN + 2 * what + 1] = scale_late * w
    return tuple(_round(w) for w in weights)


def fit(preset: str, players: int, matches: int = MATCHES, seed: int = SEED) -> tuple[float, ...]:
    """The weights of ``preset`` at ``players``."""
    return fit_samples(samples(preset, players, matches, seed))


def variance_left(
    rows: Sequence[Sequence[float]], ys: Sequence[float], weights: Sequence[float]
) -> float:
    """Var(y − w·x) / Var(y) over the samples."""
    adjusted = [
        y - sum(w * x for w, x in zip(weights, row, strict=True))
        for row, y in zip(rows, ys, strict=True)
    ]

    def var(values: Sequence[float]) -> float:
        mean = sum(values) / len(values)
        return sum((v - mean) ** 2 for v in values) / len(values)

    return var(adjusted) / var(ys)


def module_text(weights: dict[str, dict[int, tuple[float, ...]]], matches: int, seed: int) -> str:
    lines = [
        '"""The weights of the luck adjustment (``c8league.duel.luck``), per rule preset and',
        "table size: one per feature, in the order of ``luck.FEATURE_NAMES``.",
        "",
        "Written by ``python benchmarks/fit_luck.py"
        + (f" --matches {matches}" if matches != MATCHES else "")
        + (f" --seed {seed}" if seed != SEED else "")
        + " --out c8league/duel/luck_values.py``",
        f"({matches} self-play matches of the built-in bots per preset and table size, seed",
        f"{seed}); do not edit by hand.",
        '"""',
        "",
        "from __future__ import annotations",
        "",
        "from typing import Final",
        "",
        "WEIGHTS: Final[dict[str, dict[int, tuple[float, ...]]]] = {",
    ]
    for preset, tables in weights.items():
        lines.append(f"    {preset!r}: {{")
        for players, values in tables.items():
            lines.append(f"        {players}: (")
            lines.extend(
                f"            {v!r},  # {name}"
                for v, name in zip(values, FEATURE_NAMES, strict=True)
            )
            lines.append("        ),")
        lines.append("    },")
    lines.append("}")
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=MATCHES)
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--presets", nargs="*", default=list(PRESETS))
    parser.add_argument("--players", nargs="*", type=int, default=list(TABLES))
    parser.add_argument("--out", type=Path)
    parser.add_argument("--check", action="store_true", help="compare with the shipped weights")
    args = parser.parse_args(argv)
    weights: dict[str, dict[int, tuple[float, ...]]] = {}
    for preset in args.presets:
        weights[preset] = {}
        for players in args.players:
            start = time.perf_counter()
            found = samples(preset, players, args.matches, args.seed)
            values = fit_samples(found)
            weights[preset][players] = values
            left = variance_left(found.rows, found.shares, values)
            print(
                f"{preset:>12} {players}: variance of a seat's share left {left:.3f}"
                f" ({time.perf_counter() - start:.1f} s)",
                flush=True,
            )
    assert all(len(v) == FEATURES for t in weights.values() for v in t.values())
    if args.check:
        from c8league.duel.luck_values import WEIGHTS

        differ = [
            f"{preset} {players}"
            for preset, tables in weights.items()
            for players, values in tables.items()
            if WEIGHTS.get(preset, {}).get(players) != values
        ]
        print(
            "the shipped weights are reproduced" if not differ else f"differ: {', '.join(differ)}"
        )
        return 1 if differ else 0
    if args.out is not None:
        args.out.write_text(module_text(weights, args.matches, args.seed), encoding="utf-8")
        print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
