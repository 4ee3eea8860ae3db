"""CTF 2187 for learners: the observation and information-state tensors.

The action ids (a fixed menu of order sheets per Bot) live on the state (`CtfState.menu`,
`action_id`, `id_action`). The tensors here are built from `view(player)` only: the player's
own Bots whole, what their scanners show of other Bots (contacts), the terrain their visual
displays show, the command posts (public, CTF-21), their own team's rating, and in the
information state their own sheets and standing orders and a summary of what their Bots saw
of the last turn. Nothing of an unseen Bot, hidden terrain or another player's orders is in
the view, so nothing of it can be in a tensor. Layout in docs/ctf2187.md, "For learners".
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from boardct.core.encoding import dense, flag, one_hot, scaled
from boardct.games.ctf2187.units import PILOT_STATES, POSTURES, TEAM_LETTERS, WEAPON_STATES

MAP_PLANES = ("own bot", "friendly contact", "enemy contact", "wreckage", "own command post",
              "enemy command post", "command post ruins", "in sight")
# Event kinds of a turn's log (engine.py) counted in the information state, / LOG_SCALE each.
LOG_KINDS = ("move", "face", "posture", "fall", "sprintfail", "blocked", "shot", "dodge", "hit",
             "cphit", "ruins", "wound", "destroyed", "wreck", "eject", "selfdestruct", "heatfx",
             "skip", "order")
LOG_SCALE = 20.0
AP_SCALE = 100.0
HEAT_SCALE = 50.0
ELEVATION_SCALE = 10.0
MAX_WOUNDS = 6.0
LOCATIONS = 6


@dataclass(frozen=True)
class Layout:
    """Where each field sits for one setup: the map's size, the terrain codes of its tables,
    Bots per player, weapons of the best-armed design, menu size and command posts. Fixed for
    every state of a setup (options and tables only)."""

    width: int
    height: int
    terrain: tuple[str, ...]
    bots: int  # Bots each player commands
    weapons: int
    menu: int
    cps: int
    cp_structure: int

    @staticmethod
    def of(state: Any) -> Layout:
        cached = _LAYOUTS.get(id(state.setup))
        if cached is not None and cached[0] is state.setup:
            return cached[1]
        players = len(state.setup.names)
        layout = Layout(state.map.width, state.map.height,
                        tuple(t.code for t in state.tables.terrain),
                        len(state.bots) // players,
                        max(len(b.design.weapons) for b in state.bots), state.menu_size(),
                        len(state.cps), state.tables.cp_structure)
        if len(_LAYOUTS) > 64:
            _LAYOUTS.clear()
        _LAYOUTS[id(state.setup)] = (state.setup, layout)
        return layout

    @property
    def planes(self) -> int:
        return len(MAP_PLANES) + len(self.terrain) + 1  # + elevation

    @property
    def bot_fields(self) -> int:
        return 1 + 2 + 8 + len(POSTURES) + len(PILOT_STATES) + 5 + 1 + 2 * LOCATIONS \
            + 3 * self.weapons + 3

    @property
    def size(self) -> int:
        return (self.width * self.height * self.planes + self.bots * self.bot_fields
                + 3 * self.cps + 3 + len(TEAM_LETTERS))

    @property
    def info_size(self) -> int:
        return self.size + self.bots * 2 * (self.menu + 1) + len(LOG_KINDS)


_LAYOUTS: dict[int, tuple[Any, Layout]] = {}


def _xy(sector: str) -> tuple[int, int]:
    x, _, y = sector.partition("-")
    return int(x), int(y)


def observation(layout: Layout, view: dict, player: int) -> list[float]:
    w, h = layout.width, layout.height
    board = view["board"]
    cells = w * h
    planes = layout.planes
    grid = [0.0] * (cells * planes)

    def put(x: int, y: int, plane: int, value: float = 1.0) -> None:
        if 1 <= x <= w and 1 <= y <= h:
            grid[plane * cells + (y - 1) * w + (x - 1)] = value

    mine = board.get("bots", [])
    team = mine[0]["team"] if mine else ""
    for b in mine:
        put(b["x"], b["y"], 3 if b["state"] != "functional" else 0)
    for c in board.get("contacts", []):
        x, y = _xy(c["sector"])
        if c["state"] != "functional":
            put(x, y, 3)
        else:
            put(x, y, 1 if c["team"] == team else 2)
    for cp in board["command_posts"]:
        x, y = _xy(cp["sector"])
        put(x, y, 6 if cp["state"] != "operational" else 4 if cp["team"] == team else 5)
    terrain_plane = {code: len(MAP_PLANES) + i for i, code in enumerate(layout.terrain)}
    elevation_plane = planes - 1
    for vis in board.get("visual", []):
        x0, y_top = vis["x_from"], vis["y_from"]
        for row, cells_row in enumerate(vis["rows"]):
            y = y_top - row
            for col, code in enumerate(cells_row):
                x = x0 + col
                name, _, level = code.rpartition("-")
                put(x, y, 7)
                if name in terrain_plane:
                    put(x, y, terrain_plane[name])
                put(x, y, elevation_plane, scaled(int(level), ELEVATION_SCALE))
    out = grid
    owed = set(board.get("owed", []))
    submitted = set(board.get("submitted", []))
    for k in range(layout.bots):
        if k >= len(mine):
            out.extend([0.0] * layout.bot_fields)
            continue
        b = mine[k]
        out.append(flag(b["state"] == "functional"))
        out.append(scaled(b["x"], w))
        out.append(scaled(b["y"], h))
        one_hot(out, b["facing"] - 1, 8)
        one_hot(out, POSTURES.index(b["posture"]), len(POSTURES))
        one_hot(out, PILOT_STATES.index(b["pilot"]), len(PILOT_STATES))
        out.append(scaled(b["ap_left"] or 0, AP_SCALE))
        out.append(scaled(b["heat"], HEAT_SCALE))
        out.append(scaled(b["cooling"], HEAT_SCALE))
        out.append(scaled(b["wounds"], MAX_WOUNDS))
        out.append(scaled(b["engines"], b["engines_total"]))
        out.append(scaled(b["rating"], 2.0))
        for loc in b["locations"]:
            out.append(scaled(loc["armour"], loc["armour_max"]))
            out.append(scaled(loc["internal"], loc["internal_max"]))
        weapons = b["weapons"]
        for i in range(layout.weapons):
            one_hot(out, WEAPON_STATES.index(weapons[i]["state"]) if i < len(weapons) else -1,
                    3)
        out.append(scaled(b["ap_start"] or 0, AP_SCALE))
        out.append(flag(b["bot"] in owed))
        out.append(flag(b["bot"] in submitted))
    for cp in board["command_posts"]:
        out.append(scaled(cp["structure"], layout.cp_structure))
        out.append(flag(cp["state"] == "operational"))
        out.append(flag(cp["team"] == team))
    for _ in range(layout.cps - len(board["command_posts"])):
        out.extend((0.0, 0.0, 0.0))
    out.append(scaled(view["turn"], board["turns"]))
    ratings = {t["team"]: t["rating"] for t in board["teams"]}
    out.append(scaled(ratings.get(team, 0.0), 2.0))
    out.append(flag(view["result"] is not None))
    one_hot(out, TEAM_LETTERS.index(team) if team in TEAM_LETTERS else -1, len(TEAM_LETTERS))
    return out


def sheet_orders(text: str) -> tuple[int, ...]:
    """The 25 order numbers of a sheet's canonical one-line text (`-` is 0)."""
    out: list[int] = []
    for part in text.split(";")[1:]:
        out += [0 if tok == "-" else int(tok) for tok in part.split()[1:]]
    return tuple(out)


