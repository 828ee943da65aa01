"""Ratings kept in storage: rebuilding them from the results, the leaderboard, predictions.

A league is one rating pool. Its results count in the order of ``Match.sequence``;
:func:`rebuild_ratings` replays them in that order with the league's own
:class:`~c8league.ratings.RatingModel` and gives exactly the ratings that storing
the results one by one gave (``c8league.storage.results.apply_rating``). After a
result is corrected or voided, rebuilding from its sequence number recomputes
everything that follows it and leaves what came before untouched.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast

from sqlalchemy import Connection, bindparam, case, delete, func, insert
from sqlalchemy import select as sa_select
from sqlalchemy.sql import ClauseElement
from sqlalchemy.sql.compiler import SQLCompiler
from sqlmodel import Session, SQLModel, col, select

from c8league.errors import NotFoundError, UsageError
from c8league.ratings import Rating as RatingValue
from c8league.ratings import RatingModel
from c8league.storage.database import Database
from c8league.storage.models import (
    Entrant,
    Event,
    League,
    LeagueEntrant,
    Match,
    MatchSeat,
    Rating,
    RatingHistory,
    utcnow,
)
from c8league.storage.repo import get_league, rating_settings
from c8league.storage.results import (
    bump_results_generation,
    hold_write_lock,
    results_generation,
)

__all__ = [
    "PROVISIONAL_MATCHES",
    "LeaderboardRow",
    "Prediction",
    "PredictionRow",
    "RebuildSummary",
    "fetch_rows",
    "inactive_entrants",
    "leaderboard",
    "league_for_entrants",
    "model_for",
    "predict_table",
    "rebuild_league",
    "rebuild_ratings",
    "resolve_league",
]

#: An entrant with fewer rated matches than this is marked provisional.
PROVISIONAL_MATCHES = 10

_INSERT_BATCH = 20_000


def model_for(league: League) -> RatingModel:
    """The rating model of ``league``, built from its stored rating settings."""
    return RatingModel(rating_settings(league))


def resolve_league(session: Session, name: str | None) -> League:
    """The league called ``name``; without a name, the only league of the database.

    Raises :class:`NotFoundError` for an unknown name or an empty database, and
    :class:`UsageError` when there are several leagues and no name.
    """
    if name is not None:
        return get_league(session, name)
    leagues = list(session.exec(select(League).order_by(col(League.name))).all())
    if not leagues:
        raise NotFoundError("no leagues yet (c8league league import FILE)")
    if len(leagues) > 1:
        names = ", ".join(lg.name for lg in leagues)
        raise UsageError(f"several leagues ({names}): name one")
    return leagues[0]


def league_for_entrants(session: Session, names: Sequence[str]) -> League:
    """The league a table of ``names`` plays in: the only league, or else the only league
    all of them are members of. Raises :class:`UsageError` when that is not one league."""
    leagues = list(session.exec(select(League).order_by(col(League.name))).all())
    if len(leagues) == 1:
        return leagues[0]
    if not leagues:
        raise NotFoundError("no leagues yet (c8league league import FILE)")
    wanted = set(names)
    common = []
    for league in leagues:
        members = session.exec(
            select(Entrant.name)
            .join(LeagueEntrant, col(LeagueEntrant.entrant_id) == col(Entrant.id))
            .where(LeagueEntrant.league_id == league.id)
        ).all()
        if wanted <= set(members):
            common.append(league)
    if len(common) == 1:
        return common[0]
    if not common:
        listed = ", ".join(lg.name for lg in leagues)
        raise UsageError(f"no league has all of these entrants; name one with --league: {listed}")
    listed = ", ".join(lg.name for lg in common)
    raise UsageError(
        f"these entrants are all in several leagues ({listed}); name one with --league"
    )


# -- rebuilding ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RebuildSummary:
    """What :func:`rebuild_ratings` did."""

    league_id: int
    from_sequence: int | None
    """The first sequence number recomputed (``None``: everything)."""
    matches: int
    """Results replayed."""
    entrants: int
    """Entrants with a rating afterwards."""
    seconds: float


def rebuild_ratings(
    session: Session,
    league_id: int,
    from_sequence: int | None = None,
    *,
    model: RatingModel | None = None,
) -> RebuildSummary:
    """Recompute a league's ratings and rating history from its stored results, inside
    the caller's transaction (which this makes the database's one writer).

    Every finished match (``status == "done"``) of the league's events is rated
    in the order of ``Match.sequence``, from its seats' places, with a forfeiting
    seat ranked last, exactly as storing the results did; void and pending
    matches do not count. The result equals the incrementally stored ratings
    bit for bit.

    With ``from_sequence``, the ratings as they stood before that sequence number
    are taken from the stored history and only results from ``from_sequence`` on
    are replayed: call it with a corrected or voided match's sequence number.

    ``model`` defaults to the league's own rating model. Pending changes of
    ``session`` are flushed first; nothing is committed (the caller commits).
    Raises :class:`NotFoundError` for an unknown league. A rebuild of its own, which
    holds the write lock only while it writes, is :func:`rebuild_league`.
    """
    started = time.perf_counter()
    hold_write_lock(session)  # no result is stored while the ratings are replayed
    plan = _replay(session, league_id, from_sequence, model)
    _write_replay(session, plan)
    return plan.summary(time.perf_counter() - started)


def rebuild_league(
    db: Database,
    league_id: int,
    from_sequence: int | None = None,
    *,
    model: RatingModel | None = None,
) -> RebuildSummary:
    """:func:`rebuild_ratings` as a transaction of its own that keeps other writers
    waiting only while it writes: the results are read and replayed first, outside the
    write lock, and written if no result of the league changed meanwhile (otherwise
    the replay is done again under the lock). All or nothing, like any transaction."""
    started = time.perf_counter()
    with db.session() as session:
        generation = results_generation(session, league_id)
        plan = _replay(session, league_id, from_sequence, model)
    with db.writing() as session:
        if results_generation(session, league_id) != generation:
            plan = _replay(session, league_id, from_sequence, model)
        _write_replay(session, plan)
    return plan.summary(time.perf_counter() - started)


@dataclass
class _Replay:
    """A league's ratings replayed from its results, ready to be written."""

    league_id: int
    from_sequence: int | None
    history: list[tuple[Any, ...]]
    ratings: dict[int, RatingValue]
    counts: dict[int, int]
    matches: int

    def summary(self, seconds: float) -> RebuildSummary:
        return RebuildSummary(
            league_id=self.league_id,
            from_sequence=self.from_sequence,
            matches=self.matches,
            entrants=len(self.ratings),
            seconds=seconds,
        )


