"""Bad input, driven through the command line: people's names, bots' options, numbers
too large for the database, deeply nested or loosely typed league files. Each bad
input gets one line, a non-zero exit, no traceback, and leaves every table of the
database as it was; each good one works end to end."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from dbs import matches_done
from dbs import players as stored_players

from c8league.cli.main import main
from c8league.errors import PluginError
from c8league.players import registry
from c8league.players.base import BasePlayer
from c8league.players.external import ExternalPlayer
from c8league.players.greedy import GreedyPlayer
from c8league.players.random_player import RandomPlayer

LEAGUES = Path(__file__).resolve().parents[1] / "leagues"

try:
    from c8league_montecarlo import MonteCarloPlayer
except ImportError:  # the plugin is not installed: its rows are skipped
    MonteCarloPlayer = None  # type: ignore[assignment,misc]

needs_montecarlo = pytest.mark.skipif(
    MonteCarloPlayer is None, reason="the c8league-montecarlo plugin is not installed"
)


class Picky(BasePlayer):
    """A third-party bot with no declared options: its factory checks them itself."""

    built = 0
    closed = 0

    def __init__(self, level: int = 1) -> None:
        if not 1 <= level <= 3:
            raise ValueError(f"level is 1, 2 or 3, not {level}")
        self.level = level
        Picky.built += 1

    def close(self) -> None:
        Picky.closed += 1


@pytest.fixture(autouse=True)
def players() -> Iterator[None]:
    found: dict[str, Any] = {
        "greedy": GreedyPlayer,
        "random": RandomPlayer,
        "external": ExternalPlayer,
        "picky": Picky,
    }
    if MonteCarloPlayer is not None:
        found["montecarlo"] = MonteCarloPlayer
    with registry.only_registered(found):
        yield


def run(db: Path, *args: str) -> int:
    """Run the command line; a traceback (an exception out of main) fails the test."""
    try:
        return main(["--db", str(db), *args])
    except Exception as exc:  # a traceback is the failure under test
        pytest.fail(f"{' '.join(args)!r} raised {type(exc).__name__}: {exc}")


def dump(db: Path) -> dict[str, list[tuple[object, ...]]]:
    """Every row of every table."""
    con = sqlite3.connect(db)
    try:
        tables = [r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        return {t: sorted(con.execute(f'SELECT * FROM "{t}"').fetchall(), key=repr) for t in tables}
    finally:
        con.close()


def refused(db: Path, capsys: pytest.CaptureFixture[str], args: list[str], needle: str) -> str:
    """``args`` fail with one line holding ``needle``, and the database is unchanged."""
    before = dump(db)
    capsys.readouterr()
    code = run(db, *args)
    err = capsys.readouterr().err
    assert code != 0, err
    assert needle in err, err
    assert err.startswith("error:") and err.strip().count("\n") == 0, err
    assert "Traceback" not in err
    assert dump(db) == before
    return err


def write(tmp_path: Path, text: str, name: str = "league.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


BOTS = """
name = "bots"
table_size = 2

