"""``ratings fit``: a league's β (and τ) fitted to its own results by how well the
ratings before each match predicted it; kept only with ``--apply``."""

from __future__ import annotations

import json
import math
import random
import sqlite3
from pathlib import Path
from statistics import NormalDist

import pytest

from c8league.cli.main import main
from c8league.ratings.fit import Rated, fit, fitness
from c8league.ratings.model import RatingSettings


def simulated(beta: float, *, players: int = 24, matches: int = 1500, seed: int = 1) -> list[Rated]:
    """A people's league as TrueSkill's own model has it: skills drawn once from its
    prior, each match's performance the skill plus noise of spread ``beta``, two seats
    within its draw margin tied (a draw probability of 0.10), four at a table."""
    rng = random.Random(seed)
    skills = [rng.gauss(25.0, 25.0 / 3.0) for _ in range(players)]
    margin = NormalDist().inv_cdf(1.10 / 2) * math.sqrt(2) * beta
    results = []
    for _ in range(matches):
        table = rng.sample(range(players), 4)
        shown = [skills[p] + rng.gauss(0.0, beta) for p in table]
        order = sorted(range(4), key=lambda i: -shown[i])
        places = [0] * 4
        place = 1
        for k, seat in enumerate(order):
            if k and shown[order[k - 1]] - shown[seat] >= margin:
                place = k + 1
            places[seat] = place
        results.append(Rated(tuple(table), tuple(places), (False,) * 4))
    return results


@pytest.mark.parametrize("beta", [2.0, 8.0])
def test_the_fit_recovers_the_beta_the_results_were_drawn_with(beta: float) -> None:
    results = simulated(beta)
    done = fit(results, RatingSettings(tau=0.0))
    assert abs(done.after.beta - beta) <= 0.15 * beta, done.after.beta
    assert done.after.log_loss <= done.before.log_loss
    assert not done.tau_fitted and done.after.tau == 0.0


def test_calibration_bins_count_every_pair_once() -> None:
    results = simulated(4.0, matches=200)
    judged = fitness(results, RatingSettings(tau=0.0))
    assert judged.pairs == 200 * 6
    assert 0 < sum(b.pairs for b in judged.bins) <= judged.pairs  # (the pairs not tied)
    assert all(0.5 <= b.predicted <= 1.0 for b in judged.bins if b.pairs)
    assert 0.0 <= judged.calibration_error <= 0.5


def ladder(tmp_path: Path) -> str:
    league = tmp_path / "lad.toml"
    league.write_text(
        'name = "lad"\ntable_size = 2\n[rules]\npreset = "basic"\n[rating]\ntau = 0\n'
        '[[entrants]]\nname = "Greedy"\nbot = "greedy"\n'
        '[[entrants]]\nname = "Random"\nbot = "random"\n'
        '[[entrants]]\nname = "Playable"\nbot = "random"\noptions = { playable_first = true }\n'
    )
    url = f"sqlite:///{tmp_path / 'lad.db'}"
    assert main(["--db", url, "league", "import", str(league)]) == 0
    assert main(["--db", url, "ladder", "run", "lad", "--matches", "64", "--workers", "1"]) == 0
    return url


def test_fit_changes_nothing_without_apply_and_keeps_the_values_with_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = ladder(tmp_path)
    path = url.removeprefix("sqlite:///")

    def rating() -> dict[str, float]:
        with sqlite3.connect(path) as con:
            (text,) = con.execute("SELECT rating FROM league WHERE name = 'lad'").fetchone()
        return json.loads(text)  # type: ignore[no-any-return]

    capsys.readouterr()
    assert main(["--db", url, "ratings", "fit", "lad", "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["applied"] is False and shown["before"]["beta"] == pytest.approx(25 / 6)
    assert shown["after"]["pairs"] == shown["before"]["pairs"] > 0
    assert rating()["beta"] == pytest.approx(25 / 6), "nothing kept without --apply"

    assert main(["--db", url, "ratings", "fit", "lad", "--apply"]) == 0
    assert "kept; ratings rebuilt" in capsys.readouterr().err
    assert rating()["beta"] == pytest.approx(shown["after"]["beta"])
    assert main(["--db", url, "league", "history", "lad", "--json"]) == 0
    trail = json.loads(capsys.readouterr().out)
    assert any(entry["action"] == "ratings fitted" for entry in trail), trail
    assert main(["--db", url, "ratings", "predict", "Greedy", "Random", "--league", "lad"]) == 0
    assert f"β {shown['after']['beta']:.3g} (the league's" in capsys.readouterr().out
    assert main(["--db", url, "verify"]) == 0


def test_fit_of_an_unknown_league_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = ladder(tmp_path)
    capsys.readouterr()
    assert main(["--db", url, "ratings", "fit", "nope"]) != 0
    err = capsys.readouterr().err
    assert err.startswith("error: ") and err.count("\n") == 1, err
