"""A well-behaved bot: it answers the first legal move. ``--new-history`` asks for
the history incrementally and checks that it adds up; ``--changes`` takes its view as
changes, keeps it, and every seventh move asks for its whole view and checks that they
agree; ``--index`` answers with an index into the legal moves instead of the move's
text."""

import json
import sys

from botlib import first_legal, send, serve

if "--new-history" in sys.argv:
    history: list[list[object]] = []
    hand = -1

    def choose(message, number):
        global hand
        obs = message["observation"]
        if obs["hand_number"] != hand or obs["history_start"] == 0:
            hand = obs["hand_number"]
            history.clear()
        assert obs["history_start"] == len(history), (obs["history_start"], len(history))
        history.extend(obs["new_history"])
        return first_legal(message, number)

    serve(choose, name="good", history="new")
elif "--changes" in sys.argv:
    view: dict[str, object] = {}
    moves = 0
    for line in sys.stdin:
        message = json.loads(line)
        kind = message["type"]
        if kind == "hello":
            send({"type": "hello", "name": "good", "capabilities": ["changes"]})
        elif kind in ("hand_start", "move", "hand_end"):
            if "observation" in message:
                view = message["observation"]
            else:
                view.update(message["changes"])
                view["history"] = view["history"] + message["new_history"]  # type: ignore[operator]
            if kind == "move":
                moves += 1
                if moves % 7 == 0:
                    send({"type": "view"})
                    whole = json.loads(sys.stdin.readline())
                    assert whole["type"] == "view" and whole["observation"] == view, whole
                send({"type": "move", "move": message["legal"][0]})
        elif kind == "quit":
            break
elif "--index" in sys.argv:
    serve(lambda message, number: {"type": "move", "index": 0}, name="good")
else:
    serve(first_legal, name="good")
