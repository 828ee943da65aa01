"""``c8league ratings``: the leaderboard, rebuilding ratings from results, predictions."""

from __future__ import annotations

import sys
from dataclasses import replace
from typing import TYPE_CHECKING, Annotated

import typer

from c8league.cli.db import database
from c8league.cli.options import JsonOpt
from c8league.cli.output import err, out, print_json
from c8league.errors import UsageError
from c8league.ratings.leaderboard import league_leaderboard
from c8league.ratings.predict import predict as predict_table
from c8league.ratings.update import rebuild as rebuild_named
from c8league.reports.formats import render_csv
from c8league.reports.records import CSV_HEADERS, leaderboard_records
from c8league.reports.terminal import table_of
from c8league.reports.views import leaderboard_view
from c8league.tables import LIGHT, Column, draw_table

if TYPE_CHECKING:
    from c8league.ratings.fit import Fitness

app = typer.Typer(
    help="Ratings: the leaderboard, rebuilding from results, predictions.", no_args_is_help=True
)

LeagueArg = Annotated[
    str | None, typer.Argument(help="The league (default: the database's only league).")
]


@app.command("show")
def show(
    league: LeagueArg = None,
    as_json: JsonOpt = False,
    as_csv: Annotated[bool, typer.Option("--csv", help="Print CSV (one header row).")] = False,
    provisional: Annotated[
        int, typer.Option(help="Mark entrants with fewer rated matches as provisional.", min=0)
    ] = 10,
    top: Annotated[int | None, typer.Option(help="Show only the first N.", min=1)] = None,
) -> None:
    """The leaderboard, sorted by the conservative rating μ − 3σ.

    ≈ marks a gap the model cannot tell from noise: the chance that an entrant is
    stronger than the next one down, P(> next), lies between 5% and 95%.

    Which tau (\\[rating] in the league file): people's skill drifts, so a league of
    people keeps tau > 0 (TrueSkill's default, 25/300): σ never falls much below
    about 0.8 and recent results weigh more. A bot is a fixed program and does not
    drift, so a league of bots wants tau = 0 (the shipped bot leagues use it): σ then
    keeps shrinking as results come in, and P(> next) means what it says. To decide
    whether one bot is better than another, play a duel: c8league duel A B.
    """
    if as_json and as_csv:
        raise UsageError("choose one of --json and --csv")
    board = league_leaderboard(database(read_only=True), league, provisional=provisional)
    rows = board.rows[:top] if top is not None else board.rows
    if as_json:
        print_json({**board.header(provisional), "entrants": leaderboard_records(rows)})
    elif as_csv:
        sys.stdout.write(render_csv(CSV_HEADERS["leaderboard"], leaderboard_records(rows)))
    else:
        view = leaderboard_view(rows, provisional, bots=board.bots)
        view.title = f"{board.title or board.league}: ratings ({board.model.version()})"
        out.print(table_of(view))
        out.print(view.caption, style="dim")


@app.command("rebuild")
def rebuild(
    league: LeagueArg = None,
    from_sequence: Annotated[
        int | None,
        typer.Option(
            "--from",
            help="Recompute only from this result's sequence number on.",
            min=1,
            max=2**63 - 1,  # a database integer
        ),
    ] = None,
) -> None:
    """Recompute the ratings from the stored results, in the order they count."""
    name, summary = rebuild_named(database(), league, from_sequence)
    start = f" from #{from_sequence}" if from_sequence is not None else ""
    err.print(
        f"{name}: ratings rebuilt{start} from {summary.matches} matches, "
        f"{summary.entrants} entrants rated ({summary.seconds:.2f} s)"
    )


