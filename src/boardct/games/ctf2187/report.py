"""CTF 2187 showing: event lines, per-player turn results (CTF-15, CTF-38) as text and JSON,
and the board for the terminal."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from boardct.core.game import MESSAGE
from boardct.games.ctf2187.geometry import ARROWS
from boardct.games.ctf2187.sheet import MISSING, STANDING, sheet_text
from boardct.games.ctf2187.tables import (
    LOCATION_CODES,
    LOCATION_NAMES,
    Weapon,
    turn_ap,
    weapon_ap,
)
from boardct.games.ctf2187.units import (
    FUNCTIONAL,
    PILOT_STATES,
    POSTURES,
    TEAM_LETTERS,
    WEAPON_STATES,
    Bot,
    CommandPost,
)

if TYPE_CHECKING:  # pragma: no cover
    from rich.text import Text

    from boardct.core.game import Outcome
    from boardct.games.ctf2187.state import CtfState

TEAM_STYLES = ("bold cyan", "bold red", "bold green", "bold yellow")
TERRAIN_STYLES = {"open": "white", "light_woods": "green", "heavy_woods": "dark_green",
                  "light_buildings": "grey70", "heavy_buildings": "grey50",
                  "crater": "orange4", "gully": "orange4", "ridge": "yellow",
                  "hill": "gold3", "lake": "blue"}


def sector(x: int, y: int) -> str:
    return f"{x}-{y}"


def _who(code: Any) -> str:
    """A firer or target: a CP label, a Bot number, or 0 for a Bot the reader's Bots could not
    see (engine.seen_by)."""
    if isinstance(code, str):
        return f"CP {code}"
    return f"Bot {code}" if code else "an unseen Bot"


def describe_event(st: CtfState, e: tuple) -> str:
    """One line for people about one event."""
    k = e[0]
    if k == MESSAGE:  # the core's own lines (a resignation, an agreed draw)
        return str(e[1])
    if k == "sheet":
        return (f"Bot {e[1]}: standing orders used (no sheet)" if e[2] == MISSING
                else f"Bot {e[1]}: order sheet in")
    if k == "standing":
        return f"Bot {e[1]}: standing orders changed"
    if k == "turn":
        return f"=== Turn {e[1]} ==="
    if k == "ap":
        how = "follows its standing orders (no sheet arrived)" if e[3] else "follows its sheet"
        return f"Bot {e[1]} has {e[2]} AP this turn and {how}"
    if k == "phase":
        return f"--- Turn {e[1]}, phase {e[2]} ---"
    if k == "order":
        return "Action order: " + (", ".join(f"Bot {n}" for n in e[1]) or "none")
    if k == "cool":
        return f"Bot {e[1]} cools by {e[2]}: heat {e[3]} (heat band {e[4]})"
    if k == "heatfx":
        return f"Bot {e[1]} {e[2]}"
    if k == "move":
        _, n, how, x0, y0, x1, y1, f, cost = e
        return f"Bot {n} {how} {sector(x0, y0)} -> {sector(x1, y1)}, facing {f} ({cost} AP)"
    if k == "face":
        return f"Bot {e[1]} turns from facing {e[2]} to {e[3]} ({e[4]} AP)"
    if k == "blocked":
        return f"Bot {e[1]} cannot enter {sector(e[2], e[3])}: {e[4]}"
    if k == "skip":
        return f"Bot {e[1]} {e[2]} order {e[3]} skipped: {e[4]}"
    if k == "sprintfail":
        return (f"Bot {e[1]} has {e[2]} AP, under {e[3]}: Sprint Forward becomes Move Forward "
                "(CTF-8)")
    if k == "posture":
        return f"Bot {e[1]} {e[2]} ({e[3]} AP)"
    if k == "eject":
        return f"Bot {e[1]}: the pilot ejects ({e[2]} engines working); the bot self-destructs"
    if k == "selfdestruct":
        return f"Bot {e[1]} self-destructs"
    if k == "shot":
        _, by, tgt, wnum, wkey, d, chance, roll, hit, path, blocked = e
        weapon = f"weapon {wnum} ({wkey})" if wnum else wkey
        if not (by and tgt):  # a Bot the reader could not see: no range, odds or track
            head = f"{_who(by)} fires {weapon} at {_who(tgt)}"
            head = head[0].upper() + head[1:]
            return f"{head}: line of fire blocked: miss" if blocked else \
                f"{head}: {'HIT' if hit else 'miss'}"
        head = f"{_who(by)} fires {weapon} at {_who(tgt)}, range {d}"
        tr = " ".join(f"[{sector(x, y)},{h}]" for x, y, h in path)
        if blocked:
            return f"{head}: line of fire blocked at [{sector(path[-1][0], path[-1][1])}]: " \
                   f"miss. Track {tr}"
        res = "HIT" if hit else "miss"
        line = f"{head}: {chance}% to hit, rolled {roll}: {res}"
        return f"{line}. Track {tr}" if tr else line
    if k == "dodge":
        return f"Bot {e[1]} dodges ({e[2]} to hit on the next shot)"
    if k == "hit":
        _, n, by, roll, loc, parts, applied, lost = e
        spread = ", ".join(f"{c} {v}" for c, v in parts)
        extra = f"; {lost} lost" if lost else ""
        return (f"Bot {n} is hit in the {LOCATION_NAMES[LOCATION_CODES.index(loc)]} "
                f"(d20 {roll}): {applied} damage ({spread}{extra})")
    if k == "item":
        return f"Bot {e[1]} {e[2]}: {e[3]}"
    if k == "destroyed":
        return f"Bot {e[1]} loses its {LOCATION_NAMES[LOCATION_CODES.index(e[2])]}"
    if k == "wound":
        return f"Bot {e[1]}: the pilot is wounded ({e[2]} wounds)"
    if k == "fall":
        _, n, why, chance, roll, fell = e
        if not chance:
            return f"Bot {n} falls: {why}"
        verb = "falls" if fell else "stays up"
        return f"Bot {n} {verb} {why} ({chance}% to fall, rolled {roll})"
    if k == "wreck":
        return f"Bot {e[1]} is Wreckage: {e[2]}"
    if k == "cphit":
        return f"CP {e[1]} takes {e[3]} damage from {_who(e[2])} ({e[4]} structure left)"
    if k == "ruins":
        return f"CP {e[1]} is Ruins"
    if k == "end":
        return f"Game over: {e[1]}"
    return " ".join(str(x) for x in e)


# -- structured pieces -------------------------------------------------------------------------

def weapon_entry(st: CtfState, b: Bot, i: int, loc: int, w: Weapon) -> dict:
    """One of a Bot's weapons as its player needs it to write orders (CTF-32): number, code
    and name, where it sits, its state, damage per hit, optimum and maximum range, and the AP
    and heat of one shot (a damaged weapon costs more AP, CTF-34)."""
    state = b.weapons[i]
    return {"number": i + 1, "key": w.key, "name": w.name, "location": LOCATION_CODES[loc],
            "state": WEAPON_STATES[state], "damage": w.damage, "optimum": w.optimum,
            "maximum": w.maximum, "ap": weapon_ap(w, state == 1, st.tables), "heat": w.heat}


def bot_status(st: CtfState, b: Bot) -> dict:
    """A Bot whole, JSON-ready (its own player's, or everyone's once the game is over).
    `player` is numbered from 0 like every player in the core API; the turn results renumber
    it as the command line does. A Wreckage has no action points (`ap_start`, `ap_left`
    null): it acts no more."""
    d = b.design
    wreck = b.status != FUNCTIONAL
    return {
        "bot": b.num, "team": TEAM_LETTERS[b.team], "player": b.player,
        "design": d.name, "tons": d.tons, "class": d.wclass,
        "sector": sector(b.x, b.y), "x": b.x, "y": b.y, "facing": b.facing,
        "posture": POSTURES[b.posture],
        "state": "functional" if b.status == FUNCTIONAL else "wreckage",
        "pilot": PILOT_STATES[b.pilot], "wreck_reason": b.wreck_reason,
        "ap_start": None if wreck else b.ap_start, "ap_left": None if wreck else b.ap,
        "heat": b.heat, "cooling": b.cooled,
        "wounds": b.wounds, "engines": b.functional_engines(), "engines_total": d.engines,
        "engine_tons": b.engine_tons100() / 100,
        "locations": [{"location": LOCATION_CODES[i], "armour": b.armour[i],
                       "armour_max": d.armour[i], "internal": b.internal[i],
                       "internal_max": d.internal[i], "destroyed": b.internal[i] == 0}
                      for i in range(6)],
        "weapons": [weapon_entry(st, b, i, loc, w) for i, (loc, w) in enumerate(d.weapons)],
        "vp": b.vp, "rating": round(float(st.bot_rating(b)), 2),
        "last_to_target_me": b.last_by, "last_targeted": b.last_at,
    }


def contact(st: CtfState, o: Bot) -> dict:
    return {"bot": o.num, "team": TEAM_LETTERS[o.team], "design": o.design.name,
            "sector": sector(o.x, o.y), "facing": o.facing, "posture": POSTURES[o.posture],
            "state": "functional" if o.status == FUNCTIONAL else "wreckage"}


def cp_status(st: CtfState, c: CommandPost) -> dict:
    return {"cp": c.label, "team": TEAM_LETTERS[c.team], "sector": sector(c.x, c.y),
            "structure": c.structure, "state": "operational" if c.operational else "ruins"}


def terrain_code(st: CtfState, x: int, y: int) -> str:
    i = st.map.index(x, y)
    t = st.tables.terrain[st.map.terrain[i]]
    return f"{t.code}-{st.map.ground[i] + t.elevation}"


def visual_display(st: CtfState, b: Bot) -> dict:
    """Terrain codes within the visual radius (CTF-15), rows from the top."""
    r = st.tables.visual_radius
    x0, x1 = max(1, b.x - r), min(st.map.width, b.x + r)
    y0, y1 = max(1, b.y - r), min(st.map.height, b.y + r)
    rows = [[terrain_code(st, x, y) for x in range(x0, x1 + 1)] for y in range(y1, y0 - 1, -1)]
    return {"bot": b.num, "center": sector(b.x, b.y), "x_from": x0, "x_to": x1,
            "y_from": y1, "y_to": y0, "rows": rows}


def view_header(st: CtfState, player: int | None) -> dict:
    """The public head of every board view: the map's size, the turn limit, and who has
    resigned (CTF-40, announced at the table). The turn, the result and who is still to decide
    as this viewer may know it (`to_move_seen`, CTF-41) are in the view's envelope."""
    return {"turns": st.turns, "map": {"width": st.map.width, "height": st.map.height},
            "resigned": [p for p in range(len(st.setup.names)) if st.resigned >> p & 1]}


