"""Running tallies of who met whom, who sat where and who had a bye.

Internal to the schedule package: entrants are numbered ``0 .. n - 1`` and a
round is a list of tables of numbers plus a list of byes.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from c8league.schedule.layout import MAX_TABLE_SIZE
from c8league.schedule.model import E, Round


class Ledger:
    """Tallies over the rounds recorded so far, for entrants ``0 .. n - 1``.

    ``met`` and ``before`` are keyed by ``a * n + b``: ``met`` with
    ``a < b``, ``before`` meaning "``a`` plays directly before ``b``".
    A table is *short* when it is smaller than the largest table of its round.
    Who plays before whom is tallied at tables of three or more only.
    """

    def __init__(self, n: int) -> None:
        self.n = n
        self.met: dict[int, int] = {}
        self.before: dict[int, int] = {}
        self.seats = [[0] * MAX_TABLE_SIZE for _ in range(n)]
        self.last_seat = [-1] * n
        self.byes = [0] * n
        self.short = [0] * n
        self.played = [0] * n
        self.rounds = 0

    def meetings(self, a: int, b: int) -> int:
        """How often ``a`` and ``b`` have shared a table."""
        return self.met.get(a * self.n + b if a < b else b * self.n + a, 0)

    def record(self, tables: Sequence[Sequence[int]], byes: Iterable[int] = ()) -> None:
        """Add one round, its tables given in seat order."""
        full = max((len(t) for t in tables), default=0)
        for table in tables:
            self.add_table(table, len(table) < full, 1)
        for a in byes:
            self.byes[a] += 1
        self.rounds += 1

    def add_table(self, table: Sequence[int], short: bool, step: int) -> None:
        """Add one table in seat order (``step`` 1), or take it away again (``step`` -1)."""
        n, met, before = self.n, self.met, self.before
        size = len(table)
        for seat, a in enumerate(table):
            self.seats[a][seat] += step
            self.played[a] += step
            if step > 0:
                self.last_seat[a] = seat
            if short:
                self.short[a] += step
            for b in table[seat + 1 :]:
                key = a * n + b if a < b else b * n + a
                met[key] = met.get(key, 0) + step
            if size > 2:
                key = table[seat - 1] * n + a
                before[key] = before.get(key, 0) + step


def index_entrants(entrants: Iterable[E], history: Iterable[Round[E]]) -> dict[E, int]:
    """Number the entrants in the order given, then unknown ones from the history."""
    index: dict[E, int] = {}
    for e in entrants:
        index.setdefault(e, len(index))
    for rnd in history:
        for e in rnd.entrants():
            index.setdefault(e, len(index))
    return index


def ledger_of(history: Iterable[Round[E]], index: dict[E, int]) -> Ledger:
    """The tallies of ``history``, entrants numbered by ``index``."""
    ledger = Ledger(len(index))
    for rnd in history:
        ledger.record([[index[e] for e in t] for t in rnd.tables], [index[e] for e in rnd.byes])
    return ledger
