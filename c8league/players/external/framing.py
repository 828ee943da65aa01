"""Framing: lines over the bot's pipes, written and read within time limits, and the
capped log of its standard error.

A :class:`Channel` holds the bot's three pipes: lines to its standard input, lines
from its standard output, and its standard error, copied to a :class:`StderrLog` as it
comes (also while c8league waits to write or to read, so that a bot blocked writing
to a full pipe is never deadlocked). It knows bytes and lines, not messages: what it
cannot do, it raises as :class:`PipeClosed`, :class:`Overdue` or :class:`LineTooLong`,
and the player turns that into the bot's fault.

Windows cannot wait on pipes: there the three pipes are relayed through local sockets
(:class:`~c8league.players.external.windows.Relay`), and the channel reads, writes and
waits on those exactly as it does on the pipes elsewhere.
"""

from __future__ import annotations

import contextlib
import math
import os
import re
import select
import selectors
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType
from typing import IO

from c8league.players.external import windows

_io: ModuleType = windows if sys.platform == "win32" else os
"""``read``, ``write`` and ``close`` for the bot's streams: the operating system's on
pipes, :mod:`~c8league.players.external.windows`'s where they are relayed through
sockets."""

MAX_LINE = 1 << 20
"""The longest line (bytes) accepted from a bot."""

LOG_HEAD = 512 * 1024
LOG_TAIL = 512 * 1024
"""A match's log of the bot's standard error keeps its first :data:`LOG_HEAD` and its
last :data:`LOG_TAIL` bytes, with a line saying how many were dropped in between."""


class _Readable:
    """Waits until some of a few file descriptors can be read: ``select.poll`` where
    there is one (a system call, no more), else a selector (Windows' sockets)."""

    def __init__(self, fds: list[int]) -> None:
        self._poll = select.poll() if hasattr(select, "poll") else None
        self._selector: selectors.BaseSelector | None = None
        if self._poll is not None:
            for fd in fds:
                self._poll.register(fd, select.POLLIN)
        else:
            self._selector = selectors.DefaultSelector()
            for fd in fds:
                self._selector.register(fd, selectors.EVENT_READ)

    def wait(self, timeout: float) -> list[int]:
        """The descriptors readable (or closed) within ``timeout`` seconds."""
        if self._poll is not None:
            return [fd for fd, _ in self._poll.poll(max(0, math.ceil(timeout * 1000)))]
        assert self._selector is not None
        return [key.fd for key, _ in self._selector.select(timeout)]

    def forget(self, fd: int) -> None:
        if self._poll is not None:
            with contextlib.suppress(KeyError):
                self._poll.unregister(fd)
        elif self._selector is not None:
            with contextlib.suppress(KeyError, ValueError):
                self._selector.unregister(fd)

    def close(self) -> None:
        if self._selector is not None:
            self._selector.close()
        self._poll = self._selector = None


class PipeClosed(Exception):
    """The bot closed its output, or its input: it has exited (or is about to)."""


class Overdue(Exception):
    """The deadline passed before the line was written or read; :attr:`hint` guesses why
    (or is empty)."""

    def __init__(self, hint: str = "") -> None:
        super().__init__(hint)
        self.hint = hint


class LineTooLong(Exception):
    """The bot wrote more than :data:`MAX_LINE` bytes without a newline."""


