"""The record's chain: every record c8league writes carries a digest of its rows as
written, in an entry chained to the one before it, as a transparency log chains its
entries. A change made outside c8league (an ``UPDATE`` in the ``sqlite3`` shell, a
deleted row) then shows: the rows no longer have the digest of their latest entry.

What is chained: leagues, players (entrants), memberships and their history, events,
rounds, matches (the match, its seats and its hands), the audit trail, duels and their
pairs, the versions of bots: everything c8league stores but what it derives from these
(ratings and their history, which ``ratings rebuild`` computes again from the results; a
round-robin's stored schedule; the counters in ``meta``), and the tables' codes with the
results reported by them (``table_code``: codes are secrets, and a reported result is
not the record until it is accepted, as an audited ``add``).

An entry (:class:`~c8league.storage.models.ChainEntry`) names its record by ``kind``
and ``key`` (``match`` ``12``, ``pair`` ``3/5`` for deal 5 of duel 3), holds the digest
of each part of the record (:func:`digest_text`; ``None`` once c8league deleted it),
and its ``link``: the SHA-256 of the previous entry's link and this entry's fields
(:func:`link_of`). A record that c8league writes again gets a new entry; the latest one
holds. Nothing is secret: whoever can write the database can rebuild the chain too;
the chain's head, published, is what an earlier state is checked against
(:func:`verify` with ``head``).

Entries are written when a transaction commits, in the same transaction as the rows
they cover (a SQLAlchemy ``before_commit`` hook, for every session): the records a
session changed through the ORM are read back then (:func:`_after_flush` notes them);
the writers that write many rows at once without the ORM (results, rounds, duel
pairs) hash what they write as they write it (:func:`written`, with
:func:`match_stamp` and :func:`row_stamp`), so that the runner's batches are not read
again. A test checks that both ways give the same digests.
"""

from __future__ import annotations

import hashlib
import itertools
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    Connection,
    Table,
    event,
    false,
    insert,
    inspect,
    or_,
    true,
)
from sqlalchemy import select as sa_select
from sqlalchemy.orm import Session as OrmSession
from sqlalchemy.sql import ColumnElement
from sqlalchemy.types import TypeDecorator
from sqlmodel import SQLModel

from c8league.findings import Finding, Place, RecordChanged, Verification, fields
from c8league.storage.fetch import fetch_rows
from c8league.storage.models import (
    Audit,
    BotVersion,
    Duel,
    DuelPair,
    Entrant,
    Event,
    HandRow,
    League,
    LeagueEntrant,
    Match,
    MatchSeat,
    MembershipChange,
    Round,
)

KINDS = (
    "league",
    "entrant",
    "member",
    "event",
    "round",
    "match",
    "membership",
    "audit",
    "duel",
    "pair",
    "version",
)
"""The kinds of record the chain covers, in the order an upgrade chains them."""

PART_HEX = 32
"""A part's digest: the first 128 bits of its SHA-256, in hex."""


@dataclass(frozen=True, slots=True)
class Stamp:
    """A record as c8league wrote it: its kind and key, its league (None: none), and the
    digests of its parts (:func:`digest_text`; None: the record was deleted)."""

    kind: str
    key: str
    league_id: int | None
    digest: str | None


# -- digests ---------------------------------------------------------------------------------


def _table(name: str) -> Table:
    return SQLModel.metadata.tables[name]


def _when(value: Any) -> Any:
    """A time as SQLite stores it (UTC, to the microsecond); a stored string as it is."""
    if isinstance(value, datetime):
        if value.tzinfo is not None:
            value = value.astimezone(UTC).replace(tzinfo=None)
        return value.isoformat(sep=" ", timespec="microseconds")
    return value if value is None else str(value)


def _blob(value: Any) -> Any:
    return value if value is None else hashlib.sha256(bytes(value)).hexdigest()


def _integer(value: Any) -> Any:
    return value if value is None else int(value)


def _real(value: Any) -> Any:
    return value if value is None else float(value)


def _normalizer(column: Any) -> Callable[[Any], Any] | None:
    """How a column's value is written into a digest, by the column's type, so that a
    value as c8league wrote it and as either database reads it back are the same: a
    flag as 0 or 1, a time as SQLite keeps it, binary data as its SHA-256, a real
    number as a float. Integers and text are taken as they are (None: nothing to do)."""
    normalizers: dict[type, Callable[[Any], Any] | None] = {
        bool: _integer,
        datetime: _when,
        bytes: _blob,
        float: _real,
        int: None,
        str: None,
    }
    kind = column.type
    python_type = (kind.impl if isinstance(kind, TypeDecorator) else kind).python_type
    if python_type not in normalizers:  # a new type of column: say how it is hashed
        raise TypeError(f"no digest for column {column} of type {column.type}")
    return normalizers[python_type]


_MISSING = object()


