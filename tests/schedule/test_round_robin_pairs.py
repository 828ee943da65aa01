"""Round robin at 2-player tables: the circle method."""

from itertools import combinations

import pytest

from c8league.schedule import ScheduleError, balance_report, cycle_length, round_robin

FIELDS = range(2, 31)


@pytest.mark.parametrize("n", FIELDS)
def test_every_pair_once_per_cycle_and_seats_swap_next_cycle(n: int) -> None:
    entrants = [f"p{i}" for i in range(n)]
    schedule = round_robin(entrants, 2, cycles=2, seed=n)
    length = cycle_length(n, 2)
    assert len(schedule) == 2 * length
    first, second = schedule[:length], schedule[length:]
    for rnd in schedule:
        assert sorted(rnd.entrants()) == sorted(entrants)
        assert all(len(t) == 2 for t in rnd.tables)
        assert len(rnd.byes) == n % 2
    dealt_first = {}
    for rnd in first:
        for a, b in rnd.tables:
            assert frozenset((a, b)) not in dealt_first
            dealt_first[frozenset((a, b))] = a
    assert len(dealt_first) == n * (n - 1) // 2
    for rnd in second:
        for a, b in rnd.tables:
            assert dealt_first[frozenset((a, b))] == b  # the other one deals first now
    report = balance_report(first, entrants)
    assert report.min_pair_meetings == report.max_pair_meetings == 1
    firsts = [report.seat_counts[e][0] for e in entrants]
    assert max(firsts) - min(firsts) <= 1
    for e in entrants:
        seat0, seat1 = report.seat_counts[e]
        assert abs(seat0 - seat1) <= 1
    assert set(report.bye_counts.values()) == {n % 2}
    both = balance_report(schedule, entrants)
    assert all(both.seat_counts[e][0] == both.seat_counts[e][1] for e in entrants)


def test_partial_and_repeated_cycles() -> None:
    entrants = list(range(6))
    full = round_robin(entrants, 2, rounds=12)
    assert round_robin(entrants, 2, rounds=3) == full[:3]
    assert round_robin(entrants, 2, cycles=2) == full[:10]
    report = balance_report(full[:3])
    assert report.max_pair_meetings == 1


def test_same_seed_same_schedule_other_seed_other_schedule() -> None:
    entrants = [f"e{i}" for i in range(12)]
    assert round_robin(entrants, 2, seed=5) == round_robin(entrants, 2, seed=5)
    assert round_robin(entrants, 2, seed=5) != round_robin(entrants, 2, seed=6)


def test_tiny_fields() -> None:
    assert round_robin([], 2) == []
    assert round_robin(["a"], 2, rounds=2)[0].byes == ("a",)
    (only,) = round_robin(["a", "b"], 2)
    assert sorted(only.tables[0]) == ["a", "b"]


def test_bad_requests() -> None:
    with pytest.raises(ScheduleError):
        round_robin(["a", "a", "b"], 2)
    with pytest.raises(ScheduleError):
        round_robin(["a", "b"], 2, rounds=-1)
    with pytest.raises(ScheduleError):
        round_robin(["a", "b"], 2, rounds=1, cycles=1)
    with pytest.raises(ScheduleError):
        round_robin(["a", "b"], 9)


def test_mixed_id_types() -> None:
    entrants: list[int | str] = [1, "two", 3, "four", 5]
    schedule = round_robin(entrants, 2)
    met = {frozenset(t) for rnd in schedule for t in rnd.tables}
    assert met == {frozenset(p) for p in combinations(entrants, 2)}
