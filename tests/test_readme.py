"""The README's code runs as written: the library example and the 20-line bot."""

from __future__ import annotations

import re
from pathlib import Path

from c8league.runner.conformance import check_player

README = (Path(__file__).resolve().parents[1] / "README.md").read_text()


def python_blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", README, flags=re.S)


def test_library_example_runs(capsys: object) -> None:
    block = next(b for b in python_blocks() if "from c8league.engine import Match" in b)
    exec(compile(block, "README", "exec"), {})


def test_twenty_line_bot_passes_the_check() -> None:
    block = next(b for b in python_blocks() if "class EightsLast" in b)
    assert len(block.strip().splitlines()) <= 20
    namespace: dict[str, object] = {}
    exec(compile(block, "README", "exec"), namespace)
    report = check_player(namespace["EightsLast"], {}, games=2)
    assert report.passed, report.failures()
