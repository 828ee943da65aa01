"""Results of a published round entered by hand, and their corrections: adding, editing
and voiding a table's result, each kept in the audit trail. A result entered counts
for ratings from then on; after an edit or a void, the ratings are recomputed from
that result on. Every bad entry raises :class:`ResultError` and writes nothing.
"""

from __future__ import annotations

from typing import Any

from c8league.club.entry import CheckedResult, Entry, check_result
from c8league.engine import Rules
from c8league.errors import NotFoundError, ResultError, UsageError
from c8league.ratings.update import rebuild_ratings, record_results
from c8league.storage import Session, audit
from c8league.storage import results as stored_results
from c8league.storage import rounds as stored_rounds
from c8league.storage.database import Database
from c8league.storage.leagues import get_event
from c8league.storage.models import Event, League, Match


def _table_match(session: Session, event: Event, table: int, round_number: int | None) -> Match:
    round_row = stored_rounds.get_round(session, event, round_number)
    if not round_row.published:
        raise UsageError(
            f"round {round_row.number} of {event.name!r} is not published yet (c8league event "
            "publish)"
        )
    match = stored_rounds.table_match(session, round_row.id, table)
    if match is None:
        raise NotFoundError(f"round {round_row.number} of {event.name!r} has no table {table}")
    return match


def _seat_names(session: Session, match: Match) -> list[str]:
    return [e.name for e in stored_rounds.seated(session, match.id)]


def table_seats(db: Database, event_name: str, table: int, round_number: int | None) -> list[str]:
    """The names seated at a published table, in seat order."""
    with db.session() as session:
        _, event = get_event(session, event_name)
        return _seat_names(session, _table_match(session, event, table, round_number))


def _open_table(
    session: Session, event_name: str, table: int, round_number: int | None, status: str
) -> tuple[League, Match]:
    """The league and match of a published table, which must have ``status``."""
    league, event = get_event(session, event_name)
    match = _table_match(session, event, table, round_number)
    if match.status != status:
        if status == "pending":
            raise ResultError(
                f"table {table} already has a result ({match.status}); use result edit or void"
            )
        raise ResultError(f"table {table} has no result to change ({match.status})")
    assert league.id is not None
    return league, match


def _check_entry(session: Session, match: Match, entry: Entry) -> CheckedResult:
    return check_result(
        _seat_names(session, match),
        Rules.from_json(match.rules),
        scores=entry.scores,
        hands=entry.hands,
        forfeit=entry.forfeit,
        where=f"table {match.table_no}",
    )


def add_result(
    db: Database, event_name: str, table: int, entry: Entry, *, round_number: int | None = None
) -> CheckedResult:
    """Enter the result of a published table; it counts for ratings from now on."""
    with db.writing() as session:
        league, match = _open_table(session, event_name, table, round_number, "pending")
        checked = _check_entry(session, match, entry)
        record_results(session, league, [(match, checked.result)])
        assert match.id is not None
        audit.record(session, match.id, "add", None, checked.to_dict(), entry.note)
        return checked


def edit_result(
    db: Database, event_name: str, table: int, entry: Entry, *, round_number: int | None = None
) -> CheckedResult:
    """Correct a stored result; it keeps its place in the order of results, and the
    ratings are recomputed from it on."""
    with db.writing() as session:
        league, match = _open_table(session, event_name, table, round_number, "done")
        before = stored_results.stored_result(session, match)
        checked = _check_entry(session, match, entry)
        sequence = match.sequence
        assert sequence is not None and match.id is not None
        stored_results.clear_result(session, match, status="done")
        stored_results.store_result(session, match, checked.result, sequence)
        rebuild_ratings(session, league.id or 0, from_sequence=sequence)
        audit.record(session, match.id, "edit", before, checked.to_dict(), entry.note)
        return checked


def void_result(
    db: Database, event_name: str, table: int, *, round_number: int | None = None, note: str = ""
) -> None:
    """Void a stored result: it no longer counts for standings or ratings (recomputed)."""
    with db.writing() as session:
        league, match = _open_table(session, event_name, table, round_number, "done")
        before = stored_results.stored_result(session, match)
        sequence = match.sequence
        assert sequence is not None and match.id is not None
        stored_results.clear_result(session, match, status="void")
        rebuild_ratings(session, league.id or 0, from_sequence=sequence)
        audit.record(session, match.id, "void", before, None, note)


def audit_trail(db: Database, event_name: str) -> list[dict[str, Any]]:
    """Every add, edit and void of the event's results, oldest first."""
    with db.session() as session:
        _, event = get_event(session, event_name)
        assert event.id is not None
        return audit.trail(session, event.id)
