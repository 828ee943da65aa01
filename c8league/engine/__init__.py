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

from c8league.engine._build import COMPILED
from c8league.engine._build import REASON as SOURCE_REASON
from c8league.engine.cards import ALL_CARDS, Card, Rank, Suit, format_cards, pack, parse_cards
from c8league.engine.hand import Hand
from c8league.engine.match import Match, MatchResult, placements
from c8league.engine.moves import DRAW, PASS, Move, MoveKind
from c8league.engine.observation import HistoryView, Observation
from c8league.engine.record import HandRecord
from c8league.engine.rules import OPTIONS, PRESETS, Rules, preset_rules
from c8league.engine.scoring import HandResult, card_penalty
from c8league.engine.seeds import derive_seed
from c8league.engine.state import Phase

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
