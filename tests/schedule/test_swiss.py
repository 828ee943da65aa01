import math
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from c8league.schedule import (
    Round,
    ScheduleError,
    SwissWeights,
    balance_report,
    rank_entrants,
    swiss,
    swiss_round,
    table_layout,
)
from c8league.schedule.layout import ShortTables
from c8league.schedule.ledger import Ledger
from c8league.schedule.matching import banded_pairs


def play(
    n: int,
    k: int,
    rounds: int,
    seed: int,
    short: ShortTables | None = None,
) -> tuple[list[Round[str]], dict[str, float]]:
    """A Swiss event with random results: k - 1 points for first place down to 0."""
    rng = random.Random(seed)
    scores = {f"p{i:02}": 0.0 for i in range(n)}
    history: list[Round[str]] = []
    for r in range(rounds):
        rnd = swiss_round(scores, history, k, seed=seed * 1000 + r, short=short)
        history.append(rnd)
        for table in rnd.tables:
            finish = list(table)
            rng.shuffle(finish)
            for place, e in enumerate(finish):
                scores[e] += len(finish) - 1 - place
        for e in rnd.byes:
            scores[e] += k - 1
    return history, scores


def test_same_arguments_same_round() -> None:
    history, scores = play(21, 4, 3, seed=1)
    assert swiss_round(scores, history, 4, seed=9) == swiss_round(scores, history, 4, seed=9)
    history2, scores2 = play(21, 2, 3, seed=1)
    assert swiss_round(scores2, history2, 2, seed=9) == swiss_round(scores2, history2, 2, seed=9)


def test_top_standings_sit_together() -> None:
    scores = {f"e{i}": float(100 - i) for i in range(16)}
    rnd = swiss_round(scores, [], 4)
    assert [sorted(t) for t in rnd.tables] == [
        sorted(f"e{i}" for i in range(j, j + 4)) for j in range(0, 16, 4)
    ]
    pairs = swiss_round(scores, [], 2)
    assert [sorted(t) for t in pairs.tables] == [
        sorted(f"e{i}" for i in range(j, j + 2)) for j in range(0, 16, 2)
    ]


def test_ties_follow_the_tiebreak_order() -> None:
    scores = dict.fromkeys("abcdefgh", 1.0)
    order = list("hgfedcba")
    rnd = swiss_round(scores, [], 4, order=order)
    assert [sorted(t) for t in rnd.tables] == [list("efgh"), list("abcd")]
    assert rank_entrants(scores, order) == order
    assert rank_entrants({"a": 1.0, "b": 3.0, "c": 2.0}) == ["b", "c", "a"]


@pytest.mark.parametrize("seed", range(6))
def test_two_player_eight_entrants_three_rounds_no_repeats(seed: int) -> None:
    history, _ = play(8, 2, 3, seed)
    assert balance_report(history).repeat_meetings == 0


@pytest.mark.parametrize("seed", range(6))
def test_thirteen_at_four_over_four_rounds_few_repeats(seed: int) -> None:
    history, _ = play(13, 4, 4, seed)
    for rnd in history:
        assert sorted((len(t) for t in rnd.tables), reverse=True) == [4, 3, 3, 3]
    assert balance_report(history).repeat_meetings <= 2  # measured: 0 to 2


@pytest.mark.parametrize(("n", "k", "rounds"), [(40, 2, 6), (200, 2, 6), (30, 3, 5), (120, 4, 5)])
def test_larger_fields_have_no_repeats(n: int, k: int, rounds: int) -> None:
    history, _ = play(n, k, rounds, seed=n)
    report = balance_report(history)
    assert report.repeat_meetings == 0
    if k == 2:
        assert all(abs(c[0] - c[1]) <= 2 for c in report.seat_counts.values())


@pytest.mark.parametrize(("n", "k", "short"), [(7, 2, None), (9, 2, None), (13, 4, "byes")])
def test_byes_go_round_before_anyone_gets_a_second(n: int, k: int, short: ShortTables) -> None:
    rng = random.Random(n)
    scores = {f"p{i}": 0.0 for i in range(n)}
    history: list[Round[str]] = []
    byes: Counter[str] = Counter()
    per_round = table_layout(n, k, short).byes
    for r in range(2 * n):
        ranked = rank_entrants(scores)
        rnd = swiss_round(scores, history, k, seed=r, short=short)
        assert len(rnd.byes) == per_round
        fewest = min(byes[e] for e in scores)
        for e in rnd.byes:
            assert byes[e] == fewest or all(byes[x] > fewest for x in scores if x not in rnd.byes)
        # the byes are the lowest-ranked of those eligible
        eligible = [e for e in ranked if byes[e] == min(byes[x] for x in scores)]
        if len(eligible) >= per_round:
            assert set(rnd.byes) == set(eligible[len(eligible) - per_round :])
        byes.update(rnd.byes)
        assert max(byes.values()) - min(byes[e] for e in scores) <= 1
        history.append(rnd)
        for t in rnd.tables:
            winner = rng.choice(t)
            scores[winner] += 1


