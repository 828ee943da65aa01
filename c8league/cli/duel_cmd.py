"""``c8league duel``: is bot A better than bot B? A sequential test on duplicate deals.

``c8league duel A B`` is short for ``c8league duel run A B``; ``gauntlet`` plays one
bot against several, one duel each; ``book`` writes a book of deals for ``--deals``;
``resume``, ``show`` and ``list`` read and continue stored duels and gauntlets.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.markup import escape
from rich.progress import BarColumn, TextColumn, TimeElapsedColumn
from rich.text import Text
from typer.core import TyperGroup

from c8league.cli.db import database
from c8league.cli.options import (
    AddressOpt,
    ClockOpt,
    Every,
    Executor,
    ExecutorOpt,
    JsonOpt,
    MatchSecondsOpt,
    MoveSecondsOpt,
    ProgressEveryOpt,
    Sandbox,
    SandboxOpt,
    WorkersOpt,
)
from c8league.cli.output import err, out, print_json, said
from c8league.cli.playing import (
    RunProgress,
    hide_from_bots,
    sandbox_mode,
    say_cluster,
    say_unsandboxed,
    where_played,
)
from c8league.duel.book import MAX_DEALS, save_book, write_book
from c8league.duel.forfeits import DEFAULT_MAX_FORFEIT_SHARE, NoVerdict
from c8league.duel.gauntlet import (
    Gauntlet,
    create_gauntlet,
    find_gauntlet,
    gauntlet_reports,
    no_verdict,
    run_gauntlet,
)
from c8league.duel.reading import duel_report, list_duels
from c8league.duel.running import (
    DuelRequest,
    NewVersion,
    RunSummary,
    create_duel,
    run_duel,
)
from c8league.errors import BotStopped
from c8league.runner.executors import check_workers, resume_command
from c8league.tables import Column, draw_table

if TYPE_CHECKING:
    from rich.table import Table

    from c8league.duel.plan import DuelSettings
    from c8league.duel.reading import DuelReport
    from c8league.duel.stats import AdjustedStats, DuelStats, DuelTally
    from c8league.storage.database import Database

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


NameArg = Annotated[
    str,
    typer.Argument(help="The duel's name, or a gauntlet's (see: c8league duel list)."),
]

STOPPING_HELP = """\
Stopping: --sprt (default 'elo0=0 elo1=5 alpha=0.05 beta=0.05') stops when the
log-likelihood ratio leaves (log(β/(1−α)), log((1−β)/α)); model=normalized takes
normalized-Elo bounds. --games N plays N games instead. --max-games caps either.

Forfeits: a bot that crashes, breaks the rules or runs out of time forfeits its match
and the duel goes on. Two limits: --max-forfeits N stops the run when one bot forfeits
N matches in a row (mend it, then resume); --max-forfeit-share S (default 0.05) ends the
duel without a verdict (exit 3) when more than that share of its games were forfeited,
judged at its end, or as soon as the forfeits exceed S of the most games it can play.

Deals: --deals FILE plays the deals of a book (c8league duel book writes one), in
order; a duel never plays a deal twice, so the book's end ends it (--games beyond it is
refused).

