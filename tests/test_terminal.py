"""The ``terminal`` player driven by scripted keystrokes, and ``c8league play``."""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable, Iterator

import pytest
from rich.console import Console

from c8league.cli import play_cmd
from c8league.cli.main import main
from c8league.engine import Hand, Move, Rules
from c8league.players import registry
from c8league.players.greedy import GreedyPlayer
from c8league.players.random_player import RandomPlayer
from c8league.players.terminal import MatchAbandoned, TerminalPlayer, group_moves
from c8league.runner.loop import play_match

PAGAT = Rules.from_options("pagat")
BOTS = {"greedy": GreedyPlayer, "random": RandomPlayer}


def first_move(prompt: str) -> str:
    """Choose the first move listed; the spades when a suit is asked; announce."""
    if prompt.startswith("Suit"):
        return "s"
    if prompt.startswith("Announce"):
        return "y"
    return "1"


def scripted(answers: Iterable[str]) -> tuple[Callable[[str], str], list[str]]:
    """An input function answering from ``answers``, then end of input; and the prompts."""
    queue: Iterator[str] = iter(answers)
    prompts: list[str] = []

    def read(prompt: str) -> str:
        prompts.append(prompt)
        try:
            return next(queue)
        except StopIteration:
            raise EOFError from None

    return read, prompts


def player(read: Callable[[str], str]) -> tuple[TerminalPlayer, io.StringIO]:
    buffer = io.StringIO()
    console = Console(file=buffer, width=100, color_system=None, highlight=False)
    return TerminalPlayer(seat_names="you,bot", console=console, input=read), buffer


def position(hand: str, top: str, **kwargs: object) -> Hand:
    return Hand.from_position(
        PAGAT, [hand, "2C 3C 4C"], discard=top, stock="JC JD JH", dealer=1, **kwargs
    )


def choose(
    hand: Hand, answers: Iterable[str], *, may_leave: bool = False
) -> tuple[Move, str, list[str]]:
    """Seat 0 chooses with scripted answers: the move, what was shown, the prompts."""
    read, prompts = scripted(answers)
    seat, buffer = player(read)
    try:
        move = seat.choose(hand.observation(0), hand.legal_moves())
    except MatchAbandoned:
        if may_leave:
            raise
        # A KeyboardInterrupt escaping a test would stop the whole test session.
        raise AssertionError(f"the answers ran out:\n{buffer.getvalue()}") from None
    return move, buffer.getvalue(), prompts


# -- the player -------------------------------------------------------------------------


def test_scripted_match_against_greedy_to_the_end() -> None:
    seat, buffer = player(first_move)
    outcome = play_match(PAGAT, [seat, GreedyPlayer()], seed=3)
    assert outcome.forfeit is None
    assert outcome.result.ended == "target"
    text = buffer.getvalue()
    assert "Hand 1 over" in text and "Match over" in text
    # Seed 3 and the first-legal-move script: greedy reaches the target first.
    assert outcome.result.placements == (2, 1)
    assert "You finish in place 2" in text and "You win" not in text
    assert "[1]" in text and "Your hand" in text and "Top card" in text
    assert any(symbol in text for symbol in "♣♦♥♠")


def test_display_shows_table_hand_and_numbered_moves() -> None:
    hand = position("5S 8H KD 2S", "9S")
    move, text, _ = choose(hand, ["1"])
    assert move == Move.parse("2S")  # hand order: spades by rank, the eight last
    assert "Your hand (4)  2♠ 5♠ K♦ 8♥" in text
    assert "[1] 2♠" in text and "[2] 5♠" in text and "[3] 8♥ → suit?" in text
    assert "[4] draw" in text
    assert "Top card 9♠" in text and "follow ♠" in text
    lines = {line.split()[0]: line for line in text.splitlines() if line.strip()}
    assert lines["▶"].split()[1:3] == ["you", "4"]  # whose turn, and hand sizes
    assert "bot (dealer)" in text and " 3 " in text


def test_eight_asks_for_the_suit() -> None:
    move, text, prompts = choose(position("5S 8H KD", "9S"), ["2", "h"])
    assert move == Move.parse("8H:H")
    assert "♣ clubs" in text and prompts[-1].startswith("Suit")


def test_suit_by_number_and_default_is_the_longest_suit() -> None:
    assert choose(position("5S 8H KD", "9S"), ["2", "1"])[0] == Move.parse("8H:S")
    assert choose(position("5D 8H KD", "9S"), ["1", ""])[0] == Move.parse("8H:D")


def test_bad_keystrokes_ask_again() -> None:
    answers = ["x", "0", "99", "KD", "", "2", "purple", "5", "♥"]
    move, text, prompts = choose(position("5S 8H KD", "9S"), answers)
    assert move == Move.parse("8H:H")
    assert "'x' is not a move" in text
    assert "there is no move 0" in text and "there is no move 99" in text
    assert "KD is not a legal play now" in text
    assert "'purple' is not one of the suits offered" in text
    assert "'5' is not one of the suits offered" in text
    assert len(prompts) == len(answers)


def test_cards_and_words_are_moves_too() -> None:
    assert choose(position("5S 8H KD", "9S"), ["5s"])[0] == Move.parse("5S")
    assert choose(position("5S 8H KD", "9S"), ["d"])[0] == Move.parse("draw")
    _, text, _ = choose(position("5S 8H KD", "9S"), ["p", "?", "draw"])
    assert "you cannot pass now" in text and "d = draw" in text


