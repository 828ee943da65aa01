"""A verdict over many forfeits cannot mislead: forfeits per side in the verdict's block
(``duel show``, ``duel list``, ``--json``), and ``--max-forfeit-share``: over it, no
verdict, exit 3 and one line naming the share and who forfeited."""

from __future__ import annotations

import json
import math
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from clis import cli
from shown import assert_shown

from c8league.duel.forfeits import Forfeits, ForfeitShare
from c8league.duel.plan import DuelSettings
from c8league.duel.specs import Bot
from c8league.engine import Move, Observation
from c8league.engine.cards import Rank, Suit
from c8league.players import registry
from c8league.players.base import BasePlayer

from .test_duel import dump


class Shaky(BasePlayer):
    """Plays its first legal move, and crashes in the first hand of a match whenever it
    is to move holding the queen of spades: it forfeits some matches, the same ones
    every run."""

    def choose(self, observation: Observation, legal: Sequence[Move]) -> Move:
        if observation.hand_number == 0 and any(
            c.rank is Rank.Q and c.suit is Suit.S for c in observation.hand
        ):
            raise RuntimeError("queen trouble")
        return legal[0]


class Explodes(BasePlayer):
    def choose(self, observation: Observation, legal: Sequence[Move]) -> Move:
        raise RuntimeError("boom")


@pytest.fixture(autouse=True)
def faulty_bots() -> Iterator[None]:
    registry.register("shaky", Shaky)
    registry.register("explodes", Explodes)
    try:
        yield
    finally:
        registry.unregister("shaky")
        registry.unregister("explodes")


def shown_json(db: Path, capsys: pytest.CaptureFixture[str], *args: str) -> Any:
    capsys.readouterr()
    assert cli(db, *args, "--json") == 0
    return json.loads(capsys.readouterr().out)


