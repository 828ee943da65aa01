"""A league member's status, read from the history of their membership
(:mod:`c8league.storage.membership`): every join, withdrawal and return is recorded
against the event and round it happened after, so each event reads the membership as it
was then.

- Now (``players list``, ``league show``, pairing): active, withdrawn (not paired from
  the next round; results stay) or retired (removed with results).
- In an event: who was a member during it, and what changed while it ran. A change
  after an event's last round is not part of that event: a finished event reads the
  same whatever happens later.

A change is described one way everywhere: "withdrew after round 2 of evening-2",
"joined after round 3 of evening-1", "came back after round 1 of evening-3" (or
"... before the first round" when the league had no round yet).

Check-in is part of the same history: ``absent`` and ``present`` are kept against the
event they concern (and how many of its rounds were published when said), for one of
its rounds or from the next one on. They never change the membership; an event reads
only its own, so nothing said of a later event changes it. In words: "absent in round
2 of evening-2", "absent from round 2 of evening-2 on", "present from round 3 of
evening-2 on".
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from c8league.storage import Session
from c8league.storage import leagues as stored_leagues
from c8league.storage import membership as stored_membership
from c8league.storage import rounds as stored_rounds
from c8league.storage.models import Event, League, MembershipChange

__all__ = [
    "ACTIVE",
    "CheckIns",
    "EventMembers",
    "MemberStatus",
    "absence_text",
    "check_in_text",
    "check_ins",
    "describe",
    "event_members",
    "member_statuses",
]

_VERBS = {"joined": "joined", "withdrew": "withdrew", "returned": "came back"}
"""The changes of membership a status describes, in words."""
_STATES = {"joined": "active", "withdrew": "withdrawn", "returned": "active"}


def describe(action: str, event: str | None, after_round: int) -> str:
    """``withdrew after round 2 of evening-2``: a change of membership in words."""
    verb = _VERBS.get(action, action)
    if event is None:
        return f"{verb} before the first round"
    return f"{verb} after round {after_round} of {event}"


@dataclass(frozen=True, slots=True)
class MemberStatus:
    """``status``: ``active``, ``withdrawn`` or ``retired``; ``change``: the change of
    membership that brought it (``joined``, ``withdrew`` or ``returned``; None when
    there is nothing to tell), after round ``after_round`` of ``event``."""

    status: str = "active"
    change: str | None = None
    event: str | None = None
    after_round: int | None = None

    @property
    def active(self) -> bool:
        return self.status == "active"

    def text(self) -> str:
        """``withdrew after round 2 of evening-2``, ``joined after round 1 of
        evening-1``, ``retired``, or ``active``."""
        if self.change is None:
            return self.status
        return describe(self.change, self.event, self.after_round or 0)

    @property
    def note(self) -> str:
        """:meth:`text` where there is something to tell; empty for a plain active member."""
        return "" if self.change is None and self.active else self.text()

    def to_dict(self) -> dict[str, Any]:
        return {
            "status": self.status,
            "change": self.change,
            "event": self.event,
            "after_round": self.after_round,
            "membership": self.note,
        }


ACTIVE = MemberStatus()
"""An active member, with nothing to tell."""


def member_statuses(session: Session, league: League) -> dict[int, MemberStatus]:
    """Every member's status in ``league`` now (by entrant id): retired, withdrawn (and
    when), or active (and, for one who came back or joined after the first round,
    when)."""
    assert league.id is not None
    members = stored_leagues.league_members(session, league.id)
    withdrawn = stored_leagues.inactive_entrants(session, league.id)
    names = _event_names(session, league.id)
    last: dict[int, MembershipChange] = {}
    for change in stored_membership.changes(session, league.id):
        if change.action in _STATES:
            last[change.entrant_id] = change
    result: dict[int, MemberStatus] = {}
    for entrant in members:
        assert entrant.id is not None
        if entrant.retired:
            result[entrant.id] = MemberStatus("retired")
            continue
        status = "withdrawn" if entrant.id in withdrawn else "active"
        latest = last.get(entrant.id)
        if latest is None or _STATES[latest.action] != status or _from_start(latest):
            result[entrant.id] = MemberStatus(status)
            continue
        result[entrant.id] = _status(latest, names)
    return result


def _from_start(change: MembershipChange) -> bool:
    """A member since before the league's first round: nothing to tell."""
    return change.action == "joined" and change.event_id is None


def _status(change: MembershipChange, names: dict[int, str]) -> MemberStatus:
    return MemberStatus(
        _STATES[change.action],
        change.action,
        None if change.event_id is None else names.get(change.event_id),
        change.after_round,
    )


def _event_names(session: Session, league_id: int) -> dict[int, str]:
    return {
        e.id: e.name for e in stored_leagues.league_events(session, league_id) if e.id is not None
    }


def rounds_text(numbers: Sequence[int]) -> str:
    """``round 2``, ``rounds 1 and 3``, ``rounds 1, 2 and 3``."""
    listed = [str(n) for n in numbers]
    if len(listed) == 1:
        return f"round {listed[0]}"
    return "rounds " + ", ".join(listed[:-1]) + " and " + listed[-1]


def absence_text(rounds: Sequence[int], event: str) -> str:
    """``absent in round 2 of evening-2``: the rounds of an event paired without a member
    who said they would not come."""
    return f"absent in {rounds_text(rounds)} of {event}"


