"""Pairing an event's rounds: the entrants of its league, a schedule from the pure
functions of ``c8league.schedule``, and the round's tables written as match rows.

A round-robin's rounds are fixed by the entrants of its first round (a withdrawn
entrant's seats are left empty): its schedule is computed once, when that round is
paired, and stored with it (``storage.schedules``); every later pairing reads it. A
Swiss round is paired from the standings so far, without the members said to be absent
from it; its first round in an order drawn from the event's seed (or by rating, as the
league chooses). Meetings, smaller tables, byes and seats are remembered over the
league's earlier events too, and the smaller tables rotate. An event paired before these
rules (``pairing`` 1) keeps its first rules: round 1 in the order of entry, only its own
rounds remembered. Every match's seed is derived from the event seed and the match's
identity (round, table), so the same event gives the same matches whenever and however
it is paired.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from c8league.engine import derive_seed
from c8league.errors import C8LeagueError, UsageError
from c8league.events.status import active_ids, event_results, planned_rounds
from c8league.league.status import check_ins
from c8league.ratings import RatingSettings
from c8league.schedule import round_robin, swiss_round
from c8league.schedule.model import Round as PlannedRound
from c8league.standings import LEGACY_TIEBREAKS, StandingRules, standings
from c8league.storage import Session, schedules
from c8league.storage import leagues as stored_leagues
from c8league.storage import ratings as stored_ratings
from c8league.storage import rounds as stored_rounds
from c8league.storage.database import Database
from c8league.storage.leagues import entrant_names, get_event
from c8league.storage.models import Event, League, Round
from c8league.storage.rounds import NewMatch


def _plan_round(session: Session, league: League, event: Event, number: int) -> PlannedRound[int]:
    assert event.id is not None
    ids = active_ids(session, league)
    if len(ids) < 2:
        raise UsageError(f"event {event.name!r} needs at least two active entrants")
    if event.format == "round_robin":
        # The schedule is fixed by the entrants of the first round; a withdrawn entrant's
        # seats are left empty (a table left with one player gives that player a bye).
        (planned,) = _schedule(session, event, ids=ids, first=number, last=number)
        return _kept(planned, set(ids))
    rules = StandingRules.from_json(league.standing)
    away = check_ins(session, event).absent_in(number)
    ids = [e for e in ids if e not in away]
    if len(ids) < 2:
        raise UsageError(
            f"event {event.name!r} needs at least two entrants present in round {number}"
        )
    if event.pairing < 2:
        # Paired by the first rules: round 1 in the order of entry, only the event's
        # own rounds remembered, sitting short again a cost only.
        tables, byes = event_results(session, event.id)
        table = standings(ids, tables, byes, LEGACY_TIEBREAKS)
        return swiss_round(
            {s.entrant: s.match_points for s in table},
            history_of(session, event.id),
            event.table_size,
            seed=derive_seed(event.seed, "swiss", number),
            order=[s.entrant for s in table],
        )
    if number == 1:
        scores, order = first_round_scores(session, league, event, ids=ids, how=rules.first_round)
    else:
        tables, byes = event_results(session, event.id)
        table = standings(ids, tables, byes, rules.tiebreaks)
        scores = {s.entrant: s.match_points for s in table}
        order = [s.entrant for s in table]
    return swiss_round(
        scores,
        season_history(session, league, event),
        event.table_size,
        seed=derive_seed(event.seed, "swiss", number),
        order=order,
        rotate_short=True,
    )


def first_round_scores(
    session: Session, league: League, event: Event, *, ids: list[int], how: str
) -> tuple[dict[int, float], list[int]]:
    """The scores and order a Swiss event's first round is paired by: everyone level
    and in an order drawn from the event's seed, or (``rating``) each by the league's
    conservative rating (μ − 3σ; a new entrant at the league's starting rating), those
    level in the order drawn."""
    drawn = sorted(ids)
    random.Random(derive_seed(event.seed, "first round")).shuffle(drawn)
    if how != "rating":
        return dict.fromkeys(drawn, 0.0), drawn
    assert league.id is not None
    settings = RatingSettings.from_json(league.rating)
    rated = stored_ratings.current(session, league.id, ids)
    start = settings.mu - 3 * settings.sigma
    scores = {e: round(rated[e][0] - 3 * rated[e][1], 6) if e in rated else start for e in drawn}
    return scores, drawn


def season_history(session: Session, league: League, event: Event) -> list[PlannedRound[int]]:
    """The rounds of the league's events created before ``event``, then the event's
    own: who met whom, who sat short, who had a bye and who sat where this season."""
    assert league.id is not None and event.id is not None
    history: list[PlannedRound[int]] = []
    for earlier in stored_leagues.league_events(session, league.id):
        if earlier.id is not None and earlier.id < event.id:
            history.extend(history_of(session, earlier.id))
    return history + history_of(session, event.id)


@dataclass(frozen=True)
class Schedule:
    """A round-robin's schedule computed before its first round is paired (see
    :func:`schedule_ahead`): what it was computed from, and its rounds."""

    inputs: tuple[object, ...]
    rounds: tuple[PlannedRound[int], ...]


def _inputs(event: Event, field: Sequence[int]) -> tuple[object, ...]:
    """Everything a round-robin's schedule is computed from."""
    return (event.id, tuple(field), event.table_size, event.cycles, event.seed, event.schedule)


