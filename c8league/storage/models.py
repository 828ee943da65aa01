"""Every table of the database, in one module.

The schema's version is :data:`SCHEMA_VERSION`; ``c8league.storage.migrations``
builds the same schema step by step from any older version.
"""

from datetime import UTC, datetime

from pydantic import ConfigDict
from sqlalchemy import Column, Index, Integer, LargeBinary, Text, UniqueConstraint
from sqlmodel import Field, SQLModel

SCHEMA_VERSION = 12


def utcnow() -> datetime:
    return datetime.now(UTC)


class _Table(SQLModel):
    """What every table shares: pydantic's validators are built on first use, not when
    the module is imported. Rows of tables are made without validation, so a command
    that reads the database never builds them (a fifth of this module's import)."""

    model_config = ConfigDict(defer_build=True)  # type: ignore[assignment]


class Meta(_Table, table=True):
    """Key-value facts about the database itself (``schema_version``)."""

    __tablename__ = "meta"

    key: str = Field(primary_key=True, max_length=64)
    value: str = Field(max_length=256)


class Entrant(_Table, table=True):
    """A registered player: a person (club member) or a bot (plugin, options, version)."""

    __tablename__ = "entrant"

    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(max_length=128, unique=True)
    kind: str = Field(max_length=16)  # "person" or "bot"
    plugin: str | None = Field(default=None, max_length=128)
    options: str = Field(default="{}", sa_column=Column(Text, nullable=False, default="{}"))
    plugin_version: str | None = Field(default=None, max_length=64)
    retired: bool = Field(default=False)
    created_at: datetime = Field(default_factory=utcnow)


class League(_Table, table=True):
    """A league: a rating pool with its rules, table sizes and rating settings."""

    __tablename__ = "league"

    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(max_length=128, unique=True)
    title: str = Field(default="", max_length=256)
    preset: str = Field(max_length=32)
    rules: str = Field(sa_column=Column(Text, nullable=False))  # every option, canonical JSON
    table_sizes: str = Field(max_length=64)  # JSON list, e.g. [4, 3]
    rating: str = Field(sa_column=Column(Text, nullable=False))  # rating settings as JSON
    source: str | None = Field(default=None, max_length=1024)
    created_at: datetime = Field(default_factory=utcnow)
    standing: str = Field(default="{}", sa_column=Column(Text, nullable=False, default="{}"))
    """How standings are read (JSON): ``first_round``, ``tiebreaks`` and ``season``; a
    key left out takes its default (``c8league.league.standing``)."""


class LeagueEntrant(_Table, table=True):
    """Membership of an entrant in a league."""

    __tablename__ = "league_entrant"

    league_id: int = Field(foreign_key="league.id", primary_key=True)
    entrant_id: int = Field(foreign_key="entrant.id", primary_key=True)
    withdrawn: bool = Field(default=False)


class Event(_Table, table=True):
    """A round-robin or Swiss event of a league."""

    __tablename__ = "event"
    __table_args__ = (UniqueConstraint("league_id", "name", name="uq_event_league_name"),)

    id: int | None = Field(default=None, primary_key=True)
    league_id: int = Field(foreign_key="league.id", index=True)
    name: str = Field(max_length=128)
    format: str = Field(max_length=16)  # "round_robin" or "swiss"
    cycles: int = Field(default=1)
    rounds: int = Field(default=0)  # Swiss: rounds to play; round-robin: 0 = from the design
    seed: int = Field(default=0)
    duplicate: bool = Field(default=False)
    table_size: int = Field(default=2)
    played_by: str = Field(default="bots", max_length=16)  # "bots" or "people"
    created_at: datetime = Field(default_factory=utcnow)
    pairing: int = Field(default=2)
    """The Swiss pairing rules the event was paired by: 1 for events paired before round 1
    was drawn from the seed (kept as they were), 2 since."""
    schedule: int = Field(default=2)
    """The version of the round-robin schedule's search (``schedule.roundrobin``): 1 for
    events created before version 8 of the schema (kept as they were), 2 since."""


