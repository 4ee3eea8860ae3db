"""CTF 2187 hidden information: the determinization of a state for one player.

What a player may know is `view(player)`: its own Bots whole; the Bots its functional Bots'
scanners cover (number, team, design, sector, facing, posture, functional or Wreckage; CTF-21);
every command post (CTF-21); the terrain within the visual radius of its Bots (CTF-15); its own
team's rating; the last turn's events as its Bots saw them; and the public setup (options,
tables, designs, the roster, the start sectors of CTF-35). Everything else is hidden: where the
Bots out of scanning range are, every other Bot's damage, heat, pilot, Victory Points, memories
and orders (standing orders and the sheets handed in this turn), the terrain beyond the visual
radius of a map generated from the game's seed, and the chance to come.

`determinize` builds a full state from that knowledge alone, so two states that look the same
to the player give the same determinizations: a search can never read what the player cannot
see, however it is written.
"""

from __future__ import annotations

from fractions import Fraction

from boardct.core.game import Setup
from boardct.core.rng import Rng
from boardct.games.ctf2187 import engine
from boardct.games.ctf2187.maps import GameMap, generate_map
from boardct.games.ctf2187.sheet import PHASES
from boardct.games.ctf2187.state import OWN_ALL, CtfState, public_event, start_sectors
from boardct.games.ctf2187.tables import Tables
from boardct.games.ctf2187.units import FUNCTIONAL, Bot, default_standing

REACH_PER_TURN = 2 * PHASES  # one move order a phase, a sprint enters two sectors (CTF-8)
MAP_POOL = 16  # hidden terrain comes from one of this many maps made by the same generator
DEFAULT_STANDING = default_standing()

_POOL: dict[tuple, tuple[Tables, GameMap]] = {}
_OVERLAYS: dict[tuple, tuple[GameMap, GameMap]] = {}
_LOGS: dict[tuple, tuple[list, list]] = {}
_STARTS: dict[tuple, tuple[list[tuple[int, int]], list[tuple[int, int]]]] = {}
_BLOCKS: dict[tuple, tuple[list, tuple[tuple[int, int, int], ...]]] = {}


def determinize(st: CtfState, player: int | None, seed: int) -> CtfState:
    """A full state built only from what `player` may know, the rest resampled from `seed`.

    Kept: the player's Bots, the command posts, the turn, the public setup and what the
    player's scanners show of other Bots (sector, facing, posture, Wreckage). Resampled: the
    sectors (and facings) of the Bots out of scanning range, placed where no functional Bot of
    the player's scans and within reach of their start sectors (CTF-35) in the turns played; the
    standing orders of every other Bot (its default half the time, else a sample sheet); the
    hidden terrain of a generated map; the random source; the seed. Other Bots are taken
    undamaged, cool, unhurt and functional unless seen as Wreckage; their Victory Points
    reproduce the team ratings the player sees and otherwise are a guess from the damage the
    player's side has taken. Whether the others have handed in this turn's sheets is hidden
    too: each has one, its standing orders or a sample sheet, so the player's last sheet
    processes the turn in a search (the others decide in the turns after). A determinization
    has no history (the other players' sheets are hidden) and is for search only.

    None (a spectator) knows no Bot while the game goes on, so every Bot is resampled; once
    the game is over the spectator sees everything and only the random source and the seed are
    resampled."""
    rng = Rng(seed)
    setup = st.setup
    new_setup = Setup(rng.next64() >> 1, setup.options, setup.names, setup.created)
    if player is None and st.over is not None:
        d = st.clone()
        d.setup = new_setup
        d.rng = Rng(rng.next64())
        return d
    d = CtfState.__new__(CtfState)
    d.setup = new_setup
    d._hist = None
    d.rng = Rng(rng.next64())
    d.tables = st.tables
    d.turn = st.turn
    d.turns = st.turns
    d.teams = st.teams
    d.over = st.over
    d.log_turn = st.log_turn
    d.roster = st.roster
    d.resigned = st.resigned  # public: announced at the table (CTF-40)
    d._own = OWN_ALL
    d._cps = [c.copy() for c in st._cps]
    mine = [b for b in st.bots if b.player == player]
    viewer = st.player_mask(player)
    seen = {o.num for o in st.contacts(mine)}
    d.log = _log_for(st, viewer)
    d.map = _map_for(st, mine, rng, viewer)
    w = d.map.width
    occ = [0] * (w * d.map.height)
    for i, c in enumerate(d.cps):
        occ[(c.y - 1) * w + c.x - 1] = -(i + 1)
    bots: list[Bot] = []
    unseen: list[Bot] = []
    for b in st.bots:
        if b.player == player:
            nb = b.copy()
        elif b.num in seen:
            nb = Bot(b.num, b.team, b.player, b.design, b.x, b.y, b.facing)
            nb.posture = b.posture
            if b.status != FUNCTIONAL:
                nb.status = b.status
                nb.wreck_reason = "unknown"
        else:
            nb = Bot(b.num, b.team, b.player, b.design, 0, 0, 1)
            unseen.append(nb)
        if b.player != player:
            plans = CtfState.sample_plans(len(b.design.weapons))
            nb.standing = DEFAULT_STANDING if rng.coin() else rng.choice(plans)
            # a player's search needs the others' sheets in (contents unknown); a spectator's waits
            # (a resigned player's Bots follow their standing orders: no sheet, CTF-40)
            if (nb.status == FUNCTIONAL and player is not None and st.over is None
                    and not st.resigned >> b.player & 1):
                nb.sheet = nb.standing if rng.coin() else rng.choice(plans)
        if nb.x:
            occ[(nb.y - 1) * w + nb.x - 1] = nb.num
        bots.append(nb)
    d._bots = bots
    d._occ = occ
    if unseen:
        _place(st, d, mine, unseen, rng)
    others = _other_vp(st, player, mine)
    for t in range(st.teams):
        team = [b for b in bots if b.team == t and b.player != player]
        if team:
            share, extra = divmod(others[t], len(team))
            for i, b in enumerate(team):
                b.vp = share + (1 if i < extra else 0)
    if player is not None:
        _wear(st, d, player, others)
    return d