def schedule_ahead(session: Session, league: League, event: Event) -> Schedule | None:
    """The schedule that pairing the round-robin's first rounds will compute and store,
    computed now, in a read (so that the time goes in while something else runs, such
    as worker processes starting their bots), for :func:`pair_rounds_ahead` to take
    if it was computed from what the pairing finds. None where there is nothing to
    compute, or where it cannot be computed (the pairing then says why)."""
    if event.format != "round_robin" or event.id is None:
        return None
    if schedules.round_count(session, event.id):
        return None
    field = stored_rounds.first_round_field(session, event.id) or active_ids(session, league)
    if len(field) < 2:
        return None
    try:
        planned = round_robin(
            field, event.table_size, cycles=event.cycles, seed=event.seed, search=event.schedule
        )
    except C8LeagueError:
        return None
    return Schedule(_inputs(event, field), tuple(planned))


def _schedule(
    session: Session,
    event: Event,
    *,
    ids: list[int],
    first: int,
    last: int,
    ahead: Schedule | None = None,
) -> list[PlannedRound[int]]:
    """Rounds ``first`` to ``last`` of the round-robin's schedule: stored, or computed
    from the entrants of its first round (``ids``, the active entrants, before it is
    paired) and stored, once (``ahead``, if it was computed from the same)."""
    assert event.id is not None
    stored = schedules.planned_rounds(session, event.id, first, last)
    if not stored:
        field = stored_rounds.first_round_field(session, event.id) or ids
        if ahead is not None and ahead.inputs == _inputs(event, field):
            planned = list(ahead.rounds)
        else:
            planned = round_robin(
                field,
                event.table_size,
                cycles=event.cycles,
                seed=event.seed,
                search=event.schedule,
            )
        schedules.store(
            session,
            event.id,
            [([list(t) for t in r.tables], list(r.byes)) for r in planned],
        )
        return planned[first - 1 : last]
    return [
        PlannedRound(tables=tuple(tuple(t) for t in tables), byes=tuple(byes))
        for tables, byes in stored
    ]


def _kept(planned: PlannedRound[int], active: set[int]) -> PlannedRound[int]:
    """A planned round-robin round without the entrants no longer active."""
    kept_tables: list[tuple[int, ...]] = []
    kept_byes = [e for e in planned.byes if e in active]
    for planned_table in planned.tables:
        kept = tuple(e for e in planned_table if e in active)
        if len(kept) >= 2:
            kept_tables.append(kept)
        else:
            kept_byes.extend(kept)
    return PlannedRound(tuple(kept_tables), tuple(kept_byes))


def history_of(session: Session, event_id: int) -> list[PlannedRound[int]]:
    """The rounds of the event paired so far, as the schedule reads them."""
    return [
        PlannedRound(tables=tuple(tuple(t) for t in tables), byes=tuple(byes))
        for tables, byes in stored_rounds.stored_rounds(session, event_id)
    ]


def pair_next_round(
    session: Session, league: League, event: Event, *, ahead: bool = False
) -> Round:
    """Create the next round of ``event``: its tables as match rows, in the caller's
    write transaction. With ``ahead``, a round-robin round may be paired before the one
    before it is complete (its tables do not depend on results)."""
    assert event.id is not None and league.id is not None
    rounds = stored_rounds.event_rounds(session, event.id)
    needs_results = event.format != "round_robin" or not ahead
    if rounds and needs_results and not stored_rounds.round_complete(session, rounds[-1].id):
        raise UsageError(_incomplete(session, event, rounds[-1]))
    number = len(rounds) + 1
    total = planned_rounds(session, league, event)
    if number > total:
        raise UsageError(f"event {event.name!r} has all its {total} rounds")
    return _add_round(
        session, league, event, number=number, plan=_plan_round(session, league, event, number)
    )


def pair_rounds_ahead(
    session: Session, league: League, event: Event, count: int, *, ahead: Schedule | None = None
) -> None:
    """Pair the next ``count`` rounds of the event, in the caller's write transaction:
    a round-robin's rounds all at once (their tables do not depend on results, and what
    every round reads is read once), the same rounds as ``count`` calls of
    :func:`pair_next_round` with ``ahead``; any other format one round at a time. A
    round-robin's schedule computed by :func:`schedule_ahead` is given as ``ahead``."""
    assert event.id is not None
    if event.format != "round_robin" or count <= 1:
        for _ in range(count):
            pair_next_round(session, league, event, ahead=True)
        return
    done = len(stored_rounds.event_rounds(session, event.id))
    total = planned_rounds(session, league, event)
    if done + count > total:
        raise UsageError(f"event {event.name!r} has all its {total} rounds")
    ids = active_ids(session, league)
    if len(ids) < 2:
        raise UsageError(f"event {event.name!r} needs at least two active entrants")
    active = set(ids)
    new_rounds = []
    planned = _schedule(session, event, ids=ids, first=done + 1, last=done + count, ahead=ahead)
    for number, round_plan in enumerate(planned, start=done + 1):
        plan = _kept(round_plan, active)
        new_rounds.append((number, plan.byes, _new_matches(league, event, number, plan)))
    stored_rounds.add_rounds(session, event.id, new_rounds, published=event.played_by == "bots")


