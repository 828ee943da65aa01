"""Rounds, their matches and seats: pairing them, reading who sits where, and what is
still to play. Nothing here commits: the caller's transaction does."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, Table, insert
from sqlalchemy import select as sa_select
from sqlmodel import Session, SQLModel, col, func, select

from c8league.errors import NotFoundError
from c8league.storage import chain, schedules, table_codes
from c8league.storage.fetch import fetch_rows
from c8league.storage.models import Entrant, Event, Match, MatchSeat, Round, utcnow

Tables = dict[int, list[int]]
"""Entrant ids in seat order, by table number."""


@dataclass(frozen=True, slots=True)
class NewMatch:
    """A match to create in a new round: its table, deal, rules, seed and seats."""

    table_no: int
    deal: int
    rules: str
    seed: int
    seats: tuple[int, ...]
    """Entrant ids in seat order (seat 0 deals the first hand)."""


# -- rounds -------------------------------------------------------------------------------


def event_rounds(session: Session, event_id: int) -> list[Round]:
    """An event's rounds, in order."""
    return list(
        session.exec(select(Round).where(Round.event_id == event_id).order_by(col(Round.number)))
    )


def get_round(session: Session, event: Event, number: int | None) -> Round:
    """Round ``number`` of the event (the latest when None)."""
    query = select(Round).where(Round.event_id == event.id)
    if number is not None:
        query = query.where(Round.number == number)
    row = session.exec(query.order_by(col(Round.number).desc())).first()
    if row is None:
        what = f"round {number}" if number is not None else "round"
        raise NotFoundError(f"event {event.name!r} has no {what} yet (c8league event pair)")
    return row


def add_round(
    session: Session,
    event_id: int,
    number: int,
    *,
    byes: Sequence[int],
    matches: Sequence[NewMatch],
    published: bool,
) -> Round:
    """Create a round with its matches and seats."""
    (round_id,) = add_rounds(session, event_id, [(number, byes, matches)], published=published)
    created = session.get(Round, round_id)
    assert created is not None
    return created


def add_rounds(
    session: Session,
    event_id: int,
    rounds: Sequence[tuple[int, Sequence[int], Sequence[NewMatch]]],
    *,
    published: bool,
) -> list[int]:
    """Create rounds, each (number, byes, matches), with their matches and seats: one
    statement for the rounds, one for their matches and one for the seats, written
    without building an object per row (an event of thousands of matches is paired in
    a few milliseconds of the database's time), each hashed as written for the record's
    chain (``c8league.storage.chain``). Returns the new rounds' ids, in order."""
    session.flush()  # the caller's pending changes first
    connection = session.connection()
    round_table, match_table = _table(Round), _table(Match)
    league_id = session.exec(select(Event.league_id).where(Event.id == event_id)).one()
    now = utcnow()
    new_rounds = [
        {
            "event_id": event_id,
            "number": number,
            "byes": json.dumps(list(byes)),
            "published": published,
            "created_at": now,
        }
        for number, byes, _ in rounds
    ]
    round_ids = _insert_ids(connection, round_table, new_rounds)
    stamps = [
        chain.row_stamp("round", {**row, "id": round_id}, league_id)
        for round_id, row in zip(round_ids, new_rounds, strict=True)
    ]
    news = [
        (round_id, new)
        for round_id, (_, _, matches) in zip(round_ids, rounds, strict=True)
        for new in matches
    ]
    if news:
        new_matches = [
            {
                "event_id": event_id,
                "round_id": round_id,
                "table_no": new.table_no,
                "deal": new.deal,
                "rules": new.rules,
                "seed": new.seed,
            }
            for round_id, new in news
        ]
        match_ids = _insert_ids(connection, match_table, new_matches)
        seats = [
            [
                {"match_id": match_id, "seat": seat, "entrant_id": entrant_id}
                for seat, entrant_id in enumerate(new.seats)
            ]
            for match_id, (_, new) in zip(match_ids, news, strict=True)
        ]
        connection.execute(insert(_table(MatchSeat)), [row for table in seats for row in table])
        stamps.extend(
            chain.match_stamp(league_id, {**row, "id": match_id}, seated, ())
            for match_id, row, seated in zip(match_ids, new_matches, seats, strict=True)
        )
    chain.written(session, stamps)
    return round_ids


