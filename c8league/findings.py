"""What a check of the record finds (``c8league verify``, a restore's check of its copy,
a write that finds its record changed): plain values, and the errors that carry them.
The record's chain itself is storage's (``c8league.storage.chain``); the command line
puts these into words."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from c8league.errors import StorageError


def fields(value: Any) -> dict[str, Any]:
    """A slotted dataclass's fields by name."""
    return {name: getattr(value, name) for name in value.__slots__}


@dataclass(frozen=True, slots=True)
class Place:
    """Where a record sits, as the database says now (every field that applies)."""

    league: str | None = None
    event: str | None = None
    round: int | None = None
    table: int | None = None
    deal: int | None = None
    duel: str | None = None
    name: str | None = None
    """A league's, a player's or a duel's name; the player of a membership."""
    action: str | None = None
    """An audit entry's or a membership change's action."""
    subject: str | None = None
    """An audit entry's subject."""

    def to_dict(self) -> dict[str, object]:
        return {k: v for k, v in fields(self).items() if v is not None}


@dataclass(frozen=True, slots=True)
class Finding:
    """One thing that is not as c8league wrote it.

    ``change`` is ``changed`` (the record's rows differ from its latest entry: ``parts``
    says which), ``added`` (rows no entry covers, or a record c8league deleted),
    ``deleted`` (an entry whose rows are gone), ``link`` (entry ``seq`` does not follow
    from the one before it: the chain itself was edited), ``gap`` (entries ``seq`` to
    ``key`` are missing) or ``head`` (the head ``key`` given is in no entry)."""

    kind: str
    key: str
    change: str
    parts: tuple[str, ...] = ()
    seq: int | None = None
    """The record's latest entry, or the entry where the chain breaks."""
    place: Place | None = None

    def to_dict(self) -> dict[str, object]:
        return {
            "kind": self.kind,
            "key": self.key,
            "change": self.change,
            "parts": list(self.parts),
            "entry": self.seq,
            "place": None if self.place is None else self.place.to_dict(),
        }


@dataclass(frozen=True, slots=True)
class Verification:
    """What :func:`verify` found: the chain's length and head (the last entry's link),
    how many records it compared, and every finding, the earliest in the chain first."""

    entries: int
    head: str | None
    records: int
    findings: tuple[Finding, ...]
    head_entry: int | None = None
    """The entry whose link is the head asked for (None: none asked, or not found)."""
    rewritten: tuple[Finding, ...] = ()
    """The records that the head asked for covered and that were written again after it
    (``change`` ``rewritten``, ``seq`` their latest entry): a result corrected since, a
    round published since, or entries someone else added."""

    @property
    def whole(self) -> bool:
        return not self.findings

    def to_dict(self) -> dict[str, object]:
        return {
            "whole": self.whole,
            "entries": self.entries,
            "head": self.head,
            "records": self.records,
            "head_entry": self.head_entry,
            "findings": [f.to_dict() for f in self.findings],
            "rewritten": [f.to_dict() for f in self.rewritten],
        }


class RecordChanged(StorageError):
    """c8league was about to write over a record changed outside c8league: nothing was
    written. ``finding`` says which record and how."""

    def __init__(self, finding: Finding) -> None:
        super().__init__(
            f"{finding.kind} {finding.key}: {finding.change} outside c8league "
            f"({', '.join(finding.parts) or 'its rows'}); c8league verify says more"
        )
        self.finding = finding


class CopyRefused(StorageError):
    """A copy that ``restore`` does not put in place of the database; nothing was
    changed. ``reason`` says why: ``foreign`` (not a c8league database), ``damaged``
    (SQLite's integrity check fails: ``detail`` is its first complaint), ``newer`` (its
    schema version is newer than this c8league's: ``versions``, the copy's and this
    c8league's), ``incomplete`` (it
    lacks tables or columns c8league needs: ``missing``), ``unusable`` (it cannot be
    upgraded or opened: ``detail``), ``changed`` (its record was changed outside
    c8league: ``finding``)."""

    def __init__(
        self,
        copy: Path,
        reason: str,
        *,
        detail: str = "",
        missing: tuple[str, ...] = (),
        finding: Finding | None = None,
        versions: tuple[int, int] | None = None,
    ) -> None:
        super().__init__(f"{copy}: {reason} ({detail or ', '.join(missing)})")
        self.copy = copy
        self.reason = reason
        self.detail = detail
        self.missing = missing
        self.finding = finding
        self.versions = versions
        self.versions = versions
