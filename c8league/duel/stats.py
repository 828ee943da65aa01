r"""The statistics of a duel: score, Elo, normalized Elo, LOS and a sequential test.

A duel plays bot A against bot B on *duplicate deals*: every deal is played twice,
once with A in seat s and once with B in seat s; at tables of K > 2 players the other
seats hold the same field players in both matches. A match scores each seat's
placement share (``c8league.standings.match_points``): 1 for first, 0 for last, ties
half, which at K players is a multiple of 1/(2(K−1)) between 0 and 1.

One *pair* (one deal, its two matches) gives A's share ``a`` in its match, B's share
``b`` in its match and the **paired difference** d = a − b, a multiple of 1/(2(K−1))
in [−1, 1]. Every figure here is a function of how many pairs gave each value of d
(:attr:`DuelTally.counts`), so nothing depends on the order in which pairs finish.

* **K = 2.** The other seat is the other bot, so A's points over the pair are
  a + (1 − b) = 1 + d: 0, ½, 1, 1½ or 2. The counts of these five values are the
  *pentanomial* of fastchess and fishtest (LL, LD+DL, LW+DD+WL, DW+WD, WW).
* **K > 2.** The same counts over 4(K−1) + 1 values of d.

The **score** of a duel is s = (1 + d̄)/2 — at K = 2, A's share of all points — and
a pair's outcome on the score scale is (1 + d)/2 ∈ [0, 1]. On that scale the
sequential test is, at every K, fishtest's generalized SPRT (GSPRT): the
log-likelihood ratio of the maximum-likelihood distributions of the outcomes with
expected score L(elo1) and L(elo0). An Elo bound x therefore means E[d] = 2·L(x) − 1
(:func:`mean_difference`). For many pairs this LLR equals the normal approximation
n·(δ1 − δ0)·(2·d̄ − δ0 − δ1)/(2·v) (:func:`llr_normal`); with few pairs that
approximation trusts a tiny sample variance and stops far too early, which the
GSPRT does not (see ``docs/duel-statistics.md``, where every formula, its source and
the reason for each choice are written out for bot authors).

Sources (the formulas are re-derived and written anew here, not copied):

* fishtest, ``server/fishtest/stats/LLRcalc.py`` and ``stat_util.py``
  (https://github.com/official-stockfish/fishtest): ``LLR_logistic``,
  ``LLR_normalized``, ``MLE_expected``, ``MLE_t_value``, ``LLR_alt2``,
  ``regularize``, ``get_elo`` and the SPRT bounds.
* fastchess, ``app/src/matchmaking/sprt/sprt.cpp`` and
  ``app/src/matchmaking/elo/elo_pentanomial.cpp`` (https://github.com/Disservin/fastchess):
  the pentanomial Elo, normalized Elo, LOS and their 95% intervals.
* Michel Van den Bergh's notes, which these sources cite: the maximum-likelihood
  multinomial with a given expectation (Proposition 1.1 of
  https://www.cantate.be/Fishtest/support_MLE_multinomial.pdf), *Comments on
  Normalized Elo* (https://www.cantate.be/Fishtest/normalized_elo_practical.pdf, §4.1:
  the fit with a given t-value) and the GSPRT's normal approximation
  (https://www.cantate.be/Fishtest/GSPRT_approximation.pdf).
* A. Wald, *Sequential tests of statistical hypotheses*, Ann. Math. Statist. 16 (1945):
  the bounds log(β/(1−α)) and log((1−β)/α).
"""

from __future__ import annotations

import dataclasses
import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from statistics import NormalDist
from typing import Any

from c8league.errors import StatsError

__all__ = [
    "ELO_LIMIT",
    "NELO_LIMIT",
    "NELO_PER_T",
    "REGULARIZATION",
    "Z95",
    "Decision",
    "DuelStats",
    "DuelTally",
    "EloModel",
    "SprtResult",
    "SprtSpec",
    "WinDrawLoss",
    "duel_stats",
    "elo_from_score",
    "expected_score",
    "llr_logistic",
    "llr_normal",
    "llr_normalized",
    "mean_difference",
    "mle_with_mean",
    "mle_with_t_value",
    "regularize",
    "sequential_stats",
]

#: Normalized Elo per unit of t-value: 800/ln 10 ≈ 347.4356 (fishtest's
#: ``nelo_divided_by_nt``). A normalized Elo x is a per-game t-value x/347.4.
NELO_PER_T: float = 800.0 / math.log(10.0)

#: The two-sided 95% quantile of the standard normal law, Φ⁻¹(0.975) ≈ 1.959964.
Z95: float = NormalDist().inv_cdf(0.975)

#: What fishtest and fastchess put in place of a count of zero before fitting the
#: GSPRT's maximum-likelihood distributions (``LLRcalc.regularize``).
REGULARIZATION: float = 1e-3

#: Logistic SPRT bounds lie in [−ELO_LIMIT, ELO_LIMIT]: far beyond any useful test
#: (1000 Elo is an expected score of 99.7%) and well inside what the numerics handle.
ELO_LIMIT: float = 1000.0

#: Normalized SPRT bounds lie in [−NELO_LIMIT, NELO_LIMIT]: a t-value of 0.58 per game,
#: 0.81 per pair. Beyond about 230 the t-value fit (fishtest's, started from the
#: uniform distribution) has no solution for some data; useful bounds are a few units.
NELO_LIMIT: float = 200.0

_PHI = NormalDist()
_ROOT_STEPS = 400
_ROOT_TOLERANCE = 1e-13
"""A root is taken where |f| is within this share of the size of its terms (rounding)."""
_ROOT_ACCEPT = 1e-10
"""The most a point where the root's bracket closed may miss by (else: an error)."""
_T_VALUE_STEPS = 100


# --------------------------------------------------------------------------- scales


def expected_score(elo: float) -> float:
    """The logistic expected score of an Elo difference: L(x) = 1 / (1 + 10^(−x/400)).

    ``expected_score(0) == 0.5``; ``expected_score(-x) == 1 - expected_score(x)``.
    """
    return 1.0 / (1.0 + math.pow(10.0, -elo / 400.0))


def elo_from_score(score: float) -> float:
    """The logistic Elo difference of an expected score: −400·log10(1/s − 1).

    The inverse of :func:`expected_score`. A score of 0 or 1 (or outside) has no finite
    Elo: :class:`StatsError`.
    """
    if not 0.0 < score < 1.0:
        raise StatsError(f"a score of {score!r} has no finite Elo difference")
    return 400.0 * math.log10(score / (1.0 - score)) + 0.0  # + 0.0: never -0.0


