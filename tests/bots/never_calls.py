"""Plays a card whenever it can, the first of its legal moves that does not announce
"last card": under rules that penalise a missed call, it can never go out."""

from botlib import serve


def choose(message, number):
    legal = message["legal"]
    plays = [m for m in legal if m not in ("draw", "pass") and not m.endswith("!")]
    return plays[0] if plays else legal[0]


serve(choose, name="never-calls")
