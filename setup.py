"""Build hook: compile the rules engine, and the round-robin schedule's search, with mypyc.

The engine's modules are plain, fully typed Python; mypyc turns them into C extensions
that run the same code 2.5 to 3 times faster (the schedule's search about twice as
fast, with the same schedules). Everything else is in ``pyproject.toml``.

Evaluating this file does nothing but describe the project: ``setup.py --name``, pip's
metadata step and an sdist neither compile nor delete anything. Only a build of the
extensions (a wheel, ``pip install``, ``pip install -e .``) runs mypyc and the C
compiler, and only that build replaces what an earlier one left:

* ``C8LEAGUE_PURE=1 pip install ...`` skips compiling: the engine runs from source.
* Without a C compiler, or if mypyc fails, the build warns and keeps the source engine,
  so an install never fails for want of a compiler. The wheel is then a pure
  ``py3-none-any`` one; with the compiled engine it is specific to the platform.
* Either way the build records what it did, and why, in ``c8league/engine/_build.json``;
  ``c8league --version`` says which engine runs and why (pip hides this file's output).

The modules compiled are listed once, in ``c8league/engine/_build.py``
(``COMPILED_MODULES``), which the package reads at run time too.
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.errors import CCompilerError, CompileError, ExecError, LinkError, PlatformError

try:
    from setuptools.command.bdist_wheel import bdist_wheel
except ImportError:  # setuptools < 70.1 (``setup.py`` run by hand): the wheel package's
    from wheel.bdist_wheel import bdist_wheel

ENGINE = Path("c8league/engine")
COMPILER_ERRORS = (CCompilerError, CompileError, ExecError, LinkError, PlatformError)


def engine_constant(name: str) -> Any:
    """A literal assigned at the top of ``c8league/engine/_build.py`` (read from its
    text: importing it would import the package)."""
    source = Path(__file__).resolve().parent / ENGINE / "_build.py"
    for node in ast.parse(source.read_text()).body:
        if isinstance(node, ast.Assign) and any(
            isinstance(target, ast.Name) and target.id == name for target in node.targets
        ):
            return ast.literal_eval(node.value)
    raise RuntimeError(f"{source} assigns no {name}")


MODULES: tuple[str, ...] = engine_constant("COMPILED_MODULES")
GROUP: str = engine_constant("GROUP")
BUILD_INFO: str = engine_constant("BUILD_INFO")
LIBRARY = f"{GROUP}__mypyc"


def source(module: str) -> Path:
    """The source file of a compiled module (``engine.hand``: ``c8league/engine/hand.py``)."""
    return Path("c8league", *module.split(".")).with_suffix(".py")


FOLDERS = sorted({source(m).parent for m in MODULES})
"""The folders of the compiled modules."""


def placeholders() -> list[Extension]:
    """The extensions as the build will name them, without sources: they make the
    distribution one with extensions, so that a build runs ``build_ext``, which alone
    runs mypyc and fills them in (or drops them)."""
    return [Extension(LIBRARY, []), *(Extension(f"c8league.{m}", []) for m in MODULES)]


def compiled_files(root: Path) -> list[Path]:
    """What a build compiled under ``root`` (a build directory or the source tree), for
    any interpreter: every extension module in the compiled modules' folders (also
    those of modules no longer compiled) and the group's library."""
    found = [path for folder in FOLDERS for path in (root / folder).glob("*.*")]
    found += root.glob(f"{LIBRARY}.*")
    return [p for p in found if p.suffix in (".so", ".pyd")]


def first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return (text[0] if text else type(exc).__name__)[:300]


def compiler_failure(exc: BaseException) -> str:
    """Why the C compiler failed, in a few words: the command and its exit status, or
    the command not found (setuptools wraps these in errors of its own)."""
    seen: BaseException | None = exc
    while seen is not None:
        for error in (seen, *seen.args):
            if isinstance(error, subprocess.CalledProcessError):
                command = error.cmd[0] if isinstance(error.cmd, list) else error.cmd
                return f"{command} exited with status {error.returncode}"
            if isinstance(error, OSError):
                return f"{error.filename or 'the compiler'}: {error.strerror or error}"
        seen = seen.__cause__ or seen.__context__
    return first_line(exc)


