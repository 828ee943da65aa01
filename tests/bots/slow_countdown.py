"""Answers the first legal move at once, but under Countdown rules takes far too long
over its third move."""

import json
import sys
import time

countdown = False


def send(message: object) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


moves = 0
for line in sys.stdin:
    message = json.loads(line)
    kind = message["type"]
    if kind == "hello":
        countdown = bool(message["rules"]["countdown"])
        send({"type": "hello", "name": "slow-countdown"})
    elif kind == "move":
        moves += 1
        if countdown and moves == 3:
            time.sleep(60)
        send({"type": "move", "move": message["legal"][0]})
    elif kind == "quit":
        break
