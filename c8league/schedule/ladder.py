"""A ladder's matchmaking: the tables of its next step, from its entrants' ratings and
how much each has played (see docs/ladder.md).

A step is :data:`STEP_TABLES` tables of ``size`` seats (fewer entrants than seats:
every entrant at one table). Its tables are made one after another; each begins with
its *anchor*, the entrant who most needs a match:

1. an entrant below ``min_matches`` matches (a newcomer: its rating says little yet),
   the fewest first;
2. otherwise the entrant who has waited longest: the fewest matches planned in this
   step, then the oldest last match, so that every active entrant plays regularly.

The other seats are filled one at a time with the entrant that makes the table whose
outcome the ratings are least sure of: the highest match quality (``quality``: how
even the table is, TrueSkill's draw probability relative to its highest) times the
table's mean uncertainty (σ over the initial σ), halved for each table of this step
the entrant already sits at. Ties go by an order drawn from the seed, the step and the
entrant: the same entrants, ratings, counts and seed give the same tables.
"""

from __future__ import annotations

import hashlib
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


def next_step(
    rungs: Sequence[Rung],
    *,
    size: int,
    step: int,
    seed: int,
    quality: Quality,
    initial_sigma: float,
    tables: int = STEP_TABLES,
    min_matches: int = MIN_MATCHES,
) -> list[tuple[int, ...]]:
    """The tables of step ``step`` (each entrant ids in seat order): see the module."""
    if len(rungs) < 2:
        return []
    size = min(size, len(rungs))
    order = {r.entrant: _drawn(seed, step, r.entrant) for r in rungs}
    planned = dict.fromkeys(order, 0)
    made: list[tuple[int, ...]] = []
    for _ in range(tables):
        anchor = min(rungs, key=lambda r: _need(r, planned, order, min_matches))
        table = [anchor]
        while len(table) < size:
            others = [r for r in rungs if r not in table]
            best = max(
                others,
                key=lambda r: (
                    _uncertainty([*table, r], quality, initial_sigma) / 2 ** planned[r.entrant],
                    -order[r.entrant],
                ),
            )
            table.append(best)
        for rung in table:
            planned[rung.entrant] += 1
        made.append(_seated(table, step, seed))
    return made


def _need(
    rung: Rung, planned: dict[int, int], order: dict[int, int], min_matches: int
) -> tuple[int, int, int, int, int]:
    """How much ``rung`` needs a match, lowest first: a newcomer before the others (the
    fewest matches first), then the fewest planned in this step, the oldest last match."""
    played = rung.matches + planned[rung.entrant]
    newcomer = played < min_matches
    return (
        0 if newcomer else 1,
        played if newcomer else 0,
        planned[rung.entrant],
        rung.last_step,
        order[rung.entrant],
    )


def _uncertainty(table: Sequence[Rung], quality: Quality, initial_sigma: float) -> float:
    """How unsure the ratings are of the table's outcome: its quality times its mean σ
    (relative to the initial σ)."""
    mean_sigma = sum(r.sigma for r in table) / len(table)
    return quality(table) * mean_sigma / initial_sigma


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
