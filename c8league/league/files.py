"""League files (``leagues/*.toml``): pydantic models, loading and validation.

A league file names the league, its rule set (a preset and overrides), its table
sizes, its rating settings, its entrants (people by name; bots by plugin name,
options and a display name) and its events. A bad file gets one line naming the
file, the field and the problem.
"""

from __future__ import annotations

import json
import math
import tomllib
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from c8league.engine.rules import Rules
from c8league.errors import C8LeagueError, LeagueFileError, UsageError
from c8league.names import check_name, name_key, printable
from c8league.ratings import RatingModel, RatingSettings
from c8league.standings import SeasonRule, StandingRules, check_tiebreaks

OPTIONS_DEPTH = 8
"""How deeply a bot's options may nest lists and tables."""


class _Model(BaseModel):
    # Strict: a league file says what it means (``cycles = true``, ``seed = 0.0`` or
    # ``duplicate = 1`` are mistakes, not conversions); ``inf`` and ``nan`` are refused.
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True, allow_inf_nan=False)


class RulesSpec(_Model):
    """The ``[rules]`` table: a preset and the house rules that change it."""

    preset: str = Field(
        default="pagat",
        description="The rule preset: `pagat`, `basic`, `encyclopedia`, `olsen` or "
        "`countdown` (`c8league rules list`).",
    )
    options: dict[str, str | int | bool] = Field(
        default_factory=dict,
        description="House rules: rule options that change the preset, e.g. "
        "`{ multiple_equal = true }` (every option is listed below).",
    )

    def build(self) -> Rules:
        return Rules.from_options(self.preset, self.options)


class EntrantSpec(_Model):
    """A person (``name`` only) or a bot (``bot`` names the player plugin)."""

    name: str = Field(
        description="The entrant's name, unique in the database whatever its case and "
        "accents (a person's name as written: `Zoë`, `O'Brien`; not `= , ; : / [ ] \\`)."
    )
    bot: str | None = Field(
        default=None,
        description="The player plugin of a bot (`random`, `greedy`, `montecarlo`, … : "
        "`c8league bots list`); omitted for a person.",
    )
    options: dict[str, Any] = Field(
        default_factory=dict,
        description="A bot's options, checked against its plugin's options "
        "(`c8league bots show NAME`); a person has none.",
    )

    @field_validator("name")
    @classmethod
    def _name(cls, value: str) -> str:
        return check_name(value)

    @field_validator("options")
    @classmethod
    def _options(cls, value: dict[str, Any]) -> dict[str, Any]:
        _check_plain(value, 1)
        return value

    @model_validator(mode="after")
    def _person(self) -> EntrantSpec:
        if self.bot is None and self.options:
            raise ValueError("a person has no options; options are for a bot ('bot = ...')")
        return self

    @property
    def kind(self) -> str:
        return "person" if self.bot is None else "bot"


class EventSpec(_Model):
    """An ``[[events]]`` table: a round-robin or a Swiss event of the league."""

    name: str = Field(description="The event's name, unique in the league.")
    format: Literal["round_robin", "swiss"] = Field(
        default="round_robin",
        description="`round_robin`: everyone meets (at tables of k, rounds where everyone "
        "sits once); `swiss`: each round pairs entrants of similar standing.",
    )
    cycles: int = Field(
        default=1, ge=1, le=100, description="Round-robin: how many times the schedule is played."
    )
    rounds: int | None = Field(
        default=None,
        ge=1,
        le=1000,
        description="Swiss: the number of rounds (required); round-robin: not used (the "
        "design fixes it).",
    )
    seed: int = Field(
        default=0,
        ge=0,
        lt=2**63,
        description="Fixes every random choice: pairings, seats and each match's deals.",
    )
    duplicate: bool = Field(
        default=False,
        description="Bots: replay each deal with the seats rotated, so that the luck of "
        "the cards cancels.",
    )
    table_size: int | None = Field(
        default=None,
        ge=2,
        le=8,
        description="Players per table in this event (default: the league's `table_size`).",
    )
    played_by: Literal["bots", "people"] | None = Field(
        default=None,
        description="`bots`: `c8league event run` plays it; `people`: rounds are paired, "
        "printed and their results entered. Default: `people` when any entrant is a person.",
    )

    @field_validator("name")
    @classmethod
    def _name(cls, value: str) -> str:
        return EntrantSpec._name(value)

    @model_validator(mode="after")
    def _rounds(self) -> EventSpec:
        if self.format == "swiss" and self.rounds is None:
            raise ValueError("a swiss event needs 'rounds'")
        return self


