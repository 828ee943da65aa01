"""The ``c8league`` command. Errors are turned into one red line here, in one place."""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from c8league import about
from c8league.cli import run as cli_run
from c8league.cli import state
from c8league.cli.exits import status_of
from c8league.cli.lazy import Entry, Noun, Target, lazy_group
from c8league.cli.output import err, said
from c8league.errors import C8LeagueError, Interrupted
from c8league.interrupts import (
    exit_status,
    signal_of,
    stop_signals,
    stopped_by,
    stopped_by_signal,
)

INTERRUPTED = exit_status(signal.SIGINT)

# --- the command registry ---
# Each sub-command of the root: where it is ("module:attribute" of a Typer sub-app or a
# command function; for a Noun, its group and each of its commands) and the first
# paragraph of its help. The root's --help and shell completion list them from here;
# a command's module is imported only when it runs or shows its own help
# (c8league.cli.lazy), so that a command loads what it needs only. --help lists them in
# this order.
CLI = "c8league.cli"
SUBCOMMANDS: dict[str, Target] = {
    "demo": Entry(
        f"{CLI}.demo:demo",
        "Play one seeded match and print every hand's deal and the final score. The players\n"
        "are player specs as ``duel`` takes them, so a seed that failed (``bots check``,\n"
        "``match show``) replays with your own bot.",
    ),
    "init": Entry(
        f"{CLI}.init_cmd:init",
        "Create the database (SQLite file c8league.db by default), or upgrade an older one.",
    ),
    "play": Entry(
        f"{CLI}.play_cmd:play",
        "Play one match in the terminal against bots, to the target score (you sit in seat 0).\n"
        "With --event, play your seat of a league event's table of bots; the result is stored.",
    ),
    "report": Entry(
        f"{CLI}.report_cmd:report",
        "Leaderboard, standings, cross-table, head-to-head, statistics and rating history.",
    ),
    "backup": Entry(
        f"{CLI}.backup_cmd:backup",
        "Copy the database to FILE, consistent even while another command writes to it\n"
        "(SQLite's online backup). On PostgreSQL, says how to use pg_dump.",
    ),
    "restore": Entry(
        f"{CLI}.backup_cmd:restore",
        "Put the copy FILE in place of the database (--force to replace one that exists;\n"
        "it is kept beside it). The copy is checked whole first; one that is damaged, from a\n"
        "newer c8league, or changed outside c8league is refused. An older one is upgraded.",
    ),
    "copy": Entry(
        f"{CLI}.copy_cmd:copy",
        "Copy the whole database into another (--to URL) or another into it (--from URL): a\n"
        "SQLite file or a PostgreSQL database, every row in one transaction, compared after.",
    ),
    "verify": Entry(
        f"{CLI}.verify_cmd:verify",
        "Check that the record is as c8league wrote it: every result, round, membership\n"
        "and audit entry against its digest in the record's chain, and every link of the\n"
        "chain. Names the first record changed outside c8league (exit 1), else prints the\n"
        "chain's head, to publish.",
    ),
    "serve": Entry(
        f"{CLI}.serve_cmd:serve",
        "Serve the league to the players' phones: the round's tables, standings, ratings,\n"
        "replays, duels and ladders; the organiser's page with the token it prints.",
    ),
    "rules": Entry(f"{CLI}.rules_cmd:app", "Rule presets and house-rule options."),
    "league": Noun(
        f"{CLI}.league:app",
        "Leagues: import league files, list and show them.",
        {
            "import": f"{CLI}.league.files:import_",
            "list": f"{CLI}.league.reading:list_",
            "standings": f"{CLI}.league.season:standings",
            "show": f"{CLI}.league.reading:show",
            "history": f"{CLI}.league.history:history",
        },
    ),
    "players": Noun(
        f"{CLI}.players:app",
        "Players: people and bots entered in leagues.",
        {
            "add": f"{CLI}.players.editing:add",
            "edit": f"{CLI}.players.editing:edit",
            "list": f"{CLI}.players.reading:list_",
            "show": f"{CLI}.players.reading:show",
            "remove": f"{CLI}.players.editing:remove",
            "withdraw": f"{CLI}.players.editing:withdraw",
            "reinstate": f"{CLI}.players.editing:reinstate",
            "rename": f"{CLI}.players.editing:rename",
            "merge": f"{CLI}.players.editing:merge",
        },
    ),
    "ladder": Entry(
        f"{CLI}.ladder_cmd:app",
        "Ladders: a league's bots played step after step, for as long as it runs.",
    ),
    "event": Noun(
        f"{CLI}.event:app",
        "Events: pair, run, resume, status, standings.",
        {
            "pair": f"{CLI}.event.tables:pair",
            "run": f"{CLI}.event.running:run",
            "resume": f"{CLI}.event.running:resume",
            "status": f"{CLI}.event.reading:status",
            "standings": f"{CLI}.event.reading:standings",
            "sheet": f"{CLI}.event.tables:sheet",
            "swap": f"{CLI}.event.tables:swap",
            "move": f"{CLI}.event.tables:move",
            "unpair": f"{CLI}.event.tables:unpair",
            "publish": f"{CLI}.event.tables:publish",
            "absent": f"{CLI}.event.tables:absent",
            "present": f"{CLI}.event.tables:present",
            "unpublish": f"{CLI}.event.tables:unpublish",
            "balance": f"{CLI}.event.reading:balance",
        },
    ),
    "result": Entry(
        f"{CLI}.result_cmd:app", "Results of club matches: add, edit, void, list, history."
    ),
    "bots": Entry(f"{CLI}.bots_cmd:app", "Player plugins: list, show options, check conformance."),
    "ratings": Entry(
        f"{CLI}.ratings_cmd:app", "Ratings: the leaderboard, rebuilding from results, predictions."
    ),
    "duel": Entry(
        f"{CLI}.duel_cmd:app",
        "Duels: is bot A better than bot B? Plays A against B on duplicate deals until a "
        "sequential test (SPRT) decides.",
    ),
    "match": Entry(f"{CLI}.match_cmd:app", "Matches: show a stored match, move by move."),
    "games": Entry(
        f"{CLI}.games_cmd:app", "Games: export the games of an event, a duel or a league."
    ),
}
# --- end of the command registry ---

