"""The player protocol: what every player, built-in or plugin, implements.

A player chooses a move from an observation and the legal moves. It may also
be told when a match or a hand starts and ends; :class:`BasePlayer` gives
no-op versions of those hooks, so a player needs to write ``choose`` only.

A plugin may declare its options with :class:`PlayerOptions`, so that bad options are
refused when a bot is entered (``league import``, ``players add``), not when its
first match is played.
"""

from __future__ import annotations

import functools
import types
import typing
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, TypeAdapter, ValidationError

from c8league.engine import HandResult, MatchResult, Move, Observation
from c8league.errors import PluginError


@runtime_checkable
class Player(Protocol):
    """Anything with a ``choose`` method (the hooks are optional)."""

    def choose(self, observation: Observation, legal: Sequence[Move]) -> Move:
        """Return one of ``legal``. ``observation`` holds what this seat may see."""
        ...


class BasePlayer:
    """A convenient base class: override ``choose``; the hooks do nothing by default."""

    name = "player"

    options_model: ClassVar[type[PlayerOptions] | None] = None
    """The declared options (see :class:`PlayerOptions`); None: checked by signature."""

    def start_match(self, seat: int, players: int, seed: int) -> None:
        """A match starts: this player sits at ``seat`` of ``players``; ``seed`` is the
        player's own seed for this match (derived from the match seed and the seat)."""

    def start_hand(self, observation: Observation) -> None:
        """A hand has been dealt; ``observation`` is this seat's view of it."""

    def end_hand(self, observation: Observation, result: HandResult) -> None:
        """A hand ended: the final view of this seat and the hand's public result."""

    def end_match(self, result: MatchResult) -> None:
        """The match is over."""

    def close(self) -> None:
        """Release resources (processes, files). Called once, even after a fault."""

    def choose(self, observation: Observation, legal: Sequence[Move]) -> Move:
        """Return one of ``legal`` (override this; the base raises NotImplementedError)."""
        raise NotImplementedError


class PlayerWrapper:
    """A player around another, ``inner``: it chooses as ``inner`` does (a subclass
    changes that: times it, holds it to a limit, …), and passes every hook on to
    ``inner`` if ``inner`` has it."""

    def __init__(self, inner: Player) -> None:
        self.inner = inner

    def choose(self, observation: Observation, legal: Sequence[Move]) -> Move:
        return self.inner.choose(observation, legal)

    def start_match(self, seat: int, players: int, seed: int) -> None:
        self._pass("start_match", seat, players, seed)

    def start_hand(self, observation: Observation) -> None:
        self._pass("start_hand", observation)

    def end_hand(self, observation: Observation, result: HandResult) -> None:
        self._pass("end_hand", observation, result)

    def end_match(self, result: MatchResult) -> None:
        self._pass("end_match", result)

    def close(self) -> None:
        self._pass("close")

    def _pass(self, hook: str, *args: object) -> None:
        method = getattr(self.inner, hook, None)
        if method is not None:
            method(*args)


class PlayerOptions(BaseModel):
    """The options a player plugin accepts: subclass it, declare each option as a field
    (type, default, bounds), and name the class in the factory's ``options_model``::

        class Options(PlayerOptions):
            playouts: int = Field(800, ge=1, le=10_000_000)
            objective: Literal["match", "points"] = "match"

        class MyBot(BasePlayer):
            options_model = Options

            def __init__(self, playouts: int = 800, objective: str = "match") -> None:
                ...

    (a factory that is a function gets the attribute: ``my_factory.options_model =
    Options``). The registry then checks every bot's options against the model when it
    is entered and before each match: an unknown option, a wrong type (strictly: ``1.0``
    is not a whole number, ``1`` is not a boolean) or a value out of bounds is one line
    naming the player, the option and why. Options typed on a command line are text and
    are converted to the declared type first (a list or a table written as JSON). Only
    the options given are passed to the factory, so its own defaults apply to the
    others. A plugin without a model is checked by its factory's signature, then built
    once and closed.
    """

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True, allow_inf_nan=False)

    @classmethod
    def check(cls, player: str, values: Mapping[str, Any]) -> dict[str, Any]:
        """The options ``values`` checked and converted (only those given); raises
        :class:`PluginError` naming ``player``, the option and why."""
        fields = cls.model_fields
        data: dict[str, Any] = {}
        for key, value in values.items():
            field = fields.get(key)
            if field is None:
                valid = ", ".join(fields) or "none"
                raise PluginError(f"player {player!r} has no option {key!r}; options: {valid}")
            if isinstance(value, str) and not _takes_text(field.annotation):
                adapter = _adapter(field.annotation)
                try:
                    if value.lstrip()[:1] in ("[", "{"):  # a list or a table, as JSON
                        value = adapter.validate_json(value, strict=True)
                    else:
                        value = adapter.validate_strings(value)
                except ValidationError as exc:
                    raise _option_error(
                        player, key, value=value, annotation=field.annotation, exc=exc
                    ) from None
            data[key] = value
        missing = [n for n, f in fields.items() if f.is_required() and n not in data]
        if missing:
            raise PluginError(f"player {player!r} needs option(s): {', '.join(missing)}")
        try:
            checked = cls.model_validate(data)
        except ValidationError as exc:
            loc = exc.errors()[0]["loc"]
            key = str(loc[0]) if loc else ""
            if key not in data:
                message = exc.errors()[0]["msg"].removeprefix("Value error, ")
                raise PluginError(f"player {player!r}: {message}") from None
            annotation = fields[key].annotation
            raise _option_error(
                player, key, value=values[key], annotation=annotation, exc=exc
            ) from None
        return {key: getattr(checked, key) for key in data}


def _adapter(annotation: Any) -> TypeAdapter[Any]:
    try:
        return _cached_adapter(annotation)
    except TypeError:  # an annotation that cannot be hashed
        return TypeAdapter(annotation)


@functools.lru_cache(maxsize=256)
def _cached_adapter(annotation: Any) -> TypeAdapter[Any]:
    return TypeAdapter(annotation)


def _takes_text(annotation: Any) -> bool:
    """Whether text is a value of the type (then text from a command line stays text)."""
    try:
        _adapter(annotation).validate_python("", strict=True)
    except ValidationError as exc:
        # Text refused for its value (a Literal, a pattern), not its type, is still text.
        return not any(e["type"].endswith("_type") for e in exc.errors())
    return True


def _option_error(
    player: str, key: str, *, value: Any, annotation: Any, exc: ValidationError
) -> PluginError:
    errors = exc.errors()
    shown = repr(value)
    if len(shown) > 60:
        shown = shown[:57] + "..."
    where = f"player {player!r} option {key!r}: {shown}"
    if all(e["type"].endswith(("_type", "_parsing")) for e in errors):
        return PluginError(f"{where} is not {_type_name(annotation)}")
    message = errors[0]["msg"].removeprefix("Value error, ")
    return PluginError(f"{where} is refused: {message[:1].lower()}{message[1:]}")


def _type_name(annotation: Any) -> str:
    """``int``, ``str or list``: the type of an option, as a person would say it."""
    args = typing.get_args(annotation)
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType):
        return " or ".join(_type_name(a) for a in args if a is not type(None))
    if origin is not None:
        annotation = origin
    return getattr(annotation, "__name__", str(annotation))
