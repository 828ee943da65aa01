"""Building a :class:`~c8league.reports.model.Report` from storage.

A report covers a league (all its events) or one event. Each table of the database
it needs is read once, in a few plain queries, and turned into the dataclasses of
:mod:`c8league.reports.model`.
"""

from __future__ import annotations

import gc
import json
import math
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from importlib import metadata
from itertools import groupby
from operator import itemgetter

from c8league.engine import Rules
from c8league.errors import NotFoundError
from c8league.events.season import season_in
from c8league.events.status import (
    planned_rounds,
    played_rules,
    seated_in,
    table_results,
    tiebreaks_of,
)
from c8league.league.house_rules import house_rules
from c8league.league.status import EventMembers, event_members
from c8league.ratings.fit import fitness, league_results
from c8league.ratings.leaderboard import (
    PROVISIONAL_MATCHES,
    LeaderboardRow,
    leaderboard,
    placement_figures,
)
from c8league.ratings.model import RatingModel
from c8league.ratings.update import model_for
from c8league.reports.model import (
    CrossTable,
    Endings,
    EntrantStats,
    EventSection,
    Footer,
    HistorySeries,
    LastMatch,
    PairRecord,
    Report,
    RoundSeat,
    RoundSection,
    RoundTable,
    StandingEntry,
)
from c8league.results import forfeit_seats
from c8league.standings import field_of, standings
from c8league.storage import Session
from c8league.storage import leagues as stored_leagues
from c8league.storage import ratings as stored_ratings
from c8league.storage import results as stored_results
from c8league.storage import rounds as stored_rounds
from c8league.storage.database import Database
from c8league.storage.models import Event, League
from c8league.storage.results import PlayedMatch
from c8league.storage.rounds import RoundRow

__all__ = ["build_report"]

_SQRT2 = math.sqrt(2.0)


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector. A report holds hundreds of thousands of
    small tuples (none in a reference cycle) that the collector would otherwise scan
    again and again while they are being built."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def build_report(
    db: Database,
    target: str | None = None,
    *,
    provisional: int = PROVISIONAL_MATCHES,
    now: datetime | None = None,
) -> Report:
    """The report of a league or an event.

    ``target`` names a league, an event (``EVENT`` or ``LEAGUE/EVENT``), or
    nothing for the database's only league; a name that is both a league and an
    event means the league. ``now`` is the generation time shown in the footer
    (default: the current time, UTC). Raises :class:`NotFoundError` for an
    unknown name.
    """
    generated = now or datetime.now(UTC)
    with _collector_paused():
        with db.session() as session:
            league, event = _resolve_target(session, target)
            assert league.id is not None
            model = model_for(league)
            scope_events = (
                [event] if event is not None else stored_leagues.league_events(session, league.id)
            )
            event_ids = [e.id for e in scope_events if e.id is not None]
            totals = {ev.id or 0: planned_rounds(session, league, ev) for ev in scope_events}
            during = {
                ev.id or 0: event_members(session, league, ev, totals[ev.id or 0])
                for ev in scope_events
            }
            # An event's report shows the ratings as they stood after its last result, so
            # that a finished event reads the same whatever is played after it.
            upto = None if event is None else stored_results.last_sequence(session, event_ids)
            board = leaderboard(
                session,
                league.id,
                model=model,
                provisional=provisional,
                upto=upto,
                inactive=None if upto is None else _inactive_during(session, league, during),
            )
            names = stored_leagues.entrant_names(session)
            played = stored_results.played(session, event_ids)
            status_counts = stored_results.status_counts(session, event_ids)
            hand_rows = stored_results.hand_rows(session, event_ids)
            history = _history(stored_ratings.history(session, league.id, upto), board, names)
            footer = _footer(session, league, model, generated=generated, upto=upto)
            byes = stored_rounds.byes(session, event_ids)
            rules_of = {e: played_rules(session, e) for e in event_ids}
            with_rounds = [
                ev.id
                for ev in scope_events
                if ev.id is not None and (event is not None or ev.played_by == "people")
            ]
            round_rows = stored_rounds.rounds_of(session, with_rounds) if with_rounds else []
            changes = tuple(house_rules(Rules.from_json(league.rules), league.preset))
            season = season_in(session, league) if event is None else None
            calibration = None
            if event is None and model.settings.system == "trueskill":
                results = league_results(session, league.id)
                calibration = fitness(results, model.settings) if results else None

        sections = tuple(
            _event_section(
                ev,
                played=played,
                byes=byes.get(ev.id or 0, []),
                during=during[ev.id or 0],
                names=names,
                status_counts=status_counts,
                rules=rules_of.get(ev.id or 0),
                tiebreaks=tiebreaks_of(league),
                round_rows=[r for r in round_rows if r.event_id == ev.id],
                seated=seated_in(session, ev.id or 0),
                rounds_total=totals.get(ev.id or 0, 0) if ev.id in with_rounds else 0,
            )
            for ev in scope_events
        )
        pairs = _head_to_head(played, board, names, model)
        stats = _entrant_stats(played, hand_rows, board, names)
        endings = _endings(played, hand_rows, status_counts)
        return Report(
            scope="event" if event is not None else "league",
            league=league.name,
            title=league.title,
            event=event.name if event is not None else None,
            rules=league.preset,
            house_rules=changes,
            initial_mu=model.initial().mu,
            initial_sigma=model.initial().sigma,
            provisional_below=provisional,
            leaderboard=tuple(board),
            events=sections,
            head_to_head=pairs,
            entrants=stats,
            endings=endings,
            history=history,
            footer=footer,
            season=season,
            calibration=calibration,
        )


