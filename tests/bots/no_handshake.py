"""Reads its input but never answers the hello."""

import sys

for _line in sys.stdin:
    pass
