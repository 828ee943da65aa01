"""The import contracts of ``pyproject.toml`` hold without escape: a module added
anywhere in c8league is checked by them. Each test adds one module to a copy of the
package and runs ``lint-imports`` on the copy with the project's configuration."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LINT_IMPORTS = Path(sys.executable).parent / "lint-imports"


def _contract_names() -> dict[str, str]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    return {c["id"]: c["name"] for c in config["tool"]["importlinter"]["contracts"]}


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """A copy of the package, the contract types and the configuration."""
    skip = shutil.ignore_patterns("__pycache__", "*.so", "*.pyd")
    shutil.copytree(ROOT / "c8league", tmp_path / "c8league", ignore=skip)
    shutil.copytree(ROOT / "tools", tmp_path / "tools", ignore=skip)
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    return tmp_path


def broken(tree: Path, module: str | None = None, text: str = "") -> set[str]:
    """The ids of the contracts ``lint-imports`` finds broken once ``module`` (a path in
    the copy) holds ``text``."""
    if module is not None:
        (tree / module).write_text(text)
    done = subprocess.run(
        [str(LINT_IMPORTS), "--no-cache"],
        cwd=tree,
        capture_output=True,
        text=True,
        env={"PATH": str(LINT_IMPORTS.parent), "PYTHONPATH": str(tree)},
        timeout=300,
    )
    output = " ".join(done.stdout.split())  # names may be wrapped over lines
    found = {i for i, name in _contract_names().items() if f"{name} BROKEN" in output}
    assert found or done.returncode == 0, done.stdout + done.stderr
    assert "KEPT" in output, done.stdout + done.stderr
    return found


def test_the_package_as_it_is_keeps_every_contract(tree: Path) -> None:
    assert broken(tree) == set()


def test_a_module_in_no_layer_that_imports_the_command_line_is_caught(tree: Path) -> None:
    found = broken(tree, "c8league/tournament.py", "from c8league.cli import main\n")
    assert found == {"data-flow", "cli-on-top"}


def test_a_module_in_no_layer_is_caught_whatever_it_imports(tree: Path) -> None:
    assert broken(tree, "c8league/tournament.py", "import json\n") == {"data-flow"}


def test_typer_outside_the_command_line_is_caught(tree: Path) -> None:
    assert broken(tree, "c8league/club/tournament.py", "import typer\n") == {"typer-in-cli"}


def test_the_command_line_reaching_into_storage_is_caught(tree: Path) -> None:
    found = broken(tree, "c8league/cli/tournament.py", "from c8league.storage import models\n")
    assert found == {"cli-storage-door"}


def test_a_report_that_plays_a_match_is_caught(tree: Path) -> None:
    found = broken(
        tree, "c8league/reports/replay.py", "from c8league.runner.loop import play_match\n"
    )
    assert found == {"reports-read"}
