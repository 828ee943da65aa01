"""Observations as the bot protocol's JSON text (``docs/protocol.md``), written on the
hot path of every bot over pipes, so compiled with the engine: a seat's view whole or
as what changed since the last message (:class:`ObservationEncoder`), and the move
request that carries it.

Every text is what ``json.dumps`` (compact, UTF-8 as is) gives of the same value:
cards, ranks, suits and moves hold no character that JSON escapes, and are written as
they are.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from c8league.engine.cards import Rank, Suit
from c8league.engine.moves import Move
from c8league.engine.observation import Observation

FULL, NEW, CHANGES = "full", "new", "changes"
"""How a bot is shown its view (see :class:`ObservationEncoder`)."""


def _int(value: int) -> str:
    return str(value)


def _ints(values: Sequence[int]) -> str:
    return "[" + ",".join([str(v) for v in values]) + "]"


_SUITS = ('"C"', '"D"', '"H"', '"S"')
"""Each suit's JSON text, by its value (``Suit``'s own text goes through the enum)."""
_RANKS = ("", '"A"', *[f'"{n}"' for n in range(2, 11)], '"J"', '"Q"', '"K"')
"""Each rank's JSON text, by its value (A = 1)."""


def _suit(value: Suit | None) -> str:
    return "null" if value is None else _SUITS[int(value)]


def _texts(values: Sequence[object]) -> str:
    """A list of cards (or ranks, suits) as JSON: their texts hold no character that
    JSON escapes."""
    return '["' + '","'.join([str(v) for v in values]) + '"]' if values else "[]"


def _text_or_null(value: object) -> str:
    return "null" if value is None else '"' + str(value) + '"'


def _ranks(values: Sequence[Rank | None]) -> str:
    return "[" + ",".join(["null" if r is None else _RANKS[int(r)] for r in values]) + "]"


def _bool(value: bool) -> str:
    return "true" if value else "false"


_FIELDS: tuple[tuple[str, Callable[[Any], str]], ...] = (
    ("seat", _int),
    ("players", _int),
    ("dealer", _int),
    ("current", _int),
    ("phase", _int),
    ("hand", _texts),
    ("top", _text_or_null),
    ("suit", _suit),
    ("wild_top", _bool),
    ("pending", _int),
    ("pending_kind", _text_or_null),
    ("direction", _int),
    ("hand_sizes", _ints),
    ("stock_size", _int),
    ("discard_size", _int),
    ("drawn", _int),
    ("drawn_card", _text_or_null),
    ("turn", _int),
    ("scores", _ints),
    ("wild_ranks", _ranks),
    ("target", _int),
    ("hand_number", _int),
)
"""The fields of ``Observation.to_dict()`` but the history, in its order, each with
the writing of its value as JSON text (what ``to_dict`` then ``json.dumps`` give)."""


def _read_fields(obs: Observation) -> tuple[Any, ...]:
    """The values of :data:`_FIELDS`, in their order (read attribute by attribute: the
    compiled engine reads them natively)."""
    return (
        obs.seat,
        obs.players,
        obs.dealer,
        obs.current,
        obs.phase,
        obs.hand,
        obs.top,
        obs.suit,
        obs.wild_top,
        obs.pending,
        obs.pending_kind,
        obs.direction,
        obs.hand_sizes,
        obs.stock_size,
        obs.discard_size,
        obs.drawn,
        obs.drawn_card,
        obs.turn,
        obs.scores,
        obs.wild_ranks,
        obs.target,
        obs.hand_number,
    )


_OPEN = [f'[{seat},"' for seat in range(8)]
"""A move of the history's text up to the move's, by seat."""

_WRITERS = [write for _, write in _FIELDS]
_KEYS = ['"' + name + '":' for name, _ in _FIELDS]
_INDICES = list(range(len(_FIELDS)))


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
            seats, moves = history.since(start)
            self._parts += [
                _OPEN[seat] + str(move) + '"]' for seat, move in zip(seats, moves, strict=True)
            ]
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


def numbered(line: str, match: int) -> str:
    """``line`` (any message c8league writes, ``{"type":"...",...}``) naming the match
    ``match`` of a concurrent bot: ``"match"`` right after ``"type"``."""
    at = line.index('"', 9) + 1
    return line[:at] + ',"match":' + str(match) + line[at:]


def move_request(view: str, legal: list[str], match: int | None = None) -> str:
    """The ``move`` request: the seat's view and the legal moves' texts (which hold no
    character that JSON escapes: they are written as they are), naming its ``match``
    if given (see :func:`numbered`)."""
    head = '{"type":"move",' if match is None else f'{{"type":"move","match":{match},'
    return head + view + ',"legal":["' + '","'.join(legal) + '"]}\n'


def texts(moves: Sequence[Move]) -> list[str]:
    """The moves' texts."""
    return [str(m) for m in moves]
