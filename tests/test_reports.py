"""Reports: the values built from storage, and each rendering (terminal, CSV, JSON,
Markdown, HTML with its chart) and the ``c8league report`` command."""

from __future__ import annotations

import csv
import io
import json
import math
import random
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest
from dbs import query, record_placed
from sqlmodel import col, func, select

from c8league.cli.main import main
from c8league.errors import NotFoundError
from c8league.events.running import run_event
from c8league.events.status import event_standings
from c8league.league.files import load_league_file
from c8league.league.leagues import import_league
from c8league.ratings import RatingModel
from c8league.ratings.update import model_for
from c8league.reports import (
    CSV_TABLES,
    JSON_FORMAT,
    JSON_VERSION,
    Report,
    build_report,
    render,
    report_document,
    write_report,
)
from c8league.reports.charts import rating_chart
from c8league.reports.text import sparkline
from c8league.results import Forfeit, HandReport
from c8league.storage import Database, open_database
from c8league.storage.models import (
    Entrant,
    Event,
    HandRow,
    League,
    LeagueEntrant,
    Match,
    MatchSeat,
    Round,
)

NOW = datetime(2025, 6, 1, 12, 0, tzinfo=UTC)

DUEL = """
name = "duel"
title = "Duel Club"
table_size = 2

[rules]
preset = "basic"

[[entrants]]
name = "Greedy"
bot = "greedy"

[[entrants]]
name = "Greedy II"
bot = "greedy"

[[entrants]]
name = "Random Playable"
bot = "random"
options = { playable_first = true }

[[entrants]]
name = "Random"
bot = "random"

[[entrants]]
name = "Random II"
bot = "random"

[[events]]
name = "duel-rr"
format = "round_robin"
seed = 5
"""


@pytest.fixture(scope="module")
def duel(tmp_path_factory: pytest.TempPathFactory) -> Database:
    """A real bot event: a round-robin of five bots at tables of two (so with byes)."""
    folder = tmp_path_factory.mktemp("duel")
    league_file = folder / "duel.toml"
    league_file.write_text(DUEL)
    db = open_database(str(folder / "duel.db"))
    import_league(db, load_league_file(league_file))
    run_event(db, "duel-rr", workers=1)
    with db.session() as s:  # a name that needs escaping in HTML
        entrant = s.exec(select(Entrant).where(Entrant.name == "Random II")).one()
        entrant.name = "<b>Rand & Co</b>"
        s.add(entrant)
        s.commit()
    return db


NAMES = ["Ada", "Bo", "Cy", "Di", "Ed", "Flo", "Gus"]


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> Database:
    return build_club(str(tmp_path_factory.mktemp("club") / "club.db"))