def mean_difference(elo: float) -> float:
    r"""The mean paired difference δ that a logistic Elo difference stands for:
    δ = 2·L(elo) − 1 (= tanh(elo·ln 10/800)).

    This is how one ``--sprt elo0=… elo1=…`` works at every table size. The score of a
    duel is s = (1 + d̄)/2 and an Elo difference x means an expected score L(x), so
    "Elo = x" is the hypothesis "E[d] = 2·L(x) − 1".

    * At K = 2 this is exact: 1 + d is A's points over a pair of games, and the
      hypothesis is fishtest's "expected score L(x) per game".
    * At K > 2 it *defines* the Elo of a duel: the two-player Elo difference that
      would give the same expected advantage per paired deal. It measures A against
      B *at this table, in front of this field*, not head to head.
    """
    return 2.0 * expected_score(elo) - 1.0


# ------------------------------------------------------------------------ the test


class EloModel(StrEnum):
    """How SPRT bounds are expressed.

    * ``logistic``: logistic Elo, an expected score L(x) (fishtest's default).
    * ``normalized``: normalized Elo, a t-value x/347.4 per game: the expected score's
      excess over ½ in standard deviations of one game's score (fishtest's
      ``LLR_normalized``), so that a test takes about as many games whatever the draw
      rate or the spread of a table's placements.
    """

    LOGISTIC = "logistic"
    NORMALIZED = "normalized"


class Decision(StrEnum):
    """The state of a sequential test: ``H1`` (Elo = elo1 accepted: A is better),
    ``H0`` (Elo = elo0 accepted) or ``undecided`` (keep playing)."""

    H1 = "H1"
    H0 = "H0"
    UNDECIDED = "undecided"

    @property
    def label(self) -> str:
        """The decision in words: H1 accepted, H0 accepted or undecided (as fastchess)."""
        return "undecided" if self is Decision.UNDECIDED else f"{self.value} accepted"


_SPEC_KEYS = ("elo0", "elo1", "alpha", "beta", "model")


def _text(value: float) -> str:
    """A float in a short text form that reads back exactly ("5", "-1.5", "0.05")."""
    return str(int(value)) if value.is_integer() and abs(value) < 1e15 else repr(value)


