"""A c8league bot in Python: a random playable card, else a random legal move (draw).

The policy of the built-in ``random:playable_first=true``, with its own random numbers
(seeded from the seed of each match). It speaks the line protocol of docs/protocol.md
and announces three capabilities in its hello: ``match_start`` (it plays match after
match in one process), ``changes`` (lean observations) and ``skip_forced`` (it is not
asked when a draw is its only legal move). Each line is read whole with
``json.loads``, as a bot that looks at its view would.

    python3 random_bot.py [STARTS]

An optional argument names a file to which the bot appends a line when it starts (the
benchmark counts the processes started).
"""

import json
import random
import sys

if len(sys.argv) > 1:
    with open(sys.argv[1], "a") as starts:
        starts.write("started\n")

rng = random.Random(0)
NOT_PLAYS = ("draw", "pass")
for line in sys.stdin:
    message = json.loads(line)
    kind = message["type"]
    if kind == "move":
        legal = message["legal"]
        plays = [i for i, m in enumerate(legal) if m not in NOT_PLAYS and m[0] != "n"]
        index = rng.choice(plays) if plays else rng.randrange(len(legal))
        sys.stdout.write(f'{{"type":"move","index":{index}}}\n')
        sys.stdout.flush()
    elif kind in ("hello", "match_start"):
        rng = random.Random(message["seed"])
        answer = {"type": kind}
        if kind == "hello":
            answer["name"], answer["version"] = "random-py", "1.0"
            answer["capabilities"] = ["match_start", "changes", "skip_forced"]
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()
    elif kind == "quit":
        break
