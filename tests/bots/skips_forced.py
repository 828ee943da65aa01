"""Asks c8league to play its forced moves (``skip_forced``), answers the first legal
move, and exits with code 3 at the request given as its argument (30 by default)."""

import json
import sys

crash_at = int(sys.argv[1]) if len(sys.argv) > 1 else 30
requests = 0
for line in sys.stdin:
    message = json.loads(line)
    kind = message["type"]
    if kind == "hello":
        hello = {"type": "hello", "name": "skips", "capabilities": ["skip_forced"]}
        sys.stdout.write(json.dumps(hello) + "\n")
    elif kind == "move":
        requests += 1
        if requests == crash_at:
            sys.exit(3)
        sys.stdout.write(json.dumps({"type": "move", "move": message["legal"][0]}) + "\n")
    elif kind == "quit":
        break
    sys.stdout.flush()
