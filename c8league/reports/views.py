"""A report laid out as sections of formatted tables, shared by the terminal, Markdown and
HTML renderers (each decides only how a table looks)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from c8league.events.season import SeasonTable
from c8league.ratings.leaderboard import LeaderboardRow
from c8league.reports.model import CrossTable, EventSection, Report, RoundSection, StandingEntry
from c8league.reports.text import (
    fixed,
    history_by_name,
    mark,
    matrix_cell,
    matrix_names,
    pair_lookup,
    percent,
    results_text,
    sparkline,
)
from c8league.results import UNFINISHED
from c8league.standings import TIEBREAKS, explain_tiebreaks

__all__ = [
    "MATRIX_SIZE",
    "Cell",
    "Column",
    "Section",
    "TableView",
    "leaderboard_view",
    "report_sections",
]

#: Entrants in the head-to-head matrix by default (the top of the leaderboard).
MATRIX_SIZE = 16

ENDED_LABELS = {
    "target": "a player reached the target score",
    "countdown": "a player counted down to 0",
    "hand_cap": "stopped at the hand cap",
    "blocked": "blocked hand (Countdown)",
    "turn_cap": "turn cap reached (Countdown)",
    "forfeit": "forfeit",
    "unfinished": "stopped unfinished, placed by the scores then",
    "places": "stopped unfinished, placed without scores",
}
HAND_LABELS = {
    "out": "a player went out",
    "blocked": "blocked (nobody could play)",
    "turn_cap": "stopped at the turn cap",
}


@dataclass(frozen=True, slots=True)
class Cell:
    """A cell with a second, smaller line (a prediction under a score) and a tooltip."""

    text: str
    sub: str = ""
    title: str = ""


@dataclass(frozen=True, slots=True)
class Column:
    header: str
    numeric: bool = True
    title: str = ""
    """A longer explanation (a tooltip in HTML)."""
    short: str = ""
    """A narrower header for the terminal (may hold a line break)."""
    priority: int = 1
    """1: a key column, always shown; 2 and 3: secondary columns a phone's page leaves
    out (3 first, on a narrow screen; 2 too on the narrowest)."""

    @property
    def narrow(self) -> str:
        return self.short or self.header


@dataclass
class TableView:
    key: str
    title: str
    columns: list[Column]
    rows: list[list[str | Cell]] = field(default_factory=list)
    caption: str = ""
    wide: bool = False
    """A matrix: as many columns as rows."""
    notes: list[str] = field(default_factory=list)
    """Lines shown under the table, each on its own (how the standings are ordered)."""


@dataclass
class Section:
    key: str
    title: str
    tables: list[TableView] = field(default_factory=list)
    intro: str = ""
    nav: str = ""
    """The section's label in the page's menu (default: its title up to a colon)."""


def _points(value: float) -> str:
    """Match points: whole numbers as such, others with two decimals (``7``, ``6.33``)."""
    return f"{value:.0f}" if abs(value - round(value)) < 1e-9 else f"{value:.2f}"


def leaderboard_view(
    rows: Sequence[LeaderboardRow], provisional_below: int, *, bots: bool = False
) -> TableView:
    """The leaderboard as a table view (also used by ``c8league ratings show``); for a
    pool of ``bots`` the footnote names the duel, which decides between two bots."""
    table = TableView(
        "leaderboard",
        "Leaderboard",
        [
            Column("#"),
            Column("entrant", numeric=False),
            Column("μ − 3σ", title="conservative rating: the sort key", short="μ−3σ"),
            Column("μ", title="estimated skill", priority=2),
            Column("σ", title="uncertainty of μ", priority=3),
            Column("matches", short="played"),
            Column("wins", title="first places", priority=3),
            Column("win %", short="win%", priority=2),
            Column("avg place", short="place", priority=3),
            Column(
                "avg place 0–1",
                title="placement scaled to the table: 0 first, 1 last",
                short="place\n0–1",
                priority=3,
            ),
            Column(
                "P(> next)",
                title="chance this entrant is stronger than the next one down",
                short="P>next",
                priority=3,
            ),
        ],
        caption=(
            f"Sorted by μ − 3σ. ? provisional (fewer than {provisional_below} "
            "matches); † no longer plays. P(> next): the probability that an entrant's skill "
            "exceeds the next one's; ≈ marks a gap the ratings cannot tell from noise "
            "(P(> next) between 5% and 95%): "
            + (
                "more matches, or a duel (c8league duel), would tell."
                if bots
                else "more matches would tell."
            )
        ),
    )
    for row in rows:
        table.rows.append(
            [
                str(row.rank),
                row.name + (f" {mark(row)}" if mark(row) else ""),
                fixed(row.conservative),
                fixed(row.mu),
                fixed(row.sigma),
                str(row.matches),
                str(row.wins),
                percent(row.win_rate),
                fixed(row.average_place),
                fixed(row.average_place_normalised),
                percent(row.prob_stronger_than_next) + (" ≈" if row.gap_is_noise else "")
                if row.prob_stronger_than_next is not None
                else "",
            ]
        )
    return table


def _standings(section: EventSection) -> TableView:
    columns = [
        Column("#"),
        Column("entrant", numeric=False),
        Column("points", title="match points: the share of opponents finished ahead of"),
    ]
    for number, name in enumerate(section.tiebreaks):
        tiebreak = TIEBREAKS[name]
        columns.append(
            Column(
                tiebreak.heading,
                title=tiebreak.explanation,
                short=tiebreak.heading.replace(" ", "\n", 1),
                priority=1 if number == 0 else 2 if number == 1 else 3,
            )
        )
    columns += [Column("matches", short="played", priority=3), Column("byes", priority=3)]
    table = TableView(
        f"standings-{section.name}",
        f"Standings: {section.name}",
        columns,
        caption=(
            f"{section.format.replace('_', '-')} at tables of {section.table_size}: "
            f"{section.matches_done} matches played"
            + (f", {section.matches_void} void" if section.matches_void else "")
            + (f", {section.matches_pending} to play" if section.matches_pending else "")
            + "."
        ),
        notes=explain_tiebreaks(section.tiebreaks),
    )
    for s in section.standings:
        table.rows.append(
            [
                str(s.rank) if s.played else "–",
                s.name + (f" ({s.status_text})" if s.status_text else ""),
                _points(s.match_points),
                *(_tiebreak_value(s, name) for name in section.tiebreaks),
                str(s.matches),
                str(s.byes),
            ]
        )
    return table


def _tiebreak_value(entry: StandingEntry, tiebreak: str) -> str:
    """An entry's value for a tie-break, as standings show it."""
    values = {
        "opponents": entry.opponents_average,
        "opponents-total": entry.opponents_match_points,
        "sonneborn-berger": entry.sonneborn_berger,
        "direct": entry.direct,
    }
    if values.get(tiebreak, 0.0) is None:
        return "–"
    if tiebreak == "wins":
        return str(entry.wins)
    if tiebreak == "game-points":
        return str(entry.game_points)
    if tiebreak == "game-share":
        return f"{entry.game_share * 100:.0f}%"
    return fixed(values[tiebreak] or 0.0)


