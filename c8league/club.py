"""Club evenings: pairing sheets, manual changes to a round, publishing, results entered
by hand (final scores or hand by hand), corrections with an audit trail, withdrawals.

A round of an event played by people is paired as a draft; the organiser may swap two
entrants or move one to another table (a warning names any repeat meeting this
creates) and then publishes it. Results can be entered for the tables of a published
round only. Every bad entry raises :class:`ResultError` and writes nothing.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlmodel import Session, col, select

from c8league.engine import Rules
from c8league.engine.match import placements as rank_places
from c8league.engine.rules import COUNTDOWN_START
from c8league.errors import NotFoundError, ResultError, UsageError
from c8league.league import printable, same_name
from c8league.rating_store import rebuild_ratings
from c8league.runner.loop import Forfeit, MatchOutcome
from c8league.runner.tasks import HandReport, hand_reports
from c8league.storage.database import Database
from c8league.storage.models import (
    Entrant,
    Event,
    HandRow,
    League,
    LeagueEntrant,
    Match,
    MatchSeat,
    ResultAudit,
    Round,
)
from c8league.storage.repo import get_entrant, get_event, get_league
from c8league.storage.results import next_sequence, store_result

# -- pairing sheets ------------------------------------------------------------------------


@dataclass(frozen=True)
class SheetTable:
    table: int
    seats: tuple[str, ...]
    """Entrant names in seat order; seat 1 deals the first hand."""
    status: str
    """pending, done or void."""
    target: int
    """The score that wins the match at this table (50 per player unless set)."""
    result: tuple[tuple[str, int, int], ...] = ()
    """(name, place, score) by place, when done."""


@dataclass(frozen=True)
class Sheet:
    league: str
    event: str
    title: str
    round: int
    rounds: int
    published: bool
    rules: str
    tables: tuple[SheetTable, ...]
    byes: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "league": self.league,
            "event": self.event,
            "round": self.round,
            "rounds": self.rounds,
            "published": self.published,
            "rules": self.rules,
            "tables": [
                {
                    "table": t.table,
                    "seats": list(t.seats),
                    "first_dealer": t.seats[0],
                    "target": t.target,
                    "status": t.status,
                    "result": [{"name": n, "place": p, "score": s} for n, p, s in t.result],
                }
                for t in self.tables
            ],
            "byes": list(self.byes),
        }


def _round(session: Session, event: Event, number: int | None) -> Round:
    query = select(Round).where(Round.event_id == event.id)
    if number is not None:
        query = query.where(Round.number == number)
    row = session.exec(query.order_by(col(Round.number).desc())).first()
    if row is None:
        what = f"round {number}" if number is not None else "any round"
        raise NotFoundError(f"event {event.name!r} has no {what} yet (c8league event pair)")
    return row


def _names(session: Session, ids: Sequence[int]) -> dict[int, str]:
    rows = session.exec(select(Entrant).where(col(Entrant.id).in_(list(ids)))).all()
    return {e.id: e.name for e in rows if e.id is not None}


def _table_seats(session: Session, round_row: Round) -> dict[int, list[int]]:
    rows = session.exec(
        select(Match.table_no, MatchSeat.entrant_id)
        .join(MatchSeat, col(MatchSeat.match_id) == col(Match.id))
        .where(Match.round_id == round_row.id, Match.deal == 0)
        .order_by(col(Match.table_no), col(MatchSeat.seat))
    ).all()
    tables: dict[int, list[int]] = {}
    for table_no, entrant_id in rows:
        tables.setdefault(table_no, []).append(entrant_id)
    return tables


def pairing_sheet(db: Database, event_name: str, round_number: int | None = None) -> Sheet:
    """The pairing sheet of a round (the latest by default), with results so far."""
    from c8league.events import planned_rounds

    with db.session() as session:
        league, event = get_event(session, event_name)
        round_row = _round(session, event, round_number)
        matches = session.exec(
            select(Match).where(Match.round_id == round_row.id, Match.deal == 0)
        ).all()
        by_table = {m.table_no: m for m in matches}
        seat_rows = session.exec(
            select(MatchSeat).where(col(MatchSeat.match_id).in_([m.id for m in matches]))
        ).all()
        byes = json.loads(round_row.byes)
        names = _names(session, [s.entrant_id for s in seat_rows] + byes)
        seats: dict[int, list[MatchSeat]] = {}
        for s in sorted(seat_rows, key=lambda r: (r.match_id, r.seat)):
            seats.setdefault(s.match_id, []).append(s)
        tables = []
        for table_no in sorted(by_table):
            m = by_table[table_no]
            assert m.id is not None
            row_seats = seats.get(m.id, [])
            result: tuple[tuple[str, int, int], ...] = ()
            if m.status == "done":
                result = tuple(
                    sorted(
                        ((names[s.entrant_id], s.place or 0, s.score or 0) for s in row_seats),
                        key=lambda r: r[1],
                    )
                )
            rules = Rules.from_json(m.rules)
            target = COUNTDOWN_START if rules.countdown else rules.target_for(len(row_seats))
            tables.append(
                SheetTable(
                    table_no,
                    tuple(names[s.entrant_id] for s in row_seats),
                    m.status,
                    target,
                    result,
                )
            )
        return Sheet(
            league=league.name,
            event=event.name,
            title=league.title or league.name,
            round=round_row.number,
            rounds=planned_rounds(session, league, event),
            published=round_row.published,
            rules=league.preset,
            tables=tuple(tables),
            byes=tuple(names[b] for b in byes),
        )


def sheet_csv(sheet: Sheet) -> str:
    """One row per seat: round, table, seat, name, first dealer, target."""
    import csv
    import io

    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["round", "table", "seat", "name", "first_dealer", "target"])
    for t in sheet.tables:
        for seat, name in enumerate(t.seats, start=1):
            writer.writerow(
                [sheet.round, t.table, seat, name, "yes" if seat == 1 else "", t.target]
            )
    for name in sheet.byes:
        writer.writerow([sheet.round, "bye", "", name, "", ""])
    return buffer.getvalue()


_SHEET_HTML = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{ s.title }} — {{ s.event }}, round {{ s.round }}</title>
<style>
body { font-family: system-ui, sans-serif; margin: 1.5rem; color: #111; }
h1 { font-size: 1.4rem; margin: 0 0 .2rem; } p.meta { color: #555; margin: 0 0 1rem; }
.tables { display: grid; grid-template-columns: repeat(auto-fill, minmax(15rem, 1fr)); gap: 1rem; }
.table { border: 2px solid #111; border-radius: .4rem; padding: .6rem .8rem; break-inside: avoid; }
.table h2 { font-size: 1.1rem; margin: 0 0 .4rem; }
ol { margin: 0; padding-left: 1.4rem; } li { padding: .15rem 0; font-size: 1.05rem; }
.dealer { font-weight: bold; }
.dealer::after { content: " — deals first"; font-weight: normal; color: #555; }
.score { margin-top: .5rem; border-top: 1px dashed #999; padding-top: .4rem; color: #555; }
@media print { body { margin: .5cm; } .table { border-width: 1px; } }
</style></head><body>
<h1>{{ s.title }}: {{ s.event }}, round {{ s.round }} of {{ s.rounds }}</h1>
<p class="meta">Rules: {{ s.rules }} ·
{{ "published" if s.published else "draft (not published)" }}</p>
<div class="tables">
{% for t in s.tables %}<section class="table">
<h2>Table {{ t.table }} <small>· play to {{ t.target }}</small></h2><ol>
{% for name in t.seats %}<li{% if loop.first %} class="dealer"{% endif %}>{{ name }}</li>
{% endfor %}</ol>
<div class="score">{% if t.result %}{% for n, p, sc in t.result -%}
{{ p }}. {{ n }} {{ sc }}{% if not loop.last %} · {% endif %}
{%- endfor %}{% else %}Final scores:{% for _ in t.seats %} ____{% endfor %}{% endif %}</div>
</section>
{% endfor %}</div>
{% if s.byes %}<p><strong>Bye:</strong> {{ s.byes | join(", ") }}</p>{% endif %}
</body></html>
"""


