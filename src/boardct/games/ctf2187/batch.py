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
  write;
- what every state of a setup shares (the layout's sizes, the map's block) is worked out at
  its first state (`_shape`).

What is read of a state is what `fast_entries` reads, for the same player: their own Bots,
the Bots their scanners detect (`state.contacts`, inlined), the command posts, the turn, their
own team's rating; nothing else (no other player's Bot out of scanning range, sheet or orders,
no sector out of visual range). tests/adapters/test_vector.py checks every row equals the
single path bit for bit on random states and on long runs of the vector at the default
options, and that what a player may not know changes nothing in their row.
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
_KINDS: dict[tuple[int, tuple[str, ...]], tuple[Any, int, int, Any]] = {}
_SHAPES: dict[int, tuple] = {}  # id(setup) -> what its states share (`_shape`)
_ROUNDED: dict[float, float] = {}  # x -> round(x, 2)
_TOPS: dict[tuple[int, int, int], tuple[Any, tuple[float, ...]]] = {}  # a design's tops


def _kinds(state: Any, layout: Layout, low: int, high: int) -> tuple[int, Any]:
    """Per kind of sector (terrain index, ground from `low` to `high` or beyond), the values
    of the planes from "in sight" to elevation for such a sector in sight: "in sight" 1, its
    terrain plane 1 (none for a code with no plane), its elevation value, as
    `encoding._sector_values` gives them; an array indexed [terrain, ground - first ground,
    plane], per terrain tables."""
    tables = state.tables
    key = (id(tables), layout.terrain)
    cached = _KINDS.get(key)
    if cached is not None and cached[0] is tables and cached[1] <= low and high < cached[2]:
        return cached[1], cached[3]
    if cached is not None and cached[0] is tables:
        low, high = min(low, cached[1]), max(high, cached[2] - 1)
    first, last = min(low, 0), max(high + 1, 10)  # map files' ground digits: 0 to 9
    kinds = [(t, g) for t in range(len(tables.terrain)) for g in range(first, last)]
    each = np.zeros((len(kinds), layout.planes - _SIGHT), np.float32)
    each[:, 0] = 1.0
    for row, (plane, elevation) in zip(each, _sector_values(state, layout, kinds), strict=True):
        if plane >= 0:
            row[plane - _SIGHT] = 1.0
        row[-1] = elevation
    rows = each.reshape(len(tables.terrain), last - first, layout.planes - _SIGHT)
    _forget(_KINDS, 16)
    _KINDS[key] = (tables, first, last, rows)
    return first, rows


def _map_block(state: Any, layout: Layout) -> Any:
    """The planes from "in sight" to elevation (planes, height, width) as `fast_entries`
    writes them for a sector in sight (`_kinds`), each sector's looked up by its terrain and
    ground; worked out once per map (a map never changes, and a game brings a new one)."""
    m, tables = state.map, state.tables
    cached = _BLOCKS.get(id(m))
    if cached is not None and cached[0] is m and cached[1] is tables:
        return cached[2]
    w, h = layout.width, layout.height
    try:  # small whole numbers, read by numpy as bytes (the usual case: quickest)
        terrain: Any = np.frombuffer(bytes(m.terrain), np.uint8)
        ground: Any = np.frombuffer(bytes(m.ground), np.uint8)
    except ValueError:  # a ground below 0 or a number above 255: as whole numbers
        terrain = np.array(m.terrain, np.int64)
        ground = np.array(m.ground, np.int64)
    low, high = int(ground.min()), int(ground.max())
    first, rows = _kinds(state, layout, low, high)
    if first:  # (a ground below 0 seen on some map of these tables)
        ground = ground.astype(np.intp) - first
    kinds = rows[terrain, ground]  # (sectors, planes)
    block = np.ascontiguousarray(kinds.T).reshape(layout.planes - _SIGHT, h, w)
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


