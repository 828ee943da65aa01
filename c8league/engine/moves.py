"""Moves a player can make, with a text form that round-trips.

========================  ==================================================
text                      move
========================  ==================================================
``QS``                    play the queen of spades
``8H:S``                  play the eight of hearts and nominate spades
``9C+9D+9H``              play three nines at once, in that order
``5S!``                   play the five of spades and announce "last card"
``draw``                  draw (or take the pending penalty)
``pass``                  pass
``nominate:S``            the dealer nominates spades for a wild starter
========================  ==================================================
"""

from __future__ import annotations

from enum import IntEnum
from typing import Final

from c8league.engine.cards import ALL_CARDS, Card, Suit
from c8league.errors import CardError


class MoveKind(IntEnum):
    PLAY = 0
    DRAW = 1
    PASS = 2
    NOMINATE = 3


class Move:
    """One decision of a player. Immutable; compare with ``==``; ``str`` round-trips."""

    __slots__ = ("_key", "_text", "announce", "cards", "is_play", "kind", "suit")

    _key: tuple[int, tuple[int, ...], int, bool]
    _text: str
    """What ``str`` gives: written once, as moves are written on every bot request."""
    kind: MoveKind
    """PLAY, DRAW, PASS or NOMINATE (the dealer names the suit of a wild starter)."""
    cards: tuple[Card, ...]
    """The cards played, in the order played (empty unless ``kind`` is PLAY)."""
    suit: Suit | None
    """The nominated suit, for a wild card played last or a starter nomination."""
    announce: bool
    """Whether the player announces "last card" with this play."""
    is_play: bool
    """Whether this move plays cards."""

    def __init__(
        self,
        kind: MoveKind,
        cards: tuple[Card, ...] = (),
        suit: Suit | None = None,
        announce: bool = False,
    ) -> None:
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "cards", cards)
        # Suits are compared by identity in the engine: keep the enum member.
        object.__setattr__(self, "suit", suit if suit is None or type(suit) is Suit else Suit(suit))
        object.__setattr__(self, "announce", announce)
        object.__setattr__(self, "is_play", kind is MoveKind.PLAY)
        key = (
            int(kind),
            tuple(c.index for c in cards),
            -1 if suit is None else int(suit),
            announce,
        )
        object.__setattr__(self, "_key", key)
        object.__setattr__(self, "_text", self._write())

    # -- constructors ----------------------------------------------------

    @staticmethod
    def play(*cards: Card | str, suit: Suit | str | None = None, announce: bool = False) -> Move:
        """A play of one or several cards, e.g. ``Move.play("8H", suit="S")``."""
        parsed = tuple(c if isinstance(c, Card) else Card.parse(c) for c in cards)
        if not parsed:
            raise CardError("a play needs at least one card")
        nominated = Suit.parse(suit) if isinstance(suit, str) else suit
        return Move(MoveKind.PLAY, parsed, nominated, announce)

    @staticmethod
    def nominate(suit: Suit | str) -> Move:
        return NOMINATE[Suit.parse(suit) if isinstance(suit, str) else suit]

    @staticmethod
    def parse(text: str) -> Move:
        """Read a move from its text form; raises :class:`CardError`."""
        raw = text.strip()
        low = raw.lower()
        if low == "draw":
            return DRAW
        if low == "pass":
            return PASS
        if low.startswith("nominate:"):
            return Move.nominate(raw[len("nominate:") :])
        body = raw
        announce = body.endswith("!")
        if announce:
            body = body[:-1]
        cards_text, sep, suit_text = body.partition(":")
        if not cards_text:
            raise CardError(f"not a move: {text!r} (e.g. QS, 8H:S, 9C+9D, 5S!, draw, pass)")
        try:
            cards = tuple(Card.parse(c) for c in cards_text.split("+"))
            suit = Suit.parse(suit_text) if sep else None
        except CardError as exc:
            raise CardError(f"not a move: {text!r} ({exc})") from None
        return Move(MoveKind.PLAY, cards, suit, announce)

    # -- behaviour ---------------------------------------------------------

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Move is immutable")

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (Move.parse, (str(self),))

    def __eq__(self, other: object) -> bool:
        return self is other or (isinstance(other, Move) and other._key == self._key)

    def __hash__(self) -> int:
        return hash(self._key)

    def __str__(self) -> str:
        return self._text

    def _write(self) -> str:
        kind = self.kind
        if kind is MoveKind.DRAW:
            return "draw"
        if kind is MoveKind.PASS:
            return "pass"
        if kind is MoveKind.NOMINATE:
            return f"nominate:{self.suit}"
        text = "+".join(str(c) for c in self.cards)
        if self.suit is not None:
            text += f":{self.suit}"
        if self.announce:
            text += "!"
        return text

    def __repr__(self) -> str:
        return f"Move({self})"


DRAW: Final = Move(MoveKind.DRAW)
PASS: Final = Move(MoveKind.PASS)
NOMINATE: Final = {s: Move(MoveKind.NOMINATE, (), s) for s in Suit}

# Interned single-card plays: [card index][suit or 4 for none][announce]
_SINGLE: Final = [
    [[Move(MoveKind.PLAY, (c,), s, a) for a in (False, True)] for s in (*Suit, None)]
    for c in ALL_CARDS
]


def single(card: Card, suit: Suit | None = None, announce: bool = False) -> Move:
    """The (shared) move object for playing one card."""
    return _SINGLE[card.index][4 if suit is None else suit][announce]


# Ready-made lists of a single card's play variants, by card index.
PLAIN: Final = [_SINGLE[c.index][4][0] for c in ALL_CARDS]
"""Play the card, no nomination, no announcement."""
PLAIN_CALLS: Final = [(_SINGLE[c.index][4][0], _SINGLE[c.index][4][1]) for c in ALL_CARDS]
"""Without and with the last-card announcement."""
NOMINATIONS: Final = [tuple(_SINGLE[c.index][s][0] for s in Suit) for c in ALL_CARDS]
"""Play the (wild) card nominating each suit."""
NOMINATION_CALLS: Final = [
    tuple(_SINGLE[c.index][s][a] for s in Suit for a in (False, True)) for c in ALL_CARDS
]
"""Each nomination, without and with the last-card announcement."""
