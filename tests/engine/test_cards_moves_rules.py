"""Cards, moves and rule sets: text forms that round-trip, errors that name the problem,
presets, and the table-size rules (SPEC §2.1, §2.3, §2.4)."""

from __future__ import annotations

import dataclasses
import json
import pickle

import pytest

from c8league.engine import (
    ALL_CARDS,
    DRAW,
    OPTIONS,
    PASS,
    PRESETS,
    Card,
    Move,
    MoveKind,
    Rank,
    Rules,
    Suit,
    card_penalty,
    format_cards,
    pack,
    parse_cards,
    preset_rules,
)
from c8league.engine.rules import OptionValue
from c8league.errors import CardError, RulesError

from .helpers import legal, position, rules

# -- cards ----------------------------------------------------------------------------


@pytest.mark.parametrize("card", ALL_CARDS, ids=str)
def test_every_card_round_trips_through_its_text(card: Card) -> None:
    text = str(card)
    assert Card.parse(text) is card
    assert Card.parse(text.lower()) is card
    assert Card.parse(card.pretty()) is card
    assert Card.of(card.rank, card.suit) is card
    assert pickle.loads(pickle.dumps(card)) is card


def test_the_pack_holds_52_different_cards() -> None:
    assert len(ALL_CARDS) == 52
    assert len({str(card) for card in ALL_CARDS}) == 52
    assert sorted(card.index for card in ALL_CARDS) == list(range(52))
    assert len(pack(2)) == 104


# SPEC §2.1: "Text notation is rank + suit: AS, 10H (also TH), QC, 8D; display may use ♣♦♥♠."
@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("QS", "QS"),
        ("10H", "10H"),
        ("TH", "10H"),
        ("th", "10H"),
        ("8D", "8D"),
        ("qc", "QC"),
        ("as", "AS"),
        ("1S", "AS"),
        (" 8d ", "8D"),
        ("Q♠", "QS"),
        ("10♥", "10H"),
        ("a♣", "AC"),
        ("k♦", "KD"),
    ],
)
def test_card_spellings(text: str, canonical: str) -> None:
    assert str(Card.parse(text)) == canonical


@pytest.mark.parametrize(
    "text", ["", "Q", "S", "QX", "XS", "11H", "0S", "H8", "8DD", "10", "Q S", "QS!", "8H:S"]
)
def test_bad_card_text_raises_card_error(text: str) -> None:
    with pytest.raises(CardError):
        Card.parse(text)


def test_card_lists_round_trip() -> None:
    assert format_cards(parse_cards("QS 10H 8D")) == "QS 10H 8D"
    assert format_cards(parse_cards("qs, TH,8d")) == "QS 10H 8D"
    assert parse_cards(["QS", "TH"]) == [Card.of(Rank.Q, Suit.S), Card.of(Rank.R10, Suit.H)]
    with pytest.raises(CardError):
        parse_cards("QS ZZ")


@pytest.mark.parametrize(
    ("text", "suit"),
    [("S", Suit.S), ("h", Suit.H), ("♦", Suit.D), ("clubs", Suit.C), ("Heart", Suit.H)],
)
def test_suit_spellings(text: str, suit: Suit) -> None:
    assert Suit.parse(text) is suit


# "50 for an eight, 10 for a picture card, and spot cards at face value (one point for an
# ace, two for a two and so on)"
@pytest.mark.parametrize(
    ("card", "wild", "value"),
    [
        ("8C", 8, 50),
        ("KD", 8, 10),
        ("QH", 8, 10),
        ("JS", 8, 10),
        ("10C", 8, 10),
        ("9D", 8, 9),
        ("2H", 8, 2),
        ("AS", 8, 1),
        ("8C", -1, 8),
        ("JS", 11, 50),
    ],
    ids=lambda value: str(value),
)
def test_card_penalty(card: str, wild: int, value: int) -> None:
    assert card_penalty(Card.parse(card), wild) == value


# -- moves ------------------------------------------------------------------------------

