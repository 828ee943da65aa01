"""``c8league duel``: is bot A better than bot B? A sequential test on duplicate deals.

``c8league duel A B`` is short for ``c8league duel run A B``; ``resume``, ``show`` and
``list`` read and continue stored duels.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.progress import BarColumn, TextColumn, TimeElapsedColumn
from typer.core import TyperGroup

from c8league.cli.db import database
from c8league.cli.options import (
    AddressOpt,
    Every,
    Executor,
    ExecutorOpt,
    JsonOpt,
    MatchSecondsOpt,
    MaxForfeitsOpt,
    MoveSecondsOpt,
    ProgressEveryOpt,
    Sandbox,
    SandboxOpt,
    WorkersOpt,
)
from c8league.cli.output import err, out, print_json
from c8league.cli.playing import (
    RunProgress,
    hide_from_bots,
    sandbox_mode,
    say_unsandboxed,
    where_played,
)
from c8league.duel.reading import duel_report, list_duels
from c8league.duel.running import DuelRequest, create_duel, run_duel
from c8league.runner.executors import check_workers
from c8league.tables import Column, draw_table

if TYPE_CHECKING:
    from c8league.duel.plan import DuelSettings
    from c8league.duel.reading import DuelReport
    from c8league.duel.stats import DuelStats, DuelTally

SPECS_HELP = """\
A player spec is one word or one quoted line:

\b
  greedy                       a player plugin with its default options
  montecarlo:playouts=200      a plugin with options (key=value, separated by commas)
  'cmd:node mybot.js'          a bot in any language (the external plugin, docs/protocol.md)
  @Greedy, '@bot-cup/Monte Carlo'  a bot registered in the database (an entrant of a league)
"""

MODEL_HELP = """\
Each deal is played twice with the same cards: at 2 players with the seats swapped; at
K > 2 players once with A and once with B in seat s (s rotates over the deals), the
other seats held by the same --field players in both matches. A match scores each
seat's placement share (1 first, 0 last, ties half); a pair's outcome is A's share
minus B's. The test is fishtest's generalized SPRT on the counts of those outcomes (the
pentanomial at 2 players); at K > 2 an Elo bound x means a mean paired difference of
2·L(x) − 1, the advantage a 2-player score L(x) gives. See docs/duel-statistics.md.
"""


class _DuelGroup(TyperGroup):
    """``duel A B`` runs a new duel: arguments that do not start with a sub-command (nor
    ask for help) are those of ``duel run``."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        if args and args[0] not in self.commands and args[0] not in ("--help", "-h"):
            args = ["run", *args]
        return super().parse_args(ctx, args)


app = typer.Typer(
    cls=_DuelGroup,
    help="Duels: is bot A better than bot B? Plays A against B on duplicate deals until a "
    "sequential test (SPRT) decides.\n\n"
    "c8league duel A B \\[OPTIONS] is short for c8league duel run A B \\[OPTIONS].\n\n"
    + SPECS_HELP,
    no_args_is_help=True,
)


NameArg = Annotated[str, typer.Argument(help="The duel's name (see: c8league duel list).")]


