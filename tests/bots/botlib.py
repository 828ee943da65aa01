"""The loop shared by the test bots: read one JSON line, answer the requests.

``BOT_ECHO=1`` in the environment copies every line received to standard error;
``BOT_MATCHES=1`` announces the capability ``match_start``: the bot plays match after
match in one process, its moves counted afresh in each match.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from typing import Any

Choose = Callable[[dict[str, Any], int], Any]
"""(move request, its number from 1) -> the move text, or a whole answer (dict)."""


def send(message: object) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def serve(choose: Choose, *, name: str = "testbot", history: str = "full") -> None:
    echo = os.environ.get("BOT_ECHO") == "1"
    matches = os.environ.get("BOT_MATCHES") == "1"
    moves = 0
    for line in sys.stdin:
        if echo:
            sys.stderr.write(line)
            sys.stderr.flush()
        message = json.loads(line)
        kind = message["type"]
        if kind == "hello":
            hello = {"type": "hello", "name": name, "version": "1.0", "history": history}
            if matches:
                hello["capabilities"] = ["match_start"]
            send(hello)
        elif kind == "match_start":
            moves = 0
            send({"type": "match_start"})
        elif kind == "move":
            moves += 1
            answer = choose(message, moves)
            send(answer if isinstance(answer, dict) else {"type": "move", "move": answer})
        elif kind == "quit":
            return


def first_legal(message: dict[str, Any], number: int) -> str:
    return str(message["legal"][0])