class ScheduleRound(_Table, table=True):
    """A round of a round-robin's schedule: computed once, when the event's first round
    is paired (from the entrants of that round), stored with that round, and read by
    every later pairing and count of rounds."""

    __tablename__ = "schedule_round"

    event_id: int = Field(foreign_key="event.id", primary_key=True)
    number: int = Field(primary_key=True)
    tables: str = Field(sa_column=Column(Text, nullable=False))  # JSON: entrant ids by seat
    byes: str = Field(sa_column=Column(Text, nullable=False))  # JSON list of entrant ids


class Round(_Table, table=True):
    """A round of an event: tables of entrants, and byes."""

    __tablename__ = "round"
    __table_args__ = (UniqueConstraint("event_id", "number", name="uq_round_event_number"),)

    id: int | None = Field(default=None, primary_key=True)
    event_id: int = Field(foreign_key="event.id", index=True)
    number: int
    byes: str = Field(default="[]", max_length=4096)  # JSON list of entrant ids
    published: bool = Field(default=True)
    created_at: datetime = Field(default_factory=utcnow)


class Match(_Table, table=True):
    """One match at one table: seats in order, rules, seed and status."""

    __tablename__ = "match"
    __table_args__ = (
        UniqueConstraint("round_id", "table_no", "deal", name="uq_match_identity"),
        Index("ix_match_event_status", "event_id", "status"),
    )

    id: int | None = Field(default=None, primary_key=True)
    event_id: int = Field(foreign_key="event.id")
    round_id: int = Field(foreign_key="round.id", index=True)
    table_no: int
    deal: int = Field(default=0)  # duplicate mode: the rotation of this deal
    rules: str = Field(sa_column=Column(Text, nullable=False))
    seed: int
    status: str = Field(default="pending", max_length=16)  # pending, done, void
    ended: str | None = Field(default=None, max_length=16)  # target, countdown, forfeit, …
    hands: int = Field(default=0)
    decisions: int = Field(default=0)
    forfeit_seat: int | None = Field(default=None)
    forfeit_reason: str | None = Field(default=None, max_length=16)
    forfeit_move: int | None = Field(default=None)
    forfeit_detail: str | None = Field(default=None, sa_column=Column(Text, nullable=True))
    entered_by: str = Field(default="engine", max_length=16)  # engine or hand (club results)
    sequence: int | None = Field(default=None, index=True)  # order in which results count
    finished_at: datetime | None = Field(default=None)
    unfinished: str | None = Field(default=None, sa_column=Column(Text, nullable=True))
    """The moves of the hand a forfeit stopped (the finished hands are ``hand`` rows)."""
    forfeit_request: int | None = Field(default=None)
    """For a bot that c8league played forced moves for: the move request it faulted at,
    where it differs from ``forfeit_move`` (``results.Forfeit.request``)."""


class MatchSeat(_Table, table=True):
    """A seat of a match, in order (seat 0 deals the first hand), and its result."""

    __tablename__ = "match_seat"

    match_id: int = Field(foreign_key="match.id", primary_key=True)
    seat: int = Field(primary_key=True)
    entrant_id: int = Field(foreign_key="entrant.id", index=True)
    place: int | None = Field(default=None)
    score: int | None = Field(default=None)
    version_id: int | None = Field(default=None, foreign_key="bot_version.id")
    """The version of the bot that played the seat (None: a person, or a match stored
    before versions were recorded)."""


class BotVersion(_Table, table=True):
    """A version of a bot: what tells it from its other versions (``digest``, see
    ``c8league.players.versions``), a short ``label`` and what it was made of
    (``details``, JSON: its command and its files' digests, or its distribution)."""

    __tablename__ = "bot_version"

    id: int | None = Field(default=None, primary_key=True)
    digest: str = Field(max_length=64, unique=True)
    label: str = Field(max_length=256)
    details: str = Field(sa_column=Column(Text, nullable=False))
    created_at: datetime = Field(default_factory=utcnow)


