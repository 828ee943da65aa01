"""The ``c8league`` command. Errors are turned into one red line here, in one place."""

from __future__ import annotations

import os
import signal
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from c8league.cli import run as cli_run
from c8league.cli import state
from c8league.cli.lazy import lazy_group
from c8league.cli.output import err, said
from c8league.errors import C8LeagueError, Interrupted
from c8league.interrupts import (
    exit_status,
    signal_of,
    stop_signals,
    stopped_by,
    stopped_by_signal,
)

INTERRUPTED = Interrupted.exit_code

# --- sub-apps, one per noun (keep one line each) ---
# "module:attribute" of a Typer sub-app or a command function, imported only when used
# (c8league.cli.lazy), so that a command loads its own module only. --help lists them
# in this order.
SUBCOMMANDS = {
    "demo": "c8league.cli.demo:demo",
    "init": "c8league.cli.init_cmd:init",
    "play": "c8league.cli.play_cmd:play",
    "report": "c8league.cli.report_cmd:report",
    "backup": "c8league.cli.backup_cmd:backup",
    "restore": "c8league.cli.backup_cmd:restore",
    "rules": "c8league.cli.rules_cmd:app",
    "league": "c8league.cli.league_cmd:app",
    "players": "c8league.cli.players_cmd:app",
    "event": "c8league.cli.event_cmd:app",
    "result": "c8league.cli.result_cmd:app",
    "bots": "c8league.cli.bots_cmd:app",
    "ratings": "c8league.cli.ratings_cmd:app",
    "duel": "c8league.cli.duel_cmd:app",
    "match": "c8league.cli.match_cmd:app",
}
# --- end of sub-apps ---

app = typer.Typer(
    name="c8league",
    help="Crazy Eights tournaments and leagues: rules engine, bots, events, ratings, reports.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    cls=lazy_group(SUBCOMMANDS),
)


def _version(value: bool) -> None:
    if value:
        from c8league import about

        typer.echo(about.report())
        raise typer.Exit()


@app.callback()
def _root(
    db: Annotated[
        str | None,
        typer.Option(
            "--db",
            envvar="C8LEAGUE_DB",
            help="Database: a SQLite file or any SQLAlchemy URL (default: c8league.db).",
        ),
    ] = None,
    version: Annotated[
        bool,
        typer.Option(
            "--version",
            callback=_version,
            is_eager=True,
            help="Show the version, the engine (compiled or source, and why), Python and "
            "the player plugins, and exit.",
        ),
    ] = False,
) -> None:
    """Crazy Eights tournaments and leagues: rules engine, bots, events, ratings, reports."""
    state.db_option = db


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line with ``argv``; returns the exit status instead of exiting.
    SIGTERM and SIGHUP stop a command as Ctrl-C does (``c8league.interrupts``): one line
    says so, and the status is 128 + the signal's number."""
    _install_notice()
    with stop_signals() as seen:
        try:
            code, told = _main(argv)
        finally:
            state.close_all()  # (a stop meanwhile raises once the databases are closed)
    if seen and not told and code == INTERRUPTED:
        # Typer turns a KeyboardInterrupt inside a command into this status, silently.
        err.print(f"[bold red]{stopped_by_signal(seen[0])}[/]", markup=True)
        code = exit_status(seen[0])
    return code


def _main(argv: Sequence[str] | None) -> tuple[int, bool]:
    """The exit status, and whether a line said that the command was stopped."""
    command = typer.main.get_command(app)
    try:
        result = command.main(
            args=list(argv) if argv is not None else None,
            prog_name="c8league",
            standalone_mode=False,
        )
    except Interrupted as exc:
        err.print(f"[bold red]{escape(str(exc))}[/]", markup=True, highlight=False)
        return exc.exit_code, True
    except typer.Abort as exc:  # click's word for Ctrl-C, or the end of input, at a prompt
        cause = exc.__cause__ or exc.__context__
        if isinstance(cause, EOFError):
            err.print(
                "[bold red]error:[/] the input ended where an answer was expected: nothing done",
                markup=True,
            )
            return 1, False
        signum = signal_of(cause) if cause is not None else signal.SIGINT
        err.print(f"[bold red]{stopped_by(cause or exc)}[/]", markup=True)
        return exit_status(signum), True
    except C8LeagueError as exc:
        err.print(f"[bold red]error:[/] {escape(said(exc))}", markup=True, highlight=False)
        return exc.exit_code, False
    except typer.Exit as exc:
        return int(exc.exit_code), False
    except KeyboardInterrupt as exc:
        err.print(f"[bold red]{stopped_by(exc)}[/]", markup=True)
        return exit_status(signal_of(exc)), True
    except BrokenPipeError:
        return 0, False
    except Exception as exc:
        # Usage errors of the command-line parser (bad option, missing argument, …).
        code = getattr(exc, "exit_code", None)
        message = getattr(exc, "format_message", None)
        if not isinstance(code, int) or not callable(message):
            raise
        if type(exc).__name__ == "NoArgsIsHelpError":
            return 0, False  # the help has been printed
        ctx = getattr(exc, "ctx", None)
        hint = f" (see: {ctx.command_path} --help)" if ctx is not None else ""
        err.print(f"[bold red]error:[/] {escape(message())}{hint}", markup=True, highlight=False)
        return code, False
    return (result if isinstance(result, int) else 0), False


def _install_notice() -> None:
    """Once per install: say that the engine runs from source because it was not compiled."""
    from c8league import about

    if "_C8LEAGUE_COMPLETE" in os.environ:
        return
    notice = about.install_notice(Path(typer.get_app_dir("c8league")))
    if notice is not None:
        err.print(notice, style="yellow", highlight=False, markup=False)


run = cli_run
"""The console-script entry point (``c8league.cli.run``), under its earlier name."""
