"""Crazy Eights Countdown (rulebook "Crazy Eights Countdown", SPEC §2.5) with the
``countdown`` preset: every example of the section as a position and its legal moves.
Scores are passed with ``scores=[...]``; a seat's score is its wild rank."""

from __future__ import annotations

import pytest

from c8league.engine import DRAW, Hand, HandRecord, Match, Rank, placements

from .helpers import cards, held, legal, nominations, play, position, rules, snapshot

COUNTDOWN = rules("countdown")


# "Each player begins the game with a score of 8, and eight cards are dealt to each player."
@pytest.mark.parametrize("players", [2, 3, 5])
def test_everyone_starts_at_eight_with_eight_cards_and_eights_wild(players: int) -> None:
    hand = Hand.deal(COUNTDOWN, players, dealer=0, seed=3)
    view = hand.observation(0)
    assert view.scores == (8,) * players
    assert view.wild_ranks == (Rank.R8,) * players
    assert {len(cards_) for cards_ in hand.hands} == {8}


# "A player's score determines how many cards they are dealt at the start of each round,
# and which rank of card is wild for them." (encyclopedia)
def test_scores_set_hand_sizes_and_wild_ranks() -> None:
    hand = Hand.deal(COUNTDOWN, 3, dealer=0, seed=3, scores=[8, 5, 1])
    assert [len(cards_) for cards_ in hand.hands] == [8, 5, 1]
    assert hand.observation(2).wild_ranks == (Rank.R8, Rank.R5, Rank.A)
    assert hand.observation(2).wild_rank is Rank.A


# "When a wild card is played, the player nominates a suit. The next card played must
# either be a card of that suit or the player's own wild card."
# "Example. My score is 6. I play the six of spades and nominate hearts. If the next
# player's score is 7 that player must either play a heart, or play a wild seven to
# nominate a suit, or draw a card. The next player is not allowed to play (for example) the
# six of diamonds even though the rank is the same as my wild Six."
@pytest.mark.parametrize(
    ("equal_rank_on_wild", "expected"),
    [
        pytest.param(False, {"3H", *nominations("7C"), "draw"}, id="six-of-diamonds-refused"),
        # "Variant. Some groups allow a card of equal rank to be played on a wild card even
        # if it is not in the called suit."
        pytest.param(True, {"3H", "6D", *nominations("7C"), "draw"}, id="variant-allows-it"),
    ],
)
def test_my_score_is_six_i_play_the_six_of_spades_and_nominate_hearts(
    equal_rank_on_wild: bool, expected: set[str]
) -> None:
    rule_set = rules("countdown", equal_rank_on_wild=equal_rank_on_wild)
    hand = position(rule_set, ["6S 3C 4C", "3H 7C 6D 5C", "KD KC"], "9S", scores=[6, 7, 8])
    assert nominations("6S") <= legal(hand)
    play(hand, "6S:H")
    assert (hand.current, str(hand.suit), hand.wild_top) == (1, "H", True)
    assert legal(hand) == expected


# "For example a wild five of hearts is played calling "diamonds" but the next player plays
# the five of clubs instead of a diamond, even though 5 is not wild for them."
@pytest.mark.parametrize(
    ("equal_rank_on_wild", "expected"),
    [
        pytest.param(False, {"3D", "draw"}, id="rule-off"),
        pytest.param(True, {"3D", "5C", "draw"}, id="rule-on"),
    ],
)
def test_variant_five_of_clubs_on_a_wild_five(equal_rank_on_wild: bool, expected: set[str]) -> None:
    rule_set = rules("countdown", equal_rank_on_wild=equal_rank_on_wild)
    hand = position(rule_set, ["5H 3C 4C", "5C 3D 9S", "KD KC"], "9H", scores=[5, 8, 8])
    play(hand, "5H:D")
    assert legal(hand) == expected


# "Each player's current score determines the rank of the card that is wild for them. ...
# it is possible for each player to have their own, different rank of wild card, which can
# be played on any card and allows the player to nominate the suit to be played next."
@pytest.mark.parametrize(
    ("scores", "expected"),
    [
        pytest.param([8, 8, 8], {*nominations("8D"), "draw"}, id="eight-wild-at-8"),
        pytest.param([6, 8, 8], {*nominations("6C"), "draw"}, id="six-wild-at-6-eight-plain"),
        pytest.param([1, 8, 8], {*nominations("AD"), "draw"}, id="ace-wild-at-1"),
    ],
)
def test_each_player_has_their_own_wild_rank(scores: list[int], expected: set[str]) -> None:
    hand = position(COUNTDOWN, ["8D 6C AD 3H", "KD 4S", "10D 9H"], "KS", scores=scores)
    assert legal(hand) == expected


