"""Results reported from the table: each table of a published round has a short code
(made when the organiser first asks for the round's codes); a player at the table
types it with the scores, and the result is stored as *reported*, checked as
``result add`` checks it. It becomes the record when the organiser accepts it
(:func:`accept_report`, ``result accept``): then it is added as ``result add`` adds
one, and the audit trail says it was reported with the table's code and accepted by
the organiser. A second report of a table that has one changes nothing: it is refused
with the first one shown. A code works only for its own table of its own round, and
only while that table has no final result.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from c8league.club.corrections import ENTER, Change, TableInfo, add_in, info_in
from c8league.club.entry import CheckedResult, Entry
from c8league.errors import ResultError, UsageError
from c8league.storage import Session, table_codes
from c8league.storage import rounds as stored_rounds
from c8league.storage.database import Database
from c8league.storage.leagues import get_event, league_of_event
from c8league.storage.models import Match, Round


class CodeRefused(ResultError):
    """A code that is no table's, or whose table's result is final."""


class ReportConflict(ResultError):
    """The table has a reported result already; ``reported`` is it."""

    def __init__(self, message: str, reported: dict[str, int]) -> None:
        super().__init__(message, params=["code"])
        self.reported = reported


@dataclass(frozen=True)
class CodedTable:
    """A table found by its code: where it is and what has been reported for it."""

    league: str
    info: TableInfo
    match_id: int
    reported: dict[str, int] | None
    """The scores reported with the code, by name; None: none yet."""


@dataclass(frozen=True)
class RoundCode:
    """One table of a published round, with its code, for the organiser."""

    table: int
    seats: tuple[str, ...]
    code: str
    status: str
    reported: dict[str, int] | None


NO_TABLE = "no table of a published round has this code (it is printed on the table's sheet)"


def _open(found: table_codes.Found | None) -> table_codes.Found:
    if found is None:
        raise CodeRefused(NO_TABLE, params=["code"])
    _, match, round_row, _ = found
    if not round_row.published:
        raise CodeRefused(NO_TABLE, params=["code"])
    if match.status not in ENTER:
        raise CodeRefused(
            f"table {match.table_no}'s result is final: its code no longer works "
            "(the organiser corrects a final result)",
            params=["code"],
        )
    return found


def _reported(text: str | None) -> dict[str, int] | None:
    return None if text is None else dict(json.loads(text)["scores"])


def coded_table(db: Database, code: str) -> CodedTable:
    """The table whose code is ``code``, while its result may be reported."""
    with db.session() as session:
        return _coded(session, _open(table_codes.find(session, code)))


def _coded(session: Session, found: table_codes.Found) -> CodedTable:
    row, match, round_row, event = found
    assert match.id is not None
    return CodedTable(
        league=league_of_event(session, event.id or 0).name,
        info=info_in(session, event, round_row, match),
        match_id=match.id,
        reported=_reported(row.report),
    )


def table_at(db: Database, match_id: int) -> CodedTable:
    """:func:`coded_table` for the table a code was found for before (its match)."""
    with db.session() as session:
        return _coded(session, _open(table_codes.find_match(session, match_id)))


def report_result(db: Database, code: str, scores: dict[str, int]) -> CheckedResult:
    """Store ``scores`` (final scores by name) as the reported result of the code's
    table, checked as ``result add`` checks them. Raises :class:`CodeRefused` for a code
    that is no open table's, :class:`ReportConflict` when the table has a report, and
    the same :class:`ResultError` as ``result add`` for scores that do not fit."""
    with db.writing() as session:
        return _report(session, table_codes.find(session, code), scores)


def report_at(db: Database, match_id: int, scores: dict[str, int]) -> CheckedResult:
    """:func:`report_result` for the table a code was found for before (its match)."""
    with db.writing() as session:
        return _report(session, table_codes.find_match(session, match_id), scores)


def _report(
    session: Session, found: table_codes.Found | None, scores: dict[str, int]
) -> CheckedResult:
    row, match, round_row, event = _open(found)
    assert match.id is not None
    checked = info_in(session, event, round_row, match).check(Entry(scores=scores))
    if row.report is not None or not table_codes.report(
        session, match.id, json.dumps({"scores": scores}, ensure_ascii=False)
    ):
        session.refresh(row)
        raise ReportConflict(
            f"table {match.table_no} has a reported result already; ask the organiser "
            "to correct it",
            _reported(row.report) or {},
        )
    return checked


def round_codes(db: Database, event_name: str) -> tuple[int, list[RoundCode]]:
    """The latest published round of the event and the codes of its tables (made for
    those that have none yet), with what was reported at each."""
    with db.writing() as session:
        _, event = get_event(session, event_name)
        assert event.id is not None
        published = [r for r in stored_rounds.event_rounds(session, event.id) if r.published]
        if not published:
            raise UsageError(f"{event.name} has no published round: no table has a code yet")
        round_row = published[-1]
        assert round_row.id is not None
        tables = stored_rounds.round_tables(session, round_row.id)
        codes = table_codes.codes_of(
            session, [m.id for m, _ in tables if m.id is not None], make=True
        )
        return round_row.number, [
            RoundCode(
                table=m.table_no,
                seats=tuple(info_in(session, event, round_row, m).seats),
                code=codes[m.id or 0].code,
                status=m.status,
                reported=_reported(codes[m.id or 0].report),
            )
            for m, _ in tables
        ]


def accept_report(
    db: Database, event_name: str, table: int, *, by: str = "the organiser"
) -> Change:
    """Make the result reported at ``table`` of the latest published round final: it is
    added as ``result add`` adds one, and the audit trail names the table's code as its
    source and ``by`` as who accepted it."""
    with db.writing() as session:
        league, event = get_event(session, event_name)
        assert event.id is not None
        round_row, match = _reported_table(session, event.id, table)
        assert match.id is not None
        row = table_codes.of_match(session, match.id)
        scores = None if row is None else _reported(row.report)
        if scores is None:
            raise UsageError(
                f"table {table} of round {round_row.number} has no reported result to accept"
            )
        note = f"reported at the table with table {table}'s code; accepted by {by}"
        return add_in(
            session,
            league,
            event,
            table,
            Entry(scores=scores, note=note),
            round_number=round_row.number,
        )


def refuse_report(db: Database, event_name: str, table: int) -> None:
    """Forget the result reported at ``table`` (the table may report again)."""
    with db.writing() as session:
        _, event = get_event(session, event_name)
        assert event.id is not None
        _, match = _reported_table(session, event.id, table)
        assert match.id is not None
        table_codes.clear_report(session, match.id)


def _reported_table(session: Session, event_id: int, table: int) -> tuple[Round, Match]:
    published = [r for r in stored_rounds.event_rounds(session, event_id) if r.published]
    for round_row in reversed(published):
        match = stored_rounds.table_match(session, round_row.id, table)
        if match is not None and match.status in ENTER:
            return round_row, match
    raise UsageError(f"no table {table} of a published round waits for its result")
