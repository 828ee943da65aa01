"""Reading stored duels back: one duel's summary (``duel show``) and the list of all
(``duel list``). Every figure is recomputed from the stored pairs, in deal order, so a
duel read back gives exactly the figures its run printed."""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from c8league.duel.forfeits import Forfeits, ForfeitShare, Withheld, forfeiter
from c8league.duel.plan import DuelSettings, match_id
from c8league.duel.stats import Decision, DuelStats, DuelTally
from c8league.results import move_words
from c8league.storage import Session
from c8league.storage import duels as stored_duels
from c8league.storage import versions as stored_versions
from c8league.storage.database import Database
from c8league.storage.duels import StoredPair
from c8league.storage.models import Duel


@dataclass(frozen=True)
class FaultSummary:
    """The forfeits of one side (``A``, ``B``, ``field``) of one kind (``illegal``,
    ``timeout``, ``crash``, …), with the first of them: its match, the forfeiting
    player's move number, and the detail (an external bot's names its stderr log)."""

    side: str
    kind: str
    count: int
    match: str
    move: int
    detail: str
    request: int | None = None
    """The request the first faulted at, where it differs from ``move`` (a bot that
    c8league played forced moves for: ``results.Forfeit.request``)."""

    def __str__(self) -> str:
        return (
            f"{self.side} {self.kind}: {self.count} (first: match {self.match}, "
            f"{move_words(self.move, self.request)}: {self.detail})"
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "side": self.side,
            "kind": self.kind,
            "count": self.count,
            "first": {
                "match": self.match,
                "move": self.move,
                "request": self.request,
                "detail": self.detail,
            },
        }


@dataclass(frozen=True)
class SideVersion:
    """A version one side of a duel played as, and in how many of its stored deals."""

    label: str
    deals: int

    def to_dict(self) -> dict[str, Any]:
        return {"label": self.label, "deals": self.deals}


@dataclass(frozen=True)
class DuelReport:
    """A stored duel: what it plays, where it stands, and its figures."""

    name: str
    status: str
    """``playing`` (still running, or stopped: ``duel resume`` goes on) or ``finished``."""
    settings: DuelSettings
    stats: DuelStats
    forfeits: Forfeits
    """Forfeited games by who forfeited: A, B, the field."""
    play_seconds: float
    created_at: datetime
    finished_at: datetime | None
    stopped: str | None = None
    """Why the last run stopped before a verdict (a bot that cannot start or keeps
    forfeiting), or None."""
    faults: tuple[FaultSummary, ...] = ()
    """The forfeits by side and kind, with the first of each (``duel show``)."""
    pairs: tuple[StoredPair, ...] = ()
    """The stored pairs, in deal order (``duel show``; without their moves)."""
    versions: tuple[tuple[str, tuple[SideVersion, ...]], ...] = ()
    """The versions A and B played as, each side's in the order first met (``duel
    show``; none for a duel stored before versions were recorded)."""

    @property
    def forfeit_share(self) -> ForfeitShare:
        """The share of its games forfeited, against the most its verdict allows."""
        return ForfeitShare(self.forfeits, self.stats.games, self.settings.max_forfeit_share)

    @property
    def withheld(self) -> Withheld | None:
        """Why the duel has no verdict, if it has none: it ended with more forfeited
        games than its ``max_forfeit_share``, or its last run stopped (a bot that cannot
        start or keeps forfeiting). None for a duel with a verdict, or still playing."""
        if self.status == "finished":
            share = self.forfeit_share
            if share.exceeded:
                return Withheld(self.name, self.settings.players, share=share)
            return None
        if self.stopped is not None:
            return Withheld(self.name, self.settings.players, stopped=self.stopped)
        return None

    @property
    def decision(self) -> Decision | None:
        """The test's decision, None without a test or without a verdict (too many
        forfeits)."""
        sprt = self.stats.sprt
        if sprt is None or (self.status == "finished" and self.forfeit_share.exceeded):
            return None
        return sprt.decision

    @property
    def ended_early(self) -> bool:
        """The duel ended before its test decided or its games were played: its forfeits
        were already certain to exceed the share a verdict allows."""
        sprt, cap = self.stats.sprt, self.settings.max_pairs
        decided = sprt is not None and sprt.decision is not Decision.UNDECIDED
        short = cap is None or self.stats.pairs < cap
        return self.status == "finished" and not decided and short

    @property
    def outcome(self) -> str:
        """Why the duel stopped (or that it has not): the decision of its test, the games
        played, why it stopped without a verdict, or that it is still to be resumed."""
        sprt = self.stats.sprt
        withheld = self.withheld
        if withheld is not None and withheld.share is not None:
            return f"no verdict: {withheld}"
        if sprt is not None and sprt.decision is not Decision.UNDECIDED:
            return sprt.decision.label
        if self.status != "finished" and self.stopped is not None:
            return f"stopped, no verdict: {self.stopped}"
        if self.status != "finished":
            return "not finished (c8league duel resume " + self.name + ")"
        if sprt is not None:
            cap = "the book's deals all played" if self.settings.book_ends else "the cap"
            return f"undecided after {self.stats.games} games ({cap})"
        return f"{self.stats.games} games played"

    @property
    def short_outcome(self) -> str:
        """The outcome in a word or two, for a list."""
        sprt = self.stats.sprt
        if self.status == "finished" and self.forfeit_share.exceeded:
            return "no verdict"
        if sprt is not None and sprt.decision is not Decision.UNDECIDED:
            return sprt.decision.label
        if self.status != "finished":
            return "stopped" if self.stopped is not None else "not finished"
        return "undecided" if sprt is not None else "played"

    def to_dict(self) -> dict[str, Any]:
        """Plain values for ``--json``."""
        s = self.settings
        share = self.forfeit_share
        decision = self.decision
        return {
            "name": self.name,
            "status": self.status,
            "outcome": self.outcome,
            "decision": None if decision is None else decision.value,
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
            "move_seconds": s.move_seconds,
            "clock": None if s.clock is None else str(s.clock),
            "max_forfeit_share": s.max_forfeit_share,
            "luck_adjust": s.luck_adjust,
            "book": None
            if s.book is None
            else {"name": s.book.name, "digest": s.book.digest, "deals": len(s.book.seeds)},
            "stopped": self.stopped,
            "forfeits": self.forfeits.as_dict(),
            "forfeit_share": {
                "forfeited": share.forfeits.games,
                "games": share.games,
                "share": share.share,
                "max": share.limit,
                "exceeded": share.exceeded,
            },
            "faults": [fault.to_dict() for fault in self.faults],
            "play_seconds": round(self.play_seconds, 3),
            "created_at": self.created_at.isoformat(),
            "finished_at": None if self.finished_at is None else self.finished_at.isoformat(),
            "stats": self.stats.as_dict(),
            **(
                {"versions": {side: [v.to_dict() for v in vs] for side, vs in self.versions}}
                if self.versions
                else {}
            ),
            **({"pairs": [self._pair(p) for p in self.pairs]} if self.pairs else {}),
        }

    def _pair(self, pair: StoredPair) -> dict[str, Any]:
        steps = 2 * (self.settings.players - 1)
        return {
            "deal": pair.deal,
            "seat": pair.seat,
            "share_a": pair.share_a / steps,
            "share_b": pair.share_b / steps,
            "matches": [match_id(self.name, pair.deal, side) for side in "AB"],
        }


