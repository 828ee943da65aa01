"""Results entered by hand: reading a score sheet as typed (final scores, or hand by hand)
and checking it against the table and the rules. Pure: nothing here touches storage;
every bad entry raises :class:`ResultError` naming what is wrong."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from c8league.engine import Rules
from c8league.engine.match import placements as rank_places
from c8league.engine.rules import COUNTDOWN_START
from c8league.errors import ResultError
from c8league.names import printable, same_name
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
    """A result as entered: final scores or hand-by-hand scores, and who left, if anyone."""

    scores: Mapping[str, int] | None = None
    hands: Sequence[EnteredHand] | None = None
    forfeit: str | None = None
    note: str = ""


def parse_scores(text: str) -> dict[str, int]:
    """``"Ada=200, Ben=150"`` → ``{"Ada": 200, "Ben": 150}``."""
    result: dict[str, int] = {}
    for item in [p.strip() for p in text.split(",") if p.strip()]:
        raw, sep, value = item.rpartition("=")
        name = same_name(raw.strip())
        if not sep or not name:
            raise ResultError(f"expected name=score, got {item!r}")
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
            hands.append(EnteredHand(parse_scores(body), blocked))
        except ResultError as exc:
            raise ResultError(f"hand {number}: {exc}") from None
    if not hands:
        raise ResultError("no hands given")
    return hands


@dataclass(frozen=True)
class CheckedResult:
    """An entered result that passed the checks: the names seated, in seat order, and the
    result to store."""

    seats: tuple[str, ...]
    result: Result

    def to_dict(self) -> dict[str, Any]:
        """The result by name, as the audit trail keeps it."""
        r = self.result
        return {
            "scores": dict(zip(self.seats, r.scores, strict=True)),
            "placements": dict(zip(self.seats, r.placements, strict=True)),
            "hands": [dict(zip(self.seats, h.points, strict=True)) for h in r.hands],
            "forfeit": None if r.forfeit is None else self.seats[r.forfeit.seat],
        }


def check_result(
    seats: Sequence[str],
    rules: Rules,
    *,
    scores: Mapping[str, int] | None = None,
    hands: Sequence[EnteredHand] | None = None,
    forfeit: str | None = None,
    where: str = "result",
) -> CheckedResult:
    """Validate an entered result for a table seating ``seats`` (in order); raises
    :class:`ResultError` naming the problem."""
    seat_of = {name: i for i, name in enumerate(seats)}
    scores = None if scores is None else {same_name(k): v for k, v in scores.items()}
    hands = (
        None
        if hands is None
        else [EnteredHand({same_name(k): v for k, v in h.points.items()}, h.blocked) for h in hands]
    )
    forfeit = None if forfeit is None else same_name(forfeit)
    n = len(seats)
    countdown = rules.countdown
    target = COUNTDOWN_START if countdown else rules.target_for(n)

    def check_names(given: Mapping[str, int], what: str, partial: bool = False) -> None:
        unknown = [printable(x) for x in given if x not in seat_of]
        if unknown:
            raise ResultError(
                f"{where}: {what}: {', '.join(unknown)} not seated at this table "
                f"(seated: {', '.join(seats)})"
            )
        missing = [x for x in seats if x not in given]
        if missing and not partial:
            raise ResultError(f"{where}: {what}: no score for {', '.join(missing)}")
        negative = [x for x, v in given.items() if v < 0]
        if negative:
            raise ResultError(f"{where}: {what}: negative score for {', '.join(negative)}")
        too_high = [x for x, v in given.items() if v > SCORE_MAX]
        if too_high:
            raise ResultError(
                f"{where}: {what}: score above {SCORE_MAX:,} for {', '.join(too_high)}"
            )

    if scores is not None and hands is not None:
        raise ResultError(f"{where}: give final scores or hand-by-hand scores, not both")
    if scores is None and hands is None:
        raise ResultError(f"{where}: no scores given")
    if forfeit is not None and forfeit not in seat_of:
        raise ResultError(f"{where}: {printable(forfeit)} is not seated at this table")
    reports: list[HandReport] = []
    if hands is not None:
        if countdown:
            raise ResultError(f"{where}: a Countdown match is one long hand: enter final scores")
        totals = [0] * n
        for number, hand in enumerate(hands, start=1):
            label = f"hand {number}"
            check_names(hand.points, label, partial=True)
            points = [hand.points.get(name, 0) for name in seats]
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
            totals = [t + p for t, p in zip(totals, points, strict=True)]
            reports.append(
                HandReport(
                    "blocked" if hand.blocked else "out",
                    tuple(scorers),
                    tuple(points),
                    (),
                    "{}",
                )
            )
        final = totals
    else:
        assert scores is not None
        check_names(scores, "final scores")
        final = [scores[name] for name in seats]
    if forfeit is None:
        if countdown:
            if any(s > COUNTDOWN_START for s in final):
                raise ResultError(f"{where}: Countdown scores run from 8 down to 0")
            winners = [seats[i] for i, s in enumerate(final) if s == 0]
            if len(winners) != 1:
                raise ResultError(
                    f"{where}: exactly one player must reach 0 in Countdown "
                    f"(at 0: {', '.join(winners) or 'nobody'})"
                )
        else:
            reached = [seats[i] for i, s in enumerate(final) if s >= target]
            if len(reached) != 1:
                raise ResultError(
                    f"{where}: exactly one player must reach the target {target} "
                    f"(reached: {', '.join(reached) or 'nobody'})"
                )
        places = rank_places(final, higher_is_better=not countdown)
        lost = None
    else:
        loser = seat_of[forfeit]
        others = [i for i in range(n) if i != loser]
        ranked = rank_places([final[i] for i in others], higher_is_better=not countdown)
        place_list = [0] * n
        for i, p in zip(others, ranked, strict=True):
            place_list[i] = p
        place_list[loser] = n
        places = tuple(place_list)
        lost = Forfeit(loser, "left", 0, f"{forfeit} left the table")
    result = Result(
        tuple(places),
        tuple(final),
        "forfeit" if lost is not None else "target",
        tuple(reports),
        forfeit=lost,
        entered_by="hand",
    )
    return CheckedResult(tuple(seats), result)
