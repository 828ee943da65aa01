"""The conformance check's defaults, apart from the check so that ``c8league bots check
--help`` shows them without importing the check, its players and the engine (see
:mod:`c8league.runner.conformance`, which re-exports them)."""

from __future__ import annotations

DEFAULT_PRESETS: tuple[str, ...] = ("pagat", "basic", "encyclopedia", "olsen", "countdown")
DEFAULT_GAMES = 5
#: The time limit of one game of the check: a player still deciding then is stuck.
CHECK_MATCH_SECONDS = 60.0
