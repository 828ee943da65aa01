"""Pairing sheets: a round's tables, seats in order, first dealer, target score and the
results so far; printed for the tables as CSV or a page of HTML."""

from __future__ import annotations

import csv
import io
import json
import math
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from c8league.engine import Rules
from c8league.engine.rules import COUNTDOWN_START
from c8league.errors import UsageError
from c8league.events.status import planned_rounds, standings_in, tiebreaks_of
from c8league.league.house_rules import house_rules, rules_line
from c8league.league.status import check_ins
from c8league.names import name_key
from c8league.results import UNFINISHED, forfeit_seats
from c8league.standings import TIEBREAKS, explain_tiebreaks
from c8league.storage import Session
from c8league.storage import rounds as stored_rounds
from c8league.storage.database import Database
from c8league.storage.leagues import entrant_names, get_event
from c8league.storage.models import Event, League

HANDS_PER_50 = 6
"""Hands a match takes, 9 times in 10, for each 50 points a seat is to reach: a match
to 50 a player (pagat's targets) takes 3 to 4 hands on average and at most 6 nine times
in ten, at tables of 2 to 6 (measured with the greedy and random bots)."""

SPARE_ROWS = 3
"""Rows of a tally grid beyond the hands expected (a long match, a hand written again)."""

COUNTDOWN_ROWS = 12
"""Rows of a Countdown match's tally grid (no target to go by)."""

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
    ended: str | None = None
    """How the match ended, when done (``unfinished`` or ``places``: stopped early)."""
    match_id: int = 0
    """The match's id (its first deal's), as ``match show`` takes it."""
    countdown: bool = False
    """A Countdown match (``target`` is then the count each seat starts from)."""

    @property
    def hands(self) -> int:
        """The rows of the tally grid on the table's score sheet, one per hand: the
        hands its match takes 9 times in 10 (:data:`HANDS_PER_50`), and spare rows."""
        if self.countdown or self.target <= 0:
            return COUNTDOWN_ROWS
        per_seat = self.target / max(1, len(self.seats))
        return math.ceil(HANDS_PER_50 * per_seat / 50) + SPARE_ROWS

    @property
    def unfinished(self) -> bool:
        return self.ended in UNFINISHED

    def result_text(self) -> str:
        """``1. Ada 150 · 2. Ben 100 · 3. Max 40 (forfeit)``, or the status; a match
        stopped early is marked ``(unfinished)``, placed without scores it shows none."""
        if not self.result:
            return self.status
        scored = self.ended != "places"
        return " · ".join(
            f"{p}. {n}"
            + (f" {s}" if scored else "")
            + (" (forfeit)" if n in self.forfeited else "")
            for n, p, s in self.result
        ) + (" (unfinished)" if self.unfinished else "")


@dataclass(frozen=True)
class Seat:
    """Where one entrant sits this round (``table`` None for a bye)."""

    name: str
    table: int | None
    seat: int | None


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
    absent: tuple[str, ...] = ()
    """Members who said they would not come to this round (not paired)."""
    standings: tuple[tuple[str, ...], ...] = ()
    """The event's standings so far, as printed: a header row (#, name, points, each
    tie-break), then one row per entrant; empty before the first result."""
    order: tuple[str, ...] = ()
    """The lines under the standings: the order, and one line per tie-break."""
    codes: tuple[tuple[int, str], ...] = ()
    """(table, code) of each table, for its players to report its result on
    ``c8league serve``'s page (``event sheet --codes``); empty: not shown."""
    report_url: str = ""
    """The address of that page, printed with the codes (and as ``report_qr``)."""
    report_qr: str = ""
    """A QR code of ``report_url``, as inline SVG markup; empty: none."""

    def code_of(self, table: int) -> str:
        """The code of ``table``, or ``""``."""
        return next((code for number, code in self.codes if number == table), "")

    @property
    def rules_line(self) -> str:
        """``Rules: pagat; house rules: …`` for the top of the sheet."""
        return rules_line(self.rules, self.house_rules)

    def where(self) -> list[Seat]:
        """Everyone of the round, alphabetically (ignoring case and accents), with their
        table and seat: the "where do I sit" list."""
        seated = [Seat(n, t.table, i) for t in self.tables for i, n in enumerate(t.seats, 1)]
        seated += [Seat(n, None, None) for n in self.byes]
        return sorted(seated, key=lambda s: (name_key(s.name), s.name))

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
                    "unfinished": t.unfinished,
                    "result": [
                        {
                            "name": n,
                            "place": p,
                            "score": None if t.ended == "places" else s,
                            "forfeit": n in t.forfeited,
                        }
                        for n, p, s in t.result
                    ],
                }
                for t in self.tables
            ],
            "byes": list(self.byes),
            "absent": list(self.absent),
            "where": [{"name": w.name, "table": w.table, "seat": w.seat} for w in self.where()],
            **(
                {
                    "codes": [{"table": t, "code": c} for t, c in self.codes],
                    "report_url": self.report_url or None,
                }
                if self.codes
                else {}
            ),
        }