def _insert_ids(connection: Connection, table: Table, rows: list[dict[str, Any]]) -> list[int]:
    """Insert ``rows`` into ``table``; their new ids, in order. One statement where the
    database returns ids in the order of the rows (SQLite 3.35 and later, PostgreSQL),
    else one a row."""
    if connection.dialect.insert_executemany_returning_sort_by_parameter_order:
        statement = insert(table).returning(table.c.id, sort_by_parameter_order=True)
        return list(connection.execute(statement, rows).scalars())
    ids = []
    for row in rows:
        key = connection.execute(insert(table), row).inserted_primary_key
        assert key is not None
        ids.append(int(key[0]))
    return ids


def _table(model: type[SQLModel]) -> Table:
    return SQLModel.metadata.tables[str(model.__tablename__)]


def publish(session: Session, round_row: Round, published: bool = True) -> None:
    """Publish the round (or, ``published`` false, take it back to a draft: its tables'
    codes are forgotten, and made anew when it is published again)."""
    round_row.published = published
    session.add(round_row)
    if not published:
        matches = session.exec(select(Match.id).where(Match.round_id == round_row.id)).all()
        table_codes.forget(session, [m for m in matches if m is not None])


def tables_with_results(session: Session, round_id: int | None) -> list[int]:
    """The tables of the round that have a result, or had one (voided)."""
    found = session.exec(
        select(Match.table_no)
        .where(Match.round_id == round_id, Match.status != "pending")
        .distinct()
        .order_by(col(Match.table_no))
    ).all()
    return list(found)


def delete_round(session: Session, round_row: Round) -> None:
    """Delete a round that has no results (a draft): its seats, its matches and itself;
    with the first round, the event's stored schedule (it is made again, for the
    entrants of the first round paired next)."""
    matches = session.exec(select(Match).where(Match.round_id == round_row.id)).all()
    ids = [m.id for m in matches]
    for seat in session.exec(select(MatchSeat).where(col(MatchSeat.match_id).in_(ids))).all():
        session.delete(seat)
    session.flush()
    for match in matches:
        session.delete(match)
    session.flush()
    session.delete(round_row)
    if round_row.number == 1:
        schedules.forget(session, round_row.event_id)


def round_complete(session: Session, round_id: int | None) -> bool:
    """Whether no match of the round is still to be played."""
    pending = session.exec(
        select(func.count())
        .select_from(Match)
        .where(Match.round_id == round_id, Match.status == "pending")
    ).one()
    return pending == 0


def incomplete_rounds(session: Session, event_id: int) -> int:
    """How many of the event's rounds have a match still to be played (one query: the
    rounds :func:`round_complete` says are not)."""
    count = session.exec(
        select(func.count(func.distinct(Match.round_id)))
        .select_from(Match)
        .join(Round, col(Round.id) == Match.round_id)
        .where(Round.event_id == event_id, Match.status == "pending")
    ).one()
    return int(count)


def byes(session: Session, event_ids: Sequence[int]) -> dict[int, list[int]]:
    """Each event's byes: one entrant id per bye, over all its rounds, in round order."""
    result: dict[int, list[int]] = {event_id: [] for event_id in event_ids}
    rows = session.exec(
        select(Round.event_id, Round.byes)
        .where(col(Round.event_id).in_(list(event_ids)))
        .order_by(col(Round.id))
    ).all()
    for event_id, text in rows:
        result[event_id].extend(json.loads(text))
    return result


# -- who sits where -------------------------------------------------------------------------


def seatings(session: Session, event_id: int) -> dict[int, Tables]:
    """Every table of every round of the event (the first deal of each), by round id:
    entrant ids in seat order, by table number."""
    rows = session.exec(
        select(Match.round_id, Match.table_no, MatchSeat.entrant_id)
        .join(MatchSeat, col(MatchSeat.match_id) == col(Match.id))
        .where(Match.event_id == event_id, Match.deal == 0)
        .order_by(col(Match.round_id), col(Match.table_no), col(MatchSeat.seat))
    ).all()
    result: dict[int, Tables] = {}
    for round_id, table_no, entrant_id in rows:
        result.setdefault(round_id, {}).setdefault(table_no, []).append(entrant_id)
    return result


