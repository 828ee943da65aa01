"""``c8league result``: enter, correct and void the results of matches played by people."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import TYPE_CHECKING, Annotated

import typer
from rich.markup import escape

from c8league import club
from c8league.cli.db import database
from c8league.cli.options import ROUND_MAX, TABLE_MAX
from c8league.cli.output import err, out, print_json, said
from c8league.cli.trail import show_trail, values_text
from c8league.club import SCORE_MAX, CheckedResult, reporting
from c8league.errors import NoInput, ResultError, UsageError
from c8league.results import UNFINISHED
from c8league.tables import draw_table

if TYPE_CHECKING:
    from c8league.club import Change, Entry, TableInfo

app = typer.Typer(
    help="Results of club matches: add, edit, void, list, history.", no_args_is_help=True
)


EventArg = Annotated[str, typer.Argument(help="Event name (or LEAGUE/EVENT).")]
TableOpt = Annotated[
    int,
    typer.Option("--table", help="Table number on the pairing sheet.", min=1, max=TABLE_MAX),
]
RoundOpt = Annotated[
    int | None,
    typer.Option(
        "--round",
        help="Round (default: add, the latest published round where the table has no "
        "result; edit and void, the latest round where it has one).",
        min=1,
        max=ROUND_MAX,
    ),
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
    list[str] | None,
    typer.Option(
        "--forfeit",
        help="A player who left mid-match (placed last; repeatable, or NAME,NAME: those "
        "who left share the last place).",
    ),
]
BlockedOpt = Annotated[
    bool,
    typer.Option("--blocked", help="Countdown: the match ended blocked, before anyone reached 0."),
]
NoteOpt = Annotated[str, typer.Option("--note", help="Why (kept in the audit trail).")]
UnfinishedOpt = Annotated[
    bool,
    typer.Option(
        "--unfinished",
        help="The match stopped before anyone reached the target (closing time): placed "
        "by the --scores when it stopped.",
    ),
]
PlacesOpt = Annotated[
    str | None,
    typer.Option(
        "--places",
        help='An unfinished match placed without scores, best first: "Ada,Ben,Cleo" '
        '("Ben=Cleo" share a place).',
    ),
]


def _ask_scores(info: TableInfo, entry: Entry) -> Entry:
    """Ask for each player's final score at the table, checking each as it is typed and
    the whole sheet before it is stored; a mistake in the sheet asks again, with the
    scores typed so far as defaults."""
    countdown = info.rules.countdown
    high = 8 if countdown else SCORE_MAX
    goal = "reach 0 (Countdown)" if countdown else f"play to {info.target}"
    err.print(
        f"round {info.round}, table {info.table}: {', '.join(info.seats)} — {goal}; "
        "type each final score",
        highlight=False,
        markup=False,
    )
    scores: dict[str, int] = {}
    while True:
        for name in info.seats:
            while True:
                with _answering():
                    text = typer.prompt(
                        f"  {name}", default=scores.get(name), show_default=name in scores, err=True
                    )
                try:
                    value = int(str(text).strip())
                    if not 0 <= value <= high:
                        raise ValueError
                except ValueError:
                    err.print(f"  [red]a score is a whole number from 0 to {high:,}[/]")
                    continue
                scores[name] = value
                if (value == 0) if countdown else (value >= info.target):
                    reached = "reached 0" if countdown else f"reached the target {info.target}"
                    err.print(f"  {escape(name)} {reached}", highlight=False)
                break
        candidate = replace(entry, scores=dict(scores))
        try:
            checked = info.check(candidate)
        except ResultError as exc:
            err.print(f"[red]{escape(said(exc))}[/]", highlight=False)
            err.print("type the scores again (Enter keeps a score)")
            continue
        with _answering():
            store = typer.confirm(_placed(checked) + " — store?", default=True, err=True)
        if not store:
            err.print("not stored: type the scores again (Enter keeps a score; Ctrl-C stops)")
            continue
        return candidate


@contextmanager
def _answering() -> Iterator[None]:
    """Around a prompt: the end of the input (no one is typing) stores nothing and says
    so (Ctrl-C stays an interruption)."""
    try:
        yield
    except typer.Abort as exc:
        if isinstance(exc.__context__, EOFError):
            err.print()  # end the prompt's line
            raise NoInput("no result typed: nothing stored") from None
        raise


def _placed(checked: object) -> str:
    assert isinstance(checked, CheckedResult)
    result = checked.result
    left = set(checked.forfeited)
    order = sorted(range(len(checked.seats)), key=lambda i: result.placements[i])
    scored = result.ended != "places"
    return " · ".join(
        f"{result.placements[i]}. {checked.seats[i]}"
        + (f" {result.scores[i]}" if scored else "")
        + (" (forfeit)" if checked.seats[i] in left else "")
        for i in order
    ) + (" (unfinished)" if result.ended in UNFINISHED else "")


def _show(change: Change, what: str) -> None:
    assert change.checked is not None
    err.print(
        f"round {change.round}, table {change.table}: {what} {_placed(change.checked)}",
        highlight=False,
        markup=False,
    )
    for line in change.checked.warnings:
        err.print(f"[yellow]warning:[/] {escape(line)}", highlight=False)


def _enter(
    action: str,
    event: str,
    table: int,
    round_number: int | None,
    scores: str | None,
    hands: str | None,
    forfeit: list[str] | None,
    blocked: bool,
    note: str,
    unfinished: bool = False,
    places: str | None = None,
) -> None:
    entry = club.Entry(
        club.parse_scores(scores) if scores is not None else None,
        club.parse_hands(hands) if hands is not None else None,
        tuple(club.parse_names(forfeit or [])),
        note,
        blocked,
        unfinished,
        club.parse_places(places) if places is not None else None,
    )
    db = database()
    if scores is None and hands is None and places is None:
        info = club.table_info(db, event, table, round_number, edit=action == "edit")
        entry = _ask_scores(info, entry)
        round_number = info.round
    if action == "add":
        change = club.add_result(db, event, table, entry, round_number=round_number)
        _show(change, "stored again" if change.was == "void" else "stored")
    else:
        _show(club.edit_result(db, event, table, entry, round_number=round_number), "corrected")


@app.command("add")
def add(
    event: EventArg,
    table: TableOpt,
    round_number: RoundOpt = None,
    scores: ScoresOpt = None,
    hands: HandsOpt = None,
    forfeit: ForfeitOpt = None,
    blocked: BlockedOpt = False,
    note: NoteOpt = "",
    unfinished: UnfinishedOpt = False,
    places: PlacesOpt = None,
) -> None:
    """Enter a table's final scores (or hand-by-hand scores; totals are computed).
    Without --scores or --hands, the scores are asked for, player by player. A match
    stopped before anyone reached the target: --scores ... --unfinished, or --places.
    A voided table is entered again the same way."""
    _enter(
        "add", event, table, round_number, scores, hands, forfeit, blocked, note, unfinished, places
    )


@app.command("edit")
def edit(
    event: EventArg,
    table: TableOpt,
    round_number: RoundOpt = None,
    scores: ScoresOpt = None,
    hands: HandsOpt = None,
    forfeit: ForfeitOpt = None,
    blocked: BlockedOpt = False,
    note: NoteOpt = "",
    unfinished: UnfinishedOpt = False,
    places: PlacesOpt = None,
) -> None:
    """Correct a stored result; standings and ratings are recomputed from it on."""
    _enter(
        "edit",
        event,
        table,
        round_number,
        scores,
        hands,
        forfeit,
        blocked,
        note,
        unfinished,
        places,
    )


@app.command("accept")
def accept(
    event: EventArg,
    table: TableOpt,
    refuse: Annotated[
        bool,
        typer.Option(
            "--refuse", help="Forget the reported result instead (the table may report again)."
        ),
    ] = False,
    dispute: Annotated[
        bool,
        typer.Option(
            "--dispute",
            help="Accept the scores a second player disputed the report with, instead of "
            "the report's.",
        ),
    ] = False,
) -> None:
    """Make the result reported at a table with its code (c8league serve) final: it is
    stored as result add stores one, and the audit trail names the table's code, who
    reported (and disputed) it and the organiser. The latest published round where the
    table waits for its result."""
    db = database()
    if refuse:
        if dispute:
            raise UsageError("--refuse forgets the report and its dispute: leave out --dispute")
        reporting.refuse_report(db, event, table)
        err.print(f"table {table}: the reported result is forgotten", highlight=False)
        return
    change = reporting.accept_report(
        db, event, table, by="the organiser (result accept)", dispute=dispute
    )
    _show(change, "accepted")


@app.command("codes")
def codes(event: EventArg) -> None:
    """The codes of the tables of the latest published round, to give each table (its
    players report its result with it on c8league serve's page), and what each reported."""
    number, rows = reporting.round_codes(database(), event)
    out.print(f"round {number}", highlight=False)
    for row in rows:
        state = row.status
        report = row.report
        if report is not None and row.status in ("pending", "void"):
            by = "" if report.by is None else f" by {report.by}"
            state = f"reported{by}: " + ", ".join(f"{n}={v}" for n, v in report.scores.items())
            if report.disputed is not None:
                state += f"; disputed by {report.disputed_by}: " + ", ".join(
                    f"{n}={v}" for n, v in report.disputed.items()
                )
        out.print(
            f"table {row.table}: {row.code}  {', '.join(row.seats)}  ({state})",
            highlight=False,
            markup=False,
        )


@app.command("void")
def void(
    event: EventArg, table: TableOpt, round_number: RoundOpt = None, note: NoteOpt = ""
) -> None:
    """Void a stored result: it no longer counts; standings and ratings are recomputed.
    Enter the table again with result add."""
    change = club.void_result(database(), event, table, round_number=round_number, note=note)
    was = values_text(change.before)
    err.print(
        f"round {change.round}, table {change.table}: result voided"
        + (f" (was {was})" if was else ""),
        highlight=False,
        markup=False,
    )


@app.command("list")
def list_(
    event: EventArg,
    round_number: RoundOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """The tables of a round with their results (forfeits marked)."""
    sheet = club.pairing_sheet(database(), event, round_number)
    if as_json:
        print_json(sheet.to_dict())
        return
    table = draw_table(
        ("table", "match", "seats", "status", "result"),
        (
            (str(t.table), str(t.match_id), ", ".join(t.seats), t.status, t.result_text())
            for t in sheet.tables
        ),
        title=f"{sheet.event}, round {sheet.round}: results",
        caption="match: its id for c8league match show",
    )
    out.print(table)


@app.command("history")
def history(
    event: EventArg,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """The audit trail of an event: every result added, edited or voided, every draft
    round changed, published or discarded, and who withdrew, came back or joined while
    it ran, with the previous values."""
    show_trail(club.audit_trail(database(), event), f"{event}: audit trail", as_json)
