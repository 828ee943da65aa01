"""Match results: storing one, clearing it for a correction, and reading them back.

A result is stored whole with its hands (:func:`store_result`); the rating update it
causes is written in the same transaction by the ratings package
(``c8league.ratings.update``). Results count for ratings in the order of their
``sequence``, which the writer assigns in match order, so the ratings do not depend on
which worker finished first. A writer takes the next sequence numbers only while it
holds the database's write lock (``Database.writing``, or :func:`hold_write_lock`), so
two processes writing one league's results at once (two events run side by side, a
result entered by hand meanwhile) never take the same number, and the numbers follow
the order in which the ratings were updated.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, NamedTuple

from sqlalchemy import Select, Table, bindparam, insert, text, update
from sqlalchemy import select as sa_select
from sqlalchemy.orm.attributes import set_committed_value
from sqlmodel import Session, SQLModel, col, func, select

from c8league.results import Result, forfeit_seats
from c8league.storage import chain
from c8league.storage.fetch import fetch_rows
from c8league.storage.models import (
    BotVersion,
    Entrant,
    Event,
    HandRow,
    League,
    Match,
    MatchSeat,
    Meta,
    Round,
    utcnow,
)
from c8league.storage.versions import by_digest


def hold_write_lock(session: Session) -> None:
    """Make ``session``'s transaction the database's one writer until it ends (SQLite's
    write lock; on PostgreSQL the writer lock of ``postgres.one_writer_at_a_time``), so
    that what it reads next, such as the last sequence number, stays true until commit."""
    session.execute(text("UPDATE meta SET value = value WHERE key = 'schema_version'"))


def _generation_key(league_id: int) -> str:
    return f"results:{league_id}"


def results_generation(session: Session, league_id: int) -> int:
    """A number that changes whenever a result of the league is stored, changed or
    re-rated: a reader compares it before and after to know that nothing changed."""
    value = session.exec(select(Meta.value).where(Meta.key == _generation_key(league_id))).first()
    return int(value) if value is not None and value.isdigit() else 0


def bump_results_generation(session: Session, league_id: int, by: int = 1) -> None:
    """Advance :func:`results_generation` (in the caller's write transaction)."""
    key = _generation_key(league_id)
    row = session.get(Meta, key)
    if row is None:
        session.add(Meta(key=key, value=str(by)))
    else:
        row.value = str(int(row.value) + by if row.value.isdigit() else by)
        session.add(row)


def next_sequence(session: Session, league_id: int) -> int:
    """The sequence number the next result of this league counts at. Read it under
    the write lock."""
    query = (
        select(func.max(Match.sequence))
        .join(Event, col(Match.event_id) == col(Event.id))
        .where(Event.league_id == league_id)
    )
    current = session.exec(query).one()
    return (current or 0) + 1


# -- writing ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SeatedResult:
    """A stored result as the ratings read it: who sat where and how they placed."""

    match_id: int
    sequence: int
    entrants: tuple[int, ...]
    """Entrant ids in seat order."""
    placements: tuple[int, ...]
    forfeited: tuple[bool, ...]


def store_result(session: Session, match: Match, result: Result, sequence: int) -> SeatedResult:
    """Write a match's result and its hands, counting at ``sequence``. No commit here;
    the rating update is the caller's (``c8league.ratings.update.record_results``)."""
    return store_results(session, [(match, result, sequence)])[0]


def store_results(
    session: Session, items: Sequence[tuple[Match | int, Result, int]]
) -> list[SeatedResult]:
    """Write the results of many matches (each with its sequence number) and their
    hands, in a handful of statements for the whole batch: one read of the matches and
    one of their seats (each checked against its latest entry in the record's chain,
    ``c8league.storage.chain``, and hashed with its result for a new one), one update of
    the matches, one of the seats and one insert of the hands, each sent to the driver
    as one ``executemany``. A match is given as its ``Match`` object or, not
    loaded, by its id (the forfeit it has, which a result without one keeps, is then
    read with its seats). The ``Match`` objects (and any match or seat loaded in
    ``session``) are given the stored values. No commit here."""
    if not items:
        return []
    session.flush()  # the caller's pending changes first
    ids = [_id(match) for match, _, _ in items]
    stored_rows = chain.match_rows(session.connection(), ids)
    missing = [match_id for match_id in ids if match_id not in stored_rows]
    if missing:
        raise ValueError(f"no match {missing[0]} to store a result for")
    # A match is stored only as c8league left it (paired, or cleared by this transaction):
    # a result never makes a change made outside c8league its own.
    chain.expect(session, [stored_rows[match_id].stamp() for match_id in ids])
    now = utcnow()
    version_ids = by_digest(session, (d for _, result, _ in items for d in result.versions))
    match_rows: list[dict[str, Any]] = []
    seat_rows: list[dict[str, Any]] = []
    hand_rows: list[dict[str, Any]] = []
    stamps: list[chain.Stamp] = []
    stored: list[SeatedResult] = []
    for (match, result, sequence), match_id in zip(items, ids, strict=True):
        rows = stored_rows[match_id]
        entrants = rows.entrants
        if len(entrants) != len(result.placements):
            raise ValueError(
                f"match {match_id} has {len(entrants)} seats, result has {len(result.placements)}"
            )
        forfeit = result.forfeit
        before = (
            StoredForfeit(
                rows.get("forfeit_seat"),
                rows.get("forfeit_reason"),
                rows.get("forfeit_move"),
                rows.get("forfeit_detail"),
                rows.get("forfeit_request"),
            )
            if isinstance(match, int)
            else _forfeit_of(match)
        )
        values = {
            "status": "done",
            "ended": result.ended,
            "hands": len(result.hands),
            "decisions": result.decisions,
            "sequence": sequence,
            "entered_by": result.entered_by,
            "finished_at": now,
            "forfeit_seat": before.seat if forfeit is None else forfeit.seat,
            "forfeit_reason": before.reason if forfeit is None else forfeit.reason,
            "forfeit_move": before.move if forfeit is None else forfeit.move_number,
            "forfeit_detail": before.detail if forfeit is None else forfeit.detail[:2000],
            "forfeit_request": before.request if forfeit is None else forfeit.request,
            "unfinished": result.unfinished,
        }
        match_rows.append({"b_id": match_id, **{f"b_{k}": v for k, v in values.items()}})
        if not isinstance(match, int):
            for attribute, value in values.items():
                set_committed_value(match, attribute, value)
        places = list(zip(result.placements, result.scores, strict=True))
        played_by = [version_ids.get(d) for d in result.versions] or rows.versions
        for seat, (place, score) in enumerate(places):
            seat_rows.append(
                {
                    "b_match": match_id,
                    "b_seat": seat,
                    "b_place": place,
                    "b_score": score,
                    "b_version": played_by[seat],
                }
            )
        hands = [
            {
                "match_id": match_id,
                "number": number,
                "kind": hand.kind,
                "winners": json.dumps(list(hand.winners)),
                "points": json.dumps(list(hand.points)),
                "penalties": json.dumps(list(hand.penalties)),
                "record": hand.record,
            }
            for number, hand in enumerate(result.hands, start=1)
        ]
        hand_rows.extend(hands)
        stamps.append(rows.stored(values, places, hands, played_by))
        stored.append(
            SeatedResult(
                match_id=match_id,
                sequence=sequence,
                entrants=tuple(entrants),
                placements=tuple(result.placements),
                forfeited=result.forfeited,
            )
        )
    matches = _table(Match)
    columns = [name.removeprefix("b_") for name in match_rows[0] if name != "b_id"]
    session.execute(
        update(matches)
        .where(matches.c.id == bindparam("b_id"))
        .values({name: bindparam(f"b_{name}") for name in columns}),
        match_rows,
    )
    seats = _table(MatchSeat)
    session.execute(
        update(seats)
        .where(seats.c.match_id == bindparam("b_match"), seats.c.seat == bindparam("b_seat"))
        .values(
            place=bindparam("b_place"),
            score=bindparam("b_score"),
            version_id=bindparam("b_version"),
        ),
        seat_rows,
    )
    if hand_rows:
        session.execute(insert(_table(HandRow)), hand_rows)
    chain.written(session, stamps)
    placed = {(row["b_match"], row["b_seat"]): row for row in seat_rows}
    by_id = {
        match: row
        for (match, _, _), row in zip(items, match_rows, strict=True)
        if isinstance(match, int)
    }
    for instance in list(session.identity_map.values()):
        if isinstance(instance, MatchSeat):
            row = placed.get((instance.match_id, instance.seat))
            if row is not None:
                set_committed_value(instance, "place", row["b_place"])
                set_committed_value(instance, "score", row["b_score"])
        elif isinstance(instance, Match) and instance.id in by_id:
            for name, value in by_id[instance.id].items():
                if name != "b_id":
                    set_committed_value(instance, name.removeprefix("b_"), value)
    return stored


class StoredForfeit(NamedTuple):
    """A match's forfeit columns as stored (all None: no forfeit)."""

    seat: int | None
    reason: str | None
    move: int | None
    detail: str | None
    request: int | None


def _forfeit_of(match: Match) -> StoredForfeit:
    return StoredForfeit(
        match.forfeit_seat,
        match.forfeit_reason,
        match.forfeit_move,
        match.forfeit_detail,
        match.forfeit_request,
    )


def _id(match: Match | int) -> int:
    if isinstance(match, int):
        return match
    assert match.id is not None
    return match.id


def _table(model: type[SQLModel]) -> Table:
    return SQLModel.metadata.tables[str(model.__tablename__)]


def clear_result(session: Session, match: Match, *, status: str) -> None:
    """Take a stored result back (its hands, places, scores and forfeit) and give the
    match ``status``: ``done`` for a correction about to be stored, ``void``."""
    for hand in session.exec(select(HandRow).where(HandRow.match_id == match.id)).all():
        session.delete(hand)
    for seat in session.exec(select(MatchSeat).where(MatchSeat.match_id == match.id)).all():
        seat.place = None
        seat.score = None
        session.add(seat)
    match.forfeit_seat = match.forfeit_reason = match.forfeit_move = None
    match.forfeit_detail = None
    match.forfeit_request = None
    match.unfinished = None
    match.ended = None
    match.status = status
    session.add(match)
    session.flush()


# -- reading ---------------------------------------------------------------------------------


def stored_result(session: Session, match: Match) -> dict[str, Any]:
    """A stored result by name, as the audit trail keeps it."""
    seats = session.exec(
        select(MatchSeat, Entrant.name)
        .join(Entrant, col(Entrant.id) == col(MatchSeat.entrant_id))
        .where(MatchSeat.match_id == match.id)
        .order_by(col(MatchSeat.seat))
    ).all()
    hands = session.exec(
        select(HandRow).where(HandRow.match_id == match.id).order_by(col(HandRow.number))
    ).all()
    names = [name for _, name in seats]
    lost = [names[i] for i in forfeit_seats([s.place or 0 for s, _ in seats], match.forfeit_seat)]
    return {
        "status": match.status,
        "scores": {name: s.score for s, name in seats},
        "placements": {name: s.place for s, name in seats},
        "hands": [dict(zip(names, json.loads(h.points), strict=False)) for h in hands],
        "forfeit": lost[0] if len(lost) == 1 else lost or None,
        "ended": match.ended,
    }


@dataclass(slots=True)
class PlayedMatch:
    """A finished match: its seats as (seat, entrant id, place, score), in seat order."""

    match_id: int
    event_id: int
    sequence: int
    ended: str
    forfeit_seat: int | None
    forfeit_reason: str | None
    seats: list[tuple[int, int, int, int]]

    @property
    def forfeit_seats(self) -> tuple[int, ...]:
        """The seats that forfeited (several may leave a table of people; they share the
        forfeit seat's place)."""
        return forfeit_seats([place for _, _, place, _ in self.seats], self.forfeit_seat)


def played(session: Session, event_ids: Sequence[int]) -> list[PlayedMatch]:
    """The finished matches of the events (every deal), in the order their results
    count: what standings, reports and statistics are computed from."""
    rows = fetch_rows(
        session.connection(),
        sa_select(
            col(Match.id),
            col(Match.event_id),
            col(Match.sequence),
            col(Match.ended),
            col(Match.forfeit_seat),
            col(Match.forfeit_reason),
            col(MatchSeat.seat),
            col(MatchSeat.entrant_id),
            col(MatchSeat.place),
            col(MatchSeat.score),
        )
        .join(MatchSeat, col(MatchSeat.match_id) == col(Match.id))
        .where(col(Match.event_id).in_(list(event_ids)), col(Match.status) == "done")
        .order_by(col(Match.sequence), col(Match.id), col(MatchSeat.seat)),
    )
    result: list[PlayedMatch] = []
    current: PlayedMatch | None = None
    for match_id, event_id, sequence, ended, f_seat, f_reason, seat, entrant, place, score in rows:
        if current is None or current.match_id != match_id:
            current = PlayedMatch(
                match_id=match_id,
                event_id=event_id,
                sequence=sequence or 0,
                ended=ended or "",
                forfeit_seat=f_seat,
                forfeit_reason=f_reason,
                seats=[],
            )
            result.append(current)
        current.seats.append((seat, entrant, place or 0, score or 0))
    return result


def played_rules(session: Session, event_id: int) -> list[str]:
    """The rule sets (JSON) the event's finished matches were played under."""
    query = select(Match.rules).where(Match.event_id == event_id, Match.status == "done").distinct()
    return sorted(session.exec(query).all())


def status_counts(session: Session, event_ids: Sequence[int]) -> dict[tuple[int, str], int]:
    """How many matches of each event are pending, done and void."""
    rows = session.exec(
        select(Match.event_id, Match.status, func.count())
        .where(col(Match.event_id).in_(list(event_ids)))
        .group_by(col(Match.event_id), col(Match.status))
    ).all()
    return {(event_id, status): int(count) for event_id, status, count in rows}


def forfeit_counts(session: Session, event_id: int) -> dict[str, int]:
    """The event's forfeits, by reason."""
    rows = session.exec(
        select(Match.forfeit_reason, func.count())
        .where(Match.event_id == event_id, col(Match.forfeit_reason).is_not(None))
        .group_by(col(Match.forfeit_reason))
    ).all()
    return {str(reason): int(count) for reason, count in rows}


@dataclass(frozen=True, slots=True)
class ForfeitGroup:
    """The forfeits of one entrant of one kind in an event, and the first of them."""

    reason: str
    entrant: str
    count: int
    match_id: int
    move: int | None
    detail: str
    request: int | None = None
    """The request the first faulted at, where it differs from ``move`` (see
    ``results.Forfeit.request``)."""


def forfeit_groups(session: Session, event_id: int) -> list[ForfeitGroup]:
    """The event's forfeits by kind and entrant, each with its first (in the order the
    results count), by kind then entrant."""
    rows = fetch_rows(
        session.connection(),
        sa_select(
            col(Match.id),
            col(Match.forfeit_reason),
            col(Match.forfeit_move),
            col(Match.forfeit_detail),
            col(Entrant.name),
            col(Match.forfeit_request),
        )
        .join(
            MatchSeat,
            (col(MatchSeat.match_id) == col(Match.id))
            & (col(MatchSeat.seat) == col(Match.forfeit_seat)),
        )
        .join(Entrant, col(Entrant.id) == col(MatchSeat.entrant_id))
        .where(
            col(Match.event_id) == event_id,
            col(Match.status) == "done",
            col(Match.forfeit_reason).is_not(None),
        )
        .order_by(col(Match.sequence), col(Match.id)),
    )
    groups: dict[tuple[str, str], ForfeitGroup] = {}
    for match_id, reason, move, detail, name, request in rows:
        key = (str(reason), str(name))
        first = groups.get(key)
        if first is None:
            groups[key] = ForfeitGroup(
                reason=key[0],
                entrant=key[1],
                count=1,
                match_id=match_id,
                move=move,
                detail=detail or "",
                request=request,
            )
        else:
            groups[key] = ForfeitGroup(
                reason=first.reason,
                entrant=first.entrant,
                count=first.count + 1,
                match_id=first.match_id,
                move=first.move,
                detail=first.detail,
                request=first.request,
            )
    return [groups[key] for key in sorted(groups)]


def hand_rows(session: Session, event_ids: Sequence[int]) -> list[tuple[int, str, str, str]]:
    """(match id, kind, winners JSON, points JSON) of every hand of a finished match."""
    query = (
        select(HandRow.match_id, HandRow.kind, HandRow.winners, HandRow.points)
        .join(Match, col(Match.id) == col(HandRow.match_id))
        .where(col(Match.event_id).in_(list(event_ids)), col(Match.status) == "done")
    )
    return fetch_rows(session.connection(), query)


class RatedSeat(NamedTuple):
    """One seat of a finished match, as a rebuild of the ratings replays it."""

    match_id: int
    sequence: int
    forfeit_seat: int | None
    seat: int
    entrant_id: int
    place: int


def rated_seats(
    session: Session, league_id: int, from_sequence: int | None = None
) -> list[RatedSeat]:
    """Every seat of the league's finished matches (from ``from_sequence`` on), in the
    order the results count (by sequence, then seat). What a rebuild of the ratings
    replays."""
    query = rated_seats_query(league_id, from_sequence)
    return list(map(RatedSeat._make, fetch_rows(session.connection(), query)))


def rated_seats_query(
    league_id: int, from_sequence: int | None = None
) -> Select[int | None, int | None, int | None, int, int, int | None]:
    """The query of :func:`rated_seats`: (match id, sequence, forfeit seat, seat, entrant
    id, place) of every seat of the league's finished matches, in the order the results
    count."""
    query = (
        sa_select(
            col(Match.id),
            col(Match.sequence),
            col(Match.forfeit_seat),
            col(MatchSeat.seat),
            col(MatchSeat.entrant_id),
            col(MatchSeat.place),
        )
        .join(Event, col(Match.event_id) == col(Event.id))
        .join(MatchSeat, col(MatchSeat.match_id) == col(Match.id))
        .where(
            col(Event.league_id) == league_id,
            col(Match.status) == "done",
            col(Match.sequence).is_not(None),
        )
        .order_by(col(Match.sequence), col(Match.id), col(MatchSeat.seat))
    )
    if from_sequence is not None:
        query = query.where(col(Match.sequence) >= from_sequence)
    return query


def placements(
    session: Session, league_id: int, upto: int | None = None
) -> list[tuple[int, int, int]]:
    """(entrant id, place, table size) of every seat of the league's finished matches
    (those counted up to sequence ``upto``, or all), in the order their results count.
    The figures made of them (average places) are computed in Python
    (``c8league.ratings.leaderboard.placement_figures``), the same way on every
    database."""
    sizes = (
        select(col(MatchSeat.match_id).label("match_id"), func.count().label("size"))
        .group_by(col(MatchSeat.match_id))
        .subquery()
    )
    query = (
        sa_select(col(MatchSeat.entrant_id), col(MatchSeat.place), sizes.c.size)
        .join(Match, col(Match.id) == col(MatchSeat.match_id))
        .join(Event, col(Event.id) == col(Match.event_id))
        .join(sizes, sizes.c.match_id == col(MatchSeat.match_id))
        .where(col(Event.league_id) == league_id, col(Match.status) == "done")
        .order_by(col(Match.sequence), col(Match.id), col(MatchSeat.seat))
    )
    if upto is not None:
        query = query.where(col(Match.sequence) <= upto)
    return [
        (int(entrant), int(place), int(size))
        for entrant, place, size in fetch_rows(session.connection(), query)
    ]


def done_count(session: Session, league_id: int, upto: int | None = None) -> int:
    """How many results the league has (counted up to sequence ``upto``, or all)."""
    query = (
        select(func.count())
        .select_from(Match)
        .join(Event, col(Event.id) == col(Match.event_id))
        .where(col(Event.league_id) == league_id, col(Match.status) == "done")
    )
    if upto is not None:
        query = query.where(col(Match.sequence) <= upto)
    return int(session.exec(query).one())


def first_sequences(session: Session, entrant_id: int) -> dict[int, int]:
    """The sequence of the entrant's first result in each league it has results in."""
    rows = session.exec(
        select(Event.league_id, func.min(Match.sequence))
        .join(Match, col(Match.event_id) == col(Event.id))
        .join(MatchSeat, col(MatchSeat.match_id) == col(Match.id))
        .where(MatchSeat.entrant_id == entrant_id, Match.status == "done")
        .group_by(col(Event.league_id))
    ).all()
    return {league_id: int(sequence) for league_id, sequence in rows if sequence is not None}


def last_sequence(session: Session, event_ids: Sequence[int]) -> int | None:
    """The sequence of the latest result of the events (None: no result yet)."""
    query = select(func.max(Match.sequence)).where(
        col(Match.event_id).in_(list(event_ids)), col(Match.status) == "done"
    )
    value = session.exec(query).one()
    return None if value is None else int(value)


def last_result(
    session: Session, league_id: int, upto: int | None = None
) -> tuple[int, str, datetime | None] | None:
    """(sequence, event name, when) of the league's latest result (up to sequence
    ``upto``), if any."""
    query = (
        select(Match.sequence, Event.name, Match.finished_at)
        .join(Event, col(Event.id) == col(Match.event_id))
        .where(
            col(Event.league_id) == league_id,
            col(Match.status) == "done",
            col(Match.sequence).is_not(None),
        )
        .order_by(col(Match.sequence).desc())
        .limit(1)
    )
    if upto is not None:
        query = query.where(col(Match.sequence) <= upto)
    row = session.exec(query).first()
    if row is None:
        return None
    sequence, event_name, finished_at = row
    return None if sequence is None else (sequence, event_name, finished_at)


@dataclass(frozen=True, slots=True)
class StoredSeat:
    name: str
    plugin: str | None
    options: str
    place: int | None
    score: int | None
    version: str | None = None
    """The label of the version of the bot that played the seat (``alice.py 3f2a1c9e``);
    None: a person, or a match stored before versions were recorded."""
    version_digest: str | None = None
    """That version's digest (``c8league.players.versions``)."""


@dataclass(frozen=True, slots=True)
class StoredMatch:
    """One match of an event read back whole: where it was played, its rules and seed,
    its seats with their results, its hands' records and the hand a forfeit stopped."""

    match_id: int
    league: str
    event: str
    round: int
    table: int
    deal: int
    rules: str
    seed: int
    status: str
    ended: str | None
    forfeit_seat: int | None
    forfeit_reason: str | None
    forfeit_move: int | None
    forfeit_detail: str | None
    seats: tuple[StoredSeat, ...]
    hands: tuple[str, ...]
    """Each finished hand's record (JSON)."""
    unfinished: str | None
    forfeit_request: int | None = None


def stored_match(session: Session, match_id: int) -> StoredMatch | None:
    """The match ``match_id`` (any event's), or None."""
    found = _whole(session, [match_id])
    return found[0] if found else None


MATCHES_AT_ONCE = 500
"""How many matches :func:`finished_matches` reads at once, whole: a page of an export."""


def finished_matches(
    session: Session, event_ids: Sequence[int], *, after: int = 0, limit: int | None = None
) -> list[StoredMatch]:
    """The finished matches of the events whose ids are above ``after``, the first
    ``limit`` (:data:`MATCHES_AT_ONCE`) of them in id order, each read whole: read page
    after page (the next begins after the last id), an event's matches are read in
    memory that does not grow with the event."""
    ids = fetch_rows(
        session.connection(),
        sa_select(col(Match.id))
        .where(
            col(Match.event_id).in_(list(event_ids)),
            col(Match.status) == "done",
            col(Match.id) > after,
        )
        .order_by(col(Match.id))
        .limit(limit or MATCHES_AT_ONCE),
    )
    return _whole(session, [int(match_id) for (match_id,) in ids])


def _whole(session: Session, ids: Sequence[int]) -> list[StoredMatch]:
    """The matches ``ids`` that exist, read whole, in id order: three queries."""
    if not ids:
        return []
    conn = session.connection()
    matches = fetch_rows(
        conn,
        sa_select(
            col(Match.id),
            col(League.name),
            col(Event.name),
            col(Round.number),
            col(Match.table_no),
            col(Match.deal),
            col(Match.rules),
            col(Match.seed),
            col(Match.status),
            col(Match.ended),
            col(Match.forfeit_seat),
            col(Match.forfeit_reason),
            col(Match.forfeit_move),
            col(Match.forfeit_detail),
            col(Match.unfinished),
            col(Match.forfeit_request),
        )
        .join(Event, col(Event.id) == col(Match.event_id))
        .join(League, col(League.id) == col(Event.league_id))
        .join(Round, col(Round.id) == col(Match.round_id))
        .where(col(Match.id).in_(list(ids)))
        .order_by(col(Match.id)),
    )
    seats: dict[int, list[StoredSeat]] = {}
    for match_id, name, plugin, options, place, score, label, digest in fetch_rows(
        conn,
        sa_select(
            col(MatchSeat.match_id),
            col(Entrant.name),
            col(Entrant.plugin),
            col(Entrant.options),
            col(MatchSeat.place),
            col(MatchSeat.score),
            col(BotVersion.label),
            col(BotVersion.digest),
        )
        .join(Entrant, col(Entrant.id) == col(MatchSeat.entrant_id))
        .outerjoin(BotVersion, col(BotVersion.id) == col(MatchSeat.version_id))
        .where(col(MatchSeat.match_id).in_(list(ids)))
        .order_by(col(MatchSeat.match_id), col(MatchSeat.seat)),
    ):
        seats.setdefault(match_id, []).append(
            StoredSeat(
                name=name,
                plugin=plugin,
                options=options or "{}",
                place=place,
                score=score,
                version=label,
                version_digest=digest,
            )
        )
    hands: dict[int, list[str]] = {}
    for match_id, record in fetch_rows(
        conn,
        sa_select(col(HandRow.match_id), col(HandRow.record))
        .where(col(HandRow.match_id).in_(list(ids)))
        .order_by(col(HandRow.match_id), col(HandRow.number)),
    ):
        hands.setdefault(match_id, []).append(record)
    found = []
    for row in matches:
        (match_id, league, event, round_number, table, deal, rules, seed, status, ended) = row[:10]
        f_seat, f_reason, f_move, f_detail, unfinished, f_request = row[10:]
        found.append(
            StoredMatch(
                match_id=match_id,
                league=league,
                event=event,
                round=round_number,
                table=table,
                deal=deal,
                rules=rules,
                seed=seed,
                status=status,
                ended=ended,
                forfeit_seat=f_seat,
                forfeit_reason=f_reason,
                forfeit_move=f_move,
                forfeit_detail=f_detail,
                seats=tuple(seats.get(match_id, ())),
                hands=tuple(hands.get(match_id, ())),
                unfinished=unfinished,
                forfeit_request=f_request,
            )
        )
    return found
