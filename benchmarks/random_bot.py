"""A c8league bot in Python: a random playable card, else a random legal move (draw).

The policy of the built-in ``random:playable_first=true``, with its own random numbers
(a generator per match, seeded from the seed of that match). It speaks the line protocol
of docs/protocol.md and announces four capabilities in its hello: ``match_start`` (it
plays match after match in one process), ``concurrent`` (it plays several matches at
once: their messages are interleaved, each naming its match with ``"match"``),
``changes`` (lean observations) and ``skip_forced`` (it is not asked when a draw is its
only legal move). Each line is read whole with ``json.loads``, as a bot that looks at
its view would. The answers to the lines read in one go are written in one go, before
the bot waits for input again.

    python3 random_bot.py [--count]

With ``--count`` the bot writes ``started`` to its standard error when it starts (the
benchmark counts the processes started in their logs: a sandboxed bot writes no file).
"""

import json
import os
import random
import sys

if "--count" in sys.argv[1:]:
    sys.stderr.write("started\n")
    sys.stderr.flush()

NOT_PLAYS = ("draw", "pass")


def answer(message, rngs):
    """The answer to one message: its line, or "" when none is due."""
    kind = message["type"]
    match = message.get("match")
    if kind == "move":
        rng = rngs[match]
        legal = message["legal"]
        plays = [i for i, m in enumerate(legal) if m not in NOT_PLAYS and m[0] != "n"]
        index = rng.choice(plays) if plays else rng.randrange(len(legal))
        if match is None:
            return f'{{"type":"move","index":{index}}}\n'
        return f'{{"type":"move","match":{match},"index":{index}}}\n'
    if kind in ("hello", "match_start"):
        rngs[match] = random.Random(message["seed"])
        if match is not None:
            return ""  # the match_start of a match among several at once: a notice
        hello = {"type": kind}
        if kind == "hello":
            hello["name"], hello["version"] = "random-py", "1.0"
            hello["capabilities"] = ["match_start", "concurrent", "changes", "skip_forced"]
        return json.dumps(hello) + "\n"
    if kind in ("match_end", "error") and match is not None:
        rngs.pop(match, None)
    return ""


# Each match's generator, by match number; None: messages that name no match (the hello,
# and every message from a c8league that ignores "concurrent").
rngs = {None: random.Random(0)}
rest = b""
playing = True
while playing and (chunk := os.read(0, 1 << 16)):
    *lines, rest = (rest + chunk).split(b"\n")
    answers = []
    for line in lines:
        if line.strip():
            message = json.loads(line)
            if message["type"] == "quit":
                playing = False
                break
            answers.append(answer(message, rngs))
    if text := "".join(answers):
        sys.stdout.buffer.write(text.encode())
        sys.stdout.buffer.flush()