The duel is stored: Ctrl-C or kill, then c8league duel resume NAME, gives the figures
of an uninterrupted run.
"""

PlayersOpt = Annotated[
    int | None,
    typer.Option(
        "--players",
        "-p",
        help="Players at a table, 2 to 8 (default 2, or the book's).",
        min=2,
        max=8,
    ),
]
FieldOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--field",
        help="A player spec for the other seats at tables of 3 or more (repeatable; "
        "repeated in order to fill them; default greedy).",
    ),
]
RulesOpt = Annotated[
    str | None, typer.Option("--rules", help="Rule preset (rules list; default pagat).")
]
SetOpt = Annotated[
    list[str] | None,
    typer.Option("--set", help="Override a rule option: --set draw=up_to (repeatable)."),
]
GamesOpt = Annotated[
    int | None, typer.Option(help="Play exactly this many games (even: pairs).", min=2)
]
SprtOpt = Annotated[
    str | None,
    typer.Option(
        help="The test: 'elo0=0 elo1=5 alpha=0.05 beta=0.05' (the default; add "
        "model=normalized for normalized-Elo bounds)."
    ),
]
MaxGamesOpt = Annotated[
    int | None, typer.Option("--max-games", help="Stop after this many games.", min=2)
]
SeedOpt = Annotated[
    int | None,
    typer.Option(help="Seed of the deals: same seed, same duel (default 0).", min=0),
]
DealsOpt = Annotated[
    str | None,
    typer.Option(
        "--deals",
        metavar="FILE",
        help="Play the deals of this book, in order (c8league duel book writes one; "
        "docs/duels.md): its rules and table are the duel's.",
    ),
]
MaxForfeitShareOpt = Annotated[
    float,
    typer.Option(
        "--max-forfeit-share",
        help="End the duel without a verdict (exit 3) when more than this share of its "
        "games were forfeited (0 to 1; kept with the duel).",
        min=0.0,
        max=1.0,
    ),
]
LuckAdjustOpt = Annotated[
    bool,
    typer.Option(
        "--luck-adjust",
        help="Take the luck of the cards out of each match's result (a correction with "
        "expectation 0 at every deal and card drawn; docs/duel-statistics.md) and run the "
        "test on the adjusted scores; the summary shows raw and adjusted figures (kept "
        "with the duel).",
    ),
]
DuelMaxForfeitsOpt = Annotated[
    int,
    typer.Option(
        "--max-forfeits",
        help="Stop the run when one bot forfeits this many matches in a row (0: never); "
        "the duel is kept, to resume once the bot is mended.",
        min=0,
    ),
]


@dataclass(frozen=True)
class _Run:
    """How this command plays matches (the options of a run, not of the duel)."""

    workers: int | None
    executor: Executor
    address: str | None
    max_forfeits: int
    every: Every
    sandbox: Sandbox | None
    as_json: bool
    new_version: bool = False


@app.command(
    "run",
    help="Play A against B until the question is answered, and print the summary.\n\n"
    + SPECS_HELP
    + "\n"
    + MODEL_HELP
    + "\n"
    + STOPPING_HELP,
)
def run(
    a: Annotated[str, typer.Argument(metavar="A", help="Bot A (the one tested), a player spec.")],
    b: Annotated[str, typer.Argument(metavar="B", help="Bot B (the reference), a player spec.")],
    players: PlayersOpt = None,
    field: FieldOpt = None,
    rules: RulesOpt = None,
    sets: SetOpt = None,
    games: GamesOpt = None,
    sprt: SprtOpt = None,
    max_games: MaxGamesOpt = None,
    seed: SeedOpt = None,
    deals: DealsOpt = None,
    name: Annotated[
        str | None, typer.Option(help="Name to store the duel under (default: duel-N).")
    ] = None,
    workers: WorkersOpt = None,
    executor: ExecutorOpt = Executor.processes,
    address: AddressOpt = None,
    match_seconds: MatchSecondsOpt = 600.0,
    move_seconds: MoveSecondsOpt = None,
    clock: ClockOpt = None,
    max_forfeits: DuelMaxForfeitsOpt = 5,
    max_forfeit_share: MaxForfeitShareOpt = DEFAULT_MAX_FORFEIT_SHARE,
    luck_adjust: LuckAdjustOpt = False,
    progress_every: ProgressEveryOpt = "30s",
    sandbox: SandboxOpt = None,
    as_json: JsonOpt = False,
) -> None:
    check_workers(workers)
    how = _Run(workers, executor, address, max_forfeits, Every(progress_every), sandbox, as_json)
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
        clock=clock,
        max_forfeit_share=max_forfeit_share,
        deals=deals,
        luck_adjust=luck_adjust,
    )
    _play(create_duel(db, request), how)


@app.command(
    "gauntlet",
    help="Play CANDIDATE against each OPPONENT, one duel each, and print one table.\n\n"
    "The duels (NAME/1, NAME/2, …: c8league duel show NAME/2) have the same settings: "
    "the same deals, test or games, and limits. They are played one after another; one "
    "that stops without a verdict (a bot that cannot start or keeps forfeiting) is kept "
    "so, and the next goes on. c8league duel resume NAME goes on with what is left; "
    "c8league duel show NAME prints the table again. Exit 3 when a duel has no verdict.\n\n"
    + SPECS_HELP
    + "\n"
    + STOPPING_HELP,
)
def gauntlet(
    candidate: Annotated[
        str, typer.Argument(metavar="CANDIDATE", help="The bot tested, a player spec (A).")
    ],
    opponents: Annotated[
        list[str],
        typer.Argument(metavar="OPPONENT...", help="The bots it meets, player specs (B)."),
    ],
    players: PlayersOpt = None,
    field: FieldOpt = None,
    rules: RulesOpt = None,
    sets: SetOpt = None,
    games: GamesOpt = None,
    sprt: SprtOpt = None,
    max_games: MaxGamesOpt = None,
    seed: SeedOpt = None,
    deals: DealsOpt = None,
    name: Annotated[
        str | None,
        typer.Option(help="Name to store the gauntlet under (default: gauntlet-N)."),
    ] = None,
    workers: WorkersOpt = None,
    executor: ExecutorOpt = Executor.processes,
    address: AddressOpt = None,
    match_seconds: MatchSecondsOpt = 600.0,
    move_seconds: MoveSecondsOpt = None,
    clock: ClockOpt = None,
    max_forfeits: DuelMaxForfeitsOpt = 5,
    max_forfeit_share: MaxForfeitShareOpt = DEFAULT_MAX_FORFEIT_SHARE,
    luck_adjust: LuckAdjustOpt = False,
    progress_every: ProgressEveryOpt = "30s",
    sandbox: SandboxOpt = None,
    as_json: JsonOpt = False,
) -> None:
    check_workers(workers)
    how = _Run(workers, executor, address, max_forfeits, Every(progress_every), sandbox, as_json)
    db = database(create=True)
    request = DuelRequest(
        a=candidate,
        b="",
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
        clock=clock,
        max_forfeit_share=max_forfeit_share,
        deals=deals,
        luck_adjust=luck_adjust,
    )
    _play_gauntlet(create_gauntlet(db, request, opponents), how)


@app.command("book")
def book(
    out: Annotated[str, typer.Option("--out", metavar="FILE", help="The file to write (JSON).")],
    deals: Annotated[int, typer.Option("--deals", help="How many deals.", min=1, max=MAX_DEALS)],
    seed: Annotated[int, typer.Option(help="The seed of the deals.", min=0)] = 0,
    rules: Annotated[str, typer.Option("--rules", help="Rule preset (rules list).")] = "pagat",
    sets: SetOpt = None,
    players: Annotated[
        int, typer.Option("--players", "-p", help="Players at a table, 2 to 8.", min=2, max=8)
    ] = 2,
    force: Annotated[bool, typer.Option("--force", help="Replace the file if it exists.")] = False,
) -> None:
    """Write a book of deals for --deals FILE, so that duels played apart meet the same cards.

    The book holds the deals a duel with --seed plays, in the same order, each with its
    first hand as dealt (checked when the book is read). docs/duels.md describes the
    format."""
    written = write_book(
        seed=seed, deals=deals, preset=rules, sets=tuple(sets or ()), players=players
    )
    save_book(written, out, replace=force)
    err.print(
        f"wrote {out}: {deals} deals of seed {seed} ({written.rules_label}, {players} "
        f"players), digest {written.digest[:16]}",
        markup=False,
        highlight=False,
    )


@app.command("resume")
def resume(
    name: NameArg,
    workers: WorkersOpt = None,
    executor: ExecutorOpt = Executor.processes,
    address: AddressOpt = None,
    max_forfeits: DuelMaxForfeitsOpt = 5,
    progress_every: ProgressEveryOpt = "30s",
    sandbox: SandboxOpt = None,
    as_json: JsonOpt = False,
    new_version: Annotated[
        bool,
        typer.Option(
            "--new-version",
            help="Go on with a bot whose files or version changed since the duel's games "
            "(else refused): the pairs its old version forfeited are played again first; "
            "its other games stay as played.",
        ),
    ] = False,
) -> None:
    """Go on with a stopped duel, or with what is left of a gauntlet: plays on from the
    first deal not stored, which gives exactly the figures of an uninterrupted run.

    Every bot must be the version that played the duel's games so far: a bot whose files
    (or plugin's version) changed is refused in one line; --new-version goes on with it,
    and plays again the pairs in which its old version forfeited (duel show lists the
    versions that played)."""
    how = _Run(
        workers,
        executor,
        address,
        max_forfeits,
        Every(progress_every),
        sandbox,
        as_json,
        new_version,
    )
    found = find_gauntlet(database(), name)
    if found is not None:
        _play_gauntlet(found, how)
        return
    _play(name, how)


@app.command("show")
def show(name: NameArg, as_json: JsonOpt = False) -> None:
    """A stored duel's summary: games, W/D/L, pentanomial, score, Elo ± 95%, nElo, LOS,
    the LLR against its bounds, the forfeits and the decision; or a gauntlet's table."""
    db = database()
    found = find_gauntlet(db, name)
    if found is not None:
        _show_gauntlet(found, gauntlet_reports(db, found), as_json)
        return
    report = duel_report(db, name)
    if as_json:
        print_json(report.to_dict())
        return
    print_summary(report)


@app.command("list")
def list_(as_json: JsonOpt = False) -> None:
    """Every stored duel (a gauntlet's too) with its score, Elo, LLR, forfeits and
    outcome."""
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
        rows.append(
            (
                r.name,
                Text(f"{r.settings.a.label} vs {r.settings.b.label}", overflow="fold"),
                str(r.settings.players),
                str(s.games),
                _short_elo(s),
                "" if s.sprt is None else f"{s.sprt.llr:.2f}",
                _forfeit_cell(r),
                r.short_outcome,
            )
        )
    table = draw_table(
        (
            Column(
                column,
                right=column not in ("name", "A vs B", "outcome"),
                no_wrap=column not in ("A vs B", "Elo ± 95%"),
            )
            for column in (
                "name",
                "A vs B",
                "K",
                "games",
                "Elo ± 95%",
                "LLR",
                "forf.",
                "outcome",
            )
        ),
        rows,
        title="Duels",
        caption="K: players at a table; forf.: games forfeited by A/B (/the field at K > 2)",
    )
    out.print(table)


def _short_elo(stats: DuelStats) -> str:
    elo = "" if stats.elo is None else f"{stats.elo:+.1f}"
    if stats.elo is not None and stats.elo_error is not None:
        elo += f" ± {stats.elo_error:.1f}"
    return elo


def _forfeit_cell(report: DuelReport) -> str:
    return "/".join(str(n) for _, n in report.forfeits.by_side(report.settings.players))


# -- running, with a live bar ------------------------------------------------------------------


def _run_one(db: Database, name: str, how: _Run, gauntlet: str | None = None) -> RunSummary:
    """Play the duel ``name`` with a live bar (or progress lines) on stderr, and say
    what the run played."""
    where = where_played(how.workers, how.executor, how.address)
    columns = (
        TextColumn("[bold]{task.description}"),
        BarColumn(bar_width=24),
        TextColumn("{task.fields[games]}"),
        TextColumn("{task.fields[figures]}"),
        TimeElapsedColumn(),
    )
    quiet = how.as_json
    with RunProgress(name, columns, every=how.every, quiet=quiet, games="", figures="") as shown:
        announced = False

        def progress(tally: DuelTally, settings: DuelSettings, *, last: bool = False) -> None:
            nonlocal announced
            if not quiet and not announced:
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
            workers=how.workers,
            executor=how.executor.value,
            address=how.address,
            progress=progress,
            max_forfeits=how.max_forfeits,
            sandbox=sandbox_mode(how.sandbox),
            unsandboxed=say_unsandboxed,
            gauntlet=gauntlet,
            new_version=how.new_version,
            new_versions=None if quiet else _say_new_versions,
            watch=say_cluster,
        )
        if announced and summary.tally is not None and summary.settings is not None:
            progress(summary.tally, summary.settings, last=True)  # the last pair
    if quiet:
        return summary
    if summary.already_finished:
        err.print(f"duel {name} was already finished: nothing to play")
    elif summary.seconds > 0:
        rate = 2 * summary.pairs / summary.seconds
        err.print(
            f"played {2 * summary.pairs} games in {summary.seconds:.1f} s "
            f"({rate:.1f} games/s), {summary.forfeits} forfeits"
        )
    return summary


