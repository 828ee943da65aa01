"""The HTML report in a real headless browser (Chromium).

The page is loaded from a file in a frame of a phone's width (Chromium's headless
window is at least 500 pixels wide) and of a desktop's, with a small probe script
added for the test only: it records load errors and console errors, then posts what
it found (tables, images, requests, page width) to the harness page, which writes it
into its DOM for Chromium to print.

Skipped when Chromium is not installed, except in CI (``CI`` set), where a missing
browser is a failure.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from c8league.engine import Move
from c8league.league.files import load_league_file
from c8league.league.leagues import import_league
from c8league.players import registry
from c8league.players.base import BasePlayer
from c8league.reports import build_report, render
from c8league.storage import open_database

BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")

PROBE = """
<script>
window.__problems = [];
window.addEventListener("error", function (e) {
  var t = e.target;
  window.__problems.push(t && t !== window ? "failed to load " + (t.src || t.href || t.tagName)
                                         : "error " + e.message);
}, true);
var __consoleError = console.error;
console.error = function () {
  window.__problems.push("console " + Array.prototype.join.call(arguments, " "));
  __consoleError.apply(console, arguments);
};
window.addEventListener("load", function () {
  var found = {
    problems: window.__problems,
    viewport: window.innerWidth,
    pageWidth: document.documentElement.scrollWidth,
    title: document.title,
    tables: Array.prototype.map.call(document.querySelectorAll("table"), function (t) {
      var box = t.parentElement;
      var shown = Array.prototype.filter.call(t.querySelectorAll("thead th"), function (h) {
        var r = h.getBoundingClientRect();
        return r.width > 0 && r.left >= 0 && r.right <= window.innerWidth + 1;
      }).map(function (h) { return h.textContent.trim(); });
      return {id: t.id, rows: t.tBodies.length ? t.tBodies[0].rows.length : 0,
              overflow: box.scrollWidth - box.clientWidth, shown: shown};
    }),
    images: Array.prototype.map.call(document.images, function (i) {
      var box = i.getBoundingClientRect();
      return {loaded: i.complete && i.naturalWidth > 0, width: box.width, height: box.height,
              scheme: i.currentSrc.split(":")[0], natural: i.naturalWidth};
    }),
    requests: performance.getEntriesByType("resource").map(function (r) { return r.name; })
  };
  parent.postMessage(JSON.stringify(found), "*");
});
</script>
"""

HARNESS = """<!doctype html>
<html><head><meta charset="utf-8"><title>harness</title></head>
<body style="margin:0">
<iframe src="{page}" style="width:{width}px;height:{height}px;border:0"></iframe>
<pre id="probe"></pre>
<script>
window.addEventListener("message", function (e) {{
  document.getElementById("probe").textContent = e.data;
}});
</script>
</body></html>
"""

LEAGUE = """
name = "club"
title = "Club Night"
table_size = 3

[rules]
preset = "countdown"

[[entrants]]
name = "Greedy"
bot = "greedy"

[[entrants]]
name = "Greedy II"
bot = "greedy"

[[entrants]]
name = "Random Playable"
bot = "random"
options = { playable_first = true }

[[entrants]]
name = "Random"
bot = "random"

[[entrants]]
name = "Random II"
bot = "random"

[[entrants]]
name = "Random III"
bot = "random"

