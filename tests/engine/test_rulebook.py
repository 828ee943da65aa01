"""The rulebook as tables: one row per sentence of the rules of record (SPEC §2.2-§2.4,
seeds/crazy-eights-rulebook.txt, crazy-eights-encyclopedia.txt,
olsen-olsen-online-rules.txt). Each row sets up a position explicitly and names the
legal moves or the effect the sentence asks for. Countdown is in test_countdown.py."""

from __future__ import annotations

from typing import Any

import pytest

from c8league.engine import (
    DRAW,
    PASS,
    Hand,
    HandRecord,
    Match,
    Move,
    Phase,
    placements,
)
from c8league.engine.rules import OptionValue
from c8league.errors import IllegalMoveError

from .helpers import (
    cards,
    held,
    legal,
    nominations,
    play,
    position,
    rules,
    ruleset,
    snapshot,
)

Options = dict[str, OptionValue]


def state(hand: Hand, keys: Any) -> dict[str, Any]:
    """The named attributes of a hand, the suit as text."""
    values = {key: getattr(hand, key) for key in keys}
    if "suit" in values:
        values["suit"] = None if hand.suit is None else str(hand.suit)
    return values


# == Basic game ======================================================================

LEGAL_PLAYS = [
    # "If the top card of the discard pile is not an Eight, you may play any card which
    # matches the rank or suit of the previous card (for example if the top card was the
    # king of hearts you could play any king or any heart)."
    pytest.param(
        {},
        ["KS 5H 3D 4C", "2C 3C", "2D 3H"],
        "KH",
        {},
        {"KS", "5H", "draw"},
        id="king-of-hearts-any-king-or-any-heart",
    ),
    # "An Eight may be played on any card, and the player of the Eight must nominate a suit."
    pytest.param(
        {},
        ["8C 3D 4S", "2C 3C", "2D 3H"],
        "KH",
        {},
        {*nominations("8C"), "draw"},
        id="an-eight-on-any-card-nominates-a-suit",
    ),
    # "If an Eight is on top of the pile, you must play either another Eight or any card of
    # the suit nominated by the person who played the Eight."
    pytest.param(
        {},
        ["KS 3H 8D 4C", "2C 3C", "2D 5H"],
        "8H",
        {"suit": "S"},
        {"KS", *nominations("8D"), "draw"},
        id="on-an-eight-the-nominated-suit-or-another-eight",
    ),
    # Encyclopedia: "Once 6♣ is played the next player: can play 6♦, 6♥ or 6♠ - can play
    # any club - can play any 8 (then must declare a suit) - can draw from the stockpile"
    pytest.param(
        {},
        ["6D 6H 6S 2C 8D 5H", "3C 4C", "3D 4D"],
        "6C",
        {},
        {"6D", "6H", "6S", "2C", *nominations("8D"), "draw"},
        id="encyclopedia-six-of-clubs",
    ),
    # "each player in turn must either play a legal card face up on top of the discard pile,
    # or draw a card from the undealt stock"
    pytest.param(
        {},
        ["3D 4C 9S", "2C 3C", "2D 3H"],
        "KH",
        {},
        {"draw"},
        id="nothing-playable-draw",
    ),
]


@pytest.mark.parametrize(("options", "hands", "discard", "extra", "expected"), LEGAL_PLAYS)
def test_legal_plays(
    options: Options, hands: list[str], discard: str, extra: dict[str, Any], expected: set[str]
) -> None:
    hand = position(ruleset(options), hands, discard, **extra)
    assert legal(hand) == expected


# "In the normal game, you may always use your turn to draw a card."  SPEC §2.2: "On a
# turn a player either plays a legal card or draws one card from the stock (drawing is
# always allowed, even holding a playable card); after the draw the turn passes."
@pytest.mark.parametrize("drawn", ["3C", "9H"], ids=["unplayable-card", "playable-card"])
def test_drawing_is_allowed_holding_a_playable_card_and_ends_the_turn(drawn: str) -> None:
    hand = position(rules(), ["KS 5H", "2C 4C", "2D 3H"], "KH", stock=f"{drawn} 10C")
    assert "draw" in legal(hand)
    hand.apply(DRAW)
    assert held(hand, 0) == ["KS", "5H", drawn]
    assert hand.current == 1
    assert cards("10C") == [str(card) for card in hand.stock]


# "Starting with the player to dealer's left, and continuing clockwise, each player in
# turn must either play a legal card ... or draw a card"
def test_play_starts_left_of_the_dealer_and_goes_clockwise() -> None:
    hand = Hand.from_deal(
        rules(),
        ["3C 4C 5C 6C 7C", "3H 4H 5H 6H 7H", "3S 4S 5S 6S 7S", "9C 10C JC KC 9H"],
        "5D 10D JD KD 9S 10S",
        dealer=2,
    )
    seats = []
    for _ in range(5):
        seats.append(hand.current)
        hand.apply(DRAW)
    assert seats == [3, 0, 1, 2, 3]
    assert str(hand.discard[0]) == "5D"


# == Starter effects ===================================================================

FOUR = ["3C 4C 5C 6C 7C", "3H 4H 5H 6H 7H", "3S 4S 5S 6S 7S", "9C 10C JC KC 9H"]
TWO = ["3C 4C 5C 6C 7C 9C 10C", "3H 4H 5H 6H 7H 9H 10H"]

