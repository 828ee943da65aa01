"""Fails before it can say hello."""

raise RuntimeError("crash_at_start: failing on purpose")