def test_byes_mode_and_smaller_tables_mode() -> None:
    scores = {i: 0.0 for i in range(13)}
    smaller = swiss_round(scores, [], 4)
    assert [len(t) for t in smaller.tables] == [4, 3, 3, 3] and smaller.byes == ()
    with_byes = swiss_round(scores, [], 4, short="byes")
    assert [len(t) for t in with_byes.tables] == [4, 4, 4]
    assert with_byes.byes == (12,)  # the lowest ranked


def test_smaller_tables_rotate_among_the_lower_standings() -> None:
    history, _ = play(13, 4, 4, seed=3)
    short = list(balance_report(history).short_table_counts.values())
    assert max(short) - min(short) <= 3  # measured: 2 to 3


def test_withdrawn_and_late_entrants() -> None:
    history, scores = play(12, 4, 2, seed=2)
    del scores["p00"], scores["p05"]
    scores["late"] = 0.0
    rnd = swiss_round(scores, history, 4)
    assert sorted(rnd.entrants()) == sorted(scores)
    assert sorted(len(t) for t in rnd.tables) == [3, 4, 4]


def test_tiny_fields() -> None:
    assert swiss_round({}, [], 4) == Round(())
    assert swiss_round({"solo": 0.0}, [], 4) == Round((), ("solo",))
    pair = swiss_round({"a": 0.0, "b": 0.0}, [], 4)
    assert sorted(pair.tables[0]) == ["a", "b"]
    history = [Round((("a", "b"),))] * 5
    again = swiss_round({"a": 1.0, "b": 0.0}, history, 2)  # repeats are a cost, not a rule
    assert sorted(again.tables[0]) == ["a", "b"]


def test_weights_are_used() -> None:
    history, scores = play(16, 4, 3, seed=4)
    no_repeat_cost = swiss_round(scores, history, 4, weights=SwissWeights(repeat=0))
    ranked = rank_entrants(scores)
    assert [sorted(t) for t in no_repeat_cost.tables] == [
        sorted(ranked[i : i + 4]) for i in range(0, 16, 4)
    ]
    with pytest.raises(ScheduleError):
        SwissWeights(repeat=-1)


def test_bad_standings() -> None:
    with pytest.raises(ScheduleError):
        swiss_round({"a": 0.0, "b": 0.0}, [], 2, order=["a"])
    with pytest.raises(ScheduleError):
        swiss_round({"a": 0.0, "b": 0.0}, [], 2, order=["a", "a"])
    with pytest.raises(ScheduleError):
        swiss_round({"a": math.nan, "b": 0.0}, [], 2)
    with pytest.raises(ScheduleError):
        swiss_round({"a": 0.0, "b": 0.0}, [], 1)


@settings(max_examples=40, deadline=None)
@given(
    n=st.integers(0, 40),
    k=st.integers(2, 8),
    rounds=st.integers(0, 3),
    seed=st.integers(0, 2**32),
    short=st.sampled_from([None, "smaller", "byes"]),
)
def test_every_entrant_once_at_tables_of_the_rule(
    n: int, k: int, rounds: int, seed: int, short: ShortTables | None
) -> None:
    history, scores = play(n, k, rounds, seed % 1000, short)
    rnd = swiss_round(scores, history, k, seed=seed, short=short)
    assert sorted(rnd.entrants()) == sorted(scores)
    layout = table_layout(n, k, short)
    assert sorted((len(t) for t in rnd.tables), reverse=True) == list(layout.sizes)
    assert len(rnd.byes) == layout.byes
    assert rnd == swiss_round(scores, history, k, seed=seed, short=short)