class Channel:
    """The pipes of one run of a bot: ``stdin`` and ``stdout`` (its standard input and
    output), ``errors`` (the read end of its standard error, copied to ``log``)."""

    def __init__(self, stdin: IO[bytes], stdout: IO[bytes], errors: int, log: StderrLog) -> None:
        self._io = _io
        if _io is os:
            os.set_blocking(stdin.fileno(), False)
            os.set_blocking(errors, False)
        else:  # sockets stand for the pipes
            relay = windows.Relay(stdin, stdout, errors)
            stdin, stdout, errors = relay.stdin, relay.stdout, relay.errors  # type: ignore[assignment]
        self._in: IO[bytes] | None = stdin
        self._out: IO[bytes] | None = stdout
        self._in_fd = stdin.fileno()
        self._errors = errors
        self._log = log
        self._buffer = bytearray()
        self._answered = False
        self._waiting: _Readable | None = _Readable([stdout.fileno(), errors])
        self._held = bytearray()
        """Lines held back to go with the next line sent (see :meth:`hold`)."""

    def use_log(self, log: StderrLog) -> None:
        """Copy the bot's standard error to ``log`` from now on (a new match's)."""
        self.drain()
        self._log = log

    # -- to the bot ------------------------------------------------------------------

    def hold(self, data: bytes) -> None:
        """Send ``data`` (a notice, which needs no answer) together with the next line
        sent: the bot then wakes once for both."""
        self._held += data

    def send(self, data: bytes, deadline: float) -> None:
        """Write the lines held back and ``data``, whole, by ``deadline``
        (``time.monotonic()``); raises :class:`PipeClosed` or :class:`Overdue`."""
        if self._held:
            data, self._held = bytes(self._held) + data, bytearray()
        assert self._in is not None
        fd = self._in_fd
        try:  # all at once, as nearly always: one system call
            written = self._io.write(fd, data)
        except BlockingIOError:
            written = 0
        except OSError:
            raise PipeClosed from None
        if written == len(data):
            return
        view = memoryview(data)[written:]
        while view:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise Overdue
            with selectors.DefaultSelector() as sel:
                sel.register(fd, selectors.EVENT_WRITE)
                if self._errors >= 0:  # it may be blocked writing to standard error
                    sel.register(self._errors, selectors.EVENT_READ)
                sel.select(remaining)
            self.drain()
            try:
                written = self._io.write(fd, view)
            except BlockingIOError:
                written = 0
            except OSError:
                raise PipeClosed from None
            view = view[written:]

    def write_now(self, data: bytes) -> None:
        """Best effort, never waiting: a bot that does not read misses the message (and
        the lines held back)."""
        if self._held:
            data, self._held = bytes(self._held) + data, bytearray()
        if self._in is not None:
            with contextlib.suppress(OSError):
                self._io.write(self._in.fileno(), data)

    def close_input(self) -> None:
        """Close the bot's standard input (it then reads the end of its input)."""
        if self._in is not None:
            with contextlib.suppress(OSError):
                self._in.close()
            self._in = None

    # -- from the bot ----------------------------------------------------------------

    def read_line(self, deadline: float) -> bytes:
        """The bot's next line that is not blank (without its newline), read by
        ``deadline``; raises :class:`PipeClosed`, :class:`LineTooLong` or
        :class:`Overdue`."""
        buffer = self._buffer
        while True:
            end = buffer.find(b"\n")
            if end >= 0:
                line = bytes(buffer[:end])
                del buffer[: end + 1]
                if line.strip():
                    self._answered = True
                    return line
                continue
            if len(buffer) > MAX_LINE:
                raise LineTooLong
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                hint = ""
                if buffer:
                    hint = f" (it wrote {len(buffer)} bytes without a newline)"
                elif not self._answered:
                    hint = " (does the bot flush its output after each line?)"
                raise Overdue(hint)
            self._fill(remaining)

    def ready_lines(self) -> list[bytes]:
        """Every line the bot has written whole and not read yet, but blank ones, read
        without waiting; raises :class:`PipeClosed` or :class:`LineTooLong`."""
        self._fill(0)
        buffer = self._buffer
        end = buffer.rfind(b"\n")
        if end < 0:
            if len(buffer) > MAX_LINE:
                raise LineTooLong
            return []
        lines = bytes(buffer[:end]).split(b"\n")
        del buffer[: end + 1]
        if len(buffer) > MAX_LINE or any(len(line) > MAX_LINE for line in lines):
            raise LineTooLong
        self._answered = True
        return [line for line in lines if line.strip()]

    def wait(self, timeout: float) -> None:
        """Wait up to ``timeout`` seconds for the bot's output (see :meth:`ready_lines`);
        raises :class:`PipeClosed`."""
        self._fill(timeout)

    def fds(self) -> list[int]:
        """The descriptors to wait on for the bot's output (its standard error's too)."""
        assert self._out is not None
        return [self._out.fileno()] + ([self._errors] if self._errors >= 0 else [])

    def unasked(self) -> bytes | None:
        """The first line of what the bot has written that nobody asked for, if any,
        read without waiting; raises :class:`PipeClosed`."""
        self._fill(0)
        if self._buffer and self._buffer.strip():
            return bytes(self._buffer).strip().split(b"\n")[0]
        return None

    def _fill(self, timeout: float) -> None:
        """Wait up to ``timeout`` seconds for the bot's output, copying its standard
        error meanwhile, and add what came to the buffer; raises :class:`PipeClosed`."""
        assert self._waiting is not None and self._out is not None
        for fd in self._waiting.wait(timeout):
            if fd == self._errors:
                self.drain()
                continue
            try:
                chunk = self._io.read(self._out.fileno(), 65536)
            except OSError:
                chunk = b""
            if not chunk:
                raise PipeClosed
            self._buffer += chunk

    def drain(self) -> int:
        """Copy what the bot has written to its standard error so far into the log.
        Returns the pipe's descriptor, -1 once the bot (and everything it started) has
        closed it."""
        if self._errors < 0:
            return -1
        while True:
            try:
                chunk = self._io.read(self._errors, 65536)
            except BlockingIOError:
                return self._errors
            except OSError:
                chunk = b""
            if not chunk:  # the bot (and everything it started) closed it
                if self._waiting is not None:
                    self._waiting.forget(self._errors)
                self._io.close(self._errors)
                self._errors = -1
                return -1
            self._log.write(chunk)

    def close(self) -> None:
        """Copy the last of the bot's standard error and close every pipe (the log
        stays open)."""
        if self._waiting is not None:
            self._waiting.close()
            self._waiting = None
        self.drain()
        if self._errors >= 0:
            self._io.close(self._errors)
            self._errors = -1
        self.close_input()
        if self._out is not None:
            with contextlib.suppress(OSError):
                self._out.close()
            self._out = None