def moderator_view(st: CtfState) -> dict:
    """The whole picture, JSON-ready: every Bot whole, every standing order, every sheet in,
    the whole terrain, every team's rating and the whole last turn's log. This is what the
    moderator (the referee's computer) knows; a spectator gets it from `view(None)` only once
    the game is over. While the game goes on it is for the moderator's own
    tools and tests, never for a seat or a spectator."""
    out = view_header(st, None)
    out["teams"] = [{"team": TEAM_LETTERS[t], "rating": round(float(st.team_rating(t)), 2)}
                    for t in range(st.teams)]
    out["command_posts"] = [cp_status(st, c) for c in st.cps]
    out["owed"] = st.owed(None)
    out["log_turn"] = st.log_turn
    out["log"] = [plain(e) for _, e in st.log]
    out["standing_orders"] = {str(b.num): sheet_text(STANDING, b.num, b.standing, st.turn)
                              for b in st.bots}
    out["bots"] = [bot_status(st, b) for b in st.bots]
    out["terrain"] = st.map.to_text(st.tables).splitlines()[1:]
    out["submitted"] = [b.num for b in st.bots if b.sheet is not None]
    return out


def plain(v: Any) -> Any:
    """An event or a part of one as JSON data: its tuples (a fire track, a hit's spread, the
    action order) as lists, so that a view holding it reads back from JSON unchanged."""
    if isinstance(v, tuple | list):
        return [plain(x) for x in v]
    return v


