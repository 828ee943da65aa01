"""The duel's statistics (c8league.duel.stats): values worked by hand, values published
by fastchess and fishtest, properties, edge cases, and the stopping rule checked by
simulating many duels from known distributions.

Published values come from:
* fastchess (github.com/Disservin/fastchess) ``app/tests/elo_test.cpp`` and
  ``app/tests/sprt_test.cpp``, which check to a relative 1% (doctest ``epsilon(0.01)``).
  Their ``Stats(ll, ld, wl, dd, wd, ww)`` is the pentanomial (LL, LD, WL+DD, WD, WW);
  ``Stats(w, l, d)`` is the trinomial (L, D, W).
* fishtest (github.com/official-stockfish/fishtest) ``server/fishtest/stats/LLRcalc.py``
  (commit 121549e5): ``LLR_logistic`` and ``LLR_normalized`` evaluated on the counts
  below with scipy 1.17.1's ``brentq``; its pentanomial [10789, 19328, 33806, 19402,
  10543] with bounds (−3, 1) is the example of ``stat_util.py``'s ``__main__``.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Iterator, Sequence
from itertools import cycle, repeat
from statistics import NormalDist

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from c8league.cli.exits import status_of_kind
from c8league.duel.stats import (
    NELO_PER_T,
    REGULARIZATION,
    Z95,
    Decision,
    DuelTally,
    EloModel,
    SprtSpec,
    WinDrawLoss,
    duel_stats,
    elo_from_score,
    expected_score,
    llr_logistic,
    llr_normal,
    llr_normalized,
    mean_difference,
    mle_with_mean,
    mle_with_t_value,
    sequential_stats,
)
from c8league.errors import C8LeagueError, StatsError
from c8league.standings import match_points

# A's points over a K = 2 pair -> one outcome (A's share, B's share) giving them.
PAIR = {0.0: (0.0, 1.0), 0.5: (0.0, 0.5), 1.0: (1.0, 1.0), 1.5: (1.0, 0.5), 2.0: (1.0, 0.0)}


def pentanomial_outcomes(counts: Sequence[int]) -> list[tuple[float, float]]:
    """Outcomes whose pentanomial is ``counts`` (pairs scoring 0, ½, 1, 1½, 2 for A)."""
    return [PAIR[i / 2] for i, n in enumerate(counts) for _ in range(n)]


def fastchess_penta(ll: int, ld: int, wl: int, dd: int, wd: int, ww: int) -> list[int]:
    return [ll, ld, wl + dd, wd, ww]


# ------------------------------------------------------------------ worked by hand


def test_two_player_pairs_worked_by_hand() -> None:
    # WW, WL, DD and LD: A scores 2, 1, 1 and ½ points of 2.
    outcomes = [(1.0, 0.0), (1.0, 1.0), (0.5, 0.5), (0.0, 0.5)]
    s = duel_stats(2, outcomes)
    assert (s.players, s.pairs, s.games) == (2, 4, 8)
    assert s.pentanomial == s.counts == (0, 1, 2, 0, 1)
    assert s.wdl == WinDrawLoss(wins=3, draws=3, losses=2)
    assert (s.better, s.equal, s.worse) == (1, 2, 1)
    assert s.share_a == 2.5 / 4 and s.share_b == 2 / 4  # a and b of each pair
    assert s.score == (s.share_a + 1 - s.share_b) / 2
    # d = 1, 0, 0, -1/2: mean 1/8, mean square 5/16, variance 5/16 - 1/64 = 19/64.
    assert s.mean == 0.125
    assert s.variance == pytest.approx(19 / 64, abs=1e-15)
    assert s.score == 4.5 / 8
    assert s.elo == pytest.approx(400 * math.log10(9 / 7), abs=1e-12)  # 43.66
    se = math.sqrt(19 / 64 / 4 / 4)  # the score's standard error: √(v/4n)
    low, high = 0.5625 - 1.959963984540054 * se, 0.5625 + 1.959963984540054 * se
    assert s.elo_low == pytest.approx(400 * math.log10(low / (1 - low)), abs=1e-9)
    assert s.elo_high == pytest.approx(400 * math.log10(high / (1 - high)), abs=1e-9)
    assert s.elo_error == pytest.approx((s.elo_high - s.elo_low) / 2)
    assert s.mean_low == pytest.approx(0.125 - 1.959963984540054 * math.sqrt(19 / 64 / 4))
    assert s.nelo == pytest.approx(0.0625 / math.sqrt(2 * 19 / 64 / 4) * 800 / math.log(10))
    assert s.nelo == pytest.approx(56.36, abs=0.01)
    assert s.nelo_error == pytest.approx(1.959963984540054 * 347.43558552260146 / math.sqrt(8))
    assert s.los == pytest.approx(NormalDist().cdf(0.0625 / se))
    assert s.los == pytest.approx(0.6768, abs=1e-4)
    assert s.notes == ()


def test_four_player_deals_worked_by_hand() -> None:
    # Shares at 4 players are multiples of 1/6 (places 1st..4th: 1, 2/3, 1/3, 0).
    outcomes = [(1.0, 2 / 3), (1 / 3, 1 / 3), (0.0, 1 / 3), (1.0, 0.0)]
    s = duel_stats(4, outcomes)
    assert len(s.counts) == 13  # d = -1, -5/6, ..., 1
    assert [j for j, c in enumerate(s.counts) if c] == [4, 6, 8, 12]  # d = -1/3, 0, 1/3, 1
    assert s.wdl is None and s.pentanomial is None
    assert (s.better, s.equal, s.worse) == (2, 1, 1)
    assert s.share_a == pytest.approx(7 / 12) and s.share_b == pytest.approx(1 / 3)
    assert s.mean == pytest.approx(0.25)
    assert s.variance == pytest.approx(11 / 36 - 1 / 16)  # 35/144
    assert s.mean_high == pytest.approx(0.25 + Z95 * math.sqrt(35 / 144 / 4))
    assert s.score == pytest.approx(0.625)
    assert s.elo == pytest.approx(400 * math.log10(0.625 / 0.375))  # 88.7


def test_shared_places_at_four_players() -> None:
    # The standings' placement shares: a shared 2nd place is worth ½, a shared 1st ⅚
    # and a shared 3rd ⅙, all multiples of 1/6.
    assert match_points([1, 2, 2, 4]) == [1.0, 0.5, 0.5, 0.0]
    first, _, third, _ = match_points([1, 1, 3, 3])
    s = duel_stats(4, [(0.5, 0.5), (first, third)])
    assert s.counts[6] == 1 and s.counts[6 + 4] == 1  # d = 0 and d = 4/6
    assert s.mean == pytest.approx(1 / 3)


def test_the_gsprt_worked_by_hand_on_three_outcomes() -> None:
    # Counts (1, 1, 1) on the outcomes 0, ½, 1 have mean ½ = L(0): under H0 the fit is
    # the data itself. Under H1 with mean 0.6 (Elo 400·log10(1.5)) the fit is
    # p_i = (1/3)/(1 + θ(a_i - 0.6)), θ the root in (-2.5, 5/3) of
    # -0.6/(1-0.6θ) - 0.1/(1-0.1θ) + 0.4/(1+0.4θ) = 0, i.e. 0.072θ² - 0.44θ - 0.3 = 0.
    theta = (0.44 - math.sqrt(0.44**2 + 4 * 0.072 * 0.3)) / (2 * 0.072)
    p1 = [(1 / 3) / (1 + theta * (a - 0.6)) for a in (0.0, 0.5, 1.0)]
    assert sum(p1) == pytest.approx(1.0)
    assert p1[1] * 0.5 + p1[2] == pytest.approx(0.6)
    assert mle_with_mean([0.0, 0.5, 1.0], [1 / 3] * 3, 0.6) == pytest.approx(p1, abs=1e-14)
    expected = sum(math.log(p / (1 / 3)) for p in p1)  # N·Σ p̂·log(p¹/p⁰) with N = 3
    elo1 = 400 * math.log10(1.5)
    assert llr_logistic([1, 1, 1], 0.0, elo1) == pytest.approx(expected, abs=1e-12)
    assert expected < 0  # the data sit on H0


def test_sprt_bounds() -> None:
    spec = SprtSpec(elo0=0, elo1=5)
    assert spec.lower == pytest.approx(-2.944, abs=5e-4)  # α = β = 0.05 gives ±2.944
    assert spec.upper == pytest.approx(2.944, abs=5e-4)
    assert spec.lower == math.log(0.05 / 0.95) and spec.upper == math.log(0.95 / 0.05)
    uneven = SprtSpec(elo0=0, elo1=5, alpha=0.1, beta=0.01)
    assert uneven.lower == pytest.approx(math.log(0.01 / 0.9))
    assert uneven.upper == pytest.approx(math.log(0.99 / 0.1))
    assert spec.decide(2.95) is Decision.H1 and spec.decide(spec.upper) is Decision.H1
    assert spec.decide(-2.95) is Decision.H0
    assert spec.decide(0.0) is Decision.UNDECIDED
    assert Decision.H1.label == "H1 accepted" and Decision.UNDECIDED.label == "undecided"


def test_scales() -> None:
    assert pytest.approx(347.43558552260146) == NELO_PER_T  # fishtest's nelo_divided_by_nt
    assert pytest.approx(1.959963984540054) == Z95  # fastchess's CI95ZSCORE
    assert expected_score(0) == 0.5
    assert expected_score(400) == pytest.approx(10 / 11)
    assert elo_from_score(10 / 11) == pytest.approx(400)
    assert elo_from_score(0.5) == 0.0 and math.copysign(1, elo_from_score(0.5)) == 1
    assert mean_difference(0) == 0.0
    assert mean_difference(5) == pytest.approx(math.tanh(5 * math.log(10) / 800))
    with pytest.raises(StatsError, match="no finite Elo"):
        elo_from_score(1.0)


# --------------------------------------------------------------- published values

# fastchess elo_test.cpp: EloPentanomial 1, 2, 3 -> (Elo, ±, nElo, ±, LOS or None).
FASTCHESS_ELO = [
    ((34, 54, 31, 32, 64, 75), (55.58, 27.65, 57.94, 28.28, 1.0000)),
    ((332, 433, 457, 41, 333, 334), (-8.64, 10.33, -9.17, 10.96, 0.0505)),
    ((7895, 8757, 5485, 200, 568, 9999), (-21.04, 2.95, -19.01, 2.65, None)),
]


@pytest.mark.parametrize(("stats", "expected"), FASTCHESS_ELO)
def test_elo_as_fastchess_publishes(
    stats: tuple[int, ...], expected: tuple[float, float, float, float, float | None]
) -> None:
    s = duel_stats(2, pentanomial_outcomes(fastchess_penta(*stats)))
    elo, error, nelo, nerror, los = expected
    assert s.elo == pytest.approx(elo, rel=0.01)
    assert s.elo_error == pytest.approx(error, rel=0.01)
    assert s.nelo == pytest.approx(nelo, rel=0.01)
    assert s.nelo_error == pytest.approx(nerror, rel=0.01)
    if los is not None:  # printed as "100.00 %" and "5.05 %"
        assert s.los == pytest.approx(los, abs=5e-5)


# fastchess sprt_test.cpp: (counts, elo0, elo1, model, LLR).
FASTCHESS_LLR = [
    (fastchess_penta(871, 26175, 55003, 980, 26678, 821), 0, 2, "logistic", -4.98),
    (fastchess_penta(223, 9863, 20279, 1000, 10037, 246), 0.5, 2.5, "logistic", -3.07),
    (fastchess_penta(365, 16618, 36029, 200, 16974, 390), 0, 2, "normalized", 2.25),
    (fastchess_penta(127, 4883, 10311, 401, 5150, 104), -1.75, 0.25, "normalized", 3.01),
    ([21184, 40708, 21404], 0.5, 2.5, "logistic", -1.57),  # Stats(w, l, d) -> (L, D, W)
    ([57030, 106593, 57433], 0, 2, "logistic", -2.59),
    ([36027, 68692, 36433], 0, 2, "normalized", 0.92),
    ([10650, 20431, 10871], -1.75, 0.25, "normalized", 2.30),
]


@pytest.mark.parametrize(("counts", "elo0", "elo1", "model", "llr"), FASTCHESS_LLR)
def test_llr_as_fastchess_publishes(
    counts: list[int], elo0: float, elo1: float, model: str, llr: float
) -> None:
    compute = llr_logistic if model == "logistic" else llr_normalized
    assert compute(counts, elo0, elo1) == pytest.approx(llr, rel=0.01)


# fishtest LLRcalc.py run on these counts: (counts, elo0, elo1, LLR_logistic,
# LLR_normalized). The last three are degenerate (one outcome only): fastchess's own
# tests expect 2.94 for all-WW and 2.97 for all-draws with normalized bounds (0, 5);
# its fit stops at a tolerance of 1e-4, fishtest's (which this module follows) at 1e-9.
FISHTEST_LLR = [
    ([10789, 19328, 33806, 19402, 10543], -3, 1, 2.1310678117940807, 0.30086978548354076),
    ([1187, 7410, 13475, 7378, 1164], -3, 1, 2.86152718059463, 0.6002660734848049),
    ([39, 2226, 31451, 2412, 40], 0.2, 0.9, 2.1625425800483593, 1.216596745293254),
    ([3, 0, 7, 0, 5], 0, 5, 0.051134579392642876, 0.05265268419105614),
    ([0, 0, 0, 0, 104], 0, 5, 1.4859395685254286, 2.094954527648188),
    ([0, 0, 204, 0, 0], 0, 5, -2.9483843377963335, -0.07987669936983176),
    ([0, 16700, 0], 0, 5, -242.04890737091063, -3.450539774139151),
]


@pytest.mark.parametrize(("counts", "elo0", "elo1", "logistic", "normalized"), FISHTEST_LLR)
def test_llr_as_fishtest_computes(
    counts: list[int], elo0: float, elo1: float, logistic: float, normalized: float
) -> None:
    assert llr_logistic(counts, elo0, elo1) == pytest.approx(logistic, rel=1e-9)
    # fishtest stops its t-value fit after 10 rounds or a change below 1e-9.
    assert llr_normalized(counts, elo0, elo1) == pytest.approx(normalized, rel=1e-6)


def test_duel_at_four_players_uses_the_same_gsprt() -> None:
    # fishtest's LLR_logistic on a 9-outcome histogram (K = 3), run as above.
    counts = [1, 2, 0, 0, 0, 3, 0, 0, 1]
    assert llr_logistic(counts, 0, 20) == pytest.approx(-0.11691036307879722, rel=1e-9)
    tally = DuelTally(3)  # shares 0, ¼, ½, ¾, 1; d in steps of ¼
    for j, n in enumerate(counts):
        d = j / 4 - 1
        tally.extend([(max(d, 0.0), max(-d, 0.0))] * n)
    assert tally.counts == tuple(counts)
    result = tally.sprt(SprtSpec(0, 20))
    assert result.llr == llr_logistic(counts, 0, 20)
    assert result.delta1 == pytest.approx(2 * expected_score(20) - 1)


def test_elo_interval_as_fishtest_get_elo_writes_it() -> None:
    # stat_util.get_elo, from its text: per game, games = 2N, μ = Σ cᵢ·(i/2)/games,
    # var = Σ cᵢ·(i/2 − 2μ)²/games; μ ± Φ⁻¹(0.975)·√(var/games), mapped to Elo and
    # halved; LOS = Φ((μ − ½)/√(var/games)). (No zero counts, so its regularization
    # changes nothing.)
    counts = [12, 30, 101, 41, 19]
    n = sum(counts)
    games = 2 * n
    mu = sum(c * i / 2 for i, c in enumerate(counts)) / games
    var = sum(c * (i / 2 - 2 * mu) ** 2 for i, c in enumerate(counts)) / games
    sd = math.sqrt(var / games)
    elo = -400 * math.log10(1 / mu - 1)
    lo, hi = mu - 1.959963984540054 * sd, mu + 1.959963984540054 * sd
    elo95 = (-400 * math.log10(1 / hi - 1) + 400 * math.log10(1 / lo - 1)) / 2
    s = duel_stats(2, pentanomial_outcomes(counts))
    assert s.score == pytest.approx(mu)
    assert s.elo == pytest.approx(elo)
    assert s.elo_error == pytest.approx(elo95)
    assert s.los == pytest.approx(NormalDist().cdf((mu - 0.5) / sd))


def test_the_normal_approximation_is_the_gsprt_for_many_pairs() -> None:
    # fishtest's LLR_alt2 on pair means = llr_normal on d = 2·(pair mean) − 1.
    counts = [1000, 2200, 13000, 2500, 1100]
    n = sum(counts)
    s = duel_stats(2, pentanomial_outcomes(counts))
    assert s.mean is not None and s.variance is not None
    approx = llr_normal(
        n, s.mean, s.variance, delta0=mean_difference(-2), delta1=mean_difference(3)
    )
    pdf = [(i / 4, c / n) for i, c in enumerate(counts)]
    mean = sum(a * p for a, p in pdf)
    var = sum(p * (a - mean) ** 2 for a, p in pdf)
    s0, s1 = expected_score(-2), expected_score(3)
    alt2 = n * (s1 - s0) * (2 * mean - s0 - s1) / var / 2
    assert approx == pytest.approx(alt2)
    assert llr_logistic(counts, -2, 3) == pytest.approx(approx, rel=0.02)


# -------------------------------------------------------------------- properties

shares_2 = st.sampled_from([0.0, 0.5, 1.0])


@st.composite
def duels(draw: st.DrawFn, max_pairs: int = 40) -> tuple[int, list[tuple[float, float]]]:
    players = draw(st.integers(2, 6))
    share = st.integers(0, 2 * (players - 1)).map(lambda u: u / (2 * (players - 1)))
    outcomes = draw(st.lists(st.tuples(share, share), max_size=max_pairs))
    return players, outcomes


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 30), min_size=5, max_size=5), st.integers(0, 3), st.data())
def test_a_better_pair_never_lowers_the_llr(
    counts: list[int], cell: int, data: st.DataObject
) -> None:
    """Turning one pair into one a step better for A (e.g. a DL pair into a DW pair)
    never lowers the LLR, as long as the pair neither leaves its outcome empty nor
    joins an empty one: an empty count is fishtest's 1e-3, and emptying or filling one
    can move the LLR by about 1e-6 either way (e.g. (1, 1, 0, 0, 0) -> (0, 2, 0, 0, 0),
    or (0, 0, 2, 0, 3) -> (0, 0, 1, 1, 3), with bounds 0, 1)."""
    counts[cell] += 2
    counts[cell + 1] += 1
    better = list(counts)
    better[cell] -= 1
    better[cell + 1] += 1
    elo0 = data.draw(st.floats(-20, 10))
    elo1 = elo0 + data.draw(st.floats(1, 20))
    assert llr_logistic(better, elo0, elo1) >= llr_logistic(counts, elo0, elo1) - 1e-9
    assert llr_normalized(better, elo0, elo1) >= llr_normalized(counts, elo0, elo1) - 1e-9


@settings(max_examples=40, deadline=None)
@given(duels(), st.floats(1, 30))
def test_another_win_for_a_raises_the_llr(
    duel: tuple[int, list[tuple[float, float]]], e: float
) -> None:
    players, outcomes = duel
    spec = SprtSpec(0, e)
    base = DuelTally.of(players, outcomes).sprt(spec).llr
    assert DuelTally.of(players, [*outcomes, (1.0, 0.0)]).sprt(spec).llr > base
    assert DuelTally.of(players, [*outcomes, (0.0, 1.0)]).sprt(spec).llr < base


@settings(max_examples=60, deadline=None)
@given(duels(), st.floats(0.5, 40), st.sampled_from(list(EloModel)))
def test_swapping_a_and_b(
    duel: tuple[int, list[tuple[float, float]]], e: float, model: EloModel
) -> None:
    """Swapping A and B reverses the counts, negates Elo, normalized Elo and the mean,
    mirrors the intervals, turns LOS into 1 − LOS and swaps wins and losses. The LLR of
    H1 "Elo = e1" against H0 "Elo = e0" for B over A is minus the LLR of "Elo = −e0"
    against "Elo = −e1" for A over B: with symmetric bounds (e0 = −e1) exactly minus
    the same test's LLR."""
    players, outcomes = duel
    ab = DuelTally.of(players, outcomes)
    ba = DuelTally.of(players, [(b, a) for a, b in outcomes])
    assert ba.counts == ab.counts[::-1]
    s, r = ab.stats(), ba.stats()
    assert (r.better, r.equal, r.worse) == (s.worse, s.equal, s.better)
    if s.wdl is not None and r.wdl is not None:
        assert (r.wdl.wins, r.wdl.draws, r.wdl.losses) == (s.wdl.losses, s.wdl.draws, s.wdl.wins)

    def neg(x: float | None) -> float | None:
        return None if x is None else -x

    assert r.mean == neg(s.mean)
    assert r.elo == pytest.approx(neg(s.elo), abs=1e-9)
    assert r.elo_low == pytest.approx(neg(s.elo_high), abs=1e-9)
    assert r.nelo == pytest.approx(neg(s.nelo), abs=1e-9)
    if s.los is not None:
        assert r.los == pytest.approx(1 - s.los, abs=1e-12)
    symmetric = SprtSpec(-e, e, model=model)
    assert ba.sprt(symmetric).llr == pytest.approx(-ab.sprt(symmetric).llr, abs=1e-7)
    shifted = SprtSpec(-e / 2, e, model=model)
    mirrored = SprtSpec(-e, e / 2, model=model)
    assert ba.sprt(shifted).llr == pytest.approx(-ab.sprt(mirrored).llr, abs=1e-7)


