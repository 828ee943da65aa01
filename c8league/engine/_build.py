"""Which engine runs: the compiled one (mypyc) or its Python source, and why.

A build (``setup.py``) compiles the engine's hot modules, and the round-robin schedule's
search, into C extensions that sit beside their sources, and writes ``_build.json``
beside this file: whether it compiled, with which mypyc and from which sources, or why
it did not. This module, imported first by the engine and by the schedule, decides
which of the two is imported, for all the modules alike:

* ``C8LEAGUE_PURE=1`` in the environment imports the source even where compiled
  modules exist (to debug, or to test the source as it runs without a compiler);
* a compiled engine missing some of its modules is not used: the source runs;
* in a source checkout, a compiled module is stale when its source differs from the
  one it was built from (``_build.json`` holds their SHA-256; without it, when the
  source is newer than the module): the source is imported instead, with a warning
  to rebuild.

``COMPILED`` tells which engine was imported; ``REASON`` why it is the source, and
``describe()`` both in words (``c8league --version`` prints it).
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

#: The modules the build compiles (named within the package), in dependency order.
#: ``setup.py`` reads this tuple from this file (it parses it, without importing the
#: package): keep it a literal.
COMPILED_MODULES = (
    "engine.cards",
    "engine.moves",
    "engine.jsonform",
    "engine.rules",
    "engine.seeds",
    "engine.scoring",
    "engine.state",
    "engine.observation",
    "engine.hand",
    "engine.wire",
    "schedule.ledger",
    "schedule.search",
    "schedule.seats",
)
#: mypyc's group: the compiled code of all the modules is in one shared library,
#: ``<GROUP>__mypyc``, beside the package; each module is a small shim that loads it.
GROUP = "c8league_engine"
#: What the build writes beside the modules: see the module's docstring.
BUILD_INFO = "_build.json"

_HERE = Path(__file__).resolve().parent
_PACKAGE_DIR = _HERE.parent
_PACKAGE = __name__.split(".")[0]
#: The record of builds before ``_build.json`` (its sources only).
_LEGACY_INFO = "_compiled_from.json"


class _SourceFinder(importlib.abc.MetaPathFinder):
    """Finds the compiled modules' ``.py`` files, ahead of the compiled ones."""

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None,
        target: ModuleType | None = None,
    ) -> importlib.machinery.ModuleSpec | None:
        package, _, module = fullname.partition(".")
        if package != _PACKAGE or module not in COMPILED_MODULES:
            return None
        return importlib.util.spec_from_file_location(fullname, _source(module))


def _source(module: str) -> Path:
    """The source of ``module`` (``engine.hand``: ``.../c8league/engine/hand.py``)."""
    return _PACKAGE_DIR.joinpath(*module.split(".")).with_suffix(".py")


def _compiled_files(module: str) -> list[Path]:
    base = _source(module).with_suffix("")
    return [
        base.with_name(base.name + suffix)
        for suffix in importlib.machinery.EXTENSION_SUFFIXES
        if base.with_name(base.name + suffix).exists()
    ]


def _library() -> list[Path]:
    """The group's shared library beside the package, for this interpreter."""
    root = _PACKAGE_DIR.parent
    return [
        root / f"{GROUP}__mypyc{suffix}"
        for suffix in importlib.machinery.EXTENSION_SUFFIXES
        if (root / f"{GROUP}__mypyc{suffix}").exists()
    ]


def _in_checkout() -> bool:
    return (_PACKAGE_DIR.parent / "pyproject.toml").exists()


def build_info() -> dict[str, Any]:
    """What the build recorded (``{}`` where nothing was built or the file is unreadable)."""
    for name in (BUILD_INFO, _LEGACY_INFO):
        try:
            info = json.loads((_HERE / name).read_text())
        except (OSError, ValueError):
            continue
        if isinstance(info, dict):
            return info if name == BUILD_INFO else {"compiled": True, "sources": info}
    return {}


def _stale(info: dict[str, Any] | None = None) -> list[str]:
    """Sources changed since their compiled module was built. Only in a source checkout:
    an installed package is built from its files as they are."""
    if not _in_checkout():
        return []
    built_from = (build_info() if info is None else info).get("sources")
    stale = []
    for module in COMPILED_MODULES:
        compiled = _compiled_files(module)
        if not compiled:
            continue
        source = _source(module)
        if isinstance(built_from, dict):
            digest = hashlib.sha256(source.read_bytes()).hexdigest()
            changed = digest != built_from.get(module)
        else:
            # The module files are shims that a rebuild may leave untouched; the code is
            # in the group's shared library beside the package, when there is one.
            built = max(f.stat().st_mtime for f in _library() or compiled)
            changed = source.stat().st_mtime > built
        if changed:
            stale.append(f"{module.replace('.', '/')}.py")
    return stale


def _rebuild_hint() -> str:
    return "rebuild with: pip install -e ." if _in_checkout() else "reinstall c8league"


def _not_built(info: dict[str, Any]) -> str:
    """Why no compiled module is here."""
    if info.get("compiled") is False:
        return f"not compiled at install: {info.get('reason') or 'no reason recorded'}"
    if info.get("compiled"):
        return f"the compiled modules are missing; {_rebuild_hint()}"
    if _in_checkout():
        return "a source checkout not yet built; pip install -e . compiles it"
    return "not compiled at install"


def _choose() -> tuple[bool, str | None]:
    """Install the source finder if the source is to run; return whether the compiled
    engine runs, and if not, why."""
    present = [module for module in COMPILED_MODULES if _compiled_files(module)]
    info = build_info()
    if not present:
        return False, _not_built(info)
    pure = os.environ.get("C8LEAGUE_PURE", "") not in ("", "0")
    missing = [module for module in COMPILED_MODULES if module not in present]
    if not _library() and importlib.util.find_spec(f"{GROUP}__mypyc") is None:
        missing.append(f"{GROUP}__mypyc")
    stale = [] if pure or missing else _stale(info)
    if pure:
        reason = "C8LEAGUE_PURE is set"
    elif missing:
        reason = f"the compiled engine lacks {', '.join(missing)}; {_rebuild_hint()}"
    elif stale:
        reason = f"the source is newer than the build ({', '.join(stale)}); {_rebuild_hint()}"
        warnings.warn(
            f"c8league: the compiled engine is older than {', '.join(stale)}; running the "
            f"source instead ({_rebuild_hint()})",
            RuntimeWarning,
            stacklevel=2,
        )
    else:
        return True, None
    sys.meta_path.insert(0, _SourceFinder())
    return False, reason


COMPILED, REASON = _choose()


def describe() -> str:
    """The engine that runs, in words: ``compiled (mypyc 2.4.1)`` or ``source (why)``."""
    if COMPILED:
        mypyc = build_info().get("mypyc")
        return f"compiled (mypyc {mypyc})" if mypyc else "compiled (mypyc)"
    return f"source ({REASON})"
