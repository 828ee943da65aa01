"""Duels and their pairs: creating a duel, storing finished pairs in batches, reading
them back in deal order. Nothing here commits: the caller's transaction does."""

from __future__ import annotations

import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import insert, or_
from sqlalchemy import select as sa_select
from sqlmodel import Session, col, select

from c8league.errors import NotFoundError
from c8league.names import same_name
from c8league.storage import chain
from c8league.storage.fetch import fetch_rows
from c8league.storage.models import Duel, DuelPair, utcnow


@dataclass(frozen=True, slots=True)
class StoredPair:
    """One deal of a duel played twice (see :class:`~c8league.storage.models.DuelPair`)."""

    deal: int
    seat: int
    share_a: int
    share_b: int
    match_a: str
    match_b: str
    seconds: float
    moves_a: bytes | None = None
    """The moves of A's match, compressed (see :func:`pack_moves`); None in a duel stored
    before moves were kept."""
    moves_b: bytes | None = None


def find(session: Session, name: str) -> Duel | None:
    return session.exec(select(Duel).where(Duel.name == same_name(name))).first()


def get(session: Session, name: str) -> Duel:
    """The duel called ``name``; :class:`NotFoundError` names the duels there are."""
    duel = find(session, name)
    if duel is None:
        names = [d.name for d in all_duels(session)]
        shown = ", ".join(names[-10:]) or "none yet (c8league duel A B)"
        raise NotFoundError(f"no duel named {same_name(name)!r}; duels: {shown}")
    return duel


def all_duels(session: Session) -> list[Duel]:
    """Every duel, oldest first."""
    return list(session.exec(select(Duel).order_by(col(Duel.id))).all())


GAUNTLET_SEPARATOR = "/"
"""Between a gauntlet's name and the number of each of its duels (``gauntlet-1/2``): a
character no name given to a duel may hold, so that a gauntlet's duels are its own."""


def free_name(session: Session, prefix: str = "duel-") -> str:
    """The first ``duel-N`` (``prefix`` then a number) not taken by a duel or by a
    gauntlet's duels."""
    names = session.exec(
        select(Duel.name).where(col(Duel.name).startswith(prefix, autoescape=True))
    ).all()
    taken = {name.split(GAUNTLET_SEPARATOR)[0] for name in names}
    number = len(taken) + 1
    while f"{prefix}{number}" in taken:
        number += 1
    return f"{prefix}{number}"


def gauntlet_duels(session: Session, name: str) -> list[Duel]:
    """The duels of the gauntlet ``name`` (``name/1``, ``name/2``, …), in order."""
    prefix = same_name(name) + GAUNTLET_SEPARATOR
    return list(
        session.exec(
            select(Duel)
            .where(col(Duel.name).startswith(prefix, autoescape=True))
            .order_by(col(Duel.id))
        ).all()
    )


def name_taken(session: Session, name: str) -> bool:
    """Whether ``name`` names a duel or a gauntlet."""
    return find(session, name) is not None or bool(gauntlet_duels(session, name))


def add(session: Session, name: str, *, players: int, seed: int, settings: str) -> Duel:
    duel = Duel(name=same_name(name), players=players, seed=seed, settings=settings)
    session.add(duel)
    session.flush()
    return duel


_PAIR_COLUMNS = (
    col(DuelPair.deal),
    col(DuelPair.seat),
    col(DuelPair.share_a),
    col(DuelPair.share_b),
    col(DuelPair.match_a),
    col(DuelPair.match_b),
    col(DuelPair.seconds),
)
"""A stored pair's columns as :class:`StoredPair` takes them, but its moves."""


def pairs(session: Session, duel_id: int) -> list[StoredPair]:
    """The duel's stored pairs, in deal order."""
    rows = fetch_rows(
        session.connection(),
        sa_select(*_PAIR_COLUMNS)
        .where(col(DuelPair.duel_id) == duel_id)
        .order_by(col(DuelPair.deal)),
    )
    return [StoredPair(*row) for row in rows]


PAIRS_AT_ONCE = 250
"""How many pairs :func:`pairs_with_moves` reads at once: a page of an export."""


def pairs_with_moves(
    session: Session, duel_id: int, *, after: int = -1, limit: int | None = None
) -> list[StoredPair]:
    """The duel's stored pairs with the moves of their matches, of the deals above
    ``after``, the first ``limit`` (:data:`PAIRS_AT_ONCE`) of them in deal order: read
    page after page (the next begins after the last deal), a duel is read in memory
    that does not grow with it."""
    rows = fetch_rows(
        session.connection(),
        sa_select(*_PAIR_COLUMNS, col(DuelPair.moves_a), col(DuelPair.moves_b))
        .where(col(DuelPair.duel_id) == duel_id, col(DuelPair.deal) > after)
        .order_by(col(DuelPair.deal))
        .limit(limit or PAIRS_AT_ONCE),
    )
    return [StoredPair(*row) for row in rows]