def test_last_card_is_one_choice_announced_by_default() -> None:
    hand = position("5S KD", "9S")
    assert len(group_moves(hand.legal_moves())) == 2  # 5S (two variants) and draw
    move, text, prompts = choose(hand, ["1", ""])
    assert move == Move.parse("5S!")
    assert "(last card)" in text and prompts[-1].startswith("Announce last card? [Y/n]")
    assert choose(position("5S KD", "9S"), ["1", "maybe", "n"])[0] == Move.parse("5S")


def test_pending_draw_and_nominated_suit_are_shown() -> None:
    hand = position("2S KD 7H", "2H", pending=2)
    move, text, _ = choose(hand, ["2"])
    assert move == Move.parse("draw")
    assert "You must draw 2 cards unless you play another Two" in text
    _, text, _ = choose(position("5S KD 7H", "8C", suit="D", wild_top=True), ["1"])
    assert "follow ♦ (nominated)" in text


def test_dealer_nominates_for_a_wild_starter() -> None:
    hand = Hand.from_deal(PAGAT, ["2C 3C 4C", "5D 6D 7D"], "8H 9S 10S", dealer=0)
    read, _ = scripted(["nope", "d"])
    seat, buffer = player(read)
    move = seat.choose(hand.observation(0), hand.legal_moves())
    assert move == Move.nominate("D")
    assert "as dealer you name the suit" in buffer.getvalue()


def test_end_of_input_and_quit_abandon_the_match() -> None:
    with pytest.raises(MatchAbandoned):
        choose(position("5S 8H KD", "9S"), [], may_leave=True)
    with pytest.raises(MatchAbandoned):
        choose(position("5S 8H KD", "9S"), ["q", "y"], may_leave=True)
    assert choose(position("5S 8H KD", "9S"), ["q", "n", "1"])[0] == Move.parse("5S")

    def interrupted(prompt: str) -> str:
        raise KeyboardInterrupt

    seat, _ = player(interrupted)
    hand = position("5S 8H KD", "9S")
    with pytest.raises(MatchAbandoned):
        seat.choose(hand.observation(0), hand.legal_moves())


# -- c8league play -------------------------------------------------------------------------


@pytest.fixture
def bots() -> Iterator[None]:
    with registry.only_registered(BOTS):
        yield


@pytest.mark.usefixtures("bots")
def test_play_a_whole_match(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(play_cmd, "input_function", first_move)
    assert main(["play", "--vs", "greedy", "--seed", "1", "--name", "Ada"]) == 0
    out = capsys.readouterr().out
    assert "seed 1" in out and "Ada (seat 0) against greedy" in out
    assert "Match over" in out and "Ada" in out


@pytest.mark.usefixtures("bots")
def test_play_against_two_bots_with_options(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(play_cmd, "input_function", first_move)
    args = ["play", "--vs", "random:seed=3,playable_first=true,greedy", "--seed", "2"]
    assert main([*args, "--rules", "basic"]) == 0
    out = capsys.readouterr().out
    assert "against random, greedy" in out and "Match over" in out


@pytest.mark.usefixtures("bots")
@pytest.mark.parametrize("error", [EOFError, KeyboardInterrupt])
def test_play_end_of_input_is_a_clean_exit_130(
    error: type[BaseException],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    def read(prompt: str) -> str:
        raise error

    monkeypatch.setattr(play_cmd, "input_function", read)
    assert main(["play", "--vs", "greedy", "--seed", "1"]) == 130
    captured = capsys.readouterr()
    assert captured.err.strip() == "match abandoned"
    assert "Traceback" not in captured.err + captured.out


@pytest.mark.usefixtures("bots")
@pytest.mark.parametrize(
    ("vs", "needle"),
    [
        ("wizard", "no player plugin named 'wizard'; installed: greedy, random"),
        ("random:seed=x", "player 'random' option 'seed': 'x' is not int"),
        ("random:colour=red", "player 'random' has no option 'colour'"),
        ("seed=3", "comes before any bot name"),
    ],
)
def test_play_bad_bots_one_line(vs: str, needle: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--vs", vs]) == 2
    err = capsys.readouterr().err
    assert needle in err
    assert err.strip().count("\n") == 0


@pytest.mark.usefixtures("bots")
def test_play_too_many_bots(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--vs", ",".join(["random"] * 8)]) == 2
    assert "a table has 2 to 8 players, not 9" in capsys.readouterr().err


def test_parse_bots_and_seat_names() -> None:
    bots = play_cmd.parse_bots(["random:seed=3,playable_first=true,greedy", "greedy"])
    assert bots == [
        ("random", {"seed": "3", "playable_first": "true"}),
        ("greedy", {}),
        ("greedy", {}),
    ]
    assert play_cmd.seat_names("you", bots) == ["you", "random", "greedy", "greedy-2"]


def test_equal_cards_played_together_are_listed_and_typed_with_plus() -> None:
    olsen = Rules.from_options("olsen")
    hand = Hand.from_position(
        olsen, ["9S 9H 5D", "2C 3C 4C"], discard="4S", stock="JC JD", dealer=1
    )
    read, _ = scripted(["9s+9h"])
    seat, buffer = player(read)
    assert seat.choose(hand.observation(0), hand.legal_moves()) == Move.parse("9S+9H")
    assert "9♠+9♥" in buffer.getvalue()


def test_history_shows_special_cards_and_penalty_draws() -> None:
    hand = Hand.from_position(
        PAGAT, ["5S 8H KD", "2S 3C 4C"], discard="9S", stock="JC JD JH QH", dealer=1
    )
    for text in ("5S", "2S", "draw", "draw"):
        hand.apply(Move.parse(text))
    _, shown, _ = choose(hand, ["d"])
    assert "bot  2♠  (draw two)" in shown
    assert "you  drew  (2 cards)" in shown and "bot  drew\n" in shown
