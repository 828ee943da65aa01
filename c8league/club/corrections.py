"""Results of a published round entered by hand, and their corrections: adding, editing
and voiding a table's result, each kept in the audit trail. A result entered counts
for ratings from then on; after an edit or a void, the ratings are recomputed from
that result on. A voided table may be entered again (``add``): the new result takes
the voided one's place in the order of results. Every bad entry raises
:class:`ResultError` (or :class:`UsageError` for a bad request) and writes nothing.

Which round: ``--round`` names it. Without it, ``add`` acts on the latest published
round where the table has no result (or a voided one), ``edit`` and ``void`` on the
latest round where the table has a result. When the names entered were not seated at
that table then but were in exactly one other such round, that round is meant; when
they sat there in several, the error names the rounds to choose from.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from c8league.club.entry import CheckedResult, Entry, check_result
from c8league.engine import Rules
from c8league.engine.rules import COUNTDOWN_START
from c8league.errors import NotFoundError, ResultError, UsageError
from c8league.names import name_key
from c8league.ratings.update import rebuild_ratings, record_results
from c8league.storage import Session, audit
from c8league.storage import results as stored_results
from c8league.storage import rounds as stored_rounds
from c8league.storage.database import Database
from c8league.storage.leagues import get_event, only_league
from c8league.storage.models import Event, League, Match, Round

ENTER = ("pending", "void")
"""The statuses of a table whose result may be added."""
CHANGE = ("done",)
"""The statuses of a table whose result may be edited or voided."""


@dataclass(frozen=True)
class TableInfo:
    """A published table: its round, seats in order, rules and target score."""

    event: str
    round: int
    table: int
    seats: tuple[str, ...]
    rules: Rules
    status: str

    @property
    def target(self) -> int:
        """The score that ends the match (0 is reached in Countdown)."""
        return COUNTDOWN_START if self.rules.countdown else self.rules.target_for(len(self.seats))

    def check(self, entry: Entry) -> CheckedResult:
        """``entry`` checked against this table (nothing is stored)."""
        return check_result(
            self.seats,
            self.rules,
            scores=entry.scores,
            hands=entry.hands,
            forfeits=entry.forfeits,
            blocked=entry.blocked,
            unfinished=entry.unfinished,
            places=entry.places,
            where=f"round {self.round}, table {self.table}",
        )


@dataclass(frozen=True)
class Change:
    """What an add, edit or void did: the round and table, the result stored (None for a
    void), and the status and result the table had before."""

    round: int
    table: int
    checked: CheckedResult | None
    was: str
    before: dict[str, Any] | None = None


def _names(match: Match, session: Session) -> list[str]:
    return [e.name for e in stored_rounds.seated(session, match.id)]


def _sits(session: Session, match: Match, names: Sequence[str]) -> bool:
    seated = {name_key(n) for n in _names(match, session)}
    return all(name_key(name) in seated for name in names)


def _rounds_text(numbers: Sequence[int]) -> str:
    listed = [str(n) for n in numbers]
    return listed[0] if len(listed) == 1 else ", ".join(listed[:-1]) + " and " + listed[-1]


def _check_status(event: Event, round_row: Round, match: Match, statuses: Sequence[str]) -> None:
    """Refuse a table whose status is not one of ``statuses``, saying what to do instead."""
    where = f"round {round_row.number}, table {match.table_no}"
    if match.status in statuses:
        return
    round_opt = f"--round {round_row.number} --table {match.table_no}"
    if statuses == ENTER:
        raise ResultError(
            f"{where} already has a result: correct it with c8league result edit "
            f"{event.name} {round_opt} (or void it)"
        )
    if match.status == "void":
        raise ResultError(
            f"{where} was voided: enter its result again with c8league result add "
            f"{event.name} {round_opt}"
        )
    raise ResultError(
        f"{where} has no result yet: enter it with c8league result add {event.name} {round_opt}"
    )


def _find(
    session: Session,
    event: Event,
    *,
    table: int,
    round_number: int | None,
    statuses: Sequence[str],
    names: Sequence[str] = (),
) -> tuple[Round, Match]:
    """The round and match of the published table an entry is for (see the module's
    docstring for the round chosen without ``round_number``)."""
    assert event.id is not None
    if round_number is not None:
        round_row = stored_rounds.get_round(session, event, round_number)
        if not round_row.published:
            raise ResultError(
                f"round {round_row.number} of {event.name!r} is not published yet "
                f"(c8league event publish {event.name})"
            )
        match = stored_rounds.table_match(session, round_row.id, table)
        if match is None:
            raise NotFoundError(f"round {round_row.number} of {event.name!r} has no table {table}")
        _check_status(event, round_row, match, statuses)
        return round_row, match
    rows = stored_rounds.table_in_rounds(session, event.id, table)
    if not rows:
        latest = stored_rounds.get_round(session, event, None)  # raises without rounds
        raise NotFoundError(
            f"round {latest.number} of {event.name!r} has no table {table}"
            if len(stored_rounds.event_rounds(session, event.id)) == 1
            else f"{event.name!r} has no table {table} in any round"
        )
    first_round, _ = rows[0]
    published = [(r, m) for r, m in rows if r.published]
    if not published:
        raise ResultError(
            f"round {first_round.number} of {event.name!r} is not published yet "
            f"(c8league event publish {event.name})"
        )
    candidates = [(r, m) for r, m in published if m.status in statuses]
    if not candidates:
        if statuses == ENTER and not first_round.published:
            raise ResultError(
                f"round {first_round.number} of {event.name!r} is not published yet "
                f"(c8league event publish {event.name})"
            )
        _check_status(event, *published[0], statuses)
    if names and len(candidates) > 1 and not _sits(session, candidates[0][1], names):
        fits = [(r, m) for r, m in candidates if _sits(session, m, names)]
        if len(fits) == 1:
            return fits[0]
        if len(fits) > 1:
            numbers = [r.number for r, _ in fits]
            raise UsageError(
                f"table {table} seated {', '.join(names)} in rounds {_rounds_text(numbers)}: "
                f"say which with --round ({', '.join(f'--round {n}' for n in numbers)})"
            )
    return candidates[0]


def info_in(session: Session, event: Event, round_row: Round, match: Match) -> TableInfo:
    """The table of ``match``, in the caller's transaction."""
    return TableInfo(
        event=event.name,
        round=round_row.number,
        table=match.table_no,
        seats=tuple(_names(match, session)),
        rules=Rules.from_json(match.rules),
        status=match.status,
    )


