"""A bot that plays match after match in one process (the capability ``match_start``)
and takes its view as changes, answering the first legal move. Each process appends
``start PID`` to the file ``--starts FILE``, and each match ``match PID N`` (N counted
in the process). Faults on demand, in the process's match number N:

* ``--crash N``: exits with code 3 at its first move;
* ``--hang N``: sleeps at its first move;
* ``--garbage N``: answers its first move with a line that is not JSON;
* ``--leave N``: exits after that match's ``match_end``, between two matches;
* ``--child FILE``: at each match's first move starts ``sleep 300`` and appends its
  pid to FILE (the child should end with the match).

The faults happen in the first process only (the first line of the starts file).

``--old`` announces no capability: a bot of the time before ``match_start``.
"""

import argparse
import json
import os
import subprocess
import sys
import time

parser = argparse.ArgumentParser()
parser.add_argument("--starts", required=True)
parser.add_argument("--crash", type=int, default=0)
parser.add_argument("--hang", type=int, default=0)
parser.add_argument("--garbage", type=int, default=0)
parser.add_argument("--leave", type=int, default=0)
parser.add_argument("--child", default="")
parser.add_argument("--old", action="store_true")
args = parser.parse_args()


def note(text: str) -> None:
    with open(args.starts, "a") as out:
        out.write(f"{text}\n")


def send(message: object) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


with open(args.starts, "a+") as seen:
    seen.seek(0)
    first_process = not seen.read().strip()
if not first_process:
    args.crash = args.hang = args.garbage = args.leave = 0
note(f"start {os.getpid()}")
match = 0
first = True
for line in sys.stdin:
    message = json.loads(line)
    kind = message["type"]
    if kind in ("hello", "match_start"):
        match += 1
        first = True
        note(f"match {os.getpid()} {match} seat {message['seat']} seed {message['seed']}")
        if kind == "hello":
            capabilities = [] if args.old else ["match_start", "changes"]
            send({"type": "hello", "name": "keeper", "capabilities": capabilities})
        else:
            send({"type": "match_start"})
    elif kind == "move":
        if first and "observation" not in message and "changes" not in message:
            sys.exit(9)  # neither form of the view
        if first:
            first = False
            if args.child:
                child = subprocess.Popen(["sleep", "300"])
                with open(args.child, "a") as out:
                    out.write(f"{child.pid}\n")
            if match == args.crash:
                sys.exit(3)
            if match == args.hang:
                time.sleep(300)
            if match == args.garbage:
                sys.stdout.write("I play the queen\n")
                sys.stdout.flush()
                continue
        send({"type": "move", "index": 0})
    elif kind == "match_end" and match == args.leave:
        sys.exit(0)
    elif kind == "quit":
        note(f"quit {os.getpid()}")
        break