def duel_report(db: Database, name: str) -> DuelReport:
    """The duel called ``name``, with its figures."""
    with db.session() as session:
        return report_of(session, stored_duels.get(session, name), detail=True)


def list_duels(db: Database) -> list[DuelReport]:
    """Every stored duel, oldest first, with its figures and forfeits (not the first
    forfeit of each kind, nor the pairs)."""
    with db.session() as session:
        return [report_of(session, duel, detail=False) for duel in stored_duels.all_duels(session)]


def count_pair(tally: DuelTally, pair: StoredPair, steps: int) -> None:
    """Count a stored pair in ``tally`` (its luck-adjusted scores too, if it has them:
    the correction kept with each match, 0 for a match stored without one)."""
    tally.add(pair.share_a / steps, pair.share_b / steps)
    if tally.luck is not None:
        tally.luck.add(pair.share_a, pair.share_b, luck_of(pair.match_a), luck_of(pair.match_b))


def luck_of(match: str) -> float:
    """The luck correction kept with a duel's match (its JSON), 0 if none."""
    return float(json.loads(match).get("luck", 0.0))


def report_of(session: Session, duel: Duel, *, detail: bool) -> DuelReport:
    """The stored ``duel``'s report; with ``detail``, the first forfeit of each kind and
    the pairs too."""
    assert duel.id is not None
    settings = DuelSettings.from_json(duel.settings)
    steps = 2 * (settings.players - 1)
    forfeits = Forfeits()
    seconds = 0.0
    tally = settings.tally()
    faults: dict[tuple[str, str], FaultSummary] = {}
    pairs: list[StoredPair] = []
    played: dict[str, dict[int, int]] = {"A": {}, "B": {}}
    if detail:
        pairs = stored_duels.pairs(session, duel.id)
        for pair in pairs:
            count_pair(tally, pair, steps)
            seconds += pair.seconds
            for text, side in ((pair.match_a, "A"), (pair.match_b, "B")):
                data = json.loads(text)
                versions = data.get("versions")
                if versions and versions[pair.seat] is not None:
                    counts = played[side]
                    counts[versions[pair.seat]] = counts.get(versions[pair.seat], 0) + 1
                forfeit = data["forfeit"]
                if forfeit is None:
                    continue
                who = forfeiter(settings.players, side, pair.seat, int(forfeit["seat"]))
                forfeits = forfeits.plus(who)
                key = (who, str(forfeit["reason"]))
                first = faults.get(key)
                if first is None:
                    faults[key] = FaultSummary(
                        side=who,
                        kind=key[1],
                        count=1,
                        match=match_id(duel.name, pair.deal, side),
                        move=int(forfeit["move"]),
                        detail=str(forfeit["detail"]),
                        request=forfeit.get("request"),
                    )
                else:
                    faults[key] = replace(first, count=first.count + 1)
    elif tally.luck is not None:
        for pair in stored_duels.pairs(session, duel.id):
            count_pair(tally, pair, steps)
        forfeits = Forfeits.of_pairs(settings.players, stored_duels.forfeited(session, duel.id))
    else:
        for a, b in stored_duels.shares(session, duel.id):
            tally.add(a / steps, b / steps)
        forfeits = Forfeits.of_pairs(settings.players, stored_duels.forfeited(session, duel.id))
    versions = stored_versions.kept(session, (v for counts in played.values() for v in counts))
    labels = {i: v.label for i, v in versions.items()}
    return DuelReport(
        name=duel.name,
        status=duel.status,
        settings=settings,
        stats=tally.stats(settings.spec),
        forfeits=forfeits,
        play_seconds=seconds,
        created_at=duel.created_at,
        finished_at=duel.finished_at,
        stopped=duel.stopped,
        faults=tuple(sorted(faults.values(), key=lambda f: ("A", "B", "field").index(f.side))),
        pairs=tuple(pairs),
        versions=tuple(
            (
                side,
                tuple(SideVersion(labels.get(v, f"version {v}"), n) for v, n in counts.items()),
            )
            for side, counts in played.items()
            if counts
        ),
    )
