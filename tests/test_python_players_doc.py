"""``docs/python-players.md`` holds the player API's reference as the code's docstrings
say it: rewrite it with ``python -m c8league.players.reference --write
docs/python-players.md`` when this fails."""

from __future__ import annotations

from pathlib import Path

from c8league.players.reference import BEGIN, END, block, reference

PAGE = Path(__file__).resolve().parents[1] / "docs" / "python-players.md"


def test_the_page_holds_the_reference_of_the_code() -> None:
    text = PAGE.read_text(encoding="utf-8")
    held = text[text.index(BEGIN) : text.index(END) + len(END)]
    assert held == block()


def test_the_reference_covers_what_a_player_is_given() -> None:
    text = reference()
    for needle in ("### Observation", "`hand` | `tuple[Card, ...]`", "### Move", "`start_match()`"):
        assert needle in text
