"""The repository's bots that play several matches at once (the capability
``concurrent``): ``benchmarks/random_bot.py``, ``benchmarks/random_bot.c`` and the
Node.js example, driven through pipes with a hand-built script, as ``docs/protocol.md``
describes it; and the page's own concurrent bot, on the page's excerpt.

Two matches with different seeds are started, then their move requests are written
interleaved in one write. Every answer names its request's match, the answers come in
the order of the requests, no ``match_start`` is answered, and each match's choices are
those of the same match played alone: what a bot draws at random, and the view it keeps
from the changes, are its match's own. The same matches, sent as a c8league that ignores
``concurrent`` sends them (no ``"match"``, ``match_start`` answered), get the same choices.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
NODE_BOT = ROOT / "plugins" / "c8league-node-example" / "src" / "c8league_node_example" / "bot.js"

SUITS = "CDHS"

HELLO = {
    "type": "hello",
    "protocol": 1,
    "seat": 0,
    "players": 2,
    "seed": 0,
    "rules": {},
    "limits": {"move_time": 5.0, "startup_time": 10.0, "memory_mb": 1024},
}


def line(message: dict[str, Any]) -> str:
    """A message as c8league writes it: compact JSON, ``"match"`` right after ``"type"``."""
    return json.dumps(message, separators=(",", ":")) + "\n"


def with_match(kind: str, match: int | None, **fields: Any) -> dict[str, Any]:
    head: dict[str, Any] = {"type": kind}
    if match is not None:
        head["match"] = match
    return head | fields


def observation(
    hand: list[str], top: str, suit: str, turn: int, history: list[Any]
) -> dict[str, Any]:
    return {
        "seat": 0,
        "players": 2,
        "dealer": 0,
        "current": 1 if turn == 0 else 0,
        "phase": 1,
        "hand": hand,
        "top": top,
        "suit": suit,
        "wild_top": False,
        "pending": 0,
        "pending_kind": None,
        "direction": 1,
        "hand_sizes": [len(hand), 5],
        "stock_size": 40 - turn,
        "discard_size": 1 + turn,
        "drawn": 0,
        "drawn_card": None,
        "turn": turn,
        "scores": [0, 0],
        "wild_ranks": ["8", "8"],
        "target": 1,
        "hand_number": 0,
        "history": history,
    }


class Match:
    """A hand-built match: its seed, the view of its hand's start, and its move
    requests, each with the changes since the last view shown and the legal moves (the
    cards of the suit to follow or of the top's rank, the eights, and a draw)."""

    def __init__(self, seed: int, hand: list[str], tops: list[str]) -> None:
        self.seed = seed
        history: list[Any] = []
        shown = observation(hand, tops[0], tops[0][-1], 0, [])
        self.start = dict(shown)
        self.requests: list[tuple[dict[str, Any], list[Any], list[str]]] = []
        for turn, top in enumerate(tops[1:], start=1):
            history = [*history, [1, top]]
            view = observation(hand, top, top[-1], turn, history)
            changes = {
                key: value
                for key, value in view.items()
                if key != "history" and shown[key] != value
            }
            legal = [
                card
                for card in hand
                if card[0] != "8" and (card[-1] == top[-1] or card[:-1] == top[:-1])
            ]
            legal += [f"{card}:{suit}" for card in hand if card[0] == "8" for suit in SUITS]
            self.requests.append((changes, history[len(shown["history"]) :], [*legal, "draw"]))
            shown = view

    def opening(self, match: int | None) -> list[str]:
        """The lines that start the match (``match_start`` when ``match`` is given)."""
        start = with_match("match_start", match, **{k: v for k, v in HELLO.items() if k != "type"})
        start["seed"] = self.seed
        return [line(start), line(with_match("hand_start", match, observation=self.start))]

    def request(self, match: int | None, index: int) -> str:
        changes, new_history, legal = self.requests[index]
        return line(
            with_match("move", match, changes=changes, new_history=new_history, legal=legal)
        )


# Two matches whose hands, seeds and suits to follow differ: a bot that mixed their
# random numbers or their views would choose otherwise than in each match alone.
FIRST = Match(
    4847396843033098441,
    ["9D", "3C", "7C", "JC", "4D", "5H", "KH", "6S", "8H"],
    ["10C", "9C", "4C", "QD", "5D", "5H", "6H", "KS", "6C"],
)
SECOND = Match(
    6183604986340860227,
    ["2C", "QC", "KD", "10D", "10H", "JH", "4S", "7S", "8D"],
    ["5H", "9H", "9S", "AS", "AD", "3D", "3C", "6C", "6H"],
)
NUMBERS = (7, 8)


def run(command: list[str], script: str) -> list[dict[str, Any]]:
    """The bot's answers to the hello, then to ``script`` written in one go."""
    bot = subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        assert bot.stdin is not None and bot.stdout is not None
        bot.stdin.write(line(HELLO))
        bot.stdin.flush()
        hello = json.loads(bot.stdout.readline())
        out, err = bot.communicate(script + line({"type": "quit"}), timeout=30)
    finally:
        if bot.poll() is None:
            bot.kill()
            bot.wait()
    assert bot.returncode == 0, err
    assert hello["type"] == "hello"
    assert {"match_start", "concurrent"} <= set(hello["capabilities"])
    return [json.loads(text) for text in out.splitlines()]


def choice(answer: dict[str, Any]) -> Any:
    assert answer["type"] == "move"
    return answer.get("index", answer.get("move"))


def alone(command: list[str], match: Match, number: int) -> list[Any]:
    """The choices of the bot in one match, alone in its process."""
    script = match.opening(number)
    script += [match.request(number, i) for i in range(len(match.requests))]
    answers = run(command, "".join(script))
    assert [a["match"] for a in answers] == [number] * len(match.requests)
    return [choice(a) for a in answers]


@pytest.fixture(scope="module", params=["python", "c", "node"])
def command(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    if request.param == "python":
        return [sys.executable, str(ROOT / "benchmarks" / "random_bot.py")]
    if request.param == "c":
        cc = shutil.which("cc")
        if cc is None:
            pytest.skip("no C compiler (cc)")
        binary = tmp_path_factory.mktemp("c") / "random_bot"
        subprocess.run(
            [cc, "-O2", "-o", str(binary), str(ROOT / "benchmarks" / "random_bot.c")], check=True
        )
        return [str(binary)]
    node = shutil.which("node")
    if node is None:
        pytest.skip("Node.js is not installed")
    return [node, str(NODE_BOT)]


def test_interleaved_matches_play_as_alone(command: list[str]) -> None:
    first, second = NUMBERS
    script = FIRST.opening(first) + SECOND.opening(second)
    order = []
    for index in range(len(FIRST.requests)):
        script += [FIRST.request(first, index), SECOND.request(second, index)]
        order += [first, second]
    answers = run(command, "".join(script))

    # One answer a request, in the order of the requests; none to match_start.
    assert [a["match"] for a in answers] == order
    chosen = {number: [choice(a) for a in answers if a["match"] == number] for number in NUMBERS}
    assert chosen[first] == alone(command, FIRST, first)
    assert chosen[second] == alone(command, SECOND, second)
    assert chosen[first] != chosen[second]  # the matches are told apart


def test_matches_without_numbers(command: list[str]) -> None:
    """Sent as a c8league that ignores ``concurrent`` sends them, one after the other
    with no ``"match"`` (the first begun by the hello, the next by a ``match_start`` that
    is answered), the same matches get the same choices, in answers with no ``"match"``."""
    hello_first = {**HELLO, "seed": FIRST.seed}
    second_start, second_view = SECOND.opening(None)
    script = [FIRST.opening(None)[1]]
    script += [FIRST.request(None, i) for i in range(len(FIRST.requests))]
    script += [line({"type": "match_end", "result": {}}), second_start, second_view]
    script += [SECOND.request(None, i) for i in range(len(SECOND.requests))]
    bot = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    out, _ = bot.communicate(
        line(hello_first) + "".join(script) + line({"type": "quit"}), timeout=30
    )
    assert bot.returncode == 0
    answers = [json.loads(text) for text in out.splitlines()]
    assert all("match" not in a for a in answers)
    kinds = [a["type"] for a in answers]
    count = len(FIRST.requests)
    assert kinds == ["hello", *["move"] * count, "match_start", *["move"] * count]
    first, second = NUMBERS
    assert [choice(a) for a in answers[1 : 1 + count]] == alone(command, FIRST, first)
    assert [choice(a) for a in answers[2 + count :]] == alone(command, SECOND, second)


def test_the_pages_concurrent_bot_answers_as_its_excerpt(tmp_path: Path) -> None:
    """The concurrent bot of docs/protocol.md, given the lines c8league writes in the
    excerpt of two matches at once (the rules, shortened there, left empty), answers
    what the excerpt shows, line for line."""
    page = (ROOT / "docs" / "protocol.md").read_text()
    section = page[page.index("## Many matches at once") :]
    start = section.index("```\n") + 4
    excerpt = section[start : section.index("```", start)].splitlines()
    assert len(excerpt) > 20
    blocks = [text.split("```")[0] for text in page.split("```python\n")[1:]]
    source = next(block for block in blocks if '"concurrent"' in block)
    (tmp_path / "bot.py").write_text(source)
    written = "".join(
        text[2:].replace("{...}", "{}") + "\n" for text in excerpt if text[:2] == "> "
    )
    done = subprocess.run(
        [sys.executable, str(tmp_path / "bot.py")],
        input=written,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [text[2:] for text in excerpt if text[:2] == "< "]
