"""Enumeration of whole turns, one action per distinct resulting position (FFF-29, FFF-31).

For each own piece and each removal choice, a breadth-first search spends movement points one
at a time. A search node is (board after attacks, mover's square, mover's facing). Because
points need not be spent, the first (shallowest) visit of a node dominates every later one:
the same node with fewer points left can reach nothing new. So each node is expanded once, at
its smallest depth, keeping the ASCII-smallest token prefix among the paths of that depth. The
boards that attacks produce are interned by content, so two attack orders reaching the same
board meet in one node.

Every visited node, with no addition or with each addable colour, is a candidate result. Its
key identifies the resulting position: while the rest of the board is untouched the key is the
small int (piece, square, piece code); once an attack changed something it is the full board.
Candidates with equal keys are one action; the one with fewest tokens, then ASCII-smallest
text, is kept (FFF-31). The result equal to the untouched position is the action `pass`.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import chain, compress, islice, product, repeat, starmap
from operator import add, ge, ne

from boardct.games.fff.pieces import (
    ADDABLE,
    CLEAR,
    DEFENCE,
    FACE0,
    FIELDS,
    GHOST,
    NCODES,
    NEXT,
    NFIELDS,
    OWNER,
    POINTS,
    T_ADD,
    T_CONVERT,
    T_HIT,
    T_REMOVE,
    T_STEP,
    T_TURN,
    WITH_FIELD,
    qcode,
    without_outer,
)
from boardct.games.fff.rules import (
    O_CAPTURE,
    O_CONVERT,
    O_FAIL,
    O_PUSH,
    RELEASE,
    any_eliminated,
    attack_kind,
    convert,
    leave,
    push,
    strip,
)

PASS_KEY = -1


def generate(main: list[int], ghost: list[int], pool: list[int], lost: list[int],
             cnt: list[int], me: int) -> dict:
    """Map each distinct result key to its canonical turn: (token count, token tuple)."""
    best: dict = {PASS_KEY: (0, ())}

    def offer(key, toks):
        old = best.get(key)
        if old is None:
            best[key] = (len(toks), toks)
        else:
            n = len(toks)
            if n < old[0] or (n == old[0] and toks < old[1]):
                best[key] = (n, toks)

    for sq0 in range(64):
        for slot in (0, 1):
            code0 = ghost[sq0] if slot else main[sq0]
            if not code0 or OWNER[code0] != me:
                continue
            q = qcode(sq0, GHOST[code0])
            piece_base = (sq0 * 2 + slot) * 64
            base_m = main[:]
            base_g = ghost[:]
            if slot:
                base_g[sq0] = 0
            else:
                base_m[sq0] = 0
            branches = [(-1, code0)]
            if NFIELDS[code0]:
                branches.append((FIELDS[code0][-1], without_outer(code0)))
            for rem, c1 in branches:
                if rem < 0:
                    head: tuple[int, ...] = (q,)
                    pool1 = pool
                else:
                    head = (q, T_REMOVE[rem])
                    pool1 = pool[:]
                    pool1[RELEASE[code0][-1]] += 1
                    if GHOST[code0] and not GHOST[c1] and main[sq0]:
                        # FFF-26: back in phase on a shared square destroys both; turn over.
                        m = base_m[:]
                        lo, cn, pl = lost[:], cnt[:], pool1[:]
                        other = m[sq0]
                        m[sq0] = 0
                        leave(c1, pl, lo, cn)
                        leave(other, pl, lo, cn)
                        offer((tuple(m), tuple(base_g), tuple(lo)), head)
                        continue
                _search(me, sq0, code0, c1, head, piece_base, base_m, base_g, pool1, lost, cnt,
                        offer, best)
    return best


def _search(me, sq0, code0, c1, head, piece_base, base_m, base_g, pool1, lost, cnt, offer,
            best):
    envs = [(base_m, pool1, lost, cnt, False)]
    interned: dict = {}
    base_g_t = None

    def intern(m2, p2, l2, c2) -> int:
        if not interned:
            interned[(tuple(base_m), tuple(lost))] = 0
        key = (tuple(m2), tuple(l2))
        eid = interned.get(key)
        if eid is None:
            eid = interned[key] = len(envs)
            envs.append((m2, p2, l2, c2, any_eliminated(c2)))
        return eid

    f0 = (c1 - FACE0[c1]) // 6
    start = sq0 * 9 + f0
    visited = {start: ()}
    layer = [start]
    ghosty = GHOST[c1]
    face0 = FACE0[c1]
    for _depth in range(POINTS[c1]):
        nxt: dict = {}
        for node in layer:
            prefix = visited[node]
            f = node % 9
            rest = node // 9
            sq = rest % 64
            eid = rest // 64
            env = envs[eid]
            if env[4]:
                continue
            base = node - f
            for d in range(9):
                child = base + d
                if d == f or child in visited:
                    continue
                p = prefix + (T_TURN[d],)
                old = nxt.get(child)
                if old is None or p < old:
                    nxt[child] = p
            if ghosty or f == 8:
                continue
            t = NEXT[sq * 9 + f]
            if t < 0:
                continue
            em = env[0]
            occ = em[t]
            if occ == 0:
                child = (eid * 64 + t) * 9 + f
                if child not in visited:
                    p = prefix + (T_STEP,)
                    old = nxt.get(child)
                    if old is None or p < old:
                        nxt[child] = p
                continue
            if OWNER[occ] == me:
                continue
            kind = attack_kind(face0 + 6 * f, occ, env[2])
            if kind == O_FAIL:
                continue  # costs a point, changes nothing: dominated
            if kind == O_CONVERT:
                for e in range(9):
                    m2, p2, l2, c2 = em[:], env[1][:], env[2][:], env[3][:]
                    convert(m2, p2, l2, c2, t, me, e)
                    eid2 = intern(m2, p2, l2, c2)
                    row = T_CONVERT
                    for d in range(9):
                        child = (eid2 * 64 + sq) * 9 + d
                        if child in visited:
                            continue
                        p = prefix + (row[d][e],)
                        old = nxt.get(child)
                        if old is None or p < old:
                            nxt[child] = p
                continue
            m2, p2, l2, c2 = em[:], env[1][:], env[2][:], env[3][:]
            if kind == O_CAPTURE:
                m2[t] = 0
                leave(occ, p2, l2, c2)
                dest = t
            elif kind == O_PUSH:
                push(m2, p2, l2, c2, t, f)
                dest = t
            else:
                strip(m2, p2, t)
                dest = sq
            eid2 = intern(m2, p2, l2, c2)
            for d in range(9):
                child = (eid2 * 64 + dest) * 9 + d
                if child in visited:
                    continue
                p = prefix + (T_HIT[d],)
                old = nxt.get(child)
                if old is None or p < old:
                    nxt[child] = p
        if not nxt:
            break
        visited.update(nxt)
        layer = list(nxt)

    # Candidates: every node, with no addition or one addable colour.
    for node, prefix in visited.items():
        f = node % 9
        rest = node // 9
        sq = rest % 64
        eid = rest // 64
        m_env, p_env, l_env, c_env, over = envs[eid]
        mc = face0 + 6 * f
        toks = head + prefix if prefix else head
        if eid == 0:
            if sq == sq0 and mc == code0:
                offer(PASS_KEY, toks)
            else:
                k = (piece_base + sq) * NCODES + mc
                if k in best:
                    offer(k, toks)
                else:
                    best[k] = (len(toks), toks)
        else:
            if base_g_t is None:
                base_g_t = tuple(base_g)
            fm = m_env[:]
            fm[sq] = mc
            lt = tuple(l_env)
            offer((tuple(fm), base_g_t, lt), toks)
        if over:
            continue
        slot = ADDABLE[mc]
        if slot < 0:
            continue
        ntok2 = len(toks) + 1
        for col in range(7):
            if p_env[col * 2 + slot] <= 0:
                continue
            mc2 = WITH_FIELD[col][mc]
            toks2 = toks + (T_ADD[col],)
            if eid == 0 and col != CLEAR and not (sq == sq0 and mc2 == code0):
                k = (piece_base + sq) * NCODES + mc2
                if k in best:
                    offer(k, toks2)
                else:
                    best[k] = (ntok2, toks2)
                continue
            if col == CLEAR and not GHOST[mc] and base_g[sq]:
                # FFF-26: going out of phase on a shared square destroys both.
                fm = m_env[:]
                fg = base_g[:]
                lo, cn, pl = l_env[:], c_env[:], p_env[:]
                other = fg[sq]
                fg[sq] = 0
                leave(mc2, pl, lo, cn)
                leave(other, pl, lo, cn)
                offer((tuple(fm), tuple(fg), tuple(lo)), toks2)
            elif eid == 0:
                if sq == sq0 and mc2 == code0:
                    offer(PASS_KEY, toks2)
                else:
                    offer((piece_base + sq) * NCODES + mc2, toks2)
            else:
                fm = m_env[:]
                if GHOST[mc2]:
                    fg = base_g[:]
                    fg[sq] = mc2
                    offer((tuple(fm), tuple(fg), tuple(l_env)), toks2)
                else:
                    fm[sq] = mc2
                    if base_g_t is None:
                        base_g_t = tuple(base_g)
                    offer((tuple(fm), base_g_t, tuple(l_env)), toks2)


def legal_turns_reference(main, ghost, pool, lost, cnt, me) -> list[tuple[int, ...]]:
    """`legal_turns` as `generate` gives it: the slower reference the fast one is tested
    against (same turns, same order)."""
    return [v[1] for v in generate(main, ghost, pool, lost, cnt, me).values()]


_TURN1 = tuple((T_TURN[d],) for d in range(9))
_STEP1 = (T_STEP,)
_HIT1 = tuple((T_HIT[d],) for d in range(9))
_CONV1 = tuple(tuple((T_CONVERT[d][e],) for d in range(9)) for e in range(9))
_ADD1 = tuple((T_ADD[c],) for c in range(7))
_R9 = tuple(range(9))
_AFTER = 64 * 9  # nodes from here on stand on a board an attack changed (see `_search`)
_OTHERS = tuple(tuple(d for d in range(9) if d != f) for f in range(9))
_R64 = range(64)
_QK = tuple(qcode(k >> 1, k & 1 == 1) for k in range(128))  # piece k = sq * 2 + out of phase
_WITHOUT_OUTER = tuple(without_outer(c) if NFIELDS[c] else c for c in range(NCODES))
_ADDS_BY_MASK = [tuple(_ADD1[c] for c in range(7) if m >> c & 1) for m in range(128)]
_ADDS_AND_CLEAR = tuple((_ADDS_BY_MASK[m], m >= 64, m) for m in range(128))
# For `_reblock`: _MASK_COLOURS[m] the colours of mask m in order; _RANK[m][c] the place of
# colour c among them (-1: not there).
_MASK_COLOURS = tuple(tuple(c for c in range(7) if m >> c & 1) for m in range(128))
_RANK = tuple(tuple(_MASK_COLOURS[m].index(c) if m >> c & 1 else -1 for c in range(7))
              for m in range(128))
_COLOUR_BITS = tuple(1 << c for c in range(7))
_POOL_BITS = tuple(1 << (i // 2 + 7 * (i % 2)) for i in range(14))  # pool[colour * 2 + slot]


def _adds(pool, slot):
    """The additions a piece taking fields of size `slot` may make (one-token tuples, colour
    order, clear last), whether clear is among them, and their colours as a bit mask."""
    # pool[slot::2]: the colours' counts of that size, in colour order (never below 0).
    return _ADDS_AND_CLEAR[sum(compress(_COLOUR_BITS, pool[slot::2]))]


def legal_turns(main, ghost, pool, lost, cnt, me) -> list[tuple[int, ...]]:
    """Every distinct whole turn, canonical form, `pass` (the empty tuple) first: exactly
    `generate`'s turns in `generate`'s order (`fresh_turns` builds them).

    A new list on every call, so a caller may change it; the turn tuples in it (immutable)
    are shared with earlier answers. The last position asked for each side is remembered
    by content, so asking again for an unchanged position (a front end listing moves, then
    parsing one; a search revisiting a node; several callers sharing a state) copies the
    list instead of building it. Comparing the content costs about 1 us, nothing that has
    to be kept in step with the state's changes. A new position is searched piece by piece,
    a piece's turns taken from the last position searched for that side when nothing they
    depend on changed (`_turns`, `_PIECES`)."""
    key = (*main, *ghost, *pool, *lost, *cnt)
    last = _LAST[me]
    if last is not None and last[0] == key:
        return list(last[1])
    new: dict = {}
    out = _turns(main, ghost, pool, lost, cnt, me, _PIECES[me], new)
    _PIECES[me] = (main[:], set(compress(_R64, ghost)), new)
    _LAST[me] = (key, tuple(out))
    return out


# (position content, its turns) for the last position asked of `legal_turns`, per side to move.
_LAST: list[tuple[tuple[int, ...], tuple[tuple[int, ...], ...]] | None] = [None, None]
# Per side to move, the last position `legal_turns` searched: its main board, its
# out-of-phase squares and, per piece whose turns changed only itself, what they depend on and
# the turns (see `_turns`). Only that one position is kept: the next search for the side
# replaces it, so what it reuses is what the side's previous position had (in a game, the
# position two turns before).
_PIECES: list[tuple[list[int], set[int], dict] | None] = [None, None]

# _AROUND[sq]: the square and its (up to) eight neighbours.
_AROUND = tuple(frozenset(x for x in range(64)
                          if max(abs(x % 8 - sq % 8), abs(x // 8 - sq // 8)) <= 1)
                for sq in range(64))
# _POOLS[code]: 127 << 7 * s for each pool slot s (0: 2-pip, 1: 3-pip) the piece may take a
# field of, with its removal or without: the bits of the pool colours its turns depend on.
_POOLS = [0] * NCODES
for _c in range(1, NCODES):
    for _s in (ADDABLE[FACE0[_c]], ADDABLE[FACE0[without_outer(_c)]] if NFIELDS[_c] else -1):
        if _s >= 0:
            _POOLS[_c] |= 127 << 7 * _s


# _SEEN[me][code]: what a search by `me`'s piece tells apart of an in-phase piece: nothing
# there (0), an own piece (1: it blocks, whatever it is), an enemy by its defence and whether
# it has fields (2 + 2 * defence + has fields: it blocks, and whether an attack on it does
# something depends on these alone, FFF-8, FFF-22: an orange attack one short strips a
# defender's fields, FFF-12, which is nothing at all on a bare one, so a bare enemy that takes
# a field at the same defence makes the orange attacker's strip a turn of its own).
_SEEN = [[0 if not c else 1 if OWNER[c] == me else 2 + 2 * DEFENCE[c] + (NFIELDS[c] > 0)
          for c in range(NCODES)] for me in (0, 1)]


def fresh_turns(main, ghost, pool, lost, cnt, me) -> list[tuple[int, ...]]:
    """`legal_turns` without any memory: the turns built now, every piece searched."""
    return _turns(main, ghost, pool, lost, cnt, me, None, None)


def _turns(main, ghost, pool, lost, cnt, me, old, new) -> list[tuple[int, ...]]:
    """The turns of the position, built piece by piece in generate's order.

    `generate` files every candidate in one dict by result key. Here most candidates need no
    key: while only the mover changed, candidates of one piece cannot meet another piece's,
    and within a piece they are distinct by construction (a node is visited once; an
    addition adds a field), except one case: after removing colour C, adding C back gives a
    result the no-removal search already reached with fewer tokens (same node, no removal,
    at most as many points needed) unless that search could not reach the node (an
    out-of-phase piece stands still). So those are appended directly, in generate's order, and
    only results that changed other pieces (attacks, destruction) go through a dict, which
    keeps the first position and the best text as `generate`'s `offer` does.

    Memory of pieces (`old`: an earlier position of this side as `legal_turns` keeps it in
    `_PIECES`: its main board, its out-of-phase squares, and its pieces' entries; `new`: the
    dict to fill with this position's entries; both None for no memory). The turns of a piece
    that changed only itself (nothing went through the dict) depend on its code and square,
    on which pool colours of the sizes it may take are left, and on the boards only where its
    searches looked: its own square and the square ahead of each node they expanded, so
    within one square of the squares they expanded (`_fast_search`'s `expanded`). There a
    search tells apart only an empty square, an own piece, an enemy by its defence and whether
    it has fields (`_SEEN`: an attack that does something went through the dict; an orange
    strip of a bare enemy did nothing, FFF-12), and whether an out-of-phase piece
    stands there (going out of phase on its square destroys both, FFF-26). Lost and piece
    counts matter only once an attack did something. So a piece whose code is as in `old`,
    with no such change within one square of where it looked, has `old`'s turns, the same
    tuples in the same order; if only its pool colours changed, `_regrow` gives them the new
    additions. Entry: (code, pool colours it depends on, squares it looked around, turns,
    how many of them the first search gave, the removal search's additions as a colour mask
    or None when they differ from node to node)."""
    out: list[tuple[int, ...]] = [()]
    bidx: dict = {}
    nboff = 0

    def boffer(key, toks):
        nonlocal nboff
        nboff += 1
        n = len(out)
        i = bidx.setdefault(key, n)  # one hash of the board, not two
        if i == n:
            out.append(toks)
        else:
            old = out[i]
            if len(toks) < len(old) or (len(toks) == len(old) and toks < old):
                out[i] = toks

    gsq = list(compress(_R64, ghost))
    pmask = sum(compress(_POOL_BITS, pool))  # bit colour + 7 * slot: that field is left
    adds_base = (_ADDS_AND_CLEAR[pmask & 127], _ADDS_AND_CLEAR[pmask >> 7])
    base_m = main[:]  # the mover is lifted off these and put back, piece by piece
    base_g = ghost[:]
    # Own pieces in the order a1, a1~, b1, ... (square, then in-phase before out-of-phase).
    owner = OWNER
    pieces = [sq * 2 for sq in compress(_R64, main) if owner[main[sq]] == me]
    if gsq:
        pieces += [g * 2 + 1 for g in gsq if OWNER[ghost[g]] == me]
        pieces.sort()
    if old is not None:
        # The squares whose content changed since `old` as a search sees it (`_SEEN`; an
        # out-of-phase piece or none), and the squares next to them.
        om = old[0]
        seen = _SEEN[me]
        changed = {sq for sq in compress(_R64, map(ne, main, om)) if seen[main[sq]] != seen[om[sq]]}
        changed.update(old[1].symmetric_difference(gsq))
        near = set().union(*map(_AROUND.__getitem__, changed))
        old_get = old[2].get
    for k in pieces:
        sq0 = k >> 1
        code0 = ghost[sq0] if k & 1 else main[sq0]
        if new is not None:
            pkey = pmask & _POOLS[code0]
            if old is not None:
                e = old_get(k)
                if e is not None and e[0] == code0 and near.isdisjoint(e[2]):
                    if e[1] == pkey:
                        out.extend(e[3])
                        new[k] = e
                        continue
                    if e[5] is not None:  # only the pool changed: new additions
                        e = _regrow(e, k, pkey, gsq)
                        if e is not None:
                            out.extend(e[3])
                            new[k] = e
                            continue
            n0 = len(out)
            b0 = nboff
        if k & 1:
            base_g[sq0] = 0
        else:
            base_m[sq0] = 0
        q = _QK[k]
        head = (q,)
        seen1, simple, exp1, _ = _fast_search(me, sq0, code0, code0, head, base_m, base_g,
                                              pool, lost, cnt, out, boffer, None, -1, gsq,
                                              adds_base)
        n1 = len(out)
        exp2 = None
        lay2: int | None = 0
        if NFIELDS[code0]:
            exp2, lay2 = _removal(me, sq0, code0, q, base_m, base_g, pool, lost, cnt, out,
                                  boffer, gsq, adds_base, seen1, simple)
        if k & 1:
            base_g[sq0] = code0
        else:
            base_m[sq0] = code0
        if new is not None and nboff == b0:
            new[k] = (code0, pkey, exp1 | exp2 if exp2 else exp1, out[n0:], n1 - n0, lay2)
    return out


def _regrow(e, k, pkey, gsq):
    """The memory entry `e` of piece `k` (see `_turns`) for a position that differs from
    its own, where the piece looked, only in which pool colours the piece may take (`pkey`):
    the same nodes, with the additions the pool now allows. None when that cannot be told
    without searching again: clear may now be added where an out-of-phase piece stands
    near (FFF-26).

    The turns of a piece that changed only itself come in blocks (`_fast_search`): the
    first search's start with each addition, then each node followed by the node with each
    addition; the removal search the same without the start's block, its additions leaving
    out the removed colour when every node is one the first search reached (the layout
    `_turns` keeps). So a colour's turns are every (1 + additions)th tuple from its place: a
    slice, reused; a colour newly allowed is one `map` over the nodes."""
    code0, okey, deps, turns, n1, was2 = e
    s0 = ADDABLE[FACE0[code0]]
    was1 = now1 = now2 = 0
    if s0 >= 0:
        was1 = okey >> 7 * s0 & 127
        now1 = pkey >> 7 * s0 & 127
    destroys = now1 >= 64 and not GHOST[code0]  # 64: clear's bit
    if NFIELDS[code0]:
        c1 = _WITHOUT_OUTER[code0]
        s1 = ADDABLE[FACE0[c1]]
        if s1 >= 0:
            # Every node is one the first search reached: all but the removed colour (which
            # the removal gives back to the pool, so its count does not matter).
            now2 = pkey >> 7 * s1 & 127 & ~(1 << FIELDS[code0][-1])
            destroys = destroys or (now2 >= 64 and not GHOST[c1])
    if now1 == was1 and now2 == was2:  # the colours that changed are none this piece takes
        return (code0, pkey, deps, turns, n1, was2)
    sq0 = k >> 1
    if destroys:
        for g in gsq:
            if g == sq0:
                if not k & 1:  # another piece's square, not the out-of-phase mover's own
                    return None
            elif not deps.isdisjoint(_AROUND[g]):
                return None
    new = _reblock(turns, 0, n1, was1, now1, (_QK[k],))
    m1 = len(new)
    if n1 < len(turns):
        new += _reblock(turns, n1, len(turns), was2, now2, None)
    return (code0, pkey, deps, new, m1, now2)


def _reblock(turns, lo, hi, was, now, head):
    """One search's turns, `turns[lo:hi]` (each node followed by its additions of the
    colours in mask `was`, after the start's additions when `head` is given), with the
    colours `now` instead: each kept column moved by one slice assignment, a new colour's
    column one `map` over the nodes."""
    rank = _RANK[was]
    step = len(_MASK_COLOURS[was]) + 1
    first = lo + step - 1 if head is not None else lo  # the first node
    nodes = turns[first:hi:step]
    cols = _MASK_COLOURS[now]
    if not cols:
        return nodes
    step2 = len(cols) + 1
    lead = len(cols) if head is not None else 0
    res: list = [None] * (lead + len(nodes) * step2)
    res[lead::step2] = nodes
    i = lead
    for c in cols:
        i += 1
        j = rank[c]
        if j >= 0:
            res[i::step2] = turns[first + 1 + j:hi:step]
            if head is not None:
                res[i - lead - 1] = turns[lo + j]
        else:
            a = _ADD1[c]
            res[i::step2] = map(add, nodes, repeat(a))
            if head is not None:
                res[i - lead - 1] = head + a
    return res


def _removal(me, sq0, code0, q, base_m, base_g, pool, lost, cnt, out, boffer, gsq,
             adds_base, seen1, simple):
    """The turns of one piece, lifted off `base_m`/`base_g`, that start by removing its
    outermost field (`seen1`: the nodes of its turns without the removal; `simple`: that
    search met no attack that does anything and no destruction). Returns the squares its
    search expanded (None when it searched nothing the first search had not) and, when
    every node is one the first search reached, the additions each came with (all but the
    removed colour; None otherwise): what `_regrow` needs."""
    rem = FIELDS[code0][-1]
    c1 = _WITHOUT_OUTER[code0]
    head = (q, T_REMOVE[rem])
    released = RELEASE[code0][-1]
    pool1 = pool[:]
    pool1[released] += 1
    if simple and POINTS[c1] == POINTS[code0] and GHOST[c1] == GHOST[code0]:
        # The same points and phase, and a weaker attacker (a removal takes red, green,
        # purple or orange away, never adds them): where the first search's attacks all
        # failed, these fail too, so this search is the first one, the removal token
        # inserted. Every node is one the first search reached: no addition of the removed
        # colour (the first search has that result in fewer tokens).
        slot = ADDABLE[FACE0[c1]]
        # The start, its eight turns (shared tuples), then the rest in the first search's
        # order, which starts the same way.
        start = sq0 * 9 + (c1 - FACE0[c1]) // 6
        turns0 = _START_TURNS.get((head, start))
        if turns0 is None:
            turns0 = _start_turns(head, start)
        toks = [head]
        toks += turns0.values()
        toks += [head + v[1:] for v in islice(seen1.values(), 9, None)]
        if slot < 0:
            out.extend(toks)
            return None, 0
        _, clear_av, amask = adds_base[slot] if pool[released] else _adds(pool1, slot)
        if not (clear_av and not GHOST[c1] and _ghost_in_reach(gsq, base_g, sq0,
                                                                POINTS[c1])):
            kept = amask & ~(1 << rem)
            out.extend(starmap(add, product(toks, ((),) + _ADDS_BY_MASK[kept])))
            return None, kept
    if GHOST[code0] and not GHOST[c1] and base_m[sq0]:
        m = base_m[:]
        lo, cn, pl = lost[:], cnt[:], pool1[:]
        other = m[sq0]
        m[sq0] = 0
        leave(c1, pl, lo, cn)
        leave(other, pl, lo, cn)
        boffer((tuple(m), tuple(base_g), tuple(lo)), head)
        return None, None
    # The released field changes which additions are open only if its size was used up.
    return _fast_search(me, sq0, code0, c1, head, base_m, base_g, pool1, lost, cnt, out,
                        boffer, seen1, rem, gsq, adds_base if pool[released] else None)[2:]


def _ghost_in_reach(gsq, base_g, sq0, reach) -> bool:
    """Whether an out-of-phase piece (other than the lifted mover) stands within `reach`
    king steps of `sq0`: where the mover could go out of phase on its square (FFF-26)."""
    row = sq0 * 64
    for g in gsq:  # noqa: SIM110 - a loop: any() over a generator costs more here
        if base_g[g] and CHEB[row + g] <= reach:
            return True
    return False


def _intern(envs, interned, base_m, lost, m2, p2, l2, c2) -> int:
    """The id of the board an attack left (`m2`, lost counts `l2`), by content: two attack
    orders reaching one board share it (0: the board before any attack)."""
    if not interned:
        interned[(tuple(base_m), tuple(lost))] = 0
    key = (tuple(m2), tuple(l2))
    eid = interned.get(key)
    if eid is None:
        eid = interned[key] = len(envs)
        envs.append((m2, p2, l2, c2, any_eliminated(c2)))
    return eid


def _attack(me, face0, f, sq, t, occ, env, prefix, envs, interned, base_m, lost, visited,
            nxt) -> bool:
    """The children of a search node (mover on `sq` facing `f`, board `env`) attacking the
    enemy piece `occ` on `t` (FFF-8, FFF-22): none when it fails (it only burns a point),
    else the mover's nine facings after it on the board it leaves. True unless it fails."""
    em = env[0]
    kind = attack_kind(face0 + 6 * f, occ, env[2])
    if kind == O_FAIL:
        return False
    if kind == O_CONVERT:
        for e in _R9:
            m2, p2, l2, c2 = em[:], env[1][:], env[2][:], env[3][:]
            convert(m2, p2, l2, c2, t, me, e)
            eid2 = _intern(envs, interned, base_m, lost, m2, p2, l2, c2)
            row = _CONV1[e]
            cbase = (eid2 * 64 + sq) * 9
            for d in _R9:
                child = cbase + d
                if child in visited:
                    continue
                p = prefix + row[d]
                old = nxt.get(child)
                if old is None or p < old:
                    nxt[child] = p
        return True
    m2, p2, l2, c2 = em[:], env[1][:], env[2][:], env[3][:]
    if kind == O_CAPTURE:
        m2[t] = 0
        leave(occ, p2, l2, c2)
        dest = t
    elif kind == O_PUSH:
        push(m2, p2, l2, c2, t, f)
        dest = t
    else:
        strip(m2, p2, t)
        dest = sq
    eid2 = _intern(envs, interned, base_m, lost, m2, p2, l2, c2)
    cbase = (eid2 * 64 + dest) * 9
    for d in _R9:
        child = cbase + d
        if child in visited:
            continue
        p = prefix + _HIT1[d]
        old = nxt.get(child)
        if old is None or p < old:
            nxt[child] = p
    return True


# (head, start node) -> {node: turn tuple} for the eight turns on the start square: the same
# tuples for every search from there, built once. At most _START_KEPT of them (about 1 KB
# each; there are 128 selections x 8 removal choices x 9 facings), emptied when full.
_START_TURNS: dict = {}
_START_KEPT = 2048


def _start_turns(head, start) -> dict:
    f0 = start % 9
    base = start - f0
    turns = {base + d: head + _TURN1[d] for d in _OTHERS[f0]}
    if len(_START_TURNS) >= _START_KEPT:
        _START_TURNS.clear()
    _START_TURNS[(head, start)] = turns
    return turns


def _fast_search(me, sq0, code0, c1, head, base_m, base_g, pool1, lost, cnt, out, boffer,
                 seen1, rem, gsq, adds_base):
    """`_search` for one piece and removal choice, appending mover-only results to `out`.
    `seen1`: the first (no-removal) search's visited nodes, when this is the removal search
    (`rem` the removed colour); `gsq` the squares with an out-of-phase piece; `adds_base` what
    `_adds(pool1, slot)` gives for slots 0 and 1, when known (None: work it out). Returns this
    search's visited nodes (node -> turn), `simple` for `_removal` (no attack did anything), the
    squares it expanded (what it looked at, for `_turns`' memory), and for the removal search
    the colour mask of the additions every node came with (None when they differ)."""
    envs = [(base_m, pool1, lost, cnt, False)]
    interned: dict = {}
    face0 = FACE0[c1]
    f0 = (c1 - face0) // 6
    start = sq0 * 9 + f0
    visited = {start: head}  # node -> its whole token tuple (selection and removal first)
    turn1 = _TURN1
    points = POINTS[c1]
    hit = False  # an attack that does something was met
    env_from = -1
    turns0 = _START_TURNS.get((head, start))
    if turns0 is None:
        turns0 = _start_turns(head, start)
    if GHOST[c1]:
        # Out of phase: no step, no attack (FFF-14); the turns from the start are all.
        if points:
            visited.update(turns0)
        points = 0
        expanded = {sq0}  # it reads no square but its own (see `_turns`)
    else:
        # The start, alone on its square: its eight turns are new.
        nxt = turns0.copy()
        expanded = {sq0}  # squares (eid * 64 + sq) whose nine facings are all visited
        # a list, then an iterator over its rest, then a view of the last finished layer
        layer: Iterable[tuple[int, tuple[int, ...]]] = [(start, head)]
    for _depth in range(points):
        if _depth:
            nxt = {}
        nxt_get = nxt.get
        newly: list = []
        if _depth == 1:
            # The start's eight turns come first in this layer; each steps (or attacks) into
            # a different square, none reached before: no checks needed.
            it = iter(layer)
            for node, prefix in islice(it, 8):
                t = NEXT[node]
                if t < 0:
                    continue
                occ = base_m[t]
                if occ == 0:
                    nxt[t * 9 + node % 9] = prefix + _STEP1
                elif OWNER[occ] != me and _attack(me, face0, node % 9, sq0, t, occ, envs[0],
                                                  prefix, envs, interned, base_m, lost,
                                                  visited, nxt):
                    hit = True
            layer = it
        for node, prefix in layer:
            f = node % 9
            rest = node // 9
            if rest < 64:  # the board before any attack: node is sq * 9 + f
                if rest not in expanded:
                    newly.append(rest)
                    base = node - f
                    for d in _OTHERS[f]:
                        child = base + d
                        if child in visited:
                            continue
                        old = nxt_get(child)
                        if old is None:
                            nxt[child] = prefix + turn1[d]
                        else:
                            p = prefix + turn1[d]
                            if p < old:
                                nxt[child] = p
                t = NEXT[node]
                if t < 0:
                    continue
                occ = base_m[t]
                if occ == 0:
                    child = t * 9 + f
                    if child not in visited:
                        old = nxt_get(child)
                        if old is None:
                            nxt[child] = prefix + _STEP1
                        else:
                            p = prefix + _STEP1
                            if p < old:
                                nxt[child] = p
                    continue
                if OWNER[occ] == me:
                    continue
                sq = rest
                env = envs[0]
            else:
                env = envs[rest // 64]
                if env[4]:
                    continue  # FFF-27: the game is decided, nothing may follow
                if rest not in expanded:
                    newly.append(rest)
                    base = node - f
                    for d in _OTHERS[f]:
                        child = base + d
                        if child in visited:
                            continue
                        old = nxt_get(child)
                        if old is None:
                            nxt[child] = prefix + turn1[d]
                        else:
                            p = prefix + turn1[d]
                            if p < old:
                                nxt[child] = p
                sq = rest % 64
                t = NEXT[sq * 9 + f]
                if t < 0:
                    continue
                occ = env[0][t]
                if occ == 0:
                    child = (rest - sq + t) * 9 + f
                    if child not in visited:
                        old = nxt_get(child)
                        if old is None:
                            nxt[child] = prefix + _STEP1
                        else:
                            p = prefix + _STEP1
                            if p < old:
                                nxt[child] = p
                    continue
                if OWNER[occ] == me:
                    continue
            if _attack(me, face0, f, sq, t, occ, env, prefix, envs, interned, base_m, lost,
                       visited, nxt):
                hit = True
        expanded.update(newly)
        if not nxt:
            break
        if env_from < 0 and len(envs) > 1:
            env_from = len(visited)  # no node before this one stands after an attack
        visited.update(nxt)
        layer = nxt.items()  # a view of the finished layer (a new dict is built next)

    # Candidates, in generate's order: each node, with no addition, then each colour.
    # While only the mover changed, the addable size and phase are the same at every node
    # (they do not depend on the facing): the additions of a node are one map over a list.
    slot = ADDABLE[face0]
    if slot < 0 and len(envs) == 1:  # no addition anywhere: the nodes are the turns
        values = iter(visited.values())
        if seen1 is None:
            next(values)  # the start, unchanged: the pass
        out.extend(values)
        return visited, not hit, expanded, 0
    ghost_m = GHOST[face0]
    clear_av = False
    if slot >= 0:
        adds_all, clear_av, amask = (adds_base[slot] if adds_base is not None
                                     else _adds(pool1, slot))
        adds_norem = adds_all
        if rem >= 0:
            amask &= ~(1 << rem)
            adds_norem = _ADDS_BY_MASK[amask]
        clear1 = _ADD1[CLEAR]
    # Going out of phase on a square where an out-of-phase piece stands destroys both
    # (FFF-26): only then does a node's addition need its square looked at.
    special = bool(gsq) and clear_av and not ghost_m and _ghost_in_reach(gsq, base_g, sq0,
                                                                          POINTS[c1])
    if len(envs) == 1 and seen1 is None and not special:
        # The common case: nothing but the mover changes, no removal, no destruction.
        values = iter(visited.values())
        first = next(values)  # the start, unchanged: the pass, but additions to it count
        out.extend(map(first.__add__, adds_all))
        # Each node, then the node with each addition: one C-level pass (`t + ()` is `t`).
        out.extend(starmap(add, product(values, ((),) + adds_all)))
        return visited, not hit, expanded, None
    if len(envs) == 1 and not special:
        # The removal search: a node the first search reached loses the removed colour's
        # addition (the first search has that result in fewer tokens).
        suf_all = ((),) + adds_all
        suf_norem = ((),) + adds_norem
        known = visited.keys() & seen1.keys()
        if not known or len(known) == len(visited):  # one kind of node: one C-level pass
            out.extend(starmap(add, product(visited.values(),
                                            suf_norem if known else suf_all)))
            # (The start is a node of both searches, so `known` is never empty.)
            return visited, not hit, expanded, amask if known else None
        nk = len(known)
        if known.issuperset(islice(visited, nk)):
            # The known nodes come first (an out-of-phase piece back in phase: the start
            # and its turns, then the squares it steps to): two C-level passes.
            values = iter(visited.values())
            out.extend(starmap(add, product(islice(values, nk), suf_norem)))
            out.extend(starmap(add, product(values, suf_all)))
            return visited, not hit, expanded, None
        # Per node, in order, its suffixes: (turn,) x suffixes, flattened, concatenated.
        sufs = map((suf_all, suf_norem).__getitem__, map(known.__contains__, visited))
        out.extend(starmap(add, chain.from_iterable(map(product, zip(visited.values()),
                                                        sufs))))
        return visited, not hit, expanded, None
    base_g_t = tuple(base_g)
    if not special:
        # Attacks did something: the nodes after one file their results in the dict, one by
        # one; the runs of nodes between them (the board before any attack) go in bulk as
        # above, in the same order.
        keys = list(visited)
        vals = list(visited.values())
        n = len(keys)
        cuts = list(compress(range(env_from, n),
                             map(ge, islice(keys, env_from, None), repeat(_AFTER))))
        cuts.append(n)
        lo = 0
        for hi in cuts:
            if lo < hi:
                if seen1 is None:
                    if lo == 0:  # the start, unchanged: the pass, but additions to it count
                        if slot >= 0:
                            out.extend(map(head.__add__, adds_all))
                        lo = 1
                    if slot < 0:
                        out.extend(islice(vals, lo, hi))
                    else:
                        out.extend(starmap(add, product(islice(vals, lo, hi),
                                                        ((),) + adds_all)))
                elif slot < 0:
                    out.extend(islice(vals, lo, hi))
                else:
                    sufs = map((((),) + adds_all, ((),) + adds_norem).__getitem__,
                               map(seen1.__contains__, islice(keys, lo, hi)))
                    out.extend(starmap(add, chain.from_iterable(
                        map(product, zip(islice(vals, lo, hi)), sufs))))
            if hi < n:
                _attacked(keys[hi], vals[hi], face0, envs, base_g, base_g_t, slot, boffer)
            lo = hi + 1
        return visited, False, expanded, None
    # The clear addition is looked at node by node.
    adds_all = adds_all[:-1]
    adds_norem = adds_norem[:-1] if rem != CLEAR else adds_norem
    append = out.append
    for node, toks in visited.items():
        rest = node // 9
        if rest < 64:  # nothing changed but the mover
            if seen1 is None:
                if node != start:  # the start itself, unchanged, is the pass
                    append(toks)
                in1 = False
            else:
                append(toks)
                in1 = node in seen1
            out.extend(map(toks.__add__, adds_norem if in1 else adds_all))
            if base_g[rest]:
                # FFF-26: going out of phase on a shared square destroys both.
                mc2 = WITH_FIELD[CLEAR][face0 + 6 * (node % 9)]
                fm = base_m[:]
                fg = base_g[:]
                lo, cn, pl = lost[:], cnt[:], pool1[:]
                other = fg[rest]
                fg[rest] = 0
                leave(mc2, pl, lo, cn)
                leave(other, pl, lo, cn)
                boffer((tuple(fm), tuple(fg), tuple(lo)), toks + clear1)
            elif not (rem == CLEAR and in1):  # else: the no-removal search has it
                append(toks + clear1)
            continue
        _attacked(node, toks, face0, envs, base_g, base_g_t, slot, boffer)
    return visited, False, expanded, None


def _attacked(node, toks, face0, envs, base_g, base_g_t, slot, boffer) -> None:
    """The results of a node after an attack did something (`node` >= _AFTER): the mover
    placed on the board the attacks left, with no addition and each one the pool allows,
    filed by the whole position (another piece's turn may give the same one)."""
    rest = node // 9
    mc = face0 + 6 * (node % 9)
    sq = rest % 64
    m_env, p_env, l_env, c_env, over = envs[rest // 64]
    fm = m_env[:]
    fm[sq] = mc
    boffer((tuple(fm), base_g_t, tuple(l_env)), toks)
    if over or slot < 0:
        return
    for col in range(7):
        if p_env[col * 2 + slot] <= 0:
            continue
        mc2 = WITH_FIELD[col][mc]
        toks2 = toks + _ADD1[col]
        if col == CLEAR and not GHOST[mc] and base_g[sq]:
            fm = m_env[:]
            fg = base_g[:]
            lo, cn, pl = l_env[:], c_env[:], p_env[:]
            other = fg[sq]
            fg[sq] = 0
            leave(mc2, pl, lo, cn)
            leave(other, pl, lo, cn)
            boffer((tuple(fm), tuple(fg), tuple(lo)), toks2)
        else:
            fm = m_env[:]
            if GHOST[mc2]:
                fg = base_g[:]
                fg[sq] = mc2
                boffer((tuple(fm), tuple(fg), tuple(l_env)), toks2)
            else:
                fm[sq] = mc2
                boffer((tuple(fm), base_g_t, tuple(l_env)), toks2)


def result_key(main0, ghost0, lost0, sq0, slot0, code0, main, ghost, lost, sq, code,
               destroyed):
    """The key `generate` files a turn's result under, for a turn played out elsewhere (the
    step encoding): `main`/`ghost` are the boards with the mover lifted off (as `rules.play`
    lifts it) and the mover now `code` on `sq` (unless `destroyed`).

    While nothing but the mover changed the key is the small int (piece, square, code), or
    PASS_KEY for the unchanged position; otherwise the whole board, mover placed."""
    if not destroyed and lost == lost0:
        if slot0:
            same = main == main0 and ghost[sq0] == 0 and _equal_but(ghost, ghost0, sq0)
        else:
            same = ghost == ghost0 and main[sq0] == 0 and _equal_but(main, main0, sq0)
        if same:
            if sq == sq0 and code == code0:
                return PASS_KEY
            return ((sq0 * 2 + slot0) * 64 + sq) * NCODES + code
    m, g = main[:], ghost[:]
    if not destroyed:
        if GHOST[code]:
            g[sq] = code
        else:
            m[sq] = code
    return (tuple(m), tuple(g), tuple(lost))


def _equal_but(a: list[int], b: list[int], i: int) -> bool:
    return a[:i] == b[:i] and a[i + 1:] == b[i + 1:]


def canonical(main0, ghost0, pool0, lost0, cnt0, me, key) -> tuple[int, ...]:
    """The canonical turn (FFF-31) whose result has `key` (see `result_key`)."""
    if key == PASS_KEY:
        return ()
    found = generate(main0, ghost0, pool0, lost0, cnt0, me).get(key)
    if found is None:  # pragma: no cover - every legal token sequence's result is listed
        raise AssertionError("a turn's result is missing from the turn generator")
    return found[1]


# ---- the canonical text of a turn that changed only its mover (the step encoding's end) ------
# CHEB[a * 64 + b]: king distance between squares; RAY[sq * 9 + f]: the squares ahead of `sq`
# along facing f (empty for U), as a set.
CHEB = [max(abs(a % 8 - b % 8), abs(a // 8 - b // 8)) for a in range(64) for b in range(64)]
RAY: list[frozenset[int]] = []
for _sq in range(64):
    for _f in range(9):
        _ray = []
        _x = NEXT[_sq * 9 + _f]
        while _x >= 0:
            _ray.append(_x)
            _x = NEXT[_x * 9 + _f]
        RAY.append(frozenset(_ray))


def _path(main: list[int], sq0: int, f0: int, ghosty: bool, points: int, target: int,
          f1: int) -> tuple[int, ...] | None:
    """The fewest, then ASCII-smallest, point tokens (turns and steps only) taking a mover
    from (sq0, facing f0) to (target, facing f1) within `points`, on the board `main` (the
    mover lifted); None if there is none. A breadth-first search like `_search`'s, keeping
    the ASCII-smallest prefix of each node at its first depth (every node of a shortest path
    is at its first depth), pruned by a lower bound on the points still needed: the king
    distance, plus one turn unless the target is straight ahead along the final facing. A
    pruned node lies on no path that arrives in time, so the answer is unchanged."""
    if sq0 == target:
        if f0 == f1:
            return ()
        if points >= 1:
            return (T_TURN[f1],)
        return None
    if ghosty or points < CHEB[sq0 * 64 + target]:
        return None
    layer = {sq0 * 9 + f0: ()}
    seen = {sq0 * 9 + f0}
    goal = target * 9 + f1
    base_t = target * 64
    for depth in range(1, points + 1):
        left = points - depth
        nxt: dict = {}
        for node, prefix in layer.items():
            f = node % 9
            sq = node // 9
            # turns (to another facing)
            base = node - f
            for d in range(9):
                if d == f:
                    continue
                child = base + d
                if child in seen:
                    continue
                if sq == target:
                    if d != f1:
                        continue
                elif CHEB[base_t + sq] + (d != f1 or target not in RAY[child]) > left:
                    continue
                p = prefix + (T_TURN[d],)
                old = nxt.get(child)
                if old is None or p < old:
                    nxt[child] = p
            if f == 8:
                continue
            t = NEXT[sq * 9 + f]
            if t < 0 or main[t]:
                continue
            child = t * 9 + f
            if child in seen:
                continue
            if t == target:
                if f != f1 and left < 1:
                    continue
            elif CHEB[base_t + t] + (f != f1 or target not in RAY[child]) > left:
                continue
            p = prefix + (T_STEP,)
            old = nxt.get(child)
            if old is None or p < old:
                nxt[child] = p
        if goal in nxt:
            return nxt[goal]
        if not nxt:
            return None
        seen.update(nxt)
        layer = nxt
    return None


def canonical_mover(main0, ghost0, pool0, sq0, slot0, code0, sq, code) -> tuple[int, ...]:
    """The canonical turn (FFF-31) whose only change is the mover: the piece selected on
    `sq0` (code `code0`, out of phase when `slot0`) now `code` on `sq`, nothing else changed.

    Such a turn holds no attack (an attack that changes nothing is dominated by a turn, which
    writes before it in ASCII), so it is: the selection, at most a removal, turns and steps,
    at most an addition. Each of the four field choices that can give the final fields is
    tried with its shortest, ASCII-smallest path (`_path`); the smallest whole turn wins. No
    other piece can give a position in which only this mover changed, so no other piece's
    turns need comparing (an attack changes its target; a destruction removes pieces)."""
    q = qcode(sq0, slot0 == 1)
    f1 = (code - FACE0[code]) // 6
    want = FACE0[code]
    f0 = (code0 - FACE0[code0]) // 6
    if slot0:
        main = main0
    else:
        main = main0[:]
        main[sq0] = 0
    best = None
    options = [(False, code0)]
    if NFIELDS[code0]:
        options.append((True, without_outer(code0)))
    for removed, cm in options:
        base = FACE0[cm]
        ghosty = GHOST[cm]
        if removed and ghosty is False and GHOST[code0] and main[sq0]:
            continue  # back in phase on a shared square: destroyed, not this result
        head = (q, T_REMOVE[FIELDS[code0][-1]]) if removed else (q,)
        adds: list[tuple[int, ...]] = []
        if base == want:
            adds.append(())
        slot = ADDABLE[base]
        if slot >= 0:
            for col in range(7):
                if FACE0[WITH_FIELD[col][base]] != want:
                    continue
                avail = pool0[col * 2 + slot] + (
                    1 if removed and RELEASE[code0][-1] == col * 2 + slot else 0)
                if avail <= 0:
                    continue
                if col == CLEAR and not ghosty and ghost0[sq] and not (slot0 and sq == sq0):
                    continue  # out of phase on a shared square: destroyed
                adds.append((T_ADD[col],))
        if not adds:
            continue
        path = _path(main, sq0, f0, ghosty, POINTS[cm], sq, f1)
        if path is None:
            continue
        for tail in adds:
            toks = head + path + tail
            if best is None or len(toks) < len(best) or (len(toks) == len(best)
                                                         and toks < best):
                best = toks
    if best is None:  # pragma: no cover - the steps reached this result somehow
        raise AssertionError("no turn gives this result")
    return best
