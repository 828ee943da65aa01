"""Skill ratings for free-for-all tables of one-player teams.

A match at a table of 2 to 8 players is rated from its placements: place 1 is
the winner, equal places are ties, and players who forfeited are ranked below
everyone who did not. :class:`RatingModel` turns a table's ratings and
placements into new ratings with TrueSkill (the ``trueskill`` package) or, as
an alternative, openskill's Plackett-Luce model.

The ratings package is the only part of c8league that imports ``trueskill``
or ``openskill``, and this module is where: it is pure (no storage, no I/O, no
global state). The same settings, ratings and placements always give the same
new ratings.

Example::

    model = RatingModel(RatingSettings())
    alice, bob, carol = model.initial(), model.initial(), model.initial()
    alice, bob, carol = model.rate([alice, bob, carol], places=[1, 2, 2])
"""

from __future__ import annotations

import dataclasses
import importlib
import json
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Literal, Protocol, get_args

import trueskill  # type: ignore[import-untyped]

from c8league.errors import C8LeagueError
from c8league.ratings import fast_trueskill

RatingSystem = Literal["trueskill", "openskill"]

#: The rating systems :class:`RatingSettings` accepts.
SYSTEMS: tuple[str, ...] = get_args(RatingSystem)

#: The ``trueskill`` statistics backends besides the default pure-Python one.
BACKENDS: tuple[str, ...] = ("mpmath", "scipy")

_SQRT2 = math.sqrt(2.0)


class RatingError(C8LeagueError, ValueError):
    """Invalid rating settings, an invalid rating, or an impossible match result."""


