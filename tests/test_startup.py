"""Start-up stays quick: a command imports what it uses and nothing heavy besides.

Timings are for ``benchmarks/startup.py``; these tests look at what a command leaves
in ``sys.modules``, in a fresh interpreter, and check that the sub-commands imported
on first use (``c8league.cli.lazy``) behave exactly like the same sub-commands added
to the root the usual way.
"""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from c8league.cli import main as cli_main
from c8league.cli.lazy import Noun, imported

ROOT = Path(__file__).resolve().parents[1]

LEAGUE = """\
name = "quick"
table_size = 2

[[entrants]]
name = "Greedy"
bot = "greedy"

[[entrants]]
name = "Random"
bot = "random"

[[events]]
name = "cup"
format = "round_robin"
seed = 1
"""

HEAVY = ("matplotlib", "networkx", "jinja2", "dask", "distributed", "psycopg", "numpy")
"""Imported only by the commands that draw, render a page, pair large Swiss fields,
run on Dask or open PostgreSQL."""


def modules_after(*args: str, cwd: Path | None = None) -> set[str]:
    """The modules a fresh interpreter has imported once ``c8league ARGS`` has run."""
    code = (
        "import contextlib, io, json, sys\n"
        "from c8league.cli.main import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    code = main({list(args)!r})\n"
        "print(json.dumps([code, sorted(sys.modules)]))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=cwd, check=True
    )
    code, modules = json.loads(done.stdout.splitlines()[-1])
    assert code == 0, done.stderr
    return set(modules)


def loaded(modules: set[str], *names: str) -> list[str]:
    """Which of ``names`` (packages included) are among ``modules``."""
    return sorted(n for n in names if any(m == n or m.startswith(n + ".") for m in modules))


def test_help_imports_no_storage_validation_or_plugins() -> None:
    modules = modules_after("--help")
    assert (
        loaded(
            modules,
            *HEAVY,
            "sqlalchemy",
            "sqlmodel",
            "pydantic",
            "trueskill",
            "c8league.storage",
            "c8league.players",
            "c8league.runner.conformance",
            "c8league.engine.hand",
        )
        == []
    )


def test_version_imports_only_what_it_prints() -> None:
    modules = modules_after("--version")
    assert loaded(modules, *HEAVY, "sqlalchemy", "pydantic", "c8league.players") == []
    assert loaded(modules, "c8league.cli.rules_cmd", "c8league.cli.bots_cmd") == []
    assert sorted(m for m in modules if m.startswith("c8league.engine.")) == [
        "c8league.engine._build"
    ]


def test_rules_list_reads_the_rules_table_only() -> None:
    modules = modules_after("rules", "list")
    assert (
        loaded(
            modules,
            *HEAVY,
            "sqlalchemy",
            "sqlmodel",
            "trueskill",
            "c8league.storage",
            "c8league.players",
            "c8league.runner",
            "c8league.engine.hand",
        )
        == []
    )
    commands = sorted(m for m in modules if m.startswith("c8league.cli.") and "_cmd" in m)
    assert commands == ["c8league.cli.rules_cmd"]


