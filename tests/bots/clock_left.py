"""Writes what it is told of its match clock to its standard error (one JSON line each:
its hello's ``limits``, then each move request's ``clock``), sleeps the seconds given as
its first argument (0 by default) over each move, and answers the first legal move.
``--skip-forced`` asks c8league to play its forced moves."""

import json
import sys
import time

sleep = float(sys.argv[1]) if len(sys.argv) > 1 else 0.0
capabilities = ["skip_forced"] if "--skip-forced" in sys.argv else []
for line in sys.stdin:
    message = json.loads(line)
    kind = message["type"]
    if kind == "hello":
        sys.stderr.write(json.dumps({"limits": message["limits"]}) + "\n")
        hello = {"type": "hello", "name": "clocked", "capabilities": capabilities}
        sys.stdout.write(json.dumps(hello) + "\n")
    elif kind == "move":
        sys.stderr.write(json.dumps({"clock": message.get("clock")}) + "\n")
        sys.stderr.flush()
        time.sleep(sleep)
        sys.stdout.write(json.dumps({"type": "move", "move": message["legal"][0]}) + "\n")
    elif kind == "quit":
        break
    sys.stdout.flush()