@pytest.mark.parametrize(("n", "k"), [(3000, 4), (1000, 2)])
def test_a_large_field_has_no_repeats_and_tables_of_neighbouring_scores(n: int, k: int) -> None:
    history, scores = play(n, k, 5, seed=3)
    rnd = swiss_round(scores, history, k, seed=11)
    assert rnd == swiss_round(scores, history, k, seed=11)
    assert sorted(rnd.entrants()) == sorted(scores)
    assert sorted((len(t) for t in rnd.tables), reverse=True) == list(table_layout(n, k).sizes)
    # Each entrant met at most 15 others: in a field this large no meeting needs to repeat.
    assert balance_report([*history, rnd]).repeat_meetings == 0
    group = {s: g for g, s in enumerate(sorted(set(scores.values()), reverse=True))}
    for table in rnd.tables:
        groups = [group[scores[e]] for e in table]
        assert max(groups) - min(groups) <= 1


def _reference_descent(
    tables: list[list[int]], is_short: list[bool], costs: swiss._Costs, window: int
) -> None:
    """The descent's rule spelled out: the first of the best improving swaps, by
    :meth:`swiss._Costs.swap_delta`, from each table with a problem."""
    count = len(tables)
    pending = [i for i in range(count) if costs.bad(tables[i], is_short[i])]
    queued = set(pending)
    budget = 50 * count
    while pending and budget > 0:
        budget -= 1
        ia = pending.pop()
        queued.discard(ia)
        ta = tables[ia]
        choice, best = None, 0
        for ib in range(max(0, ia - window), min(count, ia + window + 1)):
            if ib == ia:
                continue
            tb = tables[ib]
            for pa, a in enumerate(ta):
                for pb, b in enumerate(tb):
                    if is_short[ia] != is_short[ib] and not costs.may_trade(a, b):
                        continue
                    d = costs.swap_delta(ta, a, is_short[ia], tb, b, is_short[ib])
                    if d < best:
                        best, choice = d, (ib, pa, pb)
        if choice is None:
            continue
        ib, pa, pb = choice
        ta[pa], tables[ib][pb] = tables[ib][pb], ta[pa]
        for i in (ia, ib):
            if i not in queued and costs.bad(tables[i], is_short[i]):
                pending.append(i)
                queued.add(i)


@pytest.mark.parametrize("seed", range(24))
def test_the_descent_makes_the_swaps_its_rule_says(seed: int) -> None:
    rng = random.Random(seed)
    n, k = rng.randint(12, 160), rng.randint(3, 6)
    ledger = Ledger(n)
    for _ in range(rng.randint(0, 6)):
        people = list(range(n))
        rng.shuffle(people)
        ledger.record([people[i : i + k] for i in range(0, n, k)])
    group = sorted(rng.randint(0, n // 8) for _ in range(n))
    costs = swiss._Costs(ledger, group, SwissWeights(spread=rng.randint(0, 3)))
    if rng.random() < 0.5:
        costs.movable = [rng.random() < 0.7 for _ in range(n)]
    sizes = table_layout(n, k, "smaller").sizes
    lineup = list(range(n))
    tables = [lineup[sum(sizes[:t]) : sum(sizes[: t + 1])] for t in range(len(sizes))]
    is_short = [size < sizes[0] for size in sizes]
    window = rng.randint(1, 6)
    expected = [list(t) for t in tables]
    _reference_descent(expected, is_short, costs, window)
    swiss._descend(tables, is_short, costs, window)
    assert tables == expected


def _banded_matchings(places: list[int], width: int) -> list[list[tuple[int, int]]]:
    """Every perfect matching of ``places`` with partners at most ``width`` apart."""
    if not places:
        return [[]]
    first, rest = places[0], places[1:]
    found = []
    for partner in rest:
        if partner - first <= width:
            others = [p for p in rest if p != partner]
            found += [[(first, partner), *m] for m in _banded_matchings(others, width)]
    return found


@pytest.mark.parametrize("seed", range(30))
def test_banded_matching_is_the_cheapest_within_its_band(seed: int) -> None:
    rng = random.Random(seed)
    n, width = 2 * rng.randint(1, 6), rng.randint(1, 5)
    price = {(i, j): rng.randint(0, 4) for i in range(n) for j in range(i + 1, n)}
    pairs = banded_pairs(n, lambda i, j: price[i, j], width)
    assert sorted(p for pair in pairs for p in pair) == list(range(n))
    assert all(0 < j - i <= width for i, j in pairs)
    cheapest = min(sum(price[pair] for pair in m) for m in _banded_matchings(list(range(n)), width))
    assert sum(price[pair] for pair in pairs) == cheapest
