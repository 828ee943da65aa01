"""The rating update of a result: one function, whether the result is new or replayed.

A league is one rating pool. Its results count in the order of their sequence number.
:meth:`RatingLedger.apply` rates one result from the ratings before it and notes the
update for the history; storing new results (:func:`record_results`) and rebuilding
the ratings from the stored results (:func:`rebuild_ratings`, :func:`rebuild_league`)
both go through it, and write through the same storage functions
(``c8league.storage.ratings.write``). After a result is corrected or voided,
rebuilding from its sequence number recomputes everything that follows it and leaves
what came before untouched.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass

from c8league.ratings import fast_openskill
from c8league.ratings.model import Rating, RatingModel, RatingSettings
from c8league.results import Result, forfeit_seats
from c8league.storage import Session
from c8league.storage import ratings as stored_ratings
from c8league.storage.database import Database
from c8league.storage.leagues import league_by_id, only_league
from c8league.storage.models import League, Match
from c8league.storage.results import (
    SeatedResult,
    bump_results_generation,
    hold_write_lock,
    next_sequence,
    results_generation,
    store_results,
)

__all__ = [
    "PairRater",
    "RatingLedger",
    "RebuildSummary",
    "ResultWriter",
    "model_for",
    "pair_rater",
    "rebuild",
    "rebuild_league",
    "rebuild_ratings",
    "record_results",
]


def model_for(league: League) -> RatingModel:
    """The rating model of ``league``, built from its stored rating settings."""
    return RatingModel(RatingSettings.from_json(league.rating))


Pair = tuple[float, float]
"""A rating as the ledger keeps it: (mu, sigma)."""

PairRater = Callable[[list[Pair], Sequence[int], Sequence[bool]], list[Pair]]
"""New ratings after one match, from the ratings before it, places and forfeits."""


def pair_rater(model: RatingModel) -> PairRater:
    """``model.rate`` on (mu, sigma) pairs: the same new ratings, and the same
    ``RatingError`` for a result it cannot rate.

    For openskill (Plackett-Luce) the update is computed without the package's objects
    (``c8league.ratings.fast_openskill``: equal, bit for bit); anything that update does
    not take as it is (an invalid result, a rating that is not finite) goes through
    ``model.rate``, which raises as it always does. TrueSkill's default backend has its
    own fast path inside the model."""
    rate = model.rate

    def through_model(
        before: list[Pair], places: Sequence[int], forfeited: Sequence[bool]
    ) -> list[Pair]:
        rated = rate([Rating(mu, sigma) for mu, sigma in before], places, forfeited)
        return [(r.mu, r.sigma) for r in rated]

    settings = model.settings
    fast = (
        fast_openskill.plackett_luce(settings.mu, settings.sigma, settings.beta, settings.tau)
        if settings.system == "openskill"
        else None
    )
    if fast is None:
        return through_model
    infinity = math.inf

    def plackett_luce(
        before: list[Pair], places: Sequence[int], forfeited: Sequence[bool]
    ) -> list[Pair]:
        n = len(before)
        if n > 1 and len(places) == n and len(forfeited) == n:
            last = n + 1  # below every place; forfeiters tie among themselves (as the model)
            ranks = []
            for place, gave_up in zip(places, forfeited, strict=True):
                if type(place) is not int or not 0 < place <= n:
                    break
                ranks.append(last if gave_up else place)
            else:
                after = fast(before, ranks)
                for mu, sigma in after:
                    if mu - mu != 0.0 or not 0.0 < sigma < infinity:  # not finite
                        break
                else:
                    return after
        return through_model(before, places, forfeited)

    return plackett_luce


class RatingLedger:
    """A league's ratings while its results are rated in order, and the updates made.

    Starts from stored ratings (entrant id → (mu, sigma, rated matches)); an entrant
    without one starts from the model's initial rating. Ratings are kept as (mu, sigma)
    pairs."""

    __slots__ = ("_initial", "_rate", "counts", "league_id", "matches", "ratings", "updates")

    def __init__(
        self,
        league_id: int,
        model: RatingModel,
        stored: Mapping[int, stored_ratings.Current] | None = None,
    ) -> None:
        self.league_id = league_id
        self.ratings: dict[int, Pair] = {}
        self.counts: dict[int, int] = {}
        self.add(stored or {})
        self.updates: list[stored_ratings.HistoryRow] = []
        """Every update made, as the history keeps it."""
        self.matches = 0
        """Results rated."""
        initial = model.initial()
        self._initial = (initial.mu, initial.sigma)
        self._rate = pair_rater(model)

    def apply(
        self,
        match_id: int,
        sequence: int,
        *,
        entrants: Sequence[int],
        places: Sequence[int],
        forfeited: Sequence[bool],
    ) -> None:
        """Rate one result: a free-for-all ranked by ``places``, ties sharing a rank, a
        forfeiting seat ranked last (see :meth:`RatingModel.rate`)."""
        ratings, counts, initial = self.ratings, self.counts, self._initial
        get = ratings.get
        before = [get(e, initial) for e in entrants]
        after = self._rate(before, places, forfeited)
        league_id, add = self.league_id, self.updates.append
        for entrant, (old_mu, old_sigma), new in zip(entrants, before, after, strict=True):
            ratings[entrant] = new
            counts[entrant] = counts.get(entrant, 0) + 1
            add((league_id, entrant, match_id, sequence, old_mu, old_sigma, new[0], new[1]))
        self.matches += 1

    def add(self, stored: Mapping[int, stored_ratings.Current]) -> None:
        """Start from these stored ratings too (each checked as a :class:`Rating`)."""
        for entrant, (mu, sigma, matches) in stored.items():
            Rating(mu, sigma)
            self.ratings[entrant] = (mu, sigma)
            self.counts[entrant] = matches

    def current(self, entrants: Collection[int] | None = None) -> dict[int, stored_ratings.Current]:
        """The ratings as they stand (of ``entrants``, or everyone's), as storage keeps
        them."""
        counts = self.counts
        return {
            e: (mu, sigma, counts[e])
            for e, (mu, sigma) in self.ratings.items()
            if entrants is None or e in entrants
        }


# -- new results --------------------------------------------------------------------------


def record_results(
    session: Session,
    league: League,
    results: Sequence[tuple[Match | int, Result]],
    *,
    model: RatingModel | None = None,
) -> list[SeatedResult]:
    """Store finished matches of ``league`` (each its ``Match`` or, not loaded, its id),
    in order, each counting at the next sequence number, and rate them; in the caller's
    write transaction (see ``Database.writing``: the sequence numbers are taken under
    its lock)."""
    return ResultWriter(league, model).record(session, results)


class ResultWriter:
    """Stores a league's new results batch after batch, each batch in its caller's write
    transaction, as :func:`record_results` stores one.

    Between batches it keeps what it wrote: the ratings of the entrants it rated and the
    next sequence number. Once told that a batch is committed (:meth:`committed`), the
    next batch reads them again only if the league's results generation shows that
    something else stored or re-rated a result meanwhile."""

    def __init__(self, league: League, model: RatingModel | None = None) -> None:
        assert league.id is not None
        self.league_id = league.id
        self.model = model or model_for(league)
        self._ledger: RatingLedger | None = None
        self._loaded: set[int] = set()
        """Entrants whose stored rating the ledger holds (or who had none)."""
        self._next = 0
        self._generation = -1
        """The results generation after the last batch written (-1: none kept)."""
        self._written = -1

    def record(
        self, session: Session, results: Sequence[tuple[Match | int, Result]]
    ) -> list[SeatedResult]:
        """Store and rate ``results`` (see :func:`record_results`)."""
        if not results:
            return []
        league_id = self.league_id
        generation = results_generation(session, league_id)
        ledger = self._ledger
        if ledger is None or generation != self._generation:
            ledger = self._ledger = RatingLedger(league_id, self.model)
            self._loaded = set()
            self._next = next_sequence(session, league_id)
        self._generation = self._written = -1  # until this batch is committed
        first = self._next
        stored = store_results(
            session,
            [(match, result, first + offset) for offset, (match, result) in enumerate(results)],
        )
        entrants = {e for r in stored for e in r.entrants}
        unread = entrants - self._loaded
        if unread:
            ledger.add(stored_ratings.current(session, league_id, unread))
            self._loaded |= unread
        ledger.updates.clear()
        for r in stored:
            ledger.apply(
                r.match_id,
                r.sequence,
                entrants=r.entrants,
                places=r.placements,
                forfeited=r.forfeited,
            )
        stored_ratings.write(session, league_id, ledger.updates, ledger.current(entrants))
        bump_results_generation(session, league_id, len(stored))
        self._next = first + len(stored)
        self._written = generation + len(stored)
        return stored

    def committed(self) -> None:
        """The transaction of the last batch recorded is committed: what it wrote may be
        kept for the next."""
        self._generation = self._written


# -- rebuilding ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RebuildSummary:
    """What a rebuild did."""

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

    Every finished match (``status == "done"``) of the league's events is rated in the
    order of its sequence number by :meth:`RatingLedger.apply`, as storing it did; void
    and pending matches do not count.

    With ``from_sequence``, the ratings as they stood before that sequence number are
    taken from the stored history and only results from ``from_sequence`` on are
    replayed: call it with a corrected or voided match's sequence number.

    ``model`` defaults to the league's own rating model. Pending changes of ``session``
    are flushed first; nothing is committed (the caller commits). Raises
    :class:`NotFoundError` for an unknown league. A rebuild of its own, which holds the
    write lock only while it writes, is :func:`rebuild_league`.
    """
    started = time.perf_counter()
    hold_write_lock(session)  # no result is stored while the ratings are replayed
    ledger = _replay(session, league_id, from_sequence, model)
    _write_replay(session, ledger, from_sequence)
    return _summary(ledger, from_sequence, time.perf_counter() - started)


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
        ledger = _replay(session, league_id, from_sequence, model)
    with db.writing() as session:
        if results_generation(session, league_id) != generation:
            ledger = _replay(session, league_id, from_sequence, model)
        _write_replay(session, ledger, from_sequence)
    return _summary(ledger, from_sequence, time.perf_counter() - started)


def rebuild(
    db: Database, league: str | None, from_sequence: int | None = None
) -> tuple[str, RebuildSummary]:
    """:func:`rebuild_league` of the league called ``league`` (default: the only one);
    returns its name and what was done."""
    with db.session() as session:
        found = only_league(session, league)
    assert found.id is not None
    return found.name, rebuild_league(db, found.id, from_sequence)


def _summary(ledger: RatingLedger, from_sequence: int | None, seconds: float) -> RebuildSummary:
    return RebuildSummary(
        league_id=ledger.league_id,
        from_sequence=from_sequence,
        matches=ledger.matches,
        entrants=len(ledger.ratings),
        seconds=seconds,
    )


def _replay(
    session: Session, league_id: int, from_sequence: int | None, model: RatingModel | None
) -> RatingLedger:
    """Read the league's results (from ``from_sequence`` on) and rate them in order."""
    league = league_by_id(session, league_id)
    session.flush()
    stored = (
        stored_ratings.ratings_before(session, league_id, from_sequence)
        if from_sequence is not None
        else None
    )
    ledger = RatingLedger(league_id, model or model_for(league), stored)
    apply = ledger.apply
    for match_id, sequence, entrants, places, forfeit_seat in stored_ratings.rated_results(
        session, league_id, from_sequence
    ):
        if forfeit_seat is None:
            forfeited: Sequence[bool] = (False,) * len(places)
        else:
            lost = forfeit_seats(places, forfeit_seat)  # type: ignore[arg-type]
            forfeited = [seat in lost for seat in range(len(places))]
        apply(
            match_id,
            sequence,
            entrants=entrants,
            places=places,  # type: ignore[arg-type]
            forfeited=forfeited,
        )
    return ledger


def _write_replay(session: Session, ledger: RatingLedger, from_sequence: int | None) -> None:
    """Replace the league's rating history (from ``from_sequence`` on) and current
    ratings with the replay's. Call under the write lock."""
    stored_ratings.write(
        session,
        ledger.league_id,
        ledger.updates,
        ledger.current(),
        replace_from=from_sequence,
        replace_all=from_sequence is None,
    )
    bump_results_generation(session, ledger.league_id)
