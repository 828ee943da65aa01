"""Leagues, entrants, their membership, and events: how each is read and written.

Lookups by name take names in any Unicode form (see :func:`c8league.names.same_name`)
and raise :class:`NotFoundError` with a line that says what exists. Nothing here
commits: the caller's transaction does (see ``Database.writing``).
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Sequence
from typing import Any

from sqlmodel import Session, col, func, select

from c8league.errors import NotFoundError, UsageError
from c8league.names import name_key, same_name
from c8league.storage.database import session_database
from c8league.storage.models import (
    Entrant,
    Event,
    League,
    LeagueEntrant,
    Match,
    MatchSeat,
    MembershipChange,
    Rating,
    Round,
)

# -- leagues ----------------------------------------------------------------------------


def find_league(session: Session, name: str) -> League | None:
    """The league called ``name``, or None."""
    return session.exec(select(League).where(League.name == same_name(name))).first()


def get_league(session: Session, name: str) -> League:
    """The league called ``name``; :class:`NotFoundError` lists the leagues there are."""
    league = find_league(session, name)
    if league is None:
        names = ", ".join(league_names(session)) or "none (league import FILE)"
        raise NotFoundError(
            f"no league named {same_name(name)!r} in {session_database(session)}; leagues: {names}"
        )
    return league


def league_names(session: Session) -> list[str]:
    """Every league's name, in order of code points (as on SQLite, whatever a
    PostgreSQL server's collation)."""
    return sorted(session.exec(select(League.name)).all())


def all_leagues(session: Session) -> list[League]:
    """Every league, by name (in order of code points, on every database)."""
    return sorted(session.exec(select(League)).all(), key=lambda league: league.name)


def only_league(session: Session, name: str | None) -> League:
    """The league called ``name``; without a name, the only league of the database.

    Raises :class:`NotFoundError` for an unknown name or an empty database, and
    :class:`UsageError` when there are several leagues and no name.
    """
    if name is not None:
        return get_league(session, name)
    leagues = all_leagues(session)
    if not leagues:
        raise NotFoundError(
            f"no leagues yet in {session_database(session)} (c8league league import FILE)"
        )
    if len(leagues) > 1:
        names = ", ".join(lg.name for lg in leagues)
        raise UsageError(f"several leagues ({names}): name one")
    return leagues[0]


def league_by_id(session: Session, league_id: int) -> League:
    league = session.get(League, league_id)
    if league is None:
        raise NotFoundError(f"no league with id {league_id}")
    return league


def league_has_results(session: Session, league_id: int) -> bool:
    query = (
        select(func.count())
        .select_from(Match)
        .join(Event, col(Match.event_id) == col(Event.id))
        .where(Event.league_id == league_id, Match.status == "done")
    )
    return bool(session.exec(query).one())


def add(session: Session, *rows: Any) -> None:
    """Write new or changed rows (given ids on flush)."""
    for row in rows:
        session.add(row)
    session.flush()


# -- events -----------------------------------------------------------------------------


def get_event(session: Session, name: str, league: str | None = None) -> tuple[League, Event]:
    """An event by name (``event`` or ``league/event``; ``league`` narrows the search)."""
    if league is None and "/" in name:
        league, name = name.split("/", 1)
    name = same_name(name)
    league = None if league is None else same_name(league)
    query = select(League, Event).join(Event, col(Event.league_id) == col(League.id))
    query = query.where(Event.name == name)
    if league is not None:
        query = query.where(League.name == league)
    rows = session.exec(query).all()
    if not rows:
        all_events = session.exec(
            select(League.name, Event.name).join(Event, col(Event.league_id) == col(League.id))
        ).all()
        listed = ", ".join(f"{lg}/{ev}" for lg, ev in all_events) or "none"
        within = f" of league {league!r}" if league is not None else ""
        raise NotFoundError(
            f"no event named {name!r}{within} in {session_database(session)}; events: {listed}"
        )
    if len(rows) > 1:
        listed = ", ".join(f"{lg.name}/{ev.name}" for lg, ev in rows)
        raise NotFoundError(
            f"event name {name!r} is in several leagues: {listed}; use LEAGUE/EVENT"
        )
    league_row, event_row = rows[0]
    return league_row, event_row


def find_event(session: Session, league_id: int, name: str) -> Event | None:
    return session.exec(
        select(Event).where(Event.league_id == league_id, Event.name == same_name(name))
    ).first()


def league_events(session: Session, league_id: int) -> list[Event]:
    """A league's events, in the order they were created."""
    return list(
        session.exec(select(Event).where(Event.league_id == league_id).order_by(col(Event.id)))
    )


def league_of_event(session: Session, event_id: int) -> League:
    event = session.get(Event, event_id)
    assert event is not None
    return league_by_id(session, event.league_id)


def event_has_rounds(session: Session, event_id: int) -> bool:
    query = select(func.count()).select_from(Round).where(Round.event_id == event_id)
    return bool(session.exec(query).one())


# -- entrants -----------------------------------------------------------------------------


def find_entrant(session: Session, name: str) -> Entrant | None:
    """The entrant called ``name``: written so, or else the one entrant whose name is the
    same whatever its case and accents (see :func:`c8league.names.name_key`)."""
    exact = session.exec(select(Entrant).where(Entrant.name == same_name(name))).first()
    if exact is not None:
        return exact
    alike = entrants_alike(session, name)
    return alike[0] if len(alike) == 1 else None