STARTERS = [
    # "If an Eight is turned up by the dealer as the first card of the play pile, it is
    # treated as though the dealer had played it. The dealer ... nominates a suit"
    pytest.param(FOUR, 0, "8D", Phase.NOMINATE, 0, 1, 0, id="eight-dealer-nominates"),
    pytest.param(TWO, 0, "8D", Phase.NOMINATE, 0, 1, 0, id="eight-dealer-nominates-2p"),
    # "If the turned up card is an Ace, play begins anticlockwise and the player to dealer's
    # right has the first turn."
    pytest.param(FOUR, 0, "AD", Phase.PLAY, 3, -1, 0, id="ace-dealer-right-anticlockwise"),
    pytest.param(FOUR, 2, "AD", Phase.PLAY, 1, -1, 0, id="ace-dealer-right-dealer-2"),
    # "In a two-player game an Ace has no effect."
    pytest.param(TWO, 0, "AD", Phase.PLAY, 1, 1, 0, id="ace-no-effect-2p"),
    # "If the turned up card is a Two the first player must play another Two or draw two
    # cards."
    pytest.param(FOUR, 0, "2D", Phase.PLAY, 1, 1, 2, id="two-first-player-two-or-draw-two"),
    pytest.param(TWO, 1, "2D", Phase.PLAY, 0, 1, 2, id="two-first-player-2p"),
    # "If the first card is a Queen, the first player is the player two places to the left
    # of the dealer."
    pytest.param(FOUR, 0, "QD", Phase.PLAY, 2, 1, 0, id="queen-two-places-left"),
    pytest.param(FOUR, 3, "QD", Phase.PLAY, 1, 1, 0, id="queen-two-places-left-dealer-3"),
    pytest.param(TWO, 0, "QD", Phase.PLAY, 0, 1, 0, id="queen-2p-dealer-plays-first"),
    # "The top card of the stock is turned face up ... to start the discard pile."
    pytest.param(FOUR, 1, "5D", Phase.PLAY, 2, 1, 0, id="plain-starter-dealer-left"),
    pytest.param(TWO, 1, "5D", Phase.PLAY, 0, 1, 0, id="plain-starter-2p"),
]


@pytest.mark.parametrize(
    ("hands", "dealer", "starter", "phase", "current", "direction", "pending"), STARTERS
)
def test_starter_effects(
    hands: list[str],
    dealer: int,
    starter: str,
    phase: Phase,
    current: int,
    direction: int,
    pending: int,
) -> None:
    hand = Hand.from_deal(rules(), hands, f"{starter} KD JD 10D", dealer=dealer)
    assert [str(card) for card in hand.discard] == [starter]
    assert hand.phase is phase
    assert state(hand, ["current", "direction", "pending"]) == {
        "current": current,
        "direction": direction,
        "pending": pending,
    }


@pytest.mark.parametrize("players", [4, 2])
def test_eight_starter_dealer_nominates_then_the_first_player_follows(players: int) -> None:
    # "The dealer looks at his or her hand and nominates a suit, and the first player must
    # play a card of that suit or another Eight."
    hands = ["3C 4C 5C 6C 7C", "3H 4H 5S 8H 7D", "3S 4S 6S 7S 9S", "9C 10C JC KC 9H"]
    hand = Hand.from_deal(rules(), hands[:players], "8D KD JD", dealer=0)
    assert hand.observation(0).phase == Phase.NOMINATE
    assert legal(hand) == {"nominate:C", "nominate:D", "nominate:H", "nominate:S"}
    hand.apply(Move.parse("nominate:S"))
    assert hand.phase is Phase.PLAY
    assert hand.current == 1
    assert hand.observation(1).suit is not None and str(hand.observation(1).suit) == "S"
    assert legal(hand) == {"5S", *nominations("8H"), "draw"}


def test_two_starter_first_player_must_play_a_two_or_draw_two() -> None:
    hands = ["3C 4C 5C 6C 7C", "2H 8H 5D KD 3H", "3S 4S 6S 7S 9S"]
    hand = Hand.from_deal(rules(), hands, "2D KH JH 10H", dealer=0)
    assert legal(hand) == {"2H", "draw"}
    hand.apply(DRAW)
    assert held(hand, 1) == cards("2H 8H 5D KD 3H KH JH")
    assert hand.current == 2
    assert hand.pending == 0


# == Special cards ======================================================================

OTHERS = ["9S 10S", "9D 10D", "9C 10C"]

EFFECTS = [
    # "Skip. When a Queen is played, the next player in rotation misses a turn, and the turn
    # passes to the following player."
    pytest.param({}, ["QH 3S 4S", *OTHERS], {}, "QH", {"current": 2}, id="queen-skips"),
    pytest.param(
        {},
        ["QH 3S 4S", *OTHERS],
        {"direction": -1, "current": 0, "dealer": 1},
        "QH",
        {"current": 2, "direction": -1},
        id="queen-skips-anticlockwise",
    ),
    # "In a two-player game the opponent is skipped and the same player plays again."
    pytest.param({}, ["QH 3S 4S", "9S 10S"], {}, "QH", {"current": 0}, id="queen-2p-again"),
    # "Reverse direction. When an Ace is played, the direction of play reverses, becoming
    # anticlockwise if it had been clockwise, or vice versa."
    pytest.param(
        {}, ["AH 3S 4S", *OTHERS], {}, "AH", {"current": 3, "direction": -1}, id="ace-reverses"
    ),
    pytest.param(
        {},
        ["AH 3S 4S", *OTHERS],
        {"direction": -1, "current": 0, "dealer": 1},
        "AH",
        {"current": 1, "direction": 1},
        id="ace-reverses-vice-versa",
    ),
    # "In a two-player game an Ace has no effect."
    pytest.param(
        {}, ["AH 3S 4S", "9S 10S"], {}, "AH", {"current": 1, "direction": 1}, id="ace-2p-no-effect"
    ),
    # "Draw cards. When a Two is played the next player must either draw two cards or play
    # another Two"
    pytest.param(
        {}, ["2H 3S 4S", *OTHERS], {}, "2H", {"current": 1, "pending": 2}, id="two-draw-two"
    ),
    # "If several Twos have been played by consecutive players, the next player must either
    # play another Two or draw two cards for each two in the sequence."
    pytest.param(
        {},
        ["2H 3S 4S", "2S 10S", "2D 10D", "9C 10C"],
        {},
        "2H 2S",
        {"current": 2, "pending": 4},
        id="two-answered-by-a-two-next-draws-four",
    ),
    pytest.param(
        {},
        ["2H 3S 4S", "2S 10S", "2D 10D", "9C 10C"],
        {},
        "2H 2S 2D",
        {"current": 3, "pending": 6},
        id="three-twos-next-draws-six",
    ),
    # "if an Ace reverses direction, playing two Aces together will reverse it twice,
    # leaving the direction of play unchanged."
    pytest.param(
        {"multiple_equal": True},
        ["AH AD 3S 4S", *OTHERS],
        {},
        "AH+AD",
        {"current": 1, "direction": 1},
        id="two-aces-reverse-twice",
    ),
    # "If a Queen skips the next player, a pair of Queens will skip two players"
    pytest.param(
        {"multiple_equal": True},
        ["QH QD 3S 4S", *OTHERS],
        {},
        "QH+QD",
        {"current": 3},
        id="pair-of-queens-skips-two",
    ),
    # "(in a two-player game that would be your opponent's turn and your own next turn,
    # leaving your opponent to play next)"
    pytest.param(
        {"multiple_equal": True},
        ["QH QD 3S 4S", "9S 10S"],
        {},
        "QH+QD",
        {"current": 1},
        id="pair-of-queens-2p-opponent-next",
    ),
    # "If a Two requires the next player to pick up two cards, a pair of Twos will require
    # the next player to pick up 4 cards (or play another Two)."
    pytest.param(
        {"multiple_equal": True},
        ["2H 2D 3S 4S", *OTHERS],
        {},
        "2H+2D",
        {"current": 1, "pending": 4},
        id="pair-of-twos-makes-four",
    ),
    # Variations: "using a different card, such as Jack instead of Queen to cause the next
    # player to skip a turn, or Four instead of Ace to reverse direction"
    pytest.param(
        {"skip_rank": "J"}, ["JH QH 4S", *OTHERS], {}, "JH", {"current": 2}, id="jack-skips"
    ),
    pytest.param(
        {"skip_rank": "J"}, ["JH QH 4S", *OTHERS], {}, "QH", {"current": 1}, id="queen-plain"
    ),
    pytest.param(
        {"reverse_rank": "4"},
        ["4H AH 3S", *OTHERS],
        {},
        "4H",
        {"current": 3, "direction": -1},
        id="four-reverses",
    ),
    pytest.param(
        {"reverse_rank": "4"},
        ["4H AH 3S", *OTHERS],
        {},
        "AH",
        {"current": 1, "direction": 1},
        id="ace-plain",
    ),
    # Preset basic: "Eights only: no special cards".
    pytest.param(
        {"skip_rank": "none", "reverse_rank": "none", "draw_two_rank": "none"},
        ["QH AH 2H 3S", *OTHERS],
        {},
        "QH",
        {"current": 1, "direction": 1, "pending": 0},
        id="no-special-cards",
    ),
]


