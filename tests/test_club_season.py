"""A club's season: eleven members, three evenings of Swiss at 4-player tables. Round 1
drawn from the seed (or by rating), repeat meetings and short tables over the season,
tie-breaks per league, unfinished matches, taking back a published round, season
standings, and sheets written to files."""

from __future__ import annotations

import io
import itertools
import json
import sqlite3
from pathlib import Path

import pytest
from shown import TRUESKILL, WHEN, assert_shown
from test_club import digest, run

from c8league import club
from c8league.errors import LeagueFileError, UsageError
from c8league.events.pairing import pair_round
from c8league.league.files import load_league_file, parse_league
from c8league.league.leagues import import_league
from c8league.standings import (
    TIEBREAKS,
    SeasonRule,
    SeatResult,
    TableResult,
    explain_tiebreaks,
    season_standings,
    standings,
)
from c8league.storage import open_database
from c8league.storage.database import Database
from c8league.storage.leagues import league_members

MEMBERS = ["Ada", "Ben", "Cy", "Dee", "Eve", "Fred", "Gia", "Hal", "Ida", "Jo", "Kim"]


def season_text(seeds: tuple[int, ...] = (1, 2, 3), extra: str = "", rounds: int = 3) -> str:
    people = "".join(f'\n[[entrants]]\nname = "{name}"\n' for name in MEMBERS)
    evenings = "".join(
        f'\n[[events]]\nname = "evening-{i}"\nformat = "swiss"\nrounds = {rounds}\nseed = {seed}\n'
        for i, seed in enumerate(seeds, start=1)
    )
    return f'name = "season"\ntable_size = 4\n{extra}\n{people}{evenings}'


def league_db(folder: Path, text: str) -> tuple[Database, Path]:
    path = folder / "season.toml"
    path.write_text(text, encoding="utf-8")
    db_path = folder / "season.db"
    db = open_database(str(db_path))
    import_league(db, load_league_file(path))
    return db, db_path


def play_round(db: Database, event: str, number: int) -> list[tuple[str, ...]]:
    """Pair, publish and enter a round (seat 1 wins, then seat order); its tables."""
    pair_round(db, event)
    club.publish(db, event)
    sheet = club.pairing_sheet(db, event)
    for table in sheet.tables:
        scores = {n: max(0, table.target - 30 * i) for i, n in enumerate(table.seats)}
        club.add_result(db, event, table.table, club.Entry(scores))
    return [t.seats for t in sheet.tables]


def round_one(folder: Path, seed: int) -> list[frozenset[str]]:
    db, _ = league_db(folder, season_text((seed,)))
    pair_round(db, "evening-1")
    tables = [frozenset(t.seats) for t in club.pairing_sheet(db, "evening-1").tables]
    db.close()
    return tables


def test_round_one_is_drawn_from_the_seed(tmp_path: Path) -> None:
    draws = {}
    for seed in (1, 999, 123456):
        folder = tmp_path / str(seed)
        folder.mkdir()
        draws[seed] = round_one(folder, seed)
    assert len({frozenset(d) for d in draws.values()}) == 3
    # Not the order of entry: the first table is not the first four members.
    assert all(frozenset(MEMBERS[:4]) not in d for d in draws.values())
    again = tmp_path / "again"
    again.mkdir()
    assert round_one(again, 999) == draws[999]


def _ratings(db: Database) -> list[dict[str, float]]:
    from c8league.ratings.leaderboard import league_leaderboard

    board = league_leaderboard(db, "season", provisional=0)
    return [{"name": r.name, "conservative": r.conservative} for r in board.rows]


def test_round_one_by_rating_seats_the_best_together(tmp_path: Path) -> None:
    from c8league.events.pairing import first_round_scores
    from c8league.schedule import swiss_round
    from c8league.storage.leagues import get_event

    db, _ = league_db(tmp_path, season_text((5, 6), extra='first_round = "rating"'))
    for number in (1, 2, 3):
        play_round(db, "evening-1", number)
    board = {r["name"]: r["conservative"] for r in _ratings(db)}
    with db.session() as session:
        league, event = get_event(session, "evening-2")
        ids = {e.name: e.id for e in league_members(session, league.id or 0)}
        scores, order = first_round_scores(
            session, league, event, ids=sorted(i for i in ids.values() if i), how="rating"
        )
    names = {i: n for n, i in ids.items()}
    assert {names[e]: s for e, s in scores.items()} == pytest.approx(board)
    # With no meeting to avoid, the best four sit together, the next four, then the rest.
    plan = swiss_round(scores, [], 4, order=order, rotate_short=True)
    best = sorted(board, key=lambda n: -board[n])
    assert [{names[e] for e in t} for t in plan.tables] == [
        set(best[:4]),
        set(best[4:8]),
        set(best[8:]),
    ]
    # A season's repeat meetings and short tables weigh too: evening 2 is still paired.
    pair_round(db, "evening-2")
    assert len(club.pairing_sheet(db, "evening-2").tables) == 3