class _Omitted:
    """What a late column without a value is hashed as: nothing (see :data:`LATE`)."""

    def __repr__(self) -> str:
        return "<omitted>"


_OMIT = _Omitted()

LATE: dict[str, frozenset[str]] = {
    "match_seat": frozenset({"version_id"}),
    "match": frozenset({"forfeit_request"}),
}
"""Columns added to a chained table after the chain began, by table: a row's digest
takes such a column only when it has a value, so that the rows chained before it was
added keep their digests (nothing is chained anew, and nothing changed outside c8league
before the upgrade is taken for c8league's)."""


@dataclass(frozen=True)
class _Layout:
    """A table's columns in order, each with its default, and the columns whose values
    are normalized (see :func:`_normalizer`)."""

    table: Table
    names: tuple[str, ...]
    defaults: tuple[Any, ...]
    index: dict[str, int]
    """Each column's place."""
    fixes: dict[int, Callable[[Any], Any]]
    """The normalizer of each column that has one, by place."""

    def set(self, values: list[Any], changes: Mapping[str, Any]) -> list[Any]:
        """``values`` (normalized, in column order) with ``changes`` by column name."""
        index, fixes = self.index, self.fixes
        for name, value in changes.items():
            i = index[name]
            normalize = fixes.get(i)
            values[i] = value if normalize is None else normalize(value)
        return values

    @classmethod
    def of(cls, name: str) -> _Layout:
        table = _table(name)
        columns = list(table.columns)
        defaults: list[Any] = []
        for column in columns:
            default = column.default
            if default is None:
                defaults.append(None)
            elif getattr(default, "is_scalar", False):
                defaults.append(default.arg)  # type: ignore[attr-defined]
            else:
                defaults.append(_MISSING)  # computed when written: a writer gives it
        fixes = {}
        late = LATE.get(name, frozenset())
        for i, column in enumerate(columns):
            normalize = _normalizer(column)
            if column.name in late:
                normalize = _late(normalize)
            if normalize is not None:
                fixes[i] = normalize
        names = tuple(c.name for c in columns)
        return cls(table, names, tuple(defaults), {n: i for i, n in enumerate(names)}, fixes)

    def values(self, row: Sequence[Any]) -> Sequence[Any]:
        """A row read from the database (every column, in order), normalized (a tuple
        when no column needs it: JSON writes a tuple as it writes a list)."""
        if not self.fixes:
            return tuple(row)
        values = list(row)
        for i, normalize in self.fixes.items():
            values[i] = normalize(values[i])
        return values

    def written(self, row: Mapping[str, Any]) -> list[Any]:
        """A row as a writer gives it (by name; a column left out takes its default):
        integers and text as the database keeps them (an ``int``, a ``str``), the rest
        normalized."""
        values = [row.get(n, d) for n, d in zip(self.names, self.defaults, strict=True)]
        if any(v is _MISSING for v in values):
            missing = [n for n, v in zip(self.names, values, strict=True) if v is _MISSING]
            raise ValueError(f"{self.table.name}.{missing[0]} must be given to be hashed")
        for i, normalize in self.fixes.items():
            values[i] = normalize(values[i])
        return values


_LAYOUTS: dict[str, _Layout] = {}


def _layout(name: str) -> _Layout:
    layout = _LAYOUTS.get(name)
    if layout is None:
        layout = _LAYOUTS[name] = _Layout.of(name)
    return layout


_JSON = json.JSONEncoder(separators=(",", ":")).encode
"""Rows as JSON: lists of their values, in column order (made once: ``json.dumps`` with
separators of its own makes an encoder a call)."""


def _late(normalize: Callable[[Any], Any] | None) -> Callable[[Any], Any]:
    """A late column's normalizer (see :data:`LATE`): no value is :data:`_OMIT`."""

    def late(value: Any) -> Any:
        if value is None:
            return _OMIT
        return value if normalize is None else normalize(value)

    return late


def _hash(value: Any) -> str:
    """A part's digest: its rows as JSON (see :data:`_JSON`), hashed; a late column with
    no value left out (see :data:`LATE`)."""
    try:
        text = _JSON(value)
    except TypeError:  # (an _OMIT: JSON has no word for it)
        text = _JSON(_present(value))
    return hashlib.sha256(text.encode()).hexdigest()[:PART_HEX]


def _present(value: Any) -> Any:
    """``value`` (a row, or rows) without the :data:`_OMIT` of its late columns."""
    if isinstance(value, (list, tuple)):
        return [_present(item) for item in value if item is not _OMIT]
    return value


def digest_text(parts: Mapping[str, str]) -> str:
    """The digest of a record as an entry holds it: each part's digest by name, as a
    JSON object with its names in order (``{"hands":"…","match":"…","seats":"…"}``)."""
    return _JSON(dict(sorted(parts.items())))