def season_view(season: SeasonTable) -> TableView:
    """The season standings as a table view (also ``c8league league standings``): one
    narrow column per event, numbered; the lines under it say the rule and the events."""
    columns = [Column("#"), Column("member", numeric=False), Column("points")]
    columns += [Column(str(i), title=name) for i, name in enumerate(season.events, start=1)]
    shown = [t for t in season.tiebreaks if t != "wins"]  # wins have their own column
    for number, name in enumerate(shown):
        tiebreak = TIEBREAKS[name]
        columns.append(
            Column(
                tiebreak.heading,
                title=tiebreak.explanation.replace("match points", "season points"),
                short=tiebreak.heading.replace(" ", "\n", 1),
                priority=2 if number == 0 else 3,
            )
        )
    columns += [Column("wins", priority=2), Column("matches", short="played", priority=3)]
    table = TableView("season", "Season standings", columns, notes=season.lines())
    for row in season.rows:
        cells: list[str | Cell] = [str(row.rank), row.name, _points(row.points)]
        for score in row.events:
            if score is None:
                cells.append("–")
            elif score.counted:
                cells.append(_points(score.points))
            else:
                cells.append(f"({_points(score.points)})")
        cells += [row.shown(t) for t in shown]
        cells += [str(row.wins), str(row.matches)]
        table.rows.append(cells)
    return table


