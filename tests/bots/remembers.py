"""Plays match after match in one process (``match_start``) and picks a random legal
move from a generator seeded once, from its hello's seed: a match it plays after
another goes otherwise than the same match played first. ``--reseed`` seeds it again
from each match's seed, as a bot should."""

import json
import random
import sys

reseed = "--reseed" in sys.argv
rng = random.Random()


def send(message: object) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


for line in sys.stdin:
    message = json.loads(line)
    kind = message["type"]
    if kind == "hello":
        rng.seed(message["seed"])
        send({"type": "hello", "name": "remembers", "capabilities": ["match_start"]})
    elif kind == "match_start":
        if reseed:
            rng.seed(message["seed"])
        send({"type": "match_start"})
    elif kind == "move":
        send({"type": "move", "move": rng.choice(message["legal"])})
    elif kind == "quit":
        break
