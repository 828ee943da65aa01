"""The player contract (``c8league.players.base``): every player is played through
:class:`BasePlayer`, a player of any class adapted to it once; the runner calls the hooks
a player has and no others, and looks for none itself."""

from __future__ import annotations

import ast
from collections.abc import Sequence
from pathlib import Path

import pytest

from c8league.engine import Move, Observation, Rules
from c8league.errors import PluginError
from c8league.players.base import HOOKS, BasePlayer, PlayerWrapper, adapt
from c8league.players.greedy import GreedyPlayer
from c8league.runner.loop import play_match

PACKAGE = Path(__file__).resolve().parents[1] / "c8league"


class Plain:
    """A player of no class of c8league's: ``choose``, one hook and ``close``."""

    def __init__(self) -> None:
        self.told: list[str] = []

    def choose(self, observation: Observation, legal: Sequence[Move]) -> Move:
        return legal[0]

    def start_hand(self, observation: Observation) -> None:
        self.told.append("start_hand")

    def close(self) -> None:
        self.told.append("close")


def test_a_base_player_is_its_own_adaptation() -> None:
    player = GreedyPlayer()
    assert adapt(player) is player
    assert player.hooks == frozenset()
    assert player.implementation is GreedyPlayer


def test_a_player_of_another_class_gets_the_whole_contract() -> None:
    inner = Plain()
    player = adapt(inner)
    assert isinstance(player, BasePlayer)
    assert player.hooks == {"start_hand"}
    assert player.implementation is Plain
    assert player.name == "Plain"
    assert (player.answers_later, player.plays_at_once, player.stderr_path) == (False, False, None)
    player.end_match(None)  # type: ignore[arg-type]  # a hook it lacks: the default
    player.warm(Rules.from_options("pagat"), 2, seat=1)  # told of a match and a hand
    player.close()
    assert inner.told == ["start_hand", "close"]


def test_an_object_without_choose_is_no_player() -> None:
    with pytest.raises(PluginError, match="no choose"):
        adapt(object())


def test_a_match_calls_the_hooks_a_player_has_and_closes_it_once() -> None:
    inner = Plain()
    play_match(Rules.from_options("pagat"), [inner, GreedyPlayer()], seed=3)
    assert inner.told.count("close") == 1
    assert inner.told.count("start_hand") >= 1
    assert set(inner.told) == {"start_hand", "close"}


def test_a_wrapper_has_the_hooks_of_what_it_wraps() -> None:
    wrapped = PlayerWrapper(Plain())
    assert wrapped.hooks == {"start_hand"}
    assert wrapped.implementation is Plain
    assert PlayerWrapper(GreedyPlayer()).hooks == frozenset()


def test_no_module_probes_a_player_for_a_part_of_the_contract() -> None:
    """``getattr(x, "close")``, ``getattr(x, "start_hand", None)``…: only the adapter
    (``players/base.py``) looks for what a player has."""
    parts = {*HOOKS, "choose", "close", "warm", "answers_later", "plays_at_once", "stderr_path"}
    not_players = {
        ("duel/running.py", "reports"),  # a generator of match reports, closed
        ("players/serve.py", "player"),  # serve() given a player where a factory belongs
    }
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.name == "base.py" and path.parent.name == "players":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in ("getattr", "hasattr")
                and len(node.args) >= 2
                and isinstance(node.args[1], ast.Constant)
                and node.args[1].value in parts
            ):
                where = str(path.relative_to(PACKAGE))
                probed = ast.unparse(node.args[0])
                if (where, probed) not in not_players:
                    found.append(f"{where}:{node.lineno}: {probed}")
    assert found == []
