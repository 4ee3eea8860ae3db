"""Force Field Factions' observation for learners: a flat list of floats built from
`FFFState.view(player)` only (so it shows nothing a view does not), relative to the observer
("own" pieces are `player`'s). The layout is documented in docs/fff.md, "For learners".

Planes (64 floats each, square index rank * 8 + file: a1 = 0, h1 = 7, h8 = 63), first for the
in-phase piece on each square (planes 0..20), then for the out-of-phase one (21..41):
    +0 own piece, +1 opponent's piece, +2..+4 size 1, 2, 3, +5..+13 facing N NE E SE S SW W
    NW U, +14..+20 fields of colour r g b y p o c (0.5 a field: 1.0 for two of one colour)
    42 the piece selected in a turn under way in steps, where it stands now
    43 the square it was selected on
Then 27 scalars (from 44 * 64 = 2816): the observer is to move; the pool, 2-pip and 3-pip count
of r g b y p o c, each / 3; the observer's lost counts (FFF-25) for sizes 1..3, then the
opponent's, each / 3; the no-capture count / the turn limit (0 without a limit); a turn is under
way in steps; a field may still be removed; points left / 6; points spent / 6; the game is over.
"""

from __future__ import annotations

from itertools import compress

from boardct.core.encoding import dense
from boardct.games.fff.pieces import COLOURS, FACING_INDEX, SQUARE_INDEX

PLANES = 44
SCALARS = 27
OBS_LEN = PLANES * 64 + SCALARS
OBS_SHAPE = (OBS_LEN,)
_COLOUR = {c: i for i, c in enumerate(COLOURS)}


def observation(view: dict, player: int) -> list[float]:
    """The observation tensor of `view` (a `FFFState.view(player)` dict) for `player`."""
    out = [0.0] * OBS_LEN
    board = view["board"]
    steps = board.get("steps")
    pieces = steps["pieces"] if steps else board["pieces"]
    for p in pieces:
        sq = SQUARE_INDEX[p["square"]]
        base = 21 * 64 if p["out_of_phase"] else 0
        out[base + (0 if p["owner"] == player else 64) + sq] = 1.0
        out[base + (1 + p["size"]) * 64 + sq] = 1.0
        out[base + (5 + FACING_INDEX[p["facing"]]) * 64 + sq] = 1.0
        for c in p["fields"]:
            out[base + (14 + _COLOUR[c]) * 64 + sq] += 0.5
    s = PLANES * 64
    if steps:
        out[42 * 64 + SQUARE_INDEX[steps["square"]]] = 1.0
        out[43 * 64 + SQUARE_INDEX[steps["from"]]] = 1.0
    out[s] = 1.0 if player in view["to_move"] else 0.0
    for i, c in enumerate(COLOURS):
        two, three = board["pool"][c]
        out[s + 1 + 2 * i] = two / 3
        out[s + 2 + 2 * i] = three / 3
    mine, theirs = board["lost"][player], board["lost"][1 - player]
    for k in range(3):
        out[s + 15 + k] = mine[k] / 3
        out[s + 18 + k] = theirs[k] / 3
    limit = board["turn_limit"]
    out[s + 21] = board["no_capture_turns"] / limit if limit else 0.0
    if steps:
        out[s + 22] = 1.0
        out[s + 23] = 1.0 if steps["may_remove"] else 0.0
        out[s + 24] = steps["points_left"] / 6
        out[s + 25] = steps["points_spent"] / 6
    out[s + 26] = 1.0 if view["result"] is not None else 0.0
    return out


def observation_string(view: dict) -> str:
    """One line: the FFF-32 position at the turn's start, and the turn under way in steps."""
    board = view["board"]
    text = board["position"]
    steps = board.get("steps")
    if steps:
        text += (f" | steps: {steps['turn']} ({steps['points_left']} point"
                 f"{'s' if steps['points_left'] != 1 else ''} left)")
    if view["result"] is not None:
        text += " | over"
    return text