def stored_rounds(session: Session, event_id: int) -> list[tuple[list[list[int]], list[int]]]:
    """The event's rounds in order, each as (tables in table order, byes)."""
    seated = seatings(session, event_id)
    return [
        (
            [seats for _, seats in sorted(seated.get(r.id or 0, {}).items())],
            list(json.loads(r.byes)),
        )
        for r in event_rounds(session, event_id)
    ]


def first_round_field(session: Session, event_id: int) -> list[int]:
    """The entrants of an event's first round (seated or with a bye), in id order."""
    first = session.exec(select(Round).where(Round.event_id == event_id, Round.number == 1)).first()
    if first is None:
        return []
    seated = session.exec(
        select(MatchSeat.entrant_id)
        .join(Match, col(Match.id) == col(MatchSeat.match_id))
        .where(Match.round_id == first.id)
    ).all()
    return sorted(set(seated) | set(json.loads(first.byes)))


def rewrite_tables(session: Session, round_row: Round, tables: Mapping[int, Sequence[int]]) -> None:
    """Seat the given tables of a round (of people: one deal a table) anew."""
    matches = session.exec(select(Match).where(Match.round_id == round_row.id)).all()
    by_table = {m.table_no: m for m in matches}
    for table_no, seats in tables.items():
        match = by_table[table_no]
        for row in session.exec(select(MatchSeat).where(MatchSeat.match_id == match.id)).all():
            session.delete(row)
        session.flush()
        assert match.id is not None
        for seat, entrant_id in enumerate(seats):
            session.add(MatchSeat(match_id=match.id, seat=seat, entrant_id=entrant_id))


def round_tables(session: Session, round_id: int) -> list[tuple[Match, list[MatchSeat]]]:
    """The matches of a round (the first deal of each table), in table order, with their
    seats in order."""
    matches = session.exec(
        select(Match)
        .where(Match.round_id == round_id, Match.deal == 0)
        .order_by(col(Match.table_no))
    ).all()
    seat_rows = session.exec(
        select(MatchSeat)
        .where(col(MatchSeat.match_id).in_([m.id for m in matches]))
        .order_by(col(MatchSeat.match_id), col(MatchSeat.seat))
    ).all()
    seats: dict[int, list[MatchSeat]] = {}
    for s in seat_rows:
        seats.setdefault(s.match_id, []).append(s)
    return [(m, seats.get(m.id or 0, [])) for m in matches]


def table_match(session: Session, round_id: int | None, table: int) -> Match | None:
    """The match (first deal) at table ``table`` of a round."""
    return session.exec(
        select(Match).where(Match.round_id == round_id, Match.table_no == table, Match.deal == 0)
    ).first()


def table_in_rounds(session: Session, event_id: int, table: int) -> list[tuple[Round, Match]]:
    """Table ``table`` (its first deal) in every round of the event that has one, the
    latest round first."""
    rows = session.exec(
        select(Round, Match)
        .join(Match, col(Match.round_id) == col(Round.id))
        .where(Round.event_id == event_id, Match.table_no == table, Match.deal == 0)
        .order_by(col(Round.number).desc())
    ).all()
    return [(round_row, match) for round_row, match in rows]


def seated(session: Session, match_id: int | None) -> list[Entrant]:
    """The entrants seated at a match, in seat order."""
    return list(
        session.exec(
            select(Entrant)
            .join(MatchSeat, col(MatchSeat.entrant_id) == col(Entrant.id))
            .where(MatchSeat.match_id == match_id)
            .order_by(col(MatchSeat.seat))
        ).all()
    )


def tables_of(session: Session, round_id: int | None, entrant_id: int) -> list[tuple[Match, int]]:
    """The matches of a round where the entrant sits, with its seat."""
    rows = session.exec(
        select(Match, MatchSeat.seat)
        .join(MatchSeat, col(MatchSeat.match_id) == col(Match.id))
        .where(Match.round_id == round_id, MatchSeat.entrant_id == entrant_id)
    ).all()
    return [(match, seat) for match, seat in rows]