MOVE_TEXTS = [
    "QS",
    "10H",
    "8H:S",
    "8H:S!",
    "9C+9D+9H",
    "2C+2D!",
    "8C+8D:H",
    "8C+8D:H!",
    "5S!",
    "draw",
    "pass",
    "nominate:C",
    "nominate:D",
    "nominate:H",
    "nominate:S",
]


@pytest.mark.parametrize("text", MOVE_TEXTS)
def test_every_move_form_round_trips(text: str) -> None:
    move = Move.parse(text)
    assert str(move) == text
    assert Move.parse(str(move)) == move
    assert hash(Move.parse(text)) == hash(move)
    assert pickle.loads(pickle.dumps(move)) == move


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("8h:s", "8H:S"),
        ("TH", "10H"),
        ("9c+9d+9h", "9C+9D+9H"),
        ("5s!", "5S!"),
        ("DRAW", "draw"),
        (" Pass ", "pass"),
        ("nominate:hearts", "nominate:H"),
        ("8H:♠", "8H:S"),
    ],
)
def test_move_spellings(text: str, canonical: str) -> None:
    assert str(Move.parse(text)) == canonical


def test_move_constructors_match_the_text_forms() -> None:
    assert Move.play("8H", suit="S") == Move.parse("8H:S")
    assert Move.play("9C", "9D", "9H") == Move.parse("9C+9D+9H")
    assert Move.play("5S", announce=True) == Move.parse("5S!")
    assert Move.nominate("S") == Move.parse("nominate:S")
    assert Move.parse("draw") == DRAW
    assert Move.parse("pass") == PASS
    move = Move.parse("9C+9D+9H:S!")
    assert move.kind is MoveKind.PLAY
    assert [str(card) for card in move.cards] == ["9C", "9D", "9H"]
    assert move.suit is Suit.S
    assert move.announce
    assert Move.parse("9C+9D+9H") != Move.parse("9C+9H+9D")
    assert Move.parse("nominate:S").kind is MoveKind.NOMINATE


@pytest.mark.parametrize(
    "text", ["", "!", ":S", "8H:X", "8H:", "9C+", "+9C", "XX", "nominate:X", "nominate:"]
)
def test_bad_move_text_raises_card_error(text: str) -> None:
    with pytest.raises(CardError):
        Move.parse(text)


def test_a_play_needs_a_card() -> None:
    with pytest.raises(CardError):
        Move.play()


@pytest.mark.parametrize(
    ("preset", "options"),
    [
        ("pagat", {}),
        ("pagat", {"multiple_equal": True, "decks": 2}),
        ("olsen", {}),
        ("countdown", {"decks": 2}),
    ],
)
def test_every_generated_move_round_trips(preset: str, options: dict[str, OptionValue]) -> None:
    hand = position(
        rules(preset, **options),
        ["8C 8D 9C 9D 9H 2C 2D QS", "3C 4C", "5H 6H"],
        "9S",
    )
    moves = hand.legal_moves()
    assert len(moves) == len(set(moves))
    for move in moves:
        assert Move.parse(str(move)) == move
    if options.get("multiple_equal"):
        assert legal(hand) >= {"9C", "9C+9D+9H", "9C+9H+9D"}


# -- rules: options ----------------------------------------------------------------------

