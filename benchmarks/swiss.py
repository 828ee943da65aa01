"""Time one Swiss pairing round for large fields.

For 1,000, 10,000 and 100,000 entrants at 4-player and 2-player tables, a
few rounds are paired and played with random results, then the next round is
timed. Printed per field: the seconds for that round (wall clock, and the
processor time of this process, which a busy machine inflates less), its
repeat meetings (pairs at a table that had met before) and its pairs from
different score groups (in % of all pairs at tables), and the same two counts
for the plain cut of the standings into tables (no swapping, no matching) as
the reference. For 2-player tables at 1,000 entrants, networkx's blossom
matching on the same band of candidate partners is timed as a second
reference.

Run: ``python benchmarks/swiss.py [--sizes 1000 10000 100000] [--rounds 4]``
(about two minutes on an idle machine, most of it playing the rounds before
the timed ones at 100,000).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from c8league import about
from c8league.schedule import Round, rank_entrants, swiss_round, table_layout
from c8league.schedule.ledger import Ledger, index_entrants, ledger_of
from c8league.schedule.matching import BAND_WIDTH


def simulate(n: int, k: int, rounds: int, seed: int) -> tuple[list[Round[int]], dict[int, float]]:
    """Pair and play ``rounds`` rounds with random finishing orders."""
    rng = random.Random(seed)
    scores = {i: 0.0 for i in range(n)}
    history: list[Round[int]] = []
    for r in range(rounds):
        rnd = swiss_round(scores, history, k, seed=seed + r)
        history.append(rnd)
        for table in rnd.tables:
            finish = list(table)
            rng.shuffle(finish)
            for place, e in enumerate(finish):
                scores[e] += len(finish) - 1 - place
        for e in rnd.byes:
            scores[e] += k - 1
    return history, scores


def repeats(tables: list[list[int]] | tuple[tuple[int, ...], ...], ledger: Ledger) -> int:
    """Pairs at these tables (numbered as in ``ledger``) that met before."""
    return sum(
        1 for t in tables for i, a in enumerate(t) for b in t[i + 1 :] if ledger.meetings(a, b)
    )


def off_group(
    tables: list[list[int]] | tuple[tuple[int, ...], ...], scores: dict[int, float]
) -> float:
    """The share of pairs at these tables whose members have different scores, in %."""
    pairs = off = 0
    for t in tables:
        for i, a in enumerate(t):
            for b in t[i + 1 :]:
                pairs += 1
                off += scores[a] != scores[b]
    return 100 * off / pairs if pairs else 0.0


def plain_cut(scores: dict[int, float], k: int) -> list[list[int]]:
    """The reference: the standings cut into tables in order."""
    ranked = rank_entrants(scores)
    layout = table_layout(len(ranked), k)
    tables, start = [], 0
    for size in layout.sizes:
        tables.append(ranked[start : start + size])
        start += size
    return tables


def networkx_band(scores: dict[int, float], history: list[Round[int]]) -> tuple[float, int]:
    """networkx blossom on the same candidate pairs as the banded matching."""
    import networkx as nx

    ranked = rank_entrants(scores)
    index = index_entrants(ranked, history)
    ledger = ledger_of(history, index)
    distinct = sorted(set(scores.values()), reverse=True)
    group = {s: g for g, s in enumerate(distinct)}
    graph = nx.Graph()
    n = len(ranked)
    for i in range(n):
        for j in range(i + 1, min(n, i + BAND_WIDTH + 1)):
            gap = group[scores[ranked[i]]] - group[scores[ranked[j]]]
            cost = gap * gap + 64 * ledger.meetings(i, j) ** 2
            graph.add_edge(i, j, weight=10_000 - cost)
    start = time.perf_counter()
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    seconds = time.perf_counter() - start
    return seconds, sum(1 for a, b in matching if ledger.meetings(a, b))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000, 100000])
    parser.add_argument("--tables", type=int, nargs="+", default=[4, 2])
    parser.add_argument("--rounds", type=int, default=4, help="rounds played before the timed one")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(about.header(), flush=True)
    print(
        f"{'entrants':>9} {'table':>5} {'seconds':>8} {'cpu s':>7} {'repeats':>8} {'off-group':>9}"
        f" {'cut repeats':>12} {'cut off-group':>13}"
    )
    for k in args.tables:
        for n in args.sizes:
            history, scores = simulate(n, k, args.rounds, args.seed)
            cpu = time.process_time()
            start = time.perf_counter()
            rnd = swiss_round(scores, history, k, seed=args.seed + args.rounds)
            seconds = time.perf_counter() - start
            cpu = time.process_time() - cpu
            index = index_entrants(rank_entrants(scores), history)
            ledger = ledger_of(history, index)
            ours = repeats([[index[e] for e in t] for t in rnd.tables], ledger)
            cut_tables = plain_cut(scores, k)
            cut = repeats([[index[e] for e in t] for t in cut_tables], ledger)
            print(
                f"{n:>9} {k:>5} {seconds:>8.3f} {cpu:>7.3f} {ours:>8}"
                f" {off_group(rnd.tables, scores):>8.1f}% {cut:>12}"
                f" {off_group(cut_tables, scores):>12.1f}%",
                flush=True,
            )
            if k == 2 and n <= 1000:
                nx_seconds, nx_repeats = networkx_band(scores, history)
                print(
                    f"{'':>9} {'':>5} {nx_seconds:>8.3f} {'':>7} {nx_repeats:>8}"
                    f"   networkx blossom, same candidate pairs ({nx_seconds / seconds:.0f}x)",
                    flush=True,
                )


if __name__ == "__main__":
    main()
