"""Check-in: a member who will not come to an evening (or to one round of it) is not
paired there and stays a member; one who comes after all is paired again from the next
round. Only Swiss events: a round-robin's tables are fixed by its design.

Each is kept in the league's membership history (``absent`` and ``present`` against
the event, see :mod:`c8league.league.status`) and in the audit trail."""

from __future__ import annotations

from dataclasses import dataclass

from c8league.errors import UsageError
from c8league.events.status import planned_rounds
from c8league.league.status import check_in_text, check_ins
from c8league.storage import Session, audit
from c8league.storage import membership as stored_membership
from c8league.storage import rounds as stored_rounds
from c8league.storage.database import Database
from c8league.storage.leagues import get_entrant, get_event, membership
from c8league.storage.models import Entrant, Event, League, Round


@dataclass(frozen=True)
class CheckIn:
    """What a check-in did: the member (as the league writes the name), the event, the
    check-in in words (``absent from round 2 of evening-2 on``), and a warning for a
    draft round already paired."""

    name: str
    event: str
    text: str
    warnings: tuple[str, ...] = ()


def _member(session: Session, event_name: str, name: str) -> tuple[League, Event, Entrant]:
    league, event = get_event(session, event_name)
    if event.format != "swiss":
        raise UsageError(
            f"{event.name!r} is a round-robin: its tables are fixed by its design (a member "
            "who stops playing is withdrawn: c8league players withdraw)"
        )
    entrant = get_entrant(session, name)
    member = membership(session, league.id or 0, entrant.id or 0)
    if member is None:
        raise UsageError(f"{entrant.name} is not in league {league.name!r}")
    if member.withdrawn:
        raise UsageError(
            f"{entrant.name} has withdrawn from {league.name!r} (c8league players reinstate "
            "brings them back)"
        )
    return league, event, entrant


def _open(session: Session, event: Event) -> tuple[int, Round | None]:
    """How many of the event's rounds are published, and its draft round if any: the
    first round whose tables may still change is the next one."""
    rounds = stored_rounds.event_rounds(session, event.id or 0)
    published = sum(1 for r in rounds if r.published)
    draft = rounds[-1] if rounds and not rounds[-1].published else None
    return published, draft


def _seated(session: Session, round_row: Round, entrant: Entrant) -> list[int]:
    return [m.table_no for m, _ in stored_rounds.tables_of(session, round_row.id, entrant.id or 0)]


def _keep(
    session: Session,
    league: League,
    *,
    event: Event,
    entrant: Entrant,
    said: tuple[str, int, int | None, str],
) -> None:
    """Keep a check-in in the membership history and the audit trail."""
    action, published, only, text = said
    assert league.id is not None and entrant.id is not None
    stored_membership.record(
        session,
        league.id,
        entrant.id,
        action=action,
        where=(event, published),
        round_number=only,
    )
    audit.record(
        session,
        action,
        event=event,
        round_number=only if only is not None else published + 1,
        subject=entrant.name,
        note=text,
    )


def absent(db: Database, event_name: str, name: str, round_number: int | None = None) -> CheckIn:
    """``name`` will not come: not paired in ``round_number`` of the event, or (None) in
    any round from the next one to pair until they are back."""
    with db.writing() as session:
        league, event, entrant = _member(session, event_name, name)
        total = planned_rounds(session, league, event)
        published, draft = _open(session, event)
        first = published + 1
        if round_number is not None:
            if round_number > total:
                raise UsageError(f"{event.name!r} has {total} rounds, not {round_number}")
            if round_number < first:
                raise UsageError(
                    f"round {round_number} of {event.name!r} is published: its tables are "
                    f"fixed (one who left is entered with c8league result add {event.name} "
                    f"--forfeit {entrant.name})"
                )
            first = round_number
        if first > total:
            raise UsageError(f"{event.name!r} has all its {total} rounds published")
        last = total if round_number is None else round_number
        said = check_ins(session, event)
        text = check_in_text("absent", event.name, first, only=round_number is not None)
        if all(said.absent(entrant.id or 0, n) for n in range(first, last + 1)):
            raise UsageError(f"{entrant.name} is already {text}")
        _keep(
            session,
            league,
            event=event,
            entrant=entrant,
            said=("absent", published, round_number, text),
        )
        warnings: tuple[str, ...] = ()
        seated = [] if draft is None or draft.number != first else _seated(session, draft, entrant)
        if draft is not None and seated:
            warnings = (
                f"{entrant.name} is seated at table {seated[0]} of the draft round "
                f"{draft.number}: pair it again (c8league event unpair {event.name}, then "
                "event pair)",
            )
        return CheckIn(entrant.name, event.name, text, warnings)


def present(db: Database, event_name: str, name: str) -> CheckIn:
    """``name`` comes after all: paired again from the first round still open."""
    with db.writing() as session:
        league, event, entrant = _member(session, event_name, name)
        total = planned_rounds(session, league, event)
        published, draft = _open(session, event)
        first = published + 1
        said = check_ins(session, event)
        if not any(said.absent(entrant.id or 0, n) for n in range(first, total + 1)):
            raise UsageError(
                f"{entrant.name} is not absent from round {first} or later of {event.name!r}"
            )
        text = check_in_text("present", event.name, first)
        _keep(
            session, league, event=event, entrant=entrant, said=("present", published, None, text)
        )
        warnings: tuple[str, ...] = ()
        if draft is not None and not _seated(session, draft, entrant):
            warnings = (
                f"the draft round {draft.number} was paired without {entrant.name}: pair it "
                f"again (c8league event unpair {event.name}, then event pair)",
            )
        return CheckIn(entrant.name, event.name, text, warnings)
