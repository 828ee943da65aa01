"""``c8league serve`` in a real headless Chromium at a phone's width (390 pixels), the
server running in this process: no page scrolls sideways, a player finds their table
by name, a table reports its result through the forms, the organiser accepts it, and a
phone left on the event's page sees the result and the standings change without a
reload. Where the league says so, a second player confirms the result on their own
phone.

The system's Chromium, driven by Playwright (one browser for the module, a browser
context of its own for each phone: its own cookies, a phone's viewport). Skipped when
Chromium is not installed, except in CI (``CI`` set), where a missing browser is a
failure.
"""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

from clis import cli as run
from playwright.sync_api import Browser, Page, sync_playwright
from test_html_browser import browser
from test_serve_evening import league_file

from c8league.serve import ServeConfig, create_app
from c8league.storage.database import open_database

PHONE = 390
DEADLINE = 60.0
"""Seconds after which a state that never came fails the test (not a measure)."""


@pytest.fixture(scope="module")
def chromium() -> Iterator[Browser]:
    executable = browser()
    with sync_playwright() as playwright:
        started = playwright.chromium.launch(executable_path=executable)
        try:
            yield started
        finally:
            started.close()


class Tab:
    """A phone's browser: a page in a browser context of its own, at a phone's width."""

    def __init__(self, chromium: Browser) -> None:
        context = chromium.new_context(
            viewport={"width": PHONE, "height": 844}, is_mobile=True, has_touch=True
        )
        context.set_default_timeout(DEADLINE * 1000)
        self.page: Page = context.new_page()

    def goto(self, url: str) -> None:
        self.page.goto(url)

    def fill(self, values: dict[str, str]) -> None:
        """Type ``values`` into the fields of those names (a select's option by its text)."""
        for name, value in values.items():
            field = self.page.locator(f'[name="{name}"]').first
            if field.evaluate("e => e.tagName") == "SELECT":
                field.select_option(value)
            else:
                field.fill(value)

    def submit(self, selector: str) -> None:
        """Press the button ``selector`` and wait for the page it leads to."""
        with self.page.expect_navigation():
            self.page.locator(selector).first.click()

    def evaluate(self, expression: str) -> Any:
        return self.page.evaluate(expression)

    def wait_for(self, expression: str, what: str) -> Any:
        """Wait until ``expression`` is truthy in the page, and return its value."""
        deadline = time.monotonic() + DEADLINE  # (the page's CSP refuses wait_for_function)
        while not (value := self.evaluate(expression)):
            if time.monotonic() > deadline:
                raise AssertionError(f"the page never showed {what}: {self.text()[:2000]}")
            self.page.wait_for_timeout(50)
        return value

    def text(self) -> str:
        return self.page.inner_text("body")

    def width(self) -> tuple[int, int]:
        """The page's width and the window's: a page wider than its window scrolls
        sideways."""
        found = self.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
        return int(found[0]), int(found[1])


@contextmanager
def live(db: Path) -> Iterator[tuple[str, ServeConfig]]:
    """``db`` served on a free port of this machine, in a thread of this process."""
    import uvicorn

    listening = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listening.bind(("127.0.0.1", 0))
    port = listening.getsockname()[1]
    config = ServeConfig(db=open_database(str(db), create=False), hosts=(f"127.0.0.1:{port}",))
    server = uvicorn.Server(uvicorn.Config(create_app(config), log_level="warning", lifespan="off"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listening]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + DEADLINE
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the server did not start"
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}", config
    finally:
        server.should_exit = True
        thread.join(DEADLINE)
        listening.close()
        config.db.close()


def club(folder: Path, confirm: str | None = None) -> Path:
    """leagues/club-swiss.toml's evening, its first round published."""
    db = folder / "club.db"
    assert run(db, "league", "import", str(league_file(folder, confirm))) == 0
    assert run(db, "event", "pair", "thursday") == 0
    assert run(db, "event", "publish", "thursday") == 0
    return db


def sheet(db: Path, capsys: pytest.CaptureFixture[str]) -> list[dict[str, object]]:
    capsys.readouterr()
    assert run(db, "event", "sheet", "thursday", "--codes", "--format", "json") == 0
    data = json.loads(capsys.readouterr().out)
    codes = {c["table"]: c["code"] for c in data["codes"]}
    return [{**t, "code": codes[t["table"]]} for t in data["tables"]]