def _add_round(
    session: Session, league: League, event: Event, *, number: int, plan: PlannedRound[int]
) -> Round:
    assert event.id is not None
    return stored_rounds.add_round(
        session,
        event.id,
        number,
        byes=plan.byes,
        matches=_new_matches(league, event, number, plan),
        published=event.played_by == "bots",
    )


def _new_matches(
    league: League, event: Event, number: int, plan: PlannedRound[int]
) -> list[NewMatch]:
    """The matches of a planned round: a table's deals (one, or one per seat rotation in
    duplicate mode), each seeded from the event's seed and the match's identity."""
    matches = []
    for table_no, table in enumerate(plan.tables, start=1):
        seed = derive_seed(event.seed, "round", number, "table", table_no)
        deals = len(table) if event.duplicate else 1
        for deal in range(deals):
            seats = tuple(table[deal:]) + tuple(table[:deal])
            matches.append(
                NewMatch(table_no=table_no, deal=deal, rules=league.rules, seed=seed, seats=seats)
            )
    return matches


def _incomplete(session: Session, event: Event, last: Round) -> str:
    """Why the round after ``last`` cannot be paired yet, naming the tables to finish."""
    assert last.id is not None
    if not last.published:
        return (
            f"round {last.number} of {event.name!r} is a draft: publish it (c8league event "
            f"publish {event.name}) and enter its results first"
        )
    pending = sorted(
        {
            m.table_no
            for m, _ in stored_rounds.pending_matches(session, event.id or 0)
            if m.round_id == last.id
        }
    )
    shown = ", ".join(map(str, pending[:12])) + (
        f" and {len(pending) - 12} more" if len(pending) > 12 else ""
    )
    tables = "table" if len(pending) == 1 else "tables"
    hint = f" (c8league result add {event.name} --table N)" if event.played_by == "people" else ""
    return (
        f"round {last.number} of {event.name!r} is not complete: no result yet at {tables} "
        f"{shown}{hint}"
    )


@dataclass(frozen=True)
class Paired:
    """A round just paired: the event's full name (``LEAGUE/EVENT``), the round's number,
    and a warning for every pair of entrants seated together who met before."""

    event: str
    round: int
    warnings: tuple[str, ...] = ()


def repeat_meetings(
    session: Session, event: Event, round_row: Round, tables: Collection[int] | None = None
) -> list[str]:
    """A line for every pair seated together in ``round_row`` (at ``tables``, or any
    table) who met at a table of an earlier round of the event."""
    assert event.id is not None
    seated = stored_rounds.seatings(session, event.id)
    numbers = {r.id: r.number for r in stored_rounds.event_rounds(session, event.id)}
    met: dict[frozenset[int], list[int]] = {}
    for round_id, earlier in seated.items():
        if numbers.get(round_id, round_row.number) >= round_row.number:
            continue
        for seats in earlier.values():
            for i, a in enumerate(seats):
                for b in seats[i + 1 :]:
                    met.setdefault(frozenset((a, b)), []).append(numbers[round_id])
    current = seated.get(round_row.id or 0, {})
    found = [
        (table_no, a, b)
        for table_no, seats in sorted(current.items())
        if tables is None or table_no in tables
        for i, a in enumerate(seats)
        for b in seats[i + 1 :]
        if frozenset((a, b)) in met
    ]
    names = entrant_names(session, [e for _, a, b in found for e in (a, b)])
    lines = []
    for table_no, a, b in found:
        when = sorted(met[frozenset((a, b))])
        rounds = f"round {when[0]}" if len(when) == 1 else f"rounds {', '.join(map(str, when))}"
        lines.append(
            f"table {table_no}: {names[a]} and {names[b]} have met before in {event.name!r} "
            f"({rounds})"
        )
    return lines


def pair_round(db: Database, name: str, league: str | None = None) -> Paired:
    """Pair the next round of the event ``name`` (``EVENT`` or ``LEAGUE/EVENT``) in a
    transaction of its own."""
    with db.writing() as session:
        lg, ev = get_event(session, name, league)
        if ev.format == "ladder":
            raise UsageError(f"{lg.name}/{ev.name} is a ladder: c8league ladder run {lg.name}")
        round_row = pair_next_round(session, lg, ev)
        session.flush()
        warnings = tuple(repeat_meetings(session, ev, round_row))
        return Paired(f"{lg.name}/{ev.name}", round_row.number, warnings)
