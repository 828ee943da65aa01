"""Tests of c8league.ratings.

Reference values: the trueskill package's documentation (1-vs-1 examples) and
test suite, Moserware's Skills test suite (values from Microsoft's online
TrueSkill calculator and Ralf Herbrich's F# implementation) and the Microsoft
Research 8-player example. All use mu 25, sigma 25/3, beta 25/6, tau 25/300
and draw probability 0.10 unless stated.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

import pytest
import trueskill  # type: ignore[import-untyped]
from hypothesis import given, settings
from hypothesis import strategies as st

from c8league.errors import C8LeagueError
from c8league.ratings import (
    Rating,
    RatingError,
    RatingModel,
    RatingSettings,
)
from c8league.ratings.leaderboard import placement_figures

TOL = 1e-3


@pytest.fixture(scope="module")
def model() -> RatingModel:
    return RatingModel(RatingSettings())


def fresh(model: RatingModel, n: int) -> list[Rating]:
    return [model.initial() for _ in range(n)]


def pairs(ratings: Sequence[Rating]) -> list[tuple[float, float]]:
    return [(r.mu, r.sigma) for r in ratings]


def assert_ratings(actual: Sequence[Rating], expected: Sequence[tuple[float, float]]) -> None:
    assert len(actual) == len(expected)
    for got, (mu, sigma) in zip(actual, expected, strict=True):
        assert got.mu == pytest.approx(mu, abs=TOL)
        assert got.sigma == pytest.approx(sigma, abs=TOL)


# --- values and settings -------------------------------------------------------------


def test_defaults() -> None:
    s = RatingSettings()
    assert (s.system, s.mu, s.sigma, s.beta, s.tau) == (
        "trueskill",
        25.0,
        25.0 / 3,
        25.0 / 6,
        25.0 / 300,
    )
    assert s.draw_probability == 0.10
    assert s.backend is None


def test_initial_and_conservative(model: RatingModel) -> None:
    r = model.initial()
    assert r == Rating(25.0, 25.0 / 3)
    assert r.conservative == pytest.approx(0.0)
    assert Rating(30.0, 2.0).conservative == 24.0


def test_values_are_frozen() -> None:
    r = Rating(25.0, 5.0)
    with pytest.raises(AttributeError):
        r.mu = 1.0  # type: ignore[misc]
    s = RatingSettings()
    with pytest.raises(AttributeError):
        s.mu = 1.0  # type: ignore[misc]


@pytest.mark.parametrize(
    "kwargs",
    [
        {"sigma": -1.0},
        {"sigma": 0.0},
        {"beta": 0.0},
        {"tau": -0.1},
        {"draw_probability": 0.0},
        {"draw_probability": -0.1},
        {"draw_probability": 1.0},
        {"mu": math.nan},
        {"sigma": math.inf},
        {"system": "elo"},
        {"backend": "numpy"},
        {"system": "openskill", "backend": "mpmath"},
    ],
)
def test_invalid_settings(kwargs: dict[str, object]) -> None:
    with pytest.raises(RatingError):
        RatingSettings(**kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("mu", "sigma"), [(25.0, -1.0), (25.0, 0.0), (math.nan, 1.0), (25.0, math.inf)]
)
def test_invalid_rating(mu: float, sigma: float) -> None:
    with pytest.raises(RatingError):
        Rating(mu, sigma)


def test_rating_error_is_a_domain_error() -> None:
    assert issubclass(RatingError, C8LeagueError)
    assert issubclass(RatingError, ValueError)


# --- published TrueSkill values --------------------------------------------------------


def test_docs_one_vs_one(model: RatingModel) -> None:
    a, b = fresh(model, 2)
    assert model.quality([a, b]) == pytest.approx(0.447, abs=TOL)
    assert_ratings(model.rate([a, b], [1, 2]), [(29.396, 7.171), (20.604, 7.171)])
    assert_ratings(model.rate([a, b], [1, 1]), [(25.000, 6.458), (25.000, 6.458)])


def test_moserware_two_players_high_precision(model: RatingModel) -> None:
    rated = model.rate(fresh(model, 2), [1, 2])
    assert_ratings(
        rated, [(29.39583201999924, 7.171475587326186), (20.604167980000760, 7.171475587326186)]
    )
    rated = model.rate(fresh(model, 2), [1, 1])
    assert_ratings(rated, [(25.0, 6.4575196623173081), (25.0, 6.4575196623173081)])


def test_moserware_one_vs_one_massive_upset_draw(model: RatingModel) -> None:
    ratings = [model.initial(), Rating(50.0, 12.5)]
    assert model.quality(ratings) == pytest.approx(0.110, abs=TOL)
    assert_ratings(model.rate(ratings, [1, 1]), [(31.662, 7.137), (35.010, 7.910)])


FREE_FOR_ALL = {
    3: [(31.675352419172107, 6.6559853776206905), (25.000000000003912, 6.2078966412243233),
        (18.324647580823971, 6.6559853776218318)],
    4: [(33.206680965631264, 6.3481091698077057), (27.401454693843323, 5.7871629348447584),
        (22.598545306188374, 5.7871629348413451), (16.793319034361271, 6.3481091698144967)],
    5: [(34.363135705841188, 6.1361528798112692), (29.058448805636779, 5.5358352402833413),
        (25.000000000031758, 5.4200805474429847), (20.941551194426314, 5.5358352402709672),
        (15.636864294158848, 6.136152879829349)],
    # Microsoft Research's example: eight new players, no draws.
    8: [(36.771, 5.749), (32.242, 5.133), (29.074, 4.943), (26.322, 4.874),
        (23.678, 4.874), (20.926, 4.943), (17.758, 5.133), (13.229, 5.749)],
}  # fmt: skip

FREE_FOR_ALL_QUALITY = {3: 0.200, 4: 0.089, 5: 0.040, 8: 0.004}


@pytest.mark.parametrize("n", sorted(FREE_FOR_ALL))
def test_free_for_all_reference(model: RatingModel, n: int) -> None:
    ratings = fresh(model, n)
    assert_ratings(model.rate(ratings, list(range(1, n + 1))), FREE_FOR_ALL[n])
    assert model.quality(ratings) == pytest.approx(FREE_FOR_ALL_QUALITY[n], abs=TOL)


def test_three_player_draw_reference(model: RatingModel) -> None:
    rated = model.rate(fresh(model, 3), [1, 1, 1])
    assert_ratings(rated, [(25.000, 5.698), (25.000, 5.695), (25.000, 5.698)])


def test_eight_player_draw_reference(model: RatingModel) -> None:
    rated = model.rate(fresh(model, 8), [1] * 8)
    assert_ratings(
        rated,
        [(25.000, 4.592), (25.000, 4.583), (25.000, 4.576), (25.000, 4.573),
         (25.000, 4.573), (25.000, 4.576), (25.000, 4.583), (25.000, 4.592)],
    )  # fmt: skip


def test_eight_player_upset_reference(model: RatingModel) -> None:
    ratings = [Rating(10.0 + 5 * i, 8.0 - i) for i in range(8)]
    assert model.quality(ratings) == pytest.approx(0.000, abs=TOL)
    assert_ratings(
        model.rate(ratings, list(range(1, 9))),
        [(35.135, 4.506), (32.585, 4.037), (31.329, 3.756), (30.984, 3.453),
         (31.751, 3.064), (34.051, 2.541), (38.263, 1.849), (44.118, 0.983)],
    )  # fmt: skip


def test_unsorted_places_reference(model: RatingModel) -> None:
    # The trueskill package's "unsorted groups" case: the last seat wins.
    rated = model.rate(fresh(model, 3), [3, 2, 1])
    assert_ratings(rated, [(18.325, 6.656), (25.000, 6.208), (31.675, 6.656)])


@pytest.mark.parametrize("n", [6, 7])
def test_free_for_all_symmetric(model: RatingModel, n: int) -> None:
    # With equal priors and no ties, place k and place n+1-k move by mirrored amounts.
    rated = model.rate(fresh(model, n), list(range(1, n + 1)))
    for k in range(n):
        top, bottom = rated[k], rated[n - 1 - k]
        assert top.mu - 25.0 == pytest.approx(25.0 - bottom.mu, abs=1e-6)
        assert top.sigma == pytest.approx(bottom.sigma, abs=1e-6)
    mus = [r.mu for r in rated]
    assert mus == sorted(mus, reverse=True)


def test_custom_environment_reference() -> None:
    # trueskill's test suite: draw probability 0.50, one new player beats another.
    model = RatingModel(RatingSettings(draw_probability=0.50))
    rated = model.rate(fresh(model, 2), [1, 2])
    assert_ratings(rated, [(30.267, 7.077), (19.733, 7.077)])


def test_custom_scale_reference() -> None:
    # Moserware's chess case: mu 1200, sigma 400, beta 200, tau 4, draw probability 0.03.
    model = RatingModel(
        RatingSettings(mu=1200.0, sigma=400.0, beta=200.0, tau=4.0, draw_probability=0.03)
    )
    rated = model.rate([Rating(1301.0007, 42.9232), Rating(1188.7560, 42.5570)], [1, 2])
    assert_ratings(
        rated, [(1304.7820836053318, 42.843513887848658), (1185.0383099003536, 42.485604606897752)]
    )


def test_global_environment_untouched() -> None:
    before = repr(trueskill.global_env())
    model = RatingModel(RatingSettings(mu=1000.0, sigma=100.0, beta=50.0, tau=1.0))
    model.rate(fresh(model, 3), [1, 2, 3])
    assert repr(trueskill.global_env()) == before
    assert model.initial() == Rating(1000.0, 100.0)


# --- placements, ties, forfeits, order ------------------------------------------------


def test_results_in_input_order(model: RatingModel) -> None:
    a, b, c, d = (Rating(20.0 + i, 4.0 + i) for i in range(4))
    rated = model.rate([a, b, c, d], [3, 1, 4, 2])
    reordered = model.rate([b, d, a, c], [1, 2, 3, 4])
    assert rated == [reordered[2], reordered[0], reordered[3], reordered[1]]
    assert rated[1].mu > b.mu
    assert rated[2].mu < c.mu


def test_tie_numbering_schemes_agree(model: RatingModel) -> None:
    ratings = [Rating(25.0 + i, 6.0) for i in range(4)]
    competition = model.rate(ratings, [1, 2, 2, 4])
    dense = model.rate(ratings, [1, 2, 2, 3])
    assert competition == dense


def test_tied_players_between_winner_and_loser(model: RatingModel) -> None:
    rated = model.rate(fresh(model, 4), [1, 2, 2, 4])
    winner, tied_a, tied_b, loser = rated
    for tied in (tied_a, tied_b):
        assert loser.mu < tied.mu < winner.mu
        assert tied.mu == pytest.approx(25.0, abs=0.1)
        assert tied.sigma < model.initial().sigma


def test_tie_is_not_a_loss(model: RatingModel) -> None:
    # Sharing first place with an equal player beats finishing second to them.
    shared = model.rate(fresh(model, 3), [1, 1, 3])
    second = model.rate(fresh(model, 3), [1, 2, 3])
    assert shared[1].mu > second[1].mu
    assert shared[0].mu < second[0].mu


def test_forfeit_ranks_last(model: RatingModel) -> None:
    ratings = [Rating(30.0, 3.0), Rating(25.0, 5.0), Rating(20.0, 6.0), Rating(22.0, 4.0)]
    # The forfeiting player had "won" at the moment the match stopped.
    forfeited = model.rate(ratings, [1, 2, 3, 4], [True, False, False, False])
    expected = model.rate(ratings, [4, 1, 2, 3])
    assert forfeited == expected
    assert forfeited[0].mu < ratings[0].mu


def test_forfeit_is_a_full_loss(model: RatingModel) -> None:
    # Not down-weighted: a forfeit moves the rating exactly as a plain last place.
    ratings = fresh(model, 4)
    forfeited = model.rate(ratings, [2, 3, 4, 1], [False, False, False, True])
    last = model.rate(ratings, [1, 2, 3, 4])
    assert forfeited[3] == last[3]
    assert forfeited[3].mu < 25.0 - 5.0


def test_several_forfeiters_tie_last(model: RatingModel) -> None:
    ratings = [Rating(24.0 + i, 5.0 + i / 4) for i in range(5)]
    rated = model.rate(ratings, [1, 2, 3, 4, 5], [True, False, False, True, False])
    expected = model.rate(ratings, [4, 1, 2, 4, 3])
    assert rated == expected


def test_no_forfeits_same_as_none(model: RatingModel) -> None:
    ratings = fresh(model, 3)
    assert model.rate(ratings, [2, 1, 3], [False] * 3) == model.rate(ratings, [2, 1, 3])


def test_everyone_forfeits_is_a_draw(model: RatingModel) -> None:
    ratings = fresh(model, 3)
    assert model.rate(ratings, [1, 2, 3], [True] * 3) == model.rate(ratings, [1, 1, 1])


def test_inputs_unchanged(model: RatingModel) -> None:
    ratings = [Rating(25.0, 8.0), Rating(26.0, 7.0)]
    places = [2, 1]
    forfeited = [False, False]
    model.rate(ratings, places, forfeited)
    assert ratings == [Rating(25.0, 8.0), Rating(26.0, 7.0)]
    assert places == [2, 1]
    assert forfeited == [False, False]


@pytest.mark.parametrize(
    ("n", "places", "forfeited"),
    [
        (3, [1, 2], None),
        (3, [1, 2, 3, 4], None),
        (2, [0, 1], None),
        (2, [1, 3], None),
        (2, [1, -1], None),
        (2, [1.0, 2], None),
        (2, [True, 2], None),
        (3, [1, 2, 3], [False, True]),
        (1, [1], None),
        (0, [], None),
    ],
)
def test_invalid_results(
    model: RatingModel, n: int, places: list[int], forfeited: list[bool] | None
) -> None:
    with pytest.raises(RatingError):
        model.rate(fresh(model, n), places, forfeited)


def test_extreme_upset_is_a_rating_error(model: RatingModel) -> None:
    with pytest.raises(RatingError, match="mpmath"):
        model.rate([Rating(-500.0, 1.0), Rating(500.0, 1.0)], [1, 2])


def test_mpmath_backend_agrees() -> None:
    pytest.importorskip("mpmath")
    precise = RatingModel(RatingSettings(backend="mpmath"))
    default = RatingModel(RatingSettings())
    ratings = [Rating(20.0, 7.0), Rating(28.0, 3.0), Rating(25.0, 5.0)]
    assert_ratings(precise.rate(ratings, [1, 3, 2]), pairs(default.rate(ratings, [1, 3, 2])))
    assert precise.parameters()["backend"] == "mpmath"


ratings_st = st.builds(
    Rating,
    mu=st.floats(min_value=0.0, max_value=50.0),
    sigma=st.floats(min_value=0.5, max_value=25.0 / 3),
)


@settings(max_examples=60, deadline=None)
@given(data=st.data(), n=st.integers(min_value=2, max_value=8))
def test_permuting_the_table_permutes_the_result(data: st.DataObject, n: int) -> None:
    model = RatingModel()
    ratings = data.draw(st.lists(ratings_st, min_size=n, max_size=n))
    places = data.draw(st.permutations(range(1, n + 1)))
    order = data.draw(st.permutations(range(n)))
    rated = model.rate(ratings, places)
    shuffled = model.rate([ratings[i] for i in order], [places[i] for i in order])
    assert shuffled == [rated[i] for i in order]


@settings(max_examples=60, deadline=None)
@given(data=st.data(), n=st.integers(min_value=2, max_value=8))
def test_rate_properties(data: st.DataObject, n: int) -> None:
    model = RatingModel()
    ratings = data.draw(st.lists(ratings_st, min_size=n, max_size=n))
    places = data.draw(st.lists(st.integers(min_value=1, max_value=n), min_size=n, max_size=n))
    forfeited = data.draw(st.lists(st.booleans(), min_size=n, max_size=n))
    rated = model.rate(ratings, places, forfeited)
    assert len(rated) == n
    for before, after in zip(ratings, rated, strict=True):
        assert math.isfinite(after.mu)
        assert 0 < after.sigma <= math.hypot(before.sigma, model.settings.tau) + 1e-9


# --- predictions -----------------------------------------------------------------------


def test_win_probabilities_deterministic(model: RatingModel) -> None:
    ratings = [Rating(30.0, 3.0), Rating(25.0, 5.0), Rating(20.0, 6.0)]
    first = model.win_probabilities(ratings, samples=5000, seed=7)
    assert first == model.win_probabilities(ratings, samples=5000, seed=7)
    assert first != model.win_probabilities(ratings, samples=5000, seed=8)
    assert model.win_probabilities(ratings) == model.win_probabilities(ratings)


@pytest.mark.parametrize("n", [1, 2, 4, 8])
def test_win_probabilities_sum_to_one(model: RatingModel, n: int) -> None:
    ratings = [Rating(20.0 + 2 * i, 2.0 + i / 2) for i in range(n)]
    probabilities = model.win_probabilities(ratings, samples=3000)
    assert len(probabilities) == n
    assert sum(probabilities) == pytest.approx(1.0, abs=1e-12)
    assert all(0.0 <= p <= 1.0 for p in probabilities)


def test_win_probabilities_equal_players(model: RatingModel) -> None:
    probabilities = model.win_probabilities(fresh(model, 4))
    standard_error = math.sqrt(0.25 * 0.75 / 20000)
    for p in probabilities:
        assert p == pytest.approx(0.25, abs=5 * standard_error)


def test_win_probabilities_two_players_exact(model: RatingModel) -> None:
    a, b = Rating(28.0, 4.0), Rating(24.0, 6.0)
    beta = model.settings.beta
    z = (a.mu - b.mu) / math.sqrt(a.sigma**2 + b.sigma**2 + 2 * beta**2)
    exact = 0.5 * math.erfc(-z / math.sqrt(2))
    p_a, p_b = model.win_probabilities([a, b], samples=40000, seed=3)
    standard_error = math.sqrt(exact * (1 - exact) / 40000)
    assert p_a == pytest.approx(exact, abs=5 * standard_error)
    assert p_b == pytest.approx(1 - p_a)


def test_win_probabilities_favour_the_stronger(model: RatingModel) -> None:
    ratings = [Rating(20.0, 2.0), Rating(35.0, 2.0), Rating(25.0, 2.0)]
    p = model.win_probabilities(ratings)
    assert p[1] > p[2] > p[0]


@pytest.mark.parametrize("samples", [0, -5])
def test_win_probabilities_invalid(model: RatingModel, samples: int) -> None:
    with pytest.raises(RatingError):
        model.win_probabilities(fresh(model, 2), samples=samples)
    with pytest.raises(RatingError):
        model.win_probabilities([])


def test_prob_stronger(model: RatingModel) -> None:
    a, b = Rating(30.0, 4.0), Rating(25.0, 3.0)
    # (30 - 25) / sqrt(4² + 3²) = 1, and Φ(1) = 0.8413447460685429.
    assert model.prob_stronger(a, b) == pytest.approx(0.8413447460685429, abs=1e-12)
    assert model.prob_stronger(a, b) + model.prob_stronger(b, a) == pytest.approx(1.0)
    assert model.prob_stronger(a, a) == pytest.approx(0.5)


def test_quality_needs_two_players(model: RatingModel) -> None:
    with pytest.raises(RatingError):
        model.quality([model.initial()])


def test_quality_prefers_even_tables(model: RatingModel) -> None:
    even = model.quality([Rating(25.0, 3.0), Rating(25.5, 3.0), Rating(24.5, 3.0)])
    uneven = model.quality([Rating(25.0, 3.0), Rating(40.0, 3.0), Rating(10.0, 3.0)])
    assert 0.0 < uneven < even <= 1.0


# --- version and parameters ------------------------------------------------------------


def test_version_and_parameters(model: RatingModel) -> None:
    assert model.version() == f"trueskill {trueskill.__version__}"
    assert model.parameters() == {
        "system": "trueskill",
        "version": trueskill.__version__,
        "mu": 25.0,
        "sigma": 25.0 / 3,
        "beta": 25.0 / 6,
        "tau": 25.0 / 300,
        "draw_probability": 0.10,
        "backend": None,
    }


# --- openskill ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def open_model() -> RatingModel:
    pytest.importorskip("openskill")
    return RatingModel(RatingSettings(system="openskill"))


def test_openskill_ranks_the_winner_up(open_model: RatingModel) -> None:
    ratings = fresh(open_model, 4)
    rated = open_model.rate(ratings, [3, 1, 4, 2])
    assert rated[1].mu > 25.0
    assert rated[2].mu < 25.0
    assert rated[1].mu > rated[3].mu > rated[0].mu > rated[2].mu
    assert all(r.sigma < 25.0 / 3 for r in rated)


def test_openskill_matches_the_package() -> None:
    models = pytest.importorskip("openskill.models")
    settings_ = RatingSettings(system="openskill", mu=30.0, sigma=7.0, beta=3.0, tau=0.2)
    model = RatingModel(settings_)
    ratings = [Rating(30.0, 7.0), Rating(33.0, 5.0), Rating(27.0, 6.0)]
    plackett_luce = models.PlackettLuce(mu=30.0, sigma=7.0, beta=3.0, tau=0.2)
    teams = [[plackett_luce.rating(r.mu, r.sigma)] for r in ratings]
    expected = plackett_luce.rate(teams, ranks=[2.0, 3.0, 1.0])
    assert_ratings(model.rate(ratings, [2, 3, 1]), [(t[0].mu, t[0].sigma) for t in expected])


def test_openskill_forfeit_ranks_last(open_model: RatingModel) -> None:
    ratings = [Rating(30.0, 3.0), Rating(25.0, 5.0), Rating(20.0, 6.0)]
    forfeited = open_model.rate(ratings, [1, 2, 3], [True, False, False])
    assert forfeited == open_model.rate(ratings, [3, 1, 2])
    assert forfeited[0].mu < 30.0


def test_openskill_results_in_input_order(open_model: RatingModel) -> None:
    a, b, c = Rating(20.0, 4.0), Rating(26.0, 5.0), Rating(23.0, 6.0)
    rated = open_model.rate([a, b, c], [2, 3, 1])
    reordered = open_model.rate([c, a, b], [1, 2, 3])
    assert_ratings(rated, pairs([reordered[1], reordered[2], reordered[0]]))


def test_openskill_ties_accepted(open_model: RatingModel) -> None:
    rated = open_model.rate(fresh(open_model, 4), [1, 1, 3, 4])
    assert len(rated) == 4
    assert rated[3].mu < 25.0


def test_openskill_quality_and_predictions(open_model: RatingModel) -> None:
    ratings = fresh(open_model, 3)
    assert 0.0 < open_model.quality(ratings) <= 1.0
    assert sum(open_model.win_probabilities(ratings, samples=1000)) == pytest.approx(1.0)


def test_openskill_version_and_parameters(open_model: RatingModel) -> None:
    import openskill

    assert open_model.version() == f"openskill {openskill.__version__}"
    params = open_model.parameters()
    assert params["system"] == "openskill"
    assert params["model"] == "PlackettLuce"
    assert params["mu"] == 25.0
    assert "draw_probability" not in params


def test_average_places_do_not_depend_on_the_order_the_matches_are_read_in() -> None:
    """Places scaled to the table (0, 1/2, 2/3, 1/3) average to 0.375 in any order; a sum
    of floats in this order makes it 0.37499999999999994."""
    seats = [(7, 1, 3), (7, 2, 3), (7, 3, 4), (7, 2, 4), (8, 1, 2)]
    assert sum([0.0, 1 / 2, 2 / 3, 1 / 3]) / 4 == 0.37499999999999994
    for order in itertools.permutations(seats):
        figures = placement_figures(order)
        assert figures[7].average_place_normalised == 0.375
        assert (figures[7].matches, figures[7].wins, figures[7].average_place) == (4, 1, 2.0)
        assert figures[8].average_place_normalised == 0.0
