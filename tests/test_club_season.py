"""A club's season: eleven members, three evenings of Swiss at 4-player tables. Round 1
drawn from the seed (or by rating), repeat meetings and short tables over the season,
tie-breaks per league, unfinished matches, taking back a published round, season
standings, and sheets written to files."""

from __future__ import annotations

import itertools
import sqlite3
from pathlib import Path

import pytest
from test_club import run

from c8league import club, events
from c8league.errors import LeagueFileError, UsageError
from c8league.league import load_league_file
from c8league.league.files import parse_league
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
    events.pair_round(db, event)
    club.publish(db, event)
    sheet = club.pairing_sheet(db, event)
    for table in sheet.tables:
        scores = {n: max(0, table.target - 30 * i) for i, n in enumerate(table.seats)}
        club.add_result(db, event, table.table, club.Entry(scores))
    return [t.seats for t in sheet.tables]


def round_one(folder: Path, seed: int) -> list[frozenset[str]]:
    db, _ = league_db(folder, season_text((seed,)))
    events.pair_round(db, "evening-1")
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
            session, league, event, sorted(i for i in ids.values() if i), "rating"
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
    events.pair_round(db, "evening-2")
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


def test_an_event_paired_before_keeps_its_pairing(tmp_path: Path) -> None:
    db, db_path = league_db(tmp_path, season_text((7,)))
    db.close()
    con = sqlite3.connect(db_path)
    con.execute("UPDATE event SET pairing = 1")
    con.commit()
    con.close()
    db = open_database(str(db_path))
    events.pair_round(db, "evening-1")
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
    shown = capsys.readouterr().out
    assert "┃  # ┃ entrant ┃ points ┃ wins ┃ opp. avg ┃ matches ┃" in shown
    assert shown.endswith(
        "Order: match points, then the tie-breaks below, in turn.\n"
        "1. wins: matches won (first places).\n"
        "2. opp. avg: average match points of opponents met (fair at any table size).\n"
    )


# -- season standings --------------------------------------------------------------------


def test_season_rules() -> None:
    evening1 = standings([1, 2, 3], [table((1, 1, 0), (2, 2, 0), (3, 3, 0))])
    evening2 = standings([1, 2, 3], [table((3, 1, 0), (2, 2, 0))])
    evening3 = standings([1, 2, 3], [table((3, 1, 0), (1, 2, 0))])
    nights = [evening1, evening2, evening3]
    total = season_standings([1, 2, 3], nights, SeasonRule.parse("total"))
    assert [(r.entrant, r.points) for r in total] == [(3, 2.0), (1, 1.0), (2, 0.5)]
    best = season_standings([1, 2, 3], nights, SeasonRule.parse("best-of:1"))
    # 1 and 3 level on their best evening: 3 won twice, 1 once.
    assert [(r.entrant, r.points, r.rank) for r in best] == [(3, 1.0, 1), (1, 1.0, 2), (2, 0.5, 3)]
    assert [s.counted for s in best[0].events if s is not None] == [False, True, False]
    points = season_standings([1, 2, 3], nights, SeasonRule.parse("points:10,6,4"))
    assert [(r.entrant, r.points) for r in points] == [(3, 24.0), (1, 16.0), (2, 12.0)]
    assert points[2].events[2] is None  # 2 did not play evening 3
    assert str(SeasonRule.parse("points:10,6,4")) == "points:10,6,4"
    with pytest.raises(UsageError, match="is not 'total'"):
        SeasonRule.parse("best-of:two")
