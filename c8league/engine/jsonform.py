"""The engine's values read back from their JSON form, the bot protocol's
(``docs/protocol.md``): each reader takes one field of a JSON object, checks its type
and converts it (cards, suits, ranks and moves from their text), and raises
:class:`~c8league.errors.WireError` naming the field when it does not fit. The
``from_dict`` of a seat's view, a hand's result and a match's result are made of them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from c8league.engine.cards import Card, Rank, Suit
from c8league.engine.moves import Move
from c8league.errors import CardError, WireError


def whole(data: Mapping[str, Any], name: str, what: str) -> int:
    """The whole number ``data[name]`` (a JSON ``true`` is not one); ``what`` names the
    object in the error (``"an observation"``)."""
    value = data.get(name)
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    raise _error(what, name, "a whole number", value)


def wholes(data: Mapping[str, Any], name: str, what: str) -> tuple[int, ...]:
    """The list of whole numbers ``data[name]``, as a tuple."""
    value = data.get(name)
    if isinstance(value, list):
        numbers: list[int] = []
        for item in value:
            if not isinstance(item, int) or isinstance(item, bool):
                break
            numbers.append(item)
        else:
            return tuple(numbers)
    raise _error(what, name, "a list of whole numbers", value)


def wholes_or_none(data: Mapping[str, Any], name: str, what: str) -> tuple[int, ...] | None:
    """The list of whole numbers ``data[name]`` as a tuple, or None for ``null``."""
    return None if data.get(name) is None else wholes(data, name, what)


def flag(data: Mapping[str, Any], name: str, what: str) -> bool:
    """The boolean ``data[name]``."""
    value = data.get(name)
    if isinstance(value, bool):
        return value
    raise _error(what, name, "true or false", value)


def text_or_none(data: Mapping[str, Any], name: str, what: str) -> str | None:
    """The string ``data[name]``, or None for ``null``."""
    value = data.get(name)
    if value is None or isinstance(value, str):
        return value
    raise _error(what, name, "a string or null", value)


def card(data: Mapping[str, Any], name: str, what: str) -> Card:
    """The card ``data[name]`` from its text (``"QS"``)."""
    value = data.get(name)
    if isinstance(value, str):
        try:
            return Card.parse(value)
        except CardError:
            pass
    raise _error(what, name, "a card", value)


def card_or_none(data: Mapping[str, Any], name: str, what: str) -> Card | None:
    """The card ``data[name]``, or None for ``null``."""
    return None if data.get(name) is None else card(data, name, what)


def cards(data: Mapping[str, Any], name: str, what: str) -> tuple[Card, ...]:
    """The list of cards ``data[name]``, as a tuple."""
    value = data.get(name)
    if isinstance(value, list):
        try:
            return tuple([Card.parse(text) for text in value])
        except (CardError, AttributeError):  # (not a text: it has no strip())
            pass
    raise _error(what, name, "a list of cards", value)


def suit_or_none(data: Mapping[str, Any], name: str, what: str) -> Suit | None:
    """The suit ``data[name]`` (``"S"``), or None for ``null``."""
    value = data.get(name)
    if value is None:
        return None
    if isinstance(value, str):
        try:
            return Suit.parse(value)
        except CardError:
            pass
    raise _error(what, name, "a suit or null", value)


def ranks_or_none(data: Mapping[str, Any], name: str, what: str) -> tuple[Rank | None, ...]:
    """The list ``data[name]`` of ranks (``"8"``) or ``null`` each, as a tuple."""
    value = data.get(name)
    if isinstance(value, list):
        ranks: list[Rank | None] = []
        for item in value:
            if item is None:
                ranks.append(None)
                continue
            if not isinstance(item, str):
                break
            try:
                ranks.append(Rank.parse(item))
            except CardError:
                break
        else:
            return tuple(ranks)
    raise _error(what, name, "a list of ranks or nulls", value)


def moves(data: Mapping[str, Any], name: str, what: str) -> list[tuple[int, Move]]:
    """The list ``data[name]`` of ``[seat, move text]`` pairs (a hand's history), read."""
    value = data.get(name)
    if isinstance(value, list):
        read: list[tuple[int, Move]] = []
        for item in value:
            if not isinstance(item, list) or len(item) != 2:
                break
            seat, text = item[0], item[1]
            if not isinstance(seat, int) or isinstance(seat, bool) or not isinstance(text, str):
                break
            try:
                read.append((seat, Move.parse(text)))
            except CardError:
                break
        else:
            return read
    raise _error(what, name, "a list of [seat, move] pairs", value)


def _error(what: str, name: str, kind: str, value: object) -> WireError:
    shown = repr(value)
    if len(shown) > 60:
        shown = shown[:57] + "..."
    return WireError(f"{what}'s {name!r} must be {kind}, not {shown}", name)
