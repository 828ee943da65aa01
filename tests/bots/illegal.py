"""Plays one good move, then a well-formed move that is not legal."""

from botlib import first_legal, serve

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
CARDS = [rank + suit for suit in "CDHS" for rank in RANKS]


def choose(message, number):
    if number == 2:
        return next(card for card in CARDS if card not in message["legal"])
    return first_legal(message, number)


serve(choose, name="illegal")