def sheet_html(sheet: Sheet) -> str:
    """A printable, self-contained HTML page of the pairing sheet."""
    import jinja2

    env = jinja2.Environment(autoescape=True)
    return env.from_string(_SHEET_HTML).render(s=sheet)


# -- manual changes and publishing --------------------------------------------------------


@dataclass
class ChangeResult:
    warnings: list[str] = field(default_factory=list)


def _draft_round(session: Session, event: Event) -> Round:
    round_row = _round(session, event, None)
    if round_row.published:
        raise UsageError(
            f"round {round_row.number} of {event.name!r} is published; its tables are fixed"
        )
    return round_row


def _met_before(session: Session, event: Event, round_row: Round) -> set[frozenset[int]]:
    rows = session.exec(
        select(MatchSeat.match_id, MatchSeat.entrant_id)
        .join(Match, col(Match.id) == col(MatchSeat.match_id))
        .where(Match.event_id == event.id, Match.round_id != round_row.id, Match.deal == 0)
    ).all()
    tables: dict[int, list[int]] = {}
    for match_id, entrant_id in rows:
        tables.setdefault(match_id, []).append(entrant_id)
    return {frozenset((a, b)) for t in tables.values() for a in t for b in t if a < b}


def _repeat_warnings(
    session: Session, event: Event, round_row: Round, tables: dict[int, list[int]]
) -> list[str]:
    met = _met_before(session, event, round_row)
    names = _names(session, [e for t in tables.values() for e in t])
    warnings = []
    for table_no, seats in sorted(tables.items()):
        for i, a in enumerate(seats):
            for b in seats[i + 1 :]:
                if frozenset((a, b)) in met:
                    warnings.append(
                        f"table {table_no}: {names[a]} and {names[b]} have met before in "
                        f"{event.name!r}"
                    )
    return warnings