def information_state(layout: Layout, view: dict, player: int) -> list[float]:
    """The observation; per own Bot its sheet handed in this turn and its standing orders, each
    as a one-hot of its menu entry (a TURN sheet's) or "another sheet" (all 0: none); and the
    number of events of each kind its Bots saw in the last turn (LOG_KINDS)."""
    from boardct.games.ctf2187.sheet import TURN
    from boardct.games.ctf2187.state import _menu_index

    out = observation(layout, view, player)
    board = view["board"]
    mine = board.get("bots", [])
    sheets = board.get("sheets", {})
    standing = board.get("standing_orders", {})
    for k in range(layout.bots):
        for texts in (sheets, standing):
            block = [0.0] * (layout.menu + 1)
            if k < len(mine):
                b = mine[k]
                text = texts.get(str(b["bot"]))
                if text is not None:
                    index = _menu_index(len(b["weapons"]), layout.menu)
                    entry = index.get((TURN, *sheet_orders(text)))
                    block[layout.menu if entry is None else entry] = 1.0
            out += block
    counts = dict.fromkeys(LOG_KINDS, 0)
    for event in board.get("log", []):
        if event and event[0] in counts:
            counts[event[0]] += 1
    out += [scaled(counts[kind], LOG_SCALE) for kind in LOG_KINDS]
    return out


