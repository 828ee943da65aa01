"""``c8league serve``'s pages and write paths, through HTTP (Starlette's TestClient):
every page of a club evening, a duel and a ladder renders; every write is refused
without a valid code or the organiser's token, and a refusal stores nothing."""

from __future__ import annotations

import hashlib
import json
import re
import socket
import sqlite3
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

with warnings.catch_warnings():  # newer Starlette prefers httpx2; httpx works the same
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from clis import cli as run

from c8league.club.reporting import report_result
from c8league.errors import ResultError
from c8league.events.status import event_status
from c8league.serve import ServeConfig, create_app
from c8league.storage.database import open_database

LEAGUES = Path(__file__).resolve().parents[1] / "leagues"
HOST = "testserver"


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
    assert "<td>0.67</td>" in page or "<td>0.5</td>" in page  # points as the CLI prints them
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


GATE_BOT = """\
import json, os, sys, time
gate, first = sys.argv[1], True
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "hello":
        print(json.dumps({"type": "hello", "name": "gate", "version": "1.0"}), flush=True)
    elif message["type"] == "move":
        if first:  # a match begins: wait until the test lets it be played
            first = False
            with open(os.path.join(gate, "played")) as played:
                started = len(played.readlines())
            with open(os.path.join(gate, "waiting"), "a") as waiting:
                waiting.write("match\\n")
            while int(open(os.path.join(gate, "allow")).read()) <= started:
                time.sleep(0.01)
            with open(os.path.join(gate, "played"), "a") as played:
                played.write("match\\n")
        print(json.dumps({"type": "move", "move": message["legal"][0]}), flush=True)
    elif message["type"] == "quit":
        break
"""