def _inactive_during(session: Session, league: League, during: dict[int, EventMembers]) -> set[int]:
    """The league's members who did not play on at the end of the (one) event: withdrawn
    by then, or not members during it."""
    assert league.id is not None
    (members,) = during.values()
    everyone = {e.id for e in stored_leagues.league_members(session, league.id) if e.id}
    return (everyone - set(members.members)) | members.inactive


def _resolve_target(session: Session, target: str | None) -> tuple[League, Event | None]:
    if target is None:
        return stored_leagues.only_league(session, None), None
    if "/" not in target:
        league = stored_leagues.find_league(session, target)
        if league is not None:
            return league, None
    try:
        return stored_leagues.get_event(session, target)
    except NotFoundError as exc:
        leagues = ", ".join(stored_leagues.league_names(session))
        raise NotFoundError(
            f"no league or event named {target!r}; leagues: {leagues or 'none'}; {exc}"
        ) from None


# -- reading -------------------------------------------------------------------------------


def _history(
    rows: list[tuple[int, int, float, float]], board: list[LeaderboardRow], names: dict[int, str]
) -> tuple[HistorySeries, ...]:
    """Each leaderboard entrant's rating after every update, from the stored history
    (entrant, sequence, mu, sigma) in sequence order."""
    rows.sort(key=itemgetter(0))  # stable: each entrant's rows stay in sequence order
    series: dict[int, tuple[tuple[int, ...], tuple[float, ...], tuple[float, ...]]] = {}
    for entrant_id, group in groupby(rows, key=itemgetter(0)):
        _, sequences, mus, sigmas = zip(*group, strict=True)
        series[entrant_id] = (sequences, mus, sigmas)
    empty: tuple[tuple[int, ...], tuple[float, ...], tuple[float, ...]] = ((), (), ())
    return tuple(
        HistorySeries(
            names.get(row.entrant_id, str(row.entrant_id)),
            *series.get(row.entrant_id, empty),
        )
        for row in board
    )


def _footer(
    session: Session, league: League, model: RatingModel, *, generated: datetime, upto: int | None
) -> Footer:
    assert league.id is not None
    count = stored_results.done_count(session, league.id, upto)
    last_row = stored_results.last_result(session, league.id, upto)
    last = LastMatch(*last_row) if last_row is not None else None
    params = model.parameters()
    try:
        version = metadata.version("c8league")
    except metadata.PackageNotFoundError:
        version = "unknown"
    return Footer(
        rating_system=model.settings.system,
        rating_version=str(params.get("version")),
        parameters=params,
        matches=count,
        last_match=last,
        generated_at=generated,
        c8league_version=version,
    )


# -- computing -----------------------------------------------------------------------------


def _event_section(
    event: Event,
    *,
    played: list[PlayedMatch],
    byes: list[int],
    during: EventMembers,
    names: dict[int, str],
    status_counts: dict[tuple[int, str], int],
    rules: Rules | None,
    tiebreaks: tuple[str, ...],
    round_rows: list[RoundRow],
    seated: set[int],
    rounds_total: int,
) -> EventSection:
    """An event's standings (:func:`c8league.standings.standings`, as ``c8league event
    standings`` shows them), its rounds and, at tables of two, its cross-table."""
    assert event.id is not None
    mine = [p for p in played if p.event_id == event.id]
    tables = table_results(mine, rules)
    entrants = field_of(during.members, (), tables, byes)
    rows = standings(entrants, tables, byes, tiebreaks, seated=seated)
    entries = tuple(
        StandingEntry(
            rank=r.rank,
            name=names.get(r.entrant, str(r.entrant)),
            match_points=r.match_points,
            opponents_match_points=r.opponents_points,
            game_points=r.game_points,
            wins=r.wins,
            matches=r.matches,
            byes=r.byes,
            status="withdrawn" if r.entrant in during.inactive else "active",
            membership=during.note(r.entrant),
            opponents_average=r.opponents_average,
            game_share=r.game_share,
            direct=r.direct,
            absent_rounds=during.absent.get(r.entrant, ()),
            sonneborn_berger=r.sonneborn_berger,
            played=r.played,
        )
        for r in rows
    )
    crosstable = None
    if event.table_size == 2 and all(len(p.seats) == 2 for p in mine):
        crosstable = _crosstable([e.name for e in entries], mine, names)
    return EventSection(
        name=event.name,
        format=event.format,
        table_size=event.table_size,
        matches_done=status_counts.get((event.id, "done"), 0),
        matches_void=status_counts.get((event.id, "void"), 0),
        matches_pending=status_counts.get((event.id, "pending"), 0),
        tiebreaks=tiebreaks,
        standings=entries,
        crosstable=crosstable,
        played_by=event.played_by,
        duplicate=event.duplicate,
        rounds=tuple(_round_section(r, names) for r in round_rows),
        rounds_total=rounds_total,
    )


