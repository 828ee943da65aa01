"""The fast Plackett-Luce update equals the ``openskill`` package's, bit for bit."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from c8league.ratings import fast_openskill
from c8league.ratings.model import RatingModel, RatingSettings

models = pytest.importorskip("openskill.models")

Table = tuple[tuple[float, float, float, float], list[tuple[float, float]], list[int]]


def package(params: tuple[float, float, float, float], table: Table) -> object:
    mu, sigma, beta, tau = params
    model = models.PlackettLuce(mu=mu, sigma=sigma, beta=beta, tau=tau)
    _, ratings, ranks = table
    try:
        rated = model.rate(
            [[model.rating(m, s)] for m, s in ratings], ranks=[float(r) for r in ranks]
        )
    except (ArithmeticError, ValueError) as exc:
        return type(exc).__name__
    return [(team[0].mu, team[0].sigma) for team in rated]


def fast(params: tuple[float, float, float, float], table: Table) -> object:
    rater = fast_openskill.plackett_luce(*params)
    assert rater is not None
    _, ratings, ranks = table
    try:
        return rater(ratings, ranks)
    except (ArithmeticError, ValueError) as exc:
        return type(exc).__name__


@st.composite
def tables(draw: st.DrawFn) -> Table:
    params = (
        25.0,
        draw(st.floats(0.5, 12)),
        draw(st.floats(0.2, 10)),
        draw(st.sampled_from([0.0, 25 / 300, 1.0])),
    )
    n = draw(st.integers(2, 8))
    ratings = [(draw(st.floats(-20, 70)), draw(st.floats(0.01, 12))) for _ in range(n)]
    # Ties are common: ranks from a small range; forfeiters share the last rank.
    ranks = [draw(st.integers(1, n + 1)) for _ in range(n)]
    return params, ratings, ranks


def same(a: object, b: object) -> bool:
    """Equal, bit for bit (nan equal to nan, 0.0 not equal to -0.0)."""
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(
            all(
                (math.isnan(x) and math.isnan(y))
                or (x == y and math.copysign(1, x) == math.copysign(1, y))
                for x, y in zip(p, q, strict=True)
            )
            for p, q in zip(a, b, strict=True)
        )
    return a == b


@settings(max_examples=400, deadline=None)
@given(tables())
def test_equal_to_the_package_bit_for_bit(table: Table) -> None:
    params = table[0]
    assert same(fast(params, table), package(params, table))


def test_ties_and_extremes() -> None:
    params = (25.0, 25 / 3, 25 / 6, 25 / 300)
    for ratings, ranks in [
        ([(25.0, 8.3), (25.0, 8.3), (25.0, 8.3), (25.0, 8.3)], [1, 1, 1, 1]),
        ([(30.0, 2.0), (20.0, 5.0), (25.0, 1.0), (-0.0, 3.0)], [2, 2, 1, 5]),
        ([(0.0, 1e-3), (1000.0, 1e-3)], [1, 2]),
        ([(-0.0, 1.0), (-0.0, 1.0), (5.0, 1.0)], [1, 1, 3]),
    ]:
        table = (params, ratings, ranks)
        assert same(fast(params, table), package(params, table))


def test_the_ledger_matches_the_model() -> None:
    """What storage rates with equals what ``RatingModel.rate`` gives."""
    model = RatingModel(RatingSettings(system="openskill"))
    rater = fast_openskill.plackett_luce(25.0, 25 / 3, 25 / 6, 25 / 300)
    assert rater is not None
    start = model.initial()
    rated = model.rate([start] * 4, [1, 2, 2, 4], [False, False, False, True])
    assert [(r.mu, r.sigma) for r in rated] == rater([(start.mu, start.sigma)] * 4, [1, 2, 2, 5])
