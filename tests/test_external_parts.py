"""The ``external`` player's parts on their own: the protocol's messages, the framing
of lines over real pipes, the capped log of standard error, and the reading of how a
bot's process ended. ``tests/test_external.py`` plays whole matches with real bots."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from c8league.engine import HandResult, Match, MatchResult, Move, Rules, wire
from c8league.players.external import ExternalOptions, ExternalPlayer
from c8league.players.external import protocol as P
from c8league.players.external.framing import (
    MAX_LINE,
    Channel,
    LineTooLong,
    Overdue,
    PipeClosed,
    StderrLog,
)
from c8league.players.external.process import exit_fault

# -- protocol --------------------------------------------------------------------------


def test_the_factory_declares_its_options() -> None:
    assert ExternalPlayer.options_model is ExternalOptions


def test_lines_written_are_compact_json_ending_with_a_newline() -> None:
    rules = Rules.from_options("pagat")
    obs = Match(rules, 2, seed=3).observation(0)
    text = wire.ObservationEncoder().view(obs)
    hand = HandResult("out", (0,), (0, 12), (12, 0), 31)
    match = MatchResult((1, 2), (12, 0), 1, "target")
    lines = [
        P.hello(
            seat=1, players=2, seed=7, rules=rules, move_time=2.0, startup_time=5.0, memory_mb=0
        ),
        P.hand_start(text),
        wire.move_request(text, ["QS", "draw"]),
        P.hand_end(text, hand),
        P.match_end(match),
        P.error("timeout", "no move within 2 s").decode(),
        P.QUIT.decode(),
    ]
    for line in lines:
        assert line.endswith("\n") and line.count("\n") == 1
        assert (
            line == json.dumps(json.loads(line), separators=(",", ":"), ensure_ascii=False) + "\n"
        )
    sent = [json.loads(line) for line in lines]
    assert [m["type"] for m in sent] == [
        "hello",
        "hand_start",
        "move",
        "hand_end",
        "match_end",
        "error",
        "quit",
    ]
    assert sent[0]["protocol"] == P.PROTOCOL_VERSION and sent[0]["rules"] == rules.to_options()
    assert sent[0]["limits"] == {"move_time": 2.0, "startup_time": 5.0, "memory_mb": 0}
    assert sent[1]["observation"] == sent[2]["observation"] == obs.to_dict()
    start = P.match_start(
        seat=1, players=2, seed=7, rules=rules, move_time=2.0, startup_time=5.0, memory_mb=0
    )
    changes = wire.ObservationEncoder(wire.CHANGES)
    more = [start, P.view_answer(text), wire.move_request(changes.view(obs), ["draw"])]
    for line in more:
        assert line == json.dumps(json.loads(line), separators=(",", ":")) + "\n"
    after = [json.loads(line) for line in more]
    hello = {k: v for k, v in sent[0].items() if k not in ("type", "protocol")}
    assert after[0] == {"type": "match_start", **hello}
    assert after[1] == {"type": "view", "observation": obs.to_dict()}
    assert after[2]["observation"] == obs.to_dict()  # a hand's first view is whole
    assert sent[2]["legal"] == ["QS", "draw"]
    assert sent[3]["result"] == {
        "kind": "out",
        "winners": [0],
        "points": [12, 0],
        "penalties": [0, 12],
        "turns": 31,
        "countdown_scores": None,
    }
    assert sent[4]["result"] == {
        "placements": [1, 2],
        "scores": [12, 0],
        "hands": 1,
        "ended": "target",
    }
    assert sent[5] == {"type": "error", "reason": "timeout", "message": "no move within 2 s"}


@pytest.mark.parametrize(
    ("answer", "words"),
    [
        ({"type": "hello", "protocol": 2}, "the bot speaks protocol 2, c8league speaks 1"),
        ({"type": "hello", "history": "some"}, 'must be "full" or "new", not \'some\''),
        ({"type": "hello", "name": 3}, '"name" and "version" must be strings'),
        ({"type": "hello", "version": 1.0}, '"name" and "version" must be strings'),
        ({"type": "hello", "capabilities": "changes"}, '"capabilities" must be a list of'),
        ({"type": "hello", "capabilities": [1]}, '"capabilities" must be a list of strings'),
    ],
)
def test_hello_answers_that_break_the_protocol(answer: dict[str, Any], words: str) -> None:
    with pytest.raises(P.Violation) as caught:
        P.read_hello(answer)
    assert words in str(caught.value)


def test_hello_answer_read() -> None:
    assert P.read_hello({"type": "hello"}) == P.Hello("", "", wire.FULL)
    hello = P.read_hello({"type": "hello", "name": "b", "version": "2", "history": "new"})
    assert hello == P.Hello("b", "2", wire.NEW)
    both = {"type": "hello", "capabilities": ["match_start", "changes", "telepathy"]}
    assert P.read_hello(both) == P.Hello("", "", wire.CHANGES, matches=True)
    assert P.read_hello({**both, "history": "new"}).form == wire.CHANGES
    assert P.read_hello({"type": "hello", "capabilities": []}).matches is False


@pytest.mark.parametrize(
    ("line", "words"),
    [
        (b"I play the queen", "not a JSON line: 'I play the queen'"),
        (b"[1, 2]", 'expected {"type":"move", ...}, got \'[1, 2]\''),
        (b'{"type":"hello"}', 'expected {"type":"move", ...}'),
        (b"x" * 300, "'" + "x" * 120 + "...'"),
    ],
)
def test_answers_of_the_wrong_kind(line: bytes, words: str) -> None:
    with pytest.raises(P.Violation) as caught:
        P.answer(line, "move")
    assert words in str(caught.value)


def test_move_answers() -> None:
    legal = [Move.parse(t) for t in ("QS", "QH", "draw")]
    texts = [str(m) for m in legal]
    assert P.read_move({"index": 1}, legal, texts) == (legal[1], True)
    assert P.read_move({"move": "draw"}, legal, texts) == (legal[2], True)
    assert P.read_move({"move": "KD"}, legal, texts) == (Move.parse("KD"), False)
    for message, words in [
        ({"index": 3}, "index 3 is not between 0 and 2"),
        ({"index": True}, "index True is not between 0 and 2"),
        ({"move": 5}, 'needs "move" (the move text) or "index"'),
        ({"move": "queen"}, "'queen' is not a move"),
    ]:
        with pytest.raises(P.Violation) as caught:
            P.read_move(message, legal, texts)
        assert words in str(caught.value)


@pytest.mark.parametrize(
    ("line", "read"),
    [
        (b'{"type":"move","match":7,"index":3}', (7, 3)),
        (b'{"type":"move","match":0,"index":0}\r', (0, 0)),
        (
            b'{"type":"move","match":123456789012345678,"index":999999999}',
            (123456789012345678, 999999999),
        ),
        (b'{"type": "move", "match": 7, "index": 3}', (7, 3)),  # blanks: by the pattern
        (b'{"type":"move","match":07,"index":3}', None),  # a leading zero is not JSON
        (b'{"type":"move","match":7,"index":1234567890}', None),  # over 9 digits
        (b'{"type":"move","match":7,"index":3} x', None),
        (b'{"type":"move","match":7,"index":-3}', None),
        (b'{"type":"move","index":3,"match":7}', None),  # another order: by the JSON parser
    ],
)
def test_a_concurrent_bots_usual_answer(line: bytes, read: tuple[int, int] | None) -> None:
    assert P.numbered_index(line) == read


_ANSWER_PARTS = st.sampled_from(
    [b'{"type":"move","match":', b',"index":', b"}", b"\r", b" ", b"0", b"7", b"12", b"-", b'"']
)


@given(st.lists(_ANSWER_PARTS, max_size=12), st.integers(0, 10**19), st.integers(0, 10**10))
def test_the_compact_answer_reads_as_the_pattern_does(
    parts: list[bytes], match: int, index: int
) -> None:
    usual = b'{"type":"move","match":%d,"index":%d}' % (match, index)
    for line in (b"".join(parts), usual, usual + b"".join(parts)):
        compact = wire.compact_answer(line)
        by_pattern = P._NUMBERED_MOVE.fullmatch(line)
        if compact is not None:
            assert by_pattern is not None
            assert compact == tuple(int(g) for g in by_pattern.groups())


# -- framing ---------------------------------------------------------------------------


class Pipes:
    """A channel over real pipes, and the ends a bot would hold: ``bot_stdin``,
    ``bot_stdout`` and ``bot_stderr``."""

    def __init__(self, tmp_path: Path) -> None:
        self.bot_stdin, to_bot = os.pipe()
        from_bot, self.bot_stdout = os.pipe()
        errors, self.bot_stderr = os.pipe()
        self.log = StderrLog(str(tmp_path / "bot.stderr.log"))
        self.channel = Channel(
            os.fdopen(to_bot, "wb", buffering=0),
            os.fdopen(from_bot, "rb", buffering=0),
            errors,
            self.log,
        )

    def hang_up(self, end: str) -> None:
        """The bot closes one of its ends (``stdin``, ``stdout`` or ``stderr``)."""
        name = f"bot_{end}"
        fd = getattr(self, name)
        if fd >= 0:
            os.close(fd)
            setattr(self, name, -1)

    def close(self) -> None:
        self.channel.close()
        self.log.close()
        for end in ("stdin", "stdout", "stderr"):
            self.hang_up(end)


@pytest.fixture
def pipes(tmp_path: Path) -> Iterator[Pipes]:
    made = Pipes(tmp_path)
    yield made
    made.close()


def test_lines_are_read_one_at_a_time_skipping_blank_ones(pipes: Pipes) -> None:
    os.write(pipes.bot_stdout, b'\n  \n{"a":1}\n{"b":2}\n')
    far = time.monotonic() + 60
    assert pipes.channel.read_line(far) == b'{"a":1}'
    assert pipes.channel.read_line(far) == b'{"b":2}'
    assert pipes.channel.unasked() is None
    os.write(pipes.bot_stdout, b"\n{'extra'}\nmore\n")
    assert pipes.channel.unasked() == b"{'extra'}"


def test_a_late_answer_is_overdue_with_a_hint(pipes: Pipes) -> None:
    with pytest.raises(Overdue) as caught:
        pipes.channel.read_line(time.monotonic())
    assert "does the bot flush its output" in caught.value.hint
    os.write(pipes.bot_stdout, b'{"half":')
    with pytest.raises(Overdue) as caught:
        pipes.channel.read_line(time.monotonic() + 0.05)
    assert caught.value.hint == " (it wrote 8 bytes without a newline)"
    os.write(pipes.bot_stdout, b"1}\n")  # the rest comes: the line is whole again
    assert pipes.channel.read_line(time.monotonic() + 60) == b'{"half":1}'
    with pytest.raises(Overdue) as caught:
        pipes.channel.read_line(time.monotonic())
    assert caught.value.hint == ""  # it has answered before: no guess


def test_a_line_too_long_is_refused(pipes: Pipes) -> None:
    def flood() -> None:
        with contextlib.suppress(OSError):  # until c8league stops reading and closes
            while True:
                os.write(pipes.bot_stdout, b"x" * 65536)

    writer = threading.Thread(target=flood)
    writer.start()
    try:
        with pytest.raises(LineTooLong):
            pipes.channel.read_line(time.monotonic() + 60)
    finally:
        pipes.channel.close()
        writer.join()


def test_a_closed_output_is_a_closed_pipe(pipes: Pipes) -> None:
    pipes.hang_up("stdout")
    with pytest.raises(PipeClosed):
        pipes.channel.read_line(time.monotonic() + 60)
    with pytest.raises(PipeClosed):
        pipes.channel.unasked()


def test_sending_to_a_bot_that_does_not_read(pipes: Pipes) -> None:
    pipes.channel.send(b"hello\n", time.monotonic() + 60)
    assert os.read(pipes.bot_stdin, 100) == b"hello\n"
    with pytest.raises(Overdue):  # more than the pipe holds, nobody reading
        pipes.channel.send(b"x" * (4 * MAX_LINE), time.monotonic() + 0.05)
    pipes.hang_up("stdin")
    with pytest.raises(PipeClosed):
        pipes.channel.send(b"hello\n", time.monotonic() + 60)
    pipes.channel.write_now(b"never waits, never fails\n")


def test_standard_error_is_copied_to_the_log_while_waiting(pipes: Pipes) -> None:
    os.write(pipes.bot_stderr, b"thinking...\n")
    with pytest.raises(Overdue):
        pipes.channel.read_line(time.monotonic() + 0.05)
    pipes.hang_up("stderr")
    assert pipes.channel.drain() == -1  # closed by the bot: nothing more to watch
    pipes.channel.close()
    pipes.log.close()
    assert Path(pipes.log.file.name).read_bytes() == b"thinking...\n"


def test_the_log_keeps_its_head_and_tail(tmp_path: Path) -> None:
    path = tmp_path / "bot.log"
    log = StderrLog(str(path), head=10, tail=6)
    for part in (b"0123456", b"789abc", b"defghij", b"klmnop"):
        log.write(part)
    assert log.last(4) == b"mnop"
    assert log.last(12) == b"456789klmnop"  # what is kept of the last 12: the rest dropped
    log.close()
    log.close()  # twice is fine
    text = path.read_bytes()
    assert text.startswith(b"0123456789\n[c8league: 10 bytes of standard error dropped here;")
    assert text.endswith(b"keeps its first 10 and last 6 bytes]\nklmnop")


# -- how a process ended ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("code", "tail", "rss_kb", "reason", "detail"),
    [
        (3, b"", 0, "crash", "the bot exited with code 3 now"),
        (
            1,
            b"x\nTraceback\nValueError: no\n\n",
            0,
            "crash",
            "exited with code 1 now; stderr: ValueError: no",
        ),
        (1, b"a\nMemoryError: big\nafter\n", 0, "memory", "stderr: MemoryError: big"),
        (-signal.SIGKILL, b"", 0, "memory", "the bot was killed by SIGKILL now"),
        (-signal.SIGSEGV, b"", 0, "crash", "the bot was killed by SIGSEGV now"),
        (-200, b"", 0, "crash", "the bot was killed by signal 200 now"),
        (1, b"", 120 * 1024, "memory", "exited with code 1 now"),
        (0, b"", 120 * 1024, "crash", "exited with code 0 now"),
    ],
)
def test_how_a_bot_ended(code: int, tail: bytes, rss_kb: int, reason: str, detail: str) -> None:
    found = exit_fault(code, "now", tail, memory_mb=128, max_rss_kb=rss_kb)
    assert found[0] == reason
    assert detail in found[1]