class BuildEngine(build_ext):
    """``build_ext`` that runs mypyc, compiles its output, and falls back to the source
    engine, all or nothing, when either step is impossible or fails."""

    def get_source_files(self) -> list[str]:
        return []  # an sdist ships the engine's Python sources, not mypyc's C

    def run(self) -> None:
        # Built in place (pip install -e .) the modules sit beside their sources; else
        # they go to the build directory, from which the wheel is made.
        root = Path(".") if self.inplace else Path(self.build_lib)
        for path in compiled_files(root):
            path.unlink()  # an older build must not outlive this one
        if self.inplace:
            (ENGINE / "_compiled_from.json").unlink(missing_ok=True)  # older builds' record
        info: dict[str, Any]
        try:
            info = self.compile()
        except COMPILER_ERRORS as exc:
            info = {"reason": f"the C compiler failed ({compiler_failure(exc)})"}
        except NotCompiled as exc:
            info = exc.info
        if not info.get("compiled"):
            for path in compiled_files(root) + compiled_files(Path(self.build_lib)):
                path.unlink(missing_ok=True)  # what a failed compile left
            self.extensions = self.distribution.ext_modules = []
            info = {"compiled": False, "deliberate": False, **info}
            print(
                f"\nc8league: WARNING: the engine is not compiled ({info['reason']}); it "
                "runs from its Python source, 2.5 to 3 times slower. "
                "`c8league --version` says so.\n",
                file=sys.stderr,
            )
        target = (Path(".") if self.inplace else Path(self.build_lib)) / ENGINE / BUILD_INFO
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(info, indent=1) + "\n")

    def compile(self) -> dict[str, Any]:
        """Run mypyc, then the C compiler; the record of the build."""
        if os.environ.get("C8LEAGUE_PURE", "") not in ("", "0"):
            raise NotCompiled("C8LEAGUE_PURE was set", deliberate=True)
        try:
            from mypy.version import __version__ as mypy_version
            from mypyc.build import mypycify
        except ImportError as exc:
            raise NotCompiled(f"mypyc is not installed ({first_line(exc)})") from exc
        try:
            built = mypycify([str(source(m)) for m in MODULES], opt_level="3", group_name=GROUP)
        except (SystemExit, Exception) as exc:  # mypy exits on type errors
            detail = "type errors, listed in the build's output"
            if not isinstance(exc, SystemExit):
                detail = first_line(exc)
            raise NotCompiled(f"mypyc {mypy_version} failed: {detail}") from exc
        # setuptools prepared the placeholders when it finalized this command; mypyc's
        # extensions take their places under the same names.
        by_name = {extension.name: extension for extension in built}
        if sorted(by_name) != sorted(e.name for e in self.extensions):
            raise NotCompiled(f"mypyc {mypy_version} named its extensions {sorted(by_name)}")
        for extension in self.extensions:
            for key, value in vars(by_name[extension.name]).items():
                if not key.startswith("_") and key != "name":
                    setattr(extension, key, value)
            extension.optional = False  # one failure drops them all (see run)
        super().run()
        sources = {m: hashlib.sha256(source(m).read_bytes()) for m in MODULES}
        return {
            "compiled": True,
            "mypyc": mypy_version,
            "sources": {m: digest.hexdigest() for m, digest in sources.items()},
        }


class NotCompiled(Exception):
    def __init__(self, reason: str, deliberate: bool = False) -> None:
        super().__init__(reason)
        self.info = {"reason": reason, "deliberate": deliberate}


class Wheel(bdist_wheel):
    """A wheel is specific to the platform only when it holds the compiled engine."""

    def run(self) -> None:
        if not self.skip_build:  # as bdist_wheel builds, but before choosing the tag
            scripts = self.reinitialize_command("build_scripts")
            scripts.executable, scripts.force = "python", True
            self.reinitialize_command("build_ext").inplace = False
            self.run_command("build")
            self.skip_build = True  # built once, here
        # The build dropped the extensions if it compiled nothing.
        self.root_is_pure = not self.distribution.has_ext_modules()
        super().run()


setup(ext_modules=placeholders(), cmdclass={"build_ext": BuildEngine, "bdist_wheel": Wheel})
