"""Imports written as strings (the command line's lazy sub-commands, the engine's lazy
names, ``importlib.import_module("…")``) are invisible to ``lint-imports``: each is
held here to the same contracts (``[tool.importlinter]`` in pyproject.toml), and must
name a module that exists."""

from __future__ import annotations

import ast
import importlib.util
import tomllib
from pathlib import Path
from typing import Any

import pytest

from c8league.cli import main as cli_main
from c8league.cli.lazy import Entry, Noun

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "c8league"
CONTRACTS: list[dict[str, Any]] = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"][
    "importlinter"
]["contracts"]


def _module_of(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def string_imports() -> list[tuple[str, str]]:
    """(importer, imported) for every import the package writes as a string."""
    found = []
    for target in cli_main.SUBCOMMANDS.values():
        names = [target.target] if isinstance(target, Entry) else []
        if isinstance(target, Noun):
            names = [target.group, *target.commands.values()]
        found += [(cli_main.__name__, name.partition(":")[0]) for name in names]
    from c8league import engine

    found += [(engine.__name__, f"{engine.__name__}.{m}") for m in engine._HOMES]
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and getattr(node.func, "attr", getattr(node.func, "id", None)) == "import_module"
                and node.args
                and isinstance(node.args[0], ast.Constant)
            ):
                found.append((_module_of(path), str(node.args[0].value)))
    return found


def _within(module: str, names: list[str]) -> bool:
    return any(module == n or module.startswith(n + ".") for n in names)


def _layer(module: str, layers: list[str]) -> int | None:
    for index, layer in enumerate(layers):
        if any(_within(module, [f"c8league.{n.strip()}"]) for n in layer.split("|")):
            return index
    return None


def broken(importer: str, imported: str) -> list[str]:
    """The ids of the contracts that ``importer`` importing ``imported`` breaks."""
    out = []
    for contract in CONTRACTS:
        kind = contract["type"]
        if kind == "layers":
            low, high = _layer(importer, contract["layers"]), _layer(imported, contract["layers"])
            same = importer.split(".")[:2] == imported.split(".")[:2]
            hit = low is not None and high is not None and high < low and not same
        elif kind == "forbidden":
            hit = _within(importer, contract["source_modules"]) and _within(
                imported, contract["forbidden_modules"]
            )
        elif kind == "imported_only_by":
            hit = _within(imported, contract["modules"]) and not _within(
                importer, contract["importers"]
            )
        elif kind == "protected":
            allowed = contract["protected_modules"] + contract["allowed_importers"]
            hit = _within(imported, contract["protected_modules"]) and not _within(
                importer, allowed
            )
        else:
            hit = False
        if hit:
            out.append(contract["id"])
    return out


IMPORTS = string_imports()


def test_the_string_imports_are_found() -> None:
    importers = {importer for importer, _ in IMPORTS}
    assert {"c8league.cli.main", "c8league.engine", "c8league.runner.dask_executor"} <= importers


@pytest.mark.parametrize(("importer", "imported"), IMPORTS, ids=lambda text: text)
def test_a_string_import_names_a_module_the_contracts_allow(importer: str, imported: str) -> None:
    assert importlib.util.find_spec(imported) is not None, f"{importer}: no module {imported}"
    assert broken(importer, imported) == []


def test_a_string_import_against_the_contracts_is_caught() -> None:
    assert broken("c8league.reports.games", "c8league.runner.loop") == ["reports-read"]
    assert broken("c8league.engine", "c8league.storage.models") == ["data-flow"]
    assert broken("c8league.club.sheets", "sqlalchemy") == ["sql-in-storage"]
    assert broken("c8league.storage.rounds", "c8league.cli.main") == ["data-flow", "cli-on-top"]
