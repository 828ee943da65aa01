"""Pickling and copying the engine's frozen dataclasses.

Compiled frozen dataclasses cannot be rebuilt field by field, as ``pickle`` and
``copy`` do by default: their ``__reduce__`` calls the constructor with every field
instead (:func:`reduce_by_fields`).
"""

from __future__ import annotations

import dataclasses
from typing import Any


def reduce_by_fields(value: Any) -> tuple[object, tuple[object, ...]]:
    """``__reduce__`` for a dataclass: its type, called with each field in order."""
    return (type(value), tuple(getattr(value, f.name) for f in dataclasses.fields(value)))
