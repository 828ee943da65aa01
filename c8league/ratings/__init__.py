"""Ratings: the skill model (:mod:`~c8league.ratings.model`, the only code of c8league
that imports ``trueskill`` or ``openskill``), the one rating update applied to each
result, whether new or replayed (:mod:`~c8league.ratings.update`), the leaderboard
(:mod:`~c8league.ratings.leaderboard`) and predictions (:mod:`~c8league.ratings.predict`).

This package imports only the pure model; the modules that read and write stored
ratings are imported by name.
"""

from c8league.ratings.model import (
    BACKENDS,
    SYSTEMS,
    Rating,
    RatingError,
    RatingModel,
    RatingSettings,
    RatingSystem,
)

__all__ = [
    "BACKENDS",
    "SYSTEMS",
    "Rating",
    "RatingError",
    "RatingModel",
    "RatingSettings",
    "RatingSystem",
]