def _round_section(row: RoundRow, names: dict[int, str]) -> RoundSection:
    """A round's tables as the report shows them."""
    targets: dict[tuple[str, int], int] = {}
    tables = []
    for match, seats in row.matches:
        key = (match.rules, len(seats))
        if key not in targets:
            rules = Rules.from_json(match.rules)
            targets[key] = 0 if rules.countdown else rules.target_for(len(seats))
        done = match.status == "done"
        places = [s.place or 0 for s in seats]
        lost = set(forfeit_seats(places, match.forfeit_seat)) if done else set()
        tables.append(
            RoundTable(
                table=match.table_no,
                deal=match.deal,
                status=match.status,
                ended=match.ended if done else None,
                target=targets[key],
                forfeit_reason=match.forfeit_reason if done else None,
                seats=tuple(
                    RoundSeat(
                        seat=s.seat + 1,
                        name=names.get(s.entrant_id, str(s.entrant_id)),
                        score=s.score if done else None,
                        place=s.place if done else None,
                        forfeit=s.seat in lost,
                    )
                    for s in seats
                ),
            )
        )
    return RoundSection(
        number=row.number,
        published=row.published,
        tables=tuple(tables),
        byes=tuple(names.get(b, str(b)) for b in row.byes),
    )


def _crosstable(order: list[str], matches: list[PlayedMatch], names: dict[int, str]) -> CrossTable:
    index = {name: i for i, name in enumerate(order)}
    results: dict[tuple[int, int], list[float]] = defaultdict(list)
    for match in matches:
        (_, first, place_a, _), (_, second, place_b, _) = match.seats
        a, b = index.get(names.get(first, "")), index.get(names.get(second, ""))
        if a is None or b is None:
            continue
        score = 1.0 if place_a < place_b else 0.5 if place_a == place_b else 0.0
        results[(a, b)].append(score)
        results[(b, a)].append(1.0 - score)
    n = len(order)
    cells = tuple(
        tuple(None if i == j else tuple(results.get((i, j), ())) for j in range(n))
        for i in range(n)
    )
    return CrossTable(tuple(order), cells)


def _head_to_head(
    played: list[PlayedMatch],
    board: list[LeaderboardRow],
    names: dict[int, str],
    model: RatingModel,
) -> tuple[PairRecord, ...]:
    """Every pair that met, ordered by the higher entrant's leaderboard place, then the
    lower's. Counts are from the ordered pair's point of view (lower id first)."""
    counts: dict[tuple[int, int], list[int]] = {}
    for match in played:
        seats = match.seats
        for i in range(len(seats)):
            _, x, place_x, _ = seats[i]
            for j in range(i + 1, len(seats)):
                _, y, place_y, _ = seats[j]
                if x < y:
                    key, px, py = (x, y), place_x, place_y
                else:
                    key, px, py = (y, x), place_y, place_x
                tally = counts.get(key)
                if tally is None:
                    tally = counts[key] = [0, 0, 0, 0]
                tally[0] += 1
                if px < py:
                    tally[1] += 1
                elif py < px:
                    tally[2] += 1
                else:
                    tally[3] += 1
    position = {row.entrant_id: row.rank for row in board}
    rating = {row.entrant_id: (row.mu, row.sigma) for row in board}
    initial = (model.initial().mu, model.initial().sigma)
    double_beta_sq = 2.0 * model.settings.beta**2
    last = len(board) + 1
    records: list[tuple[tuple[int, int, str, str], PairRecord]] = []
    for (x, y), (meetings, x_ahead, y_ahead, level) in counts.items():
        if (position.get(x, last), names.get(x, "")) > (position.get(y, last), names.get(y, "")):
            x, y, x_ahead, y_ahead = y, x, y_ahead, x_ahead
        mu_a, sigma_a = rating.get(x, initial)
        mu_b, sigma_b = rating.get(y, initial)
        z = (mu_a - mu_b) / math.sqrt(sigma_a**2 + sigma_b**2 + double_beta_sq)
        predicted = 0.5 * math.erfc(-z / _SQRT2)
        name_a, name_b = names.get(x, str(x)), names.get(y, str(y))
        order = (position.get(x, last), position.get(y, last), name_a, name_b)
        records.append(
            (
                order,
                PairRecord(
                    a=name_a,
                    b=name_b,
                    meetings=meetings,
                    a_ahead=x_ahead,
                    b_ahead=y_ahead,
                    level=level,
                    a_ahead_predicted=predicted,
                ),
            )
        )
    records.sort(key=lambda item: item[0])
    return tuple(record for _, record in records)