def _rewrite_tables(session: Session, round_row: Round, tables: dict[int, list[int]]) -> None:
    matches = session.exec(select(Match).where(Match.round_id == round_row.id)).all()
    by_table = {m.table_no: m for m in matches}
    for table_no, seats in tables.items():
        match = by_table[table_no]
        for row in session.exec(select(MatchSeat).where(MatchSeat.match_id == match.id)).all():
            session.delete(row)
        session.flush()
        assert match.id is not None
        for seat, entrant_id in enumerate(seats):
            session.add(MatchSeat(match_id=match.id, seat=seat, entrant_id=entrant_id))


def swap(db: Database, event_name: str, first: str, second: str) -> ChangeResult:
    """Swap two entrants of the draft round (their tables and seats)."""
    with db.writing() as session:
        _, event = get_event(session, event_name)
        round_row = _draft_round(session, event)
        tables = _table_seats(session, round_row)
        a, b = get_entrant(session, first).id, get_entrant(session, second).id
        where = {e: (t, i) for t, seats in tables.items() for i, e in enumerate(seats)}
        for name, entrant in ((first, a), (second, b)):
            if entrant not in where:
                raise UsageError(f"{name} has no seat in round {round_row.number}")
        (ta, ia), (tb, ib) = where[a], where[b]  # type: ignore[index]
        tables[ta][ia], tables[tb][ib] = tables[tb][ib], tables[ta][ia]
        changed = {ta: tables[ta], tb: tables[tb]}
        _rewrite_tables(session, round_row, changed)
        warnings = _repeat_warnings(session, event, round_row, changed)
        return ChangeResult(warnings)


