"""Bots in any language beside in-process players, and the main process's share.

1. Duels against ``random`` (``--games``, 100 by default), one bot under test per
   row, all with the same policy (a random playable card, else a random legal move,
   which is a draw): the built-in ``random:playable_first=true`` played in-process,
   the same policy in Python over the bot protocol (``benchmarks/random_bot.py``), and
   in C (``benchmarks/random_bot.c``, compiled here with the machine's ``cc``), each
   without a sandbox and in its sandbox (where this machine has one: bubblewrap), and
   the Python bot given a process a match (``restart = "match"``: a bot without
   ``match_start``), without and in its sandbox. For each: games/s, the ratio to the
   in-process player measured in the same round, a sandboxed bot's ratio to the same
   bot without a sandbox in the same round (the median of the rounds'), and the bot
   processes started per duel and worker. On 1 and 2 workers, beside what the machine
   gives: the speed-up of two bare busy loops side by side over one.
2. The main process's share: a fast event of built-in bots (``--cycles`` 60: 360
   matches at 4-player tables) on 1 worker, and a duel of built-in bots
   (``--duel-games``) on 2 workers: the share of the workers' time inside matches
   (Σ match time / (workers × wall time)), the main process's own CPU time over the
   wall time (and for the event, a match), and for the event the share of its one
   computation of the round-robin's schedule (made while the worker starts its bots).
   The same duel on a local Dask cluster of 2 workers (started once
   beforehand, as a cluster would be, and warmed by a duel of 2 games: each worker
   starts the process that plays its matches) beside the process pool.

Every figure is measured ``--repeats`` times (3 by default) and printed as the range
over the repeats: this machine is shared, and what others run moves the figures from
minute to minute. Ratios are taken within one round, never across rounds; a bot's
ratio to the in-process player is also given as the median of the rounds'.

Run: ``python benchmarks/bots.py [--games N] [--repeats N] [--cycles N] [--duel-games N]
[--no-dask]``
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from statistics import median
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import duel as duel_bench
import tournament

from c8league import about, sandbox
from c8league.duel.running import DuelRequest, create_duel, run_duel
from c8league.events import pairing
from c8league.events import running as event_running
from c8league.league.files import parse_league
from c8league.league.leagues import import_league
from c8league.storage import open_database

HERE = Path(__file__).resolve().parent
OPPONENT = "random"
IN_PROCESS = "random:playable_first=true"


@dataclass(frozen=True)
class Duel:
    games: int
    wall: float
    play: float
    """Play time summed over the matches."""
    cpu: float
    """CPU time of this (the main) process during the duel."""
    all_cpu: float
    """CPU time of every process of the duel: this one, the workers, the bots."""
    starts: int
    """Bot processes started (counted by the bots themselves)."""


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def all_cpu_seconds() -> float:
    """CPU time of this process and of its children that have ended (the workers, and the
    bots they started: a duel's runner ends its workers when the duel ends)."""
    total = 0.0
    for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN):
        usage = resource.getrusage(who)
        total += usage.ru_utime + usage.ru_stime
    return total


def play_duel(
    a: str,
    workers: int,
    games: int,
    *,
    starts: Path | None = None,
    b: str = OPPONENT,
    executor: str = "processes",
    address: str | None = None,
) -> Duel:
    """One fresh duel of ``a`` against ``b``; the bot processes started are counted in
    the folder of logs ``starts`` (each writes ``started`` to its standard error)."""
    if starts is not None:
        shutil.rmtree(starts, ignore_errors=True)
        starts.mkdir()
    with tempfile.TemporaryDirectory() as tmp:
        db = open_database(str(Path(tmp) / "duel.db"))
        name = create_duel(db, DuelRequest(a, b, games=games, seed=1))
        cpu, every, start = cpu_seconds(), all_cpu_seconds(), time.perf_counter()
        summary = run_duel(
            db, name, workers=None if address else workers, executor=executor, address=address
        )
        wall, cpu = time.perf_counter() - start, cpu_seconds() - cpu
        every = all_cpu_seconds() - every
        db.close()
    counted = 0
    if starts is not None:
        counted = sum(log.read_text().count("started") for log in starts.glob("*.log"))
    return Duel(2 * summary.pairs, wall, summary.play_seconds, cpu, every, counted)


def compile_c_bot(folder: Path) -> Path | None:
    """``random_bot.c`` compiled with the machine's C compiler (None: there is none)."""
    cc = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if cc is None:
        return None
    binary = folder / "random_bot"
    subprocess.run([cc, "-O2", "-o", str(binary), str(HERE / "random_bot.c")], check=True)
    return binary