@settings(max_examples=60, deadline=None)
@given(duels(max_pairs=25), st.randoms(use_true_random=False))
def test_incremental_equals_batch_in_any_order(
    duel: tuple[int, list[tuple[float, float]]], rng: random.Random
) -> None:
    players, outcomes = duel
    spec = SprtSpec(-5, 5)
    live = DuelTally(players)
    for i, (a, b) in enumerate(outcomes):
        live.add(a, b)
        assert live.stats(spec) == duel_stats(players, outcomes[: i + 1], spec)
    shuffled = list(outcomes)
    rng.shuffle(shuffled)
    assert duel_stats(players, shuffled, spec) == live.stats(spec)


@settings(max_examples=40, deadline=None)
@given(duels(max_pairs=30), st.integers(0, 30))
def test_resume_from_stored_outcomes_gives_identical_figures(
    duel: tuple[int, list[tuple[float, float]]], cut: int
) -> None:
    players, outcomes = duel
    spec = SprtSpec(0, 10, model=EloModel.NORMALIZED)
    uninterrupted = DuelTally.of(players, outcomes).stats(spec)
    stored = outcomes[:cut]  # killed after `cut` pairs had been stored
    resumed = DuelTally.of(players, stored)
    resumed.extend(outcomes[cut:])
    assert resumed.stats(spec) == uninterrupted
    assert sequential_stats(players, stored + outcomes[cut:], spec) == sequential_stats(
        players, outcomes, spec
    )