@pytest.mark.parametrize(("options", "hands", "extra", "moves", "expected"), EFFECTS)
def test_special_card_effects(
    options: Options, hands: list[str], extra: dict[str, Any], moves: str, expected: dict[str, Any]
) -> None:
    hand = play(position(ruleset(options), hands, "KH", **extra), moves)
    assert state(hand, expected) == expected


# "(an Eight cannot be played in this case)"
@pytest.mark.parametrize(
    ("options", "held_cards", "expected"),
    [
        pytest.param({}, "2C 8D 5S KS", {"2C", "draw"}, id="only-a-two-or-draw"),
        pytest.param({}, "8D 5S KS", {"draw"}, id="an-eight-cannot-answer"),
        pytest.param(
            {"multiple_equal": True},
            "2C 2D 8D 5S",
            {"2C", "2D", "2C+2D", "2D+2C", "draw"},
            id="pair-of-twos-answers",
        ),
    ],
)
def test_answers_to_a_pending_two(options: Options, held_cards: str, expected: set[str]) -> None:
    hand = position(ruleset(options), [held_cards, "9H 10H", "9D 10D"], "2S", pending=2)
    assert legal(hand) == expected


# "The penalty cards cannot be played in the same turn - after the penalty cards have been
# drawn, the turn passes to the following player, who can continue with any card of the
# same suit as the last Two, or another Two or an Eight to change suit."
@pytest.mark.parametrize("draw_rule", ["one", "one_then_play", "up_to", "until_playable"])
def test_penalty_cards_cannot_be_played_in_the_same_turn(draw_rule: str) -> None:
    hand = position(
        rules(draw=draw_rule),
        ["2S 3H 4H", "9D 10D", "3S 2D 8H 4C 5H"],
        "KS",
        stock="5S 8C KC",
    )
    play(hand, "2S")
    assert legal(hand) == {"draw"}
    hand.apply(DRAW)
    assert held(hand, 1) == cards("9D 10D 5S 8C")
    assert state(hand, ["current", "pending"]) == {"current": 2, "pending": 0}
    assert legal(hand) == {"3S", "2D", *nominations("8H"), "draw"}


# "If the last card played by the winner happens to be a special card, the special effect
# is ignored. For example the card on top of the play pile is the ten of spades and the
# next player's only remaining card is the two of spades. The player plays the two of
# spades and immediately wins. The hands are scored as they are - no one has to draw cards
# as a result of the two."
@pytest.mark.parametrize(
    ("last", "others"),
    [
        pytest.param("2S", ["9H 10H KD", "4D 5C"], id="two-of-spades-no-one-draws"),
        pytest.param("QS", ["9H 10H KD", "4D 5C"], id="queen-skip-ignored"),
        pytest.param("AS", ["9H 10H KD", "4D 5C"], id="ace-reverse-ignored"),
        pytest.param("8S", ["9H 10H KD", "4D 5C"], id="eight-no-nomination"),
    ],
)
def test_going_out_on_a_special_card(last: str, others: list[str]) -> None:
    hand = position(rules(), [last, *others], "10S")
    assert legal(hand) == {last, "draw"}
    hand.apply(Move.parse(last))
    assert hand.over
    assert hand.result is not None
    assert hand.result.kind == "out"
    assert hand.result.winners == (0,)
    assert [held(hand, seat) for seat in (1, 2)] == [cards(h) for h in others]
    assert hand.pending == 0
    assert hand.result.points == (sum(hand.result.penalties), 0, 0)


# == Multiple equal cards ===============================================================

EQUAL = rules(multiple_equal=True)


# "Some allow a player holding two or more equal ranked cards to play them all at once,
# provided that the first of them is a legal play. ... For example if the top card of the
# play pile is the five of diamonds, the next player could play the nine of clubs, nine of
# diamonds and nine of hearts in that order, and the next player would have to play a nine
# or a heart."
def test_three_nines_the_last_one_is_followed() -> None:
    hand = position(EQUAL, ["9C 9D 9H 3S 4S", "9S 3H 4D 7C", "JD QD"], "5D")
    assert legal(hand) == {"9D", "9D+9C", "9D+9H", "9D+9C+9H", "9D+9H+9C", "draw"}
    play(hand, "9D+9C+9H")
    assert [str(card) for card in hand.discard] == ["5D", "9D", "9C", "9H"]
    assert state(hand, ["current", "suit"]) == {"current": 1, "suit": "H"}
    assert legal(hand) == {"9S", "3H", "draw"}


