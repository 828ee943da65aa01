"""Players: people and bots, registered once and entered in leagues. Each public
function is one transaction: it changes everything it says, or nothing. Listing them is
in :mod:`c8league.league.reading`."""

from __future__ import annotations

import json
import shlex
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from c8league.errors import NotFoundError, PluginError, StorageError, UsageError
from c8league.league.files import EntrantSpec, options_json
from c8league.league.status import describe
from c8league.names import check_name, printable
from c8league.players import registry
from c8league.storage import Session, audit
from c8league.storage import leagues as stored_leagues
from c8league.storage import membership as stored_membership
from c8league.storage import rounds as stored_rounds
from c8league.storage.database import Database
from c8league.storage.models import Entrant, League

if TYPE_CHECKING:
    from c8league.league.files import EntrantSpec


@dataclass
class ImportSummary:
    league: str
    created: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


# -- entering -----------------------------------------------------------------------------


def enter_entrant(
    session: Session,
    spec: EntrantSpec,
    where: str,
    summary: ImportSummary,
    *,
    update: bool,
    follow_renames: bool = False,
) -> Entrant:
    """The entrant ``spec`` describes: registered now, or found registered as it says
    (a bot with other options is refused unless ``update``, which changes them). With
    ``follow_renames`` (a league file read again), a name since renamed or merged means
    the player called so now, with a warning."""
    version: str | None = None
    options = spec.options
    if spec.bot is not None:
        try:
            version = registry.get(spec.bot).version
            options = registry.check_options(spec.bot, spec.options)
        except PluginError as exc:
            raise PluginError(f"{where}: {exc}") from None
    entrant = stored_leagues.find_entrant(session, spec.name)
    if entrant is None and follow_renames:
        now = audit.renamed(session, spec.name)
        entrant = None if now is None else stored_leagues.find_entrant(session, now)
        if entrant is not None:
            summary.warnings.append(
                f"{where}: {spec.name} is called {entrant.name} since a rename or merge: "
                f"{entrant.name} is meant (write {entrant.name!r} in the file)"
            )
    if entrant is None:
        entrant = Entrant(
            name=spec.name,
            kind=spec.kind,
            plugin=spec.bot,
            options=options_json(options),
            plugin_version=version,
        )
        stored_leagues.add(session, entrant)
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
                "with `update` to change its options)",
                params=["update"],
            )
        played = stored_leagues.results_of(session, entrant.id or 0)
        entrant.options = options_json(options)
        stored_leagues.add(session, entrant)
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


def _played_warning(name: str, played: int) -> str:
    return (
        f"{name}: {played} result(s) played with the former options stay and count for "
        "its rating; to rate the changed bot apart, register it under a new name"
    )


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
) -> PlayerAdded:
    """Register a person (no ``bot``) or a bot; optionally make it a member of ``league``
    (warning of each of the league's draft rounds, paired before it joined, that does
    not seat it). A name that cannot be a name (see
    :func:`c8league.names.name_problem`), a bot's bad options, raise before anything is
    written."""
    try:
        name = check_name(name)
    except ValueError as exc:
        raise UsageError(f"player name {printable(repr(name))}: {exc}") from None
    if bot is None and options:
        raise UsageError(
            f"{name}: a person has no options; `option` is for a bot (`bot`)",
            params=["option", "bot"],
        )
    try:
        spec = EntrantSpec(name=name, bot=bot, options=options or {})
    except ValidationError as exc:
        first = exc.errors()[0]
        field = "".join(f"{part}: " for part in first["loc"])
        message = first["msg"].removeprefix("Value error, ")
        raise UsageError(f"{name}: {field}{printable(message)}") from None
    summary = ImportSummary(league or "")
    with db.writing() as session:
        lg = None if league is None else stored_leagues.get_league(session, league)
        check_new_name(session, spec.name, None, allow_same=lg is not None)
        existing = stored_leagues.find_entrant(session, spec.name)
        if existing is not None and lg is None:
            raise StorageError(f"a player named {existing.name!r} already exists")
        if existing is not None and lg is not None:
            _check_can_join(session, lg, existing)
        entrant = enter_entrant(session, spec, spec.name, summary, update=False)
        if lg is None:
            return PlayerAdded(entrant)
        join_league(session, lg, entrant)
        return PlayerAdded(entrant, _not_seated(session, lg.id or 0, entrant))


@dataclass(frozen=True)
class PlayerAdded:
    """A player registered, and warnings (a draft round of its league not seating it)."""

    entrant: Entrant
    warnings: list[str] = field(default_factory=list)


def _not_seated(session: Session, league_id: int, entrant: Entrant) -> list[str]:
    """The draft rounds (paired, not published) of the league's events that do not
    seat ``entrant``, a new member: each in a line saying how to seat it."""
    lines = []
    for event in stored_leagues.league_events(session, league_id):
        if event.format == "ladder":  # a ladder's run picks up a new member itself
            continue
        rounds = stored_rounds.event_rounds(session, event.id or 0)
        if not rounds or rounds[-1].published:
            continue
        last = rounds[-1]
        if not stored_rounds.tables_of(session, last.id, entrant.id or 0):
            lines.append(
                f"{entrant.name} is not seated in the draft round {last.number} of "
                f"{event.name!r}: pair it again (c8league event unpair {event.name}, then "
                f"event pair) to seat them"
            )
    return lines