@dataclass(frozen=True, slots=True)
class SprtSpec:
    """A sequential probability ratio test of H0 "Elo = elo0" against H1 "Elo = elo1".

    ``alpha`` is the chance of accepting H1 when the true Elo is elo0 (a false
    positive), ``beta`` the chance of accepting H0 when it is elo1 (a false negative).
    The test stops as soon as the log-likelihood ratio leaves (``lower``, ``upper``),
    Wald's bounds:

        lower = log(β / (1 − α)),   upper = log((1 − β) / α)

    (α = β = 0.05 gives ±2.944). ``model`` says whether the bounds are logistic or
    normalized Elo. The text form round-trips:
    ``SprtSpec.parse(str(spec)) == spec``. Bad values raise :class:`StatsError`.
    """

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05
    model: EloModel = EloModel.LOGISTIC

    def __post_init__(self) -> None:
        for name in ("elo0", "elo1", "alpha", "beta"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise StatsError(f"SPRT: {name} must be a number, not {value!r}")
            if not math.isfinite(value):
                raise StatsError(f"SPRT: {name} must be a finite number, not {value!r}")
            object.__setattr__(self, name, float(value))
        try:
            object.__setattr__(self, "model", EloModel(self.model))
        except ValueError:
            raise StatsError(
                f"SPRT: unknown model {self.model!r} (expected logistic or normalized)"
            ) from None
        limit = ELO_LIMIT if self.model is EloModel.LOGISTIC else NELO_LIMIT
        for name in ("elo0", "elo1"):
            if abs(getattr(self, name)) > limit:
                raise StatsError(
                    f"SPRT: {name}={_text(getattr(self, name))} is outside "
                    f"[-{limit:g}, {limit:g}] for {self.model.value} Elo"
                )
        if not self.elo0 < self.elo1:
            raise StatsError(
                f"SPRT: elo0 ({_text(self.elo0)}) must be less than elo1 ({_text(self.elo1)})"
            )
        for name in ("alpha", "beta"):
            if not 0.0 < getattr(self, name) < 1.0:
                raise StatsError(
                    f"SPRT: {name} must lie strictly between 0 and 1, "
                    f"not {_text(getattr(self, name))}"
                )
        if self.alpha + self.beta >= 1.0:
            raise StatsError("SPRT: alpha + beta must be less than 1")

    @classmethod
    def parse(cls, text: str) -> SprtSpec:
        """Read ``"elo0=0 elo1=5 alpha=0.05 beta=0.05 model=logistic"``.

        Settings are separated by spaces or commas, in any order. ``elo0`` and ``elo1``
        are required; ``alpha`` and ``beta`` default to 0.05, ``model`` to logistic.
        A mistake raises :class:`StatsError` with one line naming the setting.
        """
        values: dict[str, str] = {}
        for token in re.split(r"[\s,]+", text.strip()):
            if not token:
                continue
            key, sep, value = token.partition("=")
            key = key.strip().lower()
            if not sep or not key or not value.strip():
                raise StatsError(f"SPRT: {token!r} is not of the form name=value")
            if key not in _SPEC_KEYS:
                raise StatsError(
                    f"SPRT: unknown setting {key!r} (expected {', '.join(_SPEC_KEYS)})"
                )
            if key in values:
                raise StatsError(f"SPRT: {key} is given twice")
            values[key] = value.strip()
        missing = [key for key in ("elo0", "elo1") if key not in values]
        if missing:
            raise StatsError(f"SPRT: {' and '.join(missing)} must be given, as in 'elo0=0 elo1=5'")
        numbers: dict[str, float] = {}
        for key in ("elo0", "elo1", "alpha", "beta"):
            if key in values:
                try:
                    numbers[key] = float(values[key])
                except ValueError:
                    raise StatsError(f"SPRT: {key}={values[key]!r} is not a number") from None
        model = values.get("model", EloModel.LOGISTIC.value).lower()
        if model not in {m.value for m in EloModel}:
            raise StatsError(f"SPRT: unknown model {model!r} (expected logistic or normalized)")
        return cls(
            elo0=numbers["elo0"],
            elo1=numbers["elo1"],
            alpha=numbers.get("alpha", 0.05),
            beta=numbers.get("beta", 0.05),
            model=EloModel(model),
        )

    def __str__(self) -> str:
        return (
            f"elo0={_text(self.elo0)} elo1={_text(self.elo1)} alpha={_text(self.alpha)} "
            f"beta={_text(self.beta)} model={self.model.value}"
        )

    @property
    def lower(self) -> float:
        """log(β / (1 − α)): at or below it H0 is accepted."""
        return math.log(self.beta / (1.0 - self.alpha))

    @property
    def upper(self) -> float:
        """log((1 − β) / α): at or above it H1 is accepted."""
        return math.log((1.0 - self.beta) / self.alpha)

    def decide(self, llr: float) -> Decision:
        """H1 if ``llr`` ≥ upper, H0 if ``llr`` ≤ lower, else undecided."""
        if llr >= self.upper:
            return Decision.H1
        if llr <= self.lower:
            return Decision.H0
        return Decision.UNDECIDED


# --------------------------------------------------------------- numerical core


def regularize(counts: Sequence[float]) -> list[float]:
    """Counts with every zero replaced by :data:`REGULARIZATION` (1e-3), as fishtest's
    ``LLRcalc.regularize`` and fastchess do before fitting the GSPRT's distributions,
    so that every outcome keeps a positive probability."""
    return [REGULARIZATION if count == 0 else float(count) for count in counts]


def _moments(values: Sequence[float], probs: Sequence[float]) -> tuple[float, float]:
    """Mean and variance of a discrete distribution."""
    mean = math.fsum(p * a for a, p in zip(values, probs, strict=True))
    var = math.fsum(p * (a - mean) ** 2 for a, p in zip(values, probs, strict=True))
    return mean, var


def _secular_fit(a: Sequence[float], p: Sequence[float]) -> list[float]:
    r"""The fitted distribution pᵢ / (1 + θ·aᵢ), θ the root of the secular equation

        f(θ) = Σᵢ pᵢ·aᵢ / (1 + θ·aᵢ) = 0.

    Needs every pᵢ > 0 and min aᵢ < 0 < max aᵢ. On the interval where every
    qᵢ = 1 + θ·aᵢ is positive, (−1/max a, −1/min a), f falls strictly
    (f′ = −Σ pᵢ·aᵢ²/qᵢ²) from +∞ to −∞, so the root is unique; and at the root
    Σ pᵢ/qᵢ = 1 − θ·f(θ) = 1, so the fit is a distribution.

    The root can lie very close to one of the two poles (when the data are far from
    the hypothesis: an outcome seen only in regularization gets most of the weight),
    where θ as a float cannot locate it: 1 + θ·aᵢ cancels to a few digits. So the
    half of the interval holding the root is found first (by the sign of f at its
    middle), and θ is written as that half's pole plus an offset δ, from which every
    qᵢ is computed without cancellation. The root in δ is then found by Newton's
    method inside a bracket that shrinks at every step, bisecting whenever a Newton
    step would leave the bracket or does not at least halve the step before it (the
    safeguard of Brent's method and of *rtsafe*): it cannot fail to converge.

    A point is accepted only where |f| is within rounding of zero (1e-12 of
    Σ pᵢ·|aᵢ|/qᵢ, the size of the terms it sums); the fit must then be positive and
    sum to 1 within 1e-9. Anything else raises :class:`StatsError`, never a wrong fit.
    fishtest solves the same equation with Brent's method, fastchess with the ITP
    method; the tests compare all three with a 50-digit solution.
    """
    top, bottom = max(a), min(a)
    if not (bottom < 0.0 < top) or any(not pi > 0.0 for pi in p):
        raise StatsError("the maximum-likelihood fit needs positive weights on both sides")
    low, high = -1.0 / top, -1.0 / bottom
    middle = 0.5 * (low + high)
    at_middle = math.fsum(pi * ai / (1.0 + middle * ai) for ai, pi in zip(a, p, strict=True))
    # θ = pole + sign·δ, δ in (0, half]; h(δ) = sign·f(θ) falls from +∞ at δ = 0.
    if at_middle > 0.0:  # the root is in the upper half, near −1/min a
        anchor, sign = bottom, -1.0
    else:
        anchor, sign = top, 1.0
    base = [(anchor - ai) / anchor for ai in a]  # qᵢ at the pole: 1 − aᵢ/anchor ≥ 0
    slopes = [sign * ai for ai in a]  # dqᵢ/dδ
    half = 0.5 * (high - low)

    def h(delta: float) -> tuple[float, float, float, list[float]]:
        q = [b + delta * s for b, s in zip(base, slopes, strict=True)]
        terms = [pi * ai / qi for ai, pi, qi in zip(a, p, q, strict=True)]
        slope = scale = 0.0
        for t, ai, qi in zip(terms, a, q, strict=True):
            slope -= t * ai / qi
            scale += abs(t)
        return sign * math.fsum(terms), slope, scale, q

    lo, hi = 0.0, half  # h(lo) > 0 ≥ h(hi)
    start = sign * (0.0 - (-1.0 / anchor))  # θ = 0, where the fit is p itself
    delta = start if 0.0 < start < half else half
    before = half  # the step before the last one
    best: tuple[float, list[float]] | None = None
    for _ in range(_ROOT_STEPS):
        value, slope, scale, q = h(delta)
        if best is None or abs(value) / scale < best[0]:
            best = (abs(value) / scale, q)
        if abs(value) <= _ROOT_TOLERANCE * scale:
            break
        if value > 0.0:
            lo = delta
        else:
            hi = delta
        newton = delta - value / slope if slope < 0.0 else math.nan
        if lo < newton < hi and abs(newton - delta) <= 0.5 * before:
            before, delta = abs(newton - delta), newton
        else:
            before, delta = hi - lo, 0.5 * (lo + hi)
        if not lo < delta < hi:  # the bracket holds no other float: the root is here
            break
    assert best is not None
    error, q = best
    fitted = [pi / qi for pi, qi in zip(p, q, strict=True)]
    if (
        error > _ROOT_ACCEPT
        or not all(0.0 < x < math.inf for x in fitted)
        or abs(math.fsum(fitted) - 1.0) > 1e-9
    ):
        raise StatsError("the maximum-likelihood fit did not converge")
    return fitted


def mle_with_mean(values: Sequence[float], probs: Sequence[float], mean: float) -> list[float]:
    r"""The distribution on ``values`` of the given mean that makes ``probs`` likeliest.

    Maximises Σ p̂ᵢ·log pᵢ subject to Σ pᵢ = 1 and Σ pᵢ·aᵢ = s. By Lagrange
    multipliers (Van den Bergh, *support_MLE_multinomial*, Proposition 1.1):

        pᵢ = p̂ᵢ / (1 + θ·(aᵢ − s)),   θ the root of Σ p̂ᵢ·(aᵢ − s) / (1 + θ·(aᵢ − s)) = 0.

    ``probs`` must all be positive and ``mean`` strictly between the smallest and the
    largest value. This is fishtest's ``MLE_expected``.
    """
    shifted = [a - mean for a in values]
    if not min(shifted) < 0.0 < max(shifted):
        raise StatsError(f"no distribution on {list(values)} has mean {mean!r}")
    fitted = _secular_fit(shifted, probs)
    reached = sum(a * p for a, p in zip(values, fitted, strict=True))
    if abs(reached - mean) > 1e-6:  # fishtest's check; never pass a failed fit on
        raise StatsError(f"the maximum-likelihood fit missed the mean {mean!r} ({reached!r})")
    return fitted


def mle_with_t_value(
    values: Sequence[float], probs: Sequence[float], ref: float, t: float
) -> list[float]:
    r"""The distribution on ``values`` with t-value (μ − ref)/σ = ``t`` that makes
    ``probs`` likeliest (Van den Bergh, *normalized_elo_practical*, §4.1).

    The constraint is not linear, so it is met by fixed-point iteration from the
    uniform distribution: with μ and σ those of the current estimate,

        φᵢ = aᵢ − ref − t·σ·(1 + ((μ − aᵢ)/σ)²)/2,   pᵢ = p̂ᵢ / (1 + θ·φᵢ),

    θ the root of Σ p̂ᵢ·φᵢ / (1 + θ·φᵢ) = 0, until the estimate stops moving. This is
    fishtest's ``MLE_t_value``.
    """
    fitted = [1.0 / len(values)] * len(values)
    for _ in range(_T_VALUE_STEPS):
        mu, var = _moments(values, fitted)
        sigma = math.sqrt(var)
        phi = [a - ref - t * sigma * (1.0 + ((mu - a) / sigma) ** 2) / 2.0 for a in values]
        if not min(phi) < 0.0 < max(phi):
            raise StatsError(f"no distribution on {list(values)} has t-value {t!r}")
        new = _secular_fit(phi, probs)
        change = max(abs(x - y) for x, y in zip(new, fitted, strict=True))
        fitted = new
        if change < 1e-13:
            break
    mu, var = _moments(values, fitted)
    if abs((mu - ref) / math.sqrt(var) - t) > 1e-6:  # never pass a failed fit on
        raise StatsError(f"the maximum-likelihood fit missed the t-value {t!r}")
    return fitted


def _pdf(counts: Sequence[float]) -> tuple[float, list[float], list[float]]:
    """Regularized total N, the outcomes' values i/(n−1) on [0, 1], and p̂ᵢ = countᵢ/N."""
    if len(counts) < 3:
        raise StatsError("counts need at least three outcomes, worst to best")
    if any(not math.isfinite(c) or c < 0 for c in counts):
        raise StatsError("counts must be finite and not negative")
    regular = regularize(counts)
    total = math.fsum(regular)
    last = len(counts) - 1
    return total, [i / last for i in range(len(counts))], [c / total for c in regular]


def _log_ratio(probs: Sequence[float], p0: Sequence[float], p1: Sequence[float]) -> float:
    """Σ p̂ᵢ·log(p¹ᵢ / p⁰ᵢ)."""
    return math.fsum(p * (math.log(b) - math.log(a)) for p, a, b in zip(probs, p0, p1, strict=True))


def llr_logistic(counts: Sequence[float], elo0: float, elo1: float) -> float:
    r"""The generalized log-likelihood ratio of "Elo = elo1" against "Elo = elo0".

    ``counts`` are the frequencies of equally spaced outcomes, worst to best, outcome
    i scoring aᵢ = i/(n−1) ∈ [0, 1]: (L, D, W) of single games, the pentanomial (LL,
    LD+DL, LW+DD+WL, DW+WD, WW) of game pairs, or a duel's :attr:`DuelTally.counts`.
    As fishtest's ``LLR_logistic``:

    1. every zero count becomes 1e-3 (:func:`regularize`); N = Σ counts,
       p̂ᵢ = countᵢ / N;
    2. p⁰ and p¹ are the maximum-likelihood distributions with mean L(elo0) and
       L(elo1) (:func:`mle_with_mean`);
    3. LLR = N · Σ p̂ᵢ · log(p¹ᵢ / p⁰ᵢ).

    No games at all (every count zero) gives 0.
    """
    if not any(counts):
        _pdf(counts)  # still reject malformed counts
        return 0.0
    total, values, probs = _pdf(counts)
    p0, p1 = (mle_with_mean(values, probs, expected_score(elo)) for elo in (elo0, elo1))
    return total * _log_ratio(probs, p0, p1)


def llr_normalized(counts: Sequence[float], nelo0: float, nelo1: float) -> float:
    r"""The generalized log-likelihood ratio for normalized-Elo bounds (fishtest's
    ``LLR_normalized``).

    A normalized Elo x is a per-game t-value x / 347.4 (:data:`NELO_PER_T`). Counts of
    length 3 are single games (L, D, W), so the bounds are tᵢ = xᵢ/347.4; any other
    length counts outcomes of pairs (a pair's mean score), whose t-value is √2 times a
    game's, so tᵢ = √2·xᵢ/347.4. Then, as :func:`llr_logistic` but with
    :func:`mle_with_t_value` (reference ½):

        LLR = N · Σ p̂ᵢ · log(p¹ᵢ / p⁰ᵢ).
    """
    if not any(counts):
        _pdf(counts)
        return 0.0
    scale = 1.0 if len(counts) == 3 else math.sqrt(2.0)
    total, values, probs = _pdf(counts)
    p0, p1 = (mle_with_t_value(values, probs, 0.5, scale * x / NELO_PER_T) for x in (nelo0, nelo1))
    return total * _log_ratio(probs, p0, p1)


def llr_normal(n: float, mean: float, variance: float, *, delta0: float, delta1: float) -> float:
    r"""The normal approximation of the log-likelihood ratio of "E[d] = δ1" against
    "E[d] = δ0", from n samples of d with mean d̄ and variance v:

        LLR ≈ n · (δ1 − δ0) · (2·d̄ − δ0 − δ1) / (2·v)

    the log-ratio of two normal likelihoods with means δ1 and δ0 and the variance v
    estimated from the data: fishtest's ``LLR_alt2`` (Van den Bergh,
    *GSPRT_approximation*). For many samples it equals the GSPRT of
    :func:`llr_logistic`; with few it trusts a small sample variance far too much,
    which is why the duel's test is the GSPRT. ``variance`` must be positive.
    """
    if not variance > 0.0:
        raise StatsError("the normal approximation needs a positive variance")
    return n * (delta1 - delta0) * (2.0 * mean - delta0 - delta1) / (2.0 * variance)


# ----------------------------------------------------------------------- results


@dataclass(frozen=True, slots=True)
class WinDrawLoss:
    """A's single-match results against B at K = 2: wins (first place), draws (a
    shared place, scored ½) and losses."""

    wins: int
    draws: int
    losses: int


@dataclass(frozen=True, slots=True)
class SprtResult:
    """The sequential test after the pairs counted so far.

    ``llr`` against ``lower`` and ``upper`` gives ``decision``. With logistic bounds,
    ``delta0`` and ``delta1`` are the hypotheses as mean paired differences,
    2·L(elo) − 1 (:func:`mean_difference`); with normalized bounds they depend on the
    data's spread and are None.
    """

    spec: SprtSpec
    llr: float
    lower: float
    upper: float
    decision: Decision
    delta0: float | None
    delta1: float | None


@dataclass(frozen=True, slots=True)
class DuelStats:
    """Everything a duel's summary shows, from the pairs counted so far.

    Counts (exact):

    * ``players``: K, the table size; ``pairs``: deals played twice; ``games``:
      2·pairs matches.
    * ``counts``: pairs per paired difference d = a − b, from d = −1 to d = +1 in steps
      of 1/(2(K−1)). At K = 2 the pentanomial: pairs in which A scored 0, ½, 1, 1½
      and 2 points (also :attr:`pentanomial`).
    * ``wdl``: A's single-match wins, draws and losses against B (K = 2; None at K > 2).
    * ``better``, ``equal``, ``worse``: pairs in which A's share was above, equal to
      or below B's (at K = 2: A scored more than, exactly or less than 1 of 2 points).

    Estimates, over n pairs with v = Σ(d − d̄)²/n the variance of d per pair (None,
    with a line in ``notes`` saying why, where the data cannot give one yet):

    * ``share_a``, ``share_b``: the mean placement shares of A and of B.
    * ``mean`` = d̄; ``mean_low``, ``mean_high`` = d̄ ∓ 1.96·√(v/n).
    * ``variance`` = v.
    * ``score`` = s = (1 + d̄)/2: at K = 2, A's share of all points.
    * ``elo`` = −400·log10(1/s − 1); ``elo_low``, ``elo_high`` the same of
      s ∓ 1.96·√(v/(4n)); ``elo_error`` = (elo_high − elo_low)/2, the "±" fastchess
      and fishtest print.
    * ``nelo`` = (s − ½)/√(2·v/4)·347.4 = d̄/√(2v)·347.4, normalized Elo, and
      ``nelo_error`` = 1.96·347.4/√(2n), its "±".
    * ``los`` = Φ((s − ½)/√(v/(4n))): likelihood of superiority, the chance that A is
      the stronger under a flat prior.
    * ``variance_ratio`` = v / (Var(a) + Var(b)): the variance of the paired difference
      over what it would be if A's and B's matches were dealt independently; below 1,
      the duplicate deals cancelled that share of the cards' luck.
    * ``sprt``: the sequential test, if one was asked for (on the luck-adjusted
      scores when the tally has them: ``adjusted``).
    """

    players: int
    pairs: int
    games: int
    counts: tuple[int, ...]
    wdl: WinDrawLoss | None
    better: int
    equal: int
    worse: int
    share_a: float | None
    share_b: float | None
    mean: float | None
    mean_low: float | None
    mean_high: float | None
    variance: float | None
    score: float | None
    elo: float | None
    elo_low: float | None
    elo_high: float | None
    elo_error: float | None
    nelo: float | None
    nelo_error: float | None
    los: float | None
    variance_ratio: float | None
    sprt: SprtResult | None
    notes: tuple[str, ...]
    adjusted: AdjustedStats | None = None
    """The luck-adjusted figures (:class:`LuckTally`), when the duel adjusts for luck;
    its test is then ``sprt``."""

    @property
    def pentanomial(self) -> tuple[int, ...] | None:
        """At K = 2, pairs in which A scored 0, ½, 1, 1½ and 2 points; else None."""
        return self.counts if self.players == 2 else None

    def as_dict(self) -> dict[str, Any]:
        """Plain values for JSON (``json.dumps(stats.as_dict(), allow_nan=False)``):
        every field (``adjusted`` only when the duel adjusts for luck), ``pentanomial``,
        and the SPRT's spec as its settings."""
        data = dataclasses.asdict(self)
        data["counts"] = list(self.counts)
        data["pentanomial"] = None if self.pentanomial is None else list(self.pentanomial)
        data["notes"] = list(self.notes)
        if self.sprt is not None:
            data["sprt"]["spec"]["model"] = self.sprt.spec.model.value
            data["sprt"]["decision"] = self.sprt.decision.value
        if self.adjusted is None:
            del data["adjusted"]  # (the duel does not adjust for luck)
        elif self.adjusted.raw_sprt is not None:
            raw = data["adjusted"]["raw_sprt"]
            raw["spec"]["model"] = self.adjusted.raw_sprt.spec.model.value
            raw["decision"] = self.adjusted.raw_sprt.decision.value
        return data


# ---------------------------------------------------------------------- the tally


class DuelTally:
    """A running tally of a duel, for a live progress bar and the final summary.

    Count each pair with :meth:`add` as it finishes; :meth:`stats` gives the figures
    at any moment. The tally keeps integer counts only, so its figures depend on which
    pairs were counted, never on the order: a tally rebuilt from stored outcomes
    (:meth:`of`, :func:`duel_stats`) gives exactly, bit for bit, the figures of the
    tally that counted them live.

    Where a duel *stops* does depend on the order (see :func:`sequential_stats`).
    """

    __slots__ = (
        "_counts",
        "_shares_a",
        "_shares_b",
        "_squares_a",
        "_squares_b",
        "_steps",
        "_wdl",
        "luck",
        "players",
    )

    def __init__(self, players: int = 2, *, luck: bool = False) -> None:
        if isinstance(players, bool) or not isinstance(players, int) or players < 2:
            raise StatsError(f"a duel needs tables of at least 2 players, not {players!r}")
        self.players = players
        self._steps = 2 * (players - 1)  # a share is a multiple of 1/_steps
        self._counts = [0] * (2 * self._steps + 1)
        self._shares_a = 0  # Σ a·_steps
        self._shares_b = 0
        self._squares_a = 0  # Σ (a·_steps)²
        self._squares_b = 0
        self._wdl = [0, 0, 0]  # A's single matches at K = 2: wins, draws, losses
        self.luck: LuckTally | None = LuckTally(players) if luck else None
        """The luck-adjusted scores of the same pairs (``luck``), counted with
        :meth:`LuckTally.add`; the test then runs on them."""

    @classmethod
    def of(cls, players: int, outcomes: Iterable[tuple[float, float]]) -> DuelTally:
        """A tally of ``outcomes``, each (A's share, B's share) of one pair."""
        tally = cls(players)
        tally.extend(outcomes)
        return tally

    def _units(self, share: float, who: str) -> int:
        scaled = share * self._steps if isinstance(share, int | float) else math.nan
        units = round(scaled) if math.isfinite(scaled) else -1
        if not 0 <= units <= self._steps or abs(scaled - units) > 1e-9:
            raise StatsError(
                f"{who}'s score {share!r} is not a placement share at a "
                f"{self.players}-player table (a multiple of 1/{self._steps} from 0 to 1)"
            )
        return units

    def add(self, share_a: float, share_b: float) -> None:
        """Count one pair: ``share_a`` is A's placement share in the match where A sat in
        seat s, ``share_b`` is B's in the match of the same deal where B sat in seat s.

        At K = 2 the other seat holds the other bot, so A's result in B's match is
        1 − ``share_b``: a pair in which A won both matches is ``add(1, 0)``, one in
        which A won and then shared the place is ``add(1, 0.5)``.
        """
        a = self._units(share_a, "A")
        b = self._units(share_b, "B")
        self._counts[a - b + self._steps] += 1
        self._shares_a += a
        self._shares_b += b
        self._squares_a += a * a
        self._squares_b += b * b
        if self.players == 2:
            for mine in (a, 2 - b):  # A's result in A's match, then in B's match
                self._wdl[2 - mine] += 1  # 2 = win, 1 = draw, 0 = loss

    def extend(self, outcomes: Iterable[tuple[float, float]]) -> None:
        """Count every pair of ``outcomes``, each (A's share, B's share)."""
        for share_a, share_b in outcomes:
            self.add(share_a, share_b)

    @property
    def pairs(self) -> int:
        """How many pairs have been counted."""
        return sum(self._counts)

    @property
    def counts(self) -> tuple[int, ...]:
        """Pairs per paired difference, d = −1 to +1 (see :class:`DuelStats`)."""
        return tuple(self._counts)

    def sprt(self, spec: SprtSpec) -> SprtResult:
        """The sequential test on the pairs counted so far: :func:`llr_logistic` or
        :func:`llr_normalized` (by ``spec.model``) of :attr:`counts`, at every K. With
        no pairs the LLR is 0. Cheaper than :meth:`stats` when only the test is needed.
        With luck-adjusted scores (:attr:`luck`), the test runs on them instead
        (:meth:`LuckTally.sprt`).
        """
        if self.luck is not None:
            return self.luck.sprt(spec)
        return self.raw_sprt(spec)

    def raw_sprt(self, spec: SprtSpec) -> SprtResult:
        """The GSPRT on the counts of the paired differences (see :meth:`sprt`)."""
        if spec.model is EloModel.LOGISTIC:
            llr = llr_logistic(self._counts, spec.elo0, spec.elo1)
            delta0: float | None = mean_difference(spec.elo0)
            delta1: float | None = mean_difference(spec.elo1)
        else:
            llr = llr_normalized(self._counts, spec.elo0, spec.elo1)
            delta0 = delta1 = None
        return SprtResult(
            spec=spec,
            llr=llr,
            lower=spec.lower,
            upper=spec.upper,
            decision=spec.decide(llr),
            delta0=delta0,
            delta1=delta1,
        )

    def stats(self, sprt: SprtSpec | None = None) -> DuelStats:
        """The duel's figures so far (see :class:`DuelStats`), with the test if asked."""
        steps = self._steps
        n = sum(self._counts)
        notes: list[str] = []
        share_a = share_b = mean = mean_low = mean_high = variance = score = None
        variance_ratio = None
        elo = elo_low = elo_high = elo_error = nelo = nelo_error = los = None
        if n == 0:
            notes.append("no pairs played yet")
        else:
            # Integer sums: the figures cannot depend on the order pairs were added in.
            s1 = sum(c * (j - steps) for j, c in enumerate(self._counts))
            s2 = sum(c * (j - steps) ** 2 for j, c in enumerate(self._counts))
            share_a = self._shares_a / (n * steps)
            share_b = self._shares_b / (n * steps)
            mean = s1 / (n * steps)
            variance = (n * s2 - s1 * s1) / (n * n * steps * steps)
            score = (1.0 + mean) / 2.0
            independent = (
                n * self._squares_a - self._shares_a**2 + n * self._squares_b - self._shares_b**2
            )
            if independent > 0:  # Var(a) + Var(b), times n²·steps²
                variance_ratio = (n * s2 - s1 * s1) / independent
            if 0.0 < score < 1.0:
                elo = elo_from_score(score)
            if variance == 0.0:
                notes.append(self._no_spread(n, score))
            else:
                half = Z95 * math.sqrt(variance / n)
                mean_low, mean_high = mean - half, mean + half
                score_se = math.sqrt(variance / (4.0 * n))  # the score is a pair mean
                low, high = score - Z95 * score_se, score + Z95 * score_se
                elo_low = elo_from_score(low) if low > 0.0 else None
                elo_high = elo_from_score(high) if high < 1.0 else None
                if elo_low is None or elo_high is None:
                    notes.append(
                        "the score's 95% interval reaches "
                        f"{'0%' if elo_low is None else '100%'}: that end of the Elo "
                        "interval is unbounded"
                    )
                else:
                    elo_error = (elo_high - elo_low) / 2.0
                sigma_game = math.sqrt(2.0 * variance / 4.0)  # √2 × σ of the pair mean
                nelo = (score - 0.5) / sigma_game * NELO_PER_T
                nelo_error = Z95 * score_se / sigma_game * NELO_PER_T
                los = _PHI.cdf((score - 0.5) / score_se)
        return DuelStats(
            players=self.players,
            pairs=n,
            games=2 * n,
            counts=tuple(self._counts),
            wdl=WinDrawLoss(*self._wdl) if self.players == 2 else None,
            better=sum(self._counts[steps + 1 :]),
            equal=self._counts[steps],
            worse=sum(self._counts[:steps]),
            share_a=share_a,
            share_b=share_b,
            mean=mean,
            mean_low=mean_low,
            mean_high=mean_high,
            variance=variance,
            score=score,
            elo=elo,
            elo_low=elo_low,
            elo_high=elo_high,
            elo_error=elo_error,
            nelo=nelo,
            nelo_error=nelo_error,
            los=los,
            variance_ratio=variance_ratio,
            sprt=None if sprt is None else self.sprt(sprt),
            notes=tuple(notes),
            adjusted=None if self.luck is None else self.luck.stats(self, sprt),
        )

    def raw_variances(self) -> tuple[float, float, float] | None:
        """Var(d), Var(a) and Var(b) over the pairs (None before the first)."""
        n = sum(self._counts)
        if n == 0:
            return None
        steps = self._steps
        s1 = sum(c * (j - steps) for j, c in enumerate(self._counts))
        s2 = sum(c * (j - steps) ** 2 for j, c in enumerate(self._counts))
        scale = n * n * steps * steps
        return (
            (n * s2 - s1 * s1) / scale,
            (n * self._squares_a - self._shares_a**2) / scale,
            (n * self._squares_b - self._shares_b**2) / scale,
        )

    def _no_spread(self, n: int, score: float) -> str:
        """The note for n pairs that all gave the same paired difference."""
        pairs = "the only pair" if n == 1 else f"all {n} pairs"
        if score in (0.0, 1.0):
            who, other = ("A", "B") if score == 1.0 else ("B", "A")
            if self.players == 2:
                what = f"{who} won every match of {pairs}"
            else:
                what = f"{who} came first and {other} last in {pairs}"
            return (
                f"{what}: the Elo difference has no finite estimate, and with no spread "
                "there is no interval, normalized Elo or LOS yet"
            )
        subject = "The only pair" if n == 1 else f"All {n} pairs"
        return (
            f"{subject} gave the same result: with no spread there is no interval, "
            "normalized Elo or LOS yet"
        )


# ------------------------------------------------------------------ luck-adjusted

LUCK_SCALE = 10**9
"""A luck-adjusted score is counted in units of 1/(2(K−1)·LUCK_SCALE): integer sums, so
the figures do not depend on the order the pairs were counted in."""
BIN_STEPS = 8
"""The adjusted test's bins: 1/(BIN_STEPS·2(K−1)) of a paired difference wide, a
BIN_STEPS-th of the raw outcomes' step."""


@dataclass(frozen=True, slots=True)
class AdjustedStats:
    """The figures of the luck-adjusted paired differences d' = a' − b' (a' = a − A's
    match's correction, b' likewise), as :class:`DuelStats` gives them for d:

    * ``mean``, ``mean_low``, ``mean_high``, ``variance``, ``score``, ``elo``,
      ``elo_low``, ``elo_high``, ``elo_error``, ``nelo``, ``nelo_error``, ``los``;
    * ``variance_ratio`` = Var(d') / (Var(a) + Var(b)), the raw shares': against
      independent deals, as ``DuelStats.variance_ratio`` is for d;
    * ``duplicate_ratio`` = Var(d') / Var(d): what the adjustment took out of the
      duplicate deals' variance;
    * ``raw_sprt``: the test on the raw outcomes (the duel's own runs on d').
    """

    mean: float | None
    mean_low: float | None
    mean_high: float | None
    variance: float | None
    score: float | None
    elo: float | None
    elo_low: float | None
    elo_high: float | None
    elo_error: float | None
    nelo: float | None
    nelo_error: float | None
    los: float | None
    variance_ratio: float | None
    duplicate_ratio: float | None
    raw_sprt: SprtResult | None


class LuckTally:
    """The luck-adjusted scores of a duel's pairs: each pair's A's and B's shares, each
    less its match's correction (``c8league.duel.luck``). The corrections have
    expectation 0, so d' = a' − b' estimates the same mean as d, with less variance.

    Its test (:meth:`sprt`) is the GSPRT of the raw outcomes, on a histogram of d' in
    place of the counts of d: bins :data:`BIN_STEPS` times narrower than the raw
    outcomes' steps, each bin's outcome valued at the mean of the pairs in it (so that
    the histogram's mean is exactly d̄'), and the two raw extremes, d = −1 and d = +1,
    kept as outcomes with the GSPRT's 1e-3 when empty.
    """

    __slots__ = (
        "_bins",
        "_n",
        "_squares_a",
        "_squares_b",
        "_squares_d",
        "_steps",
        "_sum_a",
        "_sum_b",
        "_sum_d",
    )

    def __init__(self, players: int) -> None:
        self._steps = 2 * (players - 1)
        self._n = 0
        self._sum_a = self._sum_b = self._sum_d = 0
        self._squares_a = self._squares_b = self._squares_d = 0
        self._bins: dict[int, list[int]] = {}
        """Per bin: its pairs and the sum of their d', in units."""

    def units(self, share: int, correction: float) -> int:
        """A share of ``share``/2(K−1) less ``correction``, in units of the tally."""
        return share * LUCK_SCALE - round(correction * self._steps * LUCK_SCALE)

    def add(self, share_a: int, share_b: int, luck_a: float, luck_b: float) -> None:
        """Count one pair: the shares in units of 1/(2(K−1)) (as a duel stores them) and
        the corrections of A's match and of B's (at the seat of A and of B)."""
        a = self.units(share_a, luck_a)
        b = self.units(share_b, luck_b)
        d = a - b
        self._n += 1
        self._sum_a += a
        self._sum_b += b
        self._sum_d += d
        self._squares_a += a * a
        self._squares_b += b * b
        self._squares_d += d * d
        width = LUCK_SCALE // BIN_STEPS
        key = (d + width // 2) // width
        found = self._bins.get(key)
        if found is None:
            self._bins[key] = [1, d]
        else:
            found[0] += 1
            found[1] += d

    @property
    def pairs(self) -> int:
        return self._n

    def _mean_variance(self) -> tuple[float, float] | None:
        n = self._n
        if n == 0:
            return None
        scale = self._steps * LUCK_SCALE
        mean = self._sum_d / (n * scale)
        variance = (n * self._squares_d - self._sum_d**2) / (n * n * scale * scale)
        return mean, variance

    def histogram(self) -> tuple[list[float], list[float]]:
        """The pair scores (1 + d')/2 of the bins, each its pairs' mean, with the raw
        extremes 0 and 1 (d = ∓1), and their counts (an empty extreme regularized)."""
        scale = self._steps * LUCK_SCALE
        values = [0.0, 1.0]
        counts = [0.0, 0.0]
        for count, total in self._bins.values():
            value = (1.0 + total / (count * scale)) / 2.0
            if value == 0.0 or value == 1.0:
                counts[int(value)] += count
            else:
                values.append(value)
                counts.append(float(count))
        return values, regularize(counts)

    def sprt(self, spec: SprtSpec) -> SprtResult:
        """The GSPRT on :meth:`histogram` (see the class): with logistic bounds the fits
        of mean L(elo), with normalized bounds those of t-value t = √2·nElo/347.4 per
        pair (reference ½), as :func:`llr_logistic` and :func:`llr_normalized` do on the
        counts of d. With no pairs the LLR is 0."""
        if spec.model is EloModel.LOGISTIC:
            delta0: float | None = mean_difference(spec.elo0)
            delta1: float | None = mean_difference(spec.elo1)
        else:
            delta0 = delta1 = None
        llr = 0.0
        if self._n:
            values, counts = self.histogram()
            total = math.fsum(counts)
            probs = [c / total for c in counts]
            if spec.model is EloModel.LOGISTIC:
                p0, p1 = (
                    mle_with_mean(values, probs, expected_score(x)) for x in (spec.elo0, spec.elo1)
                )
            else:
                t0, t1 = (math.sqrt(2.0) * x / NELO_PER_T for x in (spec.elo0, spec.elo1))
                p0, p1 = (mle_with_t_value(values, probs, 0.5, t) for t in (t0, t1))
            llr = total * _log_ratio(probs, p0, p1)
        return SprtResult(
            spec=spec,
            llr=llr,
            lower=spec.lower,
            upper=spec.upper,
            decision=spec.decide(llr),
            delta0=delta0,
            delta1=delta1,
        )

    def stats(self, raw: DuelTally, sprt: SprtSpec | None = None) -> AdjustedStats:
        """The adjusted figures; ``raw``, the tally of the same pairs' raw outcomes."""
        found = self._mean_variance()
        mean = mean_low = mean_high = variance = score = None
        elo = elo_low = elo_high = elo_error = nelo = nelo_error = los = None
        variance_ratio = duplicate_ratio = None
        if found is not None:
            mean, variance = found
            score = min(1.0, max(0.0, (1.0 + mean) / 2.0))
            if 0.0 < score < 1.0:
                elo = elo_from_score(score)
            raw_variances = raw.raw_variances()
            if raw_variances is not None:
                v_d, v_a, v_b = raw_variances
                if v_a + v_b > 0.0:
                    variance_ratio = variance / (v_a + v_b)
                if v_d > 0.0:
                    duplicate_ratio = variance / v_d
            if variance > 0.0:
                n = self._n
                half = Z95 * math.sqrt(variance / n)
                mean_low, mean_high = mean - half, mean + half
                score_se = math.sqrt(variance / (4.0 * n))
                low, high = score - Z95 * score_se, score + Z95 * score_se
                elo_low = elo_from_score(low) if low > 0.0 else None
                elo_high = elo_from_score(high) if high < 1.0 else None
                if elo_low is not None and elo_high is not None:
                    elo_error = (elo_high - elo_low) / 2.0
                sigma_game = math.sqrt(2.0 * variance / 4.0)
                nelo = (score - 0.5) / sigma_game * NELO_PER_T
                nelo_error = Z95 * score_se / sigma_game * NELO_PER_T
                los = _PHI.cdf((score - 0.5) / score_se)
        return AdjustedStats(
            mean=mean,
            mean_low=mean_low,
            mean_high=mean_high,
            variance=variance,
            score=score,
            elo=elo,
            elo_low=elo_low,
            elo_high=elo_high,
            elo_error=elo_error,
            nelo=nelo,
            nelo_error=nelo_error,
            los=los,
            variance_ratio=variance_ratio,
            duplicate_ratio=duplicate_ratio,
            raw_sprt=None if sprt is None else raw.raw_sprt(sprt),
        )


# ------------------------------------------------------------------- entry points


def duel_stats(
    players: int, outcomes: Iterable[tuple[float, float]], sprt: SprtSpec | None = None
) -> DuelStats:
    """The figures of all of ``outcomes`` (each (A's share, B's share) of one pair, see
    :meth:`DuelTally.add`): ``DuelTally.of(players, outcomes).stats(sprt)``."""
    return DuelTally.of(players, outcomes).stats(sprt)


def sequential_stats(
    players: int,
    outcomes: Iterable[tuple[float, float]],
    sprt: SprtSpec,
    max_pairs: int | None = None,
) -> DuelStats:
    """The stopping rule: count ``outcomes`` in the order given, test after every pair,
    and stop at the first pair after which the test is decided, after ``max_pairs``
    pairs, or when ``outcomes`` run out. Returns the figures at that point; outcomes
    after it are not read (``outcomes`` may be an endless generator when the test is
    bound to stop or ``max_pairs`` is given).

    Give the pairs in deal order, whatever order they finished in: then an interrupted
    duel, resumed and replayed from its stored outcomes, stops after the same pair
    with the same figures as an uninterrupted one.
    """
    if max_pairs is not None and max_pairs < 0:
        raise StatsError(f"max_pairs must not be negative, not {max_pairs!r}")
    tally = DuelTally(players)
    if max_pairs != 0:
        for share_a, share_b in outcomes:
            tally.add(share_a, share_b)
            if tally.sprt(sprt).decision is not Decision.UNDECIDED:
                break
            if max_pairs is not None and tally.pairs >= max_pairs:
                break
    return tally.stats(sprt)
