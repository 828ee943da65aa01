"""Creating and running a duel: bot A against bot B on duplicate deals, on the runner,
until the sequential test decides or the games are played.

The duel's two matches of each deal go to the runner (``c8league.runner``), which
plays them on its workers and hands the reports back in task order: deal after deal,
whatever order the workers finished them in. Each pair is counted in the tally in that
order and the stopping rule is checked after every pair, so the duel stops after the
same pair on any number of workers. Finished pairs are stored in batches, each batch
one short write transaction (at least every :data:`COMMIT_SECONDS`), with no rating
update: a duel is not a league. The pairs after the one the test decided on are never
stored. An interrupt (Ctrl-C, ``kill -9``) loses at most the batch not yet written; a
resumed run reads the stored pairs back in deal order and plays on from the first deal
missing, which gives exactly the figures of an uninterrupted run.
"""

from __future__ import annotations

import itertools
import json
import math
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace

from c8league.duel.book import DealBook, load_book
from c8league.duel.forfeits import DEFAULT_MAX_FORFEIT_SHARE, Forfeits, check_share, forfeiter
from c8league.duel.luck import MatchLuck
from c8league.duel.plan import MAX_GAMES, BookDeals, DuelSettings, PlayedVersion, match_id
from c8league.duel.reading import count_pair
from c8league.duel.specs import Bot, parse_spec, resolve
from c8league.duel.stats import DuelTally, SprtSpec
from c8league.engine import Rules
from c8league.engine.rules import parse_assignments
from c8league.errors import (
    BotChanged,
    BotStopped,
    C8LeagueError,
    ExecutorLost,
    PluginError,
    StorageError,
    UsageError,
)
from c8league.interrupts import run_kept
from c8league.names import check_name, printable
from c8league.players import registry
from c8league.players.versions import version_of, what_changed
from c8league.results import MatchReport
from c8league.runner.base import Watch
from c8league.runner.clock import MatchClock, one_limit
from c8league.runner.executors import Runner, make_runner, resume_command
from c8league.runner.starting import BotStart
from c8league.runner.starting import unsandboxed as runner_unsandboxed
from c8league.runner.streaks import MAX_FORFEITS, ForfeitStreaks, Streak
from c8league.runner.tasks import SeatSpec
from c8league.sandbox import Mode, Support
from c8league.standings import match_points
from c8league.storage import Session
from c8league.storage import duels as stored_duels
from c8league.storage import versions as stored_versions
from c8league.storage.database import Database
from c8league.storage.duels import StoredPair, pack_moves
from c8league.storage.runlock import event_run_lock
from c8league.storage.versions import VersionRecord

COMMIT_SECONDS = 0.5
"""Finished pairs are committed at least this often (each pair whole)."""
MATCH_SECONDS = 600.0
"""The default time limit of a match (see ``runner.loop``)."""
MAX_MATCH_SECONDS = 86_400.0
DEFAULT_SPRT = "elo0=0 elo1=5 alpha=0.05 beta=0.05"
"""The test when neither ``--games`` nor ``--sprt`` is given."""
DEFAULT_FIELD = ("greedy",)
SEED_LIMIT = 2**63

#: Told after every pair: the tally so far (in deal order), and the duel's settings.
Progress = Callable[[DuelTally, DuelSettings], None]


@dataclass(frozen=True)
class DuelRequest:
    """A new duel as asked for on the command line (text, checked by :func:`create_duel`)."""

    a: str
    b: str
    players: int | None = None
    """Players at a table: 2, or the book's (``deals``)."""
    field: Sequence[str] = ()
    preset: str | None = None
    """The rule preset: ``pagat``, or the book's rules (``deals``)."""
    sets: Sequence[str] = ()
    games: int | None = None
    sprt: str | None = None
    max_games: int | None = None
    seed: int | None = None
    """The seed of the deals (0 when neither it nor ``deals`` is given)."""
    name: str | None = None
    match_seconds: float | None = MATCH_SECONDS
    move_seconds: float | None = None
    max_forfeit_share: float = DEFAULT_MAX_FORFEIT_SHARE
    deals: str | None = None
    """A book of deals to play in order (its file, ``c8league.duel.book``)."""
    clock: str | None = None
    """A match clock, ``SECONDS+INCREMENT`` (``runner.clock.MatchClock``)."""
    luck_adjust: bool = False
    """Adjust each match's result for the luck of its cards (``c8league.duel.luck``)."""


