"""``c8league games export``: every game of an event, a duel or a league, one JSON line
each, for analysis tools.

A line is the record ``match show --format json`` prints (:func:`~c8league.reports.games.
game_record`, ``docs/games-export.md``), written compactly. The games are read from
storage a page at a time (:func:`~c8league.storage.results.finished_matches`,
:func:`~c8league.storage.duels.pairs_with_moves`) in one view of the database, and each
line is handed on as it is made, so an export takes memory that does not grow with the
number of games. :func:`write_atomically` writes the lines to a file that appears whole
or not at all.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from collections.abc import Generator, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from c8league.duel.plan import DuelSettings
from c8league.errors import NotFoundError, StorageError, UsageError
from c8league.reports.games import duel_game, duel_versions, event_game, game_record
from c8league.storage import Session, chain
from c8league.storage import duels as stored_duels
from c8league.storage import leagues as stored_leagues
from c8league.storage import results as stored_results
from c8league.storage.database import Database

_LINE = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode


@dataclass(frozen=True)
class Target:
    """What an export covers: ``kind`` ``event`` (``league/event``), ``league`` or
    ``duel``, named by ``name``."""

    kind: str
    name: str


def find_target(db: Database, target: str, league: str | None = None) -> Target:
    """The event, league or duel ``target`` names: an event as ``LEAGUE/EVENT``, or
    ``EVENT`` with ``league``; else a league of that name, else a duel, else an event
    (:class:`NotFoundError` names what there is)."""
    text = target.strip()
    with db.session() as session:
        if league is not None or "/" in text:
            lg, ev = stored_leagues.get_event(session, text, league)
            return Target("event", f"{lg.name}/{ev.name}")
        found = stored_leagues.find_league(session, text)
        if found is not None:
            return Target("league", found.name)
        duel = stored_duels.find(session, text)
        if duel is not None:
            return Target("duel", duel.name)
        try:
            lg, ev = stored_leagues.get_event(session, text)
        except NotFoundError as exc:
            leagues = ", ".join(stored_leagues.league_names(session)) or "none"
            duels = ", ".join(d.name for d in stored_duels.all_duels(session)[-10:]) or "none"
            raise NotFoundError(
                f"no league, duel or event named {text!r}; leagues: {leagues}; duels: "
                f"{duels}; {exc}"
            ) from None
        return Target("event", f"{lg.name}/{ev.name}")


def game_lines(db: Database, target: Target) -> Generator[str, None, None]:
    """The games of ``target``, one JSON line each (with its newline), in the order they
    were paired: an event's or a league's by match id, a duel's by deal, A's match
    before B's. Only finished games: a match still to be played, or voided, has none.
    The games are read in one view of the database (what is stored meanwhile is not
    in it), a page at a time; close the iterator to end the read early."""
    with db.session() as session:
        chain.reading(session)  # one view of the database for the whole export
        if target.kind == "duel":
            yield from _duel_lines(session, target.name)
        else:
            yield from _event_lines(session, target)


def _event_lines(session: Session, target: Target) -> Iterator[str]:
    if target.kind == "event":
        _, event = stored_leagues.get_event(session, target.name)
        events = [event]
    else:
        league = stored_leagues.get_league(session, target.name)
        assert league.id is not None
        events = stored_leagues.league_events(session, league.id)
    event_ids = [e.id for e in events if e.id is not None]
    after = 0
    while True:
        page = stored_results.finished_matches(session, event_ids, after=after)
        if not page:
            return
        for match in page:
            yield _LINE(game_record(event_game(match))) + "\n"
        after = page[-1].match_id


def _duel_lines(session: Session, name: str) -> Iterator[str]:
    duel = stored_duels.get(session, name)
    assert duel.id is not None
    settings = DuelSettings.from_json(duel.settings)
    after = -1
    while True:
        page = stored_duels.pairs_with_moves(session, duel.id, after=after)
        if not page:
            return
        versions = duel_versions(session, page)
        for pair in page:
            for side in "AB":
                game = duel_game(duel.name, settings, pair, side, versions)
                yield _LINE(game_record(game)) + "\n"
        after = page[-1].deal


def write_atomically(path: Path, lines: Iterable[str]) -> int:
    """Write ``lines`` to ``path`` through a file beside it that takes its place only
    once every line is written: ``path`` is whole, or as it was (an error, a Ctrl-C).
    Returns how many lines were written."""
    folder = path.parent if str(path.parent) else Path(".")
    if path.is_dir():
        raise UsageError(f"{path} is a folder: name a file (nothing was written)")
    if not folder.is_dir():
        raise UsageError(f"{folder} is not a folder (nothing was written)")
    try:
        fd, partial = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".partial", dir=folder)
    except OSError as exc:
        raise StorageError(f"cannot write {path}: {exc.strerror or exc}") from None
    count = 0
    try:
        mask = os.umask(0)
        os.umask(mask)
        os.chmod(partial, 0o666 & ~mask)  # as a file written in place would be (not 0600)
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as file:
            for line in lines:
                file.write(line)
                count += 1
            file.flush()
            os.fsync(file.fileno())
        os.replace(partial, path)
    except OSError as exc:
        raise StorageError(f"cannot write {path}: {exc.strerror or exc}") from None
    finally:
        with contextlib.suppress(OSError):
            os.unlink(partial)
    return count
