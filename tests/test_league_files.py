"""League files: the shipped ones load; every kind of bad file gets one clear line."""

from __future__ import annotations

from pathlib import Path

import pytest

from c8league.errors import LeagueFileError
from c8league.league.files import load_league_file

LEAGUES = Path(__file__).resolve().parents[1] / "leagues"

GOOD = """
name = "test"
table_size = 4
[rules]
preset = "pagat"
[[entrants]]
name = "A"
bot = "greedy"
[[entrants]]
name = "B"
[[events]]
name = "e1"
format = "swiss"
rounds = 3
"""


@pytest.mark.parametrize("path", sorted(LEAGUES.glob("*.toml")), ids=lambda p: p.name)
def test_shipped_league_files_load(path: Path) -> None:
    """Each has entrants and events, but the arena, whose bots play its ladder (made by
    ``ladder run``, docs/ladder.md)."""
    league = load_league_file(path)
    assert league.entrants and (league.events or league.name == "arena")


def test_club_swiss_has_thirteen_people() -> None:
    league = load_league_file(LEAGUES / "club-swiss.toml")
    assert len(league.entrants) == 13
    assert all(e.bot is None for e in league.entrants)
    assert league.events[0].format == "swiss" and league.table_size == 4


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("name = ", "not valid TOML"),
        (GOOD.replace('name = "test"', ""), "name: Field required"),
        (GOOD.replace("table_size = 4", "table_size = 9"), "table_size: Input should be less"),
        (GOOD.replace('preset = "pagat"', 'preset = "poker"'), "unknown rule preset 'poker'"),
        (GOOD + "\n[rules.options]\ndraw = 'sideways'\n", "rule draw: 'sideways'"),
        (
            GOOD.replace('bot = "greedy"', 'bot = "greedy"\ncolour = "red"'),
            "entrants[0] (A).colour: Extra inputs are not permitted",
        ),
        (GOOD.replace('name = "B"', 'name = "A"'), "duplicate entrant name 'A'"),
        (GOOD.replace("rounds = 3", ""), "a swiss event needs 'rounds'"),
        (
            GOOD.replace('format = "swiss"', 'format = "knockout"'),
            "events[0] (e1).format: Input should be 'round_robin' or 'swiss'",
        ),
        (GOOD + "\n[rating]\ndraw_probability = 0\n", "draw_probability"),
        (GOOD.replace('name = "B"', 'name = "B/C"'), "entrants[1] (B/C).name"),
    ],
)
def test_bad_league_file_one_line(tmp_path: Path, text: str, needle: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(LeagueFileError) as info:
        load_league_file(path)
    message = str(info.value)
    assert message.startswith(str(path))
    assert needle in message
    assert "\n" not in message


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(LeagueFileError, match="no such file"):
        load_league_file(tmp_path / "nope.toml")
