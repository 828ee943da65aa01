"""Reading and writing leagues, entrants and events. Each public function is one
transaction: it either changes everything it says or nothing."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError
from sqlmodel import Session, col, func, select

from c8league.engine import Rules
from c8league.errors import NotFoundError, PluginError, StorageError, UsageError
from c8league.league import (
    EntrantSpec,
    EventSpec,
    LeagueFile,
    check_name,
    options_json,
    printable,
    same_name,
)
from c8league.players import registry
from c8league.ratings import RatingSettings
from c8league.storage.database import Database
from c8league.storage.models import (
    Entrant,
    Event,
    League,
    LeagueEntrant,
    Match,
    MatchSeat,
    Round,
)


@dataclass
class ImportSummary:
    league: str
    created: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


# -- lookups ---------------------------------------------------------------------------


def get_league(session: Session, name: str) -> League:
    name = same_name(name)
    league = session.exec(select(League).where(League.name == name)).first()
    if league is None:
        names = ", ".join(session.exec(select(League.name)).all()) or "none (league import FILE)"
        raise NotFoundError(f"no league named {name!r}; leagues: {names}")
    return league


def get_event(session: Session, name: str, league: str | None = None) -> tuple[League, Event]:
    """An event by name (``event`` or ``league/event``; ``league`` narrows the search)."""
    if league is None and "/" in name:
        league, name = name.split("/", 1)
    name = same_name(name)
    league = None if league is None else same_name(league)
    query = select(League, Event).join(Event, col(Event.league_id) == col(League.id))
    query = query.where(Event.name == name)
    if league is not None:
        query = query.where(League.name == league)
    rows = session.exec(query).all()
    if not rows:
        all_events = session.exec(
            select(League.name, Event.name).join(Event, col(Event.league_id) == col(League.id))
        ).all()
        listed = ", ".join(f"{lg}/{ev}" for lg, ev in all_events) or "none"
        raise NotFoundError(f"no event named {name!r}; events: {listed}")
    if len(rows) > 1:
        listed = ", ".join(f"{lg.name}/{ev.name}" for lg, ev in rows)
        raise NotFoundError(
            f"event name {name!r} is in several leagues: {listed}; use LEAGUE/EVENT"
        )
    league_row, event_row = rows[0]
    return league_row, event_row


def get_entrant(session: Session, name: str) -> Entrant:
    name = same_name(name)
    entrant = session.exec(select(Entrant).where(Entrant.name == name)).first()
    if entrant is None:
        raise NotFoundError(f"no player named {name!r} (c8league players list)")
    return entrant


def league_rules(league: League) -> Rules:
    return Rules.from_json(league.rules)


def rating_settings(league: League) -> RatingSettings:
    data = json.loads(league.rating)
    return RatingSettings(**data)


def league_has_results(session: Session, league_id: int) -> bool:
    query = (
        select(func.count())
        .select_from(Match)
        .join(Event, col(Match.event_id) == col(Event.id))
        .where(Event.league_id == league_id, Match.status == "done")
    )
    return bool(session.exec(query).one())


def event_has_rounds(session: Session, event_id: int) -> bool:
    query = select(func.count()).select_from(Round).where(Round.event_id == event_id)
    return bool(session.exec(query).one())


def league_members(session: Session, league_id: int, *, active_only: bool = False) -> list[Entrant]:
    query = (
        select(Entrant)
        .join(LeagueEntrant, col(LeagueEntrant.entrant_id) == col(Entrant.id))
        .where(LeagueEntrant.league_id == league_id)
        .order_by(col(Entrant.id))
    )
    if active_only:
        query = query.where(LeagueEntrant.withdrawn == False, Entrant.retired == False)  # noqa: E712
    return list(session.exec(query).all())


# -- league import -----------------------------------------------------------------------


def import_league(
    db: Database, league_file: LeagueFile, source: str | None = None, *, update: bool = False
) -> ImportSummary:
    """Create or update a league from its file. Idempotent: importing the same file twice
    changes nothing. Changing the rules or rating settings of a league with results,
    or an event that has started, is refused. A bot already registered with other
    options is refused too, unless ``update``: then its stored options become the
    file's (see :func:`edit_bot_options` for what that means for its results)."""
    rules = league_file.rules.build()
    rating = league_file.rating.settings()
    rating_json = json.dumps(
        {
            "system": rating.system,
            "mu": rating.mu,
            "sigma": rating.sigma,
            "beta": rating.beta,
            "tau": rating.tau,
            "draw_probability": rating.draw_probability,
            "backend": rating.backend,
        },
        sort_keys=True,
    )
    sizes = json.dumps(sorted({league_file.table_size}, reverse=True))
    summary = ImportSummary(league_file.name)
    with db.writing() as session:
        league = session.exec(select(League).where(League.name == league_file.name)).first()
        if league is None:
            league = League(
                name=league_file.name,
                title=league_file.title,
                preset=league_file.rules.preset,
                rules=rules.to_json(),
                table_sizes=sizes,
                rating=rating_json,
                source=source,
            )
            session.add(league)
            session.flush()
            summary.created.append(f"league {league.name}")
        else:
            changed = (league.rules != rules.to_json(), league.rating != rating_json)
            if any(changed) and league.id is not None and league_has_results(session, league.id):
                what = "rules" if changed[0] else "rating settings"
                raise StorageError(
                    f"league {league.name!r} has results: its {what} cannot change "
                    "(ratings are only comparable under the same rules); "
                    "import it as a new league instead"
                )
            fields_ = (
                league_file.title,
                league_file.rules.preset,
                rules.to_json(),
                sizes,
                rating_json,
            )
            current = (league.title, league.preset, league.rules, league.table_sizes, league.rating)
            if fields_ != current:
                (league.title, league.preset, league.rules, league.table_sizes, league.rating) = (
                    fields_
                )
                summary.updated.append(f"league {league.name}")
            else:
                summary.unchanged.append(f"league {league.name}")
            league.source = source or league.source
            session.add(league)
        assert league.id is not None
        for index, spec in enumerate(league_file.entrants):
            where = f"entrants[{index}] ({spec.name})"
            if source is not None:
                where = f"{source}: {where}"
            entrant = _import_entrant(session, spec, where, summary, update=update)
            assert entrant.id is not None
            member = session.get(LeagueEntrant, (league.id, entrant.id))
            if member is None:
                session.add(LeagueEntrant(league_id=league.id, entrant_id=entrant.id))
        for spec_event in league_file.events:
            _import_event(session, league, league_file, spec_event, summary)
    return summary


