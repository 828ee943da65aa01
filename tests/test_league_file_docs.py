"""docs/league-file.md: its tables are generated from the league file's models, and its
examples are the shipped league files, so that the document cannot drift from either."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

from c8league.engine.rules import OPTIONS
from c8league.league.files import EntrantSpec, EventSpec, LeagueFile, RulesSpec, load_league_file
from c8league.league.reference import RATING_MEANINGS, league_file_reference, update_document
from c8league.ratings import RatingSettings

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "league-file.md"


def test_the_document_is_up_to_date() -> None:
    text = DOC.read_text(encoding="utf-8")
    assert update_document(text, ROOT) == text, (
        "docs/league-file.md is out of date: python -m c8league.league.reference "
        "docs/league-file.md"
    )
    assert league_file_reference() in text


def test_every_table_and_field_is_documented() -> None:
    reference = league_file_reference()
    for model in (LeagueFile, RulesSpec, EntrantSpec, EventSpec):
        for name, info in model.model_fields.items():
            assert info.description, f"{model.__name__}.{name} has no description"
            assert f"| `{name}` |" in reference
    assert set(RATING_MEANINGS) == {f.name for f in dataclasses.fields(RatingSettings)}
    for option in OPTIONS:
        assert f"| `{option}` |" in reference
    for heading in ("## The top level", "## `[rules]`", "## `[rating]`",
                    "## `[[entrants]]`", "## `[[events]]`"):  # fmt: skip
        assert heading in reference


def test_an_example_of_each_kind_of_league_is_quoted_and_loads(tmp_path: Path) -> None:
    text = DOC.read_text(encoding="utf-8")
    quoted = dict(re.findall(r"<!-- example: ([^ ]+) -->\n```toml\n(.*?)```\n", text, flags=re.S))
    assert set(quoted) == {"leagues/bot-cup.toml", "leagues/club-swiss.toml",
                           "leagues/countdown.toml"}  # fmt: skip
    kinds = set()
    for number, body in enumerate(quoted.values()):
        path = tmp_path / f"example{number}.toml"
        path.write_text(body, encoding="utf-8")
        league = load_league_file(path)
        event = league.events[0]
        people = any(e.bot is None for e in league.entrants)
        kinds.add((league.rules.preset, event.format, people))
    assert kinds == {("pagat", "round_robin", False), ("pagat", "swiss", True),
                     ("countdown", "swiss", False)}  # fmt: skip
