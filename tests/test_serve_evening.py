"""``c8league serve``'s writes past the first report: a second player of the table
confirming or disputing it (when the league says a second player may), the organiser
correcting a final result on the organiser's page, forged requests that change nothing,
and a whole evening run through the server whose standings equal those of the same
results typed with ``result add``."""

from __future__ import annotations

import json
import re
import warnings
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

with warnings.catch_warnings():  # newer Starlette prefers httpx2; httpx works the same
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from test_serve_web import HOST, LEAGUES, csrf_of, digest, run, ticket_of

from c8league.events.status import event_status
from c8league.serve import ServeConfig, create_app
from c8league.storage.database import open_database

EVENT_PAGE = "/organiser/league/club/event/thursday"


def league_file(folder: Path, confirm: str | None) -> Path:
    """leagues/club-swiss.toml, with ``confirm_reports = confirm`` when given."""
    text = (LEAGUES / "club-swiss.toml").read_text(encoding="utf-8")
    if confirm is not None:
        text = text.replace(
            'season = "total"\n', f'season = "total"\nconfirm_reports = "{confirm}"\n'
        )
    path = folder / "club.toml"
    path.write_text(text, encoding="utf-8")
    return path


def new_club(folder: Path, confirm: str | None = None, *, publish: bool = True) -> Path:
    folder.mkdir(exist_ok=True)
    db = folder / "club.db"
    assert run(db, "league", "import", str(league_file(folder, confirm))) == 0
    if publish:
        assert run(db, "event", "pair", "thursday") == 0
        assert run(db, "event", "publish", "thursday") == 0
    return db


@dataclass
class Server:
    """A database served: one application (its tickets and rate limits are the
    server's), with as many browsers as a test needs."""

    db: Path
    config: ServeConfig
    app: Any = None

    def __post_init__(self) -> None:
        self.app = create_app(self.config)

    def phone(self) -> TestClient:
        """A browser of its own (its own cookies)."""
        return TestClient(self.app, base_url=f"http://{HOST}")

    def boss(self) -> TestClient:
        """The organiser's browser, logged in with the token."""
        client = self.phone()
        assert client.get(f"/organiser?token={self.config.token}").status_code == 200
        return client


@contextmanager
def serving(db: Path) -> Iterator[Server]:
    config = ServeConfig(db=open_database(str(db), create=False), hosts=(HOST,))
    try:
        yield Server(db, config)
    finally:
        config.db.close()


@pytest.fixture
def confirming(tmp_path: Path) -> Iterator[Server]:
    """The club night of leagues/club-swiss.toml where a second player confirms."""
    with serving(new_club(tmp_path, "second-player")) as server:
        yield server


@pytest.fixture
def organised(tmp_path: Path) -> Iterator[Server]:
    """The club night of leagues/club-swiss.toml, as shipped (the organiser confirms)."""
    with serving(new_club(tmp_path)) as server:
        yield server


def table_codes(server: Server) -> dict[int, str]:
    text = server.boss().get(EVENT_PAGE).text
    rows = re.findall(r"<tr><td>(\d+)</td><td class=\"text\"><code>(\w+)", text)
    return {int(t): c for t, c in rows}


def tables(db: Path, capsys: pytest.CaptureFixture[str]) -> list[dict[str, object]]:
    capsys.readouterr()
    assert run(db, "event", "sheet", "thursday", "--format", "json") == 0
    return json.loads(capsys.readouterr().out)["tables"]  # type: ignore[no-any-return]


def open_table(client: TestClient, code: str) -> str:
    """The table's page, found by its code."""
    form = client.get("/report").text
    page = client.post("/report", data={"csrf": csrf_of(form), "code": code})
    assert page.status_code == 200, page.text
    return page.text


