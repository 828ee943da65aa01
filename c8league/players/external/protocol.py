"""The messages of the bot protocol (version :data:`PROTOCOL_VERSION`), as
``docs/protocol.md`` describes them: the lines c8league writes (``hello``,
``match_start``, ``hand_start``, ``move``, ``view``, ``hand_end``, ``match_end``,
``error``, ``quit``) and the reading of the bot's answers (``hello``, ``move`` and
``view``).

Every line written is compact JSON (no spaces, UTF-8 as is) ending with a newline. An
answer that breaks the protocol raises :class:`Violation`, whose text is the fault's
detail.
"""

from __future__ import annotations

import contextlib
import json
import json.encoder
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from c8league.engine import HandResult, MatchResult, Move, Rules, wire
from c8league.engine.wire import CHANGES, FULL, NEW, numbered
from c8league.errors import CardError

PROTOCOL_VERSION = 1
"""The protocol version c8league speaks, sent in ``hello``."""

QUIT = b'{"type":"quit"}\n'
"""The last message: the bot should exit."""


def _not_json(value: object) -> object:
    raise TypeError(f"{type(value).__name__} is not JSON")


def _encoder() -> Callable[[object], str]:
    """Compact JSON (no spaces, UTF-8 as is): ``json.dumps(value, ensure_ascii=False,
    separators=(",", ":"))``, through an encoder made once (the standard library makes
    one per call, which costs more than encoding a message)."""
    made: Any = getattr(json.encoder, "c_make_encoder", None)
    if made is None:  # pragma: no cover (no C accelerator)
        return json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode
    encode = made(
        None, _not_json, json.encoder.encode_basestring, None, ":", ",", False, False, True
    )
    return lambda value: "".join(encode(value, 0))


_dumps = _encoder()


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
    clock: tuple[float, float] | None = None,
) -> str:
    """The ``hello`` line: the seat, the table, the player's seed, the rules and the
    limits (with the match ``clock``, its seconds and increment, where one is set)."""
    message = {
        "type": "hello",
        "protocol": PROTOCOL_VERSION,
        "seat": seat,
        "players": players,
        "seed": seed,
        "rules": rules.to_options(),
        "limits": _limits(move_time, startup_time, memory_mb, clock),
    }
    return _dumps(message) + "\n"


def match_start(
    *,
    seat: int,
    players: int,
    seed: int,
    rules: Rules,
    move_time: float,
    startup_time: float,
    memory_mb: int,
    clock: tuple[float, float] | None = None,
) -> str:
    """The ``match_start`` notice to a bot that plays match after match in one process:
    what its hello said of the first match, for each later one."""
    message = {
        "type": "match_start",
        "seat": seat,
        "players": players,
        "seed": seed,
        "rules": rules.to_options(),
        "limits": _limits(move_time, startup_time, memory_mb, clock),
    }
    return _dumps(message) + "\n"


def _limits(
    move_time: float, startup_time: float, memory_mb: int, clock: tuple[float, float] | None
) -> dict[str, object]:
    limits: dict[str, object] = {
        "move_time": move_time,
        "startup_time": startup_time,
        "memory_mb": memory_mb,
    }
    if clock is not None:
        limits["clock"] = {"base": float(clock[0]), "increment": float(clock[1])}
    return limits


def with_clock(request: str, left: float, increment: float) -> str:
    """The ``move`` request ``request`` with the seat's match clock: its time ``left``
    and the ``increment`` it earns with the move."""
    clock = _dumps({"left": round(max(float(left), 0.0), 3), "increment": float(increment)})
    return request[:-2] + ',"clock":' + clock + "}\n"


def hand_start(view: str) -> str:
    """The ``hand_start`` notice, with the seat's view (see :meth:`ObservationEncoder.view`)."""
    return '{"type":"hand_start",' + view + "}\n"


def view_answer(view: str) -> str:
    """The answer to a bot's ``view`` request: its whole view."""
    return '{"type":"view",' + view + "}\n"


def hand_end(view: str, result: HandResult) -> str:
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
    return '{"type":"hand_end",' + view + ',"result":' + _dumps(outcome) + "}\n"


def match_end(result: MatchResult) -> str:
    """The ``match_end`` notice."""
    outcome = {
        "placements": list(result.placements),
        "scores": list(result.scores),
        "hands": result.hands,
        "ended": result.ended,
    }
    return _dumps({"type": "match_end", "result": outcome}) + "\n"


def error(reason: str, message: str, match: int | None = None) -> bytes:
    """The ``error`` line telling a bot why it is being stopped (naming the ``match`` of a
    concurrent bot)."""
    line = _dumps({"type": "error", "reason": reason, "message": message}) + "\n"
    return (line if match is None else numbered(line, match)).encode()


# -- reading the bot's answers --------------------------------------------------------


_MOVE = re.compile(
    rb'[ \t]*\{[ \t]*"type"[ \t]*:[ \t]*"move"[ \t]*,[ \t]*"'
    rb'(?:index"[ \t]*:[ \t]*(0|[1-9][0-9]{0,8})|move"[ \t]*:[ \t]*"([^"\\\x00-\x1f]*)")'
    rb"[ \t]*\}[ \t\r]*"
)
"""A move answer of the usual shape (``{"type": "move", "index": 3}``, or with ``"move"``
and a text without escapes), read without the JSON parser: it reads the same."""