def test_short_tables_rotate_and_repeats_are_avoided_over_the_season(tmp_path: Path) -> None:
    db, _ = league_db(tmp_path, season_text())
    short: dict[str, int] = dict.fromkeys(MEMBERS, 0)
    met: dict[frozenset[str], int] = {}
    for evening in (1, 2, 3):
        for number in (1, 2, 3):
            tables = play_round(db, f"evening-{evening}", number)
            assert sorted(len(t) for t in tables) == [3, 4, 4]
            for table in tables:
                if len(table) == 3:
                    for name in table:
                        short[name] += 1
                for a, b in itertools.combinations(sorted(table), 2):
                    met[frozenset((a, b))] = met.get(frozenset((a, b)), 0) + 1
            # Nobody sits short twice while another never has.
            assert max(short.values()) - min(short.values()) <= 1, short
    # Nine rounds of 15 meetings each over 55 pairs: nobody meets anyone a fourth time.
    assert max(met.values()) <= 3
    db.close()


def test_repeat_meetings_count_across_the_season(tmp_path: Path) -> None:
    text = (
        'name = "duo"\ntable_size = 2\n'
        + "".join(f'\n[[entrants]]\nname = "{n}"\n' for n in ("Ada", "Ben", "Cy", "Dee"))
        + "".join(
            f'\n[[events]]\nname = "night-{i}"\nformat = "swiss"\nrounds = 1\nseed = {i}\n'
            for i in (1, 2, 3)
        )
    )
    db, _ = league_db(tmp_path, text)
    seen: set[frozenset[str]] = set()
    for night in (1, 2, 3):
        (t1, t2) = [frozenset(t) for t in play_round(db, f"night-{night}", 1)]
        assert not {t1, t2} & seen, night
        seen |= {t1, t2}


@pytest.mark.changes_record  # the event set back by SQL, as an upgrade leaves an older one
def test_an_event_paired_before_keeps_its_pairing(tmp_path: Path) -> None:
    db, db_path = league_db(tmp_path, season_text((7,)))
    db.close()
    con = sqlite3.connect(db_path)
    con.execute("UPDATE event SET pairing = 1")
    con.commit()
    con.close()
    db = open_database(str(db_path))
    pair_round(db, "evening-1")
    tables = [t.seats for t in club.pairing_sheet(db, "evening-1").tables]
    # The first rules: round 1 in the order of entry.
    assert [sorted(t) for t in tables] == [sorted(MEMBERS[:4]), sorted(MEMBERS[4:8]),
                                           sorted(MEMBERS[8:])]  # fmt: skip


# -- tie-breaks --------------------------------------------------------------------------


def table(*places: tuple[int, int, int], target: int = 0) -> TableResult:
    return TableResult(tuple(SeatResult(e, p, s) for e, p, s in places), target=target)


def test_opponents_are_averaged_so_table_sizes_do_not_matter() -> None:
    # 1 wins at a table of three, 4 at a table of four; their opponents are alike.
    tables = [
        table((1, 1, 150), (2, 2, 50), (3, 3, 0), target=150),
        table((4, 1, 200), (5, 2, 50), (6, 3, 10), (7, 4, 0), target=200),
    ]
    rows = {s.entrant: s for s in standings(range(1, 8), tables, tiebreaks=("opponents",))}
    assert rows[1].opponents_average == pytest.approx(0.25)
    assert rows[4].opponents_average == pytest.approx((2 / 3 + 1 / 3 + 0) / 3)
    assert rows[1].opponents_points == pytest.approx(0.5)  # the sum favoured bigger tables
    assert rows[1].game_share == rows[4].game_share == 1.0


