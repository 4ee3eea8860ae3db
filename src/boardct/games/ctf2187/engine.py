"""CTF 2187 turn processing: the five phases of CTF-13 with the fine points CTF-17..CTF-36.

Functions here work on a `CtfState` (state.py) in place; the state calls `process_turn` once
every Bot's orders are in. They read and change the state's own `_bots`, `_cps` and `_occ`:
`process_turn` first makes them private to the state (copy on write, see `CtfState.clone`);
a scenario that calls the other functions by hand does so on a state that owns them.
Every happening is logged as an event (a `Sighted` tuple) that
carries the bit mask of the Bots that saw it (the Bots involved, and every functional Bot whose
scanners covered the place it happened, CTF-15/CTF-21) and, where it names another Bot, the
Bots that could tell which Bot that was. `seen_by` turns an event into what a set of Bots saw
(or None), so each player's report, view and event stream hold only what that player's Bots
could see at the time. All chance is drawn from the state's seeded Rng as events occur.

Speed: while `process_turn` runs, who sees each sector and each Bot's nearest enemy
are kept in the turn's cache (`_SCAN`); only `enter` (a move) and `wreck` change where Bots
stand or whether they function, and they update it, so any other code that moved a Bot or
wrecked one during a turn would have to do the same. Fire tracks' geometry is cached per map
width and each sector's static height per map (`_track`).
"""

from __future__ import annotations

from itertools import accumulate, islice
from operator import add, attrgetter, itemgetter
from typing import TYPE_CHECKING, Any

from boardct.core.game import MESSAGE, RESUME, SUSPEND, Termination
from boardct.games.ctf2187.geometry import (
    _BEARINGS,
    DX,
    DY,
    FA,
    LS,
    RA,
    RS,
    arc,
    bearing,
    distance,
    pivot_steps,
    side_value,
    toward_step,
)
from boardct.games.ctf2187.sheet import EJECT_DEFAULT, PHASES
from boardct.games.ctf2187.tables import (
    FT,
    HEAD,
    LA,
    LEGS,
    LOCATION_CODES,
    RT,
    Weapon,
    turn_ap,
    weapon_ap,
)
from boardct.games.ctf2187.tables import (
    RA as RARM,
)
from boardct.games.ctf2187.units import (
    DAMAGED,
    DEAD,
    DESTROYED,
    EJECTED,
    FUNCTIONAL,
    KNEELING,
    PRONE,
    STANDING,
    WRECKED,
    Bot,
    CommandPost,
)

if TYPE_CHECKING:  # pragma: no cover
    from boardct.games.ctf2187.state import CtfState

# Arcs each location's weapons fire into (CTF-7); the index is the location.
WEAPON_ARCS = (
    (LS, FA, RS),  # head
    (FA,),  # front torso
    (RA,),  # rear torso
    (FA, LS),  # left arm
    (FA, RS),  # right arm
    (),  # legs
)
ANGLE_TABLE = {FA: "front", RS: "right", LS: "left", RA: "rear"}
PIVOT_ORDERS = (0, 11, 12, 13, 14, 15, 16, 17, 22, 23)


# -- small queries ------------------------------------------------------------------------------

def ground_at(st: CtfState, x: int, y: int) -> int:
    return st.map.ground[(y - 1) * st.map.width + x - 1]


def terrain_at(st: CtfState, x: int, y: int):
    return st.tables.terrain[st.map.terrain[(y - 1) * st.map.width + x - 1]]


def bot_elevation(st: CtfState, b: Bot) -> int:
    """CTF-5: ground + 2 standing, + 1 kneeling or prone, + 0 wreckage."""
    g = ground_at(st, b.x, b.y)
    if b.status != FUNCTIONAL:
        return g
    return g + (2 if b.posture == STANDING else 1)


def cp_elevation(st: CtfState, c: CommandPost) -> int:
    """CTF-27: a CP fires and is hit at ground + 2; Ruins stand ground + 1."""
    return ground_at(st, c.x, c.y) + (2 if c.operational else 1)


def sector_height(st: CtfState, x: int, y: int) -> int:
    """The total elevation a fire track must clear in a sector (CTF-11)."""
    i = (y - 1) * st.map.width + x - 1
    g = st.map.ground[i]
    t = st.tables.terrain[st.map.terrain[i]]
    h = g + t.elevation if t.blocks_fire else g
    occ = st._occ[i]
    if occ > 0:
        e = bot_elevation(st, st._bots[occ - 1])
        if e > h:
            h = e
    elif occ < 0:
        e = cp_elevation(st, st._cps[-occ - 1])
        if e > h:
            h = e
    return h


_OFFSETS: dict[tuple[int, int], tuple[tuple[int, int], ...]] = {}
_HEIGHTS: dict[tuple[int, int, int], tuple[int, ...]] = {}
_STATIC: dict[int, tuple] = {}


def _track_offsets(dx: int, dy: int) -> tuple[tuple[int, int], ...]:
    """The sectors of a track (CTF-27) strictly between firer and a target at (dx, dy) from it,
    as offsets from the firer: the point k/n of the way, rounded to nearest, halves toward the
    firer. Pure geometry, so made once per offset and shared by every game."""
    n = max(abs(dx), abs(dy))
    ax, ay = abs(dx), abs(dy)
    sx = 1 if dx > 0 else -1
    sy = 1 if dy > 0 else -1
    out = []
    for k in range(1, n):
        q, r = divmod(ax * k, n)
        ox = sx * (q + (2 * r > n))
        q, r = divmod(ay * k, n)
        out.append((ox, sy * (q + (2 * r > n))))
    if len(_OFFSETS) > 65536:
        _OFFSETS.clear()
    _OFFSETS[dx, dy] = result = tuple(out)
    return result


