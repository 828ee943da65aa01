"""Gauntlets: one candidate against a field of opponents, one duel each.

A gauntlet ``gauntlet-1`` of candidate A against opponents B, C, D is three stored duels,
``gauntlet-1/1`` (A against B), ``gauntlet-1/2`` (A against C) and ``gauntlet-1/3`` (A
against D), with the same settings: the same deals (the same seed, or the same book),
the same test or number of games, the same limits. They are created together, in one
transaction, and played one after another in that order, each to its end (its test
decided, its games played, or its forfeits over the share a verdict allows), so that a
gauntlet gives the same figures whatever the workers or interruptions: each duel is
reproducible on its own. A duel whose run stops without a verdict (a bot that cannot
start, or keeps forfeiting) is kept so, and the gauntlet goes on with the next
opponent; an interrupt stops the gauntlet, and resuming it goes on with the first duel
not finished.

The separator ``/`` is one no duel's given name may hold, so the duels named
``NAME/…`` are the gauntlet ``NAME``'s and no one else's.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from c8league.duel.forfeits import NoVerdict, Withheld
from c8league.duel.reading import DuelReport, report_of
from c8league.duel.running import DuelRequest, settings_for
from c8league.errors import BotStopped, NotFoundError, StorageError, UsageError
from c8league.names import check_name, printable, same_name
from c8league.storage import duels as stored_duels
from c8league.storage.database import Database

PREFIX = "gauntlet-"
"""Gauntlets are named ``gauntlet-N`` unless named otherwise."""


@dataclass(frozen=True)
class Gauntlet:
    """A stored gauntlet: its name, and its duels' names in the opponents' order."""

    name: str
    duels: tuple[str, ...]


def create_gauntlet(db: Database, request: DuelRequest, opponents: Sequence[str]) -> Gauntlet:
    """Check and store a gauntlet of ``request.a`` against each of ``opponents``, every
    duel with the settings of ``request`` (whose ``b`` is not read, and whose ``name``
    names the gauntlet); no match is played yet. Every mistake is one line; nothing is
    stored unless every duel can be."""
    if not opponents:
        raise UsageError("a gauntlet needs at least one opponent after the candidate")
    if request.name is not None:
        try:
            check_name(request.name)
        except ValueError as exc:
            raise UsageError(f"gauntlet name {printable(repr(request.name))}: {exc}") from None
    settings = settings_for(
        db,
        [replace(request, b=opponent, name=None) for opponent in opponents],
        who=[f"opponent {number}" for number in range(1, len(opponents) + 1)],
    )
    with db.writing() as session:
        name = request.name or stored_duels.free_name(session, PREFIX)
        if stored_duels.name_taken(session, name):
            raise StorageError(
                f"a duel or gauntlet named {same_name(name)!r} exists: resume it with "
                f"`c8league duel resume {same_name(name)}`, or choose another `name`",
                params=["name"],
            )
        duels = []
        for number, each in enumerate(settings, start=1):
            duel = f"{same_name(name)}{stored_duels.GAUNTLET_SEPARATOR}{number}"
            stored_duels.add(
                session, duel, players=each.players, seed=each.seed, settings=each.to_json()
            )
            duels.append(duel)
    return Gauntlet(same_name(name), tuple(duels))


def find_gauntlet(db: Database, name: str) -> Gauntlet | None:
    """The gauntlet ``name``, or None when no gauntlet has that name (a duel may)."""
    with db.session() as session:
        if stored_duels.find(session, name) is not None:
            return None
        duels = stored_duels.gauntlet_duels(session, name)
    if not duels:
        return None
    return Gauntlet(same_name(name), tuple(duel.name for duel in duels))


def get_gauntlet(db: Database, name: str) -> Gauntlet:
    gauntlet = find_gauntlet(db, name)
    if gauntlet is None:
        raise NotFoundError(f"no gauntlet named {same_name(name)!r}")
    return gauntlet


def run_gauntlet(db: Database, gauntlet: Gauntlet, run: Callable[[str], object]) -> None:
    """Play each duel of ``gauntlet`` not yet finished, in order, with ``run`` (a duel's
    name → ``run_duel`` with the run's options, which the caller wraps as it shows
    progress). A duel whose run stops without a verdict (:class:`BotStopped`) is kept
    so, and the next one goes on; an interrupt stops the gauntlet."""
    for duel in gauntlet.duels:
        with db.session() as session:
            finished = stored_duels.get(session, duel).status == "finished"
        if finished:
            continue
        try:
            run(duel)
        except BotStopped:
            continue  # kept, with why it stopped: the gauntlet's summary says so


def gauntlet_reports(db: Database, gauntlet: Gauntlet) -> list[DuelReport]:
    """The gauntlet's duels, in order, with their figures and forfeits."""
    with db.session() as session:
        return [
            report_of(session, stored_duels.get(session, duel), detail=False)
            for duel in gauntlet.duels
        ]


def no_verdict(gauntlet: Gauntlet, reports: Sequence[DuelReport]) -> NoVerdict | None:
    """The error that the gauntlet's duels without a verdict make, if any has none."""
    withheld: list[Withheld] = [r.withheld for r in reports if r.withheld is not None]
    if not withheld:
        return None
    return NoVerdict(withheld, gauntlet=gauntlet.name, of=len(reports))
