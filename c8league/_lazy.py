"""Package namespaces that import their modules on first use (PEP 562).

A package re-exports the names of its modules (``from c8league.events import
event_standings``) without importing every module when the package is imported: the
name is imported from its module the first time it is asked for. A command then loads
only what it uses. Type checkers read the same names from the package's
``if TYPE_CHECKING:`` imports.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, MutableMapping, Sequence
from importlib import import_module
from typing import Any


def lazy_exports(
    package: str, homes: Mapping[str, Sequence[str]], namespace: MutableMapping[str, Any]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The ``__getattr__`` and ``__dir__`` of ``package``, whose ``namespace`` (its
    ``globals()``) gets each name of ``homes`` (``{module: names}``, modules relative to
    the package) from its module on first use."""
    home_of = {name: module for module, names in homes.items() for name in names}

    def __getattr__(name: str) -> Any:
        module = home_of.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(import_module(f"{package}.{module}"), name)
        namespace[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted({*namespace, *home_of})

    return __getattr__, __dir__