def _entrant_stats(
    played: list[PlayedMatch],
    hands: list[tuple[int, str, str, str]],
    board: list[LeaderboardRow],
    names: dict[int, str],
) -> tuple[EntrantStats, ...]:
    placed = placement_figures(
        (entrant, place, len(match.seats))
        for match in played
        for _, entrant, place, _ in match.seats
    )
    forfeits: dict[int, dict[str, int]] = defaultdict(dict)
    seat_of: dict[int, list[int]] = {}
    for match in played:
        seat_of[match.match_id] = [entrant for _, entrant, _, _ in match.seats]
        lost = match.forfeit_seats if match.forfeit_seat is not None else ()
        for seat, entrant, _, _ in match.seats:
            if seat in lost:
                reason = match.forfeit_reason or "unknown"
                forfeits[entrant][reason] = forfeits[entrant].get(reason, 0) + 1
    # Hands are summed per match first (one list per seat), then credited to entrants.
    # All winners and points lists are decoded in one call each: a report may read
    # hundreds of thousands of them.
    all_winners: list[list[int]] = json.loads("[" + ",".join(h[2] for h in hands) + "]")
    all_points: list[list[int]] = json.loads("[" + ",".join(h[3] for h in hands) + "]")
    per_match: dict[int, tuple[list[int], list[int], list[int]]] = {}
    for (match_id, _kind, _, _), winners, hand_points in zip(
        hands, all_winners, all_points, strict=True
    ):
        totals = per_match.get(match_id)
        if totals is None:
            seated = seat_of.get(match_id)
            if seated is None:
                continue
            size = len(seated)
            totals = per_match[match_id] = ([0], [0] * size, [0] * size)
        count, won, scored = totals
        count[0] += 1
        for seat in winners:
            if 0 <= seat < len(won):
                won[seat] += 1
        for seat, value in enumerate(hand_points):
            if seat < len(scored):
                scored[seat] += value
    hand_count: dict[int, int] = {}
    hands_won: dict[int, int] = defaultdict(int)
    points: dict[int, int] = defaultdict(int)
    for match_id, (count, won, scored) in per_match.items():
        for seat, entrant in enumerate(seat_of[match_id]):
            hand_count[entrant] = hand_count.get(entrant, 0) + count[0]
            hands_won[entrant] += won[seat]
            points[entrant] += scored[seat]
    ordered = [row.entrant_id for row in board if row.entrant_id in placed]
    on_board = set(ordered)
    ordered += sorted((e for e in placed if e not in on_board), key=lambda e: names.get(e, ""))
    return tuple(
        EntrantStats(
            name=names.get(e, str(e)),
            matches=placed[e].matches,
            wins=placed[e].wins,
            average_place=placed[e].average_place,
            average_place_normalised=placed[e].average_place_normalised,
            hands=hand_count.get(e),
            hands_won=hands_won[e] if e in hand_count else None,
            average_points_per_hand=points[e] / hand_count[e] if hand_count.get(e) else None,
            forfeits=dict(sorted(forfeits[e].items())),
        )
        for e in ordered
    )


def _endings(
    played: list[PlayedMatch],
    hands: list[tuple[int, str, str, str]],
    status_counts: dict[tuple[int, str], int],
) -> Endings:
    ended: dict[str, int] = defaultdict(int)
    forfeits: dict[str, int] = defaultdict(int)
    for match in played:
        ended[match.ended or "unknown"] += 1
        if match.forfeit_reason is not None:
            forfeits[match.forfeit_reason] += 1
    hand_kinds: dict[str, int] = defaultdict(int)
    for _, kind, _, _ in hands:
        hand_kinds[kind] += 1
    return Endings(
        matches=len(played),
        void=sum(n for (_, status), n in status_counts.items() if status == "void"),
        pending=sum(n for (_, status), n in status_counts.items() if status == "pending"),
        ended=dict(sorted(ended.items(), key=lambda kv: (-kv[1], kv[0]))),
        forfeits=dict(sorted(forfeits.items(), key=lambda kv: (-kv[1], kv[0]))),
        hands=dict(sorted(hand_kinds.items(), key=lambda kv: (-kv[1], kv[0]))),
    )
