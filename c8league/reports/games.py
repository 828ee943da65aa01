"""One match read back whole and replayed: ``c8league match show ID``.

A match is named by its id: a number for a match of an event (``17``, as ``result
list`` and ``event status`` show it), ``DUEL:DEALside`` for a match of a duel
(``duel-1:0A``: deal 0, A's match, as ``duel show`` shows it). :func:`read_game` reads
it from storage and replays its moves through the engine (``MatchRecord``), so every
hand can be shown dealt, move by move, and ended; :func:`game_record` is the engine's
record of it, which replays it again: what ``match show --format json`` prints, and
``games export`` (:mod:`c8league.reports.export`) writes one line of per match.
"""

from __future__ import annotations

import functools
import json
import re
import shlex
from collections.abc import Sequence
from dataclasses import dataclass, field, fields, replace
from typing import Any

from c8league.duel.demo import PlayedMatch
from c8league.duel.plan import DuelSettings, match_id
from c8league.duel.specs import spec_text
from c8league.engine import Card, Hand, HandRecord, HandResult, Move, Rules
from c8league.engine.match import MatchRecord
from c8league.engine.rules import PRESETS, preset_rules
from c8league.errors import NotFoundError, RecordError, UsageError
from c8league.results import Forfeit
from c8league.storage import Session
from c8league.storage import duels as stored_duels
from c8league.storage import results as stored_results
from c8league.storage import versions as stored_versions
from c8league.storage.database import Database

DUEL_MATCH = re.compile(r"^(?P<duel>.+):(?P<deal>\d+)(?P<side>[ABab])$")


@dataclass(frozen=True)
class Step:
    """One move and the table after it: every hand (a record shows all cards), the top
    of the discard pile, the suit to follow, the stock, whose turn is next."""

    seat: int
    move: str
    hands: tuple[tuple[str, ...], ...]
    top: str
    suit: str | None
    stock: int
    pending: int
    current: int


@dataclass(frozen=True)
class HandView:
    """One hand: who dealt, the deal, the starter, every move, and how it ended (None:
    the match stopped in it)."""

    number: int
    dealer: int
    dealt: tuple[tuple[str, ...], ...]
    starter: str
    start: Step
    steps: tuple[Step, ...]
    result: HandResult | None
    totals: tuple[int, ...]


@dataclass(frozen=True)
class Game:
    """A stored match, replayed."""

    id: str
    title: str
    rules: Rules
    players: tuple[str, ...]
    """Who sat in each seat, by name."""
    specs: tuple[str, ...]
    """Each seat's player spec (``greedy``, ``cmd:./bot``), as ``demo`` takes them."""
    seed: int
    placements: tuple[int, ...]
    scores: tuple[int, ...]
    ended: str
    forfeit: Forfeit | None
    record: MatchRecord | None
    """The moves (None: the match was entered by hand or stored before moves were kept)."""
    hands: tuple[HandView, ...] = field(default=())
    problem: str | None = None
    """Why the moves could not be replayed, if they could not."""
    source: dict[str, Any] = field(default_factory=dict)
    """Where it was played, as the record gives it: ``{"event": …}`` or ``{"duel": …}``
    (see :func:`game_record`); empty for a match played here."""
    seat_facts: tuple[dict[str, Any], ...] = ()
    """What storage holds of each seat besides its player's name and spec (its bot's
    version, say), in seat order: the record shows it with the seat."""

    @property
    def rule_options(self) -> list[str]:
        """``--rules PRESET --set key=value …`` giving these rules, fewest changes first."""
        return list(_rule_options(self.rules))

    @property
    def demo_command(self) -> str:
        """The ``c8league demo`` command that plays this match again with these players."""

        words = ["c8league", "demo", *self.specs, "--seed", str(self.seed), *self.rule_options]
        return shlex.join(words)