def check_new_name(
    session: Session, name: str, entrant_id: int | None, *, allow_same: bool = False
) -> None:
    """Refuse ``name`` when another entrant's name (not ``entrant_id``'s) is the same
    whatever its case and accents (with ``allow_same``, one written exactly so is
    let through: an entrant entered in a league)."""
    for other in stored_leagues.entrants_alike(session, name, but=entrant_id):
        if allow_same and other.name == name:
            continue
        if other.name == name:
            raise StorageError(f"a player named {name!r} already exists")
        raise StorageError(
            f"a player named {other.name!r} already exists: {name!r} is the same name "
            "(names are the same whatever their case and accents)"
        )


def _check_can_join(session: Session, league: League, entrant: Entrant) -> None:
    """Refuse to enter ``entrant`` in ``league`` when it is a member already."""
    member = stored_leagues.membership(session, league.id or 0, entrant.id or 0)
    if member is None:
        return
    if member.withdrawn:
        raise UsageError(
            f"{entrant.name} has withdrawn from {league.name!r}: bring them back with "
            f"c8league players reinstate {_quoted(entrant.name)} --league {_quoted(league.name)}"
        )
    raise UsageError(f"{entrant.name} is already a member of {league.name!r}")


def _quoted(name: str) -> str:
    """``name`` as typed on a command line (quoted when it holds spaces or quotes)."""
    return shlex.quote(name)


def join_league(session: Session, league: League, entrant: Entrant) -> bool:
    """Make ``entrant`` a member of ``league`` from the next round, in the caller's
    transaction; the join is kept in the membership history (and, after the league's
    first round, in the audit trail). False if it is a member already."""
    assert league.id is not None and entrant.id is not None
    if not stored_leagues.add_member(session, league.id, entrant.id):
        return False
    where = stored_membership.position(session, league.id)
    stored_membership.record(session, league.id, entrant.id, action="joined", where=where)
    if where[0] is not None:
        audit.record(
            session,
            "join",
            league_id=league.id,
            event=where[0],
            round_number=where[1],
            subject=entrant.name,
            note=describe("joined", where[0].name, where[1]),
        )
    return True


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
        entrant = stored_leagues.get_entrant(session, name)
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
            name=entrant.name,
            plugin=entrant.plugin,
            before=before,
            after=after,
            results=stored_leagues.results_of(session, entrant.id or 0),
        )
        if options_json(after) != entrant.options:
            entrant.options = options_json(after)
            stored_leagues.add(session, entrant)
        return change


def remove_player(db: Database, name: str) -> str:
    """Delete a player without results; retire (never delete) one with results (or a
    seat at a table still to play): a retired player withdraws from every league it
    still plays in, kept in each one's history like any withdrawal."""
    with db.writing() as session:
        entrant = stored_leagues.get_entrant(session, name)
        leagues: list[League | None] = list(
            stored_leagues.entrant_leagues(session, entrant.id or 0)
        )
        if stored_leagues.seats_of(session, entrant.id or 0):
            if entrant.retired:
                raise UsageError(f"{entrant.name} is retired already")
            entrant.retired = True
            stored_leagues.add(session, entrant)
            for league in leagues:
                assert league is not None
                member = stored_leagues.membership(session, league.id or 0, entrant.id or 0)
                if member is not None and not member.withdrawn:
                    member.withdrawn = True
                    stored_leagues.add(session, member)
                    _record_change(session, league, entrant, "withdrew")
            action = "retired"
        else:
            stored_leagues.delete_entrant(session, entrant)
            action = "deleted"
        for league in leagues or [None]:
            audit.record(
                session,
                "retire" if action == "retired" else "remove",
                league_id=None if league is None else league.id,
                subject=entrant.name,
            )
        return action


# -- membership ----------------------------------------------------------------------------


def withdraw(db: Database, league_name: str | None, name: str) -> MembershipChanged:
    """No more pairings for ``name`` in the league (default: the one league it is in);
    its results stay. The withdrawal is kept against the latest published round. Warns
    of each table of a latest round that still seats the entrant (a draft to pair
    again, or a table still to play)."""
    with db.writing() as session:
        entrant = stored_leagues.get_entrant(session, name)
        league = _league_of(session, entrant, league_name)
        member = stored_leagues.membership(session, league.id or 0, entrant.id or 0)
        if member is None:
            raise NotFoundError(f"{name} is not in league {league.name!r}")
        if member.withdrawn:
            raise UsageError(f"{entrant.name} has already withdrawn from {league.name!r}")
        member.withdrawn = True
        stored_leagues.add(session, member)
        said = _record_change(session, league, entrant, "withdrew")
        return MembershipChanged(
            league.name, entrant.name, said, _still_seated(session, league.id or 0, entrant)
        )


