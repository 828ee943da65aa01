"""The command line: the command registry (``c8league.cli.main``), a Typer sub-app per
noun, and a module per group of commands that need the same imports. The only package
that imports typer."""

from __future__ import annotations

import gc
import sys

from c8league.interrupts import exit_status, signal_of, stop_signals, stopped_by

GC_THRESHOLD = 10_000
"""The cyclic garbage collector's first threshold for a command (Python's default is
700). A command imports a few hundred modules, creating objects by the million: at the
default, the collector runs through them hundreds of times, a quarter of a database
command's time. Collections still happen, fewer of them."""


def run() -> None:
    """Console-script entry point. Ctrl-C, SIGTERM or SIGHUP while the command line is
    still loading ends with one line too (``c8league.cli.main`` handles them once a
    command runs).

    At the end, every object left is frozen out of the collector (:func:`gc.freeze`): the
    interpreter's collections at exit would otherwise traverse them all again, for a
    fifth of a second, to free memory the process gives back anyway. Exit handlers run
    as usual. The databases a command opened are closed before (by
    ``c8league.cli.main.main``, however the command ended), so that nothing frozen holds
    a connection and SQLite's write-ahead log is folded back into the database file."""
    gc.set_threshold(GC_THRESHOLD, *gc.get_threshold()[1:])
    try:
        with stop_signals():
            from c8league.cli.main import main  # inside stop_signals: a stop while loading says so

            code = main()
    except KeyboardInterrupt as exc:
        sys.stderr.write(f"{stopped_by(exc)}\n")
        code = exit_status(signal_of(exc))
    finally:
        gc.freeze()
    sys.exit(code)
