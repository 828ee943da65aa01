"""A ladder's matchmaking: the tables of its next step, from its entrants' ratings and
how much each has played (see docs/ladder.md).

A step is :data:`STEP_TABLES` tables of ``size`` seats (fewer entrants than seats:
every entrant at one table). Its tables are made one after another; each begins with
its *anchor*, the entrant who most needs a match:

1. an entrant below ``min_matches`` matches (a newcomer: its rating says little yet),
   the fewest first;
2. an entrant with no table yet in this step, the oldest last match first, so that
   every active entrant plays in every step;
3. otherwise the entrant whose place the ratings are least sure of: the highest sum,
   over the other entrants, of the chance that the ratings order the two wrongly
   (:func:`misorder`), halved for each table of this step it already sits at.

The other seats are filled one at a time with the entrant whose order against those
already seated the ratings are least sure of: the highest sum of the chances that the
ratings order it and each of them wrongly, halved for each table of this step it
already sits at and quartered for each table of this step at which it already meets
one of them (so that a step's tables do not keep the same pairs apart from the rest,
whose ratings would then drift apart unchecked). Ties go by an order drawn from the
seed, the step and the entrant: the same entrants, ratings, counts and seed give the
same tables.

``benchmarks/ladder.py`` measures how many matches this takes to find the true order
of bots of known strength, against round-robin cycles and random tables.
"""

from __future__ import annotations

import hashlib
import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

STEP_TABLES = 16
"""Tables in a step: the matches a ladder plays at once (whatever the workers, so that
its matches are the same on any machine)."""
MIN_MATCHES = 10
"""Below this many matches an entrant is a newcomer, seated first."""


@dataclass(frozen=True, slots=True)
class Rung:
    """An entrant of the ladder as its matchmaking sees it."""

    entrant: int
    mu: float
    sigma: float
    matches: int
    """Matches played in the ladder."""
    last_step: int
    """The step of its last match (0: none)."""


Quality = Callable[[Sequence[Rung]], float]
"""How even a table is, from 0 to 1 (``RatingModel.quality`` of its ratings)."""

SEAT_HALVING = 2.0
"""An entrant's claim to a seat is divided by this for each table of the step it
already sits at."""
MEETING_HALVING = 4.0
"""... and by this for each table of the step at which it already meets one of those
seated."""


def misorder(a: Rung, b: Rung) -> float:
    """The chance that the ratings order ``a`` and ``b`` wrongly: that the one rated
    lower has the higher skill, Φ(−|μa − μb| / √(σa² + σb²)) (½ for equal ratings)."""
    spread = math.sqrt(a.sigma * a.sigma + b.sigma * b.sigma)
    return 0.5 * math.erfc(abs(a.mu - b.mu) / spread / math.sqrt(2.0))


def next_step(
    rungs: Sequence[Rung],
    *,
    size: int,
    step: int,
    seed: int,
    quality: Quality | None = None,
    initial_sigma: float = 25.0 / 3.0,
    tables: int = STEP_TABLES,
    min_matches: int = MIN_MATCHES,
) -> list[tuple[int, ...]]:
    """The tables of step ``step`` (each entrant ids in seat order): see the module.

    ``quality`` and ``initial_sigma`` are not used: tables were chosen by their match
    quality and σ before the chance of misordering replaced them (callers still pass
    them)."""
    del quality, initial_sigma
    if len(rungs) < 2:
        return []
    size = min(size, len(rungs))
    order = {r.entrant: _drawn(seed, step, r.entrant) for r in rungs}
    planned = dict.fromkeys(order, 0)
    met: dict[tuple[int, int], int] = {}
    unsure = {r.entrant: sum(misorder(r, o) for o in rungs if o is not r) for r in rungs}
    made: list[tuple[int, ...]] = []
    for _ in range(tables):
        anchor = min(rungs, key=lambda r: _need(r, planned, order, unsure, min_matches))
        table = [anchor]
        while len(table) < size:
            others = [r for r in rungs if r not in table]
            best = max(others, key=lambda r: (_claim(r, table, planned, met), -order[r.entrant]))
            table.append(best)
        for rung in table:
            planned[rung.entrant] += 1
        for a, b in itertools.combinations(table, 2):
            met[_pair(a, b)] = met.get(_pair(a, b), 0) + 1
        made.append(_seated(table, step, seed))
    return made


def _need(
    rung: Rung,
    planned: dict[int, int],
    order: dict[int, int],
    unsure: dict[int, float],
    min_matches: int,
) -> tuple[int, float, int]:
    """How much ``rung`` needs a match, lowest first: a newcomer before the others (the
    fewest matches first), then an entrant with no table in this step (the oldest last
    match first), then the one whose place is least sure."""
    played = rung.matches + planned[rung.entrant]
    if played < min_matches:
        return (0, played, order[rung.entrant])
    if not planned[rung.entrant]:
        return (1, rung.last_step, order[rung.entrant])
    return (2, -unsure[rung.entrant] / SEAT_HALVING ** planned[rung.entrant], order[rung.entrant])


def _claim(
    rung: Rung, table: Sequence[Rung], planned: dict[int, int], met: dict[tuple[int, int], int]
) -> float:
    """How much the ratings would learn from seating ``rung`` at ``table``: the chances
    that they order it and each one seated wrongly, less for its tables and its
    meetings with them already in this step."""
    meetings = sum(met.get(_pair(rung, t), 0) for t in table)
    chances = sum(misorder(rung, t) for t in table)
    return chances / SEAT_HALVING ** planned[rung.entrant] / MEETING_HALVING**meetings


def _pair(a: Rung, b: Rung) -> tuple[int, int]:
    return (a.entrant, b.entrant) if a.entrant < b.entrant else (b.entrant, a.entrant)


def _seated(table: Sequence[Rung], step: int, seed: int) -> tuple[int, ...]:
    """The table's seats: its entrants in an order drawn from the seed and the step (who
    deals and who follows whom is luck, spread over steps)."""
    return tuple(
        r.entrant for r in sorted(table, key=lambda r: _drawn(seed, step, r.entrant, "seat"))
    )


def _drawn(seed: int, step: int, entrant: int, what: str = "order") -> int:
    """A number drawn from the seed, the step and the entrant (SHA-256: the same on any
    machine, in any process)."""
    text = f"{seed}:{step}:{entrant}:{what}".encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "big")
