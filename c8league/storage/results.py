"""Storing match results together with the rating updates they cause.

A result and its rating updates are written in one transaction: a match is stored
whole or not at all. Results count for ratings in the order of their ``sequence``,
which the writer assigns in match order, so the ratings do not depend on which
worker finished first. A writer takes the next sequence numbers only while it holds
the database's write lock (:func:`hold_write_lock`), so two processes writing one
league's results at once (two events run side by side, a result entered by hand
meanwhile) never take the same number, and the numbers follow the order in which the
ratings were updated.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from sqlalchemy import insert, text
from sqlmodel import Session, col, func, select

from c8league.ratings import Rating as RatingValue
from c8league.ratings import RatingModel
from c8league.runner.loop import Forfeit
from c8league.runner.tasks import HandReport
from c8league.storage.models import (
    Event,
    HandRow,
    Match,
    MatchSeat,
    Meta,
    Rating,
    RatingHistory,
    utcnow,
)


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


def bump_results_generation(session: Session, league_id: int) -> None:
    """Advance :func:`results_generation` (in the caller's write transaction)."""
    key = _generation_key(league_id)
    row = session.get(Meta, key)
    if row is None:
        session.add(Meta(key=key, value="1"))
    else:
        row.value = str(int(row.value) + 1 if row.value.isdigit() else 1)
        session.add(row)


def next_sequence(session: Session, league_id: int) -> int:
    """The sequence number the next result of this league counts at. Read it under
    :func:`hold_write_lock`."""
    query = (
        select(func.max(Match.sequence))
        .join(Event, col(Match.event_id) == col(Event.id))
        .where(Event.league_id == league_id)
    )
    current = session.exec(query).one()
    return (current or 0) + 1


def store_result(
    session: Session,
    *,
    match: Match,
    league_id: int,
    model: RatingModel,
    sequence: int,
    placements: Sequence[int],
    scores: Sequence[int],
    ended: str,
    hands: Sequence[HandReport] = (),
    decisions: int = 0,
    forfeit: Forfeit | None = None,
    entered_by: str = "engine",
    rate: bool = True,
) -> None:
    """Write a match's result, its hands and (unless ``rate`` is false, for a caller that
    rebuilds the ratings itself) its rating updates. No commit here."""
    # Reading the seats and ratings must not flush half-written rows.
    with session.no_autoflush:
        seats = list(
            session.exec(
                select(MatchSeat)
                .where(MatchSeat.match_id == match.id)
                .order_by(col(MatchSeat.seat))
            ).all()
        )
        if len(seats) != len(placements):
            raise ValueError(
                f"match {match.id} has {len(seats)} seats, result has {len(placements)}"
            )
        match.status = "done"
        match.ended = ended
        match.hands = len(hands)
        match.decisions = decisions
        match.sequence = sequence
        match.entered_by = entered_by
        match.finished_at = utcnow()
        if forfeit is not None:
            match.forfeit_seat = forfeit.seat
            match.forfeit_reason = forfeit.reason
            match.forfeit_move = forfeit.move_number
            match.forfeit_detail = forfeit.detail[:2000]
        session.add(match)
        for seat_row, place, score in zip(seats, placements, scores, strict=True):
            seat_row.place = place
            seat_row.score = score
            session.add(seat_row)
        assert match.id is not None
        if hands:
            session.execute(
                insert(HandRow),
                [
                    {
                        "match_id": match.id,
                        "number": number,
                        "kind": hand.kind,
                        "winners": json.dumps(list(hand.winners)),
                        "points": json.dumps(list(hand.points)),
                        "penalties": json.dumps(list(hand.penalties)),
                        "record": hand.record,
                    }
                    for number, hand in enumerate(hands, start=1)
                ],
            )
        if not rate:
            return
        entrant_ids = [s.entrant_id for s in seats]
        forfeited = [forfeit is not None and forfeit.seat == s.seat for s in seats]
        apply_rating(
            session, league_id, match.id, sequence, model, entrant_ids, placements, forfeited
        )


def apply_rating(
    session: Session,
    league_id: int,
    match_id: int,
    sequence: int,
    model: RatingModel,
    entrant_ids: Sequence[int],
    placements: Sequence[int],
    forfeited: Sequence[bool],
) -> None:
    """Update the seated entrants' ratings from their placements and keep the history."""
    rows: list[Rating] = []
    for entrant_id in entrant_ids:
        row = session.get(Rating, (league_id, entrant_id))
        if row is None:
            first = model.initial()
            row = Rating(league_id=league_id, entrant_id=entrant_id, mu=first.mu, sigma=first.sigma)
        rows.append(row)
    before = [RatingValue(r.mu, r.sigma) for r in rows]
    after = model.rate(before, list(placements), list(forfeited))
    now = utcnow()
    history = []
    for row, old, new in zip(rows, before, after, strict=True):
        row.mu, row.sigma = new.mu, new.sigma
        row.matches += 1
        session.add(row)
        history.append(
            {
                "league_id": league_id,
                "entrant_id": row.entrant_id,
                "match_id": match_id,
                "sequence": sequence,
                "mu_before": old.mu,
                "sigma_before": old.sigma,
                "mu_after": new.mu,
                "sigma_after": new.sigma,
                "created_at": now,
            }
        )
    session.execute(insert(RatingHistory), history)
    bump_results_generation(session, league_id)
    session.flush()  # the next result in this transaction reads these ratings
