"""Peer side of the engine benchmark: OpenSpiel's ``crazy_eights``.

The game is loaded with ``use_special_cards=True`` (Q skips the next player, A reverses
the direction of play, 2 makes the next player draw two, stackable), ``reshuffle=True``
(the discard pile becomes the new stock when the stock runs out), ``max_draw_cards`` at
its default of 5 and ``max_turns`` at the largest value the game accepts, so that hands
end by a player going out rather than by the card-play limit.

Two ways of playing are measured:

* :func:`python_loop` drives every step from Python (chance outcomes sampled with
  :class:`random.Random`, decisions chosen by a small Python policy);
* :func:`cpp_loop` hands whole games to ``pyspiel.evaluate_bots`` with OpenSpiel's
  uniform random bots, so the game loop runs in C++.

Both return a :class:`BenchResult`. Run ``python benchmarks/peer_openspiel.py`` for a table
at 2, 4 and 7 players. OpenSpiel's returns for this game are not standard Crazy Eights
penalties (cards 2-10 are scored by card index rather than face value, an Ace counts 10),
so only speed and game lengths are compared here, never scores.
"""

from __future__ import annotations

import argparse
import random
import time
from bisect import bisect_left
from types import ModuleType
from typing import TYPE_CHECKING, Literal, TypedDict

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    import pyspiel

GAME_NAME = "crazy_eights"
#: ``max_turns`` is a C++ ``int``: 2**31 - 1 is the largest value the game accepts.
MAX_TURNS = 2**31 - 1
#: Actions 0-51 play card ``rank * 4 + suit``; 52 draws; 53 passes; 54-57 nominate a suit.
NUM_CARD_ACTIONS = 52
DRAW_ACTION = 52
PASS_ACTION = 53
POLICIES: tuple[str, ...] = ("random", "random_playable")
_INSTALL_HINT = "open-spiel is not installed: pip install c8league[bench]"
_SEED_LIMIT = 2**31  # seeds passed to OpenSpiel are C++ ints


class BenchResult(TypedDict):
    """Figures from one benchmark run."""

    loop: Literal["python", "cpp"]
    players: int
    policy: str
    hands: int
    decisions: int
    actions: int
    seconds: float
    hands_per_s: float
    decisions_per_s: float
    actions_per_s: float


def _import_pyspiel() -> ModuleType:
    try:
        import pyspiel
    except ImportError as exc:
        raise RuntimeError(_INSTALL_HINT) from exc
    return pyspiel


def _result(
    loop: Literal["python", "cpp"],
    players: int,
    policy: str,
    hands: int,
    decisions: int,
    actions: int,
    seconds: float,
) -> BenchResult:
    elapsed = max(seconds, 1e-12)
    return BenchResult(
        loop=loop,
        players=players,
        policy=policy,
        hands=hands,
        decisions=decisions,
        actions=actions,
        seconds=seconds,
        hands_per_s=hands / elapsed,
        decisions_per_s=decisions / elapsed,
        actions_per_s=actions / elapsed,
    )


def supported_players() -> tuple[int, int]:
    """Return the (minimum, maximum) number of players the game declares."""
    game_type = _import_pyspiel().load_game(GAME_NAME).get_type()
    return int(game_type.min_num_players), int(game_type.max_num_players)


def load_game(players: int) -> pyspiel.Game:
    """Load ``crazy_eights`` for ``players`` with special cards, reshuffling and no turn limit.

    Raises :class:`ValueError` when ``players`` is outside the range the game declares
    (2-15; the loader itself does not enforce it). Above 5 players the game uses two decks.
    """
    pyspiel_mod = _import_pyspiel()
    low, high = supported_players()
    if not low <= players <= high:
        raise ValueError(f"{GAME_NAME} supports {low}-{high} players, not {players}")
    return pyspiel_mod.load_game(
        GAME_NAME,
        {
            "players": players,
            "use_special_cards": True,
            "reshuffle": True,
            "max_turns": MAX_TURNS,
        },
    )


def _check_hands(hands: int) -> None:
    if hands < 1:
        raise ValueError(f"hands must be at least 1, not {hands}")


def python_loop(players: int, hands: int, seed: int, policy: str) -> BenchResult:
    """Play ``hands`` hands step by step from Python and time them.

    One ``random.Random(seed)`` drives both chance nodes (an outcome sampled with the
    probabilities from ``state.chance_outcomes()``) and decisions:

    * ``"random"``: uniform over ``state.legal_actions()``;
    * ``"random_playable"``: uniform over the legal card plays (actions 0-51) if there is
      one, otherwise uniform over what is legal, which is then either the four suit
      nominations, or draw (52), or pass (53).

    ``decisions`` counts player (non-chance) actions, ``actions`` counts every applied
    action including chance outcomes. The timed region covers creating each initial state,
    sampling, choosing and applying actions.
    """
    if policy not in POLICIES:
        raise ValueError(f"unknown policy {policy!r}; expected one of {POLICIES}")
    _check_hands(hands)
    game = load_game(players)
    pyspiel_mod = _import_pyspiel()
    chance = int(pyspiel_mod.PlayerId.CHANCE)
    terminal = int(pyspiel_mod.PlayerId.TERMINAL)
    playable_only = policy == "random_playable"
    rng = random.Random(seed)
    uniform = rng.random
    choice = rng.choice
    decisions = 0
    actions = 0

    start = time.perf_counter()
    for _ in range(hands):
        state = game.new_initial_state()
        while True:
            player = state.current_player()
            if player == chance:
                outcomes = state.chance_outcomes()
                action = outcomes[-1][0]  # if rounding leaves u >= 0 after the last one
                u = uniform()
                for candidate, probability in outcomes:
                    u -= probability
                    if u < 0.0:
                        action = candidate
                        break
            elif player == terminal:
                break
            else:
                legal = state.legal_actions()
                if playable_only:
                    # legal_actions() is sorted ascending, so card plays come first.
                    n_cards = bisect_left(legal, NUM_CARD_ACTIONS)
                    action = choice(legal[:n_cards]) if n_cards else choice(legal)
                else:
                    action = choice(legal)
                decisions += 1
            state.apply_action(action)
            actions += 1
    elapsed = time.perf_counter() - start
    return _result("python", players, policy, hands, decisions, actions, elapsed)


