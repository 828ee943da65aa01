"""``c8league rules`` and the command line's error handling."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from c8league.cli.main import main
from c8league.engine.rules import OPTIONS, PRESETS


def test_rules_list_names_every_preset(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "list"]) == 0
    text = capsys.readouterr().out
    for name in PRESETS:
        assert name in text


def test_rules_list_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "list", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [row["name"] for row in data] == list(PRESETS)


@pytest.mark.parametrize("preset", list(PRESETS))
def test_rules_show_every_option(preset: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "show", preset, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data["options"]) == set(OPTIONS)


def test_rules_show_table_mentions_meanings(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "show", "pagat"]) == 0
    text = capsys.readouterr().out
    assert "wild_nominates" in text and "must_play_if_able" in text


def test_rules_show_with_override(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "show", "olsen", "--set", "draw=one", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["options"]["draw"] == "one"
    assert data["options"]["multiple_equal"] is True


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["rules", "show", "bogus"], "unknown rule preset 'bogus'; presets: pagat"),
        (["rules", "show", "pagat", "--set", "draw=sideways"], "valid values: one, one_then_play"),
        (["rules", "show", "pagat", "--set", "colour=red"], "unknown rule option 'colour'"),
        (["rules", "show", "pagat", "--set", "wild_rank=Z"], "rule wild_rank: 'Z' is not valid"),
        (["rules", "show", "pagat", "--set", "nonsense"], "expected option=value"),
    ],
)
def test_bad_rules_one_line_exit_2(
    args: list[str], needle: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(args) == 2
    captured = capsys.readouterr()
    assert needle in captured.err
    assert captured.err.strip().count("\n") == 0, "the error must be one line"
    assert "Traceback" not in captured.err


def test_unknown_command_is_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["frobnicate"]) == 2
    assert "Traceback" not in capsys.readouterr().err


def test_demo_plays_a_seeded_match(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--seed", "5"]) == 0
    first = capsys.readouterr().out
    assert "Final score" in first and "Hand 1" in first
    assert main(["demo", "--seed", "5"]) == 0
    assert capsys.readouterr().out == first


def test_demo_unknown_player(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--players", "greedy,wizard"]) == 2
    assert "player 1 (wizard): no player plugin named 'wizard'" in capsys.readouterr().err


def test_python_dash_m_and_help() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "c8league", "--help"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0
    assert "rules" in done.stdout
