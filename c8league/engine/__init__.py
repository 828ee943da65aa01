"""The Crazy Eights rules engine: pure Python, standard library only, no I/O.

>>> from c8league.engine import Match, Rules
>>> match = Match(Rules.from_options("pagat"), players=2, seed=7)
>>> while not match.over:
...     match.apply(match.legal_moves()[0])

The modules on the hot path are compiled with mypyc when the package is built (see
``setup.py``); ``COMPILED`` says whether this process runs them compiled,
``SOURCE_REASON`` why it runs the source (``None`` when compiled), and
``C8LEAGUE_PURE=1`` runs the source.
"""

from typing import TYPE_CHECKING

from c8league.engine._build import COMPILED
from c8league.engine._build import REASON as SOURCE_REASON

if TYPE_CHECKING:
    from c8league.engine.cards import (
        ALL_CARDS,
        Card,
        Rank,
        Suit,
        format_cards,
        pack,
        parse_cards,
    )
    from c8league.engine.hand import Hand
    from c8league.engine.match import Match, MatchResult, placements
    from c8league.engine.moves import DRAW, PASS, Move, MoveKind
    from c8league.engine.observation import HistoryView, Observation
    from c8league.engine.record import HandRecord
    from c8league.engine.rules import OPTIONS, PRESETS, Rules, preset_rules
    from c8league.engine.scoring import HandResult, card_penalty
    from c8league.engine.seeds import derive_seed
    from c8league.engine.state import Phase

# The names above, by the module that defines them. They are imported on first use
# (``from c8league.engine import Match``), so that a program needing one module (the
# rules table of ``c8league rules list``) does not load the whole engine.
_HOMES = {
    "cards": ("ALL_CARDS", "Card", "Rank", "Suit", "format_cards", "pack", "parse_cards"),
    "hand": ("Hand",),
    "match": ("Match", "MatchResult", "placements"),
    "moves": ("DRAW", "PASS", "Move", "MoveKind"),
    "observation": ("HistoryView", "Observation"),
    "record": ("HandRecord",),
    "rules": ("OPTIONS", "PRESETS", "Rules", "preset_rules"),
    "scoring": ("HandResult", "card_penalty"),
    "seeds": ("derive_seed",),
    "state": ("Phase",),
}
_HOME_OF = {name: module for module, names in _HOMES.items() for name in names}

if not TYPE_CHECKING:
    from importlib import import_module

    def __getattr__(name: str) -> object:
        module = _HOME_OF.get(name)
        if module is None:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        value = getattr(import_module(f"{__name__}.{module}"), name)
        globals()[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted({*globals(), *__all__})


__all__ = [
    "ALL_CARDS",
    "COMPILED",
    "DRAW",
    "OPTIONS",
    "PASS",
    "PRESETS",
    "SOURCE_REASON",
    "Card",
    "Hand",
    "HandRecord",
    "HandResult",
    "HistoryView",
    "Match",
    "MatchResult",
    "Move",
    "MoveKind",
    "Observation",
    "Phase",
    "Rank",
    "Rules",
    "Suit",
    "card_penalty",
    "derive_seed",
    "format_cards",
    "pack",
    "parse_cards",
    "placements",
    "preset_rules",
]