# -- the fast path ---------------------------------------------------------------------------
# `observation` and `information_state` above are the definition, from `view(player)`. The view
# spells out every visible sector as a terrain code text that the tensor then parses back, and
# every Bot, weapon and sheet as dicts and text: far more than the tensor costs, at every step
# of a learner. `fast_observation` and `fast_information_state` read from the state exactly what
# `view(player)` holds (the player's own Bots, the Bots their scanners detect (`contacts`), the
# sectors within their Bots' visual radius, the command posts, their own team's rating, their
# own sheets and what their Bots saw of the last turn) and nothing else; the per-sector values
# come from the same terrain code text, worked out once per map (a map never changes), and the
# log's counts once per turn. tests/core/test_fast_observation.py checks both equal the
# view-based ones on many random states, and the blindness property holds for them.
# id(map) -> (map, tables, (each sector's terrain plane cell or -1, its elevation value))
_MAPS: dict[int, tuple[Any, Any, tuple[list[int], list[float]]]] = {}
_LOGS: dict[tuple[int, int], tuple[Any, int, list[float]]] = {}  # (id(log), mask) -> counts
_KINDS: dict[tuple[int, tuple[str, ...]], tuple[Any, dict]] = {}  # per terrain tables
_SHEETS: dict[tuple[int, ...], tuple[int, ...]] = {}  # orders -> sheet_orders of their text
_POSTURE = tuple(POSTURES.index(p) for p in POSTURES)
_PILOT = tuple(PILOT_STATES.index(p) for p in PILOT_STATES)
_WEAPON = tuple(WEAPON_STATES.index(s) for s in WEAPON_STATES)


def _map_planes(state: Any, layout: Layout) -> tuple[list[int], list[float]]:
    """Per sector of the map, what `observation` makes of the terrain code text
    `report.terrain_code` writes for it when in sight: the index in the tensor of its terrain
    plane's cell (-1: a code with no plane), and its elevation value."""
    m, tables = state.map, state.tables
    cached = _MAPS.get(id(m))
    if cached is not None and cached[0] is m and cached[1] is tables:
        return cached[2]
    cells = m.width * m.height
    values = _sector_values(state, layout, list(zip(m.terrain, m.ground, strict=True)))
    where = [-1 if v[0] < 0 else v[0] * cells + i for i, v in enumerate(values)]
    elevation = [v[1] for v in values]
    if len(_MAPS) > 32:
        _MAPS.clear()
    _MAPS[id(m)] = (m, tables, (where, elevation))
    return where, elevation


