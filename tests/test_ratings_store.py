"""Ratings in storage: rebuilding from stored results, corrections, the leaderboard,
predictions, and the ``c8league ratings`` commands. The storage tests run on SQLite
and, when a server is given (see ``conftest.py``), on PostgreSQL."""

from __future__ import annotations

import csv
import io
import itertools
import json
import random
from dataclasses import dataclass
from pathlib import Path

import pytest
from dbs import record_placed
from shown import TRUESKILL, assert_shown
from sqlmodel import Session, col, select

from c8league.cli.main import main
from c8league.errors import NotFoundError, UsageError
from c8league.ratings import Rating as RatingValue
from c8league.ratings.leaderboard import leaderboard
from c8league.ratings.predict import predict_table
from c8league.ratings.update import ResultWriter, model_for, rebuild_ratings, record_results
from c8league.results import Forfeit, HandReport, Result
from c8league.storage import Database, open_database
from c8league.storage.leagues import only_league as resolve_league
from c8league.storage.models import (
    Entrant,
    Event,
    League,
    LeagueEntrant,
    Match,
    MatchSeat,
    Rating,
    RatingHistory,
    Round,
)

NAMES = ["Ada", "Bo", "Cy", "Di", "Ed", "Flo"]


@dataclass
class Built:
    db: Database
    league_id: int
    matches: list[int]


def rating_json(system: str = "trueskill") -> str:
    settings = {
        "system": system,
        "mu": 25.0,
        "sigma": 25.0 / 3,
        "beta": 25.0 / 6,
        "tau": 25.0 / 300,
        "draw_probability": 0.1,
        "backend": None,
    }
    return json.dumps(settings)


def build(
    db_url: str | Path,
    *,
    system: str = "trueskill",
    matches: int = 40,
    seed: int = 3,
    league: str = "club",
) -> Built:
    """A league of six entrants and ``matches`` results at tables of 2 to 4 seats, with
    ties and forfeits, stored one by one as the runner stores them."""
    db = open_database(str(db_url))
    rng = random.Random(seed)
    ids: list[int] = []
    with db.session() as s:
        lg = League(
            name=league,
            title=league.title(),
            preset="pagat",
            rules="{}",
            table_sizes="[4, 3, 2]",
            rating=rating_json(system),
        )
        s.add(lg)
        s.flush()
        assert lg.id is not None
        for name in NAMES:
            entrant = s.exec(select(Entrant).where(Entrant.name == name)).first()
            if entrant is None:
                entrant = Entrant(name=name, kind="person")
                s.add(entrant)
                s.flush()
            s.add(LeagueEntrant(league_id=lg.id, entrant_id=entrant.id))
        ev = Event(league_id=lg.id, name="open", format="swiss", table_size=4, played_by="people")
        s.add(ev)
        s.flush()
        rnd = Round(event_id=ev.id, number=1)
        s.add(rnd)
        s.flush()
        s.commit()
        model = model_for(lg)
        entrants = {e.name: e.id for e in s.exec(select(Entrant)).all()}
        for number in range(1, matches + 1):
            size = rng.choice([2, 3, 4])
            seated = rng.sample(NAMES, size)
            m = Match(event_id=ev.id, round_id=rnd.id, table_no=number, rules="{}", seed=number)
            s.add(m)
            s.flush()
            assert m.id is not None
            for seat, name in enumerate(seated):
                s.add(MatchSeat(match_id=m.id, seat=seat, entrant_id=entrants[name]))
            s.flush()
            places = [rng.randint(1, size) for _ in seated]
            places = [1 + sorted(places).index(p) for p in places]  # 1, 1, 3 style ties
            forfeit = None
            if number % 9 == 0:
                loser = rng.randrange(size)
                forfeit = Forfeit(loser, rng.choice(["timeout", "crash"]), 3, "gave up")
                places[loser] = size
            hands = [
                HandReport(
                    "out",
                    (0,),
                    tuple(rng.randint(0, 30) for _ in seated),
                    tuple(0 for _ in seated),
                    "{}",
                ),
                HandReport(
                    "blocked",
                    (1,),
                    tuple(0 for _ in seated),
                    tuple(rng.randint(0, 9) for _ in seated),
                    "{}",
                ),
            ]
            record_placed(s, lg, m, places, hands, forfeit, model)
            s.commit()
            ids.append(m.id)
        return Built(db, lg.id, ids)