[[events]]
name = "night"
format = "swiss"
rounds = 3
seed = 4
"""


def browser() -> str:
    for name in BROWSERS:
        found = shutil.which(name)
        if found:
            return found
    if os.environ.get("CI"):
        pytest.fail("Chromium is not installed (.ci/run installs it with apt-get)")
    pytest.skip("Chromium is not installed: apt-get install chromium to run this test")


def run_browser(executable: str, page: Path, width: int, height: int, *extra: str) -> str:
    command = [
        executable,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--no-first-run",
        "--hide-scrollbars",
        f"--window-size={max(width, 500) + 20},{height}",
        "--virtual-time-budget=5000",
        *extra,
        page.as_uri(),
    ]
    result = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr[-2000:]
    return result.stdout


LEAGUES = Path(__file__).resolve().parents[1] / "leagues"


@pytest.fixture(scope="module")
def evening(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The public page of a club evening played by people: two rounds entered by hand,
    with a forfeit and a withdrawal."""
    from c8league import club
    from c8league.events.pairing import pair_round
    from c8league.league.players import withdraw

    folder = tmp_path_factory.mktemp("evening")
    db = open_database(str(folder / "club.db"))
    import_league(db, load_league_file(LEAGUES / "club-swiss.toml"))
    for number in (1, 2):
        pair_round(db, "thursday")
        club.publish(db, "thursday")
        for table in club.pairing_sheet(db, "thursday").tables:
            seats = list(table.seats)
            scores = {n: max(0, table.target - 30 * (i + 1)) for i, n in enumerate(seats)}
            scores[seats[0]] = table.target + 5
            forfeits = (seats[-1],) if number == 1 and table.table == 1 else ()
            if forfeits:
                scores[seats[0]] = table.target - 10
            entry = club.Entry(scores, None, forfeits)
            club.add_result(db, "thursday", table.table, entry)
        if number == 1:
            withdraw(db, "club", "Ada")
    path = folder / "thursday.html"
    path.write_text(render(build_report(db, "thursday"), "html"), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from c8league.events.running import run_event

    folder = tmp_path_factory.mktemp("browser")
    league_file = folder / "club.toml"
    league_file.write_text(LEAGUE)
    db = open_database(str(folder / "club.db"))
    import_league(db, load_league_file(league_file))
    run_event(db, "night", workers=1)
    html = render(build_report(db, "club"), "html")
    path = folder / "index.html"
    path.write_text(html, encoding="utf-8")
    return path


def harness(page: Path, width: int, height: int) -> Path:
    """A page showing ``page`` in a frame ``width`` pixels wide."""
    path = page.with_name(f"harness-{page.stem}-{width}.html")
    path.write_text(HARNESS.format(page=page.name, width=width, height=height), encoding="utf-8")
    return path


def probe(executable: str, page: Path, width: int) -> dict[str, object]:
    probed = page.with_name("probed.html")
    probed.write_text(page.read_text().replace("<head>", "<head>" + PROBE, 1), encoding="utf-8")
    dom = run_browser(executable, harness(probed, width, 900), width, 900, "--dump-dom")
    match = re.search(r'<pre id="probe">(.+?)</pre>', dom, re.S)
    assert match, "the page did not finish loading"
    text = match.group(1).replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">")
    result: dict[str, object] = json.loads(text)
    return result


@pytest.mark.parametrize("width", [390, 1280])
def test_report_page_loads_in_a_browser(page: Path, width: int) -> None:
    found = probe(browser(), page, width)
    assert found["problems"] == []
    assert found["title"] == "Club Night"
    tables = {t["id"]: t["rows"] for t in found["tables"]}  # type: ignore[attr-defined]
    for table in (
        "leaderboard",
        "standings-night",
        "head-to-head",
        "entrants",
        "ended",
        "forfeits",
        "hands",
        "history",
        "calibration",
    ):
        assert tables.get(f"table-{table}", 0) > 0, table  # fmt: skip
    assert tables["table-leaderboard"] == 6
    image, calibration = found["images"]  # type: ignore[misc]
    assert image["loaded"] and image["scheme"] == "data"
    assert 200 < image["width"] <= width
    assert (image["natural"] < 500) == (width < 640)  # the chart drawn for the width
    assert calibration["loaded"] and calibration["scheme"] == "data"
    assert 200 < calibration["width"] <= width
    # Self-contained: nothing but data: URIs is fetched.
    assert all(str(r).startswith("data:") for r in found["requests"])  # type: ignore[attr-defined]
    # Wide tables scroll inside their boxes; the page itself never scrolls sideways.
    assert found["viewport"] == width
    assert found["pageWidth"] <= width


