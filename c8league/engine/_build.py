"""Which engine runs: the compiled one (mypyc) or its Python source.

``setup.py`` compiles the engine's hot modules into C extensions that sit beside their
sources. This module, imported first by the package, decides which of the two is
imported:

* ``C8LEAGUE_PURE=1`` in the environment imports the source even where compiled
  modules exist (to debug, or to test the source as it runs without a compiler);
* in a source checkout, a compiled module is stale when its source differs from the
  one it was built from (``_compiled_from.json``, written by the build, holds their
  SHA-256; without it, when the source is newer than the module): the source is
  imported instead, with a warning to rebuild.

``COMPILED`` tells which engine was imported.
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

#: The modules ``setup.py`` compiles (keep the two lists equal).
COMPILED_MODULES = ("cards", "moves", "rules", "seeds", "observation", "hand")
_HERE = Path(__file__).resolve().parent
_PACKAGE = __name__.rpartition(".")[0]


class _SourceFinder(importlib.abc.MetaPathFinder):
    """Finds the engine's modules as ``.py`` files, ahead of the compiled ones."""

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None,
        target: ModuleType | None = None,
    ) -> importlib.machinery.ModuleSpec | None:
        package, _, leaf = fullname.rpartition(".")
        if package != _PACKAGE or leaf not in COMPILED_MODULES:
            return None
        return importlib.util.spec_from_file_location(fullname, _HERE / f"{leaf}.py")


def _compiled_files(leaf: str) -> list[Path]:
    return [
        _HERE / f"{leaf}{suffix}"
        for suffix in importlib.machinery.EXTENSION_SUFFIXES
        if (_HERE / f"{leaf}{suffix}").exists()
    ]


def _stale() -> list[str]:
    """Sources changed since their compiled module was built. Only in a source checkout:
    an installed package is built from its files as they are."""
    if not (_HERE.parent.parent / "pyproject.toml").exists():
        return []
    try:
        built_from: dict[str, str] | None = json.loads((_HERE / "_compiled_from.json").read_text())
    except (OSError, ValueError):
        built_from = None
    stale = []
    for leaf in COMPILED_MODULES:
        compiled = _compiled_files(leaf)
        if not compiled:
            continue
        source = _HERE / f"{leaf}.py"
        if built_from is not None:
            changed = hashlib.sha256(source.read_bytes()).hexdigest() != built_from.get(leaf)
        else:
            # The module files are shims that a rebuild may leave untouched; the code is
            # in the group's shared library beside the package, when there is one.
            library = list(_HERE.parent.parent.glob("*__mypyc.*"))
            built = max(f.stat().st_mtime for f in library or compiled)
            changed = source.stat().st_mtime > built
        if changed:
            stale.append(f"{leaf}.py")
    return stale


def _choose() -> bool:
    """Install the source finder if the source is to run; return whether it is compiled."""
    if not any(_compiled_files(leaf) for leaf in COMPILED_MODULES):
        return False
    if os.environ.get("C8LEAGUE_PURE", "") not in ("", "0"):
        sys.meta_path.insert(0, _SourceFinder())
        return False
    stale = _stale()
    if stale:
        warnings.warn(
            f"c8league: the compiled engine is older than {', '.join(stale)}; running the "
            "source instead (rebuild with: pip install -e .)",
            RuntimeWarning,
            stacklevel=2,
        )
        sys.meta_path.insert(0, _SourceFinder())
        return False
    return True


COMPILED: bool = _choose()