@settings(max_examples=80, deadline=None)
@given(duels(), st.sampled_from(list(EloModel)))
def test_never_a_nan_or_an_infinity(
    duel: tuple[int, list[tuple[float, float]]], model: EloModel
) -> None:
    players, outcomes = duel
    s = duel_stats(players, outcomes, SprtSpec(0, 5, model=model))
    json.dumps(s.as_dict(), allow_nan=False)  # raises on NaN or ±inf
    optional = [s.elo, s.elo_low, s.elo_high, s.elo_error, s.nelo, s.los, s.mean_low]
    if any(x is None for x in optional):
        assert s.notes  # a None is always explained


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.integers(0, 50), min_size=3, max_size=9).filter(lambda c: len(c) % 2 == 1),
    st.floats(0.05, 0.95),
    st.lists(st.floats(-1, 1), min_size=9, max_size=9),
)
def test_the_fit_is_the_likeliest_with_its_mean(
    counts: list[int], s: float, direction: list[float]
) -> None:
    values = [i / (len(counts) - 1) for i in range(len(counts))]
    regular = [c or REGULARIZATION for c in counts]
    probs = [c / sum(regular) for c in regular]
    fit = mle_with_mean(values, probs, s)
    assert sum(fit) == pytest.approx(1.0) and min(fit) > 0
    assert sum(a * p for a, p in zip(values, fit, strict=True)) == pytest.approx(s, abs=1e-9)
    # Move along the constraint (Σ v = 0 and Σ a·v = 0): the likelihood cannot rise.
    # Move along the constraint surface (Σ v = 0 and Σ a·v = 0): the likelihood of the
    # data cannot rise. v is the random direction with 1 and the values projected out.
    ones = [1 / math.sqrt(len(values))] * len(values)
    centred = [a - sum(values) / len(values) for a in values]
    norm = math.sqrt(sum(c * c for c in centred))
    basis = [ones, [c / norm for c in centred]]
    v = direction[: len(values)]
    for e in basis:
        dot = sum(x * y for x, y in zip(v, e, strict=True))
        v = [x - dot * y for x, y in zip(v, e, strict=True)]
    if max(abs(x) for x in v) < 1e-6:
        return
    step = 0.5 * min(fit) / max(abs(x) for x in v)
    best = sum(p * math.log(q) for p, q in zip(probs, fit, strict=True))
    for sign in (1, -1):
        other = [q + sign * step * x for q, x in zip(fit, v, strict=True)]
        assert sum(p * math.log(q) for p, q in zip(probs, other, strict=True)) <= best + 1e-12


