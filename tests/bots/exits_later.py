"""Answers its third move, then ends its own process 5 ms later (code 5), while
c8league is busy with the other seats."""

import os
import threading

from botlib import first_legal, serve


def choose(message, number):
    if number == 3:
        threading.Timer(0.005, os._exit, (5,)).start()
    return first_legal(message, number)


serve(choose, name="exits-later")
