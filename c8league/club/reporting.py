"""Results reported from the table: each table of a published round has a short code
(made when the organiser first asks for the round's codes); a player at the table
types it with the scores, and the result is stored as *reported*, checked as
``result add`` checks it. It becomes the record when the organiser accepts it
(:func:`accept_report`, ``result accept``): then it is added as ``result add`` adds
one, and the audit trail says it was reported with the table's code (by whom, when the
player said) and accepted by the organiser. When the league says so (its file's
``confirm_reports = "second-player"``), a second player of the table, on their own phone,
may make it final instead (:func:`confirm_at`), or dispute it with the scores they hold
true (:func:`dispute_at`): a disputed result waits for the organiser, who sees both. A
second report of a table that has one changes nothing: it is refused with the first one
shown. A code works only for its own table of its own round, and only while that table
has no final result.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from c8league.club.corrections import ENTER, Change, TableInfo, add_in, info_in
from c8league.club.entry import CheckedResult, Entry
from c8league.errors import NotFoundError, ResultError
from c8league.league.choices import second_player_confirms
from c8league.names import name_key
from c8league.storage import Session, table_codes
from c8league.storage import rounds as stored_rounds
from c8league.storage.database import Database
from c8league.storage.leagues import get_event, league_of_event
from c8league.storage.models import Event, Match, Round


class CodeRefused(ResultError):
    """A code that is no table's, or whose table's result is final."""


class ReportConflict(ResultError):
    """The table has a reported result already; ``reported`` is it."""

    def __init__(self, message: str, reported: dict[str, int]) -> None:
        super().__init__(message, params=["code"])
        self.reported = reported


@dataclass(frozen=True)
class Report:
    """What was reported at a table: the scores by name, who sent them (a player of the
    table, when said), from which phone (a digest of its browser's cookie, to tell a
    second player's phone from the first), and a second player's dispute, if any."""

    scores: dict[str, int]
    by: str | None = None
    device: str | None = None
    disputed: dict[str, int] | None = None
    """The scores a second player holds true instead; None: not disputed."""
    disputed_by: str | None = None

    @classmethod
    def read(cls, text: str | None) -> Report | None:
        if text is None:
            return None
        data = json.loads(text)
        return cls(
            scores=dict(data["scores"]),
            by=data.get("by"),
            device=data.get("device"),
            disputed=None if data.get("disputed") is None else dict(data["disputed"]),
            disputed_by=data.get("disputed_by"),
        )

    def text(self) -> str:
        data: dict[str, Any] = {"scores": self.scores}
        for key in ("by", "device", "disputed", "disputed_by"):
            if getattr(self, key) is not None:
                data[key] = getattr(self, key)
        return json.dumps(data, ensure_ascii=False)


@dataclass(frozen=True)
class CodedTable:
    """A table found by its code: where it is and what has been reported for it."""

    league: str
    info: TableInfo
    match_id: int
    reported: dict[str, int] | None
    """The scores reported with the code, by name; None: none yet."""
    report: Report | None = None
    """All that was reported (who, a dispute); None: nothing yet."""
    confirm: bool = False
    """The league lets a second player of the table make the report final."""


@dataclass(frozen=True)
class RoundCode:
    """One table of a published round, with its code, for the organiser."""

    table: int
    seats: tuple[str, ...]
    code: str
    status: str
    reported: dict[str, int] | None
    report: Report | None = None


NO_TABLE = "no table of a published round has this code (it is printed on the table's sheet)"


def _open(found: table_codes.Found | None) -> table_codes.Found:
    if found is None:
        raise CodeRefused(NO_TABLE, params=["code"])
    _, match, round_row, _ = found
    if not round_row.published:
        raise CodeRefused(NO_TABLE, params=["code"])
    if match.status not in ENTER:
        raise CodeRefused(
            f"table {match.table_no}'s result is final: its code no longer works "
            "(the organiser corrects a final result)",
            params=["code"],
        )
    return found


def _reported(text: str | None) -> dict[str, int] | None:
    report = Report.read(text)
    return None if report is None else report.scores


def coded_table(db: Database, code: str) -> CodedTable:
    """The table whose code is ``code``, while its result may be reported."""
    with db.session() as session:
        return _coded(session, _open(table_codes.find(session, code)))


def _coded(session: Session, found: table_codes.Found) -> CodedTable:
    row, match, round_row, event = found
    assert match.id is not None
    league = league_of_event(session, event.id or 0)
    return CodedTable(
        league=league.name,
        info=info_in(session, event, round_row, match),
        match_id=match.id,
        reported=_reported(row.report),
        report=Report.read(row.report),
        confirm=second_player_confirms(league),
    )


def table_at(db: Database, match_id: int) -> CodedTable:
    """:func:`coded_table` for the table a code was found for before (its match)."""
    with db.session() as session:
        return _coded(session, _open(table_codes.find_match(session, match_id)))


def report_result(
    db: Database,
    code: str,
    scores: dict[str, int],
    *,
    by: str | None = None,
    device: str | None = None,
) -> CheckedResult:
    """Store ``scores`` (final scores by name) as the reported result of the code's
    table, checked as ``result add`` checks them; ``by`` is the player of the table who
    sends them (needed when the league lets a second player confirm), ``device`` what
    tells their phone from another's. Raises :class:`CodeRefused` for a code that is no
    open table's, :class:`ReportConflict` when the table has a report, and the same
    :class:`ResultError` as ``result add`` for scores that do not fit."""
    with db.writing() as session:
        found = table_codes.find(session, code)
        return _report(session, found, scores, by=by, device=device)


def report_at(
    db: Database,
    match_id: int,
    scores: dict[str, int],
    *,
    by: str | None = None,
    device: str | None = None,
) -> CheckedResult:
    """:func:`report_result` for the table a code was found for before (its match)."""
    with db.writing() as session:
        found = table_codes.find_match(session, match_id)
        return _report(session, found, scores, by=by, device=device)


def _player(info: TableInfo, name: str | None, *, needed: bool) -> str | None:
    """``name`` as the table seats it (None when not given and not ``needed``)."""
    if not name or not name.strip():
        if needed:
            raise ResultError(
                f"say which player of table {info.table} you are (`player`): this league's "
                "reported results are confirmed by a second player of the table",
                params=["player"],
            )
        return None
    for seat in info.seats:
        if name_key(seat) == name_key(name):
            return seat
    raise ResultError(
        f"`player`: {name.strip()[:60]!r} does not sit at table {info.table} "
        f"({', '.join(info.seats)})",
        params=["player"],
    )


def _report(
    session: Session,
    found: table_codes.Found | None,
    scores: dict[str, int],
    *,
    by: str | None,
    device: str | None,
) -> CheckedResult:
    row, match, round_row, event = _open(found)
    assert match.id is not None
    info = info_in(session, event, round_row, match)
    checked = info.check(Entry(scores=scores))
    confirm = second_player_confirms(league_of_event(session, event.id or 0))
    player = _player(info, by, needed=confirm)
    text = Report(scores=scores, by=player, device=device).text()
    if row.report is not None or not table_codes.report(session, match.id, text):
        session.refresh(row)
        raise ReportConflict(
            f"table {match.table_no} has a reported result already; ask the organiser "
            "to correct it",
            _reported(row.report) or {},
        )
    return checked


def confirm_at(db: Database, match_id: int, *, by: str, device: str | None = None) -> Change:
    """A second player of the table (``by``, on the phone ``device``) confirms the result
    reported there: it is made final as :func:`accept_report` makes it, and the audit
    trail names the table's code, who reported it and who confirmed it. Refused when the
    league leaves it to the organiser, when nothing is reported, when the report is
    disputed, and when ``by`` is who reported it or the phone is the one it came from."""
    with db.writing() as session:
        row, match, round_row, event = _open(table_codes.find_match(session, match_id))
        league = league_of_event(session, event.id or 0)
        if not second_player_confirms(league):
            raise ResultError(
                f"in league {league.name} the organiser makes a reported result final: "
                "ask them to accept it"
            )
        info = info_in(session, event, round_row, match)
        report = _waiting(info, Report.read(row.report), confirm=True)
        player = _player(info, by, needed=True)
        assert player is not None
        _second(info, report, player, device)
        note = f"{_source(info.table, report)}; confirmed there by {player}, a second player"
        return add_in(
            session,
            league,
            event,
            info.table,
            Entry(scores=report.scores, note=note),
            round_number=round_row.number,
        )


def dispute_at(
    db: Database,
    match_id: int,
    scores: dict[str, int],
    *,
    by: str,
    device: str | None = None,
) -> CheckedResult:
    """A second player of the table disputes the result reported there with the scores
    they hold true (checked as ``result add`` checks them): both are kept, and the table
    waits for the organiser, who accepts either (:func:`accept_report`) or neither."""
    with db.writing() as session:
        row, match, round_row, event = _open(table_codes.find_match(session, match_id))
        league = league_of_event(session, event.id or 0)
        if not second_player_confirms(league):
            raise ResultError(
                f"in league {league.name} the organiser makes a reported result final: "
                "tell them what is wrong"
            )
        info = info_in(session, event, round_row, match)
        report = _waiting(info, Report.read(row.report), confirm=False)
        player = _player(info, by, needed=True)
        assert player is not None
        _second(info, report, player, device)
        checked = info.check(Entry(scores=scores))
        held = dict(zip(checked.seats, checked.result.scores, strict=True))
        if held == report.scores:
            raise ResultError(
                f"these are the scores reported at table {info.table}: confirm them instead"
            )
        disputed = Report(report.scores, report.by, report.device, scores, player)
        assert match.id is not None and row.report is not None
        if not table_codes.replace_report(session, match.id, row.report, disputed.text()):
            raise ResultError(f"table {info.table}'s report changed meanwhile: open its page again")
        return checked


def _waiting(info: TableInfo, report: Report | None, *, confirm: bool) -> Report:
    """The report of a table that waits for a second player's word."""
    what = "confirm" if confirm else "dispute"
    if report is None:
        raise ResultError(f"table {info.table} has no reported result to {what} yet")
    if report.disputed is not None:
        raise ResultError(
            f"table {info.table}'s reported result is disputed already: the organiser decides"
        )
    return report


def _second(info: TableInfo, report: Report, player: str, device: str | None) -> None:
    """Refuse the player who reported, or their phone: a second player confirms."""
    if report.by is not None and name_key(report.by) == name_key(player):
        raise ResultError(
            f"`player`: {player} reported table {info.table}'s result; another player of "
            "the table confirms or disputes it",
            params=["player"],
        )
    if device is not None and report.device == device:
        raise ResultError(
            f"table {info.table}'s result was reported from this phone: a second player "
            "confirms or disputes it on their own"
        )


def _source(table: int, report: Report) -> str:
    """Where a reported result came from, for the audit trail."""
    by = "" if report.by is None else f" by {report.by}"
    return f"reported at the table with table {table}'s code{by}"


def _scores_text(scores: dict[str, int]) -> str:
    return ", ".join(f"{name}={value}" for name, value in scores.items())


def round_codes(db: Database, event_name: str) -> tuple[int, list[RoundCode]]:
    """The latest published round of the event and the codes of its tables (made for
    those that have none yet), with what was reported at each."""
    with db.writing() as session:
        _, event = get_event(session, event_name)
        assert event.id is not None
        published = [r for r in stored_rounds.event_rounds(session, event.id) if r.published]
        if not published:
            raise ResultError(f"{event.name} has no published round: no table has a code yet")
        round_row = published[-1]
        assert round_row.id is not None
        tables = stored_rounds.round_tables(session, round_row.id)
        codes = table_codes.codes_of(
            session, [m.id for m, _ in tables if m.id is not None], make=True
        )
        return round_row.number, [
            RoundCode(
                table=m.table_no,
                seats=tuple(info_in(session, event, round_row, m).seats),
                code=codes[m.id or 0].code,
                status=m.status,
                reported=_reported(codes[m.id or 0].report),
                report=Report.read(codes[m.id or 0].report),
            )
            for m, _ in tables
        ]


def accept_report(
    db: Database,
    event_name: str,
    table: int,
    *,
    by: str = "the organiser",
    dispute: bool = False,
) -> Change:
    """Make the result reported at ``table`` of the latest published round final (with
    ``dispute``, the scores a second player disputed it with): it is added as ``result
    add`` adds one, and the audit trail names the table's code as its source, who
    reported and disputed it, and ``by`` as who accepted it."""
    with db.writing() as session:
        league, event = get_event(session, event_name)
        assert event.id is not None
        round_row, match = _reported_table(session, event, table)
        assert match.id is not None
        row = table_codes.of_match(session, match.id)
        report = None if row is None else Report.read(row.report)
        if report is None:
            raise ResultError(
                f"table {table} of round {round_row.number} has no reported result to accept"
            )
        note, scores = _source(table, report), report.scores
        if report.disputed is None:
            if dispute:
                raise ResultError(f"table {table}'s reported result is not disputed")
            note += f"; accepted by {by}"
        elif dispute:
            note += (
                f" ({_scores_text(report.scores)}); disputed by {report.disputed_by}; "
                f"the dispute's scores accepted by {by}"
            )
            scores = report.disputed
        else:
            note += (
                f"; disputed by {report.disputed_by} ({_scores_text(report.disputed)}); "
                f"the report accepted by {by}"
            )
        return add_in(
            session,
            league,
            event,
            table,
            Entry(scores=scores, note=note),
            round_number=round_row.number,
        )


def refuse_report(db: Database, event_name: str, table: int) -> None:
    """Forget the result reported at ``table`` (the table may report again)."""
    with db.writing() as session:
        _, event = get_event(session, event_name)
        round_row, match = _reported_table(session, event, table)
        assert match.id is not None
        row = table_codes.of_match(session, match.id)
        if row is None or row.report is None:
            raise ResultError(
                f"table {table} of round {round_row.number} has no reported result to refuse"
            )
        table_codes.clear_report(session, match.id)


def _reported_table(session: Session, event: Event, table: int) -> tuple[Round, Match]:
    assert event.id is not None
    rounds = stored_rounds.event_rounds(session, event.id)
    seen = False
    for round_row in reversed([r for r in rounds if r.published]):
        match = stored_rounds.table_match(session, round_row.id, table)
        seen = seen or match is not None
        if match is not None and match.status in ENTER:
            return round_row, match
    if not seen:
        drafts = [r for r in rounds if not r.published]
        if drafts and stored_rounds.table_match(session, drafts[-1].id, table) is not None:
            raise ResultError(
                f"round {drafts[-1].number} of {event.name!r} is not published yet: its "
                f"tables report once it is (c8league event publish {event.name})"
            )
        raise NotFoundError(f"{event.name!r} has no table {table} in a published round")
    raise ResultError(
        f"table {table}'s result is final in every published round: correct it with "
        f"c8league result edit {event.name} --table {table}"
    )