def entrants_alike(session: Session, name: str, *, but: int | None = None) -> list[Entrant]:
    """The entrants whose name is the same as ``name`` whatever its case and accents
    (leaving out the entrant ``but``), by name."""
    key = name_key(name)
    ids = [
        entrant_id
        for entrant_id, other in session.exec(select(Entrant.id, Entrant.name)).all()
        if entrant_id != but and name_key(other) == key
    ]
    if not ids:
        return []
    query = select(Entrant).where(col(Entrant.id).in_(ids))
    return sorted(session.exec(query).all(), key=lambda entrant: entrant.name)


def get_entrant(session: Session, name: str) -> Entrant:
    """The entrant called ``name``: exactly, or else whatever the case and accents
    (``lukasz`` for ``Łukasz``, by :func:`c8league.names.name_key`) when that names one
    entrant; an unknown name gets the nearest names as a suggestion."""
    entrant = find_entrant(session, name)
    if entrant is not None:
        return entrant
    alike = entrants_alike(session, name)
    if alike:
        listed = ", ".join(e.name for e in alike)
        raise NotFoundError(f"{same_name(name)!r} could be {listed}: give the name as written")
    by_key = {name_key(other): other for other in session.exec(select(Entrant.name)).all()}
    near = [by_key[k] for k in difflib.get_close_matches(name_key(name), list(by_key), n=3)]
    hint = f"did you mean {' or '.join(near)}? " if near else ""
    raise NotFoundError(f"no player named {same_name(name)!r} ({hint}c8league players list)")


def entrants_named(session: Session, names: Iterable[str]) -> dict[str, Entrant]:
    """The entrants among ``names`` that exist, by name."""
    rows = session.exec(select(Entrant).where(col(Entrant.name).in_(list(names)))).all()
    return {e.name: e for e in rows}


def all_entrants(session: Session) -> list[Entrant]:
    """Every registered entrant, by name (in order of code points, as on SQLite, whatever
    a PostgreSQL server's collation)."""
    return sorted(session.exec(select(Entrant)).all(), key=lambda entrant: entrant.name)


def entrant_names(session: Session, ids: Sequence[int] | None = None) -> dict[int, str]:
    """Entrants' names by id (of ``ids``, or of everyone)."""
    query = select(Entrant.id, Entrant.name)
    if ids is not None:
        query = query.where(col(Entrant.id).in_(list(ids)))
    return {entrant_id: name for entrant_id, name in session.exec(query).all() if entrant_id}


def results_of(session: Session, entrant_id: int) -> int:
    """How many stored results (done matches) the entrant has."""
    query = (
        select(func.count())
        .select_from(MatchSeat)
        .join(Match, col(Match.id) == col(MatchSeat.match_id))
        .where(MatchSeat.entrant_id == entrant_id, Match.status == "done")
    )
    return int(session.exec(query).one())


def seats_of(session: Session, entrant_id: int) -> int:
    """How many seats the entrant has at matches, played or not."""
    query = select(func.count()).select_from(MatchSeat).where(MatchSeat.entrant_id == entrant_id)
    return int(session.exec(query).one())


def delete_entrant(session: Session, entrant: Entrant) -> None:
    """Delete an entrant without seats, its memberships and their history, and its
    ratings (an entrant without seats has no rated result)."""
    assert entrant.id is not None
    for model in (LeagueEntrant, MembershipChange, Rating):
        for row in session.exec(select(model).where(model.entrant_id == entrant.id)).all():
            session.delete(row)
    session.flush()
    session.delete(entrant)
    session.flush()


def rename_entrant(session: Session, entrant: Entrant, name: str) -> None:
    """Give the entrant another name (its results, seats and ratings stay its own)."""
    entrant.name = name
    session.add(entrant)
    session.flush()


# -- membership ---------------------------------------------------------------------------


def league_members(session: Session, league_id: int, *, active_only: bool = False) -> list[Entrant]:
    """A league's entrants in the order they joined (id order); with ``active_only``,
    neither withdrawn from it nor retired."""
    query = (
        select(Entrant)
        .join(LeagueEntrant, col(LeagueEntrant.entrant_id) == col(Entrant.id))
        .where(LeagueEntrant.league_id == league_id)
        .order_by(col(Entrant.id))
    )
    if active_only:
        query = query.where(LeagueEntrant.withdrawn == False, Entrant.retired == False)  # noqa: E712
    return list(session.exec(query).all())


def membership(session: Session, league_id: int, entrant_id: int) -> LeagueEntrant | None:
    return session.get(LeagueEntrant, (league_id, entrant_id))


def entrant_leagues(session: Session, entrant_id: int) -> list[League]:
    """The leagues the entrant is a member of, in the order they were made."""
    return list(
        session.exec(
            select(League)
            .join(LeagueEntrant, col(LeagueEntrant.league_id) == col(League.id))
            .where(LeagueEntrant.entrant_id == entrant_id)
            .order_by(col(League.id))
        ).all()
    )


def add_member(session: Session, league_id: int, entrant_id: int) -> bool:
    """Make the entrant a member of the league; False if it is one already."""
    if membership(session, league_id, entrant_id) is not None:
        return False
    session.add(LeagueEntrant(league_id=league_id, entrant_id=entrant_id))
    session.flush()
    return True


def inactive_entrants(session: Session, league_id: int) -> set[int]:
    """Entrants of the league who are retired, or withdrawn from it."""
    withdrawn = session.exec(
        select(LeagueEntrant.entrant_id).where(
            LeagueEntrant.league_id == league_id,
            LeagueEntrant.withdrawn == True,  # noqa: E712
        )
    ).all()
    retired = session.exec(select(Entrant.id).where(Entrant.retired == True)).all()  # noqa: E712
    return {int(e) for e in withdrawn} | {int(e) for e in retired if e is not None}