# "When a player gets rid of all their cards, this does not end the play. Instead, the
# player subtracts 1 from their score, and is immediately dealt a new hand of cards equal
# in size to their new score. The other players keep the cards that they have and the play
# continues."  "Each time a player runs out of cards, their wild card changes, first from
# Eight to Seven, then Six and so on down to Ace."
@pytest.mark.parametrize(
    ("score", "last", "dealt"),
    [
        pytest.param(8, "5S", "KC QC JC 10C 9C 7C 6C", id="eight-to-seven"),
        pytest.param(3, "5S", "KC QC", id="three-to-two"),
        pytest.param(2, "5S", "KC", id="two-to-ace"),
    ],
)
def test_emptying_the_hand_drops_a_point_and_deals_that_many(
    score: int, last: str, dealt: str
) -> None:
    hand = position(
        COUNTDOWN,
        [last, "9H 10H JH", "4D 3D"],
        "5H",
        stock="KC QC JC 10C 9C 7C 6C 4C",
        scores=[score, 8, 8],
    )
    play(hand, last)
    assert not hand.over
    assert held(hand, 0) == cards(dealt)
    assert held(hand, 1) == cards("9H 10H JH")
    assert hand.current == 1
    view = hand.observation(1)
    assert view.scores == (score - 1, 8, 8)
    assert view.wild_ranks[0] == Rank(score - 1)


def test_emptying_the_hand_with_a_wild_still_nominates_and_the_wild_rank_changes() -> None:
    hand = position(COUNTDOWN, ["7S", "9H 10H 7D", "4D 3D"], "5H", scores=[7, 8, 8])
    assert legal(hand) == {*nominations("7S"), "draw"}
    play(hand, "7S:H")
    assert (hand.current, str(hand.suit), hand.wild_top) == (1, "H", True)
    assert hand.observation(1).wild_ranks[0] is Rank.R6
    # For the next player a Seven is only a Seven: it must follow hearts.
    assert legal(hand) == {"9H", "10H", "draw"}


# "When a player with a score of 1 and Ace as wild card runs out of cards, their score
# becomes 0 and they win the game."
def test_reaching_zero_wins() -> None:
    hand = position(COUNTDOWN, ["AS", "9H 10H", "4D 3D"], "5H", scores=[1, 5, 6])
    assert legal(hand) == {"AS", "draw"}
    play(hand, "AS")
    assert hand.result is not None
    assert hand.result.kind == "out"
    assert hand.result.winners == (0,)
    assert hand.result.countdown_scores == (0, 5, 6)
    assert hand.result.points == (0, 0, 0)


# SPEC §2.5: "Reaching 0 wins the match; the others are placed by score, lower first."
@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (4, 3)])
def test_a_countdown_match_ends_when_a_player_reaches_zero(players: int, seed: int) -> None:
    match = Match(COUNTDOWN, players=players, seed=seed)
    while not match.over:
        moves = match.legal_moves()
        match.apply(max(moves, key=lambda move: (move.is_play, len(move.cards))))
    result = match.result
    assert result is not None
    assert result.ended == "countdown"
    assert result.hands == 1
    assert min(result.scores) == 0
    assert result.placements == placements(result.scores, higher_is_better=False)
    assert result.placements[result.scores.index(0)] == 1


# "Wild / Skip. The next player is skipped and the following player must play the nominated
# suit or a wild card. For example, suppose that our house rule is that 4 skips the next
# player, 4 is my wild card, and I play the four of clubs nominating diamonds. The next
# player is skipped and the player after that must play a diamond or one of their own wild
# cards."
def test_wild_skip() -> None:
    hand = position(
        rules("countdown", skip_rank="4"),
        ["4C 3S 9S", "5D 7H", "KD 6C 7S 9H", "JD"],
        "9C",
        scores=[4, 5, 6, 8],
    )
    assert nominations("4C") <= legal(hand)
    play(hand, "4C:D")
    assert (hand.current, str(hand.suit)) == (2, "D")
    assert legal(hand) == {"KD", *nominations("6C"), "draw"}