class TableCode(_Table, table=True):
    """The code of one table of a published round, which the players at that table type to
    report its result from their phones (``c8league serve``), and the result reported with
    it (``report``, JSON of the entry; None until one is). A reported result is not the
    record: it becomes one when the organiser accepts it (``result accept``), through the
    same path as ``result add``. Codes are secrets, so this table is not chained."""

    __tablename__ = "table_code"

    id: int | None = Field(default=None, primary_key=True)
    match_id: int = Field(foreign_key="match.id", unique=True)
    code: str = Field(max_length=16, unique=True)
    report: str | None = Field(default=None, sa_column=Column(Text, nullable=True))
    reported_at: datetime | None = Field(default=None)
    created_at: datetime = Field(default_factory=utcnow)


class HandRow(_Table, table=True):
    """One hand of a match: how it ended, the scores, and the record that replays it."""

    __tablename__ = "hand"

    match_id: int = Field(foreign_key="match.id", primary_key=True)
    number: int = Field(primary_key=True)
    kind: str = Field(max_length=16)  # out, blocked, turn_cap
    winners: str = Field(max_length=64)  # JSON list of seats
    points: str = Field(max_length=256)  # JSON list, per seat
    penalties: str = Field(max_length=256)  # JSON list, per seat
    record: str = Field(sa_column=Column(Text, nullable=False))


class Rating(_Table, table=True):
    """The current rating of an entrant in a league's pool."""

    __tablename__ = "rating"

    league_id: int = Field(foreign_key="league.id", primary_key=True)
    entrant_id: int = Field(foreign_key="entrant.id", primary_key=True)
    mu: float
    sigma: float
    matches: int = Field(default=0)


class RatingHistory(_Table, table=True):
    """Every rating update: before and after, the match, and when."""

    __tablename__ = "rating_history"
    __table_args__ = (Index("ix_rating_history_league_entrant", "league_id", "entrant_id"),)

    id: int | None = Field(default=None, primary_key=True)
    league_id: int = Field(foreign_key="league.id")
    entrant_id: int = Field(foreign_key="entrant.id")
    match_id: int = Field(foreign_key="match.id", index=True)
    sequence: int
    mu_before: float
    sigma_before: float
    mu_after: float
    sigma_after: float
    created_at: datetime = Field(default_factory=utcnow)


class MembershipChange(_Table, table=True):
    """One change of a member's place in a league, kept for good: ``joined``,
    ``withdrew``, ``returned`` (after a withdrawal), and the check-in of an evening,
    ``absent`` and ``present``.

    Where it happened in the league's season: after round ``after_round`` of
    ``event_id`` (the latest round published when it was recorded; ``event_id`` None
    and ``after_round`` 0: before the league's first round). A finished event reads
    only the changes before its end, so later ones never change it.

    A check-in concerns one event, ``event_id``, and was said when ``after_round`` of
    its rounds were published: ``absent`` for round ``round`` only, or (``round``
    None) from the next round on; ``present`` from the next round on."""

    __tablename__ = "membership_change"
    __table_args__ = (Index("ix_membership_change_league_entrant", "league_id", "entrant_id"),)

    id: int | None = Field(default=None, primary_key=True)
    league_id: int = Field(foreign_key="league.id")
    entrant_id: int = Field(foreign_key="entrant.id")
    action: str = Field(max_length=16)  # joined, withdrew, returned, absent, present
    event_id: int | None = Field(default=None, foreign_key="event.id")
    after_round: int = Field(default=0)
    round: int | None = Field(default=None)  # absent: the one round (None: from the next)
    at: datetime = Field(default_factory=utcnow)


