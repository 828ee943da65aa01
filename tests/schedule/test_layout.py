import pytest
from hypothesis import given
from hypothesis import strategies as st

from c8league.schedule import Layout, ScheduleError, table_layout


@pytest.mark.parametrize(
    ("n", "k", "short", "sizes", "byes"),
    [
        (13, 4, "smaller", (4, 3, 3, 3), 0),
        (16, 4, "smaller", (4, 4, 4, 4), 0),
        (14, 4, "smaller", (4, 4, 3, 3), 0),
        (5, 4, "smaller", (3, 2), 0),
        (3, 4, "smaller", (3,), 0),
        (4, 3, "smaller", (2, 2), 0),
        (9, 8, "smaller", (5, 4), 0),
        (7, 2, None, (2, 2, 2), 1),
        (7, 2, "smaller", (2, 2, 2), 1),
        (8, 2, None, (2, 2, 2, 2), 0),
        (13, 4, "byes", (4, 4, 4), 1),
        (15, 4, "byes", (4, 4, 4), 3),
        (3, 4, "byes", (3,), 0),
        (1, 4, None, (), 1),
        (0, 3, None, (), 0),
        (2, 8, None, (2,), 0),
    ],
)
def test_layout_table(n: int, k: int, short: str | None, sizes: tuple[int, ...], byes: int) -> None:
    assert table_layout(n, k, short) == Layout(sizes, byes)  # type: ignore[arg-type]


@given(st.integers(2, 400), st.integers(2, 8))
def test_smaller_tables_rule(n: int, k: int) -> None:
    layout = table_layout(n, k, "smaller" if k > 2 else None)
    assert layout.seated + layout.byes == n
    assert all(s <= k for s in layout.sizes)
    assert max(layout.sizes) - min(layout.sizes) <= 1
    assert list(layout.sizes) == sorted(layout.sizes, reverse=True)
    if k > 2:
        assert layout.byes == 0
        tables = -(-n // k)
        assert len(layout.sizes) == tables  # the fewest tables
        if tables * k - n <= tables:  # full tables and the rest one smaller is possible
            full = layout.sizes.count(k)
            assert full + layout.sizes.count(k - 1) == tables
            assert full == n - tables * (k - 1)
    else:
        assert layout.byes == n % 2


@given(st.integers(0, 400), st.integers(2, 8))
def test_byes_rule(n: int, k: int) -> None:
    layout = table_layout(n, k, "byes")
    assert layout.seated + layout.byes == n
    if n >= k:
        assert set(layout.sizes) == {k}
        assert layout.byes == n % k


@pytest.mark.parametrize("k", [0, 1, 9])
def test_bad_table_size(k: int) -> None:
    with pytest.raises(ScheduleError):
        table_layout(10, k)


def test_bad_counts_and_modes() -> None:
    with pytest.raises(ScheduleError):
        table_layout(-1, 4)
    with pytest.raises(ScheduleError):
        table_layout(10, 4, "sideways")  # type: ignore[arg-type]
