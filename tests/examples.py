"""The console examples of the README and of docs/*.md, read and run.

A block fenced as ``console`` is an example: lines starting with ``$ `` are commands,
and the lines after each command, up to the next one, are what it prints (standard
output and standard error as one stream, as a terminal shows them). Each example runs in
a fresh folder holding a copy of the clone's ``leagues/``, commands in order; an example
whose fence is preceded by the line ``<!-- same folder -->`` goes on in the folder of the
example before it in the same file. The comparison is exact after two normalisations,
the only ones: trailing spaces are dropped, and ``...`` in the expected text stands for
any text (on one line, or, alone on a line, for any number of lines), for what changes
from run to run (times and speeds) and the tail of a long listing left out. Text blocks
(``text``) are shown output that is not run (a run of minutes, a failed compile).

Commands run in this process through the command line's ``main`` (what they print is
what the installed command prints, at a terminal width of ``WIDTH``), so that the pages'
examples take seconds. ``python tests/examples.py`` writes what each example prints now
into the pages, keeping the expected text where it still matches (``...`` included).
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import shlex
import shutil
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SAME_FOLDER = "<!-- same folder -->"
WIDTH = 100  # the terminal's width for every example (rich reads it from the console)


@dataclass(frozen=True)
class Command:
    line: str  # as written after "$ "
    expected: str  # the lines printed, joined by newlines
    where: str  # file:line, for messages

    @property
    def words(self) -> list[str]:
        return shlex.split(self.line)


@dataclass
class Example:
    where: str  # file:line of the first block
    commands: list[Command] = field(default_factory=list)


def documents() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def examples(path: Path) -> list[Example]:
    """The examples of one document, in order (blocks in the same folder are one)."""
    name = path.relative_to(ROOT).as_posix()
    lines = path.read_text(encoding="utf-8").splitlines()
    found: list[Example] = []
    number = 0
    while number < len(lines):
        line = lines[number]
        if not line.startswith("```"):
            number += 1
            continue
        end = next(i for i in range(number + 1, len(lines)) if lines[i].startswith("```"))
        if line.strip() == "```console":
            before = next((lines[i] for i in range(number - 1, -1, -1) if lines[i].strip()), "")
            if before.strip() != SAME_FOLDER or not found:
                found.append(Example(f"{name}:{number + 1}"))
            found[-1].commands += _commands(lines[number + 1 : end], name, number + 2)
        number = end + 1
    return found


def _commands(block: list[str], name: str, first: int) -> list[Command]:
    commands: list[Command] = []
    start = None
    for offset, line in enumerate([*block, "$ "]):
        if line.startswith("$ "):
            if start is not None:
                output = "\n".join(block[start + 1 : offset])
                commands.append(Command(block[start][2:], output, f"{name}:{first + start}"))
            start = offset
    assert commands, f"{name}:{first - 1}: a console block without a command"
    return commands


def matches(expected: str, printed: str) -> bool:
    """Whether ``printed`` is ``expected``, trailing spaces aside, with ``...`` for any
    text (a line of ``...`` alone for any lines)."""
    pattern = []
    for line in _lines(expected):
        if line == "...":
            pattern.append(r"(?:[^\n]*\n)*?")
        else:
            pattern.append(".*?".join(re.escape(part) for part in line.split("...")) + r"\n")
    text = "".join(f"{line}\n" for line in _lines(printed))
    return re.fullmatch("".join(pattern), text) is not None


def _lines(text: str) -> list[str]:
    lines = [line.rstrip() for line in text.splitlines()]
    while lines and not lines[-1]:
        lines.pop()
    return lines


def run(example: Example, folder: Path) -> Iterator[tuple[Command, str]]:
    """Each command of ``example`` in ``folder`` (which holds the clone's ``leagues/``),
    through the command line's ``main``, with what it printed (stdout and stderr as one
    stream; nothing to read on stdin)."""
    from c8league.cli import output
    from c8league.cli.main import main

    for command in example.commands:
        assert command.words[0] == "c8league", f"{command.where}: not a c8league command"
        stream = io.StringIO()
        with _in(folder), _printing_to(stream, output.out, output.err):
            main(command.words[1:])
        yield command, stream.getvalue()


@contextlib.contextmanager
def _in(folder: Path) -> Iterator[None]:
    before, database = Path.cwd(), os.environ.pop("C8LEAGUE_DB", None)
    os.chdir(folder)
    try:
        yield
    finally:
        os.chdir(before)
        if database is not None:
            os.environ["C8LEAGUE_DB"] = database


@contextlib.contextmanager
def _printing_to(stream: io.StringIO, *consoles: object) -> Iterator[None]:
    streams = sys.stdout, sys.stderr, sys.stdin
    widths = [console.width for console in consoles]  # type: ignore[attr-defined]
    sys.stdout = sys.stderr = stream
    sys.stdin = io.StringIO("")
    for console in consoles:
        console.width = WIDTH  # type: ignore[attr-defined]
    try:
        yield
    finally:
        sys.stdout, sys.stderr, sys.stdin = streams
        for console, width in zip(consoles, widths, strict=True):
            console.width = width  # type: ignore[attr-defined]


def update(path: Path) -> int:
    """Write what each example of ``path`` prints now as its expected text, keeping the
    expected text that still matches. Returns the number of outputs changed."""
    lines = path.read_text(encoding="utf-8").splitlines()
    changed: dict[int, tuple[int, str]] = {}  # first line (0-based) -> (count, new text)
    for example in examples(path):
        with tempfile.TemporaryDirectory() as folder:
            shutil.copytree(ROOT / "leagues", Path(folder) / "leagues")
            for command, printed in run(example, Path(folder)):
                if matches(command.expected, printed):
                    continue
                first = int(command.where.rsplit(":", 1)[1])  # the "$ " line, 1-based
                count = len(command.expected.splitlines()) if command.expected else 0
                changed[first] = (count, "\n".join(_lines(printed)))
    for first, (count, text) in sorted(changed.items(), reverse=True):
        lines[first : first + count] = text.splitlines()
    if changed:
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return len(changed)


if __name__ == "__main__":
    pages = [Path(a).resolve() for a in sys.argv[1:]] or documents()
    for page in pages:
        print(f"{page.relative_to(ROOT)}: {update(page)} outputs written")
