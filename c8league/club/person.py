"""A person against the league's bots: finding the person's table of the current round
(when every other seat is a bot), and storing the match played in the terminal like
any other result of the event."""

from __future__ import annotations

from dataclasses import dataclass

from c8league.errors import NotFoundError, UsageError
from c8league.ratings.update import record_results
from c8league.results import Result
from c8league.storage import audit
from c8league.storage import rounds as stored_rounds
from c8league.storage.database import Database
from c8league.storage.leagues import get_entrant, get_event, league_of_event
from c8league.storage.models import Event


@dataclass(frozen=True)
class SeatedMatch:
    """A pending match of a published round where one person sits with bots only."""

    match_id: int
    table: int
    round: int
    rules: str
    seed: int
    names: tuple[str, ...]
    plugins: tuple[tuple[str, str] | None, ...]
    """(plugin, options JSON) per seat; None for the person."""
    person_seat: int


def person_match(db: Database, event_name: str, person: str) -> SeatedMatch:
    """The pending table of the latest published round where ``person`` sits with bots."""
    with db.session() as session:
        _, event = get_event(session, event_name)
        round_row = stored_rounds.get_round(session, event, None)
        if not round_row.published:
            raise UsageError(f"round {round_row.number} of {event.name!r} is not published yet")
        entrant = get_entrant(session, person)
        rows = stored_rounds.tables_of(session, round_row.id, entrant.id or 0)
        if not rows:
            raise NotFoundError(f"{person} has no table in round {round_row.number}")
        match, seat = rows[0]
        if match.status != "pending":
            raise UsageError(f"{person}'s table {match.table_no} already has a result")
        seated = stored_rounds.seated(session, match.id)
        others = [e.name for i, e in enumerate(seated) if i != seat and e.plugin is None]
        if others:
            raise UsageError(
                f"table {match.table_no} also seats {', '.join(others)}: play it at the table "
                "and enter the result with: c8league result add"
            )
        assert match.id is not None
        return SeatedMatch(
            match_id=match.id,
            table=match.table_no,
            round=round_row.number,
            rules=match.rules,
            seed=match.seed,
            names=tuple(e.name for e in seated),
            plugins=tuple(
                None if i == seat or e.plugin is None else (e.plugin, e.options)
                for i, e in enumerate(seated)
            ),
            person_seat=seat,
        )


def store_played(db: Database, seated: SeatedMatch, result: Result) -> None:
    """Store the result of a match played in the terminal, like any other result of the
    event (``entered_by`` ``play``: see ``runner.loop.MatchOutcome.as_result``)."""
    with db.writing() as session:
        match = stored_rounds.get_match(session, seated.match_id)
        if match.status != "pending":
            raise UsageError(f"table {seated.table} got a result meanwhile; nothing stored")
        record_results(session, league_of_event(session, match.event_id), [(match, result)])
        audit.record(
            session,
            "add",
            event=session.get(Event, match.event_id),
            match_id=seated.match_id,
            round_number=seated.round,
            table_no=seated.table,
            subject=f"table {seated.table}: {', '.join(seated.names)}",
            after={"scores": dict(zip(seated.names, result.scores, strict=True))},
            note="played in the terminal",
        )