def move(db: Database, event_name: str, name: str, table: int) -> ChangeResult:
    """Move one entrant of the draft round to another table (last seat there)."""
    with db.writing() as session:
        league, event = get_event(session, event_name)
        round_row = _draft_round(session, event)
        tables = _table_seats(session, round_row)
        entrant = get_entrant(session, name).id
        source = next((t for t, seats in tables.items() if entrant in seats), None)
        if source is None:
            raise UsageError(f"{name} has no seat in round {round_row.number}")
        if table not in tables:
            raise UsageError(
                f"round {round_row.number} has no table {table}; tables: "
                f"{', '.join(map(str, sorted(tables)))}"
            )
        if table == source:
            return ChangeResult([f"{name} already sits at table {table}"])
        rules = Rules.from_json(league.rules)
        if len(tables[source]) - 1 < 2:
            raise UsageError(f"table {source} would keep fewer than two players")
        try:
            rules.check_table(len(tables[table]) + 1)
        except Exception as exc:
            raise UsageError(f"table {table} cannot take another player: {exc}") from None
        tables[source].remove(entrant)  # type: ignore[arg-type]
        tables[table].append(entrant)  # type: ignore[arg-type]
        changed = {source: tables[source], table: tables[table]}
        _rewrite_tables(session, round_row, changed)
        warnings = _repeat_warnings(session, event, round_row, changed)
        return ChangeResult(warnings)


def publish(db: Database, event_name: str) -> int:
    """Publish the draft round: its tables are fixed and results may be entered."""
    with db.writing() as session:
        _, event = get_event(session, event_name)
        round_row = _round(session, event, None)
        if round_row.published:
            raise UsageError(f"round {round_row.number} of {event.name!r} is already published")
        round_row.published = True
        session.add(round_row)
        return round_row.number


# -- results --------------------------------------------------------------------------------


@dataclass(frozen=True)
class EnteredHand:
    points: dict[str, int]
    blocked: bool = False


SCORE_MAX = 10_000_000
"""The highest score a result may give: above it is surely a typo (the highest target
a rule set may set is 1,000,000)."""


def parse_scores(text: str) -> dict[str, int]:
    """``"Ada=200, Ben=150"`` → ``{"Ada": 200, "Ben": 150}``."""
    result: dict[str, int] = {}
    for item in [p.strip() for p in text.split(",") if p.strip()]:
        raw, sep, value = item.rpartition("=")
        name = same_name(raw.strip())
        if not sep or not name:
            raise ResultError(f"expected name=score, got {item!r}")
        try:
            points = int(value.strip())
        except ValueError:
            raise ResultError(
                f"score of {printable(name)} is not a whole number: {value.strip()[:40]!r}"
            ) from None
        if points > SCORE_MAX:
            raise ResultError(
                f"score of {printable(name)} is too high: {points} (at most {SCORE_MAX:,})"
            )
        if name in result:
            raise ResultError(f"{printable(name)} is given twice")
        result[name] = points
    return result


def parse_hands(text: str) -> list[EnteredHand]:
    """Hands separated by ``;``, each ``name=points, …`` (names with 0 may be left out);
    a hand that was blocked starts with ``blocked:``."""
    hands = []
    for number, part in enumerate([p for p in text.split(";") if p.strip()], start=1):
        body = part.strip()
        blocked = body.lower().startswith("blocked:")
        if blocked:
            body = body.split(":", 1)[1]
        try:
            hands.append(EnteredHand(parse_scores(body), blocked))
        except ResultError as exc:
            raise ResultError(f"hand {number}: {exc}") from None
    if not hands:
        raise ResultError("no hands given")
    return hands


@dataclass(frozen=True)
class CheckedResult:
    seats: tuple[str, ...]
    scores: tuple[int, ...]
    placements: tuple[int, ...]
    hands: tuple[HandReport, ...]
    forfeit: Forfeit | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "scores": dict(zip(self.seats, self.scores, strict=True)),
            "placements": dict(zip(self.seats, self.placements, strict=True)),
            "hands": [dict(zip(self.seats, h.points, strict=True)) for h in self.hands],
            "forfeit": None if self.forfeit is None else self.seats[self.forfeit.seat],
        }


