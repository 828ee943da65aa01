"""Answers its third move, then ends its own process 5 ms later (code 5), while
c8league is busy with the other seats. It answers no later move (a late timer on a
busy machine would otherwise let it finish the match first): the next request waits
until the timer has ended the process."""

import os
import threading
import time

from botlib import first_legal, serve


def choose(message, number):
    if number == 3:
        threading.Timer(0.005, os._exit, (5,)).start()
    elif number > 3:
        time.sleep(3600)  # the timer ends the process
    return first_legal(message, number)


serve(choose, name="exits-later")
