"""Plays well, slowly: 20 ms a move."""

import time

from botlib import first_legal, serve


def choose(message, number):
    time.sleep(0.02)
    return first_legal(message, number)


serve(choose, name="ponder")