def check_result(
    seats: Sequence[str],
    rules: Rules,
    *,
    scores: Mapping[str, int] | None = None,
    hands: Sequence[EnteredHand] | None = None,
    forfeit: str | None = None,
    where: str = "result",
) -> CheckedResult:
    """Validate an entered result for a table seating ``seats`` (in order); raises
    :class:`ResultError` naming the problem."""
    seat_of = {name: i for i, name in enumerate(seats)}
    scores = None if scores is None else {same_name(k): v for k, v in scores.items()}
    hands = (
        None
        if hands is None
        else [EnteredHand({same_name(k): v for k, v in h.points.items()}, h.blocked) for h in hands]
    )
    forfeit = None if forfeit is None else same_name(forfeit)
    n = len(seats)
    countdown = rules.countdown
    target = COUNTDOWN_START if countdown else rules.target_for(n)

    def check_names(given: Mapping[str, int], what: str, partial: bool = False) -> None:
        unknown = [printable(x) for x in given if x not in seat_of]
        if unknown:
            raise ResultError(
                f"{where}: {what}: {', '.join(unknown)} not seated at this table "
                f"(seated: {', '.join(seats)})"
            )
        missing = [x for x in seats if x not in given]
        if missing and not partial:
            raise ResultError(f"{where}: {what}: no score for {', '.join(missing)}")
        negative = [x for x, v in given.items() if v < 0]
        if negative:
            raise ResultError(f"{where}: {what}: negative score for {', '.join(negative)}")
        too_high = [x for x, v in given.items() if v > SCORE_MAX]
        if too_high:
            raise ResultError(
                f"{where}: {what}: score above {SCORE_MAX:,} for {', '.join(too_high)}"
            )

    if scores is not None and hands is not None:
        raise ResultError(f"{where}: give final scores or hand-by-hand scores, not both")
    if scores is None and hands is None:
        raise ResultError(f"{where}: no scores given")
    if forfeit is not None and forfeit not in seat_of:
        raise ResultError(f"{where}: {printable(forfeit)} is not seated at this table")
    reports: list[HandReport] = []
    if hands is not None:
        if countdown:
            raise ResultError(f"{where}: a Countdown match is one long hand: enter final scores")
        totals = [0] * n
        for number, hand in enumerate(hands, start=1):
            label = f"hand {number}"
            check_names(hand.points, label, partial=True)
            points = [hand.points.get(name, 0) for name in seats]
            scorers = [i for i, p in enumerate(points) if p > 0]
            if hand.blocked:
                if len({points[i] for i in scorers}) > 1:
                    raise ResultError(
                        f"{where}: {label}: in a blocked hand only the lowest hands score, "
                        "all the same amount"
                    )
            elif len(scorers) != 1:
                raise ResultError(
                    f"{where}: {label}: only the hand's winner scores (mark a blocked hand "
                    f"with 'blocked:'); got points for {len(scorers)} players"
                )
            if max(totals) >= target:
                raise ResultError(
                    f"{where}: {label}: the match was over after hand {number - 1} "
                    f"({seats[totals.index(max(totals))]} had reached {target})"
                )
            totals = [t + p for t, p in zip(totals, points, strict=True)]
            reports.append(
                HandReport(
                    "blocked" if hand.blocked else "out",
                    tuple(scorers),
                    tuple(points),
                    (),
                    "{}",
                )
            )
        final = totals
    else:
        assert scores is not None
        check_names(scores, "final scores")
        final = [scores[name] for name in seats]
    if forfeit is None:
        if countdown:
            if any(s > COUNTDOWN_START for s in final):
                raise ResultError(f"{where}: Countdown scores run from 8 down to 0")
            winners = [seats[i] for i, s in enumerate(final) if s == 0]
            if len(winners) != 1:
                raise ResultError(
                    f"{where}: exactly one player must reach 0 in Countdown "
                    f"(at 0: {', '.join(winners) or 'nobody'})"
                )
        else:
            reached = [seats[i] for i, s in enumerate(final) if s >= target]
            if len(reached) != 1:
                raise ResultError(
                    f"{where}: exactly one player must reach the target {target} "
                    f"(reached: {', '.join(reached) or 'nobody'})"
                )
        places = rank_places(final, higher_is_better=not countdown)
        lost = None
    else:
        loser = seat_of[forfeit]
        others = [i for i in range(n) if i != loser]
        ranked = rank_places([final[i] for i in others], higher_is_better=not countdown)
        place_list = [0] * n
        for i, p in zip(others, ranked, strict=True):
            place_list[i] = p
        place_list[loser] = n
        places = tuple(place_list)
        lost = Forfeit(loser, "left", 0, f"{forfeit} left the table")
    return CheckedResult(tuple(seats), tuple(final), tuple(places), tuple(reports), lost)


