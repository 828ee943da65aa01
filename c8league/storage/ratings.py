"""Stored ratings: each entrant's current rating in a league, and the history of every
update. The numbers are computed by ``c8league.ratings``; this module only reads and
writes them. Nothing here commits: the caller's transaction does."""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from operator import itemgetter
from typing import Any, NamedTuple

from sqlalchemy import Connection, Dialect, bindparam, delete, func, insert, update
from sqlalchemy import select as sa_select
from sqlalchemy.orm.attributes import set_committed_value
from sqlmodel import Session, SQLModel, col, select

from c8league.storage.fetch import fetch_driver_rows, fetch_rows
from c8league.storage.models import (
    Entrant,
    Rating,
    RatingHistory,
    utcnow,
)
from c8league.storage.results import rated_seats_query

_INSERT_BATCH = 20_000

Current = tuple[float, float, int]
"""An entrant's stored rating: (mu, sigma, rated matches)."""

HistoryRow = tuple[int, int, int, int, float, float, float, float]
"""(league id, entrant id, match id, sequence, mu before, sigma before, mu after,
sigma after): one rating update."""

RatedResult = tuple[int, int, list[int], list[int | None], int | None]
"""(match id, sequence, entrant ids in seat order, their places, the forfeit's seat):
a finished match as a rebuild of the ratings replays it."""


def rated_results(
    session: Session, league_id: int, from_sequence: int | None = None
) -> list[RatedResult]:
    """Every finished match of the league (from ``from_sequence`` on) in the order the
    results count (by sequence): what a rebuild of the ratings replays. The seats are
    those of ``c8league.storage.results.rated_seats``, read as the driver's tuples and
    gathered per match as they come (a league can have hundreds of thousands)."""
    session.flush()  # the caller's pending changes first
    query = rated_seats_query(league_id, from_sequence)
    results: list[RatedResult] = []
    add = results.append
    last = None
    entrants: list[int] = []
    places: list[int | None] = []
    for match_id, sequence, forfeit_seat, _, entrant_id, place in fetch_driver_rows(
        session.connection(), query
    ):
        if match_id != last:
            last = match_id
            entrants, places = [entrant_id], [place]
            add((match_id, sequence, entrants, places, forfeit_seat))
        else:
            entrants.append(entrant_id)
            places.append(place)
    return results


def current(
    session: Session, league_id: int, entrant_ids: Iterable[int] | None = None
) -> dict[int, Current]:
    """The stored ratings of the league's entrants (of ``entrant_ids``, or everyone's)."""
    session.flush()  # the caller's pending changes first
    query = sa_select(
        col(Rating.entrant_id), col(Rating.mu), col(Rating.sigma), col(Rating.matches)
    ).where(col(Rating.league_id) == league_id)
    if entrant_ids is not None:
        query = query.where(col(Rating.entrant_id).in_(list(entrant_ids)))
    return {
        entrant_id: (mu, sigma, matches)
        for entrant_id, mu, sigma, matches in fetch_rows(session.connection(), query)
    }


class RatedEntrant(NamedTuple):
    """A rated entrant of a league: its rating and how many matches it rates."""

    entrant_id: int
    name: str
    mu: float
    sigma: float
    matches: int


def rated_entrants(session: Session, league_id: int, upto: int | None = None) -> list[RatedEntrant]:
    """Every rated entrant of the league: now, or as the ratings stood after the result
    of sequence ``upto``."""
    if upto is not None:
        then = ratings_before(session, league_id, upto + 1)
        names = dict(
            session.exec(
                select(Entrant.id, Entrant.name).where(col(Entrant.id).in_(list(then)))
            ).all()
        )
        return [
            RatedEntrant(entrant_id=e, name=names[e], mu=mu, sigma=sigma, matches=n)
            for e, (mu, sigma, n) in then.items()
        ]
    rows = session.execute(
        sa_select(
            col(Rating.entrant_id),
            col(Entrant.name),
            col(Rating.mu),
            col(Rating.sigma),
            col(Rating.matches),
        )
        .join(Entrant, col(Entrant.id) == col(Rating.entrant_id))
        .where(col(Rating.league_id) == league_id)
    ).all()
    return [RatedEntrant._make(row) for row in rows]


def ratings_before(session: Session, league_id: int, sequence: int) -> dict[int, Current]:
    """Each entrant's rating and rated-match count just before ``sequence``, from the
    history."""
    last = (
        select(
            col(RatingHistory.entrant_id).label("entrant_id"),
            func.max(RatingHistory.sequence).label("sequence"),
            func.count().label("matches"),
        )
        .where(col(RatingHistory.league_id) == league_id, col(RatingHistory.sequence) < sequence)
        .group_by(col(RatingHistory.entrant_id))
        .subquery()
    )
    query = select(
        RatingHistory.entrant_id, RatingHistory.mu_after, RatingHistory.sigma_after, last.c.matches
    ).join(
        last,
        (col(RatingHistory.entrant_id) == last.c.entrant_id)
        & (col(RatingHistory.sequence) == last.c.sequence),
    )
    query = query.where(col(RatingHistory.league_id) == league_id)
    return {
        entrant_id: (mu, sigma, int(matches))
        for entrant_id, mu, sigma, matches in session.execute(query).all()
    }


