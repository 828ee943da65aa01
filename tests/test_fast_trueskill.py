"""The fast TrueSkill update equals the ``trueskill`` package's, bit for bit."""

from __future__ import annotations

import pytest
import trueskill  # type: ignore[import-untyped]
from hypothesis import given, settings
from hypothesis import strategies as st

from c8league.ratings import fast_trueskill
from c8league.ratings.model import Rating, RatingError, RatingModel, RatingSettings


def package(
    env: trueskill.TrueSkill, ratings: list[tuple[float, float]], ranks: list[int]
) -> object:
    try:
        rated = env.rate([(trueskill.Rating(mu, sigma),) for mu, sigma in ratings], ranks=ranks)
    except (ArithmeticError, ValueError) as exc:  # where the package's floats break down
        return type(exc).__name__
    return [(group[0].mu, group[0].sigma) for group in rated]


def fast(env: trueskill.TrueSkill, ratings: list[tuple[float, float]], ranks: list[int]) -> object:
    try:
        return fast_trueskill.rate(env, ratings, ranks)
    except (ArithmeticError, ValueError) as exc:
        return type(exc).__name__


@st.composite
def tables(draw: st.DrawFn) -> tuple[trueskill.TrueSkill, list[tuple[float, float]], list[int]]:
    env = trueskill.TrueSkill(
        mu=25.0,
        sigma=draw(st.floats(0.5, 12)),
        beta=draw(st.floats(0.2, 10)),
        tau=draw(st.sampled_from([0.0, 25 / 300, 1.0])),
        draw_probability=draw(st.floats(0.01, 0.6)),
    )
    n = draw(st.integers(2, 8))
    ratings = [(draw(st.floats(-20, 70)), draw(st.floats(0.1, 12))) for _ in range(n)]
    ranks = [draw(st.integers(1, n)) for _ in range(n)]
    return env, ratings, ranks


@settings(max_examples=300, deadline=None)
@given(tables())
def test_equal_to_the_package_bit_for_bit(
    table: tuple[trueskill.TrueSkill, list[tuple[float, float]], list[int]],
) -> None:
    env, ratings, ranks = table
    assert fast(env, ratings, ranks) == package(env, ratings, ranks)


def test_hopeless_upsets_raise_as_the_package_does() -> None:
    env = trueskill.TrueSkill(draw_probability=0.1)
    ratings = [(0.0, 0.2), (1000.0, 0.2)]
    assert package(env, ratings, [1, 2]) == fast(env, ratings, [1, 2]) == "FloatingPointError"
    assert package(env, ratings, [1, 1]) == fast(env, ratings, [1, 1])
    model = RatingModel(RatingSettings(draw_probability=0.1))
    with pytest.raises(RatingError, match="mpmath"):
        model.rate([Rating(0.0, 0.2), Rating(1000.0, 0.2)], [1, 2])


def test_a_negative_variance_raises_as_the_package_does_and_is_one_line() -> None:
    """A tiny beta and far-apart ratings: the package's message passing takes a square
    root of a negative precision (a ValueError, not a FloatingPointError)."""
    env = trueskill.TrueSkill(sigma=1.9, beta=0.2, tau=25 / 300, draw_probability=0.29)
    ratings = [
        (2.260759364376121e-290, 11.063519359975567),
        (2.307586863851774e-144, 6.70270573446949),
        (70.0, 1.1),
        (-16.2019772252621, 4.039719417149039),
        (9.993750486167805, 1.132496978533975),
    ]
    ranks = [2, 1, 2, 2, 2]
    assert package(env, ratings, ranks) == fast(env, ratings, ranks) == "ValueError"
    model = RatingModel(RatingSettings(sigma=1.9, beta=0.2, draw_probability=0.29))
    with pytest.raises(RatingError, match="mpmath"):
        model.rate([Rating(mu, sigma) for mu, sigma in ratings], ranks)


def test_the_model_uses_it_only_on_the_default_backend() -> None:
    table = [Rating(25, 8), Rating(30, 4), Rating(20, 6), Rating(27, 2)]
    fast_model = RatingModel(RatingSettings())
    assert fast_model._engine._fast  # type: ignore[attr-defined]
    env = trueskill.TrueSkill()
    expected = package(env, [(r.mu, r.sigma) for r in table], [2, 1, 3, 3])
    assert [(r.mu, r.sigma) for r in fast_model.rate(table, [2, 1, 3, 3])] == expected