def test_the_t_value_fit_meets_its_constraint() -> None:
    values = [0, 0.25, 0.5, 0.75, 1]
    probs = [0.1, 0.2, 0.4, 0.2, 0.1]
    fit = mle_with_t_value(values, probs, 0.5, 0.05)
    mean = sum(a * p for a, p in zip(values, fit, strict=True))
    sd = math.sqrt(sum(p * (a - mean) ** 2 for a, p in zip(values, fit, strict=True)))
    assert sum(fit) == pytest.approx(1.0)
    assert (mean - 0.5) / sd == pytest.approx(0.05, abs=1e-9)


# --------------------------------------------------------------------- edge cases


def test_no_pairs() -> None:
    s = DuelTally(2).stats(SprtSpec(0, 5))
    assert (s.pairs, s.games, s.counts) == (0, 0, (0, 0, 0, 0, 0))
    assert s.wdl == WinDrawLoss(0, 0, 0)
    assert s.score is None and s.elo is None and s.los is None
    assert s.notes == ("no pairs played yet",)
    assert s.sprt is not None and s.sprt.llr == 0.0 and s.sprt.decision is Decision.UNDECIDED
    assert llr_logistic([0, 0, 0, 0, 0], 0, 5) == 0.0
    assert llr_normalized([0, 0, 0], 0, 5) == 0.0


