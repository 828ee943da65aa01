"""Rating storage speed: rebuilding a league's ratings from stored results, and its report.

A league of ``--entrants`` entrants (200) with ``--matches`` stored 4-player matches
(100,000) is written straight into a temporary SQLite database: seats with places from
a hidden skill plus noise (about 2% of the matches have a tie, 0.5% a forfeit), and a
few hand rows per match. Then, in the same run:

- the bare ``trueskill`` loop over the same matches, in memory: ``env.rate`` of the
  package, as its user writes it (the reference), before and after the rebuilds;
- ``rebuild_ratings``: read every result, rate it, write the history and the current
  ratings, commit. Once into an empty history (its rows inserted), once over an
  existing one (the usual rebuild: the rows of the same updates rewritten in place).
  The ratio to the bare loop is the target (under 1.1 for TrueSkill); the rebuild's
  own rating arithmetic alone, in memory, is shown beside it (what storage adds is the
  difference);
- the league's report built and rendered as HTML, JSON, Markdown and terminal text
  (target: under 10 s; ``--no-report`` skips it);
- the same rebuild with openskill (Plackett-Luce) when it is installed, against its bare
  loop (``PlackettLuce.rate``), interleaved: bare, rebuild, bare, … (``--repeat``
  rebuilds), each rebuild compared with the mean of the bare loops around it (target:
  under 1.25).

The rebuilt ratings are checked to equal the bare loop's: openskill's exactly,
TrueSkill's to 1e-9 (its bare loop keeps the package's own precision form).

Run: ``python benchmarks/ratings.py [--matches 100000] [--entrants 200] [--hands 3]
[--repeat 3] [--no-report]``.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import random
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import insert, update

from c8league import about
from c8league.engine import Rules
from c8league.ratings.update import rebuild_ratings
from c8league.reports import build_report, render
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

TABLE = 4
TABLES_PER_ROUND = 50

Result = tuple[list[int], list[int]]
"""A match as (entrant ids in seat order, ranks for the rating system)."""


def settings_json(system: str) -> str:
    return json.dumps(
        {
            "system": system,
            "mu": 25.0,
            "sigma": 25.0 / 3,
            "beta": 25.0 / 6,
            "tau": 25.0 / 300,
            "draw_probability": 0.1,
            "backend": None,
        }
    )


def populate(db: Database, matches: int, entrants: int, hands: int, seed: int) -> list[Result]:
    """Write the league and its results; return them as the bare loops take them."""
    rng = random.Random(seed)
    rules = Rules.from_options("pagat", {}).to_json()
    results: list[Result] = []
    with db.engine.begin() as conn:
        conn.execute(
            insert(League),
            [{"name": "bench", "title": "Benchmark League", "preset": "pagat", "rules": rules,
              "table_sizes": "[4]", "rating": settings_json("trueskill"),
              "created_at": datetime.now(UTC)}],
        )  # fmt: skip
        conn.execute(
            insert(Entrant),
            [
                {"id": i, "name": f"entrant-{i:03d}", "kind": "person", "options": "{}",
                 "retired": False, "created_at": datetime.now(UTC)}
                for i in range(1, entrants + 1)
            ],
        )  # fmt: skip
        conn.execute(
            insert(LeagueEntrant),
            [{"league_id": 1, "entrant_id": i, "withdrawn": False} for i in range(1, entrants + 1)],
        )
        conn.execute(
            insert(Event),
            [{"id": 1, "league_id": 1, "name": "marathon", "format": "round_robin", "cycles": 1,
              "rounds": 0, "seed": seed, "duplicate": False, "table_size": TABLE,
              "played_by": "bots", "created_at": datetime.now(UTC)}],
        )  # fmt: skip
        skill = {i: rng.gauss(0.0, 1.0) for i in range(1, entrants + 1)}
        started = datetime(2025, 1, 1, tzinfo=UTC)
        rounds: list[dict[str, Any]] = []
        rows: list[dict[str, Any]] = []
        seats: list[dict[str, Any]] = []
        hand_rows: list[dict[str, Any]] = []
        ids = list(range(1, entrants + 1))
        match_id = 0
        round_no = 0
        while match_id < matches:
            round_no += 1
            rounds.append({"id": round_no, "event_id": 1, "number": round_no, "byes": "[]",
                           "published": True, "created_at": started})  # fmt: skip
            rng.shuffle(ids)
            for table_no in range(min(TABLES_PER_ROUND, entrants // TABLE)):
                if match_id >= matches:
                    break
                match_id += 1
                seated = ids[table_no * TABLE : (table_no + 1) * TABLE]
                perf = [skill[e] + rng.gauss(0.0, 1.0) for e in seated]
                if rng.random() < 0.02:
                    perf[1] = perf[0]
                places = [1 + sum(other > mine for other in perf) for mine in perf]
                forfeit = None
                if rng.random() < 0.005:
                    forfeit = rng.randrange(TABLE)
                    places = [p if s != forfeit else TABLE for s, p in enumerate(places)]
                    others = sorted((p, s) for s, p in enumerate(places) if s != forfeit)
                    for rank, (_, s) in enumerate(others, start=1):
                        places[s] = rank
                ranks = [TABLE + 1 if s == forfeit else p for s, p in enumerate(places)]
                results.append((list(seated), ranks))
                rows.append(
                    {"id": match_id, "event_id": 1, "round_id": round_no, "table_no": table_no + 1,
                     "deal": 0, "rules": rules, "seed": match_id, "status": "done",
                     "ended": "forfeit" if forfeit is not None else "target", "hands": hands,
                     "decisions": 400, "forfeit_seat": forfeit,
                     "forfeit_reason": "timeout" if forfeit is not None else None,
                     "entered_by": "engine", "sequence": match_id,
                     "finished_at": started + timedelta(seconds=match_id)}
                )  # fmt: skip
                for seat, (entrant, place) in enumerate(zip(seated, places, strict=True)):
                    seats.append({"match_id": match_id, "seat": seat, "entrant_id": entrant,
                                  "place": place, "score": 200 - 40 * place})  # fmt: skip
                for number in range(1, hands + 1):
                    winner = rng.randrange(TABLE)
                    points = [rng.randint(10, 80) if s == winner else 0 for s in range(TABLE)]
                    hand_rows.append(
                        {"match_id": match_id, "number": number, "kind": "out",
                         "winners": json.dumps([winner]), "points": json.dumps(points),
                         "penalties": "[0, 0, 0, 0]", "record": "{}"}
                    )  # fmt: skip
        conn.execute(insert(Round), rounds)
        for start in range(0, len(rows), 20000):
            conn.execute(insert(Match), rows[start : start + 20000])
        for start in range(0, len(seats), 50000):
            conn.execute(insert(MatchSeat), seats[start : start + 50000])
        for start in range(0, len(hand_rows), 50000):
            conn.execute(insert(HandRow), hand_rows[start : start + 50000])
    return results


Timing = tuple[float, float]
"""Wall-clock and CPU seconds of this process."""


def clock() -> Timing:
    return time.perf_counter(), time.process_time()


def since(start: Timing) -> Timing:
    return time.perf_counter() - start[0], time.process_time() - start[1]


def bare_trueskill(results: list[Result]) -> tuple[Timing, dict[int, tuple[float, float]]]:
    import trueskill  # type: ignore[import-untyped]

    env = trueskill.TrueSkill(
        mu=25.0, sigma=25.0 / 3, beta=25.0 / 6, tau=25.0 / 300, draw_probability=0.1
    )
    ratings: dict[int, Any] = {}
    start = clock()
    for entrants, ranks in results:
        groups = [(ratings.get(e) or env.create_rating(),) for e in entrants]
        rated = env.rate(groups, ranks=ranks)
        for e, (r,) in zip(entrants, rated, strict=True):
            ratings[e] = r
    return since(start), {e: (r.mu, r.sigma) for e, r in ratings.items()}


def bare_openskill(results: list[Result]) -> tuple[Timing, dict[int, tuple[float, float]]]:
    from openskill.models import PlackettLuce

    model = PlackettLuce(mu=25.0, sigma=25.0 / 3, beta=25.0 / 6, tau=25.0 / 300)
    ratings: dict[int, Any] = {}
    start = clock()
    for entrants, ranks in results:
        teams = [[ratings.get(e) or model.rating()] for e in entrants]
        rated = model.rate(teams, ranks=[float(r) for r in ranks])
        for e, team in zip(entrants, rated, strict=True):
            ratings[e] = team[0]
    return since(start), {e: (r.mu, r.sigma) for e, r in ratings.items()}


def arithmetic_only(results: list[Result], system: str) -> Timing:
    """The rebuild's own rating arithmetic in memory: what it costs without storage."""
    from c8league.ratings.model import RatingModel, RatingSettings
    from c8league.ratings.update import pair_rater

    model = RatingModel(RatingSettings.from_json(settings_json(system)))
    rate = pair_rater(model)
    initial = (25.0, 25.0 / 3)
    ratings: dict[int, tuple[float, float]] = {}
    start = clock()
    for entrants, ranks in results:
        places = [min(r, TABLE) for r in ranks]
        forfeited = [r > TABLE for r in ranks]
        rated = rate([ratings.get(e, initial) for e in entrants], places, forfeited)
        for e, r in zip(entrants, rated, strict=True):
            ratings[e] = r
    return since(start)