def send_report(
    client: TestClient, code: str, values: list[int], player: str = ""
) -> tuple[int, str]:
    page = open_table(client, code)
    data = {"csrf": csrf_of(page), "ticket": ticket_of(page), "player": player}
    data.update({f"score{i}": str(v) for i, v in enumerate(values)})
    done = client.post("/report/scores", data=data)
    return done.status_code, done.text


def second(
    client: TestClient, code: str, action: str, player: str, values: Sequence[int] = ()
) -> tuple[int, str]:
    page = open_table(client, code)
    data = {"csrf": csrf_of(page), "ticket": ticket_of(page), "action": action, "player": player}
    data.update({f"score{i}": str(v) for i, v in enumerate(values)})
    done = client.post("/report/second", data=data)
    return done.status_code, done.text


def winning(table: dict[str, object], first: int = 0) -> list[int]:
    """Scores of a finished match at ``table``: seat ``first`` reaches the target."""
    seats = table["seats"]
    assert isinstance(seats, list)
    target = table["target"]
    assert isinstance(target, int)
    values = [40, 20, 10, 5][: len(seats)]
    values[first] = target
    return values


def trail(db: Path, capsys: pytest.CaptureFixture[str]) -> str:
    capsys.readouterr()
    assert run(db, "result", "history", "thursday", "--json") == 0
    return capsys.readouterr().out


# --- a second player confirms ----------------------------------------------------------


def test_a_second_player_confirms_the_reported_result(
    confirming: Server, capsys: pytest.CaptureFixture[str]
) -> None:
    db, config = confirming.db, confirming.config
    codes = table_codes(confirming)
    t1 = tables(db, capsys)[0]
    seats = t1["seats"]
    assert isinstance(seats, list)
    first, other, late = confirming.phone(), confirming.phone(), confirming.phone()
    stale = open_table(late, codes[1])  # a third phone has the scores form open
    before = digest(db)
    # Where a second player confirms, the one who reports says who they are.
    status, page = send_report(first, codes[1], winning(t1))
    assert status == 400 and "say which player of table 1 you are" in page
    status, page = send_report(first, codes[1], winning(t1), player="Nobody")
    assert status == 400 and "does not sit at table 1" in page
    assert digest(db) == before
    status, page = send_report(first, codes[1], winning(t1), player=seats[0])
    assert status == 200 and "a second player of the table confirms it" in page
    assert event_status(config.db, "thursday").matches_done == 0
    # The phone that had the form open is shown the conflict, and where to confirm.
    data = {"csrf": csrf_of(stale), "ticket": ticket_of(stale), "player": seats[2]}
    data.update({f"score{i}": str(v) for i, v in enumerate(winning(t1, first=1))})
    clash = late.post("/report/scores", data=data)
    assert clash.status_code == 409 and "type the table's code again" in clash.text
    # The table's page shows the report and the confirming form, to every phone.
    shown = open_table(other, codes[1])
    assert f"Reported already by {seats[0]}" in shown and 'value="confirm"' in shown
    reported = digest(db)
    # Not by who reported it, nor from the phone it came from.
    status, page = second(other, codes[1], "confirm", seats[0])
    assert status == 400 and "another player of the table confirms" in page
    status, page = second(first, codes[1], "confirm", seats[1])
    assert status == 400 and "reported from this phone" in page
    status, page = second(other, codes[1], "confirm", "")
    assert status == 400 and "say which player" in page
    assert digest(db) == reported
    # Sent from a page of another site, with the phone's own cookie and token: refused.
    page = open_table(other, codes[1])
    data = {"csrf": csrf_of(page), "ticket": ticket_of(page), "action": "confirm"}
    forged = other.post(
        "/report/second",
        data={**data, "player": seats[1]},
        headers={"origin": "http://evil.example"},
    )
    assert forged.status_code == 403 and "another site" in forged.text
    assert digest(db) == reported
    # A second player, on their own phone: final.
    status, page = second(other, codes[1], "confirm", seats[1])
    assert status == 200 and "The result is final" in page
    assert event_status(config.db, "thursday").matches_done == 1
    note = f"reported at the table with table 1's code by {seats[0]}; confirmed there by "
    assert note + f"{seats[1]}, a second player" in trail(db, capsys)
    # The code is spent.
    form = other.get("/report").text
    spent = other.post("/report", data={"csrf": csrf_of(form), "code": codes[1]})
    assert spent.status_code == 403 and "no longer works" in spent.text
    assert run(db, "verify") == 0


