"""Run the tests from a source checkout too: without an install, import from ``src``."""

import importlib.util
import sys
from pathlib import Path

if importlib.util.find_spec("c8league_node_example") is None:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
