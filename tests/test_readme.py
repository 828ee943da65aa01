"""The README and docs/ as a reader follows them: every relative link resolves; every
console example prints what the page shows (see ``examples.py``); the library example,
the 20-line bot, the club night's walk-through and the quick start's main job run as
written."""

from __future__ import annotations

import io
import json
import os
import re
import shlex
import shutil
import subprocess
import sysconfig
import unicodedata
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import examples
import pytest
import venvs

from c8league.runner.conformance import check_player

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()
DOCS = ROOT / "docs"


def doc(name: str) -> str:
    return (DOCS / name).read_text(encoding="utf-8")


def python_blocks(text: str) -> list[str]:
    return re.findall(r"```python\n(.*?)```", text, flags=re.S)


def test_the_readme_is_a_front_door() -> None:
    """Under 300 lines, with an index that names every page of docs/."""
    assert len(README.splitlines()) < 300
    for page in sorted(DOCS.glob("*.md")):
        assert f"](docs/{page.name})" in README, f"docs/{page.name} is not in the README's index"


# -- links ---------------------------------------------------------------------------------


def anchors(text: str) -> set[str]:
    """The anchors GitHub gives a page's headings (lower case, punctuation dropped,
    spaces as hyphens, a repeated heading numbered)."""
    seen: dict[str, int] = {}
    found = set()
    fence = False
    for line in text.splitlines():
        if line.startswith("```"):
            fence = not fence
        if fence or not (m := re.match(r"^#{1,6} (.*)$", line)):
            continue
        words = "".join(
            c for c in m.group(1).strip().lower()
            if c in " -_" or unicodedata.category(c)[0] in "LN"
        ).replace(" ", "-")  # fmt: skip
        count = seen.get(words, 0)
        seen[words] = count + 1
        found.add(words if count == 0 else f"{words}-{count}")
    return found


def links(path: Path) -> Iterator[tuple[str, str]]:
    """(target, anchor) of every relative link of a page, outside code blocks."""
    text = re.sub(r"```.*?```", "", path.read_text(encoding="utf-8"), flags=re.S)
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if not re.match(r"^[a-z]+:", target):
            file, _, anchor = target.partition("#")
            yield file, anchor


@pytest.mark.parametrize("page", examples.documents(), ids=lambda p: p.name)
def test_every_relative_link_resolves(page: Path) -> None:
    for file, anchor in links(page):
        target = (page.parent / file).resolve() if file else page
        assert target.exists(), f"{page.name}: no {file}"
        if anchor:
            assert target.suffix == ".md", f"{page.name}: #{anchor} in {file}"
            assert anchor in anchors(target.read_text(encoding="utf-8")), (
                f"{page.name}: {file or page.name} has no heading #{anchor}"
            )


def test_the_link_checker_sees_a_broken_link(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("# A title\n\n## Which `tau`?\n\n[a](#which-tau) [b](#nowhere) [c](gone.md)\n")
    assert list(links(page)) == [("", "which-tau"), ("", "nowhere"), ("gone.md", "")]
    assert anchors(page.read_text()) == {"a-title", "which-tau"}


# -- the console examples, run -------------------------------------------------------------


EXAMPLES = [e for path in examples.documents() for e in examples.examples(path)]


def test_there_are_examples_for_each_kind_of_user() -> None:
    shown = {" ".join(c.words[1:3]) for e in EXAMPLES for c in e.commands}
    for command in ("duel greedy", "match show", "event standings", "ratings show",
                    "players list", "league list", "result list"):  # fmt: skip
        assert command in shown, command


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: e.where)
def test_the_example_prints_what_the_page_shows(example: examples.Example, tmp_path: Path) -> None:
    shutil.copytree(ROOT / "leagues", tmp_path / "leagues")
    for command, printed in examples.run(example, tmp_path):
        if not examples.matches(command.expected, printed):
            where = f"{command.where}: $ {command.line}"
            assert printed.rstrip() == command.expected.rstrip(), where


def test_the_comparison_is_exact_but_for_dots() -> None:
    assert examples.matches("played 4 in ... s\nok", "played 4 in 0.31 s  \nok\n")
    assert not examples.matches("played 4 in ... s", "played 5 in 0.31 s")
    assert examples.matches("a\n...\nz", "a\nb\nc\nz")
    assert examples.matches("a\n...\nz", "a\nz")
    assert not examples.matches("a\nz", "a\nb\nz")
    assert not examples.matches("a", "")


