"""Reading the leagues and their players: the listings of ``players list``, ``league
list`` and ``league show``, as plain values. Changes (importing a league file, entering,
editing and removing players) are in :mod:`c8league.league.leagues` and
:mod:`c8league.league.players`; this module needs neither the league file's models nor
the player plugins."""

from __future__ import annotations

import json
from typing import Any

from c8league.engine.rules import Rules
from c8league.league.choices import second_player_confirms
from c8league.league.house_rules import house_rules
from c8league.league.status import member_statuses
from c8league.standings import StandingRules
from c8league.storage import leagues as stored_leagues
from c8league.storage import versions as stored_versions
from c8league.storage.database import Database
from c8league.storage.models import Entrant

__all__ = ["list_leagues", "list_players", "show_league", "show_player"]


def list_players(db: Database, league: str | None = None) -> list[dict[str, Any]]:
    """Every registered player (or a league's members), with its status: ``status``
    (``active``, ``withdrawn`` or ``retired``) and, in a league, the change that brought
    it (``membership``: "withdrew after round 2 of evening-2", see
    :mod:`c8league.league.status`); without a league, ``withdrawn_from`` lists the
    leagues a player withdrew from."""
    with db.session() as session:
        if league is not None:
            lg = stored_leagues.get_league(session, league)
            assert lg.id is not None
            entrants = stored_leagues.league_members(session, lg.id)
            statuses = member_statuses(session, lg)
            return [
                {
                    **_player(e),
                    **statuses[e.id or 0].to_dict(),
                    "status_text": statuses[e.id or 0].text(),
                }
                for e in entrants
            ]
        entrants = stored_leagues.all_entrants(session)
        withdrawn: dict[int, list[dict[str, Any]]] = {}
        for lg in stored_leagues.all_leagues(session):
            for entrant_id, st in member_statuses(session, lg).items():
                if st.status == "withdrawn":
                    withdrawn.setdefault(entrant_id, []).append({"league": lg.name, **st.to_dict()})
        rows = []
        for e in entrants:
            left = withdrawn.get(e.id or 0, [])
            text = "retired" if e.retired else "active"
            for w in left:
                text += f"; {w['league']}: {w['membership'] or 'withdrawn'}"
            rows.append(
                {
                    **_player(e),
                    "status": "retired" if e.retired else "active",
                    "withdrawn_from": left,
                    "status_text": text,
                }
            )
        return rows


def _player(e: Entrant) -> dict[str, Any]:
    return {
        "name": e.name,
        "kind": e.kind,
        "plugin": e.plugin,
        "options": json.loads(e.options),
        "plugin_version": e.plugin_version,
        "retired": e.retired,
    }


def list_leagues(db: Database) -> list[dict[str, Any]]:
    """Every league with its rules preset, table sizes, entrant count and events."""
    with db.session() as session:
        return [
            {
                "name": lg.name,
                "title": lg.title,
                "preset": lg.preset,
                "table_sizes": json.loads(lg.table_sizes),
                "entrants": len(stored_leagues.league_members(session, lg.id or 0)),
                "events": [e.name for e in stored_leagues.league_events(session, lg.id or 0)],
            }
            for lg in stored_leagues.all_leagues(session)
        ]


def _standing(rules: StandingRules) -> dict[str, Any]:
    return {
        "first_round": rules.first_round,
        "tiebreaks": list(rules.tiebreaks),
        "season": str(rules.season),
    }


def show_league(db: Database, name: str) -> dict[str, Any]:
    """A league's rules, rating settings, entrants and events."""
    with db.session() as session:
        lg = stored_leagues.get_league(session, name)
        members = stored_leagues.league_members(session, lg.id or 0)
        events = stored_leagues.league_events(session, lg.id or 0)
        statuses = member_statuses(session, lg)
        return {
            "name": lg.name,
            "title": lg.title,
            "preset": lg.preset,
            "rules": json.loads(lg.rules),
            "house_rules": house_rules(Rules.from_json(lg.rules), lg.preset),
            "rating": json.loads(lg.rating),
            **_standing(StandingRules.from_json(lg.standing)),
            "confirm_reports": "second-player" if second_player_confirms(lg) else "organiser",
            "entrants": [
                {
                    "name": e.name,
                    "kind": e.kind,
                    "plugin": e.plugin,
                    **statuses[e.id or 0].to_dict(),
                    "status_text": statuses[e.id or 0].text(),
                }
                for e in members
            ],
            "events": [
                {
                    "name": e.name,
                    "format": e.format,
                    "table_size": e.table_size,
                    "seed": e.seed,
                    "duplicate": e.duplicate,
                    "played_by": e.played_by,
                }
                for e in events
            ],
        }


def show_player(db: Database, name: str) -> dict[str, Any]:
    """A player and, for a bot, every version of it that played (oldest first), each with
    its first and last match and its results (``players show``)."""
    with db.session() as session:
        entrant = stored_leagues.get_entrant(session, name)
        assert entrant.id is not None
        played = stored_versions.played(session, entrant.id)
        return {
            **_player(entrant),
            "status": "retired" if entrant.retired else "active",
            "leagues": [
                {
                    "league": league.name,
                    "withdrawn": bool(
                        (m := stored_leagues.membership(session, league.id or 0, entrant.id))
                        and m.withdrawn
                    ),
                }
                for league in stored_leagues.entrant_leagues(session, entrant.id)
            ],
            "versions": [
                {
                    "number": number,
                    "label": v.label,
                    "details": v.details,
                    "first_seen": v.created_at.isoformat(sep=" ", timespec="seconds"),
                    "matches": v.matches,
                    "wins": v.wins,
                    "forfeits": v.forfeits,
                    "mean_place": round(v.mean_place, 3),
                    "first_match": v.first_match,
                    "last_match": v.last_match,
                }
                for number, v in enumerate(played, start=1)
            ],
        }
