"""The library says what happened; only the command line (``c8league/cli``) turns it
into exit statuses (``c8league.cli.exits``)."""

from __future__ import annotations

import ast
from pathlib import Path

from c8league import errors
from c8league.cli.exits import STATUS, status_of, status_of_kind

PACKAGE = Path(__file__).resolve().parents[1] / "c8league"


def test_no_exit_status_outside_the_command_line() -> None:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.relative_to(PACKAGE).parts[0] == "cli":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            name = node.id if isinstance(node, ast.Name) else getattr(node, "attr", None)
            if name == "exit_code":
                found.append(f"{path.relative_to(PACKAGE)}:{getattr(node, 'lineno', 0)}")
    assert found == []


def test_every_error_class_has_one_status() -> None:
    """The table's first match decides; a subclass of a usage error is a usage error."""
    assert status_of_kind(errors.NoDatabase) == 2  # a NotFoundError
    assert status_of_kind(errors.ResultError) == 1  # not in the table: refused
    assert status_of(errors.Interrupted("stopped")) == 130
    assert status_of(errors.Interrupted("stopped", signum=1)) == 129
    assert all(issubclass(kind, errors.C8LeagueError) for kind, _ in STATUS)
