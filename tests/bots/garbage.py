"""Breaks the protocol at its first move; the argument says how:
``text`` (not JSON, the default), ``type`` (wrong message type), ``index`` (index out of
range), ``move`` (a text that is not a move), ``notice`` (answers a notice)."""

import sys

from botlib import first_legal, send, serve

how = sys.argv[1] if len(sys.argv) > 1 else "text"


def answer_notices() -> None:
    for line in sys.stdin:
        if '"type":"hello"' in line:
            send({"type": "hello", "name": "chatty"})
        elif '"type":"hand_start"' in line:
            send({"type": "ok"})
        elif '"type":"move"' in line:
            send({"type": "move", "index": 0})


def choose(message, number):
    if how == "text":
        sys.stdout.write("I play the queen of spades\n")
        sys.stdout.flush()
        return first_legal(message, number)
    if how == "type":
        return {"type": "play", "move": message["legal"][0]}
    if how == "index":
        return {"type": "move", "index": len(message["legal"])}
    return "queen of spades"


if how == "notice":
    answer_notices()
else:
    serve(choose, name="garbage")