def link_of(previous: str, seq: int, stamp: Stamp) -> str:
    """Entry ``seq``'s link: the SHA-256 (hex) of the previous entry's link ("" for the
    first entry) and this entry's fields, one a line."""
    league = "" if stamp.league_id is None else str(stamp.league_id)
    text = "\n".join((previous, str(seq), stamp.kind, stamp.key, league, stamp.digest or ""))
    return hashlib.sha256(text.encode()).hexdigest()


EMPTY = _hash([])
"""The digest of a part with no rows (a match's hands before it is played)."""


def match_stamp(
    league_id: int | None,
    match: Mapping[str, Any],
    seats: Sequence[Mapping[str, Any]],
    hands: Sequence[Mapping[str, Any]],
) -> Stamp:
    """A match as a writer writes it: its row, its seats in seat order and its hands in
    order, each by column name (a column left out takes its default)."""
    return Stamp(
        "match",
        str(match["id"]),
        league_id,
        _match_digest(
            _layout("match").written(match),
            [_layout("match_seat").written(s) for s in seats],
            [_layout("hand").written(h) for h in hands],
        ),
    )


def _match_digest(
    match: Sequence[Any], seats: Sequence[Sequence[Any]], hands: Sequence[Sequence[Any]]
) -> str:
    """A match's digest from its rows' values (normalized, in column order): what
    :func:`digest_text` makes of its three parts."""
    return digest_text(
        {"match": _hash(match), "seats": _hash(seats), "hands": _hash(hands) if hands else EMPTY}
    )


def row_stamp(kind: str, row: Mapping[str, Any], league_id: int | None) -> Stamp:
    """A record of one row (a round, a duel's pair) as a writer writes it, by column
    name (a column left out takes its default)."""
    spec = _SPECS[kind]
    layout = _layout(spec.table)
    return Stamp(
        kind,
        "/".join(str(row[name]) for name in spec.keys),
        league_id,
        digest_text({"row": _hash(layout.written(row))}),
    )


@dataclass(frozen=True, slots=True)
class MatchRows:
    """A match's row and its seats' rows as stored (values as a digest takes them, in
    column order), and its league: what a writer that stores its result reads first."""

    league_id: int | None
    match: Sequence[Any]
    seats: list[Sequence[Any]]

    def get(self, column: str) -> Any:
        """A column of the match's row (None for a late column without a value)."""
        value = self.match[_layout("match").index[column]]
        return None if value is _OMIT else value

    @property
    def entrants(self) -> list[int]:
        """Who sits at the match, in seat order."""
        at = _layout("match_seat").index["entrant_id"]
        return [int(seat[at]) for seat in self.seats]

    @property
    def versions(self) -> list[int | None]:
        """The version that played each seat, as stored (None: none)."""
        at = _layout("match_seat").index["version_id"]
        return [None if seat[at] is _OMIT else int(seat[at]) for seat in self.seats]

    def stamp(self) -> Stamp:
        """The match as it is (with no hands: a match about to be stored has none)."""
        digest = _match_digest(self.match, self.seats, [])
        return Stamp("match", str(self.match[0]), self.league_id, digest)

    def stored(
        self,
        changes: Mapping[str, Any],
        placed: Sequence[tuple[int, int]],
        hands: Sequence[Mapping[str, Any]],
        versions: Sequence[int | None] = (),
    ) -> Stamp:
        """The match once its result is written: its row with ``changes`` (by column),
        each seat's (place, score) and version (none given: as they are), and ``hands``
        (rows by column name)."""
        seats = _layout("match_seat")
        seated = [
            seats.set(list(row), {"place": place, "score": score})
            for row, (place, score) in zip(self.seats, placed, strict=True)
        ]
        for row, version in zip(seated, versions, strict=False):
            seats.set(row, {"version_id": version})
        return Stamp(
            "match",
            str(self.match[0]),
            self.league_id,
            _match_digest(
                _layout("match").set(list(self.match), changes),
                seated,
                [_layout("hand").written(h) for h in hands],
            ),
        )


def match_rows(conn: Connection, ids: Sequence[int]) -> dict[int, MatchRows]:
    """The rows of the matches ``ids`` (those that exist), for a writer that stores their
    results: what it checks against the chain before, and hashes with its changes."""
    matches, seats = _layout("match"), _layout("match_seat")
    event_table = _table("event")
    found = fetch_rows(
        conn,
        sa_select(*matches.table.columns, event_table.c.league_id)
        .join(event_table, event_table.c.id == matches.table.c.event_id)
        .where(matches.table.c.id.in_(list(ids))),
    )
    seated: dict[int, list[Sequence[Any]]] = {}
    for row in fetch_rows(
        conn,
        sa_select(*seats.table.columns)
        .where(seats.table.c.match_id.in_(list(ids)))
        .order_by(seats.table.c.match_id, seats.table.c.seat),
    ):
        seated.setdefault(int(row[0]), []).append(seats.values(row))
    return {
        int(row[0]): MatchRows(
            league_id=None if row[-1] is None else int(row[-1]),
            match=matches.values(row[:-1]),
            seats=seated.get(int(row[0]), []),
        )
        for row in found
    }


