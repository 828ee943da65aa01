"""``c8league bots list/show/check`` and the conformance helper."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator, Sequence

import pytest
from shown import assert_shown

from c8league import about
from c8league.cli.main import main
from c8league.engine import Move, Observation
from c8league.players import registry
from c8league.players.base import BasePlayer
from c8league.players.greedy import GreedyPlayer
from c8league.players.random_player import RandomPlayer
from c8league.runner.conformance import assert_conforms, check_player


class IllegalPlayer(BasePlayer):
    """Plays the first card of its hand, legal or not."""

    def choose(self, observation: Observation, legal: Sequence[Move]) -> Move:
        return Move.play(observation.hand[0])


class UnseededPlayer(BasePlayer):
    """Picks a random legal move from an unseeded generator."""

    def __init__(self) -> None:
        self.rng = random.Random()

    def choose(self, observation: Observation, legal: Sequence[Move]) -> Move:
        return self.rng.choice(legal)


class CrashingPlayer(BasePlayer):
    """Raises on its tenth decision."""

    def __init__(self) -> None:
        self.calls = 0

    def choose(self, observation: Observation, legal: Sequence[Move]) -> Move:
        self.calls += 1
        if self.calls == 10:
            raise RuntimeError("out of ideas")
        return legal[-1]


PLAYERS = {
    "greedy": GreedyPlayer,
    "random": RandomPlayer,
    "illegal": IllegalPlayer,
    "unseeded": UnseededPlayer,
    "crashing": CrashingPlayer,
    "stuck": lambda: StuckPlayer(),
}


@pytest.fixture(autouse=True)
def players() -> Iterator[None]:
    with registry.only_registered(PLAYERS):
        yield


@pytest.fixture
def broken(monkeypatch: pytest.MonkeyPatch) -> None:
    """A plugin whose entry point failed to load, as discovery lists it."""
    info = registry.PlayerInfo(
        "shaky",
        "c8league-shaky",
        "0.3",
        "",
        None,
        "ModuleNotFoundError: No module named 'numpy'",
        "c8league_shaky:Bot",
    )
    monkeypatch.setitem(registry._registered, "shaky", info)


# -- bots list / show ------------------------------------------------------------------------


def test_bots_list(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bots", "list"]) == 0
    assert_shown(capsys.readouterr().out, "bots-list", engine=about.engine())


def test_bots_list_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bots", "list", "--json"]) == 0
    rows = {row["name"]: row for row in json.loads(capsys.readouterr().out)}
    assert set(rows) == set(PLAYERS)
    assert rows["random"]["description"].startswith("A uniformly random legal move")
    assert rows["random"]["broken"] is False and rows["random"]["error"] is None


@pytest.mark.usefixtures("broken")
def test_bots_list_shows_a_broken_plugin_and_succeeds(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bots", "list"]) == 0
    assert_shown(capsys.readouterr().out, "bots-list-broken", engine=about.engine())
    assert main(["bots", "list", "--json"]) == 0
    rows = {row["name"]: row for row in json.loads(capsys.readouterr().out)}
    assert rows["shaky"]["broken"] is True
    assert rows["shaky"]["error"] == "ModuleNotFoundError: No module named 'numpy'"
    assert rows["shaky"]["distribution"] == "c8league-shaky"


def test_bots_show_options(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bots", "show", "random"]) == 0
    assert_shown(capsys.readouterr().out, "bots-show-random")
    assert main(["bots", "show", "random", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["options"] == [
        {"name": "seed", "default": "0", "type": "int"},
        {"name": "playable_first", "default": "False", "type": "bool"},
    ]
    assert main(["bots", "show", "greedy"]) == 0
    assert_shown(capsys.readouterr().out, "bots-show-greedy")


@pytest.mark.usefixtures("broken")
@pytest.mark.parametrize(
    ("name", "line"),
    [
        (
            "wizard",
            "no player plugin named 'wizard'; "
            "installed: crashing, greedy, illegal, random, stuck, unseeded",
        ),
        ("shaky", "player plugin 'shaky' is broken: ModuleNotFoundError: No module named 'numpy'"),
    ],
)
def test_bots_show_unknown_or_broken(
    name: str, line: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["bots", "show", name]) == 2
    assert capsys.readouterr().err == f"error: {line}\n"


# -- bots check ------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["random", "greedy"])
def test_bots_check_passes_for_the_built_in_players(
    name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["bots", "check", name, "--games", "3"]) == 0
    text = capsys.readouterr().out
    for preset in ("pagat", "basic", "encyclopedia", "olsen", "countdown"):
        assert preset in text
    assert "3/3" in text and "all checks passed" in text and "✗" not in text


def test_bots_check_with_options_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["bots", "check", "random", "-o", "playable_first=true", "--games", "2"]
    assert main([*args, "--presets", "pagat,olsen", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["passed"] is True
    assert [p["preset"] for p in data["presets"]] == ["pagat", "olsen"]
    assert all(p["games"] == 2 and p["moves"] > 0 for p in data["presets"])


def test_bots_check_fails_on_an_illegal_move(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bots", "check", "illegal", "--games", "2", "--presets", "pagat"]) == 1
    text = capsys.readouterr().out
    assert "│ finished      │    0/2 │" in text and "│ legal moves   │  ✗ 1,2 │" in text
    assert re.search(r"illegal at its move \d+: \w+ is not a legal move", text)
    assert "illegal: 2 check(s) failed." in text


def test_bots_check_fails_without_a_seed(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bots", "check", "unseeded", "--games", "2", "--presets", "pagat,basic"]) == 1
    text = capsys.readouterr().out
    assert "deterministic: pagat game 1 (seed " in text
    assert "the same seed gave different play: hand 1 move" in text
    assert "2/2" in text  # it plays legal moves and finishes its games


def test_bots_check_fails_on_a_crash(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bots", "check", "crashing", "--games", "1", "--presets", "basic"]) == 1
    assert "RuntimeError: out of ideas" in capsys.readouterr().out


def test_bots_check_stops_a_stuck_bot(capsys: pytest.CaptureFixture[str]) -> None:
    """A game stuck past --match-seconds ends the games of its preset (each would take as
    long), not the other presets'."""
    args = ["bots", "check", "stuck", "--games", "2", "--presets", "pagat,basic"]
    assert main([*args, "--match-seconds", "0.2"]) == 1
    text = capsys.readouterr().out
    assert "timeout at its move 5" in text and "limit of 0.2 s" in text
    assert "│ finished      │    0/1 │    0/1 │" in text
    assert "│ in time       │    ✗ 1 │    ✗ 1 │" in text
    for preset in ("pagat", "basic"):
        assert (
            f"{preset}: 1 game(s) not played after game 1, stuck past --match-seconds (each "
            "would take as long)"
        ) in text


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["bots", "check", "wizard"], "no player plugin named 'wizard'"),
        (["bots", "check", "random", "-o", "colour=red"], "has no option 'colour'"),
        (["bots", "check", "random", "--presets", "pagat,bogus"], "unknown rule preset 'bogus'"),
    ],
)
def test_bots_check_bad_arguments(
    args: list[str], needle: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(args) == 2
    err = capsys.readouterr().err
    assert needle in err and err.strip().count("\n") == 0


# -- the library helper ----------------------------------------------------------------------


def test_check_player_from_python() -> None:
    report = assert_conforms(GreedyPlayer, games=2)
    assert report.passed and report.player == "GreedyPlayer"
    assert all(p.completed == 2 and p.moves > 0 for p in report.presets)
    assert all(0 < p.mean_seconds <= p.max_seconds for p in report.presets)


def test_check_player_reports_each_kind_of_fault() -> None:
    illegal = check_player(IllegalPlayer, games=1, presets=["pagat"])
    assert [f.check for f in illegal.faults] == ["illegal"]
    crashing = check_player(CrashingPlayer, games=1, presets=["pagat"])
    assert [f.check for f in crashing.faults] == ["exception"]
    unseeded = check_player("unseeded", games=2, presets=["pagat"])
    assert {f.check for f in unseeded.faults} == {"deterministic"}
    with pytest.raises(AssertionError, match="deterministic: pagat game 1"):
        assert_conforms(UnseededPlayer, games=1, presets=["pagat"])


class StuckPlayer(BasePlayer):
    """Never returns from its fifth decision."""

    def __init__(self) -> None:
        self.calls = 0

    def choose(self, observation: Observation, legal: Sequence[Move]) -> Move:
        self.calls += 1
        while self.calls >= 5:
            pass
        return legal[-1]


def test_check_player_stops_a_stuck_player() -> None:
    report = check_player(StuckPlayer, games=3, presets=["pagat", "basic"], match_seconds=0.2)
    faults = [(f.check, f.preset, f.game) for f in report.faults]
    assert faults == [("timeout", "pagat", 0), ("timeout", "basic", 0)]
    assert "timeout at its move 5" in report.failures()[0]
    assert [(p.games, p.stuck) for p in report.presets] == [(1, 0), (1, 0)]


def test_check_player_time_limit() -> None:
    report = check_player(GreedyPlayer, games=1, presets=["basic"], time_limit=0.0)
    assert [f.check for f in report.faults] == ["time"]
    assert "above the limit" in report.failures()[0]
