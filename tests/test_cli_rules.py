"""``c8league rules`` and the command line's error handling."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from shown import assert_shown

from c8league.cli.main import main
from c8league.engine.rules import OPTIONS, PRESETS


def test_rules_list_shows_every_preset(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "list"]) == 0
    assert_shown(capsys.readouterr().out, "rules-list")


def test_rules_list_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "list", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [row["name"] for row in data] == list(PRESETS)


@pytest.mark.parametrize("preset", list(PRESETS))
def test_rules_show_every_option(preset: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "show", preset, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data["options"]) == set(OPTIONS)


@pytest.mark.parametrize("preset", ["pagat", "countdown"])
def test_rules_show_table_of_options_and_meanings(
    preset: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["rules", "show", preset]) == 0
    assert_shown(capsys.readouterr().out, f"rules-show-{preset}")


def test_rules_show_with_override(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "show", "olsen", "--set", "draw=one", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["options"]["draw"] == "one"
    assert data["options"]["multiple_equal"] is True


OPTION_NAMES = ", ".join(OPTIONS)


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (
            ["rules", "show", "bogus"],
            "unknown rule preset 'bogus'; presets: pagat, basic, encyclopedia, olsen, countdown",
        ),
        (
            ["rules", "show", "pagat", "--set", "draw=sideways"],
            "rule draw: 'sideways' is not valid; valid values: one, one_then_play, up_to, "
            "until_playable",
        ),
        (
            ["rules", "show", "pagat", "--set", "colour=red"],
            f"unknown rule option 'colour'; valid options: {OPTION_NAMES}",
        ),
        (
            ["rules", "show", "pagat", "--set", "wild_rank=Z"],
            "rule wild_rank: 'Z' is not valid; valid values: a rank (A 2 … 10 J Q K) or none",
        ),
        (["rules", "show", "pagat", "--set", "nonsense"], "expected option=value, got 'nonsense'"),
    ],
)
def test_bad_rules_one_line_exit_2(
    args: list[str], line: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(args) == 2
    assert capsys.readouterr().err == f"error: {line}\n"


def test_unknown_command_is_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["frobnicate"]) == 2
    assert (
        capsys.readouterr().err == "error: No such command 'frobnicate'. (see: c8league --help)\n"
    )


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