def build_club(url: str) -> Database:
    """Results entered one by one at tables of 3 and 4, with forfeits, blocked hands,
    turn caps, a void match and a retired entrant."""
    db = open_database(url)
    rng = random.Random(11)
    rating = json.dumps({"system": "trueskill", "mu": 25.0, "sigma": 25 / 3, "beta": 25 / 6,
                         "tau": 25 / 300, "draw_probability": 0.1, "backend": None})  # fmt: skip
    with db.session() as s:
        lg = League(name="club", title="Thursday Club", preset="pagat", rules="{}",
                    table_sizes="[4, 3]", rating=rating)  # fmt: skip
        s.add(lg)
        s.flush()
        ids = {}
        for name in NAMES:
            entrant = Entrant(name=name, kind="person", retired=name == "Gus")
            s.add(entrant)
            s.flush()
            ids[name] = entrant.id
            s.add(LeagueEntrant(league_id=lg.id, entrant_id=entrant.id))
        ev = Event(league_id=lg.id, name="spring", format="swiss", table_size=4,
                   played_by="people")  # fmt: skip
        s.add(ev)
        s.flush()
        rnd = Round(event_id=ev.id, number=1, byes=json.dumps([ids["Gus"]]))
        s.add(rnd)
        s.flush()
        assert lg.id is not None
        model = model_for(lg)
        for number in range(1, 31):
            size = 4 if number % 3 else 3
            seated = rng.sample(NAMES, size)
            m = Match(event_id=ev.id, round_id=rnd.id, table_no=number, rules="{}", seed=number)
            s.add(m)
            s.flush()
            for seat, name in enumerate(seated):
                s.add(MatchSeat(match_id=m.id, seat=seat, entrant_id=ids[name]))
            s.flush()
            places = list(range(1, size + 1))
            rng.shuffle(places)
            forfeit = None
            if number % 7 == 0:
                loser = places.index(size)
                forfeit = Forfeit(loser, "timeout" if number % 14 else "crash", 5, "slow")
            hands = [
                HandReport("out", (places.index(1),),
                           tuple(20 if p == 1 else 0 for p in places), (0,) * size, "{}"),
                HandReport("blocked" if number % 2 else "turn_cap", (places.index(2),),
                           tuple(7 if p == 2 else 0 for p in places), (0,) * size, "{}"),
            ]  # fmt: skip
            record_placed(s, lg, m, places, hands, forfeit, model)
        void = Match(event_id=ev.id, round_id=rnd.id, table_no=99, rules="{}", seed=0,
                     status="void")  # fmt: skip
        s.add(void)
        s.add(Match(event_id=ev.id, round_id=rnd.id, table_no=100, rules="{}", seed=0))
        s.commit()
    return db


@pytest.fixture(scope="module")
def duel_report(duel: Database) -> Report:
    return build_report(duel, now=NOW)


@pytest.fixture(scope="module")
def club_report(club: Database) -> Report:
    return build_report(club, "club", now=NOW)


# --- the values -----------------------------------------------------------------------------


def test_leaderboard_is_the_stored_ratings_in_conservative_order(
    duel: Database, duel_report: Report
) -> None:
    """The report's leaderboard against the database read directly: every rated entrant
    with its stored μ, σ and match count, best μ − 3σ first, wins counted from the
    stored places."""
    stored = query(
        duel.url,
        "SELECT e.name, r.mu, r.sigma, r.matches FROM rating r "
        "JOIN entrant e ON e.id = r.entrant_id",
    )
    expected = sorted(stored, key=lambda row: (-(row[1] - 3 * row[2]), -row[1], row[0]))
    rows = duel_report.leaderboard
    assert [(r.name, r.mu, r.sigma, r.matches) for r in rows] == expected
    assert [r.rank for r in rows] == list(range(1, len(expected) + 1))
    wins = dict(
        query(
            duel.url,
            "SELECT e.name, sum(CASE WHEN s.place = 1 THEN 1 ELSE 0 END) FROM match_seat s "
            "JOIN match m ON m.id = s.match_id JOIN entrant e ON e.id = s.entrant_id "
            "WHERE m.status = 'done' GROUP BY e.name",
        )
    )
    assert {r.name: r.wins for r in rows} == {name: wins[name] for name, *_ in expected}
    assert duel_report.scope == "league" and duel_report.heading == "Duel Club"


def test_standings_are_the_events(duel: Database, duel_report: Report) -> None:
    (section,) = duel_report.events
    expected = event_standings(duel, "duel-rr")
    assert [
        (e.rank, e.name, e.match_points, e.opponents_match_points, e.game_points, e.wins,
         e.matches, e.byes)
        for e in section.standings
    ] == [
        (r.standing.rank, r.name, r.standing.match_points, r.standing.opponents_points,
         r.standing.game_points, r.standing.wins, r.standing.matches, r.standing.byes)
        for r in expected
    ]  # fmt: skip
    assert section.matches_done == 10 and section.table_size == 2
    assert sum(e.byes for e in section.standings) == 5


def test_standings_with_a_retired_entrant_and_byes(club: Database, club_report: Report) -> None:
    (section,) = club_report.events
    expected = event_standings(club, "spring")
    assert [
        (e.name, e.match_points, e.opponents_match_points, e.byes) for e in section.standings
    ] == [
        (r.name, r.standing.match_points, r.standing.opponents_points, r.standing.byes)
        for r in expected
    ]
    assert section.crosstable is None  # tables of four
    assert (section.matches_done, section.matches_void, section.matches_pending) == (30, 1, 1)