def get_match(session: Session, match_id: int) -> Match:
    match = session.get(Match, match_id)
    if match is None:
        raise NotFoundError(f"no match with id {match_id}")
    return match


@dataclass(frozen=True, slots=True)
class RoundRow:
    """A round of an event as a report shows it: its number, whether it is published,
    its byes (entrant ids) and its matches, each with its seats in order."""

    event_id: int
    number: int
    published: bool
    byes: tuple[int, ...]
    matches: tuple[tuple[Match, tuple[MatchSeat, ...]], ...]


def rounds_of(session: Session, event_ids: Sequence[int]) -> list[RoundRow]:
    """Every round of the events, in event and round order, with every match (each
    deal, in table and deal order) and its seats in seat order."""
    rounds = session.exec(
        select(Round)
        .where(col(Round.event_id).in_(list(event_ids)))
        .order_by(col(Round.event_id), col(Round.number))
    ).all()
    if not rounds:
        return []
    matches = session.exec(
        select(Match)
        .where(col(Match.round_id).in_([r.id for r in rounds]))
        .order_by(col(Match.round_id), col(Match.table_no), col(Match.deal))
    ).all()
    seat_rows = session.exec(
        select(MatchSeat)
        .join(Match, col(Match.id) == col(MatchSeat.match_id))
        .where(col(Match.round_id).in_([r.id for r in rounds]))
        .order_by(col(MatchSeat.match_id), col(MatchSeat.seat))
    ).all()
    seats: dict[int, list[MatchSeat]] = {}
    for seat in seat_rows:
        seats.setdefault(seat.match_id, []).append(seat)
    by_round: dict[int, list[tuple[Match, tuple[MatchSeat, ...]]]] = {}
    for match in matches:
        by_round.setdefault(match.round_id, []).append((match, tuple(seats.get(match.id or 0, []))))
    return [
        RoundRow(
            event_id=r.event_id,
            number=r.number,
            published=r.published,
            byes=tuple(json.loads(r.byes)),
            matches=tuple(by_round.get(r.id or 0, [])),
        )
        for r in rounds
    ]


# -- what is still to play ------------------------------------------------------------------


def round_count(session: Session, event_id: int) -> int:
    """How many rounds of the event are paired."""
    query = select(func.count()).select_from(Round).where(Round.event_id == event_id)
    return int(session.exec(query).one())


def match_count(session: Session, event_id: int) -> int:
    """How many matches the event has, played or not."""
    query = select(func.count()).select_from(Match).where(Match.event_id == event_id)
    return int(session.exec(query).one())


def pending_matches(session: Session, event_id: int) -> list[tuple[Match, list[Entrant]]]:
    """The event's matches still to play, in id order, with their seated entrants."""
    matches = session.exec(
        select(Match)
        .where(Match.event_id == event_id, Match.status == "pending")
        .order_by(col(Match.id))
    ).all()
    if not matches:
        return []
    seat_rows = session.exec(
        select(MatchSeat.match_id, Entrant)
        .join(Entrant, col(Entrant.id) == col(MatchSeat.entrant_id))
        .where(col(MatchSeat.match_id).in_([m.id for m in matches]))
        .order_by(col(MatchSeat.match_id), col(MatchSeat.seat))
    ).all()
    seats: dict[int, list[Entrant]] = {}
    for match_id, entrant in seat_rows:
        seats.setdefault(match_id, []).append(entrant)
    return [(m, seats.get(m.id or 0, [])) for m in matches]


@dataclass(frozen=True, slots=True)
class PendingSeat:
    """Who sits at a seat of a match still to play, as a run of bots starts them."""

    name: str
    plugin: str | None
    options: str
    entrant_id: int = 0


@dataclass(frozen=True, slots=True)
class PendingMatch:
    """A match still to play: what a run of bots needs to play it, and who sits where."""

    match_id: int
    rules: str
    seed: int
    seats: tuple[PendingSeat, ...]
    """In seat order."""


