"""Plays well, but starts a child process and ignores quit, end of input and SIGTERM:
it has to be killed, with its child. Writes both pids to standard error."""

import signal
import subprocess
import sys
import time

from botlib import first_legal, serve

signal.signal(signal.SIGTERM, signal.SIG_IGN)
child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
sys.stderr.write(f"pids {child.pid}\n")
sys.stderr.flush()
serve(first_legal, name="lingers")
time.sleep(60)
