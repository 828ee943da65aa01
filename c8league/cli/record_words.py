"""The record's chain in words: what ``c8league verify`` found, and the one line that
``event status``, ``report`` and ``event publish`` print when a league's record was
changed outside c8league."""

from __future__ import annotations

from c8league.findings import CopyRefused, Finding, Place, Verification

_PARTS = {"match": "its match row", "seats": "its seats", "hands": "its hands"}


def record(finding: Finding) -> str:
    """The record a finding is about, with where it is: ``match 12 (club/thursday,
    round 3, table 2)``."""
    place = finding.place or Place()
    event = f"{place.league}/{place.event}" if place.league and place.event else place.event
    key = finding.key
    if finding.kind == "match":
        deal = f"deal {place.deal}" if place.deal else None
        return f"match {key}" + _within(
            event, _n("round", place.round), _n("table", place.table), deal
        )
    if finding.kind == "round":
        if place.round is None:
            return f"round (id {key})"
        return f"round {place.round}" + (f" of {event}" if event else "")
    if finding.kind == "event":
        return f"event {event or key}"
    if finding.kind == "league":
        return f"league {place.name or key}"
    if finding.kind == "entrant":
        return f"player {place.name}" if place.name else f"player (id {key})"
    if finding.kind == "member":
        if place.name and place.league:
            return f"{place.name}'s membership of {place.league}"
        return f"membership {key} (league/player)"
    if finding.kind == "membership":
        what = f"{place.name} {place.action}" if place.name and place.action else None
        return f"membership change {key}" + _within(what, place.league)
    if finding.kind == "audit":
        return f"audit-trail entry {key}" + _within(
            place.action, event or place.league, _n("round", place.round), _n("table", place.table)
        )
    if finding.kind == "duel":
        return f"duel {place.duel or key}"
    if finding.kind == "pair":
        deal = key.split("/")[-1]
        return f"duel {place.duel}, deal {deal}" if place.duel else f"duel pair {key}"
    if finding.kind == "version":
        return f"bot version {key}" + _within(place.name)
    return f"{finding.kind} {key}"


def _n(word: str, value: int | None) -> str | None:
    return None if value is None else f"{word} {value}"


def _within(*facts: str | None) -> str:
    shown = [fact for fact in facts if fact]
    return f" ({', '.join(shown)})" if shown else ""


def finding(found: Finding) -> str:
    """One finding, in one line."""
    if found.change == "link":
        return (
            f"the chain itself was changed at entry {found.seq}: it does not follow from "
            f"entry {(found.seq or 1) - 1} (an entry edited outside c8league)"
        )
    if found.change == "gap":
        first, last = found.seq, found.key
        which = f"entry {first} is" if str(first) == last else f"entries {first} to {last} are"
        return f"{which} missing from the chain (deleted outside c8league)"
    if found.change == "head":
        return (
            f"the head {found.key} is no entry of the chain: the record was rewritten or "
            "cut back outside c8league since that head was printed"
        )
    if found.change == "deleted":
        return f"{record(found)} was deleted outside c8league"
    if found.change == "added":
        return f"{record(found)} was added outside c8league (c8league never wrote it)"
    parts = [_PARTS.get(part, "") for part in found.parts]
    if found.kind != "match" or not all(parts):
        return f"{record(found)} was changed outside c8league after c8league wrote it"
    said = parts[0] if len(parts) == 1 else f"{', '.join(parts[:-1])} and {parts[-1]}"
    verb = "was" if parts == [_PARTS["match"]] else "were"
    return f"{record(found)}: {said} {verb} changed outside c8league after c8league wrote it"


def first(verification: Verification) -> str:
    """The first finding, and how many more there are."""
    found = verification.findings
    more = len(found) - 1
    return finding(found[0]) + (
        f" (and {more} more: c8league verify --json lists them)" if more else ""
    )


def warning(verification: Verification, league: str) -> str:
    """The line of a command that shows results from a changed record."""
    more = len(verification.findings) - 1
    return (
        finding(verification.findings[0])
        + (f" (and {more} more)" if more else "")
        + f"; c8league verify {league} says more"
    )


def refused(found: Finding) -> str:
    """Why c8league stored nothing over a changed record."""
    return (
        f"{finding(found)}: c8league writes nothing over it (c8league verify says more; "
        "c8league restore puts back a copy)"
    )


def _count(n: int, one: str, more: str) -> str:
    return f"{n:,} {one if n == 1 else more}"


def whole(verification: Verification, league: str | None) -> list[str]:
    """What ``verify`` prints of a whole record: what it compared, and the head."""
    scope = f"league {league}'s record" if league else "the record"
    records = _count(verification.records, "record", "records")
    entries = _count(verification.entries, "entry", "entries")
    lines = [f"{scope} is as c8league wrote it: {records} checked against a chain of {entries}"]
    if verification.head is not None:
        lines.append(f"head: {verification.head} (entry {verification.entries})")
    if verification.head_entry is not None:
        line = (
            f"the head given is entry {verification.head_entry}: nothing written up to it "
            "was changed since"
        )
        again = verification.rewritten
        if again:
            more = f" and {len(again) - 1} more" if len(again) > 1 else ""
            line += (
                f"; written again after it: {record(again[0])}{more} (c8league verify "
                "--head HEAD --json lists them)"
            )
        lines.append(line)
    return lines


def copy_refused(exc: CopyRefused) -> str:
    """Why ``restore`` refused a copy."""
    copy, reason = exc.copy, exc.reason
    if reason == "foreign":
        why = f"{copy} is not a c8league database ({exc.detail})"
    elif reason == "damaged":
        why = f"{copy} is damaged ({exc.detail})"
    elif reason == "newer" and exc.versions is not None:
        theirs, ours = exc.versions
        why = (
            f"{copy} has schema version {theirs}, newer than this c8league understands "
            f"({ours}): upgrade c8league"
        )
    elif reason == "incomplete":
        shown = ", ".join(exc.missing[:5]) + (", …" if len(exc.missing) > 5 else "")
        why = f"{copy} lacks what c8league needs ({shown}): it is damaged"
    elif reason == "changed" and exc.finding is not None:
        why = (
            f"{copy} holds a record changed outside c8league: {finding(exc.finding)} "
            f"(c8league --db {copy} verify says more)"
        )
    else:
        why = f"{copy} cannot be opened as a c8league database: {exc.detail}"
    return f"{why}; nothing was changed"