# The same example in the order it is written: the nine of clubs does not match the five of
# diamonds, so by the sentence before it ("provided that the first of them is a legal
# play") it cannot lead the three nines.
@pytest.mark.parametrize("move", ["9C+9D+9H", "9H+9C", "9C"])
def test_multiple_equal_cards_the_first_must_be_legal(move: str) -> None:
    hand = position(EQUAL, ["9C 9D 9H 3S 4S", "9S 3H 4D 7C", "JD QD"], "5D")
    with pytest.raises(IllegalMoveError):
        hand.apply(Move.parse(move))


# "Some allow a player holding two or more equal ranked cards to play them all at once,
# provided that the first of them is a legal play."  The player chooses the order: only the
# first card (which must be legal) and the last (which is followed) matter to the rules.
def test_equal_cards_in_any_order_after_a_legal_first() -> None:
    hand = position(EQUAL, ["9C 9D 9H 9S 3S 4S", "KC 3H 4D 7C", "JD QD"], "5D")
    hand.apply(Move.parse("9D+9H+9C+9S"))
    assert (hand.current, str(hand.suit), held(hand, 0)) == (1, "S", ["3S", "4S"])


def test_four_equal_cards_in_pack_order_after_a_legal_first() -> None:
    hand = position(EQUAL, ["9C 9D 9H 9S 3S 4S", "KC 3H 4D 7C", "JD QD"], "5D")
    hand.apply(Move.parse("9D+9C+9H+9S"))
    assert (hand.current, str(hand.suit), held(hand, 0)) == (1, "S", ["3S", "4S"])


def test_without_the_option_one_card_at_a_time() -> None:
    hand = position(rules(), ["9C 9D 9H 3S 4S", "9S 3H 4D 7C", "JD QD"], "5D")
    assert legal(hand) == {"9D", "draw"}
    with pytest.raises(IllegalMoveError):
        hand.apply(Move.parse("9D+9C"))


def test_multiple_eights_nominate_once() -> None:
    hand = position(EQUAL, ["8C 8D 3S 4S", "9S 3H 4D 7C", "JD QD"], "KH")
    assert legal(hand) == {
        *nominations("8C"),
        *nominations("8D"),
        *nominations("8C+8D"),
        *nominations("8D+8C"),
        "draw",
    }
    play(hand, "8C+8D:S")
    assert state(hand, ["current", "suit", "wild_top"]) == {
        "current": 1,
        "suit": "S",
        "wild_top": True,
    }


# == Last card ===========================================================================

# "A player who has only one card left in their hand must alert the other players by saying
# "last card". A player who fails to do this before the next player takes their turn must
# draw two cards from the top of the stock as a penalty."  SPEC: "draws two penalty cards
# at once".
LAST_CARD = [
    pytest.param({}, "5S 6C", "5S", "6C KH QH", id="no-announcement-draws-two-at-once"),
    pytest.param({}, "5S 6C", "5S!", "6C", id="announced-no-penalty"),
    pytest.param(
        {"multiple_equal": True}, "9S 9C 6C", "9S+9C", "6C KH QH", id="equal-cards-no-call"
    ),
    pytest.param({"multiple_equal": True}, "9S 9C 6C", "9S+9C!", "6C", id="equal-cards-call"),
    pytest.param({}, "8D 6C", "8D:H", "6C KH QH", id="eight-no-call"),
    pytest.param({}, "8D 6C", "8D:H!", "6C", id="eight-call"),
    # "On the other hand, some groups do not require a player with one card to warn the
    # other players."
    pytest.param({"last_card": False}, "5S 6C", "5S", "6C", id="rule-off-no-penalty"),
]


@pytest.mark.parametrize(("options", "held_cards", "move", "after"), LAST_CARD)
def test_last_card(options: Options, held_cards: str, move: str, after: str) -> None:
    hand = position(ruleset(options), [held_cards, "9H 10H", "4D 5D"], "10S", stock="KH QH 3D 4C")
    play(hand, move)
    assert held(hand, 0) == cards(after)
    assert hand.current == 1
    assert len(hand.stock) == 4 - (len(cards(after)) - 1)


@pytest.mark.parametrize(
    ("options", "held_cards", "expected"),
    [
        pytest.param({}, "5S 6C", {"5S", "5S!", "draw"}, id="both-forms-offered"),
        pytest.param({}, "5S 6C 7D", {"5S", "draw"}, id="no-call-above-two-cards"),
        pytest.param({}, "5S", {"5S", "draw"}, id="no-call-going-out"),
        pytest.param({"last_card": False}, "5S 6C", {"5S", "draw"}, id="rule-off-no-call"),
    ],
)
def test_last_card_announcements_offered(
    options: Options, held_cards: str, expected: set[str]
) -> None:
    hand = position(ruleset(options), [held_cards, "9H 10H", "4D 5D"], "10S")
    assert legal(hand) == expected


# == Scoring =============================================================================


# "The first player who gets rid of all their cards wins, and the other players score
# penalty points according to the cards they have left in their hands - 50 for an eight, 10
# for a picture card, and spot cards at face value"  SPEC: "the winner collects from every
# opponent the penalty value of the cards left in that opponent's hand".
@pytest.mark.parametrize(
    ("options", "others", "penalties"),
    [
        pytest.param({}, ["8C KD QH JS 10C", "AS 2H 9D"], (90, 12), id="eight-pictures-spots"),
        pytest.param({}, ["AC AD", "7H"], (2, 7), id="aces-count-one"),
        pytest.param({"wild_rank": "J"}, ["JC 8C", "KD"], (58, 10), id="wild-jack-counts-50"),
        pytest.param({"wild_rank": "none"}, ["8C 8H", "KD"], (16, 10), id="no-wild-eight-is-8"),
    ],
)
def test_winner_collects_the_penalty_points(
    options: Options, others: list[str], penalties: tuple[int, int]
) -> None:
    hand = position(ruleset(options), ["5S", *others], "5H")
    play(hand, "5S")
    assert hand.result is not None
    assert hand.result.kind == "out"
    assert hand.result.penalties == (0, *penalties)
    assert hand.result.points == (sum(penalties), 0, 0)


