"""``c8league event pair``, ``sheet`` and the changes to a draft round (``swap``,
``move``, ``unpair``, ``publish``, ``unpublish``, ``absent``, ``present``)."""

from __future__ import annotations

import io
import json
from dataclasses import replace
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from c8league import club
from c8league.cli.db import database, warn_if_changed
from c8league.cli.event import EventArg, FormatOpt, LeagueOpt, OutOpt
from c8league.cli.options import ROUND_MAX, TABLE_MAX
from c8league.cli.output import err, out
from c8league.club import Sheet, check_out, reporting, sheet_format
from c8league.errors import UsageError
from c8league.events.pairing import pair_round
from c8league.tables import Column, draw_table


def pair(
    event: EventArg,
    league: LeagueOpt = None,
    fmt: FormatOpt = None,
    path: OutOpt = None,
) -> None:
    """Pair the next round of an event and print its pairing sheet."""
    chosen = sheet_output(fmt, path)
    paired = pair_round(database(), event, league)
    err.print(f"{paired.event}: round {paired.round} paired")
    for line in paired.warnings:
        err.print(f"[yellow]warning:[/] {line}", highlight=False)
    show_sheet(paired.event, paired.round, chosen, path)


def _sheet_table(sheet: Sheet) -> Table:
    draft = "" if sheet.published else "DRAFT — "
    width = max((len(t.seats) for t in sheet.tables), default=2)
    code = ("code",) if sheet.codes else ()
    return draw_table(
        (
            Column("table", right=True),
            Column("play to", right=True),
            *(f"seat {seat}" + (" (deals)" if seat == 1 else "") for seat in range(1, width + 1)),
            "result",
            *code,
        ),
        (
            (
                str(t.table),
                str(t.target),
                *t.seats,
                *[""] * (width - len(t.seats)),
                t.result_text(),
                *((sheet.code_of(t.table),) if code else ()),
            )
            for t in sheet.tables
        ),
        title=f"{draft}{sheet.title}: {sheet.event}, round {sheet.round} of {sheet.rounds}",
        title_style="bold red" if draft else "bold",
        caption=f"seat 1 deals first · {sheet.rules_line}",
    )


def _print_sheet(sheet: Sheet, console: Console) -> None:
    """The sheet as the terminal shows it: the tables, byes, the draft warning, and the
    "where do I sit" list."""
    console.print(_sheet_table(sheet))
    if sheet.codes:
        where = f" at {sheet.report_url}" if sheet.report_url else " on c8league serve's page"
        console.print(
            f"report each table's result{where} with its code",
            markup=False,
            highlight=False,
            soft_wrap=True,
        )
    if sheet.byes:
        console.print("bye: " + ", ".join(sheet.byes), markup=False, highlight=False)
    if sheet.absent:
        console.print("absent: " + ", ".join(sheet.absent), markup=False, highlight=False)
    if not sheet.published:
        console.print(
            f"[bold red]DRAFT:[/] not published; the tables may still change "
            f"(c8league event publish {sheet.event} fixes them)"
        )
    console.print()
    console.print("[bold]Where do I sit?[/]")
    for w in sheet.where():
        place = f"table {w.table}, seat {w.seat}" if w.table is not None else "bye"
        console.print(f"  {w.name} · {place}", markup=False, highlight=False)


def sheet_output(fmt: str | None, path: str | None) -> str:
    """The format a sheet is written in (``--format``, else the suffix of ``--out``), after
    checking that ``path`` can be written: before anything is stored."""
    if path is not None:
        check_out(path)
    return sheet_format(fmt, path)


def show_sheet(
    event: str,
    round_number: int | None,
    fmt: str,
    path: str | None,
    *,
    codes: bool = False,
    url: str | None = None,
) -> None:
    """Print (or write) a round's pairing sheet in ``fmt`` (checked by sheet_output);
    with ``codes``, each table's code for reporting its result (the latest published
    round's), and ``url``, the address of the page to report it at."""
    db = database()
    sheet = club.pairing_sheet(db, event, round_number)
    if codes:
        number, rows = reporting.round_codes(db, event)
        if number != sheet.round:
            raise UsageError(
                f"--codes: the codes are those of the latest published round ({number}), "
                f"not round {sheet.round}"
            )
        sheet = replace(
            sheet,
            codes=tuple((row.table, row.code) for row in rows),
            report_url=url or "",
            report_qr=_qr_svg(url) if url and fmt == "html" else "",
        )
    if fmt == "terminal" and path is None:
        _print_sheet(sheet, out)
        return
    if fmt == "terminal":
        buffer = io.StringIO()
        _print_sheet(sheet, Console(file=buffer, width=120, color_system=None))
        text = buffer.getvalue()
    elif fmt == "csv":
        text = club.sheet_csv(sheet)
    elif fmt == "html":
        text = club.sheet_html(sheet)
    else:
        text = json.dumps(sheet.to_dict(), indent=2, ensure_ascii=False) + "\n"
    if path is None:
        out.file.write(text)
        return
    try:
        Path(path).write_text(text, encoding="utf-8-sig" if fmt == "csv" else "utf-8")
    except OSError as exc:
        raise UsageError(f"cannot write {path}: {exc.strerror or exc}") from None
    err.print(f"pairing sheet written to {path}", highlight=False, markup=False)