def _table_match(session: Session, event: Event, table: int, round_number: int | None) -> Match:
    round_row = _round(session, event, round_number)
    if not round_row.published:
        raise UsageError(
            f"round {round_row.number} of {event.name!r} is not published yet (c8league event "
            "publish)"
        )
    match = session.exec(
        select(Match).where(
            Match.round_id == round_row.id, Match.table_no == table, Match.deal == 0
        )
    ).first()
    if match is None:
        raise NotFoundError(f"round {round_row.number} of {event.name!r} has no table {table}")
    return match


def _seat_names(session: Session, match: Match) -> list[str]:
    rows = session.exec(
        select(Entrant.name)
        .join(MatchSeat, col(MatchSeat.entrant_id) == col(Entrant.id))
        .where(MatchSeat.match_id == match.id)
        .order_by(col(MatchSeat.seat))
    ).all()
    return list(rows)


def table_seats(db: Database, event_name: str, table: int, round_number: int | None) -> list[str]:
    """The names seated at a published table, in seat order."""
    with db.session() as session:
        _, event = get_event(session, event_name)
        return _seat_names(session, _table_match(session, event, table, round_number))


def _stored_result(session: Session, match: Match) -> dict[str, Any]:
    seats = session.exec(
        select(MatchSeat, Entrant.name)
        .join(Entrant, col(Entrant.id) == col(MatchSeat.entrant_id))
        .where(MatchSeat.match_id == match.id)
        .order_by(col(MatchSeat.seat))
    ).all()
    hands = session.exec(
        select(HandRow).where(HandRow.match_id == match.id).order_by(col(HandRow.number))
    ).all()
    names = [name for _, name in seats]
    return {
        "status": match.status,
        "scores": {name: s.score for s, name in seats},
        "placements": {name: s.place for s, name in seats},
        "hands": [dict(zip(names, json.loads(h.points), strict=False)) for h in hands],
        "forfeit": None if match.forfeit_seat is None else names[match.forfeit_seat],
    }


def _write(
    session: Session,
    league: League,
    match: Match,
    checked: CheckedResult,
    sequence: int,
    *,
    rate: bool = True,
) -> None:
    from c8league.rating_store import model_for

    assert league.id is not None
    store_result(
        session,
        match=match,
        league_id=league.id,
        model=model_for(league),
        sequence=sequence,
        placements=checked.placements,
        scores=checked.scores,
        ended="forfeit" if checked.forfeit is not None else "target",
        hands=checked.hands,
        forfeit=checked.forfeit,
        entered_by="hand",
        rate=rate,
    )


@dataclass(frozen=True)
class Entry:
    """A result as entered: final scores or hand-by-hand scores, and who left, if anyone."""

    scores: Mapping[str, int] | None = None
    hands: Sequence[EnteredHand] | None = None
    forfeit: str | None = None
    note: str = ""


