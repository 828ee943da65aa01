"""A league's leaderboard: every rated entrant, best conservative rating first."""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from c8league.ratings.model import Rating, RatingModel
from c8league.ratings.update import model_for
from c8league.storage import Session
from c8league.storage import ratings as stored_ratings
from c8league.storage.database import Database
from c8league.storage.leagues import inactive_entrants, league_by_id, league_members, only_league
from c8league.storage.results import placements

#: An entrant with fewer rated matches than this is marked provisional.
PROVISIONAL_MATCHES = 10

#: A gap between two neighbours of the leaderboard is told from noise when the model
#: puts the chance that the upper one is stronger at this or more (or at 1 − this or
#: less, when the conservative rating ranks a less certain but stronger entrant lower).
CLEAR_GAP = 0.95


@dataclass(slots=True)
class Placements:
    """An entrant's places over its finished matches: the one way c8league computes
    matches, first places and average places (on every database, in every report)."""

    matches: int = 0
    wins: int = 0
    """First places (a shared first place counts)."""
    places: int = 0
    """The sum of its places."""
    behind: dict[int, int] = field(default_factory=dict)
    """By the number of others at the table: the sum of the places behind first
    (place − 1) at tables of that size."""

    @property
    def average_place(self) -> float:
        return self.places / self.matches if self.matches else math.nan

    @property
    def average_place_normalised(self) -> float:
        """Placement scaled to the table, averaged: 0 is always first, 1 always last.
        Computed exactly and rounded once, so that it does not depend on the order the
        matches are read in (a sum of floats does: 0.37499999999999994 or 0.375)."""
        if not self.matches:
            return math.nan
        total = sum((Fraction(n, others) for others, n in self.behind.items()), Fraction(0))
        return float(total / self.matches)


def placement_figures(seats: Iterable[tuple[int, int, int]]) -> dict[int, Placements]:
    """Each entrant's :class:`Placements` from its seats, given as (entrant id, place,
    table size), in any order."""
    figures: dict[int, Placements] = defaultdict(Placements)
    for entrant, place, size in seats:
        figure = figures[entrant]
        figure.matches += 1
        figure.wins += place == 1
        figure.places += place
        if size > 1:
            figure.behind[size - 1] = figure.behind.get(size - 1, 0) + place - 1
    return dict(figures)


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

    @property
    def gap_is_noise(self) -> bool:
        """Whether the model cannot tell this entrant from the next one down: the chance
        that it is the stronger lies strictly between 1 − :data:`CLEAR_GAP` and
        :data:`CLEAR_GAP` (False for the last)."""
        p = self.prob_stronger_than_next
        return p is not None and 1.0 - CLEAR_GAP < p < CLEAR_GAP


def leaderboard(
    session: Session,
    league_id: int,
    *,
    model: RatingModel | None = None,
    provisional: int = PROVISIONAL_MATCHES,
    upto: int | None = None,
    inactive: Collection[int] | None = None,
) -> list[LeaderboardRow]:
    """Every entrant rated in the league, best conservative rating (μ − 3σ) first.

    Ties of the conservative rating are broken by μ, then by name. Matches, wins and
    placements count every finished match of the league's events. With ``upto``, the
    leaderboard as it stood after the result of that sequence number (an event's
    report); ``inactive`` then says who was no longer playing (default: as now).
    """
    league = league_by_id(session, league_id)
    if model is None:
        model = model_for(league)
    stats = placement_figures(placements(session, league_id, upto))
    if inactive is None:
        inactive = inactive_entrants(session, league_id)
    rated = stored_ratings.rated_entrants(session, league_id, upto)
    ordered = sorted(rated, key=lambda r: (-(r.mu - 3.0 * r.sigma), -r.mu, r.name))
    values = [Rating(r.mu, r.sigma) for r in ordered]
    result: list[LeaderboardRow] = []
    for index, (entrant_id, name, mu, sigma, matches) in enumerate(ordered):
        placed = stats.get(entrant_id, Placements())
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
                wins=placed.wins,
                win_rate=placed.wins / placed.matches if placed.matches else 0.0,
                average_place=placed.average_place,
                average_place_normalised=placed.average_place_normalised,
                provisional=matches < provisional,
                active=entrant_id not in inactive,
                prob_stronger_than_next=next_prob,
            )
        )
    return result


@dataclass(frozen=True, slots=True)
class Leaderboard:
    """A league's leaderboard with what it was computed with."""

    league: str
    title: str
    model: RatingModel
    rows: list[LeaderboardRow]
    bots: bool = False
    """Whether every member of the league is a bot (a duel can then decide between two)."""

    def header(self, provisional: int) -> dict[str, Any]:
        """The league, rating system and parameters, as ``ratings show --json`` opens."""
        return {
            "league": self.league,
            "title": self.title,
            "rating_system": self.model.version(),
            "parameters": self.model.parameters(),
            "provisional_below": provisional,
        }


def league_leaderboard(
    db: Database, league: str | None, *, provisional: int = PROVISIONAL_MATCHES
) -> Leaderboard:
    """The leaderboard of the league called ``league`` (default: the database's only one)."""
    with db.session() as session:
        found = only_league(session, league)
        assert found.id is not None
        model = model_for(found)
        rows = leaderboard(session, found.id, model=model, provisional=provisional)
        members = league_members(session, found.id)
        bots = bool(members) and all(e.kind == "bot" for e in members)
    return Leaderboard(league=found.name, title=found.title, model=model, rows=rows, bots=bots)
