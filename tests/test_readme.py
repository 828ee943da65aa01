"""The README's code runs as written: the library example, the 20-line bot, and the
club night's walk-through (every command, in a fresh folder)."""

from __future__ import annotations

import io
import json
import os
import re
import shlex
import shutil
import subprocess
import sysconfig
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import venvs

from c8league.runner.conformance import check_player

README = (Path(__file__).resolve().parents[1] / "README.md").read_text()


def python_blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", README, flags=re.S)


def test_library_example_runs(capsys: object) -> None:
    block = next(b for b in python_blocks() if "from c8league.engine import Match" in b)
    exec(compile(block, "README", "exec"), {})


def test_twenty_line_bot_passes_the_check() -> None:
    block = next(b for b in python_blocks() if "class EightsLast" in b)
    assert len(block.strip().splitlines()) <= 20
    namespace: dict[str, object] = {}
    exec(compile(block, "README", "exec"), namespace)
    report = check_player(namespace["EightsLast"], {}, games=2)
    assert report.passed, report.failures()


# -- the club night, run as written ------------------------------------------------------------

ROOT = Path(__file__).resolve().parents[1]


def club_night() -> str:
    """The README's section "A club night, step by step"."""
    start = README.index("## A club night, step by step")
    return README[start : README.index("\n## ", start + 1)]


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
    assert "Max (left)" in page
    assert main(["report", "thursday", "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    rounds = report["events"][0]["rounds"]
    assert [r["number"] for r in rounds] == [1, 2, 3, 4]
    shared = next(t for t in rounds[1]["tables"] if t["table"] == 2)
    assert [(s["name"], s["place"]) for s in shared["seats"] if s["place"] == 1] == [
        ("Kai", 1), ("Ivo", 1),
    ]  # fmt: skip
    trail = [(r["round"], r["table"], r["action"]) for r in _history(main, capsys)]
    assert trail.count((1, 4, "add")) == 2 and (1, 4, "void") in trail
    assert "Draft" not in (tmp_path / "round1.html").read_text(encoding="utf-8")


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
    it plays the bot cup and ends in the ratings table; run again, it changes nothing."""
    line = quick_start_command("**Run the main job**")
    install, _, rest = line.partition(" && ")
    assert install.startswith("pip install -e . -e plugins/c8league-montecarlo")
    shutil.copytree(ROOT / "leagues", tmp_path / "leagues")
    env = {k: v for k, v in os.environ.items() if k != "C8LEAGUE_DB"}
    env["PATH"] = f"{sysconfig.get_path('scripts')}{os.pathsep}{env.get('PATH', '')}"
    env["COLUMNS"] = "200"
    first = subprocess.run(
        ["bash", "-c", rest], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600
    )
    assert first.returncode == 0, first.stderr
    assert "ratings" in first.stdout and "Monte Carlo" in first.stdout
    assert (tmp_path / "c8league.db").exists()
    again = subprocess.run(
        ["bash", "-c", rest], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600
    )
    assert again.returncode == 0, again.stderr
    assert "played 0 matches" in again.stdout + again.stderr


@pytest.mark.slow
def test_the_bot_example_installs_and_passes_its_check(tmp_path: Path) -> None:
    """The section "A bot in 20 lines" as a user follows it: the two files written as
    shown, ``pip install -e .`` (into a virtual environment that sees this one's
    packages, so nothing is downloaded), then ``c8league bots check eights-last`` (as
    ``python -m c8league``: the command's script is that environment's own)."""
    start = README.index("### A bot in 20 lines")
    section = README[start : README.index("\n## ", start)]
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
