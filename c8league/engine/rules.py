"""House rules as one frozen, validated value, and the named presets.

Every option of the rulebook's "Variations" is a field of :class:`Rules`. Rule
sets are data: a preset name plus overrides (``Rules.from_options``), and they
print back to the same plain values (``Rules.to_options``), so a league file or
a database row round-trips.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Final, Literal, TypeAlias, cast

from c8league.engine.cards import Card, Rank, Suit
from c8league.engine.frozen import reduce_by_fields
from c8league.errors import CardError, RulesError

DrawRule: TypeAlias = Literal["one", "one_then_play", "up_to", "until_playable"]
WildNominates: TypeAlias = Literal["always", "never", "if_matching"]
EmptyStock: TypeAlias = Literal["reshuffle", "pass"]
SpecialsOnGoingOut: TypeAlias = Literal["ignored", "forbidden"]
StarterEight: TypeAlias = Literal["dealer_nominates", "any_card"]
OptionValue: TypeAlias = str | int | bool

COUNTDOWN_START: Final = 8
"""In Countdown every player starts at this score (and it is their first wild rank)."""


@dataclass(frozen=True, slots=True)
class Rules:
    """A complete rule set. Build one with :meth:`from_options` or a preset."""

    hand_size: int | None = None
    decks: int | None = None
    draw: DrawRule = "one"
    draw_limit: int = 3
    must_play_if_able: bool = False
    wild_rank: Rank | None = Rank.R8
    wild_must_match: bool = False
    wild_nominates: WildNominates = "always"
    skip_rank: Rank | None = Rank.Q
    reverse_rank: Rank | None = Rank.A
    draw_two_rank: Rank | None = Rank.R2
    draw_five_card: Card | None = None
    multiple_equal: bool = False
    last_card: bool = True
    empty_stock: EmptyStock = "reshuffle"
    specials_on_going_out: SpecialsOnGoingOut = "ignored"
    starter_eight: StarterEight = "dealer_nominates"
    target: int | None = None
    turn_cap: int = 1000
    hand_cap: int = 500
    countdown: bool = False
    equal_rank_on_wild: bool = False

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        return reduce_by_fields(self)

    # -- derived values -------------------------------------------------

    def hand_size_for(self, players: int) -> int:
        """Cards dealt to each player at a table of ``players``."""
        if self.hand_size is not None:
            return self.hand_size
        if self.countdown:
            return COUNTDOWN_START
        return 7 if players == 2 else 5

    def decks_for(self, players: int) -> int:
        """Packs used at a table of ``players``: two above five players when ``auto``."""
        if self.decks is not None:
            return self.decks
        return 2 if players > 5 else 1

    def target_for(self, players: int) -> int:
        """The match target score: 50 per player unless set."""
        return self.target if self.target is not None else 50 * players

    def check_table(self, players: int) -> None:
        """Raise :class:`RulesError` if a hand cannot be dealt to ``players``."""
        if not 2 <= players <= 8:
            raise RulesError(f"a table has 2 to 8 players, not {players}")
        need = players * self.hand_size_for(players) + 1
        have = 52 * self.decks_for(players)
        if need > have:
            raise RulesError(
                f"{players} players with {self.hand_size_for(players)} cards each need "
                f"{need} cards, but {self.decks_for(players)} pack(s) hold {have}"
            )

    # -- conversion ------------------------------------------------------

    @classmethod
    def from_options(
        cls, preset: str = "pagat", options: Mapping[str, OptionValue] | None = None
    ) -> Rules:
        """A preset with overrides; raises :class:`RulesError` naming a bad option or value."""
        base = preset_rules(preset)
        if not options:
            return base
        changes: dict[str, object] = {}
        for name, raw in options.items():
            spec = OPTIONS.get(name)
            if spec is None:
                raise RulesError(
                    f"unknown rule option {name!r}; valid options: {', '.join(OPTIONS)}"
                )
            changes[name] = spec.parse(raw)
        rules = dataclasses.replace(base, **changes)  # type: ignore[arg-type]
        rules.validate()
        return rules

    def replace(self, **options: OptionValue) -> Rules:
        """A copy with some options changed, given as plain values."""
        return Rules.from_options("pagat", {**self.to_options(), **options})

    def to_options(self) -> dict[str, OptionValue]:
        """Every option as a plain value (str, int or bool) that :meth:`from_options` reads."""
        return {name: spec.format(getattr(self, name)) for name, spec in OPTIONS.items()}

    def to_json(self) -> str:
        """Canonical JSON of every option, for storage and comparison."""
        return json.dumps(self.to_options(), sort_keys=True, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> Rules:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RulesError(f"stored rules are not JSON: {exc}") from None
        if not isinstance(data, dict):
            raise RulesError("stored rules are not a JSON object")
        return cls.from_options("pagat", data)

    def describe_changes(self, base: Rules | None = None) -> dict[str, OptionValue]:
        """The options that differ from ``base`` (the default preset if omitted)."""
        ref = (base or PAGAT).to_options()
        return {k: v for k, v in self.to_options().items() if ref[k] != v}

    def validate(self) -> None:
        """Check the combination of options; raises :class:`RulesError`."""
        if self.hand_size is not None and not 1 <= self.hand_size <= 20:
            raise RulesError(f"rule hand_size: {self.hand_size} is not between 1 and 20")
        if self.decks is not None and self.decks not in (1, 2):
            raise RulesError(f"rule decks: {self.decks} is not auto, 1 or 2")
        if self.draw_limit < 1:
            raise RulesError(f"rule draw_limit: {self.draw_limit} is below 1")
        if self.target is not None and self.target < 1:
            raise RulesError(f"rule target: {self.target} is below 1")
        if self.turn_cap < 1:
            raise RulesError(f"rule turn_cap: {self.turn_cap} is below 1")
        if self.hand_cap < 1:
            raise RulesError(f"rule hand_cap: {self.hand_cap} is below 1")
        if self.draw_five_card is not None and self.draw_five_card.rank == self.draw_two_rank:
            raise RulesError(
                f"rule draw_five_card: {self.draw_five_card} has the draw_two_rank; "
                "choose a card of another rank"
            )


# -- option table -------------------------------------------------------------


@dataclass(frozen=True)
class OptionSpec:
    """One rule option: how to read and print its value, and what it means."""

    name: str
    values: str
    meaning: str
    source: str
    parse: Callable[[OptionValue], object]
    format: Callable[[object], OptionValue]


def _err(name: str, raw: object, valid: str) -> RulesError:
    return RulesError(f"rule {name}: {raw!r} is not valid; valid values: {valid}")


def _bool(name: str) -> Callable[[OptionValue], object]:
    def parse(raw: OptionValue) -> bool:
        if isinstance(raw, bool):
            return raw
        text = str(raw).strip().lower()
        if text in ("true", "yes", "on", "1"):
            return True
        if text in ("false", "no", "off", "0"):
            return False
        raise _err(name, raw, "true, false")

    return parse


def _choice(name: str, choices: tuple[str, ...]) -> Callable[[OptionValue], object]:
    def parse(raw: OptionValue) -> str:
        text = str(raw).strip().lower()
        if isinstance(raw, bool) or text not in choices:
            raise _err(name, raw, ", ".join(choices))
        return text

    return parse


def _int_or_auto(name: str, lo: int, hi: int, *, auto: bool) -> Callable[[OptionValue], object]:
    valid = (f"auto, or {lo}..{hi}" if auto else f"{lo}..{hi}").replace("..1000000", " or more")

    def parse(raw: OptionValue) -> int | None:
        if isinstance(raw, bool):
            raise _err(name, raw, valid)
        if auto and str(raw).strip().lower() == "auto":
            return None
        try:
            value = int(str(raw).strip())
        except ValueError:
            raise _err(name, raw, valid) from None
        if not lo <= value <= hi:
            raise _err(name, raw, valid)
        return value

    return parse


def _rank_or_none(name: str) -> Callable[[OptionValue], object]:
    def parse(raw: OptionValue) -> Rank | None:
        if isinstance(raw, bool):
            raise _err(name, raw, "a rank (A 2 … 10 J Q K) or none")
        text = str(raw).strip()
        if text.lower() == "none":
            return None
        try:
            return Rank.parse(text)
        except CardError:
            raise _err(name, raw, "a rank (A 2 … 10 J Q K) or none") from None

    return parse


def _card_or_none(name: str) -> Callable[[OptionValue], object]:
    def parse(raw: OptionValue) -> Card | None:
        text = str(raw).strip()
        if text.lower() == "none":
            return None
        try:
            return Card.parse(text)
        except CardError:
            raise _err(name, raw, "a card such as QS, or none") from None

    return parse


def _fmt_auto(value: object) -> OptionValue:
    return "auto" if value is None else cast(int, value)


def _fmt_rank(value: object) -> OptionValue:
    return "none" if value is None else cast(Rank, value).label


def _fmt_card(value: object) -> OptionValue:
    return "none" if value is None else str(value)


def _fmt_plain(value: object) -> OptionValue:
    return cast(OptionValue, value)


_BIG: Final = 1_000_000

OPTIONS: Final[dict[str, OptionSpec]] = {
    spec.name: spec
    for spec in [
        OptionSpec(
            "hand_size",
            "auto (7 with two players, 8 in Countdown, else 5), or 1..20",
            "Cards dealt to each player.",
            "Deal",
            _int_or_auto("hand_size", 1, 20, auto=True),
            _fmt_auto,
        ),
        OptionSpec(
            "decks",
            "auto (two packs above five players), 1, 2",
            "Packs shuffled together.",
            "Basic game; encyclopedia",
            _int_or_auto("decks", 1, 2, auto=True),
            _fmt_auto,
        ),
        OptionSpec(
            "draw",
            "one, one_then_play, up_to, until_playable",
            "Drawing: one card and the turn ends; one card which may be played at once; "
            "up to draw_limit cards, then play or pass; or draw until a card can be played.",
            "Drawing cards",
            _choice("draw", ("one", "one_then_play", "up_to", "until_playable")),
            _fmt_plain,
        ),
        OptionSpec(
            "draw_limit",
            "1 or more (default 3)",
            "With draw = up_to: the most cards drawn in one turn before passing.",
            "Drawing cards",
            _int_or_auto("draw_limit", 1, _BIG, auto=False),
            _fmt_plain,
        ),
        OptionSpec(
            "must_play_if_able",
            "false, true",
            "A player holding a legal card must play; drawing only when unable to play.",
            "Drawing cards",
            _bool("must_play_if_able"),
            _fmt_plain,
        ),
        OptionSpec(
            "wild_rank",
            "8, any rank, or none",
            "The wild rank: played on any card, its player nominates the suit to follow; "
            "it counts 50 when left in hand. (Countdown: each player's score instead.)",
            "Changing suit",
            _rank_or_none("wild_rank"),
            _fmt_rank,
        ),
        OptionSpec(
            "wild_must_match",
            "false, true",
            "A wild card may only be played if it matches the suit or rank of the top card.",
            "Changing suit",
            _bool("wild_must_match"),
            _fmt_plain,
        ),
        OptionSpec(
            "wild_nominates",
            "always, never, if_matching",
            "Whether the player of a wild card nominates a suit: always; never (the next "
            "player follows the wild card's own suit); or only if it matched the top card.",
            "Changing suit",
            _choice("wild_nominates", ("always", "never", "if_matching")),
            _fmt_plain,
        ),
        OptionSpec(
            "skip_rank",
            "Q, any rank, or none",
            "Skip: the next player misses a turn (two players: the same player plays again).",
            "Special cards",
            _rank_or_none("skip_rank"),
            _fmt_rank,
        ),
        OptionSpec(
            "reverse_rank",
            "A, any rank, or none",
            "Reverse: the direction of play reverses (no effect with two players).",
            "Special cards",
            _rank_or_none("reverse_rank"),
            _fmt_rank,
        ),
        OptionSpec(
            "draw_two_rank",
            "2, any rank, or none",
            "Draw two: the next player plays another such card or draws two per card in the "
            "sequence; a wild card may not answer it; the penalty ends that player's turn.",
            "Special cards",
            _rank_or_none("draw_two_rank"),
            _fmt_rank,
        ),
        OptionSpec(
            "draw_five_card",
            "none, or a card such as QS",
            "Draw five: the next player draws five cards; only another draw-five card answers.",
            "Variations",
            _card_or_none("draw_five_card"),
            _fmt_card,
        ),
        OptionSpec(
            "multiple_equal",
            "false, true",
            "Several cards of one rank may be played at once if the first is legal; all "
            "their effects apply and the last one is followed.",
            "Multiple equal cards",
            _bool("multiple_equal"),
            _fmt_plain,
        ),
        OptionSpec(
            "last_card",
            "true, false",
            "A player who plays down to one card must announce it, or draws two cards.",
            "Last card",
            _bool("last_card"),
            _fmt_plain,
        ),
        OptionSpec(
            "empty_stock",
            "reshuffle, pass",
            "An empty stock is rebuilt from the discard pile (all but its top card), or "
            "players pass instead of drawing and the hand is blocked when all pass.",
            "End of stock pile",
            _choice("empty_stock", ("reshuffle", "pass")),
            _fmt_plain,
        ),
        OptionSpec(
            "specials_on_going_out",
            "ignored, forbidden",
            "The special effect of a winner's last card is ignored, or going out on a "
            "special or wild card is not allowed.",
            "Special cards; encyclopedia",
            _choice("specials_on_going_out", ("ignored", "forbidden")),
            _fmt_plain,
        ),
        OptionSpec(
            "starter_eight",
            "dealer_nominates, any_card",
            "A wild starter: the dealer nominates the suit, or the first player may play any card.",
            "Basic game; Olsen Olsen",
            _choice("starter_eight", ("dealer_nominates", "any_card")),
            _fmt_plain,
        ),
        OptionSpec(
            "target",
            "auto (50 per player), or a number",
            "The running total that wins the match.",
            "encyclopedia",
            _int_or_auto("target", 1, _BIG, auto=True),
            _fmt_auto,
        ),
        OptionSpec(
            "turn_cap",
            "1000, or a number",
            "A hand that reaches this many turns stops and is scored as blocked.",
            "c8league",
            _int_or_auto("turn_cap", 1, _BIG, auto=False),
            _fmt_plain,
        ),
        OptionSpec(
            "hand_cap",
            "500, or a number",
            "A match that reaches this many hands stops and is placed by running totals.",
            "c8league",
            _int_or_auto("hand_cap", 1, _BIG, auto=False),
            _fmt_plain,
        ),
        OptionSpec(
            "countdown",
            "false, true",
            "Crazy Eights Countdown: start at 8 points; emptying the hand drops a point and "
            "deals that many cards; each player's wild rank is their score; 0 wins.",
            "Crazy Eights Countdown",
            _bool("countdown"),
            _fmt_plain,
        ),
        OptionSpec(
            "equal_rank_on_wild",
            "false, true",
            "A card of the same rank may be played on a wild card even if it is not of the "
            "nominated suit (the disputed Countdown play).",
            "Crazy Eights Countdown, variant",
            _bool("equal_rank_on_wild"),
            _fmt_plain,
        ),
    ]
}

# -- presets --------------------------------------------------------------------

PAGAT: Final = Rules()
"""The rulebook's basic game with its typical special cards (the default)."""

