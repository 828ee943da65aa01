"""TrueSkill's update of a free-for-all match of one-player teams, computed as the
``trueskill`` package computes it, without its objects.

``trueskill.TrueSkill.rate`` builds a factor graph of Gaussian objects for every match
and passes messages over it. For one-player teams (every c8league match) the graph is
small and its shape fixed, and the time goes into making objects. :func:`rate` sends
the same messages in the same order with the same floating-point operations, on plain
floats, and calls the environment's own ``v``/``w`` functions and draw margin, so its
ratings are *equal* to the package's, bit for bit (``tests/test_ratings.py`` checks it
on random tables), about ten times faster. It serves the default pure-Python backend;
the ``mpmath`` and ``scipy`` backends go through the package itself.

The algorithm (Herbrich, Minka and Graepel, *TrueSkill: A Bayesian skill rating
system*, 2007) as the package implements it (``trueskill/__init__.py``,
``factorgraph.py``): every message is a Gaussian in precision form (π, τ) = (1/σ², μ/σ²).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import trueskill  # type: ignore[import-untyped]

_INF = math.inf
DELTA = 0.0001
"""The package's default ``min_delta``: the schedule stops when no message moves more."""


class _Var:
    """A variable node: its value (π, τ) and the last message from each factor."""

    __slots__ = ("msgs", "pi", "tau")

    def __init__(self) -> None:
        self.pi = 0.0
        self.tau = 0.0
        self.msgs: dict[int, tuple[float, float]] = {}

    def set(self, pi: float, tau: float) -> float:
        pi_delta = abs(self.pi - pi)
        delta = 0.0 if pi_delta == _INF else max(abs(self.tau - tau), math.sqrt(pi_delta))
        self.pi, self.tau = pi, tau
        return delta

    def send(self, factor: int, pi: float, tau: float) -> None:
        """Replace the factor's message (the value changes by the difference). How far the
        value moved is not measured: the schedule looks only at the truncations'."""
        old_pi, old_tau = self.msgs[factor]
        self.msgs[factor] = (pi, tau)
        self.pi = self.pi - old_pi + pi
        self.tau = self.tau - old_tau + tau

    def update_value(self, factor: int, pi: float, tau: float) -> float:
        old_pi, old_tau = self.msgs[factor]
        self.msgs[factor] = (pi + old_pi - self.pi, tau + old_tau - self.tau)
        return self.set(pi, tau)

    def without(self, factor: int) -> tuple[float, float]:
        """The value divided by the factor's message."""
        pi, tau = self.msgs[factor]
        return self.pi - pi, self.tau - tau


def _mu(pi: float, tau: float) -> float:
    return tau / pi if pi else pi


class _Sum:
    """``SumFactor`` of one or two terms: ``total = Σ coeff·term``."""

    __slots__ = ("coeffs", "key", "terms", "total", "ups")

    def __init__(self, key: int, total: _Var, terms: list[_Var], coeffs: list[float]) -> None:
        self.key, self.total, self.terms, self.coeffs = key, total, terms, coeffs
        for var in (total, *terms):
            var.msgs[key] = (0.0, 0.0)
        self.ups: list[tuple[_Var, list[_Var], list[float]]] = []
        for index, coeff in enumerate(coeffs):
            vals = terms[:]
            vals[index] = total
            ups = [1.0 / coeff if x == index else -c / coeff for x, c in enumerate(coeffs)]
            self.ups.append((terms[index], vals, ups))

    def down(self) -> None:
        self._update(self.total, self.terms, self.coeffs)

    def up(self, index: int) -> None:
        self._update(*self.ups[index])

    def _update(self, var: _Var, vals: Sequence[_Var], coeffs: Sequence[float]) -> None:
        key = self.key
        pi_inv = 0.0
        mu = 0.0
        for val, coeff in zip(vals, coeffs, strict=True):
            msg_pi, msg_tau = val.msgs[key]
            div_pi = val.pi - msg_pi
            div_tau = val.tau - msg_tau
            mu += coeff * (div_tau / div_pi if div_pi else div_pi)
            if pi_inv == _INF:
                continue
            if div_pi == 0.0:
                pi_inv = _INF
            else:
                pi_inv += coeff**2 / div_pi
        pi = 1.0 / pi_inv
        var.send(key, pi, pi * mu)


def _truncation(env: Any, tie: bool) -> Callable[[float, float], tuple[float, float]]:
    """The package's ``v`` and ``w`` functions of a win (``v_win``, ``w_win``) or a tie
    (``v_draw``, ``w_draw``) as one call: ``w`` reuses the ``v`` it would recompute, with
    the same operations and the same ``FloatingPointError``."""
    cdf, pdf = env.cdf, env.pdf

    def win(diff: float, draw_margin: float) -> tuple[float, float]:
        x = diff - draw_margin
        denom = cdf(x)
        v = (pdf(x) / denom) if denom else -x
        w = v * (v + x)
        if 0 < w < 1:
            return v, w
        env.w_win(diff, draw_margin)  # raises the package's own error
        raise FloatingPointError("trueskill: w out of range")

    def draw(diff: float, draw_margin: float) -> tuple[float, float]:
        abs_diff = abs(diff)
        a, b = draw_margin - abs_diff, -draw_margin - abs_diff
        denom = cdf(a) - cdf(b)
        numer = pdf(b) - pdf(a)
        q = (numer / denom) if denom else a
        v = q * (-1 if diff < 0 else +1)
        if not denom:
            env.w_draw(diff, draw_margin)  # raises the package's own error
            raise FloatingPointError("trueskill: no precision left for a tie")
        return v, (q**2) + (a * pdf(a) - b * pdf(b)) / denom

    return draw if tie else win


