"""Engine speed: full hands through the same observation and legal-move interface bots use.

Policies: ``random_playable`` (a uniformly random legal play if there is one, else a
uniformly random legal move: draw, pass or a nomination) and ``random`` (uniformly random
over all legal moves), written into the loop as in the peer's loop. Also ``greedy`` (the
built-in rule-of-thumb player, called as a function) to show the cost of a real player.
The rules are the default preset (special cards on, reshuffle on).

The figures are for the engine this process imports: compiled (the default build) or
its source (``C8LEAGUE_PURE=1``, or an install without a C compiler); the first line
says which. Compare both with ``C8LEAGUE_PURE=1 python benchmarks/engine.py``.

In the same run it measures OpenSpiel's ``crazy_eights`` (special cards and reshuffle on,
no turn limit) driven from Python with the same two policies and through its C++ loop
(``pyspiel.evaluate_bots`` with uniform random bots), and prints the ratios of
decisions per second; the row ``random/in-engine`` (uniformly random moves played by
``Hand.play_out``, the loop inside the engine) is the one set beside the C++ loop.
OpenSpiel counts a suit nomination as a decision of its own; our engine folds it into
the play of the eight, so decisions are comparable per policy but not one for one.
Scores are never compared (OpenSpiel's returns are not standard).

Run: ``python benchmarks/engine.py [--seconds 2] [--players 2 4 7]``.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from c8league import about
from c8league.engine import Hand, Move, Observation, Rules

Policy = Callable[[Observation, list[Move], random.Random], Move]
POLICIES = ("random_playable", "random")


def engine_loop(
    players: int, hands: int, seed: int, policy: str | Policy, rules: Rules
) -> dict[str, float]:
    """Play ``hands`` full hands. Every decision builds the acting seat's observation and
    its legal moves, as a player is handed them.

    The two random policies are written into the loop, as in the peer's Python loop
    (``peer_openspiel.python_loop``), with the same ``rng.choice``: ``random`` is uniform
    over the legal moves; ``random_playable`` is uniform over the plays if there are any.
    Legal moves list the plays first, then at most one draw or pass, so the plays are
    ``legal[:-1]`` or all of ``legal`` (the peer bisects its sorted action list).
    ``engine_loop`` plays uniformly random moves with :meth:`Hand.play_out`, the loop
    inside the (compiled) engine, to set beside the peer's C++ loop: no observation is
    built, as ``evaluate_bots`` hands its bots the whole state. Any other policy is a
    callable ``(observation, legal, rng) -> move``.
    """
    rng = random.Random(seed)
    choice = rng.choice
    decisions = 0
    start = time.perf_counter()
    for i in range(hands):
        hand = Hand.deal(rules, players, dealer=i % players, seed=seed + i)
        if policy == "random":
            while hand.result is None:
                legal = hand.legal_moves()
                hand.observation(hand.current)
                hand.apply(choice(legal))
                decisions += 1
        elif policy == "random_playable":
            while hand.result is None:
                legal = hand.legal_moves()
                hand.observation(hand.current)
                if legal[0].is_play and not legal[-1].is_play:
                    hand.apply(choice(legal[:-1]))
                else:
                    hand.apply(choice(legal))
                decisions += 1
        elif policy == "engine_loop":
            decisions += hand.play_out(rng)
        elif callable(policy):
            while hand.result is None:
                legal = hand.legal_moves()
                hand.apply(policy(hand.observation(hand.current), legal, rng))
                decisions += 1
        else:
            raise ValueError(f"unknown policy {policy!r}")
    seconds = time.perf_counter() - start
    return {
        "hands": hands,
        "decisions": decisions,
        "seconds": seconds,
        "hands_per_s": hands / seconds,
        "decisions_per_s": decisions / seconds,
    }


def greedy_policy() -> Policy:
    from c8league.players.greedy import GreedyPlayer

    player = GreedyPlayer()
    return lambda obs, legal, rng: player.choose(obs, legal)


def calibrated(run: Callable[[int], dict[str, float]], seconds: float) -> dict[str, float]:
    trial = run(5)
    hands = max(5, int(5 * seconds / max(trial["seconds"], 1e-6)))
    return run(hands)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per cell")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4, 7])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-peer", action="store_true", help="skip OpenSpiel")
    args = parser.parse_args(argv)
    print(f"{about.header()}; one process, one core", flush=True)
    rules = Rules.from_options("pagat", {"turn_cap": 100_000})
    peer = None
    if not args.no_peer:
        try:
            import peer_openspiel as peer_module

            peer_module.load_game(2)
            peer = peer_module
        except (ImportError, RuntimeError) as exc:
            print(f"OpenSpiel not measured: {exc}")
    policies: dict[str, str | Policy] = {
        "random_playable": "random_playable",
        "random": "random",
        "greedy": greedy_policy(),
        "random/in-engine": "engine_loop",
    }
    header = f"{'players':>7} {'policy':<17} {'hands/s':>10} {'decisions/s':>12} {'dec/hand':>9}"
    if peer is not None:
        header += f" {'OS-py dec/s':>12} {'ratio':>6} {'OS-C++ dec/s':>13} {'ratio':>6}"
    print(header)
    for players in args.players:
        cpp = None
        if peer is not None:
            cpp = peer._calibrated_hands
            hands = cpp(lambda h, p=players: peer.cpp_loop(p, h, args.seed), args.seconds)
            cpp = peer.cpp_loop(players, hands, args.seed)
        for name, policy in policies.items():
            ours = calibrated(
                lambda h, p=players, pol=policy: engine_loop(p, h, args.seed, pol, rules),
                args.seconds,
            )
            line = (
                f"{players:>7} {name:<17} {ours['hands_per_s']:>10,.0f} "
                f"{ours['decisions_per_s']:>12,.0f} {ours['decisions'] / ours['hands']:>9.1f}"
            )
            if peer is not None and cpp is not None and policy == "engine_loop":
                line += (
                    f" {'':>12} {'':>6} {cpp['decisions_per_s']:>13,.0f}"
                    f" {ours['decisions_per_s'] / cpp['decisions_per_s']:>6.2f}"
                )
            elif peer is not None and cpp is not None and name in peer.POLICIES:
                hands = peer._calibrated_hands(
                    lambda h, p=players, n=name: peer.python_loop(p, h, args.seed, n),
                    args.seconds,
                )
                py = peer.python_loop(players, hands, args.seed, name)
                line += (
                    f" {py['decisions_per_s']:>12,.0f}"
                    f" {ours['decisions_per_s'] / py['decisions_per_s']:>6.2f}"
                    f" {cpp['decisions_per_s']:>13,.0f}"
                    f" {ours['decisions_per_s'] / cpp['decisions_per_s']:>6.2f}"
                )
            print(line, flush=True)


if __name__ == "__main__":
    main()
