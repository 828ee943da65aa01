"""Deal books: the deals a duel plays, in a file, so that duels played apart (two
authors' bots against the same opponent, a gauntlet, a bot before and after a change)
meet the same cards deal by deal.

A book is a JSON file (format ``c8league deal book``, version 1)::

    {
      "format": "c8league deal book",
      "version": 1,
      "rules": "pagat",
      "set": [],
      "players": 2,
      "seed": 7,
      "deals": [
        {"seed": 3596528244784068140, "hands": ["8H 5C AS 6H KD 4C 9C", "..."], "top": "7C"},
        ...
      ]
    }

* ``rules`` and ``set``: the rule preset and its ``option=value`` overrides, as
  ``--rules`` and ``--set`` take them; ``players``: the table size. A deal is dealt
  under these rules at this table, so a book is for them alone.
* ``deals``: each deal's ``seed``, the seed of its match (every hand of the match is
  dealt from it), played in order. ``hands`` and ``top`` (optional, both or neither):
  the match's first hand as the seed deals it, each seat's cards from seat 0 (the
  dealer's) and the starter, turned on the discard pile. They are checked when the book
  is read: a book whose seeds no longer deal its cards (another c8league's engine, or a
  hand-edited file) is refused rather than played on other deals.
* ``seed`` (optional): the seed the book was written from, if any.

:func:`write_book` makes the book of a seed: its deals are the ones a duel with that
``--seed`` plays, in the same order. :func:`load_book` reads and checks one; every
problem is one line naming the file, the field (``deals[3].seed``) and why.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from c8league.engine import Match, Rules, derive_seed
from c8league.engine.rules import parse_assignments, preset_rules
from c8league.errors import C8LeagueError, UsageError
from c8league.names import printable

FORMAT = "c8league deal book"
VERSION = 1
MAX_DEALS = 100_000
"""The most deals a book holds (200,000 games); a duel keeps its book's seeds."""
SEED_LIMIT = 2**63


class DealBookError(UsageError):
    """A deal book that cannot be read or written, or does not validate: the message
    names the file, the field and why."""


def deal_seed(seed: int, deal: int) -> int:
    """The seed of deal ``deal`` (from 0) of a duel seeded ``seed`` (and of the book
    written from ``seed``)."""
    return derive_seed(seed, "duel", "deal", deal)


def first_hand(rules: Rules, players: int, seed: int) -> tuple[tuple[str, ...], str]:
    """The first hand of the match ``seed`` deals: each seat's cards, and the top card."""
    hand = Match(rules, players, seed).hand
    return tuple(" ".join(str(card) for card in cards) for cards in hand.hands), str(hand.top)


# -- the file, as pydantic reads it -------------------------------------------------------


