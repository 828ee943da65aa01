"""``python -m c8league`` is the same as the ``c8league`` command."""

from c8league.cli import run

if __name__ == "__main__":
    run()