def test_one_pair() -> None:
    s = duel_stats(2, [(1.0, 1.0)], SprtSpec(0, 5))
    assert s.elo == 0.0 and s.elo_error is None and s.los is None and s.nelo is None
    assert s.notes == (
        "The only pair gave the same result: with no spread there is no interval, "
        "normalized Elo or LOS yet",
    )
    assert s.sprt is not None and s.sprt.decision is Decision.UNDECIDED


def test_all_pairs_equal() -> None:
    s = duel_stats(2, [(0.5, 0.5)] * 30, SprtSpec(0, 5))
    assert s.score == 0.5 and s.elo == 0.0 and s.variance == 0.0
    assert s.elo_low is None and s.los is None
    assert s.notes[0].startswith("All 30 pairs gave the same result")
    assert s.sprt is not None and math.isfinite(s.sprt.llr) and s.sprt.llr < 0


@pytest.mark.parametrize(
    ("players", "outcome", "who"),
    [
        (2, (1.0, 0.0), "A won"),
        (2, (0.0, 1.0), "B won"),
        (5, (1.0, 0.0), "A came first and B last"),
    ],
)
def test_all_wins(players: int, outcome: tuple[float, float], who: str) -> None:
    s = duel_stats(players, [outcome] * 12, SprtSpec(0, 5))
    assert s.score in (0.0, 1.0) and s.elo is None and s.elo_error is None
    assert s.notes[0].startswith(f"{who}")
    assert "no finite estimate" in s.notes[0]
    assert s.sprt is not None and math.isfinite(s.sprt.llr)


