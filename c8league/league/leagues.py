"""Leagues in the database: importing a league file (idempotently). Each function is one
transaction: it changes everything it says, or nothing. Listing and showing leagues is
in :mod:`c8league.league.reading`."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from c8league.errors import StorageError
from c8league.league.choices import CONFIRM_REPORTS
from c8league.league.players import ImportSummary, enter_entrant, join_league
from c8league.standings import StandingRules
from c8league.storage import Session
from c8league.storage import leagues as stored_leagues
from c8league.storage.database import Database
from c8league.storage.models import Event, League

if TYPE_CHECKING:
    from c8league.league.files import EventSpec, LeagueFile


def import_league(
    db: Database, league_file: LeagueFile, source: str | None = None, *, update: bool = False
) -> ImportSummary:
    """Create or update a league from its file. Idempotent: importing the same file twice
    changes nothing. Changing the rules or rating settings of a league with results,
    or an event that has started, is refused. A bot already registered with other
    options is refused too, unless ``update``: then its stored options become the
    file's (see :func:`c8league.league.players.edit_bot_options` for what that means
    for its results)."""
    rules = league_file.rules.build().to_json()
    rating = league_file.rating.to_json()
    sizes = json.dumps(sorted({league_file.table_size}, reverse=True))
    summary = ImportSummary(league_file.name)
    with db.writing() as session:
        league = stored_leagues.find_league(session, league_file.name)
        if league is None:
            league = League(
                name=league_file.name,
                title=league_file.title,
                preset=league_file.rules.preset,
                rules=rules,
                table_sizes=sizes,
                rating=rating,
                source=source,
                standing=_choices(league_file, "{}"),
            )
            stored_leagues.add(session, league)
            summary.created.append(f"league {league.name}")
        else:
            changed = (league.rules != rules, league.rating != rating)
            if (
                any(changed)
                and league.id is not None
                and stored_leagues.league_has_results(session, league.id)
            ):
                what = "rules" if changed[0] else "rating settings"
                raise StorageError(
                    f"league {league.name!r} has results: its {what} cannot change "
                    "(ratings are only comparable under the same rules); "
                    "import it as a new league instead"
                )
            fields_ = (
                league_file.title,
                league_file.rules.preset,
                rules,
                sizes,
                rating,
                _choices(league_file, league.standing),
            )
            current = (
                league.title,
                league.preset,
                league.rules,
                league.table_sizes,
                league.rating,
                _stored_choices(league.standing),
            )
            if fields_ != current:
                (
                    league.title,
                    league.preset,
                    league.rules,
                    league.table_sizes,
                    league.rating,
                    league.standing,
                ) = fields_
                summary.updated.append(f"league {league.name}")
            else:
                summary.unchanged.append(f"league {league.name}")
            league.source = source or league.source
            stored_leagues.add(session, league)
        assert league.id is not None
        for index, spec in enumerate(league_file.entrants):
            where = f"entrants[{index}] ({spec.name})"
            if source is not None:
                where = f"{source}: {where}"
            entrant = enter_entrant(
                session, spec, where, summary, update=update, follow_renames=True
            )
            join_league(session, league, entrant)
        for spec_event in league_file.events:
            _import_event(
                session, league, league_file=league_file, spec=spec_event, summary=summary
            )
    return summary


def _choices(league_file: LeagueFile, stored: str) -> str:
    """The league's choices (how standings are read, who confirms a reported result):
    the file's where it states them, else those ``stored``."""
    data = json.loads(league_file.standing_rules(StandingRules.from_json(stored)).to_json())
    confirm = league_file.confirm_reports or json.loads(stored or "{}").get(CONFIRM_REPORTS)
    if confirm not in (None, "organiser"):
        data[CONFIRM_REPORTS] = confirm
    return json.dumps(data, separators=(",", ":"))


def _stored_choices(stored: str) -> str:
    """The choices ``stored`` as :func:`_choices` writes them."""
    data = json.loads(StandingRules.from_json(stored).to_json())
    confirm = json.loads(stored or "{}").get(CONFIRM_REPORTS)
    if confirm not in (None, "organiser"):
        data[CONFIRM_REPORTS] = confirm
    return json.dumps(data, separators=(",", ":"))


def _import_event(
    session: Session,
    league: League,
    *,
    league_file: LeagueFile,
    spec: EventSpec,
    summary: ImportSummary,
) -> None:
    assert league.id is not None
    values: dict[str, Any] = {
        "format": spec.format,
        "cycles": spec.cycles,
        "rounds": spec.rounds or 0,
        "seed": spec.seed,
        "duplicate": spec.duplicate,
        "table_size": league_file.table_size_of(spec),
        "played_by": spec.played_by
        or ("people" if any(e.bot is None for e in league_file.entrants) else "bots"),
    }
    event = stored_leagues.find_event(session, league.id, spec.name)
    if event is None:
        stored_leagues.add(session, Event(league_id=league.id, name=spec.name, **values))
        summary.created.append(f"event {spec.name}")
        return
    current = {k: getattr(event, k) for k in values}
    if current == values:
        summary.unchanged.append(f"event {spec.name}")
        return
    assert event.id is not None
    if stored_leagues.event_has_rounds(session, event.id):
        changed = ", ".join(k for k in values if current[k] != values[k])
        raise StorageError(f"event {spec.name!r} has started: its {changed} cannot change")
    for key, value in values.items():
        setattr(event, key, value)
    stored_leagues.add(session, event)
    summary.updated.append(f"event {spec.name}")
