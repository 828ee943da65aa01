"""Player plugins: discovery through the ``c8league.players`` entry-point group.

An entry point names a factory (usually a class) that builds a player from keyword
options. The built-in players are registered the same way, in c8league's own
``pyproject.toml``. A plugin that fails to import is listed as broken with the reason;
the others still work. Tests and programs can also :func:`register` a factory
directly, which takes precedence over an installed plugin of the same name.

Options are checked against the factory's declared
:class:`~c8league.players.base.PlayerOptions` (its ``options_model``) when it has
one, otherwise against its signature; :func:`check_options`, used when a bot is
entered, also builds a player without a declared model once, so that its own checks
run before any match is played.
"""

from __future__ import annotations

import inspect
import types
import typing
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from importlib import metadata
from typing import Any

from c8league.errors import PluginError
from c8league.players.base import BasePlayer, Player, PlayerOptions, adapt

ENTRY_POINT_GROUP = "c8league.players"

Factory = Callable[..., Player]


@dataclass(frozen=True)
class PlayerInfo:
    """One discovered player implementation."""

    name: str
    distribution: str
    version: str
    description: str
    factory: Factory | None
    """None when the plugin is broken."""
    error: str | None = None
    """Why the plugin could not be loaded."""
    value: str = ""
    """The entry point's ``module:attribute``."""

    @property
    def broken(self) -> bool:
        return self.factory is None

    def options(self) -> dict[str, inspect.Parameter]:
        """The keyword options the factory accepts."""
        if self.factory is None:
            return {}
        return _parameters(self.factory)

    @property
    def options_model(self) -> type[PlayerOptions] | None:
        """The factory's declared options, if it declares them."""
        return options_model(self.factory) if self.factory is not None else None


_registered: dict[str, PlayerInfo] = {}


def register(name: str, factory: Factory, *, description: str = "", version: str = "0") -> None:
    """Register a player factory in this process (it hides an installed plugin's name)."""
    _registered[name] = PlayerInfo(
        name=name,
        distribution="(registered)",
        version=version,
        description=description or _describe(factory),
        factory=factory,
    )


def unregister(name: str) -> None:
    _registered.pop(name, None)


@contextmanager
def only_registered(players: Mapping[str, Factory]) -> Iterator[None]:
    """Within the block, discovery sees exactly ``players`` and nothing installed."""
    global _isolated
    saved = dict(_registered), _isolated
    _registered.clear()
    _isolated = True
    try:
        for name, factory in players.items():
            register(name, factory)
        yield
    finally:
        _registered.clear()
        _registered.update(saved[0])
        _isolated = saved[1]


_isolated = False


def discover() -> dict[str, PlayerInfo]:
    """Every player: installed entry points, then registered factories, by name."""
    found: dict[str, PlayerInfo] = {}
    if not _isolated:
        for name in _entry_points():
            found[name] = _load_named(name)
    found.update(_registered)
    return dict(sorted(found.items()))


def get(name: str) -> PlayerInfo:
    """The player called ``name``; raises :class:`PluginError` listing the installed ones.
    Only that plugin is imported."""
    info = _registered.get(name)
    if info is None and not _isolated and name in _entry_points():
        info = _load_named(name)
    if info is None:
        names = ", ".join(n for n, i in discover().items() if not i.broken) or "none"
        raise PluginError(f"no player plugin named {name!r}; installed: {names}")
    if info.factory is None:
        raise PluginError(f"player plugin {name!r} is broken: {info.error}")
    return info


def ours(name: str) -> bool:
    """Whether the player ``name`` is c8league's own, its code in this package: told
    without importing an installed plugin that is not yet imported."""
    info = _registered.get(name)
    if info is None and not _isolated:
        info = _loaded.get(name)
        if info is None:
            point = _entry_points().get(name)
            return point is not None and in_package(point.module)
    return info is not None and in_package(getattr(info.factory, "__module__", None))


def in_package(module: object) -> bool:
    """Whether ``module`` (a module's dotted name) is c8league's own code."""
    return isinstance(module, str) and module.split(".")[0] == __name__.split(".")[0]


_scanned: dict[str, metadata.EntryPoint] | None = None
_loaded: dict[str, PlayerInfo] = {}


def _entry_points() -> dict[str, metadata.EntryPoint]:
    """The installed entry points of the group, scanned once per process."""
    global _scanned
    if _scanned is None:
        _scanned = {ep.name: ep for ep in metadata.entry_points(group=ENTRY_POINT_GROUP)}
    return _scanned


def _load_named(name: str) -> PlayerInfo:
    info = _loaded.get(name)
    if info is None:
        info = _loaded[name] = _load(_entry_points()[name])
    return info


def rescan() -> None:
    """Forget what was discovered (after installing a plugin in this process)."""
    global _scanned
    _scanned = None
    _loaded.clear()


def create(name: str, options: Mapping[str, Any] | None = None) -> BasePlayer:
    """Build a player from its plugin name and options (values may be text, as typed
    on a command line: they are converted to the factory's annotated types), with the
    whole player contract (:func:`~c8league.players.base.adapt`)."""
    info = get(name)
    assert info.factory is not None
    kwargs = validate_options(info, options or {})
    try:
        player = info.factory(**kwargs)
    except PluginError:
        raise
    except Exception as exc:
        raise PluginError(f"player {name!r} failed to start: {type(exc).__name__}: {exc}") from exc
    if not isinstance(player, Player):
        raise PluginError(f"player {name!r}: its factory returned an object with no choose()")
    return adapt(player)


