"""Virtual environments made by tests that see this run's packages, so that nothing
is downloaded: made with ``--system-site-packages`` and, when the tests themselves run
inside a virtual environment (the README's test command in a fresh venv), with this
environment's site directories added after the new one's own, so that what a test
installs in the new environment comes first. The new environment has no pip or
setuptools of its own (``python -m pip`` there is this run's pip, installing into it),
so that old copies bundled with ``venv`` never shadow the ones the tests installed."""

from __future__ import annotations

import site
import subprocess
import sys
import sysconfig
import venv
from pathlib import Path


def make(env_dir: Path) -> Path:
    """Create a virtual environment at ``env_dir`` and return its ``bin`` folder."""
    venv.EnvBuilder(system_site_packages=True, with_pip=False).create(env_dir)
    bin_dir = env_dir / "bin"
    if sys.prefix != sys.base_prefix:
        purelib = subprocess.run(
            [
                str(bin_dir / "python"),
                "-c",
                "import sysconfig; print(sysconfig.get_paths()['purelib'])",
            ],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        ours = [*site.getsitepackages(), sysconfig.get_paths()["purelib"]]
        lines = "".join(f"import site; site.addsitedir({d!r})\n" for d in dict.fromkeys(ours))
        (Path(purelib) / "zz-c8league-parent.pth").write_text(lines)
    return bin_dir