def _import_entrant(
    session: Session, spec: EntrantSpec, where: str, summary: ImportSummary, *, update: bool
) -> Entrant:
    version: str | None = None
    options = spec.options
    if spec.bot is not None:
        try:
            version = registry.get(spec.bot).version
            options = registry.check_options(spec.bot, spec.options)
        except PluginError as exc:
            raise PluginError(f"{where}: {exc}") from None
    entrant = session.exec(select(Entrant).where(Entrant.name == spec.name)).first()
    if entrant is None:
        entrant = Entrant(
            name=spec.name,
            kind=spec.kind,
            plugin=spec.bot,
            options=options_json(options),
            plugin_version=version,
        )
        session.add(entrant)
        session.flush()
        summary.created.append(f"entrant {spec.name}")
        return entrant
    if (entrant.kind, entrant.plugin) != (spec.kind, spec.bot):
        raise StorageError(
            f"{where}: a player named {spec.name!r} already exists as "
            f"{_describe_entrant(entrant)}; a changed bot needs a new name"
        )
    if _stored_options(entrant) != options:
        if not update:
            raise StorageError(
                f"{where}: a player named {spec.name!r} already exists as "
                f"{_describe_entrant(entrant)}; a changed bot needs a new name (or import "
                "with --update to change its options)"
            )
        played = _results_of(session, entrant)
        entrant.options = options_json(options)
        session.add(entrant)
        summary.updated.append(f"entrant {spec.name} (options)")
        if played:
            summary.warnings.append(_played_warning(spec.name, played))
    if version is not None and entrant.plugin_version != version:
        summary.warnings.append(
            f"{spec.name}: plugin {spec.bot} is now version {version} (registered with "
            f"{entrant.plugin_version}); register a new entrant to rate the new version apart"
        )
    if entrant.retired:
        raise StorageError(f"{where}: player {spec.name!r} is retired")
    return entrant


def _stored_options(entrant: Entrant) -> dict[str, Any]:
    """A bot's stored options as its plugin reads them today (options stored as typed
    on a command line, ``"1600"``, read as ``1600``); as stored if they no longer pass."""
    stored: dict[str, Any] = json.loads(entrant.options)
    if entrant.plugin is None:
        return stored
    try:
        return registry.validate_options(registry.get(entrant.plugin), stored)
    except PluginError:
        return stored


def _results_of(session: Session, entrant: Entrant) -> int:
    """How many stored results (done matches) the entrant has."""
    query = (
        select(func.count())
        .select_from(MatchSeat)
        .join(Match, col(Match.id) == col(MatchSeat.match_id))
        .where(MatchSeat.entrant_id == entrant.id, Match.status == "done")
    )
    return int(session.exec(query).one())


def _played_warning(name: str, played: int) -> str:
    return (
        f"{name}: {played} result(s) played with the former options stay and count for "
        "its rating; to rate the changed bot apart, register it under a new name"
    )


