"""``c8league copy``: a whole database copied into another, SQLite or PostgreSQL."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.markup import escape

from c8league import backups
from c8league.cli import state
from c8league.cli.db import database
from c8league.cli.output import err
from c8league.errors import UsageError
from c8league.storage.database import Database, open_database, resolve_url


def copy(
    to: Annotated[
        str | None,
        typer.Option("--to", metavar="URL", help="Copy the database into URL (or a file)."),
    ] = None,
    from_: Annotated[
        str | None,
        typer.Option(
            "--from", metavar="URL", help="Copy the database at URL (or a file) into this one."
        ),
    ] = None,
    force: Annotated[
        bool,
        typer.Option("--force", help="Replace what the target holds (refused otherwise)."),
    ] = False,
) -> None:
    """Copy the whole database into another (--to URL) or another into it (--from URL): a
    SQLite file or a PostgreSQL database, every row in one transaction, compared after.

    The target's schema is made there; every row is copied as it is, the record's chain
    included, and compared with the source before the copy commits. A target that holds
    a c8league database already is refused without --force."""
    if (to is None) == (from_ is None):
        raise UsageError("copy takes --to URL or --from URL (one of them)")
    source: Database
    if to is not None:
        source, target = database(read_only=True), to
    else:
        assert from_ is not None
        source = open_database(from_, create=False, read_only=True)
        state.opened.append(source)
        target = resolve_url(state.db_option)
    done = backups.copy(source, target, force=force)
    plural = {1: ""}
    err.print(
        f"copied {escape(done.source)} to [bold]{escape(done.target)}[/]"
        + (" (replacing what it held)" if done.replaced else "")
        + f": {done.leagues} league{plural.get(done.leagues, 's')}, "
        f"{done.events} event{plural.get(done.events, 's')}, "
        f"{done.results} result{plural.get(done.results, 's')}; {done.rows} rows in "
        f"{len(done.tables)} tables, the same as the source's (digest {done.digest[:16]})",
        highlight=False,
    )
