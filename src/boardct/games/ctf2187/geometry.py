"""Facing, arcs, bearings and fire tracks on the square grid (CTF-4, CTF-11, CTF-17..CTF-19,
CTF-27). Pure functions of small ints."""

from __future__ import annotations

import math

# Facing deltas, index 1..8 (CTF-17); index 0 unused.
DX = (0, 0, 1, 1, 1, 0, -1, -1, -1)
DY = (0, 1, 1, 0, -1, -1, -1, 0, 1)
FA, RS, LS, RA = 0, 1, 2, 3
ARROWS = " ^/>\\v/<\\"  # facing 1..8 shown as one character


def right(facing: int, steps: int = 1) -> int:
    return (facing - 1 + steps) % 8 + 1


def distance(x0: int, y0: int, x1: int, y1: int) -> int:
    """Chebyshev distance (CTF-17)."""
    dx = x1 - x0
    dy = y1 - y0
    if dx < 0:
        dx = -dx
    if dy < 0:
        dy = -dy
    return dx if dx > dy else dy


def arc(facing: int, dx: int, dy: int) -> int:
    """The arc (FA, RS, LS, RA) of offset (dx, dy) seen from `facing` (CTF-18)."""
    a = dx * DX[facing] + dy * DY[facing]
    f2 = (facing + 1) % 8 + 1
    r = dx * DX[f2] + dy * DY[f2]
    if a > 0 and abs(r) <= a:
        return FA
    if a < 0 and abs(r) < -a:
        return RA
    return RS if r > 0 else LS if r < 0 else FA


def side_value(facing: int, dx: int, dy: int) -> int:
    """R of CTF-18: positive to the right of `facing`, negative to the left."""
    f2 = (facing + 1) % 8 + 1
    return dx * DX[f2] + dy * DY[f2]


_BEARINGS: dict[tuple[int, int], int] = {}


def bearing(dx: int, dy: int) -> int:
    """The facing nearest in angle to the line (dx, dy) (CTF-19; never a tie on the grid).
    Made once per offset (a pure function of it: every move toward a Bot asks)."""
    key = (dx, dy)
    f = _BEARINGS.get(key)
    if f is None:
        deg = math.degrees(math.atan2(dx, dy))  # clockwise from +Y
        f = int(round(deg / 45.0)) % 8 + 1
        if len(_BEARINGS) > 65536:
            _BEARINGS.clear()
        _BEARINGS[key] = f
    return f


def pivot_steps(facing: int, target: int) -> int:
    """Signed 45-degree steps to face `target` the shorter way (+ right); opposite: right."""
    diff = (target - facing) % 8
    return diff if diff <= 4 else diff - 8


def toward_step(facing: int, dx: int, dy: int) -> int:
    """The one 45-degree turn a move-toward order makes (CTF-19): 0, +1 right or -1 left."""
    b = bearing(dx, dy)
    diff = (b - facing) % 8
    if diff == 0:
        return 0
    if diff == 4:
        return -1 if side_value(facing, dx, dy) < 0 else 1
    return 1 if diff < 4 else -1


def _round_half_toward_zero(num: int, den: int) -> int:
    """num/den rounded to nearest, halves toward 0 (den > 0)."""
    neg = num < 0
    if neg:
        num = -num
    q, r = divmod(num, den)
    if 2 * r > den:
        q += 1
    return -q if neg else q


def track(x0: int, y0: int, e0: int, x1: int, y1: int, e1: int) -> list[tuple[int, int, int]]:
    """The sectors strictly between firer and target with the projectile's height (CTF-27):
    for k = 1..n-1 the point k/n of the way, coordinates rounded to nearest with halves toward
    the firer, height rounded with halves up."""
    n = distance(x0, y0, x1, y1)
    dx = x1 - x0
    dy = y1 - y0
    de = e1 - e0
    out = []
    n2 = 2 * n
    for k in range(1, n):
        x = x0 + _round_half_toward_zero(dx * k, n)
        y = y0 + _round_half_toward_zero(dy * k, n)
        h = (2 * (e0 * n + de * k) + n) // n2
        out.append((x, y, h))
    return out
