"""The reference of league files, generated from their models: every table and field with
its type, default and meaning, as ``docs/league-file.md`` holds it.

``python -m c8league.league.reference docs/league-file.md`` rewrites the generated part
of the document (between its ``generated`` markers) and the examples it quotes from
``leagues/`` (between their ``example`` markers); a test checks that the document is up
to date, so the document and the models cannot drift apart.
"""

from __future__ import annotations

import dataclasses
import re
import sys
import types
import typing
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel
from pydantic.fields import FieldInfo
from pydantic_core import PydanticUndefined

from c8league.engine.rules import OPTIONS, Rules
from c8league.league.files import EntrantSpec, EventSpec, LeagueFile, RulesSpec
from c8league.ratings import RatingSettings

__all__ = ["RATING_MEANINGS", "league_file_reference", "update_document"]

BEGIN = "<!-- generated from c8league/league/files.py: begin -->"
END = "<!-- generated from c8league/league/files.py: end -->"
EXAMPLE = re.compile(
    r"(<!-- example: (?P<path>[^ ]+) -->\n```toml\n)(?P<body>.*?)(```\n)", flags=re.S
)

RATING_MEANINGS: dict[str, str] = {
    "system": "`trueskill`, or `openskill` (Plackett–Luce; `pip install c8league[openskill]`).",
    "mu": "The rating of a new entrant: its estimated skill.",
    "sigma": "The uncertainty of a new entrant's rating (positive).",
    "beta": "The spread of one match's performance around the skill (positive).",
    "tau": "Uncertainty added before each match, so ratings keep moving (0 for bots, "
    "whose strength does not drift).",
    "draw_probability": "TrueSkill: the chance that two equal players share a place, "
    "above 0 and below 1.",
    "backend": "TrueSkill's statistics backend: none (pure Python, the fastest), `mpmath` "
    "or `scipy`; its package must be installed.",
}
"""What each field of the ``[rating]`` table means (the settings are a dataclass of the
ratings package, without pydantic descriptions)."""


def _type(annotation: Any) -> str:
    """A field's type in words."""
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if origin in (typing.Union, types.UnionType):
        inner = [a for a in args if a is not type(None)]
        text = " or ".join(_type(a) for a in inner)
        return f"{text} (may be left out)" if type(None) in args else text
    if origin is typing.Literal:
        return "one of " + ", ".join(f"`{a}`" for a in args)
    if origin is list:
        return "array of tables" if _is_table(args[0]) else f"array of {_type(args[0])}s"
    if origin is dict:
        return "table"
    if _is_table(annotation):
        return "table"
    alias = getattr(annotation, "__value__", None)  # a type alias (RatingSystem)
    if alias is not None:
        return _type(alias)
    names = {str: "string", int: "integer", bool: "boolean", float: "number"}
    return names.get(annotation, getattr(annotation, "__name__", str(annotation)))


def _is_table(annotation: Any) -> bool:
    return isinstance(annotation, type) and (
        issubclass(annotation, BaseModel) or dataclasses.is_dataclass(annotation)
    )


def _bounds(info: FieldInfo) -> str:
    low = high = ""
    for item in info.metadata:
        if hasattr(item, "ge"):
            low = str(item.ge)
        if hasattr(item, "le"):
            high = str(item.le)
        if hasattr(item, "lt"):
            high = "2⁶³ − 1" if item.lt == 2**63 else str(item.lt - 1)
    if low and high:
        return f", {low} to {high}"
    return f", at least {low}" if low else ""


def _value(value: Any) -> str:
    if value is None:
        return "left out"
    if isinstance(value, bool):
        return f"`{str(value).lower()}`"
    if isinstance(value, str):
        return f'`"{value}"`'
    if isinstance(value, float):
        return f"`{value:g}`"
    return f"`{value}`"


def _default(info: FieldInfo) -> str:
    if info.default is PydanticUndefined and info.default_factory is None:
        return "required"
    if info.default_factory is not None:
        made = info.default_factory()  # type: ignore[call-arg]
        if made == {} or made == []:
            return "empty"
        if isinstance(made, RulesSpec):
            return f'preset `"{made.preset}"`, no options'
        if isinstance(made, RatingSettings):
            return "TrueSkill's defaults"
        return _value(made)
    return _value(info.default)


def _row(*cells: str) -> str:
    return "| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |"


def _model_table(model: type[BaseModel]) -> list[str]:
    lines = [_row("key", "type", "default", "meaning"), _row("---", "---", "---", "---")]
    for name, info in model.model_fields.items():
        kind = _type(info.annotation) + _bounds(info)
        lines.append(_row(f"`{name}`", kind, _default(info), info.description or ""))
    return lines


def _rating_table() -> list[str]:
    lines = [_row("key", "type", "default", "meaning"), _row("---", "---", "---", "---")]
    hints = typing.get_type_hints(RatingSettings)
    for field in dataclasses.fields(RatingSettings):
        default = field.default
        shown = f"`{round(default, 6):g}`" if isinstance(default, float) else _value(default)
        lines.append(
            _row(f"`{field.name}`", _type(hints[field.name]), shown, RATING_MEANINGS[field.name])
        )
    return lines


def _options_table() -> list[str]:
    defaults = Rules().to_options()
    lines = [
        _row("option", "values", "`pagat` default", "meaning"),
        _row("---", "---", "---", "---"),
    ]
    for name, spec in OPTIONS.items():
        default = defaults[name]
        shown = f"`{str(default).lower()}`" if isinstance(default, bool) else f"`{default}`"
        lines.append(_row(f"`{name}`", spec.values, shown, spec.meaning))
    return lines


def league_file_reference() -> str:
    """The generated part of ``docs/league-file.md``: every table and field."""
    parts: list[Sequence[str]] = [
        ["## The top level", ""],
        _model_table(LeagueFile),
        ["", "## `[rules]`", ""],
        _model_table(RulesSpec),
        [
            "",
            "### Rule options (`[rules] options`)",
            "",
            "Each changes the preset; `c8league rules show PRESET` prints a preset's values.",
            "",
        ],
        _options_table(),
        ["", "## `[rating]`", ""],
        _rating_table(),
        ["", "## `[[entrants]]`", ""],
        _model_table(EntrantSpec),
        ["", "## `[[events]]`", ""],
        _model_table(EventSpec),
    ]
    return "\n".join(line for part in parts for line in part) + "\n"


def update_document(text: str, root: Path) -> str:
    """``text`` (the document) with its generated part and its quoted examples (files
    under ``root``) as they are now."""
    start, end = text.index(BEGIN) + len(BEGIN), text.index(END)
    text = text[:start] + "\n" + league_file_reference() + text[end:]

    def quote(match: re.Match[str]) -> str:
        body = (root / match.group("path")).read_text(encoding="utf-8")
        return match.group(1) + body + match.group(4)

    return EXAMPLE.sub(quote, text)


def main(argv: Sequence[str]) -> int:
    """Rewrite the document named by ``argv[0]`` (run from the repository's root)."""
    path = Path(argv[0] if argv else "docs/league-file.md")
    path.write_text(update_document(path.read_text(encoding="utf-8"), Path.cwd()))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
