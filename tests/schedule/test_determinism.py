"""The same arguments give the same schedule in any process (no salted ``hash()``)."""

import os
import subprocess
import sys
from pathlib import Path

SCRIPT = """
import hashlib, random
from c8league.schedule import round_robin, swiss_round
out = []
entrants = [f"bot-{i}" for i in range(17)]
for k in (2, 3, 4, 7):
    out.append(repr(round_robin(entrants, k, seed=7)))
rng = random.Random(1)
scores = {e: 0.0 for e in entrants}
history = []
for r in range(4):
    for k in (2, 4):
        rnd = swiss_round(scores, history, k, seed=r)
        out.append(repr(rnd))
    history.append(rnd)
    for table in rnd.tables:
        scores[rng.choice(table)] += 1
print(hashlib.sha256("".join(out).encode()).hexdigest())
"""


def _digest(hash_seed: str) -> str:
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT],
        env=env,
        cwd=Path(__file__).resolve().parents[2],
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.strip()


def test_same_schedule_under_different_hash_seeds() -> None:
    assert _digest("1") == _digest("2")


#: The digest of the schedules above as this version makes them. A round-robin's plan
#: is recomputed from its event's seed whenever a round is paired, and a Swiss round
#: from the standings: if this changes, events already running would get different
#: rounds from here on. Keep the old schedules for them (a new algorithm under a new
#: name) rather than updating this value.
RECORDED = "f6a26b795d890c55795f6d0160ed2231e0d7947993e9df0b5d7c0badabe2db59"


def test_schedules_are_those_already_handed_out() -> None:
    assert _digest("0") == RECORDED