def cpp_loop(players: int, hands: int, seed: int) -> BenchResult:
    """Play ``hands`` hands inside ``pyspiel.evaluate_bots`` with uniform random bots.

    Each player gets ``pyspiel.make_uniform_random_bot`` (uniform over the legal actions,
    the same policy as ``python_loop(..., policy="random")``); chance nodes are sampled by
    ``evaluate_bots`` itself. Bot seeds and per-hand seeds are drawn from
    ``random.Random(seed)``.

    How decisions are counted: ``evaluate_bots`` plays on the state object it is given and
    leaves it at the terminal position, so after each hand its ``full_history()`` is read
    and the entries whose player is not chance are counted; ``actions`` is the length of
    that history. The counts are therefore exact, not estimated. Reading the history costs
    about as much as playing the hand, so it is done outside the timed region: ``seconds``
    covers only ``new_initial_state()`` and ``evaluate_bots()`` for each hand.
    """
    _check_hands(hands)
    game = load_game(players)
    pyspiel_mod = _import_pyspiel()
    rng = random.Random(seed)
    bots = [
        pyspiel_mod.make_uniform_random_bot(player, rng.randrange(_SEED_LIMIT))
        for player in range(players)
    ]
    evaluate_bots = pyspiel_mod.evaluate_bots
    perf_counter = time.perf_counter
    decisions = 0
    actions = 0
    elapsed = 0.0

    for _ in range(hands):
        hand_seed = rng.randrange(_SEED_LIMIT)
        start = perf_counter()
        state = game.new_initial_state()
        evaluate_bots(state, bots, hand_seed)
        elapsed += perf_counter() - start
        history = state.full_history()
        actions += len(history)
        decisions += sum(1 for step in history if step.player >= 0)
    return _result("cpp", players, "random", hands, decisions, actions, elapsed)


def _calibrated_hands(run: Callable[[int], BenchResult], target_seconds: float) -> int:
    """Return a hand count that should take about ``target_seconds`` of timed work."""
    hands = 4
    while True:
        pilot = run(hands)
        if pilot["seconds"] >= 0.1 * target_seconds or hands >= 1_000_000:
            break
        hands *= 4
    return max(1, round(hands * target_seconds / max(pilot["seconds"], 1e-9)))


def _format_row(label: str, result: BenchResult | None) -> str:
    if result is None:
        cells = ["n/a"] * 7
    else:
        cells = [
            f"{result['hands']}",
            f"{result['decisions'] / result['hands']:.1f}",
            f"{result['actions'] / result['hands']:.1f}",
            f"{result['hands_per_s']:,.0f}",
            f"{result['decisions_per_s']:,.0f}",
            f"{result['actions_per_s']:,.0f}",
            f"{result['seconds']:.2f}",
        ]
    return f"{label:<28}" + "".join(f"{cell:>13}" for cell in cells)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4, 7])
    parser.add_argument("--seed", type=int, default=20240601)
    parser.add_argument(
        "--seconds",
        type=float,
        default=2.0,
        help="timed seconds per Python cell (the C++ cell gets half, plus history reading)",
    )
    args = parser.parse_args(argv)

    low, high = supported_players()
    header = ["hands", "dec/hand", "act/hand", "hands/s", "dec/s", "act/s", "seconds"]
    print(f"OpenSpiel {GAME_NAME}: special cards on, reshuffle on, max_turns={MAX_TURNS}")
    print(f"declared players: {low}-{high}; one process, one core")
    print(f"{'loop / policy':<28}" + "".join(f"{name:>13}" for name in header))
    for players in args.players:
        supported = low <= players <= high
        print(f"-- {players} players" + ("" if supported else " (unsupported)"))
        runs: list[tuple[str, Callable[[int], BenchResult], float]] = [
            (
                "python / random",
                lambda n, p=players: python_loop(p, n, args.seed, "random"),
                args.seconds,
            ),
            (
                "python / random_playable",
                lambda n, p=players: python_loop(p, n, args.seed, "random_playable"),
                args.seconds,
            ),
            (
                "cpp evaluate_bots / uniform",
                lambda n, p=players: cpp_loop(p, n, args.seed),
                args.seconds / 2,
            ),
        ]
        for label, run, target in runs:
            result = run(_calibrated_hands(run, target)) if supported else None
            print(_format_row(label, result), flush=True)


if __name__ == "__main__":
    main()