def rate(
    env: Any, ratings: Sequence[tuple[float, float]], ranks: Sequence[int]
) -> list[tuple[float, float]]:
    """New (μ, σ) of each player, in the order given, after a match ranked by ``ranks``
    (lower is better, equal ranks tie): ``env.rate([(Rating(μ, σ),), …], ranks)`` of a
    ``trueskill.TrueSkill`` environment ``env`` with a fixed draw probability, computed
    as the package computes it. Raises ``FloatingPointError`` where the package does."""
    n = len(ratings)
    order = sorted(range(n), key=lambda i: ranks[i])  # stable, as the package sorts
    sorted_ranks = [ranks[i] for i in order]
    beta2 = env.beta**2
    dynamic = env.tau
    margin = trueskill.calc_draw_margin(env.draw_probability, 2, env)
    keys = iter(range(1 << 30))

    rating_vars = [_Var() for _ in range(n)]
    perf_vars = [_Var() for _ in range(n)]
    team_vars = [_Var() for _ in range(n)]
    diff_vars = [_Var() for _ in range(n - 1)]

    priors: list[tuple[int, float, float]] = []  # factor key, prior pi, prior tau
    for index, var in zip(order, rating_vars, strict=True):
        key = next(keys)
        var.msgs[key] = (0.0, 0.0)
        mu, sigma = ratings[index]
        pi0 = sigma**-2  # as trueskill.Rating(mu, sigma) stores it
        tau0 = pi0 * mu
        val_mu, val_sigma = _mu(pi0, tau0), math.sqrt(1 / pi0) if pi0 else _INF
        s = math.sqrt(val_sigma**2 + dynamic**2)
        pi = s**-2
        priors.append((key, pi, pi * val_mu))
    likes: list[int] = []
    for rating_var, perf_var in zip(rating_vars, perf_vars, strict=True):
        key = next(keys)
        rating_var.msgs[key] = (0.0, 0.0)
        perf_var.msgs[key] = (0.0, 0.0)
        likes.append(key)
    team_sums = [
        _Sum(next(keys), team_var, [perf_var], [1.0])
        for team_var, perf_var in zip(team_vars, perf_vars, strict=True)
    ]

    # gray arrows: priors, likelihoods and team performances, down
    for var, (key, pi, tau) in zip(rating_vars, priors, strict=True):
        var.update_value(key, pi, tau)
    for rating_var, perf_var, key in zip(rating_vars, perf_vars, likes, strict=True):
        msg_pi, msg_tau = rating_var.without(key)
        a = 1.0 / (1.0 + beta2 * msg_pi)
        perf_var.send(key, a * msg_pi, a * msg_tau)
    for team_sum in team_sums:
        team_sum.down()

    diffs = [
        _Sum(next(keys), diff_vars[j], team_vars[j : j + 2], [1.0, -1.0]) for j in range(n - 1)
    ]
    win, draw = _truncation(env, False), _truncation(env, True)
    truncs: list[tuple[int, Callable[[float, float], tuple[float, float]]]] = []
    for j, diff_var in enumerate(diff_vars):
        key = next(keys)
        diff_var.msgs[key] = (0.0, 0.0)
        truncs.append((key, draw if sorted_ranks[j] == sorted_ranks[j + 1] else win))

    def truncate(j: int) -> float:
        key, v_and_w = truncs[j]
        var = diff_vars[j]
        div_pi, div_tau = var.without(key)
        sqrt_pi = math.sqrt(div_pi)
        v, w = v_and_w(div_tau / sqrt_pi, margin * sqrt_pi)
        denom = 1.0 - w
        return var.update_value(key, div_pi / denom, (div_tau + sqrt_pi * v) / denom)

    count = n - 1
    for _ in range(10):
        if count == 1:
            diffs[0].down()
            delta = truncate(0)
        else:
            delta = 0.0
            for j in range(count - 1):
                diffs[j].down()
                delta = max(delta, truncate(j))
                diffs[j].up(1)
            for j in range(count - 1, 0, -1):
                diffs[j].down()
                delta = max(delta, truncate(j))
                diffs[j].up(0)
        if delta <= DELTA:
            break
    diffs[0].up(0)
    diffs[count - 1].up(1)
    for team_sum in team_sums:
        team_sum.up(0)
    for rating_var, perf_var, key in zip(rating_vars, perf_vars, likes, strict=True):
        msg_pi, msg_tau = perf_var.without(key)
        a = 1.0 / (1.0 + beta2 * msg_pi)
        rating_var.send(key, a * msg_pi, a * msg_tau)

    result: list[tuple[float, float]] = [(0.0, 0.0)] * n
    for index, var in zip(order, rating_vars, strict=True):
        mu = float(_mu(var.pi, var.tau))
        sigma = float(math.sqrt(1 / var.pi) if var.pi else _INF)
        pi2 = sigma**-2  # as trueskill.Rating(mu, sigma) stores the result
        tau2 = pi2 * mu
        result[index] = (_mu(pi2, tau2), math.sqrt(1 / pi2) if pi2 else _INF)
    return result