def _say_new_versions(found: Sequence[NewVersion], replayed: Sequence[int]) -> None:
    """Tell which bots a resume took at a new version, and the pairs played again."""
    for new in found:
        err.print(f"{escape(str(new))}: the duel goes on with it", highlight=False)
    if replayed:
        shown = ", ".join(str(deal) for deal in replayed[:12])
        more = f", … ({len(replayed)} in all)" if len(replayed) > 12 else ""
        err.print(
            f"{len(replayed)} {'pair' if len(replayed) == 1 else 'pairs'} the old version "
            f"forfeited {'is' if len(replayed) == 1 else 'are'} played again: deal "
            f"{shown}{more}",
            highlight=False,
        )


def _play(name: str, how: _Run) -> None:
    """Play (or resume) one duel, print its summary; exit 3 when it has no verdict."""
    db = database()
    hide_from_bots(db)
    summary = _run_one(db, name, how)
    report = duel_report(db, name)
    if how.as_json:
        data = report.to_dict()
        data["run"] = {
            "pairs": summary.pairs,
            "seconds": round(summary.seconds, 3),
            "play_seconds": round(summary.play_seconds, 3),
        }
        print_json(data)
    else:
        sandbox = None if how.sandbox is None else how.sandbox.value
        print_summary(
            report, resume_command("duel", name, how.executor.value, how.address, sandbox)
        )
    if report.withheld is not None:
        raise NoVerdict([report.withheld])


