"""Seeded randomness: seeds derived from other seeds, and the engine's shuffle.

Python's ``hash()`` of a string is salted per process, so seeds are derived with
SHA-256 of the parts' text instead.
"""

from __future__ import annotations

import hashlib
import random
from typing import TypeVar

T = TypeVar("T")


def derive_seed(*parts: object) -> int:
    """A 63-bit seed from ``parts`` (``derive_seed(event_seed, "round", 3, "table", 2)``)."""
    text = ":".join(str(p) for p in parts).encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "big") >> 1


def shuffle(rng: random.Random, items: list[T]) -> None:
    """Shuffle ``items`` in place exactly as ``rng.shuffle(items)`` does.

    The same Fisher-Yates walk over the same ``getrandbits`` draws (rejection sampling
    below ``i + 1``), so stored deals keep replaying; written out because the engine is
    compiled, where this loop runs several times faster than the library's.
    """
    getrandbits = rng.getrandbits
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]
