"""The ``external`` player: bots run as subprocesses speaking JSON lines.

A good bot plays whole matches under every preset; each broken bot in ``tests/bots``
forfeits with the right reason at the right decision, quickly, leaving no process
behind; the messages a bot receives follow ``docs/protocol.md``.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from c8league.engine import Match, Rules, derive_seed, placements
from c8league.engine.wire import CHANGES, NEW, ObservationEncoder
from c8league.errors import PluginError
from c8league.players import registry
from c8league.players.external import ExternalPlayer
from c8league.players.greedy import GreedyPlayer
from c8league.players.random_player import RandomPlayer
from c8league.runner.loop import play_match

BOTS = Path(__file__).parent / "bots"
PRESETS = ["pagat", "basic", "encyclopedia", "olsen", "countdown"]


def bot(script: str, *args: str, **options: Any) -> ExternalPlayer:
    options.setdefault("move_time", 2.0)
    options.setdefault("startup_time", 5.0)
    return ExternalPlayer([sys.executable, str(BOTS / script), *args], **options)


def gone(pid: int | None) -> bool:
    """The process has ended (a zombie left to init counts as ended)."""
    assert pid is not None
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(") ")[1].startswith("Z")
    except (OSError, IndexError):
        return True


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("flags", [(), ("--new-history",), ("--changes",), ("--index",)], ids=str)
def test_good_bot_plays_full_matches(preset: str, flags: tuple[str, ...]) -> None:
    rules = Rules.from_options(preset)
    for players in (2, 3):
        player = bot("good.py", *flags, move_time=5.0)
        table = [GreedyPlayer(), player, *(RandomPlayer() for _ in range(players - 2))]
        outcome = play_match(rules, table, seed=players)
        assert outcome.forfeit is None, outcome.forfeit
        assert outcome.result.ended != "forfeit"
        assert player.name == player.bot_name == "good"
        assert player.returncode == 0
        assert gone(player.pid)


def test_messages_follow_the_protocol(tmp_path: Path) -> None:
    rules = Rules.from_options("pagat")
    player = bot("good.py", log_dir=str(tmp_path), env={"BOT_ECHO": "1"})
    outcome = play_match(rules, [player, GreedyPlayer()], seed=11)
    assert outcome.forfeit is None
    assert player.stderr_path is not None and Path(player.stderr_path).parent == tmp_path
    received = [json.loads(line) for line in Path(player.stderr_path).read_text().splitlines()]
    kinds = [m["type"] for m in received]

    hello = received[0]
    assert hello == {
        "type": "hello",
        "protocol": 1,
        "seat": 0,
        "players": 2,
        "seed": derive_seed(11, "player", 0),
        "rules": rules.to_options(),
        "limits": {"move_time": 2.0, "startup_time": 5.0, "memory_mb": 1024},
    }
    assert kinds[1] == "hand_start" and kinds[-2:] == ["match_end", "quit"]
    assert kinds.count("hand_start") == kinds.count("hand_end") == outcome.result.hands
    moves = [m for m in received if m["type"] == "move"]
    histories = [record.replay(rules).history for record in outcome.records]
    assert len(moves) == sum(1 for history in histories for seat, _ in history if seat == 0)
    keys = set(Match(rules, 2, 0).observation(0).to_dict())
    assert all(set(m["observation"]) == keys and m["legal"] for m in moves)
    assert all(m["observation"]["current"] == 0 for m in moves)
    end = next(m for m in received if m["type"] == "hand_end")
    assert set(end["result"]) >= {"kind", "winners", "points", "penalties"}
    assert received[-2]["result"] == {
        "placements": list(outcome.result.placements),
        "scores": list(outcome.result.scores),
        "hands": outcome.result.hands,
        "ended": outcome.result.ended,
    }


@pytest.mark.parametrize("preset", PRESETS)
def test_observation_text_is_to_dict(preset: str) -> None:
    """The JSON sent equals ``Observation.to_dict()``; the incremental history adds up."""
    rules = Rules.from_options(preset)
    match = Match(rules, 3, seed=5)
    full = [ObservationEncoder() for _ in range(3)]
    new = [ObservationEncoder(NEW) for _ in range(3)]
    history: list[list[Any]] = [[], [], []]
    greedy = GreedyPlayer()
    for _ in range(400):
        if match.over:
            break
        for seat in range(3):
            obs = match.observation(seat)
            expected = obs.to_dict()
            assert json.loads(full[seat].encode(obs)) == expected
            sent = json.loads(new[seat].encode(obs))
            if sent["history_start"] == 0:
                history[seat] = []
            assert sent["history_start"] == len(history[seat])
            history[seat] += sent.pop("new_history")
            sent.pop("history_start")
            assert {**sent, "history": history[seat]} == expected
        seat = match.current
        match.apply(greedy.choose(match.observation(seat), match.legal_moves()))


@pytest.mark.parametrize("preset", PRESETS)
def test_changes_add_up_to_the_observation(preset: str) -> None:
    """In the ``changes`` form a view is whole at the start of each hand and when asked
    for; otherwise the fields that changed and the new moves, which add up to
    ``Observation.to_dict()``, and whose size does not grow with the hand."""
    rules = Rules.from_options(preset)
    match = Match(rules, 3, seed=5)
    encoders = [ObservationEncoder(CHANGES) for _ in range(3)]
    views: list[dict[str, Any]] = [{}, {}, {}]
    sizes: list[int] = []
    greedy = GreedyPlayer()
    for step in range(600):
        if match.over:
            break
        for seat in range(3):
            obs = match.observation(seat)
            text = encoders[seat].view(obs, whole=step == 150)
            sent = json.loads("{" + text + "}")
            if "observation" in sent:
                views[seat] = sent["observation"]
            else:
                views[seat] = {**views[seat], **sent["changes"]}
                views[seat]["history"] = views[seat]["history"] + sent["new_history"]
                sizes.append(len(text))
            assert views[seat] == obs.to_dict()
        seat = match.current
        match.apply(greedy.choose(match.observation(seat), match.legal_moves()))
    assert max(sizes) < 400


def _compact(value: object) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


@pytest.mark.parametrize("preset", PRESETS)
def test_views_are_written_as_json_dumps_writes_them(preset: str) -> None:
    """The encoder writes each field's text itself (again only when it changed): the
    text is, byte for byte, ``json.dumps`` of ``Observation.to_dict()`` (compact), and in
    the ``changes`` form of the fields that changed since the last view, in order."""
    rules = Rules.from_options(preset)
    for seed in range(4):
        match = Match(rules, 4, seed=seed)
        full = [ObservationEncoder() for _ in range(4)]
        changes = [ObservationEncoder(CHANGES) for _ in range(4)]
        last: list[dict[str, Any] | None] = [None] * 4
        shown = [0] * 4
        player = RandomPlayer(seed=seed, playable_first=True)
        for step in range(300):
            if match.over:
                break
            for seat in ((step // 2) % 4, match.current):
                obs = match.observation(seat)
                whole = obs.to_dict()
                assert full[seat].encode(obs) == _compact(whole)
                fields = obs.to_dict(history=False)
                before = last[seat]
                text = changes[seat].view(obs)
                if before is None or before["hand_number"] != fields["hand_number"]:
                    assert text == '"observation":' + _compact(whole)
                else:
                    changed = {k: v for k, v in fields.items() if before[k] != v}
                    new = whole["history"][shown[seat] :]
                    sent = _compact({"changes": changed, "new_history": new})
                    assert text == sent[1:-1]
                last[seat], shown[seat] = fields, len(whole["history"])
            seat = match.current
            match.apply(player.choose(match.observation(seat), match.legal_moves()))


# script, arguments, options, reason, decision number, words in the detail
BROKEN = [
    ("crash_at_start.py", (), {}, "crash", 0, "exited with code 1"),
    ("no_handshake.py", (), {"startup_time": 1.0}, "timeout", 0, "no hello within 1 s"),
    ("slow_move.py", (), {"move_time": 0.5}, "timeout", 3, "no move within 0.5 s"),
    ("garbage.py", (), {}, "protocol", 1, "not a JSON line"),
    ("garbage.py", ("type",), {}, "protocol", 1, 'expected {"type":"move"'),
    ("garbage.py", ("index",), {}, "protocol", 1, "is not between 0 and"),
    ("garbage.py", ("move",), {}, "protocol", 1, "is not a move"),
    ("garbage.py", ("notice",), {}, "protocol", 1, "ok"),
    ("illegal.py", (), {}, "illegal", 2, "is not a legal move"),
    ("exits_mid_match.py", (), {}, "crash", 4, "exited with code 3"),
    ("memory_hog.py", (), {"memory_mb": 128}, "memory", 2, "MemoryError"),
]


each_broken_bot = pytest.mark.parametrize(
    ("script", "args", "options", "reason", "number", "words"),
    BROKEN,
    ids=[f"{b[0]}-{b[3]}{'-' + b[1][0] if b[1] else ''}" for b in BROKEN],
)
"""Each broken bot of :data:`BROKEN`, with the forfeit it must give."""


@each_broken_bot
def test_broken_bot_forfeits(
    script: str,
    args: tuple[str, ...],
    options: dict[str, Any],
    reason: str,
    number: int,
    words: str,
    tmp_path: Path,
) -> None:
    player = bot(script, *args, log_dir=str(tmp_path), **options)
    outcome = play_match(Rules.from_options("pagat"), [player, GreedyPlayer(), RandomPlayer()], 3)
    forfeit = outcome.forfeit
    assert forfeit is not None
    assert (forfeit.seat, forfeit.reason, forfeit.move_number) == (0, reason, number)
    assert words in forfeit.detail
    if reason != "illegal":  # the loop words the illegal move's detail itself
        assert f"stderr log: {player.stderr_path}" in forfeit.detail
        assert player.stderr_path is not None and os.path.exists(player.stderr_path)
    assert gone(player.pid)
    result = outcome.result
    assert result.ended == "forfeit" and result.placements[0] == 3
    assert result.placements[1:] == placements(result.scores[1:])


def test_bot_is_told_why_it_is_stopped(tmp_path: Path) -> None:
    player = bot("garbage.py", log_dir=str(tmp_path), env={"BOT_ECHO": "1"})
    outcome = play_match(Rules.from_options("pagat"), [player, GreedyPlayer()], 1)
    assert outcome.forfeit is not None and outcome.forfeit.reason == "protocol"
    assert player.stderr_path is not None
    last = json.loads(Path(player.stderr_path).read_text().splitlines()[-1])
    assert last["type"] == "error" and last["reason"] == "protocol"
    assert "not a JSON line" in last["message"]
    assert player.returncode == 0  # it read the error, then its input closed


def test_missing_program_forfeits_at_once() -> None:
    player = ExternalPlayer(["/nonexistent/c8league-bot"])
    outcome = play_match(Rules.from_options("pagat"), [player, GreedyPlayer()], 1)
    assert outcome.forfeit is not None
    assert (outcome.forfeit.reason, outcome.forfeit.move_number) == ("crash", 0)
    assert "cannot start" in outcome.forfeit.detail


def test_a_bot_that_will_not_leave_is_killed_with_its_children(tmp_path: Path) -> None:
    player = bot("lingers.py", log_dir=str(tmp_path), sandbox="off")  # (host process ids)
    player.grace_time = 0.2
    outcome = play_match(Rules.from_options("basic"), [player, GreedyPlayer()], 2)
    assert outcome.forfeit is None
    assert player.returncode is not None and player.returncode < 0  # killed
    assert player.stderr_path is not None
    child = int(Path(player.stderr_path).read_text().split()[1])
    assert gone(player.pid)
    deadline = time.monotonic() + 2.0  # the child is killed, not waited for: not ours to reap
    while not gone(child) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert gone(child)


def test_stderr_log_is_kept_only_when_written() -> None:
    quiet = bot("good.py")
    assert play_match(Rules.from_options("basic"), [quiet, GreedyPlayer()], 1).forfeit is None
    assert quiet.stderr_path is not None and not os.path.exists(quiet.stderr_path)
    talkative = bot("good.py", env={"BOT_ECHO": "1"})
    assert play_match(Rules.from_options("basic"), [talkative, GreedyPlayer()], 1).forfeit is None
    assert talkative.stderr_path is not None
    assert '"type":"hello"' in Path(talkative.stderr_path).read_text()
    os.unlink(talkative.stderr_path)


def test_one_player_plays_match_after_match() -> None:
    player = bot("good.py")
    pids = []
    for seed in range(2):
        assert (
            play_match(Rules.from_options("basic"), [player, GreedyPlayer()], seed).forfeit is None
        )
        pids.append(player.pid)
    assert pids[0] != pids[1] and all(gone(p) for p in pids)


def test_choose_without_start_match_starts_the_bot() -> None:
    match = Match(Rules.from_options("pagat"), 2, 4)
    player = bot("good.py")
    try:
        move = player.choose(match.observation(match.current), match.legal_moves())
        assert move == match.legal_moves()[0]
    finally:
        player.close()
    assert gone(player.pid)


def test_created_from_text_options() -> None:
    with registry.only_registered({"external": ExternalPlayer}):
        player = registry.create(
            "external",
            {
                "command": f"{sys.executable} {BOTS / 'good.py'} --index",
                "move_time": "3.5",
                "memory_mb": "256",
            },
        )
    assert isinstance(player, ExternalPlayer)
    assert player.command[-1] == "--index" and player.move_time == 3.5
    assert player.memory_mb == 256
    assert play_match(Rules.from_options("olsen"), [player, GreedyPlayer()], 1).forfeit is None


@pytest.mark.parametrize(
    "options",
    [{"command": ""}, {"command": "bot", "move_time": 0}, {"command": "bot", "memory_mb": -1}],
)
def test_bad_options(options: dict[str, Any]) -> None:
    with pytest.raises(PluginError):
        ExternalPlayer(**options)
