"""The command line: one Typer sub-app per noun. The only package that imports typer."""

from __future__ import annotations

import sys


def run() -> None:
    """Console-script entry point. Ctrl-C while the command line is still loading ends
    with one line too (``c8league.cli.main`` handles it once a command runs)."""
    try:
        from c8league.cli.main import main

        code = main()
    except KeyboardInterrupt:
        sys.stderr.write("interrupted\n")
        code = 130
    sys.exit(code)