def _round2(x: float) -> float:
    """`round(x, 2)` (a rating, as `fast_entries` rounds it), remembered: `round` to digits
    costs more than the rest of a Bot's fields, and a game's ratings are few."""
    got = _ROUNDED.get(x)
    if got is None:
        if len(_ROUNDED) >= 4096:
            _ROUNDED.clear()
        got = _ROUNDED[x] = round(x, 2)
    return got if x else x  # 0.0 and -0.0 are one key: each rounds to itself


def _shape(state: Any, width: int) -> tuple:
    """What every state of one setup shares (its layout's sizes, where the blocks of a row
    start, the ranges, the map's block), worked out at its first state: a setup's map,
    tables and Bots' designs never change."""
    layout = Layout.of(state)
    if width != layout.size:
        raise ValueError(f"rows of {width} values, not the {layout.size} of the tensor")
    w, h = layout.width, layout.height
    cells = w * h
    bots_at = cells * layout.planes
    cps_at = bots_at + layout.bots * layout.bot_fields
    fits = state.map.width == w and state.map.height == h  # always, for a setup's own layout
    shape = (state.setup, state.map, layout, w, h, cells, layout.bot_fields, layout.bots,
             layout.weapons, bots_at, cps_at, cps_at + 3 * layout.cps, layout.cp_structure,
             state.tables.visual_radius, state.tables.scanning_range,
             _map_block(state, layout) if fits else None)
    _forget(_SHAPES, 256)
    _SHAPES[id(state.setup)] = shape
    return shape


