"""Luck taken out of a match's result: the chance events of a match and their control
variates (AIVAT: Burch, Schmid, Moravčík, Morrill, Bowling, AAAI 2018).

A match's chance events are its deals (each hand's cards, one event per seat's hand)
and every card drawn from the stock (after a reshuffle, from the reshuffled pile). At
each one, given everything that happened before, every outcome that could have come is
known and equally likely: a drawn card is uniform over the cards in the stock (whose
order no player has seen), a seat's dealt hand is a uniform choice from the pack.

For each event and each seat i, a value ``g(outcome)`` estimates how much that outcome
is worth to seat i's match result, and the event's *correction* is

    g(actual outcome) − mean of g over every outcome that could have come.

Its expectation is exactly 0, whatever ``g`` is, so the adjusted result, the result
minus the sum of its corrections, has the same expectation as the result: the
adjustment never biases a comparison. A good ``g`` would take most of the cards' luck
out; the simple one below takes out little (``docs/duel-statistics.md`` has the
measurements).

Here ``g`` is linear in features of the outcome: for a card drawn, its penalty
points, whether it is wild, whether it is a special card (skip, reverse, draw two,
draw five) and whether it can be played on the top card; for a dealt hand, the sums of
the first three over its cards. Each is weighted by whose event it was (seat i's own
or another seat's, shared among them) and by how far the match has gone (the leader's
total against the target). The weights per rule preset and table size are in
:mod:`c8league.duel.luck_values`, fitted by ``benchmarks/fit_luck.py``.

:func:`chance_features` (or a :class:`LuckReader`, for many matches of one table)
replays a :class:`~c8league.engine.match.MatchRecord` and sums, per seat, the centred
features (:data:`FEATURES` of them); :func:`corrections` weighs them, and
:class:`MatchLuck` gives one seat's correction of a duel's match from its moves. Nothing
is asked of the players: the record is all it reads.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from c8league.engine.cards import Card, Suit, pack
from c8league.engine.hand import Hand
from c8league.engine.match import Match, MatchRecord
from c8league.engine.moves import Move
from c8league.engine.rules import COUNTDOWN_START, Rules
from c8league.engine.state import NO_RANK
from c8league.errors import C8LeagueError, RecordError

DRAW_FEATURES: Final = 4
"""Per card drawn: penalty/50, wild, special, playable on the top card."""
DEAL_FEATURES: Final = 3
"""Per dealt hand: penalty/50, wild cards, special cards (sums over its cards)."""
OWN: Final = 2 * (DRAW_FEATURES + DEAL_FEATURES)
"""Features of a seat's own events: each of the above, plain and times the progress."""
FEATURES: Final = 2 * OWN
"""A seat's own events' features, then the other seats' (their mean)."""

FEATURE_NAMES: Final = tuple(
    f"{whose} {what}{times}"
    for whose in ("own", "others'")
    for what in (
        "drawn penalty",
        "drawn wild",
        "drawn special",
        "drawn playable",
        "dealt penalty",
        "dealt wild",
        "dealt special",
    )
    for times in ("", " × progress")
)
"""What each of the :data:`FEATURES` is, in order (for the fitting script's report)."""


class _Cards:
    """Each card's features for one wild rank, by card index: (penalty/50, wild,
    special), and their means over the pack."""

    __slots__ = ("mean", "penalty", "special", "wild")

    def __init__(self, rules: Rules, wild_rank: int, cards: Sequence[Card]) -> None:
        specials = {
            int(rank)
            for rank in (rules.skip_rank, rules.reverse_rank, rules.draw_two_rank)
            if rank is not None
        }
        five = rules.draw_five_card
        self.penalty = [0.0] * 52
        self.wild = [0.0] * 52
        self.special = [0.0] * 52
        for card in set(cards):
            is_wild = card.rank_value == wild_rank
            self.penalty[card.index] = (50 if is_wild else card.rank.penalty) / 50.0
            self.wild[card.index] = 1.0 if is_wild else 0.0
            self.special[card.index] = 1.0 if card.rank_value in specials or card is five else 0.0
        n = len(cards)
        self.mean = (
            sum(self.penalty[c.index] for c in cards) / n,
            sum(self.wild[c.index] for c in cards) / n,
            sum(self.special[c.index] for c in cards) / n,
        )