def _wear(st: CtfState, d: CtfState, player: int, others: list[int]) -> None:
    """Put on the enemy Bots of `d` the damage the player's team has dealt them: its Victory
    Points (its own rating, which the player sees) less twice what the enemy command posts
    have lost (public), 1 VP a point on a Bot (CTF-16), shared evenly among the enemy Bots.
    Where it landed is not known: each Bot loses armour in proportion to each location's, then
    internal points the same way, every location keeping one (which items were struck, and
    whether a location fell, stay unknown). Without it a search would take a Bot it has nearly
    wrecked for a fresh one."""
    teams = {b.team for b in d.bots if b.player == player}
    if len(teams) != 1:  # pragma: no cover - a player commands one team's Bots
        return
    team = next(iter(teams))
    vp = others[team] + sum(b.vp for b in d.bots if b.player == player)
    posts = 2 * sum(st.tables.cp_structure - c.structure for c in st.cps if c.team != team)
    enemies = [b for b in d.bots if b.team != team]
    dealt = vp - posts
    if dealt <= 0 or not enemies:
        return
    share, extra = divmod(dealt, len(enemies))
    for i, b in enumerate(enemies):
        _spread(b.armour, share + (1 if i < extra else 0), b, 0)


def _spread(points: list[int], damage: int, b: Bot, floor: int) -> None:
    """Take `damage` from `points` in proportion to each entry (none below `floor`); what is
    left over goes on to the Bot's internal points, each kept at one or more."""
    room = [max(0, v - floor) for v in points]
    total = sum(room)
    if total <= 0:
        if floor == 0:
            _spread(b.internal, damage, b, 1)
        return
    take = min(damage, total)
    cut = [take * r // total for r in room]
    for i in sorted(range(len(room)), key=lambda i: -room[i]):  # the remainder, largest first
        if sum(cut) >= take:
            break
        if cut[i] < room[i]:
            cut[i] += 1
    for i, c in enumerate(cut):
        points[i] -= c
    if damage > take and floor == 0:
        _spread(b.internal, damage - take, b, 1)


def _log_for(st: CtfState, viewer: int) -> list:
    """The last turn's log as the viewer's Bots saw it, as fresh events carrying nothing of who
    else saw them, except the turn and phase headers (and the end), which every Bot's report
    shows (CTF-15): the player knows everyone saw those, so they stay public, for a spectator's
    and every other player's view of the determinization too (shared by the determinizations of
    one turn; logs are never changed)."""
    key = (id(st.log), len(st.log), viewer)  # len: a scenario may run a phase by hand
    hit = _LOGS.get(key)
    if hit is not None and hit[0] is st.log:
        return hit[1]
    every = st.every_bot_mask()
    everyone = every | 1  # as engine.log_all marks them
    out = []
    for e in st.log_seen_by(viewer):
        if public_event(e, every):
            out.append((everyone, engine.sighted(tuple(e), everyone)))
        else:
            out.append((viewer, engine.sighted(tuple(e), viewer)))
    if len(_LOGS) > 256:
        _LOGS.clear()
    _LOGS[key] = (st.log, out)
    return out


def _starts(st: CtfState) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """Every Bot's start sector (by number) and every forced Open sector (CTF-35): public."""
    sizes = tuple(sum(1 for b in st.bots if b.team == t) for t in range(st.teams))
    key = (st.map.width, st.map.height, sizes, st.tables.cp_per_team)
    hit = _STARTS.get(key)
    if hit is not None:
        return hit
    bots: list[tuple[int, int]] = []
    forced: list[tuple[int, int]] = []
    for t, n in enumerate(sizes):
        sectors, cps, _facing = start_sectors(st.map.width, st.map.height, t, n,
                                              st.tables.cp_per_team)
        bots += sectors
        forced += sectors + cps
    if len(_STARTS) > 64:
        _STARTS.clear()
    _STARTS[key] = (bots, forced)
    return bots, forced


def _map_for(st: CtfState, mine: list[Bot], rng: Rng, viewer: int) -> GameMap:
    """The map as far as the player knows it: the terrain its Bots' visual displays show and the
    forced start sectors, the rest from a generated map, raised where the player's report of the
    last turn showed a line of fire blocked (`_blocks`). A map given by the options (a map
    text or file, or a map seed) is public: everyone at the table could print it."""
    o = st.setup.options
    if o.get("map") or o.get("map_seed"):
        return st.map
    k = rng.below(MAP_POOL)
    blocks = _blocks(st, viewer)
    key = (id(st.map), k, tuple((b.x, b.y) for b in mine), blocks)
    hit = _OVERLAYS.get(key)
    if hit is not None and hit[0] is st.map:
        return hit[1]
    m = st.map
    w, h = m.width, m.height
    pool = _pool_map(st.tables, w, h, k)
    terrain = list(pool.terrain)
    ground = list(pool.ground)
    known = {(y - 1) * w + x - 1 for x, y in _starts(st)[1] if m.on_map(x, y)}
    r = st.tables.visual_radius
    for b in mine:
        for y in range(max(1, b.y - r), min(h, b.y + r) + 1):
            row = (y - 1) * w
            known.update(range(row + max(1, b.x - r) - 1, row + min(w, b.x + r)))
    for i in known:
        terrain[i] = m.terrain[i]
        ground[i] = m.ground[i]
    kinds = st.tables.terrain
    for x, y, height in blocks:
        i = (y - 1) * w + x - 1
        if i in known:
            continue
        kind = kinds[terrain[i]]
        adds = kind.elevation if kind.blocks_fire else 0
        if ground[i] + adds < height:  # the sector stopped a shot at this height (CTF-27)
            ground[i] = height - adds
    out = GameMap(w, h, tuple(terrain), tuple(ground))
    if len(_OVERLAYS) > 256:
        _OVERLAYS.clear()
    _OVERLAYS[key] = (m, out)
    return out


def _blocks(st: CtfState, viewer: int) -> tuple[tuple[int, int, int], ...]:
    """The sectors that blocked a line of fire in the last turn's report the player has (shots
    its Bots fired or saw, CTF-27, CTF-38): each blocking sector with the track's height there,
    which its ground and terrain must reach. Sectors holding a command post (public) or a Bot
    the player's scanners show now are left out: it may have been what stood in the way. Made
    once per turn and viewer (every determinization of a search asks)."""
    key = (id(st.log), len(st.log), viewer)
    hit = _BLOCKS.get(key)
    if hit is not None and hit[0] is st.log:
        return hit[1]
    taken = {(c.x, c.y) for c in st.cps}
    mine = [b for b in st.bots if viewer >> b.num & 1]
    taken.update((o.x, o.y) for o in st.contacts(mine))
    out = set()
    for e in st.log_seen_by(viewer):
        if e[0] == "shot" and e[-1] is True and e[-2]:
            x, y, height = e[-2][-1]
            if (x, y) not in taken:
                out.add((x, y, height))
    blocks = tuple(sorted(out))
    if len(_BLOCKS) > 256:
        _BLOCKS.clear()
    _BLOCKS[key] = (st.log, blocks)
    return blocks


def _pool_map(tables: Tables, w: int, h: int, k: int) -> GameMap:
    key = (id(tables), w, h, k)
    hit = _POOL.get(key)
    if hit is not None and hit[0] is tables:
        return hit[1]
    gm = generate_map(0xC7F2187 + 7919 * k, w, h, tables)
    if len(_POOL) > 256:
        _POOL.clear()
    _POOL[key] = (tables, gm)
    return gm


def _place(st: CtfState, d: CtfState, mine: list[Bot], unseen: list[Bot], rng: Rng) -> None:
    """Put each unseen Bot on a free sector no functional Bot of the player's scans, within
    reach of its start sector in the turns played (else anywhere unscanned, else anywhere)."""
    w, h = d.map.width, d.map.height
    r = st.tables.scanning_range
    occ = d.occ
    watched = bytearray(w * h)
    for b in mine:
        if b.status == FUNCTIONAL:
            x0, x1 = max(1, b.x - r), min(w, b.x + r)
            for y in range(max(1, b.y - r), min(h, b.y + r) + 1):
                row = (y - 1) * w
                watched[row + x0 - 1:row + x1] = b"\x01" * (x1 - x0 + 1)
    open_cells = [i for i in range(w * h) if not watched[i] and not occ[i]]
    reach = REACH_PER_TURN * max(0, st.turn - 1)
    starts = _starts(st)[0]
    for nb in unseen:
        sx, sy = starts[nb.num - 1] if nb.num <= len(starts) else (0, 0)
        cands = [i for i in open_cells if not occ[i]
                 and max(abs(i % w + 1 - sx), abs(i // w + 1 - sy)) <= reach]
        if not cands:
            cands = [i for i in open_cells if not occ[i]]
        if not cands:  # pragma: no cover - the truth itself is a placement
            cands = [i for i in range(w * h) if not occ[i]]
        i = rng.choice(cands)
        nb.x, nb.y = i % w + 1, i // w + 1
        nb.facing = rng.randint(1, 8)
        occ[i] = nb.num


def _vp_for_rating(shown: float, tons: int, floor: int) -> int:
    """A team's VP total that shows as the rating `shown` (two decimals, CTF-39), at least
    `floor` (the VP of the player's own Bots in it)."""
    guess = round(shown * tons)
    for k in range(tons // 50 + 4):
        for v in (guess - k, guess + k):
            if v >= floor and round(float(Fraction(v, tons)), 2) == shown:
                return v
    return max(floor, guess)  # pragma: no cover - the true total always fits


def _other_vp(st: CtfState, player: int | None, mine: list[Bot]) -> list[int]:
    """Per team, the Victory Points of its Bots the player does not command: what the team
    rating the player sees leaves (its own team, every team once the game is over), else a
    guess: the damage the player's Bots took and twice what its team's CPs lost, shared among
    the enemy teams (CTF-16)."""
    known = st.known_teams(player)
    my_teams = {b.team for b in mine}
    taken = 0
    for b in mine:
        taken += sum(b.design.armour) + sum(b.design.internal) - sum(b.armour) - sum(b.internal)
    taken += 2 * sum(st.tables.cp_structure - c.structure for c in st.cps if c.team in my_teams)
    enemies = max(1, st.teams - len(my_teams))
    out = []
    for t in range(st.teams):
        own = sum(b.vp for b in mine if b.team == t)
        if t in known:
            tons = sum(b.design.tons for b in st.bots if b.team == t)
            shown = round(float(st.team_rating(t)), 2)  # exactly what view(player) shows
            out.append(_vp_for_rating(shown, tons, own) - own if tons else 0)
        elif t in my_teams:  # pragma: no cover - a player always knows its own team
            out.append(0)
        else:
            out.append(taken // enemies)
    return out