def _targets(section: EventSection, round_: RoundSection) -> str:
    """What the tables of a round play to, in a sentence."""
    by_size = sorted({(len(t.seats), t.target) for t in round_.tables}, reverse=True)
    if not by_size:
        return ""
    if all(target == 0 for _, target in by_size):
        return "Countdown: the first to reach 0 wins."
    parts = [f"{target} at tables of {size}" for size, target in by_size]
    return "Play to " + ", ".join(parts) + "."


def _round(section: EventSection, round_: RoundSection) -> TableView:
    """A round's tables, one row per seat in seat order (seat 1 dealt first)."""
    total = f" of {section.rounds_total}" if section.rounds_total else ""
    draft = "" if round_.published else " (draft, not published)"
    table = TableView(
        f"round-{section.name}-{round_.number}",
        f"Round {round_.number}{total}{draft}",
        [
            Column("table", title="table number (and deal, in a duplicate event)"),
            Column("seat", title="seat 1 deals the first hand", priority=2),
            Column("player", numeric=False),
            Column("score", title="final score"),
            Column("place"),
        ],
    )
    for t in round_.tables:
        label = f"{t.table}·{t.deal + 1}" if section.duplicate else str(t.table)
        for index, seat in enumerate(t.seats):
            if t.status == "done":
                forfeit = ""
                if seat.forfeit:
                    reason = t.forfeit_reason
                    forfeit = f" (forfeit: {reason})" if reason and reason != "left" else ""
                    forfeit = forfeit or (" (left)" if reason == "left" else " (forfeit)")
                cells: list[str | Cell] = [
                    label if index == 0 else "",
                    str(seat.seat),
                    seat.name + forfeit,
                    "–" if t.ended == "places" else str(seat.score),
                    str(seat.place),
                ]
            else:
                state = {"pending": "to play", "void": "void"}.get(t.status, t.status)
                cells = [label if index == 0 else "", str(seat.seat), seat.name, "", state]
            table.rows.append(cells)
    notes = [_targets(section, round_)]
    if round_.byes:
        notes.append("Bye: " + ", ".join(round_.byes) + " (1 match point).")
    if any(s.forfeit for t in round_.tables for s in t.seats):
        notes.append("Who left or forfeited is placed last.")
    for t in round_.tables:
        if t.status == "done" and t.ended in UNFINISHED:
            how = (
                "placed by the scores then" if t.ended == "unfinished" else "placed without scores"
            )
            notes.append(f"Table {t.table} stopped before the target: {how} (unfinished).")
    table.caption = " ".join(n for n in notes if n)
    return table


def _crosstable(name: str, cross: CrossTable) -> TableView:
    n = len(cross.entrants)
    table = TableView(
        f"crosstable-{name}",
        f"Cross-table: {name}",
        [Column("#"), Column("entrant", numeric=False)]
        + [Column(str(i + 1), title=cross.entrants[i]) for i in range(n)]
        + [Column("total")],
        caption="Each cell: the row entrant's results against the column entrant, "
        "1 a win, ½ a tie, 0 a loss, in the order played.",
        wide=True,
    )
    for i, entrant in enumerate(cross.entrants):
        total = sum(sum(c) for c in cross.cells[i] if c is not None)
        row: list[str | Cell] = [str(i + 1), entrant]
        row += [results_text(c) for c in cross.cells[i]]
        row.append(_points(total))
        table.rows.append(row)
    return table