@dataclass(frozen=True)
class NewVersion:
    """A bot of a duel that a run found at another version: who (``A (cmd:./bot)``), and
    the labels of the version it played as and of the one it plays as now."""

    who: str
    old: str
    new: str
    changed: str = ""
    """What changed (``its file bot.py``, see ``players.versions.what_changed``)."""

    def __str__(self) -> str:
        changed = f": {self.changed} changed" if self.changed else ""
        return f"{self.who} is a new version ({self.old} → {self.new}{changed})"


@dataclass
class RunSummary:
    """What one run of a duel did."""

    name: str
    pairs: int = 0
    """Pairs played and stored by this run."""
    seconds: float = 0.0
    play_seconds: float = 0.0
    """Play time of this run's matches, summed over the workers."""
    forfeits: int = 0
    """Games forfeited in this run."""
    already_finished: bool = False
    new_versions: tuple[NewVersion, ...] = ()
    """The bots this run took at a new version (``new_version``)."""
    replayed: tuple[int, ...] = ()
    """The deals whose pairs were taken out to be played again: an old version of a bot
    in :attr:`new_versions` forfeited a match of each."""
    tally: DuelTally | None = field(default=None, repr=False)
    """The duel's pairs after this run, in deal order."""
    settings: DuelSettings | None = field(default=None, repr=False)


def settings_of(db: Database, request: DuelRequest) -> DuelSettings:
    """Check everything a new duel asks for, reading the database only (entrants) and
    its book of deals; every mistake is one line naming it. Nothing is written."""
    book = None if request.deals is None else load_book(request.deals)
    return _settings(db, request, book)


def settings_for(
    db: Database, requests: Sequence[DuelRequest], who: Sequence[str]
) -> list[DuelSettings]:
    """:func:`settings_of` for duels that share a book of deals (read once), their
    B named ``who`` in errors (``opponent 2``)."""
    paths = {request.deals for request in requests}
    books = {path: None if path is None else load_book(path) for path in paths}
    return [
        _settings(db, request, books[request.deals], b_is=b_is)
        for request, b_is in zip(requests, who, strict=True)
    ]