_NUMBERED_MOVE = re.compile(
    rb'[ \t]*\{[ \t]*"type"[ \t]*:[ \t]*"move"[ \t]*,[ \t]*"match"[ \t]*:[ \t]*(0|[1-9][0-9]{0,17})'
    rb'[ \t]*,[ \t]*"index"[ \t]*:[ \t]*(0|[1-9][0-9]{0,8})[ \t]*\}[ \t\r]*'
)
"""A concurrent bot's move answer of the usual shape (``{"type":"move","match":7,
"index":3}``), read without the JSON parser."""


def numbered_index(line: bytes) -> tuple[int, int] | None:
    """A concurrent bot's move answer of the usual shape (``{"type":"move","match":7,
    "index":3}``) as its match and index; None for any other line (read it with
    :func:`answer`)."""
    compact = wire.compact_answer(line)  # (as nearly every bot writes it, read faster)
    if compact is not None:
        return compact
    usual = _NUMBERED_MOVE.fullmatch(line)
    if usual is None:
        return None
    match, index = usual.groups()
    return int(match), int(index)


def answer(line: bytes, *kinds: str) -> dict[str, Any]:
    """The bot's answer ``line`` to a request, read: its ``type`` must be one of ``kinds``
    (``hello``; ``move``, or ``view`` to ask for its whole view first)."""
    if kinds[0] == "move":
        usual = _MOVE.fullmatch(line)
        if usual is not None:
            index, text = usual.groups()
            if index is not None:
                return {"type": "move", "index": int(index)}
            with contextlib.suppress(UnicodeDecodeError):
                return {"type": "move", "move": text.decode()}
        numbered_move = _NUMBERED_MOVE.fullmatch(line)
        if numbered_move is not None:
            match, index = numbered_move.groups()
            return {"type": "move", "match": int(match), "index": int(index)}
    try:
        message = json.loads(line)
    except ValueError:
        raise Violation(f"not a JSON line: {clip(line)}") from None
    if not isinstance(message, dict) or message.get("type") not in kinds:
        raise Violation(f'expected {{"type":"{kinds[0]}", ...}}, got {clip(line)}')
    return message


MATCH_START, SKIP_FORCED, CONCURRENT = "match_start", "skip_forced", "concurrent"
CAPABILITIES = (MATCH_START, CHANGES, SKIP_FORCED, CONCURRENT)
"""What a bot may announce in its hello's ``capabilities`` (others are ignored): it
plays match after match in one process (:data:`MATCH_START`); it takes its view as
changes (:data:`CHANGES`); it need not be asked for a move when there is only one
legal move (:data:`SKIP_FORCED`: c8league plays it, and the bot sees it in its next
view); with :data:`MATCH_START`, it plays several matches at once, each message naming
its match (:data:`CONCURRENT`)."""


@dataclass(frozen=True)
class Hello:
    """What a bot says of itself in its ``hello``."""

    name: str
    version: str
    form: str
    """How it is shown its view: :data:`FULL`, :data:`NEW` or :data:`CHANGES`."""
    matches: bool = False
    """It plays match after match in one process (:data:`MATCH_START`)."""
    skip_forced: bool = False
    """It need not be asked for a forced move (:data:`SKIP_FORCED`)."""
    concurrent: bool = False
    """It plays several matches at once, each message naming its match
    (:data:`CONCURRENT`, with :data:`MATCH_START`)."""


def read_hello(message: dict[str, Any]) -> Hello:
    """The bot's ``hello`` answer, checked."""
    protocol = message.get("protocol", PROTOCOL_VERSION)
    if protocol != PROTOCOL_VERSION:
        raise Violation(f"the bot speaks protocol {protocol!r}, c8league speaks 1")
    history = message.get("history", FULL)
    if history not in (FULL, NEW):
        raise Violation(f'hello "history" must be "full" or "new", not {history!r}')
    name, version = message.get("name", ""), message.get("version", "")
    if not isinstance(name, str) or not isinstance(version, str):
        raise Violation('hello "name" and "version" must be strings')
    capabilities = message.get("capabilities", [])
    if not isinstance(capabilities, list) or not all(isinstance(c, str) for c in capabilities):
        raise Violation('hello "capabilities" must be a list of strings')
    form = CHANGES if CHANGES in capabilities else history
    matches = MATCH_START in capabilities
    return Hello(
        name,
        version,
        form,
        matches,
        SKIP_FORCED in capabilities,
        matches and CONCURRENT in capabilities,
    )


def match_of(message: dict[str, Any]) -> int:
    """The match a concurrent bot's answer names (its ``"match"``)."""
    match = message.get("match")
    if type(match) is not int:
        raise Violation(
            f'a concurrent bot\'s {message.get("type")} answer needs its "match" number'
        )
    return match


def read_move(
    message: dict[str, Any], legal: Sequence[Move], texts: list[str] | None = None
) -> tuple[Move, bool]:
    """The move a ``move`` answer names (by ``index`` into ``legal``, or by its text,
    ``texts`` being those of ``legal``, written here if not given) and whether it is
    legal: a well-formed move that is not legal is the bot's illegal move, not a
    protocol fault."""
    index = message.get("index")
    if index is not None:
        if type(index) is not int or not 0 <= index < len(legal):
            raise Violation(f"index {index!r} is not between 0 and {len(legal) - 1}")
        return legal[index], True
    text = message.get("move")
    if not isinstance(text, str):
        raise Violation('a move answer needs "move" (the move text) or "index"')
    try:
        return legal[(texts or wire.texts(legal)).index(text)], True
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
