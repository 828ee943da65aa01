"""The engine imports only the standard library: the rule is the import contract
``engine-pure`` in ``pyproject.toml``, which ``lint-imports`` checks in CI. These tests
check that the contract covers the engine and that its type catches what it should."""

from __future__ import annotations

import importlib.util
import tomllib
from pathlib import Path
from types import ModuleType
from typing import Any

import grimp
import pytest

ROOT = Path(__file__).resolve().parents[2]


def _contracts_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "import_contracts", ROOT / "tools" / "import_contracts.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _config() -> dict[str, Any]:
    config: dict[str, Any] = tomllib.loads((ROOT / "pyproject.toml").read_text())
    return config["tool"]["importlinter"]


def test_the_engine_and_its_errors_are_held_to_the_standard_library() -> None:
    config = _config()
    (contract,) = [c for c in config["contracts"] if c["id"] == "engine-pure"]
    assert contract["type"] == "standard_library_only"
    assert contract["source_modules"] == ["c8league.engine", "c8league.errors"]
    assert contract["allowed_modules"] == ["c8league.engine", "c8league.errors"]
    assert config["include_external_packages"] is True
    assert (
        "standard_library_only: tools.import_contracts.StandardLibraryOnlyContract"
        in config["contract_types"]
    )


def _check(root: Path, files: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> Any:
    """The contract over ``probe.engine`` (allowed: itself and ``probe.errors``) in a
    package made of ``files``."""
    for name, text in files.items():
        path = root / "probe" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    monkeypatch.syspath_prepend(str(root))
    graph = grimp.build_graph("probe", include_external_packages=True, cache_dir=None)
    contract = _contracts_module().StandardLibraryOnlyContract(
        name="probe",
        session_options={"root_packages": ["probe"], "include_external_packages": "true"},
        contract_options={
            "source_modules": ["probe.engine"],
            "allowed_modules": ["probe.engine", "probe.errors"],
        },
    )
    return contract.check(graph, verbose=False)


PACKAGE = {
    "__init__.py": "",
    "errors.py": "class ProbeError(Exception):\n    pass\n",
    "cli.py": "import json\n",
    "engine/__init__.py": "",
    "engine/cards.py": (
        "from __future__ import annotations\n"
        "import random\n"
        "from collections.abc import Sequence\n"
        "from typing import TYPE_CHECKING\n"
        "from probe.errors import ProbeError\n"
        "from . import moves\n"
        "if TYPE_CHECKING:\n"
        "    from probe.engine.moves import Move\n"
    ),
    "engine/moves.py": "import json\n",
}


def test_the_standard_library_and_the_allowed_modules_keep_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    check = _check(tmp_path, PACKAGE, monkeypatch)
    assert check.kept and check.metadata["imports"] == []


def test_outside_packages_and_other_modules_break_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = dict(PACKAGE)
    files["engine/moves.py"] = (
        "import json\n"
        "import pytest\n"  # installed
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n"
        "    import not_installed_anywhere\n"
        "from .. import cli\n"  # relative, out of the engine
    )
    check = _check(tmp_path, files, monkeypatch)
    assert not check.kept
    assert check.metadata["imports"] == [
        {"importer": "probe.engine.moves", "imported": name, "lines": [line]}
        for name, line in [("not_installed_anywhere", 5), ("probe.cli", 6), ("pytest", 2)]
    ]
