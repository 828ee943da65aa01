"""A Python player served over the bot protocol (``c8league.players.serve``) is an
external bot that plays exactly the matches the player plays in c8league's own process,
sandboxed where the machine can; and the values it is told read back from their JSON."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shlex
import subprocess
import sys
import textwrap
import tomllib
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from c8league.cli.main import main
from c8league.engine import HandResult, MatchResult, Rules
from c8league.errors import PluginError, WireError
from c8league.players.base import Player
from c8league.players.external import ExternalPlayer, keep, protocol
from c8league.players.greedy import GreedyPlayer
from c8league.players.random_player import RandomPlayer
from c8league.runner.loop import MatchOutcome, play_match

SERVE = [sys.executable, "-m", "c8league.players.serve"]

EIGHTS_LAST = '''
from c8league.players.base import BasePlayer
from c8league.players.serve import serve


class EightsLast(BasePlayer):
    """Plays its highest non-eight card; eights only when nothing else fits."""

    def choose(self, observation, legal):
        plays = [m for m in legal if m.is_play]
        if not plays:
            return legal[0]  # draw or pass
        plain = [m for m in plays if m.cards[-1].rank != observation.wild_rank]
        return max(plain or plays, key=lambda m: (m.cards[-1].rank.penalty, m.announce))


if __name__ == "__main__":
    serve(EightsLast)
'''

RECORDER = '''
import hashlib
import json
import sys

from c8league.players.base import BasePlayer


def digest(observation):
    view = json.dumps(observation.snapshot().to_dict(), sort_keys=True)
    return hashlib.sha256(view.encode()).hexdigest()[:16], observation.rules.to_json()


class Recorder(BasePlayer):
    """Notes every call it is given, with what it was shown; plays by its history."""

    def __init__(self, calls=None):
        self.calls = calls
        self.note("new")

    def note(self, *call):
        if self.calls is None:
            print("call " + json.dumps(call), file=sys.stderr)
        else:
            self.calls.append(json.loads(json.dumps(call)))

    def start_match(self, seat, players, seed):
        self.note("start_match", seat, players, seed)

    def start_hand(self, observation):
        self.note("start_hand", digest(observation))

    def choose(self, observation, legal):
        self.note("choose", digest(observation), [str(m) for m in legal])
        return legal[(len(observation.history) * 7 + observation.turn) % len(legal)]

    def end_hand(self, observation, result):
        self.note("end_hand", digest(observation), repr(result))

    def end_match(self, result):
        self.note("end_match", repr(result))

    def close(self):
        self.note("close")
'''


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """A bot's folder, with the bots of these tests in it."""
    (tmp_path / "mybot.py").write_text(EIGHTS_LAST, encoding="utf-8")
    (tmp_path / "recorder.py").write_text(RECORDER, encoding="utf-8")
    return tmp_path


@pytest.fixture
def kept() -> Iterator[None]:
    """Bots that announce ``match_start`` keep their process from match to match, as in
    a run's worker processes."""
    keep.enable()
    try:
        yield
    finally:
        keep.release()


def loaded(path: Path) -> Any:
    """The module of the file ``path``, imported afresh (for its players in process)."""
    spec = importlib.util.spec_from_file_location(f"served_{path.stem}_{id(path)}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def served(folder: Path, *args: str, **options: Any) -> ExternalPlayer:
    """``python -m c8league.players.serve ARGS...`` as an external bot in ``folder``."""
    return ExternalPlayer([*SERVE, *args], cwd=str(folder), **options)


def assert_same(served_outcome: MatchOutcome, own: MatchOutcome) -> None:
    assert served_outcome.forfeit is None and own.forfeit is None
    assert served_outcome.result == own.result
    assert served_outcome.moves == own.moves
    assert served_outcome.hand_results == own.hand_results
    assert served_outcome.decisions == own.decisions


def monte_carlo() -> tuple[Callable[[], Player], Callable[[Path], ExternalPlayer]]:
    """The Monte Carlo plugin with a small budget, in process and served (its package's
    folder shown to the sandbox, as an organiser would with ``ro_paths``)."""
    plugin = pytest.importorskip("c8league_montecarlo")
    shown = str(Path(plugin.__file__).resolve().parents[1])
    return (
        lambda: plugin.MonteCarloPlayer(playouts=6),
        lambda folder: served(folder, "montecarlo", "playouts=6", ro_paths=[shown]),
    )


# -- the same matches -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("preset", "players", "seeds"),
    [("pagat", 2, (0, 1, 2)), ("countdown", 3, (5, 6)), ("olsen", 4, (7, 8))],
)
def test_served_players_play_the_matches_they_play_in_process(
    folder: Path, kept: None, preset: str, players: int, seeds: Sequence[int]
) -> None:
    own_mc, served_mc = monte_carlo()
    own: list[Callable[[], Player]] = [
        GreedyPlayer,
        lambda: RandomPlayer(seed=7),
        own_mc,
        lambda: RandomPlayer(playable_first=True),
    ]
    theirs: list[Callable[[Path], ExternalPlayer]] = [
        lambda f: served(f, "greedy"),
        lambda f: served(f, "random:seed=7"),
        served_mc,
        lambda f: served(f, "random", "playable_first=true"),
    ]
    rules = Rules.from_options(preset)
    for number, seed in enumerate(seeds):
        at_table = [make(folder) for make in theirs[:players]]
        outcome = play_match(rules, at_table, seed)
        assert_same(outcome, play_match(rules, [make() for make in own[:players]], seed))
        if number > 0:  # one process plays match after match (its hello announced it)
            assert all(player.kept for player in at_table)


