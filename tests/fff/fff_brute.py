"""An independent, slow enumeration of whole turns for checking `legal_actions()`.

It tries every token sequence through the checked turn player (`rules.play`, the code behind
`apply`), never the turn generator, and groups the sequences by the position text they lead to.
"""

from __future__ import annotations

import functools

from boardct.core.errors import IllegalAction
from boardct.games.fff.notation import format_turn
from boardct.games.fff.pieces import (
    GHOST,
    K_ADD,
    K_CONVERT,
    K_FAIL,
    K_HIT,
    K_REMOVE,
    OWNER,
    T_ADD,
    T_REMOVE,
    TOKEN_KIND,
    TOKEN_TEXT,
    qcode,
)
from boardct.games.fff.rules import play

SIMPLE_TOKENS = [t for t in range(len(TOKEN_TEXT))
                 if TOKEN_KIND[t] not in (K_ADD, K_REMOVE, K_CONVERT)]
CONVERT_TOKENS = [t for t in range(len(TOKEN_TEXT)) if TOKEN_KIND[t] == K_CONVERT]


@functools.lru_cache(maxsize=32)
def brute_text(text: str) -> dict:
    from fff_helpers import GAME

    return brute(GAME.new(seed=0, position=text))


def brute(state) -> dict:
    """Resulting board -> (token count, canonical text) over every legal token sequence."""
    me = state.turn
    args = (state.main, state.ghost, state.pool, state.lost, state.cnt, me)
    best: dict[str, tuple[int, str]] = {}

    def ok(action):
        try:
            return play(*args, action)
        except IllegalAction:
            return None

    def offer(action, res):
        key = (tuple(res.main), tuple(res.ghost), tuple(res.lost))
        cand = (len(action), format_turn(action))
        if key not in best or cand < best[key]:
            best[key] = cand

    pass_res = ok(())
    best[(tuple(pass_res.main), tuple(pass_res.ghost), tuple(pass_res.lost))] = (0, "pass")

    def extend(prefix):
        res = ok(prefix)
        if res is None:
            return False
        offer(prefix, res)
        for c in range(7):
            a = prefix + (T_ADD[c],)
            r = ok(a)
            if r is not None:
                offer(a, r)
        attacked = False
        for t in SIMPLE_TOKENS:
            attacked |= extend(prefix + (t,)) and TOKEN_KIND[t] in (K_FAIL, K_HIT)
        # An attack is written exactly one of x, xD, xD/E (FFF-30): the 81 conversion forms
        # need trying only when neither of the others was accepted.
        if not attacked:
            for t in CONVERT_TOKENS:
                extend(prefix + (t,))
        return True

    for sq in range(64):
        for code in (state.main[sq], state.ghost[sq]):
            if code and OWNER[code] == me:
                q = qcode(sq, GHOST[code])
                extend((q,))
                for c in range(7):
                    extend((q, T_REMOVE[c]))
    # Pass results win over any other text for the same position.
    return best
