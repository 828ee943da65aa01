"""A bot that plays several matches at once (capabilities ``match_start``,
``concurrent``, ``changes``, ``skip_forced``): a random playable card, else a random legal
move, from a generator per match seeded by the match's seed. It reads whatever its
input holds, answers every request in it, and writes the answers in one go.

Options:

* ``--one-at-a-time``: announce ``match_start`` only (messages carry no match number);
  it plays the same way, so results can be compared;
* ``--crash K``, ``--illegal K``, ``--garbage K``, ``--wrong-match K``, ``--sleep K``:
  at move K of each match whose seed is even, exit with status 3 (losing the answers found
  before in the same read, not yet written, as a crash does), answer a legal-looking
  move that is not legal, write a line that is not JSON, answer for another match, or
  sleep 30 seconds;
* ``--view K``: ask for its whole view before move K of each match;
* ``--starts FILE``: append a line to FILE when it starts.
"""

from __future__ import annotations

import json
import os
import random
import sys
import time

args = sys.argv[1:]


def option(name: str) -> int | None:
    return int(args[args.index(name) + 1]) if name in args else None


concurrent = "--one-at-a-time" not in args
faults = {name: option(name) for name in ("--crash", "--illegal", "--garbage", "--wrong-match")}
sleep_at, view_at = option("--sleep"), option("--view")
if "--starts" in args:
    with open(args[args.index("--starts") + 1], "a") as starts:
        starts.write("started\n")

generators: dict[int, random.Random] = {}
seeds: dict[int, int] = {}
moves: dict[int, int] = {}
out: list[str] = []


def answer(message: dict[str, object]) -> None:
    out.append(json.dumps(message))


def handle(message: dict[str, object], *, again: bool = False) -> bool:
    """Answer ``message``; True if it asked for its view first (the request waits)."""
    kind = message["type"]
    number = int(message.get("match", 0))  # type: ignore[call-overload]
    if kind == "hello":
        capabilities = ["match_start", "changes", "skip_forced"]
        if concurrent:
            capabilities.append("concurrent")
        answer({"type": "hello", "name": "concurrent", "capabilities": capabilities})
        if not concurrent:  # its hello opens its first match
            seed = int(message["seed"])  # type: ignore[call-overload]
            generators[0], seeds[0], moves[0] = random.Random(seed), seed, 0
    elif kind == "match_start":
        seed = int(message["seed"])  # type: ignore[call-overload]
        generators[number], seeds[number], moves[number] = random.Random(seed), seed, 0
        if not concurrent:
            answer({"type": "match_start"})
    elif kind == "move":
        if not again:
            moves[number] += 1
        move = moves[number]
        if view_at == move and not again:
            request: dict[str, object] = {"type": "view"}
            if concurrent:
                request["match"] = number
            answer(request)
            return True
        legal = [str(m) for m in message["legal"]]  # type: ignore[attr-defined]
        plays = [i for i, m in enumerate(legal) if m not in ("draw", "pass")]
        index = generators[number].choice(plays or range(len(legal)))
        reply: dict[str, object] = {"type": "move", "index": index}
        if seeds[number] % 2 == 0:
            if faults["--crash"] == move:  # as a crash does: the answers not written are lost
                os._exit(3)
            if faults["--illegal"] == move:
                reply = {"type": "move", "move": "QS" if "QS" not in legal else "KH"}
            if faults["--garbage"] == move:
                out.append("this is not json")
                return False
            if faults["--wrong-match"] == move:
                number += 1000
            if sleep_at == move:
                flush()
                time.sleep(30)
        if concurrent:
            reply = {"type": reply["type"], "match": number, **reply}
        answer(reply)
    elif kind == "quit":
        flush()
        sys.exit(0)
    return False


def flush() -> None:
    if out:
        os.write(1, ("\n".join(out) + "\n").encode())
        out.clear()


waiting: list[dict[str, object]] = []
"""The move request whose view was asked for (first), then the messages after it."""
buffer = b""
while True:
    chunk = os.read(0, 1 << 16)
    if not chunk:
        break
    buffer += chunk
    *lines, buffer = buffer.split(b"\n")
    for line in lines:
        if not line.strip():
            continue
        message = json.loads(line)
        if message["type"] == "view":  # the view asked for: answer the request, go on
            first, *later = waiting
            waiting.clear()
            handle(first, again=True)
            for queued in later:
                if waiting or handle(queued):
                    waiting.append(queued)
        elif waiting or handle(message):
            waiting.append(message)
    flush()