# "If all pass, the game is blocked. Play stops and everyone scores for the cards remaining
# in their hands."  Encyclopedia: "the player with the lowest point score in their hand
# scores the difference between that hand and each opponent's hand."  SPEC: "players tied
# for lowest all score so."
@pytest.mark.parametrize(
    ("options", "hands", "winners", "points"),
    [
        pytest.param({}, ["5H 6D", "3C", "4D"], (1,), (0, 9, 0), id="lowest-scores-differences"),
        pytest.param({}, ["5H 6D", "3C", "3D"], (1, 2), (0, 8, 8), id="tied-lowest-all-score"),
        pytest.param({}, ["JH", "QC", "10D"], (0, 1, 2), (0, 0, 0), id="all-tied-no-points"),
        pytest.param(
            {"wild_must_match": True},
            ["8H 2D", "9C", "JC QD"],
            (1,),
            (0, 54, 0),
            id="an-eight-counts-50",
        ),
    ],
)
def test_blocked_hand(
    options: Options, hands: list[str], winners: tuple[int, ...], points: tuple[int, ...]
) -> None:
    hand = position(ruleset({"empty_stock": "pass", **options}), hands, "KS", stock="")
    for _ in range(2):
        assert legal(hand) == {"pass"}
        hand.apply(PASS)
        assert not hand.over
    hand.apply(PASS)
    assert hand.result is not None
    assert hand.result.kind == "blocked"
    assert hand.result.winners == winners
    assert hand.result.points == points


# SPEC: "when every player in turn has passed ... play stops" - a play in between starts
# the count again.
def test_a_play_between_passes_does_not_block() -> None:
    hand = position(rules(empty_stock="pass"), ["5H 6D", "3S 4C 5C", "4D"], "KS", stock="")
    play(hand, "pass 3S pass")
    assert not hand.over
    play(hand, "pass pass")
    assert hand.over


# == Empty stock ============================================================================


# "If the stock pile is exhausted, the played cards, except for the last card, are shuffled
# and stacked face down to make a new stock and the game continues."
def test_reshuffle_keeps_the_top_card_and_rebuilds_the_stock() -> None:
    hand = position(rules(), ["9S 10S", "JH QH", "KH 2H"], "3C 4C 5C 6C 7D", stock="")
    total = hand.card_count()
    assert legal(hand) == {"draw"}
    hand.apply(DRAW)
    assert [str(card) for card in hand.discard] == ["7D"]
    drawn = held(hand, 0)[-1]
    assert sorted([drawn, *(str(card) for card in hand.stock)]) == sorted(cards("3C 4C 5C 6C"))
    assert len(hand.stock) == 3
    assert hand.card_count() == total
    assert hand.current == 1


# SPEC: "If there is nothing to reshuffle, passing takes the place of drawing."
@pytest.mark.parametrize(
    ("options", "held_cards", "discard", "expected"),
    [
        pytest.param({}, "9S 7S JS", "7D", {"7S", "pass"}, id="one-card-pile-pass"),
        pytest.param({}, "9S 10S JS", "7D", {"pass"}, id="one-card-pile-only-pass"),
        # "Instead they specify that play continues without drawing. A player who cannot or
        # does not wish to play just passes."
        pytest.param(
            {"empty_stock": "pass"}, "9S 7S JS", "3C 4C 7D", {"7S", "pass"}, id="no-reshuffle"
        ),
        pytest.param(
            {"empty_stock": "reshuffle"}, "9S 7S JS", "3C 4C 7D", {"7S", "draw"}, id="reshuffle"
        ),
    ],
)
def test_empty_stock(options: Options, held_cards: str, discard: str, expected: set[str]) -> None:
    hand = position(ruleset(options), [held_cards, "JH QH", "KH 2H"], discard, stock="")
    assert legal(hand) == expected
    if "pass" in expected:
        hand.apply(PASS)
        assert hand.current == 1
        assert held(hand, 0) == cards(held_cards)


# SPEC: "A player who must draw more cards than there are draws what there is."
@pytest.mark.parametrize(
    ("options", "discard", "stock", "drawn"),
    [
        pytest.param({}, "2S", "KH", "KH", id="penalty-four-one-card-left"),
        pytest.param({}, "2S", "", "", id="penalty-four-nothing-left"),
        pytest.param({"empty_stock": "pass"}, "3D 2S", "KH", "KH", id="no-reshuffle"),
        pytest.param({}, "3D 2S", "KH", "KH 3D", id="reshuffle-then-what-there-is"),
    ],
)
def test_draw_what_there_is(options: Options, discard: str, stock: str, drawn: str) -> None:
    hand = position(ruleset(options), ["9H 10H", "JH QH", "KC 4C"], discard, stock=stock, pending=4)
    hand.apply(DRAW)
    assert held(hand, 0) == cards(f"9H 10H {drawn}")
    assert state(hand, ["current", "pending", "stock"]) == {
        "current": 1,
        "pending": 0,
        "stock": [],
    }


def test_last_card_penalty_draws_what_there_is() -> None:
    hand = position(rules(empty_stock="pass"), ["5S 6C", "9H 10H", "4D 5D"], "10S", stock="KH")
    play(hand, "5S")
    assert held(hand, 0) == cards("6C KH")


# == Drawing variations ====================================================================