def history(
    session: Session, league_id: int, upto: int | None = None
) -> list[tuple[int, int, float, float]]:
    """(entrant id, sequence, mu after, sigma after) of every update in the league (up
    to sequence ``upto``), in sequence order."""
    query = select(
        RatingHistory.entrant_id,
        RatingHistory.sequence,
        RatingHistory.mu_after,
        RatingHistory.sigma_after,
    ).where(col(RatingHistory.league_id) == league_id)
    if upto is not None:
        query = query.where(col(RatingHistory.sequence) <= upto)
    return fetch_rows(
        session.connection(),
        query.order_by(col(RatingHistory.sequence), col(RatingHistory.entrant_id)),
    )


def write(
    session: Session,
    league_id: int,
    updates: Sequence[HistoryRow],
    ratings: Mapping[int, Current],
    *,
    replace_from: int | None = None,
    replace_all: bool = False,
) -> None:
    """Write rating updates: add ``updates`` to the history and make the league's current
    ratings those of ``ratings`` (other entrants' rows stay as they are).

    To replace what a replay recomputed, ``replace_from`` first deletes the history from
    that sequence on, and ``replace_all`` deletes all of the league's history; both also
    drop the current rating of any entrant not in ``ratings``. When the replay made the
    same updates (the same entrants in the same matches, in the same order: a rebuild
    after new settings or a corrected place) the rows are rewritten where they are
    instead, which keeps their ids."""
    connection = session.connection()
    writer = _HistoryWriter(connection)
    now = writer.stamp(utcnow())
    replacing = replace_all or replace_from is not None
    if replacing and _rewrite(session, league_id, updates, replace_from, now):
        updates = ()
    elif replacing:
        stale = delete(RatingHistory)
        if replace_from is not None:
            stale = stale.where(
                col(RatingHistory.league_id) == league_id,
                col(RatingHistory.sequence) >= replace_from,
            )
        elif _other_leagues_have_history(session, league_id):
            stale = stale.where(col(RatingHistory.league_id) == league_id)
        # else the whole table is this league's: an unqualified DELETE empties it fastest.
        session.execute(stale, execution_options={"synchronize_session": "evaluate"})
    for start in range(0, len(updates), _INSERT_BATCH):
        writer([(*row, now) for row in updates[start : start + _INSERT_BATCH]])
    _store_current(session, league_id, ratings, drop_others=replacing)


def _rewrite(
    session: Session,
    league_id: int,
    updates: Sequence[HistoryRow],
    replace_from: int | None,
    stamp: Any,
) -> bool:
    """Rewrite the league's history rows (from sequence ``replace_from`` on) with
    ``updates`` in place, if they are the updates of the same entrants in the same
    matches in the same order (by id); return whether they were. Any row loaded in
    ``session`` is expired."""
    if not updates:
        return False
    session.flush()  # the caller's pending changes first
    connection = session.connection()
    table = SQLModel.metadata.tables[str(RatingHistory.__tablename__)]
    query = sa_select(table.c.id, table.c.entrant_id, table.c.match_id)
    if replace_from is not None:
        query = query.where(table.c.league_id == league_id, table.c.sequence >= replace_from)
    elif _other_leagues_have_history(session, league_id):
        query = query.where(table.c.league_id == league_id)
    # else every row is the league's: read in the table's own order, without an index.
    stored = fetch_driver_rows(connection, query.order_by(table.c.id))
    key = itemgetter(1, 2)  # (entrant id, match id) of a stored row and of an update
    if len(stored) != len(updates) or list(map(key, stored)) != list(map(key, updates)):
        return False
    sql, order = _history_rewrite(connection.dialect)
    rows = [
        (sequence, mu_before, sigma_before, mu_after, sigma_after, stamp, row_id)
        for (row_id, _, _), (
            _,
            _,
            _,
            sequence,
            mu_before,
            sigma_before,
            mu_after,
            sigma_after,
        ) in zip(stored, updates, strict=True)
    ]
    if order is None:
        args: list[Any] = [dict(zip(_REWRITE_COLUMNS, row, strict=True)) for row in rows]
    elif order != list(_REWRITE_COLUMNS):
        where = [_REWRITE_COLUMNS.index(name) for name in order]
        args = [tuple(row[i] for i in where) for row in rows]
    else:
        args = rows
    for start in range(0, len(args), _INSERT_BATCH):
        connection.exec_driver_sql(sql, args[start : start + _INSERT_BATCH])
    for instance in list(session.identity_map.values()):
        if isinstance(instance, RatingHistory) and instance.league_id == league_id:
            session.expire(instance)
    return True


_REWRITE_COLUMNS = (
    "b_sequence",
    "b_mu_before",
    "b_sigma_before",
    "b_mu_after",
    "b_sigma_after",
    "b_created_at",
    "b_id",
)