def validate_options(info: PlayerInfo, options: Mapping[str, Any]) -> dict[str, Any]:
    """Check options against the factory's declared model (or, without one, their names
    against its parameters) and convert their values; raises :class:`PluginError`."""
    model = info.options_model
    if model is not None:
        return model.check(info.name, options)
    params = info.options()
    takes_any = any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values())
    named = {
        n: p
        for n, p in params.items()
        if p.kind in (inspect.Parameter.KEYWORD_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    }
    result: dict[str, Any] = {}
    for key, value in options.items():
        param = named.get(key)
        if param is None:
            if takes_any:
                result[key] = value
                continue
            valid = ", ".join(named) or "none"
            raise PluginError(f"player {info.name!r} has no option {key!r}; options: {valid}")
        result[key] = _convert(info.name, key, value, param.annotation)
    missing = [
        n for n, p in named.items() if p.default is inspect.Parameter.empty and n not in result
    ]
    if missing:
        raise PluginError(f"player {info.name!r} needs option(s): {', '.join(missing)}")
    return result


def check_options(name: str, options: Mapping[str, Any]) -> dict[str, Any]:
    """The options of a bot being entered, checked and converted (see
    :func:`validate_options`). A plugin that declares no options model is built once
    with them and closed, so that what its factory refuses is refused now."""
    info = get(name)
    kwargs = validate_options(info, options)
    if info.options_model is None:
        assert info.factory is not None
        try:
            player = info.factory(**kwargs)
        except PluginError:
            raise
        except Exception as exc:
            raise PluginError(
                f"player {name!r} refused these options: {type(exc).__name__}: {exc}"
            ) from exc
        try:
            if isinstance(player, Player):
                adapt(player).close()
        except Exception as exc:
            raise PluginError(f"player {type(player).__name__}: close() failed: {exc}") from exc
    return kwargs


def options_model(factory: object) -> type[PlayerOptions] | None:
    """The :class:`PlayerOptions` a factory declares (its ``options_model``), if any."""
    model = getattr(factory, "options_model", None)
    if isinstance(model, type) and issubclass(model, PlayerOptions):
        return model
    return None


def parse_options(items: list[str]) -> dict[str, str]:
    """Read ``key=value`` items as given on a command line."""
    result: dict[str, str] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise PluginError(f"expected option=value, got {item!r}")
        result[key.strip()] = value.strip()
    return result


def _load(ep: metadata.EntryPoint) -> PlayerInfo:
    dist = ep.dist
    dist_name = dist.metadata["Name"] if dist is not None else "?"
    version = dist.version if dist is not None else "?"
    try:
        factory = ep.load()
    except Exception as exc:  # a broken plugin must not break the others
        return PlayerInfo(
            name=ep.name,
            distribution=dist_name,
            version=version,
            description="",
            factory=None,
            error=f"{type(exc).__name__}: {exc}",
            value=ep.value,
        )
    if not callable(factory):
        return PlayerInfo(
            name=ep.name,
            distribution=dist_name,
            version=version,
            description="",
            factory=None,
            error="not callable",
            value=ep.value,
        )
    return PlayerInfo(
        name=ep.name,
        distribution=dist_name,
        version=version,
        description=_describe(factory),
        factory=factory,
        error=None,
        value=ep.value,
    )


def _describe(factory: object) -> str:
    """The first sentence of the factory's own docstring (or its module's)."""
    doc = factory.__dict__.get("__doc__") if inspect.isclass(factory) else factory.__doc__
    if not doc:
        module = inspect.getmodule(factory)
        doc = module.__doc__ if module is not None else None
    paragraph = inspect.cleandoc(doc or "").split("\n\n")[0].replace("\n", " ").strip()
    sentence, dot, _ = paragraph.partition(". ")
    return sentence + ("." if dot else "")


def _parameters(factory: Factory) -> dict[str, inspect.Parameter]:
    try:
        signature = inspect.signature(factory)
    except (TypeError, ValueError):
        return {}
    try:
        hints = typing.get_type_hints(factory.__init__ if inspect.isclass(factory) else factory)
    except Exception:
        hints = {}
    return {
        name: p.replace(annotation=hints.get(name, p.annotation))
        for name, p in signature.parameters.items()
    }


def _convert(player: str, key: str, value: Any, annotation: Any) -> Any:
    """Convert text from a command line or file to the option's annotated type."""
    types_ = _plain_types(annotation)
    if not types_ or not isinstance(value, str) or str in types_:
        if types_ and not isinstance(value, str) and not _fits(value, types_):
            raise PluginError(
                f"player {player!r} option {key!r}: {value!r} is not "
                f"{' or '.join(t.__name__ for t in types_)}"
            )
        return value
    for kind in types_:
        try:
            if kind is bool:
                low = value.strip().lower()
                if low in ("true", "yes", "on", "1"):
                    return True
                if low in ("false", "no", "off", "0"):
                    return False
                continue
            return kind(value)
        except (TypeError, ValueError):
            continue
    raise PluginError(
        f"player {player!r} option {key!r}: {value!r} is not "
        f"{' or '.join(t.__name__ for t in types_)}"
    )


def _fits(value: Any, kinds: list[type]) -> bool:
    if isinstance(value, bool):
        return bool in kinds
    if isinstance(value, int) and float in kinds:
        return True
    return any(isinstance(value, k) for k in kinds)


def _plain_types(annotation: Any) -> list[type]:
    if annotation is inspect.Parameter.empty or annotation is Any:
        return []
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType):
        out: list[type] = []
        for arg in typing.get_args(annotation):
            out.extend(_plain_types(arg))
        return out
    if annotation is type(None):
        return []
    if origin is not None:
        return [origin] if isinstance(origin, type) else []
    return [annotation] if isinstance(annotation, type) else []
