"""League files (``leagues/*.toml``): pydantic models, loading and validation.

A league file names the league, its rule set (a preset and overrides), its table
sizes, its rating settings, its entrants (people by name; bots by plugin name,
options and a display name) and its events. A bad file gets one line naming the
file, the field and the problem.
"""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from c8league.engine.rules import Rules
from c8league.errors import C8LeagueError, LeagueFileError
from c8league.ratings import RatingSettings

_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.\- ]*$")


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class RulesSpec(_Model):
    preset: str = "pagat"
    options: dict[str, str | int | bool] = Field(default_factory=dict)

    def build(self) -> Rules:
        return Rules.from_options(self.preset, self.options)


class RatingSpec(_Model):
    system: Literal["trueskill", "openskill"] = "trueskill"
    mu: float = 25.0
    sigma: float = 25.0 / 3
    beta: float = 25.0 / 6
    tau: float = 25.0 / 300
    draw_probability: float = 0.10
    backend: str | None = None

    def settings(self) -> RatingSettings:
        return RatingSettings(
            system=self.system,
            mu=self.mu,
            sigma=self.sigma,
            beta=self.beta,
            tau=self.tau,
            draw_probability=self.draw_probability,
            backend=self.backend,
        )


class EntrantSpec(_Model):
    """A person (``name`` only) or a bot (``bot`` names the player plugin)."""

    name: str
    bot: str | None = None
    options: dict[str, Any] = Field(default_factory=dict)

    @field_validator("name")
    @classmethod
    def _name(cls, value: str) -> str:
        value = value.strip()
        if not _NAME.match(value) or len(value) > 64:
            raise ValueError(
                "a name is 1-64 letters, digits, spaces, '.', '_' or '-', starting with a "
                "letter or digit"
            )
        return value

    @property
    def kind(self) -> str:
        return "person" if self.bot is None else "bot"


class EventSpec(_Model):
    name: str
    format: Literal["round_robin", "swiss"] = "round_robin"
    cycles: int = Field(default=1, ge=1, le=100)
    rounds: int | None = Field(default=None, ge=1, le=1000)
    seed: int = Field(default=0, ge=0, lt=2**63)
    duplicate: bool = False
    table_size: int | None = Field(default=None, ge=2, le=8)
    played_by: Literal["bots", "people"] | None = None

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
    name: str
    title: str = ""
    rules: RulesSpec = Field(default_factory=RulesSpec)
    table_size: int = Field(default=2, ge=2, le=8)
    rating: RatingSpec = Field(default_factory=RatingSpec)
    entrants: list[EntrantSpec] = Field(default_factory=list)
    events: list[EventSpec] = Field(default_factory=list)

    @field_validator("name")
    @classmethod
    def _name(cls, value: str) -> str:
        return EntrantSpec._name(value)

    @model_validator(mode="after")
    def _unique(self) -> LeagueFile:
        for what, names in (
            ("entrant", [e.name for e in self.entrants]),
            ("event", [e.name for e in self.events]),
        ):
            seen: set[str] = set()
            for n in names:
                if n.lower() in seen:
                    raise ValueError(f"duplicate {what} name {n!r}")
                seen.add(n.lower())
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
    return parse_league(data, str(file))


def parse_league(data: dict[str, Any], where: str = "league") -> LeagueFile:
    """Validate league data (already parsed from TOML or JSON)."""
    try:
        league = LeagueFile.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        field = _field_path(first["loc"], data)
        message = first["msg"].removeprefix("Value error, ")
        extra = f" (+{exc.error_count() - 1} more)" if exc.error_count() > 1 else ""
        raise LeagueFileError(f"{where}: {field}: {message}{extra}") from None
    try:
        rules = league.rules.build()
        league.rating.settings()
        for event in league.events:
            rules.check_table(league.table_size_of(event))
        rules.check_table(league.table_size)
    except C8LeagueError as exc:
        raise LeagueFileError(f"{where}: {exc}") from None
    return league


def _field_path(loc: tuple[int | str, ...], data: Any) -> str:
    """``entrants[2].bot`` (with the entrant's name when there is one)."""
    parts: list[str] = []
    node = data
    for item in loc:
        if isinstance(item, int):
            label = f"[{item}]"
            if isinstance(node, list) and item < len(node):
                node = node[item]
                if isinstance(node, dict) and "name" in node:
                    label = f"[{item}] ({node['name']})"
            parts.append(label)
        else:
            parts.append(("." if parts else "") + item)
            node = node.get(item) if isinstance(node, dict) else None
    return "".join(parts) or "(top level)"


def options_json(options: dict[str, Any]) -> str:
    return json.dumps(options, sort_keys=True, separators=(",", ":"))
