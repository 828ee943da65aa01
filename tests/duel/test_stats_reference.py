"""The GSPRT's maximum-likelihood fits against a 50-digit solution (mpmath), and the count
patterns on which an unguarded Newton iteration once returned a wrong root.

fishtest's values below come from ``server/fishtest/stats/LLRcalc.py`` (``LLR_logistic``,
``LLR_normalized``; scipy's ``brentq``) evaluated on the same counts.
"""

from __future__ import annotations

from collections.abc import Sequence

import mpmath
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from c8league.duel.stats import (
    REGULARIZATION,
    SprtSpec,
    llr_logistic,
    llr_normalized,
    mle_with_mean,
    sequential_stats,
)

mp = mpmath.mp
DIGITS = 50


# -- the reference, written from the definitions at 50 digits -------------------------------


def _fit(a: Sequence[mpmath.mpf], p: Sequence[mpmath.mpf]) -> list[mpmath.mpf]:
    """pᵢ/(1 + θ·aᵢ) at the root θ of f(θ) = Σ pᵢ·aᵢ/(1 + θ·aᵢ) = 0, at 50 digits: Newton's
    method kept inside the bracket between the poles (where f falls from +∞ to −∞),
    bisecting where a step would leave it or moves less than half the step before; the
    root is taken only where the residual is below 1e-30 of the terms' size."""
    low, high = -1 / max(a), -1 / min(a)
    theta = (low + high) / 2
    before = high - low
    for _ in range(2000):
        q = [1 + theta * ai for ai in a]
        terms = [pi * ai / qi for ai, pi, qi in zip(a, p, q, strict=True)]
        value = mp.fsum(terms)
        scale = mp.fsum(abs(t) for t in terms)
        if abs(value) <= mpmath.mpf(10) ** -(DIGITS - 20) * scale:
            break
        if value > 0:
            low = theta
        else:
            high = theta
        slope = -mp.fsum(t * ai / qi for t, ai, qi in zip(terms, a, q, strict=True))
        newton = theta - value / slope
        if low < newton < high and abs(newton - theta) <= before / 2:
            before, theta = abs(newton - theta), newton
        else:
            before, theta = high - low, (low + high) / 2
    else:
        raise AssertionError("the reference did not converge")
    return [pi / (1 + theta * ai) for ai, pi in zip(a, p, strict=True)]


def _pdf(counts: Sequence[int]) -> tuple[mpmath.mpf, list[mpmath.mpf], list[mpmath.mpf]]:
    regular = [mpmath.mpf(REGULARIZATION) if c == 0 else mpmath.mpf(c) for c in counts]
    total = mp.fsum(regular)
    last = len(counts) - 1
    return total, [mpmath.mpf(i) / last for i in range(len(counts))], [c / total for c in regular]


def _llr(
    total: mpmath.mpf, probs: list[mpmath.mpf], p0: list[mpmath.mpf], p1: list[mpmath.mpf]
) -> mpmath.mpf:
    ratios = (mp.log(b) - mp.log(a) for a, b in zip(p0, p1, strict=True))
    return total * mp.fsum(p * r for p, r in zip(probs, ratios, strict=True))


def reference_logistic(counts: Sequence[int], elo0: float, elo1: float) -> float:
    with mp.workdps(DIGITS):
        total, values, probs = _pdf(counts)
        fits = []
        for elo in (elo0, elo1):
            s = 1 / (1 + mp.power(10, -mpmath.mpf(elo) / 400))
            fits.append(_fit([a - s for a in values], probs))
        return float(_llr(total, probs, *fits))


def reference_normalized(counts: Sequence[int], nelo0: float, nelo1: float) -> float:
    """fishtest's ``MLE_t_value`` fixed point, iterated at 50 digits until it stops moving."""
    with mp.workdps(DIGITS):
        total, values, probs = _pdf(counts)
        scale = 1 if len(counts) == 3 else mp.sqrt(2)
        fits = []
        for nelo in (nelo0, nelo1):
            t = scale * mpmath.mpf(nelo) / (800 / mp.log(10))
            fitted = [mpmath.mpf(1) / len(values)] * len(values)
            for _ in range(300):
                pairs = list(zip(values, fitted, strict=True))
                mu = mp.fsum(p * a for a, p in pairs)
                sigma = mp.sqrt(mp.fsum(p * (a - mu) ** 2 for a, p in pairs))
                half = mpmath.mpf("0.5")
                phi = [a - half - t * sigma * (1 + ((mu - a) / sigma) ** 2) / 2 for a in values]
                new = _fit(phi, probs)
                change = max(abs(x - y) for x, y in zip(new, fitted, strict=True))
                fitted = new
                if change < mpmath.mpf(10) ** -25:
                    break
            fits.append(fitted)
        return float(_llr(total, probs, *fits))


def close(value: float, reference: float, total: int) -> bool:
    """Within 1e-9 relative, or the rounding of N log-ratios summed (N·1e-13)."""
    return abs(value - reference) <= 1e-9 * max(1.0, abs(reference)) + 1e-13 * total


# -- the patterns of the failing root -------------------------------------------------------

