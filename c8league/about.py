"""What runs: the version, the engine (compiled or source, and why), Python, the sandbox
of external bots, and the player plugins installed. ``c8league --version`` prints ``report()``.

Kept light: it reads package metadata and the engine's build record, and imports
nothing of the storage, the reports or the terminal UI, so that ``--version`` is quick.
"""

from __future__ import annotations

import json
import platform
from pathlib import Path

from c8league.engine import _build

DISTRIBUTION = "c8league"
#: The entry-point group of player plugins (the same as ``players.registry`` reads).
PLAYERS_GROUP = "c8league.players"


def version() -> str:
    """The installed version of c8league (``unknown`` when run from a tree never installed)."""
    from importlib import metadata  # 15 ms that only --version and bots spend

    try:
        return metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return "unknown"


def engine() -> str:
    """``compiled (mypyc 2.4.1)``, or ``source (why)``."""
    return _build.describe()


def python() -> str:
    return (
        f"{platform.python_version()} ({platform.python_implementation()}, "
        f"{platform.system()} {platform.machine()})"
    )


def plugins() -> list[tuple[str, str, list[str]]]:
    """The distributions other than c8league that register players: name, version and
    the players' names. Read from the metadata: no plugin is imported."""
    from importlib import metadata  # 15 ms that only --version and bots spend

    found: dict[tuple[str, str], list[str]] = {}
    for entry in metadata.entry_points(group=PLAYERS_GROUP):
        dist = entry.dist
        name = dist.name if dist is not None else "?"
        if name.lower() == DISTRIBUTION:
            continue
        found.setdefault((name, dist.version if dist is not None else "?"), []).append(entry.name)
    return [(name, ver, sorted(players)) for (name, ver), players in sorted(found.items())]


def report() -> str:
    """The lines ``c8league --version`` prints."""
    from c8league import sandbox  # (its import, and a sandbox made: --version alone)

    lines = [
        f"c8league {version()}",
        f"engine: {engine()}",
        f"python: {python()}",
        f"sandbox: {sandbox.describe()}",
    ]
    found = plugins()
    if not found:
        lines.append("plugins: none besides the built-in players")
    else:
        lines.append("plugins:")
        lines += [f"  {name} {ver} ({', '.join(players)})" for name, ver, players in found]
    return "\n".join(lines)


def header() -> str:
    """One line for a benchmark's output: what produced its figures."""
    return f"engine: {engine()}; c8league {version()}; Python {platform.python_version()}"


def install_notice(state_dir: Path) -> str | None:
    """A notice to show once per installation when the engine runs from source because
    the install could not compile it (pip hides the build's warning). ``None`` when it
    runs compiled, when the source was chosen (``C8LEAGUE_PURE``), or when the notice
    was already shown (recorded in ``state_dir``)."""
    info = _build.build_info()
    if _build.COMPILED or info.get("compiled") is not False or info.get("deliberate"):
        return None
    # Once for this install and this outcome of its build.
    key = f"{Path(_build.__file__).resolve().parent} {json.dumps(info, sort_keys=True)}\n"
    marker = state_dir / "engine-notice"
    try:
        if marker.read_text() == key:
            return None
    except OSError:
        pass
    try:
        state_dir.mkdir(parents=True, exist_ok=True)
        marker.write_text(key)
    except OSError:
        pass  # shown again next time rather than never
    return (
        f"note: the rules engine runs from its Python source, 2.5 to 3 times slower "
        f"({_build.REASON}). With a C compiler, reinstalling c8league compiles it; "
        "`c8league --version` says which engine runs."
    )
