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
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar, Final, Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, TypeAdapter, ValidationError

from c8league.engine import (
    HandResult,
    Match,
    MatchResult,
    Move,
    Observation,
    Rules,
    derive_seed,
)
from c8league.errors import PluginError

HOOKS: Final = ("start_match", "start_hand", "end_hand", "end_match")
"""What a player may be told besides being asked to choose (:class:`BasePlayer` declares
each, as a no-op)."""


@runtime_checkable
class Player(Protocol):
    """What a plugin's factory must build: anything with a ``choose`` method. The rest of
    the contract (:class:`BasePlayer`) is optional: :func:`adapt` gives its defaults to a
    player that lacks it."""

    def choose(self, observation: Observation, legal: Sequence[Move]) -> Move:
        """Return one of ``legal``. ``observation`` holds what this seat may see."""
        ...


class BasePlayer:
    """The whole player contract, each part with its default: override ``choose``; the
    hooks do nothing, ``close`` releases nothing. c8league plays every player through
    this contract (:func:`adapt` fits it to a player of any class, once)."""

    name = "player"

    options_model: ClassVar[type[PlayerOptions] | None] = None
    """The declared options (see :class:`PlayerOptions`); None: checked by signature."""

    answers_later: bool = False
    """Whether it answers a move request later rather than from ``choose`` (one seat of
    a bot playing several matches at once: ``runner.loop.AnswersLater``)."""

    stderr_path: str | None = None
    """Where its process's standard error is kept (a bot run as a process), if anywhere."""

    @property
    def plays_at_once(self) -> bool:
        """Whether one of it can play several matches at once (a bot that says so)."""
        return False

    @property
    def hooks(self) -> frozenset[str]:
        """The hooks (:data:`HOOKS`) this player implements: only those are called (the
        others are the no-ops of this class)."""
        cls = type(self)
        found = _OVERRIDDEN.get(cls)
        if found is None:
            found = _OVERRIDDEN[cls] = frozenset(
                name for name in HOOKS if getattr(cls, name) is not getattr(BasePlayer, name)
            )
        return found

    @property
    def implementation(self) -> type:
        """The class whose code plays: this player's own (an adapted or wrapped player's
        inner one), as told apart for trust (c8league's own code or not)."""
        return type(self)

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

    def warm(self, rules: Rules, players: int, seat: int = 0) -> None:
        """Get ready before the first match of a run, so that a player that cannot start
        is found then: by default, told of a match and its first hand at ``seat``."""
        seed = 0
        match = Match(rules, players, seed)
        self.start_match(seat, players, derive_seed(seed, "player", seat))
        self.start_hand(match.hand.observation(seat))

    def hook(self, name: str) -> Callable[..., None]:
        """The hook called ``name`` (one of :data:`HOOKS`), bound to this player."""
        if name not in HOOKS:
            raise ValueError(f"no player hook named {name!r}")
        method: Callable[..., None] = getattr(self, name)
        return method


_OVERRIDDEN: dict[type, frozenset[str]] = {}
"""The hooks each class of player implements (see :attr:`BasePlayer.hooks`)."""


def adapt(player: object) -> BasePlayer:
    """``player`` with the whole contract: itself if it is a :class:`BasePlayer`, else a
    :class:`BasePlayer` around it that calls the hooks it has (looked for once, here) and
    gives the defaults of the others. Raises :class:`PluginError` for an object that has
    no ``choose``."""
    if isinstance(player, BasePlayer):
        return player
    return _Adapted(player)


class _Adapted(BasePlayer):
    """A player of a class of its own (see :func:`adapt`)."""

    def __init__(self, inner: object) -> None:
        choose = getattr(inner, "choose", None)
        if not callable(choose):
            raise PluginError(f"{type(inner).__name__} is not a player: it has no choose()")
        self.inner = inner
        self._choose: Callable[[Observation, Sequence[Move]], Move] = choose
        self._hooks: dict[str, Callable[..., None]] = {
            name: method for name in HOOKS if callable(method := getattr(inner, name, None))
        }
        close = getattr(inner, "close", None)
        self._close: Callable[[], None] | None = close if callable(close) else None
        warm = getattr(inner, "warm", None)
        self._warm: Callable[[Rules, int, int], None] | None = warm if callable(warm) else None
        name = getattr(inner, "name", None)
        self.name = name if isinstance(name, str) else type(inner).__name__
        self.answers_later = getattr(inner, "answers_later", False) is True
        path = getattr(inner, "stderr_path", None)
        self.stderr_path = path if isinstance(path, str) else None
        self._at_once = getattr(inner, "plays_at_once", False) is True

    @property
    def plays_at_once(self) -> bool:
        return self._at_once

    @property
    def hooks(self) -> frozenset[str]:
        return frozenset(self._hooks)

    @property
    def implementation(self) -> type:
        return type(self.inner)

    def choose(self, observation: Observation, legal: Sequence[Move]) -> Move:
        return self._choose(observation, legal)

    def start_match(self, seat: int, players: int, seed: int) -> None:
        self._call("start_match", seat, players, seed)

    def start_hand(self, observation: Observation) -> None:
        self._call("start_hand", observation)

    def end_hand(self, observation: Observation, result: HandResult) -> None:
        self._call("end_hand", observation, result)

    def end_match(self, result: MatchResult) -> None:
        self._call("end_match", result)

    def close(self) -> None:
        if self._close is not None:
            self._close()

    def warm(self, rules: Rules, players: int, seat: int = 0) -> None:
        if self._warm is not None:
            self._warm(rules, players, seat)
        else:
            super().warm(rules, players, seat)

    def _call(self, name: str, *args: object) -> None:
        method = self._hooks.get(name)
        if method is not None:
            method(*args)


class PlayerWrapper(BasePlayer):
    """A player around another, ``inner``: it chooses as ``inner`` does (a subclass
    changes that: times it, holds it to a limit, …), and passes the rest of the contract
    on to ``inner``."""

    def __init__(self, inner: object) -> None:
        self.inner = adapt(inner)
        self.name = self.inner.name
        self.answers_later = self.inner.answers_later

    @property
    def stderr_path(self) -> str | None:  # type: ignore[override]
        return self.inner.stderr_path

    @property
    def plays_at_once(self) -> bool:
        return self.inner.plays_at_once

    @property
    def hooks(self) -> frozenset[str]:
        return self.inner.hooks

    @property
    def implementation(self) -> type:
        return self.inner.implementation

    def choose(self, observation: Observation, legal: Sequence[Move]) -> Move:
        return self.inner.choose(observation, legal)

    def start_match(self, seat: int, players: int, seed: int) -> None:
        self.inner.start_match(seat, players, seed)

    def start_hand(self, observation: Observation) -> None:
        self.inner.start_hand(observation)

    def end_hand(self, observation: Observation, result: HandResult) -> None:
        self.inner.end_hand(observation, result)

    def end_match(self, result: MatchResult) -> None:
        self.inner.end_match(result)

    def close(self) -> None:
        self.inner.close()

    def warm(self, rules: Rules, players: int, seat: int = 0) -> None:
        self.inner.warm(rules, players, seat)


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