def pairing_sheet(db: Database, event_name: str, round_number: int | None = None) -> Sheet:
    """The pairing sheet of a round (the latest by default), with results so far."""
    with db.session() as session:
        league, event = get_event(session, event_name)
        round_row = stored_rounds.get_round(session, event, round_number)
        assert round_row.id is not None
        tables = stored_rounds.round_tables(session, round_row.id)
        byes = json.loads(round_row.byes)
        there = {s.entrant_id for _, seats in tables for s in seats} | set(byes)
        away = sorted(check_ins(session, event).absent_in(round_row.number) - there)
        names = entrant_names(session, [*there, *away])
        sheet_tables = []
        for match, seats in tables:
            result: tuple[tuple[str, int, int], ...] = ()
            forfeited: tuple[str, ...] = ()
            if match.status == "done":
                result = tuple(
                    (names[s.entrant_id], s.place or 0, s.score or 0)
                    for s in sorted(seats, key=lambda s: s.place or 0)
                )
                lost = forfeit_seats([s.place or 0 for s in seats], match.forfeit_seat)
                forfeited = tuple(names[seats[i].entrant_id] for i in lost)
            rules = Rules.from_json(match.rules)
            target = COUNTDOWN_START if rules.countdown else rules.target_for(len(seats))
            sheet_tables.append(
                SheetTable(
                    table=match.table_no,
                    seats=tuple(names[s.entrant_id] for s in seats),
                    status=match.status,
                    target=target,
                    result=result,
                    forfeited=forfeited,
                    ended=match.ended if match.status == "done" else None,
                    match_id=match.id or 0,
                    countdown=rules.countdown,
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
            absent=tuple(sorted((names[a] for a in away), key=name_key)),
            standings=_standings(session, league, event),
            order=tuple(explain_tiebreaks(tiebreaks_of(league))),
        )


def _standings(session: Session, league: League, event: Event) -> tuple[tuple[str, ...], ...]:
    """The standings so far as rows of text (none before the first result)."""
    rows = standings_in(session, league, event)
    if not any(r.standing.matches or r.standing.byes for r in rows):
        return ()
    tiebreaks = tiebreaks_of(league)
    header = ("#", "name", "points", *(TIEBREAKS[t].heading for t in tiebreaks))
    return (
        header,
        *(
            (
                str(r.standing.rank),
                r.label,
                f"{r.standing.match_points:.2f}".rstrip("0").rstrip("."),
                *(r.standing.shown(t) for t in tiebreaks),
            )
            for r in rows
        ),
    )


def sheet_csv(sheet: Sheet) -> str:
    """One row per seat: round, table, seat, name, first dealer, target, and whether the
    round is a draft or published."""
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
    import jinja2  # jinja2: only for the HTML sheet

    env = jinja2.Environment(
        loader=jinja2.PackageLoader("c8league.reports", "templates"), autoescape=True
    )
    return env.get_template(SHEET_TEMPLATE).render(s=sheet)


SHEET_FORMATS = ("terminal", "csv", "html", "json")
_SHEET_SUFFIXES = {".txt": "terminal", ".csv": "csv", ".html": "html", ".htm": "html",
                   ".json": "json"}  # fmt: skip


def sheet_format(given: str | None, path: str | None) -> str:
    """The format of a sheet: ``given``, else the one the suffix of ``path`` names, else
    terminal; a :class:`UsageError` for an unknown one."""
    if given is not None:
        if given not in SHEET_FORMATS:
            raise UsageError(f"unknown format {given!r}; formats: {', '.join(SHEET_FORMATS)}")
        return given
    if path is None:
        return "terminal"
    suffix = Path(path).suffix.lower()
    if suffix not in _SHEET_SUFFIXES:
        raise UsageError(
            f"`out` {path}: the suffix does not say which format (.txt, .csv, .html or "
            ".json; or give `format`)",
            params=["out", "format"],
        )
    return _SHEET_SUFFIXES[suffix]


def check_out(path: str) -> None:
    """Refuse, before anything is stored, a file that cannot be written: a folder, a
    file in a folder that does not exist, or a place without write permission."""
    target = Path(path)
    if target.is_dir():
        raise UsageError(f"`out` {path} is a folder; give a file name", params=["out"])
    folder = target.parent if str(target.parent) else Path(".")
    if not folder.is_dir():
        raise UsageError(f"`out` {path}: folder {folder} does not exist", params=["out"])
    if not os.access(target if target.exists() else folder, os.W_OK):
        raise UsageError(f"`out` {path}: no permission to write there", params=["out"])