# -- reading records back ----------------------------------------------------------------------


@dataclass(frozen=True)
class _Spec:
    """A kind of record: its table, its key columns, and where its league is read (a
    column of the row, ``event_id`` through the event, or None)."""

    kind: str
    table: str
    keys: tuple[str, ...]
    league: str | None


_SPECS = {
    spec.kind: spec
    for spec in (
        _Spec("league", "league", ("id",), "id"),
        _Spec("entrant", "entrant", ("id",), None),
        _Spec("member", "league_entrant", ("league_id", "entrant_id"), "league_id"),
        _Spec("event", "event", ("id",), "league_id"),
        _Spec("round", "round", ("id",), "event_id"),
        _Spec("match", "match", ("id",), "event_id"),
        _Spec("membership", "membership_change", ("id",), "league_id"),
        _Spec("audit", "audit", ("id",), "league_id"),
        _Spec("duel", "duel", ("id",), None),
        _Spec("pair", "duel_pair", ("duel_id", "deal"), None),
        _Spec("version", "bot_version", ("id",), None),
    )
}


def _events(conn: Connection) -> dict[int, int]:
    """Each event's league."""
    event_table = _table("event")
    rows = fetch_rows(conn, sa_select(event_table.c.id, event_table.c.league_id))
    return {int(e): int(lg) for e, lg in rows}


SHARED_KINDS = ("entrant", "version")
"""The kinds of record that belong to no league but that a league's records name (its
entrants, the versions of its bots): a league's check reads them all."""

EVENT_KINDS = ("event", "round", "match", "audit")
"""The kinds of record of one event (an audit entry may be of none)."""


def _scope(
    spec: _Spec,
    league_id: int | None,
    events: Mapping[int, int],
    keys: Iterable[str] | None,
    event_id: int | None = None,
) -> ColumnElement[bool] | None:
    """The rows of ``spec``'s table in the scope: of one league (or all, None), and of
    one of its events (``event_id``, for the kinds of :data:`EVENT_KINDS`), or with one
    of ``keys`` (by the first key column; a composite key is checked after)."""
    table = _table(spec.table)
    if keys is not None:
        first = sorted({int(k.split("/", 1)[0]) for k in keys})
        return table.c[spec.keys[0]].in_(first)
    if event_id is not None and spec.kind == "audit":
        league_wide = table.c.event_id.is_(None) & (table.c.league_id == league_id)
        return or_(table.c.event_id == event_id, league_wide)
    if event_id is not None and spec.kind in EVENT_KINDS:
        return table.c["id" if spec.kind == "event" else "event_id"] == event_id
    if league_id is None:
        return None
    if spec.league is None:
        return true() if spec.kind in SHARED_KINDS else false()
    if spec.league == "event_id":
        return table.c.event_id.in_(sorted(e for e, lg in events.items() if lg == league_id))
    return table.c[spec.league] == league_id


def _read(
    conn: Connection,
    kind: str,
    *,
    league_id: int | None = None,
    events: Mapping[int, int],
    keys: Iterable[str] | None = None,
    hands: bool = True,
    event_id: int | None = None,
) -> dict[str, Stamp]:
    """Every record of ``kind`` in the scope (see :func:`_scope`), by key, with the
    digests of its rows as they are now (without ``hands``, a match's digest lacks its
    hands' part: they are not read)."""
    spec = _SPECS[kind]
    if keys is not None:
        keys = set(keys)
        if not keys:
            return {}
    where = _scope(spec, league_id, events, keys, event_id)
    if kind == "match":
        return _read_matches(conn, where, events=events, hands=hands)
    layout = _layout(spec.table)
    query = sa_select(*layout.table.columns).order_by(*(layout.table.c[k] for k in spec.keys))
    if where is not None:
        query = query.where(where)
    at = [layout.index[k] for k in spec.keys]
    league_at = None if spec.league is None else layout.index[spec.league]
    stamps: dict[str, Stamp] = {}
    for row in fetch_rows(conn, query):
        key = "/".join(str(row[i]) for i in at)
        if keys is not None and key not in keys:
            continue
        league = None if league_at is None else row[league_at]
        if spec.league == "event_id":
            league = events.get(int(row[league_at or 0]))
        digest = digest_text({"row": _hash(layout.values(row))})
        stamps[key] = Stamp(kind, key, None if league is None else int(league), digest)
    return stamps


MATCHES_AT_ONCE = 2000
"""How many matches :func:`_read_matches` reads at once, with their seats and hands (a
league's hands would not all fit in memory)."""