def test_a_test_decided_over_many_forfeits_gives_no_verdict(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The issue's case: H0 "accepted" over forfeits with --max-forfeits 0. The test
    decides (judged at its end: an uncapped test can always play on), the share of
    forfeits is over 5%: no verdict, exit 3, one line naming the share and who."""
    db = tmp_path / "d.db"
    args = ["duel", "shaky", "greedy", "--sprt", "elo0=0 elo1=100", "--max-forfeits", "0"]
    assert cli(db, *args, "--workers", "1") == 3
    captured = capsys.readouterr()
    err = [line for line in captured.err.splitlines() if line.strip()]
    assert err[-1] == (
        "error: duel duel-1 has no verdict: 5 of 18 games forfeited (27.78 %: A 5, B 0), "
        "more than the --max-forfeit-share of 5.00 %"
    )
    assert [line for line in err if line.startswith("error")] == [err[-1]]
    assert "Traceback" not in captured.err + captured.out
    assert_shown(captured.out, "duel-no-verdict-forfeits")
    capsys.readouterr()
    assert cli(db, "duel", "show", "duel-1") == 0  # a read: exit 0, the same summary
    assert capsys.readouterr().out == captured.out
    data = shown_json(db, capsys, "duel", "show", "duel-1")
    assert data["status"] == "finished" and data["decision"] is None
    assert data["stats"]["sprt"]["decision"] == "H0"  # what the test alone would have said
    assert data["outcome"].startswith("no verdict: 5 of 18 games forfeited (27.78 %: A 5, B 0)")
    assert data["forfeits"] == {"A": 5, "B": 0, "field": 0}
    assert data["forfeit_share"] == {
        "forfeited": 5,
        "games": 18,
        "share": 5 / 18,
        "max": 0.05,
        "exceeded": True,
    }
    capsys.readouterr()
    assert cli(db, "duel", "list") == 0
    assert_shown(capsys.readouterr().out, "duel-list-no-verdict")
    (listed,) = shown_json(db, capsys, "duel", "list")
    assert listed["forfeits"] == data["forfeits"] and listed["decision"] is None
    # A resume plays nothing, and says again that there is no verdict.
    assert cli(db, "duel", "resume", "duel-1") == 3
    err = capsys.readouterr().err.splitlines()
    assert err[0] == "duel duel-1 was already finished: nothing to play"
    assert err[-1].startswith("error: duel duel-1 has no verdict: 5 of 18 games forfeited")


def test_a_duel_ends_as_soon_as_its_forfeits_are_certain_to_exceed_the_share(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """50 games at most, 5%: three forfeits are more than 2.5, whatever the rest; the
    duel ends at the pair that takes it past them, stored finished without a verdict.
    B's forfeits are B's."""
    db = tmp_path / "d.db"
    assert cli(db, "duel", "greedy", "shaky", "--games", "50", "--workers", "2") == 3
    captured = capsys.readouterr()
    assert captured.err.splitlines()[-1] == (
        "error: duel duel-1 has no verdict: 4 of 10 games forfeited (40.00 %: A 0, B 4), "
        "more than the --max-forfeit-share of 5.00 %"
    )
    assert captured.out.splitlines()[-3:] == [
        "Forfeits: A 0, B 4 (40.00 % of 10 games; a verdict allows 5.00 % at most)",
        "  B exception: 4 (first: match duel-1:0B, move 1: RuntimeError: queen trouble)",
        "No verdict: 4 forfeited games were already more than 5.00 % of the 50 the duel could "
        "play (--max-forfeit-share), so it ended there; mend the bot, then c8league duel "
        "resume duel-1 --new-version plays again the games it forfeited",
    ]
    data = shown_json(db, capsys, "duel", "show", "duel-1")
    assert data["status"] == "finished" and data["stats"]["games"] == 10
    assert data["decision"] is None and data["outcome"].startswith("no verdict: ")


def test_the_share_allowed_is_kept_with_the_duel_and_a_verdict_is_given_under_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--max-forfeit-share 0.6 lets the same duel decide; a resume (after a streak of
    forfeits stopped its run) keeps the share given at the start."""
    db = tmp_path / "d.db"
    args = ["duel", "shaky", "greedy", "--sprt", "elo0=0 elo1=100", "--workers", "1"]
    assert cli(db, *args, "--max-forfeits", "0", "--max-forfeit-share", "0.6") == 0
    assert capsys.readouterr().out.splitlines()[-3:] == [
        "Forfeits: A 5, B 0 (27.78 % of 18 games; a verdict allows 60.00 % at most)",
        "  A exception: 5 (first: match duel-1:0A, move 1: RuntimeError: queen trouble)",
        "SPRT ([0.00, 100.00]) completed - H0 was accepted",
    ]
    assert shown_json(db, capsys, "duel", "show", "duel-1")["decision"] == "H0"
    # A streak stops the run; the resume keeps --max-forfeit-share 0.6.
    assert cli(db, *args, "--max-forfeits", "2", "--max-forfeit-share", "0.6") == 3
    assert "forfeited 2 matches in a row" in capsys.readouterr().err
    assert shown_json(db, capsys, "duel", "show", "duel-2")["status"] == "playing"
    assert cli(db, "duel", "resume", "duel-2", "--max-forfeits", "0", "--workers", "1") == 0
    resumed = shown_json(db, capsys, "duel", "show", "duel-2")
    assert resumed["max_forfeit_share"] == 0.6 and resumed["decision"] == "H0"
    assert resumed["stats"] == shown_json(db, capsys, "duel", "show", "duel-1")["stats"]


def test_no_forfeit_allowed_ends_an_uncapped_test_at_the_first(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "d.db"
    args = ["duel", "explodes", "greedy", "--max-forfeit-share", "0", "--workers", "1"]
    assert cli(db, *args) == 3
    captured = capsys.readouterr()
    assert captured.err.splitlines()[-1] == (
        "error: duel duel-1 has no verdict: 2 of 2 games forfeited (100.00 %: A 2, B 0), "
        "more than the --max-forfeit-share of 0.00 %"
    )
    assert captured.out.splitlines()[-1] == (
        "No verdict: more than 0.00 % of the games were forfeited (--max-forfeit-share); "
        "mend the bot, then c8league duel resume duel-1 --new-version plays again the games "
        "it forfeited"
    )
    assert shown_json(db, capsys, "duel", "show", "duel-1")["stats"]["games"] == 2


def test_the_field_forfeits_count_as_the_field(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "d.db"
    args = ["duel", "greedy", "random", "-p", "3", "--field", "shaky", "--games", "20"]
    assert cli(db, *args, "--workers", "1", "--max-forfeits", "0", "--max-forfeit-share", "1") == 0
    out = capsys.readouterr().out
    data = shown_json(db, capsys, "duel", "show", "duel-1")
    field = data["forfeits"]["field"]
    assert field > 0 and data["forfeits"]["A"] == data["forfeits"]["B"] == 0
    assert f"Forfeits: A 0, B 0, field {field} (" in out
    assert data["forfeit_share"]["forfeited"] == field


@pytest.mark.parametrize("value", ["1.5", "-0.1", "nan", "lots"])
def test_a_bad_share_is_one_line_and_changes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], value: str
) -> None:
    db = tmp_path / "d.db"
    assert cli(db, "duel", "greedy", "random", "--games", "2") == 0
    before = dump(db)
    capsys.readouterr()
    assert cli(db, "duel", "greedy", "random", "--max-forfeit-share", value) == 2
    err = [line for line in capsys.readouterr().err.splitlines() if line.strip()]
    assert len(err) == 1 and "--max-forfeit-share" in err[0], err
    assert dump(db) == before


# -- the share, exactly ---------------------------------------------------------------------


def test_the_share_is_judged_exactly() -> None:
    one, two = Forfeits(a=1), Forfeits(a=1, b=1)
    assert not ForfeitShare(one, 20, 0.05).exceeded  # 5% exactly is allowed
    assert ForfeitShare(two, 20, 0.05).exceeded
    assert ForfeitShare(one, 19, 0.05).exceeded
    assert not ForfeitShare(Forfeits(), 0, 0.0).exceeded
    assert ForfeitShare(Forfeits(), 0, 0.05).share is None
    # certain: whatever the games still to play
    assert not ForfeitShare(two, 4, 0.05).certain(40)  # 2 of 40 would be 5%
    assert ForfeitShare(Forfeits(a=2, field=1), 4, 0.05).certain(40)
    assert not ForfeitShare(Forfeits(a=100), 100, 0.05).certain(None)
    assert ForfeitShare(one, 100, 0.0).certain(None)
    assert not ForfeitShare(Forfeits(), 100, 0.0).certain(None)
    assert math.isclose(ForfeitShare(two, 8, 0.05).share or 0, 0.25)


def test_a_duel_stored_before_the_share_was_kept_reads_the_default() -> None:
    settings = DuelSettings(
        Bot("a", "a"), Bot("b", "b"), (), 2, "{}", "pagat", 0, 10, None, None, None
    )
    data = json.loads(settings.to_json())
    assert data["max_forfeit_share"] == 0.05 and "book" not in data
    del data["max_forfeit_share"]
    assert DuelSettings.from_json(json.dumps(data)).max_forfeit_share == 0.05
    kept = DuelSettings.from_json(settings.to_json().replace("0.05", "0.25"))
    assert kept.max_forfeit_share == 0.25
