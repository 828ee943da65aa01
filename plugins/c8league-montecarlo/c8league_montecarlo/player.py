"""``montecarlo``: determinised Monte Carlo search over the unseen cards.

For each decision with more than one sensible move, the player samples deals of the
cards it cannot see (the other hands with their known sizes, and the stock) that agree
with its observation, sets each deal up as an engine position, plays every candidate
move in it, and plays on for a few moves with a fast rule-of-thumb policy for every
seat. Where a playout stops short of the hand's end, a fitted estimate of each seat's
chance to win the hand takes over; the value of a playout is the player's chance of
winning the match after the hand. Candidates are compared on the same deals, and
sequential halving spends the budget on the moves that still look best. The policy's
own move is the default: another move is chosen only when it beats the default by
``confidence`` standard errors on the shared deals, since most differences between
moves are far smaller than the luck of the cards.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from typing import Final, Literal

from pydantic import Field

from c8league.engine import Hand, Move, Observation, derive_seed
from c8league.players.base import BasePlayer, PlayerOptions
from c8league_montecarlo.knowledge import HandTracker, Knowledge, candidates
from c8league_montecarlo.playout import Policy, copy_position, run, win_chances

OBJECTIVES: Final = ("match", "points", "hand")
HORIZON: Final = 16
"""Default playout length: moves after the one searched, then the hand's end is estimated
(in Countdown, where the hand is the whole match, the match's end)."""

Evaluate = Callable[[Hand], float]


class MonteCarloOptions(PlayerOptions):
    """The bot's options, declared so that c8league checks them when the bot is entered
    in a league (``league import``, ``players add``), before any match is played."""

    playouts: int = Field(800, ge=1, le=10_000_000)
    time_ms: float = Field(0.0, ge=0, le=3_600_000)
    seed: int = Field(0, ge=-(2**63), lt=2**63)
    horizon: int = Field(0, ge=0, le=100_000)
    objective: Literal["match", "points", "hand"] = "match"
    infer: bool = True
    confidence: float = Field(1.5, ge=0, le=1_000)


class MonteCarloPlayer(BasePlayer):
    """Determinised Monte Carlo search: samples deals of the unseen cards consistent with
    what it has seen, and plays every move out with a fast rule-of-thumb policy.

    Options:

    - ``playouts``: playouts per decision, shared among the candidate moves by
      sequential halving (default 800).
    - ``time_ms``: if above 0, search for this many milliseconds per decision instead
      of a fixed number of playouts (the choices then depend on the machine's speed
      and load, so matches no longer repeat from their seed).
    - ``seed``: mixed with the match seed the player is given, so that two entrants of
      this bot with different seeds play differently (default 0).
    - ``horizon``: moves played after the searched one before the hand's end is
      estimated (in Countdown, the match's end); 0 for the default, 16.
    - ``objective``: ``match`` (chance of winning the match from the running totals,
      the default), ``points`` (points won minus the best opponent's), or ``hand``
      (chance of winning the hand). Countdown always plays to win the match.
    - ``infer``: take a player who drew (or passed) instead of playing to have held no
      playable card (default true).
    - ``confidence``: how many standard errors better than the rule-of-thumb move
      another move must look to be chosen (default 1.5; 0 takes the best-looking move).
    """

    name = "montecarlo"
    options_model = MonteCarloOptions

    def __init__(
        self,
        playouts: int = 800,
        time_ms: float = 0.0,
        seed: int = 0,
        horizon: int = 0,
        objective: str = "match",
        infer: bool = True,
        confidence: float = 1.5,
    ) -> None:
        options = MonteCarloOptions.check(
            "montecarlo",
            {
                "playouts": playouts,
                "time_ms": time_ms,
                "seed": seed,
                "horizon": horizon,
                "objective": objective,
                "infer": infer,
                "confidence": confidence,
            },
        )
        self.playouts: int = options["playouts"]
        self.time_ms = float(options["time_ms"])
        self.seed: int = options["seed"]
        self.horizon: int = options["horizon"]
        self.objective: str = options["objective"]
        self.infer: bool = options["infer"]
        self.confidence = float(options["confidence"])
        self._rng = random.Random(derive_seed("montecarlo", self.seed))
        self._tracker: HandTracker | None = None
        self._policy: tuple[object, Policy] | None = None

    # ------------------------------------------------------------------ hooks

    def start_match(self, seat: int, players: int, seed: int) -> None:
        self._rng = random.Random(derive_seed("montecarlo", self.seed, seed))
        self._tracker = None

    def start_hand(self, observation: Observation) -> None:
        self._tracker = HandTracker(observation, observation.top)

    # ------------------------------------------------------------------ choosing

    def choose(self, observation: Observation, legal: Sequence[Move]) -> Move:
        if len(legal) == 1:
            return legal[0]
        obs = observation
        wild = obs.wild_rank
        moves = candidates(legal, len(obs.hand), -1 if wild is None else int(wild))
        if len(moves) == 1:
            return moves[0]
        tracker = self._tracker
        if tracker is None or tracker.hand_number != obs.hand_number:
            starter = obs.top if len(obs.history) == 0 else None
            tracker = self._tracker = HandTracker(obs, starter)
        tracker.update(obs)
        voids = tracker.voids(obs.hand_sizes, obs.seat) if self.infer else None
        knowledge = Knowledge(obs, tracker.played, tracker.starter, voids)
        policy = self._policy_for(obs)
        evaluate = _evaluator(obs, self.objective)
        horizon = self.horizon or HORIZON

        rng = self._rng

        def sample() -> Hand:
            return knowledge.position(knowledge.sample(rng))

        def value(position: Hand, i: int) -> float:
            hand = copy_position(position)
            hand.apply(moves[i])
            run(hand, policy, horizon)
            return evaluate(hand)

        suggested = policy.choose(sample())
        default = moves.index(suggested) if suggested in moves else 0
        if self.time_ms > 0:
            seconds = self.time_ms / 1000.0
            chosen = _timed(len(moves), default, sample, value, seconds, self.confidence)
        else:
            chosen = _halving(len(moves), default, sample, value, self.playouts, self.confidence)
        return moves[chosen]

    def _policy_for(self, obs: Observation) -> Policy:
        key = (obs.rules, obs.players)
        cached = self._policy
        if cached is None or cached[0] != key:
            cached = self._policy = (key, Policy(obs.rules, obs.players))
        return cached[1]


class Tally:
    """Playout values of each candidate on shared deals, paired with the default move's."""

    __slots__ = ("default", "diff", "diff_sq", "plays", "total")

    def __init__(self, count: int, default: int) -> None:
        self.default = default
        self.total = [0.0] * count
        self.plays = [0] * count
        self.diff = [0.0] * count
        self.diff_sq = [0.0] * count

    def add(self, values: dict[int, float]) -> None:
        base = values[self.default]
        for i, v in values.items():
            self.total[i] += v
            self.plays[i] += 1
            d = v - base
            self.diff[i] += d
            self.diff_sq[i] += d * d

    def mean(self, i: int) -> float:
        return self.total[i] / self.plays[i] if self.plays[i] else -math.inf

    def margin(self, i: int) -> float:
        """How many standard errors ``i`` is better than the default (paired)."""
        n = self.plays[i]
        if i == self.default or n < 2:
            return 0.0
        mean = self.diff[i] / n
        var = max(self.diff_sq[i] / n - mean * mean, 0.0) * n / (n - 1)
        if var == 0.0:
            return math.inf if mean > 0 else (-math.inf if mean < 0 else 0.0)
        return mean / math.sqrt(var / n)

    def best(self, alive: Sequence[int], confidence: float) -> int:
        """The best-looking move if it beats the default with ``confidence``, else the default."""
        challengers = [i for i in alive if i != self.default]
        if not challengers:
            return self.default
        top = max(challengers, key=self.mean)
        return top if self.margin(top) > confidence else self.default


def _halving(
    count: int,
    default: int,
    sample: Callable[[], Hand],
    value: Callable[[Hand, int], float],
    budget: int,
    confidence: float,
) -> int:
    """Sequential halving on shared deals: each round shares its part of the budget
    equally among the moves left, then the worse half of the challengers drops out (the
    default move always stays). Returns the index of the move chosen."""
    tally = Tally(count, default)
    rounds = max(1, math.ceil(math.log2(count)))
    alive = list(range(count))
    for _ in range(rounds):
        share = max(1, budget // (rounds * len(alive)))
        for _ in range(share):
            position = sample()
            tally.add({i: value(position, i) for i in alive})
        challengers = sorted((i for i in alive if i != default), key=tally.mean, reverse=True)
        keep = challengers[: max(1, len(challengers) // 2)]
        alive = [default, *keep]
        if len(alive) <= 2 and len(challengers) <= 1:
            break
    return tally.best(alive, confidence)


def _timed(
    count: int,
    default: int,
    sample: Callable[[], Hand],
    value: Callable[[Hand, int], float],
    seconds: float,
    confidence: float,
) -> int:
    """Every move on each deal until the time is up (at least two deals)."""
    deadline = time.perf_counter() + seconds
    tally = Tally(count, default)
    moves = range(count)
    deals = 0
    while deals < 2 or time.perf_counter() < deadline:
        position = sample()
        tally.add({i: value(position, i) for i in moves})
        deals += 1
    return tally.best(list(moves), confidence)


# ---------------------------------------------------------------------- evaluation


def _evaluator(obs: Observation, objective: str) -> Evaluate:
    """The value of a playout's end for the observing seat (higher is better)."""
    seat = obs.seat
    if obs.rules.countdown:
        return lambda hand: _countdown_value(hand, seat)
    if objective == "hand":
        return lambda hand: _hand_value(hand, seat)
    if objective == "points":
        return lambda hand: _points_value(hand, seat)
    totals = obs.scores
    target = obs.target
    return lambda hand: _match_value(hand, seat, totals, target)


def _hand_value(hand: Hand, seat: int) -> float:
    return win_chances(hand)[seat]


def _outcomes(hand: Hand) -> list[tuple[float, tuple[int, ...]]]:
    """The hand's end as (probability, points) pairs; a playout cut short ends with
    each seat winning by its estimated chance and collecting the others' penalties."""
    result = hand.result
    if result is not None:
        return [(1.0, result.points)]
    penalties = hand.penalties()
    total = sum(penalties)
    n = hand.n
    return [
        (chance, tuple(total - penalties[w] if i == w else 0 for i in range(n)))
        for w, chance in enumerate(win_chances(hand))
    ]


def _points_value(hand: Hand, seat: int) -> float:
    value = 0.0
    for chance, points in _outcomes(hand):
        others = max(p for i, p in enumerate(points) if i != seat)
        value += chance * (points[seat] - others) / 100.0
    return value


def _match_value(hand: Hand, seat: int, totals: Sequence[int], target: int) -> float:
    value = 0.0
    for chance, points in _outcomes(hand):
        after = [t + p for t, p in zip(totals, points, strict=True)]
        value += chance * match_equity(after, target, seat)
    return value


def match_equity(totals: Sequence[int], target: int, seat: int) -> float:
    """An estimate of ``seat``'s chance to win the match from running ``totals``.

    A finished match is won by the highest total. Otherwise each seat needs
    ``target - total`` more points; the estimate is a logistic race in which a point
    gap weighs more the closer the players are to the target."""
    top = max(totals)
    if top >= target:
        if totals[seat] != top:
            return 0.0
        return 1.0 / sum(1 for t in totals if t == top)
    players = len(totals)
    needed = [(target - t) / target for t in totals]
    spread = math.sqrt(sum(needed) / players) + 0.1
    weights = [math.exp(-_EQUITY_SLOPE * k / spread) for k in needed]
    return weights[seat] / sum(weights)


_EQUITY_SLOPE: Final = 3.0


def _countdown_value(hand: Hand, seat: int) -> float:
    """Countdown: 1 for a win, 0 for a loss; a playout cut short is estimated from the
    cards each seat still has to shed (its hand, then score - 1, score - 2, … 1)."""
    result = hand.result
    if result is not None:
        if seat not in result.winners:
            return 0.0
        return 1.0 / len(result.winners)
    scores = hand.scores
    distance = [len(h) + s * (s - 1) // 2 for h, s in zip(hand.hands, scores, strict=True)]
    mine = distance[seat]
    best_other = min(d for i, d in enumerate(distance) if i != seat)
    return 1.0 / (1.0 + math.exp((mine - best_other) / 4.0))


__all__ = ["OBJECTIVES", "MonteCarloPlayer", "match_equity"]
