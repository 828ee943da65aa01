"""The engine benchmark runs (a smoke test: figures are printed, never asserted)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "engine.py"


def test_engine_benchmark_prints_a_row_per_policy() -> None:
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--seconds", "0.02", "--players", "2", "--no-peer"],
        capture_output=True,
        text=True,
        check=True,
    )
    lines = done.stdout.splitlines()
    assert lines[0].startswith("engine: ")
    rows = [line.split() for line in lines[2:]]
    assert [row[1] for row in rows] == ["random_playable", "random", "greedy", "random/in-engine"]
    assert all(float(row[3].replace(",", "")) > 0 for row in rows)
