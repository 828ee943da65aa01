"""Answers two moves, then takes far too long over the third."""

import time

from botlib import first_legal, serve


def choose(message, number):
    if number == 3:
        time.sleep(60)
    return first_legal(message, number)


serve(choose, name="slow")