def test_a_disputed_result_waits_for_the_organiser_who_sees_both(
    confirming: Server, capsys: pytest.CaptureFixture[str]
) -> None:
    db, config = confirming.db, confirming.config
    codes = table_codes(confirming)
    t2 = tables(db, capsys)[1]
    seats = t2["seats"]
    assert isinstance(seats, list)
    first, other, third = confirming.phone(), confirming.phone(), confirming.phone()
    assert send_report(first, codes[2], winning(t2), player=seats[0])[0] == 200
    reported = digest(db)
    # A dispute with the reported scores themselves, or with scores that do not fit.
    status, page = second(other, codes[2], "dispute", seats[1], winning(t2))
    assert status == 400 and "confirm them instead" in page
    status, page = second(other, codes[2], "dispute", seats[1], [5, 5, 5, 5][: len(seats)])
    assert status == 400 and "reached" in page
    assert digest(db) == reported
    stale = open_table(third, codes[2])  # a third phone has the table's page open
    status, page = second(other, codes[2], "dispute", seats[1], winning(t2, first=1))
    assert status == 200 and f"Disputed by {seats[1]}" in page
    assert event_status(config.db, "thursday").matches_done == 0
    # No one confirms a disputed result: the organiser decides, seeing both.
    assert 'value="confirm"' not in open_table(third, codes[2])
    data = {"csrf": csrf_of(stale), "ticket": ticket_of(stale), "action": "confirm"}
    late = third.post("/report/second", data={**data, "player": seats[2]})
    assert late.status_code == 400 and "disputed already" in late.text
    organiser = confirming.boss()
    text = organiser.get(EVENT_PAGE).text
    assert f"reported by {seats[0]}" in text and f"disputed</strong> by {seats[1]}" in text
    assert "Accept the dispute" in text
    capsys.readouterr()
    assert run(db, "result", "codes", "thursday") == 0
    assert f"disputed by {seats[1]}" in capsys.readouterr().out
    done = organiser.post(
        EVENT_PAGE, data={"csrf": csrf_of(text), "action": "accept-dispute", "table": "2"}
    )
    assert done.status_code == 200 and "the disputed scores are final" in done.text
    result = tables(db, capsys)[1]["result"]
    assert (result[0]["name"], result[0]["place"]) == (seats[1], 1)  # type: ignore[index]
    assert f"disputed by {seats[1]}; the dispute's scores accepted by the organiser (serve)" in (
        trail(db, capsys)
    )


def test_where_the_organiser_confirms_a_second_player_cannot(
    organised: Server, capsys: pytest.CaptureFixture[str]
) -> None:
    db = organised.db
    codes = table_codes(organised)
    t1 = tables(db, capsys)[0]
    seats = t1["seats"]
    assert isinstance(seats, list)
    other = organised.phone()
    form = open_table(other, codes[1])
    # Saying who reports is optional here, and kept when said.
    assert send_report(organised.phone(), codes[1], winning(t1), player=seats[0])[0] == 200
    page = open_table(other, codes[1])
    assert 'value="confirm"' not in page and "waits for the organiser" in page
    before = digest(db)
    data = {"csrf": csrf_of(form), "ticket": ticket_of(form), "action": "confirm"}
    refused = other.post("/report/second", data={**data, "player": seats[1]})
    assert refused.status_code == 400
    assert "the organiser makes a reported result final" in refused.text
    assert digest(db) == before
    assert run(db, "result", "accept", "thursday", "--table", "1", "--dispute") == 1
    assert "is not disputed" in capsys.readouterr().err
    assert run(db, "result", "accept", "thursday", "--table", "1") == 0
    assert f"table 1's code by {seats[0]}; accepted by the organiser" in trail(db, capsys)