def _check(
    session: Session,
    event: Event,
    *,
    table: int,
    round_number: int | None,
    statuses: Sequence[str],
    entry: Entry,
) -> tuple[Round, Match, CheckedResult]:
    """The table the entry is for and the entry checked against it. When the names do
    not fit and the table had another round to choose from, the error says so."""
    round_row, match = _find(
        session,
        event,
        table=table,
        round_number=round_number,
        statuses=statuses,
        names=entry.names(),
    )
    try:
        checked = info_in(session, event, round_row, match).check(entry)
    except ResultError as exc:
        if round_number is None and "not seated" in str(exc):
            assert event.id is not None
            others = [
                r.number
                for r, m in stored_rounds.table_in_rounds(session, event.id, table)
                if r.published and m.status in statuses and r.id != round_row.id
            ]
            if others:
                raise ResultError(
                    f"{exc}; table {table} of round {_rounds_text(others)} may be meant: "
                    "say which with `round`",
                    params=[*exc.params, "round"],
                ) from None
        raise
    return round_row, match, checked


def table_info(
    db: Database, event_name: str, table: int, round_number: int | None, *, edit: bool = False
) -> TableInfo:
    """The published table a result is entered for (``edit``: a result changed), as
    :func:`add_result` (or :func:`edit_result`) would choose it."""
    with db.session() as session:
        _, event = get_event(session, event_name)
        statuses = CHANGE if edit else ENTER
        round_row, match = _find(
            session, event, table=table, round_number=round_number, statuses=statuses
        )
        return info_in(session, event, round_row, match)


def add_result(
    db: Database, event_name: str, table: int, entry: Entry, *, round_number: int | None = None
) -> Change:
    """Enter the result of a published table; it counts for ratings from now on (a table
    voided before takes back the voided result's place in the order of results)."""
    with db.writing() as session:
        league, event = get_event(session, event_name)
        return add_in(session, league, event, table, entry, round_number=round_number)