class LeagueFile(_Model):
    """A league file: the top level of ``leagues/*.toml``."""

    name: str = Field(
        description="The league's name, unique in the database (`c8league report NAME`)."
    )
    title: str = Field(default="", description="A title for sheets and reports.")
    rules: RulesSpec = Field(
        default_factory=RulesSpec,
        description="The rule set, `[rules]`: a preset and house rules (below).",
    )
    table_size: int = Field(
        default=2, ge=2, le=8, description="Players per table (events may set their own)."
    )
    rating: RatingSettings = Field(
        default_factory=RatingSettings,
        description="The rating settings, `[rating]` (below): the league is one rating pool.",
    )
    """Read into the rating model's own settings, checked as strictly as the file."""
    entrants: list[EntrantSpec] = Field(
        default_factory=list,
        description="The entrants, `[[entrants]]` (below): people and bots.",
    )
    events: list[EventSpec] = Field(
        default_factory=list, description="The events, `[[events]]` (below)."
    )
    first_round: Literal["random", "rating"] | None = Field(
        default=None,
        description="How a Swiss event's first round is drawn: `random` (default: from the "
        "event's seed) or `rating` (by the league's ratings, best together, ties drawn "
        "from the seed). Left out: as before (a new league: `random`).",
    )
    tiebreaks: list[str] | None = Field(
        default=None,
        description="Ties in match points are broken by these, in order: `opponents` "
        "(average match points of the opponents met), `game-share` (points as a share of "
        "the target), `wins`, `direct` (direct encounter), `opponents-total`, "
        "`game-points`, `sonneborn-berger` (the match points of the opponents finished "
        "ahead of, half for a tie). The season standings break ties in season points by "
        'the same list, over the whole season. Default `["opponents", "game-share", '
        '"wins", "direct"]`; left out: as before.',
    )
    season: str | None = Field(
        default=None,
        description="How the events add up to the season standings (`c8league league "
        "standings`): `total` (default: all match points), `best-of:N` (each member's "
        "best N events) or `points:25,18,15,...` (points by rank in each event). Left "
        "out: as before.",
    )

    confirm_reports: Literal["organiser", "second-player"] | None = Field(
        default=None,
        description="Who makes a result reported from the table (`c8league serve`) final: "
        "`organiser` (default: the organiser accepts it) or `second-player` (a second "
        "player of the table confirms it on their own phone, or disputes it for the "
        "organiser; the organiser may still accept it). Left out: as before.",
    )

    @field_validator("name")
    @classmethod
    def _name(cls, value: str) -> str:
        return EntrantSpec._name(value)

    @field_validator("tiebreaks")
    @classmethod
    def _tiebreaks(cls, value: list[str] | None) -> list[str] | None:
        if value is not None:
            try:
                check_tiebreaks(value)
            except UsageError as exc:
                raise ValueError(str(exc)) from None
        return value

    @field_validator("season")
    @classmethod
    def _season(cls, value: str | None) -> str | None:
        if value is not None:
            try:
                SeasonRule.parse(value)
            except UsageError as exc:
                raise ValueError(str(exc)) from None
        return value

    def standing_rules(self, stored: StandingRules) -> StandingRules:
        """The league's choices: the file's where it states them, else ``stored``."""
        return StandingRules(
            first_round=self.first_round or stored.first_round,
            tiebreaks=stored.tiebreaks if self.tiebreaks is None else tuple(self.tiebreaks),
            season=stored.season if self.season is None else SeasonRule.parse(self.season),
        )

    @model_validator(mode="after")
    def _unique(self) -> LeagueFile:
        for what, names in (
            ("entrant", [e.name for e in self.entrants]),
            ("event", [e.name for e in self.events]),
        ):
            seen: dict[str, str] = {}
            for n in names:
                if name_key(n) in seen:
                    first = seen[name_key(n)]
                    same = "" if first == n else f" (the same name as {first!r}: names are "
                    same += "" if first == n else "the same whatever their case and accents)"
                    raise ValueError(f"duplicate {what} name {n!r}{same}")
                seen[name_key(n)] = n
        return self

    def table_size_of(self, event: EventSpec) -> int:
        return event.table_size or self.table_size


