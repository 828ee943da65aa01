"""The command line: one Typer sub-app per noun. The only package that imports typer."""

from __future__ import annotations

import gc
import sys

GC_THRESHOLD = 10_000
"""The cyclic garbage collector's first threshold for a command (Python's default is
700). A command imports a few hundred modules, creating objects by the million: at the
default, the collector runs through them hundreds of times, a quarter of a database
command's time. Collections still happen, fewer of them."""


def run() -> None:
    """Console-script entry point. Ctrl-C while the command line is still loading ends
    with one line too (``c8league.cli.main`` handles it once a command runs).

    At the end, every object left is frozen out of the collector (:func:`gc.freeze`): the
    interpreter's collections at exit would otherwise traverse them all again, for a
    fifth of a second, to free memory the process gives back anyway. Exit handlers run
    as usual. The databases a command opened are closed before (by
    ``c8league.cli.main.main``, however the command ended), so that nothing frozen holds
    a connection and SQLite's write-ahead log is folded back into the database file."""
    gc.set_threshold(GC_THRESHOLD, *gc.get_threshold()[1:])
    try:
        from c8league.cli.main import main

        code = main()
    except KeyboardInterrupt:
        sys.stderr.write("interrupted\n")
        code = 130
    finally:
        gc.freeze()
    sys.exit(code)
