"""A report as plain records: dicts of numbers, strings, booleans and ``None``.

These records are the JSON shape (documented in ``docs/report-json.md``) and the
rows of the CSV tables, so both always agree.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any

from c8league.ratings.leaderboard import LeaderboardRow
from c8league.reports.model import (
    CrossTable,
    Endings,
    EntrantStats,
    EventSection,
    Footer,
    HistorySeries,
    PairRecord,
    Report,
    RoundSection,
)
from c8league.standings import explain_tiebreaks

__all__ = [
    "CSV_TABLES",
    "JSON_FORMAT",
    "JSON_VERSION",
    "csv_rows",
    "leaderboard_records",
    "report_document",
]

JSON_FORMAT = "c8league-report"
JSON_VERSION = 4

Record = dict[str, Any]


def _number(value: float | None) -> float | None:
    """A float for JSON: ``None`` for NaN and infinities, which JSON cannot hold."""
    if value is None or not math.isfinite(value):
        return None
    return value


def _time(value: datetime | None) -> str | None:
    """ISO 8601 with the UTC offset (a stored time is UTC, read back without one)."""
    if value is None:
        return None
    return (value if value.tzinfo is not None else value.replace(tzinfo=UTC)).isoformat()


def leaderboard_records(rows: Sequence[LeaderboardRow]) -> list[Record]:
    return [
        {
            "rank": r.rank,
            "name": r.name,
            "mu": r.mu,
            "sigma": r.sigma,
            "conservative": r.conservative,
            "matches": r.matches,
            "wins": r.wins,
            "win_rate": r.win_rate,
            "average_place": _number(r.average_place),
            "average_place_normalised": _number(r.average_place_normalised),
            "provisional": r.provisional,
            "active": r.active,
            "prob_stronger_than_next": r.prob_stronger_than_next,
        }
        for r in rows
    ]


def _crosstable(table: CrossTable | None) -> Record | None:
    if table is None:
        return None
    return {
        "entrants": list(table.entrants),
        "cells": [[None if c is None else list(c) for c in row] for row in table.cells],
    }


def _event(section: EventSection) -> Record:
    return {
        "name": section.name,
        "format": section.format,
        "table_size": section.table_size,
        "matches_done": section.matches_done,
        "matches_void": section.matches_void,
        "matches_pending": section.matches_pending,
        "tiebreaks": list(section.tiebreaks),
        "order": explain_tiebreaks(section.tiebreaks),
        "standings": [
            {
                "rank": s.rank if s.played else None,
                "played": s.played,
                "name": s.name,
                "match_points": s.match_points,
                "opponents_match_points": s.opponents_match_points,
                "game_points": s.game_points,
                "wins": s.wins,
                "matches": s.matches,
                "byes": s.byes,
                "sonneborn_berger": s.sonneborn_berger,
                "status": s.status,
                "membership": s.membership,
                "opponents_average": s.opponents_average,
                "game_share": s.game_share,
                "direct": s.direct,
                "absent_rounds": list(s.absent_rounds),
            }
            for s in section.standings
        ],
        "crosstable": _crosstable(section.crosstable),
        "played_by": section.played_by,
        "rounds_total": section.rounds_total,
        "rounds": [_round(r) for r in section.rounds],
    }


def _round(section: RoundSection) -> Record:
    return {
        "number": section.number,
        "published": section.published,
        "tables": [
            {
                "table": t.table,
                "deal": t.deal,
                "status": t.status,
                "ended": t.ended,
                "target": t.target,
                "forfeit_reason": t.forfeit_reason,
                "seats": [
                    {
                        "seat": s.seat,
                        "name": s.name,
                        "score": s.score,
                        "place": s.place,
                        "forfeit": s.forfeit,
                    }
                    for s in t.seats
                ],
            }
            for t in section.tables
        ],
        "byes": list(section.byes),
    }


def _pair(p: PairRecord) -> Record:
    return {
        "a": p.a,
        "b": p.b,
        "meetings": p.meetings,
        "a_ahead": p.a_ahead,
        "b_ahead": p.b_ahead,
        "level": p.level,
        "a_ahead_predicted": p.a_ahead_predicted,
    }


def _entrant(e: EntrantStats) -> Record:
    return {
        "name": e.name,
        "matches": e.matches,
        "wins": e.wins,
        "average_place": e.average_place,
        "average_place_normalised": e.average_place_normalised,
        "hands": e.hands,
        "hands_won": e.hands_won,
        "average_points_per_hand": e.average_points_per_hand,
        "forfeits": dict(e.forfeits),
    }


def _endings(e: Endings) -> Record:
    return {
        "matches": e.matches,
        "void": e.void,
        "pending": e.pending,
        "ended": dict(e.ended),
        "forfeits": dict(e.forfeits),
        "hands": dict(e.hands),
    }


def _history(series: HistorySeries) -> Record:
    return {
        "name": series.name,
        "sequence": list(series.sequences),
        "mu": list(series.mu),
        "sigma": list(series.sigma),
    }


def _footer(f: Footer) -> Record:
    last = f.last_match
    return {
        "rating_system": f.rating_system,
        "rating_version": f.rating_version,
        "parameters": dict(f.parameters),
        "matches": f.matches,
        "last_match": None
        if last is None
        else {
            "sequence": last.sequence,
            "event": last.event,
            "finished_at": _time(last.finished_at),
        },
        "generated_at": _time(f.generated_at),
        "c8league_version": f.c8league_version,
    }


def report_document(report: Report) -> Record:
    """The whole report as one JSON-ready dict (``docs/report-json.md``)."""
    return {
        "format": JSON_FORMAT,
        "version": JSON_VERSION,
        "scope": report.scope,
        "league": {
            "name": report.league,
            "title": report.title,
            "rules": report.rules,
            "house_rules": list(report.house_rules),
        },
        "event": report.event,
        "provisional_below": report.provisional_below,
        "leaderboard": leaderboard_records(report.leaderboard),
        "events": [_event(s) for s in report.events],
        "head_to_head": [_pair(p) for p in report.head_to_head],
        "entrants": [_entrant(e) for e in report.entrants],
        "endings": _endings(report.endings),
        "rating_history": {
            "initial": {"mu": report.initial_mu, "sigma": report.initial_sigma},
            "entrants": [_history(h) for h in report.history],
        },
        "footer": _footer(report.footer),
        "season": report.season.to_dict() if report.season is not None else None,
        "calibration": _calibration(report),
    }


def _calibration(report: Report) -> Record | None:
    return None if report.calibration is None else report.calibration.to_dict()


# -- CSV tables -------------------------------------------------------------------------------


def _season_rows(report: Report) -> list[Record]:
    """One row per member: rank, name, season points, wins, matches, then each event's
    season points (empty where the member did not play; ``(x)`` where not counted)."""
    if report.season is None:
        return []
    rows: list[Record] = []
    for row in report.season.rows:
        record: Record = {
            "rank": row.rank,
            "name": row.name,
            "points": row.points,
            "wins": row.wins,
            "matches": row.matches,
        }
        for event, score in zip(report.season.events, row.events, strict=True):
            record[event] = "" if score is None else score.points
            if score is not None and not score.counted:
                record[event] = f"({score.points:g})"
        rows.append(record)
    return rows


def _standings_rows(report: Report) -> list[Record]:
    rows: list[Record] = []
    for section in report.events:
        for entry in _event(section)["standings"]:
            absent = " ".join(map(str, entry["absent_rounds"]))
            rows.append({"event": section.name, **entry, "absent_rounds": absent})
    return rows


def _round_rows(report: Report) -> list[Record]:
    """One row per seat of every table of every round shown, then one per bye."""
    rows: list[Record] = []
    for section in report.events:
        for r in section.rounds:
            for t in r.tables:
                for seat in t.seats:
                    rows.append(
                        {
                            "event": section.name,
                            "round": r.number,
                            "table": t.table,
                            "deal": t.deal,
                            "seat": seat.seat,
                            "name": seat.name,
                            "score": seat.score,
                            "place": seat.place,
                            "forfeit": seat.forfeit,
                            "status": t.status,
                        }
                    )
            for name in r.byes:
                rows.append(
                    {
                        "event": section.name,
                        "round": r.number,
                        "table": None,
                        "deal": None,
                        "seat": None,
                        "name": name,
                        "score": None,
                        "place": None,
                        "forfeit": False,
                        "status": "bye",
                    }
                )
    return rows


def _entrant_rows(report: Report) -> list[Record]:
    reasons = sorted({reason for e in report.entrants for reason in e.forfeits})
    rows: list[Record] = []
    for e in report.entrants:
        record = _entrant(e)
        forfeits: dict[str, int] = record.pop("forfeits")
        record["forfeits"] = sum(forfeits.values())
        for reason in reasons:
            record[f"forfeits_{reason}"] = forfeits.get(reason, 0)
        rows.append(record)
    return rows


def _ending_rows(report: Report) -> list[Record]:
    e = report.endings
    rows: list[Record] = [
        {"what": "matches", "kind": "finished", "count": e.matches},
        {"what": "matches", "kind": "void", "count": e.void},
        {"what": "matches", "kind": "pending", "count": e.pending},
    ]
    rows += [{"what": "ended", "kind": k, "count": n} for k, n in e.ended.items()]
    rows += [{"what": "forfeit", "kind": k, "count": n} for k, n in e.forfeits.items()]
    rows += [{"what": "hand", "kind": k, "count": n} for k, n in e.hands.items()]
    return rows


def _history_rows(report: Report) -> list[Record]:
    return [
        {"name": h.name, "sequence": s, "mu": m, "sigma": sd}
        for h in report.history
        for s, m, sd in zip(h.sequences, h.mu, h.sigma, strict=True)
    ]


#: The tables ``--format csv`` can write, each one header row and plain values.
CSV_TABLES: dict[str, Callable[[Report], list[Record]]] = {
    "leaderboard": lambda r: leaderboard_records(r.leaderboard),
    "standings": _standings_rows,
    "season": _season_rows,
    "rounds": _round_rows,
    "head-to-head": lambda r: [_pair(p) for p in r.head_to_head],
    "entrants": _entrant_rows,
    "endings": _ending_rows,
    "history": _history_rows,
}

#: Column names of each CSV table, used when a table has no rows.
CSV_HEADERS: dict[str, tuple[str, ...]] = {
    "leaderboard": (
        "rank", "name", "mu", "sigma", "conservative", "matches", "wins", "win_rate",
        "average_place", "average_place_normalised", "provisional", "active",
        "prob_stronger_than_next",
    ),
    "standings": (
        "event", "rank", "played", "name", "match_points", "opponents_match_points", "game_points",
        "wins", "matches", "byes", "sonneborn_berger", "status", "membership",
        "opponents_average", "game_share", "direct", "absent_rounds",
    ),
    "season": ("rank", "name", "points", "wins", "matches"),
    "rounds": (
        "event", "round", "table", "deal", "seat", "name", "score", "place", "forfeit", "status",
    ),
    "head-to-head": ("a", "b", "meetings", "a_ahead", "b_ahead", "level", "a_ahead_predicted"),
    "entrants": (
        "name", "matches", "wins", "average_place", "average_place_normalised", "hands",
        "hands_won", "average_points_per_hand", "forfeits",
    ),
    "endings": ("what", "kind", "count"),
    "history": ("name", "sequence", "mu", "sigma"),
}  # fmt: skip


def csv_rows(report: Report, table: str) -> tuple[list[str], list[Record]]:
    """The header and rows of one CSV table (a name of :data:`CSV_TABLES`)."""
    rows = CSV_TABLES[table](report)
    header = list(rows[0]) if rows else list(CSV_HEADERS[table])
    return header, rows