def test_an_interval_reaching_a_whole_score() -> None:
    s = duel_stats(2, [(1.0, 0.0)] * 5 + [(1.0, 0.5)])
    assert s.elo is not None and s.elo_low is not None and s.elo_high is None
    assert s.elo_error is None
    assert any("reaches 100%" in note for note in s.notes)


def test_identical_bots_accept_h0() -> None:
    # Deterministic twins: every pair splits 1-1 (or every deal gives both the same
    # place). The test accepts H0 after about 200 pairs, at every table size.
    for players, outcome in [(2, (1.0, 1.0)), (4, (1 / 3, 1 / 3)), (8, (0.0, 0.0))]:
        s = sequential_stats(players, repeat(outcome), SprtSpec(0, 5), max_pairs=10_000)
        assert s.sprt is not None and s.sprt.decision is Decision.H0
        assert 150 < s.pairs < 300


def test_sequential_stats_stops_at_the_first_decision() -> None:
    spec = SprtSpec(0, 5)
    s = sequential_stats(2, repeat((1.0, 0.0)), spec)
    assert s.sprt is not None and s.sprt.decision is Decision.H1
    before = duel_stats(2, [(1.0, 0.0)] * (s.pairs - 1), spec)
    assert before.sprt is not None and before.sprt.decision is Decision.UNDECIDED
    capped = sequential_stats(2, cycle([(1.0, 0.0), (0.0, 1.0)]), spec, max_pairs=50)
    assert capped.pairs == 50 and capped.sprt is not None
    assert capped.sprt.decision is Decision.UNDECIDED
    assert sequential_stats(2, [(1.0, 0.0)] * 3, spec).pairs == 3  # outcomes run out
    assert sequential_stats(2, repeat((1.0, 0.0)), spec, max_pairs=0).pairs == 0