# -- Python in the pages -------------------------------------------------------------------


def test_library_example_runs() -> None:
    blocks = python_blocks(doc("engine.md"))
    block = next(b for b in blocks if "from c8league.engine import Match" in b)
    exec(compile(block, "docs/engine.md", "exec"), {})


def test_twenty_line_bot_passes_the_check() -> None:
    block = next(b for b in python_blocks(doc("bots.md")) if "class EightsLast" in b)
    assert len(block.strip().splitlines()) <= 20
    namespace: dict[str, object] = {}
    exec(compile(block, "docs/bots.md", "exec"), namespace)
    report = check_player(namespace["EightsLast"], {}, games=2)
    assert report.passed, report.failures()


# -- the club night, run as written ------------------------------------------------------------


def club_night() -> str:
    """docs/club-night.md, the walk-through of a club night."""
    return doc("club-night.md")


def club_commands() -> list[str]:
    """Every command of the section's shell blocks, in order, as written."""
    lines = []
    for block in re.findall(r"```bash\n(.*?)```", club_night(), flags=re.S):
        lines += [line for line in block.splitlines() if shlex.split(line, comments=True)]
    return lines


def typed_answers() -> dict[str, list[str]]:
    """The answers typed at a command's prompts, from the section's transcripts
    (``$ c8league …`` then the prompts, each ``  Name: answer``, and ``store? …: y``)."""
    answers = {}
    for block in re.findall(r"```text\n(.*?)```", club_night(), flags=re.S):
        first, *rest = block.splitlines()
        if first.startswith("$ c8league "):
            typed = [m.group(1) for line in rest if (m := re.match(r"^  [^:]+: (\S+)$", line))]
            typed += [line.rsplit(": ", 1)[1] for line in rest if "store? [Y/n]: " in line]
            answers[" ".join(shlex.split(first[2:]))] = typed
    return answers


def test_the_club_night_runs_as_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Every command of the walk-through, in a fresh folder holding the clone's league
    files, succeeds; the evening ends in a public page that shows every round."""
    from c8league.cli import output
    from c8league.cli.main import main

    shutil.copytree(ROOT / "leagues", tmp_path / "leagues")
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("C8LEAGUE_DB", raising=False)
    monkeypatch.setattr(output.out, "width", 200)
    answers = typed_answers()
    commands = club_commands()
    assert len(commands) >= 30 and set(answers) <= {" ".join(shlex.split(c, comments=True))
                                                    for c in commands}  # fmt: skip
    said: dict[str, tuple[str, str]] = {}
    for line in commands:
        words = shlex.split(line, comments=True)
        assert words[0] == "c8league", line
        typed = answers.get(" ".join(words))
        if typed is not None:
            monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(typed) + "\n"))
        code = main(words[1:])
        captured = capsys.readouterr()
        assert code == 0, f"{line}\n{captured.err}"
        said[" ".join(words[1:3])] = (captured.out, captured.err)
        if typed is not None:  # the transcript's first and last lines, as printed
            block = next(b for b in re.findall(r"```text\n(.*?)```", club_night(), flags=re.S)
                         if b.startswith(f"$ {' '.join(words)}\n"))  # fmt: skip
            lines = block.splitlines()
            assert lines[1] in captured.err and lines[-1] in captured.err
    standings, _ = said["event standings"]
    assert "Ada (withdrew after round 1 of thursday)" in standings
    members, _ = said["players list"]
    assert "withdrew after round 1 of thursday" in members
    assert "joined after round 1 of thursday" in members
    page = (tmp_path / "thursday.html").read_text(encoding="utf-8")
    for number in (1, 2, 3, 4):
        assert f'id="table-round-thursday-{number}"' in page
        assert f"Round {number} of 4</caption>" in page
    assert "Ivo (left)" in page
    assert "Table 4 stopped before the target: placed by the scores then (unfinished)." in page
    assert main(["report", "thursday", "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    rounds = report["events"][0]["rounds"]
    assert [r["number"] for r in rounds] == [1, 2, 3, 4]
    shared = next(t for t in rounds[1]["tables"] if t["table"] == 1)
    assert [(s["name"], s["place"]) for s in shared["seats"] if s["place"] == 1] == [
        ("Kai", 1), ("Lea", 1),
    ]  # fmt: skip
    trail = [(r["round"], r["table"], r["action"]) for r in _history(main, capsys)]
    assert trail.count((1, 4, "add")) == 2 and (1, 4, "void") in trail
    sheet = (tmp_path / "round1.html").read_text(encoding="utf-8")
    assert "Draft" not in sheet and "Where do I sit?" in sheet
    season, _ = said["league standings"]
    assert "Season points: the match points of every event, added up." in season
    assert 'id="table-season"' in (tmp_path / "club.html").read_text(encoding="utf-8")


def _history(main: Callable[[list[str]], int], capsys: pytest.CaptureFixture[str]) -> list[Any]:
    assert main(["result", "history", "thursday", "--json"]) == 0
    return json.loads(capsys.readouterr().out)  # type: ignore[no-any-return]


# -- the main job and the bot example, run as written --------------------------------------


def quick_start_command(what: str) -> str:
    """The README's quick-start command that ``what`` names, as one shell line."""
    start = README.index(what)
    block = re.search(r"```bash\n(.*?)```", README[start:], flags=re.S)
    assert block is not None
    (line,) = [line for line in block.group(1).splitlines() if line.strip()]
    return line


