"""The messages of the bot protocol (version :data:`PROTOCOL_VERSION`), as
``docs/protocol.md`` describes them: the lines c8league writes (``hello``,
``hand_start``, ``move``, ``hand_end``, ``match_end``, ``error``, ``quit``) and the
reading of the bot's answers (``hello`` and ``move``).

Every line written is compact JSON (no spaces, UTF-8 as is) ending with a newline. An
answer that breaks the protocol raises :class:`Violation`, whose text is the fault's
detail.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from c8league.engine import HandResult, MatchResult, Move, Observation, Rules
from c8league.errors import CardError

PROTOCOL_VERSION = 1
"""The protocol version c8league speaks, sent in ``hello``."""

QUIT = b'{"type":"quit"}\n'
"""The last message: the bot should exit."""

_dumps = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode


class Violation(Exception):
    """The bot's answer breaks the protocol; the text says how."""


# -- what c8league writes -------------------------------------------------------------


def hello(
    *,
    seat: int,
    players: int,
    seed: int,
    rules: Rules,
    move_time: float,
    startup_time: float,
    memory_mb: int,
) -> str:
    """The ``hello`` line: the seat, the table, the player's seed, the rules and the
    limits."""
    message = {
        "type": "hello",
        "protocol": PROTOCOL_VERSION,
        "seat": seat,
        "players": players,
        "seed": seed,
        "rules": rules.to_options(),
        "limits": {
            "move_time": move_time,
            "startup_time": startup_time,
            "memory_mb": memory_mb,
        },
    }
    return _dumps(message) + "\n"


def hand_start(observation: str) -> str:
    """The ``hand_start`` notice, with the observation's JSON text."""
    return '{"type":"hand_start","observation":' + observation + "}\n"


def move_request(observation: str, legal: list[str]) -> str:
    """The ``move`` request: the observation's JSON text and the legal moves' texts."""
    return '{"type":"move","observation":' + observation + ',"legal":' + _dumps(legal) + "}\n"


def hand_end(observation: str, result: HandResult) -> str:
    """The ``hand_end`` notice: the seat's final view and the hand's public result."""
    countdown = result.countdown_scores
    outcome = {
        "kind": result.kind,
        "winners": list(result.winners),
        "points": list(result.points),
        "penalties": list(result.penalties),
        "turns": result.turns,
        "countdown_scores": None if countdown is None else list(countdown),
    }
    return (
        '{"type":"hand_end","observation":' + observation + ',"result":' + _dumps(outcome) + "}\n"
    )


def match_end(result: MatchResult) -> str:
    """The ``match_end`` notice."""
    outcome = {
        "placements": list(result.placements),
        "scores": list(result.scores),
        "hands": result.hands,
        "ended": result.ended,
    }
    return _dumps({"type": "match_end", "result": outcome}) + "\n"


def error(reason: str, message: str) -> bytes:
    """The ``error`` line telling a bot why it is being stopped."""
    return (_dumps({"type": "error", "reason": reason, "message": message}) + "\n").encode()


class ObservationEncoder:
    """The JSON text of ``Observation.to_dict()``, reusing the text of the history
    already encoded for this hand; with ``incremental`` it sends only the new moves
    (``history_start`` and ``new_history`` in place of ``history``)."""

    __slots__ = ("_count", "_hand", "_parts", "incremental")

    def __init__(self) -> None:
        self.incremental = False
        self._hand = -1
        self._count = 0
        self._parts: list[str] = []

    def encode(self, obs: Observation) -> str:
        n = len(obs.history)
        if obs.hand_number != self._hand or n < self._count:
            self._hand = obs.hand_number
            self._count = 0
            self._parts = []
        start = self._count
        if n > start:
            self._parts.extend([_dumps(e) for e in obs.history_json(start)])
            self._count = n
        head = _dumps(obs.to_dict(history=False))
        if self.incremental:
            moves = ",".join(self._parts[start:])
            return f'{head[:-1]},"history_start":{start},"new_history":[{moves}]}}'
        return f'{head[:-1]},"history":[{",".join(self._parts)}]}}'


# -- reading the bot's answers --------------------------------------------------------


def answer(line: bytes, kind: str) -> dict[str, Any]:
    """The bot's answer ``line`` to a ``kind`` request (``hello`` or ``move``), read."""
    try:
        message = json.loads(line)
    except ValueError:
        raise Violation(f"not a JSON line: {clip(line)}") from None
    if not isinstance(message, dict) or message.get("type") != kind:
        raise Violation(f'expected {{"type":"{kind}", ...}}, got {clip(line)}')
    return message


@dataclass(frozen=True)
class Hello:
    """What a bot says of itself in its ``hello``."""

    name: str
    version: str
    incremental: bool
    """It asked for the history as new moves only (``"history": "new"``)."""


def read_hello(message: dict[str, Any]) -> Hello:
    """The bot's ``hello`` answer, checked."""
    protocol = message.get("protocol", PROTOCOL_VERSION)
    if protocol != PROTOCOL_VERSION:
        raise Violation(f"the bot speaks protocol {protocol!r}, c8league speaks 1")
    history = message.get("history", "full")
    if history not in ("full", "new"):
        raise Violation(f'hello "history" must be "full" or "new", not {history!r}')
    name, version = message.get("name", ""), message.get("version", "")
    if not isinstance(name, str) or not isinstance(version, str):
        raise Violation('hello "name" and "version" must be strings')
    return Hello(name, version, history == "new")


def read_move(
    message: dict[str, Any], legal: Sequence[Move], texts: list[str]
) -> tuple[Move, bool]:
    """The move a ``move`` answer names (by ``index`` into ``legal``, or by its text,
    ``texts`` being those of ``legal``) and whether it is legal: a well-formed move
    that is not legal is the bot's illegal move, not a protocol fault."""
    index = message.get("index")
    if index is not None:
        if type(index) is not int or not 0 <= index < len(legal):
            raise Violation(f"index {index!r} is not between 0 and {len(legal) - 1}")
        return legal[index], True
    text = message.get("move")
    if not isinstance(text, str):
        raise Violation('a move answer needs "move" (the move text) or "index"')
    try:
        return legal[texts.index(text)], True
    except ValueError:
        pass
    try:
        move = Move.parse(text)
    except CardError:
        raise Violation(f"{text!r} is not a move (e.g. QS, 8H:S, 9C+9D, 5S!, draw)") from None
    return move, move in legal


def clip(line: bytes, size: int = 120) -> str:
    """A line from the bot, quoted and shortened for a fault's detail."""
    text = line.decode("utf-8", "replace").strip()
    return repr(text if len(text) <= size else text[:size] + "...")
