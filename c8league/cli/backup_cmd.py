"""``c8league backup`` and ``c8league restore``: a copy of the database, and putting it
back."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from c8league import backups
from c8league.cli import state
from c8league.cli.db import database
from c8league.cli.output import err
from c8league.storage.database import describe_url, resolve_url


def backup(
    file: Annotated[Path, typer.Argument(help="The copy to make (a new file).")],
) -> None:
    """Copy the database to FILE, consistent even while another command writes to it
    (SQLite's online backup). On PostgreSQL, says how to use pg_dump."""
    backups.check_copyable(resolve_url(state.db_option), "backup", file)
    contents = backups.backup(database(), file)
    err.print(f"backed up to [bold]{escape(str(file))}[/]: {contents.text()}", highlight=False)


def restore(
    file: Annotated[Path, typer.Argument(help="A copy made by c8league backup.")],
    force: Annotated[
        bool, typer.Option("--force", help="Replace the database if it exists.")
    ] = False,
) -> None:
    """Put the copy FILE in place of the database (--force to replace one that exists;
    it is kept beside it). The copy is checked whole first; one that is damaged, from a
    newer c8league, or changed outside c8league is refused. An older one is upgraded."""
    url = resolve_url(state.db_option)
    done = backups.restore(url, file, force=force)
    contents = done.contents.text()
    if done.schema != done.contents.schema:
        contents = contents.removesuffix(")") + f", upgraded to {done.schema})"
    kept = (
        ""
        if done.kept is None
        else f"; the database it replaced is kept as {escape(str(done.kept.absolute()))}"
    )
    err.print(
        f"restored [bold]{escape(describe_url(url))}[/] from {escape(str(file))}: {contents}{kept}",
        highlight=False,
    )
