"""Reading stored duels back: one duel's summary (``duel show``) and the list of all
(``duel list``). Every figure is recomputed from the stored pairs, in deal order, so a
duel read back gives exactly the figures its run printed."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from c8league.duel.plan import DuelSettings
from c8league.duel.stats import Decision, DuelStats, DuelTally
from c8league.storage import Session
from c8league.storage import duels as stored_duels
from c8league.storage.database import Database
from c8league.storage.models import Duel


@dataclass(frozen=True)
class DuelReport:
    """A stored duel: what it plays, where it stands, and its figures."""

    name: str
    status: str
    """``playing`` (still running, or stopped: ``duel resume`` goes on) or ``finished``."""
    settings: DuelSettings
    stats: DuelStats
    forfeits: dict[str, int]
    """Forfeits by who forfeited: ``A``, ``B``, ``field``."""
    play_seconds: float
    created_at: datetime
    finished_at: datetime | None

    @property
    def outcome(self) -> str:
        """Why the duel stopped (or that it has not): the decision of its test, the games
        played, or that it is still to be resumed."""
        sprt = self.stats.sprt
        if sprt is not None and sprt.decision is not Decision.UNDECIDED:
            return sprt.decision.label
        if self.status != "finished":
            return "not finished (c8league duel resume " + self.name + ")"
        if sprt is not None:
            return f"undecided after {self.stats.games} games (the cap)"
        return f"{self.stats.games} games played"

    @property
    def short_outcome(self) -> str:
        """The outcome in a word or two, for a list."""
        sprt = self.stats.sprt
        if sprt is not None and sprt.decision is not Decision.UNDECIDED:
            return sprt.decision.label
        if self.status != "finished":
            return "not finished"
        return "undecided" if sprt is not None else "played"

    def to_dict(self) -> dict[str, Any]:
        """Plain values for ``--json``."""
        s = self.settings
        return {
            "name": self.name,
            "status": self.status,
            "outcome": self.outcome,
            "decision": None if self.stats.sprt is None else self.stats.sprt.decision.value,
            "a": s.a.to_dict(),
            "b": s.b.to_dict(),
            "players": s.players,
            "field": [bot.to_dict() for bot in s.field],
            "rules": s.rules_label,
            "seed": s.seed,
            "games": s.games,
            "sprt": s.sprt,
            "max_games": s.max_games,
            "match_seconds": s.match_seconds,
            "forfeits": self.forfeits,
            "play_seconds": round(self.play_seconds, 3),
            "created_at": self.created_at.isoformat(),
            "finished_at": None if self.finished_at is None else self.finished_at.isoformat(),
            "stats": self.stats.as_dict(),
        }


def duel_report(db: Database, name: str) -> DuelReport:
    """The duel called ``name``, with its figures."""
    with db.session() as session:
        return _report(session, stored_duels.get(session, name), detail=True)


def list_duels(db: Database) -> list[DuelReport]:
    """Every stored duel, oldest first, with its figures (forfeits are not counted)."""
    with db.session() as session:
        return [_report(session, duel, detail=False) for duel in stored_duels.all_duels(session)]


def _report(session: Session, duel: Duel, *, detail: bool) -> DuelReport:
    assert duel.id is not None
    settings = DuelSettings.from_json(duel.settings)
    steps = 2 * (settings.players - 1)
    forfeits = {"A": 0, "B": 0, "field": 0}
    seconds = 0.0
    tally = DuelTally(settings.players)
    if detail:
        for pair in stored_duels.pairs(session, duel.id):
            tally.add(pair.share_a / steps, pair.share_b / steps)
            seconds += pair.seconds
            for text, side in ((pair.match_a, "A"), (pair.match_b, "B")):
                forfeit = json.loads(text)["forfeit"]
                if forfeit is not None:
                    forfeits[side if forfeit["seat"] == pair.seat else _other(settings, side)] += 1
    else:
        for a, b in stored_duels.shares(session, duel.id):
            tally.add(a / steps, b / steps)
    return DuelReport(
        duel.name,
        duel.status,
        settings,
        tally.stats(settings.spec),
        forfeits,
        seconds,
        duel.created_at,
        duel.finished_at,
    )


def _other(settings: DuelSettings, side: str) -> str:
    """Who sits in the seats other than A's (B's) in A's (B's) match."""
    if settings.players == 2:
        return "B" if side == "A" else "A"
    return "field"