def add_in(
    session: Session,
    league: League,
    event: Event,
    table: int,
    entry: Entry,
    *,
    round_number: int | None = None,
) -> Change:
    """:func:`add_result` in the caller's transaction."""
    round_row, match, checked = _check(
        session, event, table=table, round_number=round_number, statuses=ENTER, entry=entry
    )
    was = match.status
    if was == "void" and match.sequence is not None:
        sequence = match.sequence
        stored_results.clear_result(session, match, status="done")
        stored_results.store_result(session, match, checked.result, sequence)
        rebuild_ratings(session, _league_id(league), from_sequence=sequence)
    else:
        record_results(session, league, [(match, checked.result)])
    assert match.id is not None
    _record(
        session,
        "add",
        event=event,
        round_row=round_row,
        match=match,
        before=None,
        after=checked.to_dict(),
        note=entry.note,
    )
    return Change(round_row.number, table, checked, was)


def edit_result(
    db: Database, event_name: str, table: int, entry: Entry, *, round_number: int | None = None
) -> Change:
    """Correct a stored result; it keeps its place in the order of results, and the
    ratings are recomputed from it on."""
    with db.writing() as session:
        league, event = get_event(session, event_name)
        round_row, match, checked = _check(
            session, event, table=table, round_number=round_number, statuses=CHANGE, entry=entry
        )
        before = stored_results.stored_result(session, match)
        sequence = match.sequence
        assert sequence is not None and match.id is not None
        if _same_result(before, checked.to_dict()):
            raise ResultError(
                f"nothing to change: round {round_row.number}, table {table} already has "
                "this result"
            )
        stored_results.clear_result(session, match, status="done")
        stored_results.store_result(session, match, checked.result, sequence)
        rebuild_ratings(session, _league_id(league), from_sequence=sequence)
        _record(
            session,
            "edit",
            event=event,
            round_row=round_row,
            match=match,
            before=before,
            after=checked.to_dict(),
            note=entry.note,
        )
        return Change(
            round=round_row.number, table=table, checked=checked, was="done", before=before
        )


def void_result(
    db: Database, event_name: str, table: int, *, round_number: int | None = None, note: str = ""
) -> Change:
    """Void a stored result: it no longer counts for standings or ratings (recomputed).
    The table may be entered again with :func:`add_result`."""
    with db.writing() as session:
        league, event = get_event(session, event_name)
        round_row, match = _find(
            session, event, table=table, round_number=round_number, statuses=CHANGE
        )
        before = stored_results.stored_result(session, match)
        sequence = match.sequence
        assert sequence is not None and match.id is not None
        stored_results.clear_result(session, match, status="void")
        rebuild_ratings(session, _league_id(league), from_sequence=sequence)
        _record(
            session,
            "void",
            event=event,
            round_row=round_row,
            match=match,
            before=before,
            after=None,
            note=note,
        )
        return Change(round=round_row.number, table=table, checked=None, was="done", before=before)


def _same_result(before: dict[str, Any], after: dict[str, Any]) -> bool:
    """Whether an edit would store the result the table has (what the audit trail keeps
    of it: scores, places, hands and who left)."""
    return {k: v for k, v in before.items() if k in after} == after


def _record(
    session: Session,
    action: str,
    *,
    event: Event,
    round_row: Round,
    match: Match,
    before: dict[str, Any] | None,
    after: dict[str, Any] | None,
    note: str,
) -> None:
    names = ", ".join(_names(match, session))
    audit.record(
        session,
        action,
        event=event,
        match_id=match.id,
        round_number=round_row.number,
        table_no=match.table_no,
        subject=f"table {match.table_no}: {names}",
        before=before,
        after=after,
        note=note,
    )


def _league_id(league: League) -> int:
    assert league.id is not None
    return league.id


def audit_trail(db: Database, event_name: str) -> list[dict[str, Any]]:
    """Every change of the event, oldest first: its results added, edited and voided, its
    draft rounds changed, published and discarded, and the changes of membership made
    while it ran."""
    with db.session() as session:
        _, event = get_event(session, event_name)
        assert event.id is not None
        return audit.trail(session, event_id=event.id)


def league_trail(db: Database, league_name: str | None) -> list[dict[str, Any]]:
    """Every change of the league (its events' and its members'), oldest first."""
    with db.session() as session:
        league = only_league(session, league_name)
        return audit.trail(session, league_id=league.id)
