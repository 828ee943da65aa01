"""A well-behaved bot: it answers the first legal move. ``--new-history`` asks for
the history incrementally and checks that it adds up; ``--index`` answers with an
index into the legal moves instead of the move's text."""

import sys

from botlib import first_legal, serve

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
elif "--index" in sys.argv:
    serve(lambda message, number: {"type": "move", "index": 0}, name="good")
else:
    serve(first_legal, name="good")