def test_the_player_is_told_what_it_is_told_in_process(folder: Path, kept: None) -> None:
    """The same calls in the same order, with the same views, a fresh player a match,
    also when one process plays the next match."""
    log_dir = folder / "logs"
    calls: list[object] = []
    sittings = [
        (Rules.from_options("pagat", {"target": 60}), 3, 0),
        (Rules.from_options("countdown"), 4, 1),
    ]
    Recorder = loaded(folder / "recorder.py").Recorder
    for rules, seed, seat in sittings:
        bot = served(folder, "recorder:Recorder", log_dir=str(log_dir))
        table: list[Player] = [GreedyPlayer(), GreedyPlayer()]
        table.insert(seat, bot)
        assert play_match(rules, table, seed).forfeit is None
        own: list[Player] = [GreedyPlayer(), GreedyPlayer()]
        own.insert(seat, Recorder(calls))
        play_match(rules, own, seed)
    assert bot.kept
    keep.release()  # the bot quits: its log is whole
    logs = sorted(log_dir.iterdir(), key=lambda log: log.stat().st_mtime_ns)  # a log a match
    lines = [line for log in logs for line in log.read_text(encoding="utf-8").splitlines()]
    told = [json.loads(line.removeprefix("call ")) for line in lines if line.startswith("call ")]
    # A factory that declares no options model is built once, and closed, when its
    # options are checked at start-up (as when a bot is entered: registry.check_options).
    assert told[:2] == [["new"], ["close"]]
    assert told[2:] == calls
    assert [c[0] for c in calls].count("new") == 2 and calls[-1] == ["close"]


def test_a_bots_own_file_ends_with_the_one_line(folder: Path) -> None:
    EightsLast = loaded(folder / "mybot.py").EightsLast
    rules = Rules.from_options("pagat")
    for command in (["mybot.py"], ["-m", "c8league.players.serve", "mybot:EightsLast"]):
        bot = ExternalPlayer([sys.executable, *command], cwd=str(folder))
        outcome = play_match(rules, [bot, GreedyPlayer()], 11)
        assert_same(outcome, play_match(rules, [EightsLast(), GreedyPlayer()], 11))
        assert bot.name == "EightsLast"


def test_it_runs_in_the_sandbox_where_one_is_required(folder: Path) -> None:
    try:
        bot = served(folder, "greedy", sandbox="required")
    except PluginError as exc:
        pytest.skip(f"no sandbox here: {exc}")
    rules = Rules.from_options("basic")
    outcome = play_match(rules, [GreedyPlayer(), bot], 4)
    assert_same(outcome, play_match(rules, [GreedyPlayer(), GreedyPlayer()], 4))