def _read_matches(
    conn: Connection,
    where: ColumnElement[bool] | None,
    *,
    events: Mapping[int, int],
    hands: bool,
) -> dict[str, Stamp]:
    """The matches ``where`` selects (None: all), as :func:`_read` reads them, a few
    thousand at a time."""
    layout = _layout("match")
    table = layout.table
    query = sa_select(table.c.id).order_by(table.c.id)
    ids = [int(i) for (i,) in fetch_rows(conn, query if where is None else query.where(where))]
    event_at = layout.index["event_id"]
    stamps: dict[str, Stamp] = {}
    for start in range(0, len(ids), MATCHES_AT_ONCE):
        chunk = ids[start : start + MATCHES_AT_ONCE]
        within: ColumnElement[bool] = table.c.id.between(chunk[0], chunk[-1])
        if where is not None:
            within = within & where
        rows = fetch_rows(conn, sa_select(*table.columns).where(within).order_by(table.c.id))
        seats = _children(conn, "match_seat", within)
        played = _children(conn, "hand", within) if hands else {}
        for row in rows:
            match_id = int(row[0])
            parts = {
                "match": _hash(layout.values(row)),
                "seats": _hash(seats.get(match_id, [])),
            }
            if hands:
                parts["hands"] = _hash(played.get(match_id, []))
            league = events.get(int(row[event_at]))
            stamps[str(match_id)] = Stamp("match", str(match_id), league, digest_text(parts))
    return stamps


def _children(conn: Connection, name: str, where: ColumnElement[bool]) -> dict[int, Any]:
    """The rows of a match's seats or hands (``name``) of the matches ``where`` selects,
    normalized, by match, in key order."""
    layout = _layout(name)
    table = layout.table
    match = _table("match")
    query = (
        sa_select(*table.columns)
        .select_from(table.join(match, match.c.id == table.c.match_id))
        .where(where)
        .order_by(*table.primary_key.columns)
    )
    grouped: dict[int, list[Sequence[Any]]] = {}
    for row in fetch_rows(conn, query):
        grouped.setdefault(int(row[0]), []).append(layout.values(row))
    return grouped


@dataclass(frozen=True, slots=True)
class _Entry:
    seq: int
    league_id: int | None
    digest: str | None


def _latest(
    conn: Connection, wanted: Iterable[tuple[str, str]] | None = None, league_id: int | None = None
) -> dict[tuple[str, str], _Entry]:
    """The latest entry of each record: of the records ``wanted``, or of those of one
    league (and the players), or of all (both None)."""
    chain = _table("chain")
    columns = (chain.c.seq, chain.c.kind, chain.c.key, chain.c.league_id, chain.c.digest)
    queries = []
    if wanted is not None:
        by_kind: dict[str, set[str]] = {}
        for kind, key in wanted:
            by_kind.setdefault(kind, set()).add(key)
        for kind, keys in sorted(by_kind.items()):
            ordered = sorted(keys)
            for start in range(0, len(ordered), 5000):
                queries.append(
                    sa_select(*columns).where(
                        chain.c.kind == kind, chain.c.key.in_(ordered[start : start + 5000])
                    )
                )
    elif league_id is not None:
        queries.append(
            sa_select(*columns).where(
                or_(chain.c.league_id == league_id, chain.c.kind.in_(SHARED_KINDS))
            )
        )
    else:
        queries.append(sa_select(*columns))
    latest: dict[tuple[str, str], _Entry] = {}
    for query in queries:
        for seq, kind, key, league, digest in fetch_rows(conn, query.order_by(chain.c.seq)):
            latest[(kind, key)] = _Entry(seq, league, digest)
    return latest


# -- writing entries ---------------------------------------------------------------------------

_STATE = "c8league.chain"


@dataclass
class _Pending:
    """What a session wrote in its transaction: records hashed as written, and records
    changed through the ORM, read back when it commits."""

    written: dict[tuple[str, str], Stamp] = field(default_factory=dict)
    touched: dict[tuple[str, str], None] = field(default_factory=dict)


def _pending(session: OrmSession) -> _Pending:
    state = session.info.get(_STATE)
    if state is None:
        state = session.info[_STATE] = _Pending()
    assert isinstance(state, _Pending)
    return state


def written(session: OrmSession, stamps: Iterable[Stamp]) -> None:
    """Chain records as they are written (by a writer that writes rows without the ORM),
    when ``session`` commits. A record changed through the ORM in the same transaction
    is read back instead."""
    state = _pending(session)
    for stamp in stamps:
        state.written[(stamp.kind, stamp.key)] = stamp


def _one(ident: Sequence[Any]) -> str:
    return str(ident[0])


def _two(ident: Sequence[Any]) -> str:
    return f"{ident[0]}/{ident[1]}"


