"""Check-in: a member who will not come to an evening (or to one round of it) is not
paired there and stays a member; one who comes after all is paired again from the next
round. Only Swiss events: a round-robin's tables are fixed by its design."""

from __future__ import annotations

from dataclasses import dataclass

from c8league.errors import UsageError
from c8league.events.pairing import planned_rounds
from c8league.storage import Session
from c8league.storage import absences as stored_absences
from c8league.storage import rounds as stored_rounds
from c8league.storage.database import Database
from c8league.storage.leagues import get_entrant, get_event, membership
from c8league.storage.models import Entrant, Event, League, Round


@dataclass(frozen=True)
class CheckIn:
    """What a check-in did: the member (as the league writes the name), the event, the
    rounds it concerns in words, and a warning for a draft round already paired."""

    name: str
    event: str
    rounds: str
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
    """The first round whose tables may still change (a draft, or the next to pair)."""
    rounds = stored_rounds.event_rounds(session, event.id or 0)
    if rounds and not rounds[-1].published:
        return rounds[-1].number, rounds[-1]
    return len(rounds) + 1, None


def _seated(session: Session, round_row: Round, entrant: Entrant) -> list[int]:
    return [m.table_no for m, _ in stored_rounds.tables_of(session, round_row.id, entrant.id or 0)]


def _rounds_text(first: int, last: int | None) -> str:
    if last is None:
        return f"from round {first} on"
    return f"round {first}" if first == last else f"rounds {first} to {last}"


def absent(db: Database, event_name: str, name: str, round_number: int | None = None) -> CheckIn:
    """``name`` will not come: not paired in ``round_number`` of the event, or (None) in
    any round from the next one to pair until they are back."""
    with db.writing() as session:
        league, event, entrant = _member(session, event_name, name)
        total = planned_rounds(session, league, event)
        first, draft = _open(session, event)
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
            raise UsageError(f"{event.name!r} has all its {total} rounds paired")
        last = round_number
        already = [
            a
            for a in stored_absences.absences(session, event.id or 0)
            if a.entrant_id == entrant.id
            and stored_absences.covers(a, first)
            and (a.until_round is None or (last is not None and a.until_round >= last))
        ]
        if already:
            raise UsageError(
                f"{entrant.name} is already absent from {_rounds_text(first, last)} of "
                f"{event.name!r}"
            )
        stored_absences.add(session, event.id or 0, entrant.id or 0, first, last)
        warnings: tuple[str, ...] = ()
        if draft is not None and first == draft.number and _seated(session, draft, entrant):
            table = _seated(session, draft, entrant)[0]
            warnings = (
                f"{entrant.name} is seated at table {table} of the draft round {draft.number}: "
                f"pair it again (c8league event unpair {event.name}, then event pair)",
            )
        return CheckIn(entrant.name, event.name, _rounds_text(first, last), warnings)


def present(db: Database, event_name: str, name: str) -> CheckIn:
    """``name`` comes after all: paired again from the first round still open."""
    with db.writing() as session:
        _, event, entrant = _member(session, event_name, name)
        first, draft = _open(session, event)
        if not stored_absences.end(session, event.id or 0, entrant.id or 0, first):
            raise UsageError(
                f"{entrant.name} is not absent from round {first} or later of {event.name!r}"
            )
        warnings: tuple[str, ...] = ()
        if draft is not None and not _seated(session, draft, entrant):
            warnings = (
                f"the draft round {draft.number} was paired without {entrant.name}: pair it "
                f"again (c8league event unpair {event.name}, then event pair)",
            )
        return CheckIn(entrant.name, event.name, _rounds_text(first, None), warnings)
