"""``c8league serve``'s pages and write paths, through HTTP (Starlette's TestClient):
every page of a club evening, a duel and a ladder renders; every write is refused
without a valid code or the organiser's token, and a refusal stores nothing."""

from __future__ import annotations

import hashlib
import json
import re
import sqlite3
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

with warnings.catch_warnings():  # newer Starlette prefers httpx2; httpx works the same
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from c8league.cli.main import main
from c8league.serve import ServeConfig, create_app
from c8league.storage.database import open_database

LEAGUES = Path(__file__).resolve().parents[1] / "leagues"
HOST = "testserver"


def run(db: Path, *args: str) -> int:
    return main(["--db", str(db), *args])


def digest(db: Path) -> str:
    """Every row of every table but the chain's own bookkeeping, in order."""
    con = sqlite3.connect(db)
    tables = [
        name
        for (name,) in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        if not name.startswith("sqlite_")
    ]
    rows = [con.execute(f'SELECT * FROM "{t}" ORDER BY 1').fetchall() for t in sorted(tables)]
    con.close()
    return hashlib.sha256(repr(rows).encode()).hexdigest()


def sheet(db: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, object]:
    capsys.readouterr()
    assert run(db, "event", "sheet", "thursday", "--format", "json") == 0
    return json.loads(capsys.readouterr().out)  # type: ignore[no-any-return]


@pytest.fixture
def club(tmp_path: Path) -> Path:
    """The Swiss club night of leagues/club-swiss.toml, its first round published."""
    db = tmp_path / "club.db"
    assert run(db, "league", "import", str(LEAGUES / "club-swiss.toml")) == 0
    assert run(db, "event", "pair", "thursday") == 0
    assert run(db, "event", "publish", "thursday") == 0
    return db


@pytest.fixture
def served(club: Path) -> Iterator[tuple[TestClient, ServeConfig]]:
    config = ServeConfig(db=open_database(str(club), create=False), hosts=(HOST,))
    with TestClient(create_app(config), base_url=f"http://{HOST}") as client:
        yield client, config
    config.db.close()


def test_every_read_page_renders(
    served: tuple[TestClient, ServeConfig], club: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    client, config = served
    index = client.get("/")
    assert index.status_code == 200 and "/league/club" in index.text
    league = client.get("/league/club")
    assert league.status_code == 200
    assert "/league/club/event/thursday" in league.text and "Season standings" in league.text
    event = client.get("/league/club/event/thursday")
    assert event.status_code == 200
    assert "Where do I sit?" in event.text and "Table 1" in event.text
    assert 'src="/static/live.js"' in event.text and "data-live" in event.text
    assert client.get("/static/live.js").status_code == 200
    # "Where do I sit": a GET form, answered by the page itself.
    seats = sheet(club, capsys)["tables"][1]["seats"]  # type: ignore[index]
    found = client.get("/league/club/event/thursday", params={"name": seats[1].lower()})
    assert f"{seats[1]}: table 2, seat 2" in found.text
    assert "No one called" in client.get("/league/club/event/thursday?name=zzz").text
    # A result entered by hand shows on the page, with its replay link.
    table = sheet(club, capsys)["tables"][0]  # type: ignore[index]
    names = table["seats"]
    scores = ",".join(f"{n}={v}" for n, v in zip(names, [table["target"], 10, 5, 0], strict=False))
    assert run(club, "result", "add", "thursday", "--table", "1", "--scores", scores) == 0
    page = client.get("/league/club/event/thursday").text
    assert f"1. {names[0]} {table['target']}" in page
    match = re.search(r'href="/match/(\d+)"', page)
    assert match is not None
    replay = client.get(f"/match/{match.group(1)}")
    assert replay.status_code == 200 and "<html" in replay.text
    assert "Order:" in page  # the tie-breaks explained under the standings
    # Nothing in any page names the organiser's token.
    for response in (index, league, event, found, replay):
        assert config.token not in response.text


def test_unknown_things_get_a_clear_page(served: tuple[TestClient, ServeConfig]) -> None:
    client, _ = served
    for path in ("/league/nope", "/league/club/event/nope", "/match/999999", "/duel/nope",
                 "/league/club/ladder", "/nowhere"):  # fmt: skip
        response = client.get(path)
        assert response.status_code == 404, path
        assert 'class="refused"' in response.text, path


def test_the_organiser_page_needs_the_token(served: tuple[TestClient, ServeConfig]) -> None:
    client, config = served
    assert client.get("/organiser").status_code == 403
    assert client.get("/organiser?token=wrong").status_code == 403
    login = client.get(f"/organiser?token={config.token}", follow_redirects=False)
    assert login.status_code == 303 and login.headers["location"] == "/organiser"
    page = client.get("/organiser")
    assert page.status_code == 200 and config.token not in page.text
    # The cookie is worth nothing at an address serve was not given.
    other = client.get("/organiser", headers={"host": "evil.example"})
    assert other.status_code == 403


def test_a_duel_page_shows_its_llr_against_the_bounds(tmp_path: Path) -> None:
    db = tmp_path / "duel.db"
    duel = "greedy random --sprt elo0=0,elo1=50 --max-games 40 --name gr --seed 3 --workers 1"
    assert run(db, "duel", *[a.replace(",", " ") for a in duel.split()]) == 0
    config = ServeConfig(db=open_database(str(db), create=False))
    with TestClient(create_app(config)) as client:
        page = client.get("/duel/gr")
        assert client.get("/").text.count("/duel/gr") == 1
    config.db.close()
    assert page.status_code == 200
    assert '<svg class="llr"' in page.text and "<polyline" in page.text
    assert "LLR" in page.text