_LOCATORS: dict[type, tuple[str, Callable[[Sequence[Any]], str]]] = {
    League: ("league", _one),
    Entrant: ("entrant", _one),
    LeagueEntrant: ("member", _two),
    Event: ("event", _one),
    Round: ("round", _one),
    Match: ("match", _one),
    MatchSeat: ("match", _one),  # (match_id, seat)
    HandRow: ("match", _one),  # (match_id, number)
    MembershipChange: ("membership", _one),
    Audit: ("audit", _one),
    Duel: ("duel", _one),
    DuelPair: ("pair", _two),
    BotVersion: ("version", _one),
}
"""Each table's record: its kind, and its key from the row's primary key."""


@event.listens_for(OrmSession, "after_flush")
def _after_flush(session: OrmSession, _context: Any) -> None:
    """Note each record whose rows the flush wrote, to be read back at commit."""
    state: _Pending | None = None
    for instance in itertools.chain(session.new, session.dirty, session.deleted):
        located = _LOCATORS.get(type(instance))
        if located is None:
            continue
        kind, key_of = located
        info = inspect(instance)
        ident = info.identity or info.mapper.primary_key_from_instance(instance)
        if state is None:
            state = _pending(session)
        state.touched[(kind, key_of(ident))] = None


@event.listens_for(OrmSession, "before_commit")
def _before_commit(session: OrmSession) -> None:
    seal(session)


@event.listens_for(OrmSession, "after_commit")
@event.listens_for(OrmSession, "after_soft_rollback")
def _forget(session: OrmSession, *_args: Any) -> None:
    session.info.pop(_STATE, None)


def seal(session: OrmSession) -> None:
    """Chain what ``session``'s transaction wrote (called as it commits): an entry for
    each record written, hashed as written or read back, unless it is as its latest
    entry says already."""
    if session.new or session.dirty or session.deleted:
        session.flush()
    state = session.info.pop(_STATE, None)
    if not isinstance(state, _Pending) or not (state.written or state.touched):
        return
    conn = session.connection()
    stamps = dict(state.written)
    touched = sorted(state.touched, key=_order)
    if touched:
        events = _events(conn)
        current: dict[tuple[str, str], Stamp] = {}
        for kind, group in itertools.groupby(touched, key=lambda k: k[0]):
            keys = [key for _, key in group]
            for key, read in _read(conn, kind, events=events, keys=keys).items():
                current[(kind, key)] = read
        latest = _latest(conn, touched)
        for record in touched:
            found = current.get(record)
            last = latest.get(record)
            if found is None:
                stamps.pop(record, None)
                if last is None or last.digest is None:
                    continue  # never chained (made and deleted at once), or deleted already
                found = Stamp(record[0], record[1], last.league_id, None)
            elif record not in state.written and last is not None and last.digest == found.digest:
                continue  # as it was
            stamps[record] = found
    append(conn, list(stamps.values()))


def _order(record: tuple[str, str]) -> tuple[int, tuple[int, ...]]:
    kind, key = record
    return KINDS.index(kind), tuple(int(part) for part in key.split("/"))


def append(conn: Connection, stamps: Sequence[Stamp]) -> None:
    """Add an entry for each of ``stamps``, in order, after the chain's head (in the
    caller's write transaction, which holds the database's write lock)."""
    if not stamps:
        return
    chain = _table("chain")
    head = conn.execute(
        sa_select(chain.c.seq, chain.c.link).order_by(chain.c.seq.desc()).limit(1)
    ).first()
    seq, link = (0, "") if head is None else (int(head[0]), str(head[1]))
    rows = []
    for stamp in stamps:
        seq += 1
        link = link_of(link, seq, stamp)
        rows.append(
            {
                "seq": seq,
                "kind": stamp.kind,
                "key": stamp.key,
                "league_id": stamp.league_id,
                "digest": stamp.digest,
                "link": link,
            }
        )
    conn.execute(insert(chain), rows)


def expect(session: OrmSession, stamps: Sequence[Stamp]) -> None:
    """Refuse to write over a record that is not as c8league last wrote it: each of
    ``stamps`` (a record as read now, before the write) must have the digest of its
    latest entry, unless the same transaction changed it first. Raises
    :class:`RecordChanged` for the first that does not; nothing is written then."""
    state = _pending(session)
    checked = [s for s in stamps if (s.kind, s.key) not in state.touched]
    if not checked:
        return
    conn = session.connection()
    unwritten = [(s.kind, s.key) for s in checked if (s.kind, s.key) not in state.written]
    latest = _latest(conn, unwritten) if unwritten else {}
    for stamp in checked:
        record = (stamp.kind, stamp.key)
        pending = state.written.get(record)
        last = latest.get(record)
        expected = pending.digest if pending is not None else None if last is None else last.digest
        if expected == stamp.digest:
            continue
        change, parts = "added", tuple[str, ...]()
        if expected is not None:
            change, parts = "changed", _parts_differing(expected, stamp.digest or "{}")
        place = where(conn, stamp.kind, stamp.key)
        seq = None if last is None else last.seq
        raise RecordChanged(Finding(stamp.kind, stamp.key, change, parts, seq, place))


