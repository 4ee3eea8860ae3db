"""`legal_actions()` builds a new position's turns piece by piece, taking a piece's turns from
the side's last searched position when nothing they depend on changed (issue 21,
`movegen._turns`). A caller relies on that memory never changing an answer: the turns must be
exactly those of a search without memory (`fresh_turns`, itself checked against the brute
force and the recorded digests), in the same order, and the rules' own reading of the new
position (the brute force). Checked here after the kinds of change the memory must notice:
the pool (which fields may be added), an out-of-phase piece coming near (FFF-26), an enemy
that an attack now does something to (a new defence; a bare enemy taking a field, which an
orange attack one short now strips, FFF-12), pieces moving; and after changes it may ignore."""

from __future__ import annotations

import random
from itertools import compress

from fff_brute import brute
from fff_helpers import GAME, setup

from boardct.games.fff import movegen
from boardct.games.fff.pieces import (
    BLUE,
    CLEAR,
    DEFENCE,
    FACE0,
    NFIELDS,
    OWNER,
    RED,
    SIZE,
    UP,
    YELLOW,
    make,
)


def args(state) -> tuple:
    return (state.main, state.ghost, state.pool, state.lost, state.cnt, state.turn)


def memory_of(main, ghost, pool, lost, cnt, me):
    """What `legal_turns` keeps of a searched position for the next one of its side."""
    pieces: dict = {}
    movegen._turns(main, ghost, pool, lost, cnt, me, None, pieces)
    return (main[:], set(compress(range(64), ghost)), pieces)


def from_memory(position_args, memory, counts=None) -> list:
    """The turns of a position built with `memory`; `counts` gets how many pieces came from
    it whole and how many with new additions (to make sure the checks below reach them)."""
    new: dict = {}
    regrow = movegen._regrow
    grown = [0]

    def counted(*a):
        e = regrow(*a)
        grown[0] += e is not None and e[3] is not a[0][3]
        return e

    movegen._regrow = counted
    try:
        turns = movegen._turns(*position_args, memory, new)
    finally:
        movegen._regrow = regrow
    if counts is not None:
        counts["whole"] += sum(e is memory[2].get(k) for k, e in new.items())
        counts["regrown"] += grown[0]
    return turns


def texts(state, turns) -> list[str]:
    return sorted(state.notation(t) for t in turns)


def brute_texts(state) -> list[str]:
    return sorted(t for _, t in brute(state).values())


# (before, after, what changed): Black to move in both; the pieces whose turns the memory
# must not reuse are next to the change, the others far from it.
PAIRS = [
    # The last 3-pip green comes back to the pool: d4 may add green again (new additions).
    ("B2d4N,B1h1N,W2a8S:g,W2b8S:g,W2c8S:g", "B2d4N,B1h1N,W2a8S:g,W2b8S:g,W2c8S"),
    # ... and is taken again: d4 may not.
    ("B2d4N,B1h1N:r,W2a8S:g,W2b8S:g,W2c8S", "B2d4N,B1h1N:r,W2a8S:g,W2b8S:g,W2c8S:g"),
    # The enemy ahead stands up from upright: d4's attack (1 against 1) now captures.
    ("B1d4N:r,B3h1N,W1d6U,W2e5S:b", "B1d4N:r,B3h1N,W1d6S,W2e5S:b"),
    # It loses its blue field: the orange strip (one short) now works, then the capture.
    ("B2d4N:o,B1h1N,W1d5S:bb,W2a8S", "B2d4N:o,B1h1N,W1d5S:b,W2a8S"),
    # The bare upright enemy ahead (defence 2) faces south with a blue field (defence 2 still):
    # d4's orange attack, one short, stripped nothing before (the same as turning, FFF-23) and
    # strips the blue field now (FFF-12), a turn of its own.
    ("B2d4N:o,B1h1N,W1d5U,W2a8S", "B2d4N:o,B1h1N,W1d5S:b,W2a8S"),
    # An out-of-phase enemy comes next to d4: stepping there and adding clear destroys both.
    ("B1d4N,B2h1N,W1a8S,W2c8S:c", "B1d4N,B2h1N,W1a8S,W2d5S:c"),
    # Clear comes back to the pool while an out-of-phase piece already stands next to d4.
    ("B1d4N,B2h1N,W1a7S:c,W1b7S:c,W1c7S:c,W2d5S:c",
     "B1d4N,B2h1N,W1a7S:c,W1b7S:c,W1c7S,W2d5S:c"),
    # An own piece next to d4 turns and takes a field: it still only blocks d4.
    ("B2d4N,B1d5N,B3h1N,W1a8S", "B2d4N,B1d5E:y,B3h1N,W1a8S"),
    # An enemy moves out of d4's way, another one in far away.
    ("B1d4N:y,B2d6S,W1d5S:bb,W2h6S", "B1d4N:y,B2d6S,W1e6S:bb,W2h5S"),
    # d4 leaves the square its out-of-phase partner stands on: back in phase is no longer
    # destruction (FFF-26), and the partner's own turns change.
    ("B1d4N:c,W2d4S,B2h1N,W1a8S", "B1d4N:c,W2d3S,B2h1N,W1a8S"),
]


