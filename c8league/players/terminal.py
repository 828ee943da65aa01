"""``terminal``: a person plays at the terminal.

At each decision the player draws the table (the seats' hand sizes and scores, the
top card and the suit to follow, pending draws, the direction, the last moves) and
the person's own hand, then lists the legal moves by number. A wild card is one
choice followed by a question for the suit; a play that leaves one card asks whether
to announce "last card" (yes unless told otherwise). Bad input asks again; end of
input or Ctrl-C raises :class:`MatchAbandoned`.

The console and the function that reads a line are parameters, so the player can be
driven by a script::

    answers = iter(["1", "s", "2"])
    player = TerminalPlayer(console=Console(file=io.StringIO()), input=lambda _: next(answers))
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rich.columns import Columns
from rich.console import Console
from rich.table import Table
from rich.text import Text

from c8league.engine import (
    Card,
    HandResult,
    MatchResult,
    Move,
    MoveKind,
    Observation,
    Rank,
    Suit,
)
from c8league.players.base import BasePlayer

InputFunction = Callable[[str], str]
"""Reads one line from the person; given the prompt as plain text, returns the answer."""


class MatchAbandoned(KeyboardInterrupt):
    """The person left the match (end of input, Ctrl-C, or ``q``)."""


# Suits in the order a hand is laid out: alternating colours.
_SUIT_ORDER = {Suit.S: 0, Suit.H: 1, Suit.C: 2, Suit.D: 3}
_SUIT_NAMES = {Suit.C: "clubs", Suit.D: "diamonds", Suit.H: "hearts", Suit.S: "spades"}
_SUIT_KEYS = (Suit.S, Suit.H, Suit.C, Suit.D)

_WORDS = {"d": MoveKind.DRAW, "draw": MoveKind.DRAW, "p": MoveKind.PASS, "pass": MoveKind.PASS}
_HELP = (
    "Type the number of a move, or its cards (e.g. 9s, 10h, 9s+9h); "
    "d = draw, p = pass, r = show the table again, q = leave the match."
)


def _is_number(text: str) -> bool:
    return text.isascii() and text.isdigit()


def _parse_suit(text: str) -> Suit | None:
    try:
        return Suit.parse(text)
    except ValueError:
        return None


def card_text(card: Card) -> Text:
    """The card with its suit symbol, red for hearts and diamonds."""
    return Text(card.pretty(), style="bold red" if card.suit.is_red else "bold")


def suit_text(suit: Suit) -> Text:
    return Text(suit.symbol, style="bold red" if suit.is_red else "bold")


def sort_hand(cards: Sequence[Card], wild: Rank | None = None) -> list[Card]:
    """Cards by suit (♠ ♥ ♣ ♦) and rank, with the wild cards last."""
    return sorted(cards, key=lambda c: (c.rank == wild, _SUIT_ORDER[c.suit], int(c.rank)))


def move_text(move: Move) -> Text:
    """A move as the table shows it: ``9♠``, ``8♦ → ♠``, ``5♣ last card!``, ``drew``."""
    if move.kind is MoveKind.DRAW:
        return Text("drew", style="dim")
    if move.kind is MoveKind.PASS:
        return Text("passed", style="dim")
    if move.kind is MoveKind.NOMINATE:
        assert move.suit is not None
        return Text.assemble("nominated ", suit_text(move.suit))
    text = Text("+").join(card_text(c) for c in move.cards)
    if move.suit is not None:
        text.append(" → ")
        text.append_text(suit_text(move.suit))
    if move.announce:
        text.append(" last card!", style="yellow")
    return text


def history_notes(obs: Observation, start_pending: int = 0) -> list[str]:
    """A few words on each move of the hand's history: what a special card does, and
    how many cards a draw took when it paid a pending draw-two or draw-five.
    ``start_pending`` is the draw a starter Two left for the first player."""
    rules = obs.rules
    pending = start_pending
    notes: list[str] = []
    for _, move in obs.history:
        if move.kind is MoveKind.DRAW:
            notes.append(f"{pending} cards" if pending else "")
            pending = 0
            continue
        words = [card_effect(card, obs) for card in move.cards]
        for card in move.cards:
            if card == rules.draw_five_card:
                pending += 5
            elif card.rank == rules.draw_two_rank:
                pending += 2
        notes.append(", ".join(dict.fromkeys(w for w in words if w)))
    return notes


def card_effect(card: Card, obs: Observation) -> str:
    """What a card does when played under the observation's rules ("" for nothing)."""
    rules = obs.rules
    if card == rules.draw_five_card:
        return "draw five"
    if card.rank == rules.draw_two_rank:
        return "draw two"
    if card.rank == rules.skip_rank:
        return "skip"
    if card.rank == rules.reverse_rank and obs.players > 2:
        return "reverse"
    return ""


