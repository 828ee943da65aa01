"""The Node.js example bot: it plays whole matches without a forfeit, its choices
follow its stated rules, and its entry point is found once the plugin is installed."""

from __future__ import annotations

import json
import shutil
import subprocess
from importlib import metadata
from typing import Any

import pytest
from c8league_node_example import BOT, node_example

from c8league.engine import Rules
from c8league.players.external import keep
from c8league.players.greedy import GreedyPlayer
from c8league.runner.loop import play_match

pytestmark = pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed")


@pytest.mark.parametrize("preset", ["pagat", "basic", "encyclopedia", "olsen", "countdown"])
@pytest.mark.parametrize("players", [2, 4])
def test_plays_full_matches_against_greedy(preset: str, players: int) -> None:
    rules = Rules.from_options(preset)
    for seed in range(2):
        bot = node_example(move_time=5.0)
        table = [bot, *(GreedyPlayer() for _ in range(players - 1))]
        outcome = play_match(rules, table, seed)
        assert outcome.forfeit is None, outcome.forfeit
        assert outcome.result.ended != "forfeit"
        assert bot.bot_name == "node-example"
        assert bot.returncode == 0  # it left on its own when told to quit


def test_one_process_plays_match_after_match() -> None:
    """Where matches are played one after another (a worker of a run), the bot keeps its
    process: it announces ``match_start`` and takes its view as changes."""
    keep.enable()
    try:
        pids = []
        for seed in range(3):
            bot = node_example(move_time=5.0)
            outcome = play_match(Rules.from_options("pagat"), [bot, GreedyPlayer()], seed)
            assert outcome.forfeit is None, outcome.forfeit
            pids.append(bot.pid)
        assert len(set(pids)) == 1 and bot.kept
    finally:
        keep.release()


def ask(observation: dict[str, Any], legal: list[str]) -> str:
    """Run bot.js on one move request; return the move it answers."""
    hello = {"type": "hello", "protocol": 1, "seat": 0, "players": 2, "seed": 1, "rules": {}}
    request = {"type": "move", "observation": observation, "legal": legal}
    lines = [json.dumps(m) for m in (hello, request, {"type": "quit"})]
    done = subprocess.run(
        ["node", BOT], input="\n".join(lines) + "\n", capture_output=True, text=True, timeout=10
    )
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert answers[0]["type"] == "hello" and answers[1]["type"] == "move"
    return str(answers[1]["move"])


def position(hand: list[str], top: str, suit: str | None, wild: str | None = "8") -> dict[str, Any]:
    return {"seat": 0, "hand": hand, "top": top, "suit": suit, "wild_ranks": [wild, wild]}


NOMINATE_8 = ["8H:C", "8H:D", "8H:H", "8H:S"]


@pytest.mark.parametrize(
    ("observation", "legal", "expected"),
    [
        # a card of the suit to follow before a change of suit by rank, and before an eight
        (position(["3D", "KC", "8H"], "KD", "D"), ["3D", "KC", *NOMINATE_8, "draw"], "3D"),
        # no card of the suit: any other play before an eight
        (position(["KC", "8H", "2S"], "KD", "D"), ["KC", *NOMINATE_8, "draw"], "KC"),
        # only an eight: nominate the suit held most of after playing it
        (position(["8H", "2S", "5S", "KD"], "3C", "C"), [*NOMINATE_8, "draw"], "8H:S"),
        # nothing to play: draw
        (position(["2S", "5S"], "3C", "C"), ["draw"], "draw"),
        # announce "last card" when offered
        (position(["5C", "9S"], "3C", "C"), ["5C", "5C!", "draw"], "5C!"),
        # several equal cards: shed the most
        (position(["9C", "9D", "4S"], "3C", "C"), ["9C", "9C+9D", "draw"], "9C+9D"),
        # the dealer names the starter's suit: the suit held most of
        (position(["2D", "5D", "KS"], "8C", None), ["nominate:C", "nominate:D"], "nominate:D"),
        # no wild rank at all: an eight is an ordinary card
        (position(["8C", "KH"], "3C", "C", wild=None), ["8C", "draw"], "8C"),
    ],
)
def test_choices(observation: dict[str, Any], legal: list[str], expected: str) -> None:
    assert ask(observation, legal) == expected


def test_entry_point_when_installed() -> None:
    found = metadata.entry_points(group="c8league.players", name="node-example")
    if not found:
        pytest.skip("the plugin is not installed (pip install -e plugins/c8league-node-example)")
    assert next(iter(found)).load() is node_example