def _check_real(name: str, value: float) -> None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise RatingError(f"{name} must be a number, got {value!r}")
    if not math.isfinite(value):
        raise RatingError(f"{name} must be finite, got {value!r}")


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's skill belief: a normal distribution N(mu, sigma²).

    ``sigma`` must be positive and both values finite.
    """

    mu: float
    sigma: float

    def __post_init__(self) -> None:
        if not (math.isfinite(self.mu) and math.isfinite(self.sigma) and self.sigma > 0):
            raise RatingError(
                f"a rating needs a finite mu and a positive finite sigma, "
                f"got mu={self.mu!r}, sigma={self.sigma!r}"
            )

    @property
    def conservative(self) -> float:
        """``mu - 3 * sigma``: a skill the player very probably has (leaderboard key)."""
        return self.mu - 3.0 * self.sigma


@dataclass(frozen=True)
class RatingSettings:
    """How a league's ratings are computed. Validated on construction.

    - ``system``: ``"trueskill"`` (default) or ``"openskill"`` (Plackett-Luce,
      an optional extra).
    - ``mu``, ``sigma``: the rating of a new entrant.
    - ``beta``: the spread of one match performance around the skill; a skill
      ``beta`` higher than another's wins a two-player match about 76% of the
      time.
    - ``tau``: added uncertainty before each match, so ratings keep moving.
    - ``draw_probability``: the chance that two adjacent, equally skilled
      players tie. Placements can tie, so it must be above 0 (with 0 a tie
      makes sigma grow) and below 1. TrueSkill only; openskill has no such
      parameter and ignores it.
    - ``backend``: the ``trueskill`` statistics backend: ``None`` (pure Python,
      the fastest), ``"mpmath"`` (arbitrary precision, for extreme ratings)
      or ``"scipy"``. TrueSkill only.
    """

    # A league file's ``[rating]`` table is read into this class directly (see
    # ``c8league.league.files``), as strictly as the rest of the file: each field
    # strictly typed, no unknown key, no inf or nan; then ``__post_init__`` checks.
    __pydantic_config__: ClassVar[dict[str, object]] = {
        "extra": "forbid",
        "strict": True,
        "allow_inf_nan": False,
    }

    system: RatingSystem = "trueskill"
    mu: float = 25.0
    sigma: float = 25.0 / 3.0
    beta: float = 25.0 / 6.0
    tau: float = 25.0 / 300.0
    draw_probability: float = 0.10
    backend: str | None = None

    @classmethod
    def __get_pydantic_core_schema__(cls, source: Any, handler: Any) -> Any:
        # Strict fields, but the table itself may be a mapping (not only an instance).
        schema = handler(source)
        schema["strict"] = False
        return schema

    def to_json(self) -> str:
        """The settings as stored with a league (JSON, keys sorted)."""
        return json.dumps(dataclasses.asdict(self), sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> RatingSettings:
        """Settings stored by :meth:`to_json`."""
        return cls(**json.loads(text))

    def __post_init__(self) -> None:
        if self.system not in SYSTEMS:
            raise RatingError(
                f"unknown rating system {self.system!r}; expected one of {', '.join(SYSTEMS)}"
            )
        for name in ("mu", "sigma", "beta", "tau", "draw_probability"):
            _check_real(name, getattr(self, name))
        if self.sigma <= 0:
            raise RatingError(f"sigma must be positive, got {self.sigma!r}")
        if self.beta <= 0:
            raise RatingError(f"beta must be positive, got {self.beta!r}")
        if self.tau < 0:
            raise RatingError(f"tau must not be negative, got {self.tau!r}")
        if not 0 < self.draw_probability < 1:
            raise RatingError(
                "draw_probability must be above 0 and below 1 (placements can tie), "
                f"got {self.draw_probability!r}"
            )
        if self.backend is not None:
            if self.system != "trueskill":
                raise RatingError(f"backend is a trueskill setting; {self.system} takes none")
            if self.backend not in BACKENDS:
                raise RatingError(
                    f"unknown trueskill backend {self.backend!r}; "
                    f"expected one of {', '.join(BACKENDS)} or none"
                )


class _MuSigma(Protocol):
    @property
    def mu(self) -> float: ...

    @property
    def sigma(self) -> float: ...


class _TrueSkillEnv(Protocol):
    """The part of ``trueskill.TrueSkill`` used here."""

    def rate(
        self, rating_groups: list[tuple[_MuSigma]], ranks: list[int]
    ) -> list[tuple[_MuSigma, ...]]: ...

    def quality(self, rating_groups: list[tuple[_MuSigma]]) -> float: ...


class _PlackettLuce(Protocol):
    """The part of ``openskill.models.PlackettLuce`` used here."""

    kappa: float

    def rating(self, mu: float | None = None, sigma: float | None = None) -> _MuSigma: ...

    def rate(self, teams: list[list[_MuSigma]], ranks: list[float]) -> list[list[_MuSigma]]: ...

    def predict_draw(self, teams: list[list[_MuSigma]]) -> float: ...


class _Engine(Protocol):
    name: str
    version: str

    def rate(self, ratings: Sequence[Rating], ranks: list[int]) -> list[Rating]: ...

    def quality(self, ratings: Sequence[Rating]) -> float: ...


class _TrueSkillEngine:
    name = "trueskill"

    def __init__(self, settings: RatingSettings) -> None:
        try:
            env: _TrueSkillEnv = trueskill.TrueSkill(
                mu=settings.mu,
                sigma=settings.sigma,
                beta=settings.beta,
                tau=settings.tau,
                draw_probability=settings.draw_probability,
                backend=settings.backend,
            )
        except ImportError as exc:
            raise RatingError(
                f"trueskill backend {settings.backend!r} needs a package that is not "
                f"installed: {exc}"
            ) from exc
        self._env = env
        self._fast = settings.backend is None
        self._make = trueskill.Rating
        self.version = str(trueskill.__version__)

    def rate(self, ratings: Sequence[Rating], ranks: list[int]) -> list[Rating]:
        make = self._make
        try:
            if self._fast:
                # The package's own update, computed without its objects (equal, bit for
                # bit: see c8league.ratings.fast_trueskill).
                pairs = fast_trueskill.rate(self._env, [(r.mu, r.sigma) for r in ratings], ranks)
                return [Rating(mu, sigma) for mu, sigma in pairs]
            groups = [(make(r.mu, r.sigma),) for r in ratings]
            rated = self._env.rate(groups, ranks=ranks)
        except (ArithmeticError, ValueError) as exc:
            # The package's float arithmetic breaks down (a negative variance, an
            # overflow) where the ratings are far apart for the model's beta.
            raise RatingError(
                "trueskill cannot rate this match precisely enough "
                f"(ratings too far apart); use backend 'mpmath': {exc}"
            ) from exc
        return [Rating(g[0].mu, g[0].sigma) for g in rated]

    def quality(self, ratings: Sequence[Rating]) -> float:
        make = self._make
        return float(self._env.quality([(make(r.mu, r.sigma),) for r in ratings]))


class _OpenSkillEngine:
    name = "openskill"

    def __init__(self, settings: RatingSettings) -> None:
        try:
            package = importlib.import_module("openskill")
            models = importlib.import_module("openskill.models")
        except ImportError as exc:
            raise RatingError(
                "rating system 'openskill' needs the openskill package: install c8league[openskill]"
            ) from exc
        model: _PlackettLuce = models.PlackettLuce(
            mu=settings.mu, sigma=settings.sigma, beta=settings.beta, tau=settings.tau
        )
        self._model = model
        self.version = str(package.__version__)
        self.kappa = float(model.kappa)

    def rate(self, ratings: Sequence[Rating], ranks: list[int]) -> list[Rating]:
        model = self._model
        teams = [[model.rating(r.mu, r.sigma)] for r in ratings]
        rated = model.rate(teams, ranks=[float(rank) for rank in ranks])
        return [Rating(team[0].mu, team[0].sigma) for team in rated]

    def quality(self, ratings: Sequence[Rating]) -> float:
        model = self._model
        return float(model.predict_draw([[model.rating(r.mu, r.sigma)] for r in ratings]))


def _ranks(n: int, places: Sequence[int], forfeited: Sequence[bool] | None) -> list[int]:
    """Validates a table's result and returns one rank per player (lower is better)."""
    if n < 2:
        raise RatingError(f"a match needs at least two players, got {n}")
    if len(places) != n:
        raise RatingError(f"got {len(places)} places for {n} players")
    for place in places:
        if type(place) is not int and (isinstance(place, bool) or not isinstance(place, int)):
            raise RatingError(f"a place must be a whole number, got {place!r}")
        if not 1 <= place <= n:
            raise RatingError(f"places at a table of {n} run from 1 to {n}, got {place}")
    if forfeited is None:
        return list(places)
    if len(forfeited) != n:
        raise RatingError(f"got {len(forfeited)} forfeit flags for {n} players")
    # Below every place a player who finished can have; forfeiters tie among themselves.
    last = n + 1
    return [last if gave_up else place for place, gave_up in zip(places, forfeited, strict=True)]


