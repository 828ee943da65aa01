"""The plain values a report is made of. Built from storage by :mod:`.build`, turned into
text, tables, JSON or a page by the renderers; nothing here touches the database."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from c8league.events.season import SeasonTable
from c8league.league.house_rules import rules_line
from c8league.ratings.fit import Fitness
from c8league.ratings.leaderboard import LeaderboardRow


@dataclass(frozen=True, slots=True)
class StandingEntry:
    """One line of an event's standings (see :mod:`c8league.standings`)."""

    rank: int
    name: str
    match_points: float
    opponents_match_points: float
    game_points: int
    wins: int
    matches: int
    byes: int
    status: str = "active"
    """``active`` or ``withdrawn`` by the event's last round."""
    membership: str = ""
    """What changed while the event ran, in words (``withdrew after round 2 of
    evening-2``, ``joined after round 1 of evening-1``, ``absent in round 2 of
    evening-1``; several joined by ``; ``); empty when nothing did."""
    opponents_average: float = 0.0
    game_share: float = 0.0
    direct: float | None = None
    absent_rounds: tuple[int, ...] = ()
    """The rounds paired without the entrant, who said they would not come."""
    sonneborn_berger: float = 0.0
    played: bool = True
    """False for an entrant seated in no round of the event, listed apart after the
    ranked ones (rank 0)."""

    @property
    def status_text(self) -> str:
        """:attr:`membership`, after ``did not play`` for an entrant listed apart; empty
        for an entrant with nothing to tell."""
        return "; ".join(filter(None, ["" if self.played else "did not play", self.membership]))


@dataclass(frozen=True, slots=True)
class RoundSeat:
    """A seat at a table of a round, in seat order (seat 1 deals the first hand)."""

    seat: int
    name: str
    score: int | None
    """The final score (None while the table has no result)."""
    place: int | None
    forfeit: bool = False
    """Whether this player forfeited (left the table, or a bot's fault)."""


@dataclass(frozen=True, slots=True)
class RoundTable:
    """A table of a round: one match (one deal of it in a duplicate event)."""

    table: int
    deal: int
    status: str
    """``pending``, ``done`` or ``void``."""
    ended: str | None
    """How the match ended (``target``, ``forfeit``, …), when done."""
    target: int
    """The score that ends the match at this table (0 in Countdown)."""
    forfeit_reason: str | None
    seats: tuple[RoundSeat, ...]


@dataclass(frozen=True, slots=True)
class RoundSection:
    """A round of an event: its tables and byes."""

    number: int
    published: bool
    tables: tuple[RoundTable, ...]
    byes: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class CrossTable:
    """A two-player event's cross-table, in standings order.

    ``cells[i][j]`` lists the results of ``entrants[i]`` against ``entrants[j]``,
    one per meeting in the order played: 1 a win, 0.5 a tie, 0 a loss. The
    diagonal is ``None``.
    """

    entrants: tuple[str, ...]
    cells: tuple[tuple[tuple[float, ...] | None, ...], ...]


@dataclass(frozen=True, slots=True)
class EventSection:
    name: str
    format: str
    table_size: int
    matches_done: int
    matches_void: int
    matches_pending: int
    tiebreaks: tuple[str, ...]
    """The league's tie-breaks, in order (names of ``c8league.standings.TIEBREAKS``)."""
    standings: tuple[StandingEntry, ...]
    crosstable: CrossTable | None
    """Only for events at tables of two."""
    played_by: str = "bots"
    """``bots`` or ``people``."""
    duplicate: bool = False
    rounds: tuple[RoundSection, ...] = ()
    """Every round paired, with its tables, results and byes: for an event played by
    people, and for any event reported on its own."""
    rounds_total: int = 0
    """How many rounds the event has in all."""


@dataclass(frozen=True, slots=True)
class PairRecord:
    """Two entrants' meetings. ``a`` is the one higher on the leaderboard."""

    a: str
    b: str
    meetings: int
    a_ahead: int
    """Meetings where ``a`` finished ahead of ``b`` (at a table of any size)."""
    b_ahead: int
    level: int
    """Meetings where they shared a place."""
    a_ahead_predicted: float
    """The model's chance that ``a`` finishes ahead of ``b`` in a meeting, from the
    current ratings: Φ((μa − μb) / √(σa² + σb² + 2β²))."""


@dataclass(frozen=True, slots=True)
class EntrantStats:
    name: str
    matches: int
    wins: int
    average_place: float
    average_place_normalised: float
    hands: int | None
    """Hands played in the matches whose hands were recorded (None when none was: final
    scores entered by hand record no hands)."""
    hands_won: int | None
    average_points_per_hand: float | None
    """Points scored per hand played (0 in Countdown, which scores no points; None
    without recorded hands)."""
    forfeits: dict[str, int]
    """Matches this entrant forfeited, by reason (``timeout``, ``crash``, …)."""


@dataclass(frozen=True, slots=True)
class Endings:
    """How the matches in the report's scope ended."""

    matches: int
    """Finished matches."""
    void: int
    pending: int
    ended: dict[str, int]
    """Finished matches by how they ended: ``target``, ``countdown``, ``hand_cap``,
    ``blocked``, ``turn_cap``, ``forfeit``."""
    forfeits: dict[str, int]
    """Forfeited matches by reason."""
    hands: dict[str, int]
    """Hands by how they ended: ``out``, ``blocked``, ``turn_cap``."""


@dataclass(frozen=True, slots=True)
class HistorySeries:
    """An entrant's rating after each of its rated matches, in league sequence order."""

    name: str
    sequences: tuple[int, ...]
    mu: tuple[float, ...]
    sigma: tuple[float, ...]


@dataclass(frozen=True, slots=True)
class LastMatch:
    sequence: int
    event: str
    finished_at: datetime | None


@dataclass(frozen=True, slots=True)
class Footer:
    """What reproduces the numbers of a report."""

    rating_system: str
    rating_version: str
    parameters: dict[str, float | str | None]
    matches: int
    """Rated matches of the league (all its events)."""
    last_match: LastMatch | None
    generated_at: datetime
    c8league_version: str


@dataclass(frozen=True)
class Report:
    """Everything one report shows, for a league or for one of its events.

    The leaderboard and the rating history are the league's (a league is one
    rating pool); standings, head-to-head, statistics and endings cover the
    report's scope.
    """

    scope: str
    """``"league"`` or ``"event"``."""
    league: str
    title: str
    event: str | None
    rules: str
    """The league's rule preset."""
    house_rules: tuple[str, ...]
    """Every rule option that differs from the preset, in words."""
    initial_mu: float
    initial_sigma: float
    provisional_below: int
    leaderboard: tuple[LeaderboardRow, ...]
    events: tuple[EventSection, ...]
    head_to_head: tuple[PairRecord, ...]
    entrants: tuple[EntrantStats, ...]
    endings: Endings
    history: tuple[HistorySeries, ...]
    footer: Footer
    season: SeasonTable | None = None
    """The league's season standings (a league's report only)."""
    calibration: Fitness | None = None
    """How well the ratings predicted the league's results, each match from the ratings
    before it (``ratings.fit``): a league's report of TrueSkill ratings only."""

    @property
    def rules_line(self) -> str:
        """``Rules: pagat; house rules: …``."""
        return rules_line(self.rules, self.house_rules)

    @property
    def heading(self) -> str:
        base = self.title or self.league
        return f"{base} — {self.event}" if self.event else base
