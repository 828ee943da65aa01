"""Building and telling what runs: the build compiles the engine only when it builds,
falls back to a pure wheel that says so, and ``c8league --version`` names the engine.

The tests marked ``slow`` build real wheels and editable installs from a copy of this
checkout (pip's isolated build, with the pinned mypy) and install them in virtual
environments under the test's temporary folder.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest
import venvs

from c8league import about, sandbox
from c8league.cli.main import main
from c8league.engine import _build
from c8league.engine._build import BUILD_INFO, COMPILED_MODULES, GROUP

ROOT = Path(__file__).resolve().parents[1]
LIBRARY = f"{GROUP}__mypyc"
PINNED_MYPY = next(
    r.split("==")[1]
    for r in tomllib.loads((ROOT / "pyproject.toml").read_text())["build-system"]["requires"]
    if r.startswith("mypy==")
)


def _env(**extra: str) -> dict[str, str]:
    """The environment without this run's choices of engine and import path."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("C8LEAGUE_PURE", "PYTHONPATH", "CC") and not k.startswith("_C8LEAGUE")
    }
    env.update(extra)
    return env


def _run(args: list[str | Path], cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [str(a) for a in args], cwd=cwd, env=_env(**env), capture_output=True, text=True
    )
    assert done.returncode == 0, f"{args} failed:\n{done.stdout}\n{done.stderr}"
    return done


