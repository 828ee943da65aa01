"""Deal books: ``duel book`` writes the deals of a seed to a file, ``--deals FILE`` plays
them in order; a bad book is one line naming the file, the field and why."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from clis import cli

from c8league.cli.main import main
from c8league.duel.book import deal_seed, first_hand, load_book
from c8league.engine import Rules
from c8league.players import registry
from c8league.players.base import BasePlayer
from c8league.players.greedy import GreedyPlayer

from .test_duel import dump


def shown_json(db: Path, capsys: pytest.CaptureFixture[str], *args: str) -> Any:
    capsys.readouterr()
    assert cli(db, *args, "--json") == 0
    return json.loads(capsys.readouterr().out)


def write(tmp_path: Path, capsys: pytest.CaptureFixture[str], *args: str) -> Path:
    book = tmp_path / "book.json"
    assert cli(tmp_path / "unused.db", "duel", "book", "--out", str(book), *args) == 0
    capsys.readouterr()
    return book


def match_json(db: Path, capsys: pytest.CaptureFixture[str], match: str) -> Any:
    capsys.readouterr()
    assert cli(db, "match", "show", match, "--format", "json") == 0
    return json.loads(capsys.readouterr().out)


def deals_of(db: Path, capsys: pytest.CaptureFixture[str], name: str) -> list[tuple[Any, ...]]:
    """Each stored pair of duel ``name``: its deal, seat, shares and the two matches'
    seeds and results, as ``duel show`` and ``match show`` give them."""
    data = shown_json(db, capsys, "duel", "show", name)
    found = []
    for pair in data["pairs"]:
        matches = [match_json(db, capsys, m) for m in pair["matches"]]
        found.append(
            (
                pair["deal"],
                pair["seat"],
                pair["share_a"],
                pair["share_b"],
                *((m["seed"], m["result"]["placements"], m["result"]["scores"]) for m in matches),
            )
        )
    return found


def test_a_book_of_a_seed_holds_the_deals_a_duel_of_that_seed_plays(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    book = tmp_path / "book.json"
    args = ["duel", "book", "--seed", "7", "--deals", "30", "--out", str(book)]
    assert cli(tmp_path / "d.db", *args) == 0
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == (
        f"wrote {book}: 30 deals of seed 7 (pagat, 2 players), digest "
        f"{load_book(book).digest[:16]}\n"
    )
    assert not (tmp_path / "d.db").exists()  # a book needs no database
    data = json.loads(book.read_text())
    assert [data[key] for key in ("format", "version", "rules", "set", "players", "seed")] == [
        "c8league deal book",
        1,
        "pagat",
        [],
        2,
        7,
    ]
    assert [deal["seed"] for deal in data["deals"]] == [deal_seed(7, i) for i in range(30)]
    hands, top = first_hand(Rules.from_options("pagat"), 2, deal_seed(7, 0))
    assert data["deals"][0] == {"seed": deal_seed(7, 0), "hands": list(hands), "top": top}
    assert len(book.read_text().splitlines()) == 30 + 10  # one deal a line
    # The duel on the book plays the deals of --seed 7, pair for pair.
    on_book, on_seed = tmp_path / "book.db", tmp_path / "seed.db"
    duel = ["duel", "greedy", "random:playable_first=true", "--games", "20", "--workers", "2"]
    assert cli(on_book, *duel, "--deals", str(book)) == 0
    out = capsys.readouterr().out
    assert out.startswith(
        "Results of greedy vs random:playable_first=true (duel-1: pagat, 2 players, book "
        f"book.json {load_book(book).digest[:12]}):\n"
    )
    assert cli(on_seed, *duel, "--seed", "7") == 0
    assert deals_of(on_book, capsys, "duel-1") == deals_of(on_seed, capsys, "duel-1")
    data = shown_json(on_book, capsys, "duel", "show", "duel-1")
    assert data["book"] == {"name": "book.json", "digest": load_book(book).digest, "deals": 30}
    # The file again: refused, unless --force.
    assert cli(tmp_path / "d.db", *args) == 2
    assert (
        capsys.readouterr().err
        == f"error: {book} exists: choose another file, or --force to replace it\n"
    )
    assert cli(tmp_path / "d.db", *args, "--deals", "3", "--force") == 0
    assert len(load_book(book).seeds) == 3


class Leader(BasePlayer):
    """Another author's bot: plays the last legal move (greedy's opposite in spirit)."""

    def choose(self, observation: Any, legal: Any) -> Any:
        return legal[-1]


def test_two_authors_on_one_book_meet_the_same_deals_deal_by_deal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Two authors, each with their own database, duel their bot against greedy on the
    same book: deal i of one duel is deal i of the other, the same cards from the same
    seat, whatever seed either would have chosen; so their results compare deal by deal.
    The same bot on the same book gives the same pairs, on any number of workers."""
    book = write(tmp_path, capsys, "--seed", "11", "--deals", "40", "--players", "3")
    registry.register("leader", Leader)
    try:
        first, second, again = (tmp_path / f"{who}.db" for who in ("first", "second", "again"))
        args = ["--deals", str(book), "--games", "24", "--field", "random:playable_first=true"]
        assert (
            cli(first, "duel", "random:playable_first=true", "greedy", *args, "--workers", "1") == 0
        )
        assert cli(second, "duel", "leader", "greedy", *args, "--workers", "2") == 0
        assert cli(again, "duel", "leader", "greedy", *args, "--workers", "1") == 0
        one, two = deals_of(first, capsys, "duel-1"), deals_of(second, capsys, "duel-1")
        assert [d[:2] for d in one] == [d[:2] for d in two] == [(i, i % 3) for i in range(12)]
        assert [d[4][0] for d in one] == [d[4][0] for d in two] == list(load_book(book).seeds[:12])
        assert deals_of(again, capsys, "duel-1") == two
        # The same cards: each hand of a match is dealt from the match's seed.
        for name in ("duel-1:5A", "duel-1:5B"):
            starts = [
                {k: v for k, v in match_json(db, capsys, name)["hands"][0].items() if k != "moves"}
                for db in (first, second)
            ]
            assert starts[0] == starts[1]
    finally:
        registry.unregister("leader")


