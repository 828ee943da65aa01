"""Database fixtures: SQLite always, PostgreSQL when a server is given.

Set ``C8LEAGUE_TEST_PG_URL`` (``postgresql://user:password@127.0.0.1/postgres``, a role
that may create databases) to run the storage tests against PostgreSQL too: each test
gets a database of its own, dropped afterwards. Without it those tests are skipped,
and the header and the summary of the run say so. Under CI the variable is required.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import typer

# Test modules import their shared helpers (``dbs``) from this folder.
sys.path.insert(0, str(Path(__file__).parent))

# What commands print is compared exactly: tables are drawn for a terminal 80 columns
# wide, whatever the terminal that runs the tests (rich reads COLUMNS when the command
# line's consoles are made, and processes the tests start inherit it).
os.environ["COLUMNS"] = "80"

from dbs import (
    PG_ENV,
    create_pg_database,
    drop_pg_database,
    record_findings,
    safe_url,
    sqlite_files,
)

from c8league import about

PG_SKIP = f"PostgreSQL not tested: set {PG_ENV}=postgresql://USER:PASSWORD@HOST/postgres"


def _server() -> str | None:
    return os.environ.get(PG_ENV) or None


def pytest_report_header(config: pytest.Config) -> str:
    url = _server()
    if url is None:
        return PG_SKIP
    return f"PostgreSQL: storage tests run against SQLite and {safe_url(url)}"


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if _server() is None:
        terminalreporter.write_sep("-", PG_SKIP, yellow=True)


@pytest.fixture(scope="session", autouse=True)
def engine_notice_shown(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """The once-per-install notice of an engine left uncompiled, already shown: where the
    install could not compile the engine, the first command of the session would print
    it, and a test of a command's exact output would pass or fail by its place in the
    run. The commands of the tests, and the processes they start, read a settings folder
    of their own (``XDG_CONFIG_HOME``) where the notice is recorded as shown."""
    previous = os.environ.get("XDG_CONFIG_HOME")
    config = tmp_path_factory.mktemp("config")
    os.environ["XDG_CONFIG_HOME"] = str(config)
    about.install_notice(Path(typer.get_app_dir("c8league")))
    yield
    if previous is None:
        del os.environ["XDG_CONFIG_HOME"]
    else:
        os.environ["XDG_CONFIG_HOME"] = previous


@pytest.fixture(scope="session")
def pg_server() -> str:
    """The PostgreSQL server URL from the environment (skips the test without one)."""
    url = _server()
    if url is None:
        if os.environ.get("CI"):
            pytest.fail(f"{PG_ENV} must be set under CI (.ci/run starts PostgreSQL)")
        pytest.skip(PG_SKIP)
    return url


@pytest.fixture
def new_database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Callable[[str], str]]:
    """A factory of empty databases: ``new_database("sqlite")`` or ``("postgresql")``
    gives a URL; PostgreSQL databases are dropped after the test."""
    made: list[str] = []
    servers: list[str] = []

    def new(kind: str) -> str:
        if kind == "sqlite":
            made.append(f"sqlite:///{tmp_path / f'db{len(made)}.db'}")
            return made[-1]
        if not servers:
            servers.append(request.getfixturevalue("pg_server"))
        made.append(create_pg_database(servers[0]))
        return made[-1]

    yield new
    try:
        if not request.node.get_closest_marker("changes_record"):
            for url in made:
                if not url.startswith("sqlite"):
                    _check_record(url)
    finally:
        for url in made:
            if not url.startswith("sqlite"):
                drop_pg_database(servers[0], url)


_TESTS_FOLDERS: set[Path] = set()
"""The folders of the tests run (each checked after its test, or left to one that
changes its databases on purpose)."""


@pytest.fixture(autouse=True)
def record_checked(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[None]:
    """After each test, every c8league database it left in its folder is as c8league
    wrote it: ``c8league verify`` finds nothing (a test that changes a database outside
    c8league on purpose is marked ``changes_record``). PostgreSQL databases are checked
    by :func:`new_database` before they are dropped."""
    _TESTS_FOLDERS.add(tmp_path)
    yield
    if request.node.get_closest_marker("changes_record"):
        return
    for path in sqlite_files(tmp_path):
        _check_record(f"sqlite:///{path}")


@pytest.fixture(scope="session", autouse=True)
def shared_records_checked(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """At the end of the run, the databases that fixtures shared by several tests made
    (in folders of their own, not a test's) are checked as :func:`record_checked`
    checks a test's."""
    yield
    base = tmp_path_factory.getbasetemp()
    for folder in sorted(base.iterdir()) if base.is_dir() else []:
        # (pytest keeps a link ``NAMEcurrent`` to the last folder of each name)
        if folder.is_symlink() or folder in _TESTS_FOLDERS or not folder.is_dir():
            continue
        for path in sqlite_files(folder):
            _check_record(f"sqlite:///{path}")


def _check_record(url: str) -> None:
    findings = record_findings(url)
    if findings:
        pytest.fail(
            f"{safe_url(url)}: the record is not as c8league wrote it: {findings[0]}"
            + (f" (and {len(findings) - 1} more)" if len(findings) > 1 else ""),
            pytrace=False,
        )


@pytest.fixture(params=["sqlite", "postgresql"])
def db_kind(request: pytest.FixtureRequest) -> str:
    """Each database kind in turn (PostgreSQL skips without a server)."""
    kind: str = request.param
    if kind == "postgresql":
        request.getfixturevalue("pg_server")
    return kind


@pytest.fixture
def db_url(db_kind: str, new_database: Callable[[str], str]) -> str:
    """An empty database URL of each kind in turn: a SQLite file, a PostgreSQL database."""
    return new_database(db_kind)


@pytest.fixture
def pg_url(new_database: Callable[[str], str]) -> str:
    """A fresh, empty PostgreSQL database for this test."""
    return new_database("postgresql")


@pytest.fixture
def tmp_path(tmp_path: Path) -> Path:
    """pytest's folder for the test, readable by all (pytest makes it for its owner
    alone): external bots written there run sandboxed, and run by root, a sandboxed bot
    runs as a user of its own, who reads only what all may read."""
    tmp_path.chmod(0o755)
    return tmp_path