def _sector_values(state: Any, layout: Layout, keys: list[tuple[int, int]]
                   ) -> list[tuple[int, float]]:
    """Per kind of sector (terrain index, ground elevation), what `observation` makes of the
    terrain code text `report.terrain_code` writes for it when in sight: its terrain plane
    (-1: a code with no plane) and its elevation value; remembered per terrain tables."""
    tables = state.tables
    kinds = _KINDS.get((id(tables), layout.terrain))
    if kinds is None or kinds[0] is not tables:
        if len(_KINDS) > 32:
            _KINDS.clear()
        kinds = _KINDS[(id(tables), layout.terrain)] = (tables, {})
    known = kinds[1]  # (terrain, ground) -> (terrain plane or -1, elevation value)
    new = set(keys) - known.keys()
    if new:
        terrain_plane = {code: len(MAP_PLANES) + i for i, code in enumerate(layout.terrain)}
        for key in new:
            t = tables.terrain[key[0]]
            # the text report.terrain_code writes for such a sector, read as `observation` does
            name, _, level = f"{t.code}-{key[1] + t.elevation}".rpartition("-")
            known[key] = (terrain_plane.get(name, -1), scaled(int(level), ELEVATION_SCALE))
    return [known[key] for key in keys]


def _visual_slow(layout: Layout, state: Any, mine: list, out: dict[int, float]) -> None:
    """The visual planes through the view's own code (only for a map whose size differs from
    the layout's, which a state of one setup never has)."""
    from boardct.games.ctf2187.report import visual_display

    grid = observation(layout, {"visual": [visual_display(state, b) for b in mine],
                                "command_posts": [], "turn": 0, "turns": 1, "teams": [],
                                "over": False}, 0)
    first = (len(MAP_PLANES) - 1) * layout.width * layout.height
    for i in range(first, layout.width * layout.height * layout.planes):
        if grid[i]:
            out[i] = grid[i]


def _read_only(state: Any, name: str) -> list:
    """`state.bots` / `state.cps` to read, not change: an engine that shares them between
    clones until one changes them (copy on write, as `_bots` / `_cps`) would otherwise copy
    them for every tensor; the fast path only reads them."""
    shared = getattr(state, "_" + name, None)
    return shared if shared is not None else getattr(state, name)


def _bot_rating(state: Any, b: Any) -> float:
    """`float(state.bot_rating(b))`: VP per ton (CTF-39). Division of whole numbers is
    correctly rounded, as `float` of their `Fraction` is, so it is the same float without
    building the Fraction (anything else: the rules' own way)."""
    vp, tons = b.vp, b.design.tons
    if type(vp) is int and type(tons) is int and tons:
        return vp / tons
    return float(state.bot_rating(b))


def _team_rating(state: Any, team: int) -> float:
    """`float(state.team_rating(team))`, the same way as `_bot_rating`."""
    members = [b for b in _read_only(state, "bots") if b.team == team]
    vp = sum(b.vp for b in members)
    tons = sum(b.design.tons for b in members)
    if type(vp) is int and type(tons) is int and tons:
        return vp / tons
    return float(state.team_rating(team))


def fast_observation(layout: Layout, state: Any, player: int) -> list[float]:
    """`observation(layout, state.view(player), player)`, value for value, from the state."""
    return dense(fast_entries(layout, state, player), layout.size)


_AT_LEAST_0 = (0).__le__  # a terrain plane's cell (-1: a code with no plane)