app = typer.Typer(
    name="c8league",
    help="Crazy Eights tournaments and leagues: rules engine, bots, events, ratings, reports.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    cls=lazy_group(SUBCOMMANDS),
)


def _version(value: bool) -> None:
    if value:
        typer.echo(about.report())
        raise typer.Exit()


@app.callback()
def _root(
    db: Annotated[
        str | None,
        typer.Option(
            "--db",
            envvar="C8LEAGUE_DB",
            help="Database: a SQLite file or any SQLAlchemy URL (default: c8league.db). "
            "It may also follow the command (c8league event standings EV --db FILE).",
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


DB_OPTION = "--db"


def db_first(argv: Sequence[str]) -> list[str]:
    """``argv`` with each ``--db FILE`` (or ``--db=FILE``) given after the command moved
    before it, where the root takes it: ``--db`` is one option of every command, written
    where a user writes it. Nothing after ``--`` is moved."""
    front: list[str] = []
    rest: list[str] = []
    args = list(argv)
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "--":
            rest.extend(args[i:])
            break
        if arg == DB_OPTION and i + 1 == len(args):
            return [*front, arg]  # no value: the root says that it needs one
        if arg == DB_OPTION:
            front.extend(args[i : i + 2])
            i += 2
            continue
        if arg.startswith(DB_OPTION + "="):
            front.append(arg)
        else:
            rest.append(arg)
        i += 1
    return front + rest


def _main(argv: Sequence[str] | None) -> tuple[int, bool]:
    """The exit status, and whether a line said that the command was stopped."""
    command = typer.main.get_command(app)
    try:
        result = command.main(
            args=db_first(sys.argv[1:] if argv is None else argv),
            prog_name="c8league",
            standalone_mode=False,
        )
    except Interrupted as exc:
        err.print(f"[bold red]{escape(str(exc))}[/]", markup=True, highlight=False)
        return status_of(exc), True
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
        return status_of(exc), False
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
    if "_C8LEAGUE_COMPLETE" in os.environ:
        return
    notice = about.install_notice(Path(typer.get_app_dir("c8league")))
    if notice is not None:
        err.print(notice, style="yellow", highlight=False, markup=False)


run = cli_run
"""The console-script entry point (``c8league.cli.run``), under its earlier name."""
