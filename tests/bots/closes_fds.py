"""Plays well, but at its third move closes every file descriptor from 3 up (only its
own: c8league's are out of its reach)."""

import os

from botlib import first_legal, serve


def choose(message, number):
    if number == 3:
        os.closerange(3, 65536)
    return first_legal(message, number)


serve(choose, name="closes-fds")
