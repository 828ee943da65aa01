"""Changes to a drafted round before it is published: swapping two entrants, moving one
to another table (a warning names any repeat meeting this creates), discarding the
draft to pair it again, and publishing; and taking a published round without results
back to a draft."""

from __future__ import annotations

from dataclasses import dataclass, field

from c8league.engine import Rules
from c8league.errors import DraftSeatsWithdrawn, UsageError
from c8league.events.pairing import repeat_meetings
from c8league.storage import Session, audit
from c8league.storage import rounds as stored_rounds
from c8league.storage.database import Database
from c8league.storage.leagues import entrant_names, get_entrant, get_event, inactive_entrants
from c8league.storage.models import Event, Round
from c8league.storage.rounds import Tables


@dataclass
class ChangeResult:
    warnings: list[str] = field(default_factory=list)
    names: tuple[str, ...] = ()
    """The players changed, as the league writes their names."""


def _draft(session: Session, event: Event, why: str = "") -> Round:
    """The event's latest round, which must not be published yet (``why`` is said
    after the error's reason)."""
    round_row = stored_rounds.get_round(session, event, None)
    if round_row.published:
        raise UsageError(
            f"round {round_row.number} of {event.name!r} is published: its tables are fixed{why}"
        )
    return round_row


def _draft_round(session: Session, event: Event) -> tuple[Round, Tables]:
    """The event's latest round, which must not be published yet, and its tables."""
    round_row = _draft(session, event)
    assert event.id is not None
    tables = stored_rounds.seatings(session, event.id).get(round_row.id or 0, {})
    return round_row, tables


def _named(session: Session, tables: Tables) -> dict[str, list[str]]:
    """Tables as the audit trail keeps them: names in seat order, by table number."""
    names = entrant_names(session, [e for seats in tables.values() for e in seats])
    return {str(t): [names.get(e, str(e)) for e in seats] for t, seats in sorted(tables.items())}


def _record(
    session: Session,
    action: str,
    *,
    event: Event,
    round_row: Round,
    subject: str,
    before: Tables | None,
    after: Tables | None,
) -> None:
    audit.record(
        session,
        action,
        event=event,
        round_number=round_row.number,
        subject=subject,
        before=None if before is None else {"tables": _named(session, before)},
        after=None if after is None else {"tables": _named(session, after)},
    )


def _rewrite(
    session: Session,
    event: Event,
    round_row: Round,
    changed: Tables,
    *,
    action: str,
    subject: str,
    before: Tables,
) -> ChangeResult:
    """Seat ``changed`` tables anew (kept in the audit trail, with the tables as they
    were); warn of every pair there who met before."""
    _record(
        session,
        action,
        event=event,
        round_row=round_row,
        subject=subject,
        before=before,
        after=changed,
    )
    stored_rounds.rewrite_tables(session, round_row, changed)
    session.flush()
    return ChangeResult(repeat_meetings(session, event, round_row, set(changed)))


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
        if a == b:
            raise UsageError(f"nothing to change: {first} and {second} are one player")
        before = {t: list(tables[t]) for t in (ta, tb)}
        tables[ta][ia], tables[tb][ib] = tables[tb][ib], tables[ta][ia]
        names = entrant_names(session, [a or 0, b or 0])
        named = (names.get(a or 0, first), names.get(b or 0, second))
        result = _rewrite(
            session,
            event,
            round_row,
            {ta: tables[ta], tb: tables[tb]},
            action="swap",
            subject=" ↔ ".join(named),
            before=before,
        )
        result.names = named
        return result


def move(db: Database, event_name: str, name: str, table: int) -> ChangeResult:
    """Move one entrant of the draft round to another table (last seat there)."""
    with db.writing() as session:
        league, event = get_event(session, event_name)
        round_row, tables = _draft_round(session, event)
        entrant = get_entrant(session, name)
        source, seat = _seat_of(tables, entrant.id, name, round_row)
        if table not in tables:
            raise UsageError(
                f"round {round_row.number} has no table {table}; tables: "
                f"{', '.join(map(str, sorted(tables)))}"
            )
        if table == source:
            raise UsageError(f"nothing to change: {entrant.name} sits at table {table} already")
        rules = Rules.from_json(league.rules)
        if len(tables[source]) - 1 < 2:
            raise UsageError(f"table {source} would keep fewer than two players")
        try:
            rules.check_table(len(tables[table]) + 1)
        except Exception as exc:
            raise UsageError(f"table {table} cannot take another player: {exc}") from None
        before = {t: list(tables[t]) for t in (source, table)}
        tables[table].append(tables[source].pop(seat))
        result = _rewrite(
            session,
            event,
            round_row,
            {source: tables[source], table: tables[table]},
            action="move",
            subject=f"{entrant.name} → table {table}",
            before=before,
        )
        result.warnings += _size_warnings(event, rules, tables, (table, source))
        result.names = (entrant.name,)
        return result


