"""What fixes a duel's matches and when it stops: :class:`DuelSettings`, stored with the
duel as JSON, and the two matches of each deal.

Deal ``i`` (from 0) is played twice with the same seed, so with the same cards:

* seat ``s = i mod K`` holds A in A's match and B in B's match;
* at K = 2 the other seat holds the other bot (the seats are swapped);
* at K > 2 the other seats hold the field players, the same in both matches, in the
  order given (repeated as needed).

Each deal's seed is derived from the duel's seed and the deal number alone (or read
from the duel's book of deals, ``c8league.duel.book``), so a duel gives the same matches
with any number of workers, on any executor, after any interruption.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from c8league.duel.book import deal_seed
from c8league.duel.forfeits import DEFAULT_MAX_FORFEIT_SHARE, Forfeits, ForfeitShare
from c8league.duel.specs import Bot
from c8league.duel.stats import DuelTally, SprtSpec
from c8league.runner.clock import MatchClock
from c8league.runner.tasks import MatchTask, SeatSpec
from c8league.sandbox import Mode

MAX_GAMES = 10_000_000
"""The most games ``--games`` and ``--max-games`` accept (five million deals)."""


@dataclass(frozen=True, slots=True)
class BookDeals:
    """The deals of the book a duel plays (``--deals``): the file's name, the book's
    digest, and each deal's seed, in order. Kept with the duel, so that it resumes
    without the file."""

    name: str
    digest: str
    seeds: tuple[int, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "digest": self.digest, "seeds": list(self.seeds)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> BookDeals:
        return cls(str(data["name"]), str(data["digest"]), tuple(int(s) for s in data["seeds"]))


@dataclass(frozen=True, slots=True)
class PlayedVersion:
    """The version a bot of a duel plays as: the bot (its plugin and options, as in the
    duel's :class:`Bot`), the digest of its version and the id under which it is kept
    (``bot_version``)."""

    plugin: str
    options: str
    digest: str
    id: int

    @property
    def bot(self) -> tuple[str, str]:
        return (self.plugin, self.options)

    def to_dict(self) -> dict[str, Any]:
        return {
            "plugin": self.plugin,
            "options": self.options,
            "digest": self.digest,
            "id": self.id,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> PlayedVersion:
        return cls(str(data["plugin"]), str(data["options"]), str(data["digest"]), int(data["id"]))


@dataclass(frozen=True, slots=True)
class DuelSettings:
    """Everything that fixes a duel's matches and when it stops."""

    a: Bot
    b: Bot
    field: tuple[Bot, ...]
    players: int
    rules: str
    """Every rule option as canonical JSON (``Rules.to_json``)."""
    rules_label: str
    """The preset and the ``--set`` options, as given (for the summary)."""
    seed: int
    games: int | None
    """A fixed number of games (2 per deal), or None for a sequential test."""
    sprt: str | None
    """The test's settings (``SprtSpec`` text), or None for a fixed number of games."""
    max_games: int | None
    match_seconds: float | None
    move_seconds: float | None = None
    """The limit on each decision (``--move-seconds``; None: the players' own)."""
    clock: MatchClock | None = None
    """The match clock of each seat (``--clock``, in place of ``move_seconds``); a duel
    stored before it was kept reads None."""
    sandbox: Mode | None = None
    """The run's sandbox for every bot (``--sandbox``; None: each bot's own option). Not
    stored: it is the run's, like where the matches are played."""
    max_forfeit_share: float = DEFAULT_MAX_FORFEIT_SHARE
    """The largest share of forfeited games over which the duel gives a verdict
    (``c8league.duel.forfeits``); a duel stored before it was kept reads the default."""
    book: BookDeals | None = None
    """The book whose deals the duel plays, in order (None: deals of ``seed``)."""
    luck_adjust: bool = False
    """Adjust each match's result for the luck of its cards (``c8league.duel.luck``),
    the test then running on the adjusted scores; a duel stored before it was kept reads
    False."""
    versions: tuple[PlayedVersion, ...] | None = None
    """The version each bot plays as (``c8league.players.versions``), kept with the duel
    when its first run begins and changed only by a resume that takes a bot's new
    version; None for a duel stored before versions were recorded, until it runs."""

    @property
    def spec(self) -> SprtSpec | None:
        return None if self.sprt is None else SprtSpec.parse(self.sprt)

    @property
    def max_pairs(self) -> int | None:
        """The most deals the duel plays (None: until the test decides): its games, its
        cap, the deals of its book."""
        caps = [n // 2 for n in (self.games, self.max_games) if n is not None]
        if self.book is not None:
            caps.append(len(self.book.seeds))
        return min(caps) if caps else None

    @property
    def book_ends(self) -> bool:
        """The book's deals, not ``games`` or ``max_games``, are the duel's last."""
        if self.book is None:
            return False
        caps = [n // 2 for n in (self.games, self.max_games) if n is not None]
        return not caps or len(self.book.seeds) < min(caps)

    @property
    def preset(self) -> str:
        """The rule preset the duel's rules were chosen by (the first word of its label)."""
        return self.rules_label.split(" ", 1)[0]

    def tally(self) -> DuelTally:
        """An empty tally for the duel's pairs (with luck-adjusted scores if it adjusts)."""
        return DuelTally(self.players, luck=self.luck_adjust)

    def forfeit_share(self, forfeits: Forfeits, tally: DuelTally) -> ForfeitShare:
        """The share of the games of ``tally`` forfeited, against the duel's limit."""
        return ForfeitShare(forfeits, 2 * tally.pairs, self.max_forfeit_share)

    def seat(self, deal: int) -> int:
        """The seat A and B take in deal ``deal``'s matches."""
        return deal % self.players

    def seatings(self, deal: int) -> tuple[tuple[Bot, ...], tuple[Bot, ...]]:
        """The seats of A's match and of B's match of ``deal``, in seat order."""
        s = self.seat(deal)
        if self.players == 2:
            a_match = [self.b, self.b]
            b_match = [self.a, self.a]
        else:
            others = [self.field[j % len(self.field)] for j in range(self.players - 1)]
            a_match = [*others[:s], self.b, *others[s:]]  # seat s is replaced just below
            b_match = list(a_match)
        a_match[s] = self.a
        b_match[s] = self.b
        return tuple(a_match), tuple(b_match)

    def deal_seed(self, deal: int) -> int:
        """The seed of deal ``deal``'s two matches: the book's, or derived from ``seed``."""
        if self.book is not None:
            return self.book.seeds[deal]
        return deal_seed(self.seed, deal)

    def version(self, bot: Bot) -> PlayedVersion | None:
        """The version ``bot`` plays as (None: not known)."""
        for played in self.versions or ():
            if played.bot == (bot.plugin, bot.options):
                return played
        return None

    def tasks(self, deal: int) -> tuple[MatchTask, MatchTask]:
        """A's match and B's match of ``deal`` (task ids ``2·deal`` and ``2·deal + 1``),
        whose reports carry the results and the moves (a duel keeps no hand rows)."""
        seed = self.deal_seed(deal)
        a_seats, b_seats = self.seatings(deal)
        return (
            MatchTask(
                match_id=2 * deal,
                rules=self.rules,
                seats=self._seats(a_seats),
                seed=seed,
                match_seconds=self.match_seconds,
                hands=False,
                move_seconds=self.move_seconds,
                label=f"deal{deal}A",
                clock=self.clock,
            ),
            MatchTask(
                match_id=2 * deal + 1,
                rules=self.rules,
                seats=self._seats(b_seats),
                seed=seed,
                match_seconds=self.match_seconds,
                hands=False,
                move_seconds=self.move_seconds,
                label=f"deal{deal}B",
                clock=self.clock,
            ),
        )

    def _seats(self, bots: tuple[Bot, ...]) -> tuple[SeatSpec, ...]:
        digests = {played.bot: played.digest for played in self.versions or ()}
        return tuple(
            SeatSpec(
                bot.plugin, bot.options, self.sandbox, digests.get((bot.plugin, bot.options), "")
            )
            for bot in bots
        )

    def bots(self) -> list[tuple[str, Bot]]:
        """Who plays, once each, with the name messages give them: ``A (cmd:./bot)``,
        ``B (greedy)``, ``--field (random)``."""
        named = [("A", self.a), ("B", self.b), *(("--field", bot) for bot in self.field)]
        seen: set[tuple[str, str]] = set()
        bots = []
        for who, bot in named:
            if (bot.plugin, bot.options) not in seen:
                seen.add((bot.plugin, bot.options))
                bots.append((f"{who} ({bot.label})", bot))
        return bots

    def finished(
        self, tally: DuelTally, spec: SprtSpec | None = None, forfeits: Forfeits | None = None
    ) -> bool:
        """Whether the duel stops after the pairs of ``tally`` (counted in deal order):
        the test has decided, the cap is reached, or its ``forfeits`` are certain to
        exceed its share of the games whatever is still to play (no verdict then)."""
        spec = spec if spec is not None else self.spec
        if spec is not None and tally.sprt(spec).decision.value != "undecided":
            return True
        cap = self.max_pairs
        if cap is not None and tally.pairs >= cap:
            return True
        if forfeits is not None:
            most = None if cap is None else 2 * cap
            return self.forfeit_share(forfeits, tally).certain(most)
        return False

    def to_json(self) -> str:
        return json.dumps(
            {
                "a": self.a.to_dict(),
                "b": self.b.to_dict(),
                "field": [bot.to_dict() for bot in self.field],
                "players": self.players,
                "rules": self.rules,
                "rules_label": self.rules_label,
                "seed": self.seed,
                "games": self.games,
                "sprt": self.sprt,
                "max_games": self.max_games,
                "match_seconds": self.match_seconds,
                "move_seconds": self.move_seconds,
                **({} if self.clock is None else {"clock": str(self.clock)}),
                "max_forfeit_share": self.max_forfeit_share,
                **({} if self.book is None else {"book": self.book.to_dict()}),
                **({"luck_adjust": True} if self.luck_adjust else {}),
                **(
                    {}
                    if self.versions is None
                    else {"versions": [played.to_dict() for played in self.versions]}
                ),
            },
            sort_keys=True,
        )

    @classmethod
    def from_json(cls, text: str) -> DuelSettings:
        data: dict[str, Any] = json.loads(text)
        return cls(
            a=Bot.from_dict(data["a"]),
            b=Bot.from_dict(data["b"]),
            field=tuple(Bot.from_dict(bot) for bot in data["field"]),
            players=int(data["players"]),
            rules=str(data["rules"]),
            rules_label=str(data["rules_label"]),
            seed=int(data["seed"]),
            games=data["games"],
            sprt=data["sprt"],
            max_games=data["max_games"],
            match_seconds=data["match_seconds"],
            move_seconds=data.get("move_seconds"),
            clock=None if data.get("clock") is None else MatchClock.parse(data["clock"]),
            max_forfeit_share=float(data.get("max_forfeit_share", DEFAULT_MAX_FORFEIT_SHARE)),
            book=None if data.get("book") is None else BookDeals.from_dict(data["book"]),
            luck_adjust=bool(data.get("luck_adjust", False)),
            versions=None
            if data.get("versions") is None
            else tuple(PlayedVersion.from_dict(v) for v in data["versions"]),
        )


def match_id(duel: str, deal: int, side: str) -> str:
    """How a user names a duel's match: the duel, the deal (from 0) and whose match it is
    (A's or B's: who sat in the deal's seat), as in ``duel-1:0A``."""
    return f"{duel}:{deal}{side}"