DRAWING = [
    # "Some allow the drawn card to be played immediately if it is a legal play."
    pytest.param(
        {"draw": "one_then_play"},
        "5C 3D",
        "9S KH",
        "draw",
        0,
        {"9S", "pass"},
        id="one-then-play-only-the-drawn-card-or-pass",
    ),
    pytest.param(
        {"draw": "one_then_play"},
        "5C 3D",
        "8H KH",
        "draw",
        0,
        {*nominations("8H"), "pass"},
        id="one-then-play-a-drawn-eight-nominates",
    ),
    pytest.param(
        {"draw": "one_then_play"},
        "5C",
        "9S KH",
        "draw",
        0,
        {"9S", "9S!", "pass"},
        id="one-then-play-the-drawn-card-with-the-last-card-call",
    ),
    pytest.param(
        {"draw": "one_then_play"},
        "5C 3D",
        "KH 9S",
        "draw",
        1,
        {"5D", "draw"},
        id="one-then-play-unplayable-turn-passes",
    ),
    pytest.param(
        {"draw": "one_then_play"},
        "5C 3D",
        "9S KH",
        "draw pass",
        1,
        {"5D", "draw"},
        id="one-then-play-pass",
    ),
    # "Some allow more than one card to be drawn - either up to a fixed number of cards,
    # after which if you still cannot (or will not) play the turn passes to the next player."
    pytest.param({"draw": "up_to"}, "3D 4D", "6C 7C 9S KH", "draw", 0, {"draw"}, id="up-to-1"),
    pytest.param({"draw": "up_to"}, "3D 4D", "6C 7C 9S KH", "draw draw", 0, {"draw"}, id="up-to-2"),
    pytest.param(
        {"draw": "up_to"},
        "3D 4D",
        "6C 7C 9S KH",
        "draw draw draw",
        0,
        {"9S", "pass"},
        id="up-to-3-then-play-or-pass",
    ),
    pytest.param(
        {"draw": "up_to"},
        "3D 4D",
        "9S 7C 6C KH",
        "draw",
        0,
        {"9S", "draw"},
        id="up-to-playable-card-may-draw-on",
    ),
    pytest.param(
        {"draw": "up_to"},
        "3D 4D",
        "6C 7C 10C KH",
        "draw draw draw",
        1,
        {"5D", "draw"},
        id="up-to-3-nothing-playable-turn-passes",
    ),
    pytest.param(
        {"draw": "up_to", "draw_limit": 2},
        "3D 4D",
        "6C 9S 10C KH",
        "draw draw",
        0,
        {"9S", "pass"},
        id="up-to-2-limit",
    ),
    # "Others require you to continue drawing until either you can play or the deck is
    # exhausted."
    pytest.param(
        {"draw": "until_playable"},
        "3D 4D",
        "6C 7C 9S KH",
        "draw",
        0,
        {"9S"},
        id="until-playable",
    ),
    pytest.param(
        {"draw": "until_playable"},
        "3D 4D",
        "6C 7C",
        "draw",
        1,
        {"5D", "pass"},
        id="until-the-deck-is-exhausted",
    ),
    # "However, some people play that you may only draw if you are unable to play - if you
    # can play you must."
    pytest.param(
        {"must_play_if_able": True}, "5C 3D 4H", "9S KH", "", 0, {"5C"}, id="must-play-if-able"
    ),
    pytest.param(
        {"must_play_if_able": True}, "4C 3D 4H", "9S KH", "", 0, {"draw"}, id="draw-if-unable"
    ),
]


@pytest.mark.parametrize(
    ("options", "held_cards", "stock", "moves", "current", "expected"), DRAWING
)
def test_drawing_variations(
    options: Options, held_cards: str, stock: str, moves: str, current: int, expected: set[str]
) -> None:
    hand = position(ruleset(options), [held_cards, "5D 10D JH", "JD QD"], "5S", stock=stock)
    play(hand, moves)
    assert hand.current == current
    assert legal(hand) == expected


def test_until_playable_draws_in_one_move() -> None:
    hand = position(
        rules(draw="until_playable"), ["3D 4D", "9C 10D", "JD QD"], "5S", stock="6C 7C 9S KH"
    )
    hand.apply(DRAW)
    assert held(hand, 0) == cards("3D 4D 6C 7C 9S")
    assert hand.observation(0).drawn == 3
    assert [str(card) for card in hand.stock] == ["KH"]


# Olsen: "If you have no card that you can play you can draw up to 3 cards from the deck.
# You can't draw if you have any cards that you can play in your hand. If you've drawn 3
# cards and still can't play you must pass and the next player plays."
@pytest.mark.parametrize(
    ("held_cards", "stock", "moves", "current", "expected"),
    [
        pytest.param("5C 3D 4H", "9S KH", "", 0, {"5C"}, id="can-play-cannot-draw"),
        pytest.param("4C 3D 4H", "9S KH", "draw", 0, {"9S"}, id="drawn-card-must-be-played"),
        pytest.param("4C 3D 4H", "6C 9S KH", "draw", 0, {"draw"}, id="draws-again"),
        pytest.param("4C 3D 4H", "6C 7C 10C KH", "draw draw draw", 1, {"5D"}, id="then-pass"),
    ],
)
def test_olsen_drawing(
    held_cards: str, stock: str, moves: str, current: int, expected: set[str]
) -> None:
    hand = position(rules("olsen"), [held_cards, "5D 10D JH", "JD QD"], "5S", stock=stock)
    play(hand, moves)
    assert hand.current == current
    assert legal(hand) == expected


# == Changing suit variations ==============================================================

CHANGING_SUIT = [
    # "Some play that you can only play an Eight that matches the previous card's suit or
    # rank."
    pytest.param(
        {"wild_must_match": True},
        "8H 8S 3C",
        "5S",
        {},
        {*nominations("8S"), "draw"},
        id="wild-must-match-suit",
    ),
    pytest.param(
        {"wild_must_match": True},
        "8H 3C 4D",
        "8C",
        {"suit": "S"},
        {*nominations("8H"), "draw"},
        id="wild-must-match-rank",
    ),
    # "Some play that you can play an Eight at any time but when playing an Eight you do not
    # nominate a suit."
    pytest.param(
        {"wild_nominates": "never"}, "8H 3C 4D", "5S", {}, {"8H", "draw"}, id="never-nominates"
    ),
    # "an Eight can be played on any card, but the player can only nominate a different
    # suit if the Eight matches the rank or suit of the previous card."
    pytest.param(
        {"wild_nominates": "if_matching"},
        "8S 8H 3C",
        "5S",
        {},
        {*nominations("8S"), "8H", "draw"},
        id="nominates-if-matching",
    ),
    # "Some players use jacks or aces rather than eights as the cards which have the power
    # to change suit."
    pytest.param(
        {"wild_rank": "J"},
        "JH 8H 8S 3C",
        "5S",
        {},
        {*nominations("JH"), "8S", "draw"},
        id="jacks-wild-eights-plain",
    ),
    pytest.param(
        {"wild_rank": "J"},
        "JH 8H 3S",
        "JC",
        {"suit": "D"},
        {*nominations("JH"), "draw"},
        id="on-a-wild-jack-nominated-suit-or-jack",
    ),
    pytest.param({"wild_rank": "none"}, "8H 3C 4S", "5H", {}, {"8H", "draw"}, id="no-wild-rank"),
    pytest.param(
        {"wild_rank": "none"}, "8H 3C 4S", "8D", {}, {"8H", "draw"}, id="no-wild-eight-by-rank"
    ),
]