# Each option's documented values: (value given, value printed back by to_options).
OPTION_VALUES: dict[str, list[tuple[OptionValue, OptionValue]]] = {
    "hand_size": [("auto", "auto"), (1, 1), (7, 7), ("8", 8), (20, 20)],
    "decks": [("auto", "auto"), (1, 1), ("2", 2), ("AUTO", "auto")],
    "draw": [
        ("one", "one"),
        ("one_then_play", "one_then_play"),
        ("up_to", "up_to"),
        ("until_playable", "until_playable"),
        ("Up_To", "up_to"),
    ],
    "draw_limit": [(1, 1), (3, 3), ("5", 5)],
    "must_play_if_able": [(False, False), (True, True), ("true", True), ("no", False)],
    "wild_rank": [("8", "8"), (8, "8"), ("J", "J"), ("a", "A"), ("T", "10"), ("none", "none")],
    "wild_must_match": [(False, False), (True, True), ("yes", True), ("off", False)],
    "wild_nominates": [("always", "always"), ("never", "never"), ("if_matching", "if_matching")],
    "skip_rank": [("Q", "Q"), ("J", "J"), (4, "4"), ("none", "none")],
    "reverse_rank": [("A", "A"), ("4", "4"), ("None", "none")],
    "draw_two_rank": [("2", "2"), (7, "7"), ("none", "none")],
    "draw_five_card": [("none", "none"), ("QS", "QS"), ("qs", "QS"), ("TH", "10H")],
    "multiple_equal": [(False, False), (True, True), ("1", True), ("0", False)],
    "last_card": [(True, True), (False, False), ("false", False), ("on", True)],
    "empty_stock": [("reshuffle", "reshuffle"), ("pass", "pass")],
    "specials_on_going_out": [("ignored", "ignored"), ("forbidden", "forbidden")],
    "starter_eight": [("dealer_nominates", "dealer_nominates"), ("any_card", "any_card")],
    "target": [("auto", "auto"), (100, 100), ("500", 500)],
    "turn_cap": [(1000, 1000), (1, 1), ("50", 50)],
    "hand_cap": [(500, 500), (1, 1), ("20", 20)],
    "countdown": [(False, False), (True, True), ("true", True)],
    "equal_rank_on_wild": [(False, False), (True, True), ("false", False)],
}


def test_the_option_table_covers_every_option_and_every_rules_field() -> None:
    assert set(OPTION_VALUES) == set(OPTIONS)
    assert set(OPTIONS) == {field.name for field in dataclasses.fields(Rules)}
    for name, spec in OPTIONS.items():
        assert spec.name == name
        assert spec.values and spec.meaning and spec.source


@pytest.mark.parametrize(
    ("name", "raw", "printed"),
    [(name, raw, printed) for name, rows in OPTION_VALUES.items() for raw, printed in rows],
    ids=[f"{name}={raw!r}" for name, rows in OPTION_VALUES.items() for raw, _ in rows],
)
def test_option_values_parse_and_round_trip(
    name: str, raw: OptionValue, printed: OptionValue
) -> None:
    rule_set = Rules.from_options("pagat", {name: raw})
    options = rule_set.to_options()
    assert options[name] == printed
    assert Rules.from_options("pagat", options) == rule_set
    assert Rules.from_json(rule_set.to_json()) == rule_set
    assert json.loads(rule_set.to_json()) == options
    assert Rules.from_options("pagat", {name: printed}) == rule_set


# SPEC §2.4, "values (default first)": the default preset's value of every option.
def test_the_defaults_are_the_first_documented_values() -> None:
    assert Rules.from_options().to_options() == {
        "hand_size": "auto",
        "decks": "auto",
        "draw": "one",
        "draw_limit": 3,
        "must_play_if_able": False,
        "wild_rank": "8",
        "wild_must_match": False,
        "wild_nominates": "always",
        "skip_rank": "Q",
        "reverse_rank": "A",
        "draw_two_rank": "2",
        "draw_five_card": "none",
        "multiple_equal": False,
        "last_card": True,
        "empty_stock": "reshuffle",
        "specials_on_going_out": "ignored",
        "starter_eight": "dealer_nominates",
        "target": "auto",
        "turn_cap": 1000,
        "hand_cap": 500,
        "countdown": False,
        "equal_rank_on_wild": False,
    }


