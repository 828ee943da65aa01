"""Tests of the montecarlo bot: legal play under every rule set, reproducibility, its
knowledge of the hidden cards, option checking, and an edge over greedy."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

import pytest
from c8league_montecarlo import MonteCarloPlayer
from c8league_montecarlo.knowledge import HandTracker, Knowledge, candidates
from c8league_montecarlo.playout import Policy, copy_position, run

from c8league.engine import DRAW, Hand, Match, Move, Observation, Rules, derive_seed
from c8league.errors import PluginError
from c8league.players.base import Player
from c8league.players.greedy import GreedyPlayer
from c8league.players.registry import create, only_registered
from c8league.runner.conformance import assert_conforms
from c8league.runner.loop import MatchOutcome, play_match

PRESETS = ["pagat", "basic", "encyclopedia", "olsen", "countdown"]
FAST = 8


class Strict(MonteCarloPlayer):
    """The bot, failing the test at once if it ever returns a move that is not legal."""

    def choose(self, observation: Observation, legal: Sequence[Move]) -> Move:
        move = super().choose(observation, legal)
        assert move in legal, f"{move} is not legal"
        return move


def moves_of(outcome: MatchOutcome) -> list[tuple[str, ...]]:
    return [record.moves for record in outcome.records]


@pytest.mark.parametrize("preset", PRESETS)
def test_plays_full_matches_under_every_preset(preset: str) -> None:
    rules = Rules.from_options(preset)
    players = [Strict(playouts=FAST), GreedyPlayer(), Strict(playouts=FAST, seed=1)]
    outcome = play_match(rules, players, seed=11)
    assert outcome.forfeit is None
    assert outcome.result.ended in ("target", "countdown")


def test_passes_the_conformance_check() -> None:
    """Legal moves only, no crash, the same choices from the same seed: two seeded
    matches per preset at tables of two and three, in different seats."""
    assert_conforms(MonteCarloPlayer, {"playouts": FAST}, games=2)


@pytest.mark.parametrize(
    "options",
    [
        {"draw": "one_then_play", "wild_nominates": "if_matching", "multiple_equal": True},
        {"draw": "up_to", "must_play_if_able": True, "empty_stock": "pass"},
        {"draw": "until_playable", "wild_must_match": True, "draw_five_card": "KH"},
        {"wild_nominates": "never", "starter_eight": "any_card", "last_card": False},
        {"decks": 2, "target": 60, "wild_rank": "J", "specials_on_going_out": "forbidden"},
    ],
)
def test_plays_full_matches_under_house_rules(options: dict[str, str | bool | int]) -> None:
    rules = Rules.from_options("pagat", options)
    outcome = play_match(
        rules, [Strict(playouts=FAST), GreedyPlayer(), Strict(playouts=FAST)], seed=5
    )
    assert outcome.forfeit is None


def test_same_seed_same_choices() -> None:
    rules = Rules.from_options("pagat")

    def play(bot_seed: int) -> list[tuple[str, ...]]:
        players = [MonteCarloPlayer(playouts=FAST, seed=bot_seed), GreedyPlayer()]
        return moves_of(play_match(rules, players, seed=3))

    first = play(0)
    assert play(0) == first
    assert play(7) != first  # its own seed option changes its sampling, hence some choices


def test_choices_do_not_depend_on_earlier_matches() -> None:
    rules = Rules.from_options("basic")
    bot = MonteCarloPlayer(playouts=FAST)
    play_match(rules, [bot, GreedyPlayer()], seed=1)
    again = moves_of(play_match(rules, [bot, GreedyPlayer()], seed=2))
    fresh = moves_of(play_match(rules, [MonteCarloPlayer(playouts=FAST), GreedyPlayer()], seed=2))
    assert again == fresh


def test_a_single_legal_move_is_returned_at_once() -> None:
    hand = Hand.from_position(
        Rules.from_options("pagat"), ["3C 4C", "9D 9H"], discard="5S", stock="KD KS"
    )
    assert hand.legal_moves() == [DRAW]
    bot = MonteCarloPlayer()
    state = bot._rng.getstate()
    assert bot.choose(hand.observation(hand.current), [DRAW]) is DRAW
    assert bot._rng.getstate() == state  # no search was made


def test_a_time_budget_gives_a_legal_move() -> None:
    outcome = play_match(
        Rules.from_options("pagat", {"target": 30}),
        [Strict(time_ms=2), GreedyPlayer()],
        seed=4,
    )
    assert outcome.forfeit is None


def test_candidates() -> None:
    def search(texts: str, hand_size: int = 2) -> list[str]:
        legal = [Move.parse(text) for text in texts.split()]
        return [str(m) for m in candidates(legal, hand_size, 8)]

    # The last-card call is always made; no drawing while a card can be played.
    assert search("5S 5S! 8H:C 8H:C! 8H:S 8H:S! draw") == ["5S!"]
    # Wild cards only when nothing else fits, or to go out.
    assert search("8H:C 8H:S draw", 3) == ["8H:C", "8H:S"]
    assert search("5S 8H", 1) == ["5S", "8H"]
    assert search("5S 9S draw", 3) == ["5S", "9S"]
    assert search("draw") == ["draw"]


def test_knowledge_matches_the_hidden_cards() -> None:
    """The unseen cards are exactly the other hands, the stock and the buried discard
    pile; what greedy players' draws say about their hands is always true of them."""
    rules = Rules.from_options("pagat")
    greedy = GreedyPlayer()
    checked = 0
    for seed in range(6):
        match = Match(rules, 3, seed)
        tracker: HandTracker | None = None
        while not match.over:
            hand = match.hand
            if tracker is None or tracker.hand_number != hand.hand_number:
                tracker = HandTracker(hand.observation(0), hand.discard[0])
            obs = hand.observation(hand.current)
            if hand.current == 0:
                tracker.update(obs)
                voids = tracker.voids(obs.hand_sizes, 0)
                knowledge = Knowledge(obs, tracker.played, tracker.starter, voids)
                hidden = Counter(hand.stock) + Counter(c for h in hand.hands[1:] for c in h)
                hidden += Counter(hand.discard[: len(hand.discard) - len(knowledge.discard)])
                assert knowledge.discard == hand.discard[-len(knowledge.discard) :]
                assert Counter(knowledge.unseen) == hidden
                for seat, layers in voids.items():
                    for void in layers:
                        assert sum(void.allows(c) for c in hand.hands[seat]) >= void.held
                checked += 1
            match.apply(greedy.choose(obs, hand.legal_moves()))
    assert checked > 100