def timed_rebuild(db: Database) -> Timing:
    start = clock()
    with db.session() as session:
        rebuild_ratings(session, 1)
        session.commit()
    return since(start)


def mean(a: Timing, b: Timing) -> Timing:
    return (a[0] + b[0]) / 2, (a[1] + b[1]) / 2


def line(label: str, took: Timing, reference: Timing | None = None) -> str:
    text = f"{label:<32}{took[0]:8.2f} s wall {took[1]:8.2f} s CPU"
    if reference is not None:
        text += f"   ratio {took[0] / reference[0]:.3f} wall, {took[1] / reference[1]:.3f} CPU"
    return text


def stored_ratings(db: Database) -> dict[int, tuple[float, float]]:
    with db.engine.connect() as conn:
        rows = conn.exec_driver_sql(
            "SELECT entrant_id, mu, sigma FROM rating WHERE league_id = 1"
        ).all()
    return {int(e): (float(mu), float(sigma)) for e, mu, sigma in rows}


def timed(action: Callable[[], object]) -> Timing:
    start = clock()
    action()
    return since(start)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--matches", type=int, default=100_000)
    parser.add_argument("--entrants", type=int, default=200)
    parser.add_argument("--hands", type=int, default=3, help="hand rows stored per match")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-report", action="store_true", help="skip the report's timing")
    parser.add_argument(
        "--repeat", type=int, default=3, help="openskill rebuilds, each between two bare loops"
    )
    args = parser.parse_args()
    print(about.header(), flush=True)

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench.db"
        db = open_database(str(path))
        start = time.perf_counter()
        results = populate(db, args.matches, args.entrants, args.hands, args.seed)
        print(
            f"stored {len(results):,} matches of {TABLE} among {args.entrants} entrants "
            f"({args.hands} hands each) in {time.perf_counter() - start:.1f} s"
        )

        # The machine may be busy: the reference is measured before and after the
        # rebuilds, and each rebuild is compared with the mean of the two; CPU time of
        # this process is shown beside wall-clock time.
        bare_before, expected = bare_trueskill(results)
        first = timed_rebuild(db)
        again = timed_rebuild(db)
        bare_after, _ = bare_trueskill(results)
        bare = mean(bare_before, bare_after)
        per_match = 1e6 * bare[0] / len(results)
        print(line("bare trueskill loop", bare) + f"   ({per_match:.0f} µs/match wall; runs "
              f"{bare_before[0]:.2f} s and {bare_after[0]:.2f} s)")  # fmt: skip
        print(line("rebuild_ratings, empty history", first, bare))
        print(line("rebuild_ratings, over history", again, bare))
        alone = arithmetic_only(results, "trueskill")
        print(line("its arithmetic alone, in memory", alone, bare))
        print(f"over history: {again[0] / bare[0]:.3f} of the bare loop (target: under 1.1); "
              f"storage adds {again[1] - alone[1]:.2f} s CPU to the arithmetic alone")  # fmt: skip
        # The bare loop keeps trueskill's own Rating objects (precision and precision
        # mean); storage keeps mu and sigma, so the two agree to the last bits only.
        stored = stored_ratings(db)
        worst = max(
            max(abs(stored[e][0] - mu), abs(stored[e][1] - sigma))
            for e, (mu, sigma) in expected.items()
        )
        if set(stored) != set(expected) or worst > 1e-9:
            print(f"MISMATCH: rebuilt ratings differ from the bare trueskill loop by {worst}")
            return 1
        print(f"rebuilt ratings equal the bare loop's to {worst:.1e}")

        if not args.no_report:
            # The report as `c8league report bench --out report.html` makes it: the league's
            # report built from storage, then rendered (the first rendering of a page also
            # imports jinja2 and matplotlib).
            timings: dict[str, Timing] = {}
            report_box: list[Any] = []
            timings["build"] = timed(lambda: report_box.append(build_report(db, "bench")))
            report = report_box[0]
            for fmt in ("html", "json", "md", "terminal"):
                timings[fmt] = timed(lambda fmt=fmt: render(report, fmt))
            html = render(report, "html")
            total = (
                timings["build"][0] + timings["html"][0],
                timings["build"][1] + timings["html"][1],
            )
            print(line("report: build", timings["build"]))
            for fmt in ("html", "json", "md", "terminal"):
                print(line(f"report: render {fmt}", timings[fmt]))
            print(line("report: HTML page in all", total) + f"   ({len(html) / 1e6:.1f} MB)")

        if importlib.util.find_spec("openskill") is None:
            print("openskill: not installed, skipped")
            return 0
        # As for TrueSkill: the bare loop before and after each rebuild, interleaved, and
        # each rebuild compared with the mean of the two around it.
        with db.engine.begin() as conn:
            conn.execute(update(League).values(rating=settings_json("openskill")))
        timed_rebuild(db)  # the history now holds openskill's ratings
        bare_runs: list[Timing] = []
        rebuilds: list[Timing] = []
        bare_took, expected_os = bare_openskill(results)
        bare_runs.append(bare_took)
        for _ in range(args.repeat):
            rebuilds.append(timed_rebuild(db))
            bare_runs.append(bare_openskill(results)[0])
        in_memory = arithmetic_only(results, "openskill")
        for run, took in enumerate(rebuilds):
            around = mean(bare_runs[run], bare_runs[run + 1])
            print(line("bare openskill loop", around) + f"   (runs {bare_runs[run][0]:.2f} s "
                  f"and {bare_runs[run + 1][0]:.2f} s)")  # fmt: skip
            print(line("rebuild_ratings (openskill)", took, around))
        print(line("its arithmetic alone, in memory", in_memory, mean(bare_runs[0], bare_runs[-1])))
        cpu = sorted(took[1] for took in rebuilds)[len(rebuilds) // 2]
        print(
            f"storage adds {cpu - in_memory[1]:.2f} s CPU to the arithmetic alone (median rebuild)"
        )
        stored = stored_ratings(db)
        if stored != expected_os:
            print("MISMATCH: rebuilt ratings differ from the bare openskill loop")
            return 1
        print("rebuilt ratings equal the bare openskill loop's exactly")
        db.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