# -- the fast path ---------------------------------------------------------------------------
# `observation(view, player)` above is the definition. FFF's view writes the FFF-32 position
# text and a dict per piece, which costs far more than the tensor a learner needs at every
# step; FFF has no hidden information, so `fast_observation` reads the boards of the state (or
# of the turn under way in steps) directly, with the planes of each piece code worked out once.
# tests/core/test_fast_observation.py checks it equals `observation(state.view(p), p)` on many
# random states, part-way turns among them.
_SQUARES = range(64)
_CODE_PLANES: list[list] = []  # per observer, per piece code: (ones, halves), made on first use


def _code_planes(player: int) -> list[tuple[tuple[int, ...], tuple[int, ...]] | None]:
    """Per piece code seen by `player`: the offsets (plane * 64) set to 1.0, and those that
    get 0.5 per field (repeated for two fields of one colour)."""
    if not _CODE_PLANES:
        from boardct.games.fff.pieces import FACING, FIELDS, GHOST, NCODES, OWNER, SIZE

        for me in (0, 1):
            table: list = [None]
            for code in range(1, NCODES):
                base = 21 * 64 if GHOST[code] else 0
                ones = (base + (0 if OWNER[code] == me else 64),
                        base + (1 + SIZE[code]) * 64, base + (5 + FACING[code]) * 64)
                halves = tuple(base + (14 + f) * 64 for f in FIELDS[code])
                table.append((ones, halves))
            _CODE_PLANES.append(table)
    return _CODE_PLANES[player]


_PIECES: tuple[dict[int, dict[int, float]], ...] = ({}, {})  # per observer: code * 64 + square


def _piece_entries(player: int, code: int, sq: int) -> dict[int, float]:
    """The entries one piece (`code`) on `sq` puts in `player`'s observation: its planes' 1s,
    and 0.5 per field (1.0 for two fields of one colour)."""
    planes = _CODE_PLANES[player] if _CODE_PLANES else _code_planes(player)
    found = planes[code]
    assert found is not None, "code 0 is an empty square, never a piece"
    ones, halves = found
    entries = dict.fromkeys((k + sq for k in ones), 1.0)
    for k in halves:
        entries[k + sq] = entries.get(k + sq, 0.0) + 0.5
    return entries


def fast_observation(state, player: int) -> list[float]:
    """`observation(state.view(player), player)`, value for value, from the state's fields."""
    return dense(fast_entries(state, player), OBS_LEN)


def fast_entries(state, player: int) -> dict[int, float]:
    """The entries of `fast_observation` that may be nonzero (position -> value), written
    into a dict so that an adapter copies these few rather than the whole tensor."""
    from boardct.games.fff.pieces import FIELDS
    from boardct.games.fff.steps import PHASE_SELECTED

    out: dict[int, float] = {}
    t = state.part
    main, ghost = t.placed() if t is not None else (state.main, state.ghost)
    pieces = _PIECES[player]
    for board in (ghost, main):
        for sq in compress(_SQUARES, board):  # the occupied squares, found in C
            key = board[sq] * 64 + sq
            entries = pieces.get(key)
            if entries is None:
                if len(pieces) > 50_000:
                    pieces.clear()
                entries = pieces[key] = _piece_entries(player, board[sq], sq)
            out.update(entries)  # no two pieces share a position (ghosts have planes of their own)
    s = PLANES * 64
    if t is not None:
        out[42 * 64 + t.sq] = 1.0
        out[43 * 64 + t.sq0] = 1.0
    result = state.result
    if result is None and state.turn == player:
        out[s] = 1.0
    pool = state.pool
    for i in range(14):  # each of the seven pools' two counts
        if pool[i]:
            out[s + 1 + i] = pool[i] / 3
    lost = state.lost
    mine, theirs = 3 * player, 3 * (1 - player)
    for k in range(3):
        if lost[mine + k]:
            out[s + 15 + k] = lost[mine + k] / 3
        if lost[theirs + k]:
            out[s + 18 + k] = lost[theirs + k] / 3
    limit = state.limit
    out[s + 21] = state.count / limit if limit else 0.0
    if t is not None:
        out[s + 22] = 1.0
        out[s + 23] = 1.0 if t.phase == PHASE_SELECTED and bool(FIELDS[t.code]) else 0.0
        out[s + 24] = (t.points - t.used) / 6
        out[s + 25] = t.used / 6
    out[s + 26] = 1.0 if result is not None else 0.0
    return out
