"""Plays well, but at its third move starts a child that calls ``setsid``: it leaves the
bot's session and process group, and has to be found and ended all the same."""

import subprocess

from botlib import first_legal, serve


def choose(message, number):
    if number == 3:
        subprocess.Popen(["sleep", "300"], start_new_session=True)
    return first_legal(message, number)


serve(choose, name="setsid")