def test_report_page_screenshot(page: Path) -> None:
    executable = browser()
    shot = page.with_name("phone.png")
    run_browser(executable, harness(page, 390, 2400), 390, 2400, f"--screenshot={shot}")
    data = shot.read_bytes()
    assert data.startswith(b"\x89PNG") and len(data) > 10_000


#: The tables a club's public page is read for, and the columns each must show on a
#: phone without scrolling sideways.
KEY_COLUMNS = {
    "table-standings-thursday": ["#", "entrant", "points"],
    "table-round-thursday-1": ["table", "player", "score", "place"],
    "table-round-thursday-2": ["table", "player", "score", "place"],
    "table-leaderboard": ["#", "entrant", "μ − 3σ", "matches"],
}


@pytest.mark.parametrize("width", [390, 1280])
def test_the_public_page_of_an_evening_shows_every_round(evening: Path, width: int) -> None:
    found = probe(browser(), evening, width)
    assert found["problems"] == []
    assert found["viewport"] == width and found["pageWidth"] <= width
    tables = {t["id"]: t for t in found["tables"]}  # type: ignore[attr-defined]
    assert tables["table-round-thursday-1"]["rows"] == 13  # one row per seat
    assert tables["table-round-thursday-2"]["rows"] == 12  # Ada withdrew
    for table_id, columns in KEY_COLUMNS.items():
        table = tables[table_id]
        assert table["overflow"] <= 1, (table_id, table)  # no scrolling sideways
        assert set(columns) <= set(table["shown"]), (table_id, table["shown"])
    if width >= 1280:  # on a desktop every column is there
        assert "opp. avg" in tables["table-standings-thursday"]["shown"]
        assert "seat" in tables["table-round-thursday-1"]["shown"]
    else:  # on a phone the secondary ones are left out
        assert "byes" not in tables["table-standings-thursday"]["shown"]


