"""A Python player served over the bot protocol beside the same player in process.

Duels of ``greedy`` against ``random`` (``--games``, 200 by default, on ``--workers``
worker processes, 1 by default): ``greedy`` played in c8league's own process, then
served as an external bot (``python -m c8league.players.serve greedy``) without a
sandbox and in its sandbox (where this machine has one: bubblewrap). The served bot
plays match after match in one process (its hello announces ``match_start``), as a
run's workers keep it. For each: games/s, and the ratio to the in-process player
measured in the same round (the median of the rounds'). ``--montecarlo N`` adds the
same rows for ``montecarlo:playouts=N`` (a player that thinks: the protocol's share of
its time is small).

Every figure is measured ``--repeats`` times (3 by default) and printed as the range
over the repeats; ratios are taken within one round, never across rounds.

Run: ``python benchmarks/served.py [--games N] [--workers N] [--repeats N]
[--montecarlo PLAYOUTS]``
"""

from __future__ import annotations

import argparse
import shlex
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from statistics import median

from c8league import sandbox
from c8league.duel.running import DuelRequest, create_duel, run_duel
from c8league.storage import open_database

OPPONENT = "random"


def games_per_second(a: str, games: int, workers: int) -> float:
    """Games/s of one fresh duel of ``a`` against :data:`OPPONENT`."""
    with tempfile.TemporaryDirectory() as tmp:
        db = open_database(str(Path(tmp) / "duel.db"))
        name = create_duel(db, DuelRequest(a, OPPONENT, games=games, seed=1))
        start = time.perf_counter()
        summary = run_duel(db, name, workers=workers)
        wall = time.perf_counter() - start
        db.close()
    return 2 * summary.pairs / wall


def span(values: Sequence[float], form: str) -> str:
    """The range of ``values`` in ``form`` (one value when they agree)."""
    low, high = format(min(values), form), format(max(values), form)
    return low if low == high else f"{low}–{high}"


def rows(player: str, options: Sequence[str], folder: Path) -> list[tuple[str, str]]:
    """(label, spec) of ``player`` in process and served, without and in a sandbox."""
    words = [sys.executable, "-m", "c8league.players.serve", player, *options]
    command = shlex.join(words)
    in_process = player + (":" + ",".join(options) if options else "")
    found = [
        (f"{in_process}, in process", in_process),
        (f"{in_process}, served", f"cmd[cwd={folder},sandbox=off]:{command}"),
    ]
    if sandbox.support().available:
        label = f"{in_process}, served, sandboxed"
        found.append((label, f"cmd[cwd={folder},sandbox=required]:{command}"))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--montecarlo", type=int, default=0, metavar="PLAYOUTS")
    args = parser.parse_args()
    if not sandbox.support().available:
        print(f"(no sandbox here, {sandbox.support().problem}: its rows are left out)")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        folder.chmod(0o755)  # (run by root, a sandboxed bot runs as a user of its own)
        groups = [rows("greedy", [], folder)]
        if args.montecarlo:
            groups.append(rows("montecarlo", [f"playouts={args.montecarlo}"], folder))
        print(
            f"duels of {args.games} games against {OPPONENT} on {args.workers} worker(s), "
            f"{args.repeats} rounds"
        )
        print(f"{'player':<48} {'games/s':>15} {'× in process':>14} {'median':>7}")
        for group in groups:
            rates: dict[str, list[float]] = {label: [] for label, _ in group}
            for _ in range(args.repeats):
                for label, spec in group:
                    rates[label].append(games_per_second(spec, args.games, args.workers))
            reference = rates[group[0][0]]
            for label, _ in group:
                ratios = [r / ref for r, ref in zip(rates[label], reference, strict=True)]
                print(
                    f"{label:<48} {span(rates[label], '.1f'):>15} "
                    f"{span(ratios, '.3f'):>14} {median(ratios):>7.3f}"
                )


if __name__ == "__main__":
    main()