def test_the_league_file_sets_and_unsets_who_confirms(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``league show`` says who makes a reported result final, as the file last set it."""
    db = new_club(tmp_path, "second-player", publish=False)

    def confirms() -> str:
        capsys.readouterr()
        assert run(db, "league", "show", "club", "--json") == 0
        return str(json.loads(capsys.readouterr().out)["confirm_reports"])

    line = "A result reported from a table is final once a second player there confirms it."
    assert confirms() == "second-player"
    assert run(db, "league", "show", "club") == 0
    assert line in capsys.readouterr().out.splitlines()
    assert run(db, "league", "import", str(league_file(tmp_path, None))) == 0
    assert confirms() == "second-player"  # left out: as before
    assert run(db, "league", "import", str(league_file(tmp_path, "organiser"))) == 0
    assert confirms() == "organiser"
    assert run(db, "league", "show", "club") == 0
    assert line not in capsys.readouterr().out
    assert run(db, "league", "import", str(league_file(tmp_path, "anyone"))) == 2


# --- the organiser corrects a final result ---------------------------------------------


def test_the_organiser_corrects_a_final_result(
    organised: Server, capsys: pytest.CaptureFixture[str]
) -> None:
    db = organised.db
    t1 = tables(db, capsys)[0]
    seats = t1["seats"]
    assert isinstance(seats, list)
    text = ",".join(f"{n}={v}" for n, v in zip(seats, winning(t1), strict=True))
    assert run(db, "result", "add", "thursday", "--table", "1", "--scores", text) == 0
    organiser = organised.boss()
    page = organiser.get(EVENT_PAGE).text
    assert "Correct" in page and 'value="correct"' in page
    form = {"csrf": csrf_of(page), "action": "correct", "table": "1", "round": "1",
            "note": "the tally was misread"}  # fmt: skip
    names = {f"name{i}": n for i, n in enumerate(seats)}
    fixed = {f"score{i}": str(v) for i, v in enumerate(winning(t1, first=1))}
    before = digest(db)
    # Scores that do not fit: result edit's line, nothing changed.
    bad = organiser.post(EVENT_PAGE, data={**form, **names, **fixed, "score1": "3"})
    assert bad.status_code == 400 and "reached" in bad.text
    # Forged: no organiser's cookie, no or a wrong CSRF token, another site's origin,
    # another host.
    forged = {**form, **names, **fixed}
    stranger = organised.phone()
    stranger.get("/report")
    assert stranger.post(EVENT_PAGE, data=forged).status_code == 403
    assert organiser.post(EVENT_PAGE, data={**forged, "csrf": ""}).status_code == 403
    assert organiser.post(EVENT_PAGE, data={**forged, "csrf": "forged"}).status_code == 403
    other_site = organiser.post(EVENT_PAGE, data=forged, headers={"origin": "http://evil.example"})
    assert other_site.status_code == 403 and "another site" in other_site.text
    other_host = organiser.post(EVENT_PAGE, data=forged, headers={"host": "evil.example"})
    assert other_host.status_code == 403
    assert digest(db) == before
    # The organiser's own page, from its own origin: corrected, audited.
    done = organiser.post(EVENT_PAGE, data=forged, headers={"origin": f"http://{HOST}"})
    assert done.status_code == 200 and "the result is corrected" in done.text
    result = tables(db, capsys)[0]["result"]
    assert (result[0]["name"], result[0]["place"]) == (seats[1], 1)  # type: ignore[index]
    history = trail(db, capsys)
    assert "the tally was misread (corrected by the organiser (serve))" in history
    # The same correction again: result edit's "nothing to change".
    again = organiser.post(
        EVENT_PAGE, data={**forged, "csrf": csrf_of(organiser.get(EVENT_PAGE).text)}
    )
    assert again.status_code == 400 and "nothing to change" in again.text
    assert run(db, "verify") == 0


# --- an evening through the server -----------------------------------------------------


def json_of(db: Path, capsys: pytest.CaptureFixture[str], *args: str) -> object:
    capsys.readouterr()
    assert run(db, *args, "--json") == 0
    return json.loads(capsys.readouterr().out)


def evening_scores(table: dict[str, object], number: int) -> list[int]:
    """A finished match's scores, different from table to table and round to round."""
    return winning(table, first=(table["table"] + number) % len(table["seats"]))  # type: ignore[arg-type, operator]


def test_an_evening_through_the_server_stands_as_one_typed_with_result_add(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Two rounds: the organiser pairs and publishes on the organiser's page, every table
    reports from a phone of its own, one table's two phones send different scores (the
    second is shown the conflict), the organiser accepts every report and corrects one
    result. The same evening typed with ``result add`` (and ``result edit``) stands the
    same: its sheets, standings, season standings and ratings."""
    served_db = new_club(tmp_path / "served", publish=False)
    typed_db = new_club(tmp_path / "typed", publish=False)
    with serving(served_db) as server:
        organiser = server.boss()

        def act(action: str, **fields: str) -> str:
            page = organiser.get(EVENT_PAGE).text
            done = organiser.post(EVENT_PAGE, data={"csrf": csrf_of(page), "action": action,
                                                    **fields})  # fmt: skip
            assert done.status_code == 200, done.text
            assert 'class="refused"' not in done.text, done.text
            return done.text

        for number in (1, 2):
            assert f"round {number} paired" in act("pair")
            assert f"round {number} published" in act("publish")
            assert run(typed_db, "event", "pair", "thursday") == 0
            assert run(typed_db, "event", "publish", "thursday") == 0
            sheet = tables(served_db, capsys)
            assert sheet == tables(typed_db, capsys)  # the same tables
            codes = table_codes(server)
            assert sorted(codes) == [1, 2, 3, 4]
            for table in sheet:
                values = evening_scores(table, number)
                seats = table["seats"]
                assert isinstance(seats, list)
                code = codes[table["table"]]  # type: ignore[index]
                other = server.phone()
                form = open_table(other, code)  # a second phone at the table, at once
                status, page = send_report(server.phone(), code, values, player=seats[0])
                assert status == 200 and "Reported:" in page
                if table["table"] == 2:  # its scores differ: the conflict is shown
                    clash = {f"score{i}": str(v) for i, v in enumerate(winning(table, 1))}
                    data = {"csrf": csrf_of(form), "ticket": ticket_of(form), **clash}
                    sent = other.post("/report/scores", data={**data, "player": seats[1]})
                    assert sent.status_code == 409 and "has a reported result already" in sent.text
                    assert "Reported first:" in sent.text and "(not stored)" in sent.text
                assert f"reported by {seats[0]}" in organiser.get(EVENT_PAGE).text
                text = ",".join(f"{n}={v}" for n, v in zip(seats, values, strict=True))
                assert run(typed_db, "result", "add", "thursday", "--table",
                           str(table["table"]), "--scores", text) == 0  # fmt: skip
            for table in sheet:
                assert "is final" in act("accept", table=str(table["table"]))
        # A correction of round 1's table 3: on the organiser's page, and with result edit.
        round1 = json_of(typed_db, capsys, "result", "list", "thursday", "--round", "1")
        t3 = round1["tables"][2]  # type: ignore[index]
        fixed = winning(
            t3, first=(evening_scores(t3, 1).index(t3["target"]) + 1) % len(t3["seats"])
        )
        fields = {f"name{i}": n for i, n in enumerate(t3["seats"])}
        fields.update({f"score{i}": str(v) for i, v in enumerate(fixed)})
        act("correct", table="3", round="1", note="misread", **fields)
        text = ",".join(f"{n}={v}" for n, v in zip(t3["seats"], fixed, strict=True))
        assert run(typed_db, "result", "edit", "thursday", "--round", "1", "--table", "3",
                   "--scores", text, "--note", "misread") == 0  # fmt: skip
        standings = organiser.get("/league/club/event/thursday").text
    for what in (
        ("event", "standings", "thursday"),
        ("league", "standings", "club"),
        ("ratings", "show", "club"),
        ("result", "list", "thursday", "--round", "1"),
        ("result", "list", "thursday", "--round", "2"),
    ):
        assert json_of(served_db, capsys, *what) == json_of(typed_db, capsys, *what), what
    rows = json_of(typed_db, capsys, "event", "standings", "thursday")
    assert isinstance(rows, list) and rows[0]["name"] in standings
    assert run(served_db, "verify") == 0


def test_refused_states_exit_1_and_unknown_tables_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """docs/faults.md's table: a state the records refuse is 1, a table not there 2."""
    db = new_club(tmp_path, publish=False)
    assert run(db, "result", "codes", "thursday") == 1  # no published round yet
    assert run(db, "event", "pair", "thursday") == 0
    assert run(db, "result", "accept", "thursday", "--table", "1") == 1  # a draft
    assert "is not published yet" in capsys.readouterr().err
    assert run(db, "event", "publish", "thursday") == 0
    before = digest(db)
    assert run(db, "result", "accept", "thursday", "--table", "1") == 1
    assert "no reported result to accept" in capsys.readouterr().err
    assert run(db, "result", "accept", "thursday", "--table", "1", "--refuse") == 1
    assert "no reported result to refuse" in capsys.readouterr().err
    assert run(db, "result", "accept", "thursday", "--table", "9") == 2
    assert run(db, "result", "accept", "thursday", "--table", "1", "--refuse", "--dispute") == 2
    assert digest(db) == before


def test_a_confirmation_and_a_dispute_at_once_one_counts(
    confirming: Server, capsys: pytest.CaptureFixture[str]
) -> None:
    """Two phones at the table answer the report at the same moment: one answer is
    taken, and the other phone is told why its own was not."""
    import threading

    from c8league.club.reporting import round_codes

    db, config = confirming.db, confirming.config
    codes = table_codes(confirming)
    t1 = tables(db, capsys)[0]
    seats = t1["seats"]
    assert isinstance(seats, list)
    assert send_report(confirming.phone(), codes[1], winning(t1), player=seats[0])[0] == 200
    phones = [confirming.phone(), confirming.phone()]
    pages = [open_table(p, codes[1]) for p in phones]
    sends = [
        {"action": "confirm", "player": seats[1]},
        {"action": "dispute", "player": seats[2],
         **{f"score{i}": str(v) for i, v in enumerate(winning(t1, first=2))}},
    ]  # fmt: skip
    answers: list[tuple[str, int, str]] = []
    together = threading.Barrier(2)

    def answer(index: int) -> None:
        data = {"csrf": csrf_of(pages[index]), "ticket": ticket_of(pages[index]), **sends[index]}
        together.wait(timeout=60)  # a bound on a failure, not a measure
        done = phones[index].post("/report/second", data=data)
        answers.append((sends[index]["action"], done.status_code, done.text))

    threads = [threading.Thread(target=answer, args=(i,)) for i in (0, 1)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    taken = [a for a in answers if a[1] == 200]
    assert len(taken) == 1, [(a, s) for a, s, _ in answers]
    refused = next(a for a in answers if a[1] != 200)
    final = event_status(config.db, "thursday").matches_done == 1
    report = round_codes(config.db, "thursday")[1][0].report
    assert report is not None
    if taken[0][0] == "confirm":
        assert final and report.disputed is None
        assert refused[1] == 403 and "no longer works" in refused[2]
    else:
        assert not final and report.disputed_by == seats[2]
        assert refused[1] == 400 and "disputed already" in refused[2]