@pytest.mark.parametrize(
    ("players", "share", "message"),
    [
        (2, 0.25, "not a placement share at a 2-player table"),
        (4, 0.25, r"a multiple of 1/6 from 0 to 1"),
        (3, 1.5, "not a placement share"),
        (3, -0.25, "not a placement share"),
        (2, math.nan, "not a placement share"),
    ],
)
def test_bad_shares(players: int, share: float, message: str) -> None:
    tally = DuelTally(players)
    with pytest.raises(StatsError, match=message):
        tally.add(share, 0.0)
    assert tally.pairs == 0  # nothing half-counted
    with pytest.raises(StatsError, match="B's score"):
        tally.add(0.0, share)


def test_bad_table_size() -> None:
    for players in (1, 0, True):
        with pytest.raises(StatsError, match="at least 2 players"):
            DuelTally(players)


def test_errors_are_one_line_domain_errors() -> None:
    assert issubclass(StatsError, C8LeagueError) and issubclass(StatsError, ValueError)
    assert status_of_kind(StatsError) == 2


# ------------------------------------------------------------------ the SPRT spec


def test_spec_text_round_trips() -> None:
    spec = SprtSpec.parse("elo0=0 elo1=5 alpha=0.05 beta=0.05")
    assert spec == SprtSpec(0, 5)
    assert str(spec) == "elo0=0 elo1=5 alpha=0.05 beta=0.05 model=logistic"
    other = SprtSpec.parse(" ELO1=2.5,elo0=-1.25  model=normalized alpha=0.1 ")
    assert other == SprtSpec(-1.25, 2.5, alpha=0.1, model=EloModel.NORMALIZED)
    for value in (spec, other, SprtSpec(-3, 1, 0.01, 0.2)):
        assert SprtSpec.parse(str(value)) == value


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("elo0=0", "elo1 must be given"),
        ("", "elo0 and elo1 must be given"),
        ("elo0=0 elo1=five", "elo1='five' is not a number"),
        ("elo0=0 elo1=5 gamma=1", "unknown setting 'gamma'"),
        ("elo0=0 elo1=5 elo1=6", "elo1 is given twice"),
        ("elo0=0 elo1", "'elo1' is not of the form name=value"),
        ("elo0=5 elo1=0", r"elo0 \(5\) must be less than elo1 \(0\)"),
        ("elo0=0 elo1=5 alpha=0", "alpha must lie strictly between 0 and 1"),
        ("elo0=0 elo1=5 beta=1.5", "beta must lie strictly between 0 and 1"),
        ("elo0=0 elo1=5 alpha=0.6 beta=0.5", "alpha \\+ beta must be less than 1"),
        ("elo0=0 elo1=5 model=bayes", "unknown model 'bayes'"),
        ("elo0=0 elo1=nan", "elo1 must be a finite number"),
        ("elo0=0 elo1=5000", r"elo1=5000 is outside \[-1000, 1000\]"),
        ("elo0=-201 elo1=5 model=normalized", r"elo0=-201 is outside \[-200, 200\] for normalized"),
    ],
)
def test_bad_specs_get_one_line(text: str, message: str) -> None:
    with pytest.raises(StatsError, match=message) as caught:
        SprtSpec.parse(text)
    assert "\n" not in str(caught.value)


def test_spec_from_values_is_validated() -> None:
    with pytest.raises(StatsError, match="must be less than"):
        SprtSpec(5, 5)
    with pytest.raises(StatsError, match="must be a number"):
        SprtSpec("0", 5)  # type: ignore[arg-type]
    with pytest.raises(StatsError, match="unknown model"):
        SprtSpec(0, 5, model="bayes")  # type: ignore[arg-type]