[[entrants]]
name = "G1"
bot = "greedy"
[[entrants]]
name = "G2"
bot = "greedy"
[[entrants]]
name = "R"
bot = "random"
{extra}
[[events]]
name = "ev"
format = "round_robin"
seed = 3
"""


@pytest.fixture
def db(tmp_path: Path) -> Path:
    """A database holding a league of bots and a person."""
    path = tmp_path / "x.db"
    assert run(path, "league", "import", str(write(tmp_path, BOTS.format(extra="")))) == 0
    assert run(path, "players", "add", "Ada") == 0
    return path


@pytest.fixture
def club(tmp_path: Path) -> Path:
    """The 13-person Swiss club with round 1 published."""
    path = tmp_path / "club.db"
    assert run(path, "league", "import", str(LEAGUES / "club-swiss.toml")) == 0
    assert run(path, "event", "pair", "thursday") == 0
    assert run(path, "event", "publish", "thursday") == 0
    return path


def first_table(db: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    capsys.readouterr()
    assert run(db, "event", "sheet", "thursday", "--format", "json") == 0
    tables: list[dict[str, Any]] = json.loads(capsys.readouterr().out)["tables"]
    return tables[0]


# -- 9. names as people write them ------------------------------------------------------

GOOD_NAMES = ["Zoë", "O'Brien", "José García", "Anne-Marie", "J. R. R.", "Łukasz", "李小龍"]


@pytest.mark.parametrize("name", GOOD_NAMES)
def test_people_s_names_are_accepted(
    db: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    assert run(db, "players", "add", name) == 0
    capsys.readouterr()
    assert run(db, "players", "list", "--json") == 0
    assert name in [p["name"] for p in json.loads(capsys.readouterr().out)]


def test_a_club_of_such_names_plays_an_evening(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    people = "\n".join(f'[[entrants]]\nname = "{n}"' for n in GOOD_NAMES[:4])
    league = write(
        tmp_path,
        f'name = "Café Club"\ntable_size = 4\n{people}\n'
        '[[events]]\nname = "jeudi"\nformat = "swiss"\nrounds = 2\n',
    )
    db = tmp_path / "c.db"
    assert run(db, "league", "import", str(league)) == 0
    assert run(db, "event", "pair", "Café Club/jeudi") == 0
    assert run(db, "event", "publish", "jeudi") == 0
    capsys.readouterr()
    assert run(db, "event", "sheet", "jeudi", "--format", "json") == 0
    table = json.loads(capsys.readouterr().out)["tables"][0]
    scores = ",".join(f"{n}={v}" for n, v in zip(table["seats"], [200, 150, 100, 35], strict=True))
    assert run(db, "result", "add", "jeudi", "--table", "1", "--scores", scores) == 0
    assert "1. " + table["seats"][0] + " 200" in capsys.readouterr().err
    # The same name typed decomposed (e + combining diaeresis) is the same person.
    assert run(db, "players", "withdraw", "Zoe\u0308", "--league", "Café Club") == 0


BAD_NAMES = [
    ("", "cannot be empty"),
    (" Ada", "cannot start or end with a space"),
    ("Ada ", "cannot start or end with a space"),
    ("Ada=1", "cannot hold '='"),
    ("Ada,Ben", "cannot hold ','"),
    ("Ada;Ben", "cannot hold ';'"),
    ("blocked:Ada", "cannot hold ':'"),
    ("club/Ada", "cannot hold '/'"),
    ("-Ada", "cannot start with '-'"),
    ("Ada\tLovelace", "control or invisible characters (it holds U+0009)"),
    ("Ada\nLovelace", "control or invisible characters (it holds U+000A)"),
    ("Ada\u202eLovelace", "control or invisible characters (it holds U+202E)"),
    ("Ada\u00a0Lovelace", "plain spaces"),
    ("[red]Ada", "cannot hold '['"),
    ("a[/]b", "cannot hold '['"),
    ("x" * 65, "at most 64 characters"),
]


@pytest.mark.parametrize(("name", "needle"), BAD_NAMES)
def test_names_that_break_the_command_line_are_refused_by_players_add(
    db: Path, capsys: pytest.CaptureFixture[str], name: str, needle: str
) -> None:
    refused(db, capsys, ["players", "add", "--", name], needle)


@pytest.mark.parametrize(("name", "needle"), BAD_NAMES)
def test_names_that_break_the_command_line_are_refused_in_league_files(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, needle: str
) -> None:
    text = BOTS.format(extra=f"[[entrants]]\nname = {json.dumps(name)}\n")
    path = write(tmp_path, text, "names.toml")
    err = refused(db, capsys, ["league", "import", str(path)], needle)
    assert f"{path}: entrants[3]" in err and ".name:" in err


def test_league_and_event_names_follow_the_same_rule(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, BOTS.format(extra="").replace('name = "ev"', 'name = "a/b"'))
    refused(db, capsys, ["league", "import", str(path)], "events[0] (a/b).name: a name cannot")
    path = write(tmp_path, BOTS.format(extra="").replace('name = "bots"', 'name = "b;c"'))
    refused(db, capsys, ["league", "import", str(path)], "name: a name cannot hold ';'")


def test_a_name_typed_in_another_unicode_form_is_the_same_name(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(db, "players", "add", "Zoë") == 0
    refused(db, capsys, ["players", "add", "Zoe\u0308"], "already exists")


def test_scores_name_unknown_people_on_one_line(
    club: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    table = first_table(club, capsys)
    scores = ",".join(f"{n}=1" for n in table["seats"][1:]) + ",Ada\tX=200"
    refused(
        club,
        capsys,
        ["result", "add", "thursday", "--table", "1", "--scores", scores],
        "Ada\\tX not seated",
    )


def test_play_refuses_a_seat_name_that_breaks_the_seat_list(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    refused(db, capsys, ["play", "--name", "Ada,Ben"], "--name 'Ada,Ben': a name cannot hold ','")


# -- 10. bots' options ---------------------------------------------------------------------

BAD_OPTIONS = [
    # (plugin, options, what the line names, why)
    ("external", {"command": "bot", "move_time": -1}, "'move_time': ", "greater than 0"),
    ("external", {"command": ""}, "'command': ", "the command is empty"),
    ("external", {"command": "bot", "memory_mb": -5}, "'memory_mb': ", "or equal to 0"),
    ("external", {"command": "python 'bot.py"}, "'command': ", "No closing quotation"),
    ("external", {"command": "bot", "move_time": "fast"}, "'move_time': ", "not float"),
    ("external", {"move_time": 2}, "needs option(s): ", "command"),
    ("random", {"colour": "red"}, "no option 'colour'", "options: seed, playable_first"),
    ("random", {"seed": 1.5}, "'seed': ", "is not int"),
    ("greedy", {"depth": 2}, "no option 'depth'", "options: none"),
    ("picky", {"level": 7}, "refused these options", "level is 1, 2 or 3, not 7"),
    pytest.param(
        "montecarlo",
        {"playouts": -5},
        "'playouts': ",
        "greater than or equal to 1",
        marks=needs_montecarlo,
    ),
    pytest.param(
        "montecarlo", {"objective": "fun"}, "'objective': ", "'match'", marks=needs_montecarlo
    ),
]


def toml_table(options: dict[str, Any]) -> str:
    return "{ " + ", ".join(f"{k} = {json.dumps(v)}" for k, v in options.items()) + " }"


@pytest.mark.parametrize(("bot", "options", "what", "why"), BAD_OPTIONS)
def test_bad_bot_options_are_refused_at_league_import(
    db: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    bot: str,
    options: dict[str, Any],
    what: str,
    why: str,
) -> None:
    extra = f'[[entrants]]\nname = "Bad Bot"\nbot = "{bot}"\noptions = {toml_table(options)}\n'
    path = write(tmp_path, BOTS.format(extra=extra), "bad.toml")
    err = refused(db, capsys, ["league", "import", str(path)], why)
    assert f"{path}: entrants[3] (Bad Bot): player '{bot}'" in err and what in err


@pytest.mark.parametrize(("bot", "options", "what", "why"), BAD_OPTIONS)
def test_bad_bot_options_are_refused_by_players_add(
    db: Path,
    capsys: pytest.CaptureFixture[str],
    bot: str,
    options: dict[str, Any],
    what: str,
    why: str,
) -> None:
    args = ["players", "add", "Bad Bot", "--bot", bot]
    for key, value in options.items():
        args += ["--option", f"{key}={value}"]
    err = refused(db, capsys, args, why)
    assert err.startswith(f"error: Bad Bot: player '{bot}'") and what in err


def test_good_options_typed_as_text_are_stored_as_values(
    db: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert run(db, "players", "add", "R9", "--bot", "random", "--option", "seed=9") == 0
    assert run(db, "players", "add", "P2", "--bot", "picky", "--option", "level=2") == 0
    capsys.readouterr()
    assert run(db, "players", "list", "--json") == 0
    rows = {p["name"]: p["options"] for p in json.loads(capsys.readouterr().out)}
    assert rows["R9"] == {"seed": 9} and rows["P2"] == {"level": 2}
    # A file giving the same options is the same bot: importing it changes nothing.
    extra = '[[entrants]]\nname = "R9"\nbot = "random"\noptions = { seed = 9 }\n'
    assert run(db, "league", "import", str(write(tmp_path, BOTS.format(extra=extra)))) == 0


def test_a_plugin_without_declared_options_is_built_once_and_closed(db: Path) -> None:
    Picky.built = Picky.closed = 0
    assert run(db, "players", "add", "P3", "--bot", "picky", "--option", "level=3") == 0
    assert (Picky.built, Picky.closed) == (1, 1)


def test_declared_options_convert_text_and_check_bounds() -> None:
    assert registry.validate_options(registry.get("random"), {"seed": "7"}) == {"seed": 7}
    with pytest.raises(PluginError, match="'seed': 'x' is not int"):
        registry.validate_options(registry.get("random"), {"seed": "x"})
    with pytest.raises(PluginError, match="finite number"):
        registry.check_options("external", {"command": "bot", "move_time": "inf"})
    assert registry.check_options("external", {"command": ["node", "bot.js"]}) == {
        "command": ["node", "bot.js"]
    }


def _break_options(db: Path, name: str, options: dict[str, Any]) -> None:
    """Store options as a version without checks would have stored them."""
    con = sqlite3.connect(db)
    con.execute("UPDATE entrant SET options = ? WHERE name = ?", (json.dumps(options), name))
    con.commit()
    con.close()


def test_players_edit_mends_an_event_stopped_by_a_bad_option(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _break_options(db, "R", {"seed": "abc"})
    capsys.readouterr()
    assert run(db, "event", "run", "ev", "--workers", "1") != 0
    assert "'seed': 'abc' is not int" in capsys.readouterr().err
    refused(db, capsys, ["players", "edit", "R", "--option", "seed=-x"], "is not int")
    refused(db, capsys, ["players", "edit", "R", "--unset", "colour"], "no option 'colour' set")
    refused(db, capsys, ["players", "edit", "Ada", "--option", "seed=1"], "Ada is a person")
    refused(db, capsys, ["players", "edit", "R"], "nothing to change")
    assert run(db, "players", "edit", "R", "--option", "seed=4") == 0
    assert "options seed=4" in capsys.readouterr().err
    assert run(db, "event", "run", "ev", "--workers", "1") == 0
    assert matches_done(str(db)) == 3
    # Changing a bot with results warns that they stay and count for its rating.
    assert run(db, "players", "edit", "R", "--unset", "seed") == 0
    err = capsys.readouterr().err
    assert "2 result(s) played with the former options stay" in err
    assert stored_players(str(db))["R"]["options"] == {}


def test_league_import_update_changes_a_bot_s_options(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _break_options(db, "R", {"seed": "abc"})
    fixed = BOTS.format(extra="").replace(
        'name = "R"\nbot = "random"', 'name = "R"\nbot = "random"\noptions = { seed = 4 }'
    )
    path = write(tmp_path, fixed, "fixed.toml")
    refused(db, capsys, ["league", "import", str(path)], "import with --update")
    assert run(db, "league", "import", str(path), "--update") == 0
    assert "entrant R (options)" in capsys.readouterr().err
    assert run(db, "league", "import", str(path)) == 0
    assert "up to date" in capsys.readouterr().err
    # --update never turns one bot into another.
    other = fixed.replace('bot = "random"\noptions = { seed = 4 }', 'bot = "greedy"')
    refused(
        db,
        capsys,
        ["league", "import", str(write(tmp_path, other, "other.toml")), "--update"],
        "a changed bot needs a new name",
    )


# -- 11. numbers too large, files nested too deep ------------------------------------------

BIG = str(2**70)


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["result", "add", "thursday", "--table", BIG, "--scores", "A=1"], "'--table'"),
        (["result", "add", "thursday", "--table", "1", "--round", BIG, "-s"], "'--round'"),
        (["result", "list", "thursday", "--round", BIG], "'--round'"),
        (["result", "void", "thursday", "--table", BIG], "'--table'"),
        (["event", "sheet", "thursday", "--round", BIG], "'--round'"),
        (["event", "move", "thursday", "Ada", "--table", BIG], "'--table'"),
        (["ratings", "rebuild", "club", "--from", BIG], "'--from'"),
    ],
)
def test_numbers_too_large_for_the_database_are_refused(
    club: Path, capsys: pytest.CaptureFixture[str], args: list[str], needle: str
) -> None:
    if args[-1] == "-s":
        args = [*args[:-1], "--scores", "A=1"]
    refused(club, capsys, args, needle)


@pytest.mark.parametrize("score", [BIG, "10000001"])
@pytest.mark.parametrize("how", ["--scores", "--hands"])
def test_scores_too_large_are_refused(
    club: Path, capsys: pytest.CaptureFixture[str], score: str, how: str
) -> None:
    seats = first_table(club, capsys)["seats"]
    if how == "--scores":
        text = ",".join([f"{seats[0]}={score}", *(f"{n}=1" for n in seats[1:])])
    else:
        text = f"{seats[0]}={score}"
    refused(
        club,
        capsys,
        ["result", "add", "thursday", "--table", "1", how, text],
        f"score of {seats[0]} is too high: {score} (at most 10,000,000)",
    )


def test_a_score_too_large_at_the_prompt_is_asked_again(
    club: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import io

    seats = first_table(club, capsys)["seats"]
    answers = [BIG, "200"] + ["10"] * (len(seats) - 1) + ["y"]
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(answers) + "\n"))
    assert run(club, "result", "add", "thursday", "--table", "1") == 0
    assert "a score is a whole number from 0 to 10,000,000" in capsys.readouterr().err


@pytest.mark.parametrize(
    "text",
    [
        "a = " + "[" * 5000 + "]" * 5000,
        "a = " + "{ b = " * 5000 + "1" + " }" * 5000,
    ],
    ids=["arrays", "tables"],
)
def test_a_league_file_nested_5000_deep_is_one_line(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str
) -> None:
    path = write(tmp_path, text, "deep.toml")
    refused(db, capsys, ["league", "import", str(path)], f"{path}: not valid TOML: ")


@pytest.mark.parametrize(
    ("options", "needle"),
    [
        ("{ a = " + "[" * 20 + "1" + "]" * 20 + " }", "options nest at most 8 deep"),
        ("{ a = 1979-05-27 }", "option values are text, numbers, booleans"),
        ("{ a = nan }", "must be a finite number"),
    ],
)
def test_bot_options_are_plain_data(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], options: str, needle: str
) -> None:
    extra = f'[[entrants]]\nname = "P"\nbot = "picky"\noptions = {options}\n'
    path = write(tmp_path, BOTS.format(extra=extra), "plain.toml")
    refused(db, capsys, ["league", "import", str(path)], f"{path}: entrants[3] (P).options")


# -- 12. strict types in league files --------------------------------------------------------


@pytest.mark.parametrize(
    ("old", "new", "needle"),
    [
        ("seed = 3", "seed = 3\ncycles = true", "events[0] (ev).cycles: Input should be a valid"),
        ("seed = 3", "seed = false", "events[0] (ev).seed: Input should be a valid integer"),
        ("seed = 3", "seed = 0.0", "events[0] (ev).seed: Input should be a valid integer (got"),
        ("seed = 3", "seed = 3\nduplicate = 1", "events[0] (ev).duplicate: Input should be a"),
        ("seed = 3", 'seed = "3"', "events[0] (ev).seed: Input should be a valid integer"),
        ("table_size = 2", "table_size = 2.0", "table_size: Input should be a valid integer"),
        ("table_size = 2", "table_size = 2\n[rating]\nmu = true", "rating.mu: Input should be"),
        ("table_size = 2", "table_size = 2\n[rating]\nsigma = inf", "rating.sigma: Input should"),
        ("table_size = 2", "table_size = 2\n[rules]\noptions = { target = 1.5 }", "rules.options"),
        ('name = "G1"\n', 'name = "G1"\noptions = { a = 1 }\n', "a person has no options"),
        (
            'name = "R"\nbot = "random"',
            'name = "R"\nbot = "random"\noptions = { playable_first = 1 }',
            "option 'playable_first': 1 is not bool",
        ),
    ],
)
def test_league_files_are_strictly_typed(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], old: str, new: str, needle: str
) -> None:
    text = BOTS.format(extra="").replace(old, new, 1)
    if "a person" in needle:
        text = text.replace('bot = "greedy"\n', "", 1)
    path = write(tmp_path, text, "lax.toml")
    err = refused(db, capsys, ["league", "import", str(path)], needle)
    assert err.startswith(f"error: {path}: ")


@pytest.mark.parametrize("path", sorted(LEAGUES.glob("*.toml")), ids=lambda p: p.name)
def test_every_shipped_league_file_imports(tmp_path: Path, path: Path) -> None:
    if "montecarlo" in path.read_text() and MonteCarloPlayer is None:
        pytest.skip("the c8league-montecarlo plugin is not installed")
    db = tmp_path / "s.db"
    assert run(db, "league", "import", str(path)) == 0
    assert run(db, "league", "import", str(path)) == 0


def test_declared_options_match_the_factories_parameters() -> None:
    """A declared model names exactly the keyword options its factory takes (a new
    parameter of a built-in player needs its field, or entering the bot refuses it)."""
    import inspect

    for name in ("random", "greedy", "external", "montecarlo"):
        if name == "montecarlo" and MonteCarloPlayer is None:
            continue
        info = registry.get(name)
        model = info.options_model
        assert model is not None, name
        params = {
            p.name: p.default
            for p in inspect.signature(info.factory).parameters.values()  # type: ignore[arg-type]
            if p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD)
        }
        fields = {n: f.default for n, f in model.model_fields.items()}
        assert set(fields) == set(params), name
        for option, default in params.items():
            if default is not inspect.Parameter.empty:
                assert fields[option] == default, (name, option)


# -- the last fuzz findings: files that are not databases, the end of input ----------------


def test_a_db_path_with_a_name_too_long_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for long in (tmp_path / ("a" * 300) / "x.db", tmp_path / ("b" * 300 + ".db")):
        for args in (["players", "list"], ["init"], ["league", "list"]):
            capsys.readouterr()
            assert run(long, *args) == 1
            err = capsys.readouterr().err
            assert err.startswith("error: cannot open database ") and "File name too long" in err
            assert err.strip().count("\n") == 0 and "Traceback" not in err
    assert list(tmp_path.iterdir()) == []


def _foreign_sqlite(path: Path) -> None:
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE things (x INTEGER)")
    con.execute("INSERT INTO things VALUES (1)")
    con.commit()
    con.close()


@pytest.mark.parametrize(
    ("content", "needle", "commands"),
    [
        (b"", "no c8league database at", [["players", "list"], ["league", "list"]]),
        (
            b"hello\n",
            "is not a c8league database (not a SQLite file)",
            [["players", "list"], ["init"]],
        ),
        (None, "is not a c8league database (no meta table)", [["players", "list"], ["init"]]),
    ],
    ids=["empty", "text", "another-programs-sqlite"],
)
def test_a_file_that_is_not_a_c8league_database_is_left_byte_for_byte(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    content: bytes | None,
    needle: str,
    commands: list[list[str]],
) -> None:
    path = tmp_path / "not-ours.db"
    if content is None:
        _foreign_sqlite(path)
    else:
        path.write_bytes(content)
    before = path.read_bytes()
    for args in commands:
        capsys.readouterr()
        assert run(path, *args) != 0
        err = capsys.readouterr().err
        assert needle in err and err.strip().count("\n") == 0 and "Traceback" not in err, err
        assert path.read_bytes() == before
        assert sorted(p.name for p in tmp_path.iterdir()) == ["not-ours.db"]  # no -wal, -shm


def test_end_of_input_at_the_score_prompt_stores_nothing(
    club: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import io

    seats = first_table(club, capsys)["seats"]
    before = dump(club)
    for typed in ("", "30\n", "\n".join(["200", *["10"] * (len(seats) - 1)]) + "\n"):
        monkeypatch.setattr("sys.stdin", io.StringIO(typed))
        capsys.readouterr()
        assert run(club, "result", "add", "thursday", "--table", "1") == 1
        err = capsys.readouterr().err
        assert err.strip().splitlines()[-1] == "error: no result typed: nothing stored", err
        assert "interrupted" not in err and "Traceback" not in err
    assert dump(club) == before