def _replay(
    session: Session, league_id: int, from_sequence: int | None, model: RatingModel | None
) -> _Replay:
    """Read the league's results (from ``from_sequence`` on) and rate them in order."""
    league = session.get(League, league_id)
    if league is None:
        raise NotFoundError(f"no league with id {league_id}")
    if model is None:
        model = model_for(league)
    session.flush()

    ratings: dict[int, RatingValue] = {}
    counts: dict[int, int] = {}
    if from_sequence is not None:
        ratings, counts = _ratings_before(session, league_id, from_sequence)
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
    rows = fetch_rows(session.connection(), query)

    initial = model.initial()
    rate = model.rate
    history: list[tuple[Any, ...]] = []
    matches = 0
    index = 0
    total = len(rows)
    while index < total:
        match_id, sequence, forfeit_seat = rows[index][0], rows[index][1], rows[index][2]
        end = index
        while end < total and rows[end][0] == match_id:
            end += 1
        seats = rows[index:end]
        index = end
        entrants = [row[4] for row in seats]
        places = [row[5] for row in seats]
        forfeited = [forfeit_seat is not None and row[3] == forfeit_seat for row in seats]
        before = [ratings.get(e, initial) for e in entrants]
        after = rate(before, places, forfeited)
        for entrant, old, new in zip(entrants, before, after, strict=True):
            ratings[entrant] = new
            counts[entrant] = counts.get(entrant, 0) + 1
            history.append(
                (league_id, entrant, match_id, sequence, old.mu, old.sigma, new.mu, new.sigma)
            )
        matches += 1
    return _Replay(league_id, from_sequence, history, ratings, counts, matches)


def _write_replay(session: Session, plan: _Replay) -> None:
    """Replace the league's rating history (from the replay's first sequence on) and
    current ratings with the replay's. Call under the write lock."""
    league_id = plan.league_id
    stale = delete(RatingHistory)
    if plan.from_sequence is not None:
        stale = stale.where(
            col(RatingHistory.league_id) == league_id,
            col(RatingHistory.sequence) >= plan.from_sequence,
        )
    elif _other_leagues_have_history(session, league_id):
        stale = stale.where(col(RatingHistory.league_id) == league_id)
    # else the whole table is this league's: an unqualified DELETE empties it fastest.
    session.execute(stale, execution_options={"synchronize_session": "evaluate"})
    write = _HistoryWriter(session.connection())
    now = write.stamp(utcnow())
    for start in range(0, len(plan.history), _INSERT_BATCH):
        write([(*row, now) for row in plan.history[start : start + _INSERT_BATCH]])
    _store_current(session, league_id, plan.ratings, plan.counts)
    bump_results_generation(session, league_id)