def test_crosstable_agrees_with_standings(duel_report: Report) -> None:
    (section,) = duel_report.events
    cross = section.crosstable
    assert cross is not None
    assert list(cross.entrants) == [e.name for e in section.standings]
    n = len(cross.entrants)
    for i in range(n):
        assert cross.cells[i][i] is None
        for j in range(n):
            if i != j:
                mine, theirs = cross.cells[i][j], cross.cells[j][i]
                assert mine is not None and theirs is not None
                assert len(mine) == 1  # a single round-robin: everyone met once
                assert [1 - r for r in mine] == list(theirs)
        total = sum(sum(c) for c in cross.cells[i] if c is not None)
        standing = section.standings[i]
        assert total + standing.byes == pytest.approx(standing.match_points)


def test_head_to_head(club: Database, club_report: Report) -> None:
    pairs = club_report.head_to_head
    with club.session() as s:
        sizes = s.exec(
            select(func.count())
            .select_from(MatchSeat)
            .join(Match, col(Match.id) == col(MatchSeat.match_id))
            .where(Match.status == "done")
            .group_by(col(MatchSeat.match_id))
        ).all()
        lg = s.exec(select(League)).one()
        model = model_for(lg)
    assert sum(p.meetings for p in pairs) == sum(k * (k - 1) // 2 for k in sizes)
    rank = {row.name: row.rank for row in club_report.leaderboard}
    rating = {row.name: (row.mu, row.sigma) for row in club_report.leaderboard}
    for p in pairs:
        assert p.a_ahead + p.b_ahead + p.level == p.meetings
        assert rank[p.a] < rank[p.b]
        (mu_a, sigma_a), (mu_b, sigma_b) = rating[p.a], rating[p.b]
        z = (mu_a - mu_b) / math.sqrt(sigma_a**2 + sigma_b**2 + 2 * model.settings.beta**2)
        assert p.a_ahead_predicted == pytest.approx(0.5 * math.erfc(-z / math.sqrt(2)))
    simulated = RatingModel(model.settings).win_probabilities(
        [model.initial(), model.initial()], samples=2000
    )
    assert simulated[0] == pytest.approx(0.5, abs=0.05)


def test_entrant_statistics(club: Database, club_report: Report) -> None:
    stats = {e.name: e for e in club_report.entrants}
    with club.session() as s:
        seats = s.exec(
            select(MatchSeat, Match)
            .join(Match, col(Match.id) == col(MatchSeat.match_id))
            .where(Match.status == "done")
        ).all()
        hands = s.exec(select(HandRow)).all()
        names = {e.id: e.name for e in s.exec(select(Entrant)).all()}
    by_match: dict[int, dict[int, str]] = {}
    for seat, match in seats:
        by_match.setdefault(match.id or 0, {})[seat.seat] = names[seat.entrant_id]
    for name, e in stats.items():
        mine = [(seat, match) for seat, match in seats if names[seat.entrant_id] == name]
        assert e.matches == len(mine)
        assert e.wins == sum(seat.place == 1 for seat, _ in mine)
        assert e.average_place == pytest.approx(
            sum(seat.place or 0 for seat, _ in mine) / len(mine)
        )
        forfeits: dict[str, int] = {}
        for seat, match in mine:
            if match.forfeit_seat == seat.seat:
                forfeits[match.forfeit_reason or ""] = (
                    forfeits.get(match.forfeit_reason or "", 0) + 1
                )
        assert e.forfeits == forfeits
        my_hands = [h for h in hands if name in by_match.get(h.match_id, {}).values()]
        assert e.hands == len(my_hands)
        won = sum(by_match[h.match_id][w] == name for h in my_hands for w in json.loads(h.winners))
        assert e.hands_won == won
        points = sum(
            p
            for h in my_hands
            for seat_no, p in enumerate(json.loads(h.points))
            if by_match[h.match_id][seat_no] == name
        )
        assert e.average_points_per_hand == pytest.approx(points / len(my_hands))
    assert sum(sum(e.forfeits.values()) for e in stats.values()) == 4


def test_endings(club_report: Report) -> None:
    e = club_report.endings
    assert (e.matches, e.void, e.pending) == (30, 1, 1)
    assert e.ended == {"target": 26, "forfeit": 4}
    assert e.forfeits == {"timeout": 2, "crash": 2}
    assert e.hands == {"out": 30, "blocked": 15, "turn_cap": 15}


def test_history_ends_at_the_current_ratings(club_report: Report) -> None:
    series = {h.name: h for h in club_report.history}
    assert [h.name for h in club_report.history] == [r.name for r in club_report.leaderboard]
    for row in club_report.leaderboard:
        h = series[row.name]
        assert len(h.mu) == row.matches
        assert (h.mu[-1], h.sigma[-1]) == (row.mu, row.sigma)
        assert list(h.sequences) == sorted(h.sequences)
    footer = club_report.footer
    assert footer.matches == 30 and footer.last_match is not None
    assert footer.last_match.sequence == 30 and footer.last_match.event == "spring"
    assert footer.rating_system == "trueskill" and footer.parameters["beta"] == 25 / 6
    assert footer.generated_at == NOW


def _rounded(value: object) -> object:
    if isinstance(value, float):
        return round(value, 9)
    if isinstance(value, dict):
        return {k: _rounded(v) for k, v in value.items() if k not in ("footer",)}
    if isinstance(value, list):
        return [_rounded(v) for v in value]
    return value


def test_same_report_on_each_database(db_url: str, club_report: Report) -> None:
    report = build_report(build_club(db_url), "club", now=NOW)
    assert _rounded(report_document(report)) == _rounded(report_document(club_report))
    assert report.footer.matches == club_report.footer.matches


def test_event_scope_and_names(duel: Database, club: Database) -> None:
    report = build_report(duel, "duel/duel-rr", now=NOW)
    assert report.scope == "event" and report.event == "duel-rr"
    assert build_report(duel, "duel-rr", now=NOW).event == "duel-rr"
    assert build_report(duel, "duel", now=NOW).scope == "league"
    with pytest.raises(NotFoundError, match="no league or event named 'nope'"):
        build_report(duel, "nope")


def test_league_without_results(tmp_path: Path) -> None:
    db = open_database(str(tmp_path / "empty.db"))
    with db.session() as s:
        s.add(League(name="new", preset="pagat", rules="{}", table_sizes="[2]",
                     rating=json.dumps({"system": "trueskill"})))  # fmt: skip
        s.commit()
    report = build_report(db, now=NOW)
    assert report.leaderboard == () and report.history == () and report.footer.last_match is None
    for fmt in ("terminal", "csv", "json", "md", "html"):
        assert render(report, fmt)
    assert rating_chart(report) is None


# --- renderings -------------------------------------------------------------------------------


def test_json_shape(club_report: Report) -> None:
    data = json.loads(render(club_report, "json"))
    assert data == report_document(club_report)
    assert (data["format"], data["version"]) == (JSON_FORMAT, JSON_VERSION)
    assert list(data) == [
        "format", "version", "scope", "league", "event", "provisional_below", "leaderboard",
        "events", "head_to_head", "entrants", "endings", "rating_history", "footer", "season",
        "calibration",
    ]  # fmt: skip
    assert list(data["leaderboard"][0]) == [
        "rank", "name", "mu", "sigma", "conservative", "matches", "wins", "win_rate",
        "average_place", "average_place_normalised", "provisional", "active",
        "prob_stronger_than_next",
    ]  # fmt: skip
    assert list(data["events"][0]) == [
        "name", "format", "table_size", "matches_done", "matches_void", "matches_pending",
        "tiebreaks", "order", "standings", "crosstable", "played_by", "rounds_total", "rounds",
    ]  # fmt: skip
    assert list(data["league"]) == ["name", "title", "rules", "house_rules"]
    assert list(data["events"][0]["standings"][0])[-6:] == [
        "status", "membership", "opponents_average", "game_share", "direct", "absent_rounds",
    ]  # fmt: skip
    round_table = data["events"][0]["rounds"][0]["tables"][0]
    assert list(round_table) == [
        "table", "deal", "status", "ended", "target", "forfeit_reason", "seats",
    ]  # fmt: skip
    assert list(round_table["seats"][0]) == ["seat", "name", "score", "place", "forfeit"]
    assert list(data["head_to_head"][0]) == [
        "a", "b", "meetings", "a_ahead", "b_ahead", "level", "a_ahead_predicted",
    ]  # fmt: skip
    assert list(data["entrants"][0]) == [
        "name", "matches", "wins", "average_place", "average_place_normalised", "hands",
        "hands_won", "average_points_per_hand", "forfeits",
    ]  # fmt: skip
    assert list(data["endings"]) == ["matches", "void", "pending", "ended", "forfeits", "hands"]
    assert list(data["rating_history"]) == ["initial", "entrants"]
    assert list(data["rating_history"]["entrants"][0]) == ["name", "sequence", "mu", "sigma"]
    assert list(data["footer"]) == [
        "rating_system", "rating_version", "parameters", "matches", "last_match",
        "generated_at", "c8league_version",
    ]  # fmt: skip
    assert data["footer"]["generated_at"] == "2025-06-01T12:00:00+00:00"
    retired = [row for row in data["leaderboard"] if row["name"] == "Gus"]
    assert retired and retired[0]["active"] is False


def test_json_docs_name_every_key(club_report: Report, duel_report: Report) -> None:
    docs = (Path(__file__).parents[1] / "docs" / "report-json.md").read_text()
    keys: set[str] = set()

    def walk(value: object) -> None:
        if isinstance(value, dict):
            for key, inner in value.items():
                if key not in {e.name for e in club_report.entrants} | {"timeout", "crash"}:
                    keys.add(key)
                walk(inner)
        elif isinstance(value, list):
            for inner in value:
                walk(inner)

    walk(report_document(club_report))
    walk(report_document(duel_report))
    keys -= {"target", "forfeit", "out", "blocked", "turn_cap"}  # values of kinds
    missing = sorted(k for k in keys if f"`{k}`" not in docs)
    assert missing == []


def test_csv_tables_open_in_a_spreadsheet(club_report: Report) -> None:
    for table in CSV_TABLES:
        text = render(club_report, "csv", table=table)
        rows = list(csv.reader(io.StringIO(text)))
        header, body = rows[0], rows[1:]
        assert body, table
        assert len(set(header)) == len(header)
        assert all(len(row) == len(header) for row in body)
        for row in body:
            for value in row:
                assert "%" not in value and "–" not in value
    leaders = list(csv.DictReader(io.StringIO(render(club_report, "csv", table="leaderboard"))))
    assert float(leaders[0]["mu"]) == pytest.approx(club_report.leaderboard[0].mu, abs=1e-6)
    assert leaders[0]["provisional"] in ("true", "false")
    entrants = list(csv.DictReader(io.StringIO(render(club_report, "csv", table="entrants"))))
    assert {"forfeits", "forfeits_crash", "forfeits_timeout"} <= set(entrants[0])


def test_markdown(club_report: Report, tmp_path: Path) -> None:
    written = write_report(club_report, "md", tmp_path / "club.md")
    assert [p.name for p in written] == ["club.md", "club-ratings.svg"]
    text = written[0].read_text()
    assert text.startswith("# Thursday Club\n")
    assert "![Rating history: μ with a ±2σ band](club-ratings.svg)" in text
    for heading in (
        "## Ratings: league club",
        "### Leaderboard",
        "### Standings: spring",
        "## Head-to-head",
        "## Entrants",
        "## How matches ended",
        "## Rating history",
    ):
        assert heading in text  # fmt: skip
    assert "| 1 | " in text and "| ---: |" in text
    assert written[1].read_bytes().startswith(b"<?xml")


def test_terminal(club_report: Report) -> None:
    text = render(club_report, "terminal", width=120)
    for part in (
        "Thursday Club",
        "Leaderboard",
        "Standings: spring",
        "Head-to-head",
        "Entrants",
        "Forfeits",
        "Rating history",
        "Ratings: trueskill",
        "Last match: #30 (spring)",
        "Generated 2025-06-01 12:00:00 UTC",
    ):
        assert part in text, part  # fmt: skip
    assert any(block in text for block in "▁▂▃▄▅▆▇█")
    assert "…" not in text  # nothing cut short at 120 columns


def test_sparkline() -> None:
    assert sparkline([]) == ""
    assert sparkline([1.0, 1.0]) == "▄▄"
    assert sparkline([0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]) == "▁▂▃▄▅▆▇█"
    line = sparkline([float(i) for i in range(100)], width=10)
    assert len(line) == 10 and line[-1] == "█"


def test_chart_is_deterministic(club_report: Report) -> None:
    svg = rating_chart(club_report, entrants=3)
    assert svg is not None and svg == rating_chart(club_report, entrants=3)
    assert b"<svg" in svg and club_report.leaderboard[0].name.encode() in svg
    png = rating_chart(club_report, image="png")
    assert png is not None and png.startswith(b"\x89PNG")


def test_html_is_self_contained_and_escaped(duel_report: Report) -> None:
    page = render(duel_report, "html")
    assert page.startswith("<!doctype html>")
    assert '<meta name="viewport"' in page
    assert 'src="data:image/svg+xml;base64,' in page
    assert "http://" not in page.replace("http://www.w3.org", "")
    assert "https://" not in page and "<script" not in page and "<link" not in page
    assert "&lt;b&gt;Rand &amp; Co&lt;/b&gt;" in page and "<b>Rand" not in page
    for table in (
        "leaderboard",
        "standings-duel-rr",
        "crosstable-duel-rr",
        "head-to-head",
        "entrants",
        "ended",
        "forfeits",
        "hands",
        "history",
    ):
        assert f'id="table-{table}"' in page, table  # fmt: skip
    assert "Generated 2025-06-01 12:00:00 UTC" in page


# --- the command ------------------------------------------------------------------------------


def test_report_command(duel: Database, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    url = duel.url.removeprefix("sqlite:///")

    def cli(*args: str) -> tuple[int, str, str]:
        code = main(["--db", url, "report", *args])
        captured = capsys.readouterr()
        return code, captured.out, captured.err

    code, out, _ = cli()
    assert code == 0 and "Leaderboard" in out and "Cross-table: duel-rr" in out
    code, out, _ = cli("duel-rr", "--format", "json")
    assert code == 0 and json.loads(out)["scope"] == "event"
    code, out, _ = cli("--format", "csv", "--table", "head-to-head")
    assert (
        code == 0 and out.splitlines()[0] == "a,b,meetings,a_ahead,b_ahead,level,a_ahead_predicted"
    )
    code, _, err = cli("duel", "--out", str(tmp_path / "site" / "index.html"))
    assert code == 0 and "index.html" in err
    assert (tmp_path / "site" / "index.html").read_text().startswith("<!doctype html>")
    code, _, _ = cli("--format", "csv", "--table", "all", "--out", str(tmp_path / "tables"))
    assert code == 0
    assert sorted(p.name for p in (tmp_path / "tables").iterdir()) == sorted(
        f"{name}.csv" for name in CSV_TABLES
    )
    code, _, err = cli("--table", "all")
    assert code == 2 and "--out DIR" in err
    code, _, err = cli("nowhere")
    assert code == 2 and "no league or event named 'nowhere'" in err
    code, _, err = cli("--format", "pdf")
    assert code == 2


def test_help_imports_no_chart_or_template_library() -> None:
    code = (
        "import sys; import c8league.cli.main; "
        "print(sorted(m for m in ('matplotlib', 'jinja2') if m in sys.modules))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "[]"
