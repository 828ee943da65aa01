"""How a rebuild reads results and writes the history: the seats it replays are those of
``rated_seats``; a history rewritten in place equals one written afresh; an openskill
league's stored ratings equal ``RatingModel.rate`` applied in order. On SQLite and, when
a server is given, on PostgreSQL."""

from __future__ import annotations

import itertools
import json
import math
from operator import attrgetter

import pytest
from sqlmodel import col, select
from test_ratings_store import build, snapshot

from c8league.ratings.model import Rating, RatingError, RatingModel, RatingSettings
from c8league.ratings.update import model_for, pair_rater, rebuild_ratings
from c8league.results import forfeit_seats
from c8league.storage import ratings as stored_ratings
from c8league.storage.leagues import league_by_id
from c8league.storage.models import League, Match, RatingHistory
from c8league.storage.results import rated_seats


def test_rated_results_are_the_rated_seats_by_match(db_url: str) -> None:
    built = build(db_url, matches=20)
    with built.db.session() as s:
        match = s.get(Match, built.matches[4])
        assert match is not None
        match.status = "void"  # not replayed
        s.add(match)
        s.flush()
        for start in (None, 7):
            seats = rated_seats(s, built.league_id, start)
            expected = [
                (
                    group[0].match_id,
                    group[0].sequence,
                    [seat.entrant_id for seat in group],
                    [seat.place for seat in group],
                    group[0].forfeit_seat,
                )
                for _, grouped in itertools.groupby(seats, key=attrgetter("match_id"))
                for group in [list(grouped)]
            ]
            assert stored_ratings.rated_results(s, built.league_id, start) == expected
            assert len(expected) == (19 if start is None else 14)


def new_beta(league: League) -> None:
    settings = json.loads(league.rating)
    settings["beta"] = 3.0
    league.rating = json.dumps(settings)


def test_a_history_rewritten_in_place_equals_one_written_afresh(db_url: str) -> None:
    built = build(db_url, matches=25)
    with built.db.session() as s:
        ids = s.exec(select(RatingHistory.id).order_by(col(RatingHistory.id))).all()
        # New settings: every figure changes, the rows stay where they are.
        league = league_by_id(s, built.league_id)
        new_beta(league)
        s.add(league)
        rebuild_ratings(s, built.league_id)
        s.commit()
        in_place = snapshot(s, built.league_id)
        assert s.exec(select(RatingHistory.id).order_by(col(RatingHistory.id))).all() == ids
        # The same history written into an empty table.
        for row in s.exec(select(RatingHistory)).all():
            s.delete(row)
        s.flush()
        rebuild_ratings(s, built.league_id)
        s.commit()
        assert snapshot(s, built.league_id) == in_place
        assert in_place != ([], [])


def test_a_loaded_history_row_reads_what_was_rewritten(db_url: str) -> None:
    built = build(db_url, matches=6)
    with built.db.session() as s:
        row = s.exec(select(RatingHistory).order_by(col(RatingHistory.id))).first()
        assert row is not None
        before = row.mu_after
        league = league_by_id(s, built.league_id)
        new_beta(league)
        s.add(league)
        rebuild_ratings(s, built.league_id)
        assert row.mu_after != before
        stored = s.connection().exec_driver_sql(
            f"SELECT mu_after FROM rating_history WHERE id = {row.id}"
        )
        assert row.mu_after == stored.scalar_one()


def test_openskill_ratings_are_the_models(db_url: str) -> None:
    pytest.importorskip("openskill")
    built = build(db_url, system="openskill", matches=40)
    with built.db.session() as s:
        rebuild_ratings(s, built.league_id)
        s.commit()
        league = s.get(League, built.league_id)
        assert league is not None
        model = model_for(league)
        expected: dict[int, Rating] = {}
        for seats in itertools.groupby(rated_seats(s, built.league_id), key=attrgetter("match_id")):
            group = list(seats[1])
            places = [seat.place for seat in group]
            lost = forfeit_seats(places, group[0].forfeit_seat)
            before = [expected.get(seat.entrant_id, model.initial()) for seat in group]
            after = model.rate(before, places, [i in lost for i in range(len(group))])
            for seat, rating in zip(group, after, strict=True):
                expected[seat.entrant_id] = rating
        stored = stored_ratings.current(s, built.league_id)
        assert {e: (r.mu, r.sigma) for e, r in expected.items()} == {
            e: (mu, sigma) for e, (mu, sigma, _) in stored.items()
        }


def test_what_the_fast_update_does_not_take_goes_through_the_model() -> None:
    pytest.importorskip("openskill")
    model = RatingModel(RatingSettings(system="openskill"))
    rate = pair_rater(model)
    start = (model.initial().mu, model.initial().sigma)
    for places in ([1, 0], [1, None], [True, 2], [1, 3], [1]):
        with pytest.raises(RatingError) as raised:
            rate([start, start], places, [False, False])  # type: ignore[list-item]
        with pytest.raises(RatingError) as expected:
            model.rate([model.initial()] * 2, places, [False, False])  # type: ignore[list-item]
        assert str(raised.value) == str(expected.value)
    with pytest.raises(RatingError):  # an impossible rating
        rate([(math.inf, 1.0), start], [1, 2], [False, False])
    assert rate([start, start], [2, 1], [True, False]) == [
        (r.mu, r.sigma) for r in model.rate([model.initial()] * 2, [2, 1], [True, False])
    ]