def pending_seatings(session: Session, event_id: int) -> list[PendingMatch]:
    """The event's matches still to play, in id order, each with its seats: the rows of
    :func:`pending_matches` read as plain values, for a run of thousands of matches."""
    session.flush()  # the caller's pending changes first
    connection = session.connection()
    matches = fetch_rows(
        connection,
        sa_select(col(Match.id), col(Match.rules), col(Match.seed))
        .where(col(Match.event_id) == event_id, col(Match.status) == "pending")
        .order_by(col(Match.id)),
    )
    if not matches:
        return []
    seat_rows = fetch_rows(
        connection,
        sa_select(
            col(MatchSeat.match_id),
            col(Entrant.name),
            col(Entrant.plugin),
            col(Entrant.options),
            col(Entrant.id),
        )
        .join(Entrant, col(Entrant.id) == col(MatchSeat.entrant_id))
        .join(Match, col(Match.id) == col(MatchSeat.match_id))
        .where(col(Match.event_id) == event_id, col(Match.status) == "pending")
        .order_by(col(MatchSeat.match_id), col(MatchSeat.seat)),
    )
    seats: dict[int, list[PendingSeat]] = {}
    for match_id, name, plugin, options, entrant_id in seat_rows:
        seats.setdefault(match_id, []).append(PendingSeat(name, plugin, options, entrant_id))
    return [
        PendingMatch(match_id, rules, seed, tuple(seats.get(match_id, ())))
        for match_id, rules, seed in matches
    ]


def pending_entrants(session: Session, event_id: int) -> list[Entrant]:
    """Whoever sits at a match of the event still to play."""
    return list(
        session.exec(
            select(Entrant)
            .join(MatchSeat, col(MatchSeat.entrant_id) == col(Entrant.id))
            .join(Match, col(Match.id) == col(MatchSeat.match_id))
            .where(Match.event_id == event_id, Match.status == "pending")
        ).all()
    )


# -- two entrants who may be one person -------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Place:
    """A round of an event (and a table of it, or None for a bye)."""

    event: str
    round: int
    table: int | None


def shared_places(session: Session, first: int, second: int) -> tuple[list[Place], list[Place]]:
    """Where two entrants met (tables that seated both), and the other rounds in which
    both were paired (at different tables, or one of them with a bye)."""
    paired: dict[int, dict[int, int | None]] = {first: {}, second: {}}
    seats = session.exec(
        select(MatchSeat.entrant_id, Match.round_id, Match.table_no)
        .join(Match, col(Match.id) == col(MatchSeat.match_id))
        .where(col(MatchSeat.entrant_id).in_([first, second]))
    ).all()
    for entrant_id, round_id, table_no in seats:
        paired[entrant_id][round_id] = table_no
    for round_row in session.exec(select(Round)).all():
        for entrant_id in json.loads(round_row.byes):
            if entrant_id in paired:
                paired[entrant_id].setdefault(round_row.id or 0, None)
    both = sorted(set(paired[first]) & set(paired[second]))
    if not both:
        return [], []
    rows = session.exec(
        select(Round.id, Round.number, Event.name)
        .join(Event, col(Event.id) == col(Round.event_id))
        .where(col(Round.id).in_(both))
        .order_by(col(Round.event_id), col(Round.number))
    ).all()
    met: list[Place] = []
    same_round: list[Place] = []
    for shared_id, number, event_name in rows:
        at_a = paired[first][shared_id or 0]
        at_b = paired[second][shared_id or 0]
        if at_a is not None and at_a == at_b:
            met.append(Place(event_name, number, at_a))
        else:
            same_round.append(Place(event_name, number, None))
    return met, same_round


def reseat(session: Session, old: int, new: int) -> list[int]:
    """Give every seat and bye of entrant ``old`` to entrant ``new`` (and its places in
    the schedules stored); the ids of the matches whose seats changed."""
    seats = session.exec(select(MatchSeat).where(MatchSeat.entrant_id == old)).all()
    for seat in seats:
        seat.entrant_id = new
        session.add(seat)
    for round_row in session.exec(select(Round)).all():
        listed = json.loads(round_row.byes)
        if old in listed:
            round_row.byes = json.dumps([new if e == old else e for e in listed])
            session.add(round_row)
    schedules.reseat(session, old, new)
    session.flush()
    return sorted({seat.match_id for seat in seats})
