"""Predictions from a league's ratings: how even a table is, and each entrant's chance
to finish first."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from c8league.errors import NotFoundError, UsageError
from c8league.ratings.model import Rating
from c8league.ratings.update import model_for
from c8league.storage import Session
from c8league.storage import ratings as stored_ratings
from c8league.storage.database import Database
from c8league.storage.leagues import all_leagues, entrants_named, league_members, only_league
from c8league.storage.models import League


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
    beta: float = 25.0 / 6.0
    """The league's β the chances were simulated with (``ratings fit`` fits it)."""


def league_for_entrants(session: Session, names: Sequence[str]) -> League:
    """The league a table of ``names`` plays in: the only league, or else the only league
    all of them are members of. Raises :class:`UsageError` when that is not one league."""
    leagues = all_leagues(session)
    if len(leagues) == 1:
        return leagues[0]
    if not leagues:
        raise NotFoundError("no leagues yet (c8league league import FILE)")
    wanted = set(names)
    common = [
        league
        for league in leagues
        if wanted <= {e.name for e in league_members(session, league.id or 0)}
    ]
    if len(common) == 1:
        return common[0]
    if not common:
        listed = ", ".join(lg.name for lg in leagues)
        raise UsageError(
            f"no league has all of these entrants; name one with `league`: {listed}",
            params=["league"],
        )
    listed = ", ".join(lg.name for lg in common)
    raise UsageError(
        f"these entrants are all in several leagues ({listed}); name one with `league`",
        params=["league"],
    )


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
    entrants = entrants_named(session, names)
    missing = [n for n in names if n not in entrants]
    if missing:
        raise NotFoundError(f"no player named {missing[0]!r} (c8league players list)")
    ids = [entrants[n].id or 0 for n in names]
    stored = stored_ratings.current(session, league.id, ids)
    values: list[Rating] = []
    rated: list[bool] = []
    for entrant_id in ids:
        current = stored.get(entrant_id)
        if current is None:
            values.append(model.initial())
        else:
            mu, sigma, _ = current
            values.append(Rating(mu, sigma))
        rated.append(current is not None)
    chances = model.win_probabilities(values, samples=samples, seed=seed)
    rows = tuple(
        PredictionRow(
            name=name, mu=value.mu, sigma=value.sigma, rated=is_rated, win_probability=chance
        )
        for name, value, is_rated, chance in zip(names, values, rated, chances, strict=True)
    )
    return Prediction(league.name, model.quality(values), rows, samples, beta=model.settings.beta)


def predict(
    db: Database, names: Sequence[str], league: str | None = None, *, samples: int = 20000
) -> Prediction:
    """:func:`predict_table` in the league called ``league``, or else the league the
    entrants play in (see :func:`league_for_entrants`)."""
    with db.session() as session:
        found = (
            only_league(session, league)
            if league is not None
            else league_for_entrants(session, names)
        )
        return predict_table(session, found, names, samples=samples)
