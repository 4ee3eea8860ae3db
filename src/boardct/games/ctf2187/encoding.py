"""CTF 2187 for learners (issue 20): the observation and information-state tensors.

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

from boardct.core.encoding import flag, one_hot, scaled
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
    cells = w * h
    planes = layout.planes
    grid = [0.0] * (cells * planes)

    def put(x: int, y: int, plane: int, value: float = 1.0) -> None:
        if 1 <= x <= w and 1 <= y <= h:
            grid[plane * cells + (y - 1) * w + (x - 1)] = value

    mine = view.get("bots", [])
    team = mine[0]["team"] if mine else ""
    for b in mine:
        put(b["x"], b["y"], 3 if b["state"] != "functional" else 0)
    for c in view.get("contacts", []):
        x, y = _xy(c["sector"])
        if c["state"] != "functional":
            put(x, y, 3)
        else:
            put(x, y, 1 if c["team"] == team else 2)
    for cp in view["command_posts"]:
        x, y = _xy(cp["sector"])
        put(x, y, 6 if cp["state"] != "operational" else 4 if cp["team"] == team else 5)
    terrain_plane = {code: len(MAP_PLANES) + i for i, code in enumerate(layout.terrain)}
    elevation_plane = planes - 1
    for vis in view.get("visual", []):
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
    owed = set(view.get("owed", []))
    submitted = set(view.get("submitted", []))
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
    for cp in view["command_posts"]:
        out.append(scaled(cp["structure"], layout.cp_structure))
        out.append(flag(cp["state"] == "operational"))
        out.append(flag(cp["team"] == team))
    for _ in range(layout.cps - len(view["command_posts"])):
        out.extend((0.0, 0.0, 0.0))
    out.append(scaled(view["turn"], view["turns"]))
    ratings = {t["team"]: t["rating"] for t in view["teams"]}
    out.append(scaled(ratings.get(team, 0.0), 2.0))
    out.append(flag(view["over"]))
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
    mine = view.get("bots", [])
    sheets = view.get("sheets", {})
    standing = view.get("standing_orders", {})
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
    for event in view.get("log", []):
        if event and event[0] in counts:
            counts[event[0]] += 1
    out += [scaled(counts[kind], LOG_SCALE) for kind in LOG_KINDS]
    return out
