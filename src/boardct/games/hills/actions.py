"""Action codes and their text (BSH-38).

An action is one int: op * 1000 + squad kind * 100 + direction * 10 + target kind, where the
squad is the mover's own and the target an enemy squad (kinds: 0 Infantry, 1 Rocketeer,
2 Mech). Readable when printed, and cheap to make, hash and compare.
"""

from __future__ import annotations

from boardct.games.hills.board import CARD_WORDS, DIR_NAMES, KIND_LETTERS

END = 0
MOVE, ATTACK, DEIMPEDE, WAIT, ARTILLERY_OP, BOOST_OP, AMMO_OP = 1, 2, 3, 4, 5, 6, 7


def move(k: int, d: int) -> int:
    return 1000 + k * 100 + d * 10


def attack(k: int, d: int, t: int) -> int:
    return 2000 + k * 100 + d * 10 + t


def deimpede(k: int) -> int:
    return 3000 + k * 100


def wait(k: int) -> int:
    return 4000 + k * 100


def artillery(t: int) -> int:
    return 5000 + t


def boost(k: int) -> int:
    return 6000 + k * 100


def ammo(k: int, d: int, t: int) -> int:
    return 7000 + k * 100 + d * 10 + t


def decode(a: int) -> tuple[int, int, int, int]:
    """(op, kind, direction, target) of a well-formed action code."""
    return a // 1000, a // 100 % 10, a // 10 % 10, a % 10


def is_code(a: object) -> bool:
    """Whether `a` is a well-formed action code (any legality aside)."""
    if type(a) is not int or a < 0:
        return False
    op, k, d, t = decode(a)
    if a == END:
        return True
    if op in (MOVE,):
        return k < 3 and d < 6 and t == 0
    if op in (ATTACK, AMMO_OP):
        return k < 3 and d < 6 and t < 3
    if op in (DEIMPEDE, WAIT, BOOST_OP):
        return k < 3 and d == 0 and t == 0
    if op == ARTILLERY_OP:
        return k == 0 and d == 0 and t < 3
    return False


def text(a: int) -> str:
    """The canonical text (BSH-38): lower-case words, upper-case letters, target written."""
    op, k, d, t = decode(a)
    if a == END:
        return "end"
    s, dn, tn = KIND_LETTERS[k], DIR_NAMES[d], KIND_LETTERS[t]
    if op == MOVE:
        return f"{s} move {dn}"
    if op == ATTACK:
        return f"{s} attack {dn} {tn}"
    if op == DEIMPEDE:
        return f"{s} deimpede"
    if op == WAIT:
        return f"{s} wait"
    if op == ARTILLERY_OP:
        return f"play {CARD_WORDS[1]} {tn}"
    if op == BOOST_OP:
        return f"play {CARD_WORDS[3]} {s}"
    return f"play {CARD_WORDS[2]} {s} {dn} {tn}"
