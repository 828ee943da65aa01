"""``c8league verify``: is the record as c8league wrote it?"""

from __future__ import annotations

from typing import Annotated

import typer
from rich.markup import escape

from c8league import integrity
from c8league.cli import record_words
from c8league.cli.db import database
from c8league.cli.options import JsonOpt
from c8league.cli.output import err, out, print_json

CHANGED = 1
"""The exit status when the record was changed outside c8league."""


def verify(
    league: Annotated[
        str | None,
        typer.Argument(help="Only this league's records (and the players); default: all."),
    ] = None,
    head: Annotated[
        str | None,
        typer.Option(
            "--head",
            help="A head printed by verify before (64 hex digits): check that it is still "
            "an entry of the chain.",
        ),
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Check that the record is as c8league wrote it: every result, round, membership
    and audit entry against its digest in the record's chain, and every link of the
    chain. Names the first record changed outside c8league (exit 1), else prints the
    chain's head, to publish."""
    verification = integrity.verify(database(read_only=True), league, head=head)
    if as_json:
        print_json(verification.to_dict())
    elif verification.whole:
        for line in record_words.whole(verification, league):
            out.print(line, highlight=False, markup=False, soft_wrap=True)
    if not verification.whole:
        err.print(
            f"[bold red]error:[/] {escape(record_words.first(verification))}",
            highlight=False,
        )
        raise typer.Exit(CHANGED)