def _track_heights(n: int, e0: int, e1: int) -> tuple[int, ...]:
    """The projectile's height over each sector of a track of length n from elevation e0 to
    e1 (CTF-27, halves up): made once per (n, e0, e1)."""
    base = 2 * e0 * n + n
    de2 = 2 * (e1 - e0)
    n2 = 2 * n
    if len(_HEIGHTS) > 65536:
        _HEIGHTS.clear()
    _HEIGHTS[n, e0, e1] = result = tuple((base + de2 * k) // n2 for k in range(1, n))
    return result


def _map_tables(st: CtfState) -> tuple:
    """(map, tables, static heights, cooling) for the state's map, made once per map and
    shared by its states and their clones: the map and tables never change. The static heights
    are, per sector, the height its ground and terrain alone put in a fire track's way
    (CTF-11); the cooling is, per sector, what its terrain adds to a Bot's (CTF-24)."""
    gmap, tables = st.map, st.tables
    hit = _STATIC.get(id(gmap))
    if hit is not None and hit[0] is gmap and hit[1] is tables:
        return hit
    # per kind of terrain the height it adds, then ground + that sector by sector (at C speed:
    # every new game has a new map)
    adds = [t.elevation if t.blocks_fire else 0 for t in tables.terrain]
    heights = tuple(map(add, gmap.ground, map(adds.__getitem__, gmap.terrain)))
    cooling = tuple(map([t.cooling for t in tables.terrain].__getitem__, gmap.terrain))
    if len(_STATIC) > 256:
        _STATIC.clear()
    _STATIC[id(gmap)] = hit = (gmap, tables, heights, cooling)  # holds the map: its id stays
    return hit


_GEOMETRY: dict[tuple, tuple] = {}  # (width, track) -> (indices, points, heights), all maps
_GEOMETRY_MAX = 20_000  # held at once (a few hundred bytes each)


def _track_geometry(w: int, x0: int, y0: int, e0: int, x1: int, y1: int, e1: int) -> tuple:
    """The whole track from firer to target on a map `w` wide, whatever the map holds: (sector
    indices, (x, y, height) points, heights). Pure geometry, so shared by every map of that
    width: a new game's map traces the same tracks between the same start sectors again."""
    key = (w, x0, y0, e0, x1, y1, e1)
    geom = _GEOMETRY.get(key)
    if geom is not None:
        return geom
    dx = x1 - x0
    dy = y1 - y0
    offs = _OFFSETS.get((dx, dy))
    if offs is None:
        offs = _track_offsets(dx, dy)
    n = len(offs) + 1
    hs = _HEIGHTS.get((n, e0, e1))
    if hs is None:
        hs = _track_heights(n, e0, e1)
    base = (y0 - 1) * w + x0 - 1
    idx = tuple([base + oy * w + ox for ox, oy in offs])
    pts = tuple([(x0 + ox, y0 + oy, h) for (ox, oy), h in zip(offs, hs, strict=True)])
    if len(_GEOMETRY) >= _GEOMETRY_MAX:  # a bound on memory: the older half goes (the
        for old in list(islice(_GEOMETRY, len(_GEOMETRY) // 2 + 1)):  # dict keeps the order
            del _GEOMETRY[old]  # of insertion); the tracks of the games at hand stay
    _GEOMETRY[key] = geom = (idx, pts, hs)
    return geom


def _track(st: CtfState, x0: int, y0: int, e0: int, x1: int, y1: int, e1: int
           ) -> tuple[tuple[tuple[int, int, int], ...], bool]:
    """`fire_track` as a tuple of points: the hot form the engine uses. The geometry is shared
    by every map of the width (`_track_geometry`); one plain loop then finds the first sector
    whose ground and terrain (the map's static heights, `_map_tables`) or whose Bot or command
    post (`sector_height`, inlined) reach the projectile."""
    sc = _SCAN
    static = (sc[3] if sc[0] is st else _map_tables(st))[2]
    idx, pts, hs = _GEOMETRY.get((st.map.width, x0, y0, e0, x1, y1, e1)) \
        or _track_geometry(st.map.width, x0, y0, e0, x1, y1, e1)
    occ = st._occ
    for k in range(len(idx)):
        i = idx[k]
        h = hs[k]
        if static[i] >= h:
            return pts[:k + 1], True
        o = occ[i]
        if o:
            if o > 0:
                b = st._bots[o - 1]
                e = st.map.ground[i] + (2 if b.posture == STANDING else 1) if not b.status \
                    else st.map.ground[i]
            else:
                e = st.map.ground[i] + (2 if st._cps[-o - 1].structure > 0 else 1)
            if e >= h:
                return pts[:k + 1], True
    return pts, False


def fire_track(st: CtfState, x0: int, y0: int, e0: int, x1: int, y1: int, e1: int
               ) -> tuple[list[tuple[int, int, int]], bool]:
    """The track (CTF-27, as geometry.track) up to and including the blocking sector, and
    whether it is blocked (a sector whose `sector_height` reaches the projectile's height)."""
    path, blocked = _track(st, x0, y0, e0, x1, y1, e1)
    return list(path), blocked


def in_scan(st: CtfState, b: Bot, other: Bot) -> bool:
    return distance(b.x, b.y, other.x, other.y) <= st.tables.scanning_range


# While `process_turn` runs on a state: (state, [columns, rows], enemies, tables, nearest).
# `columns[x]` holds the functional Bots whose scanning range reaches column x (bit n: Bot n),
# `rows[y]` those whose range reaches row y, so the Bots that see (x, y) are
# columns[x] & rows[y] (CTF-21's square range). `enemies[t]`: team t's enemies in Bot order
# (teams never change). `tables`: the map's static heights and cooling (`_map_tables`).
# `nearest[n]`: Bot n's nearest enemy (`nearest_enemy`), or _NO_BOT when not worked out. The
# lines and the nearest enemies change only when a Bot moves (`enter`: its bit leaves and
# joins a column or a row, and the nearest enemies of the Bot and of its enemies are
# forgotten, `_scan_moved`) or becomes Wreckage (`wreck`: the lines made again and every
# nearest enemy forgotten, `_scan_changed`). `process_turn` makes them at the start. One
# tuple, read once per use: a turn processed in another thread at the same time finds another
# state in it and works the masks out itself.
_SCAN: tuple = (None, None, None, None, None)
# "not worked out" (None is an answer: no enemy in range); typed Any as it stands in the
# lists of Bots
_NO_BOT: Any = object()


def _enemies(st: CtfState) -> tuple[tuple[Bot, ...], ...]:
    """Per team (0 up to the highest team of a Bot or command post), the other teams' Bots
    in Bot order: what nearest_enemy and cp_fire look through (teams never change; the Bot
    objects are the turn's own)."""
    bots = st._bots
    top = max([b.team for b in bots] + [c.team for c in st._cps], default=0)
    return tuple([tuple([b for b in bots if b.team != t]) for t in range(top + 1)])


def _scan_lines(st: CtfState) -> tuple[list[int], list[int]]:
    """(columns, rows) of `_SCAN` for the Bots as they stand: each functional Bot adds its bit
    to the columns x - r..x + r and the rows y - r..y + r (a running sum of +bit at the
    start and -bit past the end: the bits are distinct, so the sums are the unions)."""
    r = st.tables.scanning_range
    gmap = st.map
    w1, h1 = gmap.width + 1, gmap.height + 1
    cols = [0] * (w1 + 1)
    rows = [0] * (h1 + 1)
    for b in st._bots:
        if not b.status:
            bit = 1 << b.num
            x, y = b.x, b.y
            lo, hi = x - r, x + r + 1
            cols[lo if lo > 0 else 0] += bit
            cols[hi if hi < w1 else w1] -= bit
            lo, hi = y - r, y + r + 1
            rows[lo if lo > 0 else 0] += bit
            rows[hi if hi < h1 else h1] -= bit
    return list(accumulate(cols)), list(accumulate(rows))


def _scan_at(st: CtfState, x: int, y: int) -> int:
    """The functional Bots with (x, y) in scanning range (bit n: Bot n), as `seen_mask` finds
    them: from the turn's cache (`_SCAN`) while a turn is processed, else Bot by Bot."""
    sc = _SCAN
    if sc[0] is st:
        cols, rows = sc[1]
        if 0 < x < len(cols) - 1 and 0 < y < len(rows) - 1:  # on the map
            return cols[x] & rows[y]
    m = 0
    r = st.tables.scanning_range
    x0, x1, y0, y1 = x - r, x + r, y - r, y + r
    for b in st._bots:
        if not b.status and x0 <= b.x <= x1 and y0 <= b.y <= y1:
            m |= 1 << b.num
    return m


def _scan_changed(st: CtfState) -> None:
    """A Bot became Wreckage: the turn's columns and rows made again, nearest enemies
    forgotten."""
    sc = _SCAN
    if sc[0] is st:
        sc[1][:] = _scan_lines(st)
        near = sc[4]
        near[:] = [_NO_BOT] * len(near)


def _scan_moved(st: CtfState, b: Bot, x0: int, y0: int) -> None:
    """Bot `b` moved from (x0, y0): its bit leaves the columns and rows now out of its reach
    and joins those newly in it (`_shift`; a step of one sector, the move a Bot makes, shifts
    one column and one row at each end, done here); its nearest enemy and its enemies' are
    forgotten (its teammates' enemies did not move)."""
    sc = _SCAN
    if sc[0] is st:
        cols, rows = sc[1]
        r = st.tables.scanning_range
        bit = 1 << b.num
        x, y = b.x, b.y
        if x == x0 + 1:
            n = len(cols) - 2
            if x0 - r >= 1:
                cols[x0 - r] &= ~bit
            if x + r <= n:
                cols[x + r] |= bit
        elif x == x0 - 1:
            n = len(cols) - 2
            if x0 + r <= n:
                cols[x0 + r] &= ~bit
            if x - r >= 1:
                cols[x - r] |= bit
        elif x != x0:
            _shift(cols, x0, x, r, bit)
        if y == y0 + 1:
            n = len(rows) - 2
            if y0 - r >= 1:
                rows[y0 - r] &= ~bit
            if y + r <= n:
                rows[y + r] |= bit
        elif y == y0 - 1:
            n = len(rows) - 2
            if y0 + r <= n:
                rows[y0 + r] &= ~bit
            if y - r >= 1:
                rows[y - r] |= bit
        elif y != y0:
            _shift(rows, y0, y, r, bit)
        near = sc[4]
        near[b.num] = _NO_BOT
        for o in sc[2][b.team]:
            near[o.num] = _NO_BOT


def _shift(line: list[int], old: int, new: int, r: int, bit: int) -> None:
    """A Bot's reach along `line` (columns or rows, 1..len - 2) moved from old - r..old + r
    to new - r..new + r: clear its bit where it no longer reaches, set it where it now does."""
    if new == old:
        return
    n = len(line) - 2
    if new > old:
        gone = range(max(old - r, 1), min(old + r, new - r - 1, n) + 1)
        come = range(max(new - r, old + r + 1, 1), min(new + r, n) + 1)
    else:
        gone = range(max(old - r, new + r + 1, 1), min(old + r, n) + 1)
        come = range(max(new - r, 1), min(new + r, old - r - 1, n) + 1)
    keep = ~bit
    for i in gone:
        line[i] &= keep
    for i in come:
        line[i] |= bit


def seen_pair(st: CtfState, x: int, y: int, x2: int, y2: int, involved: int = 0
              ) -> tuple[int, int]:
    """The Bots that see a happening at (x, y) and those that see (x2, y2), for an event there
    that names a Bot here: each those involved and every functional Bot in scanning range
    (CTF-21). Bit n stands for Bot n."""
    return involved | _scan_at(st, x, y), involved | _scan_at(st, x2, y2)


class Sighted(tuple):
    """An event tuple that knows who saw it, so it can be filtered wherever it goes.

    `seen`: the Bots (bit n: Bot n) that saw it happen. `named`: None, or for an event naming a
    Bot other than its subject, pairs (field, mask) of the Bots that could tell which Bot the
    field names (they saw where it was); for the action order, the scanning range and the
    sector of each Bot listed (all the functional Bots, so also every Bot that could look).
    The tuple itself is the event, equal to the plain tuple, so reports and tests read it as
    one. Events are small and many: `named` is left to the class default unless needed.
    """

    seen: int
    named: tuple | None = None


# `Sighted(event)` through tuple.__new__ directly: the same object, without type.__call__'s
# detour (twice as quick; every event of every turn is made so)
_new_tuple = tuple.__new__


def sighted(event: tuple, seen: int, named: tuple | None = None) -> Sighted:
    ev = _new_tuple(Sighted, event)
    ev.seen = seen
    if named is not None:
        ev.named = named
    return ev


UNSEEN = 0  # the Bot number a redacted field shows: "an unseen Bot"
FRONT_END_EVENTS = (MESSAGE, SUSPEND, RESUME)  # a front end's own notes: shown to everyone


def seen_by(event: tuple, viewer: int) -> tuple | None:
    """`event` as the Bots in `viewer` (bit n: Bot n) saw it, or None if none of them did.

    A Bot the viewer's Bots could not see at the time is not named (0, "an unseen Bot"), nor
    is anything that would place it (a fire track, a range, a to-hit chance that reads its
    cover); the action order lists only the Bots they could see. Events that carry no sighting
    (not made by this engine) are never shown: the filter fails closed."""
    seen = getattr(event, "seen", 0)
    if not seen & viewer:
        return None
    named = event.named  # type: ignore[attr-defined]
    if named is None:
        return event
    kind = event[0]
    if kind == "order":
        r, where = named
        nums = event[1]
        eyes = [xy for n, xy in zip(nums, where, strict=True) if viewer >> n & 1]
        kept = tuple(n for n, (x, y) in zip(nums, where, strict=True)
                     if viewer >> n & 1 or any(-r <= x - ex <= r and -r <= y - ey <= r
                                               for ex, ey in eyes))
        if len(kept) == len(nums):
            return event
        return sighted(("order", kept), seen)
    out = list(event)
    changed = False
    for field, mask in named:
        if mask & viewer:
            continue
        changed = True
        out[field] = UNSEEN
        if kind == "shot":  # the track, range and odds would place the unseen Bot
            out[5], out[6], out[7], out[9] = 0, 0, 0, ()
    return sighted(tuple(out), seen) if changed else event


def log(st: CtfState, event: tuple, x: int, y: int, involved: int = 0) -> None:
    """Log an event at (x, y), seen by `involved` and every functional Bot in range of it."""
    sc = _SCAN  # who sees (x, y): from the turn's lines (_scan_at, inlined: a Bot or CP's sector)
    if sc[0] is st:
        cols, rows = sc[1]
        m = involved | cols[x] & rows[y]
    else:
        m = involved | _scan_at(st, x, y)
    ev = _new_tuple(Sighted, event)  # sighted(), inlined
    ev.seen = m
    st.log.append((m, ev))


def log_own(st: CtfState, event: tuple, b: Bot) -> None:
    """Log what only Bot `b` itself knows: its AP and heat, orders it could not carry out,
    items struck inside it, its pilot's wounds. Other Bots see what a Bot does (moves, turns,
    posture, shots, hits, falls, Wreckage: CTF-38), not what it meant or how it fares inside
    (docs/ctf2187.md)."""
    m = 1 << b.num
    ev = _new_tuple(Sighted, event)
    ev.seen = m
    st.log.append((m, ev))


def log_seen(st: CtfState, event: tuple, seen: int, named: tuple | None) -> None:
    """Log an event whose sighting the caller worked out (it names a second Bot)."""
    ev = _new_tuple(Sighted, event)  # sighted(), inlined
    ev.seen = seen
    if named is not None:
        ev.named = named
    st.log.append((seen, ev))


def log_all(st: CtfState, event: tuple, named: tuple | None = None) -> None:
    """An event every Bot's report shows (turn and phase headers, the end)."""
    m = (1 << (len(st._bots) + 1)) - 1
    ev = _new_tuple(Sighted, event)  # sighted(), inlined
    ev.seen = m
    if named is not None:
        ev.named = named
    st.log.append((m, ev))


def nearest_enemy(st: CtfState, b: Bot) -> Bot | None:
    """The nearest functional enemy in scanning range (the first in Bot order of the nearest).
    While a turn is processed the answer is kept in the turn's cache (`_SCAN`, nearest[n] for
    Bot n) until the Bot or one of its enemies moves, or a Bot falls to Wreckage: a Bot that
    faces its nearest enemy and then fires at it asks twice."""
    sc = _SCAN
    team = b.team
    if sc[0] is st:
        near = sc[4]
        best = near[b.num]
        if best is not _NO_BOT:
            return best
        others = sc[2][team]  # the enemies only
    else:
        near = None
        others = [o for o in st._bots if o.team != team]
    x, y = b.x, b.y
    best = None
    bd = st.tables.scanning_range + 1  # d < bd: in range, and nearer than any before
    for o in others:
        if not o.status:
            dx = o.x - x
            dy = o.y - y
            if dx < 0:
                dx = -dx
            if dy < 0:
                dy = -dy
            if dx < dy:
                dx = dy  # distance(), inlined
            if dx < bd:
                best, bd = o, dx
    if near is not None:
        near[b.num] = best
    return best


def nearest_friend(st: CtfState, b: Bot) -> Bot | None:
    best = None
    bd = 1 << 30
    for o in st._bots:
        if o.team == b.team and o is not b and o.status == FUNCTIONAL:
            d = distance(b.x, b.y, o.x, o.y)
            if d <= st.tables.scanning_range and d < bd:
                best, bd = o, d
    return best


def nearest_cp(st: CtfState, b: Bot, friendly: bool) -> CommandPost | None:
    best = None
    bd = 1 << 30
    for c in st._cps:
        if c.structure > 0 and (c.team == b.team) == friendly:  # c.operational
            d = distance(b.x, b.y, c.x, c.y)
            if d < bd:
                best, bd = c, d
    return best


def known_bot(st: CtfState, b: Bot, num: int) -> Bot | None:
    """Bot `num` if functional and in scanning range (CTF-21), else None."""
    if num < 1 or num > len(st._bots):
        return None
    o = st._bots[num - 1]
    if o.status != FUNCTIONAL or o is b or not in_scan(st, b, o):
        return None
    return o


def add_heat(st: CtfState, b: Bot, amount: int) -> None:
    h = b.heat + amount
    mx = st.tables.heat["maximum"]
    b.heat = h if h < mx else mx


def spend(b: Bot, ap: int) -> None:
    b.ap = b.ap - ap if b.ap > ap else 0


# -- turn --------------------------------------------------------------------------------------

_PER_TABLES: dict[int, tuple] = {}


def _per_tables(t) -> tuple:
    """(tables, command posts' reach, heat band per heat level, per band whether it has an
    effect) for a set of tables, made once (the tables never change): the reach is the longest
    maximum range of the command posts' weapons; the band table gives `t.band(heat)` for heat
    0..maximum by index; a band without effect (AP lost, shutdown, wound, weapon damage)
    skips their tests."""
    hit = _PER_TABLES.get(id(t))
    if hit is not None and hit[0] is t:
        return hit
    reach = max((w.maximum for w in t.cp_weapons), default=-1)
    band_of = tuple(t.band(h) for h in range(max(t.heat["maximum"], 0) + 1))
    effects = tuple(bool(b.ap or b.shutdown or b.wound or b.weapon_damage) for b in t.bands)
    if len(_PER_TABLES) > 64:
        _PER_TABLES.clear()
    _PER_TABLES[id(t)] = hit = (t, reach, band_of, effects)  # holds the tables: the id stays
    return hit

_AP = attrgetter("ap")


def process_turn(st: CtfState) -> list[tuple]:
    """Process the whole turn (every Bot's sheet or standing orders are in); return the events."""
    global _SCAN
    st._unshare()  # the turn changes Bots, command posts and sectors (copy on write, state.py)
    _SCAN = (st, list(_scan_lines(st)), _enemies(st), _map_tables(st),
             [_NO_BOT] * (len(st._bots) + 1))
    try:
        return _process_turn(st)
    finally:
        if _SCAN[0] is st:
            _SCAN = (None, None, None, None, None)


def _process_turn(st: CtfState) -> list[tuple]:
    st.log = []
    t = st.tables
    orders: dict[int, tuple[int, ...]] = {}
    log_all(st, ("turn", st.turn))
    for b in st._bots:
        if b.status != FUNCTIONAL:
            continue
        standing = b.sheet is None or b.sheet is b.standing  # MISSING shares the tuple
        orders[b.num] = b.standing if standing else b.sheet  # type: ignore[assignment]
        b.ap = b.ap_start = turn_ap(b.design, b.functional_engines(), t)
        log_own(st, ("ap", b.num, b.ap, standing), b)
    for phase in range(1, PHASES + 1):
        run_phase(st, phase, orders)
        if check_end(st):
            break
    for b in st._bots:
        b.sheet = None
    st.log_turn = st.turn
    st.turn += 1
    if st.over is None and st.turn > st.turns:
        st.end("turn limit", Termination.TURN_LIMIT)
        log_all(st, ("end", "the turn limit was reached"))
    return list(map(_EVENT, st.log))


_EVENT = itemgetter(1)  # (mask, event) -> event


def run_phase(st: CtfState, phase: int, orders: dict[int, tuple[int, ...]]) -> None:
    t = st.tables
    rng = st.rng
    log_all(st, ("phase", st.turn, phase))
    active = [b for b in st._bots if not b.status]  # the functional Bots
    cooling = t.heat["cooling"]
    per_engines = t.heat["engines_per_cooling"]
    sc = _SCAN
    cool_at = (sc[3] if sc[0] is st else _map_tables(st))[3]
    w = st.map.width
    bands = t.bands
    _, reach, band_of, effects = _per_tables(t)
    top = len(band_of)
    for b in active:  # cooling then heat adjustments (CTF-13, CTF-24, CTF-25)
        b.entered = 0
        b.sprinted = False
        b.fallen = False
        b.shut = False
        heat = b.heat
        if heat:
            cool = cooling + sum(b.engines) // per_engines + cool_at[(b.y - 1) * w + b.x - 1]
            if cool > heat:
                cool = heat
            b.heat = heat = heat - cool
        else:
            cool = 0  # a cold Bot cools by nothing (no cooling is negative: tables.py)
        b.cooled = cool
        b.band = bi = band_of[heat] if 0 <= heat < top else t.band(heat)
        if bi or cool:
            log_own(st, ("cool", b.num, cool, heat, bi), b)
        if not effects[bi]:
            continue
        band = bands[bi]
        if band.ap:
            lost = min(band.ap, b.ap)
            spend(b, band.ap)
            log_own(st, ("heatfx", b.num, f"loses {lost} AP to heat"), b)
        if band.shutdown:
            roll = rng.randint(1, 6)
            if roll <= band.shutdown:
                b.shut = True
                log_own(st, ("heatfx", b.num, f"weapons shut down by heat this phase (d6 {roll})"),
                        b)
        if band.wound and b.wounds < t.wounds_to_kill - 1:
            b.wounds += 1
            log_own(st, ("heatfx", b.num, f"pilot wounded by heat ({b.wounds} wounds)"), b)
        if band.weapon_damage:
            roll = rng.randint(1, 6)
            if roll <= band.weapon_damage:
                ok = [i for i, s in enumerate(b.weapons) if s != DESTROYED]
                if ok:
                    i = ok[rng.below(len(ok))]
                    b.weapons[i] += 1
                    state = "damaged" if b.weapons[i] == DAMAGED else "destroyed"
                    log_own(st, ("heatfx", b.num, f"weapon {i + 1} ({b.design.weapons[i][1].key}) "
                             f"{state} by heat (d6 {roll})"), b)
    rng.shuffle(active)  # equal AP: a fresh seeded shuffle (CTF-22)
    active.sort(key=_AP, reverse=True)  # by AP, most first; a stable sort keeps ties in order
    # the action order names every acting Bot: each viewer sees only the Bots it could see
    # the order lists every acting Bot; each viewer sees those its Bots could see (seen_by):
    # the acting Bots are all the functional ones, so their sectors tell who saw whom
    log_all(st, ("order", tuple([b.num for b in active])),
            (t.scanning_range, tuple([(b.x, b.y) for b in active])))
    base = (phase - 1) * 5
    for b in active:
        if b.status:  # != FUNCTIONAL
            continue  # wrecked before its slot
        if b.fallen:
            log_own(st, ("skip", b.num, "orders", 0, "fell earlier this phase"), b)
            continue
        o = orders[b.num]
        m = o[base]
        if m or b.posture == PRONE:  # do_move does nothing else for order 0
            do_move(st, b, m, o[base + 1])
            if b.status:
                continue
            if b.fallen:
                log_own(st, ("skip", b.num, "attack", o[base + 2], "fell this phase"), b)
                continue
        a = o[base + 2]
        if a:  # do_attack does nothing for attack order 0
            do_attack(st, b, a, o[base + 3], o[base + 4])
    for c in st._cps:  # command posts fire last (CTF-13, CTF-34)
        if c.structure > 0:  # c.operational
            cp_fire(st, c, reach)


def check_end(st: CtfState) -> bool:
    """CTF-39: the game ends after a phase that leaves a team no functional bot and no CP."""
    if st.over is not None:
        return True
    alive = 0  # bit per team with a functional Bot or an operational command post
    for b in st._bots:
        if not b.status:
            alive |= 1 << b.team
    if alive == (1 << st.teams) - 1:
        return False  # every team has a functional Bot (after every phase but the last few)
    if not alive:
        # nothing can act any more (CPs only return fire): the game ends here (docs)
        st.end("no functional bot left", Termination.ELIMINATION)
        log_all(st, ("end", "no functional bot is left on the field"))
        return True
    for c in st._cps:
        if c.structure > 0:
            alive |= 1 << c.team
    for team in range(st.teams):
        if alive >> team & 1:
            continue
        st.end("elimination", Termination.ELIMINATION)
        log_all(st, ("end", f"team {'ABCD'[team]} has no functional bot and no command post"))
        return True
    return False


# -- moves -------------------------------------------------------------------------------------

def skip(st: CtfState, b: Bot, what: str, order: int, reason: str) -> None:
    log_own(st, ("skip", b.num, what, order, reason), b)


def step_cost(st: CtfState, b: Bot, x: int, y: int, nx: int, ny: int, backward: bool) -> int:
    t = st.tables
    c = t.costs
    gmap = st.map
    w = gmap.width
    i = (ny - 1) * w + nx - 1  # terrain_at() and ground_at(), inlined
    cost = c["move"] + t.terrain[gmap.terrain[i]].move_cost
    ground = gmap.ground
    climb = ground[i] - ground[(y - 1) * w + x - 1]
    if climb > 0:
        cost += c["climb_per_level"] * climb
    if backward:
        cost += c["backward"]
    return cost


def free_sector(st: CtfState, x: int, y: int) -> str:
    """'' if a bot may enter (x, y), else why not (CTF-3)."""
    m = st.map
    if not (1 <= x <= m.width and 1 <= y <= m.height):
        return "the map edge"
    occ = st._occ[(y - 1) * m.width + x - 1]
    if occ > 0:
        o = st._bots[occ - 1]
        return f"Bot {o.num}" if o.status == FUNCTIONAL else f"the Wreckage of Bot {o.num}"
    if occ < 0:
        c = st._cps[-occ - 1]
        return f"CP {c.label}" if c.operational else f"the Ruins of CP {c.label}"
    return ""


def enter(st: CtfState, b: Bot, nx: int, ny: int, cost: int, heat: int, how: str) -> None:
    w = st.map.width
    x0, y0 = b.x, b.y
    st._occ[(y0 - 1) * w + x0 - 1] = 0
    st._occ[(ny - 1) * w + nx - 1] = b.num
    b.x, b.y = nx, ny
    b.ap = b.ap - cost if b.ap > cost else 0  # spend(), inlined
    h = b.heat + heat  # add_heat(), inlined
    mx = st.tables.heat["maximum"]
    b.heat = h if h < mx else mx
    b.entered += 1
    _scan_moved(st, b, x0, y0)  # the Bot stands elsewhere now
    # seen by the Bot and every functional Bot in range of where it left or where it came
    # (every event goes through the log_* functions)
    sc = _SCAN  # _scan_at at both ends, inlined
    if sc[0] is st:
        cols, rows = sc[1]
        m = 1 << b.num | cols[x0] & rows[y0] | cols[nx] & rows[ny]
    else:
        m = 1 << b.num | _scan_at(st, x0, y0) | _scan_at(st, nx, ny)
    log_seen(st, ("move", b.num, how, x0, y0, nx, ny, b.facing, cost), m, None)


def turn_bot(st: CtfState, b: Bot, steps: int, cost: int) -> None:
    old = b.facing
    b.facing = new = (old - 1 + steps) % 8 + 1  # right(), inlined
    b.ap = b.ap - cost if b.ap > cost else 0  # spend(), inlined
    log(st, ("face", b.num, old, new, cost), b.x, b.y, 1 << b.num)


def do_move(st: CtfState, b: Bot, m: int, opt: int) -> None:
    """Bot `b` carries out move order `m` (option `opt`) this phase (CTF-8..CTF-12, CTF-17..
    CTF-19, CTF-30, CTF-31). Hot (most Bots move every phase): the commonest orders, face
    (13) and move toward (6) the nearest enemy, are tested first with the nearest enemy read
    from the turn's cache, and bearing, pivot_steps, toward_step, right, free_sector and
    step_cost are inlined for a step into a free sector (same changes, draws and events)."""
    t = st.tables
    c = t.costs
    posture = b.posture
    if posture == PRONE and m != 18 and not b.legless:
        m = 18  # a fallen bot stands up next phase whatever the orders (CTF-10, CTF-31)
    if m == 0:
        return
    if b.legless and m not in PIVOT_ORDERS:
        skip(st, b, "move", m, "legs destroyed: only pivots (11-17, 22, 23) (CTF-30)")
        return
    if posture == KNEELING and m != 18:
        skip(st, b, "move", m, "kneeling: only orders 0 and 18 (CTF-12)")
        return
    turn_steps = 0
    if m == 13 or m == 6:  # face / move toward the nearest enemy: aim_for(), inlined
        sc = _SCAN
        o = sc[4][b.num] if sc[0] is st else _NO_BOT
        if o is _NO_BOT:
            o = nearest_enemy(st, b)
        if o is None:
            skip(st, b, "move", m, "no such target in scanning range (CTF-21)")
            return
        dx = o.x - b.x
        dy = o.y - b.y
        if m == 13:
            if not dx and not dy:
                return
            diff = ((_BEARINGS.get((dx, dy)) or bearing(dx, dy)) - b.facing) % 8
            steps = diff if diff <= 4 else diff - 8  # pivot_steps()
            if steps == 0:
                return
            cost = c["turn"] * (steps if steps > 0 else -steps)
            if cost > b.ap:
                skip(st, b, "move", m, f"not enough AP (needs {cost}, has {b.ap})")
                return
            turn_bot(st, b, steps, cost)
            return
        facing = b.facing  # toward_step()
        diff = ((_BEARINGS.get((dx, dy)) or bearing(dx, dy)) - facing) % 8
        if diff == 4:
            turn_steps = -1 if side_value(facing, dx, dy) < 0 else 1
        elif diff:
            turn_steps = 1 if diff < 4 else -1
    elif m == 18:
        if posture == STANDING:
            return
        if b.legless:
            skip(st, b, "move", m, "legs destroyed: cannot stand (CTF-30)")
            return
        cost = c["stand_from_kneeling"] if posture == KNEELING else c["stand_from_prone"]
        if cost > b.ap:
            skip(st, b, "move", m, f"not enough AP to stand (needs {cost}, has {b.ap})")
            return
        spend(b, cost)
        add_heat(st, b, t.heat["stand"])
        b.posture = STANDING
        log(st, ("posture", b.num, "stands up", cost), b.x, b.y, 1 << b.num)
        return
    elif m == 20:
        if posture != STANDING:
            return
        cost = c["kneel"]
        if cost > b.ap:
            skip(st, b, "move", m, f"not enough AP to kneel (needs {cost}, has {b.ap})")
            return
        spend(b, cost)
        add_heat(st, b, t.heat["kneel"])
        b.posture = KNEELING
        log(st, ("posture", b.num, "kneels", cost), b.x, b.y, 1 << b.num)
        return
    elif m == 19:
        limit = opt or EJECT_DEFAULT
        if posture != STANDING:
            skip(st, b, "move", m, "only a standing bot can eject (CTF-30)")
            return
        n = b.functional_engines()
        if n > limit:
            skip(st, b, "move", m, f"{n} engines work, above the eject threshold {limit}")
            return
        log(st, ("eject", b.num, n), b.x, b.y, 1 << b.num)
        wreck(st, b, "the pilot ejected and the bot self-destructed", EJECTED)
        return
    elif m == 22 or m == 23:
        cost = c["turn"]
        if cost > b.ap:
            skip(st, b, "move", m, f"not enough AP (needs {cost}, has {b.ap})")
            return
        turn_bot(st, b, 1 if m == 22 else -1, cost)
        return
    elif 11 <= m <= 17:
        if m == 11:
            target = opt
        else:
            aim = aim_for(st, b, m, opt)  # order 12 faces the Bot its option names
            if aim is None:
                skip(st, b, "move", m, "no such target in scanning range (CTF-21)")
                return
            ax, ay = aim
            if ax == b.x and ay == b.y:
                return
            target = bearing(ax - b.x, ay - b.y)
        steps = pivot_steps(b.facing, target)
        if steps == 0:
            return
        cost = c["turn"] * abs(steps)
        if cost > b.ap:
            skip(st, b, "move", m, f"not enough AP (needs {cost}, has {b.ap})")
            return
        turn_bot(st, b, steps, cost)
        return
    # orders that enter a sector: 1-10 and 21
    elif m == 2:
        turn_steps = 1
    elif m == 3:
        turn_steps = -1
    elif 5 <= m <= 10:
        aim = aim_for(st, b, m, opt)
        if aim is None:
            skip(st, b, "move", m, "no such target in scanning range (CTF-21)")
            return
        turn_steps = toward_step(b.facing, aim[0] - b.x, aim[1] - b.y)
    sprint = m == 21
    if sprint and b.ap < c["sprint_minimum"]:
        log_own(st, ("sprintfail", b.num, b.ap, c["sprint_minimum"]), b)
        sprint = False
    facing = b.facing
    if turn_steps:
        facing = (facing - 1 + turn_steps) % 8 + 1  # right()
    backward = m == 4
    d = (facing + 3) % 8 + 1 if backward else facing  # right(facing, 4)
    x, y = b.x, b.y
    nx, ny = x + DX[d], y + DY[d]
    gmap = st.map
    w = gmap.width
    ni = (ny - 1) * w + nx - 1
    if 1 <= nx <= w and 1 <= ny <= gmap.height and not st._occ[ni]:
        why = ""  # free_sector()'s commonest answer
        ground = gmap.ground  # step_cost(), inlined
        mcost = c["move"] + t.terrain[gmap.terrain[ni]].move_cost
        climb = ground[ni] - ground[(y - 1) * w + x - 1]
        if climb > 0:
            mcost += c["climb_per_level"] * climb
        if backward:
            mcost += c["backward"]
        if sprint:
            mcost *= 2
    else:
        why = free_sector(st, nx, ny)
        mcost = 0
    tcost = c["turn"] if turn_steps else 0
    total = tcost + mcost
    if total > b.ap:
        skip(st, b, "move", m, f"not enough AP (needs {total}, has {b.ap})")
        return
    if turn_steps:
        turn_bot(st, b, turn_steps, tcost)
    if why:
        log_blocked(st, b, nx, ny, why)
        return
    h = t.heat["sector_sprint"] if sprint else t.heat["sector"]
    enter(st, b, nx, ny, mcost, h, "sprints" if sprint else "backs" if backward else "moves")
    if sprint:
        b.sprinted = True
        nx, ny = b.x + DX[d], b.y + DY[d]
        why = free_sector(st, nx, ny)
        if why:
            log_blocked(st, b, nx, ny, why)
        else:
            cost2 = step_cost(st, b, b.x, b.y, nx, ny, False) * 2
            if cost2 > b.ap:
                skip(st, b, "move", m, f"sprint stops: not enough AP for a second sector "
                     f"(needs {cost2}, has {b.ap})")
            else:
                enter(st, b, nx, ny, cost2, h, "sprints")
        fall_check(st, b, t.falling["sprint"], "after sprinting")


def log_blocked(st: CtfState, b: Bot, nx: int, ny: int, why: str) -> None:
    """A move the Bot could not make: its own business (log_own)."""
    log_own(st, ("blocked", b.num, nx, ny, why), b)


def aim_for(st: CtfState, b: Bot, m: int, opt: int = 0) -> tuple[int, int] | None:
    """The sector a move-toward (5-10) or face (12-17) order aims at, or None (CTF-19/21)."""
    kind = m - 7 if m >= 12 else m  # 12-17 behave like 5-10
    target: Bot | CommandPost | None
    if kind == 5:
        target = known_bot(st, b, opt)
    elif kind == 6:
        target = nearest_enemy(st, b)
    elif kind == 7:
        target = known_bot(st, b, b.last_by)
    elif kind == 8:
        target = nearest_friend(st, b)
    elif kind == 9:
        target = known_bot(st, b, b.last_at)
    else:
        target = nearest_cp(st, b, friendly=True)
    if target is None:
        return None
    return target.x, target.y


# -- attacks -----------------------------------------------------------------------------------

def weapon_usable(st: CtfState, b: Bot, i: int, tx: int, ty: int) -> str:
    """'' if weapon i can fire at (tx, ty) now, else why not (CTF-27)."""
    loc, w = b.design.weapons[i]
    s = b.weapons[i]
    if s == DESTROYED:
        return f"weapon {i + 1} ({w.key}) is destroyed"
    if b.shut:
        return "weapons are shut down by heat"
    a = arc(b.facing, tx - b.x, ty - b.y)
    if a not in WEAPON_ARCS[loc]:
        return f"target is out of the arc of weapon {i + 1} ({w.key})"
    d = distance(b.x, b.y, tx, ty)
    if d > w.maximum:
        return f"target is beyond the range of weapon {i + 1} ({w.key}): {d} > {w.maximum}"
    cost = weapon_ap(w, s == DAMAGED, st.tables)
    if cost > b.ap:
        return f"not enough AP for weapon {i + 1} ({w.key}): needs {cost}, has {b.ap}"
    return ""


_BY_DAMAGE: dict[int, tuple] = {}


def _by_damage(design) -> tuple[tuple[int, tuple[int, ...], Weapon], ...]:
    """A design's weapons that do damage as (index, arcs, weapon), most damaging first, ties
    in weapon order: the first usable one is `best_weapon`'s pick. Made once per design (the
    designs never change)."""
    hit = _BY_DAMAGE.get(id(design))
    if hit is not None and hit[0] is design:
        return hit[1]
    order = sorted(((i, WEAPON_ARCS[loc], w) for i, (loc, w) in enumerate(design.weapons)
                    if w.damage > 0), key=lambda e: (-e[2].damage, e[0]))
    if len(_BY_DAMAGE) > 256:
        _BY_DAMAGE.clear()
    _BY_DAMAGE[id(design)] = (design, tuple(order))  # holds the design: its id stays its own
    return tuple(order)


def best_weapon(st: CtfState, b: Bot, tx: int, ty: int) -> int:
    """CTF-36: the most damaging usable weapon (ties: lowest number); -1 if none. Usable as
    `weapon_usable` says, its tests inlined with the arc (geometry.arc) and range worked out
    once; the weapons tried most damaging first (`_by_damage`), so the first usable one is the
    pick."""
    if b.shut:
        return -1
    f = b.facing
    dx = tx - b.x
    dy = ty - b.y
    a = dx * DX[f] + dy * DY[f]  # arc(), inlined
    f2 = (f + 1) % 8 + 1
    r = dx * DX[f2] + dy * DY[f2]
    ar = r if r >= 0 else -r
    if a > 0 and ar <= a:
        a = FA
    elif a < 0 and ar < -a:
        a = RA
    else:
        a = RS if r > 0 else LS if r < 0 else FA
    if dx < 0:
        dx = -dx
    if dy < 0:
        dy = -dy
    d = dx if dx > dy else dy  # distance(), inlined
    states = b.weapons
    ap = b.ap
    design = b.design
    hit = _BY_DAMAGE.get(id(design))
    order = hit[1] if hit is not None and hit[0] is design else _by_damage(design)
    for i, arcs, w in order:
        s = states[i]
        if (s != DESTROYED and a in arcs and d <= w.maximum
                and (w.ap if s != DAMAGED else weapon_ap(w, True, st.tables)) <= ap):
            return i
    return -1


def do_attack(st: CtfState, b: Bot, a: int, opt: int, wnum: int) -> None:
    """Bot `b` carries out attack order `a` (CTF-27, CTF-30, CTF-36). Hot: the commonest
    order, the nearest enemy (2), is tested first and reads the turn's cache."""
    target: Bot | CommandPost | None
    if a == 2:
        sc = _SCAN
        target = sc[4][b.num] if sc[0] is st else _NO_BOT
        if target is _NO_BOT:
            target = nearest_enemy(st, b)
        if target is None:  # (an enemy: never of the Bot's team)
            skip(st, b, "attack", a, "no such target (CTF-21, CTF-27)")
            return
    else:
        if a == 0:
            return
        if a == 6:
            tons = b.engine_tons100()
            if tons >= 500:
                skip(st, b, "attack", a, f"self destruct needs under 5 tons of functional "
                     f"engines ({tons / 100:g} t work) (CTF-30)")
                return
            log(st, ("selfdestruct", b.num), b.x, b.y, 1 << b.num)
            wreck(st, b, "self-destructed", DEAD)
            return
        if a == 1:
            target = known_bot(st, b, opt)
        elif a == 3:
            target = known_bot(st, b, b.last_by)
        elif a == 4:
            target = known_bot(st, b, b.last_at)
        else:
            target = nearest_cp(st, b, friendly=False)
        if target is None or (isinstance(target, Bot) and target.team == b.team):
            skip(st, b, "attack", a, "no such target (CTF-21, CTF-27)")
            return
    if wnum == 0:
        i = best_weapon(st, b, target.x, target.y)
        if i < 0:
            skip(st, b, "attack", a, "no weapon can fire at the target (CTF-36)")
            return
    else:
        i = wnum - 1
        why = weapon_usable(st, b, i, target.x, target.y)
        if why:
            skip(st, b, "attack", a, why)
            return
    fire(st, b, i, target)


def fire(st: CtfState, b: Bot, i: int, target: Bot | CommandPost) -> None:
    """Bot `b` fires weapon i at `target` (CTF-27, CTF-28). Hot: every shot of every phase,
    so spend, add_heat, the elevations, distance, seen_pair and the to-hit sum are inlined
    (same order of changes, draws and events as the helpers would give)."""
    t = st.tables
    th = t.to_hit
    loc, w = b.design.weapons[i]
    damaged = b.weapons[i] == DAMAGED
    cost = w.ap if not damaged else weapon_ap(w, True, t)
    b.ap = b.ap - cost if b.ap > cost else 0  # spend()
    h = b.heat + w.heat  # add_heat()
    mx = t.heat["maximum"]
    b.heat = h if h < mx else mx
    gmap = st.map
    ground = gmap.ground
    mw = gmap.width
    bx, by = b.x, b.y
    tx, ty = target.x, target.y
    # `is_bot` tells which `target` is, tested once: the lines that read the fields of one
    # kind only carry `type: ignore` (a type checker does not narrow through the flag)
    is_bot = isinstance(target, Bot)
    e0 = ground[(by - 1) * mw + bx - 1]  # bot_elevation()
    if not b.status:
        e0 += 2 if b.posture == STANDING else 1
    e1 = ground[(ty - 1) * mw + tx - 1]
    if is_bot:
        if not target.status:  # type: ignore[union-attr]
            e1 += 2 if target.posture == STANDING else 1  # type: ignore[union-attr]
    else:  # cp_elevation(); operational
        e1 += 2 if target.structure > 0 else 1  # type: ignore[union-attr]
    dx = tx - bx
    dy = ty - by
    if dx < 0:
        dx = -dx
    if dy < 0:
        dy = -dy
    d = dx if dx > dy else dy  # distance()
    path, blocked = _track(st, bx, by, e0, tx, ty, e1)
    # whoever sees the shot sees the firer; the target Bot is named only to those who see it
    sc = _SCAN  # seen_pair(): _scan_at, inlined (Bots' and CPs' sectors)
    if sc[0] is st:
        cols, rows = sc[1]
        at_firer = cols[bx] & rows[by]
        at_tgt = cols[tx] & rows[ty]
    else:
        at_firer = _scan_at(st, bx, by)
        at_tgt = _scan_at(st, tx, ty)
    tcode: int | str
    if is_bot:
        tcode = target.num
        involved = (1 << b.num) | (1 << tcode)
        seen = involved | at_firer
        at_target = involved | at_tgt
        named: tuple | None = ((2, at_target),)
    else:
        tcode = target.label
        involved = 1 << b.num
        seen = involved | at_firer
        named = None
    if blocked:
        log_seen(st, ("shot", b.num, tcode, i + 1, w.key, d, 0, 0, False, path, True),
                 seen, named)
        return
    opt = w.optimum  # the base chance by distance
    if d <= opt:
        chance = th["at_optimum"] + th["per_sector_closer"] * (opt - d)
    elif d <= -(-(opt + w.maximum) // 2):
        chance = th["beyond_optimum"]
    else:
        chance = th["far"]
    dodge = 0
    if is_bot:
        # the target's cover, posture, movement
        tposture = target.posture  # type: ignore[union-attr]
        chance += t.terrain[gmap.terrain[(ty - 1) * mw + tx - 1]].cover
        if tposture != STANDING:
            chance += th["target_kneeling_or_prone"]
        chance += th["per_sector_target_moved"] * target.entered  # type: ignore[union-attr]
        if (tposture == STANDING  # dodge_mod()'s own test
                and t.bands[target.band].dodge  # type: ignore[union-attr]
                and target.ap >= th["dodge_min_ap"]):  # type: ignore[union-attr]
            dodge = dodge_mod(st, target)  # type: ignore[arg-type]
            chance += dodge
    else:
        chance += th["at_command_post"]
    if b.entered:
        chance += th["attacker_sprinted"] if b.sprinted else th["attacker_moved"]
    posture = b.posture
    if posture == KNEELING:
        chance += th["attacker_kneeling"]
    elif posture == PRONE:
        chance += th["attacker_prone"]
    chance += t.bands[b.band].to_hit + th["per_wound"] * b.wounds
    if damaged:
        chance += th["damaged_weapon"]
    hi = th["maximum"]  # max(minimum, min(maximum, chance))
    if chance > hi:
        chance = hi
    lo = th["minimum"]
    if chance < lo:
        chance = lo
    if dodge:  # seen at the target by those involved: at_target (nothing moved since)
        log_seen(st, ("dodge", target.num, dodge), at_target, None)
    roll = st.rng.randint(1, 100)
    hit = roll <= chance
    log_seen(st, ("shot", b.num, tcode, i + 1, w.key, d, chance, roll, hit, path, False),
             seen, named)
    if not hit:
        return
    if is_bot:
        target.last_by = b.num  # type: ignore[union-attr]
        b.last_at = target.num
        a = arc(target.facing, bx - tx, by - ty)  # type: ignore[union-attr]
        # the hit is seen where the shot was: the same Bots stand where they stood
        applied = hit_bot(st, target, w, a, b.num, (at_target, seen))  # type: ignore[arg-type]
        b.vp += applied
    else:
        applied = hit_cp(st, target, w.damage, b.num)  # type: ignore[arg-type]
        b.vp += 2 * applied


def dodge_mod(st: CtfState, target: Bot) -> int:
    """CTF-28: a standing target with 2+ AP dodges every rolled shot, paying for it."""
    t = st.tables
    th = t.to_hit
    band = t.bands[target.band]
    if target.posture != STANDING or band.dodge == 0 or target.ap < th["dodge_min_ap"]:
        return 0
    m = max(th["dodge_max"], th["dodge_per_5_ap"] * (target.ap // 5))
    if band.dodge == 1:
        m = -((-m) // 2)
    cost = t.costs["dodge"]  # spend(), inlined
    target.ap = target.ap - cost if target.ap > cost else 0
    h = target.heat + t.heat["dodge"]  # add_heat(), inlined
    mx = t.heat["maximum"]
    target.heat = h if h < mx else mx
    return m


def hit_bot(st: CtfState, target: Bot, w: Weapon, angle: int, by: int,
            masks: tuple[int, int] | None = None) -> int:
    """Apply a hit (CTF-29, CTF-30); return the damage actually applied. `masks`: the hit
    event's sighting when the caller has it (seen at the target and, for a Bot firing, at the
    shooter; the shot was logged with the same Bots where they stand now)."""
    t = st.tables
    rng = st.rng
    roll = rng.randint(1, 20)
    loc = t.locations[ANGLE_TABLE[angle]][roll - 1]
    rear = angle == RA
    remaining = w.damage
    applied = 0
    first_internal = -1
    reached_legs = False
    head_internal = False
    events = []
    cur = loc
    guard = 0
    armour, internal = target.armour, target.internal
    while remaining > 0 and cur >= 0 and guard < 8:
        guard += 1
        inside = internal[cur]
        if inside == 0:
            cur = transfer(target, cur, rear)
            continue
        a = armour[cur]
        if a > remaining:  # min(), inlined
            a = remaining
        armour[cur] -= a
        remaining -= a
        n = inside if inside < remaining else remaining
        internal[cur] = inside = inside - n
        remaining -= n
        applied += a + n
        events.append((LOCATION_CODES[cur], a + n))
        if n:
            if first_internal < 0:
                first_internal = cur
            if cur == LEGS:
                reached_legs = True
            if cur == HEAD:
                head_internal = True
        if inside == 0:
            destroy_location(st, target, cur)
        if remaining:
            cur = transfer(target, cur, rear)
    event = ("hit", target.num, by, roll, LOCATION_CODES[loc], tuple(events), applied, remaining)
    if masks is not None:
        if by > 0:
            log_seen(st, event, masks[0], ((2, masks[1]),))
        else:
            log_seen(st, event, masks[0], None)
    elif by > 0:  # the firing Bot is named only to those who see it
        shooter = st._bots[by - 1]
        involved = (1 << target.num) | (1 << by)
        seen, at_shooter = seen_pair(st, target.x, target.y, shooter.x, shooter.y, involved)
        log_seen(st, event, seen, ((2, at_shooter),))
    else:
        log(st, event, target.x, target.y, 1 << target.num)
    h = target.heat + (t.heat["hit_energy"] if w.energy else t.heat["hit"])  # add_heat()
    mx = t.heat["maximum"]
    target.heat = h if h < mx else mx
    if first_internal >= 0 and target.internal[first_internal] > 0:
        strike_item(st, target, first_internal)
    if head_internal and target.pilot == 0:
        target.wounds += 1
        log_own(st, ("wound", target.num, target.wounds), target)
    if target.internal[HEAD] == 0:
        wreck(st, target, "head destroyed: the pilot is dead", DEAD)
    elif target.wounds >= t.wounds_to_kill:
        wreck(st, target, "the pilot died of wounds", DEAD)
    elif sum(target.engines) == 0:  # functional_engines()
        wreck(st, target, "no engine works", target.pilot)
    elif target.posture == STANDING and (applied >= t.falling["heavy_hit_damage"]
                                         or reached_legs):
        fall_check(st, target, t.falling["heavy_hit"], "after a heavy hit")
    return applied


def transfer(b: Bot, loc: int, rear: bool) -> int:
    """Where damage passes on from `loc` (CTF-29); -1 when both torsos are gone."""
    if loc in (HEAD, LA, RARM, LEGS):
        nxt = RT if rear else FT
    elif loc == FT:
        nxt = RT
    else:
        nxt = FT
    if b.internal[nxt] > 0:
        return nxt
    other = FT if nxt == RT else RT
    return other if b.internal[other] > 0 else -1


def _engines_in(b: Bot, loc: int) -> range:
    """The engines in location `loc`: the first half (rounded up) in the
    front torso, the rest in the rear, none elsewhere; in engine order."""
    half = (b.design.engines + 1) // 2
    if loc == FT:
        return range(min(half, len(b.engines)))
    if loc == RT:
        return range(half, len(b.engines))
    return range(0)


def destroy_location(st: CtfState, b: Bot, loc: int) -> None:
    for i, (wl, _) in enumerate(b.design.weapons):
        if wl == loc:
            b.weapons[i] = DESTROYED
    engines = b.engines
    for i in _engines_in(b, loc):
        engines[i] = 0
    log(st, ("destroyed", b.num, LOCATION_CODES[loc]), b.x, b.y, 1 << b.num)
    if loc == LEGS:
        b.legless = True
        if b.posture != PRONE:
            b.posture = PRONE
            b.fallen = True
            log(st, ("fall", b.num, "legs destroyed", 0, 0, True), b.x, b.y, 1 << b.num)


def strike_item(st: CtfState, b: Bot, loc: int) -> None:
    """CTF-30: one functional item in the location, equal odds: an engine is destroyed, a
    weapon damaged (destroyed if already damaged)."""
    engines = b.engines
    items = [("e", i) for i in _engines_in(b, loc) if engines[i]]
    items += [("w", i) for i, (wl, _) in enumerate(b.design.weapons)
              if wl == loc and b.weapons[i] != DESTROYED]
    if not items:
        return
    kind, i = items[st.rng.below(len(items))]
    if kind == "e":
        b.engines[i] = 0
        text = f"engine destroyed ({b.functional_engines()} left)"
    else:
        b.weapons[i] += 1
        state = "damaged" if b.weapons[i] == DAMAGED else "destroyed"
        text = f"weapon {i + 1} ({b.design.weapons[i][1].key}) {state}"
    log_own(st, ("item", b.num, LOCATION_CODES[loc], text), b)


def fall_check(st: CtfState, b: Bot, base: int, why: str) -> None:
    if b.status != FUNCTIONAL or b.posture != STANDING:
        return
    f = st.tables.falling
    chance = base + st.tables.bands[b.band].fall + max(f["ap_max"], f["per_5_ap"] * (b.ap // 5))
    chance = max(f["minimum"], chance)
    roll = st.rng.randint(1, 100)
    fell = roll <= chance
    if fell:
        b.posture = PRONE
        b.fallen = True
    log(st, ("fall", b.num, why, chance, roll, fell), b.x, b.y, 1 << b.num)


def wreck(st: CtfState, b: Bot, reason: str, pilot: int) -> None:
    """CTF-10/30: the bot becomes Wreckage where it stands."""
    b.status = WRECKED
    _scan_changed(st)  # a Wreckage sees nothing
    b.pilot = pilot
    b.wreck_reason = reason
    log(st, ("wreck", b.num, reason), b.x, b.y, 1 << b.num)


def hit_cp(st: CtfState, c: CommandPost, damage: int, by: int) -> int:
    applied = min(damage, c.structure)
    c.structure -= applied
    shooter = st._bots[by - 1]
    seen, at_shooter = seen_pair(st, c.x, c.y, shooter.x, shooter.y, 1 << by)
    log_seen(st, ("cphit", c.label, by, applied, c.structure), seen, ((2, at_shooter),))
    if c.structure == 0:
        log(st, ("ruins", c.label), c.x, c.y, 1 << by)
    return applied


def _cp_reach(t) -> int:
    """The longest maximum range of the command posts' weapons (per tables, made once)."""
    return _per_tables(t)[1]


def cp_fire(st: CtfState, c: CommandPost, reach: int | None = None) -> None:
    """CTF-34: each CP weapon fires at the nearest functional enemy bot in range with a clear
    line of fire; normal to-hit, no heat, movement or wounds. Hot (every command post, every
    phase): the to-hit sum, seen_pair and the elevations inlined, dodge_mod called
    only when the target can dodge (same order of changes, draws and events)."""
    t = st.tables
    cx, cy, team = c.x, c.y, c.team
    if reach is None:
        reach = _cp_reach(t)
    cands = []
    bots = st._bots
    sc = _SCAN
    # enemies in reach of some CP weapon, nearest first (ties: Bot order)
    for b in sc[2][team] if sc[0] is st else [o for o in bots if o.team != team]:
        if not b.status:
            dx = b.x - cx
            dy = b.y - cy
            if dx < 0:
                dx = -dx
            if dy < 0:
                dy = -dy
            if dx < dy:
                dx = dy  # distance(), inlined
            if dx <= reach:
                cands.append((dx, b.num))
    if not cands:
        return  # nothing in reach: no track is traced
    if len(cands) > 1:
        cands.sort()
    th = t.to_hit
    gmap = st.map
    ground, mw = gmap.ground, gmap.width
    e0 = ground[(cy - 1) * mw + cx - 1] + (2 if c.structure > 0 else 1)
    for w in t.cp_weapons:  # e0: cp_elevation(), inlined
        for d, num in cands:
            if d > w.maximum:
                break
            b = bots[num - 1]
            if b.status != FUNCTIONAL:
                continue
            bx, by = b.x, b.y
            bi = (by - 1) * mw + bx - 1
            posture = b.posture
            e1 = ground[bi] + (2 if posture == STANDING else 1)  # a functional Bot's
            path, blocked = _track(st, cx, cy, e0, bx, by, e1)
            if blocked:
                continue
            opt = w.optimum  # the base chance by distance
            if d <= opt:
                chance = th["at_optimum"] + th["per_sector_closer"] * (opt - d)
            elif d <= -(-(opt + w.maximum) // 2):
                chance = th["beyond_optimum"]
            else:
                chance = th["far"]
            chance += t.terrain[gmap.terrain[bi]].cover  # the target's cover, posture, movement
            if posture != STANDING:
                chance += th["target_kneeling_or_prone"]
            chance += th["per_sector_target_moved"] * b.entered
            dodge = 0
            if (posture == STANDING and t.bands[b.band].dodge  # dodge_mod()'s own test
                    and b.ap >= th["dodge_min_ap"]):
                dodge = dodge_mod(st, b)
            chance += dodge
            hi = th["maximum"]
            if chance > hi:
                chance = hi
            lo = th["minimum"]
            if chance < lo:
                chance = lo
            # seen_pair(): who sees the command post, who sees the target Bot
            sc = _SCAN  # _scan_at, inlined
            if sc[0] is st:
                cols, rows = sc[1]
                seen = 1 << num | cols[cx] & rows[cy]
                at_target = 1 << num | cols[bx] & rows[by]
            else:
                seen = 1 << num | _scan_at(st, cx, cy)
                at_target = 1 << num | _scan_at(st, bx, by)
            if dodge:  # seen at the target by it and every Bot in range: at_target
                log_seen(st, ("dodge", num, dodge), at_target, None)
            roll = st.rng.randint(1, 100)
            hit = roll <= chance
            log_seen(st, ("shot", c.label, num, 0, w.key, d, chance, roll, hit, path,
                          False), seen, ((2, at_target),))
            if hit:
                hit_bot(st, b, w, arc(b.facing, cx - bx, cy - by), 0, (at_target, 0))
            break