def check_in_text(action: str, event: str, first: int, *, only: bool = False) -> str:
    """A check-in in words: ``absent in round 3 of evening-2`` (``only`` that round),
    ``absent from round 2 of evening-2 on``, ``present from round 2 of evening-2 on``."""
    if only:
        return f"{action} in round {first} of {event}"
    return f"{action} from round {first} of {event} on"


@dataclass(frozen=True, slots=True)
class CheckInEntry:
    """One ``absent`` or ``present`` of an event: for round ``only``, or from round
    ``first`` on (``only`` None)."""

    entrant: int
    action: str
    first: int
    only: int | None

    def covers(self, number: int) -> bool:
        return number == self.only if self.only is not None else number >= self.first


@dataclass(frozen=True)
class CheckIns:
    """Who said they would not come to an event's rounds, and who came after all, in
    the order it was said: the latest word that concerns a round holds for it."""

    said: tuple[CheckInEntry, ...] = ()

    def absent(self, entrant: int, number: int) -> bool:
        """Whether ``entrant`` is not to be paired in round ``number``."""
        state = False
        for c in self.said:
            if c.entrant == entrant and c.covers(number):
                state = c.action == "absent"
        return state

    def absent_in(self, number: int) -> set[int]:
        """The entrants not to be paired in round ``number``."""
        return {c.entrant for c in self.said if self.absent(c.entrant, number)}


def check_ins(session: Session, event: Event) -> CheckIns:
    """The event's check-in, from the membership history."""
    assert event.id is not None
    return CheckIns(
        tuple(
            CheckInEntry(c.entrant_id, c.action, c.after_round + 1, c.round)
            for c in stored_membership.check_ins(session, event.id)
        )
    )


@dataclass(frozen=True)
class EventMembers:
    """The league's members as an event saw them."""

    members: list[int] = field(default_factory=list)
    """Members during the event (in at least one of its rounds), in the order they
    joined the league."""
    statuses: dict[int, MemberStatus] = field(default_factory=dict)
    """What changed for a member while the event ran (members with nothing to tell are
    left out)."""
    inactive: set[int] = field(default_factory=set)
    """Members withdrawn by the event's last round (or now, while it runs)."""
    absent: dict[int, tuple[int, ...]] = field(default_factory=dict)
    """The rounds paired so far without a member who said they would not come."""
    event: str = ""

    def note(self, entrant: int) -> str:
        """What to tell of the entrant in this event, in the words used everywhere
        (``withdrew after round 2 of evening-2; absent in round 1 of evening-2``); empty
        when nothing."""
        notes = [self.statuses.get(entrant, ACTIVE).note]
        if entrant in self.absent:
            notes.append(absence_text(self.absent[entrant], self.event))
        return "; ".join(n for n in notes if n)


def event_members(
    session: Session, league: League, event: Event, rounds_total: int
) -> EventMembers:
    """Who was a member during ``event`` (of ``rounds_total`` rounds) and what changed
    while it ran, from the membership history: only the changes made before the end of
    its last round count, so a finished event reads the same whatever happens later.

    An event without rounds yet reads the membership as it is now; an event under way
    includes the members of its next round."""
    assert league.id is not None and event.id is not None
    members = stored_leagues.league_members(session, league.id)
    paired = len(stored_rounds.event_rounds(session, event.id))
    if paired == 0:
        inactive = stored_leagues.inactive_entrants(session, league.id)
        return EventMembers(
            [e.id for e in members if e.id is not None and e.id not in inactive],
            event=event.name,
        )
    order = {
        e.id: index for index, e in enumerate(stored_leagues.league_events(session, league.id))
    }
    names = _event_names(session, league.id)
    mine = order[event.id]
    last_round = paired if paired >= rounds_total else paired + 1
    history: dict[int, list[MembershipChange]] = {}
    for change in stored_membership.changes(session, league.id):
        if change.action in _STATES:
            history.setdefault(change.entrant_id, []).append(change)

    def at(change: MembershipChange) -> tuple[int, int]:
        return (
            -1 if change.event_id is None else order.get(change.event_id, -1)
        ), change.after_round

    result = EventMembers(absent=_missed(session, event), event=event.name)
    for entrant in members:
        entrant_id = entrant.id
        assert entrant_id is not None
        changes = history.get(entrant_id, [])
        states = [_state_at(changes, at, (mine, r)) for r in range(1, last_round + 1)]
        if not any(state == "active" for state in states):
            continue
        result.members.append(entrant_id)
        if states[-1] == "withdrawn":
            result.inactive.add(entrant_id)
        during = [c for c in changes if at(c)[0] == mine and 1 <= c.after_round < rounds_total]
        if during:
            result.statuses[entrant_id] = _status(during[-1], names)
    return result


def _state_at(
    changes: Sequence[MembershipChange],
    at: Any,
    where: tuple[int, int],
) -> str:
    """A member's state in round ``where`` (event index, round): the last change made
    before it (a member without a recorded change is active from the start)."""
    state = "active" if not changes else "none"
    for change in changes:
        if at(change) < where:
            state = _STATES[change.action]
    return state


def _missed(session: Session, event: Event) -> dict[int, tuple[int, ...]]:
    """For each member said to be absent, the rounds paired so far without them."""
    assert event.id is not None
    said = check_ins(session, event)
    if not said.said:
        return {}
    found: dict[int, list[int]] = {}
    for number, (tables, byes) in enumerate(stored_rounds.stored_rounds(session, event.id), 1):
        there = {e for t in tables for e in t} | set(byes)
        for entrant in sorted(said.absent_in(number) - there):
            found.setdefault(entrant, []).append(number)
    return {e: tuple(rounds) for e, rounds in found.items()}
