"""Observations as the bot protocol's JSON text (``docs/protocol.md``), written on the
hot path of every bot over pipes, so compiled with the engine: a seat's view whole or
as what changed since the last message (:class:`ObservationEncoder`), the move
request that carries it, and the usual answer of a bot that plays several matches at
once read back (:func:`compact_answer`).

Every text is what ``json.dumps`` (compact, UTF-8 as is) gives of the same value:
cards, ranks, suits and moves hold no character that JSON escapes, and are written as
they are.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from c8league.engine.cards import ALL_CARDS, Card, Rank, Suit
from c8league.engine.moves import Move
from c8league.engine.observation import Observation, observed_state
from c8league.engine.state import HandState

FULL: Final = "full"
NEW: Final = "new"
CHANGES: Final = "changes"
"""How a bot is shown its view (see :class:`ObservationEncoder`)."""


_SUITS: Final = ('"C"', '"D"', '"H"', '"S"')
"""Each suit's JSON text, by its value (``Suit``'s own text goes through the enum)."""
_RANKS: Final = ("", '"A"', *[f'"{n}"' for n in range(2, 11)], '"J"', '"Q"', '"K"')
"""Each rank's JSON text, by its value (A = 1)."""
_CARDS: Final = tuple(['"' + str(card) + '"' for card in ALL_CARDS])
"""Each card's JSON text, by its index."""


_SMALL: Final = tuple([str(n) for n in range(256)])
"""The text of each number below 256 (seats, sizes, turns and scores nearly always
are), looked up where ``str`` would write it anew each time."""


def _number(value: int) -> str:
    return _SMALL[value] if 0 <= value < 256 else str(value)


def _suit(value: Suit | None) -> str:
    return "null" if value is None else _SUITS[value]  # (an IntEnum: no int() call)


def _card(card: Card | None) -> str:
    return "null" if card is None else _CARDS[card.index]


def _cards(cards: list[Card]) -> str:
    return "[" + ",".join([_CARDS[c.index] for c in cards]) + "]"


def _ints(values: list[int]) -> str:
    return "[" + ",".join([_number(v) for v in values]) + "]"


def _wild_ranks(values: list[int]) -> str:
    """The seats' wild ranks as ``Observation.wild_ranks`` shows them: none below 1."""
    ranks = _RANKS
    return (
        "["
        + ",".join(["null" if w < 1 else ranks[w] if w < 14 else ranks[Rank(w)] for w in values])
        + "]"
    )


_NAMES: Final = (
    "seat",
    "players",
    "dealer",
    "current",
    "phase",
    "hand",
    "top",
    "suit",
    "wild_top",
    "pending",
    "pending_kind",
    "direction",
    "hand_sizes",
    "stock_size",
    "discard_size",
    "drawn",
    "drawn_card",
    "turn",
    "scores",
    "wild_ranks",
    "target",
    "hand_number",
)
"""The fields of ``Observation.to_dict()`` but the history, in its order (read and
written by :meth:`ObservationEncoder._read`)."""
_KEYS: Final[list[str]] = ['"' + name + '":' for name in _NAMES]
_KEYED: Final[list[list[str]]] = [[key + text for text in _SMALL[:128]] for key in _KEYS]
"""A field's text with its key, for each number below 128, by the field's index: what
:meth:`ObservationEncoder._int` would write (the numbers of a hand change at nearly
every move)."""