def test_a_duel_never_plays_a_deal_twice(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The book's end ends a test still undecided, as a cap does; more games than the
    book holds are refused."""
    book = write(tmp_path, capsys, "--deals", "5")
    db = tmp_path / "d.db"
    assert cli(db, "duel", "greedy", "greedy", "--deals", str(book), "--workers", "1") == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-1] == "SPRT ([0.00, 5.00]) stopped at the book's end - undecided"
    data = shown_json(db, capsys, "duel", "show", "duel-1")
    assert data["stats"]["games"] == 10 and data["status"] == "finished"
    assert data["outcome"] == "undecided after 10 games (the book's deals all played)"
    assert cli(db, "duel", "greedy", "greedy", "--deals", str(book), "--max-games", "100") == 0
    assert (
        capsys.readouterr().out.splitlines()[-1].endswith("stopped at the book's end - undecided")
    )
    assert cli(db, "duel", "greedy", "greedy", "--deals", str(book), "--max-games", "4") == 0
    assert capsys.readouterr().out.splitlines()[-1].endswith("stopped at the cap - undecided")


def test_a_duel_keeps_its_books_deals(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A duel resumed after its book's file is gone plays the book's deals still."""
    book = write(tmp_path, capsys, "--seed", "3", "--deals", "12")
    whole, cut = tmp_path / "whole.db", tmp_path / "cut.db"
    args = ["greedy", "random:playable_first=true", "--deals", str(book), "--games", "24"]
    assert cli(whole, "duel", *args, "--workers", "1") == 0
    # A bot that cannot start stops the cut duel before its first game; the book's
    # file is then gone, the bot mended, and the duel resumed.
    Later.built = 0
    registry.register("later", Later)
    try:
        assert cli(cut, "duel", "later", *args[1:], "--workers", "1") == 3
    finally:
        registry.unregister("later")
    book.unlink()
    stopped = shown_json(cut, capsys, "duel", "show", "duel-1")
    assert stopped["status"] == "playing" and stopped["stats"]["games"] == 0
    registry.register("later", GreedyPlayer)  # mended: plays as greedy
    try:
        assert cli(cut, "duel", "resume", "duel-1", "--workers", "2") == 0
    finally:
        registry.unregister("later")
    resumed, expected = deals_of(cut, capsys, "duel-1"), deals_of(whole, capsys, "duel-1")
    assert resumed == expected


class Later(BasePlayer):
    """Starts once (when its options are checked), then fails to start."""

    built = 0

    def __init__(self) -> None:
        Later.built += 1
        if Later.built > 1:
            raise RuntimeError("not yet")


# -- bad books and mistakes: one line naming the file and the field -------------------------

GOOD = {
    "format": "c8league deal book",
    "version": 1,
    "rules": "pagat",
    "set": [],
    "players": 2,
    "deals": [{"seed": 5}, {"seed": 9}],
}

BAD_BOOKS: list[tuple[str, Any, str]] = [
    (
        "not json",
        '{"format": "c8league deal book",\n  "deals": [}',
        "line 2, column 13: not valid JSON",
    ),
    ("not an object", "[1, 2]", "(top level): Input should be a valid dictionary"),
    ("no deals", {k: v for k, v in GOOD.items() if k != "deals"}, "deals: Field required"),
    ("empty", {**GOOD, "deals": []}, "deals: List should have at least 1 item"),
    (
        "a seed as text",
        {**GOOD, "deals": [{"seed": 5}, {"seed": "9"}]},
        'deals[1].seed: Input should be a valid integer (got "9")',
    ),
    (
        "a negative seed",
        {**GOOD, "deals": [{"seed": -1}]},
        "deals[0].seed: Input should be greater than or equal to 0 (got -1)",
    ),
    (
        "a seed twice",
        {**GOOD, "deals": [{"seed": 5}, {"seed": 9}, {"seed": 5}]},
        "deals[2].seed: the seed of deals[0] again (each deal is played once)",
    ),
    (
        "an unknown key",
        {**GOOD, "deals": [{"seed": 5, "sede": 1}]},
        "deals[0].sede: Extra inputs are not permitted",
    ),
    (
        "a newer version",
        {**GOOD, "version": 2},
        "version: this c8league reads deal books of version 1, not 2 (a newer c8league wrote it)",
    ),
    ("another format", {**GOOD, "format": "pgn"}, "format: Input should be 'c8league deal book'"),
    ("a boolean", {**GOOD, "players": True}, "players: Input should be a valid integer (got true)"),
    (
        "a table of 9",
        {**GOOD, "players": 9},
        "players: Input should be less than or equal to 8 (got 9)",
    ),
    ("unknown rules", {**GOOD, "rules": "nosuch"}, "rules: unknown rule preset 'nosuch'"),
    ("a bad option", {**GOOD, "set": ["draw=sometimes"]}, "set: "),
    (
        "hands without top",
        {**GOOD, "deals": [{"seed": 5, "hands": ["AS", "KS"]}]},
        "deals[0]: give both `hands` and `top`",
    ),
    ("other cards", None, "deals[1]: seed "),
]


@pytest.mark.parametrize(("what", "content", "message"), BAD_BOOKS, ids=[b[0] for b in BAD_BOOKS])
def test_a_bad_book_is_one_line_and_changes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], what: str, content: Any, message: str
) -> None:
    book = tmp_path / "book.json"
    if content is None:  # a book whose second deal's cards were edited
        text = write(tmp_path, capsys, "--deals", "3").read_text().splitlines()
        deal = json.loads(text[9].rstrip(","))  # deals[1]
        deal["top"] = "KS" if deal["top"] != "KS" else "QS"
        text[9] = json.dumps(deal) + ","
        book.write_text("\n".join(text))
    else:
        book.write_text(content if isinstance(content, str) else json.dumps(content))
    db = tmp_path / "d.db"
    assert cli(db, "duel", "greedy", "random", "--games", "2") == 0
    before = dump(db)
    capsys.readouterr()
    assert cli(db, "duel", "greedy", "random", "--deals", str(book)) == 2
    captured = capsys.readouterr()
    lines = [line for line in captured.err.splitlines() if line.strip()]
    assert len(lines) == 1, captured.err
    assert lines[0].startswith(f"error: {book}: ") and message in lines[0], lines[0]
    assert "Traceback" not in captured.err
    assert dump(db) == before