def _open_table(
    session: Session, event_name: str, table: int, round_number: int | None, status: str
) -> tuple[League, Match]:
    """The league and match of a published table, which must have ``status``."""
    league, event = get_event(session, event_name)
    match = _table_match(session, event, table, round_number)
    if match.status != status:
        if status == "pending":
            raise ResultError(
                f"table {table} already has a result ({match.status}); use result edit or void"
            )
        raise ResultError(f"table {table} has no result to change ({match.status})")
    assert league.id is not None
    return league, match


def _check_entry(session: Session, match: Match, entry: Entry) -> CheckedResult:
    return check_result(
        _seat_names(session, match),
        Rules.from_json(match.rules),
        scores=entry.scores,
        hands=entry.hands,
        forfeit=entry.forfeit,
        where=f"table {match.table_no}",
    )


def add_result(
    db: Database, event_name: str, table: int, entry: Entry, *, round_number: int | None = None
) -> CheckedResult:
    """Enter the result of a published table; it counts for ratings from now on."""
    with db.writing() as session:
        league, match = _open_table(session, event_name, table, round_number, "pending")
        checked = _check_entry(session, match, entry)
        _write(session, league, match, checked, next_sequence(session, league.id or 0))
        _audit(session, match, "add", None, checked.to_dict(), entry.note)
        return checked


def edit_result(
    db: Database, event_name: str, table: int, entry: Entry, *, round_number: int | None = None
) -> CheckedResult:
    """Correct a stored result; it keeps its place in the order of results, and the
    ratings are recomputed from it on."""
    with db.writing() as session:
        league, match = _open_table(session, event_name, table, round_number, "done")
        before = _stored_result(session, match)
        checked = _check_entry(session, match, entry)
        sequence = match.sequence
        assert sequence is not None
        _clear(session, match)
        _write(session, league, match, checked, sequence, rate=False)
        rebuild_ratings(session, league.id or 0, from_sequence=sequence)
        _audit(session, match, "edit", before, checked.to_dict(), entry.note)
        return checked


def void_result(
    db: Database, event_name: str, table: int, *, round_number: int | None = None, note: str = ""
) -> None:
    """Void a stored result: it no longer counts for standings or ratings (recomputed)."""
    with db.writing() as session:
        league, match = _open_table(session, event_name, table, round_number, "done")
        before = _stored_result(session, match)
        sequence = match.sequence
        assert sequence is not None
        _clear(session, match)
        match.status = "void"
        session.add(match)
        rebuild_ratings(session, league.id or 0, from_sequence=sequence)
        _audit(session, match, "void", before, None, note)


def _clear(session: Session, match: Match) -> None:
    for hand in session.exec(select(HandRow).where(HandRow.match_id == match.id)).all():
        session.delete(hand)
    for seat in session.exec(select(MatchSeat).where(MatchSeat.match_id == match.id)).all():
        seat.place = None
        seat.score = None
        session.add(seat)
    match.forfeit_seat = match.forfeit_reason = match.forfeit_move = None
    match.forfeit_detail = None
    match.ended = None
    session.add(match)
    session.flush()


def _audit(
    session: Session,
    match: Match,
    action: str,
    before: dict[str, Any] | None,
    after: dict[str, Any] | None,
    note: str,
) -> None:
    assert match.id is not None
    session.add(
        ResultAudit(
            match_id=match.id,
            action=action,
            before=None if before is None else json.dumps(before, sort_keys=True),
            after=None if after is None else json.dumps(after, sort_keys=True),
            note=note[:500],
        )
    )


def audit_trail(db: Database, event_name: str) -> list[dict[str, Any]]:
    """Every add, edit and void of the event's results, oldest first."""
    with db.session() as session:
        _, event = get_event(session, event_name)
        rows = session.exec(
            select(ResultAudit, Match.table_no, Round.number)
            .join(Match, col(Match.id) == col(ResultAudit.match_id))
            .join(Round, col(Round.id) == col(Match.round_id))
            .where(Match.event_id == event.id)
            .order_by(col(ResultAudit.id))
        ).all()
        return [
            {
                "at": audit.at.isoformat(timespec="seconds"),
                "round": number,
                "table": table_no,
                "action": audit.action,
                "before": None if audit.before is None else json.loads(audit.before),
                "after": None if audit.after is None else json.loads(audit.after),
                "note": audit.note,
            }
            for audit, table_no, number in rows
        ]


