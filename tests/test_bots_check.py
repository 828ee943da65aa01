"""What ``c8league bots check`` tells a bot author, each case through the command line
with a small bot that misbehaves so: play that depends on the matches a kept process
played before, faults by their kind, a timeout under one preset that leaves the others
played, a bot that never announces its last card, and the request a bot that c8league
plays forced moves for faulted at."""

from __future__ import annotations

import json
import random
import re
import sys
from pathlib import Path

import pytest
from shown import assert_shown

from c8league.cli.main import main
from c8league.players import registry
from c8league.players.greedy import GreedyPlayer
from c8league.players.random_player import RandomPlayer

BOTS = Path(__file__).parent / "bots"


def bot(name: str, *args: str) -> str:
    return f"cmd:{' '.join([sys.executable, str(BOTS / name), *args])}"


def check(capsys: pytest.CaptureFixture[str], spec: str, *args: str) -> tuple[int, str]:
    capsys.readouterr()
    code = main(["bots", "check", spec, *args])
    return code, capsys.readouterr().out


def row(text: str, name: str) -> list[str]:
    """The cells of the table's row ``name``."""
    line = next(x for x in text.splitlines() if x.startswith(f"│ {name} "))
    return [cell.strip() for cell in line.strip("│").split("│")][1:]


def shown_without_sandbox(text: str, spec: str) -> str:
    """The output but the line saying where the bot ran (it names this machine's
    sandbox and folders)."""
    return "\n".join(x for x in text.splitlines() if not x.startswith(f"{spec} ran "))


TIMES = re.compile(r"\s*\d+(\.\d+)? (µs|ms|s)\b")


def test_play_that_depends_on_earlier_matches_fails(capsys: pytest.CaptureFixture[str]) -> None:
    """A bot kept between matches that seeds its generator once a process: each game
    played fresh goes the same way twice, but not when its process played a game
    before."""
    spec = bot("remembers.py")
    code, out = check(capsys, spec, "--games", "2", "--presets", "pagat,basic")
    assert code == 1
    assert row(out, "same play") == ["✓", "✓"]
    assert row(out, "no carry-over") == ["✗ 1,2", "✗ 1,2"]
    faults = [x for x in out.splitlines() if x.startswith("  earlier: ")]
    assert len(faults) == 4
    assert faults[0].startswith("  earlier: pagat game 1 (seed ")
    assert (
        "play depends on earlier matches: played again after it in the same process, "
        in (faults[0])
    )
    assert_shown(
        shown_without_sandbox(out, spec).replace(spec, "<bot>"),
        "bots-check-remembers",
        times=TIMES,
    )
    code, out = check(capsys, bot("remembers.py", "--reseed"), "--games", "2", "--presets", "pagat")
    assert code == 0 and row(out, "no carry-over") == ["✓"]


