"""The versions of the round-robin's search: the second spends at most
``CAPPED_STEPS`` and ``CAPPED_SEAT_STEPS`` steps on a schedule of any length, gives
the first's schedules where the first spends no more, and still spreads a long
schedule evenly."""

from typing import Any

import pytest

from c8league.schedule import ScheduleError, balance_report, round_robin
from c8league.schedule import roundrobin as rr
from c8league.schedule.roundrobin import (
    CAPPED_SEARCH,
    CAPPED_SEAT_STEPS,
    CAPPED_STEPS,
    FIRST_SEARCH,
)


@pytest.mark.parametrize(("n", "k"), [(5, 3), (7, 3), (8, 4), (10, 4), (11, 4), (13, 5), (6, 4)])
@pytest.mark.parametrize("cycles", [1, 2])
def test_within_the_cap_both_versions_give_the_same_schedule(n: int, k: int, cycles: int) -> None:
    entrants = [f"e{i}" for i in range(n)]
    for seed in (0, 1):
        first = round_robin(entrants, k, cycles=cycles, seed=seed, search=FIRST_SEARCH)
        assert round_robin(entrants, k, cycles=cycles, seed=seed, search=CAPPED_SEARCH) == first


def test_the_bot_cups_schedule_is_the_same_under_both_versions() -> None:
    # leagues/bot-cup.toml: 6 entrants at tables of 4, 12 cycles (24 rounds).
    for seed in (0, 1, 2):
        first = round_robin(list(range(6)), 4, cycles=12, seed=seed, search=FIRST_SEARCH)
        assert round_robin(list(range(6)), 4, cycles=12, seed=seed, search=CAPPED_SEARCH) == first


def spent(monkeypatch: pytest.MonkeyPatch, search: int) -> tuple[int, int]:
    """The steps of the grouping search and of the seat annealing of a long schedule."""
    steps: dict[str, int] = {}
    grouping, balance = rr.balanced_grouping, rr.balance_seats

    def counted_grouping(*args: Any, **kwargs: Any) -> Any:
        steps["grouping"] = kwargs["max_iterations"]
        return grouping(*args, **kwargs)

    def counted_balance(*args: Any, **kwargs: Any) -> int:
        steps["seats"] = balance(*args, **kwargs)
        return steps["seats"]

    monkeypatch.setattr(rr, "balanced_grouping", counted_grouping)
    monkeypatch.setattr(rr, "balance_seats", counted_balance)
    round_robin(list(range(8)), 4, cycles=20, seed=1, search=search)
    return steps["grouping"], steps["seats"]


def test_the_second_version_caps_its_steps(monkeypatch: pytest.MonkeyPatch) -> None:
    # 8 entrants at tables of 4, 60 rounds: 100 swaps an entrant and round, 200 steps a
    # table, far above the cap.
    assert spent(monkeypatch, FIRST_SEARCH) == (48_000, 24_000)
    assert spent(monkeypatch, CAPPED_SEARCH) == (CAPPED_STEPS, CAPPED_SEAT_STEPS)


def test_a_long_schedule_of_the_second_version_is_spread_evenly() -> None:
    n, cycles = 8, 60
    schedule = round_robin(list(range(n)), 4, cycles=cycles, seed=1, search=CAPPED_SEARCH)
    assert len(schedule) == 3 * cycles
    for rnd in schedule:
        assert sorted(e for t in rnd.tables for e in t) == list(range(n))
    report = balance_report(schedule, list(range(n)))
    meetings = [report.meetings(a, b) for a in range(n) for b in range(a + 1, n)]
    share = sum(meetings) / len(meetings)  # 77 1/7
    assert share - 2 < min(meetings) and max(meetings) < share + 2
    assert {c for counts in report.seat_counts.values() for c in counts} == {45}
    # Who plays before whom over 180 rounds: 24 to 28 times under the first version.
    assert max(report.before_counts.values()) - min(report.before_counts.values()) <= 5


def test_an_unknown_version_is_refused() -> None:
    with pytest.raises(ScheduleError, match="no round-robin search version 3"):
        round_robin(list(range(8)), 4, search=3)