def _settings(
    db: Database, request: DuelRequest, book: DealBook | None, b_is: str = "B"
) -> DuelSettings:
    players = request.players if request.players is not None else 2
    if book is not None and request.players is None:
        players = book.players
    if isinstance(players, bool) or not 2 <= players <= 8:
        raise UsageError(f"`players` must be from 2 to 8, not {players}", params=["players"])
    if book is not None and request.preset is None and not request.sets:
        rules, label = book.rules, book.rules_label
    else:
        preset = request.preset if request.preset is not None else "pagat"
        rules = Rules.from_options(preset, parse_assignments(list(request.sets)))
        label = preset + "".join(f" {item}" for item in request.sets)
    if book is not None:
        _check_book(request, book, players=players, rules=rules, label=label)
    rules.check_table(players)
    check_share(request.max_forfeit_share)
    if request.games is not None and request.sprt is not None:
        raise UsageError(
            "give `games` N (a fixed number) or `sprt` (a test), not both; `max_games` caps a test",
            params=["games", "sprt", "max_games"],
        )
    for param, value in (("games", request.games), ("max_games", request.max_games)):
        if value is None:
            continue
        if not 2 <= value <= MAX_GAMES or value % 2:
            raise UsageError(
                f"`{param}` must be an even number from 2 to {MAX_GAMES:,} (each deal is "
                f"played twice), not {value}",
                params=[param],
            )
    sprt: str | None = None
    if request.games is None:
        sprt = str(SprtSpec.parse(request.sprt if request.sprt is not None else DEFAULT_SPRT))
    seed = 0 if request.seed is None else request.seed
    if not 0 <= seed < SEED_LIMIT:
        raise UsageError(f"`seed` must be from 0 to 2**63 - 1, not {seed}", params=["seed"])
    if request.match_seconds is not None and not (
        0.001 <= request.match_seconds <= MAX_MATCH_SECONDS
    ):
        raise UsageError(
            f"`match_seconds` must be from 0.001 to {MAX_MATCH_SECONDS:.0f} (a day), "
            f"not {request.match_seconds:g}",
            params=["match_seconds"],
        )
    if request.move_seconds is not None and not (
        0.001 <= request.move_seconds <= MAX_MATCH_SECONDS
    ):
        raise UsageError(
            f"`move_seconds` must be from 0.001 to {MAX_MATCH_SECONDS:.0f} (a day), "
            f"not {request.move_seconds:g}",
            params=["move_seconds"],
        )
    clock = None if request.clock is None else MatchClock.parse(request.clock)
    one_limit(request.move_seconds, clock)
    if players == 2 and request.field:
        raise UsageError(
            "`field` fills the other seats of tables of 3 or more (`players`)",
            params=["field", "players"],
        )
    parsed_a = parse_spec(request.a, "A")
    parsed_b = parse_spec(request.b, b_is)
    with _naming("field"):
        parsed_field = [parse_spec(text, "`field`") for text in request.field or DEFAULT_FIELD]
    if request.name is not None:
        try:
            check_name(request.name)
        except ValueError as exc:
            raise UsageError(f"duel name {printable(repr(request.name))}: {exc}") from None
    with db.session() as session:
        a = resolve(session, parsed_a, "A")
        b = resolve(session, parsed_b, b_is)
        with _naming("field"):
            bots = [resolve(session, p, "`field`") for p in parsed_field] if players > 2 else []
        if request.name is not None and stored_duels.name_taken(session, request.name):
            raise StorageError(
                f"a duel named {request.name!r} exists: resume it with "
                f"`c8league duel resume {request.name}`, or choose another `name`",
                params=["name"],
            )
    return DuelSettings(
        a=a,
        b=b,
        field=tuple(bots),
        players=players,
        rules=rules.to_json(),
        rules_label=label,
        seed=seed,
        games=request.games,
        sprt=sprt,
        max_games=request.max_games,
        match_seconds=request.match_seconds,
        move_seconds=request.move_seconds,
        clock=clock,
        max_forfeit_share=float(request.max_forfeit_share),
        book=None if book is None else BookDeals(book.name, book.digest, book.seeds),
        luck_adjust=request.luck_adjust,
    )


def _check_book(
    request: DuelRequest, book: DealBook, *, players: int, rules: Rules, label: str
) -> None:
    """The duel asks for what the book was dealt for, and for no more deals than it has.
    A duel never plays a deal twice: a test still undecided at the book's end ends
    there, as at its cap."""
    if request.seed is not None:
        raise UsageError(
            "give `seed` or `deals`, not both: the book's seeds fix the deals",
            params=["seed", "deals"],
        )
    if players != book.players:
        raise UsageError(
            f"`deals` {book.name} is dealt for {book.players} players, not {players} (`players`)",
            params=["deals", "players"],
        )
    if rules.to_json() != book.rules.to_json():
        raise UsageError(
            f"`deals` {book.name} is dealt under the rules {book.rules_label}, not {label}: "
            "leave out `rules` and `set`, or give the book's",
            params=["deals", "rules", "set"],
        )
    if request.games is not None and request.games > 2 * len(book.seeds):
        raise UsageError(
            f"`games` {request.games} needs {request.games // 2} deals; `deals` "
            f"{book.name} has {len(book.seeds)}",
            params=["games", "deals"],
        )


