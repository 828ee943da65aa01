"""Resolvable designs: rounds in which every pair of entrants meets exactly once.

A resolvable 2-(n, k, 1) design splits ``n`` points into tables of ``k`` in
``(n - 1) / (k - 1)`` rounds (parallel classes) so that every pair of points
shares a table exactly once. The constructions here cover:

* ``n <= k``: one table of everyone;
* affine geometries AG(d, q): ``n = q**d`` at tables of ``q`` for the prime
  powers ``q`` = 2, 3, 4, 5, 7, 8 (16 at 4, 25 at 5, 27 at 3, 49 at 7, 64 at 8…);
* Kirkman triple systems at tables of 3: 15 points (1-rotational over Z7),
  and ``3q`` points for a prime ``q ≡ 1 (mod 6)`` (21, 39, 57, …) by the
  cyclotomic construction of Ray-Chaudhuri and Wilson.

Points are the integers ``0 .. n - 1``.
"""

from __future__ import annotations

from functools import cache
from itertools import product

Design = tuple[tuple[tuple[int, ...], ...], ...]
"""Rounds, each a tuple of tables, each a tuple of points."""

_PRIME_POWERS = {2: (2, 1), 3: (3, 1), 4: (2, 2), 5: (5, 1), 7: (7, 1), 8: (2, 3)}
# Irreducible polynomials over GF(2) defining GF(4) and GF(8), bit i = coefficient of x**i.
_MODULUS = {4: 0b111, 8: 0b1011}

# Base round of a 1-rotational KTS(15): point x of level l is l * 7 + x, infinity is 14.
_KTS15_BASE = (
    ((0, 0), (0, 1), None),
    ((1, 0), (2, 0), (4, 0)),
    ((3, 0), (1, 1), (5, 1)),
    ((5, 0), (4, 1), (6, 1)),
    ((6, 0), (2, 1), (3, 1)),
)


def resolvable_design(n: int, k: int) -> Design | None:
    """Rounds over points ``0 .. n - 1`` where every pair meets exactly once.

    Returns ``None`` when no construction for ``(n, k)`` is known here. For
    ``n <= k`` the single round seats everyone at one table.
    """
    if n < 2 or k < 2:
        return None
    if n <= k:
        return ((tuple(range(n)),),)
    return _design(n, k)


@cache
def _design(n: int, k: int) -> Design | None:
    if k in _PRIME_POWERS:
        dim = _log(n, k)
        if dim is not None:
            return _affine_geometry(k, dim)
    if k == 3 and n == 15:
        return _kts15()
    if k == 3 and n % 3 == 0 and _is_prime(n // 3) and (n // 3) % 6 == 1:
        return _kts_3q(n // 3)
    return None


def _log(n: int, q: int) -> int | None:
    dim, power = 0, 1
    while power < n:
        power *= q
        dim += 1
    return dim if power == n else None


def _is_prime(m: int) -> bool:
    return m >= 2 and all(m % d for d in range(2, int(m**0.5) + 1))


class _Field:
    """GF(q) for q in {2, 3, 4, 5, 7, 8}, elements numbered 0 .. q - 1."""

    def __init__(self, q: int) -> None:
        self.q = q
        if q in _MODULUS:
            self.add = [[a ^ b for b in range(q)] for a in range(q)]
            self.mul = [[_gf2_mul(a, b, _MODULUS[q], q) for b in range(q)] for a in range(q)]
        else:
            self.add = [[(a + b) % q for b in range(q)] for a in range(q)]
            self.mul = [[(a * b) % q for b in range(q)] for a in range(q)]


def _gf2_mul(a: int, b: int, modulus: int, q: int) -> int:
    result = 0
    while b:
        if b & 1:
            result ^= a
        b >>= 1
        a <<= 1
        if a & q:
            a ^= modulus
    return result


def _affine_geometry(q: int, dim: int) -> Design:
    """The lines of AG(dim, q), one round per direction."""
    field = _Field(q)
    points = list(product(range(q), repeat=dim))
    index = {p: i for i, p in enumerate(points)}
    rounds = []
    for direction in points:
        nonzero = [c for c in direction if c]
        if not nonzero or nonzero[0] != 1:
            continue
        covered = [False] * len(points)
        tables = []
        for start in points:
            if covered[index[start]]:
                continue
            line = []
            for t in range(q):
                p = tuple(
                    field.add[s][field.mul[t][d]] for s, d in zip(start, direction, strict=True)
                )
                covered[index[p]] = True
                line.append(index[p])
            tables.append(tuple(line))
        rounds.append(tuple(tables))
    return tuple(rounds)


def _kts15() -> Design:
    def point(p: tuple[int, int] | None, shift: int) -> int:
        return 14 if p is None else p[1] * 7 + (p[0] + shift) % 7

    return tuple(
        tuple(tuple(point(p, shift) for p in block) for block in _KTS15_BASE) for shift in range(7)
    )


def _primitive_root(q: int) -> int:
    factors = [d for d in range(2, q) if (q - 1) % d == 0 and _is_prime(d)]
    for g in range(2, q):
        if all(pow(g, (q - 1) // f, q) != 1 for f in factors):
            return g
    raise AssertionError(q)


def _kts_3q(q: int) -> Design:
    """KTS(3q) for a prime q = 6t + 1; point x of level j is j * q + x."""
    t = (q - 1) // 6
    w = _primitive_root(q)

    def power(e: int) -> int:
        return pow(w, e % (q - 1), q)

    c = (power(2 * t) - 1) % q
    odd = [i for i in range(6 * t) if (i // t) % 2 == 1]  # exponents in S
    even = [i for i in range(6 * t) if (i // t) % 2 == 0]
    base: list[tuple[tuple[int, int], ...]] = [((0, 0), (0, 1), (0, 2))]
    for i in range(t):
        for j in range(3):
            base.append(((power(i), j), (power(i + 2 * t), j), (power(i + 4 * t), j)))
    for i in odd:
        base.append(((power(i), 0), (power(i + 2 * t), 1), (power(i + 4 * t), 2)))
    rounds = [
        tuple(tuple(j * q + (x + shift) % q for x, j in block) for block in base)
        for shift in range(q)
    ]
    for i in even:
        d1 = c * power(i) % q
        d2 = c * power(i + t) % q
        rounds.append(tuple((x, q + (x + d1) % q, 2 * q + (x + d2) % q) for x in range(q)))
    return tuple(rounds)