@pytest.fixture(scope="module")
def season(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The league page of a season: eleven members, three evenings of two Swiss rounds at
    4-player tables, best two evenings counted."""
    from c8league import club
    from c8league.events.pairing import pair_round

    folder = tmp_path_factory.mktemp("season")
    members = ["Ada", "Ben", "Cy", "Dee", "Eve", "Fred", "Gia", "Hal", "Ida", "Jo", "Kim"]
    text = 'name = "season"\ntitle = "Thursday Club: the autumn season"\ntable_size = 4\n'
    text += 'season = "best-of:2"\n'
    text += "".join(f'\n[[entrants]]\nname = "{n}"\n' for n in members)
    text += "".join(
        f'\n[[events]]\nname = "evening-{i}"\nformat = "swiss"\nrounds = 2\nseed = {i}\n'
        for i in (1, 2, 3)
    )
    league_file = folder / "season.toml"
    league_file.write_text(text, encoding="utf-8")
    db = open_database(str(folder / "season.db"))
    import_league(db, load_league_file(league_file))
    for evening in ("evening-1", "evening-2", "evening-3"):
        for _ in (1, 2):
            pair_round(db, evening)
            club.publish(db, evening)
            for table in club.pairing_sheet(db, evening).tables:
                scores = {n: max(0, table.target - 35 * i) for i, n in enumerate(table.seats)}
                club.add_result(db, evening, table.table, club.Entry(scores))
    path = folder / "season.html"
    path.write_text(render(build_report(db, "season"), "html"), encoding="utf-8")
    return path


def test_the_season_standings_read_well_on_a_phone(season: Path) -> None:
    found = probe(browser(), season, 390)
    assert found["problems"] == []
    assert found["viewport"] == 390 and found["pageWidth"] <= 390
    table = next(t for t in found["tables"] if t["id"] == "table-season")  # type: ignore[attr-defined]
    assert table["rows"] == 11
    assert table["overflow"] <= 1, table  # no scrolling sideways
    assert table["shown"][:6] == ["#", "member", "points", "1", "2", "3"], table["shown"]
    html = season.read_text(encoding="utf-8")
    assert "Events: 1. evening-1, 2. evening-2, 3. evening-3 (–: did not play it)." in html
    assert '<a href="#season">Season standings</a>' in html
    assert '<a href="#rounds-evening-1">evening-1 rounds</a>' in html
    shot = season.with_name("season-phone.png")
    run_browser(browser(), harness(season, 390, 1400), 390, 1400, f"--screenshot={shot}")
    assert shot.read_bytes().startswith(b"\x89PNG")


# -- a match, step by step (c8league match show ID --format html) ----------------------------

STEPPER = """
<script>
window.__problems = [];
window.addEventListener("error", function (e) {
  window.__problems.push("error " + e.message);
}, true);
window.addEventListener("load", function () {
  function seen() {
    return {
      position: document.getElementById("position").textContent,
      text: document.getElementById("text").textContent,
      cards: document.querySelectorAll("#seats .card").length,
      top: document.querySelector("#top .card").textContent,
      mover: document.querySelectorAll(".seat.mover").length
    };
  }
  var found = {start: seen()};
  for (var i = 0; i < 3; i++) { document.getElementById("next").click(); }
  found.third = seen();
  document.getElementById("prev").click();
  found.second = seen();
  document.getElementById("last").click();
  found.last = seen();
  document.getElementById("first").click();
  found.first = seen();
  found.problems = window.__problems;
  found.pageWidth = document.documentElement.scrollWidth;
  found.viewport = window.innerWidth;
  parent.postMessage(JSON.stringify(found), "*");
});
</script>
"""


class Cheats(BasePlayer):
    """Plays its first legal move, and on its fourth decision one that is not legal."""

    def start_match(self, seat: int, players: int, seed: int) -> None:
        self.moves = 0

    def choose(self, observation: Any, legal: Any) -> Any:
        self.moves += 1
        if self.moves == 4:
            return next(Move.parse(c) for c in ("AS", "KS") if Move.parse(c) not in legal)
        return legal[0]


@pytest.fixture(scope="module")
def game_page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from c8league.duel.running import DuelRequest, create_duel, run_duel
    from c8league.reports.game_html import render_game
    from c8league.reports.games import read_game

    folder = tmp_path_factory.mktemp("game")
    db = open_database(str(folder / "d.db"))
    registry.register("cheats", Cheats)
    try:
        name = create_duel(db, DuelRequest("cheats", "greedy", games=2))
        run_duel(db, name, workers=1)
    finally:
        registry.unregister("cheats")
    path = folder / "game.html"
    path.write_text(render_game(read_game(db, f"{name}:0A")), encoding="utf-8")
    return path


@pytest.mark.parametrize("width", [390, 1024])
def test_a_match_steps_move_by_move_in_a_browser(game_page: Path, width: int) -> None:
    probed = game_page.with_name(f"stepped-{width}.html")
    html = game_page.read_text().replace("<head>", "<head>" + STEPPER, 1)
    probed.write_text(html, encoding="utf-8")
    dom = run_browser(browser(), harness(probed, width, 900), width, 900, "--dump-dom")
    match = re.search(r'<pre id="probe">(.+?)</pre>', dom, re.S)
    assert match, "the page did not finish loading"
    text = match.group(1).replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">")
    found = json.loads(text)
    assert found["problems"] == []
    start = found["start"]
    assert start["position"].startswith("hand 1, move 0 of ")
    assert start["text"].startswith("Hand 1: A (cheats) deals; the starter is ")
    assert start["cards"] == 14 and start["mover"] == 0  # 7 cards each, nobody moved yet
    assert found["third"]["position"].startswith("hand 1, move 3 of ")
    assert found["third"]["mover"] == 1
    assert found["second"]["position"].startswith("hand 1, move 2 of ")
    assert found["first"] == start
    last = found["last"]["text"]
    assert "A (cheats) forfeits: illegal at its move 4: " in last
    assert found["pageWidth"] <= width
