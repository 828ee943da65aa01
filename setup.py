"""Build hook: compile the rules engine with mypyc.

The engine's modules are plain, fully typed Python; mypyc turns them into C extensions
that run the same code several times faster. Everything else in ``pyproject.toml``.

* ``C8LEAGUE_PURE=1 pip install ...`` skips compiling: the engine runs from source.
* Without a C compiler, or if mypyc fails, the build warns and installs the source
  engine (each extension is ``optional``), so an install never fails for want of a
  compiler.
"""

from __future__ import annotations

import os
import sys
from typing import Any

from setuptools import setup

#: The engine modules on the hot path of every game, in dependency order.
COMPILED = ("cards", "moves", "rules", "seeds", "observation", "hand")


def engine_extensions() -> list[Any]:
    if os.environ.get("C8LEAGUE_PURE", "") not in ("", "0"):
        return []
    try:
        from mypyc.build import mypycify

        extensions = mypycify(
            [f"c8league/engine/{name}.py" for name in COMPILED],
            opt_level="3",
            group_name="c8league_engine",
        )
    except (ImportError, SystemExit, Exception) as exc:  # mypyc exits on type errors
        print(f"c8league: engine not compiled ({exc!r}); using its source", file=sys.stderr)
        return []
    for extension in extensions:
        extension.optional = True  # a failed compile leaves the source engine in place
    return extensions


setup(ext_modules=engine_extensions())