@dataclass(frozen=True)
class MembershipChanged:
    """A withdrawal or a return: the league, the member, the change in words
    ("withdrew after round 2 of evening-2") and warnings."""

    league: str
    name: str
    text: str
    warnings: list[str] = field(default_factory=list)


def _record_change(session: Session, league: League, entrant: Entrant, action: str) -> str:
    """Keep a withdrawal or a return in the membership history and the audit trail; the
    change in words."""
    assert league.id is not None and entrant.id is not None
    where = stored_membership.position(session, league.id)
    stored_membership.record(session, league.id, entrant.id, action=action, where=where)
    event, after = where
    said = describe(action, None if event is None else event.name, after)
    audit.record(
        session,
        {"withdrew": "withdraw", "returned": "reinstate"}[action],
        league_id=league.id,
        event=event,
        round_number=after if event is not None else None,
        subject=entrant.name,
        note=said,
    )
    return said


def _league_of(session: Session, entrant: Entrant, league_name: str | None) -> League:
    """The league named, or else the one league the entrant is a member of."""
    if league_name is not None:
        return stored_leagues.get_league(session, league_name)
    leagues = stored_leagues.entrant_leagues(session, entrant.id or 0)
    if len(leagues) == 1:
        return leagues[0]
    if not leagues:
        raise UsageError(f"{entrant.name} is in no league")
    names = ", ".join(lg.name for lg in leagues)
    raise UsageError(
        f"{entrant.name} is in several leagues ({names}): name one with `league`",
        params=["league"],
    )


def _still_seated(session: Session, league_id: int, entrant: Entrant) -> list[str]:
    """Where the latest round of each of the league's events still seats ``entrant``."""
    lines = []
    for event in stored_leagues.league_events(session, league_id):
        rounds = stored_rounds.event_rounds(session, event.id or 0)
        if not rounds:
            continue
        last = rounds[-1]
        tables = stored_rounds.tables_of(session, last.id, entrant.id or 0)
        if event.format == "ladder":  # a run plays its matches: none is entered by hand
            pending = sum(match.status == "pending" for match, _ in tables)
            if pending:
                lines.append(
                    f"{entrant.name} still plays its {pending} "
                    f"{'match' if pending == 1 else 'matches'} of the ladder's step "
                    f"{last.number}, under way; it is not seated from the next step"
                )
            continue
        for match, _ in tables:
            if not last.published:
                lines.append(
                    f"{entrant.name} is seated at table {match.table_no} of the draft round "
                    f"{last.number} of {event.name!r}: pair it again (c8league event unpair "
                    f"{event.name}, then event pair) or move them out before it is published"
                )
            elif match.status == "pending":
                lines.append(
                    f"{entrant.name} is seated at table {match.table_no} of round "
                    f"{last.number} of {event.name!r}, still to play: enter its result "
                    f"(with --forfeit {entrant.name} if they left)"
                )
    return lines


def reinstate(db: Database, league_name: str | None, name: str) -> MembershipChanged:
    """Undo a withdrawal: paired again from the next round (the league: by default the
    one league the entrant is in)."""
    with db.writing() as session:
        entrant = stored_leagues.get_entrant(session, name)
        league = _league_of(session, entrant, league_name)
        member = stored_leagues.membership(session, league.id or 0, entrant.id or 0)
        if member is None or not member.withdrawn:
            raise UsageError(f"{entrant.name} has not withdrawn from {league.name!r}")
        member.withdrawn = False
        stored_leagues.add(session, member)
        said = _record_change(session, league, entrant, "returned")
        return MembershipChanged(league.name, entrant.name, said)


# -- a new version ------------------------------------------------------------------------

VERSION_MARK = "@v"
"""How a bot's later versions are named: ``Alice``, ``Alice@v2``, ``Alice@v3``."""


def enter_new_version(session: Session, league: League, entrant: Entrant) -> Entrant:
    """Rate a bot whose files changed apart from its former self, in the caller's
    transaction: a new entrant ``NAME@vN`` (the next number free) with the same plugin
    and options joins ``league``, and ``entrant`` withdraws from it (its results and
    ratings stay). Both changes are kept in the membership history and audit trail."""
    assert league.id is not None and entrant.id is not None
    base = entrant.name
    mark = base.rfind(VERSION_MARK)
    if mark > 0 and base[mark + len(VERSION_MARK) :].isdigit():
        base = base[:mark]
    number = 2
    while stored_leagues.find_entrant(session, f"{base}{VERSION_MARK}{number}") is not None:
        number += 1
    newer = Entrant(
        name=f"{base}{VERSION_MARK}{number}",
        kind=entrant.kind,
        plugin=entrant.plugin,
        options=entrant.options,
        plugin_version=entrant.plugin_version,
    )
    stored_leagues.add(session, newer)
    join_league(session, league, newer)
    member = stored_leagues.membership(session, league.id, entrant.id)
    if member is not None and not member.withdrawn:
        member.withdrawn = True
        stored_leagues.add(session, member)
        _record_change(session, league, entrant, "withdrew")
    return newer