def test_as_dict_is_plain_json() -> None:
    s = duel_stats(2, [(1.0, 0.0), (1.0, 1.0), (0.0, 0.5)], SprtSpec(0, 5))
    data = json.loads(json.dumps(s.as_dict(), allow_nan=False))
    assert data["pentanomial"] == [0, 1, 1, 0, 1]
    assert data["wdl"] == {"wins": 3, "draws": 1, "losses": 2}  # WW, WL, LD
    assert data["sprt"]["decision"] == "undecided"
    assert data["sprt"]["spec"] == {
        "elo0": 0.0,
        "elo1": 5.0,
        "alpha": 0.05,
        "beta": 0.05,
        "model": "logistic",
    }


# ---------------------------------------------------------- the stopping rule, simulated


def tilted(values: Sequence[float], base: Sequence[float], mean: float) -> list[float]:
    """The exponential tilt pᵢ ∝ baseᵢ·exp(λ·valueᵢ) of ``base`` with the given mean
    (λ found by bisection): a distribution of known expected score, built without the
    module under test."""
    low, high = -200.0, 200.0
    weights: list[float] = []
    for _ in range(200):
        lam = (low + high) / 2
        weights = [q * math.exp(lam * v) for v, q in zip(values, base, strict=True)]
        if sum(v * w for v, w in zip(values, weights, strict=True)) / sum(weights) < mean:
            low = lam
        else:
            high = lam
    total = sum(weights)
    return [w / total for w in weights]


def draws(
    rng: random.Random, outcomes: Sequence[tuple[float, float]], probs: Sequence[float]
) -> Iterator[tuple[float, float]]:
    """An endless stream of outcomes drawn independently with ``probs``."""
    cumulative = []
    total = 0.0
    for p in probs:
        total += p
        cumulative.append(total)
    while True:
        yield rng.choices(outcomes, cum_weights=cumulative)[0]


def h1_rate(
    players: int,
    outcomes: Sequence[tuple[float, float]],
    probs: Sequence[float],
    spec: SprtSpec,
    duels: int,
    seed: int,
) -> float:
    rng = random.Random(seed)
    accepted = 0
    for _ in range(duels):
        s = sequential_stats(players, draws(rng, outcomes, probs), spec, max_pairs=100_000)
        assert s.sprt is not None and s.sprt.decision is not Decision.UNDECIDED
        accepted += s.sprt.decision is Decision.H1
    return accepted / duels


def within_binomial_error(rate: float, expected: float, duels: int) -> bool:
    """|rate − expected| within 4 standard errors of a binomial proportion."""
    return abs(rate - expected) <= 4 * math.sqrt(expected * (1 - expected) / duels)


SIMULATED_DUELS = 1000


@pytest.mark.slow
def test_stopping_rule_at_two_players() -> None:
    # A Crazy Eights-like pentanomial: pairs mostly split 1-1 (the deal decides), few
    # shared places. Tilted to an expected score of exactly L(elo0) or L(elo1).
    values = [0.0, 0.25, 0.5, 0.75, 1.0]
    base = [0.15, 0.02, 0.66, 0.02, 0.15]
    outcomes = [PAIR[2 * v] for v in values]
    spec = SprtSpec(elo0=0, elo1=40, alpha=0.05, beta=0.05)
    at_elo0 = h1_rate(
        2, outcomes, tilted(values, base, expected_score(0)), spec, SIMULATED_DUELS, 1
    )
    at_elo1 = h1_rate(
        2, outcomes, tilted(values, base, expected_score(40)), spec, SIMULATED_DUELS, 2
    )
    assert within_binomial_error(at_elo0, spec.alpha, SIMULATED_DUELS), at_elo0
    assert within_binomial_error(at_elo1, 1 - spec.beta, SIMULATED_DUELS), at_elo1


@pytest.mark.slow
def test_stopping_rule_at_four_players() -> None:
    # Each deal: with probability ½ A and B reach the same place (the deal decides),
    # else independent places; then tilted by exp(λ·d) to E[d] = 2·L(elo) − 1.
    places = [1.0, 2 / 3, 1 / 3, 0.0]
    outcomes = [(a, b) for a in places for b in places]
    base = [(0.5 if a == b else 0.0) / 4 + 0.5 / 16 for a, b in outcomes]
    diffs = [a - b for a, b in outcomes]
    spec = SprtSpec(elo0=0, elo1=40, alpha=0.05, beta=0.05)
    probs0 = tilted(diffs, base, mean_difference(0))
    probs1 = tilted(diffs, base, mean_difference(40))
    at_elo0 = h1_rate(4, outcomes, probs0, spec, SIMULATED_DUELS, 3)
    at_elo1 = h1_rate(4, outcomes, probs1, spec, SIMULATED_DUELS, 4)
    assert within_binomial_error(at_elo0, spec.alpha, SIMULATED_DUELS), at_elo0
    assert within_binomial_error(at_elo1, 1 - spec.beta, SIMULATED_DUELS), at_elo1
