"""Answers one move, then allocates memory until the limit stops it."""

from botlib import first_legal, serve

hoard = []


def choose(message, number):
    if number == 2:
        while True:
            hoard.append(bytearray(50 * 1024 * 1024))
    return first_legal(message, number)


serve(choose, name="hog")
