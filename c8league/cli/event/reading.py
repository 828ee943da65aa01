"""``c8league event status``, ``standings`` and ``balance``: what the database holds."""

from __future__ import annotations

from c8league.cli.db import database, warn_if_changed
from c8league.cli.event import EventArg, LeagueOpt
from c8league.cli.options import JsonOpt
from c8league.cli.output import out, print_json
from c8league.events.status import event_balance, event_standings, event_status, event_tiebreaks
from c8league.results import move_words
from c8league.standings import TIEBREAKS, explain_tiebreaks
from c8league.tables import Column, draw_table


def status(event: EventArg, league: LeagueOpt = None, as_json: JsonOpt = False) -> None:
    """Rounds and matches played, and forfeits by kind."""
    db = database(read_only=True)
    st = event_status(db, event, league)
    if as_json:
        print_json(st.to_dict())
        warn_if_changed(db, league=league, event=event)
        return
    out.print(
        f"[bold]{st.league}/{st.event}[/] {st.format}, tables of {st.table_size}, "
        f"played by {st.played_by}"
    )
    out.print(
        f"rounds: {st.rounds_complete} complete, {st.rounds_paired} paired, "
        f"{st.rounds_total} in all"
    )
    out.print(
        f"matches: {st.matches_done} done, {st.matches_void} void, "
        f"{st.matches_total - st.matches_done - st.matches_void} pending"
    )
    if st.forfeits:
        out.print("forfeits: " + ", ".join(f"{k} {v}" for k, v in sorted(st.forfeits.items())))
        for f in st.faults:
            move = "" if f.move is None else f", {move_words(f.move, f.request)}"
            out.print(
                f"  {f.reason}: {f.entrant} {f.count} (first: match {f.match_id}{move}: "
                f"{f.detail})",
                markup=False,
                highlight=False,
                soft_wrap=True,
            )
    out.print("complete" if st.complete else "not complete")
    warn_if_changed(db, league=league, event=event)


def standings(event: EventArg, league: LeagueOpt = None, as_json: JsonOpt = False) -> None:
    """Standings: match points by placement, with tiebreaks."""
    if as_json:
        rows = event_standings(database(read_only=True), event, league)
        print_json(
            [
                {
                    "rank": r.standing.rank if r.standing.played else None,
                    "played": r.standing.played,
                    "name": r.name,
                    "match_points": r.standing.match_points,
                    "opponents_match_points": r.standing.opponents_points,
                    "game_points": r.standing.game_points,
                    "wins": r.standing.wins,
                    "matches": r.standing.matches,
                    "byes": r.standing.byes,
                    **r.status.to_dict(),
                    "membership": r.note,
                    "absent_rounds": list(r.absent),
                    "opponents_average": r.standing.opponents_average,
                    "game_share": r.standing.game_share,
                    "direct": r.standing.direct,
                    "sonneborn_berger": r.standing.sonneborn_berger,
                }
                for r in rows
            ]
        )
        return
    print_standings(event, league)


def print_standings(event: str, league: str | None) -> None:
    """The standings table, and the tiebreaks explained under it."""
    db = database(read_only=True)
    rows = event_standings(db, event, league)
    tiebreaks = event_tiebreaks(db, event, league)
    headings = ["#", "entrant", "points", *(TIEBREAKS[t].heading for t in tiebreaks), "matches"]
    table = draw_table(
        (Column(column, right=column != "entrant") for column in headings),
        (
            (
                str(r.standing.rank) if r.standing.played else "–",
                r.label,
                f"{r.standing.match_points:.2f}".rstrip("0").rstrip("."),
                *(r.standing.shown(t) for t in tiebreaks),
                str(r.standing.matches + r.standing.byes),
            )
            for r in rows
        ),
        title=f"Standings: {event}",
    )
    out.print(table)
    for line in explain_tiebreaks(tiebreaks):
        out.print(line, style="dim", highlight=False)


def balance(event: EventArg, league: LeagueOpt = None, as_json: JsonOpt = False) -> None:
    """How often each pair met and each entrant took each seat, over the rounds so far."""
    report = event_balance(database(read_only=True), event, league)
    if as_json:
        header, records = report.records()
        print_json(
            {
                "summary": report.summary(),
                "entrants": [dict(zip(header, r, strict=True)) for r in records],
                "pairs": [
                    {"a": a, "b": b, "meetings": m}
                    for (a, b), m in sorted(report.pair_meetings.items())
                ],
            }
        )
        return
    rows = report.rows()
    table = draw_table(
        (Column(column.replace("_", " "), right=column != "entrant") for column in rows[0]),
        rows[1:],
        title=f"Balance: {event}",
    )
    out.print(table)
    out.print("  ".join(f"{k}: {v}" for k, v in report.summary_rows()))
