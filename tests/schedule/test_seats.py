from itertools import pairwise

import pytest

from c8league.schedule import Round, assign_seats, balance_report


def test_tables_keep_their_members_and_order() -> None:
    tables = [["a", "b", "c", "d"], ["e", "f", "g"], ["h", "i"]]
    seated = assign_seats(tables, seed=3)
    assert [sorted(t) for t in seated] == [sorted(t) for t in tables]
    assert assign_seats(tables, seed=3) == seated


def test_the_usual_first_dealer_sits_elsewhere() -> None:
    history = [Round((("a", "b", "c"),)), Round((("a", "c", "b"),))]
    for seed in range(5):
        (table,) = assign_seats([["a", "b", "c"]], history, seed=seed)
        assert table[0] != "a"


def test_two_player_seats_alternate() -> None:
    history: list[Round[str]] = []
    for r in range(6):
        (table,) = assign_seats([["x", "y"]], history, seed=r)
        history.append(Round((table,)))
    firsts = [rnd.tables[0][0] for rnd in history]
    assert firsts.count("x") == firsts.count("y") == 3
    assert all(a != b for a, b in pairwise(firsts))


@pytest.mark.parametrize("size", range(3, 9))
def test_one_table_rotates_through_every_seat(size: int) -> None:
    people = [f"x{i}" for i in range(size)]
    history: list[Round[str]] = []
    for r in range(size):
        (table,) = assign_seats([people], history, seed=r)
        history.append(Round((table,)))
    report = balance_report(history)
    assert all(counts == (1,) * size for counts in report.seat_counts.values())
    assert report.max_before <= 3  # measured


def test_entrants_unknown_to_the_history() -> None:
    history = [Round((("old1", "old2", "new"),))]
    (table,) = assign_seats([["new", "fresh", "other"]], history)
    assert sorted(table) == ["fresh", "new", "other"]
    assert table[2] != "new"  # it sat in seat 2 last time