def test_bots_check_passes(
    folder: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(folder)
    spec = f"cmd:{shlex.quote(sys.executable)} -m c8league.players.serve greedy"
    assert main(["bots", "check", spec, "--games", "1"]) == 0
    assert "all checks passed" in capsys.readouterr().out


# -- faults -----------------------------------------------------------------------------


def test_a_player_that_raises_crashes_with_its_exceptions_line(folder: Path) -> None:
    (folder / "shaky.py").write_text(
        textwrap.dedent(
            """
            from c8league.players.greedy import GreedyPlayer


            class Shaky(GreedyPlayer):
                def __init__(self):
                    self.decisions = 0

                def choose(self, observation, legal):
                    self.decisions += 1
                    if self.decisions == 5:
                        raise RuntimeError("out of ideas at decision 5")
                    return super().choose(observation, legal)
            """
        ),
        encoding="utf-8",
    )
    Shaky = loaded(folder / "shaky.py").Shaky
    rules = Rules.from_options("pagat")
    outcome = play_match(rules, [GreedyPlayer(), served(folder, "shaky:Shaky")], 2)
    own = play_match(rules, [GreedyPlayer(), Shaky()], 2)
    assert own.forfeit is not None and own.forfeit.reason == "exception"
    forfeit = outcome.forfeit
    assert forfeit is not None
    assert (forfeit.seat, forfeit.reason, forfeit.move_number) == (1, "crash", 5)
    assert "exited with code 1" in forfeit.detail
    assert "stderr: RuntimeError: out of ideas at decision 5" in forfeit.detail
    assert (outcome.result, outcome.moves) == (own.result, own.moves)


def test_what_the_player_prints_goes_to_its_log(folder: Path) -> None:
    (folder / "chatty.py").write_text(
        textwrap.dedent(
            """
            import os

            from c8league.players.greedy import GreedyPlayer


            class Chatty(GreedyPlayer):
                def choose(self, observation, legal):
                    print("thinking about", len(legal), "moves")
                    os.write(1, b"and straight to the descriptor\\n")
                    return super().choose(observation, legal)
            """
        ),
        encoding="utf-8",
    )
    bot = served(folder, "chatty:Chatty", log_dir=str(folder / "logs"))
    rules = Rules.from_options("basic")
    outcome = play_match(rules, [bot, GreedyPlayer()], 1)
    assert_same(outcome, play_match(rules, [GreedyPlayer(), GreedyPlayer()], 1))
    (log,) = (folder / "logs").iterdir()
    text = log.read_text(encoding="utf-8")
    assert "thinking about" in text and "and straight to the descriptor" in text


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["nosuch"], "no player plugin named 'nosuch'; installed: "),
        (["greedy", "depth=3"], "player 'greedy' has no option 'depth'"),
        (["random", "seed=many"], "player 'random' option 'seed': 'many' is not int"),
        (["random", "seed"], "expected option=value, got 'seed'"),
        (["mybot:Nope"], "'mybot:Nope': module 'mybot' has no 'Nope'"),
        (["nobot:Bot"], "'nobot:Bot': cannot import 'nobot': ModuleNotFoundError"),
        ([], "usage: python -m c8league.players.serve PLAYER [KEY=VALUE ...]"),
    ],
)
def test_a_bad_player_or_option_is_one_line(folder: Path, args: list[str], said: str) -> None:
    done = subprocess.run([*SERVE, *args], cwd=folder, capture_output=True, text=True, input="")
    assert done.returncode == 2
    assert said in done.stderr and done.stderr.count("\n") == 1
    assert done.stdout == ""


def test_serve_takes_a_factory_not_a_player(folder: Path) -> None:
    (folder / "wrong.py").write_text(
        "from c8league.players.greedy import GreedyPlayer\n"
        "from c8league.players.serve import serve\n"
        "serve(GreedyPlayer())\n",
        encoding="utf-8",
    )
    done = subprocess.run(
        [sys.executable, "wrong.py"], cwd=folder, capture_output=True, text=True, input=""
    )
    assert done.returncode == 2
    assert done.stderr.startswith("serve() takes the player's factory")
    assert done.stderr.count("\n") == 1


def test_its_hello_announces_what_keeps_it_faithful(folder: Path) -> None:
    hello = protocol.hello(
        seat=1,
        players=2,
        seed=9,
        rules=Rules.from_options("pagat"),
        move_time=5.0,
        startup_time=10.0,
        memory_mb=0,
    )
    done = subprocess.run(
        [*SERVE, "greedy"], cwd=folder, capture_output=True, text=True, input=hello
    )
    assert done.returncode == 0 and done.stderr == ""
    answer = protocol.read_hello(json.loads(done.stdout))
    assert (answer.name, answer.form, answer.matches) == ("greedy", "changes", True)
    assert not answer.skip_forced and not answer.concurrent


# -- the results told, read back ----------------------------------------------------------

seat_values = st.lists(st.integers(-1000, 1000), min_size=2, max_size=8).map(tuple)


