"""Who makes a result reported from the table final: a choice of the league, kept with
its standings choices (the ``standing`` column's JSON). A module of its own, so that
the commands that only read a league do not load the league files' models."""

from __future__ import annotations

import json

from c8league.storage.models import League

CONFIRM_REPORTS = "confirm_reports"
"""The key of the league's choices (the ``standing`` column's JSON) that says who makes a
result reported from the table final (the league file's ``confirm_reports``); left out:
the organiser."""


def second_player_confirms(league: League) -> bool:
    """Whether a second player of a table may make the result reported there final."""
    return bool(json.loads(league.standing or "{}").get(CONFIRM_REPORTS) == "second-player")