class Audit(_Table, table=True):
    """The audit trail: every change an organiser makes after the fact, with the values
    before and after (JSON) and when. Results (``add``, ``edit``, ``void``), rounds
    (``swap``, ``move``, ``publish``, ``unpair``) and people (``withdraw``,
    ``reinstate``, ``join``, ``rename``, ``merge``, ``remove``, ``retire``).
    ``subject`` says who or what, in the words of the moment (names as they were)."""

    __tablename__ = "audit"

    id: int | None = Field(default=None, primary_key=True)
    league_id: int | None = Field(default=None, foreign_key="league.id", index=True)
    event_id: int | None = Field(default=None, foreign_key="event.id", index=True)
    match_id: int | None = Field(default=None, foreign_key="match.id", index=True)
    round: int | None = Field(default=None)
    table_no: int | None = Field(default=None)
    action: str = Field(max_length=16)
    subject: str = Field(default="", max_length=256)
    before: str | None = Field(default=None, sa_column=Column(Text, nullable=True))
    after: str | None = Field(default=None, sa_column=Column(Text, nullable=True))
    note: str = Field(default="", max_length=512)
    at: datetime = Field(default_factory=utcnow)


class Duel(_Table, table=True):
    """A duel: bot A against bot B on duplicate deals, until a test decides or a number
    of games is played. ``settings`` holds everything that fixes its matches and when it
    stops (JSON, see ``c8league.duel.plan``); its outcomes are :class:`DuelPair` rows."""

    __tablename__ = "duel"

    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(max_length=128, unique=True)
    players: int
    seed: int = Field(default=0)
    settings: str = Field(sa_column=Column(Text, nullable=False))
    status: str = Field(default="playing", max_length=16)  # playing, finished
    created_at: datetime = Field(default_factory=utcnow)
    finished_at: datetime | None = Field(default=None)
    stopped: str | None = Field(default=None, sa_column=Column(Text, nullable=True))
    """Why the last run stopped before a verdict (a bot that cannot start or keeps
    failing); None once a run plays on."""


class DuelPair(_Table, table=True):
    """One deal of a duel played twice: A's share in A's match and B's in B's, as whole
    units of 1/(2(K−1)), each match's result (JSON: placements, scores, how it ended,
    forfeit) and its moves. Pairs are stored in deal order, each whole."""

    __tablename__ = "duel_pair"

    duel_id: int = Field(foreign_key="duel.id", primary_key=True)
    deal: int = Field(primary_key=True)
    seat: int
    share_a: int
    share_b: int
    match_a: str = Field(sa_column=Column(Text, nullable=False))
    match_b: str = Field(sa_column=Column(Text, nullable=False))
    seconds: float = Field(default=0.0)
    moves_a: bytes | None = Field(default=None, sa_column=Column(LargeBinary, nullable=True))
    """The moves of A's match (``MatchRecord.to_text``, zlib-compressed)."""
    moves_b: bytes | None = Field(default=None, sa_column=Column(LargeBinary, nullable=True))


class ChainEntry(_Table, table=True):
    """One entry of the record's chain (``c8league.storage.chain``): c8league wrote the
    record ``kind``/``key`` (of league ``league_id``; None for what belongs to no league)
    and its rows then had the digests ``digest`` (JSON: a digest per part of the
    record; None: c8league deleted it). ``link`` is the SHA-256 of the previous entry's
    link and this entry's fields, so that no entry changes unseen. Entries are numbered
    from 1 without a gap (``seq``), and never changed or deleted."""

    __tablename__ = "chain"
    __table_args__ = (
        Index("ix_chain_kind_key", "kind", "key"),
        Index("ix_chain_league_id", "league_id"),
    )

    seq: int = Field(sa_column=Column(Integer, primary_key=True, autoincrement=False))
    kind: str = Field(max_length=16)
    key: str = Field(max_length=64)
    league_id: int | None = Field(default=None)
    digest: str | None = Field(default=None, sa_column=Column(Text, nullable=True))
    link: str = Field(max_length=64)