def fits(tab: Tab, what: str) -> None:
    """The page is no wider than the phone: it never scrolls sideways."""
    page, window = tab.width()
    assert window == PHONE, (what, window)
    assert page <= PHONE, (what, page, tab.text()[:1000])


def report(tab: Tab, base: str, table: dict[str, object], player: str) -> None:
    """A player's phone reports the table's result through the forms."""
    seats = table["seats"]
    assert isinstance(seats, list)
    tab.goto(f"{base}/report")
    fits(tab, "the report page")
    tab.fill({"code": str(table["code"]).lower()})
    tab.submit("form.entry button")
    assert f"table {table['table']}" in tab.text()
    fits(tab, "the scores form")
    values = [int(table["target"]), 40, 20, 10][: len(seats)]  # type: ignore[call-overload]
    tab.fill({"player": player, **{f"score{i}": str(v) for i, v in enumerate(values)}})
    tab.submit("form#scores button")
    assert "Reported:" in tab.text(), tab.text()[:1000]
    fits(tab, "the page of a reported result")


def test_a_player_finds_their_table_reports_and_the_page_follows(
    chromium: Browser, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = club(tmp_path)
    tables = sheet(db, capsys)
    with live(db) as (base, config):
        player, reporter, organiser = Tab(chromium), Tab(chromium), Tab(chromium)
        for path in ("/", "/league/club"):
            player.goto(base + path)
            fits(player, path)
        # Where do I sit? Part of a name, in any case.
        player.goto(f"{base}/league/club/event/thursday")
        fits(player, "the event's page")
        seats = tables[1]["seats"]
        assert isinstance(seats, list)
        player.fill({"name": seats[2][:3].lower()})
        player.submit("form.search button")
        found = player.wait_for(
            "document.querySelector('.found') && document.querySelector('.found').innerText",
            "the seat found",
        )
        assert f"{seats[2]}: table 2, seat 3" in found
        fits(player, "the event's page with a seat found")
        # The page is left open on the phone: it follows the evening by itself.
        player.evaluate("window.__same = 'the page loaded once'")
        assert player.evaluate("document.querySelector('#table-2 .note').innerText") == "pending"
        # Another phone at table 2 reports its result.
        report(reporter, base, tables[1], player=seats[0])
        # The organiser accepts it on the organiser's page.
        organiser.goto(f"{base}/organiser?token={config.token}")
        assert organiser.evaluate("location.pathname") == "/organiser"  # the token is gone
        fits(organiser, "the organiser's page")
        organiser.goto(f"{base}/organiser/league/club/event/thursday")
        fits(organiser, "the organiser's event page")
        organiser.submit(
            'form:has(input[name="action"][value="accept"]):has(input[name="table"][value="2"])'
            " button"
        )
        assert "table 2: the reported result is final" in organiser.text()
        fits(organiser, "the organiser's event page after accepting")
        # The player's page shows the result, and the standings, without a reload.
        shown = player.wait_for(
            "document.querySelector('#table-2 .note').innerText !== 'pending' && "
            "document.querySelector('#table-2 .note').innerText",
            "table 2's result",
        )
        assert shown.startswith(f"1. {seats[0]} ")
        assert player.evaluate("window.__same") == "the page loaded once"
        standings = player.evaluate("document.querySelector('table tbody').innerText")
        assert standings.splitlines()[0].split("\t")[:3] == ["1", seats[0], "1"]
        fits(player, "the event's page with a result")


def test_a_second_player_confirms_on_their_own_phone(
    chromium: Browser, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = club(tmp_path, "second-player")
    tables = sheet(db, capsys)
    seats = tables[0]["seats"]
    assert isinstance(seats, list)
    with live(db) as (base, _):
        first, second = Tab(chromium), Tab(chromium)
        report(first, base, tables[0], player=seats[0])
        second.goto(f"{base}/report")
        second.fill({"code": str(tables[0]["code"])})
        second.submit("form.entry button")
        assert f"Reported already by {seats[0]}" in second.text()
        fits(second, "the page of a result to confirm")
        second.fill({"player": seats[1]})
        second.submit("form#confirm button")
        assert "The result is final" in second.text(), second.text()[:1000]
        fits(second, "the page of a confirmed result")
        first.goto(f"{base}/league/club/event/thursday")
        assert first.evaluate("document.querySelector('#table-1 .note').innerText").startswith(
            f"1. {seats[0]} "
        )