class _Deal(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    seed: int = Field(ge=0, lt=SEED_LIMIT)
    hands: list[str] | None = None
    top: str | None = None

    @model_validator(mode="after")
    def _both(self) -> _Deal:
        if (self.hands is None) != (self.top is None):
            raise ValueError("give both `hands` and `top` (the first hand as dealt), or neither")
        return self


class _Book(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    format: Literal["c8league deal book"]
    version: Literal[1]
    rules: str
    set: list[str] = []
    players: int = Field(ge=2, le=8)
    seed: int | None = Field(default=None, ge=0, lt=SEED_LIMIT)
    deals: list[_Deal] = Field(min_length=1, max_length=MAX_DEALS)


@dataclass(frozen=True)
class DealBook:
    """A book's deals, checked: the rules (preset and overrides) and table they are
    dealt for, and each deal's seed, in order."""

    preset: str
    sets: tuple[str, ...]
    players: int
    seeds: tuple[int, ...]
    seed: int | None = None
    """The seed the book was written from, if any."""
    name: str = "book"
    """The file's name (shown in a duel's summary)."""

    @property
    def rules(self) -> Rules:
        return Rules.from_options(self.preset, parse_assignments(list(self.sets)))

    @property
    def rules_label(self) -> str:
        return self.preset + "".join(f" {item}" for item in self.sets)

    @property
    def digest(self) -> str:
        """SHA-256 of what fixes the deals (every rule option, the table, the seeds):
        two books with the same digest deal the same cards."""
        return book_digest(self.rules.to_json(), self.players, self.seeds)

    def to_text(self) -> str:
        """The book as a file: JSON, one deal a line, each with its first hand."""
        rules = self.rules
        head: dict[str, Any] = {
            "format": FORMAT,
            "version": VERSION,
            "rules": self.preset,
            "set": list(self.sets),
            "players": self.players,
        }
        if self.seed is not None:
            head["seed"] = self.seed
        lines = [f"  {json.dumps(key)}: {json.dumps(value)}," for key, value in head.items()]
        deals = []
        for seed in self.seeds:
            hands, top = first_hand(rules, self.players, seed)
            deals.append("    " + json.dumps({"seed": seed, "hands": list(hands), "top": top}))
        return "{\n" + "\n".join(lines) + '\n  "deals": [\n' + ",\n".join(deals) + "\n  ]\n}\n"


def book_digest(rules_json: str, players: int, seeds: tuple[int, ...]) -> str:
    """The digest of deals ``seeds`` at ``players`` under ``rules_json`` (canonical)."""
    text = json.dumps(
        {"rules": json.loads(rules_json), "players": players, "seeds": list(seeds)},
        sort_keys=True,
        separators=(",", ":"),
    )
    return hashlib.sha256(text.encode()).hexdigest()


def write_book(
    *, seed: int, deals: int, preset: str = "pagat", sets: tuple[str, ...] = (), players: int = 2
) -> DealBook:
    """The book of ``deals`` deals of seed ``seed``: the deals a duel with that seed plays,
    in the same order."""
    book = DealBook(
        preset=preset,
        sets=tuple(sets),
        players=players,
        seeds=tuple(deal_seed(seed, deal) for deal in range(deals)),
        seed=seed,
    )
    book.rules.check_table(players)
    return book


def save_book(book: DealBook, path: str | Path, *, replace: bool = False) -> None:
    """Write ``book`` to ``path`` whole (a file beside it, then renamed over it); a file
    there already is kept unless ``replace``."""
    file = Path(path)
    where = printable(str(file))
    if file.exists() and not replace:
        raise DealBookError(
            f"{where} exists: choose another file, or `force` to replace it", params=["force"]
        )
    part = file.with_name(f".{file.name}.part")
    try:
        part.write_text(book.to_text(), encoding="utf-8")
        os.replace(part, file)
    except OSError as exc:
        part.unlink(missing_ok=True)
        raise DealBookError(f"{where}: cannot write: {exc}") from None


def load_book(path: str | Path) -> DealBook:
    """Read and check the book at ``path``; :class:`DealBookError` names the file, the
    field and the problem (the line, for a file that is not JSON)."""
    file = Path(path)
    where = printable(str(file))
    try:
        text = file.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise DealBookError(f"{where}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise DealBookError(f"{where}: cannot read: {exc}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise DealBookError(
            f"{where}: line {exc.lineno}, column {exc.colno}: not valid JSON: {exc.msg}"
        ) from None
    except RecursionError:
        raise DealBookError(f"{where}: not valid JSON: nested too deeply") from None
    return _checked(data, where, file.name)


def _checked(data: Any, where: str, name: str) -> DealBook:
    if isinstance(data, dict) and data.get("format") == FORMAT:
        version = data.get("version")
        if isinstance(version, int) and not isinstance(version, bool) and version > VERSION:
            raise DealBookError(
                f"{where}: version: this c8league reads deal books of version {VERSION}, "
                f"not {version} (a newer c8league wrote it)"
            )
    try:
        model = _Book.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        field = printable(_field_path(first["loc"], data))
        message = printable(str(first["msg"]).removeprefix("Value error, ") + _got(first))
        raise DealBookError(f"{where}: {field}: {message}") from None
    try:
        preset_rules(model.rules)
    except C8LeagueError as exc:
        raise DealBookError(f"{where}: rules: {exc}") from None
    try:
        rules = Rules.from_options(model.rules, parse_assignments(model.set))
    except C8LeagueError as exc:
        raise DealBookError(f"{where}: set: {exc}") from None
    try:
        rules.check_table(model.players)
    except C8LeagueError as exc:
        raise DealBookError(f"{where}: players: {exc}") from None
    seen: dict[int, int] = {}
    for index, deal in enumerate(model.deals):
        if deal.seed in seen:
            raise DealBookError(
                f"{where}: deals[{index}].seed: the seed of deals[{seen[deal.seed]}] again "
                "(each deal is played once)"
            )
        seen[deal.seed] = index
        if deal.hands is None or deal.top is None:
            continue
        hands, top = first_hand(rules, model.players, deal.seed)
        if (tuple(deal.hands), deal.top) != (hands, top):
            raise DealBookError(
                f"{where}: deals[{index}]: seed {deal.seed} deals {' | '.join(hands)} "
                f"(top {top}) under the book's rules, not the hands and top written "
                "(a book from another c8league's engine, or edited)"
            )
    return DealBook(
        preset=model.rules,
        sets=tuple(model.set),
        players=model.players,
        seeds=tuple(deal.seed for deal in model.deals),
        seed=model.seed,
        name=name,
    )


def _field_path(loc: tuple[int | str, ...], data: Any) -> str:
    """``deals[3].seed``: the location as far as the file's data goes (pydantic adds the
    type it tried after it)."""
    parts: list[str] = []
    node = data
    for item in loc:
        if isinstance(item, int) and isinstance(node, list) and item < len(node):
            parts.append(f"[{item}]")
            node = node[item]
        elif isinstance(item, str) and isinstance(node, dict):
            parts.append(("." if parts else "") + item)
            node = node.get(item)
        else:
            break
    return "".join(parts) or "(top level)"


def _got(error: Any) -> str:
    """`` (got '12')`` after a wrong type or value, as it was written in the file."""
    value = error.get("input")
    if str(error.get("type", "")) in ("missing", "extra_forbidden"):
        return ""
    if isinstance(value, bool):
        return f" (got {str(value).lower()})"
    if isinstance(value, int | float | str):
        return f" (got {json.dumps(value)})"
    return ""