@settings(max_examples=100, deadline=None)
@given(
    kind=st.sampled_from(["out", "blocked", "turn_cap"]),
    winners=st.lists(st.integers(0, 7), min_size=1, max_size=8).map(tuple),
    penalties=seat_values,
    points=seat_values,
    turns=st.integers(0, 5000),
    countdown=st.none() | seat_values,
)
def test_a_hands_result_reads_back_from_hand_end(
    kind: Any,
    winners: tuple[int, ...],
    penalties: tuple[int, ...],
    points: tuple[int, ...],
    turns: int,
    countdown: tuple[int, ...] | None,
) -> None:
    result = HandResult(kind, winners, penalties, points, turns, countdown)
    line = protocol.hand_end('"observation":{}', result)
    assert HandResult.from_dict(json.loads(line)["result"]) == result


@settings(max_examples=100, deadline=None)
@given(
    placements=seat_values,
    scores=seat_values,
    hands=st.integers(0, 500),
    ended=st.sampled_from(["target", "countdown", "hand_cap", "blocked", "turn_cap", "forfeit"]),
)
def test_a_matchs_result_reads_back_from_match_end(
    placements: tuple[int, ...], scores: tuple[int, ...], hands: int, ended: Any
) -> None:
    result = MatchResult(placements, scores, hands, ended)
    assert MatchResult.from_dict(json.loads(protocol.match_end(result))["result"]) == result


@pytest.mark.parametrize(
    ("reader", "data", "field"),
    [
        (HandResult.from_dict, {"kind": "won"}, "kind"),
        (
            HandResult.from_dict,
            {"kind": "out", "winners": [0], "penalties": [0, 3], "points": "3", "turns": 1},
            "points",
        ),
        (
            MatchResult.from_dict,
            {"placements": [1, 2], "scores": [5, 0], "ended": "target"},
            "hands",
        ),
        (MatchResult.from_dict, {"ended": "resigned"}, "ended"),
    ],
)
def test_a_result_that_does_not_read_names_its_field(
    reader: Callable[[dict[str, Any]], object], data: dict[str, Any], field: str
) -> None:
    with pytest.raises(WireError) as caught:
        reader(data)
    assert caught.value.field == field


# -- the docs' lines, as written ------------------------------------------------------------


def test_the_docs_lines_run_as_written(
    folder: Path, monkeypatch: pytest.MonkeyPatch, kept: None
) -> None:
    """docs/bots.md's league entry (its ``python`` the interpreter running these tests)
    and its last line of a bot's file, with the 20-line bot of the same page."""
    docs = Path(__file__).resolve().parents[1] / "docs"
    text = (docs / "bots.md").read_text(encoding="utf-8")
    section = text[text.index("## A Python bot you did not write: one line") :]
    entry = tomllib.loads(re.findall(r"```toml\n(.*?)```", section, flags=re.S)[0])
    (line,) = [ln for ln in section.splitlines() if ln.startswith("options = ")]
    assert line in (docs / "python-players.md").read_text(encoding="utf-8")
    last = re.findall(r"```python\n(.*?)```", section, flags=re.S)[0]
    assert last.rstrip().endswith('if __name__ == "__main__":\n    serve(EightsLast)')
    bot = next(b for b in re.findall(r"```python\n(.*?)```", text, flags=re.S) if "class " in b)
    alice = folder / "bots" / "alice"
    alice.mkdir(parents=True)
    (alice / "mybot.py").write_text(bot + "\n" + last.replace("...", "pass"), encoding="utf-8")
    for path in (folder / "bots", alice):
        path.chmod(0o755)
    (alice / "mybot.py").chmod(0o644)
    monkeypatch.chdir(folder)
    monkeypatch.setenv("PATH", f"{Path(sys.executable).parent}:{os.environ['PATH']}")
    (entrant,) = entry["entrants"]
    assert entrant["bot"] == "external"
    rules = Rules.from_options("pagat")
    EightsLast = loaded(alice / "mybot.py").EightsLast
    own = play_match(rules, [EightsLast(), GreedyPlayer()], 6)
    try:
        bot_player = ExternalPlayer(**entrant["options"])
    except PluginError as exc:  # (sandbox = "required")
        pytest.skip(f"no sandbox here: {exc}")
    assert_same(play_match(rules, [bot_player, GreedyPlayer()], 6), own)
    by_file = ExternalPlayer(["python", "mybot.py"], cwd=str(alice))
    assert_same(play_match(rules, [by_file, GreedyPlayer()], 6), own)
