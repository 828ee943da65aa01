"""A league's house rules in words: every rule option that differs from the league's
preset, as a short sentence the players at a table can read (on the pairing sheet, in
``league show`` and in the report)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from c8league.engine.rules import OPTIONS, PRESETS, OptionValue, Rules

__all__ = ["house_rules", "rule_in_words", "rules_line"]


def _rank(value: OptionValue) -> str:
    return {"A": "Aces", "J": "Jacks", "Q": "Queens", "K": "Kings"}.get(str(value), f"{value}s")


def _flag(yes: str, no: str) -> Callable[[OptionValue, dict[str, OptionValue]], str]:
    return lambda value, _: yes if value is True else no


def _hand_size(value: OptionValue, _: dict[str, OptionValue]) -> str:
    if value == "auto":
        return "cards dealt: 7 each with two players, 8 in Countdown, otherwise 5"
    return f"{value} cards dealt to each player"


def _decks(value: OptionValue, _: dict[str, OptionValue]) -> str:
    if value == "auto":
        return "one pack, two above five players"
    return "one pack" if value == 1 else f"{value} packs shuffled together"


def _draw(value: OptionValue, options: dict[str, OptionValue]) -> str:
    return {
        "one": "a player who draws takes one card, and the turn ends",
        "one_then_play": "a player who draws takes one card, which may be played at once",
        "up_to": f"a player may draw up to {options['draw_limit']} cards, then must play or pass",
        "until_playable": "a player who draws keeps drawing until a card can be played",
    }.get(str(value), f"drawing: {value}")


def _draw_limit(value: OptionValue, options: dict[str, OptionValue]) -> str:
    if options["draw"] == "up_to":
        return _draw("up_to", options)
    return f"draw limit {value} (used only when drawing up to a limit)"


def _wild_rank(value: OptionValue, _: dict[str, OptionValue]) -> str:
    return "no wild cards" if value == "none" else f"{_rank(value)} are wild"


def _wild_nominates(value: OptionValue, _: dict[str, OptionValue]) -> str:
    return {
        "always": "the player of a wild card names the suit to follow",
        "never": "a wild card names no suit: the next player follows its own suit",
        "if_matching": "a wild card names the suit only when it matched the top card",
    }.get(str(value), f"wild cards nominate: {value}")


def _special(what: str) -> Callable[[OptionValue, dict[str, OptionValue]], str]:
    def say(value: OptionValue, _: dict[str, OptionValue]) -> str:
        if value == "none":
            return f"no {what.split(':')[0]} card"
        return f"{_rank(value)} {what.split(': ', 1)[1]}"

    return say


def _draw_five(value: OptionValue, _: dict[str, OptionValue]) -> str:
    if value == "none":
        return "no draw-five card"
    return f"the {value} makes the next player draw five (only another draw-five card answers)"


def _empty_stock(value: OptionValue, _: dict[str, OptionValue]) -> str:
    if value == "pass":
        return "no reshuffle: with the stock empty players pass, and all passing blocks the hand"
    return "an empty stock is rebuilt from the discard pile"


def _specials_out(value: OptionValue, _: dict[str, OptionValue]) -> str:
    if value == "forbidden":
        return "nobody may go out on a special or wild card"
    return "a special card played to go out has no effect"


def _starter(value: OptionValue, _: dict[str, OptionValue]) -> str:
    if value == "any_card":
        return "a wild starter: the first player may play any card"
    return "a wild starter: the dealer names the suit"


def _target(value: OptionValue, _: dict[str, OptionValue]) -> str:
    if value == "auto":
        return "play to 50 points per player"
    return f"play to {value} points"


_WORDS: dict[str, Callable[[OptionValue, dict[str, OptionValue]], str]] = {
    "hand_size": _hand_size,
    "decks": _decks,
    "draw": _draw,
    "draw_limit": _draw_limit,
    "must_play_if_able": _flag(
        "a player who can play must play", "a player may draw even when able to play"
    ),
    "wild_rank": _wild_rank,
    "wild_must_match": _flag(
        "a wild card must match the top card's suit or rank", "a wild card goes on any card"
    ),
    "wild_nominates": _wild_nominates,
    "skip_rank": _special("skip: skip the next player"),
    "reverse_rank": _special("reverse: reverse the direction of play"),
    "draw_two_rank": _special("draw-two: make the next player draw two"),
    "draw_five_card": _draw_five,
    "multiple_equal": _flag(
        "several cards of one rank may be played together",
        "one card at a time (no playing equal cards together)",
    ),
    "last_card": _flag(
        "a player down to one card must call 'last card' (or draw two)", "no last-card call"
    ),
    "empty_stock": _empty_stock,
    "specials_on_going_out": _specials_out,
    "starter_eight": _starter,
    "target": _target,
    "turn_cap": lambda value, _: f"a hand stops, scored as blocked, after {value} turns",
    "hand_cap": lambda value, _: f"a match stops, placed by totals, after {value} hands",
    "countdown": _flag(
        "Countdown: start at 8, each player's score is their wild rank, 0 wins",
        "not Countdown: play to a target score",
    ),
    "equal_rank_on_wild": _flag(
        "a card of the wild card's rank may follow it whatever the suit named",
        "only the named suit (or a wild card) follows a wild card",
    ),
}


def rule_in_words(option: str, value: OptionValue, options: dict[str, OptionValue]) -> str:
    """One option's value as a sentence (``options``: the whole rule set, for the
    options that read another one)."""
    say = _WORDS.get(option)
    if say is None:
        spec = OPTIONS.get(option)
        return f"{option} = {value}" + (f" ({spec.meaning})" if spec else "")
    return say(value, options)


def house_rules(rules: Rules, preset: str) -> list[str]:
    """Every option of ``rules`` that differs from the preset named ``preset``, in
    words, in the order of the options."""
    entry = PRESETS.get(preset.strip().lower())
    base = (entry[0] if entry is not None else Rules()).to_options()
    options = rules.to_options()
    said = [
        rule_in_words(name, value, options)
        for name, value in options.items()
        if base.get(name) != value
    ]
    return list(dict.fromkeys(said))  # the draw and its limit may say the same


def rules_line(preset: str, changes: Sequence[str]) -> str:
    """``Rules: pagat; house rules: several cards of one rank may be played together.``
    (``changes``: the house rules in words, see :func:`house_rules`)."""
    if not changes:
        return f"Rules: {preset}, no house rules."
    return f"Rules: {preset}; house rules: " + "; ".join(changes) + "."