@functools.lru_cache(maxsize=8)
def _history_rewrite(dialect: Dialect) -> tuple[str, list[str] | None]:
    """The update of a history row's figures by its id, compiled for ``dialect``: its
    SQL and the order of its positional parameters (None: named)."""
    table = SQLModel.metadata.tables[str(RatingHistory.__tablename__)]
    statement = (
        update(table)
        .where(table.c.id == bindparam("b_id"))
        .values(
            sequence=bindparam("b_sequence"),
            mu_before=bindparam("b_mu_before"),
            sigma_before=bindparam("b_sigma_before"),
            mu_after=bindparam("b_mu_after"),
            sigma_after=bindparam("b_sigma_after"),
            created_at=bindparam("b_created_at"),
        )
    )
    compiled = statement.compile(dialect=dialect)
    order = list(compiled.positiontup or ()) if compiled.positional else None
    return compiled.string, order


def _other_leagues_have_history(session: Session, league_id: int) -> bool:
    """Whether another league has rating history (two probes of the league index)."""
    column = col(RatingHistory.league_id)
    lowest = session.execute(sa_select(func.min(column))).scalar()
    highest = session.execute(sa_select(func.max(column))).scalar()
    return lowest is not None and not lowest == highest == league_id


def _store_current(
    session: Session, league_id: int, ratings: Mapping[int, Current], *, drop_others: bool
) -> None:
    """Make ``ratings`` the league's current ratings, in a few statements (an update of
    the rows there are, an insert of the new ones, then with ``drop_others`` a delete of
    the others), and give any rating loaded in ``session`` its stored values."""
    session.flush()  # the caller's pending changes first
    connection = session.connection()
    table = SQLModel.metadata.tables[str(Rating.__tablename__)]
    existing = list(
        connection.execute(
            sa_select(table.c.entrant_id).where(table.c.league_id == league_id)
        ).scalars()
    )
    stored = set(existing)
    changed = [
        {"b_entrant": entrant_id, "b_mu": mu, "b_sigma": sigma, "b_matches": matches}
        for entrant_id, (mu, sigma, matches) in ratings.items()
        if entrant_id in stored
    ]
    if changed:
        connection.execute(
            update(table)
            .where(table.c.league_id == league_id, table.c.entrant_id == bindparam("b_entrant"))
            .values(
                mu=bindparam("b_mu"), sigma=bindparam("b_sigma"), matches=bindparam("b_matches")
            ),
            changed,
        )
    new = [
        {"league_id": league_id, "entrant_id": entrant_id, "mu": mu, "sigma": sigma, "matches": n}
        for entrant_id, (mu, sigma, n) in ratings.items()
        if entrant_id not in stored
    ]
    if new:
        connection.execute(insert(table), new)
    gone = (
        [entrant_id for entrant_id in existing if entrant_id not in ratings] if drop_others else []
    )
    if gone:
        connection.execute(
            delete(table).where(table.c.league_id == league_id, table.c.entrant_id.in_(gone))
        )
    for instance in list(session.identity_map.values()):
        if isinstance(instance, Rating) and instance.league_id == league_id:
            if instance.entrant_id in ratings:
                mu, sigma, matches = ratings[instance.entrant_id]
                set_committed_value(instance, "mu", mu)
                set_committed_value(instance, "sigma", sigma)
                set_committed_value(instance, "matches", matches)
            elif drop_others:
                session.expunge(instance)


class _HistoryWriter:
    """Inserts rating-history rows in bulk through the database driver."""

    COLUMNS = (
        "league_id",
        "entrant_id",
        "match_id",
        "sequence",
        "mu_before",
        "sigma_before",
        "mu_after",
        "sigma_after",
        "created_at",
    )

    def __init__(self, connection: Connection) -> None:
        self._connection = connection
        self._sql, self._order, self._created = _history_insert(connection.dialect)

    def stamp(self, when: datetime) -> Any:
        """``when`` as the driver stores it in the ``created_at`` column."""
        return self._created(when) if self._created is not None else when

    def __call__(self, rows: list[tuple[Any, ...]]) -> None:
        if self._order is None:
            args: list[Any] = [dict(zip(self.COLUMNS, row, strict=True)) for row in rows]
        elif self._order != list(self.COLUMNS):
            where = [self.COLUMNS.index(name) for name in self._order]
            args = [tuple(row[i] for i in where) for row in rows]
        else:
            args = rows
        self._connection.exec_driver_sql(self._sql, args)


@functools.lru_cache(maxsize=8)
def _history_insert(dialect: Dialect) -> tuple[str, list[str] | None, Any]:
    """The insert of a history row compiled for ``dialect``: its SQL, the order of its
    positional parameters (None: named), and how the ``created_at`` value is bound."""
    table = SQLModel.metadata.tables[str(RatingHistory.__tablename__)]
    statement = insert(table).values({name: bindparam(name) for name in _HistoryWriter.COLUMNS})
    compiled = statement.compile(dialect=dialect)
    order = list(compiled.positiontup or ()) if compiled.positional else None
    created = table.c.created_at.type.dialect_impl(dialect).bind_processor(dialect)
    return compiled.string, order, created