def _matrix(report: Report, size: int) -> TableView | None:
    names = matrix_names(report, size)
    if len(names) < 2:
        return None
    lookup = pair_lookup(report)
    met = {p.a for p in report.head_to_head} | {p.b for p in report.head_to_head}
    shown = f"the top {len(names)} of {len(met)}" if len(names) < len(met) else "everyone"
    table = TableView(
        "head-to-head",
        "Head-to-head",
        [Column("#"), Column("entrant", numeric=False)]
        + [Column(str(i + 1), title=names[i]) for i in range(len(names))],
        caption=(
            f"Rows against columns ({shown}): meetings the row entrant finished ahead–behind "
            "(=level), and below it the model's chance that the row entrant finishes ahead "
            "of the column entrant."
        ),
        wide=True,
    )
    for i, row_name in enumerate(names):
        cells: list[str | Cell] = [str(i + 1), row_name]
        for column_name in names:
            if column_name == row_name:
                cells.append("×")
                continue
            text, chance = matrix_cell(lookup, row_name, column_name)
            if chance is None:
                cells.append("")
                continue
            cells.append(
                Cell(
                    text,
                    percent(chance),
                    f"{row_name} vs {column_name}: {text}, predicted {percent(chance)} ahead",
                )
            )
        table.rows.append(cells)
    return table


def _entrants(report: Report) -> TableView:
    table = TableView(
        "entrants",
        "Entrants",
        [
            Column("entrant", numeric=False),
            Column("matches", short="played"),
            Column("wins"),
            Column("avg place", short="place", priority=2),
            Column(
                "avg place 0–1",
                title="placement scaled to the table: 0 first, 1 last",
                short="place\n0–1",
                priority=3,
            ),
            Column("hands", priority=3),
            Column("hands won", short="hands\nwon", priority=3),
            Column(
                "points/hand",
                title="average points taken per hand played",
                short="points\n/hand",
                priority=3,
            ),
            Column("forfeits", numeric=False, priority=2),
        ],
        caption="Hands count only where they were recorded (results entered as final "
        "scores record none: –).",
    )
    for e in report.entrants:
        forfeits = ", ".join(f"{k} {v}" for k, v in e.forfeits.items()) or "–"
        table.rows.append(
            [
                e.name,
                str(e.matches),
                str(e.wins),
                fixed(e.average_place),
                fixed(e.average_place_normalised),
                "–" if e.hands is None else str(e.hands),
                "–" if e.hands_won is None else str(e.hands_won),
                fixed(e.average_points_per_hand, 1),
                forfeits,
            ]
        )
    return table


def _endings(report: Report) -> list[TableView]:
    e = report.endings
    matches = TableView("ended", "Matches", [Column("how", numeric=False), Column("count")])
    matches.rows.append(["finished", str(e.matches)])
    for kind, count in e.ended.items():
        matches.rows.append([f"  {ENDED_LABELS.get(kind, kind)}", str(count)])
    if e.void:
        matches.rows.append(["void", str(e.void)])
    if e.pending:
        matches.rows.append(["not played yet", str(e.pending)])
    forfeits = TableView("forfeits", "Forfeits", [Column("kind", numeric=False), Column("count")])
    for kind, count in e.forfeits.items():
        forfeits.rows.append([kind, str(count)])
    if not e.forfeits:
        forfeits.rows.append(["none", "0"])
    hands = TableView("hands", "Hands", [Column("how", numeric=False), Column("count")])
    for kind, count in e.hands.items():
        hands.rows.append([HAND_LABELS.get(kind, kind), str(count)])
    return [matches, forfeits, hands]


