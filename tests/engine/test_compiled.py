"""The compiled engine and its source behave alike: the shuffle, copies, and which of
the two a process runs (the move generator's two paths: test_move_paths.py)."""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from c8league.engine import Hand, HandRecord, Rules
from c8league.engine._build import _compiled_files, _stale
from c8league.engine.seeds import shuffle

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("size", [0, 1, 2, 3, 52, 104, 257])
def test_shuffle_is_the_library_shuffle(size: int) -> None:
    for seed in range(40):
        ours, theirs = list(range(size)), list(range(size))
        shuffle(random.Random(seed), ours)
        random.Random(seed).shuffle(theirs)
        assert ours == theirs


def test_a_copy_plays_on_alike_and_apart() -> None:
    rules = Rules.from_options("pagat", {"turn_cap": 300})
    hand = Hand.deal(rules, 4, seed=11)
    for _ in range(15):
        hand.apply(hand.legal_moves()[-1])
    copy = hand.copy()
    first, second = random.Random(3), random.Random(3)
    while not hand.over:
        hand.apply(first.choice(hand.legal_moves()))
    assert copy.result is None and len(copy.history) == 15
    while not copy.over:
        copy.apply(second.choice(copy.legal_moves()))
    assert HandRecord.of(copy) == HandRecord.of(hand)
    assert copy.result == hand.result


def _python(code: str, path: Path | None = None, **env: str) -> subprocess.CompletedProcess[str]:
    """Run ``code`` in a fresh interpreter, importing the package from ``path`` if given
    (also its working directory, which ``-c`` puts first on the module path)."""
    environment = {k: v for k, v in os.environ.items() if k != "C8LEAGUE_PURE"}
    environment.update(env)
    if path is not None:
        environment["PYTHONPATH"] = str(path)
    return subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env=environment,
        cwd=path,
        check=True,
    )


WHICH = (
    "import c8league.engine as e, c8league.engine.hand as h; "
    "print(e.COMPILED, h.__file__.endswith('.py'))"
)


def test_pure_mode_runs_the_source() -> None:
    assert _python(WHICH, C8LEAGUE_PURE="1").stdout.split() == ["False", "True"]


built = pytest.mark.skipif(
    not _compiled_files("engine.hand") or bool(_stale()),
    reason="the engine is not compiled in this checkout, or its build is stale",
)


@built
def test_a_built_checkout_runs_compiled() -> None:
    assert _python(WHICH).stdout.split() == ["True", "False"]


@built
def test_the_compiled_hand_has_the_fields_of_its_position_as_its_own() -> None:
    # Python code then reads them without a check, each time, that the hand is a
    # HandState (Hand declares them again in its class body).
    code = (
        "from c8league.engine.hand import Hand; from c8league.engine.state import POSITION; "
        "print([name for name in ('rules', 'n', 'dealer', *POSITION) if name not in vars(Hand)])"
    )
    assert _python(code).stdout.split() == ["[]"]


def _checkout_copy(tmp_path: Path) -> Path:
    """The package as built in this checkout, copied (file times kept) with its
    project file, so that the copy counts as a checkout too."""
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    shutil.copytree(ROOT / "c8league", tmp_path / "c8league")
    for lib in ROOT.glob("c8league_engine__mypyc*"):
        shutil.copy2(lib, tmp_path)
    return tmp_path / "c8league" / "engine"


@built
def test_an_edited_source_runs_instead_of_its_stale_build(tmp_path: Path) -> None:
    engine = _checkout_copy(tmp_path)
    assert _python(WHICH, tmp_path).stdout.split() == ["True", "False"]
    with (engine / "hand.py").open("a") as source:
        source.write("# edited\n")
    done = _python(WHICH, tmp_path)
    assert done.stdout.split() == ["False", "True"]
    assert "compiled engine is older than engine/hand.py" in done.stderr


@built
def test_without_the_build_record_file_times_tell(tmp_path: Path) -> None:
    engine = _checkout_copy(tmp_path)
    for record in ("_build.json", "_compiled_from.json"):
        (engine / record).unlink(missing_ok=True)
    later = time.time() + 60
    os.utime(engine / "moves.py", (later, later))
    done = _python(WHICH, tmp_path)
    assert done.stdout.split() == ["False", "True"]
    assert "compiled engine is older than engine/moves.py" in done.stderr