def _size_warnings(
    event: Event, rules: Rules, tables: Tables, changed: tuple[int, ...]
) -> list[str]:
    """A line for each changed table whose size is not one the event pairs (tables of
    its size, or one less when the count does not divide)."""
    size = event.table_size
    lines = []
    for table_no in changed:
        seated = len(tables[table_no])
        if seated in (size, size - 1):
            continue
        target = "" if rules.countdown else f", playing to {rules.target_for(seated)}"
        lines.append(
            f"table {table_no} now seats {seated} players{target}; the event's tables "
            f"seat {size}" + (f" (or {size - 1})" if size > 2 else "")
        )
    return lines


def unpair(db: Database, event_name: str) -> int:
    """Discard the draft round (it has no results: they are entered once it is
    published), so that the next pairing pairs it again from the entrants as they are
    now: after a withdrawal, a late entry or a member who did not come. Returns its
    number."""
    with db.writing() as session:
        _, event = get_event(session, event_name)
        if event.id is None or not stored_rounds.event_rounds(session, event.id):
            raise UsageError(f"{event.name!r} has no round to discard")
        latest = stored_rounds.get_round(session, event, None)
        with_results = stored_rounds.tables_with_results(session, latest.id)
        round_row = _draft(
            session,
            event,
            " (results are corrected with c8league result edit or void)"
            if with_results
            else f" (c8league event unpublish {event.name} makes it a draft again)",
        )
        tables = stored_rounds.seatings(session, event.id).get(round_row.id or 0, {})
        _record(
            session,
            "unpair",
            event=event,
            round_row=round_row,
            subject=f"round {round_row.number}",
            before=tables,
            after=None,
        )
        stored_rounds.delete_round(session, round_row)
        return round_row.number


def unpublish(db: Database, event_name: str) -> int:
    """Take the latest round back to a draft, as long as none of its tables has a result
    (then unpair, swap and move act on it as on any draft). Returns its number."""
    with db.writing() as session:
        _, event = get_event(session, event_name)
        if event.played_by != "people":
            raise UsageError(f"{event.name!r} is played by bots: its rounds are not published")
        round_row = stored_rounds.get_round(session, event, None)
        if not round_row.published:
            raise UsageError(f"round {round_row.number} of {event.name!r} is not published")
        done = stored_rounds.tables_with_results(session, round_row.id)
        if done:
            which = "table" if len(done) == 1 else "tables"
            raise UsageError(
                f"round {round_row.number} of {event.name!r} has results ({which} "
                f"{', '.join(map(str, done))}): it stays published (correct results with "
                "c8league result edit or void)"
            )
        stored_rounds.publish(session, round_row, published=False)
        assert event.id is not None
        tables = stored_rounds.seatings(session, event.id).get(round_row.id or 0, {})
        _record(
            session,
            "unpublish",
            event=event,
            round_row=round_row,
            subject=f"round {round_row.number}",
            before=tables,
            after=None,
        )
        return round_row.number


def publish(db: Database, event_name: str, *, force: bool = False) -> int:
    """Publish the draft round: its tables are fixed and results may be entered. A draft
    that seats someone who has withdrawn (or retired) since it was paired is refused
    unless ``force``: the draft is to be discarded and paired again."""
    with db.writing() as session:
        league, event = get_event(session, event_name)
        round_row = stored_rounds.get_round(session, event, None)
        if round_row.published:
            raise UsageError(f"round {round_row.number} of {event.name!r} is already published")
        assert event.id is not None and league.id is not None
        tables = stored_rounds.seatings(session, event.id).get(round_row.id or 0, {})
        gone = inactive_entrants(session, league.id)
        seated = sorted((t, e) for t, seats in tables.items() for e in seats if e in gone)
        if seated and not force:
            names = entrant_names(session, [e for _, e in seated])
            who = ", ".join(f"{names.get(e, str(e))} (table {t})" for t, e in seated)
            raise DraftSeatsWithdrawn(
                f"round {round_row.number} of {event.name!r} seats who has withdrawn: {who}",
                event=event.name,
            )
        stored_rounds.publish(session, round_row)
        _record(
            session,
            "publish",
            event=event,
            round_row=round_row,
            subject=f"round {round_row.number}",
            before=None,
            after=tables,
        )
        return round_row.number