def _history(report: Report, width: int) -> TableView:
    table = TableView(
        "history",
        "Rating history",
        [
            Column("entrant", numeric=False),
            Column("matches", short="played", priority=2),
            Column("μ first", title="μ after the first rated match", priority=3),
            Column("μ now"),
            Column("μ over time", numeric=False),
        ],
        caption="Each entrant's μ after each rated match, scaled to its own range.",
    )
    series = history_by_name(report)
    for row in report.leaderboard:
        h = series.get(row.name)
        if h is None or not h.mu:
            continue
        table.rows.append(
            [row.name, str(len(h.mu)), fixed(h.mu[0]), fixed(h.mu[-1]), sparkline(h.mu, width)]
        )
    return table


def report_sections(
    report: Report, *, matrix: int = MATRIX_SIZE, spark_width: int = 24
) -> list[Section]:
    """The report's sections in reading order: ratings, standings and rounds of each
    event (for one event: its standings and rounds, then the ratings), head-to-head,
    entrants, endings, rating history. Sections without content are left out."""
    ratings = Section(
        "ratings",
        f"Ratings: league {report.league}",
        [
            leaderboard_view(
                report.leaderboard,
                report.provisional_below,
                bots=bool(report.events) and all(e.played_by == "bots" for e in report.events),
            )
        ],
    )
    sections = [] if report.scope == "event" else [ratings]
    if report.season is not None and report.season.events:
        season = Section("season", "Season standings", [season_view(report.season)])
        # A club reads its season first; a pool of bots its ratings.
        people = any(e.played_by == "people" for e in report.events)
        sections.insert(0 if people else 1, season)
    for event in report.events:
        tables = [_standings(event)]
        if event.crosstable is not None and event.crosstable.entrants:
            tables.append(_crosstable(event.name, event.crosstable))
        sections.append(
            Section(f"event-{event.name}", f"Event {event.name}", tables, nav=event.name)
        )
        if event.rounds:
            sections.append(
                Section(
                    f"rounds-{event.name}",
                    f"Rounds: {event.name}",
                    [_round(event, r) for r in event.rounds],
                    intro="Each table's seats in order (seat 1 dealt first), final scores "
                    "and places.",
                    nav=f"{event.name} rounds",
                )
            )
    if report.scope == "event":
        # An event's page is read for its standings and rounds first, then the ratings.
        ratings.intro = "League ratings over all its events."
        sections.append(ratings)
    matrix_table = _matrix(report, matrix)
    if matrix_table is not None:
        sections.append(Section("head-to-head", "Head-to-head", [matrix_table]))
    if report.entrants:
        sections.append(Section("entrants", "Entrants", [_entrants(report)]))
    sections.append(Section("endings", "How matches ended", _endings(report)))
    history = _history(report, spark_width)
    if history.rows:
        sections.append(Section("history", "Rating history", [history]))
    calibration = _calibration(report)
    if calibration is not None:
        sections.append(
            Section(
                "calibration",
                "Calibration",
                [calibration],
                intro="How well the ratings predicted the league's results: every two seats "
                "of a match that did not tie, the chance the ratings before the match gave "
                "the favourite to place higher, against how often it did.",
            )
        )
    return sections


def _calibration(report: Report) -> TableView | None:
    fit = report.calibration
    if fit is None or not any(b.pairs for b in fit.bins):
        return None
    table = TableView(
        "calibration",
        "Predicted against what came true",
        [
            Column("favourite's chance", numeric=False),
            Column("pairs"),
            Column("predicted"),
            Column("came true"),
        ],
        caption=f"β {fit.beta:.4g}, τ {fit.tau:.4g}: log-loss {fit.log_loss:.4f} over "
        f"{fit.pairs} pairs, calibration error {fit.calibration_error:.4f} (c8league ratings "
        "fit finds the β that predicts best).",
    )
    for b in fit.bins:
        if b.pairs:
            table.rows.append(
                [
                    f"{100 * b.low:.0f}–{100 * b.high:.0f}%",
                    str(b.pairs),
                    f"{100 * b.predicted:.1f}%",
                    f"{100 * b.observed:.1f}%",
                ]
            )
    return table