def snapshot(
    s: Session, league_id: int
) -> tuple[list[tuple[object, ...]], list[tuple[object, ...]]]:
    ratings = [
        (r.entrant_id, r.mu, r.sigma, r.matches)
        for r in s.exec(
            select(Rating).where(Rating.league_id == league_id).order_by(col(Rating.entrant_id))
        ).all()
    ]
    history = [
        (
            h.entrant_id,
            h.match_id,
            h.sequence,
            h.mu_before,
            h.sigma_before,
            h.mu_after,
            h.sigma_after,
        )
        for h in s.exec(
            select(RatingHistory)
            .where(RatingHistory.league_id == league_id)
            .order_by(col(RatingHistory.sequence), col(RatingHistory.entrant_id))
        ).all()
    ]
    return ratings, history


# --- rebuilding ----------------------------------------------------------------------------


@pytest.mark.parametrize("system", ["trueskill", "openskill"])
def test_rebuild_of_unchanged_results_changes_nothing(db_url: str, system: str) -> None:
    # Storing and rebuilding rate through the same RatingLedger.apply; what this checks
    # is that a rebuild rewrites the history and current ratings exactly as stored.
    if system == "openskill":
        pytest.importorskip("openskill")
    built = build(db_url, system=system)
    with built.db.session() as s:
        before = snapshot(s, built.league_id)
        assert len(before[0]) == len(NAMES)
        summary = rebuild_ratings(s, built.league_id)
        s.commit()
    assert summary.matches == 40 and summary.entrants == len(NAMES)
    with built.db.session() as s:
        assert snapshot(s, built.league_id) == before  # exact float equality


def test_rebuild_from_a_sequence_keeps_what_came_before(db_url: str) -> None:
    built = build(db_url)
    with built.db.session() as s:
        early = s.exec(
            select(RatingHistory.id)
            .where(RatingHistory.sequence < 20)
            .order_by(col(RatingHistory.id))
        ).all()
        before = snapshot(s, built.league_id)
        summary = rebuild_ratings(s, built.league_id, from_sequence=20)
        s.commit()
        assert summary.matches == 21
        assert snapshot(s, built.league_id) == before
        still = s.exec(
            select(RatingHistory.id)
            .where(RatingHistory.sequence < 20)
            .order_by(col(RatingHistory.id))
        ).all()
        assert still == early  # untouched rows, not rewritten


def _correct(s: Session, match_id: int, places: list[int]) -> int:
    seats = s.exec(
        select(MatchSeat).where(MatchSeat.match_id == match_id).order_by(col(MatchSeat.seat))
    ).all()
    for seat, place in zip(seats, places, strict=False):
        seat.place = place
        s.add(seat)
    match = s.get(Match, match_id)
    assert match is not None and match.sequence is not None
    return match.sequence


def test_correction_recomputes_what_follows(db_url: str) -> None:
    built = build(db_url)
    target = built.matches[14]
    with built.db.session() as s:
        seats = s.exec(select(MatchSeat).where(MatchSeat.match_id == target)).all()
        reversed_places = [len(seats) + 1 - (seat.place or 1) for seat in seats]
        sequence = _correct(s, target, reversed_places)
        rebuild_ratings(s, built.league_id, from_sequence=sequence)  # uncommitted change seen
        s.commit()
        partial = snapshot(s, built.league_id)
        before_target = [h for h in partial[1] if h[2] < sequence]
    with built.db.session() as s:
        rebuild_ratings(s, built.league_id)
        s.commit()
        full = snapshot(s, built.league_id)
    assert partial == full
    assert [h for h in full[1] if h[2] < sequence] == before_target


def test_voided_result_no_longer_counts(db_url: str) -> None:
    built = build(db_url, matches=12)
    with built.db.session() as s:
        first = s.get(Match, built.matches[0])
        assert first is not None
        seated = s.exec(select(MatchSeat.entrant_id).where(MatchSeat.match_id == first.id)).all()
        matches_before = {
            r.entrant_id: r.matches
            for r in s.exec(select(Rating).where(Rating.league_id == built.league_id)).all()
        }
        first.status = "void"
        s.add(first)
        rebuild_ratings(s, built.league_id, from_sequence=first.sequence)
        s.commit()
        after = {
            r.entrant_id: r.matches
            for r in s.exec(select(Rating).where(Rating.league_id == built.league_id)).all()
        }
        for entrant, count in matches_before.items():
            expected = count - (entrant in seated)
            assert after.get(entrant, 0) == expected
            assert (entrant in after) == (expected > 0)
        voided = s.exec(select(RatingHistory).where(RatingHistory.match_id == first.id)).all()
        assert voided == []