@contextmanager
def _naming(param: str) -> Iterator[None]:
    """Errors raised inside name ``param`` (written `` `param` `` in their message)."""
    try:
        yield
    except C8LeagueError as exc:
        exc.params = (*exc.params, param)
        raise


def create_duel(db: Database, request: DuelRequest) -> str:
    """Check the request and store the new duel (no match is played yet); returns its
    name (``duel-N`` unless the request names it)."""
    settings = settings_of(db, request)
    with db.writing() as session:
        name = request.name or stored_duels.free_name(session)
        if stored_duels.name_taken(session, name):  # taken meanwhile
            raise StorageError(
                f"a duel named {name!r} exists: choose another `name`", params=["name"]
            )
        stored_duels.add(
            session,
            name,
            players=settings.players,
            seed=settings.seed,
            settings=settings.to_json(),
        )
    return name


def run_duel(
    db: Database,
    name: str,
    *,
    workers: int | None = None,
    executor: str = "processes",
    address: str | None = None,
    progress: Progress | None = None,
    max_forfeits: int | None = MAX_FORFEITS,
    sandbox: Mode | None = None,
    unsandboxed: Callable[[Support], None] | None = None,
    gauntlet: str | None = None,
    new_version: bool = False,
    new_versions: Callable[[tuple[NewVersion, ...], tuple[int, ...]], None] | None = None,
    watch: Watch | None = None,
) -> RunSummary:
    """Play the duel ``name`` until it is finished, from where an earlier run stopped.

    The version of every bot is found first (``c8league.players.versions``) and kept with
    the duel. A bot found at another version than the duel's matches were played with
    stops the run before anything is played (:class:`BotChanged`), unless
    ``new_version``: the duel then goes on with the new version, and the pairs in which
    the old one forfeited a match are taken out and played again first
    (``RunSummary.replayed``). Its other pairs stay as played. ``new_versions`` is told
    the bots taken at a new version and the deals to play again, before play begins.

    Every bot is first started once on every worker (``runner.starting``); one that
    cannot start stops the run before its first game. A bot that forfeits
    ``max_forfeits`` matches in a row (None or 0: never) stops it after the pair of that
    match. Either way the duel is kept without a verdict, with why it stopped, and
    :class:`BotStopped` says so in one line. A duel whose forfeited games exceed its
    ``max_forfeit_share`` ends (finished, without a verdict: ``duel.forfeits``) as soon
    as that is certain. ``sandbox`` and ``unsandboxed`` are as for
    ``events.running.run_event``; ``gauntlet`` names the gauntlet the duel is one of,
    which an interrupted run says to resume; ``watch`` is told what changes in a
    cluster's workers during the run (``runner.executors.make_runner``)."""
    started = time.perf_counter()
    with db.session() as session:
        duel = stored_duels.get(session, name)
        duel_id, duel_name, status = duel.id, duel.name, duel.status
        settings = replace(DuelSettings.from_json(duel.settings), sandbox=sandbox)
    assert duel_id is not None
    summary = RunSummary(duel_name)
    _check_plugins(settings)
    resumed = gauntlet or duel_name
    again = resume_command("duel", resumed, executor, address, sandbox)
    with (
        run_kept(
            lambda: (
                f"{summary.pairs} pairs of duel {duel_name} stored by this run"
                if gauntlet
                else f"{summary.pairs} pairs stored by this run"
            ),
            goes_on="the gauntlet goes on with" if gauntlet else "the duel goes on with",
            again=again,
        ),
        event_run_lock(db, duel_id, duel_name, kind="duel"),
        make_runner(executor, workers, address, watch=watch) as runner,
    ):
        if status != "finished" or new_version:
            settings, summary.new_versions, summary.replayed = _take_versions(
                db, duel_id, settings, new_version=new_version, again=again
            )
            if summary.new_versions and new_versions is not None:
                new_versions(summary.new_versions, summary.replayed)
        with db.session() as session:
            stored = stored_tally(settings, session, duel_id)
            played = stored_duels.deals(session, duel_id)
            forfeits = Forfeits.of_pairs(settings.players, stored_duels.forfeited(session, duel_id))
            status = stored_duels.get(session, duel_name).status
        tally = stored
        summary.tally, summary.settings = tally, settings
        if settings.finished(tally, forfeits=forfeits):
            summary.already_finished = status == "finished"
            if status != "finished":
                _store(db, duel_id, [], finished=True)
        else:
            runner.prepare()
            missing = runner_unsandboxed(_starts(settings))
            if missing is not None and unsandboxed is not None:
                unsandboxed(missing)
            _start_bots(db, duel_id, name=duel_name, settings=settings, runner=runner, again=again)
            streaks = ForfeitStreaks(max_forfeits)
            _play(
                db,
                duel_id,
                settings=settings,
                deals=_deals_to_play(played),
                tally=tally,
                runner=runner,
                summary=summary,
                progress=progress,
                streaks=streaks,
                forfeits=forfeits,
                again=again,
            )
    summary.seconds = time.perf_counter() - started
    return summary


