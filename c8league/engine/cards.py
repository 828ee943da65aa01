"""Cards, ranks, suits and packs.

A card's text form is rank + suit: ``AS``, ``10H`` (also ``TH``), ``QC``, ``8D``;
``str(card)`` gives the canonical form and ``Card.parse`` reads any of them.
Every card value is interned: there are exactly 52 ``Card`` objects, so two
packs shuffled together hold each card twice.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import IntEnum
from typing import Final

from c8league.errors import CardError


class Suit(IntEnum):
    """The four suits, in bridge order."""

    C = 0
    D = 1
    H = 2
    S = 3

    @property
    def symbol(self) -> str:
        return _SUIT_SYMBOLS[self]

    @property
    def is_red(self) -> bool:
        return self in (Suit.D, Suit.H)

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Read a suit from ``C D H S`` (any case), its symbol, or its English name."""
        key = text.strip().upper()
        suit = _SUIT_NAMES.get(key)
        if suit is None:
            raise CardError(f"unknown suit {text!r}: expected one of C, D, H, S")
        return suit

    def __str__(self) -> str:
        return self.name


class Rank(IntEnum):
    """Ranks with their face value: A = 1 … K = 13."""

    A = 1
    R2 = 2
    R3 = 3
    R4 = 4
    R5 = 5
    R6 = 6
    R7 = 7
    R8 = 8
    R9 = 9
    R10 = 10
    J = 11
    Q = 12
    K = 13

    @property
    def label(self) -> str:
        """The rank as written on a card: ``A 2 … 10 J Q K``."""
        return _RANK_LABELS[self]

    @property
    def penalty(self) -> int:
        """Penalty value when left in hand (the wild rank's 50 is applied by the hand)."""
        return 10 if self >= Rank.J else int(self)

    @classmethod
    def parse(cls, text: str) -> Rank:
        """Read a rank from ``A 2 … 10 J Q K`` (also ``T`` for ten, ``1`` for ace)."""
        rank = _RANK_NAMES.get(text.strip().upper())
        if rank is None:
            raise CardError(f"unknown rank {text!r}: expected one of A 2 3 4 5 6 7 8 9 10 J Q K")
        return rank

    def __str__(self) -> str:
        return self.label


_SUIT_SYMBOLS: Final = {Suit.C: "♣", Suit.D: "♦", Suit.H: "♥", Suit.S: "♠"}
_SUIT_NAMES: Final[dict[str, Suit]] = {}
for _s in Suit:
    _SUIT_NAMES[_s.name] = _s
    _SUIT_NAMES[_SUIT_SYMBOLS[_s]] = _s
for _name, _s in (("CLUBS", Suit.C), ("DIAMONDS", Suit.D), ("HEARTS", Suit.H), ("SPADES", Suit.S)):
    _SUIT_NAMES[_name] = _s
    _SUIT_NAMES[_name[:-1]] = _s

_RANK_LABELS: Final = {
    r: (r.name if r in (Rank.A, Rank.J, Rank.Q, Rank.K) else str(int(r))) for r in Rank
}
_RANK_NAMES: Final[dict[str, Rank]] = {label: r for r, label in _RANK_LABELS.items()}
_RANK_NAMES.update({"T": Rank.R10, "1": Rank.A})


class Card:
    """A playing card. Immutable and interned: use ``Card.of`` or ``Card.parse``; two
    cards are equal when they are the same object."""

    __slots__ = ("_text", "index", "rank", "rank_value", "suit")

    _text: str
    rank: Rank
    suit: Suit
    index: int
    """``rank`` × 4 + ``suit`` − 4: a dense number 0..51, also the card's hash."""
    rank_value: int
    """``int(rank)``, kept as a plain int for the engine's inner loops."""

    def __init__(self, rank: Rank, suit: Suit) -> None:
        object.__setattr__(self, "rank", rank)
        object.__setattr__(self, "suit", suit)
        object.__setattr__(self, "index", (int(rank) - 1) * 4 + int(suit))
        object.__setattr__(self, "rank_value", int(rank))
        object.__setattr__(self, "_text", rank.label + suit.name)

    @staticmethod
    def of(rank: Rank | int, suit: Suit | int) -> Card:
        """The card of that rank and suit."""
        return _CARDS[(int(rank) - 1) * 4 + int(suit)]

    @staticmethod
    def parse(text: str) -> Card:
        """Read ``QS``, ``10H``, ``TH``, ``8D``, ``q♠`` …; raises :class:`CardError`."""
        card = _BY_TEXT.get(text.strip().upper())
        if card is None:
            raise CardError(f"not a card: {text!r} (write rank then suit, e.g. QS, 10H, 8D)")
        return card

    def pretty(self) -> str:
        """The card with its suit symbol, e.g. ``Q♠``."""
        return self.rank.label + self.suit.symbol

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Card is immutable")

    def __reduce__(self) -> tuple[object, tuple[int, int]]:
        return (Card.of, (int(self.rank), int(self.suit)))

    # Cards are interned (the constructor is only called to build the 52 cards below;
    # unpickling and copying go through ``Card.of``), so equality is identity: the
    # default ``__eq__``, which lets list searches run without calling back into Python.

    def __hash__(self) -> int:
        return self.index

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Card({self._text})"


_CARDS: Final[tuple[Card, ...]] = tuple(Card(r, s) for r in Rank for s in Suit)
_BY_TEXT: Final[dict[str, Card]] = {}
for _c in _CARDS:
    for _label in [k for k, v in _RANK_NAMES.items() if v is _c.rank]:
        for _suit_key in [k for k, v in _SUIT_NAMES.items() if v is _c.suit and len(k) == 1]:
            _BY_TEXT[_label + _suit_key] = _c

ALL_CARDS: Final = _CARDS
"""The 52 cards of one pack, ordered by rank then suit."""


def pack(decks: int = 1) -> list[Card]:
    """A fresh, unshuffled stock of ``decks`` packs."""
    return list(_CARDS) * decks


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Read cards separated by spaces or commas (``"QS 10H 8D"``), or an iterable of texts."""
    items = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return [Card.parse(t) for t in items]


def format_cards(cards: Iterable[Card]) -> str:
    """Cards as space-separated text, the inverse of :func:`parse_cards`."""
    return " ".join(str(c) for c in cards)
