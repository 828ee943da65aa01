"""Build hook: compile the rules engine with mypyc.

The engine's modules are plain, fully typed Python; mypyc turns them into C extensions
that run the same code 2.5 to 3 times faster. Everything else is in ``pyproject.toml``.

* ``C8LEAGUE_PURE=1 pip install ...`` skips compiling: the engine runs from source.
* Without a C compiler, or if mypyc fails, the build warns and installs the source
  engine (each extension is ``optional``), so an install never fails for want of a
  compiler.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from pathlib import Path
from typing import Any

from setuptools import setup

#: The engine modules on the hot path of every game, in dependency order.
COMPILED = ("cards", "moves", "rules", "seeds", "observation", "hand")
ENGINE = Path("c8league/engine")
#: What the compiled modules were built from (for ``c8league/engine/_build.py`` to tell,
#: in a checkout, whether a source was edited since).
BUILT_FROM = ENGINE / "_compiled_from.json"


def record_sources() -> None:
    digests = {
        name: hashlib.sha256((ENGINE / f"{name}.py").read_bytes()).hexdigest() for name in COMPILED
    }
    BUILT_FROM.write_text(json.dumps(digests, indent=1) + "\n")


def remove_old_builds() -> None:
    """Delete compiled modules an earlier build left in this tree (an editable install
    puts them beside the sources), so that a build that compiles nothing, or fails to,
    leaves the source engine in charge rather than an older compiled one."""
    old = [p for name in COMPILED for p in ENGINE.glob(f"{name}.*") if p.suffix in (".so", ".pyd")]
    old += [p for p in Path().glob("c8league_engine__mypyc.*") if p.suffix in (".so", ".pyd")]
    for path in [*old, BUILT_FROM]:
        path.unlink(missing_ok=True)


def engine_extensions() -> list[Any]:
    remove_old_builds()
    if os.environ.get("C8LEAGUE_PURE", "") not in ("", "0"):
        return []
    try:
        from mypyc.build import mypycify

        extensions = mypycify(
            [f"c8league/engine/{name}.py" for name in COMPILED],
            opt_level="3",
            group_name="c8league_engine",
        )
    except (SystemExit, Exception) as exc:  # mypyc exits on type errors
        print(f"c8league: engine not compiled ({exc!r}); using its source", file=sys.stderr)
        return []
    for extension in extensions:
        extension.optional = True  # a failed compile leaves the source engine in place
    record_sources()
    return extensions


setup(ext_modules=engine_extensions())