@dataclass(frozen=True)
class Choice:
    """One numbered entry of the move list: a move, or the variants of one play that
    differ only by the nominated suit or the last-card announcement."""

    moves: tuple[Move, ...]

    @property
    def first(self) -> Move:
        return self.moves[0]

    @property
    def suits(self) -> list[Suit]:
        found = {m.suit for m in self.moves if m.suit is not None}
        return [s for s in _SUIT_KEYS if s in found]

    @property
    def announce_optional(self) -> bool:
        return len({m.announce for m in self.moves}) == 2

    def label(self) -> Text:
        move = self.first
        if move.kind is MoveKind.DRAW:
            return Text("draw")
        if move.kind is MoveKind.PASS:
            return Text("pass")
        if move.kind is MoveKind.NOMINATE:
            return Text("nominate a suit")
        text = Text("+").join(card_text(c) for c in move.cards)
        if self.suits and len(self.moves) > 1:
            text.append(" → suit?", style="cyan")
        elif move.suit is not None:
            text.append(" → ")
            text.append_text(suit_text(move.suit))
        if self.announce_optional or move.announce:
            text.append(" (last card)", style="yellow")
        return text


def group_moves(legal: Sequence[Move], wild: Rank | None = None) -> list[Choice]:
    """The legal moves as numbered choices: plays first (in hand order), then draw or pass.
    Variants of one play (nominated suit, last-card call) share a choice, as do the
    dealer's four nominations of a wild starter's suit."""
    groups: dict[tuple[int, tuple[Card, ...]], list[Move]] = {}
    for move in legal:
        groups.setdefault((int(move.kind), move.cards), []).append(move)

    def order(key: tuple[int, tuple[Card, ...]]) -> tuple[object, ...]:
        kind, cards = key
        places = tuple((c.rank == wild, _SUIT_ORDER[c.suit], int(c.rank)) for c in cards)
        return (kind != int(MoveKind.PLAY), kind, places[:1], len(cards), places)

    return [Choice(tuple(groups[key])) for key in sorted(groups, key=order)]