PATTERN_PAIRS = [(0.0, 1.0), (0.0, 0.5), (1.0, 1.0), (1.0, 0.0)] + [(1.0, 0.5)] * 11
"""A pentanomial [1, 1, 1, 11, 1]: c₃ = 8·c₀ + 3·c₁, where a Newton step from θ = 0 lands
next to a pole."""


def test_the_failing_logistic_pattern_gives_fishtests_llr() -> None:
    stats = sequential_stats(2, PATTERN_PAIRS, SprtSpec(0, 5))
    assert stats.counts == (1, 1, 1, 11, 1)
    assert stats.sprt is not None
    assert stats.sprt.llr == pytest.approx(0.156865143875148, abs=1e-12)
    assert llr_logistic([1, 1, 1, 11, 1], 0, 5) == pytest.approx(0.156865143875148, abs=1e-12)


def test_the_failing_normalized_pattern_gives_fishtests_llr() -> None:
    assert llr_normalized([1, 2, 0, 14, 13], 0, 5) == pytest.approx(0.442356864141783, abs=1e-12)


@pytest.mark.parametrize("c0,c1", [(1, 0), (0, 1), (1, 1), (2, 3), (5, 0), (7, 2), (20, 20)])
def test_the_whole_family_of_the_pattern(c0: int, c1: int) -> None:
    counts = [c0, c1, 1, 8 * c0 + 3 * c1, 1]
    for elo0, elo1 in ((0, 5), (-3, 1)):
        assert close(llr_logistic(counts, elo0, elo1), reference_logistic(counts, elo0, elo1), 50)
        assert close(
            llr_normalized(counts, elo0, elo1), reference_normalized(counts, elo0, elo1), 50
        )


def test_data_far_from_the_hypothesis_put_the_root_next_to_a_pole() -> None:
    """A million pairs all lost: the fit with mean ½ puts its weight on outcomes seen only
    through the regularization (1e-3 in 10⁶), a root 10⁻⁹ from the pole."""
    counts = [10**6, 0, 0, 0, 0]
    fitted = mle_with_mean([0, 0.25, 0.5, 0.75, 1], [1 - 4e-9, 1e-9, 1e-9, 1e-9, 1e-9], 0.5)
    assert all(p > 0 for p in fitted) and sum(fitted) == pytest.approx(1, abs=1e-12)
    assert close(llr_logistic(counts, 0, 5), reference_logistic(counts, 0, 5), 10**6)


# -- random counts at 2 and 4 players -------------------------------------------------------

COUNT = st.one_of(st.just(0), st.integers(1, 20), st.integers(0, 5000), st.integers(0, 10**6))
ELO = st.floats(-200, 200, allow_nan=False).map(lambda x: round(x, 2))
NELO = st.floats(-40, 40, allow_nan=False).map(lambda x: round(x, 2))


def _bounds(pair: tuple[float, float]) -> bool:
    return pair[0] < pair[1]


@settings(max_examples=150, deadline=None)
@given(
    st.one_of(
        st.lists(COUNT, min_size=5, max_size=5),  # 2 players: the pentanomial
        st.lists(COUNT, min_size=13, max_size=13),  # 4 players: 13 paired differences
    ).filter(any),
    st.tuples(ELO, ELO).filter(_bounds),
)
@example([1, 1, 1, 11, 1], (0, 5))
@example([0, 0, 0, 0, 3], (-200, 200))
@example([10**6, 0, 0, 0, 0], (0, 5))
@example([0] * 12 + [1], (0, 5))
def test_logistic_llr_equals_a_50_digit_reference(
    counts: list[int], bounds: tuple[float, float]
) -> None:
    value = llr_logistic(counts, *bounds)
    assert close(value, reference_logistic(counts, *bounds), sum(counts))


@settings(max_examples=40, deadline=None)
@given(
    st.one_of(
        st.lists(COUNT, min_size=5, max_size=5),
        st.lists(COUNT, min_size=13, max_size=13),
    ).filter(lambda counts: sum(1 for c in counts if c) >= 2),
    st.tuples(NELO, NELO).filter(_bounds),
)
@example([1, 2, 0, 14, 13], (0, 5))
def test_normalized_llr_equals_a_50_digit_reference(
    counts: list[int], bounds: tuple[float, float]
) -> None:
    value = llr_normalized(counts, *bounds)
    assert close(value, reference_normalized(counts, *bounds), sum(counts))


@settings(max_examples=100, deadline=None)
@given(
    st.lists(COUNT, min_size=5, max_size=13).filter(lambda c: len(c) in (5, 13) and any(c)),
    st.floats(0.001, 0.999),
)
def test_every_fit_is_a_positive_distribution_with_its_mean(counts: list[int], mean: float) -> None:
    total = sum(REGULARIZATION if c == 0 else c for c in counts)
    probs = [(REGULARIZATION if c == 0 else c) / total for c in counts]
    values = [i / (len(counts) - 1) for i in range(len(counts))]
    fitted = mle_with_mean(values, probs, mean)
    assert all(p > 0 for p in fitted)
    assert sum(fitted) == pytest.approx(1, abs=1e-9)
    assert sum(p * a for p, a in zip(fitted, values, strict=True)) == pytest.approx(mean, abs=1e-9)
