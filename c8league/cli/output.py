"""Consoles shared by the commands: results on stdout, messages and errors on stderr."""

from __future__ import annotations

import json
import sys
from typing import Any

from rich.console import Console

from c8league.cli import record_words
from c8league.errors import C8LeagueError, DraftSeatsWithdrawn, NoDatabase
from c8league.findings import CopyRefused, RecordChanged

out = Console(highlight=False, soft_wrap=False)
err = Console(stderr=True, highlight=False, soft_wrap=True)


def print_json(data: Any) -> None:
    """Machine-readable output: plain JSON on stdout, no colour, no wrapping."""
    sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")


def said(exc: C8LeagueError) -> str:
    """An error's message as the command line says it: each parameter it names written
    as that parameter's option (``match_seconds`` → ``--match-seconds``)."""
    if isinstance(exc, RecordChanged):
        return record_words.refused(exc.finding)
    if isinstance(exc, CopyRefused):
        return record_words.copy_refused(exc)
    if isinstance(exc, NoDatabase):
        return (
            f"{exc}: run the command in the folder that holds it, or name it with --db FILE "
            "before or after the command (or $C8LEAGUE_DB); c8league league import FILE "
            f"(or c8league init) creates one at {exc.where}"
        )
    if isinstance(exc, DraftSeatsWithdrawn):
        return (
            f"{exc}: pair it again (c8league event unpair {exc.event}, then event pair "
            f"{exc.event}), or publish it as it is with --force"
        )
    return exc.worded(lambda param: "--" + param.replace("_", "-"))