@app.command(
    "run",
    help="Play A against B until the question is answered, and print the summary.\n\n"
    + SPECS_HELP
    + "\n"
    + MODEL_HELP
    + "\nStopping: --sprt (default 'elo0=0 elo1=5 alpha=0.05 beta=0.05') stops when the "
    "log-likelihood ratio leaves (log(β/(1−α)), log((1−β)/α)); model=normalized takes "
    "normalized-Elo bounds. --games N plays N games instead. --max-games caps either. "
    "The duel is stored: Ctrl-C or kill, then c8league duel resume NAME, gives the "
    "figures of an uninterrupted run.",
)
def run(
    a: Annotated[str, typer.Argument(metavar="A", help="Bot A (the one tested), a player spec.")],
    b: Annotated[str, typer.Argument(metavar="B", help="Bot B (the reference), a player spec.")],
    players: Annotated[
        int, typer.Option("--players", "-p", help="Players at a table, 2 to 8.", min=2, max=8)
    ] = 2,
    field: Annotated[
        list[str] | None,
        typer.Option(
            "--field",
            help="A player spec for the other seats at tables of 3 or more (repeatable; "
            "repeated in order to fill them; default greedy).",
        ),
    ] = None,
    rules: Annotated[str, typer.Option("--rules", help="Rule preset (rules list).")] = "pagat",
    sets: Annotated[
        list[str] | None,
        typer.Option("--set", help="Override a rule option: --set draw=up_to (repeatable)."),
    ] = None,
    games: Annotated[
        int | None, typer.Option(help="Play exactly this many games (even: pairs).", min=2)
    ] = None,
    sprt: Annotated[
        str | None,
        typer.Option(
            help="The test: 'elo0=0 elo1=5 alpha=0.05 beta=0.05' (the default; add "
            "model=normalized for normalized-Elo bounds)."
        ),
    ] = None,
    max_games: Annotated[
        int | None, typer.Option("--max-games", help="Stop after this many games.", min=2)
    ] = None,
    seed: Annotated[int, typer.Option(help="Seed of the deals: same seed, same duel.", min=0)] = 0,
    name: Annotated[
        str | None, typer.Option(help="Name to store the duel under (default: duel-N).")
    ] = None,
    workers: WorkersOpt = None,
    executor: ExecutorOpt = Executor.processes,
    address: AddressOpt = None,
    match_seconds: MatchSecondsOpt = 600.0,
    move_seconds: MoveSecondsOpt = None,
    max_forfeits: MaxForfeitsOpt = 5,
    progress_every: ProgressEveryOpt = "30s",
    sandbox: SandboxOpt = None,
    as_json: JsonOpt = False,
) -> None:
    check_workers(workers)
    every = Every(progress_every)
    db = database(create=True)  # a duel may be the first thing stored in a folder
    request = DuelRequest(
        a=a,
        b=b,
        players=players,
        field=field or (),
        preset=rules,
        sets=sets or (),
        games=games,
        sprt=sprt,
        max_games=max_games,
        seed=seed,
        name=name,
        match_seconds=match_seconds,
        move_seconds=move_seconds,
    )
    duel = create_duel(db, request)
    _play(duel, workers, executor, address, as_json, max_forfeits, every, sandbox)


