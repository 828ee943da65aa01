"""One match read back whole and replayed: ``c8league match show ID``.

A match is named by its id: a number for a match of an event (``17``, as ``result
list`` and ``event status`` show it), ``DUEL:DEALside`` for a match of a duel
(``duel-1:0A``: deal 0, A's match, as ``duel show`` shows it). :func:`read_game` reads
it from storage and replays its moves through the engine (``MatchRecord``), so every
hand can be shown dealt, move by move, and ended; :func:`game_json` is the engine's
record of it, which replays it again.
"""

from __future__ import annotations

import json
import re
import shlex
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from c8league.duel.plan import DuelSettings, match_id
from c8league.duel.specs import parse_spec, resolve, spec_text
from c8league.engine import Card, Hand, HandRecord, HandResult, Move, Rules
from c8league.engine.match import MatchRecord
from c8league.engine.rules import PRESETS, parse_assignments, preset_rules
from c8league.errors import NotFoundError, RecordError, UsageError
from c8league.results import Forfeit
from c8league.runner.loop import play_match
from c8league.runner.tasks import SeatSpec, create_player
from c8league.storage import duels as stored_duels
from c8league.storage import results as stored_results
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

    @property
    def rule_options(self) -> list[str]:
        """``--rules PRESET --set key=value …`` giving these rules, fewest changes first."""
        best: tuple[int, str, dict[str, Any]] | None = None
        for name in PRESETS:
            changes = self.rules.describe_changes(preset_rules(name))
            if best is None or len(changes) < best[0]:
                best = (len(changes), name, changes)
        assert best is not None
        options = ["--rules", best[1]]
        for key, value in best[2].items():
            options += ["--set", f"{key}={_value_text(value)}"]
        return options

    @property
    def demo_command(self) -> str:
        """The ``c8league demo`` command that plays this match again with these players."""

        words = ["c8league", "demo", *self.specs, "--seed", str(self.seed), *self.rule_options]
        return shlex.join(words)


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
        )
    deal = f", deal {match.deal}" if match.deal else ""
    return Game(
        id=str(number),
        title=f"{match.league}/{match.event}, round {match.round}, table {match.table}{deal}",
        rules=Rules.from_json(match.rules),
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
    )


def _duel_game(db: Database, duel_name: str, deal: int, side: str) -> Game:
    with db.session() as session:
        duel = stored_duels.get(session, duel_name)
        assert duel.id is not None
        pair = stored_duels.pair(session, duel.id, deal)
        name = duel.name
        settings = DuelSettings.from_json(duel.settings)
    if pair is None:
        raise NotFoundError(f"duel {name} has no deal {deal} stored")
    index = "AB".index(side)
    data = json.loads(pair.match_a if side == "A" else pair.match_b)
    moves = pair.moves_a if side == "A" else pair.moves_b
    seats = settings.seatings(deal)[index]
    names = {(bot.plugin, bot.options): label for label, bot in settings.bots()}
    forfeit = None
    if data["forfeit"] is not None:
        f = data["forfeit"]
        forfeit = Forfeit(int(f["seat"]), str(f["reason"]), int(f["move"]), str(f["detail"]))
    seed = settings.deal_seed(deal)
    record = None
    if moves is not None:
        record = MatchRecord.from_text(settings.players, seed, stored_duels.unpack_moves(moves))
    return Game(
        id=match_id(name, deal, side),
        title=f"duel {name}, deal {deal}, {side}'s match ({side} in seat {pair.seat})",
        rules=Rules.from_json(settings.rules),
        players=tuple(names[(bot.plugin, bot.options)] for bot in seats),
        specs=tuple(spec_text(bot.plugin, bot.options) for bot in seats),
        seed=seed,
        placements=tuple(data["placements"]),
        scores=tuple(data["scores"]),
        ended=str(data["ended"]),
        forfeit=forfeit,
        record=record,
    )


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


def game_json(game: Game) -> dict[str, Any]:
    """The match as the engine's record, with who played it and how it ended:
    ``rules`` (every option), ``players`` (table size), ``seed`` and ``hands`` (each
    hand's start and moves, ``HandRecord.from_dict(…).replay(rules)`` replays it; the
    whole match replays with ``MatchRecord``), then ``seats``, ``result`` and
    ``forfeit``."""
    hands: list[dict[str, Any]] = []
    if game.record is not None and game.problem is None:
        hands = [h.to_dict() for h in game.record.hand_records(game.rules)]
    forfeit = game.forfeit
    return {
        "match": game.id,
        "title": game.title,
        "rules": json.loads(game.rules.to_json()),
        "players": len(game.players),
        "seed": game.seed,
        "hands": hands,
        "moves": None if game.record is None else game.record.to_text().split("\n"),
        "seats": [
            {"seat": i, "name": name, "spec": spec}
            for i, (name, spec) in enumerate(zip(game.players, game.specs, strict=True))
        ],
        "result": {
            "placements": list(game.placements),
            "scores": list(game.scores),
            "ended": game.ended,
        },
        "forfeit": None
        if forfeit is None
        else {
            "seat": forfeit.seat,
            "reason": forfeit.reason,
            "move": forfeit.move_number,
            "detail": forfeit.detail,
        },
        "replay": game.demo_command,
    }


# -- a match played here ---------------------------------------------------------------------


def demo_game(
    specs: Sequence[str],
    seed: int,
    *,
    preset: str = "pagat",
    assignments: Sequence[str] = (),
    db: Database | None = None,
) -> Game:
    """Play one match between ``specs`` (player specs, one per seat; ``@entrant`` needs
    ``db``) with ``seed``, in this process, and give it as a :class:`Game`."""
    rules = Rules.from_options(preset, parse_assignments(list(assignments)))
    rules.check_table(len(specs))
    bots = []
    for seat, text in enumerate(specs):
        parsed = parse_spec(text, f"player {seat}")
        if parsed.entrant is not None and db is not None:
            with db.session() as session:
                bots.append(resolve(session, parsed, f"player {seat}"))
        else:
            bots.append(resolve(None, parsed, f"player {seat}"))
    players = []
    try:
        for bot in bots:
            players.append(create_player(SeatSpec(bot.plugin, bot.options)))
    except BaseException:
        for player in players:
            close = getattr(player, "close", None)
            if close is not None:
                close()
        raise
    outcome = play_match(rules, players, seed)
    game = Game(
        id="",
        title="",
        rules=rules,
        players=tuple(bot.label for bot in bots),
        specs=tuple(spec_text(bot.plugin, bot.options) for bot in bots),
        seed=seed,
        placements=tuple(outcome.result.placements),
        scores=tuple(outcome.result.scores),
        ended=outcome.result.ended,
        forfeit=outcome.forfeit,
        record=outcome.moves,
    )
    return _replayed(game)