def test_rebuild_of_a_league_without_results_empties_it(tmp_path: Path) -> None:
    built = build(tmp_path / "a.db", matches=3)
    with built.db.session() as s:
        for m in s.exec(select(Match)).all():
            m.status = "void"
            s.add(m)
        summary = rebuild_ratings(s, built.league_id)
        s.commit()
        assert summary.matches == 0
        assert snapshot(s, built.league_id) == ([], [])


def test_rebuild_unknown_league(tmp_path: Path) -> None:
    db = open_database(str(tmp_path / "x.db"))
    with db.session() as s, pytest.raises(NotFoundError):
        rebuild_ratings(s, 99)


def test_leagues_are_separate_pools(db_url: str) -> None:
    one = build(db_url, league="one", seed=1, matches=10)
    two = build(db_url, league="two", seed=2, matches=10)
    with one.db.session() as s:
        before_two = snapshot(s, two.league_id)
        rebuild_ratings(s, one.league_id)
        s.commit()
        assert snapshot(s, two.league_id) == before_two


def test_a_writer_kept_between_batches_reads_again_after_another_writer(db_url: str) -> None:
    # A run's ResultWriter keeps its ratings and next sequence number between batches;
    # a result stored meanwhile by another writer (a hand entry) must be counted.
    built = build(db_url, matches=0)
    rng = random.Random(5)
    with built.db.writing() as s:
        lg = resolve_league(s, "club")
        event = s.exec(select(Event).where(Event.league_id == built.league_id)).one()
        first_round = s.exec(select(Round).where(Round.event_id == event.id)).one()
        entrants = [e.id for e in s.exec(select(Entrant).order_by(col(Entrant.name))).all()]
        ids = []
        for number in range(1, 13):
            m = Match(
                event_id=event.id, round_id=first_round.id, table_no=number, rules="{}", seed=number
            )
            s.add(m)
            s.flush()
            assert m.id is not None
            for seat, entrant in enumerate(rng.sample(entrants, rng.choice([2, 3, 4]))):
                s.add(MatchSeat(match_id=m.id, seat=seat, entrant_id=entrant))
            ids.append(m.id)
    with built.db.session() as s:
        sizes = {
            i: len(s.exec(select(MatchSeat).where(MatchSeat.match_id == i)).all()) for i in ids
        }

    def result(match_id: int) -> Result:
        places = list(range(1, sizes[match_id] + 1))
        rng.shuffle(places)
        hand = HandReport("out", (0,), tuple(0 for _ in places), tuple(0 for _ in places), "{}")
        return Result(tuple(places), tuple(100 - p for p in places), "target", (hand,))

    writer = ResultWriter(lg)
    for batch in (ids[0:3], ids[3:5], [ids[5]], ids[6:9], ids[9:12]):
        with built.db.writing() as s:
            if batch == [ids[5]]:  # another writer, between two batches of the run
                record_results(s, lg, [(s.get(Match, ids[5]), result(ids[5]))])
                continue
            loaded = s.get(Match, batch[0])  # stored by id, given the stored values too
            writer.record(s, [(i, result(i)) for i in batch])
            assert loaded is not None
            assert (loaded.status, loaded.sequence) == ("done", ids.index(batch[0]) + 1)
        writer.committed()
    with built.db.session() as s:
        stored = snapshot(s, built.league_id)
        assert sorted(h[2] for h in stored[1]) == sorted(
            sequence for i in ids for sequence in [ids.index(i) + 1] * sizes[i]
        )
        rebuild_ratings(s, built.league_id)
        s.commit()
        assert snapshot(s, built.league_id) == stored  # as rated one result after another


# --- leaderboard and predictions -----------------------------------------------------------