class TerminalPlayer(BasePlayer):
    """A person playing at the terminal: the table is shown and moves are typed.

    Options: ``player_name`` (how the person is called on the table), ``seat_names``
    (comma-separated names of all seats, the person's included), ``history`` (how
    many recent moves to show), ``console`` and ``input`` (where to write and how to
    read a line; by default the terminal).
    """

    name = "terminal"

    def __init__(
        self,
        player_name: str = "you",
        seat_names: str = "",
        history: int = 6,
        *,
        console: Console | None = None,
        input: InputFunction | None = None,
    ) -> None:
        self.player_name = player_name
        self.names = [n.strip() for n in seat_names.split(",")] if seat_names else []
        self.history = history
        self.console = console or Console(highlight=False)
        self._input = input
        self.seat = 0
        self._start_scores: tuple[int, ...] = ()
        self._start_pending = 0
        self._seen = 0
        self._expected: Counter[Card] | None = None

    # -- hooks ---------------------------------------------------------------------

    def start_match(self, seat: int, players: int, seed: int) -> None:
        self.seat = seat

    def start_hand(self, observation: Observation) -> None:
        obs = observation
        self._start_scores = obs.scores
        self._start_pending = obs.pending
        self._seen = 0
        self._expected = Counter(obs.hand)
        rule = f"Hand {obs.hand_number + 1}"
        if not obs.rules.countdown:
            rule += f" · dealer {self.label(obs.dealer)} · target {obs.target}"
        self.console.print()
        self.console.rule(Text(rule, style="bold"))
        starter = Text.assemble("Starter ", card_text(obs.top))
        effect = card_effect(obs.top, obs)
        if effect:
            starter.append(f" ({effect})", style="dim")
        starter.append(f" · {len(obs.hand)} cards each")
        self.console.print(starter)

    def end_hand(self, observation: Observation, result: HandResult) -> None:
        obs = observation
        self._show_moves(obs, since=self._seen, limit=12)
        console = self.console
        console.print()
        winners = ", ".join(self.label(s) for s in result.winners)
        if result.kind == "out":
            headline = f"{winners} {'reached 0' if obs.rules.countdown else 'went out'}"
        elif result.kind == "blocked":
            headline = f"blocked, lowest count {winners}"
        else:
            headline = f"turn cap reached, lowest count {winners}"
        console.rule(Text(f"Hand {obs.hand_number + 1} over: {headline}", style="bold green"))
        table = Table(box=None, padding=(0, 2), show_edge=False)
        table.add_column("player")
        if obs.rules.countdown:
            table.add_column("score", justify="right")
            scores = result.countdown_scores or obs.scores
            for seat in range(obs.players):
                table.add_row(self.label(seat), str(scores[seat]))
        else:
            for column in ("penalty", "points", "total"):
                table.add_column(column, justify="right")
            start = self._start_scores or (0,) * obs.players
            for seat in range(obs.players):
                points = result.points[seat]
                table.add_row(
                    self.label(seat),
                    str(result.penalties[seat]),
                    f"+{points}" if points else "0",
                    str(start[seat] + points),
                )
        console.print(table)

    def end_match(self, result: MatchResult) -> None:
        console = self.console
        console.print()
        how = {
            "target": "target reached",
            "hand_cap": "hand limit reached",
            "forfeit": "a player forfeited",
        }.get(result.ended, result.ended)
        console.rule(Text(f"Match over after {result.hands} hand(s) ({how})", style="bold"))
        table = Table(box=None, padding=(0, 2), show_edge=False)
        for column in ("place", "player", "score"):
            table.add_column(column, justify="right" if column != "player" else "left")
        for seat in sorted(range(len(result.placements)), key=lambda s: result.placements[s]):
            style = "bold green" if seat == self.seat else None
            table.add_row(
                str(result.placements[seat]),
                self.label(seat),
                str(result.scores[seat]),
                style=style,
            )
        console.print(table)
        place = result.placements[self.seat]
        message = "You win the match!" if place == 1 else f"You finish in place {place}."
        console.print(Text(message, style="bold"))

    # -- the decision ----------------------------------------------------------------

    def choose(self, observation: Observation, legal: Sequence[Move]) -> Move:
        obs = observation
        choices = group_moves(legal, obs.wild_rank)
        self.show(obs, choices)
        move = self._ask_move(obs, choices)
        rest = Counter(obs.hand)
        rest.subtract(move.cards)
        self._expected = rest
        self._seen = len(obs.history) + 1
        return move

    def show(self, obs: Observation, choices: Sequence[Choice]) -> None:
        """Draw the table, the person's hand and the numbered moves."""
        console = self.console
        console.print()
        title = f"Hand {obs.hand_number + 1} · turn {obs.turn + 1} · your move"
        if not obs.rules.countdown:
            title += f" · target {obs.target}"
        console.rule(Text(title))
        console.print(self._seats_table(obs))
        self._show_moves(obs, since=max(0, len(obs.history) - self.history), limit=self.history)
        console.print(self._state_line(obs))
        for warning in self._warnings(obs):
            console.print(warning)
        console.print(self._hand_line(obs))
        console.print(self._choices_view(choices))

    def _seats_table(self, obs: Observation) -> Table:
        countdown = obs.rules.countdown
        table = Table(box=None, padding=(0, 2), show_edge=False)
        table.add_column("")
        table.add_column("player")
        table.add_column("cards", justify="right")
        table.add_column("score" if not countdown else "countdown", justify="right")
        if countdown:
            table.add_column("wild", justify="right")
        sizes = obs.hand_sizes
        scores = obs.scores
        wilds = obs.wild_ranks
        for seat in range(obs.players):
            marker = "▶" if seat == obs.current else ""
            name = self.label(seat) + (" (dealer)" if seat == obs.dealer else "")
            row = [marker, name, str(sizes[seat]), str(scores[seat])]
            if countdown:
                wild = wilds[seat]
                row.append(wild.label if wild is not None else "-")
            table.add_row(*row, style="bold" if seat == self.seat else None)
        return table

    def _state_line(self, obs: Observation) -> Text:
        line = Text.assemble("Top card ", card_text(obs.top))
        suit = obs.suit
        if suit is not None:
            line.append("   follow ")
            line.append_text(suit_text(suit))
            if obs.wild_top or suit != obs.top.suit:
                line.append(" (nominated)", style="cyan")
        else:
            line.append("   any card")
        arrow = "clockwise ↻" if obs.direction == 1 else "anticlockwise ↺"
        line.append(f"   {arrow}, next {self.label(obs.next_seat())}", style="dim")
        line.append(f"   stock {obs.stock_size}", style="dim")
        return line

    def _warnings(self, obs: Observation) -> list[Text]:
        found: list[Text] = []
        if obs.phase == 0:
            found.append(
                Text.assemble(
                    "The starter ", card_text(obs.top), " is wild: as dealer you name the suit."
                )
            )
        if obs.pending:
            five = obs.rules.draw_five_card
            answer = five.pretty() if obs.pending_kind == "five" and five else "another Two"
            found.append(
                Text(f"You must draw {obs.pending} cards unless you play {answer}.", style="yellow")
            )
        if obs.drawn_card is not None:
            found.append(
                Text.assemble("You drew ", card_text(obs.drawn_card), ": play it or pass.")
            )
        return found

    def _hand_line(self, obs: Observation) -> Text:
        hand = list(obs.hand)
        new: Counter[Card] = Counter()
        if self._expected is not None:
            new.update(hand)
            new.subtract(self._expected)
        line = Text(f"Your hand ({len(hand)}) ", style="bold")
        fresh: list[Card] = []
        for card in sort_hand(hand, obs.wild_rank):
            text = card_text(card)
            if new[card] > 0:
                new[card] -= 1
                fresh.append(card)
                text.stylize("underline")
            line.append(" ")
            line.append_text(text)
        if fresh:
            line.append("   new: ", style="dim")
            line.append_text(Text(" ").join(card_text(c) for c in fresh))
        return line

    def _choices_view(self, choices: Sequence[Choice]) -> Columns:
        items = [
            Text.assemble((f"[{n}]", "cyan"), " ", choice.label())
            for n, choice in enumerate(choices, start=1)
        ]
        return Columns(items, padding=(0, 3))

    def _show_moves(self, obs: Observation, *, since: int, limit: int) -> None:
        history = obs.history
        notes = history_notes(obs, self._start_pending)
        width = max(len(self.label(s)) for s in range(obs.players))
        for index in range(max(since, len(history) - limit), len(history)):
            seat, move = history[index]
            line = Text.assemble("  ", self.label(seat).ljust(width), "  ", move_text(move))
            if notes[index]:
                line.append(f"  ({notes[index]})", style="dim")
            self.console.print(line)

    def label(self, seat: int) -> str:
        """The name of ``seat`` on the table."""
        if seat == self.seat:
            return self.player_name
        if seat < len(self.names) and self.names[seat]:
            return self.names[seat]
        return f"seat {seat}"

    # -- reading -----------------------------------------------------------------------

    def read(self, prompt: str) -> str:
        """One line from the person; end of input or Ctrl-C abandons the match."""
        try:
            if self._input is not None:
                return self._input(prompt)
            self.console.print(Text(prompt, style="bold"), end="")
            return input()
        except (EOFError, KeyboardInterrupt):
            self.console.print()
            raise MatchAbandoned from None

    def _ask_move(self, obs: Observation, choices: Sequence[Choice]) -> Move:
        if len(choices) == 1 and choices[0].first.kind is MoveKind.NOMINATE:
            move = self._complete(choices[0], obs)
            assert move is not None
            return move
        numbers = "1" if len(choices) == 1 else f"1-{len(choices)}"
        prompt = f"Your move [{numbers}, ? for help]: "
        while True:
            answer = self.read(prompt).strip()
            choice = self._parse_choice(answer, obs, choices)
            if choice is None:
                continue
            move = self._complete(choice, obs)
            if move is not None:
                return move

    def _parse_choice(
        self, answer: str, obs: Observation, choices: Sequence[Choice]
    ) -> Choice | None:
        low = answer.lower()
        if not low:
            return None
        if low in ("?", "h", "help"):
            self.console.print(Text(_HELP))
            return None
        if low in ("r", "redraw"):
            self.show(obs, choices)
            return None
        if low in ("q", "quit", "exit"):
            if self._yes_no("Leave the match? [y/N]: ", default=False):
                raise MatchAbandoned
            return None
        if _is_number(low):
            number = int(low)
            if 1 <= number <= len(choices):
                return choices[number - 1]
            self._complain(f"there is no move {number}: choose 1 to {len(choices)}")
            return None
        kind = _WORDS.get(low)
        if kind is not None:
            found = [c for c in choices if c.first.kind is kind]
            if found:
                return found[0]
            self._complain(f"you cannot {kind.name.lower()} now")
            return None
        wanted = self._cards(answer)
        if wanted is not None:
            found = [c for c in choices if c.first.cards == wanted]
            if found:
                return found[0]
            self._complain(f"{answer} is not a legal play now")
            return None
        self._complain(f"{answer!r} is not a move: type a number (? for help)")
        return None

    @staticmethod
    def _cards(answer: str) -> tuple[Card, ...] | None:
        try:
            return tuple(Card.parse(p) for p in answer.replace("+", " ").split())
        except ValueError:
            return None

    def _complete(self, choice: Choice, obs: Observation) -> Move | None:
        """Ask for what the number leaves open: the suit and the announcement."""
        moves = list(choice.moves)
        suits = choice.suits
        if len(suits) > 1:
            suit = self._ask_suit(suits, obs, played=choice.first.cards)
            moves = [m for m in moves if m.suit == suit]
        if len({m.announce for m in moves}) == 2:
            announce = self._yes_no("Announce last card? [Y/n]: ", default=True)
            moves = [m for m in moves if m.announce == announce]
        return moves[0] if moves else None

    def _ask_suit(
        self, suits: Sequence[Suit], obs: Observation, played: tuple[Card, ...] = ()
    ) -> Suit:
        rest = Counter(obs.hand)
        rest.subtract(played)
        by_suit: Counter[Suit] = Counter()
        for card, n in rest.items():
            if n > 0 and card.rank != obs.wild_rank:
                by_suit[card.suit] += n
        default = max(suits, key=lambda s: (by_suit[s], -_SUIT_KEYS.index(s)))
        options = Text("Suits: ")
        for n, offered in enumerate(suits, start=1):
            options.append(f"[{n}] ", style="cyan")
            options.append_text(suit_text(offered))
            options.append(f" {_SUIT_NAMES[offered]}   ")
        self.console.print(options)
        prompt = f"Suit [{'/'.join(s.name.lower() for s in suits)}, Enter: {default.symbol}]: "
        while True:
            answer = self.read(prompt).strip()
            if not answer:
                return default
            if _is_number(answer) and 1 <= int(answer) <= len(suits):
                return suits[int(answer) - 1]
            suit = _parse_suit(answer)
            if suit is not None and suit in suits:
                return suit
            self._complain(f"{answer!r} is not one of the suits offered")

    def _yes_no(self, prompt: str, *, default: bool) -> bool:
        while True:
            answer = self.read(prompt).strip().lower()
            if not answer:
                return default
            if answer in ("y", "yes"):
                return True
            if answer in ("n", "no"):
                return False
            self._complain("answer y or n")

    def _complain(self, message: str) -> None:
        self.console.print(Text(message, style="red"))