@pytest.mark.slow
def test_the_main_job_runs_as_written(tmp_path: Path) -> None:
    """The quick start's main job, in a fresh folder holding the clone's league files,
    with the package already installed (the command's ``pip install`` is left out):
    it plays the bot cup and ends in the ratings table the README shows; run again, it
    changes nothing."""
    line = quick_start_command("**Run the main job**")
    install, _, rest = line.partition(" && ")
    assert install.startswith("pip install -e . -e plugins/c8league-montecarlo")
    shutil.copytree(ROOT / "leagues", tmp_path / "leagues")
    env = {k: v for k, v in os.environ.items() if k != "C8LEAGUE_DB"}
    env["PATH"] = f"{sysconfig.get_path('scripts')}{os.pathsep}{env.get('PATH', '')}"
    env["COLUMNS"] = str(examples.WIDTH)
    first = subprocess.run(
        ["bash", "-c", rest], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600
    )
    assert first.returncode == 0, first.stderr
    shown = re.search(r"It ends with the bot cup's ratings.*?```text\n(.*?)```", README, flags=re.S)
    assert shown is not None
    table = shown.group(1).splitlines()
    assert [line.rstrip() for line in first.stdout.splitlines()[-len(table) :]] == table
    assert (tmp_path / "c8league.db").exists()
    again = subprocess.run(
        ["bash", "-c", rest], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600
    )
    assert again.returncode == 0, again.stderr
    assert "played 0 matches" in again.stdout + again.stderr


def test_the_bot_example_installs_and_passes_its_check(tmp_path: Path) -> None:
    """docs/bots.md's "A bot in 20 lines" as a user follows it: the two files written as
    shown, ``pip install -e .`` (into a virtual environment that sees this one's
    packages, so nothing is downloaded), then ``c8league bots check eights-last`` (as
    ``python -m c8league``: the command's script is that environment's own)."""
    text = doc("bots.md")
    start = text.index("## A bot in 20 lines")
    end = text.find("\n## ", start + 1)
    section = text[start : end if end > 0 else None]
    code = next(b for b in re.findall(r"```python\n(.*?)```", section, flags=re.S))
    project = next(b for b in re.findall(r"```toml\n(.*?)```", section, flags=re.S))
    assert code.startswith("# mybot/__init__.py") and project.startswith("# pyproject.toml")
    folder = tmp_path / "mybot-project"
    (folder / "mybot").mkdir(parents=True)
    (folder / "mybot" / "__init__.py").write_text(code)
    (folder / "pyproject.toml").write_text(project)
    python = venvs.make(tmp_path / "venv") / "python"
    install = subprocess.run(
        [str(python), "-m", "pip", "install", "-q", "--no-deps", "--no-build-isolation",
         "-e", str(folder)],
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert install.returncode == 0, install.stderr
    check = subprocess.run(
        [str(python), "-m", "c8league", "bots", "check", "eights-last"],
        capture_output=True, text=True, timeout=600, cwd=tmp_path,
    )  # fmt: skip
    assert check.returncode == 0, check.stdout + check.stderr
    assert "eights-last" in check.stdout