def load_league_file(path: str | Path) -> LeagueFile:
    """Read and validate a league file; raises :class:`LeagueFileError` naming the file,
    the field and the problem (and the line, for TOML syntax errors)."""
    file = Path(path)
    try:
        text = file.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise LeagueFileError(f"{file}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise LeagueFileError(f"{file}: cannot read: {exc}") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise LeagueFileError(f"{file}: not valid TOML: {exc}") from None
    except RecursionError:
        raise LeagueFileError(
            f"{file}: not valid TOML: arrays or tables nested too deeply"
        ) from None
    return parse_league(data, str(file))


def parse_league(data: dict[str, Any], where: str = "league") -> LeagueFile:
    """Validate league data (already parsed from TOML or JSON)."""
    try:
        league = LeagueFile.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        field = printable(_field_path(first["loc"], data))
        text = _MESSAGES.get(first["type"], first["msg"]).removeprefix("Value error, ")
        message = printable(text + _got(first))
        extra = f" (+{exc.error_count() - 1} more)" if exc.error_count() > 1 else ""
        raise LeagueFileError(f"{where}: {field}: {message}{extra}") from None
    except RecursionError:
        raise LeagueFileError(f"{where}: arrays or tables nested too deeply") from None
    try:
        rules = league.rules.build()
        for event in league.events:
            rules.check_table(league.table_size_of(event))
        rules.check_table(league.table_size)
    except C8LeagueError as exc:
        raise LeagueFileError(f"{where}: {exc}") from None
    try:
        # The rating system and backend the league names must be installed now, not
        # when its first result is rated.
        RatingModel(league.rating)
    except C8LeagueError as exc:
        field = "rating.backend" if league.rating.backend else "rating.system"
        raise LeagueFileError(f"{where}: {field}: {exc}") from None
    return league


_MESSAGES = {"unexpected_keyword_argument": "Extra inputs are not permitted"}
"""Pydantic's words for an unknown key of a dataclass (``[rating]``), as for a model."""


def _field_path(loc: tuple[int | str, ...], data: Any) -> str:
    """``entrants[2].bot`` (with the entrant's name when there is one). The location
    stops where the file's data does (pydantic adds the type tried, e.g. ``.int``)."""
    parts: list[str] = []
    node = data
    for item in loc:
        if isinstance(item, int):
            label = f"[{item}]"
            if isinstance(node, list) and item < len(node):
                node = node[item]
                if isinstance(node, dict) and isinstance(node.get("name"), str):
                    label = f"[{item}] ({node['name']})"
            parts.append(label)
        elif isinstance(node, dict):
            parts.append(("." if parts else "") + item)
            node = node.get(item)
        else:
            break
    return "".join(parts) or "(top level)"


def _got(error: Any) -> str:
    """`` (got true)`` after a wrong type, as the value was written in the file."""
    value = error.get("input")
    if not str(error.get("type", "")).endswith("_type"):
        return ""
    if isinstance(value, bool):
        return f" (got {str(value).lower()})"
    if isinstance(value, int | float | str):
        return f" (got {value!r})"
    return ""


def _check_plain(value: Any, depth: int) -> None:
    """Bot options are plain data (text, numbers, booleans, arrays and tables of them),
    so they can be stored as JSON and given to the plugin as they were written."""
    if depth > OPTIONS_DEPTH:
        raise ValueError(f"options nest at most {OPTIONS_DEPTH} deep")
    if isinstance(value, dict):
        for item in value.values():
            _check_plain(item, depth + 1)
    elif isinstance(value, list):
        for item in value:
            _check_plain(item, depth + 1)
    elif isinstance(value, float) and not math.isfinite(value):
        raise ValueError(f"an option value must be a finite number, not {value}")
    elif not isinstance(value, str | int | float | bool):
        raise ValueError(
            "option values are text, numbers, booleans, arrays or tables, not "
            f"{type(value).__name__}"
        )


def options_json(options: dict[str, Any]) -> str:
    return json.dumps(options, sort_keys=True, separators=(",", ":"))