def _take_versions(
    db: Database,
    duel_id: int,
    settings: DuelSettings,
    *,
    new_version: bool,
    again: str,
) -> tuple[DuelSettings, tuple[NewVersion, ...], tuple[int, ...]]:
    """Find the version of every bot of the duel and keep it with the duel; a bot at
    another version than the duel's stops the run (:class:`BotChanged`) unless
    ``new_version``: then the pairs its old version forfeited are taken out, in the same
    transaction. The duel's settings with its versions, the bots at a new version, and
    the deals taken out."""
    found = {
        (bot.plugin, bot.options): (label, version_of(bot.plugin, json.loads(bot.options)))
        for label, bot in settings.bots()
    }
    with db.writing(wait=None) as session:
        ids = stored_versions.keep(
            session,
            (VersionRecord(v.digest, v.label, v.details_json()) for _, v in found.values()),
        )
        now = tuple(
            PlayedVersion(plugin, options, version.digest, ids[version.digest])
            for (plugin, options), (_, version) in found.items()
        )
        changed = [
            (played, old)
            for played in now
            if (old := settings.version(Bot("", *played.bot))) is not None
            and old.digest != played.digest
        ]
        olds = stored_versions.kept(session, (old.id for _, old in changed))
        news: list[NewVersion] = []
        for played, old in changed:
            who, version = found[played.bot]
            was = olds.get(old.id)
            label, made = (old.digest[:8], {}) if was is None else (was.label, was.details)
            news.append(NewVersion(who, label, version.label, what_changed(made, version.details)))
        if news and not new_version:
            first = news[0]
            raise BotChanged(
                f"{first}; the duel's games so far were played by the old version: "
                f"{again} --new-version goes on with the new one and "
                "plays again the pairs the old one forfeited, or start a new duel",
                who=first.who,
                old=first.old,
                new=first.new,
            )
        replay: list[int] = []
        if news:
            bots = {played.bot: played.id for played, _ in changed}
            replay = _forfeited_by(session, duel_id, settings, bots)
            if replay:
                stored_duels.delete_pairs(session, duel_id, replay)
                stored_duels.set_status(session, duel_id, "playing")
        settings = replace(settings, versions=now)
        stored_duels.set_settings(session, duel_id, settings.to_json())
    return settings, tuple(news), tuple(replay)


def _forfeited_by(
    session: Session, duel_id: int, settings: DuelSettings, bots: dict[tuple[str, str], int]
) -> list[int]:
    """The deals of the stored pairs in which one of ``bots`` (by plugin and options, each
    with the id of the version it now plays as) forfeited a match at another version
    (at any, for a match stored before versions were recorded)."""
    deals = []
    for deal, _, *texts in stored_duels.forfeited_deals(session, duel_id):
        for side, text in enumerate(texts):
            data = json.loads(text)
            forfeit = data["forfeit"]
            if forfeit is None:
                continue
            seat = int(forfeit["seat"])
            bot = settings.seatings(deal)[side][seat]
            now = bots.get((bot.plugin, bot.options))
            versions = data.get("versions")
            if now is not None and (not versions or versions[seat] != now):
                deals.append(deal)
                break
    return deals


