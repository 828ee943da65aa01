"""Answers three moves, then exits with code 3 instead of answering the fourth."""

import sys

from botlib import first_legal, serve


def choose(message, number):
    if number == 4:
        sys.exit(3)
    return first_legal(message, number)


serve(choose, name="quitter")