def _qr_svg(url: str) -> str:
    """A QR code of ``url`` as inline SVG (segno, of the serve extra), or "" without it."""
    try:
        import segno  # the serve extra's: only for a sheet with the report page's address
    except ImportError:
        return ""
    return str(segno.make(url, error="m").svg_inline(scale=4, title=url))


def sheet(
    event: EventArg,
    round_number: Annotated[
        int | None,
        typer.Option("--round", help="Round (default: latest).", min=1, max=ROUND_MAX),
    ] = None,
    fmt: FormatOpt = None,
    path: OutOpt = None,
    codes: Annotated[
        bool,
        typer.Option(
            "--codes",
            help="Show each table's code, with which its players report its result on "
            "c8league serve's page (keep such a sheet for the tables: a code is a secret).",
        ),
    ] = False,
    url: Annotated[
        str | None,
        typer.Option(
            "--url",
            help="With --codes: the address of serve's report page (http://HOST:PORT/report),"
            " printed with the codes and, in HTML, as a QR code.",
        ),
    ] = None,
) -> None:
    """The pairing sheet of a round: tables, seats in order, first dealer, target score,
    where everyone sits, and (HTML) a score sheet per table."""
    if url is not None and not codes:
        raise UsageError("--url goes with --codes")
    if url is not None and not url.startswith(("http://", "https://")):
        raise UsageError(f"--url: an address starting with http:// or https://, got {url!r}")
    show_sheet(event, round_number, sheet_output(fmt, path), path, codes=codes, url=url)


def swap(
    event: EventArg,
    first: Annotated[str, typer.Argument(help="An entrant of the draft round.")],
    second: Annotated[str, typer.Argument(help="Another entrant of the draft round.")],
) -> None:
    """Swap two entrants' seats in the draft round (before it is published)."""
    result = club.swap(database(), event, first, second)
    for line in result.warnings:
        err.print(f"[yellow]warning:[/] {line}")
    err.print(f"swapped {' and '.join(result.names)}", markup=False, highlight=False)
    show_sheet(event, None, "terminal", None)


def move(
    event: EventArg,
    name: Annotated[str, typer.Argument(help="An entrant of the draft round.")],
    table: Annotated[
        int, typer.Option("--table", help="The table to move to.", min=1, max=TABLE_MAX)
    ],
) -> None:
    """Move an entrant to another table of the draft round."""
    result = club.move(database(), event, name, table)
    for line in result.warnings:
        err.print(f"[yellow]warning:[/] {line}")
    err.print(f"moved {result.names[0]} to table {table}", markup=False, highlight=False)
    show_sheet(event, None, "terminal", None)


def unpair(event: EventArg) -> None:
    """Discard the draft round, to pair it again with event pair (after a withdrawal, a
    late entry or a no-show)."""
    number = club.unpair(database(), event)
    err.print(f"round {number} of {event} discarded: c8league event pair {event} pairs it again")


def publish(
    event: EventArg,
    force: Annotated[
        bool,
        typer.Option(
            "--force", help="Publish even if the draft seats someone who has withdrawn since."
        ),
    ] = False,
) -> None:
    """Publish the draft round: its tables are fixed and results may be entered. A draft
    that seats someone who has withdrawn is refused (pair it again) unless --force."""
    db = database()
    number = club.publish(db, event, force=force)
    err.print(f"round {number} of {event} published")
    warn_if_changed(db, event=event)


def absent(
    event: EventArg,
    name: Annotated[str, typer.Argument(help="A member of the event's league.")],
    round_number: Annotated[
        int | None,
        typer.Option(
            "--round",
            help="Only this round (default: every round from the next one, until event present).",
            min=1,
            max=ROUND_MAX,
        ),
    ] = None,
) -> None:
    """A member will not come: not paired this evening (or in one round), still a member."""
    done = club.absent(database(), event, name, round_number)
    for line in done.warnings:
        err.print(f"[yellow]warning:[/] {escape(line)}", highlight=False)
    err.print(f"{done.name} {done.text}", highlight=False, markup=False)


def present(
    event: EventArg,
    name: Annotated[str, typer.Argument(help="A member said to be absent.")],
) -> None:
    """A member said to be absent comes after all: paired again from the next round."""
    done = club.present(database(), event, name)
    for line in done.warnings:
        err.print(f"[yellow]warning:[/] {escape(line)}", highlight=False)
    err.print(f"{done.name} {done.text}", highlight=False, markup=False)


def unpublish(event: EventArg) -> None:
    """Take back the published round while none of its tables has a result: it is a
    draft again (then event unpair, swap or move, and publish)."""
    number = club.unpublish(database(), event)
    err.print(
        f"round {number} of {event} is a draft again: change it (event swap, move) or "
        f"discard it (c8league event unpair {event}), then publish it"
    )