class RatingModel:
    """Rates free-for-all matches under one league's :class:`RatingSettings`.

    For TrueSkill it holds its own ``trueskill.TrueSkill`` environment built
    from the settings (the package's global environment is never used or
    changed). For openskill it holds an ``openskill.models.PlackettLuce`` with
    the same mu, sigma, beta and tau; openskill is imported only then.

    Raises :class:`RatingError` when the system's package or the chosen
    backend's package is not installed.
    """

    def __init__(self, settings: RatingSettings | None = None) -> None:
        self._settings = settings if settings is not None else RatingSettings()
        engine: _Engine
        if self._settings.system == "openskill":
            engine = _OpenSkillEngine(self._settings)
        else:
            engine = _TrueSkillEngine(self._settings)
        self._engine = engine
        self._initial = Rating(self._settings.mu, self._settings.sigma)

    @property
    def settings(self) -> RatingSettings:
        """The settings this model was built from."""
        return self._settings

    def initial(self) -> Rating:
        """The rating of an entrant who has not played: ``Rating(mu, sigma)``."""
        return self._initial

    def rate(
        self,
        ratings: Sequence[Rating],
        places: Sequence[int],
        forfeited: Sequence[bool] | None = None,
    ) -> list[Rating]:
        """New ratings after one match, in the order of ``ratings``.

        ``places[i]`` is player i's placement, from 1 (first) to the number of
        players; equal places are a tie and share a rank, whatever the
        numbering scheme (1, 1, 3 and 1, 1, 2 mean the same). A player with
        ``forfeited[i]`` true is ranked below everyone who did not forfeit,
        whatever their place; several forfeiters tie among themselves. A
        forfeit is a full loss: nobody's update is down-weighted.

        Tied players who had the same rating may get slightly different
        updates that depend on their order (a property of TrueSkill's
        message passing, not of their results). With openskill, ties go to
        Plackett-Luce as equal ranks; its 6.x tie rule can move a player who
        finished just below tied players as if they had tied too
        (openskill.py issues #155 and #201), so TrueSkill suits tables that
        often tie better.

        Raises :class:`RatingError` for fewer than two players, a length
        mismatch, or a place outside 1..n.
        """
        return self._engine.rate(ratings, _ranks(len(ratings), places, forfeited))

    def quality(self, ratings: Sequence[Rating]) -> float:
        """How even a table is, from 0 (one-sided) to 1.

        TrueSkill: its match quality, the probability of a draw between all
        players relative to the highest possible (0.447 for two new players,
        0.089 for four). openskill: ``PlackettLuce.predict_draw``, the
        probability of a draw between two players averaged over all pairs at
        the table. The two scales are not comparable with each other.
        """
        if len(ratings) < 2:
            raise RatingError(f"a match needs at least two players, got {len(ratings)}")
        return self._engine.quality(ratings)

    def win_probabilities(
        self, ratings: Sequence[Rating], samples: int = 20000, seed: int = 0
    ) -> list[float]:
        """Each player's chance to finish first at this table, in input order.

        Estimated by simulation: in each of ``samples`` rounds every player's
        performance is drawn from N(mu, sigma² + beta²) and the highest wins.
        The same ratings, samples and seed always give the same result; the
        values sum to 1 and have a standard error of at most
        ``0.5 / sqrt(samples)`` (0.0035 with the default).
        """
        if not ratings:
            raise RatingError("win probabilities need at least one player")
        if isinstance(samples, bool) or not isinstance(samples, int) or samples < 1:
            raise RatingError(f"samples must be a positive whole number, got {samples!r}")
        beta_squared = self._settings.beta**2
        params = [(r.mu, math.sqrt(r.sigma * r.sigma + beta_squared)) for r in ratings]
        gauss = random.Random(seed).gauss
        wins = [0] * len(params)
        for _ in range(samples):
            performances = [gauss(mu, spread) for mu, spread in params]
            wins[performances.index(max(performances))] += 1
        return [count / samples for count in wins]

    def prob_stronger(self, a: Rating, b: Rating) -> float:
        """The probability that ``a``'s true skill exceeds ``b``'s.

        Φ((μa − μb) / √(σa² + σb²)): a statement about skills, not about the
        result of one match (which also has performance noise, ``beta``).
        """
        z = (a.mu - b.mu) / math.sqrt(a.sigma * a.sigma + b.sigma * b.sigma)
        return 0.5 * math.erfc(-z / _SQRT2)

    def version(self) -> str:
        """The rating system and its package version, e.g. ``"trueskill 0.4.5"``."""
        return f"{self._engine.name} {self._engine.version}"

    def parameters(self) -> dict[str, float | str | None]:
        """Everything that determines the numbers, for report footers and records.

        Keys: ``system``, ``version`` (of its package), ``mu``, ``sigma``,
        ``beta``, ``tau``; for TrueSkill also ``draw_probability`` and
        ``backend``; for openskill also ``model`` (``"PlackettLuce"``) and
        ``kappa``.
        """
        s = self._settings
        params: dict[str, float | str | None] = {
            "system": s.system,
            "version": self._engine.version,
            "mu": s.mu,
            "sigma": s.sigma,
            "beta": s.beta,
            "tau": s.tau,
        }
        if isinstance(self._engine, _OpenSkillEngine):
            params["model"] = "PlackettLuce"
            params["kappa"] = self._engine.kappa
        else:
            params["draw_probability"] = s.draw_probability
            params["backend"] = s.backend
        return params

    def __repr__(self) -> str:
        return f"RatingModel({self._settings!r})"