@pytest.mark.parametrize(("options", "held_cards", "discard", "extra", "expected"), CHANGING_SUIT)
def test_changing_suit_variations(
    options: Options, held_cards: str, discard: str, extra: dict[str, Any], expected: set[str]
) -> None:
    hand = position(ruleset(options), [held_cards, "KH 2S 4C", "JD QD"], discard, **extra)
    assert legal(hand) == expected


# "The next player must simply match the suit of the Eight you played or play another eight."
@pytest.mark.parametrize(
    ("nominates", "answer"),
    [
        pytest.param("never", {"8D"}, id="never"),
        # The second Eight matches the first by rank, so it nominates.
        pytest.param("if_matching", nominations("8D"), id="if-matching"),
    ],
)
def test_an_eight_without_nomination_is_followed_by_its_own_suit(
    nominates: str, answer: set[str]
) -> None:
    hand = position(rules(wild_nominates=nominates), ["8H 3C 4D", "KH 3S 8D 5C", "JD QD"], "5S")
    play(hand, "8H")
    assert state(hand, ["current", "suit"]) == {"current": 1, "suit": "H"}
    assert legal(hand) == {"KH", *answer, "draw"}


def test_a_wild_starter_without_nomination_is_followed_by_its_own_suit() -> None:
    hand = Hand.from_deal(
        rules(wild_nominates="never"),
        ["3C 4C 5C 6C 7C", "3H 4D 5S 8H 7D", "3S 4S 6S 7S 9S"],
        "8D KD JD",
        dealer=0,
    )
    assert hand.phase is Phase.PLAY
    assert state(hand, ["current", "suit"]) == {"current": 1, "suit": "D"}
    assert legal(hand) == {"4D", "7D", "8H", "draw"}


# Variations: "it may be agreed that the Queen of Spades requires the next player to draw 5
# cards".  SPEC: "only another draw-five card answers it" (two packs hold two).
FIVE = rules(draw_five_card="QS", decks=2)


def test_queen_of_spades_draw_five() -> None:
    # The Queen of Spades draws five instead of skipping: the next player is the one who
    # draws (or answers).
    hand = position(FIVE, ["QS 3S 4S", "QS 2S KS 8D QH", "JD 10D"], "3S")
    play(hand, "QS")
    assert state(hand, ["current", "pending", "pending_kind"]) == {
        "current": 1,
        "pending": 5,
        "pending_kind": "five",
    }
    assert legal(hand) == {"QS", "draw"}
    play(hand, "QS")
    assert state(hand, ["current", "pending"]) == {"current": 2, "pending": 10}


def test_queen_of_spades_draw_five_penalty_ends_the_turn() -> None:
    hand = position(FIVE, ["2S KS 8D QH", "3S 4S", "JD 10D"], "QS", pending=5)
    assert legal(hand) == {"draw"}
    total = len(hand.stock)
    hand.apply(DRAW)
    assert len(held(hand, 0)) == 9
    assert len(hand.stock) == total - 5
    assert state(hand, ["current", "pending"]) == {"current": 1, "pending": 0}


def test_a_queen_of_spades_does_not_answer_a_two() -> None:
    hand = position(FIVE, ["QS 2H 5C", "KS 8D", "JD 10D"], "2S", pending=2)
    assert legal(hand) == {"2H", "draw"}


# Encyclopedia: "The game can not end with a special card, this includes two, queen or
# eight(wild) card."  (Aces reverse in the same list of special cards.)
@pytest.mark.parametrize(
    ("preset", "options", "last", "expected"),
    [
        pytest.param("pagat", {"specials_on_going_out": "forbidden"}, "2S", {"draw"}, id="two"),
        pytest.param("pagat", {"specials_on_going_out": "forbidden"}, "QS", {"draw"}, id="q"),
        pytest.param("pagat", {"specials_on_going_out": "forbidden"}, "AS", {"draw"}, id="ace"),
        pytest.param("pagat", {"specials_on_going_out": "forbidden"}, "8S", {"draw"}, id="8"),
        pytest.param(
            "pagat", {"specials_on_going_out": "forbidden"}, "5S", {"5S", "draw"}, id="plain"
        ),
        pytest.param("encyclopedia", {}, "QS", {"draw"}, id="encyclopedia-preset"),
        pytest.param("pagat", {}, "2S", {"2S", "draw"}, id="ignored-in-pagat"),
    ],
)
def test_going_out_on_a_special_card_forbidden(
    preset: str, options: Options, last: str, expected: set[str]
) -> None:
    hand = position(ruleset(options, preset), [last, "9H 10H", "4D 5D"], "10S")
    assert legal(hand) == expected


# Olsen: "If the first card on the table is an eight when you start, then you are allowed to
# put down any card from your hand."
@pytest.mark.parametrize("preset", ["olsen", "pagat"])
def test_eight_starter_any_card(preset: str) -> None:
    hand = Hand.from_deal(
        rules(preset, starter_eight="any_card"),
        ["3C 4C 5C 6C 7C", "3H 3D KS 9H 4D", "3S 4S 6S 7S 9S"],
        "8H KD JD",
        dealer=0,
    )
    assert hand.phase is Phase.PLAY
    assert hand.current == 1
    singles = {text for text in legal(hand) if "+" not in text and text != "draw"}
    assert singles == {"3H", "3D", "KS", "9H", "4D"}
    assert ("draw" in legal(hand)) is (preset == "pagat")
    play(hand, "KS")
    assert str(hand.suit) == "S"


# == Illegal moves ========================================================================

ILLEGAL = [
    pytest.param({}, {}, "", "3D", id="wrong-suit-and-rank"),
    pytest.param({}, {}, "", "QC", id="card-not-held"),
    pytest.param({}, {}, "", "8C", id="eight-without-nomination"),
    pytest.param({}, {}, "", "5H:S", id="nomination-on-a-plain-card"),
    pytest.param({}, {}, "", "5H!", id="announcement-with-three-cards-left"),
    pytest.param({}, {}, "", "pass", id="pass-while-the-stock-has-cards"),
    pytest.param({}, {}, "", "nominate:S", id="nominate-in-play"),
    pytest.param({}, {}, "", "5H+KS", id="unequal-cards-together"),
    pytest.param({"must_play_if_able": True}, {}, "", "draw", id="draw-when-must-play"),
    pytest.param({}, {"pending": 2, "discard": "2H"}, "", "8C:S", id="eight-on-a-pending-two"),
    pytest.param({}, {"pending": 2, "discard": "2H"}, "", "5H", id="suit-on-a-pending-two"),
    pytest.param({"draw": "one_then_play"}, {"stock": "9H"}, "draw", "5H", id="not-drawn-card"),
    pytest.param({}, {}, "", "KD", id="another-seats-card"),
    pytest.param({}, {}, "KS", "KS", id="card-on-the-pile"),
]


