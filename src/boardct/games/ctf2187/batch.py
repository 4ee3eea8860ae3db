"""CTF 2187's observations of many states at once, in numpy (the vector API's
`Game.write_observations`; numpy comes with `boardct[rl]`, the only callers' extra).

`encoding.fast_entries` writes one state's tensor as a dict of a few hundred entries, a
Python call or two per value: most of them the sectors in sight (terrain, elevation, "in
sight"), the rest each own Bot's fields (some twenty values scaled into [0, 1], one-hots).
A vector of games asks for 16 or more tensors a step, so here:

- the sectors in sight are copied whole: per map, once, the block of planes from "in sight"
  to elevation as it reads with every sector in sight (`_map_block`); then per own Bot one
  numpy slice copy of the box its visual radius covers (the boxes are what `fast_entries`
  writes row by row, clipped to the map);
- the scaled values of every Bot, command post and the scalars of the whole batch are
  gathered as (numerator, denominator) and divided and clipped in one numpy call, as
  `core.encoding.scaled` does one at a time (a float64 division, correctly rounded in both);
  the ratings are rounded in Python first (`round`, as `fast_entries` does);
- the one-hot and flag entries (1.0) are gathered as flat positions and set in one scattered
  write.

What is read of a state is what `fast_entries` reads, for the same player: their own Bots,
the Bots their scanners detect (`state.contacts`), the command posts, the turn, their own
team's rating; nothing else. tests/adapters/test_vector.py checks every row equals the single
path bit for bit on whole games at the default options.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from boardct.games.ctf2187.encoding import (
    AP_SCALE,
    HEAT_SCALE,
    LOCATIONS,
    MAP_PLANES,
    MAX_WOUNDS,
    Layout,
    _bot_rating,
    _sector_values,
    _read_only,
    _team_rating,
    fast_entries,
)
from boardct.games.ctf2187.units import FUNCTIONAL, PILOT_STATES, POSTURES, TEAM_LETTERS

_SIGHT = len(MAP_PLANES) - 1  # the "in sight" plane, first of the block copied from the map
_POSTURE_AT = 11  # a Bot's field block: where its posture one-hot starts
_PILOT_AT = _POSTURE_AT + len(POSTURES)
_NUMBERS_AT = _PILOT_AT + len(PILOT_STATES)  # AP, heat, cooling, wounds, engines, rating
_LOCATIONS_AT = _NUMBERS_AT + 6
_WEAPONS_AT = _LOCATIONS_AT + 2 * LOCATIONS
# a Bot's scaled fields, in the order they are gathered (x, y, AP, heat, cooling, wounds,
# engines, rating, armour of each location, internal of each location, AP at the start), as
# offsets in its field block; the last (AP at the start) is set once the weapons are known
_BOT_SCALED = (1, 2, *range(_NUMBERS_AT, _NUMBERS_AT + 6),
               *range(_LOCATIONS_AT, _LOCATIONS_AT + 2 * LOCATIONS, 2),
               *range(_LOCATIONS_AT + 1, _LOCATIONS_AT + 2 * LOCATIONS, 2))
_NBOT = len(_BOT_SCALED) + 1
_BOT_AT = np.array(_BOT_SCALED, np.intp)

_BLOCKS: dict[int, tuple[Any, Any, Any]] = {}  # id(map) -> (map, tables, block)
_KINDS: dict[tuple[int, tuple[str, ...]], tuple[Any, int, int, Any, Any]] = {}
_TOPS: dict[tuple[int, int, int], tuple[Any, tuple[float, ...]]] = {}  # a design's tops


def _kinds(state: Any, layout: Layout, low: int, high: int) -> tuple[int, Any, Any]:
    """Per kind of sector (terrain index, ground from `low` to `high` or beyond): its terrain
    plane (-1: a code with no plane) and elevation value, as `encoding._sector_values` gives
    them, in two arrays indexed [terrain, ground - first ground]; per terrain tables."""
    tables = state.tables
    key = (id(tables), layout.terrain)
    cached = _KINDS.get(key)
    if cached is not None and cached[0] is tables and cached[1] <= low and high < cached[2]:
        return cached[1], cached[3], cached[4]
    if cached is not None and cached[0] is tables:
        low, high = min(low, cached[1]), max(high, cached[2] - 1)
    first, last = min(low, 0), max(high + 1, 10)  # map files' ground digits: 0 to 9
    kinds = [(t, g) for t in range(len(tables.terrain)) for g in range(first, last)]
    values = _sector_values(state, layout, kinds)
    shape = (len(tables.terrain), last - first)
    plane = np.array([v[0] for v in values], np.int64).reshape(shape)
    elevation = np.array([v[1] for v in values], np.float64).reshape(shape)
    _forget(_KINDS, 16)
    _KINDS[key] = (tables, first, last, plane, elevation)
    return first, plane, elevation


def _map_block(state: Any, layout: Layout) -> Any:
    """The planes from "in sight" to elevation (planes, height, width) as `fast_entries`
    writes them for a sector in sight: "in sight" 1, its terrain plane 1 (none for a code
    with no plane), its elevation value; worked out once per map (a map never changes)."""
    m, tables = state.map, state.tables
    cached = _BLOCKS.get(id(m))
    if cached is not None and cached[0] is m and cached[1] is tables:
        return cached[2]
    w, h = layout.width, layout.height
    terrain = np.array(m.terrain, np.int64)
    ground = np.array(m.ground, np.int64)
    first, planes, elevation = _kinds(state, layout, int(ground.min()), int(ground.max()))
    ground -= first
    plane = planes[terrain, ground]
    block = np.zeros((layout.planes - _SIGHT, w * h), np.float32)
    block[0] = 1.0
    seen = np.flatnonzero(plane >= 0)
    block[plane[seen] - _SIGHT, seen] = 1.0
    block[-1] = elevation[terrain, ground]
    block = block.reshape(layout.planes - _SIGHT, h, w)
    _forget(_BLOCKS, 256)
    _BLOCKS[id(m)] = (m, tables, block)
    return block


def _forget(cache: dict, most: int) -> None:
    """Make room in `cache` for one more entry: the oldest goes first (a vector of games
    brings in a map a game and uses each of its few dozen newest)."""
    if len(cache) >= most:
        del cache[next(iter(cache))]


def _tops(design: Any, w: int, h: int) -> tuple[float, ...]:
    """The denominators of a Bot's scaled fields (in `_BOT_SCALED` order, then AP at the
    start), as `fast_entries` divides them."""
    key = (id(design), w, h)
    cached = _TOPS.get(key)
    if cached is not None and cached[0] is design:
        return cached[1]
    tops = (w, h, AP_SCALE, HEAT_SCALE, HEAT_SCALE, MAX_WOUNDS, design.engines, 2.0,
            *design.armour[:LOCATIONS], *design.internal[:LOCATIONS], AP_SCALE)
    _forget(_TOPS, 256)
    _TOPS[key] = (design, tops)
    return tops


def write_observations(out: Any, states: Sequence[Any], players: Sequence[int]) -> None:
    """Row i of `out` made `encoding.fast_observation(Layout.of(states[i]), states[i],
    players[i])` in float32, whatever the row held before."""
    n = len(states)
    width = out.shape[1]
    out.fill(0.0)
    flat = out.reshape(-1)
    ones: list[int] = []  # flat positions set to 1.0
    nums: list[Any] = []  # the scaled values' numerators, denominators and flat positions
    tops: list[Any] = []
    at_scaled: list[int] = []
    bot_bases: list[int] = []  # per own Bot written: its field block's flat position
    bot_nums: list[Any] = []
    bot_tops: list[Any] = []
    ap_at: list[int] = []  # per own Bot written: where its AP at the start goes
    boxes: list[tuple[int, Any, int, int, int, int]] = []  # (row, block, y0, y1, x0, x1)
    for i, st in enumerate(states):
        player = players[i]
        layout = Layout.of(st)
        w, h = layout.width, layout.height
        if width != layout.size or len(layout.terrain) + len(MAP_PLANES) + 1 != layout.planes:
            raise ValueError(f"row {i}: {width} values, not the {layout.size} of its tensor")
        row = i * width
        cells = w * h
        mine = [b for b in _read_only(st, "bots") if b.player == player]
        if mine and (st.map.width != w or st.map.height != h):  # never for one setup's states
            for k, v in fast_entries(layout, st, player).items():
                flat[row + k] = v
            continue
        team = TEAM_LETTERS[mine[0].team] if mine else ""
        for b in mine:
            if 1 <= b.x <= w and 1 <= b.y <= h:
                ones.append(row + (3 if b.status != FUNCTIONAL else 0) * cells
                            + (b.y - 1) * w + b.x - 1)
        for o in st.contacts(mine):
            if 1 <= o.x <= w and 1 <= o.y <= h:
                plane = 3 if o.status != FUNCTIONAL else 1 if TEAM_LETTERS[o.team] == team else 2
                ones.append(row + plane * cells + (o.y - 1) * w + o.x - 1)
        cps = _read_only(st, "cps")
        for c in cps:
            if 1 <= c.x <= w and 1 <= c.y <= h:
                plane = 6 if c.structure <= 0 else 4 if TEAM_LETTERS[c.team] == team else 5
                ones.append(row + plane * cells + (c.y - 1) * w + c.x - 1)
        if mine:
            block = _map_block(st, layout)
            r = st.tables.visual_radius
            for b in mine:
                x0, x1 = max(1, b.x - r), min(w, b.x + r)
                y0, y1 = max(1, b.y - r), min(h, b.y + r)
                if x1 >= x0 and y1 >= y0:
                    boxes.append((i, block, y0 - 1, y1, x0 - 1, x1))
        at = row + cells * layout.planes
        over = st.over is not None
        owes = not over and not st.resigned >> player & 1  # state.owed(player), inlined
        bot_fields = layout.bot_fields
        for k in range(min(layout.bots, len(mine))):
            b = mine[k]
            d = b.design
            wreck = b.status != FUNCTIONAL
            o = at + k * bot_fields
            if not wreck:
                ones.append(o)
            if 0 <= b.facing - 1 < 8:
                ones.append(o + 3 + b.facing - 1)
            ones.append(o + _POSTURE_AT + b.posture)
            ones.append(o + _PILOT_AT + b.pilot)
            weapons = b.weapons
            wo = o + _WEAPONS_AT
            for j in range(min(layout.weapons, len(d.weapons))):
                ones.append(wo + 3 * j + weapons[j])
            flags = wo + 3 * layout.weapons
            if owes and not wreck and b.sheet is None:
                ones.append(flags + 1)
            if b.sheet is not None:
                ones.append(flags + 2)
            bot_bases.append(o)
            bot_nums += (b.x, b.y, 0 if wreck else b.ap or 0, b.heat, b.cooled, b.wounds,
                         sum(b.engines), round(_bot_rating(st, b), 2))
            bot_nums += b.armour[:LOCATIONS]
            bot_nums += b.internal[:LOCATIONS]
            bot_nums.append(0 if wreck else b.ap_start or 0)
            bot_tops += _tops(d, w, h)
            ap_at.append(flags)  # AP at the start: a scaled value after the weapons
        at += layout.bots * bot_fields
        for c in cps:
            nums.append(c.structure)
            tops.append(layout.cp_structure)
            at_scaled.append(at)
            if c.structure > 0:
                ones.append(at + 1)
            if TEAM_LETTERS[c.team] == team:
                ones.append(at + 2)
            at += 3
        at += 3 * max(0, layout.cps - len(cps))
        nums.append(st.turn)
        tops.append(st.turns)
        at_scaled.append(at)
        nums.append(round(_team_rating(st, mine[0].team), 2) if mine else 0.0)
        tops.append(2.0)
        at_scaled.append(at + 1)
        if over:
            ones.append(at + 2)
        if team in TEAM_LETTERS:
            ones.append(at + 3 + TEAM_LETTERS.index(team))
    for i, block, y0, y1, x0, x1 in boxes:  # the map's planes start each row
        planes, h, w = block.shape
        grid = out[i, :(_SIGHT + planes) * h * w].reshape(_SIGHT + planes, h, w)
        grid[_SIGHT:, y0:y1, x0:x1] = block[:, y0:y1, x0:x1]
    if ones:
        flat[ones] = 1.0
    if bot_bases:
        m = len(bot_bases)
        values = _scaled(np.array(bot_nums, np.float64).reshape(m, _NBOT),
                         np.array(bot_tops, np.float64).reshape(m, _NBOT))
        flat[np.array(bot_bases, np.intp)[:, None] + _BOT_AT] = values[:, :-1]
        flat[ap_at] = values[:, -1]
    if at_scaled:
        flat[at_scaled] = _scaled(np.array(nums, np.float64), np.array(tops, np.float64))


def _scaled(num: Any, top: Any) -> Any:
    """`core.encoding.scaled(num, top)` element by element: num / top clipped to [0, 1], 0
    where top <= 0 (the values are whole numbers or rounded ratings: always finite)."""
    out = np.zeros(num.shape, np.float64)
    np.divide(num, top, out=out, where=top > 0)
    np.clip(out, 0.0, 1.0, out=out)
    return out

