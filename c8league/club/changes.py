"""Changes to a drafted round before it is published: swapping two entrants, moving one
to another table (a warning names any repeat meeting this creates), and publishing."""

from __future__ import annotations

from dataclasses import dataclass, field

from c8league.engine import Rules
from c8league.errors import UsageError
from c8league.storage import Session
from c8league.storage import rounds as stored_rounds
from c8league.storage.database import Database
from c8league.storage.leagues import entrant_names, get_entrant, get_event
from c8league.storage.models import Event, Round
from c8league.storage.rounds import Tables


@dataclass
class ChangeResult:
    warnings: list[str] = field(default_factory=list)


def _draft_round(session: Session, event: Event) -> tuple[Round, Tables]:
    """The event's latest round, which must not be published yet, and its tables."""
    round_row = stored_rounds.get_round(session, event, None)
    if round_row.published:
        raise UsageError(
            f"round {round_row.number} of {event.name!r} is published; its tables are fixed"
        )
    assert event.id is not None
    tables = stored_rounds.seatings(session, event.id).get(round_row.id or 0, {})
    return round_row, tables


def _met_before(session: Session, event: Event, round_row: Round) -> set[frozenset[int]]:
    """The pairs of entrants who met at a table of another round of the event."""
    assert event.id is not None
    return {
        frozenset((a, b))
        for round_id, tables in stored_rounds.seatings(session, event.id).items()
        if round_id != round_row.id
        for seats in tables.values()
        for a in seats
        for b in seats
        if a < b
    }


def _rewrite(session: Session, event: Event, round_row: Round, changed: Tables) -> ChangeResult:
    """Seat ``changed`` tables anew; warn of every pair there who met before."""
    stored_rounds.rewrite_tables(session, round_row, changed)
    met = _met_before(session, event, round_row)
    names = entrant_names(session, [e for t in changed.values() for e in t])
    warnings = []
    for table_no, seats in sorted(changed.items()):
        for i, a in enumerate(seats):
            for b in seats[i + 1 :]:
                if frozenset((a, b)) in met:
                    warnings.append(
                        f"table {table_no}: {names[a]} and {names[b]} have met before in "
                        f"{event.name!r}"
                    )
    return ChangeResult(warnings)


def _seat_of(tables: Tables, entrant: int | None, name: str, round_row: Round) -> tuple[int, int]:
    """The table and seat of ``entrant`` (called ``name``) in the round."""
    for table_no, seats in tables.items():
        if entrant in seats:
            return table_no, seats.index(entrant)
    raise UsageError(f"{name} has no seat in round {round_row.number}")


def swap(db: Database, event_name: str, first: str, second: str) -> ChangeResult:
    """Swap two entrants of the draft round (their tables and seats)."""
    with db.writing() as session:
        _, event = get_event(session, event_name)
        round_row, tables = _draft_round(session, event)
        a, b = get_entrant(session, first).id, get_entrant(session, second).id
        ta, ia = _seat_of(tables, a, first, round_row)
        tb, ib = _seat_of(tables, b, second, round_row)
        tables[ta][ia], tables[tb][ib] = tables[tb][ib], tables[ta][ia]
        return _rewrite(session, event, round_row, {ta: tables[ta], tb: tables[tb]})


def move(db: Database, event_name: str, name: str, table: int) -> ChangeResult:
    """Move one entrant of the draft round to another table (last seat there)."""
    with db.writing() as session:
        league, event = get_event(session, event_name)
        round_row, tables = _draft_round(session, event)
        source, seat = _seat_of(tables, get_entrant(session, name).id, name, round_row)
        if table not in tables:
            raise UsageError(
                f"round {round_row.number} has no table {table}; tables: "
                f"{', '.join(map(str, sorted(tables)))}"
            )
        if table == source:
            return ChangeResult([f"{name} already sits at table {table}"])
        rules = Rules.from_json(league.rules)
        if len(tables[source]) - 1 < 2:
            raise UsageError(f"table {source} would keep fewer than two players")
        try:
            rules.check_table(len(tables[table]) + 1)
        except Exception as exc:
            raise UsageError(f"table {table} cannot take another player: {exc}") from None
        tables[table].append(tables[source].pop(seat))
        return _rewrite(session, event, round_row, {source: tables[source], table: tables[table]})


def publish(db: Database, event_name: str) -> int:
    """Publish the draft round: its tables are fixed and results may be entered."""
    with db.writing() as session:
        _, event = get_event(session, event_name)
        round_row = stored_rounds.get_round(session, event, None)
        if round_row.published:
            raise UsageError(f"round {round_row.number} of {event.name!r} is already published")
        stored_rounds.publish(session, round_row)
        return round_row.number