@pytest.mark.parametrize(("options", "extra", "before", "move"), ILLEGAL)
def test_illegal_moves_raise_and_change_nothing(
    options: Options, extra: dict[str, Any], before: str, move: str
) -> None:
    setup = {"discard": "KH", **extra}
    hand = position(ruleset(options), ["5H 8C KS 3D", "KD 4S", "2C 4C"], **setup)
    play(hand, before)
    was = snapshot(hand)
    view = hand.observation(hand.current)
    with pytest.raises(IllegalMoveError):
        hand.apply(Move.parse(move))
    assert snapshot(hand) == was
    assert view.snapshot() == was["observations"][hand.current]


def test_no_move_is_legal_after_the_hand_is_over() -> None:
    hand = position(rules(), ["5H", "KD 4S", "2C 4C"], "KH")
    play(hand, "5H")
    was = snapshot(hand)
    assert hand.legal_moves() == []
    with pytest.raises(IllegalMoveError, match="over"):
        hand.apply(DRAW)
    assert snapshot(hand) == was


def test_nomination_phase_accepts_only_nominations() -> None:
    hand = Hand.from_deal(rules(), ["3C 4C 5C 6C 7C", "3H 4H 5S 8H 7D"], "8D KD JD", dealer=0)
    was = snapshot(hand)
    for text in ("3C", "draw", "pass"):
        with pytest.raises(IllegalMoveError):
            hand.apply(Move.parse(text))
    assert snapshot(hand) == was


# == Turn cap =============================================================================


# SPEC: "A hand that reaches the turn cap (a rule, default 1,000 turns) also stops as
# blocked"
def test_turn_cap_ends_the_hand_scored_as_blocked() -> None:
    hand = position(rules(turn_cap=3), ["9H 10H", "3C", "JD QC"], "KS", stock="AC AD AH 4C")
    play(hand, "draw draw")
    assert not hand.over
    hand.apply(DRAW)
    assert hand.result is not None
    assert hand.result.kind == "turn_cap"
    assert hand.result.turns == 3
    assert hand.result.penalties == (20, 4, 21)
    assert hand.result.winners == (1,)
    assert hand.result.points == (0, 16 + 0 + 17, 0)
    assert hand.legal_moves() == []


# == Record ===============================================================================


def test_a_record_replays_the_position_exactly() -> None:
    hand = position(rules(), ["2S 3H 4H", "9D 10D", "3S 2D 8H 4C 5H"], "4D 7C KS", stock="")
    play(hand, "2S draw 8H:C")
    record = HandRecord.from_json(HandRecord.of(hand).to_json())
    again = record.replay(rules())
    assert snapshot(again) == snapshot(hand)


# == Match ================================================================================


def choose(moves: list[Move]) -> Move:
    """Play a card when possible, announcing "last card"; otherwise draw or pass."""
    return max(moves, key=lambda move: (move.is_play, move.announce))


@pytest.mark.parametrize(("preset", "players"), [("pagat", 2), ("pagat", 4), ("basic", 3)])
def test_a_match_is_hands_until_a_player_reaches_the_target(preset: str, players: int) -> None:
    rule_set = rules(preset)
    match = Match(rule_set, players=players, seed=11)
    target = rule_set.target_for(players)
    totals = [0] * players
    while not match.over:
        match.apply(choose(match.legal_moves()))
    result = match.result
    assert result is not None
    assert result.ended == "target"
    assert result.hands == len(match.hand_results) == len(match.records)
    for number, (hand_result, record) in enumerate(
        zip(match.hand_results, match.records, strict=True)
    ):
        # SPEC §2.1: "The dealer of a match's first hand is seat 0 and the deal passes left
        # each hand."
        assert record.start["dealer"] == number % players
        assert max(totals) < target
        totals = [t + p for t, p in zip(totals, hand_result.points, strict=True)]
    assert max(totals) >= target
    assert result.scores == tuple(totals)
    assert result.placements == placements(totals)


def test_a_match_stops_at_the_hand_cap() -> None:
    match = Match(rules(hand_cap=2, target=100_000), players=3, seed=5)
    while not match.over:
        match.apply(choose(match.legal_moves()))
    assert match.result is not None
    assert match.result.ended == "hand_cap"
    assert match.result.hands == 2
    assert [record.start["dealer"] for record in match.records] == [0, 1]


# SPEC §2.3: "the others are placed by running total, higher first, ties sharing a place."
@pytest.mark.parametrize(
    ("values", "higher_is_better", "places"),
    [
        ((120, 30, 60), True, (1, 3, 2)),
        ((10, 30, 30, 5), True, (3, 1, 1, 4)),
        ((0, 0), True, (1, 1)),
        ((3, 0, 5), False, (2, 1, 3)),
        ((2, 2, 0, 7), False, (2, 2, 1, 4)),
    ],
)
def test_placements(
    values: tuple[int, ...], higher_is_better: bool, places: tuple[int, ...]
) -> None:
    assert placements(values, higher_is_better=higher_is_better) == places


# == Whole hands ==========================================================================


@pytest.mark.parametrize("preset", ["pagat", "basic", "encyclopedia", "olsen"])
@pytest.mark.parametrize("players", [2, 3, 6])
def test_cards_are_conserved_and_hands_end(preset: str, players: int) -> None:
    rule_set = rules(preset)
    for seed in range(3):
        hand = Hand.deal(rule_set, players, dealer=seed % players, seed=seed)
        total = hand.card_count()
        assert total == 52 * rule_set.decks_for(players)
        assert {len(cards_) for cards_ in hand.hands} == {rule_set.hand_size_for(players)}
        while not hand.over:
            hand.apply(choose(hand.legal_moves()))
            assert hand.card_count() == total
        assert hand.result is not None
