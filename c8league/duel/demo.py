"""One seeded match between any players, played in this process: what ``demo`` shows.

The players are player specs as a duel takes them (:mod:`c8league.duel.specs`), so a
seed that failed in a check or a duel plays again with the author's own bot. This module
plays; :func:`c8league.reports.games.demo_game` shows what was played.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from c8league.duel.specs import Bot, parse_spec, resolve, spec_text
from c8league.engine import Rules
from c8league.engine.match import MatchRecord, MatchResult
from c8league.engine.rules import parse_assignments
from c8league.players.base import BasePlayer
from c8league.results import Forfeit
from c8league.runner.loop import play_match
from c8league.runner.tasks import SeatSpec, close_player, create_player
from c8league.storage.database import Database


@dataclass(frozen=True)
class PlayedMatch:
    """A match played by :func:`play_demo`: who sat where, and how it went."""

    rules: Rules
    labels: tuple[str, ...]
    """Who sat in each seat, as a person names them."""
    specs: tuple[str, ...]
    """Each seat's player spec, as :func:`play_demo` takes them."""
    seed: int
    result: MatchResult
    forfeit: Forfeit | None
    moves: MatchRecord | None


def play_demo(
    specs: Sequence[str],
    seed: int,
    *,
    preset: str = "pagat",
    assignments: Sequence[str] = (),
    db: Database | None = None,
) -> PlayedMatch:
    """Play one match between ``specs`` (player specs, one per seat; ``@entrant`` needs
    ``db``) with ``seed``, in this process."""
    rules = Rules.from_options(preset, parse_assignments(list(assignments)))
    rules.check_table(len(specs))
    bots = [_bot(text, seat, db) for seat, text in enumerate(specs)]
    players: list[BasePlayer] = []
    try:
        for bot in bots:
            players.append(create_player(SeatSpec(bot.plugin, bot.options)))
    except BaseException:
        for player in players:
            close_player(player)
        raise
    outcome = play_match(rules, players, seed)  # closes the players
    return PlayedMatch(
        rules=rules,
        labels=tuple(bot.label for bot in bots),
        specs=tuple(spec_text(bot.plugin, bot.options) for bot in bots),
        seed=seed,
        result=outcome.result,
        forfeit=outcome.forfeit,
        moves=outcome.moves,
    )


def _bot(text: str, seat: int, db: Database | None) -> Bot:
    parsed = parse_spec(text, f"player {seat}")
    if parsed.entrant is not None and db is not None:
        with db.session() as session:
            return resolve(session, parsed, f"player {seat}")
    return resolve(None, parsed, f"player {seat}")