class _Stock:
    """The cards the stock holds, counted by card, rank and suit, with the sums of their
    penalties (as if none were wild) and special flags: each card's features' mean over
    the stock in a few steps, whatever its size."""

    __slots__ = (
        "by_card",
        "by_rank",
        "by_suit",
        "n",
        "penalty",
        "rank_penalty",
        "special",
        "specials",
    )

    def __init__(self, rank_penalty: list[float], specials: list[float]) -> None:
        self.rank_penalty = rank_penalty
        """Penalty/50 of a card of each rank value that is not wild."""
        self.specials = specials
        """1 for a special card, by card index."""
        self.by_card = [0] * 52
        self.by_rank = [0] * 15
        self.by_suit = [0] * 4
        self.n = 0
        self.penalty = 0.0
        self.special = 0.0

    def fill(self, cards: Sequence[Card]) -> None:
        self.by_card = [0] * 52
        self.by_rank = [0] * 15
        self.by_suit = [0] * 4
        self.n = len(cards)
        self.penalty = self.special = 0.0
        by_card, by_rank, by_suit = self.by_card, self.by_rank, self.by_suit
        rank_penalty, specials = self.rank_penalty, self.specials
        for card in cards:
            by_card[card.index] += 1
            by_rank[card.rank_value] += 1
            by_suit[card.suit] += 1
            self.penalty += rank_penalty[card.rank_value]
            self.special += specials[card.index]

    def take(self, card: Card) -> None:
        self.by_card[card.index] -= 1
        self.by_rank[card.rank_value] -= 1
        self.by_suit[card.suit] -= 1
        self.n -= 1
        self.penalty -= self.rank_penalty[card.rank_value]
        self.special -= self.specials[card.index]

    def means(
        self, wild_rank: int, suit: Suit | None, top_rank: int
    ) -> tuple[float, float, float, float]:
        """The means over the stock of a card's penalty/50, wild, special and playable
        (on a top card of rank ``top_rank`` with ``suit`` to follow, None: any card)."""
        n = self.n
        by_rank = self.by_rank
        wilds = by_rank[wild_rank] if wild_rank > 0 else 0
        penalty = self.penalty
        if wilds:
            penalty += wilds * (1.0 - self.rank_penalty[wild_rank])
        if suit is None:
            playable = n
        else:
            playable = self.by_suit[suit]
            for rank in (top_rank, wild_rank) if top_rank != wild_rank else (top_rank,):
                if rank > 0:
                    playable += by_rank[rank] - self.by_card[(rank - 1) * 4 + int(suit)]
        return penalty / n, wilds / n, self.special / n, playable / n


class _Replay:
    """The features of one match's chance events, summed per seat."""

    def __init__(self, rules: Rules, players: int) -> None:
        self.rules = rules
        self.players = players
        self.pack = pack(rules.decks_for(players))
        self.by_wild: dict[int, _Cards] = {}
        # Per seat: the sums of its own events' features (OWN of them).
        self.own = [[0.0] * OWN for _ in range(players)]
        plain = self.cards(NO_RANK)
        rank_penalty = [0.0] * 15
        for card in self.pack:
            rank_penalty[card.rank_value] = plain.penalty[card.index]
        self.stock = _Stock(rank_penalty, plain.special)

    def reset(self) -> None:
        self.own = [[0.0] * OWN for _ in range(self.players)]

    def cards(self, wild_rank: int) -> _Cards:
        found = self.by_wild.get(wild_rank)
        if found is None:
            found = self.by_wild[wild_rank] = _Cards(self.rules, wild_rank, self.pack)
        return found

    def progress(self, hand: Hand) -> float:
        """How far the match has gone when ``hand`` is dealt: the leader's total over the
        target (Countdown: the lowest score's way down from the start)."""
        if self.rules.countdown:
            return (COUNTDOWN_START - min(hand.scores)) / COUNTDOWN_START
        return min(1.0, max(hand.scores) / hand.target)

    def deal(self, hand: Hand, g: float) -> None:
        """Each seat's dealt hand against the mean hand of its size."""
        for seat, held in enumerate(hand.hands):
            info = self.cards(hand.wild_ranks[seat])
            n = len(held)
            pen = sum(info.penalty[c.index] for c in held) - n * info.mean[0]
            wild = sum(info.wild[c.index] for c in held) - n * info.mean[1]
            special = sum(info.special[c.index] for c in held) - n * info.mean[2]
            row = self.own[seat]
            base = 2 * DRAW_FEATURES
            row[base] += pen
            row[base + 1] += pen * g
            row[base + 2] += wild
            row[base + 3] += wild * g
            row[base + 4] += special
            row[base + 5] += special * g

    def draws(
        self,
        seat: int,
        drawn: Sequence[Card],
        stock: _Stock,
        *,
        wild_rank: int,
        suit: Suit | None,
        top_rank: int,
        g: float,
    ) -> None:
        """Seat ``seat`` drew ``drawn`` in order from ``stock`` (which tracks the cards
        the stock holds: each card drawn leaves it)."""
        info = self.cards(wild_rank)
        penalty, wild, special = info.penalty, info.wild, info.special
        pen_sum = wild_sum = special_sum = play_sum = 0.0
        for card in drawn:
            pen_mean, wild_mean, special_mean, playable = stock.means(wild_rank, suit, top_rank)
            index = card.index
            pen_sum += penalty[index] - pen_mean
            wild_sum += wild[index] - wild_mean
            special_sum += special[index] - special_mean
            rank = card.rank_value
            hit = suit is None or card.suit is suit or rank in (top_rank, wild_rank)
            play_sum += (1.0 if hit else 0.0) - playable
            stock.take(card)
        row = self.own[seat]
        row[0] += pen_sum
        row[1] += pen_sum * g
        row[2] += wild_sum
        row[3] += wild_sum * g
        row[4] += special_sum
        row[5] += special_sum * g
        row[6] += play_sum
        row[7] += play_sum * g

    def features(self) -> list[list[float]]:
        """Per seat: its own events' sums, then the mean of the other seats'."""
        players = self.players
        total = [sum(row[k] for row in self.own) for k in range(OWN)]
        return [
            [*row, *((total[k] - row[k]) / (players - 1) for k in range(OWN))] for row in self.own
        ]