def _other_leagues_have_history(session: Session, league_id: int) -> bool:
    query = select(RatingHistory.id).where(col(RatingHistory.league_id) != league_id).limit(1)
    return session.exec(query).first() is not None


def fetch_rows(connection: Connection, query: ClauseElement) -> list[Any]:
    """All rows of ``query`` as tuples of the database driver's own values.

    The statement is compiled for the connection's dialect; skipping SQLAlchemy's row
    processing matters when a league has hundreds of thousands of seats. Meant for
    queries of plain integers, floats and strings (a driver may return other types,
    such as SQLite's dates, in its own form).
    """
    compiled = cast(
        SQLCompiler,
        query.compile(dialect=connection.dialect, compile_kwargs={"render_postcompile": True}),
    )
    params = compiled.construct_params()
    args: Any = (
        tuple(params[name] for name in compiled.positiontup or ())
        if compiled.positional
        else params
    )
    return list(connection.exec_driver_sql(compiled.string, args).all())


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
        table = SQLModel.metadata.tables[str(RatingHistory.__tablename__)]
        statement = insert(table).values({name: bindparam(name) for name in self.COLUMNS})
        compiled = statement.compile(dialect=connection.dialect)
        self._connection = connection
        self._sql = compiled.string
        self._order = list(compiled.positiontup or ()) if compiled.positional else None
        created = table.c.created_at.type
        self._created = created.dialect_impl(connection.dialect).bind_processor(connection.dialect)

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


def _ratings_before(
    session: Session, league_id: int, sequence: int
) -> tuple[dict[int, RatingValue], dict[int, int]]:
    """Each entrant's rating and rated-match count just before ``sequence``."""
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
    ratings: dict[int, RatingValue] = {}
    counts: dict[int, int] = {}
    for entrant_id, mu, sigma, matches in session.execute(query).all():
        ratings[entrant_id] = RatingValue(mu, sigma)
        counts[entrant_id] = int(matches)
    return ratings, counts


def _store_current(
    session: Session, league_id: int, ratings: dict[int, RatingValue], counts: dict[int, int]
) -> None:
    """Make the league's ``rating`` rows equal ``ratings`` (one row per rated entrant)."""
    existing = {
        row.entrant_id: row
        for row in session.exec(select(Rating).where(Rating.league_id == league_id)).all()
    }
    for entrant_id, row in existing.items():
        if entrant_id not in ratings:
            session.delete(row)
    for entrant_id, value in ratings.items():
        current = existing.get(entrant_id)
        if current is None:
            current = Rating(
                league_id=league_id, entrant_id=entrant_id, mu=value.mu, sigma=value.sigma
            )
        current.mu, current.sigma, current.matches = value.mu, value.sigma, counts[entrant_id]
        session.add(current)
    session.flush()


# -- leaderboard --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class LeaderboardRow:
    """One entrant of a league's leaderboard (sorted by the conservative rating)."""

    rank: int
    entrant_id: int
    name: str
    mu: float
    sigma: float
    conservative: float
    """``mu - 3 * sigma``: the sort key."""
    matches: int
    wins: int
    """First places (a shared first place counts)."""
    win_rate: float
    average_place: float
    average_place_normalised: float
    """Placement scaled to the table: 0 is always first, 1 always last."""
    provisional: bool
    """Fewer rated matches than the provisional threshold."""
    active: bool
    """Neither retired nor withdrawn from the league."""
    prob_stronger_than_next: float | None
    """The probability that this entrant's skill exceeds the next one's down the
    leaderboard (``None`` for the last)."""


