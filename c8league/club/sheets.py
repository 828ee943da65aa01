"""Pairing sheets: a round's tables, seats in order, first dealer, target score and the
results so far; printed for the tables as CSV or a page of HTML."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from c8league.engine import Rules
from c8league.engine.rules import COUNTDOWN_START
from c8league.events.pairing import planned_rounds
from c8league.league.house_rules import house_rules, rules_line
from c8league.results import forfeit_seats
from c8league.storage import rounds as stored_rounds
from c8league.storage.database import Database
from c8league.storage.leagues import entrant_names, get_event

SHEET_TEMPLATE = "sheet.html.j2"
"""The page's template, beside the report's (``c8league/reports/templates``)."""


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
    forfeited: tuple[str, ...] = ()
    """The names of those who left the table (forfeited), when done."""
    match_id: int = 0
    """The match's id (its first deal's), as ``match show`` takes it."""

    def result_text(self) -> str:
        """``1. Ada 150 · 2. Ben 100 · 3. Max 40 (forfeit)``, or the status."""
        if not self.result:
            return self.status
        return " · ".join(
            f"{p}. {n} {s}" + (" (forfeit)" if n in self.forfeited else "")
            for n, p, s in self.result
        )


@dataclass(frozen=True)
class Sheet:
    league: str
    event: str
    title: str
    round: int
    rounds: int
    published: bool
    rules: str
    """The league's rule preset."""
    tables: tuple[SheetTable, ...]
    byes: tuple[str, ...]
    house_rules: tuple[str, ...] = ()
    """Every rule that differs from the preset, in words."""

    @property
    def rules_line(self) -> str:
        """``Rules: pagat; house rules: …`` for the top of the sheet."""
        return rules_line(self.rules, self.house_rules)

    def to_dict(self) -> dict[str, Any]:
        return {
            "league": self.league,
            "event": self.event,
            "round": self.round,
            "rounds": self.rounds,
            "published": self.published,
            "rules": self.rules,
            "house_rules": list(self.house_rules),
            "tables": [
                {
                    "table": t.table,
                    "match": t.match_id,
                    "seats": list(t.seats),
                    "first_dealer": t.seats[0],
                    "target": t.target,
                    "status": t.status,
                    "result": [
                        {"name": n, "place": p, "score": s, "forfeit": n in t.forfeited}
                        for n, p, s in t.result
                    ],
                }
                for t in self.tables
            ],
            "byes": list(self.byes),
        }


def pairing_sheet(db: Database, event_name: str, round_number: int | None = None) -> Sheet:
    """The pairing sheet of a round (the latest by default), with results so far."""
    with db.session() as session:
        league, event = get_event(session, event_name)
        round_row = stored_rounds.get_round(session, event, round_number)
        assert round_row.id is not None
        tables = stored_rounds.round_tables(session, round_row.id)
        byes = json.loads(round_row.byes)
        names = entrant_names(session, [s.entrant_id for _, seats in tables for s in seats] + byes)
        sheet_tables = []
        for match, seats in tables:
            result: tuple[tuple[str, int, int], ...] = ()
            forfeited: tuple[str, ...] = ()
            if match.status == "done":
                result = tuple(
                    sorted(
                        ((names[s.entrant_id], s.place or 0, s.score or 0) for s in seats),
                        key=lambda r: r[1],
                    )
                )
                lost = forfeit_seats([s.place or 0 for s in seats], match.forfeit_seat)
                forfeited = tuple(names[seats[i].entrant_id] for i in lost)
            rules = Rules.from_json(match.rules)
            target = COUNTDOWN_START if rules.countdown else rules.target_for(len(seats))
            sheet_tables.append(
                SheetTable(
                    match.table_no,
                    tuple(names[s.entrant_id] for s in seats),
                    match.status,
                    target,
                    result,
                    forfeited,
                    match.id or 0,
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
            tables=tuple(sheet_tables),
            byes=tuple(names[b] for b in byes),
            house_rules=tuple(house_rules(Rules.from_json(league.rules), league.preset)),
        )


def sheet_csv(sheet: Sheet) -> str:
    """One row per seat: round, table, seat, name, first dealer, target, and whether the
    round is a draft or published."""
    import csv
    import io

    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    status = "published" if sheet.published else "draft"
    writer.writerow(["round", "table", "seat", "name", "first_dealer", "target", "status"])
    for t in sheet.tables:
        for seat, name in enumerate(t.seats, start=1):
            writer.writerow(
                [sheet.round, t.table, seat, name, "yes" if seat == 1 else "", t.target, status]
            )
    for name in sheet.byes:
        writer.writerow([sheet.round, "bye", "", name, "", "", status])
    return buffer.getvalue()


def sheet_html(sheet: Sheet) -> str:
    """A printable, self-contained HTML page of the pairing sheet."""
    import jinja2

    env = jinja2.Environment(
        loader=jinja2.PackageLoader("c8league.reports", "templates"), autoescape=True
    )
    return env.get_template(SHEET_TEMPLATE).render(s=sheet)