def _deals_to_play(played: Sequence[int]) -> Iterator[int]:
    """The deals still to play, in the order they are played: those missing among the
    stored (taken out to be played again), then the deals after the last stored."""
    stored = set(played)
    after = max(played, default=-1) + 1
    yield from (deal for deal in range(after) if deal not in stored)
    yield from itertools.count(after)


def _check_plugins(settings: DuelSettings) -> None:
    """Every bot's plugin is installed and takes its options: checked before anything is
    played, so that a resume on a machine without a plugin stops with one line."""
    seen: set[tuple[str, str]] = set()
    for who, bot in [
        ("A", settings.a),
        ("B", settings.b),
        *(("`field`", f) for f in settings.field),
    ]:
        if (bot.plugin, bot.options) in seen:
            continue
        seen.add((bot.plugin, bot.options))
        try:
            registry.validate_options(registry.get(bot.plugin), json.loads(bot.options))
        except PluginError as exc:
            params = ["field"] if who == "`field`" else []
            raise PluginError(f"{who} ({bot.label}): {exc}", params=params) from None


def _start_bots(
    db: Database, duel_id: int, *, name: str, settings: DuelSettings, runner: Runner, again: str
) -> None:
    """Start every bot once on every worker before the first game (see
    ``runner.starting``): one that cannot start stops the duel, kept without a verdict."""
    problem = runner.start(_starts(settings), settings.match_seconds)
    if problem is not None:
        _stop(db, duel_id, problem)
        raise BotStopped(f"{problem}; duel {name} has no verdict ({again})")
    with db.writing(wait=None) as session:
        stored_duels.set_stopped(session, duel_id, None)


def _starts(settings: DuelSettings) -> list[BotStart]:
    """The duel's bots, each once, to be started before its first game."""
    players, rules = settings.players, settings.rules
    starts = []
    for label, bot in settings.bots():
        played = settings.version(bot)
        digest = "" if played is None else played.digest
        spec = SeatSpec(bot.plugin, bot.options, settings.sandbox, digest)
        starts.append(BotStart(label, spec, rules, players))
    return starts


def _stop(db: Database, duel_id: int, why: str) -> None:
    with db.writing(wait=None) as session:
        stored_duels.set_stopped(session, duel_id, why)


def stored_tally(settings: DuelSettings, session: Session, duel_id: int) -> DuelTally:
    """The tally of the duel's stored pairs, in deal order (with their luck-adjusted
    scores when the duel adjusts for luck)."""
    tally = settings.tally()
    steps = 2 * (settings.players - 1)
    if tally.luck is None:
        for a, b in stored_duels.shares(session, duel_id):
            tally.add(a / steps, b / steps)
        return tally
    for pair in stored_duels.pairs(session, duel_id):
        count_pair(tally, pair, steps)
    return tally


CHUNK_PAIRS = 2048
"""Deals handed to the runner at a time (the runner keeps its workers between them)."""


def _play(
    db: Database,
    duel_id: int,
    *,
    settings: DuelSettings,
    deals: Iterator[int],
    tally: DuelTally,
    runner: Runner,
    summary: RunSummary,
    progress: Progress | None,
    streaks: ForfeitStreaks,
    forfeits: Forfeits,
    again: str,
) -> None:
    cap = settings.max_pairs
    if progress is not None:
        progress(tally, settings)
    play = _Play(
        db,
        duel_id,
        settings=settings,
        tally=tally,
        summary=summary,
        progress=progress,
        streaks=streaks,
        forfeits=forfeits,
        again=again,
    )
    while True:
        count = CHUNK_PAIRS if cap is None else min(CHUNK_PAIRS, cap - tally.pairs)
        chunk = list(itertools.islice(deals, count))
        tasks = [task for deal in chunk for task in settings.tasks(deal)]
        if play.chunk(runner.run(tasks)):
            return


