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
import operator
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from c8league.engine import HandResult, MatchResult, Move, Observation, Rank, Rules
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


def match_start(
    *,
    seat: int,
    players: int,
    seed: int,
    rules: Rules,
    move_time: float,
    startup_time: float,
    memory_mb: int,
) -> str:
    """The ``match_start`` notice to a bot that plays match after match in one process:
    what its hello said of the first match, for each later one."""
    message = {
        "type": "match_start",
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


def numbered(line: str, match: int) -> str:
    """``line`` (any message c8league writes, ``{"type":"...",...}``) naming the match
    ``match`` of a concurrent bot: ``"match"`` right after ``"type"``."""
    at = line.index('"', 9) + 1
    return line[:at] + ',"match":' + int.__repr__(match) + line[at:]


def hand_start(view: str) -> str:
    """The ``hand_start`` notice, with the seat's view (see :meth:`ObservationEncoder.view`)."""
    return '{"type":"hand_start",' + view + "}\n"


def move_request(view: str, legal: list[str]) -> str:
    """The ``move`` request: the seat's view and the legal moves' texts (which hold no
    character that JSON escapes: they are written as they are)."""
    return '{"type":"move",' + view + ',"legal":["' + '","'.join(legal) + '"]}\n'


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


FULL, NEW, CHANGES = "full", "new", "changes"
"""How a bot is shown its view (see :class:`ObservationEncoder`)."""


def _ints(values: Sequence[int]) -> str:
    return "[" + ",".join([int.__repr__(v) for v in values]) + "]"


def _texts(values: Sequence[object]) -> str:
    """A list of cards (or ranks, suits) as JSON: their texts hold no character that
    JSON escapes."""
    return '["' + '","'.join([str(v) for v in values]) + '"]' if values else "[]"


def _text_or_null(value: object) -> str:
    return "null" if value is None else '"' + str(value) + '"'


def _ranks(values: Sequence[Rank | None]) -> str:
    return "[" + ",".join(["null" if r is None else '"' + r.label + '"' for r in values]) + "]"


def _bool(value: bool) -> str:
    return "true" if value else "false"


_FIELDS: tuple[tuple[str, Callable[[Any], str]], ...] = (
    ("seat", int.__repr__),
    ("players", int.__repr__),
    ("dealer", int.__repr__),
    ("current", int.__repr__),
    ("phase", int.__repr__),
    ("hand", _texts),
    ("top", _text_or_null),
    ("suit", _text_or_null),
    ("wild_top", _bool),
    ("pending", int.__repr__),
    ("pending_kind", _dumps),
    ("direction", int.__repr__),
    ("hand_sizes", _ints),
    ("stock_size", int.__repr__),
    ("discard_size", int.__repr__),
    ("drawn", int.__repr__),
    ("drawn_card", _text_or_null),
    ("turn", int.__repr__),
    ("scores", _ints),
    ("wild_ranks", _ranks),
    ("target", int.__repr__),
    ("hand_number", int.__repr__),
)
"""The fields of ``Observation.to_dict()`` but the history, in its order, each with
the writing of its value as JSON text (what ``to_dict`` then ``json.dumps`` give)."""

_read_fields = operator.attrgetter(*[name for name, _ in _FIELDS])
_WRITERS = [write for _, write in _FIELDS]
_KEYS = ['"' + name + '":' for name, _ in _FIELDS]
_INDICES = list(range(len(_FIELDS)))


def _moves(history: Sequence[tuple[int, Move]]) -> list[str]:
    """The JSON texts of moves of a history (``[seat,"text"]``: move texts hold no
    character that JSON escapes)."""
    return ["[" + int.__repr__(seat) + ',"' + str(move) + '"]' for seat, move in history]


class ObservationEncoder:
    """A seat's view as a bot asked for it in its hello (``docs/protocol.md``):

    * :data:`FULL` (the default): every message holds the whole ``Observation.to_dict()``
      as ``observation``, the hand's history included;
    * :data:`NEW` (``"history": "new"``): the same, with the moves since the last
      message (``history_start`` and ``new_history``) in place of ``history``;
    * :data:`CHANGES` (the capability ``changes``): the whole observation at the start
      of a hand and when the bot asks for it; otherwise only the fields whose values
      changed since the last message (``changes``) and the moves since then
      (``new_history``), so that a message's size does not grow with the hand.

    The text is that of ``json.dumps`` (compact) of ``Observation.to_dict()``, written
    field by field: a field's text is written again only when its value has changed
    since the last view, and the text of the history already encoded for this hand is
    reused."""

    __slots__ = ("_changed", "_count", "_hand", "_parts", "_sent", "_texts", "_values", "form")

    def __init__(self, form: str = FULL) -> None:
        self.form = form
        self._hand = -1
        self._count = 0
        """Moves of this hand whose text is in ``_parts``."""
        self._parts: list[str] = []
        self._values: tuple[Any, ...] | None = None
        """The fields' values at the last view (None: no view yet)."""
        self._texts: list[str] = [""] * len(_FIELDS)
        """Their JSON texts, each with its key."""
        self._changed: list[int] = []
        """The fields that changed at the last view (all of them at the first)."""
        self._sent = -1
        """(:data:`CHANGES`) The moves of this hand the bot has been shown (-1: no view
        of this hand yet)."""

    def _read(self, obs: Observation) -> None:
        """Read the fields' values; the texts of those that changed are written again
        (``_texts``), and their indices kept (``_changed``)."""
        values = _read_fields(obs)
        last = self._values
        changed = _INDICES if last is None else [i for i in _INDICES if values[i] != last[i]]
        texts = self._texts
        for i in changed:
            texts[i] = _KEYS[i] + _WRITERS[i](values[i])
        self._values, self._changed = values, changed

    def _history(self, obs: Observation) -> int:
        """Encode the moves of this hand not encoded yet; returns how many were (0 in a
        new hand)."""
        history = obs.history
        n = len(history)
        if obs.hand_number != self._hand or n < self._count:
            self._hand, self._count, self._parts, self._sent = obs.hand_number, 0, [], -1
        start = self._count
        if n > start:
            self._parts += _moves(history[start:])
            self._count = n
        return start

    def encode(self, obs: Observation) -> str:
        """The observation's JSON text, whole or (:data:`NEW`) with the new moves only."""
        start = self._history(obs)
        self._read(obs)
        head = ",".join(self._texts)
        if self.form == NEW:
            moves = ",".join(self._parts[start:])
            return f'{{{head},"history_start":{start},"new_history":[{moves}]}}'
        return f'{{{head},"history":[{",".join(self._parts)}]}}'

    def view(self, obs: Observation, *, whole: bool = False) -> str:
        """The fields of a message that show the seat's view: ``"observation":{...}``, or
        in :data:`CHANGES` form ``"changes":{...},"new_history":[...]`` (unless
        ``whole``, or at the start of a hand)."""
        if self.form != CHANGES:
            return '"observation":' + self.encode(obs)
        self._history(obs)
        self._read(obs)
        start, self._sent = self._sent, self._count
        if whole or start < 0:
            head = ",".join(self._texts)
            return f'"observation":{{{head},"history":[{",".join(self._parts)}]}}'
        texts = self._texts
        changes = ",".join([texts[i] for i in self._changed])
        return f'"changes":{{{changes}}},"new_history":[{",".join(self._parts[start:])}]'


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