BAD_VALUES: list[tuple[str, OptionValue, str]] = [
    ("hand_size", 0, "auto, or 1..20"),
    ("hand_size", 21, "auto, or 1..20"),
    ("hand_size", "seven", "auto, or 1..20"),
    ("hand_size", True, "auto, or 1..20"),
    ("decks", 3, "auto, or 1..2"),
    ("draw", "two", "one, one_then_play, up_to, until_playable"),
    ("draw", True, "one, one_then_play, up_to, until_playable"),
    ("draw_limit", 0, "1 or more"),
    ("must_play_if_able", "maybe", "true, false"),
    ("wild_rank", "11", "A 2 … 10 J Q K"),
    ("wild_rank", "X", "A 2 … 10 J Q K"),
    ("wild_must_match", "sometimes", "true, false"),
    ("wild_nominates", "sometimes", "always, never, if_matching"),
    ("skip_rank", "Z", "A 2 … 10 J Q K"),
    ("reverse_rank", True, "A 2 … 10 J Q K"),
    ("draw_two_rank", "0", "A 2 … 10 J Q K"),
    ("draw_five_card", "QX", "a card such as QS, or none"),
    ("multiple_equal", 2, "true, false"),
    ("last_card", "x", "true, false"),
    ("empty_stock", "burn", "reshuffle, pass"),
    ("specials_on_going_out", "allowed", "ignored, forbidden"),
    ("starter_eight", "bury", "dealer_nominates, any_card"),
    ("target", 0, "auto, or 1 or more"),
    ("turn_cap", -5, "1 or more"),
    ("hand_cap", "x", "1 or more"),
    ("countdown", "nah", "true, false"),
    ("equal_rank_on_wild", "nah", "true, false"),
]


@pytest.mark.parametrize(("name", "raw", "valid"), BAD_VALUES, ids=lambda v: str(v))
def test_a_bad_value_names_the_option_and_lists_valid_values(
    name: str, raw: OptionValue, valid: str
) -> None:
    with pytest.raises(RulesError) as caught:
        Rules.from_options("pagat", {name: raw})
    message = str(caught.value)
    assert name in message
    assert valid in message


def test_an_unknown_option_is_named_and_the_valid_ones_listed() -> None:
    with pytest.raises(RulesError) as caught:
        Rules.from_options("pagat", {"wild_card": "8"})
    message = str(caught.value)
    assert "wild_card" in message
    assert all(name in message for name in OPTIONS)


def test_a_draw_five_card_of_the_draw_two_rank_is_refused() -> None:
    with pytest.raises(RulesError, match="draw_five_card"):
        Rules.from_options("pagat", {"draw_five_card": "2S"})
    assert Rules.from_options("pagat", {"draw_five_card": "2S", "draw_two_rank": "none"})


def test_stored_rules_that_are_not_an_object_are_refused() -> None:
    with pytest.raises(RulesError):
        Rules.from_json("[1, 2]")
    with pytest.raises(RulesError, match="colour"):
        Rules.from_json('{"colour": "red"}')


def test_stored_rules_that_are_not_json_raise_rules_error() -> None:
    with pytest.raises(RulesError):
        Rules.from_json("wild_rank=8")


def test_replace_and_describe_changes() -> None:
    changed = Rules.from_options().replace(multiple_equal=True, wild_rank="J")
    assert changed.multiple_equal
    assert changed.wild_rank is Rank.J
    assert changed.describe_changes() == {"multiple_equal": True, "wild_rank": "J"}
    assert Rules.from_options().describe_changes() == {}


# -- rules: presets --------------------------------------------------------------------


@pytest.mark.parametrize("name", list(PRESETS))
def test_every_preset_loads_and_round_trips(name: str) -> None:
    rule_set = preset_rules(name)
    assert Rules.from_options(name) is rule_set
    assert Rules.from_options(name.upper()) is rule_set
    assert Rules.from_options("pagat", rule_set.to_options()) == rule_set
    assert Rules.from_json(rule_set.to_json()) == rule_set
    rule_set.validate()
    for players in range(2, 9):
        rule_set.check_table(players)
    assert PRESETS[name][1]


def test_an_unknown_preset_lists_the_presets() -> None:
    with pytest.raises(RulesError) as caught:
        Rules.from_options("uno")
    assert "uno" in str(caught.value)
    assert all(name in str(caught.value) for name in PRESETS)


