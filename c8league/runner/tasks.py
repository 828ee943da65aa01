"""A match as plain data crossing to a worker, and its report coming back.

Workers build the players from their plugin names and options, play the match and
return a :class:`MatchReport`; they never touch the database. Everything here
pickles cheaply, so the same task runs in-process, in a process pool or on a
Dask worker with identical results.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any

from c8league.engine import Rules
from c8league.errors import PluginError
from c8league.players import registry
from c8league.players.base import Player
from c8league.results import HandReport as HandReport  # re-export
from c8league.results import MatchReport as MatchReport
from c8league.runner.loop import MatchOutcome, play_match


@dataclass(frozen=True, slots=True)
class SeatSpec:
    """Who sits in a seat: a player plugin and its options (JSON)."""

    plugin: str
    options: str = "{}"


@dataclass(frozen=True, slots=True)
class MatchTask:
    match_id: int
    rules: str
    """Every rule option as canonical JSON (``Rules.to_json``)."""
    seats: tuple[SeatSpec, ...]
    seed: int
    match_seconds: float | None = None
    """The match's time limit (see ``runner.loop``); None: none."""


def play_task(task: MatchTask) -> MatchReport:
    """Play one match task. Never raises for a player's fault; a missing plugin or bad
    options come back as ``error`` so the caller can stop the event with a clear line."""
    start = time.perf_counter()
    rules = Rules.from_json(task.rules)
    players: list[Player] = []
    try:
        for spec in task.seats:
            players.append(registry.create(spec.plugin, _options(spec.options)))
    except PluginError as exc:
        for p in players:
            _close(p)
        return MatchReport(task.match_id, (), (), "error", (), 0, None, 0.0, str(exc))
    outcome = play_match(rules, players, task.seed, match_seconds=task.match_seconds)
    hands = hand_reports(outcome)
    return MatchReport(
        match_id=task.match_id,
        placements=outcome.result.placements,
        scores=outcome.result.scores,
        ended=outcome.result.ended,
        hands=hands,
        decisions=outcome.decisions,
        forfeit=outcome.forfeit,
        seconds=time.perf_counter() - start,
    )


def hand_reports(outcome: MatchOutcome) -> tuple[HandReport, ...]:
    """The hands of a played match as stored: results and the records that replay them."""
    return tuple(
        HandReport(r.kind, r.winners, r.points, r.penalties, rec.to_json())
        for r, rec in zip(outcome.hand_results, outcome.records, strict=True)
    )


def _options(text: str) -> dict[str, Any]:
    data = json.loads(text or "{}")
    if not isinstance(data, dict):
        raise PluginError(f"player options must be a JSON object, not {text!r}")
    return data


def _close(player: Player) -> None:
    close = getattr(player, "close", None)
    if close is not None:
        try:
            close()
        except Exception:
            return
