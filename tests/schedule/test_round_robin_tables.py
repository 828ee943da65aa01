"""Round robin at tables of 3 to 8."""

from functools import cache

import pytest

from c8league.schedule import (
    BalanceReport,
    Round,
    balance_report,
    cycle_length,
    resolvable_design,
    round_robin,
    table_layout,
)

GRID = [(n, k) for k in range(3, 9) for n in range(2, 31)]

# Bounds measured over one cycle for every field in GRID and seeds 0, 1 and 2,
# where no resolvable design applies.
MAX_SPREAD = 3  # max - min pair meetings
MAX_SEAT_IMBALANCE = 2  # an entrant's most used seat minus its least used seat
MAX_DEALER_GAP = 2  # most minus fewest times any entrant dealt first
MAX_BEFORE = 3  # times one entrant played directly before the same other one


@cache
def one_cycle(n: int, k: int, seed: int = 0) -> tuple[list[Round[int]], BalanceReport[int]]:
    schedule = round_robin(list(range(n)), k, seed=seed)
    return schedule, balance_report(schedule, list(range(n)))


def has_design(n: int, k: int) -> bool:
    return resolvable_design(n, k) is not None and len(set(table_layout(n, k).sizes)) == 1


@pytest.mark.parametrize(("n", "k"), GRID)
def test_everyone_sits_once_per_round_at_tables_of_the_rule(n: int, k: int) -> None:
    schedule, _ = one_cycle(n, k)
    assert len(schedule) == cycle_length(n, k) == -(-(n - 1) // (k - 1))
    layout = table_layout(n, k)
    for rnd in schedule:
        assert sorted(rnd.seated()) == list(range(n))
        assert rnd.byes == ()
        assert tuple(len(t) for t in rnd.tables) == layout.sizes


@pytest.mark.parametrize(("n", "k"), GRID)
def test_pairs_meet_evenly(n: int, k: int) -> None:
    _, report = one_cycle(n, k)
    if has_design(n, k):
        assert report.min_pair_meetings == report.max_pair_meetings == 1
    else:
        assert report.max_pair_meetings - report.min_pair_meetings <= MAX_SPREAD


@pytest.mark.parametrize(("n", "k"), GRID)
def test_seats_and_smaller_tables_are_balanced(n: int, k: int) -> None:
    _, report = one_cycle(n, k)
    assert report.max_seat_imbalance <= (1 if has_design(n, k) else MAX_SEAT_IMBALANCE)
    dealt = [report.seat_counts[e][0] for e in report.entrants]
    assert max(dealt) - min(dealt) <= MAX_DEALER_GAP
    short = list(report.short_table_counts.values())
    assert max(short) - min(short) <= 1
    assert report.max_before <= MAX_BEFORE


@pytest.mark.parametrize(("n", "k"), [(9, 3), (15, 3), (21, 3), (16, 4), (25, 5), (27, 3)])
def test_exact_designs_over_several_cycles(n: int, k: int) -> None:
    entrants = [f"p{i}" for i in range(n)]
    schedule = round_robin(entrants, k, cycles=2, seed=3)
    report = balance_report(schedule, entrants)
    assert report.min_pair_meetings == report.max_pair_meetings == 2
    assert report.max_seat_imbalance <= 1
    part = balance_report(schedule[: cycle_length(n, k) - 1], entrants)
    assert part.max_pair_meetings == 1


@pytest.mark.parametrize(
    ("n", "k", "least"),
    [(7, 3, 1), (9, 4, 1), (10, 4, 0), (13, 4, 1), (14, 5, 1), (20, 6, 0), (17, 8, 0)],
)
def test_several_cycles_without_a_design(n: int, k: int, least: int) -> None:
    schedule = round_robin(list(range(n)), k, cycles=2, seed=1)
    report = balance_report(schedule)
    assert len(schedule) == 2 * cycle_length(n, k)
    assert report.min_pair_meetings >= least  # measured
    assert report.max_pair_meetings - report.min_pair_meetings <= 4
    assert report.max_seat_imbalance <= 2
    short = list(report.short_table_counts.values())
    assert max(short) - min(short) <= 1


def test_any_number_of_rounds() -> None:
    schedule = round_robin(list(range(13)), 4, rounds=9, seed=2)
    assert len(schedule) == 9
    assert all(sorted(r.seated()) == list(range(13)) for r in schedule)
    assert round_robin(list(range(13)), 4, rounds=0) == []


def test_deterministic_from_the_seed() -> None:
    entrants = [f"bot-{i}" for i in range(14)]
    assert round_robin(entrants, 4, seed=11) == round_robin(entrants, 4, seed=11)
    assert round_robin(entrants, 4, seed=11) != round_robin(entrants, 4, seed=12)


def test_field_no_larger_than_a_table() -> None:
    schedule = round_robin(["a", "b", "c"], 4, rounds=3)
    assert all(sorted(r.tables[0]) == ["a", "b", "c"] for r in schedule)
    report = balance_report(schedule)
    assert all(counts == (1, 1, 1) for counts in report.seat_counts.values())