# SPEC §2.4 "Presets: ..." and §2.5, one row per preset.
@pytest.mark.parametrize(
    ("name", "expected"),
    [
        pytest.param("pagat", {}, id="pagat-is-the-default"),
        pytest.param(
            "basic",
            {
                "skip_rank": "none",
                "reverse_rank": "none",
                "draw_two_rank": "none",
                "last_card": False,
            },
            id="basic-eights-only-no-last-card-call",
        ),
        pytest.param(
            "encyclopedia",
            {"draw": "until_playable", "specials_on_going_out": "forbidden"},
            id="encyclopedia-draw-until-playable-no-special-out",
        ),
        pytest.param(
            "olsen",
            {
                "multiple_equal": True,
                "must_play_if_able": True,
                "draw": "up_to",
                "starter_eight": "any_card",
                "skip_rank": "none",
                "reverse_rank": "none",
                "draw_two_rank": "none",
                "last_card": False,
            },
            id="olsen-equal-cards-must-play-draw-up-to-3-any-card-on-8",
        ),
        pytest.param(
            "countdown",
            {
                "countdown": True,
                "skip_rank": "J",
                "reverse_rank": "none",
                "draw_five_card": "QS",
                "multiple_equal": True,
                "last_card": False,
            },
            id="countdown-jacks-skip-QS-draws-five-equal-cards-no-reverse",
        ),
    ],
)
def test_preset_contents(name: str, expected: dict[str, OptionValue]) -> None:
    options = preset_rules(name).to_options()
    for key, value in expected.items():
        assert options[key] == value, key
    if name == "olsen":
        assert options["draw_limit"] == 3
    if name == "countdown":
        assert options["draw_two_rank"] == "2"


# -- rules: the table --------------------------------------------------------------------


# SPEC §2.3: "50 points per player (100 for two players, 150 for three, 200 for four, 250
# for five, 300 for six, 350 for seven, 400 for eight), overridable per league."
@pytest.mark.parametrize(
    ("players", "target"), [(2, 100), (3, 150), (4, 200), (5, 250), (6, 300), (7, 350), (8, 400)]
)
def test_target_score(players: int, target: int) -> None:
    assert Rules.from_options().target_for(players) == target
    assert rules(target=120).target_for(players) == 120


# "The dealer deals (singly) five cards to each player (seven each if there are only two
# players)."  Countdown: "eight cards are dealt to each player".
@pytest.mark.parametrize("players", range(2, 9))
def test_hand_size(players: int) -> None:
    assert Rules.from_options().hand_size_for(players) == (7 if players == 2 else 5)
    assert rules(hand_size=8).hand_size_for(players) == 8
    assert preset_rules("countdown").hand_size_for(players) == 8


# "two packs (104 cards) when more than five players sit at the table"
@pytest.mark.parametrize("players", range(2, 9))
def test_decks_auto(players: int) -> None:
    assert Rules.from_options().decks_for(players) == (2 if players > 5 else 1)
    assert rules(decks=2).decks_for(players) == 2
    assert rules(decks=1).decks_for(players) == 1


@pytest.mark.parametrize(
    ("options", "players", "message"),
    [
        pytest.param({}, 1, "2 to 8 players", id="one-player"),
        pytest.param({}, 0, "2 to 8 players", id="no-players"),
        pytest.param({}, 9, "2 to 8 players", id="nine-players"),
        pytest.param({"hand_size": 11}, 5, "56 cards", id="five-times-eleven-one-pack"),
        pytest.param({"hand_size": 20, "decks": "auto"}, 6, "121 cards", id="two-packs-short"),
        pytest.param({"countdown": True, "decks": 1}, 7, "57 cards", id="countdown-one-pack"),
    ],
)
def test_check_table_errors(options: dict[str, OptionValue], players: int, message: str) -> None:
    rule_set = Rules.from_options("pagat", options)
    with pytest.raises(RulesError, match=message):
        rule_set.check_table(players)


@pytest.mark.parametrize(
    ("options", "players"),
    [({}, 2), ({}, 8), ({"hand_size": 10}, 5), ({"decks": 1}, 8), ({"countdown": True}, 8)],
)
def test_check_table_accepts(options: dict[str, OptionValue], players: int) -> None:
    Rules.from_options("pagat", options).check_table(players)