def pair(session: Session, duel_id: int, deal: int) -> StoredPair | None:
    """One stored pair, with the moves of its two matches."""
    row = session.get(DuelPair, (duel_id, deal))
    if row is None:
        return None
    return StoredPair(
        deal=row.deal,
        seat=row.seat,
        share_a=row.share_a,
        share_b=row.share_b,
        match_a=row.match_a,
        match_b=row.match_b,
        seconds=row.seconds,
        moves_a=row.moves_a,
        moves_b=row.moves_b,
    )


def pack_moves(text: str) -> bytes:
    """A match's moves (``MatchRecord.to_text``) as stored: zlib-compressed UTF-8, about
    one byte a move."""
    return zlib.compress(text.encode(), 9)


def unpack_moves(data: bytes) -> str:
    return zlib.decompress(data).decode()


_NO_FORFEIT = '%"forfeit":null%'
"""How a match's result without a forfeit is stored (compact JSON, ``duel.running``):
pairs whose two matches both hold it are left out of :func:`forfeited` at once."""


def forfeited(session: Session, duel_id: int) -> list[tuple[int, str, str]]:
    """(the pair's seat, A's match, B's match: each result as stored, JSON) of the
    stored pairs that may hold a forfeit (every pair whose results do not both say
    there was none), in deal order."""
    return [(seat, a, b) for _, seat, a, b in forfeited_deals(session, duel_id)]


def forfeited_deals(session: Session, duel_id: int) -> list[tuple[int, int, str, str]]:
    """As :func:`forfeited`, each with its deal first: (deal, seat, A's match, B's)."""
    rows = fetch_rows(
        session.connection(),
        sa_select(
            col(DuelPair.deal), col(DuelPair.seat), col(DuelPair.match_a), col(DuelPair.match_b)
        )
        .where(col(DuelPair.duel_id) == duel_id)
        .where(
            or_(
                col(DuelPair.match_a).not_like(_NO_FORFEIT),
                col(DuelPair.match_b).not_like(_NO_FORFEIT),
            )
        )
        .order_by(col(DuelPair.deal)),
    )
    return [(int(deal), int(seat), str(a), str(b)) for deal, seat, a, b in rows]


def deals(session: Session, duel_id: int) -> list[int]:
    """The deals of the duel's stored pairs, in order."""
    rows = session.exec(
        select(DuelPair.deal).where(DuelPair.duel_id == duel_id).order_by(col(DuelPair.deal))
    ).all()
    return [int(deal) for deal in rows]


def delete_pairs(session: Session, duel_id: int, deals: Sequence[int]) -> None:
    """Take out the pairs of ``deals``, to be played again (their deletion is chained)."""
    for deal in deals:
        row = session.get(DuelPair, (duel_id, deal))
        if row is not None:
            session.delete(row)
    session.flush()


def set_settings(session: Session, duel_id: int, settings: str) -> None:
    """Keep the duel's settings (JSON, ``c8league.duel.plan``) as they now are."""
    duel = session.get(Duel, duel_id)
    if duel is None:
        raise NotFoundError(f"no duel with id {duel_id}")
    if duel.settings != settings:
        duel.settings = settings
        session.add(duel)


def shares(session: Session, duel_id: int) -> list[tuple[int, int]]:
    """(A's share, B's share) of every stored pair, in units, in deal order."""
    rows = fetch_rows(
        session.connection(),
        sa_select(col(DuelPair.share_a), col(DuelPair.share_b))
        .where(col(DuelPair.duel_id) == duel_id)
        .order_by(col(DuelPair.deal)),
    )
    return [(int(a), int(b)) for a, b in rows]


def store_pairs(session: Session, duel_id: int, new: Sequence[StoredPair]) -> None:
    """Add finished pairs, in one statement (each hashed as written for the record's
    chain, ``c8league.storage.chain``)."""
    if not new:
        return
    rows = [
        {
            "duel_id": duel_id,
            "deal": p.deal,
            "seat": p.seat,
            "share_a": p.share_a,
            "share_b": p.share_b,
            "match_a": p.match_a,
            "match_b": p.match_b,
            "seconds": p.seconds,
            "moves_a": p.moves_a,
            "moves_b": p.moves_b,
        }
        for p in new
    ]
    session.execute(insert(DuelPair), rows)
    chain.written(session, (chain.row_stamp("pair", row, None) for row in rows))


def set_status(session: Session, duel_id: int, status: str, when: datetime | None = None) -> None:
    """Mark the duel ``playing`` or ``finished`` (with when it finished)."""
    duel = session.get(Duel, duel_id)
    if duel is None:
        raise NotFoundError(f"no duel with id {duel_id}")
    duel.status = status
    duel.finished_at = (when or utcnow()) if status == "finished" else None
    session.add(duel)


def set_stopped(session: Session, duel_id: int, why: str | None) -> None:
    """Keep why the duel's run stopped without a verdict (None: it plays on)."""
    duel = session.get(Duel, duel_id)
    if duel is None:
        raise NotFoundError(f"no duel with id {duel_id}")
    if duel.stopped != why:
        duel.stopped = why
        session.add(duel)