def span(values: Sequence[float], form: str) -> str:
    """The range of ``values`` in ``form`` (one value when they agree)."""
    low, high = format(min(values), form), format(max(values), form)
    return low if low == high else f"{low}–{high}"


def bot_rows(args: argparse.Namespace, folder: Path) -> None:
    folder.chmod(0o755)  # (run by root, a sandboxed bot runs as a user of its own)
    c_bot = compile_c_bot(folder)
    starts = folder / "starts"
    sandboxed = sandbox.support().available
    if not sandboxed:
        print(f"(no sandbox here, {sandbox.support().problem}: its rows are left out)")
    python = f"{sys.executable} {HERE / 'random_bot.py'} --count"
    commands = [("Python", python, "")]
    if c_bot is not None:
        commands.append(("C", f"{c_bot} --count", ""))
    else:
        print("(no C compiler found: the C bot's rows are left out)")
    commands.append(("Python, restart=match", python, "restart=match,"))
    bots: list[tuple[str, str, Path | None]] = [(f"in-process {IN_PROCESS}", IN_PROCESS, None)]
    bare: dict[str, str] = {}
    """A sandboxed bot's row: the row of the same bot without a sandbox."""
    for name, command, options in commands:
        base = f"cmd[{options}log_dir={starts}"
        bots.append((f"external {name}", f"{base},sandbox=off]:{command}", starts))
        if sandboxed:
            label = f"external {name}, sandboxed"
            bots.append((label, f"{base},sandbox=required]:{command}", starts))
            bare[label] = f"external {name}"
    for workers in (1, 2):
        loops = [duel_bench.busy_loop_speedup()[1] for _ in range(args.repeats)]
        print(
            f"\n{workers} worker{'s' if workers > 1 else ''}, duels of {args.games} games "
            f"against {OPPONENT} ({args.repeats} rounds; two busy loops ran "
            f"{span(loops, '.2f')}x one)"
        )
        print(
            f"{'bot':<40} {'games/s':>13} {'× in-process':>13} {'median':>7} "
            f"{'× bare':>6} {'CPU ms/game':>12} {'× by CPU':>12} {'bots':>5}"
        )
        runs: dict[str, list[Duel]] = {label: [] for label, _, _ in bots}
        for _ in range(args.repeats):
            for label, spec, counter in bots:
                runs[label].append(play_duel(spec, workers, args.games, starts=counter))
        reference = [d.games / d.wall for d in runs[bots[0][0]]]
        reference_cpu = [d.all_cpu / d.games for d in runs[bots[0][0]]]
        for label, _, counter in bots:
            rates = [d.games / d.wall for d in runs[label]]
            ratios = [rate / ref for rate, ref in zip(rates, reference, strict=True)]
            cpus = [d.all_cpu / d.games for d in runs[label]]
            by_cpu = [ref / cpu for cpu, ref in zip(cpus, reference_cpu, strict=True)]
            started = (
                "" if counter is None else span([d.starts / workers for d in runs[label]], ".0f")
            )
            versus = ""
            if label in bare:
                without = [d.games / d.wall for d in runs[bare[label]]]
                versus = format(median(r / w for r, w in zip(rates, without, strict=True)), ".3f")
            cpu, by = span([c * 1e3 for c in cpus], ".1f"), span(by_cpu, ".2f")
            if label in bare:  # (a sandbox's processes are not all waited for: not counted)
                cpu = by = "—"
            print(
                f"{label:<40} {span(rates, '.1f'):>13} {span(ratios, '.3f'):>13} "
                f"{median(ratios):>7.3f} {versus:>6} {cpu:>12} {by:>12} {started:>5}"
            )
        print(
            "(median: of the rounds' ratios to the in-process player; × bare: a sandboxed "
            "bot's games/s over the same bot's without a sandbox, the median of the rounds'; "
            "CPU: of every process of the duel, the bots' included, per game (not measured "
            "for sandboxed bots, whose processes end killed, unwaited); × by CPU: the "
            "in-process player's CPU per game over the row's, what a machine with a core to "
            "spare for each process would give; bots: processes started per duel and worker)"
        )


@dataclass(frozen=True)
class EventRun:
    matches: int
    wall: float
    play: float
    cpu: float
    schedule: float