def leaderboard(
    session: Session,
    league_id: int,
    *,
    model: RatingModel | None = None,
    provisional: int = PROVISIONAL_MATCHES,
) -> list[LeaderboardRow]:
    """Every entrant rated in the league, best conservative rating (μ − 3σ) first.

    Ties of the conservative rating are broken by μ, then by name. Matches, wins and
    placements count every finished match of the league's events.
    """
    league = session.get(League, league_id)
    if league is None:
        raise NotFoundError(f"no league with id {league_id}")
    if model is None:
        model = model_for(league)
    sizes = (
        select(col(MatchSeat.match_id).label("match_id"), func.count().label("size"))
        .group_by(col(MatchSeat.match_id))
        .subquery()
    )
    place = col(MatchSeat.place)
    stats_query = (
        sa_select(
            col(MatchSeat.entrant_id),
            func.count(),
            func.sum(case((place == 1, 1), else_=0)),
            func.avg(place * 1.0),
            func.avg((place - 1.0) / (sizes.c.size - 1)),
        )
        .join(Match, col(Match.id) == col(MatchSeat.match_id))
        .join(Event, col(Event.id) == col(Match.event_id))
        .join(sizes, sizes.c.match_id == col(MatchSeat.match_id))
        .where(col(Event.league_id) == league_id, col(Match.status) == "done")
        .group_by(col(MatchSeat.entrant_id))
    )
    stats = {row[0]: row[1:] for row in session.execute(stats_query).all()}
    inactive = inactive_entrants(session, league_id)
    rated = session.execute(
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
    ordered = sorted(rated, key=lambda r: (-(r[2] - 3.0 * r[3]), -r[2], r[1]))
    values = [RatingValue(r[2], r[3]) for r in ordered]
    result: list[LeaderboardRow] = []
    for index, (entrant_id, name, mu, sigma, matches) in enumerate(ordered):
        played, wins, avg_place, avg_norm = stats.get(entrant_id, (0, 0, None, None))
        wins = int(wins or 0)
        next_prob = (
            model.prob_stronger(values[index], values[index + 1])
            if index + 1 < len(values)
            else None
        )
        result.append(
            LeaderboardRow(
                rank=index + 1,
                entrant_id=entrant_id,
                name=name,
                mu=mu,
                sigma=sigma,
                conservative=mu - 3.0 * sigma,
                matches=matches,
                wins=wins,
                win_rate=wins / played if played else 0.0,
                average_place=float(avg_place) if avg_place is not None else math.nan,
                average_place_normalised=float(avg_norm) if avg_norm is not None else math.nan,
                provisional=matches < provisional,
                active=entrant_id not in inactive,
                prob_stronger_than_next=next_prob,
            )
        )
    return result


def inactive_entrants(session: Session, league_id: int) -> set[int]:
    """Entrants of the league who are retired, or withdrawn from it."""
    withdrawn = session.exec(
        select(LeagueEntrant.entrant_id).where(
            LeagueEntrant.league_id == league_id,
            LeagueEntrant.withdrawn == True,  # noqa: E712
        )
    ).all()
    retired = session.exec(select(Entrant.id).where(Entrant.retired == True)).all()  # noqa: E712
    return {int(e) for e in withdrawn} | {int(e) for e in retired if e is not None}


# -- predictions --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PredictionRow:
    name: str
    mu: float
    sigma: float
    rated: bool
    """False for an entrant without a rated match in the league (initial rating)."""
    win_probability: float
    """The chance to finish first at this table, simulated from the ratings."""


@dataclass(frozen=True, slots=True)
class Prediction:
    league: str
    quality: float
    """The rating system's match quality of the table (0 one-sided … 1 even)."""
    rows: tuple[PredictionRow, ...]
    samples: int


def predict_table(
    session: Session, league: League, names: Sequence[str], *, samples: int = 20000, seed: int = 0
) -> Prediction:
    """Match quality and each entrant's chance to win, for a table of ``names`` in ``league``.

    Entrants without a rating in the league take the initial rating. Raises
    :class:`NotFoundError` for an unknown name and :class:`UsageError` for fewer
    than two names or a name given twice.
    """
    if len(names) < 2:
        raise UsageError("a table needs at least two entrants")
    repeated = sorted({n for n in names if list(names).count(n) > 1})
    if repeated:
        raise UsageError(f"entrant named twice: {', '.join(repeated)}")
    assert league.id is not None
    model = model_for(league)
    entrants = {
        e.name: e for e in session.exec(select(Entrant).where(col(Entrant.name).in_(names))).all()
    }
    missing = [n for n in names if n not in entrants]
    if missing:
        raise NotFoundError(f"no player named {missing[0]!r} (c8league players list)")
    ids = [entrants[n].id for n in names]
    stored = {
        r.entrant_id: r
        for r in session.exec(
            select(Rating).where(Rating.league_id == league.id, col(Rating.entrant_id).in_(ids))
        ).all()
    }
    values: list[RatingValue] = []
    rated: list[bool] = []
    for entrant_id in ids:
        row = stored.get(entrant_id) if entrant_id is not None else None
        values.append(RatingValue(row.mu, row.sigma) if row is not None else model.initial())
        rated.append(row is not None)
    chances = model.win_probabilities(values, samples=samples, seed=seed)
    rows = tuple(
        PredictionRow(name, value.mu, value.sigma, is_rated, chance)
        for name, value, is_rated, chance in zip(names, values, rated, chances, strict=True)
    )
    return Prediction(league.name, model.quality(values), rows, samples)
