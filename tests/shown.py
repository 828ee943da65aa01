"""What a command prints, compared exactly where the output is the product: a listing,
a sheet, a duel's summary.

The expected text is kept in ``tests/fixtures/shown/NAME.txt``, as a terminal 80 columns
wide shows it (``conftest`` sets the width). The comparison is exact after one
normalisation, the one ``examples`` makes too: trailing spaces are dropped, and so are
empty lines at the end. Text that changes from run to run (a temporary folder, the time
of a row) is replaced before the comparison, as the test says (see ``assert_shown``).

``C8LEAGUE_UPDATE_SHOWN=1 pytest tests/test_foo.py`` writes what the commands print now
as the expected text, to review with ``git diff`` when an output is meant to change.
"""

from __future__ import annotations

import difflib
import os
import re
from importlib.metadata import version
from pathlib import Path

SHOWN = Path(__file__).parent / "fixtures" / "shown"
UPDATE = "C8LEAGUE_UPDATE_SHOWN"
WHEN = re.compile(r"\d{4}-\d\d-(\d\d)?…|\d{4}-\d\d-\d\d|\d\d:\d\d")
"""The date (or its start, when a column cuts it short) and time of an audit trail's row."""
TRUESKILL = f"trueskill {version('trueskill')}"
"""The rating system as a leaderboard names it, with the version installed."""


def lines(text: str) -> list[str]:
    """``text``'s lines without trailing spaces, and without empty lines at the end."""
    found = [line.rstrip() for line in text.splitlines()]
    while found and not found[-1]:
        found.pop()
    return found


def assert_shown(printed: str, name: str, **replace: str | re.Pattern[str]) -> None:
    """``printed`` is the text kept as ``name``. Each keyword names a text of this run
    that is kept as ``<keyword>`` (``tmp=str(tmp_path)``), or a pattern of texts that
    are kept as ``~`` repeated to their width, so that a table stays aligned
    (``when=re.compile(r"\\d\\d:\\d\\d")``)."""
    for variable, word in replace.items():
        if isinstance(word, str):
            printed = printed.replace(word, f"<{variable}>")
        else:
            printed = word.sub(lambda found: "~" * len(found.group()), printed)
    got = "\n".join(lines(printed)) + "\n"
    path = SHOWN / f"{name}.txt"
    if os.environ.get(UPDATE):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(got, encoding="utf-8")
        return
    expected = path.read_text(encoding="utf-8")
    if got != expected:
        diff = difflib.unified_diff(
            expected.splitlines(), got.splitlines(), f"{name}.txt", "printed", lineterm=""
        )
        raise AssertionError(f"{name}: the output differs from {path}\n" + "\n".join(diff))