def _import_event(
    session: Session,
    league: League,
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
    event = session.exec(
        select(Event).where(Event.league_id == league.id, Event.name == spec.name)
    ).first()
    if event is None:
        session.add(Event(league_id=league.id, name=spec.name, **values))
        summary.created.append(f"event {spec.name}")
        return
    current = {k: getattr(event, k) for k in values}
    if current == values:
        summary.unchanged.append(f"event {spec.name}")
        return
    assert event.id is not None
    if event_has_rounds(session, event.id):
        changed = ", ".join(k for k in values if current[k] != values[k])
        raise StorageError(f"event {spec.name!r} has started: its {changed} cannot change")
    for key, value in values.items():
        setattr(event, key, value)
    session.add(event)
    summary.updated.append(f"event {spec.name}")


def _describe_entrant(entrant: Entrant) -> str:
    if entrant.kind == "person":
        return "a person"
    return f"bot {entrant.plugin} with options {entrant.options}"


# -- players ------------------------------------------------------------------------------


def add_player(
    db: Database,
    name: str,
    *,
    bot: str | None = None,
    options: dict[str, Any] | None = None,
    league: str | None = None,
) -> Entrant:
    """Register a person (no ``bot``) or a bot; optionally make it a member of ``league``.
    A name that cannot be a name (see :func:`c8league.league.name_problem`), a bot's
    bad options, raise before anything is written."""
    try:
        name = check_name(name)
    except ValueError as exc:
        raise UsageError(f"player name {printable(repr(name))}: {exc}") from None
    if bot is None and options:
        raise UsageError(f"{name}: a person has no options; --option is for a bot (--bot)")
    try:
        spec = EntrantSpec(name=name, bot=bot, options=options or {})
    except ValidationError as exc:
        first = exc.errors()[0]
        field = "".join(f"{part}: " for part in first["loc"])
        message = first["msg"].removeprefix("Value error, ")
        raise UsageError(f"{name}: {field}{printable(message)}") from None
    summary = ImportSummary(league or "")
    with db.writing() as session:
        existing = session.exec(select(Entrant).where(Entrant.name == spec.name)).first()
        if existing is not None and league is None:
            raise StorageError(f"a player named {spec.name!r} already exists")
        entrant = _import_entrant(session, spec, spec.name, summary, update=False)
        if league is not None:
            lg = get_league(session, league)
            assert lg.id is not None and entrant.id is not None
            if session.get(LeagueEntrant, (lg.id, entrant.id)) is None:
                session.add(LeagueEntrant(league_id=lg.id, entrant_id=entrant.id))
        return entrant


@dataclass(frozen=True)
class OptionsChange:
    """What :func:`edit_bot_options` did."""

    name: str
    plugin: str
    before: dict[str, Any]
    after: dict[str, Any]
    results: int
    """Stored results of the bot, played with the former options."""

    @property
    def changed(self) -> bool:
        return self.before != self.after

    @property
    def warning(self) -> str | None:
        if not self.changed or not self.results:
            return None
        return _played_warning(self.name, self.results)


def edit_bot_options(
    db: Database,
    name: str,
    *,
    set_options: dict[str, Any] | None = None,
    unset: list[str] | None = None,
) -> OptionsChange:
    """Change a registered bot's options: ``set_options`` are set (text is converted as
    on ``players add``), the options named in ``unset`` go back to the plugin's
    defaults. The new options are checked as when the bot was entered, and nothing is
    written if they fail.

    The entrant stays the same entrant: matches not yet played (of events already
    paired, too) use the new options from the next run or resume, while its stored
    results stay and keep counting for its rating. This mends an event stopped by a
    bot's bad options; to rate a changed bot apart, register it under a new name."""
    with db.writing() as session:
        entrant = get_entrant(session, name)
        if entrant.plugin is None:
            raise UsageError(f"{entrant.name} is a person: only a bot has options")
        if entrant.retired:
            raise StorageError(f"player {entrant.name!r} is retired")
        before: dict[str, Any] = json.loads(entrant.options)
        for key in unset or []:
            if key not in before:
                stored = ", ".join(before) or "none"
                raise UsageError(f"{entrant.name} has no option {key!r} set; set: {stored}")
        merged = {k: v for k, v in before.items() if k not in (unset or [])}
        merged.update(set_options or {})
        try:
            after = registry.check_options(entrant.plugin, merged)
        except PluginError as exc:
            raise PluginError(f"{entrant.name}: {exc}") from None
        change = OptionsChange(
            entrant.name, entrant.plugin, before, after, _results_of(session, entrant)
        )
        if options_json(after) != entrant.options:
            entrant.options = options_json(after)
            session.add(entrant)
        return change


def remove_player(db: Database, name: str) -> str:
    """Delete a player without results; retire (never delete) one with results."""
    with db.writing() as session:
        entrant = get_entrant(session, name)
        played = session.exec(
            select(func.count()).select_from(MatchSeat).where(MatchSeat.entrant_id == entrant.id)
        ).one()
        if played:
            entrant.retired = True
            session.add(entrant)
            return "retired"
        for member in session.exec(
            select(LeagueEntrant).where(LeagueEntrant.entrant_id == entrant.id)
        ).all():
            session.delete(member)
        session.delete(entrant)
        return "deleted"


def list_players(db: Database, league: str | None = None) -> list[dict[str, Any]]:
    with db.session() as session:
        if league is not None:
            lg = get_league(session, league)
            assert lg.id is not None
            entrants = league_members(session, lg.id)
        else:
            entrants = list(session.exec(select(Entrant).order_by(col(Entrant.name))).all())
        return [
            {
                "name": e.name,
                "kind": e.kind,
                "plugin": e.plugin,
                "options": json.loads(e.options),
                "plugin_version": e.plugin_version,
                "retired": e.retired,
            }
            for e in entrants
        ]
