"""A headless Chromium driven through the DevTools protocol over a pipe
(``--remote-debugging-pipe``: commands on the browser's file descriptor 3, answers on
4, each a JSON message ended by a NUL byte), with nothing to install but the browser.

One browser per test module; each :class:`Tab` lives in a browser context of its own
(its own cookies: a phone each) and is emulated at a phone's width. A test waits for a
state (:meth:`Tab.wait_for`); the deadline only turns a state that never comes into a
failure.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import select
import subprocess
import sys
import tempfile
import time
from typing import Any

DEADLINE = 60.0
"""Seconds after which a state that never came fails the test (not a measure)."""


class CDPError(AssertionError):
    pass


def _above(fd: int, lowest: int) -> int:
    """``fd`` moved to a descriptor number at least ``lowest``."""
    moved = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, lowest)
    os.close(fd)
    return moved


class Browser:
    """A headless Chromium and its DevTools pipe."""

    def __init__(self, executable: str) -> None:
        self._profile = tempfile.TemporaryDirectory(prefix="c8league-chromium-")
        to_browser, self._commands = os.pipe()
        self._answers, from_browser = os.pipe()
        # The browser's ends above 9, so that putting them on 3 and 4 overwrites neither.
        to_browser, from_browser = (_above(fd, 10) for fd in (to_browser, from_browser))
        # A small Python puts the pipe's ends on fds 3 and 4 and becomes the browser.
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-c",
                "import os, sys; os.dup2(int(sys.argv[1]), 3); os.dup2(int(sys.argv[2]), 4); "
                "os.execv(sys.argv[3], sys.argv[3:])",
                str(to_browser),
                str(from_browser),
                executable,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--no-first-run",
                "--no-default-browser-check",
                "--hide-scrollbars",
                "--remote-debugging-pipe",
                f"--user-data-dir={self._profile.name}",
                "about:blank",
            ],
            pass_fds=(to_browser, from_browser),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        os.close(to_browser)
        os.close(from_browser)
        self._buffer = b""
        self._next = 0

    def send(self, method: str, params: dict[str, Any] | None = None, session: str = "") -> Any:
        """A command's result (an error answer fails the test)."""
        self._next += 1
        number = self._next
        message: dict[str, Any] = {"id": number, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self._commands, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + DEADLINE
        while True:
            while b"\0" in self._buffer:
                text, self._buffer = self._buffer.split(b"\0", 1)
                answer = json.loads(text)
                if answer.get("id") == number:
                    if "error" in answer:
                        raise CDPError(f"{method}: {answer['error']}")
                    return answer.get("result", {})
            left = deadline - time.monotonic()
            if left <= 0 or self.process.poll() is not None:
                raise CDPError(f"{method}: no answer from Chromium")
            ready, _, _ = select.select([self._answers], [], [], min(left, 1.0))
            if ready:
                chunk = os.read(self._answers, 1 << 16)
                if not chunk:
                    raise CDPError(f"{method}: Chromium closed its pipe")
                self._buffer += chunk

    def tab(self, width: int = 390, height: int = 844) -> Tab:
        """A page in a browser context of its own, at a phone's size."""
        context = self.send("Target.createBrowserContext")["browserContextId"]
        target = self.send(
            "Target.createTarget", {"url": "about:blank", "browserContextId": context}
        )["targetId"]
        session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True})[
            "sessionId"
        ]
        tab = Tab(self, session)
        tab.send(
            "Emulation.setDeviceMetricsOverride",
            {"width": width, "height": height, "deviceScaleFactor": 2, "mobile": True},
        )
        tab.send("Page.enable")
        return tab

    def close(self) -> None:
        with contextlib.suppress(CDPError):
            self.send("Browser.close")
        try:
            self.process.wait(timeout=DEADLINE)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        for fd in (self._commands, self._answers):
            os.close(fd)
        self._profile.cleanup()


class Tab:
    """One page of the browser."""

    def __init__(self, browser: Browser, session: str) -> None:
        self.browser = browser
        self.session = session

    def send(self, method: str, params: dict[str, Any] | None = None) -> Any:
        return self.browser.send(method, params, self.session)

    def evaluate(self, expression: str) -> Any:
        """The value of a script in the page (None while the page is being replaced)."""
        try:
            answer = self.send(
                "Runtime.evaluate", {"expression": expression, "returnByValue": True}
            )
        except CDPError as exc:
            if "context" in str(exc).lower():  # the page went away under the script
                return None
            raise
        if "exceptionDetails" in answer:
            return None
        return answer["result"].get("value")

    def wait_for(self, expression: str, what: str) -> Any:
        """Wait until ``expression`` is truthy in the page, and return its value."""
        deadline = time.monotonic() + DEADLINE
        while True:
            value = self.evaluate(expression)
            if value:
                return value
            if time.monotonic() > deadline:
                raise AssertionError(f"the page never showed {what}: {self.text()[:2000]}")
            time.sleep(0.05)

    def goto(self, url: str) -> None:
        self.evaluate("window.__left = true")
        self.send("Page.navigate", {"url": url})
        self.loaded(url)

    def loaded(self, what: str = "the next page") -> None:
        """Wait for the page that replaced the one marked by :meth:`mark`."""
        self.wait_for("!window.__left && document.readyState === 'complete' && location.href", what)

    def mark(self) -> None:
        """Mark the page, to tell when another replaced it."""
        self.evaluate("window.__left = true")

    def submit(self, selector: str) -> None:
        """Press the button ``selector`` and wait for the page it leads to."""
        self.mark()
        clicked = self.evaluate(
            f"(function () {{ var b = document.querySelector({json.dumps(selector)});"
            " if (!b) return false; b.click(); return true; })()"
        )
        assert clicked, f"no {selector} in: {self.text()[:2000]}"
        self.loaded(f"the page after {selector}")

    def fill(self, values: dict[str, str]) -> None:
        """Type ``values`` into the fields of those names (a select's option by its text)."""
        script = (
            "(function (values) { var missing = [];"
            " Object.keys(values).forEach(function (name) {"
            "   var field = document.querySelector('[name=\"' + name + '\"]');"
            "   if (!field) { missing.push(name); return; }"
            "   field.value = values[name];"
            "   field.dispatchEvent(new Event('input', {bubbles: true}));"
            " }); return missing; })"
        )
        missing = self.evaluate(f"{script}({json.dumps(values)})")
        assert missing == [], f"no fields {missing} in: {self.text()[:2000]}"

    def text(self) -> str:
        return str(self.evaluate("document.body ? document.body.innerText : ''") or "")

    def width(self) -> tuple[int, int]:
        """The page's width and the window's: a page wider than its window scrolls
        sideways."""
        found = self.evaluate(
            "[document.documentElement.scrollWidth, window.innerWidth, "
            "document.documentElement.clientWidth]"
        )
        return int(found[0]), int(found[1])