def test_game_share_and_direct_encounter_break_ties_in_order() -> None:
    tables = [
        table((1, 1, 150), (2, 2, 100), (3, 3, 0), target=150),
        table((2, 1, 150), (1, 2, 90), (4, 3, 0), target=150),
    ]
    rows = standings([1, 2, 3, 4], tables, tiebreaks=("game-share",))
    by = {s.entrant: s for s in rows}
    # 1 and 2 are level on match points; 1 scored 100% and 60% of the target, 2 67% and 100%.
    assert by[1].match_points == by[2].match_points
    assert [s.entrant for s in rows][:2] == [2, 1]
    assert by[2].game_share == pytest.approx(5 / 6) and by[1].game_share == pytest.approx(0.8)
    rows = standings([1, 2, 3, 4], tables, tiebreaks=("direct",))
    assert rows[0].rank == rows[1].rank == 1  # they met twice, one each: still tied
    assert rows[0].direct == rows[1].direct == 0.5
    assert rows[2].direct is None and rows[2].shown("direct") == "–"


def test_every_tiebreak_is_explained_in_one_line() -> None:
    lines = explain_tiebreaks(("opponents", "game-share", "wins", "direct"))
    assert lines == [
        "Order: match points, then the tie-breaks below, in turn.",
        "1. opp. avg: average match points of opponents met (fair at any table size).",
        "2. game %: points as a share of the table's target, averaged per match.",
        "3. wins: matches won (first places).",
        "4. direct: places among those still tied, where they met (– unless all met).",
    ]
    assert all(len(line) <= 80 for line in explain_tiebreaks(list(TIEBREAKS)))
    assert all(len(line) <= 80 for line in explain_tiebreaks(list(TIEBREAKS), "season points"))


def test_season_tiebreaks_add_up_opponents_season_points() -> None:
    """Members level on season points are told apart by the league's tie-breaks over the
    whole season: Buchholz-style (opponents' season points, once per meeting), then
    Sonneborn-Berger (the season points of those finished ahead of, half for a tie)."""
    played = [
        [table((1, 1, 0), (3, 2, 0)), table((2, 1, 0), (4, 2, 0))],
        [table((3, 1, 0), (2, 2, 0)), table((4, 1, 0), (1, 2, 0))],
        [table((3, 1, 0), (4, 2, 0))],
    ]
    everyone = [1, 2, 3, 4]
    nights = [standings(everyone, night) for night in played]
    tables = [t for night in played for t in night]
    rule = SeasonRule.parse("total")
    # 3 has 2 season points, the others 1 each, one win each.
    wins = season_standings(everyone, nights, rule, tables=tables)
    assert [(r.entrant, r.points, r.rank) for r in wins] == [
        (3, 2.0, 1), (1, 1.0, 2), (2, 1.0, 2), (4, 1.0, 2),
    ]  # fmt: skip
    rows = season_standings(everyone, nights, rule, tables=tables,
                            tiebreaks=["opponents-total", "sonneborn-berger"])  # fmt: skip
    # 4 met 2, 1 and 3: 1 + 1 + 2; 1 met 3 and 4, as 2 did: 3 each. 1 beat 3 (2 season
    # points), 2 beat 4 (1).
    assert [(r.entrant, r.rank) for r in rows] == [(3, 1), (4, 2), (1, 3), (2, 4)]
    values = {r.entrant: r.standing for r in rows}
    assert [(v.opponents_points, v.sonneborn_berger) for v in values.values() if v] == [
        (3.0, 2.0), (4.0, 1.0), (3.0, 2.0), (3.0, 1.0),
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ('tiebreaks = ["luck"]', "tiebreaks: unknown tie-break 'luck'; tie-breaks: opponents"),
        ('tiebreaks = ["wins", "wins"]', "tiebreaks: tie-break 'wins' is listed twice"),
        ('season = "best-of:0"', "season: season rule 'best-of:0' is not 'total'"),
        ('season = "points:25,x"', "season: season rule 'points:25,x' is not"),
        ('first_round = "seeded"', "first_round: Input should be 'random' or 'rating'"),
    ],
)
def test_bad_league_choices_get_one_line(extra: str, message: str) -> None:
    import tomllib

    with pytest.raises(LeagueFileError) as caught:
        parse_league(tomllib.loads(season_text(extra=extra)), "season.toml")
    assert str(caught.value).startswith(f"season.toml: {message}")
    assert "\n" not in str(caught.value)


def test_standings_show_the_leagues_tiebreaks_with_their_lines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, db_path = league_db(tmp_path, season_text(extra='tiebreaks = ["wins", "opponents"]'))
    db = open_database(str(db_path))
    play_round(db, "evening-1", 1)
    db.close()
    capsys.readouterr()
    assert run(db_path, "event", "standings", "evening-1") == 0
    assert_shown(capsys.readouterr().out, "season-standings-league-tiebreaks")


# -- season standings --------------------------------------------------------------------


