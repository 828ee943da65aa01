"""Fitting a league's rating parameters to its own results (``ratings fit``).

TrueSkill's β (the spread of one match's performance around the skill) and τ (the
drift of skill between matches) belong to the game and the players, not to the
software: its default β is made for a game of its own, and a league of bots whose
skills lie far apart, or a card game that is mostly luck, has another. Each value is
judged by how well the ratings it gives *predicted* the league's results: every match
is predicted from the ratings as they stood before it, then rated, in the order the
results count (as ``ratings rebuild`` replays them).

A match is judged pair by pair, as TrueSkill's own model has it: seat i's performance
less seat j's is normal, of mean μi − μj and spread s = √(2β² + σi² + σj² + 2τ²) (σ
widened by τ as before a match), and a difference within the draw margin ε (TrueSkill's
for two players: Φ⁻¹((p + 1)/2)·√2·β, p the league's draw probability) is a tie. So

    P(i above j) = Φ((μi − μj − ε) / s),  P(j above i) = Φ((μj − μi − ε) / s),

and a tie takes the rest. The figures are the mean log-loss of what happened to each
pair under these chances, and the expected calibration error of "who places higher"
among the pairs that did not tie (P(i above j) / (P(i above j) + P(j above i))): the
pairs binned by that chance, oriented to the favourite (from 0.5 to 1), the gap between
the mean chance and how often it came true, weighed by the bin's pairs.

β (and τ, for a league whose τ is above 0: people's skill moves, bots' does not) is the
value of least log-loss, found by a golden-section search on its logarithm (τ and β in
turn, twice).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from itertools import groupby
from operator import attrgetter
from statistics import NormalDist
from typing import Any

from c8league.ratings.model import Rating, RatingError, RatingModel, RatingSettings
from c8league.ratings.update import rebuild_ratings
from c8league.results import forfeit_seats
from c8league.storage import Session, audit
from c8league.storage.database import Database
from c8league.storage.leagues import league_by_id, only_league
from c8league.storage.results import rated_seats

BINS = 5
"""Bins of the calibration table, over the favourite's chance from 0.5 to 1."""
BETA_RANGE = (0.05, 50.0)
TAU_RANGE = (0.001, 5.0)
STEPS = 24
"""Golden-section steps a parameter: its range narrowed to 0.618²⁴ of itself."""
_SQRT2 = math.sqrt(2.0)


@dataclass(frozen=True, slots=True)
class Rated:
    """One result as the ratings take it: the entrants, their places and forfeits."""

    entrants: tuple[int, ...]
    places: tuple[int, ...]
    forfeited: tuple[bool, ...]


@dataclass(frozen=True, slots=True)
class CalibrationBin:
    """Pairs whose favourite's predicted chance fell in [low, high): their mean chance
    and how often the favourite did place higher."""

    low: float
    high: float
    pairs: int
    predicted: float
    observed: float


@dataclass(frozen=True, slots=True)
class Fitness:
    """How well ratings under ``beta`` and ``tau`` predicted a league's results."""

    beta: float
    tau: float
    pairs: int
    """Pairs judged (every two seats of a match)."""
    log_loss: float
    """Mean log-loss (natural log) of the pairs' outcomes (above, tie, below)."""
    calibration_error: float
    """Expected calibration error over :data:`BINS` bins."""
    bins: tuple[CalibrationBin, ...]

    def to_dict(self) -> dict[str, Any]:
        """Plain values (``ratings fit --json``, the JSON report's ``calibration``)."""
        return {
            "beta": self.beta,
            "tau": self.tau,
            "pairs": self.pairs,
            "log_loss": self.log_loss,
            "calibration_error": self.calibration_error,
            "bins": [
                {
                    "low": b.low,
                    "high": b.high,
                    "pairs": b.pairs,
                    "predicted": b.predicted,
                    "observed": b.observed,
                }
                for b in self.bins
            ],
        }


@dataclass(frozen=True, slots=True)
class Fit:
    """A league's parameters as they are and as fitted, each with its figures."""

    before: Fitness
    after: Fitness
    tau_fitted: bool


def league_results(session: Session, league_id: int) -> list[Rated]:
    """Every finished result of the league, in the order the ratings take them."""
    found = []
    for _, match_seats in groupby(
        rated_seats(session, league_id, None), key=attrgetter("match_id")
    ):
        seats = list(match_seats)
        places = [seat.place for seat in seats]
        lost = forfeit_seats(places, seats[0].forfeit_seat)
        found.append(
            Rated(
                tuple(seat.entrant_id for seat in seats),
                tuple(places),
                tuple(seat in lost for seat in range(len(seats))),
            )
        )
    return found


