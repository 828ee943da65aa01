"""Which version of a bot plays: what tells one version of a player from another.

* An external bot's version is its command line and ``env`` option, the digest of its
  own file (the first argument of its command that names a file, else its program: see
  ``c8league.sandbox.locate``) and the digest of its folder's files (its ``cwd``, else
  its file's folder), up to :data:`TREE_FILES` files and :data:`TREE_BYTES` bytes. Files
  that are not the bot's code are left out: c8league's own database and its files
  (``sandbox.hidden``), caches (``__pycache__``, ``.git``…), logs (``*.log``). A bot
  whose files change is a new version.
* A Python player's version is its distribution's name and version, and its options.

How a bot is run (its time and memory limits, its sandbox, its log folder, its name) is
not part of its version. :func:`version_of` hashes a folder's files once per process and
again only for a file whose size or time of change differ (a ladder looks before each
match).
"""

from __future__ import annotations

import hashlib
import json
import os
import shlex
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from c8league import sandbox
from c8league.players import registry

TREE_FILES = 10_000
"""The most files of a bot's folder its version takes (in name order)."""
TREE_BYTES = 64 << 20
"""The most bytes of a bot's folder its version takes."""
SKIPPED_FOLDERS = frozenset(
    {"__pycache__", ".git", ".hg", ".svn", ".mypy_cache", ".pytest_cache", ".ruff_cache"}
)
SKIPPED_SUFFIXES = (".pyc", ".pyo", ".log")
RUN_OPTIONS = frozenset(
    {
        "name",
        "move_time",
        "startup_time",
        "memory_mb",
        "log_dir",
        "restart",
        "sandbox",
        "scratch_mb",
        "network",
        "ro_paths",
        "max_processes",
    }
)
"""The options of the ``external`` player that say how a bot is run, not what it is."""
EXTERNAL = "external"


@dataclass(frozen=True)
class Version:
    """A version of a player: its ``digest`` (SHA-256, hex) tells versions apart; its
    ``label`` names it shortly (``alice.py 3f2a1c9e``, ``c8league-montecarlo 0.1.0``);
    its ``details`` say what it was made of (JSON-able)."""

    digest: str
    label: str
    details: dict[str, Any] = field(default_factory=dict, compare=False)

    def details_json(self) -> str:
        return json.dumps(self.details, sort_keys=True)


def version_of(plugin: str, options: Mapping[str, Any]) -> Version:
    """The version of the player ``plugin`` with ``options`` as it is now (an external
    bot's files are read; one whose program is not found is told by its command line)."""
    if plugin == EXTERNAL:
        return _external(options)
    info = registry.get(plugin)
    made = {
        "kind": "python",
        "player": plugin,
        "distribution": info.distribution,
        "version": info.version,
        "options": dict(sorted(options.items())),
    }
    digest = _digest(made)
    return Version(digest, f"{plugin} {info.version}", made)


def _external(options: Mapping[str, Any]) -> Version:
    raw = options.get("command", "")
    command = list(shlex.split(raw)) if isinstance(raw, str) else [str(a) for a in raw]
    cwd = options.get("cwd")
    env = options.get("env") or {}
    try:
        where = sandbox.locate(command, cwd=cwd, env=env)
    except OSError as exc:  # (its run says why it cannot start)
        known = {"kind": "external", "command": command, "env": dict(sorted(env.items()))}
        digest = _digest(known)
        return Version(
            digest, f"{command[0] if command else '?'} {digest[:8]}", {**known, "error": str(exc)}
        )
    tree = _tree(where.folder)
    made: dict[str, Any] = {
        "kind": "external",
        "command": command,
        "env": dict(sorted(env.items())),
        "file": where.file,
        "file_sha256": _file_digest(where.file) if os.path.isfile(where.file) else None,
        "folder": where.folder,
        "folder_sha256": tree.digest,
        "files": tree.files,
        "bytes": tree.size,
        "complete": tree.complete,
    }
    identity = {key: made[key] for key in ("command", "env", "file_sha256", "folder_sha256")}
    digest = _digest(identity)
    return Version(digest, f"{os.path.basename(where.file)} {digest[:8]}", made)


def _digest(value: Any) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True).encode()).hexdigest()


@dataclass(frozen=True)
class _Tree:
    digest: str
    files: int
    size: int
    complete: bool
    """Whether every file was taken (else the caps stopped the walk)."""


_seen: dict[str, tuple[int, int, int, str]] = {}
"""Each file hashed in this process: (size, time of change, inode, SHA-256)."""


def _file_digest(path: str) -> str:
    """A file's SHA-256, hashed again only when its size, time of change or inode differ
    from when it was last hashed in this process."""
    info = os.stat(path)
    mark = (info.st_size, info.st_mtime_ns, info.st_ino)
    known = _seen.get(path)
    if known is not None and known[:3] == mark:
        return known[3]
    digest = hashlib.sha256()
    with open(path, "rb") as file:
        for chunk in iter(lambda: file.read(1 << 20), b""):
            digest.update(chunk)
    hexed = digest.hexdigest()
    _seen[path] = (*mark, hexed)
    return hexed


def _tree(folder: str) -> _Tree:
    """The digest of the files of ``folder``: each file's path (relative) and SHA-256,
    in name order, up to the caps; what is not a bot's code left out."""
    hidden = [os.path.split(path) for path in sandbox.hidden()]
    entries: list[tuple[str, str]] = []
    size = 0
    complete = True
    for top, folders, names in os.walk(folder):
        folders[:] = sorted(f for f in folders if f not in SKIPPED_FOLDERS)
        for name in sorted(names):
            path = os.path.join(top, name)
            if name.endswith(SKIPPED_SUFFIXES) or _hidden(top, name, hidden):
                continue
            try:
                if not os.path.isfile(path):
                    continue
                length = os.path.getsize(path)
                if len(entries) >= TREE_FILES or size + length > TREE_BYTES:
                    complete = False
                    continue
                entries.append((os.path.relpath(path, folder), _file_digest(path)))
            except OSError:
                continue
            size += length
    return _Tree(_digest(entries), len(entries), size, complete)


def _hidden(top: str, name: str, hidden: Sequence[tuple[str, str]]) -> bool:
    """Whether the file ``name`` of ``top`` is c8league's (its database and files)."""
    return any(top == folder and name.startswith(prefix) for folder, prefix in hidden)


def what_changed(old: Mapping[str, Any], new: Mapping[str, Any]) -> str:
    """What tells version ``new`` from ``old`` (their :attr:`Version.details`), in a few
    words: ``its file bot.py``, ``files of its folder /bots/alice``, ``its command``…"""
    said = []
    if old.get("kind") != new.get("kind"):
        return "another kind of player"
    if new.get("kind") == "python":
        if old.get("version") != new.get("version"):
            said.append("its version")
        if old.get("options") != new.get("options"):
            said.append("its options")
        return ", ".join(said) or "its plugin"
    if old.get("command") != new.get("command"):
        said.append("its command")
    if old.get("env") != new.get("env"):
        said.append("its env")
    if old.get("file_sha256") != new.get("file_sha256"):
        said.append(f"its file {os.path.basename(str(new.get('file', '')))}")
    if old.get("folder_sha256") != new.get("folder_sha256"):
        said.append(f"files of its folder {new.get('folder')}")
    return ", ".join(said) or "its files"