def test_sampled_deals_agree_with_the_observation() -> None:
    rules = Rules.from_options("olsen")
    match = Match(rules, 4, seed=9)
    greedy = GreedyPlayer()
    for _ in range(30):
        match.apply(greedy.choose(match.observation(match.current), match.legal_moves()))
    hand = match.hand
    obs = hand.observation(hand.current)
    knowledge = Knowledge(obs, [c for _, m in obs.history for c in m.cards], hand.discard[0])
    rng = random.Random(1)
    for _ in range(20):
        position = knowledge.position(knowledge.sample(rng))
        assert [len(h) for h in position.hands] == list(obs.hand_sizes)
        assert position.hands[obs.seat] == list(obs.hand)
        assert len(position.stock) == obs.stock_size
        assert position.discard[-1] == obs.top
        assert position.legal_moves() == hand.legal_moves()


def test_a_copied_position_plays_like_a_fresh_set_up() -> None:
    """Playing out a copy leaves the position unchanged, and plays exactly like the same
    position set up anew (copies share the random generator used for reshuffles)."""
    rules = Rules.from_options("countdown")
    original = Hand.deal(rules, 3, seed=8)
    policy = Policy(rules, 3)
    run(original, policy, 30)

    def set_up() -> Hand:
        return Hand.from_position(
            rules,
            original.hands,
            discard=original.discard,
            stock=list(reversed(original.stock)),
            dealer=original.dealer,
            current=original.current,
            direction=original.direction,
            suit=original.suit,
            wild_top=original.wild_top,
            pending=original.pending,
            pending_kind=original.pending_kind,
            scores=original.scores,
            seed=3,
        )

    position = set_up()
    before = [list(h) for h in position.hands], list(position.stock), list(position.discard)
    copy = copy_position(position)
    run(copy, policy, 300)
    assert ([list(h) for h in position.hands], position.stock, position.discard) == before
    assert position.history == [] and position.scores == list(original.scores)
    fresh = set_up()
    run(fresh, policy, 300)
    assert fresh.hands == copy.hands
    assert fresh.moves == copy.moves
    assert fresh.scores == copy.scores


def test_options_are_checked() -> None:
    with only_registered({"montecarlo": MonteCarloPlayer}):
        bot = create("montecarlo", {"playouts": "50", "time_ms": "0", "infer": "false"})
        assert isinstance(bot, MonteCarloPlayer)
        assert (bot.playouts, bot.infer) == (50, False)
        bad: list[dict[str, object]] = [
            {"playouts": "0"},
            {"playouts": "many"},
            {"time_ms": "-1"},
            {"horizon": "-2"},
            {"objective": "fun"},
            {"confidence": "-1"},
            {"budget": "5"},
        ]
        for options in bad:
            with pytest.raises(PluginError):
                create("montecarlo", options)


def test_plays_whole_matches_against_greedy() -> None:
    """A smoke test: ten seeded two-player matches against greedy, each played from both
    seats, end without a forfeit and within the rules. It claims nothing about strength:
    twenty games cannot tell a real edge from luck (13 wins of 20 happen 13% of the time
    by chance). ``benchmark.py`` measures the edge over hundreds of matches, with a
    confidence interval, and the README gives its figures."""
    rules = Rules.from_options("pagat")
    for i in range(10):
        seed = derive_seed("beats-greedy", i)
        for seat in (0, 1):
            players: list[Player] = [GreedyPlayer(), GreedyPlayer()]
            players[seat] = MonteCarloPlayer(playouts=100)
            outcome = play_match(rules, players, seed=seed)
            assert outcome.forfeit is None
            assert outcome.result.ended == "target"
            assert sorted(outcome.result.placements) in ([1, 2], [1, 1])