def _parts_differing(expected: str, found: str) -> tuple[str, ...]:
    """The parts whose digests differ, of those ``found`` has."""
    before: dict[str, str] = json.loads(expected)
    now: dict[str, str] = json.loads(found)
    return tuple(part for part in before if part in now and before[part] != now[part])


def chain_existing(conn: Connection) -> int:
    """Chain every record that is not as its latest entry says (on an upgrade: every
    record there is); returns how many entries were added."""
    events = _events(conn)
    latest = _latest(conn)
    stamps: list[Stamp] = []
    for kind in KINDS:
        current = _read(conn, kind, events=events)
        for key in sorted(current, key=lambda k: _order((kind, k))):
            last = latest.get((kind, key))
            if last is None or last.digest != current[key].digest:
                stamps.append(current[key])
    append(conn, stamps)
    return len(stamps)


# -- verifying ---------------------------------------------------------------------------------


def reading(session: OrmSession) -> Connection:
    """``session``'s connection for :func:`verify`, begun with a view of the database
    that stays the same while the chain and the records are read, whatever is written
    meanwhile (PostgreSQL: repeatable read; SQLite: a read transaction, which Python's
    driver does not begin for reads by itself). Call it before anything else is read in
    the session; the session's end ends it."""
    bind = session.get_bind()
    if bind.dialect.name == "postgresql":
        return session.connection(execution_options={"isolation_level": "REPEATABLE READ"})
    conn = session.connection()
    if bind.dialect.name == "sqlite" and not conn.connection.driver_connection.in_transaction:  # type: ignore[union-attr]
        conn.exec_driver_sql("BEGIN")
    return conn


PLACES = 100
"""How many findings :func:`verify` reads the place of (the earliest)."""


def verify(
    conn: Connection,
    league_id: int | None = None,
    *,
    links: bool = True,
    head: str | None = None,
    event_id: int | None = None,
) -> Verification:
    """Compare every record (of one league and the players, or of the whole database)
    with its latest entry, and (``links``) every entry with the one before it; with
    ``head``, find the entry whose link it is (a head published earlier).

    Without ``links``, only the records and their latest entries are read, and a
    match's hands are left out: a quick look at what standings are computed from, for
    the commands that show a league's results; with ``event_id`` too, of the league's
    records only the event's (and its league's memberships and the players), where a
    record deleted is not seen.

    Whoever can write the database can also add entries of their own after a head was
    published: the records the head covered that were written again after it are
    listed (``rewritten``), for the one who published it to recognise as theirs."""
    chain = _table("chain")
    findings: list[Finding] = []
    entries, last_link, head_entry = 0, None, None
    covered: set[tuple[str, str]] = set()  # the records written up to the head
    again: dict[tuple[str, str], int] = {}  # those written again after it: their last entry
    if links:
        previous, expected_seq = "", 1
        rows = fetch_rows(
            conn,
            sa_select(
                chain.c.seq,
                chain.c.kind,
                chain.c.key,
                chain.c.league_id,
                chain.c.digest,
                chain.c.link,
            ).order_by(chain.c.seq),
        )
        for seq, kind, key, league, digest, link in rows:
            if seq != expected_seq:
                findings.append(Finding("chain", str(seq - 1), "gap", seq=expected_seq))
            elif link != link_of(previous, seq, Stamp(kind, key, league, digest)):
                findings.append(Finding("chain", str(seq), "link", seq=seq))
            if head is not None:
                if head_entry is None:
                    covered.add((kind, key))
                elif (kind, key) in covered:
                    again[(kind, key)] = seq
                if link == head:
                    head_entry = seq
            previous, expected_seq = link, seq + 1
        entries, last_link = (int(rows[-1][0]), previous) if rows else (0, None)
        if head is not None and head_entry is None:
            findings.append(Finding("head", head, "head", seq=entries + 1))
    else:
        top = conn.execute(
            sa_select(chain.c.seq, chain.c.link).order_by(chain.c.seq.desc()).limit(1)
        ).first()
        if top is not None:
            entries, last_link = int(top[0]), str(top[1])
    latest = _latest(conn, league_id=league_id)
    events = _events(conn)
    current: dict[tuple[str, str], Stamp] = {}
    for kind in KINDS:
        if league_id is not None and kind in ("duel", "pair"):
            continue
        read = _read(conn, kind, league_id=league_id, events=events, hands=links, event_id=event_id)
        for key, stamp in read.items():
            current[(kind, key)] = stamp
    records = set(current) | {
        record for record in latest if event_id is None or record[0] not in EVENT_KINDS
    }
    for record in records:
        found, last = current.get(record), latest.get(record)
        now = None if found is None else found.digest
        was = None if last is None else last.digest
        if now == was or (now and was and not _parts_differing(was, now)):
            continue
        seq = None if last is None else last.seq
        if now is None:
            findings.append(Finding(record[0], record[1], "deleted", seq=seq))
        elif was is None:
            findings.append(Finding(record[0], record[1], "added", seq=seq))
        else:
            parts = _parts_differing(was, now)
            findings.append(Finding(record[0], record[1], "changed", parts, seq))
    findings.sort(key=_earliest)
    rewritten = sorted(
        (Finding(kind, key, "rewritten", seq=seq) for (kind, key), seq in again.items()),
        key=_earliest,
    )
    return Verification(
        entries=entries,
        head=last_link,
        records=len(records),
        findings=_placed(conn, findings),
        head_entry=head_entry,
        rewritten=_placed(conn, rewritten) if head_entry is not None else (),
    )


