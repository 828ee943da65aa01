from itertools import combinations

import pytest

from c8league.schedule import resolvable_design


def _check_exact(n: int, k: int) -> None:
    design = resolvable_design(n, k)
    assert design is not None
    assert len(design) == (n - 1) // (k - 1)
    met: dict[tuple[int, int], int] = {}
    for tables in design:
        assert sorted(p for t in tables for p in t) == list(range(n))
        assert all(len(t) == k for t in tables)
        for t in tables:
            for a, b in combinations(sorted(t), 2):
                met[(a, b)] = met.get((a, b), 0) + 1
    assert len(met) == n * (n - 1) // 2
    assert set(met.values()) == {1}


@pytest.mark.parametrize(
    ("n", "k"),
    [
        (4, 2),
        (8, 2),
        (9, 3),
        (27, 3),
        (15, 3),
        (21, 3),
        (39, 3),
        (57, 3),
        (16, 4),
        (64, 4),
        (25, 5),
        (49, 7),
        (64, 8),
    ],
)
def test_known_designs_meet_every_pair_once(n: int, k: int) -> None:
    _check_exact(n, k)


def test_trivial_design() -> None:
    assert resolvable_design(5, 5) == ((tuple(range(5)),),)
    assert resolvable_design(3, 8) == (((0, 1, 2),),)


@pytest.mark.parametrize(("n", "k"), [(6, 3), (36, 6), (10, 4), (1, 3), (33, 3)])
def test_unknown_designs(n: int, k: int) -> None:
    assert resolvable_design(n, k) is None
