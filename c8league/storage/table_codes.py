"""The codes of the tables of published rounds, and the results reported with them
(:class:`~c8league.storage.models.TableCode`). Nothing here commits: the caller's
transaction does."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import Any

from sqlalchemy import update
from sqlmodel import Session, col, select

from c8league.storage.models import Event, Match, Round, TableCode, utcnow

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
"""Letters and digits that are not mistaken for one another on a phone (no I, O, 0, 1)."""

CODE_LENGTH = 6
"""32⁶ ≈ 10⁹ codes: with guesses limited per client, none is found by trying."""


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normal_code(text: str) -> str:
    """A code as typed (any case, spaces or dashes) as stored."""
    return "".join(c for c in text.upper() if c.isalnum())[:32]


def codes_of(session: Session, match_ids: Sequence[int], *, make: bool) -> dict[int, TableCode]:
    """The codes of the matches, by match id; with ``make``, a new code for each match
    that has none."""
    rows = session.exec(select(TableCode).where(col(TableCode.match_id).in_(match_ids))).all()
    found = {row.match_id: row for row in rows}
    if make:
        taken = set(session.exec(select(TableCode.code)).all())
        for match_id in match_ids:
            if match_id in found:
                continue
            code = new_code()
            while code in taken:
                code = new_code()
            taken.add(code)
            row = TableCode(match_id=match_id, code=code)
            session.add(row)
            found[match_id] = row
        session.flush()
    return found


Found = tuple[TableCode, Match, Round, Event]
"""A code's row, its table's match, round and event."""


def find(session: Session, code: str) -> Found | None:
    """The table a code is of, or None."""
    return _found(session, TableCode.code == normal_code(code))


def find_match(session: Session, match_id: int) -> Found | None:
    """The code of a match's table, or None."""
    return _found(session, TableCode.match_id == match_id)


def _found(session: Session, where: Any) -> Found | None:
    row = session.exec(
        select(TableCode, Match, Round, Event)
        .join(Match, col(Match.id) == col(TableCode.match_id))
        .join(Round, col(Round.id) == col(Match.round_id))
        .join(Event, col(Event.id) == col(Match.event_id))
        .where(where)
    ).first()
    return None if row is None else (row[0], row[1], row[2], row[3])


def of_match(session: Session, match_id: int) -> TableCode | None:
    return session.exec(select(TableCode).where(TableCode.match_id == match_id)).first()


def report(session: Session, match_id: int, text: str) -> bool:
    """Store ``text`` as the result reported for the match, unless one already is (then
    nothing changes and the answer is False): of two reports at once, one is stored."""
    done = session.execute(
        update(TableCode)
        .where(col(TableCode.match_id) == match_id, col(TableCode.report).is_(None))
        .values(report=text, reported_at=utcnow())
    )
    return bool(getattr(done, "rowcount", 0) == 1)


def replace_report(session: Session, match_id: int, old: str, new: str) -> bool:
    """Store ``new`` as the match's report if it still is ``old`` (else nothing changes
    and the answer is False): of two changes at once, one is made."""
    done = session.execute(
        update(TableCode)
        .where(col(TableCode.match_id) == match_id, col(TableCode.report) == old)
        .values(report=new)
    )
    return bool(getattr(done, "rowcount", 0) == 1)


def clear_report(session: Session, match_id: int) -> None:
    """Forget the result reported for the match (the organiser refused it)."""
    session.execute(
        update(TableCode)
        .where(col(TableCode.match_id) == match_id)
        .values(report=None, reported_at=None)
    )


def forget(session: Session, match_ids: Sequence[int]) -> None:
    """Delete the codes of the matches (a round taken back to a draft)."""
    for row in session.exec(select(TableCode).where(col(TableCode.match_id).in_(match_ids))).all():
        session.delete(row)
    session.flush()