# "Wild / Reverse. The direction is reversed and the next player in the new direction must
# play the nominated suit or a wild card. For example, suppose that Aces reverse direction.
# We are playing clockwise and I play the ace of hearts nominating spades. The direction
# reverses to anticlockwise and the player to my right must play a spade or one of their
# own wild cards."
def test_wild_reverse() -> None:
    hand = position(
        rules("countdown", reverse_rank="A"),
        ["AH 3C 9C", "5D 7H", "KD 6C 7S", "JD 5S 8C KH"],
        "10H",
        scores=[1, 5, 6, 8],
    )
    play(hand, "AH:S")
    assert (hand.current, hand.direction, str(hand.suit)) == (3, -1, "S")
    assert legal(hand) == {"5S", *nominations("8C"), "draw"}


# "Wild / Draw Two. The next player must either draw two cards or play a Two of the
# nominated suit. For example, the players in order and their scores are A(2), B(5), C(6).
# Player A plays the two of diamonds nominating clubs. Now B must either play the two of
# clubs or draw two cards."
def draw_two_example(b_cards: str, decks: int = 1) -> Hand:
    return position(
        rules("countdown", decks=decks),
        ["2D 3S 4S", b_cards, "2S 6S KC 3H"],
        "KD",
        stock="3D 4D 5D 6H 7H 9H",
        scores=[2, 5, 6],
    )


def test_wild_draw_two_b_plays_the_two_of_the_nominated_suit_or_draws() -> None:
    hand = play(draw_two_example("2C 2H 5S 9C"), "2D:C")
    assert (hand.current, hand.pending, str(hand.suit)) == (1, 2, "C")
    # The two of hearts is a Two, but not of the nominated suit; the wild Five may not
    # answer either.
    assert legal(hand) == {"2C", "2C+2H", "draw"}


# "If B plays the two of clubs, C must either draw four cards or play any Two (since the two
# of clubs was not wild)."
def test_wild_draw_two_b_answers_c_draws_four_or_plays_any_two() -> None:
    hand = play(draw_two_example("2C 2H 5S 9C"), "2D:C 2C")
    assert (hand.current, hand.pending) == (2, 4)
    assert legal(hand) == {"2S", "draw"}
    hand.apply(DRAW)
    assert len(held(hand, 2)) == 8


# "If B draws 2 cards, C must play a club or a wild six or draw a card, since clubs was the
# suit nominated by A."
def test_wild_draw_two_b_draws_c_follows_the_nominated_suit() -> None:
    hand = play(draw_two_example("2C 2H 5S 9C"), "2D:C draw")
    assert held(hand, 1) == cards("2C 2H 5S 9C 3D 4D")
    assert (hand.current, hand.pending, str(hand.suit)) == (2, 0, "C")
    assert legal(hand) == {"KC", *nominations("6S"), "draw"}


# "Another example: player A plays the wild two of diamonds and nominates diamonds. Assuming
# that we are playing with a single deck, player B is forced to draw two cards, and C will
# then have to play a diamond or a wild card. Playing with a double deck, B's only legal
# play to avoid drawing two cards would be the other two of diamonds."
def test_wild_two_of_diamonds_nominating_diamonds_single_deck() -> None:
    hand = play(draw_two_example("2C 2H 5S 9D"), "2D:D")
    assert legal(hand) == {"draw"}
    hand.apply(DRAW)
    assert (hand.current, str(hand.suit), hand.wild_top) == (2, "D", True)
    assert legal(hand) == {*nominations("6S"), "draw"}


def test_wild_two_of_diamonds_nominating_diamonds_double_deck() -> None:
    hand = play(draw_two_example("2C 2H 5S 2D", decks=2), "2D:D")
    singles = {move for move in legal(hand) if "+" not in move}
    assert singles == {"2D", "draw"}
    assert all(move.startswith("2D") for move in legal(hand) - {"draw"})