def test_season_rules() -> None:
    played = [
        [table((1, 1, 0), (2, 2, 0), (3, 3, 0))],
        [table((3, 1, 0), (2, 2, 0))],
        [table((3, 1, 0), (1, 2, 0))],
    ]
    nights = [standings([1, 2, 3], night) for night in played]
    tables = [t for night in played for t in night]
    total = season_standings([1, 2, 3], nights, SeasonRule.parse("total"), tables=tables)
    assert [(r.entrant, r.points) for r in total] == [(3, 2.0), (1, 1.0), (2, 0.5)]
    best = season_standings([1, 2, 3], nights, SeasonRule.parse("best-of:1"), tables=tables)
    # 1 and 3 level on their best evening: 3 won twice, 1 once.
    assert [(r.entrant, r.points, r.rank) for r in best] == [(3, 1.0, 1), (1, 1.0, 2), (2, 0.5, 3)]
    assert [s.counted for s in best[0].events if s is not None] == [False, True, False]
    points = season_standings([1, 2, 3], nights, SeasonRule.parse("points:10,6,4"))
    assert [(r.entrant, r.points) for r in points] == [(3, 24.0), (1, 16.0), (2, 12.0)]
    assert points[2].events[2] is None  # 2 did not play evening 3
    assert str(SeasonRule.parse("points:10,6,4")) == "points:10,6,4"
    with pytest.raises(UsageError, match="is not 'total'"):
        SeasonRule.parse("best-of:two")


def test_season_points_add_up_exactly() -> None:
    """Thirds rounded in each evening add up to the same season total: wins decide."""

    def t4(*order: int) -> TableResult:
        return table(*((e, place, 0) for place, e in enumerate(order, start=1)))

    everyone = [1, 2, 3, 4, 5, 6]
    nights = [
        # 1: 2/3 + 1/3 = 1, no win; 2: 1 + 1/3 = 4/3, one win.
        [t4(2, 1, 3, 4), t4(5, 6, 1, 3), t4(5, 6, 2, 4)],
        # 1: 1 + 2/3 = 5/3, one win; 2: 2/3.
        [t4(1, 2, 3, 4), t4(5, 1, 3, 4)],
        # 1: 5/3, one win; 2: 1 + 1 + 1/3 = 7/3, two wins.
        [t4(1, 3, 4, 5), t4(6, 1, 3, 4), t4(2, 3, 4, 5), t4(2, 6, 4, 5), t4(5, 6, 2, 3)],
    ]
    rows = season_standings(everyone, [standings(everyone, n) for n in nights],
                            SeasonRule.parse("total"),
                            tables=[t for n in nights for t in n])  # fmt: skip
    top = {r.entrant: r for r in rows}
    assert top[1].points == top[2].points == pytest.approx(13 / 3)
    assert (top[2].wins, top[1].wins) == (3, 2)
    assert top[2].rank < top[1].rank


# -- through the command line: bad input changes nothing -----------------------------------


@pytest.fixture
def evening(tmp_path: Path) -> Path:
    """The season's database with round 1 of evening 1 published, no result yet."""
    path = tmp_path / "season.toml"
    path.write_text(season_text(), encoding="utf-8")
    db = tmp_path / "season.db"
    assert run(db, "league", "import", str(path)) == 0
    assert run(db, "event", "pair", "evening-1") == 0
    assert run(db, "event", "publish", "evening-1") == 0
    return db


def sheet_of(db: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, object]:
    capsys.readouterr()
    assert run(db, "event", "sheet", "evening-1", "--format", "json") == 0
    return json.loads(capsys.readouterr().out)  # type: ignore[no-any-return]


def refused(db: Path, capsys: pytest.CaptureFixture[str], *args: str) -> str:
    """Run a command that must fail with one line and change nothing; the line."""
    before = digest(db)
    capsys.readouterr()
    assert run(db, *args) != 0
    err = capsys.readouterr().err.strip()
    assert digest(db) == before
    assert err.startswith("error: ") and "\n" not in err, err
    return err