def fitness(results: Sequence[Rated], settings: RatingSettings) -> Fitness:
    """Predict every result from the ratings before it, then rate it (see the module)."""
    model = RatingModel(settings)
    initial = model.initial()
    ratings: dict[int, Rating] = {}
    beta2, tau2 = settings.beta**2, settings.tau**2
    margin = NormalDist().inv_cdf((settings.draw_probability + 1) / 2) * _SQRT2 * settings.beta
    loss, pairs = 0.0, 0
    counts = [0] * BINS
    chance = [0.0] * BINS
    came = [0] * BINS
    for result in results:
        before = [ratings.get(e, initial) for e in result.entrants]
        ranks = _ranks(result)
        for i in range(len(before)):
            for j in range(i + 1, len(before)):
                a, b = before[i], before[j]
                spread = math.sqrt(2 * beta2 + a.sigma**2 + b.sigma**2 + 2 * tau2) * _SQRT2
                above = 0.5 * math.erfc(-(a.mu - b.mu - margin) / spread)
                below = 0.5 * math.erfc(-(b.mu - a.mu - margin) / spread)
                pairs += 1
                if ranks[i] == ranks[j]:
                    loss -= math.log(max(1.0 - above - below, 1e-12))
                    continue
                won = ranks[i] < ranks[j]
                loss -= math.log(max(above if won else below, 1e-12))
                p = above / (above + below) if above + below > 0 else 0.5
                favourite, right = (p, won) if p >= 0.5 else (1.0 - p, not won)
                k = min(BINS - 1, int((favourite - 0.5) * 2 * BINS))
                counts[k] += 1
                chance[k] += favourite
                came[k] += right
        after = model.rate(before, result.places, result.forfeited)
        for entrant, rating in zip(result.entrants, after, strict=True):
            ratings[entrant] = rating
    bins = tuple(
        CalibrationBin(
            0.5 + k / (2 * BINS),
            0.5 + (k + 1) / (2 * BINS),
            counts[k],
            chance[k] / counts[k] if counts[k] else 0.0,
            came[k] / counts[k] if counts[k] else 0.0,
        )
        for k in range(BINS)
    )
    error = sum(b.pairs * abs(b.predicted - b.observed) for b in bins) / pairs if pairs else 0.0
    return Fitness(
        beta=settings.beta,
        tau=settings.tau,
        pairs=pairs,
        log_loss=loss / pairs if pairs else math.log(2.0),
        calibration_error=error,
        bins=bins,
    )


def fit(results: Sequence[Rated], settings: RatingSettings) -> Fit:
    """The β (and τ, when ``settings.tau`` is above 0) of least log-loss over ``results``."""
    before = fitness(results, settings)
    fit_tau = settings.tau > 0
    best = settings
    for _ in range(2 if fit_tau else 1):
        best = replace(best, beta=_golden(results, best, "beta", BETA_RANGE))
        if fit_tau:
            best = replace(best, tau=_golden(results, best, "tau", TAU_RANGE))
    after = fitness(results, best)
    if after.log_loss > before.log_loss:  # (the search keeps to its range: never worse)
        after = before
    return Fit(before, after, fit_tau)


def _golden(
    results: Sequence[Rated], settings: RatingSettings, name: str, bounds: tuple[float, float]
) -> float:
    """The value of the parameter ``name`` in ``bounds`` of least log-loss, the others as
    in ``settings``, searched on its logarithm."""

    def judge(value: float) -> Fitness:
        changed = replace(settings, beta=value) if name == "beta" else replace(settings, tau=value)
        return fitness(results, changed)

    low, high = math.log(bounds[0]), math.log(bounds[1])
    ratio = (math.sqrt(5.0) - 1.0) / 2.0
    a, b = high - ratio * (high - low), low + ratio * (high - low)
    fa, fb = judge(math.exp(a)).log_loss, judge(math.exp(b)).log_loss
    for _ in range(STEPS):
        if fa <= fb:
            high, b, fb = b, a, fa
            a = high - ratio * (high - low)
            fa = judge(math.exp(a)).log_loss
        else:
            low, a, fa = a, b, fb
            b = low + ratio * (high - low)
            fb = judge(math.exp(b)).log_loss
    return round(math.exp((low + high) / 2.0), 4)


def _ranks(result: Rated) -> list[int]:
    """Each seat's rank as the ratings take it: its place, a forfeit below every place."""
    lowest = max(result.places) + 1
    return [
        lowest if lost else place
        for place, lost in zip(result.places, result.forfeited, strict=True)
    ]


def fit_league(db: Database, league: str | None, *, apply: bool = False) -> tuple[str, Fit]:
    """Fit the rating parameters of the league called ``league`` (default: the only one)
    to its results; with ``apply``, keep the fitted β and τ as the league's and rebuild
    its ratings with them, in one transaction, with an entry in the audit trail."""
    with db.session() as session:
        found = only_league(session, league)
        assert found.id is not None
        league_id, name = found.id, found.name
        settings = RatingSettings.from_json(found.rating)
        results = league_results(session, league_id)
    if settings.system != "trueskill":
        raise RatingError(
            f"league {name!r} is rated by {settings.system}: fitting takes TrueSkill's β and τ"
        )
    done = fit(results, settings)
    if apply:
        fitted = replace(settings, beta=done.after.beta, tau=done.after.tau)
        with db.writing() as session:
            row = league_by_id(session, league_id)
            row.rating = fitted.to_json()
            session.add(row)
            audit.record(
                session,
                "ratings fitted",
                league_id=league_id,
                subject=f"league {name}",
                before={"beta": settings.beta, "tau": settings.tau},
                after={"beta": fitted.beta, "tau": fitted.tau},
                note=f"log-loss {done.before.log_loss:.4f} → {done.after.log_loss:.4f} over "
                f"{done.after.pairs} pairs",
            )
            rebuild_ratings(session, league_id, model=RatingModel(fitted))
    return name, done