def write_observations(out: Any, states: Sequence[Any], players: Sequence[int]) -> None:
    """Row i of `out` made `encoding.fast_observation(Layout.of(states[i]), states[i],
    players[i])` in float32, whatever the row held before."""
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
    shapes = _SHAPES
    for i, st in enumerate(states):
        player = players[i]
        shape = shapes.get(id(st.setup))
        if shape is None or shape[0] is not st.setup or shape[1] is not st.map:
            shape = _shape(st, width)
        (_, _, layout, w, h, cells, bot_fields, nbots, nweapons, at, cps_at, scalars_at,
         cp_top, radius, scan, block) = shape
        row = i * width
        bots = st._bots
        mine = [b for b in bots if b.player == player]  # state.bots_of, not copied
        if mine and block is None:  # a map not of the layout's size: never for a setup's own
            for k, v in fast_entries(layout, st, player).items():
                flat[row + k] = v
            continue
        team = mine[0].team if mine else -1
        for b in mine:
            x, y = b.x, b.y
            if 1 <= x <= w and 1 <= y <= h:
                ones.append(row + (3 * cells if b.status != FUNCTIONAL else 0)
                            + (y - 1) * w + x - 1)
            x0, x1 = max(1, x - radius), min(w, x + radius)
            y0, y1 = max(1, y - radius), min(h, y + radius)
            if x1 >= x0 and y1 >= y0:
                boxes.append((i, block, y0 - 1, y1, x0 - 1, x1))
        if mine:  # state.contacts(mine): other Bots within a functional own Bot's scan
            for o in bots:
                if o.player == player:
                    continue
                ox, oy = o.x, o.y
                for b in mine:
                    if b.status == FUNCTIONAL and abs(b.x - ox) <= scan and abs(
                            b.y - oy) <= scan:
                        if 1 <= ox <= w and 1 <= oy <= h:
                            plane = (3 if o.status != FUNCTIONAL else 1 if o.team == team
                                     else 2)
                            ones.append(row + plane * cells + (oy - 1) * w + ox - 1)
                        break
        at += row
        over = st.over is not None
        owes = not over and not st.resigned >> player & 1  # state.owed(player), inlined
        for k in range(min(nbots, len(mine))):
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
            for j in range(min(nweapons, len(d.weapons))):
                ones.append(wo + 3 * j + weapons[j])
            flags = wo + 3 * nweapons
            if b.sheet is not None:
                ones.append(flags + 2)
            elif owes and not wreck:
                ones.append(flags + 1)
            bot_bases.append(o)
            vp, tons = b.vp, d.tons  # encoding._bot_rating, inlined
            rating = (vp / tons if type(vp) is int and type(tons) is int and tons
                      else _bot_rating(st, b))
            bot_nums += (b.x, b.y, 0 if wreck else b.ap or 0, b.heat, b.cooled, b.wounds,
                         sum(b.engines), _round2(rating))
            bot_nums += b.armour[:LOCATIONS]
            bot_nums += b.internal[:LOCATIONS]
            bot_nums.append(0 if wreck else b.ap_start or 0)
            bot_tops += _tops(d, w, h)
            ap_at.append(flags)  # AP at the start: a scaled value after the weapons
        at = row + cps_at
        for c in st._cps:  # on the map (operational: own or enemy; Ruins), then the fields
            x, y, left = c.x, c.y, c.structure
            if 1 <= x <= w and 1 <= y <= h:
                plane = 6 if left <= 0 else 4 if c.team == team else 5
                ones.append(row + plane * cells + (y - 1) * w + x - 1)
            nums.append(left)
            tops.append(cp_top)
            at_scaled.append(at)
            if left > 0:
                ones.append(at + 1)
            if c.team == team:
                ones.append(at + 2)
            at += 3
        at = row + scalars_at
        nums.append(st.turn)
        tops.append(st.turns)
        at_scaled.append(at)
        if mine:
            vp = tons = 0  # encoding._team_rating, inlined
            for b in bots:
                if b.team == team:
                    vp += b.vp
                    tons += b.design.tons
            nums.append(_round2(vp / tons if type(vp) is int and type(tons) is int and tons
                                else _team_rating(st, team)))
            ones.append(at + 3 + team)  # the team's letter, TEAM_LETTERS[team]
        else:  # no Bot: team "", which `"" in TEAM_LETTERS` finds at 0 (as the view's tensor)
            nums.append(0.0)
            ones.append(at + 3 + TEAM_LETTERS.index(""))
        tops.append(2.0)
        at_scaled.append(at + 1)
        if over:
            ones.append(at + 2)
    grids: dict[tuple[int, ...], Any] = {}  # the rows' map planes, by the maps' shape
    for i, block, y0, y1, x0, x1 in boxes:  # the map's planes start each row
        grid = grids.get(block.shape)
        if grid is None:
            planes, h, w = block.shape
            grid = grids[block.shape] = out[:, :(_SIGHT + planes) * h * w].reshape(
                len(out), _SIGHT + planes, h, w)
        grid[i, _SIGHT:, y0:y1, x0:x1] = block[:, y0:y1, x0:x1]
    if ones:
        flat[ones] = 1.0
    # the scaled values, all at once: the Bots' (a block of _NBOT each, at their field blocks'
    # _BOT_SCALED offsets and their AP-at-the-start place), then the others
    m = len(bot_bases)
    at = np.empty(m * _NBOT + len(at_scaled), np.intp)
    if m:
        bots = at[:m * _NBOT].reshape(m, _NBOT)
        np.add(np.array(bot_bases, np.intp)[:, None], _BOT_AT, out=bots[:, :-1])
        bots[:, -1] = ap_at
    at[m * _NBOT:] = at_scaled
    flat[at] = _scaled(np.array(bot_nums + nums, np.float64), np.array(bot_tops + tops,
                                                                      np.float64))


def _scaled(num: Any, top: Any) -> Any:
    """`core.encoding.scaled(num, top)` element by element: num / top clipped to [0, 1], 0
    where top <= 0 (the values are whole numbers or rounded ratings: always finite)."""
    out = np.zeros(num.shape, np.float64)
    np.divide(num, top, out=out, where=top > 0)
    np.clip(out, 0.0, 1.0, out=out)
    return out