@pytest.fixture(scope="module")
def database(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("startup")
    (folder / "quick.toml").write_text(LEAGUE)
    db = folder / "quick.db"
    assert cli_main.main(["--db", str(db), "league", "import", str(folder / "quick.toml")]) == 0
    return db


PLAYERS = (
    "c8league.players.greedy",
    "c8league.players.random_player",
    "c8league.players.external",
    "c8league.players.terminal",
    "c8league.players.containment",
)
"""The players themselves (a read may load the registry of plugins, not a player)."""


@pytest.mark.parametrize(
    ("args", "also_not"),
    [
        (("players", "list"), ("c8league.players", "c8league.league.files", "trueskill")),
        (("league", "list"), ("c8league.players", "c8league.league.files", "trueskill")),
        (("event", "standings", "cup"), ("c8league.players", "c8league.league.files")),
        (("event", "status", "cup"), ("c8league.players", "c8league.league.files")),
    ],
    ids=["players list", "league list", "event standings", "event status"],
)
def test_database_reads_import_no_runner_players_or_reports(
    database: Path, args: tuple[str, ...], also_not: tuple[str, ...]
) -> None:
    modules = modules_after("--db", str(database), *args)
    assert "sqlalchemy" in modules  # it did read the database
    assert (
        loaded(
            modules,
            *HEAVY,
            *PLAYERS,
            *also_not,
            "sqlalchemy.dialects.postgresql",
            "c8league.runner",
            "c8league.reports",
            "c8league.club",
        )
        == []
    )


@pytest.mark.parametrize(
    ("args", "module"),
    [
        (("event", "standings", "cup"), "c8league.cli.event.reading"),
        (("league", "list"), "c8league.cli.league.reading"),
        (("players", "list"), "c8league.cli.players.reading"),
    ],
    ids=["event standings", "league list", "players list"],
)
def test_a_command_of_a_noun_imports_its_own_module_only(
    database: Path, args: tuple[str, ...], module: str
) -> None:
    """The registry imports the module of the command that runs, not those of the
    noun's other commands."""
    modules = modules_after("--db", str(database), *args)
    noun = module.rpartition(".")[0]
    assert sorted(m for m in modules if m.startswith(noun + ".")) == [module]


def test_importing_the_command_line_imports_no_sub_command() -> None:
    code = "import sys, c8league.cli.main; print(sorted(sys.modules))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "_cmd" not in done.stdout and "c8league.cli.demo" not in done.stdout
    assert "c8league.cli.event" not in done.stdout and "c8league.cli.league" not in done.stdout


# -- sub-commands imported on first use behave as if added the usual way ----------------


def eager_app() -> typer.Typer:
    """The root with every sub-command added with ``add_typer`` / ``command``."""
    app = typer.Typer(
        name="c8league",
        help=cli_main.app.info.help,
        no_args_is_help=True,
        pretty_exceptions_enable=False,
    )
    app.callback()(cli_main._root)
    for name, target in cli_main.SUBCOMMANDS.items():
        if isinstance(target, Noun):
            noun = copy.copy(imported(target.group))
            noun.registered_commands = []
            for command, where in target.commands.items():
                noun.command(command)(imported(where))
            app.add_typer(noun, name=name)
            continue
        value = imported(target.target)
        if isinstance(value, typer.Typer):
            app.add_typer(value, name=name)
        else:
            app.command(name)(value)
    return app


def command_paths(group: object, path: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    paths = [path]
    list_commands = getattr(group, "list_commands", None)
    if list_commands is not None:
        for name in list_commands(None):
            paths += command_paths(group.get_command(None, name), (*path, name))  # type: ignore[attr-defined]
    return paths


def test_every_help_is_the_same_as_with_sub_commands_added_the_usual_way() -> None:
    eager = eager_app()
    paths = command_paths(typer.main.get_command(eager))
    assert len(paths) > 40
    assert command_paths(typer.main.get_command(cli_main.app)) == paths
    runner = CliRunner()
    for path in paths:
        lazy = runner.invoke(cli_main.app, [*path, "--help"], env={"COLUMNS": "100"})
        usual = runner.invoke(eager, [*path, "--help"], env={"COLUMNS": "100"})
        assert (lazy.exit_code, lazy.output) == (usual.exit_code, usual.output), path


@pytest.mark.parametrize(
    "args",
    [
        ["rule", "list"],
        ["rules", "lst"],
        ["demo", "--seed", "x"],
        ["event", "run", "x", "--executor", "nope"],
        ["bots", "check", "greedy", "--games", "0"],
        ["players"],
    ],
    ids=" ".join,
)
def test_errors_are_the_same_as_with_sub_commands_added_the_usual_way(args: list[str]) -> None:
    runner = CliRunner()
    lazy = runner.invoke(cli_main.app, args, env={"COLUMNS": "100"})
    usual = runner.invoke(eager_app(), args, env={"COLUMNS": "100"})
    assert (lazy.exit_code, lazy.output) == (usual.exit_code, usual.output)
    assert lazy.exit_code != 0 or args == ["players"]


def test_a_typo_is_answered_with_the_commands_near_it(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main.main(["rule", "list"]) == 2
    assert "Did you mean 'rules'" in capsys.readouterr().err


def test_completion_lists_every_command() -> None:
    env = {"_C8LEAGUE_COMPLETE": "complete_bash", "COMP_WORDS": "c8league ", "COMP_CWORD": "1"}
    done = subprocess.run(
        [sys.executable, "-m", "c8league"],
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert done.stdout.split() == list(cli_main.SUBCOMMANDS)


EXIT_STATE = """\
import atexit, gc, sys
atexit.register(lambda: print("collector", gc.get_threshold()[0], gc.get_freeze_count() > 0))
sys.argv = ["c8league", *sys.argv[1:]]
from c8league.cli import run
run()
"""


@pytest.mark.parametrize(
    ("args", "code"), [(["rules", "list"], 0), (["rules", "show", "no-such-preset"], 2)]
)
def test_a_command_collects_less_often_and_freezes_what_is_left_at_exit(
    args: list[str], code: int
) -> None:
    """The collector's first threshold is raised for the command, and at exit, however
    the command ends, what is left is frozen out of the interpreter's last collections
    (exit handlers still run)."""
    from c8league.cli import GC_THRESHOLD

    done = subprocess.run(
        [sys.executable, "-c", EXIT_STATE, *args], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == code, done.stderr
    assert done.stdout.splitlines()[-1] == f"collector {GC_THRESHOLD} True"