# "Here is a blog post ... describing a version in which Jacks skip the next player, Twos
# make the next player draw two cards or play another Two as usual, and the Queen of Spades
# makes the next player draw five cards. Multiple cards of equal rank can be played
# together. No 'reverse direction' card is mentioned."
@pytest.mark.parametrize(
    ("moves", "expected"),
    [
        pytest.param("JH", {"current": 2, "pending": 0}, id="jack-skips"),
        pytest.param("2H", {"current": 1, "pending": 2}, id="two-draws-two"),
        pytest.param("QH", {"current": 1, "pending": 0}, id="other-queens-plain"),
        pytest.param("AH", {"current": 1, "direction": 1}, id="no-reverse-card"),
        pytest.param("JH+JC", {"current": 3}, id="two-jacks-skip-two"),
        pytest.param("2H+2C", {"current": 1, "pending": 4}, id="two-twos-make-four"),
    ],
)
def test_preset_special_cards(moves: str, expected: dict[str, int]) -> None:
    hand = position(
        COUNTDOWN,
        ["JH JC 2H 2C QH AH 3H 4H", "5S 6S", "5D 6D", "5C 6C"],
        "KH",
    )
    play(hand, moves)
    assert {key: getattr(hand, key) for key in expected} == expected


# "the Queen of Spades makes the next player draw five cards"; SPEC: "only another
# draw-five card answers it".
@pytest.mark.parametrize(
    ("decks", "answer"),
    [pytest.param(1, set(), id="single-deck"), pytest.param(2, {"QS"}, id="double-deck")],
)
def test_queen_of_spades_draws_five(decks: int, answer: set[str]) -> None:
    b_cards = "2S KS 8S 9H" + (" QS" if decks == 2 else "")
    hand = position(
        rules("countdown", decks=decks), ["QS 3S 4S", b_cards, "5D 6D"], "9S", scores=[8, 8, 8]
    )
    play(hand, "QS")
    assert (hand.current, hand.pending, hand.pending_kind) == (1, 5, "five")
    assert legal(hand) == {*answer, "draw"}
    before = len(held(hand, 1))
    hand.apply(DRAW)
    assert len(held(hand, 1)) == before + 5
    assert (hand.current, hand.pending) == (2, 0)


# "As in normal Crazy Eights, when multiple cards are played in one turn and some or all of
# them are special cards, the special effects apply even for cards that are covered, but it
# is the last card played that has to be followed by the next player."
def test_equal_cards_covered_effects_apply_and_the_last_is_followed() -> None:
    hand = position(COUNTDOWN, ["JH JC 3H 4H", "5S 6S", "5D 6C", "9C 7D"], "KH")
    play(hand, "JH+JC")
    assert (hand.current, str(hand.suit)) == (3, "C")
    assert legal(hand) == {"9C", "draw"}


def test_there_is_no_last_card_call() -> None:
    hand = position(COUNTDOWN, ["5H 9S", "5S 6S 7D", "5D 6D"], "KH")
    assert legal(hand) == {"5H", "draw"}
    play(hand, "5H")
    assert held(hand, 0) == ["9S"]


def test_a_countdown_record_replays() -> None:
    hand = play(draw_two_example("2C 2H 5S 9C"), "2D:C draw KC")
    assert [(seat, str(move)) for seat, move in hand.history] == [
        (0, "2D:C"),
        (1, "draw"),
        (2, "KC"),
    ]
    record = HandRecord.from_json(HandRecord.of(hand).to_json())
    assert snapshot(record.replay(hand.rules)) == snapshot(hand)


# SPEC §2.2: "A hand that reaches the turn cap ... also stops as blocked"; §2.5: the others
# are placed by score, lower first (so the lowest score leads a stopped game).
def test_turn_cap_places_by_countdown_score() -> None:
    hand = position(
        rules("countdown", turn_cap=3),
        ["9H 10H 3C", "3D 4D", "JD 5C"],
        "KS",
        stock="AC AD AH 4C",
        scores=[3, 5, 2],
    )
    play(hand, "draw draw draw")
    assert hand.result is not None
    assert hand.result.kind == "turn_cap"
    assert hand.result.winners == (2,)
    assert hand.result.countdown_scores == (3, 5, 2)
    assert hand.result.points == (0, 0, 0)


def test_a_countdown_match_stopped_by_the_turn_cap() -> None:
    match = Match(rules("countdown", turn_cap=5), players=3, seed=1)
    while not match.over:
        match.apply(DRAW if DRAW in match.legal_moves() else match.legal_moves()[0])
    assert match.result is not None
    assert match.result.ended == "turn_cap"
    assert match.result.placements == placements(match.result.scores, higher_is_better=False)