_OPEN: Final[list[str]] = [f'[{seat},"' for seat in range(8)]
"""A move of the history's text up to the move's, by seat."""


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
        self._first = True
        """No view yet: every field is new."""
        self._last: list[object] = [None] * len(_NAMES)
        """The fields' texts or lists at the last view (see :meth:`_text`,
        :meth:`_card_list`)."""
        self._numbers: list[int] = [0] * len(_NAMES)
        """The fields' numbers at the last view (see :meth:`_int`): typed, so that they
        are compared as numbers, not as objects."""
        self._hand_sizes: list[int] = []
        """The seats' hand sizes at the last view (see :meth:`_sizes`)."""
        self._texts: list[str] = [""] * len(_NAMES)
        """Their JSON texts, each with its key."""
        self._changed: list[int] = []
        """The fields that changed at the last view (all of them at the first)."""
        self._sent = -1
        """(:data:`CHANGES`) The moves of this hand the bot has been shown (-1: no view
        of this hand yet)."""
        self._state: HandState | None = None
        """The hand read at the last view, and its seat (the fields that no move changes,
        the table's and the hand's number, are read again only for another hand or
        seat)."""
        self._seat = -1

    def _update(self, obs: Observation) -> int:
        """Read the hand behind ``obs`` (its history, then its fields); returns where the
        moves not shown before begin (see :meth:`_history`)."""
        h = observed_state(obs)
        start = self._history(h)
        self._read(h, obs.seat)
        return start

    def _read(self, h: HandState, seat: int) -> None:
        """Read the fields' values from ``seat``'s view of hand ``h``; the texts of those that
        changed are written again (``_texts``), and their indices kept (``_changed``).
        Each field is read as the engine keeps it (the hot path of every bot over
        pipes: no tuple is built for a field that has not changed)."""
        mine = h.current == seat
        self._changed = []
        again = self._first or h is not self._state or seat != self._seat
        if again:  # the fields that no move of a hand changes
            self._state, self._seat = h, seat
            self._int(0, seat)
            self._int(1, h.n)
            self._int(2, h.dealer)
        self._int(3, h.current)
        self._int(4, h.phase)  # (an IntEnum: no int() call)
        self._card_list(5, h.hands[seat])
        self._text(6, _card(h.discard[-1]))
        self._text(7, _suit(h.suit))
        self._text(8, "true" if h.wild_top else "false")
        self._int(9, h.pending)
        kind = h.pending_kind
        self._text(10, "null" if kind is None else '"' + kind + '"')
        self._int(11, h.direction)
        self._sizes(h.hands)
        self._int(13, len(h.stock))
        self._int(14, len(h.discard))
        self._int(15, h.drawn if mine else 0)
        self._text(16, _card(h.drawn_card) if mine else "null")
        self._int(17, h.turns)
        self._int_list(18, h.scores)  # (Countdown's change within a hand)
        self._wild_list(19, h.wild_ranks)
        if again:
            self._int(20, h.target)
            self._int(21, h.hand_number)
        self._first = False

    def _int(self, i: int, value: int) -> None:
        if self._first or self._numbers[i] != value:
            self._numbers[i] = value
            self._texts[i] = _KEYED[i][value] if 0 <= value < 128 else _KEYS[i] + str(value)
            self._changed.append(i)

    def _text(self, i: int, text: str) -> None:
        """A field whose text is cheaper to write than to compare its value by."""
        if self._first or self._last[i] != text:
            self._last[i] = text
            self._texts[i] = _KEYS[i] + text
            self._changed.append(i)

    # The fields kept by the engine as lists that it changes in place (a copy is kept to
    # compare with), one method for each kind of list: the text is written by a call
    # the compiler makes direct.

    def _card_list(self, i: int, cards: list[Card]) -> None:
        if self._first or self._last[i] != cards:
            self._last[i] = list(cards)
            self._texts[i] = _KEYS[i] + _cards(cards)
            self._changed.append(i)

    def _int_list(self, i: int, values: list[int]) -> None:
        if self._first or self._last[i] != values:
            self._last[i] = list(values)
            self._texts[i] = _KEYS[i] + _ints(values)
            self._changed.append(i)

    def _wild_list(self, i: int, values: list[int]) -> None:
        if self._first or self._last[i] != values:
            self._last[i] = list(values)
            self._texts[i] = _KEYS[i] + _wild_ranks(values)
            self._changed.append(i)

    def _sizes(self, hands: list[list[Card]]) -> None:
        """The field ``hand_sizes`` (12), compared size by size with the sizes kept (a
        typed list: compared as numbers), its text written only when one has changed."""
        kept = self._hand_sizes
        if not self._first and len(kept) == len(hands):
            for i in range(len(hands)):
                if kept[i] != len(hands[i]):
                    break
            else:
                return
        sizes = [len(cards) for cards in hands]
        self._hand_sizes = sizes
        self._texts[12] = _KEYS[12] + _ints(sizes)
        self._changed.append(12)

    def _history(self, h: HandState) -> int:
        """Encode the moves of hand ``h`` not encoded yet; returns how many were (0 in a
        new hand)."""
        moves = h.history_moves
        n = len(moves)
        if h.hand_number != self._hand or n < self._count:
            self._hand, self._count, self._parts, self._sent = h.hand_number, 0, [], -1
        start = self._count
        if n > start:
            seats = h.history_seats
            parts = self._parts
            for i in range(start, n):
                parts.append(_OPEN[seats[i]] + moves[i]._text + '"]')  # (str() without its call)
            self._count = n
        return start

    def encode(self, obs: Observation) -> str:
        """The observation's JSON text, whole or (:data:`NEW`) with the new moves only."""
        start = self._update(obs)
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
        self._update(obs)
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
    moves = '","'.join(legal)
    if match is None:
        return f'{{"type":"move",{view},"legal":["{moves}"]}}\n'
    return f'{{"type":"move","match":{_number(match)},{view},"legal":["{moves}"]}}\n'


def texts(moves: Sequence[Move]) -> list[str]:
    """The moves' texts (as ``str`` gives them, read here without its call)."""
    return [m._text for m in moves]


_ANSWER: Final = b'{"type":"move","match":'
_INDEX: Final = b',"index":'


def compact_answer(line: bytes) -> tuple[int, int] | None:
    """The match and index of a move answer written compact, as c8league writes its own
    messages (``{"type":"move","match":7,"index":3}``, a carriage return at its end
    allowed); None for any other line (``players.external.protocol`` reads those). Read
    byte by byte: what it gives is what the protocol's pattern of that answer gives."""
    end = len(line)
    if end > 0 and line[end - 1] == 13:  # "\r"
        end -= 1
    if end < len(_ANSWER) + len(_INDEX) + 3 or not _starts(line, 0, _ANSWER):
        return None
    match, at = _digits(line, len(_ANSWER), end, 18)
    if match < 0 or not _starts(line, at, _INDEX):
        return None
    index, at = _digits(line, at + len(_INDEX), end, 9)
    if index < 0 or at != end - 1 or line[at] != 125:  # "}"
        return None
    return match, index


def _starts(line: bytes, at: int, text: bytes) -> bool:
    """Whether ``line`` has ``text`` at ``at``."""
    return line[at : at + len(text)] == text


def _digits(line: bytes, at: int, end: int, most: int) -> tuple[int, int]:
    """The number written in decimal at ``at`` of ``line`` (before ``end``: ``most``
    digits at most, no leading zero) and where its digits end; (-1, at) if there is
    none."""
    value = 0
    i = at
    while i < end and i - at < most:
        byte = line[i]
        if byte < 48 or byte > 57:
            break
        value = value * 10 + byte - 48
        i += 1
    if i == at or (line[at] == 48 and i - at > 1):
        return -1, at
    return value, i
