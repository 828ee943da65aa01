"""Pairing a round-robin's rounds all at once gives the rounds of pairing them one by
one (with a withdrawal between the first rounds and the rest)."""

from __future__ import annotations

from pathlib import Path

import pytest
from dbs import BOT_ENTRANTS

from c8league.cli.main import main
from c8league.events.pairing import pair_next_round, pair_rounds_ahead
from c8league.storage import open_database
from c8league.storage import rounds as stored_rounds
from c8league.storage.leagues import get_event

LEAGUE = f"""
name = "ahead"
table_size = 3
[rules]
preset = "pagat"
{BOT_ENTRANTS}
[[entrants]]
name = "G3"
bot = "greedy"
[[events]]
name = "ev"
format = "round_robin"
cycles = 2
seed = 5
duplicate = true
"""


def paired(tmp_path: Path, name: str, at_once: bool) -> list[object]:
    (tmp_path / "ahead.toml").write_text(LEAGUE)
    db_path = tmp_path / f"{name}.db"
    assert main(["--db", str(db_path), "league", "import", str(tmp_path / "ahead.toml")]) == 0
    db = open_database(str(db_path))
    with db.writing() as session:
        lg, ev = get_event(session, "ev", None)
        pair_next_round(session, lg, ev, ahead=True)
        pair_next_round(session, lg, ev, ahead=True)
    assert main(["--db", str(db_path), "players", "withdraw", "G2", "--league", "ahead"]) == 0
    with db.writing() as session:
        lg, ev = get_event(session, "ev", None)
        from c8league.events.pairing import planned_rounds

        left = planned_rounds(session, lg, ev) - 2
        assert left > 2
        if at_once:
            pair_rounds_ahead(session, lg, ev, left)
        else:
            for _ in range(left):
                pair_next_round(session, lg, ev, ahead=True)
    with db.session() as session:
        _, ev = get_event(session, "ev", None)
        assert ev.id is not None
        rounds = stored_rounds.stored_rounds(session, ev.id)
        seeds = [
            (m.table_no, m.deal, m.seed) for m, _ in stored_rounds.pending_matches(session, ev.id)
        ]
    return [rounds, seeds]


def test_pairing_ahead_equals_pairing_one_by_one(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    assert paired(tmp_path / "a", "at-once", True) == paired(tmp_path / "b", "one-by-one", False)


def test_pairing_past_the_last_round_is_refused(tmp_path: Path) -> None:
    from c8league.errors import UsageError

    (tmp_path / "ahead.toml").write_text(LEAGUE)
    db_path = tmp_path / "x.db"
    assert main(["--db", str(db_path), "league", "import", str(tmp_path / "ahead.toml")]) == 0
    db = open_database(str(db_path))
    with pytest.raises(UsageError, match="has all its"), db.writing() as session:
        lg, ev = get_event(session, "ev", None)
        pair_rounds_ahead(session, lg, ev, 10_000)