def test_unfinished_matches_through_the_command_line(
    evening: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = evening
    tables = sheet_of(db, capsys)["tables"]
    three = next(t for t in tables if len(t["seats"]) == 3)  # type: ignore[union-attr]
    four = next(t for t in tables if len(t["seats"]) == 4)  # type: ignore[union-attr]
    a, b, c = three["seats"]
    n3, n4 = str(three["table"]), str(four["table"])
    assert "reached the target 150: the match was finished" in refused(
        db, capsys, "result", "add", "evening-1", "--table", n3, "--scores",
        f"{a}=150,{b}=60,{c}=40", "--unfinished",
    )  # fmt: skip
    assert "no place for" in refused(
        db, capsys, "result", "add", "evening-1", "--table", n3, "--places", f"{a},{b}"
    )
    assert "is given twice" in refused(
        db, capsys, "result", "add", "evening-1", "--table", n3, "--places", f"{a},{b},{a}"
    )
    assert "not --forfeit" in refused(
        db, capsys, "result", "add", "evening-1", "--table", n3, "--scores",
        f"{a}=90,{b}=60,{c}=40", "--unfinished", "--forfeit", c,
    )  # fmt: skip
    assert "--places or --scores" in refused(
        db, capsys, "result", "add", "evening-1", "--table", n3, "--places", f"{a},{b},{c}",
        "--scores", f"{a}=90,{b}=60,{c}=40",
    )  # fmt: skip
    assert "not seated at this table" in refused(
        db, capsys, "result", "add", "evening-1", "--table", n3, "--places", f"{a},{b},Nobody"
    )
    capsys.readouterr()
    assert run(db, "result", "add", "evening-1", "--table", n3, "--scores",
               f"{a}=90,{b.lower()}=60,{c}=40", "--unfinished") == 0  # fmt: skip
    assert capsys.readouterr().err == (
        f"round 1, table {n3}: stored 1. {a} 90 · 2. {b} 60 · 3. {c} 40 (unfinished)\n"
    )
    w, x, y, z = four["seats"]
    assert run(db, "result", "add", "evening-1", "--table", n4, "--places",
               f"{w},{x}={y},{z}") == 0  # fmt: skip
    assert capsys.readouterr().err == (
        f"round 1, table {n4}: stored 1. {w} · 2. {x} · 2. {y} · 4. {z} (unfinished)\n"
    )
    done = {t["table"]: t for t in sheet_of(db, capsys)["tables"]}  # type: ignore[union-attr]
    assert done[three["table"]]["unfinished"] is True
    assert [r["score"] for r in done[four["table"]]["result"]] == [None] * 4
    assert [r["place"] for r in done[four["table"]]["result"]] == [1, 2, 2, 4]
    # The audit trail keeps how it ended; standings count placements, no game points.
    assert run(db, "result", "history", "evening-1", "--json") == 0
    trail = json.loads(capsys.readouterr().out)
    assert [r["after"]["ended"] for r in trail if r["action"] == "add"] == [
        "unfinished",
        "places",
    ]
    assert run(db, "result", "history", "evening-1") == 0
    assert_shown(capsys.readouterr().out, "season-result-history-unfinished", when=WHEN)
    assert run(db, "event", "standings", "evening-1", "--json") == 0
    rows = {r["name"]: r for r in json.loads(capsys.readouterr().out)}
    assert rows[w]["match_points"] == 1 and rows[w]["game_points"] == 0
    assert rows[a]["match_points"] == 1 and rows[a]["game_share"] == pytest.approx(0.6)
    # A rated placement: the winner's rating rose.
    assert run(db, "ratings", "show", "season", "--json") == 0
    board = {r["name"]: r for r in json.loads(capsys.readouterr().out)["entrants"]}
    assert board[w]["mu"] > board[z]["mu"]
    # The report marks them too.
    assert run(db, "report", "evening-1", "--format", "md") == 0
    shown = capsys.readouterr().out
    assert f"Table {n3} stopped before the target: placed by the scores then (unfinished)." in shown
    assert f"Table {n4} stopped before the target: placed without scores (unfinished)." in shown


def test_a_published_round_is_taken_back(evening: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = evening
    assert refused(db, capsys, "event", "unpair", "evening-1") == (
        "error: round 1 of 'evening-1' is published: its tables are fixed (c8league event "
        "unpublish evening-1 makes it a draft again)"
    )
    assert run(db, "event", "unpublish", "evening-1") == 0
    assert capsys.readouterr().err == (
        "round 1 of evening-1 is a draft again: change it (event swap, move) or discard it "
        "(c8league event unpair evening-1), then publish it\n"
    )
    assert sheet_of(db, capsys)["published"] is False
    assert "is not published" in refused(db, capsys, "event", "unpublish", "evening-1")
    assert run(db, "event", "unpair", "evening-1") == 0
    assert refused(db, capsys, "event", "unpublish", "evening-1") == (
        "error: event 'evening-1' has no round yet (c8league event pair)"
    )
    assert run(db, "event", "pair", "evening-1") == 0
    assert run(db, "event", "publish", "evening-1") == 0
    table = sheet_of(db, capsys)["tables"][0]  # type: ignore[index]
    seats = table["seats"]
    scores = ",".join(f"{n}={200 - 50 * i}" for i, n in enumerate(seats))
    assert run(db, "result", "add", "evening-1", "--table", "1", "--scores", scores) == 0
    assert refused(db, capsys, "event", "unpublish", "evening-1") == (
        "error: round 1 of 'evening-1' has results (table 1): it stays published (correct "
        "results with c8league result edit or void)"
    )
    assert "(results are corrected with c8league result edit or void)" in refused(
        db, capsys, "event", "unpair", "evening-1"
    )
    assert "no event" in refused(db, capsys, "event", "unpublish", "evening-9").lower()


def test_sheets_take_their_format_from_the_suffix(
    evening: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    db = evening
    for suffix, start in ((".txt", " "), (".csv", "\ufeffround,table,seat"), (".html", "<!"),
                          (".json", "{")):  # fmt: skip
        out = tmp_path / f"sheet{suffix}"
        assert run(db, "event", "sheet", "evening-1", "--out", str(out)) == 0
        assert out.read_text(encoding="utf-8").startswith(start), suffix
    text = (tmp_path / "sheet.txt").read_text(encoding="utf-8")
    assert "Where do I sit?" in text and "\x1b[" not in text
    html = (tmp_path / "sheet.html").read_text(encoding="utf-8")
    assert "Where do I sit?" in html and html.count('<table class="tally">') == 3
    assert html.count('<td class="hand">') == 3 * 10  # six hands, three spare and a total
    listed = json.loads((tmp_path / "sheet.json").read_text(encoding="utf-8"))["where"]
    assert [w["name"] for w in listed] == sorted(MEMBERS)
    assert "the suffix does not say which format" in refused(
        db, capsys, "event", "sheet", "evening-1", "--out", str(tmp_path / "sheet.pdf")
    )
    assert "unknown format 'pdf'" in refused(
        db, capsys, "event", "sheet", "evening-1", "--format", "pdf"
    )


def test_pair_checks_its_output_before_it_stores_anything(
    evening: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    db = evening
    tables = sheet_of(db, capsys)["tables"]
    for t in tables:  # type: ignore[attr-defined]
        scores = ",".join(f"{n}={t['target'] - 40 * i}" for i, n in enumerate(t["seats"]))
        assert run(db, "result", "add", "evening-1", "--table", str(t["table"]),
                   "--scores", scores) == 0  # fmt: skip
    assert "folder" in refused(
        db, capsys, "event", "pair", "evening-1", "--out", str(tmp_path / "no" / "r2.txt")
    )
    assert "is a folder" in refused(
        db, capsys, "event", "pair", "evening-1", "--out", str(tmp_path)
    )
    assert "suffix" in refused(
        db, capsys, "event", "pair", "evening-1", "--out", str(tmp_path / "r2.doc")
    )
    out = tmp_path / "r2.csv"
    assert run(db, "event", "pair", "evening-1", "--out", str(out)) == 0
    assert out.read_bytes().startswith(b"\xef\xbb\xbfround,table,seat,name")
    assert sheet_of(db, capsys)["round"] == 2
    # The printed sheet carries the standings so far, each tie-break explained.
    page = tmp_path / "r2.html"
    assert run(db, "event", "sheet", "evening-1", "--out", str(page)) == 0
    html = page.read_text(encoding="utf-8")
    assert '<h2 class="part">Standings so far</h2>' in html
    assert '<p class="order">1. opp. avg: average match points of opponents met' in html


def test_season_standings_through_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "season.toml"
    path.write_text(season_text(extra='season = "best-of:1"', rounds=1), encoding="utf-8")
    db = tmp_path / "season.db"
    assert run(db, "league", "import", str(path)) == 0
    for evening in ("evening-1", "evening-2"):
        assert run(db, "event", "pair", evening) == 0
        assert run(db, "event", "publish", evening) == 0
        capsys.readouterr()
        assert run(db, "event", "sheet", evening, "--format", "json") == 0
        for t in json.loads(capsys.readouterr().out)["tables"]:
            scores = ",".join(f"{n}={t['target'] - 40 * i}" for i, n in enumerate(t["seats"]))
            assert run(db, "result", "add", evening, "--table", str(t["table"]),
                       "--scores", scores) == 0  # fmt: skip
    capsys.readouterr()
    assert run(db, "league", "standings", "season", "--json") == 0
    data = json.loads(capsys.readouterr().out)
    assert data["rule"] == "best-of:1" and data["events"] == ["evening-1", "evening-2", "evening-3"]
    assert len(data["standings"]) == 11
    first = data["standings"][0]
    assert first["points"] == 1 and [e is None for e in first["events"]][2] is True
    assert run(db, "league", "standings", "season") == 0
    assert_shown(capsys.readouterr().out, "season-league-standings-best-of")
    assert "no league" in refused(db, capsys, "league", "standings", "nosuch").lower()
    # Every report format carries it.
    for fmt, mark in (("json", '"season": {'), ("md", "## Season standings"),
                      ("html", 'id="table-season"'), ("terminal", "Season standings")):  # fmt: skip
        assert run(db, "report", "season", "--format", fmt) == 0
        assert mark in capsys.readouterr().out, fmt
    out = tmp_path / "season.csv"
    assert (
        run(db, "report", "season", "--format", "csv", "--table", "season", "--out", str(out)) == 0
    )
    assert out.read_text(encoding="utf-8-sig").startswith(
        "rank,name,points,wins,matches,evening-1,evening-2,evening-3\n"
    )


def test_answering_no_at_store_keeps_what_was_typed(
    evening: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    db = evening
    table = sheet_of(db, capsys)["tables"][0]  # type: ignore[index]
    seats = table["seats"]
    target = table["target"]
    typed = [str(target), *(str(target - 50 * (i + 1)) for i in range(len(seats) - 1))]
    answers = iter(typed + ["n"] + [""] * len(seats) + ["y"])
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(answers) + "\n"))
    assert run(db, "result", "add", "evening-1", "--table", "1") == 0
    err = capsys.readouterr().err
    assert "not stored: type the scores again (Enter keeps a score; Ctrl-C stops)" in err
    assert "— store? [Y/n]:round 1, table 1: stored 1." in err


def test_names_are_found_whatever_their_case_and_accents(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "accents.toml"
    people = ["Łukasz", "Zoë", "José", "Ana"]
    path.write_text(
        'name = "accents"\ntable_size = 4\n'
        + "".join(f'\n[[entrants]]\nname = "{n}"\n' for n in people)
        + '\n[[events]]\nname = "night"\nformat = "swiss"\nrounds = 2\nseed = 3\n',
        encoding="utf-8",
    )
    db = tmp_path / "accents.db"
    assert run(db, "league", "import", str(path)) == 0
    assert run(db, "event", "pair", "night") == 0
    assert run(db, "event", "swap", "night", "lukasz", "ZOE") == 0
    assert run(db, "event", "publish", "night") == 0
    assert run(db, "result", "add", "night", "--table", "1", "--scores",
               "lukasz=200,zoe=100,jose=50,ANA=0") == 0  # fmt: skip
    assert "stored 1. Łukasz 200" in capsys.readouterr().err
    assert run(db, "players", "withdraw", "jose", "--league", "accents") == 0
    assert run(db, "players", "reinstate", "JOSÉ", "--league", "accents") == 0
    assert refused(db, capsys, "players", "withdraw", "Lukas", "--league", "accents") == (
        "error: no player named 'Lukas' (did you mean Łukasz? c8league players list)"
    )


def test_check_in_absent_and_present(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "season.toml"
    path.write_text(season_text(), encoding="utf-8")
    db = tmp_path / "season.db"
    assert run(db, "league", "import", str(path)) == 0
    capsys.readouterr()
    assert run(db, "event", "absent", "evening-1", "ada") == 0
    assert capsys.readouterr().err == "Ada absent from round 1 of evening-1 on\n"
    assert run(db, "event", "absent", "evening-1", "Ben", "--round", "2") == 0
    assert capsys.readouterr().err == "Ben absent in round 2 of evening-1\n"
    assert "Ben is already absent in round 2 of evening-1" in refused(
        db, capsys, "event", "absent", "evening-1", "Ben", "--round", "2"
    )
    assert "has 3 rounds, not 4" in refused(
        db, capsys, "event", "absent", "evening-1", "Ben", "--round", "4"
    )
    assert "no player named 'Nobody'" in refused(
        db, capsys, "event", "absent", "evening-1", "Nobody"
    )
    assert "Cy is not absent" in refused(db, capsys, "event", "present", "evening-1", "Cy")
    assert "no event" in refused(db, capsys, "event", "absent", "evening-9", "Cy").lower()
    # Round 1 without Ada: ten members at 4, 3, 3; the sheet says who is absent.
    assert run(db, "event", "pair", "evening-1") == 0
    first = sheet_of(db, capsys)
    assert first["absent"] == ["Ada"]
    assert sorted(len(t["seats"]) for t in first["tables"]) == [3, 3, 4]  # type: ignore[union-attr]
    assert run(db, "event", "publish", "evening-1") == 0
    assert "round 1 of 'evening-1' is published" in refused(
        db, capsys, "event", "absent", "evening-1", "Cy", "--round", "1"
    )
    for t in first["tables"]:  # type: ignore[union-attr]
        scores = ",".join(f"{n}={t['target'] - 40 * i}" for i, n in enumerate(t["seats"]))
        assert run(db, "result", "add", "evening-1", "--table", str(t["table"]),
                   "--scores", scores) == 0  # fmt: skip
    # Ada comes from round 2 on; Ben misses round 2 only.
    capsys.readouterr()
    assert run(db, "event", "present", "evening-1", "Ada") == 0
    assert capsys.readouterr().err == "Ada present from round 2 of evening-1 on\n"
    assert run(db, "event", "pair", "evening-1") == 0
    second = sheet_of(db, capsys)
    seated = {n for t in second["tables"] for n in t["seats"]}  # type: ignore[union-attr]
    assert "Ada" in seated and "Ben" not in seated and second["absent"] == ["Ben"]
    assert run(db, "event", "standings", "evening-1", "--json") == 0
    rows = {r["name"]: r for r in json.loads(capsys.readouterr().out)}
    assert rows["Ada"]["absent_rounds"] == [1] and rows["Ben"]["absent_rounds"] == [2]
    assert rows["Ada"]["status"] == "active"  # still a member
    assert run(db, "event", "standings", "evening-1") == 0
    assert_shown(capsys.readouterr().out, "season-standings-absent")
    # A member seated in the draft is told how to pair it again.
    assert run(db, "event", "absent", "evening-1", "Cy") == 0
    assert "warning: Cy is seated at table" in capsys.readouterr().err
    assert run(db, "event", "unpair", "evening-1") == 0
    assert run(db, "event", "pair", "evening-1") == 0
    assert sheet_of(db, capsys)["absent"] == ["Ben", "Cy"]
    assert run(db, "report", "evening-1", "--format", "md") == 0
    assert "Ada (absent in round 1 of evening-1)" in capsys.readouterr().out


def test_check_in_is_for_swiss_events(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "rr.toml"
    path.write_text(season_text().replace('format = "swiss"', 'format = "round_robin"'))
    db = tmp_path / "rr.db"
    assert run(db, "league", "import", str(path)) == 0
    assert "is a round-robin" in refused(db, capsys, "event", "absent", "evening-1", "Ada")


def test_the_ratings_footnote_names_the_duel_for_bots_only(
    evening: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from c8league.reports.views import leaderboard_view

    assert "c8league duel" in leaderboard_view([], 10, bots=True).caption
    assert "duel" not in leaderboard_view([], 10).caption
    capsys.readouterr()
    assert run(evening, "ratings", "show", "season") == 0
    assert_shown(capsys.readouterr().out, "season-ratings-show", trueskill=TRUESKILL)


def test_an_older_database_keeps_its_tiebreaks_and_its_pairings(tmp_path: Path) -> None:
    fixture = Path(__file__).parent / "fixtures" / "schema_v1.sql"
    path = tmp_path / "old.db"
    con = sqlite3.connect(path)
    con.executescript(fixture.read_text())
    now = "2026-01-01 00:00:00"
    con.execute(
        "INSERT INTO league VALUES (1, 'old', '', 'pagat', '{}', '[4]', '{}', NULL, ?)", (now,)
    )
    for event_id, name in ((1, "started"), (2, "to come")):
        con.execute(
            "INSERT INTO event VALUES (?, 1, ?, 'swiss', 1, 3, 0, 0, 4, 'people', ?)",
            (event_id, name, now),
        )
    con.execute("INSERT INTO round VALUES (1, 1, 1, '[]', 1, ?)", (now,))
    con.commit()
    con.close()
    open_database(str(path)).close()
    con = sqlite3.connect(path)
    (standing,) = con.execute("SELECT standing FROM league").fetchone()
    pairing = dict(con.execute("SELECT name, pairing FROM event").fetchall())
    con.close()
    assert json.loads(standing) == {"tiebreaks": ["opponents-total", "game-points", "wins"]}
    assert pairing == {"started": 1, "to come": 2}
