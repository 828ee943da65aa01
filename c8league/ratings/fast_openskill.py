"""openskill's Plackett-Luce update of a free-for-all match of one-player teams, computed
as the ``openskill`` package computes it, on plain floats.

``PlackettLuce.rate`` checks its arguments, deep-copies the teams (a rating object, with
a fresh random id, per player), builds a team-rating object per team, sorts the teams by
rank and back, and updates the copies. For one-player teams ranked without scores or
weights (every c8league match) the arithmetic is a few dozen float operations per
player. :class:`PlackettLuceRater` performs the same operations in the same order on
plain floats, so its ratings are *equal* to the package's, bit for bit
(``tests/test_fast_openskill.py`` checks it on random tables, with ties), two to three
times faster. It serves the package's 6.2 releases (the version c8league pins;
openskill's numbers changed between 6.x minor releases) with the model's default
``gamma``, no ``limit_sigma`` and no ``balance``: :func:`plackett_luce` returns ``None``
otherwise, and the package itself is used.

The algorithm is Algorithm 4 of Weng and Lin, *A Bayesian Approximation Method for
Online Ranking* (JMLR 12, 2011), as ``openskill/models/weng_lin/plackett_luce.py``
implements it (``rate`` and ``_compute``).
"""

from __future__ import annotations

import importlib
import math
from collections.abc import Callable, Sequence
from typing import Any

__all__ = ["PlackettLuceRater", "plackett_luce"]

_VERSIONS = ("6.2.",)
"""The openskill releases whose ``PlackettLuce.rate`` this reproduces."""


class PlackettLuceRater:
    """The update of one ``PlackettLuce`` model's parameters (see :func:`plackett_luce`)."""

    __slots__ = ("_beta_squared", "_kappa", "_tau_squared")

    def __init__(self, beta: float, tau: float, kappa: float) -> None:
        self._beta_squared = beta**2
        self._tau_squared = tau * tau
        self._kappa = kappa

    def __call__(
        self, ratings: Sequence[tuple[float, float]], ranks: Sequence[int]
    ) -> list[tuple[float, float]]:
        """New (μ, σ) of each player, in the order given, after a match ranked by
        ``ranks`` (lower is better, equal ranks tie): ``model.rate([[rating(μ, σ)], …],
        ranks=[float(r) for r in ranks])``, computed as the package computes it."""
        n = len(ratings)
        sqrt, exp = math.sqrt, math.exp
        tau_squared, beta_squared, kappa = self._tau_squared, self._beta_squared, self._kappa
        # The teams in rank order (a stable sort, as the package's own), each player's
        # sigma widened by tau first; a team's mu and sigma² are sums over its one player.
        order = sorted(range(n), key=ranks.__getitem__)
        rank = [ranks[i] for i in order]
        rated = [ratings[i] for i in order]
        # (The package's 0.0 + sigma * 1.0 and 0.0 + mu * 1.0 are sigma and mu again, but
        # for a mu of -0.0, whose exp is that of 0.0.)
        sigmas = [sqrt(sigma * sigma + tau_squared) for _, sigma in rated]
        squares = [sigma**2 for sigma in sigmas]
        collective = 0.0
        for squared in squares:
            collective += squared + beta_squared
        c = sqrt(collective)
        c_squared = c**2
        exps = [exp(mu / c) for mu, _ in rated]
        # sum_q[q]: the exps of the teams ranked as q or below, added in team order;
        # ties[q]: how many teams share q's rank (they are next to each other).
        tied = len(set(rank)) < n
        sum_q: list[float] = []
        ties: list[int] = []
        first = 0
        while first < n:
            end = first + 1
            if tied:
                while end < n and rank[end] == rank[first]:
                    end += 1
            total = 0.0
            for exp_i in exps[first:]:
                total += exp_i
            sum_q += [total] * (end - first)
            ties += [end - first] * (end - first)
            first = end
        new: list[tuple[float, float]] = []
        for i in range(n):
            exp_i = exps[i]
            omega = 0.0
            delta = 0.0
            if tied:
                rank_i = rank[i]
                for q in range(n):
                    if rank[q] > rank_i:
                        break
                    share = exp_i / sum_q[q]
                    a = ties[q]
                    delta += share * (1 - share) / a
                    if q == i:
                        omega += (1 - share) / a
                    else:
                        omega -= share / a
            else:
                # The same sums, each team alone at its rank (a division by 1 changes
                # nothing): the teams ranked above i, then i itself.
                for q in range(i):
                    share = exp_i / sum_q[q]
                    delta += share * (1 - share)
                    omega -= share
                share = exp_i / sum_q[i]
                delta += share * (1 - share)
                omega += 1 - share
            squared = squares[i]
            omega *= squared / c
            delta *= squared / c_squared
            delta *= sqrt(squared) / c  # the default gamma
            # The player's share of the team's sigma² (its sigma² again: 1.0, or nan), and
            # a weight of 1.0 the package multiplies by (divides when omega is negative).
            part = squared / squared
            left = 1 - part * delta
            new.append(
                (rated[i][0] + part * omega, sigmas[i] * sqrt(kappa if kappa > left else left))
            )
        if tied:
            # The package then moves each group of tied teams by their mean change in mu,
            # measured on the ratings it has already updated in place: a change of 0.0
            # (or nan), added all the same for the same floats.
            groups: dict[int, list[int]] = {}
            for i, rank_i in enumerate(rank):
                groups.setdefault(rank_i, []).append(i)
            for members in groups.values():
                if len(members) > 1:
                    change = sum(new[i][0] - new[i][0] for i in members) / len(members)
                    for i in members:
                        new[i] = (new[i][0] + change, new[i][1])
        result: list[tuple[float, float]] = [(0.0, 0.0)] * n
        for i, pair in zip(order, new, strict=True):
            result[i] = pair
        return result


def plackett_luce(mu: float, sigma: float, beta: float, tau: float) -> PlackettLuceRater | None:
    """The update of ``openskill.models.PlackettLuce(mu=…, sigma=…, beta=…, tau=…)``, or
    ``None`` when the installed openskill is not a release this reproduces (or the
    model's defaults differ from those it assumes)."""
    try:
        package = importlib.import_module("openskill")
        models = importlib.import_module("openskill.models")
        module = importlib.import_module("openskill.models.weng_lin.plackett_luce")
    except ImportError:
        return None
    if not str(package.__version__).startswith(_VERSIONS):
        return None
    model: Any = models.PlackettLuce(mu=mu, sigma=sigma, beta=beta, tau=tau)
    default_gamma: Callable[..., float] = module._gamma
    if model.gamma is not default_gamma or model.limit_sigma or model.balance:
        return None
    return PlackettLuceRater(model.beta, model.tau, model.kappa)
