"""``c8league result``: enter, correct and void the results of matches played by people."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer
from rich.table import Table

from c8league.cli import state
from c8league.cli.output import out, print_json

if TYPE_CHECKING:
    from c8league.club import EnteredHand

app = typer.Typer(
    help="Results of club matches: add, edit, void, list, history.", no_args_is_help=True
)

TABLE_MAX = 100_000
"""The highest table number a command accepts (numbers go to the database as 64-bit
integers; far above any real table count, a bigger one is a typo)."""
ROUND_MAX = 1_000_000
"""The highest round number a command accepts."""

EventArg = Annotated[str, typer.Argument(help="Event name (or LEAGUE/EVENT).")]
TableOpt = Annotated[
    int,
    typer.Option("--table", help="Table number on the pairing sheet.", min=1, max=TABLE_MAX),
]
RoundOpt = Annotated[
    int | None,
    typer.Option("--round", help="Round (default: the latest).", min=1, max=ROUND_MAX),
]
ScoresOpt = Annotated[
    str | None,
    typer.Option("--scores", help='Final scores: "Ada=200,Ben=150,Cleo=80,Dev=35".'),
]
HandsOpt = Annotated[
    str | None,
    typer.Option(
        "--hands",
        help='Hand-by-hand scores, hands separated by ";": "Ada=35;Ben=20;blocked:Ada=4,Ben=4".',
    ),
]
ForfeitOpt = Annotated[
    str | None, typer.Option("--forfeit", help="A player who left mid-match (placed last).")
]
NoteOpt = Annotated[str, typer.Option("--note", help="Why (kept in the audit trail).")]


def _gather(
    event: str, table: int, round_number: int | None, scores: str | None, hands: str | None
) -> tuple[dict[str, int] | None, list[EnteredHand] | None]:
    from c8league import club
    from c8league.club import SCORE_MAX
    from c8league.errors import ResultError

    if scores is not None or hands is not None:
        return (
            club.parse_scores(scores) if scores is not None else None,
            list(club.parse_hands(hands)) if hands is not None else None,
        )
    seats = club.table_seats(state.database(), event, table, round_number)
    out.print(f"table {table}: {', '.join(seats)} — final scores")
    result: dict[str, int] = {}
    for name in seats:
        while True:
            text = typer.prompt(f"  {name}")
            try:
                value = int(text.strip())
                if not 0 <= value <= SCORE_MAX:
                    raise ValueError
            except ValueError:
                out.print(f"  [red]a score is a whole number from 0 to {SCORE_MAX:,}[/]")
                continue
            result[name] = value
            break
    if not typer.confirm(
        ", ".join(f"{n} {v}" for n, v in result.items()) + " — store?", default=True
    ):
        raise ResultError("nothing stored")
    return result, None


def _show(checked: object) -> None:
    from c8league.club import CheckedResult

    assert isinstance(checked, CheckedResult)
    result = checked.result
    order = sorted(range(len(checked.seats)), key=lambda i: result.placements[i])
    out.print(
        "stored: "
        + " · ".join(
            f"{result.placements[i]}. {checked.seats[i]} {result.scores[i]}" for i in order
        )
        + (f" (forfeit: {checked.seats[result.forfeit.seat]})" if result.forfeit else "")
    )


def _enter(
    action: str,
    event: str,
    table: int,
    round_number: int | None,
    scores: str | None,
    hands: str | None,
    forfeit: str | None,
    note: str,
) -> None:
    from c8league import club

    parsed_scores, parsed_hands = _gather(event, table, round_number, scores, hands)
    entry = club.Entry(parsed_scores, parsed_hands, forfeit, note)
    store = club.add_result if action == "add" else club.edit_result
    _show(store(state.database(), event, table, entry, round_number=round_number))


@app.command("add")
def add(
    event: EventArg,
    table: TableOpt,
    round_number: RoundOpt = None,
    scores: ScoresOpt = None,
    hands: HandsOpt = None,
    forfeit: ForfeitOpt = None,
    note: NoteOpt = "",
) -> None:
    """Enter a table's final scores (or hand-by-hand scores; totals are computed).
    Without --scores or --hands, the scores are asked for, player by player."""
    _enter("add", event, table, round_number, scores, hands, forfeit, note)


@app.command("edit")
def edit(
    event: EventArg,
    table: TableOpt,
    round_number: RoundOpt = None,
    scores: ScoresOpt = None,
    hands: HandsOpt = None,
    forfeit: ForfeitOpt = None,
    note: NoteOpt = "",
) -> None:
    """Correct a stored result; standings and ratings are recomputed from it on."""
    _enter("edit", event, table, round_number, scores, hands, forfeit, note)


@app.command("void")
def void(
    event: EventArg, table: TableOpt, round_number: RoundOpt = None, note: NoteOpt = ""
) -> None:
    """Void a stored result: it no longer counts; standings and ratings are recomputed."""
    from c8league import club

    club.void_result(state.database(), event, table, round_number=round_number, note=note)
    out.print(f"table {table}: result voided")


@app.command("list")
def list_(
    event: EventArg,
    round_number: RoundOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """The tables of a round with their results."""
    from c8league import club

    sheet = club.pairing_sheet(state.database(), event, round_number)
    if as_json:
        print_json(sheet.to_dict())
        return
    table = Table(title=f"{sheet.event}, round {sheet.round}: results")
    for column in ("table", "seats", "status", "result"):
        table.add_column(column)
    for t in sheet.tables:
        result = " · ".join(f"{p}. {n} {s}" for n, p, s in t.result)
        table.add_row(str(t.table), ", ".join(t.seats), t.status, result)
    out.print(table)


@app.command("history")
def history(
    event: EventArg,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """The audit trail: every result added, edited or voided, with previous values."""
    from c8league import club

    rows = club.audit_trail(state.database(), event)
    if as_json:
        print_json(rows)
        return
    table = Table(title=f"{event}: audit trail")
    for column in ("when", "round", "table", "action", "before", "after", "note"):
        table.add_column(column)
    for r in rows:

        def scores(d: dict[str, object] | None) -> str:
            if not d:
                return ""
            return ", ".join(f"{k} {v}" for k, v in d["scores"].items())  # type: ignore[attr-defined]

        table.add_row(
            r["at"],
            str(r["round"]),
            str(r["table"]),
            r["action"],
            scores(r["before"]),
            scores(r["after"]),
            r["note"],
        )
    out.print(table)
