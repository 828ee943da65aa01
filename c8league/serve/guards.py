"""What stands before every write: the CSRF token of a form, the rate of wrong codes
from one client, and the tickets that carry a table found by its code to the form of
its scores without putting the code in the page."""

from __future__ import annotations

import hmac
import secrets
import threading
import time
from collections import deque

CSRF_COOKIE = "c8league_csrf"
CSRF_FIELD = "csrf"

GUESSES = 10
"""Wrong codes a client may type in :data:`WINDOW` seconds; more are refused unread."""
WINDOW = 600.0


def new_csrf() -> str:
    return secrets.token_urlsafe(24)


def csrf_ok(cookie: str | None, field: object) -> bool:
    """The form's token is the one the browser's cookie holds (a page of another site
    can make a browser send the cookie, but cannot read it to copy it into the form)."""
    if not cookie or not isinstance(field, str) or not field:
        return False
    return hmac.compare_digest(cookie.encode(), field.encode())


class Guesses:
    """Wrong codes by client, over a sliding window (a clock that only goes forward)."""

    def __init__(self, limit: int = GUESSES, window: float = WINDOW) -> None:
        self.limit = limit
        self.window = window
        self._wrong: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def _recent(self, client: str, now: float) -> deque[float]:
        times = self._wrong.setdefault(client, deque())
        while times and times[0] <= now - self.window:
            times.popleft()
        return times

    def blocked(self, client: str) -> bool:
        with self._lock:
            return len(self._recent(client, time.monotonic())) >= self.limit

    def wrong(self, client: str) -> None:
        with self._lock:
            now = time.monotonic()
            self._recent(client, now).append(now)


class Tickets:
    """``match_id`` signed with a key of this server's run: the form of a table's scores
    names its table by a ticket, not by its code."""

    def __init__(self, key: bytes | None = None) -> None:
        self._key = key or secrets.token_bytes(32)

    def _sign(self, match_id: int) -> str:
        return hmac.new(self._key, f"table:{match_id}".encode(), "sha256").hexdigest()[:32]

    def make(self, match_id: int) -> str:
        return f"{match_id}.{self._sign(match_id)}"

    def read(self, ticket: object) -> int | None:
        """The match of a ticket this server made, or None."""
        if not isinstance(ticket, str):
            return None
        number, _, signature = ticket.partition(".")
        if not number.isdigit() or len(number) > 18:
            return None
        match_id = int(number)
        if not hmac.compare_digest(signature.encode(), self._sign(match_id).encode()):
            return None
        return match_id