def test_leaderboard(db_url: str) -> None:
    built = build(db_url)
    with built.db.session() as s:
        rows = leaderboard(s, built.league_id, provisional=20)
        seats = s.exec(select(MatchSeat)).all()
        league = s.get(League, built.league_id)
        assert league is not None
        model = model_for(league)
    assert [r.rank for r in rows] == list(range(1, len(NAMES) + 1))
    keys = [r.conservative for r in rows]
    assert keys == sorted(keys, reverse=True)
    sizes: dict[int, int] = {}
    for seat in seats:
        sizes[seat.match_id] = sizes.get(seat.match_id, 0) + 1
    for row in rows:
        mine = [seat for seat in seats if seat.entrant_id == row.entrant_id]
        assert row.matches == len(mine)
        assert row.wins == sum(seat.place == 1 for seat in mine)
        assert row.win_rate == pytest.approx(row.wins / len(mine))
        assert row.average_place == pytest.approx(sum(seat.place or 0 for seat in mine) / len(mine))
        norm = sum(((seat.place or 1) - 1) / (sizes[seat.match_id] - 1) for seat in mine)
        assert row.average_place_normalised == pytest.approx(norm / len(mine))
        assert row.conservative == pytest.approx(row.mu - 3 * row.sigma)
        assert row.provisional == (row.matches < 20)
        assert row.active
    for upper, lower in itertools.pairwise(rows):
        expected = model.prob_stronger(
            RatingValue(upper.mu, upper.sigma), RatingValue(lower.mu, lower.sigma)
        )
        assert upper.prob_stronger_than_next == pytest.approx(expected)
    assert rows[-1].prob_stronger_than_next is None


def test_predict_table(tmp_path: Path) -> None:
    built = build(tmp_path / "a.db")
    with built.db.session() as s:
        league = resolve_league(s, None)
        s.add(Entrant(name="Newcomer", kind="person"))
        s.commit()
        p = predict_table(s, league, ["Ada", "Bo", "Newcomer"], samples=4000)
        assert 0 < p.quality <= 1
        assert sum(r.win_probability for r in p.rows) == pytest.approx(1)
        assert [r.rated for r in p.rows] == [True, True, False]
        assert (p.rows[2].mu, p.rows[2].sigma) == (25.0, 25.0 / 3)
        with pytest.raises(NotFoundError):
            predict_table(s, league, ["Ada", "Nobody"])
        with pytest.raises(UsageError):
            predict_table(s, league, ["Ada", "Ada"])
        with pytest.raises(UsageError):
            predict_table(s, league, ["Ada"])


def test_resolve_league(tmp_path: Path) -> None:
    db = open_database(str(tmp_path / "x.db"))
    with db.session() as s:
        with pytest.raises(NotFoundError):
            resolve_league(s, None)
        s.add(League(name="a", preset="pagat", rules="{}", table_sizes="[2]", rating="{}"))
        s.add(League(name="b", preset="pagat", rules="{}", table_sizes="[2]", rating="{}"))
        s.commit()
        with pytest.raises(UsageError, match="several leagues"):
            resolve_league(s, None)
        assert resolve_league(s, "b").name == "b"


# --- the command line -----------------------------------------------------------------------


def test_cli_ratings_show_rebuild_predict(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "cli.db"
    build(path)

    def cli(db: Path, *args: str) -> tuple[int, str]:
        code = main(["--db", str(db), *args])
        captured = capsys.readouterr()
        return code, captured.out + captured.err

    code, text = cli(path, "ratings", "show")
    assert code == 0, text
    assert_shown(text, "ratings-show", trueskill=TRUESKILL)

    code, text = cli(path, "ratings", "show", "club", "--json")
    assert code == 0, text
    data = json.loads(text)
    assert [row["rank"] for row in data["entrants"]] == list(range(1, 7))
    assert data["league"] == "club" and data["rating_system"].startswith("trueskill")
    first = data["entrants"][0]
    assert set(first) >= {
        "name",
        "mu",
        "sigma",
        "conservative",
        "matches",
        "wins",
        "win_rate",
        "average_place",
        "average_place_normalised",
        "provisional",
        "prob_stronger_than_next",
    }

    code, text = cli(path, "ratings", "show", "--csv")
    assert code == 0, text
    table = list(csv.DictReader(io.StringIO(text)))
    assert len(table) == 6 and float(table[0]["conservative"]) >= float(table[1]["conservative"])

    code, text = cli(path, "ratings", "rebuild", "club")
    assert code == 0, text
    assert "40 matches" in text
    code, again = cli(path, "ratings", "show", "club", "--json")
    assert json.loads(again) == data

    code, text = cli(path, "ratings", "predict", "Ada", "Bo", "Cy", "--json")
    assert code == 0, text
    prediction = json.loads(text)
    assert [r["name"] for r in prediction["entrants"]] == ["Ada", "Bo", "Cy"]
    assert sum(r["win_probability"] for r in prediction["entrants"]) == pytest.approx(1)
    code, text = cli(path, "ratings", "predict", "Ada", "Bo", "--league", "club")
    assert code == 0 and "quality" in text

    code, text = cli(path, "ratings", "show", "nosuch")
    assert code == 2 and "no league named" in text