# -- entrants --------------------------------------------------------------------------------


def withdraw(db: Database, league_name: str, name: str) -> None:
    """No more pairings for ``name`` in the league; its results stay."""
    with db.writing() as session:
        league = get_league(session, league_name)
        entrant = get_entrant(session, name)
        member = session.get(LeagueEntrant, (league.id, entrant.id))
        if member is None:
            raise NotFoundError(f"{name} is not in league {league_name!r}")
        if member.withdrawn:
            raise UsageError(f"{name} has already withdrawn from {league_name!r}")
        member.withdrawn = True
        session.add(member)


def reinstate(db: Database, league_name: str, name: str) -> None:
    """Undo a withdrawal: paired again from the next round."""
    with db.writing() as session:
        league = get_league(session, league_name)
        entrant = get_entrant(session, name)
        member = session.get(LeagueEntrant, (league.id, entrant.id))
        if member is None or not member.withdrawn:
            raise UsageError(f"{name} has not withdrawn from {league_name!r}")
        member.withdrawn = False
        session.add(member)


__all__ = [
    "EnteredHand",
    "Entry",
    "Sheet",
    "add_result",
    "audit_trail",
    "check_result",
    "edit_result",
    "move",
    "pairing_sheet",
    "parse_hands",
    "parse_scores",
    "publish",
    "reinstate",
    "sheet_csv",
    "sheet_html",
    "swap",
    "void_result",
    "withdraw",
]


# -- a person against the league's bots ------------------------------------------------------


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
        round_row = _round(session, event, None)
        if not round_row.published:
            raise UsageError(f"round {round_row.number} of {event.name!r} is not published yet")
        entrant = get_entrant(session, person)
        rows = session.exec(
            select(Match, MatchSeat.seat)
            .join(MatchSeat, col(MatchSeat.match_id) == col(Match.id))
            .where(Match.round_id == round_row.id, MatchSeat.entrant_id == entrant.id)
        ).all()
        if not rows:
            raise NotFoundError(f"{person} has no table in round {round_row.number}")
        match, seat = rows[0]
        if match.status != "pending":
            raise UsageError(f"{person}'s table {match.table_no} already has a result")
        seated = session.exec(
            select(Entrant)
            .join(MatchSeat, col(MatchSeat.entrant_id) == col(Entrant.id))
            .where(MatchSeat.match_id == match.id)
            .order_by(col(MatchSeat.seat))
        ).all()
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


def store_played(db: Database, seated: SeatedMatch, outcome: MatchOutcome) -> None:
    """Store the outcome (``c8league.runner.loop.MatchOutcome``) of a match played in the
    terminal, like any other result of the event."""
    from c8league.rating_store import model_for

    hands = hand_reports(outcome)
    with db.writing() as session:
        match = session.get(Match, seated.match_id)
        assert match is not None
        if match.status != "pending":
            raise UsageError(f"table {seated.table} got a result meanwhile; nothing stored")
        event = session.get(Event, match.event_id)
        assert event is not None
        league = session.get(League, event.league_id)
        assert league is not None and league.id is not None
        store_result(
            session,
            match=match,
            league_id=league.id,
            model=model_for(league),
            sequence=next_sequence(session, league.id),
            placements=outcome.result.placements,
            scores=outcome.result.scores,
            ended=outcome.result.ended,
            hands=hands,
            decisions=outcome.decisions,
            forfeit=outcome.forfeit,
            entered_by="play",
        )
        _audit(
            session,
            match,
            "add",
            None,
            {"scores": dict(zip(seated.names, outcome.result.scores, strict=True))},
            "played in the terminal",
        )