def chance_features(rules: Rules, record: MatchRecord) -> list[list[float]]:
    """Replay ``record`` under ``rules`` and return, per seat, the sums of the centred
    features of the match's chance events (:data:`FEATURES` each; each sum has
    expectation 0). Raises :class:`RecordError` where the record does not replay."""
    return LuckReader(rules, record.players).features(record)


class LuckReader:
    """:func:`chance_features` for many matches of one table (its tables built once)."""

    def __init__(self, rules: Rules, players: int) -> None:
        self.rules = rules
        self.players = players
        self._replay = _Replay(rules, players)

    def features(
        self, record: MatchRecord, per_hand: list[list[list[float]]] | None = None
    ) -> list[list[float]]:
        """:func:`chance_features` of ``record``. ``per_hand``, if given, receives after each
        hand the own sums of every seat so far (for the fitting script)."""
        if record.players != self.players:
            raise RecordError(
                f"a record of {record.players} players read for a table of {self.players}"
            )
        rules = self.rules
        replay = self._replay
        replay.reset()
        stock = replay.stock
        match = Match(rules, self.players, record.seed)
        parse = _parse
        for index, moves in enumerate(record.hands):
            if match.result is not None:
                raise RecordError(f"the record has hand {index + 1} after the end of the match")
            if per_hand is not None and index:
                per_hand.append([list(row) for row in replay.own])
            hand = match.hand
            g = replay.progress(hand)
            replay.deal(hand, g)
            stock.fill(hand.stock)
            hands, wild_ranks, discard = hand.hands, hand.wild_ranks, hand.discard
            for number, text in enumerate(moves, start=1):
                if hand.result is not None:
                    raise RecordError(f"hand {index + 1} has moves after its end")
                p = hand.current
                held = hands[p]
                before = len(held)
                old = hand.stock
                in_old = len(old)
                suit, top_rank, wild_rank = hand.suit, discard[-1].rank_value, wild_ranks[p]
                try:
                    move = parse(text)
                    match.apply(move)
                except C8LeagueError as exc:
                    raise RecordError(
                        f"hand {index + 1} move {number} ({text}) does not replay: {exc}"
                    ) from None
                kept = before - (len(move.cards) if move.is_play else 0)
                if len(held) <= kept:
                    continue
                drawn = held[kept:]
                if hand.stock is old:
                    replay.draws(
                        p, drawn, stock, wild_rank=wild_rank, suit=suit, top_rank=top_rank, g=g
                    )
                    continue
                # The stock ran out and the discard pile was reshuffled into a new one.
                first, then = drawn[:in_old], drawn[in_old:]
                replay.draws(
                    p, first, stock, wild_rank=wild_rank, suit=suit, top_rank=top_rank, g=g
                )
                stock.fill([*hand.stock, *then])
                replay.draws(p, then, stock, wild_rank=wild_rank, suit=suit, top_rank=top_rank, g=g)
        if per_hand is not None:
            per_hand.append([list(row) for row in replay.own])
        return replay.features()


_MOVES: dict[str, Move] = {}
"""Moves by their text, parsed once."""


def _parse(text: str) -> Move:
    move = _MOVES.get(text)
    if move is None:
        move = Move.parse(text)
        if len(_MOVES) < 100_000:
            _MOVES[text] = move
    return move


def corrections(features: Sequence[Sequence[float]], weights: Sequence[float]) -> list[float]:
    """Each seat's correction: its features weighed (``weights``: :data:`FEATURES` of
    them). A seat's adjusted result is its result minus its correction."""
    return [sum(w * x for w, x in zip(weights, row, strict=True)) for row in features]


def weights_for(preset: str, players: int) -> tuple[float, ...]:
    """The shipped weights of ``preset`` (by the name the rules were chosen by; an
    unknown name takes ``pagat``'s) at ``players`` (the nearest table size fitted). Any
    weights keep the adjustment unbiased; fitted ones take out the most luck."""
    from c8league.duel.luck_values import WEIGHTS

    tables = WEIGHTS.get(preset) or WEIGHTS["pagat"]
    nearest = min(tables, key=lambda size: (abs(size - players), size))
    return tables[nearest]


class MatchLuck:
    """The correction of one seat of a duel's matches: its rules, table and weights set
    once."""

    def __init__(self, rules: Rules, players: int, preset: str) -> None:
        self.reader = LuckReader(rules, players)
        self.weights = weights_for(preset, players)

    def correction(self, seed: int, moves: str, seat: int) -> float:
        """The correction of ``seat`` in the match of ``seed`` whose moves are ``moves``
        (``MatchRecord.to_text``), rounded to 9 decimals as a duel keeps it."""
        record = MatchRecord.from_text(self.reader.players, seed, moves)
        row = self.reader.features(record)[seat]
        return round(sum(w * x for w, x in zip(self.weights, row, strict=True)), 9)
