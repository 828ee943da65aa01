import pytest

from c8league.schedule import Round, ScheduleError


def test_round_lists_entrants() -> None:
    rnd = Round((("a", "b"), ("c", "d", "e")), ("f",))
    assert list(rnd.seated()) == ["a", "b", "c", "d", "e"]
    assert rnd.entrants() == ("a", "b", "c", "d", "e", "f")


def test_round_rejects_duplicates_and_empty_tables() -> None:
    with pytest.raises(ScheduleError):
        Round((("a", "b"), ("b", "c")))
    with pytest.raises(ScheduleError):
        Round((("a", "b"),), ("a",))
    with pytest.raises(ScheduleError):
        Round(((),))


def test_round_is_frozen_and_hashable() -> None:
    rnd = Round(((1, 2),))
    assert rnd == Round(((1, 2),))
    assert len({rnd, Round(((1, 2),))}) == 1
    with pytest.raises(AttributeError):
        rnd.byes = (3,)  # type: ignore[misc]