def _play_gauntlet(found: Gauntlet, how: _Run) -> None:
    """Play what is left of a gauntlet, duel after duel, and print its table; exit 3
    when one of its duels has no verdict."""
    db = database()
    hide_from_bots(db)

    def run_one(name: str) -> None:
        try:
            _run_one(db, name, how, gauntlet=found.name)
        except BotStopped as exc:
            if not how.as_json:
                err.print(
                    f"[yellow]warning:[/] {escape(said(exc))}; the gauntlet goes on",
                    highlight=False,
                )
            raise

    run_gauntlet(db, found, run_one)
    reports = gauntlet_reports(db, found)
    _show_gauntlet(found, reports, how.as_json)
    problem = no_verdict(found, reports)
    if problem is not None:
        raise problem


def _show_gauntlet(found: Gauntlet, reports: list[DuelReport], as_json: bool) -> None:
    if as_json:
        print_json({"gauntlet": found.name, "duels": [r.to_dict() for r in reports]})
        return
    out.print(_gauntlet_table(found, reports))


def _gauntlet_table(found: Gauntlet, reports: list[DuelReport]) -> Table:
    """One row per opponent: games, W-L-D (deals A placed better, equal, worse at
    K > 2), score, Elo ± 95%, LLR, verdict, forfeits."""
    s = reports[0].settings
    two = s.players == 2
    rows = []
    for number, r in enumerate(reports, start=1):
        st = r.stats
        if st.wdl is not None:
            record = f"{st.wdl.wins}-{st.wdl.losses}-{st.wdl.draws}"
        else:
            record = f"{st.better}/{st.equal}/{st.worse}"
        rows.append(
            (
                str(number),
                Text(r.settings.b.label, overflow="fold"),
                str(st.games),
                record,
                "" if st.score is None else f"{100 * st.score:.1f}%",
                _short_elo(st),
                "" if st.sprt is None else f"{st.sprt.llr:.2f}",
                r.short_outcome,
                _forfeit_cell(r),
            )
        )
    columns = (
        "#",
        "opponent",
        "games",
        "W-L-D" if two else "+/=/−",
        "score",
        "Elo ± 95%",
        "LLR",
        "verdict",
        "forf.",
    )
    left = ("opponent", "verdict")
    caption = f"#: duel {found.name}/#; forf.: games forfeited by A/B" + (
        "" if two else "/the field; +/=/−: deals A placed better, equal, worse than B"
    )
    return draw_table(
        (Column(c, right=c not in left, no_wrap=c in ("verdict", "forf.")) for c in columns),
        rows,
        title=f"Gauntlet {found.name}: {s.a.label} (A) against {len(reports)} opponents "
        f"({_where(s)})",
        caption=caption,
    )


