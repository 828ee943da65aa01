"""Events: pairing rounds (:mod:`~c8league.events.pairing`), running bot matches
(:mod:`~c8league.events.running`), and status, standings and balance
(:mod:`~c8league.events.status`).

The flow is one way: stored entrants and results → a schedule (pure functions in
``c8league.schedule``) → match rows → the runner → results and ratings in storage.
"""

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from c8league.events.pairing import pair_next_round, pair_round, planned_rounds
    from c8league.events.running import (
        COMMIT_SECONDS,
        MATCH_SECONDS,
        MAX_MATCH_SECONDS,
        RunSummary,
        check_match_seconds,
        run_event,
    )
    from c8league.events.season import SeasonTable, season_table
    from c8league.events.status import (
        EventStatus,
        StandingRow,
        event_balance,
        event_standings,
        event_status,
        event_status_in,
        event_tiebreaks,
    )

# The names above by module, imported on first use: ``event standings`` needs the
# status module only, not the runner behind ``run_event``.
_HOMES = {
    "pairing": ("pair_next_round", "pair_round", "planned_rounds"),
    "running": (
        "COMMIT_SECONDS",
        "MATCH_SECONDS",
        "MAX_MATCH_SECONDS",
        "RunSummary",
        "check_match_seconds",
        "run_event",
    ),
    "season": ("SeasonTable", "season_table"),
    "status": (
        "EventStatus",
        "StandingRow",
        "event_balance",
        "event_standings",
        "event_tiebreaks",
        "event_status",
        "event_status_in",
    ),
}

if not TYPE_CHECKING:
    from c8league._lazy import lazy_exports

    __getattr__, __dir__ = lazy_exports(__name__, _HOMES, globals())


__all__ = [
    "COMMIT_SECONDS",
    "MATCH_SECONDS",
    "MAX_MATCH_SECONDS",
    "EventStatus",
    "RunSummary",
    "SeasonTable",
    "StandingRow",
    "check_match_seconds",
    "event_balance",
    "event_standings",
    "event_status",
    "event_status_in",
    "event_tiebreaks",
    "pair_next_round",
    "pair_round",
    "planned_rounds",
    "run_event",
    "season_table",
]