def test_turns_from_memory_equal_the_rules_after_each_kind_of_change():
    counts = {"whole": 0, "regrown": 0}
    for before_text, after_text in PAIRS:
        before, after = setup(before_text), setup(after_text)
        assert before.turn == after.turn == 0
        memory = memory_of(*args(before))
        got = from_memory(args(after), memory, counts)
        assert got == movegen.fresh_turns(*args(after)), after_text
        assert texts(after, got) == brute_texts(after), after_text
    # The far pieces came from memory, some of them with new additions.
    assert counts["whole"] >= len(PAIRS) and counts["regrown"] >= 3


def _positions(seed: int, games: int, every: int) -> list:
    rng = random.Random(seed)
    out = []
    for _ in range(games):
        s = GAME.new(seed=rng.randrange(1 << 30))
        n = 0
        while not s.is_over:
            if n % every == every - 1:
                out.append(s.clone())
            s.apply(rng.choice(s.legal_actions()))
            n += 1
    return out


def _edit(rng: random.Random, a: tuple) -> tuple:
    """The position's lists with one or two small changes of a kind the memory must see or
    may ignore (not always a position the rules allow; the search takes any lists)."""
    main, ghost, pool, lost, cnt, me = (x[:] if isinstance(x, list) else x for x in a)
    for _ in range(rng.choice((1, 1, 2))):
        kind = rng.randrange(7)
        occupied = [sq for sq in range(64) if main[sq]]
        empty = [sq for sq in range(64) if not main[sq] and not ghost[sq]]
        if kind == 0:  # a pool count to or from zero
            i = rng.randrange(14)
            pool[i] = 0 if pool[i] else rng.randrange(1, 4)
        elif kind == 1 and empty:  # an out-of-phase piece appears, or one goes
            ghosts = [sq for sq in range(64) if ghost[sq]]
            if ghosts and rng.random() < 0.4:
                ghost[rng.choice(ghosts)] = 0
            else:
                size = rng.choice((1, 2))
                ghost[rng.choice(empty)] = make(rng.randrange(2), size, rng.randrange(9),
                                                (CLEAR,))
        elif kind == 2 and occupied:  # a piece turns (an enemy upright changes its defence)
            sq = rng.choice(occupied)
            c = main[sq]
            main[sq] = c - (c - FACE0[c]) + 6 * rng.choice((UP, rng.randrange(9)))
        elif kind == 3 and occupied and empty:  # a piece moves somewhere empty
            sq = rng.choice(occupied)
            main[rng.choice(empty)], main[sq] = main[sq], 0
        elif kind == 4 and occupied:  # a piece's fields go (its defence may drop)
            sq = rng.choice(occupied)
            c = main[sq]
            main[sq] = make(OWNER[c], SIZE[c], (c - FACE0[c]) // 6)
        elif kind == 5:  # nothing a piece can see: the lost counts
            lost[rng.randrange(6)] ^= 1
        elif kind == 6 and occupied:  # a bare piece takes a field (blue: its defence may
            # rise; any field: an orange attack one short now strips it, FFF-12)
            sq = rng.choice(occupied)
            c = main[sq]
            if not NFIELDS[c]:
                main[sq] = make(OWNER[c], SIZE[c], (c - FACE0[c]) // 6,
                                (rng.choice((RED, BLUE, YELLOW)),))
    return main, ghost, pool, lost, cnt, me


def test_turns_from_memory_equal_a_fresh_search_after_random_changes():
    """Mid-game positions from random games, each changed at random in small ways (one or two
    of: pool counts, out-of-phase pieces, facings, moves, fields lost or taken, lost counts) and
    searched with the memory of the unchanged position: the turns equal a search without
    memory."""
    rng = random.Random(2127)
    counts = {"whole": 0, "regrown": 0}
    positions = _positions(2127, 6, 9)
    assert len(positions) >= 40
    for s in positions:
        a = args(s)
        memory = memory_of(*a)
        for _ in range(5):
            b = _edit(rng, a)
            assert from_memory(b, memory, counts) == movegen.fresh_turns(*b), s.position()
        # Unchanged, every piece whose turns changed only itself comes from memory.
        assert from_memory(a, memory) == movegen.fresh_turns(*a)
    assert counts["whole"] > 10 * len(positions) and counts["regrown"] > len(positions)


def test_a_defence_change_is_seen_even_when_the_piece_stays():
    """The enemy on d5 goes from upright (defence 2) to facing south (defence 1) in place:
    the square is as full as before, but d4's attack now captures."""
    before = setup("B1d4N,B3h1N,W1d5U,W2a8S")
    after = setup("B1d4N,B3h1N,W1d5S,W2a8S")
    assert DEFENCE[before.main[35]] == 2 and DEFENCE[after.main[35]] == 1
    memory = memory_of(*args(before))
    got = [after.notation(t) for t in from_memory(args(after), memory)]
    assert "d4 xN" in got and "d4 xN" not in texts(before, before.legal_actions())


def test_legal_actions_along_random_games_use_the_memory_and_equal_fresh_search():
    """What `legal_actions()` does along a game: each position with the memory of the side's
    previous one (and once in a while another side's or an older position asked between)."""
    rng = random.Random(77)
    for _ in range(4):
        s = GAME.new(seed=rng.randrange(1 << 30))
        older = []
        while not s.is_over:
            assert s.legal_actions() == movegen.fresh_turns(*args(s))
            if older and rng.random() < 0.2:
                o = rng.choice(older)
                assert o.legal_actions() == movegen.fresh_turns(*args(o))
            if rng.random() < 0.1:
                older.append(s.clone())
            s.apply(rng.choice(s.legal_actions()))