class _Play:
    """Counting and storing the pairs of a duel's run as the runner reports them."""

    def __init__(
        self,
        db: Database,
        duel_id: int,
        *,
        settings: DuelSettings,
        tally: DuelTally,
        summary: RunSummary,
        progress: Progress | None,
        streaks: ForfeitStreaks,
        forfeits: Forfeits,
        again: str,
    ) -> None:
        self.again = again
        """The command that goes on with the duel (or its gauntlet) where it runs."""
        self.db, self.duel_id, self.settings = db, duel_id, settings
        self.tally, self.summary, self.progress = tally, summary, progress
        self.streaks = streaks
        self.forfeits = forfeits
        """The duel's forfeited games so far (the stored pairs', then this run's)."""
        self.names = {(bot.plugin, bot.options): label for label, bot in settings.bots()}
        self.version_ids = {played.digest: played.id for played in settings.versions or ()}
        self.spec = settings.spec
        self.steps = 2 * (settings.players - 1)
        self.batch: list[StoredPair] = []
        self.last_commit = time.perf_counter()
        self.luck = (
            MatchLuck(Rules.from_json(settings.rules), settings.players, settings.preset)
            if settings.luck_adjust
            else None
        )

    def chunk(self, reports: Iterator[MatchReport]) -> bool:
        """Count and store the pairs of ``reports`` (whole deals, in deal order); True
        when the duel is finished (the rest of ``reports`` is then dropped)."""
        tally, steps = self.tally, self.steps
        waiting: MatchReport | None = None
        streak: Streak | None = None
        try:
            for report in reports:
                if report.error is not None:
                    self.store(finished=False)
                    deal = report.match_id // 2
                    side = "A's" if report.match_id % 2 == 0 else "B's"
                    raise PluginError(
                        f"deal {deal}, {side} match: {report.error} (the deals before it "
                        f"are stored: {self.again})"
                    )
                streak = self.count_forfeit(report) or streak
                if report.match_id % 2 == 0:
                    waiting = report
                    continue
                assert waiting is not None and waiting.match_id + 1 == report.match_id
                deal = report.match_id // 2
                lucks = self.lucks(deal, a=waiting, b=report)
                pair = _pair(
                    self.settings,
                    deal,
                    a=waiting,
                    b=report,
                    steps=steps,
                    versions=self.version_ids,
                    lucks=lucks,
                )
                self.count_forfeits(pair.seat, a=waiting, b=report)
                waiting = None
                tally.add(pair.share_a / steps, pair.share_b / steps)
                if tally.luck is not None and lucks is not None:
                    tally.luck.add(pair.share_a, pair.share_b, *lucks)
                self.batch.append(pair)
                self.summary.play_seconds += pair.seconds
                try:
                    done = self.settings.finished(tally, self.spec, self.forfeits)
                except C8LeagueError:
                    # The pairs go in before any statistic can stop the run: a resume
                    # then starts after them and can never replay into the same error.
                    self.store(finished=False)
                    raise
                if done or time.perf_counter() - self.last_commit >= COMMIT_SECONDS:
                    self.store(finished=done)
                if self.progress is not None:
                    self.progress(tally, self.settings)
                if done:
                    return True
                if streak is not None:
                    self.store(finished=False)
                    _stop(self.db, self.duel_id, str(streak))
                    name = self.summary.name
                    raise BotStopped(
                        f"{streak}; duel {name} has no verdict: mend the bot, then "
                        f"{self.again} (--max-forfeits 0 never stops)"
                    )
        except ExecutorLost:
            self.store(finished=False)  # the pairs played are whole
            raise
        finally:
            close = getattr(reports, "close", None)
            if callable(close):
                close()  # stops the matches still being played
        self.store(finished=False)
        return False

    def lucks(self, deal: int, *, a: MatchReport, b: MatchReport) -> tuple[float, float] | None:
        """The luck corrections of A's and B's matches of ``deal`` at its seat (None when
        the duel does not adjust for luck)."""
        if self.luck is None:
            return None
        seed, seat = self.settings.deal_seed(deal), self.settings.seat(deal)
        return (
            self.luck.correction(seed, a.moves, seat) if a.moves else 0.0,
            self.luck.correction(seed, b.moves, seat) if b.moves else 0.0,
        )

    def count_forfeits(self, seat: int, *, a: MatchReport, b: MatchReport) -> None:
        """Count the forfeits of a deal's two matches (A and B in ``seat``)."""
        for side, report in (("A", a), ("B", b)):
            forfeit = report.result.forfeit
            if forfeit is not None:
                self.summary.forfeits += 1
                who = forfeiter(self.settings.players, side, seat, forfeit.seat)
                self.forfeits = self.forfeits.plus(who)

    def count_forfeit(self, report: MatchReport) -> Streak | None:
        """Count ``report``'s match in each of its bots' streak of forfeits."""
        deal, side = divmod(report.match_id, 2)
        seats = self.settings.seatings(deal)[side]
        names = [self.names[(bot.plugin, bot.options)] for bot in seats]
        name = match_id(self.summary.name, deal, "AB"[side])
        return self.streaks.add(names, report.result.forfeit, name)

    def store(self, *, finished: bool) -> None:
        _store(self.db, self.duel_id, self.batch, finished=finished)
        self.summary.pairs += len(self.batch)
        self.batch = []
        self.last_commit = time.perf_counter()


