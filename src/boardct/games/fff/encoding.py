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

from boardct.games.fff.pieces import COLOURS, FACING_INDEX, SQUARE_INDEX

PLANES = 44
SCALARS = 27
OBS_LEN = PLANES * 64 + SCALARS
OBS_SHAPE = (OBS_LEN,)
_COLOUR = {c: i for i, c in enumerate(COLOURS)}


def observation(view: dict, player: int) -> list[float]:
    """The observation tensor of `view` (a `FFFState.view(player)` dict) for `player`."""
    out = [0.0] * OBS_LEN
    steps = view.get("steps")
    pieces = steps["pieces"] if steps else view["pieces"]
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
    out[s] = 1.0 if view["to_move"] == player else 0.0
    for i, c in enumerate(COLOURS):
        two, three = view["pool"][c]
        out[s + 1 + 2 * i] = two / 3
        out[s + 2 + 2 * i] = three / 3
    mine, theirs = view["lost"][player], view["lost"][1 - player]
    for k in range(3):
        out[s + 15 + k] = mine[k] / 3
        out[s + 18 + k] = theirs[k] / 3
    limit = view["turn_limit"]
    out[s + 21] = view["no_capture_turns"] / limit if limit else 0.0
    if steps:
        out[s + 22] = 1.0
        out[s + 23] = 1.0 if steps["may_remove"] else 0.0
        out[s + 24] = steps["points_left"] / 6
        out[s + 25] = steps["points_spent"] / 6
    out[s + 26] = 1.0 if view["outcome"] is not None else 0.0
    return out


def observation_string(view: dict) -> str:
    """One line: the FFF-32 position at the turn's start, and the turn under way in steps."""
    text = view["position"]
    steps = view.get("steps")
    if steps:
        text += (f" | steps: {steps['turn']} ({steps['points_left']} point"
                 f"{'s' if steps['points_left'] != 1 else ''} left)")
    if view["outcome"] is not None:
        text += " | over"
    return text
