"""Events: pairing rounds (:mod:`~c8league.events.pairing`), running bot matches
(:mod:`~c8league.events.running`), and status, standings and balance
(:mod:`~c8league.events.status`).

The flow is one way: stored entrants and results → a schedule (pure functions in
``c8league.schedule``) → match rows → the runner → results and ratings in storage.
"""

from c8league.events.pairing import pair_next_round, pair_round, planned_rounds
from c8league.events.running import (
    COMMIT_SECONDS,
    MATCH_SECONDS,
    MAX_MATCH_SECONDS,
    RunSummary,
    check_match_seconds,
    run_event,
)
from c8league.events.status import (
    EventStatus,
    StandingRow,
    event_balance,
    event_standings,
    event_status,
    event_status_in,
)

__all__ = [
    "COMMIT_SECONDS",
    "MATCH_SECONDS",
    "MAX_MATCH_SECONDS",
    "EventStatus",
    "RunSummary",
    "StandingRow",
    "check_match_seconds",
    "event_balance",
    "event_standings",
    "event_status",
    "event_status_in",
    "pair_next_round",
    "pair_round",
    "planned_rounds",
    "run_event",
]
