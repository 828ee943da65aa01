"""Plays well, but at its third move starts a process that leaves it by a double fork
(the grandchild is adopted by another process): it has to be found and ended all the
same."""

import os

from botlib import first_legal, serve


def choose(message, number):
    if number == 3 and os.fork() == 0:
        if os.fork() == 0:
            os.execvp("sleep", ["sleep", "300"])
        os._exit(0)
    if number == 3:
        os.wait()
    return first_legal(message, number)


serve(choose, name="double-fork")