def fast_entries(layout: Layout, state: Any, player: int) -> dict[int, float]:
    """The entries of `fast_observation` that may be nonzero (position -> value), written
    into a dict so that an adapter copies these few rather than the whole tensor."""
    from boardct.games.ctf2187.units import FUNCTIONAL

    w, h = layout.width, layout.height
    cells = w * h
    out: dict[int, float] = {}
    mine = [b for b in _read_only(state, "bots") if b.player == player]  # state.bots_of
    team = TEAM_LETTERS[mine[0].team] if mine else ""
    for b in mine:
        if 1 <= b.x <= w and 1 <= b.y <= h:
            out[(3 if b.status != FUNCTIONAL else 0) * cells + (b.y - 1) * w + b.x - 1] = 1.0
    for o in state.contacts(mine):
        if 1 <= o.x <= w and 1 <= o.y <= h:
            plane = 3 if o.status != FUNCTIONAL else 1 if TEAM_LETTERS[o.team] == team else 2
            out[plane * cells + (o.y - 1) * w + o.x - 1] = 1.0
    cps = _read_only(state, "cps")
    for c in cps:
        if 1 <= c.x <= w and 1 <= c.y <= h:
            plane = 6 if not c.operational else 4 if TEAM_LETTERS[c.team] == team else 5
            out[plane * cells + (c.y - 1) * w + c.x - 1] = 1.0
    if mine and state.map.width == w and state.map.height == h:
        where, elevation = _map_planes(state, layout)
        sight = (len(MAP_PLANES) - 1) * cells
        height = (layout.planes - 1) * cells
        r = state.tables.visual_radius
        for b in mine:
            x0, x1 = max(1, b.x - r), min(w, b.x + r)
            y0, y1 = max(1, b.y - r), min(h, b.y + r)
            n = x1 - x0 + 1
            if n <= 0:
                continue
            for y in range(y0, y1 + 1):  # a row of sectors in sight, written in C
                a = (y - 1) * w + x0 - 1
                out.update(dict.fromkeys(range(sight + a, sight + a + n), 1.0))
                out.update(zip(range(height + a, height + a + n), elevation[a:a + n],
                               strict=True))
                out.update(dict.fromkeys(filter(_AT_LEAST_0, where[a:a + n]), 1.0))
    elif mine:  # a map not of the layout's size: the view's way, put() clipping
        _visual_slow(layout, state, mine, out)
    at = cells * layout.planes
    owed = set(state.owed(player))
    bot_fields = layout.bot_fields
    for k in range(min(layout.bots, len(mine))):
        b = mine[k]
        d = b.design
        wreck = b.status != FUNCTIONAL
        o = at + k * bot_fields
        out[o] = flag(not wreck)
        out[o + 1] = scaled(b.x, w)
        out[o + 2] = scaled(b.y, h)
        if 0 <= b.facing - 1 < 8:
            out[o + 3 + b.facing - 1] = 1.0
        o += 11
        out[o + _POSTURE[b.posture]] = 1.0
        o += len(POSTURES)
        out[o + _PILOT[b.pilot]] = 1.0
        o += len(PILOT_STATES)
        out[o] = scaled((None if wreck else b.ap) or 0, AP_SCALE)
        out[o + 1] = scaled(b.heat, HEAT_SCALE)
        out[o + 2] = scaled(b.cooled, HEAT_SCALE)
        out[o + 3] = scaled(b.wounds, MAX_WOUNDS)
        out[o + 4] = scaled(b.functional_engines(), d.engines)
        out[o + 5] = scaled(round(_bot_rating(state, b), 2), 2.0)
        o += 6
        for i in range(6):
            out[o] = scaled(b.armour[i], d.armour[i])
            out[o + 1] = scaled(b.internal[i], d.internal[i])
            o += 2
        n = len(d.weapons)
        for i in range(layout.weapons):
            if i < n:
                out[o + _WEAPON[b.weapons[i]]] = 1.0
            o += 3
        out[o] = scaled((None if wreck else b.ap_start) or 0, AP_SCALE)
        out[o + 1] = flag(b.num in owed)
        out[o + 2] = flag(b.sheet is not None)
    at += layout.bots * bot_fields
    for c in cps:
        out[at] = scaled(c.structure, layout.cp_structure)
        out[at + 1] = flag(c.operational)
        out[at + 2] = flag(TEAM_LETTERS[c.team] == team)
        at += 3
    at += 3 * max(0, layout.cps - len(cps))
    out[at] = scaled(state.turn, state.turns)
    rating = round(_team_rating(state, mine[0].team), 2) if mine else 0.0
    out[at + 1] = scaled(rating, 2.0)
    out[at + 2] = flag(state.over is not None)
    if team in TEAM_LETTERS:
        out[at + 3 + TEAM_LETTERS.index(team)] = 1.0
    return out