def event_json(st: CtfState, e: tuple) -> dict:
    return {"kind": e[0], "data": plain(list(e[1:])), "text": describe_event(st, e)}


def player_name(st: CtfState, player: int) -> str:
    """A player as people know them: the name given at the start, else "Player N" (N from 1,
    as the command line numbers players)."""
    names = st.setup.names
    return names[player] if player < len(names) and names[player] else f"Player {player + 1}"


def _and(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def team_players(st: CtfState, team: int) -> list[int]:
    """The players who command a Bot of `team`, in player order."""
    return sorted({b.player for b in st.bots if b.team == team})


def _side(st: CtfState, team: int) -> str:
    """'ann and cy (team A)': a team as its players' names and its letter."""
    who = [player_name(st, p) for p in team_players(st, team)] or ["nobody"]
    return f"{_and(who)} (team {TEAM_LETTERS[team]})"


def outcome_text(st: CtfState, out: Outcome | None = None) -> str:
    """The result line naming every player and team, e.g. "ann (team A) wins against bob
    (team B) (turn limit; ratings A 0.20, B 0.00)"; "" while the game goes on. The winners
    are the team(s) with the best rating (docs: Rules choices); who played for which team and
    the ratings are public once the game is over. `out`: the outcome being made (state.end),
    else the state's."""
    if out is None:
        out = st.over
    if out is None:
        return ""
    won = sorted({b.team for b in st.bots if b.player in out.winners})
    lost = [t for t in range(st.teams) if t not in won]
    if not won:
        return f"draw between {_and([_side(st, t) for t in range(st.teams)])} ({out.reason})"
    winners = _and([_side(st, t) for t in won])
    players = sum(len(team_players(st, t)) for t in won)
    if len(won) > 1:
        verb = "share the win"
    else:
        verb = "wins" if players == 1 else "win"
    against = f" against {_and([_side(st, t) for t in lost])}" if lost else ""
    return f"{winners} {verb}{against} ({out.reason})"


def results_outcome(st: CtfState) -> dict | None:
    """The result for the turn results JSON: the line, the reason, and the winners numbered
    from 1 as the command line numbers players (`results DIR 2`), with names and teams."""
    out = st.over
    if out is None:
        return None
    team_of = {b.player: TEAM_LETTERS[b.team] for b in st.bots}
    return {"text": st.describe_outcome(), "reason": out.reason, "draw": out.is_draw,
            "winners": [{"player": p + 1, "name": player_name(st, p), "team": team_of.get(p)}
                        for p in out.winners],
            "winning_teams": sorted({team_of[p] for p in out.winners if p in team_of})}


def turn_report(st: CtfState, num: int, deadline: str | None = None) -> dict:
    """The turn results of Bot `num` for the last processed turn (CTF-38), JSON-ready. Players
    are numbered from 1 here, as the moderator's command line takes them (`results DIR 2`,
    `submit DIR 2 SHEET`), not from 0 as in `view`."""
    b = st.bots[num - 1]
    log = st.log_seen_by(1 << num)  # what this Bot saw, as it saw it (CTF-15)
    pilot = player_name(st, b.player)
    status = bot_status(st, b)
    status["player"] = b.player + 1
    seen = st.contacts([b]) if b.status == FUNCTIONAL else []
    team_bots = [o for o in st.bots if o.team == b.team]
    return {
        "format": "ctf2187-results", "game": "CTF 2187", "turn": st.log_turn,
        "bot": num, "player": b.player + 1, "pilot": pilot, "team": TEAM_LETTERS[b.team],
        "map": f"{st.map.width}x{st.map.height}",
        "status": status,
        "scanner": {"bots": [contact(st, o) for o in seen],
                    "command_posts": [cp_status(st, c) for c in st.cps]},
        "visual": visual_display(st, b),
        "events": [event_json(st, e) for e in log],
        "victory": {"vp": b.vp, "rating": f"{float(st.bot_rating(b)):.2f}",
                    "team": TEAM_LETTERS[b.team],
                    "team_rating": f"{float(st.team_rating(b.team)):.2f}",
                    "team_vp": sum(o.vp for o in team_bots)},
        "standing_orders": sheet_text(STANDING, num, b.standing, st.turn, sep="\n").split("\n"),
        "next_deadline": deadline,
        "next_turn": st.turn if st.over is None else None,
        "result": st.describe_outcome() if st.over is not None else None,
        "outcome": results_outcome(st),
    }


def weapon_lines(weapons: list[dict]) -> list[str]:
    """The weapons table of a report: what a player needs to choose a weapon number for a
    sheet (CTF-32, CTF-36): name, range, damage, AP and heat of a shot, and its state."""
    if not weapons:
        return ["  Weapons: none"]
    width = max(len(f"{w['key']} {w['name']}") for w in weapons)
    out = ["  Weapons (range in sectors: optimum/maximum; AP and heat of one shot)",
           f"  No. {'Weapon':<{width}}  Loc  Range  Damage  AP  Heat  State"]
    for w in weapons:
        rng = f"{w['optimum']}/{w['maximum']}"
        out.append(f"  {w['number']:>3} {w['key'] + ' ' + w['name']:<{width}}  "
                   f"{w['location']:<3}  {rng:<5}  {w['damage']:>6}  {w['ap']:>2}  "
                   f"{w['heat']:>4}  {w['state']}")
    return out


def format_report(rep: dict) -> str:
    """The text of a turn report (CTF-38 order of sections)."""
    s = rep["status"]
    out = [f"{rep['game']} - TURN RESULTS - turn {rep['turn']}",
           f"Bot {rep['bot']} ({s['design']}, {s['tons']} t {s['class']})  Pilot: {rep['pilot']}"
           f"  Team {rep['team']}  Map {rep['map']}", "", "STATUS"]
    state = s["state"] if s["state"] == "functional" else f"WRECKAGE ({s['wreck_reason']})"
    out.append(f"  Sector {s['sector']}  Facing {s['facing']}  Posture {s['posture']}  "
               f"State {state}  Pilot {s['pilot']}")
    ap = ("No AP (Wreckage)" if s["ap_start"] is None
          else f"AP at turn start {s['ap_start']}, left {s['ap_left']}")
    out.append(f"  {ap}  Heat {s['heat']}  Cooling {s['cooling']}  Wounds {s['wounds']}")
    out.append(f"  Engines {s['engines']}/{s['engines_total']} ({s['engine_tons']:g} t)")
    out.append("  Location  Armour  Internal")
    for loc in s["locations"]:
        gone = "  DESTROYED" if loc["destroyed"] else ""
        out.append(f"  {loc['location']:<8}  {loc['armour']:>2}/{loc['armour_max']:<3}  "
                   f"{loc['internal']:>2}/{loc['internal_max']:<3}{gone}")
    out += weapon_lines(s["weapons"])
    out += ["", "SCANNER"]
    if not rep["scanner"]["bots"]:
        out.append("  no bots detected")
    for c in rep["scanner"]["bots"]:
        out.append(f"  Bot {c['bot']:<2} team {c['team']}  {c['design']:<8} sector {c['sector']:<6}"
                   f" facing {c['facing']}  {c['posture']:<8} {c['state']}")
    for c in rep["scanner"]["command_posts"]:
        out.append(f"  CP {c['cp']:<3} team {c['team']}  sector {c['sector']:<6} structure "
                   f"{c['structure']:<3} {c['state']}")
    v = rep["visual"]
    out += ["", f"VISUAL SIGHTING DISPLAY (centre {v['center']})"]
    xs = range(v["x_from"], v["x_to"] + 1)
    out.append("      " + "".join(f"{x:<10}" for x in xs).rstrip())
    for i, row in enumerate(v["rows"]):
        y = v["y_from"] - i
        out.append(f"  {y:>2}  " + "".join(f"{c:<10}" for c in row).rstrip())
    out += ["", "PHASE LOG"]
    if not rep["events"]:
        out.append("  (nothing happened in sight)")
    for e in rep["events"]:
        indent = "" if e["kind"] in ("turn", "phase") else "  "
        out.append(f"  {indent}{e['text']}")
    vic = rep["victory"]
    out += ["", "VICTORY POINTS",
            f"  VP {vic['vp']}  Rating {vic['rating']}  Team {vic['team']} VP {vic['team_vp']}"
            f"  Team rating {vic['team_rating']}"]
    out += ["", "STANDING ORDERS"] + [f"  {line}" for line in rep["standing_orders"]]
    out.append("")
    if rep["result"]:
        out.append(f"GAME OVER: {rep['result']}")
    else:
        out.append(f"NEXT TURN {rep['next_turn']}  Deadline: {rep['next_deadline'] or 'not set'}")
    return "\n".join(out) + "\n"


# -- the board ---------------------------------------------------------------------------------

def _whole(st: CtfState, player: int | None) -> bool:
    """Whether the board shows everything: to a spectator (None) once the game is over."""
    return player is None and st.over is not None


def _cells(st: CtfState, player: int | None) -> list[list[tuple[str, str]]]:
    """Rows (top first) of (3-character text, style) cells from `player`'s point of view. A
    spectator sees the command posts only until the game is over, then everything."""
    m = st.map
    known: set[tuple[int, int]] | None = None
    shown_bots = st.bots
    if player is None and not _whole(st, player):
        known = set()
        shown_bots = []
    elif player is not None:
        mine = st.bots_of(player)
        r = st.tables.visual_radius
        known = set()
        for b in mine:
            for y in range(max(1, b.y - r), min(m.height, b.y + r) + 1):
                for x in range(max(1, b.x - r), min(m.width, b.x + r) + 1):
                    known.add((x, y))
        shown_bots = mine + st.contacts(mine)
    where: dict[tuple[int, int], tuple[str, str]] = {}
    for b in shown_bots:
        mark = ARROWS[b.facing] if b.status == FUNCTIONAL else "x"
        if b.status == FUNCTIONAL and b.posture:
            mark = "k" if b.posture == 1 else "p"
        where[(b.x, b.y)] = (f"{b.num:>2}{mark}", TEAM_STYLES[b.team])
    for c in st.cps:
        lab = c.label if c.operational else c.label.lower()
        where[(c.x, c.y)] = (f"{lab:>3}", TEAM_STYLES[c.team])
    rows = []
    for y in range(m.height, 0, -1):
        row = []
        for x in range(1, m.width + 1):
            if (x, y) in where:
                row.append(where[(x, y)])
                continue
            if known is not None and (x, y) not in known:
                row.append(("   ", ""))
                continue
            i = m.index(x, y)
            t = st.tables.terrain[m.terrain[i]]
            row.append((f" {t.char}{m.ground[i] + t.elevation}", TERRAIN_STYLES.get(t.key, "")))
        rows.append(row)
    return rows


def _footer(st: CtfState, player: int | None) -> list[str]:
    """`player`'s Bots, the command posts, the ratings `player` may know and the result. A
    spectator gets no Bot and no rating until the game is over."""
    out = []
    if player is not None:
        bots = st.bots_of(player)
    elif _whole(st, player):
        bots = st.bots
    else:
        bots = []
        out.append("Spectator: the Bots, their orders, the terrain and the ratings are "
                   "hidden until the game is over.")
    for b in bots:
        if b.status == FUNCTIONAL:
            nxt = turn_ap(b.design, b.functional_engines(), st.tables)
            state = (f"{POSTURES[b.posture]}, {nxt} AP next turn, heat {b.heat}, "
                     f"wounds {b.wounds}, engines {b.functional_engines()}")
        else:
            state = f"wreckage ({b.wreck_reason})"
        sheet = "sheet in" if b.sheet is not None else "owes a sheet" \
            if b.status == FUNCTIONAL and st.over is None else ""
        out.append(f"Bot {b.num} {TEAM_LETTERS[b.team]} {b.design.name} at "
                   f"{sector(b.x, b.y)} facing {b.facing}: {state}; VP {b.vp}"
                   + (f"; {sheet}" if sheet else ""))
    out.append("Command posts: " + ", ".join(
        f"{c.label} {sector(c.x, c.y)} {c.structure if c.operational else 'ruins'}"
        for c in st.cps))
    teams = st.known_teams(player)
    if teams:
        out.append("Ratings: " + ", ".join(f"{TEAM_LETTERS[t]} {float(st.team_rating(t)):.2f}"
                                           for t in teams))
    if st.over is not None:
        out.append(f"Result: {st.describe_outcome()}")
    return out


def render_board(st: CtfState, player: int | None) -> str:
    who = "spectator" if player is None else f"Player {player + 1}"
    lines = [f"CTF 2187  turn {min(st.turn, st.turns)} of {st.turns}  map "
             f"{st.map.width}x{st.map.height}  ({who})"]
    lines.append("    " + "".join(f"{x:>3}" for x in range(1, st.map.width + 1)))
    for i, row in enumerate(_cells(st, player)):
        y = st.map.height - i
        lines.append(f"{y:>3} " + "".join(t for t, _ in row))
    lines += _footer(st, player)
    return "\n".join(lines)


def render_board_rich(st: CtfState, player: int | None) -> Text:
    from rich.text import Text

    who = "spectator" if player is None else f"Player {player + 1}"
    text = Text(f"CTF 2187  turn {min(st.turn, st.turns)} of {st.turns}  map "
                f"{st.map.width}x{st.map.height}  ({who})\n", style="bold")
    text.append("    " + "".join(f"{x:>3}" for x in range(1, st.map.width + 1)) + "\n",
                style="dim")
    for i, row in enumerate(_cells(st, player)):
        text.append(f"{st.map.height - i:>3} ", style="dim")
        for t, style in row:
            text.append(t, style=style or None)
        text.append("\n")
    text.append("\n".join(_footer(st, player)))
    return text


def render_board_compact(st: CtfState, player: int | None, columns: int = 80) -> Text:
    """The board for a small terminal (80x24 at the default 20x20 map): the facts under the
    map (Bots, command posts, ratings) wrapped into a column beside it, each fact after a
    blank line; where the map leaves too narrow a column, they are wrapped under it."""
    from rich.text import Text

    from boardct.core.compact import join_lines, side_by_side, text_lines, wrapped

    rows = text_lines(render_board_rich(st, player))[: st.map.height + 2]
    column = 4 + 3 * st.map.width + 2
    side_width = columns - column
    notes: list[Text] = []
    if side_width >= 12:
        for fact in _footer(st, player):
            if notes:
                notes.append(Text())
            notes += [Text(line) for line in wrapped(fact, side_width)]
        lines = rows[:2] + side_by_side(rows[2:], notes, column)
    else:
        lines = rows + [Text(line) for fact in _footer(st, player)
                        for line in wrapped(fact, columns, "  ")]
    return join_lines(lines)