MISTAKES = [
    (["--seed", "4"], "give --seed or --deals, not both: the book's seeds fix the deals"),
    (["--players", "3"], "--deals book.json is dealt for 2 players, not 3 (--players)"),
    (["--rules", "basic"], "--deals book.json is dealt under the rules pagat, not basic"),
    (
        ["--set", "draw=up_to"],
        "--deals book.json is dealt under the rules pagat, not pagat draw=up_to",
    ),
    (["--games", "12"], "--games 12 needs 6 deals; --deals book.json has 5"),
    (["--deals", "nosuch.json"], "nosuch.json: no such file"),
]


@pytest.mark.parametrize(("args", "message"), MISTAKES, ids=[" ".join(m[0]) for m in MISTAKES])
def test_a_duel_asks_for_what_its_book_was_dealt_for(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    args: list[str],
    message: str,
) -> None:
    write(tmp_path, capsys, "--deals", "5")
    monkeypatch.chdir(tmp_path)
    db = tmp_path / "d.db"
    assert cli(db, "duel", "greedy", "random", "--games", "2") == 0
    before = dump(db)
    capsys.readouterr()
    assert cli(db, "duel", "greedy", "random", "--deals", "book.json", *args) == 2
    lines = [line for line in capsys.readouterr().err.splitlines() if line.strip()]
    assert len(lines) == 1 and message in lines[0], lines
    assert dump(db) == before
    # The rules the book was dealt under, given again, are the book's.
    assert (
        cli(db, "duel", "greedy", "random", "--deals", "book.json", "--rules", "pagat", "-p", "2")
        == 0
    )


def test_book_mistakes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = str(tmp_path / "b.json")
    for args, message in (
        (["--deals", "0"], "--deals"),
        (["--deals", "100001"], "--deals"),
        (["--deals", "3", "--players", "9"], "--players"),
        (["--deals", "3", "--rules", "nosuch"], "unknown rule preset 'nosuch'"),
        (["--deals", "3", "--set", "hand_size=9", "--set", "decks=1", "-p", "7"], "need 64 cards"),
        (["--deals", "3", "--out", str(tmp_path / "no" / "b.json")], "cannot write"),
    ):
        capsys.readouterr()
        assert cli(tmp_path / "d.db", "duel", "book", "--out", out, *args) != 0
        lines = [line for line in capsys.readouterr().err.splitlines() if line.strip()]
        assert len(lines) == 1 and message in lines[0], lines
        assert not Path(out).exists()
    assert not list(tmp_path.glob(".*part"))


def test_the_help_names_the_book_and_what_its_end_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["duel", "run", "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "--deals FILE plays the deals of a book" in text
    assert "a duel never plays a deal twice, so the book's end ends it" in text