def _copy_checkout(target: Path) -> Path:
    """The project's sources as a fresh clone has them: no build, no compiled engine."""
    ignore = shutil.ignore_patterns(
        "*.so", "*.pyd", BUILD_INFO, "_compiled_from.json", "__pycache__", "*.egg-info"
    )
    shutil.copytree(ROOT / "c8league", target / "c8league", ignore=ignore)
    for name in ("setup.py", "pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, target)
    return target


def _venv(path: Path) -> Path:
    """A virtual environment that sees this Python's packages (the dependencies), with
    none of c8league's own installs ahead of what is installed in it."""
    return venvs.make(path)


def _wheel(source: Path, out: Path, **env: str) -> Path:
    pip = [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q"]
    _run([*pip, "-w", out, source], source, **env)
    (wheel,) = out.glob("c8league-*.whl")
    return wheel


def _install(bin_dir: Path, *args: str | Path) -> None:
    _run([bin_dir / "python", "-m", "pip", "install", "-q", "--no-deps", *args], bin_dir.parent)
    done = _run([bin_dir / "python", "-c", "import c8league; print(c8league.__file__)"], bin_dir)
    assert "/wheel-venv/" in done.stdout or "/src/" in done.stdout, done.stdout


def _engine_line(bin_dir: Path, cwd: Path, **env: str) -> str:
    lines = _run([bin_dir / "c8league", "--version"], cwd, **env).stdout.splitlines()
    return next(line for line in lines if line.startswith("engine: "))


# --- what setup.py does when it is only read -------------------------------------------


def test_setup_reads_the_module_list_from_the_engine() -> None:
    """One list of compiled modules: setup.py's extensions are named from _build.py's."""
    code = (
        "import json, runpy, setuptools\n"
        "seen = {}\n"
        "setuptools.setup = lambda **kw: seen.update(kw)\n"
        "runpy.run_path('setup.py')\n"
        "print(json.dumps([e.name for e in seen['ext_modules']]))\n"
    )
    names = json.loads(_run([sys.executable, "-c", code], ROOT).stdout)
    assert sorted(names) == sorted([LIBRARY, *(f"c8league.{m}" for m in COMPILED_MODULES)])
    assert "cards" not in (ROOT / "setup.py").read_text()  # no second list there
    assert {"engine.hand", "schedule.search"} <= set(COMPILED_MODULES)


# --- saying what runs ------------------------------------------------------------------


def test_version_names_the_version_engine_python_sandbox_and_plugins(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["--version"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert re.fullmatch(r"c8league \S+", lines[0])
    expected = "compiled (mypyc" if _build.COMPILED else f"source ({_build.REASON})"
    assert lines[1].startswith(f"engine: {expected}")
    assert lines[2].startswith(f"python: {sys.version.split()[0]} (")
    assert lines[3] == f"sandbox: {sandbox.support().text()}"
    assert lines[4].startswith("plugins:")
    for name, version, players in about.plugins():
        assert f"  {name} {version} ({', '.join(players)})" in lines


def test_version_imports_nothing_heavy() -> None:
    code = (
        "import sys\n"
        "from c8league import about\n"
        "about.report()\n"
        "heavy = {'sqlalchemy', 'sqlmodel', 'rich', 'typer', 'pydantic', 'matplotlib'}\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in heavy))\n"
    )
    done = _run([sys.executable, "-c", code], ROOT, PYTHONPATH=str(ROOT))
    assert done.stdout.strip() == "[]"


def test_bots_list_names_the_engine(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bots", "list"]) == 0
    assert f"Engine: {about.engine()}"[:40] in capsys.readouterr().out


@pytest.mark.parametrize(
    ("checkout", "record", "reason"),
    [
        (False, None, "not compiled at install"),
        (
            False,
            {"compiled": False, "reason": "the C compiler failed (cc exited with status 1)"},
            "not compiled at install: the C compiler failed (cc exited with status 1)",
        ),
        (False, {"compiled": True, "mypyc": "2.4.1"}, "the compiled modules are missing; "),
        (True, None, "a source checkout not yet built; pip install -e . compiles it"),
    ],
)
def test_the_source_engine_says_why(
    tmp_path: Path, checkout: bool, record: dict[str, object] | None, reason: str
) -> None:
    _copy_checkout(tmp_path)
    if not checkout:
        (tmp_path / "pyproject.toml").unlink()
    if record is not None:
        (tmp_path / "c8league" / "engine" / BUILD_INFO).write_text(json.dumps(record))
    code = "import c8league.engine._build as b; print(b.COMPILED); print(b.describe())"
    done = _run([sys.executable, "-c", code], tmp_path, PYTHONPATH=str(tmp_path))
    compiled, description = done.stdout.splitlines()
    assert compiled == "False"
    assert description.startswith(f"source ({reason}")


def test_a_failed_compile_is_noticed_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    failed = {"compiled": False, "deliberate": False, "reason": "the C compiler failed (x)"}
    monkeypatch.setattr(_build, "COMPILED", False)
    monkeypatch.setattr(_build, "REASON", f"not compiled at install: {failed['reason']}")
    monkeypatch.setattr(_build, "build_info", lambda: failed)
    notice = about.install_notice(tmp_path / "state")
    assert notice is not None and "the C compiler failed (x)" in notice
    assert about.install_notice(tmp_path / "state") is None  # once
    failed["reason"] = "the C compiler failed (y)"
    assert about.install_notice(tmp_path / "state") is not None  # a new build's failure
    monkeypatch.setattr(_build, "build_info", lambda: {**failed, "deliberate": True})
    assert about.install_notice(tmp_path / "other") is None  # C8LEAGUE_PURE at install


def test_shell_completion_is_on(tmp_path: Path) -> None:
    done = _run(
        [sys.executable, "-m", "c8league"],
        tmp_path,
        PYTHONPATH=str(ROOT),
        _C8LEAGUE_COMPLETE="complete_bash",
        COMP_WORDS="c8league ev",
        COMP_CWORD="1",
    )
    assert done.stdout.split() == ["event"]
    help_text = _run([sys.executable, "-m", "c8league", "--help"], tmp_path, PYTHONPATH=str(ROOT))
    assert "--install-completion" in help_text.stdout
    assert "--show-completion" in help_text.stdout


# --- real builds (slow) ----------------------------------------------------------------


@pytest.mark.slow
def test_a_wheel_built_without_a_compiler_is_pure_and_says_so(tmp_path: Path) -> None:
    source = _copy_checkout(tmp_path / "src")
    wheel = _wheel(source, tmp_path / "dist", CC="/bin/false")
    assert wheel.name.endswith("-py3-none-any.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        record = json.loads(archive.read(f"c8league/engine/{BUILD_INFO}"))
        tags = archive.read("c8league-0.1.0.dist-info/WHEEL").decode()
    assert not [n for n in names if n.endswith((".so", ".pyd"))]
    assert record["compiled"] is False and "Root-Is-Purelib: true" in tags
    bin_dir = _venv(tmp_path / "wheel-venv")
    _install(bin_dir, wheel)
    why = "not compiled at install: the C compiler failed (/bin/false exited with status 1)"
    config = str(tmp_path / "config")
    first = _run([bin_dir / "c8league", "--version"], tmp_path, XDG_CONFIG_HOME=config)
    assert f"engine: source ({why})" in first.stdout.splitlines()
    assert "runs from its Python source" in first.stderr  # the notice, once
    again = _run([bin_dir / "c8league", "rules", "list"], tmp_path, XDG_CONFIG_HOME=config)
    assert "runs from its Python source" not in again.stderr


@pytest.mark.slow
def test_a_wheel_with_the_compiled_engine_is_platform_specific(tmp_path: Path) -> None:
    source = _copy_checkout(tmp_path / "src")
    wheel = _wheel(source, tmp_path / "dist")
    assert not wheel.name.endswith("-none-any.whl")
    assert f"-cp{sys.version_info.major}{sys.version_info.minor}-" in wheel.name
    with zipfile.ZipFile(wheel) as archive:
        compiled = {n.split(".")[0] for n in archive.namelist() if n.endswith(".so")}
        record = json.loads(archive.read(f"c8league/engine/{BUILD_INFO}"))
    assert compiled == {f"c8league/{m.replace('.', '/')}" for m in COMPILED_MODULES} | {LIBRARY}
    assert record["compiled"] is True and record["mypyc"] == PINNED_MYPY
    bin_dir = _venv(tmp_path / "wheel-venv")
    _install(bin_dir, wheel)
    assert _engine_line(bin_dir, tmp_path) == f"engine: compiled (mypyc {PINNED_MYPY})"
    pure = _engine_line(bin_dir, tmp_path, C8LEAGUE_PURE="1")
    assert pure == "engine: source (C8LEAGUE_PURE is set)"


@pytest.mark.slow
def test_reading_setup_py_leaves_an_editable_build_in_place(tmp_path: Path) -> None:
    source = _copy_checkout(tmp_path / "src")
    bin_dir = _venv(tmp_path / "venv")
    _install(bin_dir, "-e", source)

    def built() -> dict[str, float]:
        files = [*(source / "c8league").glob("*/*.so"), *source.glob(f"{LIBRARY}*")]
        files.append(source / "c8league" / "engine" / BUILD_INFO)
        return {str(f.relative_to(source)): f.stat().st_mtime for f in files}

    before = built()
    assert len(before) == len(COMPILED_MODULES) + 2
    assert _engine_line(bin_dir, tmp_path) == f"engine: compiled (mypyc {PINNED_MYPY})"
    generated = sorted(p.stat().st_mtime for p in (source / "build").glob("*.c"))
    assert generated  # what mypyc wrote for the build
    _run([sys.executable, "setup.py", "--name"], source)
    pip = [bin_dir / "python", "-m", "pip", "install", "-q", "--no-deps", "--dry-run"]
    _run([*pip, source], source)  # pip's metadata step
    _run([bin_dir / "python", "setup.py", "-q", "sdist", "-d", tmp_path / "sdist"], source)
    assert built() == before
    assert sorted(p.stat().st_mtime for p in (source / "build").glob("*.c")) == generated
    assert _engine_line(bin_dir, tmp_path) == f"engine: compiled (mypyc {PINNED_MYPY})"