def log_path(name: str, seat: int, log_dir: str | None, match: str = "") -> str:
    """A new, empty file for the log of a bot called ``name`` at ``seat`` of the match
    ``match`` (its label, see ``player.logs_named``): in ``log_dir`` (made if need be),
    or else in the temporary directory."""
    slug = re.sub(r"[^A-Za-z0-9_.-]+", "-", name).strip("-") or "bot"
    label = re.sub(r"[^A-Za-z0-9_.-]+", "-", match).strip("-")
    directory = log_dir if log_dir is not None else tempfile.gettempdir()
    Path(directory).mkdir(parents=True, exist_ok=True)
    fd, path = tempfile.mkstemp(
        prefix=f"c8league-{slug}-{label + '-' if label else ''}seat{seat}-",
        suffix=".stderr.log",
        dir=directory,
    )
    os.close(fd)
    return path


class StderrLog:
    """A match's log of the bot's standard error: the first :data:`LOG_HEAD` bytes go to
    the file as they come, the last :data:`LOG_TAIL` are kept here and written after a
    line saying how many were dropped, when the log is closed."""

    def __init__(self, path: str, head: int = LOG_HEAD, tail: int = LOG_TAIL) -> None:
        self.file = open(path, "ab", buffering=0)  # noqa: SIM115 (closed by close())
        self.start = self.file.tell()
        self.head = head
        self.size = tail
        self.written = 0
        self.tail = bytearray()
        self.dropped = 0

    def write(self, data: bytes) -> None:
        if self.written < self.head:
            part = data[: self.head - self.written]
            self.file.write(part)
            self.written += len(part)
            data = data[len(part) :]
        if data:
            self.tail += data
            extra = len(self.tail) - self.size
            if extra > 0:
                del self.tail[:extra]
                self.dropped += extra

    def last(self, size: int) -> bytes:
        """The last ``size`` bytes the bot wrote (for a fault's detail)."""
        recent = bytes(self.tail[-size:])
        need = size - len(recent)
        if need <= 0 or not self.written:
            return recent
        with open(self.file.name, "rb") as log:
            log.seek(self.start + max(0, self.written - need))
            return log.read(min(need, self.written)) + recent

    def close(self) -> None:
        if self.file.closed:
            return
        try:
            if self.dropped:
                note = (
                    f"\n[c8league: {self.dropped} bytes of standard error dropped here; the "
                    f"log of a match keeps its first {self.head} and last {self.size} bytes]\n"
                )
                self.file.write(note.encode())
            if self.tail:
                self.file.write(bytes(self.tail))
        finally:
            self.file.close()