def _orders_entry(orders: tuple[int, ...], nweapons: int, menu: int) -> int:
    """The menu entry of a TURN sheet with these orders, `menu` for another sheet: as
    `information_state` finds it from the sheet's canonical text."""
    from boardct.games.ctf2187.sheet import TURN, sheet_text
    from boardct.games.ctf2187.state import _menu_index

    parsed = _SHEETS.get(orders)
    if parsed is None:
        parsed = sheet_orders(sheet_text(TURN, 0, orders, 0))
        if len(_SHEETS) > 4096:
            _SHEETS.clear()
        _SHEETS[orders] = parsed
    entry = _menu_index(nweapons, menu).get((TURN, *parsed))
    return menu if entry is None else entry


def _log_counts(state: Any, player: int) -> list[float]:
    """The LOG_KINDS counts of what `player`'s Bots saw of the last turn, scaled: worked out
    once per processed turn (the log is replaced, never changed, once a turn is done)."""
    mask = state.player_mask(player)
    log = state.log
    key = (id(log), mask)
    cached = _LOGS.get(key)
    if cached is not None and cached[0] is log and cached[1] == len(log):
        return cached[2]
    from boardct.games.ctf2187.engine import seen_by

    counts = dict.fromkeys(LOG_KINDS, 0)
    for m, event in log:  # state.visible_log(player), without copying the events it keeps
        if not (m & mask and getattr(event, "seen", 0) & mask):
            continue  # seen_by would give None
        if getattr(event, "named", 0) is not None:  # it may redact a field: its own way
            event = seen_by(event, mask)
            if event is None:
                continue
        if event and event[0] in counts:
            counts[event[0]] += 1
    values = [scaled(counts[kind], LOG_SCALE) for kind in LOG_KINDS]
    if len(_LOGS) > 256:
        _LOGS.clear()
    _LOGS[key] = (log, len(log), values)
    return values


def fast_information_state(layout: Layout, state: Any, player: int) -> list[float]:
    """`information_state(layout, state.view(player), player)`, value for value."""
    width = layout.menu + 1
    size = layout.size + 2 * layout.bots * width + len(LOG_KINDS)
    return dense(fast_information_entries(layout, state, player), size)


def fast_information_entries(layout: Layout, state: Any, player: int) -> dict[int, float]:
    """The entries of `fast_information_state` that may be nonzero (position -> value): the
    observation's, each Bot's sheet and standing orders, the log's counts."""
    out = fast_entries(layout, state, player)
    mine = [b for b in _read_only(state, "bots") if b.player == player]  # state.bots_of
    width = layout.menu + 1
    at = layout.size
    for k in range(layout.bots):
        for kind in (0, 1):  # the sheet handed in this turn, then the standing orders
            if k < len(mine):
                b = mine[k]
                orders = b.sheet if kind == 0 else b.standing
                if orders is not None:
                    out[at + _orders_entry(tuple(orders), len(b.weapons), layout.menu)] = 1.0
            at += width
    out.update(zip(range(at, at + len(LOG_KINDS)), _log_counts(state, player), strict=True))
    return out


_LEGAL: dict[tuple, list[int]] = {}  # (Bot, weapons, may eject, menu size) -> its ids


def fast_legal_ids(state: Any, player: int | None) -> list[int]:
    """`sorted(state.action_id(a) for a in state.legal_actions(player))`, value for value (no
    id twice: were two sheets of the menu the same, it would be one id): the ids of each owed
    Bot's sheets, worked out once per kind of Bot (they depend only on the
    Bot's number, weapons, whether it may eject and the menu size) and joined in Bot order,
    which is id order."""
    if player is None:
        cur = state.current_players()
        if not cur:
            return []
        player = cur[0]
    size = state.menu_size()
    out: list[int] = []
    bots = _read_only(state, "bots")
    for num in state.owed(player):
        b = bots[num - 1]
        key = (num, len(b.design.weapons), b.functional_engines() <= 4, size)
        ids = _LEGAL.get(key)
        if ids is None:  # without repeats, as `State.legal_ids` promises
            ids = sorted({state.action_id(a) for a in state.sample_sheets(num)})
            if len(_LEGAL) > 4096:
                _LEGAL.clear()
            _LEGAL[key] = ids
        out += ids
    return out