def test_faults_are_counted_by_their_kind(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = check(capsys, bot("garbage.py"), "--games", "1", "--presets", "basic")
    assert code == 1
    assert row(out, "protocol") == ["✗ 1"] and row(out, "no crash") == ["✓"]
    assert "  protocol: basic game 1 (seed " in out
    code, out = check(capsys, bot("exits_mid_match.py"), "--games", "1", "--presets", "basic")
    assert code == 1
    assert row(out, "no crash") == ["✗ 1"] and row(out, "protocol") == ["✓"]
    assert "  crash: basic game 1 (seed " in out and "exited with code 3" in out


def test_a_timeout_under_one_preset_leaves_the_others_played(
    capsys: pytest.CaptureFixture[str],
) -> None:
    spec = bot("slow_countdown.py")
    args = ("move_time=0.3", "--games", "2", "--presets", "countdown,pagat,basic")
    code, out = check(capsys, spec, *args)
    assert code == 1
    assert row(out, "finished") == ["0/2", "2/2", "2/2"]
    assert row(out, "in time") == ["✗ 1,2", "✓", "✓"]
    assert "not played" not in out
    assert "  timeout: countdown game 1 (seed " in out and "no move within 0.3 s" in out


def test_a_bot_that_never_announces_its_last_card_is_warned(
    capsys: pytest.CaptureFixture[str],
) -> None:
    spec = bot("never_calls.py")
    code, out = check(capsys, spec, "--games", "2", "--presets", "pagat,basic")
    assert code == 0  # a warning, not a failure
    warning = next(x for x in out.splitlines() if x.startswith("warning: "))
    assert re.fullmatch(
        f"warning: {re.escape(spec)} played down to one card \\d+ time\\(s\\) under pagat and "
        "never announced its last card: those rules make it draw for that, so it can never "
        r"go out\. To announce, answer the move's text with ! after it \(5S!, 8H:S!\), as "
        r"legal lists it \(docs/protocol\.md\)\.",
        warning,
    )
    code, out = check(capsys, "greedy", "--games", "2", "--presets", "pagat,basic")
    assert code == 0 and "warning" not in out  # greedy announces: 5S!


def test_a_fault_names_the_request_of_a_bot_that_skips_its_forced_moves(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Crashed at its 30th request, after c8league played forced moves for it: the
    fault names the request, and the move number beside it."""
    code, out = check(capsys, bot("skips_forced.py", "30"), "--games", "1", "--presets", "pagat")
    assert code == 1
    fault = next(x for x in out.splitlines() if x.startswith("  crash: pagat game 1"))
    found = re.search(r"crash at its request 30 \(move (\d+)\): ", fault)
    assert found is not None and int(found.group(1)) > 30, fault


SHARED = random.Random(5)


class Unseeded(RandomPlayer):
    """A random player whose generator is the module's: a Python player's play that
    depends on the matches its process played before."""

    def start_match(self, seat: int, players: int, seed: int) -> None:
        self.rng = SHARED


def test_a_python_player_that_keeps_state_in_its_module_fails(
    capsys: pytest.CaptureFixture[str],
) -> None:
    players = {"greedy": GreedyPlayer, "random": RandomPlayer, "shared": Unseeded}
    with registry.only_registered(players):
        code, out = check(capsys, "shared", "--games", "1", "--presets", "pagat")
    assert code == 1 and row(out, "no carry-over") == ["✗ 1"] and row(out, "same play") == ["✓"]


TELLS = """\
import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m["type"] in ("hello", "match_start"):
        print(f"{m['type']} seat {m['seat']} seed {m['seed']}", file=sys.stderr, flush=True)
        answer = {"type": m["type"]}
        if m["type"] == "hello":
            answer.update(name="tells", capabilities=["match_start"])
        print(json.dumps(answer), flush=True)
    elif m["type"] == "move":
        print(json.dumps({"type": "move", "move": m["legal"][0]}), flush=True)
    elif m["type"] == "quit":
        break
"""


def test_a_kept_bot_has_a_log_for_each_match_named_by_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """One process plays every match of the duel (it is kept between them): each match
    has a log of its own, named by the match, holding what the bot wrote in it."""
    script = tmp_path / "tells.py"
    script.write_text(TELLS)
    logs = tmp_path / "logs"
    spec = f"cmd[log_dir={logs},sandbox=off]:{sys.executable} {script}"
    db = tmp_path / "d.db"
    assert main(["--db", str(db), "duel", spec, "greedy", "--games", "4", "--workers", "1"]) == 0
    named, others = {}, []
    for log in logs.iterdir():
        found = re.fullmatch(r"c8league-\w+-(deal\d[AB])-seat(\d)-\w+\.stderr\.log", log.name)
        if found is not None:
            named[found.group(1)] = (int(found.group(2)), log.read_text().splitlines())
        else:
            others.append(log)
    assert sorted(named) == ["deal0A", "deal0B", "deal1A", "deal1B"]
    (start,) = others  # the start-up check's, before the first match
    assert "-start-seat0-" in start.name and start.read_text().startswith("hello seat 0 seed 0")
    for label, (seat, lines) in named.items():
        assert len(lines) == 1 and lines[0].startswith(f"match_start seat {seat} seed "), label


def test_the_request_is_kept_with_the_forfeit_and_shown_where_faults_are(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A bot that c8league plays forced moves for crashes at its 30th request: a duel's
    summary, an event's status, match show and the exported record name the request."""
    command = f"{sys.executable} {BOTS / 'skips_forced.py'} 30"
    db = tmp_path / "d.db"
    duel = ["duel", f"cmd:{command}", "greedy", "--games", "2", "--max-forfeit-share", "1"]
    assert main(["--db", str(db), *duel]) == 0
    summary = capsys.readouterr().out
    assert re.search(r"A crash: 2 \(first: match duel-1:0A, request 30 \(move \d+\): ", summary)
    assert main(["--db", str(db), "match", "show", "duel-1:0A"]) == 0
    assert re.search(r"forfeited: crash at its request 30 \(move \d+\): ", capsys.readouterr().out)
    league = tmp_path / "l.toml"
    league.write_text(
        'name = "lg"\ntable_size = 2\n'
        f'[[entrants]]\nname = "Skips"\nbot = "external"\noptions = {{ command = "{command}" }}\n'
        '[[entrants]]\nname = "Greedy"\nbot = "greedy"\n'
        '[[events]]\nname = "ev"\nformat = "round_robin"\ncycles = 1\n'
    )
    assert main(["--db", str(db), "league", "import", str(league)]) == 0
    assert main(["--db", str(db), "event", "run", "ev", "--workers", "1"]) == 0
    capsys.readouterr()
    assert main(["--db", str(db), "event", "status", "ev"]) == 0
    status = capsys.readouterr().out
    found = re.search(r"  crash: Skips 1 \(first: match (\d+), request 30 \(move \d+\): ", status)
    assert found is not None, status
    assert main(["--db", str(db), "match", "show", found.group(1)]) == 0
    assert re.search(r"forfeited: crash at its request 30 \(move \d+\): ", capsys.readouterr().out)
    assert main(["--db", str(db), "games", "export", "ev"]) == 0
    (game,) = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert game["forfeit"]["request"] == 30 and game["forfeit"]["move"] > 30


CONCURRENT = """\
import json, sys
requests = {}
for line in sys.stdin:
    m = json.loads(line)
    kind, match = m["type"], m.get("match")
    if kind == "hello":
        capabilities = ["match_start", "concurrent", "skip_forced"]
        print(json.dumps({"type": "hello", "name": "cheats", "capabilities": capabilities}))
    elif kind == "move":
        requests[match] = requests.get(match, 0) + 1
        move = m["legal"][0] if requests[match] < 20 else "the queen"
        print(json.dumps({"type": "move", "match": match, "move": move}))
    elif kind == "quit":
        break
    sys.stdout.flush()
"""


def test_a_concurrent_bot_that_skips_its_forced_moves_faults_at_its_request(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Played several matches at once, a protocol fault at its 20th request of a match
    forfeits that match at request 20."""
    script = tmp_path / "cheats.py"
    script.write_text(CONCURRENT)
    db = tmp_path / "d.db"
    spec = f"cmd:{sys.executable} {script}"
    args = ["duel", spec, "greedy", "--games", "4", "--workers", "1", "--max-forfeit-share", "1"]
    assert main(["--db", str(db), *args]) == 0
    summary = capsys.readouterr().out
    assert re.search(r"A protocol: 4 \(first: match duel-1:0A, request 20 \(move \d+\): ", summary)
