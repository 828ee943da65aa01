"""Results entered by hand: reading a score sheet as typed (final scores, or hand by hand)
and checking it against the table and the rules. Pure: nothing here touches storage;
every bad entry raises :class:`ResultError` naming what is wrong.

A result entered by hand is accepted exactly when the engine could have produced it:

- A match ends after the hand in which some total reaches the target. That hand was
  won by one player (who alone scored in it), or it was blocked: then every player
  tied for the lowest count scored the same, so several players may cross the target
  in that hand. They are placed by their totals, ties sharing a place (a shared first
  place among them).
- A match that stops at the rules' hand cap is placed by totals, nobody at the target.
- In Countdown one player reaches 0 and the others are placed by score, lower first;
  a blocked Countdown match ends with nobody at 0.
- A player who leaves the table forfeits: the match ends there, before anyone reached
  the target. Several may leave: they share the last place, below everyone who stayed,
  who are placed by their totals.
- A match stopped before anyone reached the target (closing time) is *unfinished*: it
  is placed by the scores at the time it stopped (``unfinished``), or by placements
  alone, given in order (``places``, no scores). It counts for standings and ratings
  by its placements, and is marked as unfinished wherever it is shown.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from c8league.engine import Rules
from c8league.engine.match import placements as rank_places
from c8league.engine.rules import COUNTDOWN_START
from c8league.errors import ResultError
from c8league.names import name_key, printable, same_name
from c8league.results import Forfeit, HandReport, Result


@dataclass(frozen=True)
class EnteredHand:
    points: dict[str, int]
    blocked: bool = False


SCORE_MAX = 10_000_000
"""The highest score a result may give: above it is surely a typo (the highest target
a rule set may set is 1,000,000)."""


@dataclass(frozen=True)
class Entry:
    """A result as entered: final scores or hand-by-hand scores, who left the table, if
    anyone, and whether a Countdown match ended blocked."""

    scores: Mapping[str, int] | None = None
    hands: Sequence[EnteredHand] | None = None
    forfeits: Sequence[str] = field(default_factory=tuple)
    note: str = ""
    blocked: bool = False
    unfinished: bool = False
    """The match stopped before anyone reached the target: placed by the scores."""
    places: Sequence[Sequence[str]] | None = None
    """Placements alone, best first; names in one group share the place."""

    def names(self) -> list[str]:
        """Every name the entry gives (scores, hands, places and forfeits)."""
        found = list(self.scores or {})
        for hand in self.hands or ():
            found += list(hand.points)
        for group in self.places or ():
            found += list(group)
        return found + list(self.forfeits)


def parse_scores(text: str, param: str = "scores") -> dict[str, int]:
    """``"Ada=200, Ben=150"`` → ``{"Ada": 200, "Ben": 150}``; errors name ``param``."""
    if ";" in text:
        raise ResultError(
            f"`{param}`: players are separated by ',' (';' separates the hands of `hands`): "
            f"got {printable(text[:60])!r}",
            params=[param, "hands"],
        )
    result: dict[str, int] = {}
    for item in [p.strip() for p in text.split(",") if p.strip()]:
        raw, sep, value = item.rpartition("=")
        name = same_name(raw.strip())
        if not sep or not name or "=" in name or ":" in name:
            raise ResultError(
                f"`{param}`: expected name=score, got {printable(item[:60])!r}", params=[param]
            )
        try:
            points = int(value.strip())
        except ValueError:
            raise ResultError(
                f"score of {printable(name)} is not a whole number: {value.strip()[:40]!r}"
            ) from None
        if points > SCORE_MAX:
            raise ResultError(
                f"score of {printable(name)} is too high: {points} (at most {SCORE_MAX:,})"
            )
        if name in result:
            raise ResultError(f"{printable(name)} is given twice")
        result[name] = points
    return result


def parse_hands(text: str) -> list[EnteredHand]:
    """Hands separated by ``;``, each ``name=points, …`` (names with 0 may be left out);
    a hand that was blocked starts with ``blocked:``."""
    hands = []
    for number, part in enumerate([p for p in text.split(";") if p.strip()], start=1):
        body = part.strip()
        blocked = body.lower().startswith("blocked:")
        if blocked:
            body = body.split(":", 1)[1]
        try:
            hands.append(EnteredHand(parse_scores(body, "hands"), blocked))
        except ResultError as exc:
            raise ResultError(f"hand {number}: {exc}", params=exc.params) from None
    if not hands:
        raise ResultError("no hands given")
    return hands


def parse_places(text: str) -> list[list[str]]:
    """``"Ada,Ben=Cleo,Dev"`` → ``[["Ada"], ["Ben", "Cleo"], ["Dev"]]``: names best first,
    ``=`` joining those who share a place."""
    groups = []
    for item in [p.strip() for p in text.split(",") if p.strip()]:
        names = [same_name(n.strip()) for n in item.split("=")]
        if not all(names):
            raise ResultError(
                f"`places`: a name is missing in {printable(item[:60])!r}", params=["places"]
            )
        groups.append(names)
    if not groups:
        raise ResultError(
            '`places`: no names given (best first: "Ada,Ben,Cleo")', params=["places"]
        )
    return groups


def parse_names(items: Sequence[str]) -> list[str]:
    """Names given to a repeatable option, each possibly a comma-separated list."""
    return [same_name(n.strip()) for item in items for n in item.split(",") if n.strip()]


@dataclass(frozen=True)
class CheckedResult:
    """An entered result that passed the checks: the names seated, in seat order, and the
    result to store."""

    seats: tuple[str, ...]
    result: Result
    warnings: tuple[str, ...] = ()
    """What is possible but unlikely enough to be a typo (two players over the target)."""

    @property
    def forfeited(self) -> tuple[str, ...]:
        """The names of the players who left the table, in seat order."""
        return tuple(self.seats[i] for i in self.result.forfeit_seats)

    def to_dict(self) -> dict[str, Any]:
        """The result by name, as the audit trail keeps it."""
        r = self.result
        forfeited = self.forfeited
        return {
            "scores": dict(zip(self.seats, r.scores, strict=True)),
            "placements": dict(zip(self.seats, r.placements, strict=True)),
            "hands": [dict(zip(self.seats, h.points, strict=True)) for h in r.hands],
            "forfeit": forfeited[0] if len(forfeited) == 1 else list(forfeited) or None,
            "ended": r.ended,
        }


class _Names:
    """The names seated at a table, found as people type them: exactly, or else
    regardless of case and accents (``lukasz`` for ``Łukasz``, by
    :func:`c8league.names.name_key`); an unknown name gets the
    nearest seated one as a suggestion."""

    def __init__(self, seats: Sequence[str], where: str) -> None:
        self.seats = list(seats)
        self.where = where
        by_key: dict[str, list[str]] = {}
        for name in seats:
            by_key.setdefault(name_key(name), []).append(name)
        self.by_key = by_key

    def find(self, given: str) -> str | None:
        if given in self.seats:
            return given
        matches = self.by_key.get(name_key(given), [])
        return matches[0] if len(matches) == 1 else None

    def unknown(self, given: Sequence[str], what: str) -> ResultError:
        """The error for names not seated, suggesting the nearest seated ones."""
        near: list[str] = []
        for name in given:
            close = difflib.get_close_matches(name_key(name), list(self.by_key), n=1, cutoff=0.6)
            if close and self.by_key[close[0]][0] not in near:
                near.append(self.by_key[close[0]][0])
        hint = f"did you mean {', '.join(near)}? " if near else ""
        return ResultError(
            f"{self.where}: {what}{', '.join(printable(n) for n in given)} not seated at this "
            f"table ({hint}seated: {', '.join(self.seats)})"
        )

    def resolve(self, given: Mapping[str, int], what: str) -> dict[str, int]:
        """``given`` keyed by the seated names."""
        unknown = [name for name in given if self.find(name) is None]
        if unknown:
            raise self.unknown(unknown, f"{what}: ")
        result: dict[str, int] = {}
        for name, value in given.items():
            seated = self.find(name)
            assert seated is not None
            if seated in result:
                raise ResultError(f"{self.where}: {what}: {seated} is given twice")
            result[seated] = value
        return result


def check_result(
    seats: Sequence[str],
    rules: Rules,
    *,
    scores: Mapping[str, int] | None = None,
    hands: Sequence[EnteredHand] | None = None,
    forfeits: Sequence[str] = (),
    blocked: bool = False,
    unfinished: bool = False,
    places: Sequence[Sequence[str]] | None = None,
    where: str = "result",
) -> CheckedResult:
    """Validate an entered result for a table seating ``seats`` (in order); raises
    :class:`ResultError` naming the problem. Accepts exactly the results the engine can
    produce, and matches stopped unfinished (see the module's docstring)."""
    names = _Names(seats, where)
    n = len(seats)
    countdown = rules.countdown
    target = COUNTDOWN_START if countdown else rules.target_for(n)
    if places is not None or unfinished:
        return _unfinished(
            names,
            rules,
            target=target,
            scores=scores,
            hands=hands,
            forfeits=forfeits,
            blocked=blocked,
            places=places,
        )

    if scores is not None and hands is not None:
        raise ResultError(f"{where}: give final scores or hand-by-hand scores, not both")
    if scores is None and hands is None:
        raise ResultError(f"{where}: no scores given")
    if blocked and not countdown:
        raise ResultError(
            f"{where}: `blocked` is for a Countdown match; mark a blocked hand in `hands` "
            "with 'blocked:'",
            params=["blocked", "hands"],
        )
    left = _forfeiters(names, forfeits, where)
    reports: list[HandReport] = []
    if hands is not None:
        if countdown:
            raise ResultError(f"{where}: a Countdown match is one long hand: enter final scores")
        final = _hand_totals(names, rules, target=target, hands=hands, reports=reports)
    else:
        assert scores is not None
        given = names.resolve({same_name(k): v for k, v in scores.items()}, "final scores")
        _check_values(given, "final scores", where)
        missing = [x for x in seats if x not in given]
        if missing:
            raise ResultError(f"{where}: final scores: no score for {', '.join(missing)}")
        final = [given[name] for name in seats]
    if countdown:
        high = [seats[i] for i, s in enumerate(final) if s > COUNTDOWN_START]
        if high:
            raise ResultError(
                f"{where}: Countdown scores run from 8 down to 0 ({', '.join(high)} above 8)"
            )
    if left:
        ended, placed, lost = _forfeited(
            seats, final, left=left, countdown=countdown, target=target, where=where
        )
    else:
        ended = _ending(
            seats,
            final,
            countdown=countdown,
            target=target,
            blocked=blocked,
            hands=len(reports),
            rules=rules,
            where=where,
        )
        placed = rank_places(final, higher_is_better=not countdown)
        lost = None
    result = Result(
        tuple(placed),
        tuple(final),
        ended,
        tuple(reports),
        forfeit=lost,
        entered_by="hand",
    )
    warnings: list[str] = []
    over = [i for i, s in enumerate(final) if s >= target]
    if scores is not None and not countdown and not left and len(over) > 1:
        who = [f"{seats[i]} {final[i]}" for i in over]
        warnings.append(
            f"{where}: {', '.join(who[:-1])} and {who[-1]} have "
            f"{'both' if len(who) == 2 else 'all'} reached the target {target}: only "
            "players tied for the lowest count in a blocked last hand get there together; "
            "check the scores (hand by hand they are checked in full)"
        )
    return CheckedResult(tuple(seats), result, tuple(warnings))


def _unfinished(
    names: _Names,
    rules: Rules,
    *,
    target: int,
    scores: Mapping[str, int] | None,
    hands: Sequence[EnteredHand] | None,
    forfeits: Sequence[str],
    blocked: bool,
    places: Sequence[Sequence[str]] | None,
) -> CheckedResult:
    """A match stopped before anyone reached the target: placed by the scores at the
    time (``scores``) or by ``places`` alone."""
    where, seats = names.where, names.seats
    if forfeits or blocked or hands is not None:
        what = "forfeit" if forfeits else "blocked" if blocked else "hands"
        raise ResultError(
            f"{where}: an unfinished match is entered with the scores when it stopped "
            f"(`scores` ... `unfinished`) or `places`, not `{what}`",
            params=["scores", "unfinished", "places", what],
        )
    if places is not None:
        if scores is not None:
            raise ResultError(
                f"{where}: give `places` or `scores` ... `unfinished`, not both",
                params=["places", "scores", "unfinished"],
            )
        order: dict[str, int] = {}
        for place, group in enumerate(places, start=1):
            for typed in group:
                seated = names.find(typed)
                if seated is None:
                    raise names.unknown([typed], "places: ")
                if seated in order:
                    raise ResultError(f"{where}: places: {seated} is given twice")
                order[seated] = place
        missing = [x for x in seats if x not in order]
        if missing:
            raise ResultError(f"{where}: places: no place for {', '.join(missing)}")
        ranked = sorted(order.values())
        placements = tuple(ranked.index(order[name]) + 1 for name in seats)
        result = Result(placements, (0,) * len(seats), "places", entered_by="hand")
        return CheckedResult(tuple(seats), result)
    if scores is None:
        raise ResultError(
            f"{where}: `unfinished` needs the scores when the match stopped", params=["unfinished"]
        )
    given = names.resolve({same_name(k): v for k, v in scores.items()}, "scores")
    _check_values(given, "scores", where)
    missing = [x for x in seats if x not in given]
    if missing:
        raise ResultError(f"{where}: scores: no score for {', '.join(missing)}")
    final = [given[name] for name in seats]
    countdown = rules.countdown
    over = [seats[i] for i, s in enumerate(final) if (s <= 0 if countdown else s >= target)]
    if countdown and any(s > COUNTDOWN_START for s in final):
        raise ResultError(f"{where}: Countdown scores run from 8 down to 0")
    if over:
        what = "reached 0" if countdown else f"reached the target {target}"
        raise ResultError(
            f"{where}: {', '.join(over)} {what}: the match was finished; enter it "
            "without `unfinished`",
            params=["unfinished"],
        )
    placements = rank_places(final, higher_is_better=not countdown)
    result = Result(tuple(placements), tuple(final), "unfinished", entered_by="hand")
    return CheckedResult(tuple(seats), result)


def _check_values(given: Mapping[str, int], what: str, where: str) -> None:
    negative = [x for x, v in given.items() if v < 0]
    if negative:
        raise ResultError(f"{where}: {what}: negative score for {', '.join(negative)}")
    too_high = [x for x, v in given.items() if v > SCORE_MAX]
    if too_high:
        raise ResultError(f"{where}: {what}: score above {SCORE_MAX:,} for {', '.join(too_high)}")


def _forfeiters(names: _Names, forfeits: Sequence[str], where: str) -> list[int]:
    """The seats of the players who left, in seat order."""
    given = [same_name(name) for name in forfeits]
    unknown = [name for name in given if names.find(name) is None]
    if unknown:
        raise names.unknown(unknown, "forfeit: ")
    seats: list[int] = []
    for name in given:
        seat = names.seats.index(names.find(name) or "")
        if seat in seats:
            raise ResultError(f"{where}: forfeit: {names.seats[seat]} is given twice")
        seats.append(seat)
    if seats and len(seats) >= len(names.seats):
        raise ResultError(
            f"{where}: everyone left the table: that is no result (void the table instead)"
        )
    return sorted(seats)


def _hand_totals(
    names: _Names,
    rules: Rules,
    *,
    target: int,
    hands: Sequence[EnteredHand],
    reports: list[HandReport],
) -> list[int]:
    """The totals of hand-by-hand scores, each hand checked as the engine scores it;
    ``reports`` receives one report per hand."""
    where, seats = names.where, names.seats
    totals = [0] * len(seats)
    for number, hand in enumerate(hands, start=1):
        label = f"hand {number}"
        given = names.resolve({same_name(k): v for k, v in hand.points.items()}, label)
        _check_values(given, label, where)
        points = [given.get(name, 0) for name in seats]
        scorers = [i for i, p in enumerate(points) if p > 0]
        if hand.blocked:
            if len({points[i] for i in scorers}) > 1:
                raise ResultError(
                    f"{where}: {label}: in a blocked hand only the lowest hands score, "
                    "all the same amount"
                )
        elif len(scorers) != 1:
            raise ResultError(
                f"{where}: {label}: only the hand's winner scores (mark a blocked hand "
                f"with 'blocked:'); got points for {len(scorers)} players"
            )
        if max(totals) >= target:
            raise ResultError(
                f"{where}: {label}: the match was over after hand {number - 1} "
                f"({seats[totals.index(max(totals))]} had reached {target})"
            )
        if number > rules.hand_cap:
            raise ResultError(
                f"{where}: {label}: the match stopped at the hand cap after hand {rules.hand_cap}"
            )
        totals = [t + p for t, p in zip(totals, points, strict=True)]
        reports.append(
            HandReport(
                kind="blocked" if hand.blocked else "out",
                winners=tuple(scorers) if scorers or not hand.blocked else tuple(range(len(seats))),
                points=tuple(points),
                penalties=(),
                record="{}",
            )
        )
    return totals


def _ending(
    seats: Sequence[str],
    final: Sequence[int],
    *,
    countdown: bool,
    target: int,
    blocked: bool,
    hands: int,
    rules: Rules,
    where: str,
) -> str:
    """How a match without a forfeit ended; raises if the engine could not end it so."""
    if countdown:
        winners = [seats[i] for i, s in enumerate(final) if s == 0]
        if blocked:
            if winners:
                raise ResultError(
                    f"{where}: a blocked Countdown match ends before anyone reaches 0 "
                    f"(at 0: {', '.join(winners)})"
                )
            return "blocked"
        if len(winners) != 1:
            raise ResultError(
                f"{where}: exactly one player reaches 0 in Countdown "
                f"(at 0: {', '.join(winners) or 'nobody'}; a match blocked before anyone "
                "reached 0 is entered with `blocked`)",
                params=["blocked"],
            )
        return "countdown"
    if any(s >= target for s in final):
        return "target"
    if hands and hands >= rules.hand_cap:
        return "hand_cap"
    raise ResultError(
        f"{where}: nobody reached the target {target} (reached: nobody); a match ends when "
        "someone does (someone left: `forfeit` NAME; stopped early: `unfinished`)",
        params=["forfeit", "unfinished"],
    )


def _forfeited(
    seats: Sequence[str],
    final: Sequence[int],
    *,
    left: Sequence[int],
    countdown: bool,
    target: int,
    where: str,
) -> tuple[str, tuple[int, ...], Forfeit]:
    """A match that ended when the players at ``left`` left the table: the others placed
    by their totals, those who left sharing the last place."""
    if countdown:
        over = [seats[i] for i, s in enumerate(final) if s == 0]
        what = "reached 0"
    else:
        over = [seats[i] for i, s in enumerate(final) if s >= target]
        what = f"reached the target {target}"
    if over:
        raise ResultError(
            f"{where}: {', '.join(over)} {what}: the match was over, so nobody forfeited it "
            "(leaving a finished match is no forfeit)"
        )
    n = len(seats)
    stayed = [i for i in range(n) if i not in left]
    ranked = rank_places([final[i] for i in stayed], higher_is_better=not countdown)
    places = [len(stayed) + 1] * n
    for i, place in zip(stayed, ranked, strict=True):
        places[i] = place
    who = [seats[i] for i in left]
    gone = who[0] if len(who) == 1 else ", ".join(who[:-1]) + " and " + who[-1]
    return "forfeit", tuple(places), Forfeit(left[0], "left", 0, f"{gone} left the table")
