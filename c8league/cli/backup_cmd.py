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
    backups.check_copyable(resolve_url(state.db_option), "backup")
    contents = backups.backup(database(), file)
    err.print(f"backed up to [bold]{escape(str(file))}[/]: {contents.text()}", highlight=False)


def restore(
    file: Annotated[Path, typer.Argument(help="A copy made by c8league backup.")],
    force: Annotated[
        bool, typer.Option("--force", help="Replace the database if it exists.")
    ] = False,
) -> None:
    """Put the copy FILE in place of the database (--force to replace one that exists).
    A copy from a newer c8league is refused; one from an older is upgraded."""
    url = resolve_url(state.db_option)
    contents = backups.restore(url, file, force=force)
    database()  # upgrades an older copy now, and checks it opens
    err.print(
        f"restored [bold]{escape(describe_url(url))}[/] from {escape(str(file))}: "
        f"{contents.text()}",
        highlight=False,
    )