def test_a_running_duels_page_shows_its_llr_moving_and_ends_as_duel_show(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """While ``duel`` plays (another process), the page shows more pairs and a new LLR
    each time they are stored; once it ends, the page's figures are ``duel show``'s.
    The duel's bot plays a match only when the test lets it (a gate), so that the pairs
    are stored in steps the test waits for, however fast the machine."""
    import subprocess
    import sys
    import time

    from c8league.duel.running import COMMIT_SECONDS

    gate = tmp_path / "gate"
    gate.mkdir()

    def allow(matches: int) -> None:  # (replaced whole: the bot never reads half of it)
        (gate / "allow.new").write_text(str(matches))
        (gate / "allow.new").replace(gate / "allow")

    allow(0)
    (gate / "played").write_text("")
    (gate / "waiting").write_text("")
    (gate / "bot.py").write_text(GATE_BOT)
    db = tmp_path / "live.db"
    assert run(db, "init") == 0
    bot = f"cmd:{sys.executable} {gate / 'bot.py'} {gate}"
    command = [sys.executable, "-m", "c8league", "--db", str(db), "duel", "greedy", bot,
               "--sprt", "elo0=0 elo1=5", "--max-games", "8", "--name", "live", "--seed", "5",
               "--workers", "1", "--sandbox", "off"]  # fmt: skip
    playing = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    config = ServeConfig(db=open_database(str(db), create=False))

    def figures(page: str) -> tuple[str, int]:
        found = re.search(r'aria-label="LLR (-?[\d.]+) after (\d+) pairs', page)
        return ("", 0) if found is None else (found[1], int(found[2]))

    def played() -> int:
        return len((gate / "played").read_text().splitlines())

    def waiting() -> int:
        return len((gate / "waiting").read_text().splitlines())

    def until(condition: Callable[[], bool], what: str) -> None:
        deadline = time.monotonic() + 60
        while not condition():
            if playing.poll() is not None:
                said = playing.stderr.read().decode() if playing.stderr else ""
                raise AssertionError(f"the duel ended before {what}: {said}")
            assert time.monotonic() < deadline, f"gave up waiting: {what}"
            time.sleep(0.02)

    seen = []
    try:
        with TestClient(create_app(config)) as client:

            def page() -> str:
                return client.get("/duel/live").text

            for pairs in (1, 2, 3):  # a pair is two matches
                until(lambda n=pairs: waiting() == 2 * n - 1, "the pair's first match asked")  # type: ignore[misc]
                # The duel waits for it: a pair is stored as it ends if the last store is
                # that long past.
                time.sleep(COMMIT_SECONDS * 1.2)
                allow(2 * pairs)
                until(lambda n=pairs: figures(page())[1] == n, f"{pairs} pairs shown")  # type: ignore[misc]
                assert played() == 2 * pairs
                shown = page()
                assert "<strong>playing</strong>" in shown and "data-live=" in shown
                seen.append(figures(shown))
            allow(100)
            assert playing.wait(timeout=120) == 0, playing.stderr.read() if playing.stderr else ""
            final = page()
    finally:
        if playing.poll() is None:
            playing.kill()
        config.db.close()
    assert [pairs for _, pairs in seen] == [1, 2, 3]  # the graph grew while it played
    capsys.readouterr()
    assert run(db, "duel", "show", "live", "--json") == 0
    shown = json.loads(capsys.readouterr().out)
    llr, pairs = figures(final)
    assert (llr, pairs) == (f"{shown['stats']['sprt']['llr']:.2f}", shown["stats"]["pairs"])
    assert pairs == 4 and "<strong>playing</strong>" not in final and "data-live=" not in final


# --- writes ----------------------------------------------------------------------------


def organiser(client: TestClient, config: ServeConfig) -> None:
    assert client.get(f"/organiser?token={config.token}").status_code == 200


def csrf_of(page: str) -> str:
    found = re.search(r'name="csrf" value="([^"]+)"', page)
    assert found is not None
    return found.group(1)


def ticket_of(page: str) -> str:
    found = re.search(r'name="ticket" value="([^"]+)"', page)
    assert found is not None
    return found.group(1)


def codes(client: TestClient, config: ServeConfig) -> dict[int, str]:
    """The codes of the round's tables, as the organiser's page shows them."""
    page = TestClient(client.app, base_url=f"http://{HOST}")
    organiser(page, config)
    text = page.get("/organiser/league/club/event/thursday").text
    return {
        int(t): c for t, c in re.findall(r"<tr><td>(\d+)</td><td class=\"text\"><code>(\w+)", text)
    }


def scores_of(club: Path, capsys: pytest.CaptureFixture[str], table: int) -> dict[str, str]:
    t = sheet(club, capsys)["tables"][table - 1]  # type: ignore[index]
    values = [t["target"], 40, 20, 10][: len(t["seats"])]
    return {f"score{i}": str(v) for i, v in enumerate(values)}


def report(client: TestClient, code: str, scores: dict[str, str]) -> tuple[int, str]:
    """Type ``code`` on the report page, then the scores: the last answer."""
    form = client.get("/report").text
    step = client.post("/report", data={"csrf": csrf_of(form), "code": code})
    if step.status_code != 200 or 'name="ticket"' not in step.text:
        return step.status_code, step.text
    data = {"csrf": csrf_of(step.text), "ticket": ticket_of(step.text), **scores}
    done = client.post("/report/scores", data=data)
    return done.status_code, done.text


def test_a_table_reports_and_the_organiser_accepts(
    served: tuple[TestClient, ServeConfig], club: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    client, config = served
    table_codes = codes(client, config)
    assert sorted(table_codes) == [1, 2, 3, 4]
    # The public pages never show a code.
    for path in ("/", "/league/club", "/league/club/event/thursday", "/report"):
        assert not any(c in client.get(path).text for c in table_codes.values())
    before = digest(club)
    status, page = report(client, table_codes[2].lower(), scores_of(club, capsys, 2))
    assert status == 200 and "Reported:" in page and "organiser accepts" in page
    assert table_codes[2] not in page
    assert event_status(config.db, "thursday").matches_done == 0  # reported, not final
    # The organiser accepts it on the page: final, in the audit trail with its source.
    boss = TestClient(client.app, base_url=f"http://{HOST}")
    organiser(boss, config)
    page_text = boss.get("/organiser/league/club/event/thursday").text
    assert "reported:" in page_text
    accepted = boss.post(
        "/organiser/league/club/event/thursday",
        data={"csrf": csrf_of(page_text), "action": "accept", "table": "2"},
    )
    assert accepted.status_code == 200 and "is final" in accepted.text
    assert digest(club) != before
    capsys.readouterr()
    assert run(club, "result", "history", "thursday", "--json") == 0
    trail = capsys.readouterr().out
    assert "reported at the table with table 2's code; accepted by the organiser (serve)" in trail
    # The code no longer works once its table's result is final.
    after = digest(club)
    status, page = report(client, table_codes[2], scores_of(club, capsys, 2))
    assert status == 403 and "no longer works" in page
    assert digest(club) == after
    # result accept in the command line does the same for another table.
    assert report(client, table_codes[3], scores_of(club, capsys, 3))[0] == 200
    assert run(club, "result", "accept", "thursday", "--table", "3") == 0
    assert run(club, "verify") == 0


def test_refused_writes_store_nothing(
    served: tuple[TestClient, ServeConfig], club: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    client, config = served
    table_codes = codes(client, config)
    scores = scores_of(club, capsys, 1)
    before = digest(club)
    # A wrong code, and another table's code with this table's scores.
    status, page = report(client, "ZZZZZZ", scores)
    assert status == 403 and "no table of a published round has this code" in page
    # Another table's code opens that table's form only (its own players, by seat), and
    # with this table's names the scores are refused as result add refuses them.
    form = client.get("/report").text
    step = client.post("/report", data={"csrf": csrf_of(form), "code": table_codes[2]})
    seats = sheet(club, capsys)["tables"]  # type: ignore[index]
    assert all(name in step.text for name in seats[1]["seats"])  # type: ignore[index]
    assert not any(name in step.text for name in seats[0]["seats"])  # type: ignore[index]
    names = dict(zip(seats[0]["seats"], map(int, scores.values()), strict=True))  # type: ignore[index]
    with pytest.raises(ResultError, match="not seated"):
        report_result(config.db, table_codes[2], names)
    # Scores that do not fit: the same line as result add's.
    bad = {**scores, "score0": "10"}
    status, page = report(client, table_codes[1], bad)
    assert status == 400 and "reached" in page
    status, page = report(client, table_codes[1], {**scores, "score1": "x"})
    assert status == 400 and "refused" in page
    assert digest(club) == before
    # No CSRF token, or one that is not the cookie's.
    form = client.get("/report").text
    assert client.post("/report", data={"code": table_codes[1]}).status_code == 403
    assert (
        client.post("/report", data={"csrf": "forged", "code": table_codes[1]}).status_code == 403
    )
    step = client.post("/report", data={"csrf": csrf_of(form), "code": table_codes[1]})
    data = {"ticket": ticket_of(step.text), **scores}
    assert client.post("/report/scores", data=data).status_code == 403
    # A forged ticket (another match's number, or no signature).
    forged = {"csrf": csrf_of(form), **scores}
    for ticket in ("1.00", "2", ticket_of(step.text).replace(".", "0.")):
        assert client.post("/report/scores", data={**forged, "ticket": ticket}).status_code == 403
    # The organiser's writes without the organiser's cookie, or without a CSRF token.
    assert (
        client.post(
            "/organiser/league/club/event/thursday",
            data={"csrf": csrf_of(form), "action": "pair"},
        ).status_code
        == 403
    )
    boss = TestClient(client.app, base_url=f"http://{HOST}")
    organiser(boss, config)
    assert (
        boss.post("/organiser/league/club/event/thursday", data={"action": "pair"}).status_code
        == 403
    )
    # The organiser's cookie at another address.
    page = boss.get("/organiser/league/club/event/thursday").text
    elsewhere = boss.post(
        "/organiser/league/club/event/thursday",
        data={"csrf": csrf_of(page), "action": "pair"},
        headers={"host": "evil.example"},
    )
    assert elsewhere.status_code == 403
    assert digest(club) == before


def test_a_code_of_a_finished_round_and_a_second_report(
    served: tuple[TestClient, ServeConfig], club: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    client, config = served
    table_codes = codes(client, config)
    first = scores_of(club, capsys, 1)
    assert report(client, table_codes[1], first)[0] == 200
    # A second phone at the same table: the conflict is shown, nothing overwritten.
    phone = TestClient(client.app, base_url=f"http://{HOST}")
    before = digest(club)
    other = {**first, "score1": "45"}
    status, page = report(phone, table_codes[1], other)
    assert status == 200 and "Reported already" in page  # found before its scores are sent
    assert digest(club) == before
    # Both phones had the form open at once: the second's scores are refused.
    phone2 = TestClient(client.app, base_url=f"http://{HOST}")
    form = phone2.get("/report").text
    assert run(club, "result", "accept", "thursday", "--table", "1", "--refuse") == 0
    step = phone2.post("/report", data={"csrf": csrf_of(form), "code": table_codes[1]})
    assert report(client, table_codes[1], first)[0] == 200
    middle = digest(club)
    data = {"csrf": csrf_of(step.text), "ticket": ticket_of(step.text), **other}
    clash = phone2.post("/report/scores", data=data)
    assert clash.status_code == 409 and "has a reported result already" in clash.text
    assert "You sent" in clash.text and "45" in clash.text
    assert digest(club) == middle
    # Every table's result entered: the round is over, and its codes work no more.
    for table in (1, 2, 3, 4):
        values = scores_of(club, capsys, table)
        if table == 1:
            assert run(club, "result", "accept", "thursday", "--table", "1") == 0
            continue
        t = sheet(club, capsys)["tables"][table - 1]  # type: ignore[index]
        text = ",".join(f"{n}={v}" for n, v in zip(t["seats"], values.values(), strict=True))
        assert run(club, "result", "add", "thursday", "--table", str(table), "--scores", text) == 0
    done = digest(club)
    for code in table_codes.values():
        status, page = report(client, code, first)
        assert status == 403 and "no longer works" in page
    assert digest(club) == done


def test_wrong_codes_are_rate_limited_per_client(
    served: tuple[TestClient, ServeConfig], club: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    client, config = served
    table_codes = codes(client, config)
    for _ in range(10):
        assert report(client, "WRONG1", {})[0] == 403
    status, page = report(client, table_codes[1], {})
    assert status == 429 and "too many wrong codes" in page


def test_serve_prints_the_players_and_the_organisers_address(
    club: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import uvicorn

    served: list[object] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **how: served.append((app, how)))
    capsys.readouterr()
    port = free_port()
    assert run(club, "serve", "--port", str(port)) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == f"players: http://127.0.0.1:{port}/"
    assert lines[1].startswith(f"organiser: http://127.0.0.1:{port}/organiser?token=")
    token = lines[1].partition("token=")[2]
    app, how = served[0]  # type: ignore[misc]
    assert how == {"host": "127.0.0.1", "port": port, "log_level": "warning"}
    with TestClient(app, base_url=f"http://127.0.0.1:{port}") as client:  # type: ignore[arg-type]
        assert client.get(f"/organiser?token={token}").status_code == 200
    with TestClient(app, base_url=f"http://192.0.2.7:{port}") as client:  # type: ignore[arg-type]
        assert client.get(f"/organiser?token={token}").status_code == 403


def free_port() -> int:
    """A port no server listens at on this machine (now)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_serve_refuses_a_taken_port_before_it_prints_a_token(
    club: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        capsys.readouterr()
        assert run(club, "serve", "--port", str(port)) == 1  # refused, as a busy database
        said = capsys.readouterr()
    assert said.out == "" and "token" not in said.err
    assert f"port {port} at 127.0.0.1 is taken" in said.err
    assert run(club, "serve", "--host", "nohost.invalid") == 2
    assert "cannot listen at nohost.invalid:8000" in capsys.readouterr().err


def test_the_sheet_prints_each_tables_code_and_the_report_page(
    served: tuple[TestClient, ServeConfig], club: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    client, config = served
    table_codes = codes(client, config)
    capsys.readouterr()
    assert run(club, "event", "sheet", "thursday", "--format", "json") == 0
    assert "codes" not in json.loads(capsys.readouterr().out)  # only when asked for
    assert run(club, "event", "sheet", "thursday", "--codes", "--format", "json") == 0
    data = json.loads(capsys.readouterr().out)
    assert {c["table"]: c["code"] for c in data["codes"]} == table_codes
    url = "http://192.0.2.7:8000/report"
    assert run(club, "event", "sheet", "thursday", "--codes", "--url", url) == 0
    text = capsys.readouterr().out
    assert f"report each table's result at {url} with its code" in text
    assert all(code in text for code in table_codes.values())
    assert run(club, "event", "sheet", "thursday", "--codes", "--url", url, "--format", "html") == 0
    page = capsys.readouterr().out
    assert page.count("<svg") == 4 and page.count(url) >= 4
    assert all(f'<b class="code">{code}</b>' in page for code in table_codes.values())
    assert run(club, "event", "sheet", "thursday", "--url", url) == 2
    assert "--url goes with --codes" in capsys.readouterr().err
    assert run(club, "event", "sheet", "thursday", "--codes", "--url", "ftp://x") == 2
