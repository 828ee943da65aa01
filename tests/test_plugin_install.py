"""A real plugin from ``plugins/`` installs into a fresh environment and is discovered.

The environment is a temporary virtual environment that sees this one's packages
(``--system-site-packages``, plus this environment's own site directories when the
tests run inside a virtual environment), so nothing is downloaded and nothing is
installed here.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import textwrap
import tomllib
from importlib import metadata
from pathlib import Path

import pytest
import venvs

PLUGIN = Path(__file__).resolve().parents[1] / "plugins" / "c8league-montecarlo"

CHECK = textwrap.dedent(
    """
    import json
    import c8league_montecarlo
    from c8league.engine import Rules
    from c8league.players.greedy import GreedyPlayer
    from c8league.players.registry import create, discover
    from c8league.runner.loop import play_match

    info = discover()["montecarlo"]
    bot = create("montecarlo", {"playouts": "8"})
    rules = Rules.from_options("pagat", {"target": 30})
    outcome = play_match(rules, [bot, GreedyPlayer()], seed=1)
    print(json.dumps({
        "distribution": info.distribution,
        "version": info.version,
        "value": info.value,
        "broken": info.broken,
        "module": type(bot).__module__,
        "file": c8league_montecarlo.__file__,
        "forfeit": outcome.forfeit is not None,
        "hands": outcome.result.hands,
    }))
    """
)


def _can_build_wheels() -> bool:
    """setuptools builds wheels by itself from 70.1 on; before that it needs ``wheel``."""
    try:
        version = metadata.version("setuptools")
    except metadata.PackageNotFoundError:
        return False
    major, minor = (int(part) for part in version.split(".")[:2])
    if (major, minor) >= (70, 1):
        return True
    try:
        metadata.version("wheel")
    except metadata.PackageNotFoundError:
        return False
    return True


@pytest.mark.slow
@pytest.mark.skipif(
    not _can_build_wheels(),
    reason="installing without build isolation needs setuptools>=70.1 or wheel",
)
def test_montecarlo_plugin_installs_and_plays(tmp_path: Path) -> None:
    python = venvs.make(tmp_path / "env") / "python"
    purelib = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()

    # Install from a copy: building in place would leave build/ and *.egg-info behind.
    source = tmp_path / "source"
    shutil.copytree(
        PLUGIN,
        source,
        ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__", ".*_cache"),
    )
    install = subprocess.run(
        [
            str(python),
            "-m",
            "pip",
            "install",
            "--no-deps",
            "--no-build-isolation",
            "--no-index",
            "--disable-pip-version-check",
            "--quiet",
            str(source),
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert install.returncode == 0, install.stdout + install.stderr
    assert any(Path(purelib).glob("c8league_montecarlo-*.dist-info"))

    run = subprocess.run(
        [str(python), "-c", CHECK], capture_output=True, text=True, cwd=tmp_path, check=False
    )
    assert run.returncode == 0, run.stderr
    found = json.loads(run.stdout.strip().splitlines()[-1])
    assert found["distribution"] == "c8league-montecarlo"
    project = tomllib.loads((PLUGIN / "pyproject.toml").read_text())["project"]
    assert found["version"] == project["version"]
    assert found["value"] == "c8league_montecarlo:MonteCarloPlayer"
    assert not found["broken"]
    assert found["module"] == "c8league_montecarlo.player"
    assert Path(found["file"]).resolve().is_relative_to(Path(purelib).resolve())
    assert not found["forfeit"]
    assert found["hands"] >= 1