PRESETS: Final[dict[str, tuple[Rules, str]]] = {
    "pagat": (PAGAT, "The rulebook's game: 8s wild, Q skips, A reverses, 2 draws two, last card."),
    "basic": (
        Rules(skip_rank=None, reverse_rank=None, draw_two_rank=None, last_card=False),
        "Eights only: no special cards and no last-card call.",
    ),
    "encyclopedia": (
        Rules(draw="until_playable", specials_on_going_out="forbidden"),
        "Draw until playable; no going out on a special or wild card.",
    ),
    "olsen": (
        Rules(
            multiple_equal=True,
            must_play_if_able=True,
            draw="up_to",
            draw_limit=3,
            starter_eight="any_card",
            skip_rank=None,
            reverse_rank=None,
            draw_two_rank=None,
            last_card=False,
        ),
        "Olsen Olsen: equal cards together, must play if able, draw up to 3, no specials.",
    ),
    "countdown": (
        Rules(
            countdown=True,
            skip_rank=Rank.J,
            reverse_rank=None,
            draw_two_rank=Rank.R2,
            draw_five_card=Card.of(Rank.Q, Suit.S),
            multiple_equal=True,
            last_card=False,
            turn_cap=5000,
        ),
        "Countdown: own wild rank = score, J skips, 2 draws two, QS draws five, equal cards.",
    ),
}


def preset_rules(name: str) -> Rules:
    """The named preset; raises :class:`RulesError` listing the presets."""
    entry = PRESETS.get(name.strip().lower())
    if entry is None:
        raise RulesError(f"unknown rule preset {name!r}; presets: {', '.join(PRESETS)}")
    return entry[0]


def parse_assignments(items: list[str]) -> dict[str, OptionValue]:
    """Read ``option=value`` strings (as given to ``--set``)."""
    result: dict[str, OptionValue] = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise RulesError(f"expected option=value, got {item!r}")
        result[name.strip()] = value.strip()
    return result