def play_event(cycles: int) -> EventRun:
    """One fresh event of the built-in bots on 1 worker."""
    tournament.BUILTINS["events"][0]["cycles"] = cycles  # type: ignore[index]
    spent = [0.0]
    original = pairing.round_robin

    def timed(*args: Any, **kwargs: Any) -> Any:
        start = time.perf_counter()
        try:
            return original(*args, **kwargs)
        finally:
            spent[0] += time.perf_counter() - start

    pairing.round_robin = timed  # type: ignore[assignment]
    tournament.use_play(tournament._timed)
    tournament.play_seconds.value = 0.0
    try:
        with tempfile.TemporaryDirectory() as tmp:
            db = open_database(str(Path(tmp) / "event.db"))
            import_league(db, parse_league(tournament.BUILTINS))
            cpu, start = cpu_seconds(), time.perf_counter()
            summary = event_running.run_event(db, "bench", workers=1)
            wall, cpu = time.perf_counter() - start, cpu_seconds() - cpu
            db.close()
    finally:
        pairing.round_robin = original  # type: ignore[assignment]
        tournament.use_play(tournament._original)
    return EventRun(summary.played, wall, tournament.play_seconds.value, cpu, spent[0])


@contextlib.contextmanager
def local_cluster(workers: int) -> Iterator[str | None]:
    """The address of the local Dask cluster c8league starts (``workers`` workers of one
    thread, see ``dask_executor.local_cluster``), started here once so that its start is
    not counted in the duels (None without Dask)."""
    if importlib.util.find_spec("distributed") is None:
        yield None
        return
    from c8league.runner import dask_executor

    cluster = dask_executor.local_cluster(workers)
    try:
        yield cluster.scheduler_address
    finally:
        dask_executor.close_cluster(cluster)


def share_rows(args: argparse.Namespace) -> None:
    print(f"\nthe main process's share ({args.repeats} rounds)")
    runs = [play_event(args.cycles) for _ in range(args.repeats)]
    inside = [r.play / r.wall for r in runs]
    schedule = [r.schedule / r.wall for r in runs]
    rest = [1 - (r.play + r.schedule) / r.wall for r in runs]
    print(
        f"event, {runs[0].matches} matches of built-in bots at 4-player tables, 1 worker: "
        f"{span([r.matches / r.wall for r in runs], '.0f')} matches/s; inside matches "
        f"{span(inside, '.0%')} of the wall time (median {median(inside):.1%}); outside: "
        "the schedule (computed once) "
        f"{span(schedule, '.0%')}, the rest {span(rest, '.0%')}; the main process's CPU "
        f"{span([r.cpu / r.wall for r in runs], '.0%')} of the wall time, "
        f"{span([r.cpu / r.matches * 1e3 for r in runs], '.2f')} ms a match"
    )
    a, b = "greedy", IN_PROCESS
    loops = [duel_bench.busy_loop_speedup()[1] for _ in range(args.repeats)]
    duels = [play_duel(a, 2, args.duel_games, b=b) for _ in range(args.repeats)]
    shares = [d.play / (2 * d.wall) for d in duels]
    print(
        f"duel of {args.duel_games} games, {a} against {b}, 2 workers (two busy loops ran "
        f"{span(loops, '.2f')}x one): {span([d.games / d.wall for d in duels], '.0f')} "
        f"games/s; inside matches {span(shares, '.0%')} (median {median(shares):.1%}); "
        f"the main process's CPU {span([d.cpu / d.wall for d in duels], '.0%')} of the wall time"
    )
    if args.no_dask:
        return
    with local_cluster(2) as address:
        if address is None:
            print("(Dask is not installed: pip install -e '.[dask]')")
            return
        play_duel(a, 2, 2, b=b, executor="dask", address=address)  # each worker's process
        ratios = []
        for _ in range(args.repeats):
            pool = play_duel(a, 2, args.duel_games, b=b)
            dask = play_duel(a, 2, args.duel_games, b=b, executor="dask", address=address)
            ratios.append((dask.games / dask.wall) / (pool.games / pool.wall))
        print(
            f"the same duel on a local Dask cluster of 2 workers: {span(ratios, '.2f')}x "
            f"the process pool's games/s (median {median(ratios):.2f}, each round's ratio of "
            "the two duels played one after the other)"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="games of each bot duel")
    parser.add_argument("--repeats", type=int, default=3, help="rounds of each measure")
    parser.add_argument("--cycles", type=int, default=60, help="cycles of the fast event")
    parser.add_argument("--duel-games", type=int, default=2000, help="games of the duel")
    parser.add_argument("--no-dask", action="store_true", help="leave Dask out")
    parser.add_argument("--only", choices=("bots", "share"), help="one part only")
    args = parser.parse_args()
    print(about.header(), flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        if args.only in (None, "bots"):
            bot_rows(args, Path(tmp))
        if args.only in (None, "share"):
            share_rows(args)


if __name__ == "__main__":
    main()
