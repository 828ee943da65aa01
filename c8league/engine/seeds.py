"""Seeds derived from other seeds, the same on every machine and in every process.

Python's ``hash()`` of a string is salted per process, so seeds are derived with
SHA-256 of the parts' text instead.
"""

from __future__ import annotations

import hashlib


def derive_seed(*parts: object) -> int:
    """A 63-bit seed from ``parts`` (``derive_seed(event_seed, "round", 3, "table", 2)``)."""
    text = ":".join(str(p) for p in parts).encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "big") >> 1