@functools.lru_cache(maxsize=64)
def _rule_options(rules: Rules) -> tuple[str, ...]:
    best: tuple[int, str, dict[str, Any]] | None = None
    for name in PRESETS:
        changes = rules.describe_changes(preset_rules(name))
        if best is None or len(changes) < best[0]:
            best = (len(changes), name, changes)
    assert best is not None
    options = ["--rules", best[1]]
    for key, value in best[2].items():
        options += ["--set", f"{key}={_value_text(value)}"]
    return tuple(options)


def _value_text(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "none"
    return str(value)


def read_game(db: Database, name: str) -> Game:
    """The match named ``name`` (see the module), replayed."""
    text = name.strip()
    if text.isdigit():
        game = _event_game(db, int(text))
    else:
        found = DUEL_MATCH.match(text)
        if found is None:
            raise UsageError(
                f"{text!r} is not a match id: a number (a match of an event, see result list) "
                "or DUEL:DEAL followed by A or B (a match of a duel, see duel show --json)"
            )
        game = _duel_game(db, found["duel"], int(found["deal"]), found["side"].upper())
    return _replayed(game)


def _event_game(db: Database, number: int) -> Game:
    with db.session() as session:
        match = stored_results.stored_match(session, number)
    if match is None:
        raise NotFoundError(f"no match {number} (c8league result list EVENT shows matches)")
    return event_game(match)


_SEAT_SHOWN = frozenset({"name", "plugin", "options", "place", "score"})
"""The fields of a stored seat that a game shows in its own way (see :func:`_facts`)."""
_BOT_SHOWN = frozenset({"label", "plugin", "options"})


def _facts(value: Any, shown: frozenset[str]) -> dict[str, Any]:
    """The fields of a stored seat or duel bot (a dataclass) but those ``shown``: what
    else storage holds of a seat, which the record shows as it is."""
    return {f.name: getattr(value, f.name) for f in fields(value) if f.name not in shown}


def event_game(match: stored_results.StoredMatch) -> Game:
    """A match of an event as storage read it, not yet replayed."""
    record = None
    if match.hands or match.unfinished is not None:
        hands = [HandRecord.from_json(text) for text in match.hands]
        unfinished = None
        if match.unfinished is not None:
            unfinished = HandRecord({}, tuple(match.unfinished.split()))
        record = MatchRecord.from_hands(len(match.seats), match.seed, hands, unfinished)
    forfeit = None
    if match.forfeit_seat is not None and match.forfeit_reason is not None:
        forfeit = Forfeit(
            match.forfeit_seat,
            match.forfeit_reason,
            match.forfeit_move or 0,
            match.forfeit_detail or "",
            match.forfeit_request,
        )
    deal = f", deal {match.deal}" if match.deal else ""
    return Game(
        id=str(match.match_id),
        title=f"{match.league}/{match.event}, round {match.round}, table {match.table}{deal}",
        rules=_rules(match.rules),
        players=tuple(seat.name for seat in match.seats),
        specs=tuple(
            spec_text(seat.plugin, seat.options) if seat.plugin else f"@{seat.name}"
            for seat in match.seats
        ),
        seed=match.seed,
        placements=tuple(seat.place or 0 for seat in match.seats),
        scores=tuple(seat.score or 0 for seat in match.seats),
        ended=match.ended or match.status,
        forfeit=forfeit,
        record=record,
        source={
            "league": match.league,
            "event": match.event,
            "round": match.round,
            "table": match.table,
            "deal": match.deal,
        },
        seat_facts=tuple(_facts(seat, _SEAT_SHOWN) for seat in match.seats),
    )


@functools.lru_cache(maxsize=64)
def _rules(text: str) -> Rules:
    """The rules of a stored match (kept: an event's matches share a few rule sets)."""
    return Rules.from_json(text)


def _duel_game(db: Database, duel_name: str, deal: int, side: str) -> Game:
    with db.session() as session:
        duel = stored_duels.get(session, duel_name)
        assert duel.id is not None
        pair = stored_duels.pair(session, duel.id, deal)
        name = duel.name
        settings = DuelSettings.from_json(duel.settings)
        versions = duel_versions(session, [pair] if pair is not None else [])
    if pair is None:
        raise NotFoundError(f"duel {name} has no deal {deal} stored")
    return duel_game(name, settings, pair, side, versions)


def duel_versions(
    session: Session, pairs: Sequence[stored_duels.StoredPair]
) -> dict[int, tuple[str, str]]:
    """The label and digest of each version that played a match of ``pairs``, by id."""
    ids: set[int] = set()
    for pair in pairs:
        for text in (pair.match_a, pair.match_b):
            ids.update(v for v in json.loads(text).get("versions") or () if v is not None)
    return {i: (v.label, v.digest) for i, v in stored_versions.kept(session, ids).items()}


def duel_game(
    name: str,
    settings: DuelSettings,
    pair: stored_duels.StoredPair,
    side: str,
    versions: dict[int, tuple[str, str]] | None = None,
) -> Game:
    """A's (``side`` ``A``) or B's match of the duel ``name``'s stored ``pair``, not yet
    replayed; ``versions``: the label and digest of the versions that played it, by id
    (see :func:`duel_versions`)."""
    index = "AB".index(side)
    deal = pair.deal
    data = json.loads(pair.match_a if side == "A" else pair.match_b)
    moves = pair.moves_a if side == "A" else pair.moves_b
    seats = settings.seatings(deal)[index]
    names = {(bot.plugin, bot.options): label for label, bot in settings.bots()}
    forfeit = None if data["forfeit"] is None else Forfeit.from_dict(data["forfeit"])
    seed = settings.deal_seed(deal)
    record = None
    if moves is not None:
        record = MatchRecord.from_text(
            settings.players, seed, stored_duels.unpack_moves(bytes(moves))
        )
    return Game(
        id=match_id(name, deal, side),
        title=f"duel {name}, deal {deal}, {side}'s match ({side} in seat {pair.seat})",
        rules=_rules(settings.rules),
        players=tuple(names[(bot.plugin, bot.options)] for bot in seats),
        specs=tuple(spec_text(bot.plugin, bot.options) for bot in seats),
        seed=seed,
        placements=tuple(data["placements"]),
        scores=tuple(data["scores"]),
        ended=str(data["ended"]),
        forfeit=forfeit,
        record=record,
        source={"duel": name, "deal": deal, "side": side, "seat": pair.seat},
        seat_facts=tuple(
            _seat_version(_facts(bot, _BOT_SHOWN), played, versions or {})
            for bot, played in zip(seats, data.get("versions") or [None] * len(seats), strict=True)
        ),
    )


def _seat_version(
    facts: dict[str, Any], played: int | None, versions: dict[int, tuple[str, str]]
) -> dict[str, Any]:
    """A duel's seat's facts with the label and digest of the version that played it
    (None: a match stored before versions were kept)."""
    label, digest = versions.get(played, (None, None)) if played is not None else (None, None)
    return {**facts, "version": label, "version_digest": digest}


# -- the replay ------------------------------------------------------------------------------


def _cards(cards: list[Card]) -> tuple[str, ...]:
    return tuple(str(card) for card in cards)


def _step(hand: Hand, seat: int, move: str) -> Step:
    suit = None if hand.suit is None else str(hand.suit)
    return Step(
        seat=seat,
        move=move,
        hands=tuple(_cards(cards) for cards in hand.hands),
        top=str(hand.top),
        suit=suit,
        stock=len(hand.stock),
        pending=int(hand.pending),
        current=hand.current,
    )


def _replayed(game: Game) -> Game:
    """``game`` with its hands replayed from its record (or why they could not be)."""
    record = game.record
    if record is None:
        return game
    views: list[HandView] = []
    current: list[Any] = []  # [hand, starter, start, steps]
    totals = [0] * record.players

    def close() -> None:
        h, starter, start, steps = current
        result = h.result
        if result is not None and not game.rules.countdown:
            for seat, points in enumerate(result.points):
                totals[seat] += points
        views.append(
            HandView(
                number=len(views) + 1,
                dealer=h.dealer,
                dealt=start.hands,
                starter=starter,
                start=start,
                steps=tuple(steps),
                result=result,
                totals=tuple(totals),
            )
        )

    def on_hand(hand: Hand) -> None:
        if current:
            close()
        start = _step(hand, -1, "")
        current[:] = [hand, str(hand.discard[0]), start, []]

    def on_move(hand: Hand, move: Move) -> None:
        seat = hand.history[-1][0]
        current[3].append(_step(hand, seat, str(move)))

    try:
        record.replay(game.rules, on_hand=on_hand, on_move=on_move)
    except RecordError as exc:
        return _with(game, views, f"the stored moves do not replay: {exc}")
    if current:
        close()
    return _with(game, views, None)


def _with(game: Game, hands: list[HandView], problem: str | None) -> Game:
    return replace(game, hands=tuple(hands), problem=problem)


# -- the record as JSON ------------------------------------------------------------------------

RECORD_FORMAT = "c8league-game"
RECORD_VERSION = 1
"""The game record's shape (``docs/games-export.md``): ``format`` is always
:data:`RECORD_FORMAT`; the version changes only when a key is removed or changes
meaning (new keys may be added within a version)."""


def game_record(game: Game) -> dict[str, Any]:
    """The match as the engine's record, with who played it and how it ended: what
    ``match show --format json`` prints and ``games export`` writes a line of
    (``docs/games-export.md``). ``rules`` (every option), ``players`` (table size),
    ``seed`` and ``hands`` (each hand's start and moves: ``HandRecord.from_dict(…)
    .replay(rules)`` replays it; the whole match replays with ``MatchRecord``), then
    ``seats``, ``result`` and ``forfeit``."""
    hands: list[dict[str, Any]] = []
    problem = game.problem
    if game.record is not None and problem is None:
        try:
            hands = [h.to_dict() for h in game.record.hand_records(game.rules)]
        except RecordError as exc:
            problem = f"the stored moves do not replay: {exc}"
    forfeit = game.forfeit
    return {
        "format": RECORD_FORMAT,
        "version": RECORD_VERSION,
        "match": game.id,
        "title": game.title,
        "source": game.source or None,
        "rules": _rules_record(game.rules),
        "players": len(game.players),
        "seed": game.seed,
        "hands": hands,
        "moves": None if game.record is None else game.record.to_text().split("\n"),
        "problem": problem,
        "seats": [
            {
                "seat": i,
                "name": name,
                "spec": spec,
                **(game.seat_facts[i] if i < len(game.seat_facts) else {}),
            }
            for i, (name, spec) in enumerate(zip(game.players, game.specs, strict=True))
        ],
        "result": {
            "placements": list(game.placements),
            "scores": list(game.scores),
            "ended": game.ended,
        },
        "forfeit": None if forfeit is None else forfeit.to_dict(),
        "replay": game.demo_command,
    }


def _rules_record(rules: Rules) -> dict[str, Any]:
    """Every rule option as plain values (a fresh copy: the record is the caller's)."""
    return dict(_rules_options(rules))


@functools.lru_cache(maxsize=64)
def _rules_options(rules: Rules) -> dict[str, Any]:
    options: dict[str, Any] = json.loads(rules.to_json())
    return options


# -- a match played here ---------------------------------------------------------------------


def demo_game(played: PlayedMatch) -> Game:
    """A match played here (``demo``, :func:`c8league.duel.demo.play_demo`) as a
    :class:`Game`, replayed hand by hand."""
    game = Game(
        id="",
        title="",
        rules=played.rules,
        players=played.labels,
        specs=played.specs,
        seed=played.seed,
        placements=tuple(played.result.placements),
        scores=tuple(played.result.scores),
        ended=played.result.ended,
        forfeit=played.forfeit,
        record=played.moves,
    )
    return _replayed(game)