def _where(s: DuelSettings) -> str:
    """``pagat, 2 players, seed 0``: the rules, table and deals of a duel."""
    field = ""
    if s.players > 2:
        field = f", field {', '.join(bot.label for bot in s.field)}"
    deals = f"seed {s.seed}"
    if s.book is not None:
        deals = f"book {s.book.name} {s.book.digest[:12]}"
    clock = "" if s.clock is None else f", clock {s.clock}"
    return f"{s.rules_label}, {s.players} players{field}, {deals}{clock}"


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


def summary_lines(report: DuelReport, again: str | None = None) -> list[str]:
    """The summary of a duel, in the shape fastchess prints."""
    s, st = report.settings, report.stats
    lines = [
        f"Results of {s.a.label} vs {s.b.label} ({report.name}: {_where(s)}):",
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
    adjusted = st.adjusted
    if adjusted is not None:
        lines.extend(_adjusted_lines(adjusted))
    if st.sprt is not None:
        t = st.sprt
        spec = t.spec
        bounds = f"[{spec.elo0:.2f}, {spec.elo1:.2f}]"
        model = "" if spec.model.value == "logistic" else f" {spec.model.value}"
        llr = f"LLR: {t.llr:.2f} ({t.lower:.2f}, {t.upper:.2f}) {bounds}{model}"
        if adjusted is not None and adjusted.raw_sprt is not None:
            llr += f" on luck-adjusted scores (raw scores: {adjusted.raw_sprt.llr:.2f})"
        lines.append(llr)
    lines.extend(f"Note: {note}" for note in st.notes)
    lines.append("-" * 50)
    lines.extend(_verdict_block(report, again))
    return lines


def _adjusted_lines(adjusted: AdjustedStats) -> list[str]:
    """The luck-adjusted figures (``--luck-adjust``)."""
    elo = "-" if adjusted.elo is None else f"{adjusted.elo:.2f} +/- {_num(adjusted.elo_error)}"
    mean = "-" if adjusted.mean is None else f"{adjusted.mean:+.4f}"
    lines = [
        f"Luck-adjusted: Elo: {elo}, nElo: {_num(adjusted.nelo)} +/- "
        f"{_num(adjusted.nelo_error)}, LOS: {_pct(adjusted.los)}",
        f"Luck-adjusted paired difference: {mean} "
        f"[{_num(adjusted.mean_low, 4)}, {_num(adjusted.mean_high, 4)}]",
    ]
    if adjusted.variance_ratio is not None:
        duplicate = (
            ""
            if adjusted.duplicate_ratio is None
            else f" ({adjusted.duplicate_ratio:.2f} × that of the duplicate deals alone)"
        )
        lines.append(
            f"Luck-adjusted: variance {adjusted.variance_ratio:.2f} × that of independent "
            f"deals{duplicate}"
        )
    return lines


def _plural(n: int, word: str) -> str:
    return word if n == 1 else word + "s"


def _verdict_block(report: DuelReport, again: str | None = None) -> list[str]:
    """The forfeits, by side, with the first of each kind, and the verdict (or why
    there is none, and ``again``, the command that goes on: by default on this
    machine's worker processes)."""
    again = again or resume_command("duel", report.name, "processes", None)
    st, share = report.stats, report.forfeit_share
    sides = ", ".join(f"{side} {n}" for side, n in report.forfeits.by_side(st.players))
    played = (
        "no games yet" if share.share is None else f"{_pct(share.share)} of {share.games} games"
    )
    lines = [f"Forfeits: {sides} ({played}; a verdict allows {_pct(share.limit)} at most)"]
    lines.extend(f"  {fault}" for fault in report.faults)
    if any(len(versions) > 1 for _, versions in report.versions):  # (--json: always)
        lines.append(
            "Played as: "
            + "; ".join(
                f"{side} "
                + ", ".join(f"{v.label} ({v.deals} {_plural(v.deals, 'deal')})" for v in versions)
                for side, versions in report.versions
            )
        )
    withheld = report.withheld
    if withheld is not None and withheld.share is not None:
        cap = report.settings.max_pairs
        if report.ended_early and cap is not None:
            most = 2 * cap
            lines.append(
                f"No verdict: {share.forfeits.games} forfeited games were already more than "
                f"{_pct(share.limit)} of the {most} the duel could play (--max-forfeit-share), "
                f"so it ended there; mend the bot, then {again} "
                "--new-version plays again the games it forfeited"
            )
        else:
            lines.append(
                f"No verdict: more than {_pct(share.limit)} of the games were forfeited "
                f"(--max-forfeit-share); mend the bot, then {again} --new-version plays "
                "again the games it forfeited"
            )
        return lines
    if withheld is not None:
        lines.append(f"Stopped, no verdict: {withheld.stopped}")
        lines.append(f"(mend the bot, then: {again})")
    elif st.sprt is not None:
        t = st.sprt
        bounds = f"[{t.spec.elo0:.2f}, {t.spec.elo1:.2f}]"
        if t.decision.value == "undecided":
            state_ = "not finished" if report.status != "finished" else "stopped at the cap"
            if report.status == "finished" and report.settings.book_ends:
                state_ = "stopped at the book's end"
            lines.append(f"SPRT ({bounds}) {state_} - undecided")
        else:
            lines.append(f"SPRT ({bounds}) completed - {t.decision.value} was accepted")
    else:
        lines.append(report.outcome)
    return lines


def print_summary(report: DuelReport, again: str | None = None) -> None:
    """The duel's summary; ``again``, the command that goes on with it (see
    :func:`_verdict_block`)."""
    for line in summary_lines(report, again):
        out.print(line, markup=False, soft_wrap=True)