def _placed(conn: Connection, findings: Sequence[Finding]) -> tuple[Finding, ...]:
    """The findings, the first :data:`PLACES` of them with the place of their record."""
    return tuple(
        Finding(f.kind, f.key, f.change, f.parts, f.seq, where(conn, f.kind, f.key))
        if i < PLACES and f.kind in _SPECS
        else f
        for i, f in enumerate(findings)
    )


def _earliest(finding: Finding) -> tuple[int, int, tuple[int, ...]]:
    seq = finding.seq if finding.seq is not None and finding.change != "added" else 1 << 62
    if finding.kind not in _SPECS:
        return seq, -1, ()
    return (seq, *_order((finding.kind, finding.key)))


# -- where a record is -------------------------------------------------------------------------


def where(conn: Connection, kind: str, key: str) -> Place:
    """Where the record ``kind``/``key`` sits, read now (what is left of it)."""
    ids = [int(part) for part in key.split("/")]
    names = _Names(conn)
    if kind == "league":
        return Place(league=names.league(ids[0]), name=names.league(ids[0]))
    if kind == "entrant":
        return Place(name=names.entrant(ids[0]))
    if kind == "member":
        return Place(league=names.league(ids[0]), name=names.entrant(ids[1]))
    if kind == "event":
        return names.event(ids[0])
    if kind == "round":
        row = _row(conn, "round", ids[0], ("event_id", "number"))
        if row is None:
            return Place()
        return _with(names.event(row[0]), round=row[1])
    if kind == "match":
        row = _row(conn, "match", ids[0], ("event_id", "round_id", "table_no", "deal"))
        if row is None:
            return Place()
        number = _row(conn, "round", row[1], ("number",))
        return _with(
            names.event(row[0]),
            round=None if number is None else number[0],
            table=row[2],
            deal=row[3],
        )
    if kind == "membership":
        row = _row(conn, "membership_change", ids[0], ("league_id", "entrant_id", "action"))
        if row is None:
            return Place()
        return Place(league=names.league(row[0]), name=names.entrant(row[1]), action=row[2])
    if kind == "audit":
        columns = ("league_id", "event_id", "round", "table_no", "action", "subject")
        row = _row(conn, "audit", ids[0], columns)
        if row is None:
            return Place()
        base = names.event(row[1]) if row[1] is not None else Place(league=names.league(row[0]))
        return _with(base, round=row[2], table=row[3], action=row[4], subject=row[5])
    if kind == "duel":
        return Place(duel=names.duel(ids[0]))
    if kind == "pair":
        return Place(duel=names.duel(ids[0]), deal=ids[1])
    if kind == "version":
        row = _row(conn, "bot_version", ids[0], ("label",))
        return Place() if row is None else Place(name=str(row[0]))
    return Place()


def _with(place: Place, **changes: Any) -> Place:
    return Place(**{**fields(place), **changes})


def _row(conn: Connection, name: str, row_id: int | None, columns: Sequence[str]) -> Any:
    if row_id is None:
        return None
    table = _table(name)
    return conn.execute(
        sa_select(*(table.c[c] for c in columns)).where(table.c.id == row_id)
    ).first()


@dataclass
class _Names:
    conn: Connection

    def _name(self, table: str, row_id: int | None) -> str | None:
        row = _row(self.conn, table, row_id, ("name",))
        return None if row is None else str(row[0])

    def league(self, row_id: int | None) -> str | None:
        return self._name("league", row_id)

    def entrant(self, row_id: int | None) -> str | None:
        return self._name("entrant", row_id)

    def duel(self, row_id: int | None) -> str | None:
        return self._name("duel", row_id)

    def event(self, row_id: int | None) -> Place:
        row = _row(self.conn, "event", row_id, ("league_id", "name"))
        if row is None:
            return Place()
        return Place(league=self.league(row[0]), event=str(row[1]))