@app.command("predict")
def predict(
    entrants: Annotated[list[str], typer.Argument(help="The entrants at the table.")],
    league: Annotated[
        str | None, typer.Option(help="The league whose ratings to use (default: the only one).")
    ] = None,
    samples: Annotated[int, typer.Option(help="Simulated matches.", min=100)] = 20000,
    as_json: JsonOpt = False,
) -> None:
    """The match quality of a table and each entrant's chance to finish first."""
    prediction = predict_table(database(), entrants, league, samples=samples)
    if as_json:
        print_json(
            {
                "league": prediction.league,
                "quality": prediction.quality,
                "samples": prediction.samples,
                "beta": prediction.beta,
                "entrants": [
                    {
                        "name": r.name,
                        "mu": r.mu,
                        "sigma": r.sigma,
                        "rated": r.rated,
                        "win_probability": r.win_probability,
                    }
                    for r in prediction.rows
                ],
            }
        )
        return
    table = draw_table(
        (
            "entrant",
            Column("μ", right=True),
            Column("σ", right=True),
            Column("P(first)", right=True),
            "",
        ),
        (
            (
                r.name + ("" if r.rated else " *"),
                f"{r.mu:.2f}",
                f"{r.sigma:.2f}",
                f"{100 * r.win_probability:.1f}%",
                "█" * round(20 * r.win_probability),
            )
            for r in prediction.rows
        ),
        title=f"{prediction.league}: a table of {len(prediction.rows)}",
        look=replace(LIGHT, title_style="", compact=False),
    )
    out.print(table)
    note = (
        f"match quality {prediction.quality:.3f} (0 one-sided … 1 even); chances to finish "
        f"first from {prediction.samples} simulated matches, β {prediction.beta:.3g} (the "
        "league's; c8league ratings fit fits it)"
    )
    if not all(r.rated for r in prediction.rows):
        note += "; * not rated yet (initial rating)"
    out.print(note, style="dim")


@app.command("fit")
def fit(
    league: LeagueArg = None,
    apply: Annotated[
        bool,
        typer.Option(
            "--apply",
            help="Keep the fitted values as the league's and rebuild its ratings with them "
            "(audited).",
        ),
    ] = False,
    as_json: JsonOpt = False,
) -> None:
    """Fit the league's β (and τ, if it is above 0) to its own results: each match
    predicted from the ratings before it, the values of least log-loss found, the figures
    before and after shown with a calibration table (predicted chance against how often
    it came true). Nothing changes without --apply."""
    from c8league.ratings.fit import fit_league

    name, done = fit_league(database(), league, apply=apply)
    if as_json:
        print_json(
            {
                "league": name,
                "applied": apply,
                "tau_fitted": done.tau_fitted,
                "before": done.before.to_dict(),
                "after": done.after.to_dict(),
            }
        )
        return
    table = draw_table(
        (
            "",
            Column("β", right=True),
            Column("τ", right=True),
            Column("log-loss", right=True),
            Column("calibration error", right=True),
        ),
        (
            (
                label,
                f"{f.beta:.4g}",
                f"{f.tau:.4g}",
                f"{f.log_loss:.4f}",
                f"{f.calibration_error:.4f}",
            )
            for label, f in (("as it is", done.before), ("fitted", done.after))
        ),
        title=f"{name}: its rating parameters against {done.after.pairs} pairs of results",
        look=replace(LIGHT, title_style="", compact=False),
    )
    out.print(table)
    bins = draw_table(
        (
            Column("favourite's chance", no_wrap=True),
            Column("pairs", right=True),
            Column("predicted", right=True),
            Column("came true", right=True),
        ),
        (
            (
                f"{100 * b.low:.0f}–{100 * b.high:.0f}%",
                str(b.pairs),
                f"{100 * b.predicted:.1f}%",
                f"{100 * b.observed:.1f}%",
            )
            for b in done.after.bins
            if b.pairs
        ),
        title="Calibration with the fitted values",
        look=replace(LIGHT, title_style="", compact=False),
    )
    out.print(bins)
    if apply:
        err.print(f"{name}: β {done.after.beta:.4g}, τ {done.after.tau:.4g} kept; ratings rebuilt")
    else:
        err.print(f"nothing changed: c8league ratings fit {name} --apply keeps the fitted values")


def _fitness_row(label: str, f: Fitness) -> tuple[str, ...]:
    return (
        label,
        f"{f.beta:.4g}",
        f"{f.tau:.4g}",
        f"{f.log_loss:.4f}",
        f"{f.calibration_error:.4f}",
    )