@app.command("resume")
def resume(
    name: NameArg,
    workers: WorkersOpt = None,
    executor: ExecutorOpt = Executor.processes,
    address: AddressOpt = None,
    max_forfeits: MaxForfeitsOpt = 5,
    progress_every: ProgressEveryOpt = "30s",
    sandbox: SandboxOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Go on with a stopped duel: plays on from the first deal not stored, which gives
    exactly the figures of an uninterrupted run."""
    _play(name, workers, executor, address, as_json, max_forfeits, Every(progress_every), sandbox)


@app.command("show")
def show(name: NameArg, as_json: JsonOpt = False) -> None:
    """A stored duel's summary: games, W/D/L, pentanomial, score, Elo ± 95%, nElo, LOS,
    the LLR against its bounds, and the decision."""
    report = duel_report(database(), name)
    if as_json:
        print_json(report.to_dict())
        return
    print_summary(report)


@app.command("list")
def list_(as_json: JsonOpt = False) -> None:
    """Every stored duel with its score, Elo, LLR and outcome."""
    reports = list_duels(database())
    if as_json:
        print_json([r.to_dict() for r in reports])
        return
    if not reports:
        out.print("no duels yet: c8league duel A B")
        return
    rows = []
    for r in reports:
        s = r.stats
        elo = "" if s.elo is None else f"{s.elo:+.1f}"
        if s.elo is not None and s.elo_error is not None:
            elo += f" ± {s.elo_error:.1f}"
        rows.append(
            (
                r.name,
                r.settings.a.label,
                r.settings.b.label,
                str(r.settings.players),
                str(s.games),
                "" if s.score is None else f"{100 * s.score:.1f}%",
                elo,
                "" if s.sprt is None else f"{s.sprt.llr:.2f}",
                r.short_outcome,
            )
        )
    table = draw_table(
        (
            Column(column, right=column not in ("name", "A", "B", "outcome"))
            for column in ("name", "A", "B", "K", "games", "score", "Elo ± 95%", "LLR", "outcome")
        ),
        rows,
        title="Duels",
        caption="K: players at a table",
    )
    out.print(table)


# -- running, with a live bar ------------------------------------------------------------------


def _play(
    name: str,
    workers: int | None,
    executor: Executor,
    address: str | None,
    as_json: bool,
    max_forfeits: int,
    every: Every,
    sandbox: Sandbox | None = None,
) -> None:
    db = database()
    hide_from_bots(db)
    where = where_played(workers, executor, address)
    columns = (
        TextColumn("[bold]{task.description}"),
        BarColumn(bar_width=24),
        TextColumn("{task.fields[games]}"),
        TextColumn("{task.fields[figures]}"),
        TimeElapsedColumn(),
    )
    with RunProgress(name, columns, every=every, quiet=as_json, games="", figures="") as shown:
        announced = False

        def progress(tally: DuelTally, settings: DuelSettings, *, last: bool = False) -> None:
            nonlocal announced
            if not as_json and not announced:
                announced = True
                err.print(f"duel {name} stored; playing on {where} (c8league duel show {name})")
            games, figures, completed, total = _live(tally, settings)
            pace = shown.pace(2 * tally.pairs)
            shown.report(
                2 * tally.pairs,
                lambda: f"{name}: {games}, {figures}, {pace:.1f} games/s",
                last=last,
                games=games,
                figures=figures,
                completed=completed,
                total=total,
            )

        summary = run_duel(
            db,
            name,
            workers=workers,
            executor=executor.value,
            address=address,
            progress=progress,
            max_forfeits=max_forfeits,
            sandbox=sandbox_mode(sandbox),
            unsandboxed=say_unsandboxed,
        )
        if announced and summary.tally is not None and summary.settings is not None:
            progress(summary.tally, summary.settings, last=True)  # the last pair
    report = duel_report(db, name)
    if as_json:
        data = report.to_dict()
        data["run"] = {
            "pairs": summary.pairs,
            "seconds": round(summary.seconds, 3),
            "play_seconds": round(summary.play_seconds, 3),
        }
        print_json(data)
        return
    if summary.already_finished:
        err.print(f"duel {name} was already finished: nothing to play")
    elif summary.seconds > 0:
        rate = 2 * summary.pairs / summary.seconds
        err.print(
            f"played {2 * summary.pairs} games in {summary.seconds:.1f} s "
            f"({rate:.1f} games/s), {summary.forfeits} forfeits"
        )
    print_summary(report)


def _live(tally: DuelTally, settings: DuelSettings) -> tuple[str, str, float, float | None]:
    """The bar's text: games, then score, Elo ± and the LLR against its bounds; and its
    position: the LLR between the bounds for a test, else the games played."""
    spec = settings.spec
    stats = tally.stats(spec)
    games = f"{stats.games} games"
    cap = settings.max_pairs
    if cap is not None:
        games += f" of {2 * cap}"
    figures = f"score {_pct(stats.score)}  Elo {_elo(stats)}"
    if stats.sprt is not None:
        s = stats.sprt
        figures += f"  LLR {s.llr:.2f} ({s.lower:.2f}, {s.upper:.2f})"
        fraction = (min(max(s.llr, s.lower), s.upper) - s.lower) / (s.upper - s.lower)
        return games, figures, 1000 * fraction, 1000.0
    return games, figures, float(stats.pairs), float(cap) if cap is not None else None


# -- the summary -------------------------------------------------------------------------------


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.2f} %"


def _num(value: float | None, digits: int = 2) -> str:
    return "-" if value is None or not math.isfinite(value) else f"{value:.{digits}f}"


def _elo(stats: DuelStats) -> str:
    if stats.elo is None:
        return "-"
    return f"{stats.elo:.2f} +/- {_num(stats.elo_error)}"


def summary_lines(report: DuelReport) -> list[str]:
    """The summary of a duel, in the shape fastchess prints."""
    s, st = report.settings, report.stats
    field = ""
    if s.players > 2:
        names = [bot.label for bot in s.field]
        field = f", field {', '.join(names)}"
    lines = [
        f"Results of {s.a.label} vs {s.b.label} ({report.name}: {s.rules_label}, "
        f"{s.players} players{field}, seed {s.seed}):",
        f"Elo: {_elo(st)}, nElo: {_num(st.nelo)} +/- {_num(st.nelo_error)}",
    ]
    pentanomial = st.pentanomial
    if pentanomial is not None:
        ll, ld, even, dw, ww = pentanomial
        draws = _pct(even / st.pairs) if st.pairs else "-"
        ratio = _num((dw + ww) / (ll + ld)) if ll + ld else "-"
        lines.append(f"LOS: {_pct(st.los)}, DrawRatio: {draws}, PairsRatio: {ratio}")
    else:
        lines.append(f"LOS: {_pct(st.los)}")
    points = "-" if st.score is None else f"{st.score * st.games:.1f}"
    if st.wdl is not None:
        w = st.wdl
        lines.append(
            f"Games: {st.games}, Wins: {w.wins}, Losses: {w.losses}, Draws: {w.draws}, "
            f"Points: {points} ({_pct(st.score)})"
        )
        lines.append(f"Ptnml(0-2): [{', '.join(str(c) for c in st.counts)}]")
    else:
        lines.append(
            f"Games: {st.games} ({st.pairs} deals), A placed better: {st.better}, "
            f"equal: {st.equal}, worse: {st.worse}, Score: {_pct(st.score)}"
        )
        mean = "-" if st.mean is None else f"{st.mean:+.4f}"
        low, high = _num(st.mean_low, 4), _num(st.mean_high, 4)
        lines.append(
            f"Paired difference (A's share − B's): {mean} [{low}, {high}]; "
            f"shares A {_num(st.share_a, 3)}, B {_num(st.share_b, 3)}"
        )
        steps = 2 * (s.players - 1)
        lines.append(
            f"Deals by paired difference (-1 to +1 in steps of 1/{steps}): "
            f"[{', '.join(str(c) for c in st.counts)}]"
        )
    if st.variance_ratio is not None:
        lines.append(
            f"Duplicate deals: variance {st.variance_ratio:.2f} × that of independent deals"
        )
    if st.sprt is not None:
        t = st.sprt
        spec = t.spec
        bounds = f"[{spec.elo0:.2f}, {spec.elo1:.2f}]"
        model = "" if spec.model.value == "logistic" else f" {spec.model.value}"
        lines.append(f"LLR: {t.llr:.2f} ({t.lower:.2f}, {t.upper:.2f}) {bounds}{model}")
    forfeits = {k: v for k, v in report.forfeits.items() if v}
    if forfeits:
        lines.append("Forfeits: " + ", ".join(f"{k} {v}" for k, v in forfeits.items()))
    lines.extend(f"  {fault}" for fault in report.faults)
    lines.extend(f"Note: {note}" for note in st.notes)
    lines.append("-" * 50)
    stopped = report.stopped is not None and report.status != "finished"
    if stopped and (st.sprt is None or st.sprt.decision.value == "undecided"):
        lines.append(f"Stopped, no verdict: {report.stopped}")
        lines.append(f"(mend the bot, then: c8league duel resume {report.name})")
    elif st.sprt is not None:
        t = st.sprt
        bounds = f"[{t.spec.elo0:.2f}, {t.spec.elo1:.2f}]"
        if t.decision.value == "undecided":
            state_ = "not finished" if report.status != "finished" else "stopped at the cap"
            lines.append(f"SPRT ({bounds}) {state_} - undecided")
        else:
            lines.append(f"SPRT ({bounds}) completed - {t.decision.value} was accepted")
    else:
        lines.append(report.outcome)
    return lines


def print_summary(report: DuelReport) -> None:
    for line in summary_lines(report):
        out.print(line, markup=False, soft_wrap=True)
