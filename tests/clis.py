"""The command line as tests run it: in the test's own process, on one database, with
what it printed read back (one helper for every test module)."""

from __future__ import annotations

from pathlib import Path

import pytest

from c8league.cli.main import main


def cli(db: Path | str, *args: str) -> int:
    """Run ``c8league --db DB ARGS…`` here; its exit status."""
    return main(["--db", str(db), *args])


def output(capsys: pytest.CaptureFixture[str], db: Path | str, *args: str, code: int = 0) -> str:
    """What ``c8league --db DB ARGS…`` printed, the command ending with ``code``."""
    capsys.readouterr()
    status = cli(db, *args)
    said = capsys.readouterr()
    assert status == code, said.err
    return said.out