def _pair(
    settings: DuelSettings,
    deal: int,
    *,
    a: MatchReport,
    b: MatchReport,
    steps: int,
    versions: dict[str, int],
    lucks: tuple[float, float] | None = None,
) -> StoredPair:
    seat = settings.seat(deal)
    luck_a, luck_b = (None, None) if lucks is None else lucks
    share_a = round(match_points(a.result.placements)[seat] * steps)
    share_b = round(match_points(b.result.placements)[seat] * steps)
    return StoredPair(
        deal=deal,
        seat=seat,
        share_a=share_a,
        share_b=share_b,
        match_a=_match_json(a, versions, luck_a),
        match_b=_match_json(b, versions, luck_b),
        seconds=a.seconds + b.seconds,
        moves_a=pack_moves(a.moves) if a.moves else None,
        moves_b=pack_moves(b.moves) if b.moves else None,
    )


def _match_json(report: MatchReport, versions: dict[str, int], luck: float | None) -> str:
    """A match's result as a duel keeps it; ``versions``: the id of each version kept
    (``bot_version``) by its digest, the seats' versions stored as their ids; ``luck``,
    the correction of the duel's seat for the luck of the cards (if the duel adjusts)."""
    result = report.result
    forfeit = result.forfeit
    played = [versions.get(digest) for digest in result.versions]
    return json.dumps(
        {
            "placements": list(result.placements),
            "scores": list(result.scores),
            "ended": result.ended,
            "decisions": result.decisions,
            "forfeit": None if forfeit is None else forfeit.to_dict(detail_limit=500),
            "seconds": round(report.seconds, 6) if math.isfinite(report.seconds) else None,
            **({"versions": played} if any(v is not None for v in played) else {}),
            **({} if luck is None else {"luck": luck}),
        },
        separators=(",", ":"),
    )


def _store(db: Database, duel_id: int, pairs: Sequence[StoredPair], *, finished: bool) -> None:
    """Store finished pairs (and, if the duel is over, that it is) in one transaction."""
    if not pairs and not finished:
        return
    with db.writing(wait=None) as session:
        stored_duels.store_pairs(session, duel_id, pairs)
        if finished:
            stored_duels.set_status(session, duel_id, "finished")
