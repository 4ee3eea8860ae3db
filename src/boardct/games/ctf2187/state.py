"""The CTF 2187 game in the core API: a simultaneous turn of order sheets.

A turn is one decision for every Bot: each player owes one order sheet (CTF-37) per
functional Bot they command. `current_players()` are the players who still owe sheets;
`apply((kind, bot, *orders), player)` hands one in; the sheet that completes the turn makes
the state process all five phases (engine.py) and returns their events. A player who will not
send a sheet applies `BOT <n> TURN <t> MISSING`: the Bot's standing orders are used (CTF-14).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any, ClassVar, TypeAlias

from boardct.core.errors import DataError, IllegalAction, OptionError, ParseError
from boardct.core.frontends import FrontEnds
from boardct.core.game import (
    MESSAGE,
    Event,
    Game,
    Option,
    Outcome,
    Setup,
    State,
    TableMark,
    Termination,
)
from boardct.core.inputs import InputError, ascii_int, read_text
from boardct.core.rng import Rng
from boardct.games.ctf2187 import engine, evaluation
from boardct.games.ctf2187.geometry import distance
from boardct.games.ctf2187.maps import (
    MAX_MAP_BYTES,
    GameMap,
    generate_map,
    map_side,
    parse_map,
)
from boardct.games.ctf2187.sheet import (
    MISSING,
    PHASES,
    STANDING,
    TURN,
    Roster,
    check_orders,
    orders_words,
    parse_sheet,
    sheet_text,
)
from boardct.games.ctf2187.tables import Tables, default_tables, load_tables
from boardct.games.ctf2187.units import (
    FUNCTIONAL,
    TEAM_LETTERS,
    Bot,
    CommandPost,
)

DEFAULT_DESIGNS = "Lancer,Warden,Bastion,Striker"
# Option limits (docs/ctf2187.md, "Input limits"). Sheets write turn numbers in three digits;
# ten Bots a team is a large battle (four teams: 40 Bots on an 84x84 map, CTF-35), and keeps a
# generated map within the 99-sector side of the map format; map seeds are 64-bit like all.
MAX_TURNS = 999
MAX_BOTS_PER_TEAM = 10
MAX_SEED = (1 << 64) - 1
BENCH_TEAM = 4  # the benchmark battle: two commanders with 4 Bots each
OWN_ALL = -1  # a state owns all its Bots, command posts and occupancy (see CtfState.clone)
HELP = """CTF 2187 order sheet (one per Bot per turn; ';' ends a line):
  BOT <n> TURN <t>; P1 <move> <opt> <attack> <opt> <weapon>; P2 ...; P5 ...
  '-' marks an unused field. Example:
  BOT 1 TURN 1; P1 6 - 2 - 0; P2 6 - 2 - 0; P3 13 - 2 - 0; P4 0 - 2 - 0; P5 0 - 2 - 0
  default            use the Bot's standing orders this turn
  BOT <n> STANDING; P1 ...   change the standing orders
Move: 0 none, 1 forward, 2/3 turn right/left and forward, 4 backward, 5 toward bot <opt>,
  6 toward nearest enemy, 7 toward last to target me, 8 toward nearest friend, 9 toward last
  targeted, 10 toward nearest friendly CP, 11 face direction <opt 1-8>, 12-17 face (as 5-10),
  18 stand up, 19 eject (<opt> engines, - = 4), 20 kneel, 21 sprint, 22/23 turn right/left.
Attack (weapon number, 0 = best): 0 none, 1 enemy bot <opt>, 2 nearest enemy, 3 last to
  target me, 4 last targeted, 5 nearest enemy CP, 6 self destruct.
Directions: 1 up (+Y), 3 right, 5 down, 7 left; even numbers the diagonals."""
# CTF 2187's action: an order sheet handed in, `(kind, bot, *orders)`: kind TURN or STANDING
# with the sheet's 25 orders (five phases of five numbers, CTF-37), or MISSING alone.
Sheet: TypeAlias = tuple[int, ...]
_TABLE_CACHE: dict[str, Tables] = {}
_MAP_CACHE: dict[tuple, GameMap] = {}
_SAMPLES: dict[tuple[int, int, bool], list[Sheet]] = {}  # sample sheets depend only on the key
_SEARCH_EXTRA: dict[tuple[int, int], list[Sheet]] = {}  # the search's own sheets, by (Bot, weapons)
_MENUS: dict[tuple[int, int, int], tuple[Sheet | None, ...]] = {}  # (Bot, weapons, size)
# (roster, sheet) pairs that passed CTF-37's check: it depends on nothing else, and search
# hands in the same sample sheets again and again
_SHEETS_PASSED: set[tuple] = set()
# The very tuples that passed `_check_action`'s checks of the action alone (its shape and, for
# a sheet, CTF-37 against the roster), by id: (action, roster). A tuple of ints never changes,
# so the menu's sample sheets, handed in again and again, skip those checks (the checks that
# depend on the state, the Bot's player and status, are made every time).
_PASSED_BY_ID: dict[int, tuple] = {}
_ROSTERS: dict[Roster, Roster] = {}  # one object per roster, so the cache above can use `is`


def tables_for(directory: str) -> Tables:
    """The `tables` option: the shipped tables, or a referee's directory of TOML files (each
    read with a size bound, see `tables.load_tables`)."""
    if not directory:
        return default_tables()
    if directory not in _TABLE_CACHE:
        try:
            is_dir = "\x00" not in directory and Path(directory).is_dir()
        except (OSError, ValueError):  # a name too long for the file system
            is_dir = False
        if not is_dir:
            raise DataError(repr(directory)[:200], "", "the tables option must name a "
                            "directory of TOML files")
        if len(_TABLE_CACHE) > 16:
            _TABLE_CACHE.clear()
        _TABLE_CACHE[directory] = load_tables(directory)
    return _TABLE_CACHE[directory]


class TablesOption(Option):
    """The `tables` option: any value at all names a folder on this machine."""

    def names_file(self, value: Any) -> bool:
        return bool(str(value).strip())


def read_map_option(value: str, tables: Tables) -> GameMap:
    """The `map` option: the map text itself (it has a newline) or a path to a map file, read
    with a bound (a record naming `/dev/zero` or a huge file is refused, not read)."""
    if "\n" in value:
        return parse_map(value, tables, "map option")
    try:
        text = read_text(value, MAX_MAP_BYTES, "map file")
    except InputError as exc:
        raise DataError(exc.source, "", f"cannot read the map file ({exc.reason})") from None
    return parse_map(text, tables, value)


def roster_layout(n_players: int, teams: int, per_team: int) -> list[tuple[int, int]]:
    """(team, player) of each Bot, numbered 1.. across teams in team order.

    per_team 0 (auto): one Bot per player (CTF-1), players split among the teams in order."""
    if per_team == 0:
        if n_players < teams:
            raise OptionError(f"{teams} teams need at least {teams} players, not {n_players}")
        out = [(p * teams // n_players, p) for p in range(n_players)]
        return sorted(out)
    if n_players == teams:
        return [(t, t) for t in range(teams) for _ in range(per_team)]
    if n_players == teams * per_team:
        return [(p // per_team, p) for p in range(n_players)]
    raise OptionError(f"with bots_per_team={per_team} and {teams} teams there are either "
                      f"{teams} players (one commander per team) or {teams * per_team} "
                      f"(one pilot per bot), not {n_players}")


def start_sectors(w: int, h: int, team: int, n: int, n_cps: int
                  ) -> tuple[list[tuple[int, int]], list[tuple[int, int]], int]:
    """CTF-35: bot sectors, CP sectors and facing of a team of n bots."""
    cps_rows = [h // 3 + 1, h - h // 3][:n_cps]
    cps_cols = [w // 3 + 1, w - w // 3][:n_cps]
    if team in (0, 1):
        col = w // 2 - 6
        bots = [(col, h // 2 - (n - 1) + 2 * i) for i in range(n)]
        cps = [(col - 2, r) for r in cps_rows]
        if team == 1:
            bots = [(w + 1 - x, y) for x, y in bots]
            cps = [(w + 1 - x, y) for x, y in cps]
        return bots, cps, 3 if team == 0 else 7
    row = h // 2 - 6
    bots = [(w // 2 - (n - 1) + 2 * i, row) for i in range(n)]
    cps = [(c, row - 2) for c in cps_cols]
    if team == 3:
        bots = [(x, h + 1 - y) for x, y in bots]
        cps = [(x, h + 1 - y) for x, y in cps]
    return bots, cps, 1 if team == 2 else 5


PUBLIC_EVENTS = frozenset({"turn", "phase", "end"})  # headers logged for every Bot


def public_event(event: tuple, every: int) -> bool:
    """Whether every player sees `event`, so a spectator may too while the game goes on: a
    turn or phase header (or the end) that every Bot (`every`, a bit mask) saw and that names
    no Bot. Anything else, an event that does not say who saw it included, is not public."""
    return (event[0] in PUBLIC_EVENTS and getattr(event, "named", None) is None
            and getattr(event, "seen", 0) & every == every)


EJECT_PLAN = (19, 0, 0, 0, 0) * 5  # eject, the engines left as they are (CTF-37 order 19)
_MENU_INDEX: dict[tuple[int, int], dict[tuple, int]] = {}


def _phases(*phases: tuple[int, int, int]) -> tuple[int, ...]:
    """A plan's 25 orders from five phases of (move, attack, weapon), the option fields 0 and
    no weapon named without an attack (CTF-37): the menu's plans and the search's."""
    orders: list[int] = []
    for move, attack, weapon in phases:
        orders += [move, 0, attack, 0, weapon if attack else 0]
    return tuple(orders)


def _menu_index(nw: int, size: int) -> dict[tuple, int]:
    """(kind, *orders) -> menu entry, for a Bot with `nw` weapons in menus of `size`."""
    key = (nw, size)
    index = _MENU_INDEX.get(key)
    if index is None:
        index = {(MISSING,): 0}
        for k, orders in enumerate(CtfState.sample_plans(nw)):
            index.setdefault((TURN, *orders), k + 1)
        index.setdefault((TURN, *EJECT_PLAN), size - 1)
        _MENU_INDEX[key] = index
    return index


class CtfState(State[Sheet]):
    __slots__ = ("tables", "map", "_bots", "_cps", "_occ", "_own", "rng", "turn", "turns",
                 "teams", "over", "log", "log_turn", "roster", "resigned")

    game: ClassVar[CtfGame]  # set by the Game at import
    tables: Tables
    map: GameMap
    _bots: list[Bot]  # shared with clones until changed (copy on write: `_own`)
    _cps: list[CommandPost]
    _occ: list[int]
    _own: int
    rng: Rng
    turn: int
    turns: int  # the turn limit (CTF-39)
    teams: int
    over: Outcome | None
    log: list[tuple[int, engine.Sighted]]  # the last processed turn's (seen mask, event)
    log_turn: int
    roster: Roster
    resigned: int  # bit p: Player p resigned (CTF-40)

    # -- set up ----------------------------------------------------------------------------------
    @classmethod
    def new(cls, setup: Setup) -> CtfState:
        o = setup.options
        tables = tables_for(o["tables"])
        teams = o["teams"]
        layout = roster_layout(len(setup.names), teams, o["bots_per_team"])
        names = [s.strip() for s in o["designs"].split(",") if s.strip()]
        if not names:
            raise OptionError("option designs: name at least one design")
        try:
            designs = [tables.design(n) for n in names]
        except DataError as exc:
            raise OptionError(f"option designs: {exc}") from None
        gmap: GameMap | None
        if o["map"]:
            gmap = read_map_option(o["map"], tables)
        else:
            side = map_side(len(layout))
            mseed = o["map_seed"] or Rng(setup.seed).next64()
            key = (id(tables), mseed, side)
            gmap = _MAP_CACHE.get(key)
            if gmap is None:
                gmap = generate_map(mseed, side, side, tables)
                if len(_MAP_CACHE) > 64:
                    _MAP_CACHE.clear()
                _MAP_CACHE[key] = gmap
        st = cls.__new__(cls)
        st.setup = setup
        st._hist = None
        st.tables = tables
        st._own = OWN_ALL
        st.rng = Rng(setup.seed)
        st.turn = 1
        st.turns = o["turn_limit"]
        st.teams = teams
        st.over = None
        st.log = []
        st.log_turn = 0
        st.resigned = 0
        st._bots = []
        st._cps = []
        forced = []
        for team in range(teams):
            members = [p for t, p in layout if t == team]
            sectors, cp_sectors, facing = start_sectors(gmap.width, gmap.height, team,
                                                        len(members), tables.cp_per_team)
            for i, (p, (x, y)) in enumerate(zip(members, sectors, strict=True)):
                bot = Bot(len(st._bots) + 1, team, p, designs[i % len(designs)], x, y, facing)
                st._bots.append(bot)
            for j, (x, y) in enumerate(cp_sectors):
                st._cps.append(CommandPost(team, j + 1, x, y, tables.cp_structure))
            forced += sectors + cp_sectors
        if len(set(forced)) != len(forced) or not all(gmap.on_map(x, y) for x, y in forced):
            raise OptionError(f"a {gmap.width}x{gmap.height} map has no room for the start "
                              f"sectors of {len(st._bots)} bots in {teams} teams (CTF-35)")
        st.map = gmap.with_open(forced, tables.terrain_by_key["open"].index)
        st._occ = [0] * (gmap.width * gmap.height)
        for b in st._bots:
            st._occ[st.map.index(b.x, b.y)] = b.num
        for i, c in enumerate(st._cps):
            st._occ[st.map.index(c.x, c.y)] = -(i + 1)
        roster = Roster(tuple(b.team for b in st._bots),
                        tuple(len(b.design.weapons) for b in st._bots))
        if len(_ROSTERS) > 1024:
            _ROSTERS.clear()
        st.roster = _ROSTERS.setdefault(roster, roster)
        return st

    def clone(self) -> CtfState:
        """A copy that shares the Bots, command posts and occupancy with this state until
        either changes them (copy on write, `_unshare`): a search clones far more states than
        it carries a turn through. The map, tables, roster and log are never changed in place
        and are always shared."""
        st = CtfState.__new__(CtfState)
        st.setup = self.setup
        st._hist = self._hist
        st.tables = self.tables
        st.map = self.map
        st._bots = self._bots
        st._cps = self._cps
        st._occ = self._occ
        st._own = self._own = 0  # both now share everything mutable
        st.rng = self.rng.clone()
        st.turn = self.turn
        st.turns = self.turns
        st.teams = self.teams
        st.over = self.over
        st.log = self.log  # replaced (never mutated) once a turn is processed
        st.log_turn = self.log_turn
        st.roster = self.roster
        st.resigned = self.resigned
        return st

    # -- copy on write -----------------------------------------------------------------------------
    # `_own` says what this state holds privately: bit 0 its list of Bots, bit n Bot n;
    # OWN_ALL (-1) everything, the command posts and the occupancy too. A state made by `new`
    # or a determinization owns everything; `clone` leaves both states owning nothing. Code
    # in this module and the engine reads `_bots`, `_cps` and `_occ` freely and makes them
    # private before it changes them (`_unshare`, `_own_bot`); everyone else goes through
    # the `bots`, `cps` and `occ` properties, which make everything private first, so what
    # they change (a test setting up a scenario) is never seen by another state.
    def _unshare(self) -> None:
        """Make every Bot, command post and the occupancy private to this state."""
        own = self._own
        if own == OWN_ALL:
            return
        self._bots = [b if own >> b.num & 1 else b.copy() for b in self._bots]
        self._cps = [c.copy() for c in self._cps]
        self._occ = self._occ[:]
        self._own = OWN_ALL

    def _own_bot(self, b: Bot) -> Bot:
        """Bot `b` of this state, made private (a sheet handed in changes only its Bot)."""
        own = self._own
        if own >> b.num & 1:
            return b
        if not own & 1:
            self._bots = self._bots[:]
            own |= 1
        b = self._bots[b.num - 1] = b.copy()
        self._own = own | 1 << b.num
        return b

    @property
    def bots(self) -> list[Bot]:
        """The Bots, numbered from 1 (`bots[n - 1]` is Bot n), private to this state."""
        if self._own != OWN_ALL:
            self._unshare()
        return self._bots

    @bots.setter
    def bots(self, value: list[Bot]) -> None:
        self._unshare()
        self._bots = value

    @property
    def cps(self) -> list[CommandPost]:
        """The command posts, private to this state."""
        if self._own != OWN_ALL:
            self._unshare()
        return self._cps

    @cps.setter
    def cps(self, value: list[CommandPost]) -> None:
        self._unshare()
        self._cps = value

    @property
    def occ(self) -> list[int]:
        """What stands on each sector (index (y-1)*width + x-1): Bot n as n, command post i
        as -(i + 1), nothing 0; private to this state."""
        if self._own != OWN_ALL:
            self._unshare()
        return self._occ

    @occ.setter
    def occ(self, value: list[int]) -> None:
        self._unshare()
        self._occ = value

    # -- whose decision ------------------------------------------------------------------------
    def owed(self, player: int | None = None) -> list[int]:
        """Bots (numbers) whose sheet for this turn is still missing. A player who resigned
        owes none: their Bots follow their standing orders (CTF-40)."""
        if self.over is not None:
            return []
        out = [b.num for b in self._bots if b.status == FUNCTIONAL and b.sheet is None
               and (player is None or b.player == player)]
        gone = self.resigned
        if gone:
            out = [n for n in out if not gone >> self._bots[n - 1].player & 1]
        return out

    def current_players(self) -> tuple[int, ...]:
        """The players who still owe a sheet this turn: the moderator's knowledge. What a
        player or a spectator may be shown of it is `to_move_seen` (CTF-41)."""
        if self.over is not None:
            return ()
        seen = []
        for b in self._bots:
            if b.status == FUNCTIONAL and b.sheet is None and b.player not in seen:
                seen.append(b.player)
        gone = self.resigned
        if gone:
            seen = [p for p in seen if not gone >> p & 1]
        return tuple(sorted(seen))

    def to_move_seen(self, viewer: int | None) -> tuple[int, ...]:
        """The players still to decide as `viewer` may know them (CTF-41): before the turn is
        processed a player knows only whether their own sheet is in; who else has handed in,
        and how many, is the moderator's alone. So a seat sees itself listed exactly when it
        still owes a sheet, and every other player still in the game (not resigned, CTF-40)
        whether or not they have handed in; a spectator sees every player still in the game.
        A player whose Bots are all Wreckage is still listed to the others: whose Bots still
        function is itself hidden (CTF-21). Resignations and the end are public, so the list
        changes only with them, when the turn is processed, and with the viewer's own
        sheets."""
        if self.over is not None:
            return ()
        gone = self.resigned
        out = []
        for p in range(len(self.setup.names)):
            if gone >> p & 1:
                continue
            if p == viewer:
                owes = False
                for b in self._bots:
                    if b.player == p and b.status == FUNCTIONAL and b.sheet is None:
                        owes = True
                        break
                if not owes:
                    continue
            out.append(p)
        return tuple(out)

    def has_resigned(self, player: int) -> bool:
        """Whether `player` resigned (CTF-40): public, announced at the table."""
        return bool(self.resigned >> player & 1)

    def bots_of(self, player: int) -> list[Bot]:
        return [b for b in self.bots if b.player == player]  # Bots handed out: private

    # -- actions ---------------------------------------------------------------------------------
    def legal_actions(self, player: int | None = None) -> list[Sheet]:
        """The menu of order sheets (`menu`) for each Bot the player still owes, in Bot and
        menu order: `default` (the standing orders, handed in as `BOT <n> TURN <t> MISSING`,
        CTF-14), the sample plans, and the eject sheet for a Bot with four engines or fewer.
        The full product of five phases of orders is far too large to list, so this fixed menu
        is what agents choose from and what learners' action ids number (docs/ctf2187.md, "For
        learners"); any other sheet that passes CTF-37 may still be typed and handed in."""
        if player is None:
            cur = self.current_players()
            if not cur:
                return []
            player = cur[0]
        out: list[Sheet] = []  # a fresh list: callers may change it
        if self.over is not None:
            return out
        gone = self.resigned
        if gone and gone >> player & 1:  # (0 but after a resignation: one test, CTF-40)
            return out
        samples = self._samples
        for b in self._bots:  # owed(player), inlined
            if b.status == FUNCTIONAL and b.sheet is None and b.player == player:
                out += samples(b)
        return out

    def search_actions(self, player: int | None = None) -> list[Sheet]:
        """`legal_actions` and, for each Bot the player owes, the search's own plans
        (`search_plans`): sheets that pass CTF-37 for any Bot of its weapons but are not on
        the numbered menu. The search weighs them with the menu's (agents/search.py); learners'
        action ids still number the menu alone."""
        out = self.legal_actions(player)
        if out:
            for num in self.owed(self._bots[out[0][1] - 1].player):
                out += self._search_extra(self._bots[num - 1])
        return out

    @staticmethod
    def _search_extra(b: Bot) -> list[Sheet]:
        """Bot `b`'s sheets of `search_plans` (one shared cached list per Bot and weapons)."""
        key = (b.num, len(b.design.weapons))
        cached = _SEARCH_EXTRA.get(key)
        if cached is None:
            menu = set(CtfState._samples(b))
            cached = [s for s in dict.fromkeys(
                (TURN, b.num, *orders) for orders in CtfState.search_plans(len(b.design.weapons)))
                if s not in menu]
            if len(_SEARCH_EXTRA) > 4096:
                _SEARCH_EXTRA.clear()
            _SEARCH_EXTRA[key] = cached
        return cached

    @staticmethod
    def search_plans(nw: int) -> tuple[tuple[int, ...], ...]:
        """The search's plans beyond the menu for a Bot with `nw` weapons, each five phases of
        (move, attack, weapon) (CTF-37; the option fields 0). They give the search the ways of
        fighting a duel the menu lacks: kneel and fire every phase (harder to hit, a steadier
        aim, CTF-28), fall back while firing, fire every other phase to shed heat (CTF-25),
        close in twice then kneel and fire, hold by the team's posts, answer the last Bot to
        fire at it, and kneel and fire with each weapon in turn. With them the search at a CPU
        second scored 85% of 160 games against `greedy`, where with the menu alone it scored
        81% of 80: a few points (docs/agents.md, "Session 14 (CTF 2187)")."""
        plan = _phases
        kneel, stay, back, near, post, face = 20, 0, 4, 6, 10, 13
        fire, last = 2, 3  # at the nearest enemy; at the last Bot to target it
        out = [plan((kneel, fire, 0), *[(stay, fire, 0)] * 4),
               plan(*[(back, fire, 0)] * 5),
               plan((stay, fire, 0), (stay, 0, 0), (stay, fire, 0), (stay, 0, 0), (stay, fire, 0)),
               plan((near, fire, 0), (near, fire, 0), (kneel, fire, 0), (stay, fire, 0),
                    (stay, fire, 0)),
               plan(*[(post, fire, 0)] * 3, *[(face, fire, 0)] * 2),
               plan(*[(stay, last, 0)] * 5)]
        out += [plan((kneel, fire, w), *[(stay, fire, w)] * 4) for w in range(1, nw + 1)]
        return tuple(out)

    def sample_sheets(self, num: int) -> list[Sheet]:
        """The menu's sheets that Bot `num` may hand in now (see `legal_actions`), each once."""
        return list(self._samples(self._bots[num - 1]))

    @staticmethod
    def _samples(b: Bot) -> list[Sheet]:
        """`sample_sheets` of Bot `b`: the shared cached list (callers copy it)."""
        num = b.num
        nw = len(b.design.weapons)
        key = (num, nw, sum(b.engines) <= 4)  # functional_engines(), inlined
        cached = _SAMPLES.get(key)
        if cached is not None:
            return cached
        if len(_SAMPLES) > 4096:
            _SAMPLES.clear()
        out: list[Sheet] = [(MISSING, num)]
        out += [(TURN, num, *orders) for orders in CtfState.sample_plans(nw)]
        if key[2]:
            out.append((TURN, num, *EJECT_PLAN))
        out = list(dict.fromkeys(out))  # the first of any repeats, as the menu's ids number them
        _SAMPLES[key] = out
        return out

    def menu_size(self) -> int:
        """Entries in each Bot's menu: `default`, the 11 fixed plans, one "weapon w" plan per
        weapon of the best-armed design in the game, and the eject sheet."""
        return 13 + max(len(b.design.weapons) for b in self._bots)

    def menu(self, num: int) -> list[Sheet | None]:
        """Bot `num`'s whole menu, in id order: None where the entry is no sheet for this Bot
        (a weapon it does not have)."""
        return list(self._menu(num, self.menu_size()))

    def _menu(self, num: int, size: int) -> tuple[Sheet | None, ...]:
        """`menu(num)` for menus of `size`, as one shared tuple per (Bot, weapons, size): its
        sheets are then the very tuples handed in again and again, whose own checks
        `_check_action` remembers (`_PASSED_BY_ID`)."""
        nw = len(self._bots[num - 1].design.weapons)
        key = (num, nw, size)
        cached = _MENUS.get(key)
        if cached is not None:
            return cached
        out: list[Sheet | None] = [(MISSING, num)]
        out += [(TURN, num, *orders) for orders in self.sample_plans(nw)]
        out += [None] * (size - 1 - len(out))
        out.append((TURN, num, *EJECT_PLAN))
        if len(_MENUS) > 4096:
            _MENUS.clear()
        _MENUS[key] = result = tuple(out)
        return result

    # -- for learners (encoding.py, docs/ctf2187.md "For learners") ---------------
    def action_id(self, action: Sheet, player: int | None = None) -> int:
        if (not isinstance(action, tuple) or len(action) < 2 or type(action[1]) is not int
                or not 1 <= action[1] <= len(self._bots)):
            raise IllegalAction("CTF-37", f"{action!r:.60} is not an order sheet of this game")
        num = action[1]
        size = self.menu_size()
        b = self._bots[num - 1]
        if player is not None and player != b.player:
            raise IllegalAction("CTF-1", f"Bot {num} is commanded by Player {b.player + 1}, "
                                f"not Player {player + 1}")
        entry = _menu_index(len(b.design.weapons), size).get(action[:1] + action[2:])
        if entry is None:
            raise IllegalAction("CTF-37", f"this order sheet for Bot {num} is not on the menu "
                                "of numbered sheets (docs/ctf2187.md, 'For learners'): it can "
                                "be handed in as text but has no action id")
        return (num - 1) * size + entry

    def id_action(self, action_id: int, player: int | None = None) -> Sheet:
        from boardct.core.encoding import check_id

        size = self.menu_size()
        i = check_id(action_id, len(self._bots) * size, "ctf2187")
        num, entry = i // size + 1, i % size
        b = self._bots[num - 1]
        if player is not None and player != b.player:
            raise IllegalAction("CTF-1", f"action id {i} is an order for Bot {num}, commanded "
                                f"by Player {b.player + 1}, not Player {player + 1}")
        action = self._menu(num, size)[entry]
        if action is None:
            raise IllegalAction("CTF-37", f"action id {i} means a plan with weapon "
                                f"{entry - 11}, and Bot {num} ({b.design.name}) has "
                                f"{len(b.design.weapons)} weapons")
        return action

    def legal_ids(self, player: int | None = None) -> list[int]:
        """`sorted(self.action_id(a) for a in self.legal_actions(player))`, fast (see
        `encoding.fast_legal_ids`)."""
        from boardct.games.ctf2187 import encoding as enc

        return enc.fast_legal_ids(self, player)

    def observation_tensor(self, player: int) -> list[float]:
        from boardct.games.ctf2187 import encoding as enc

        return enc.fast_observation(enc.Layout.of(self), self, player)  # = from the view

    def information_state_tensor(self, player: int) -> list[float]:
        from boardct.games.ctf2187 import encoding as enc

        return enc.fast_information_state(enc.Layout.of(self), self, player)  # = from the view

    def observation_entries(self, player: int) -> dict[int, float]:
        from boardct.games.ctf2187 import encoding as enc

        return enc.fast_entries(enc.Layout.of(self), self, player)

    def information_state_entries(self, player: int) -> dict[int, float]:
        from boardct.games.ctf2187 import encoding as enc

        return enc.fast_information_entries(enc.Layout.of(self), self, player)

    def information_state_string(self, player: int) -> str:
        """The view as text: it holds the player's own sheets and what their Bots saw."""
        return self.observation_string(player)

    _PLANS: ClassVar[dict[int, tuple[tuple[int, ...], ...]]] = {}  # by number of weapons

    @staticmethod
    def sample_plans(nw: int) -> tuple[tuple[int, ...], ...]:
        """The orders (five phases of five numbers) of the sample sheets for a Bot with `nw`
        weapons: legal for any such Bot, whatever its state (CTF-37); determinizations draw
        other Bots' orders from them too."""
        cached = CtfState._PLANS.get(nw)
        if cached is not None:
            return cached

        def plan(moves: tuple[int, ...], attack: int = 2, weapon: int = 0) -> tuple[int, ...]:
            return _phases(*((m, attack, weapon) for m in moves))

        out = [plan((6, 6, 6, 6, 6)), plan((0, 0, 0, 0, 0)), plan((13, 0, 13, 0, 13)),
               plan((21, 13, 21, 13, 13)), plan((20, 0, 0, 0, 18)), plan((2, 13, 3, 13, 6)),
               plan((10, 10, 17, 0, 0), attack=5), plan((6, 6, 13, 6, 6), attack=5),
               plan((4, 13, 4, 13, 0)), plan((22, 6, 23, 6, 13), attack=3),
               plan((0, 0, 0, 0, 0), attack=0)]
        out += [plan((6, 13, 6, 13, 13), weapon=w) for w in range(1, nw + 1)]
        CtfState._PLANS[nw] = result = tuple(out)
        return result

    def _check_action(self, action: Any, player: int | None) -> tuple[int, Bot, int]:
        passed = _PASSED_BY_ID.get(id(action))
        if passed is not None and passed[0] is action and passed[1] is self.roster:
            b = self._bots[action[1] - 1]  # the action's own checks passed: see _PASSED_BY_ID
            if player is None:
                player = b.player
            elif player != b.player:
                raise IllegalAction("CTF-1", f"Bot {b.num} is commanded by Player "
                                    f"{b.player + 1}, not Player {player + 1}")
            if b.status != FUNCTIONAL:
                raise IllegalAction("CTF-30", f"Bot {b.num} is Wreckage and takes no orders")
            return action[0], b, player
        if (not isinstance(action, tuple) or len(action) < 2
                or not (all(type(v) is int for v in action)  # the common case, quickly
                        or all(isinstance(v, int) and not isinstance(v, bool) for v in action))):
            raise IllegalAction("CTF-37", f"{action!r} is not an order sheet")
        kind, num = action[0], action[1]
        if kind not in (TURN, STANDING, MISSING):
            raise IllegalAction("CTF-37", f"{action!r} is not an order sheet")
        if len(action) != (2 if kind == MISSING else 27):
            raise IllegalAction("CTF-37", "an order sheet has five phases of five numbers")
        if not 1 <= num <= len(self._bots):
            raise IllegalAction("CTF-1", f"there is no Bot {num} (bots 1-{len(self._bots)})")
        b = self._bots[num - 1]
        if player is None:
            player = b.player
        elif player != b.player:
            raise IllegalAction("CTF-1", f"Bot {num} is commanded by Player {b.player + 1}, "
                                f"not Player {player + 1}")
        if b.status != FUNCTIONAL:
            raise IllegalAction("CTF-30", f"Bot {num} is Wreckage and takes no orders")
        if kind != MISSING and (self.roster, action) not in _SHEETS_PASSED:
            errors = check_orders(num, action[2:], self.roster)
            if errors:
                text = "; ".join(f"phase {ln}, {f}: {m}" for ln, f, m in errors)
                raise IllegalAction("CTF-37", f"order sheet rejected: {text}")
            if len(_SHEETS_PASSED) > 16384:
                _SHEETS_PASSED.clear()
            _SHEETS_PASSED.add((self.roster, action))
        if type(action) is tuple:  # not a subclass: nothing about it can change
            if len(_PASSED_BY_ID) > 16384:
                _PASSED_BY_ID.clear()
            _PASSED_BY_ID[id(action)] = (action, self.roster)
        return kind, b, player

    def apply(self, action: Sheet, player: int | None = None) -> list[Event]:
        if self.over is not None:
            raise IllegalAction("CTF-39", "the game is over")
        kind, b, player = self._check_action(action, player)
        gone = self.resigned
        if gone and gone >> player & 1:
            raise IllegalAction("CTF-40", f"Player {player + 1} has resigned: their Bots "
                                "follow their standing orders for the rest of the game")
        b = self._own_bot(b)
        self._hist = (self._hist, player, action)  # State._push, inlined
        mask = 1 << b.num  # a sheet is known to its Bot's player only (and spectators)
        if kind == STANDING:
            b.standing = tuple(action[2:])
            return [engine.sighted(("standing", b.num), mask)]
        b.sheet = b.standing if kind == MISSING else tuple(action[2:])
        events: list[Event] = [engine.sighted(("sheet", b.num, kind), mask)]
        for o in self._bots:  # self._sheet_owed(gone), inlined: every sheet asks
            if o.status == FUNCTIONAL and o.sheet is None and not (gone and
                                                                    gone >> o.player & 1):
                return events
        events += self._run_turns()
        return events

    def _run_turns(self) -> list[tuple]:
        """Process the turn, whose sheets are all in; and, while no sheet is owed for the next
        one either (every player still in the game has only Wreckage left, the others have
        resigned), the turns after it on standing orders, to the end: nobody is left to
        decide them (CTF-14, CTF-40)."""
        events = engine.process_turn(self)
        while self.over is None and not self._sheet_owed(self.resigned):
            events += engine.process_turn(self)
        return events

    def _sheet_owed(self, gone: int) -> bool:
        """Whether a functional Bot of a player still in the game (not in `gone`, the
        resigned players' bits) has no sheet yet: then the turn waits. A resigned player's
        Bots need none: they follow their standing orders (CTF-40)."""
        for o in self._bots:
            if o.status == FUNCTIONAL and o.sheet is None and not gone >> o.player & 1:
                return True
        return False

    def parse(self, text: str, player: int | None = None) -> Sheet:
        if not isinstance(text, str):
            raise ParseError("an order sheet is text")
        if text.strip().lower() == "default":
            cur = self.current_players()
            p = player if player is not None else (cur[0] if cur else None)
            owed = self.owed(p) if p is not None else []
            if not owed:
                raise ParseError("'default' uses the standing orders of a Bot that still owes "
                                 "a sheet, and there is none", text)
            return (MISSING, owed[0])
        kind, num, orders = parse_sheet(text, self.roster, self.turn)
        return (kind, num, *orders)

    def notation(self, action: Sheet) -> str:
        return sheet_text(action[0], action[1], action[2:], self.turn)

    def entry_text(self, player: int, action: Sheet) -> str:
        return f"player {player + 1}: {self.notation(action)}"

    # ASCII digits only: `\d` would take `٣`, and `int()` refuses 5,000 digits with ValueError
    _ENTRY = re.compile(r"\s*player\s+([0-9]+)\s*:\s*(.*)\Z", re.S | re.I)

    def apply_entry(self, text: str) -> list[tuple]:
        m = self._ENTRY.match(text)
        if m is None:
            return self.apply(self.parse(text))
        number = ascii_int(m.group(1), 3)
        if number is None or not 1 <= number <= len(self.setup.names):
            raise ParseError(f"there is no player {m.group(1)[:20]}", text)
        player = number - 1
        return self.apply(self.parse(m.group(2), player), player)

    def describe_action(self, action: Sheet, player: int | None = None) -> str:
        """What the sheet does in a few words (the sheet itself is its notation)."""
        if action[0] == MISSING:
            return f"Bot {action[1]} follows its standing orders"
        if action[0] == STANDING:
            return f"Bot {action[1]} gets new standing orders"
        words = orders_words(action[2:]) if len(action) == 2 + 5 * PHASES else ""
        return f"Bot {action[1]}: {words}" if words else f"Bot {action[1]}'s orders for turn " \
            f"{self.turn}"

    def action_targets(self, action: Sheet, player: int | None = None) -> tuple[str, ...]:
        """The Bot a sheet is for, as the page draws it (`bot:3`): the player's own Bot, so
        nothing here tells anyone more than their own view does."""
        if type(action) is not tuple or len(action) < 2 or type(action[1]) is not int:
            return ()
        return (f"bot:{action[1]}",)

    def event_targets(self, events: Sequence[tuple], viewer: int | None) -> tuple[str, ...]:
        """The Bots other than `viewer`'s own that the events `viewer`'s Bots saw (already
        filtered by `events_for`, CTF-15, CTF-38) show moving, and the sector each last moved
        to: `("bot:2", "sector:14-10")`, the page's names. Orders are sealed (CTF-41): a sheet
        handed in moves nothing, so only a processed turn names anything."""
        own = {b.num for b in self.bots_of(viewer)} if viewer is not None else set()
        last: dict[int, tuple[int, int]] = {}
        for e in events:
            if len(e) >= 7 and e[0] == "move" and type(e[1]) is int and e[1] not in own:
                last[e[1]] = (e[5], e[6])  # (move, bot, how, x0, y0, x1, y1, facing, cost)
        out: list[str] = []
        for num, (x, y) in last.items():
            out += [f"bot:{num}", f"sector:{x}-{y}"]
        return tuple(out)

    def moves_note(self) -> str:
        return ("These are the menu's sample sheets: any sheet that passes CTF-37 may be handed in "
                "('help' shows how to write one; 'default' keeps the standing orders).")

    def action_group(self, action: Sheet) -> str:
        """Sheets by Bot: "Bot 1"."""
        return f"Bot {action[1]}"

    def reveals(self, event: tuple) -> bool:
        """Handing in a sheet (or new standing orders) shows nobody anything; the turn it
        completes (moves, sightings, shots) does."""
        return event[0] not in ("sheet", "standing", "message")

    def teammates(self, player: int) -> tuple[int, ...]:
        """The players whose Bots are on the same team as `player`'s (CTF-1): a team's chat
        reaches them."""
        teams = {b.team for b in self.bots if b.player == player}
        return tuple(sorted({b.player for b in self.bots if b.team in teams} | {player}))

    def resign_outcome(self, player: int) -> Outcome:
        """The resigner's team loses; every other team's players share the win."""
        team = {b.player: b.team for b in self._bots}
        n = len(self.setup.names)
        mine = team.get(player)
        winners = tuple(p for p in range(n) if team.get(p) != mine)
        returns = tuple(1.0 if p in winners else 0.0 for p in range(n))
        return Outcome(returns, "resignation", winners, kind=Termination.RESIGNATION)

    def resign(self, player: int) -> list[tuple]:
        """`player` resigns (CTF-40). They leave the game: from now on they owe no sheet and
        their Bots follow their standing orders, as for a sheet that never arrives (a sheet
        they already handed in this turn stands: it arrived). Their team loses by
        resignation only once every one of its players has resigned, with `resign_outcome`;
        with one player a team, that is at once, as in every game. The record keeps a
        "resign N" entry either way. When the resigner was the last one a sheet was owed
        from, the turn is processed now (its events follow the announcement)."""
        if self.over is not None:
            raise IllegalAction("table", "the game is over")
        n = len(self.setup.names)
        if not 0 <= player < n:
            raise IllegalAction("table", f"there is no Player {player + 1} to resign")
        if self.resigned >> player & 1:
            raise IllegalAction("CTF-40", f"Player {player + 1} has already resigned")
        self.resigned |= 1 << player
        self._mark(TableMark("resign", player))
        team = {b.player: b.team for b in self._bots}.get(player)
        mates = [p for p in range(n) if any(b.player == p and b.team == team
                                            for b in self._bots)]
        if all(self.resigned >> p & 1 for p in mates):
            outcome = self.resign_outcome(player)
            self.over = outcome
            return [(MESSAGE, f"Player {player + 1} resigns: {outcome.describe()}.")]
        events: list[tuple] = [(MESSAGE, f"Player {player + 1} resigns; their Bots follow "
                                         "their standing orders from now on (CTF-40).")]
        if not self._sheet_owed(self.resigned):
            events += self._run_turns()
        return events

    def _set_outcome(self, outcome: Outcome) -> None:
        self.over = outcome

    def describe(self, event: tuple) -> str:
        from boardct.games.ctf2187.report import describe_event

        return describe_event(self, event)

    def player_mask(self, player: int | None) -> int:
        """The Bots `player` commands, as a bit mask (bit n: Bot n); a spectator (None): 0."""
        mask = 0
        for b in self._bots:
            if b.player == player:
                mask |= 1 << b.num
        return mask

    def events_for(self, events: Sequence[tuple], player: int | None) -> list[tuple]:
        """What `player`'s Bots saw of `events` (CTF-15, CTF-38): each event carries the Bots
        that saw it happen and, for a Bot it names, the Bots that saw that one (engine.py), so
        a sheet handed in, a shot, a command post's fire or the action order reach a player
        only as far as the player's own Bots could see them at the time. Front-end notes
        (message, suspend, resume) pass through.

        A spectator (None) has no Bot and sees nothing of the Bots while the game goes on: only
        the turn and phase headers every player sees (`public_event`); once the game is over
        nothing is secret and the spectator sees every event."""
        if player is None:
            if self.over is not None:
                return list(events)
            every = self.every_bot_mask()
            return [e for e in events
                    if e and (e[0] in engine.FRONT_END_EVENTS or public_event(e, every))]
        viewer = self.player_mask(player)
        out = []
        for e in events:
            if e and e[0] in engine.FRONT_END_EVENTS:
                out.append(e)
                continue
            shown = engine.seen_by(e, viewer)
            if shown is not None:  # a fresh event: it tells nothing of who else saw it
                out.append(engine.sighted(tuple(shown), viewer))
        return out

    def every_bot_mask(self) -> int:
        """Every Bot, as a bit mask (bit n: Bot n): an event they all saw, every player saw."""
        return (1 << (len(self._bots) + 1)) - 2

    # -- the end ---------------------------------------------------------------------------------
    def bot_rating(self, b: Bot) -> Fraction:
        return Fraction(b.vp, b.design.tons)

    def team_rating(self, team: int) -> Fraction:
        members = [b for b in self._bots if b.team == team]
        tons = sum(b.design.tons for b in members)
        return Fraction(sum(b.vp for b in members), tons) if tons else Fraction(0)

    def end(self, reason: str, kind: Termination) -> None:
        ratings = [self.team_rating(t) for t in range(self.teams)]
        best = max(ratings)
        top = [t for t in range(self.teams) if ratings[t] == best]
        shown = ", ".join(f"{TEAM_LETTERS[t]} {float(r):.2f}" for t, r in enumerate(ratings))
        n = len(self.setup.names)
        player_team = {b.player: b.team for b in self._bots}
        if len(top) == self.teams:
            self.over = self._named(Outcome(tuple(0.5 for _ in range(n)),
                                            f"{reason}; ratings {shown}", kind=kind))
            return
        share = 1.0 if len(top) == 1 else 0.5
        returns = tuple(share if player_team.get(p) in top else 0.0 for p in range(n))
        winners = tuple(p for p in range(n) if player_team.get(p) in top)
        self.over = self._named(Outcome(returns, f"{reason}; ratings {shown}", winners,
                                        kind=kind))

    def _named(self, out: Outcome) -> Outcome:
        """The outcome with its line naming every player and team (report.outcome_text), so
        every front end that shows the result names them."""
        from boardct.games.ctf2187.report import outcome_text

        return Outcome(out.returns, out.reason, out.winners, outcome_text(self, out), out.kind)

    @property
    def outcome(self) -> Outcome | None:
        return self.over

    # -- showing ---------------------------------------------------------------------------------
    def visible_log(self, player: int | None) -> list[tuple]:
        """The last processed turn's events as `player`'s Bots saw them. A spectator (None):
        the headers every player sees while the game goes on, every event once it is over."""
        if player is None:
            if self.over is not None:
                return [e for _, e in self.log]
            every = self.every_bot_mask()
            return [e for _, e in self.log if public_event(e, every)]
        return self.log_seen_by(self.player_mask(player))

    def log_seen_by(self, viewer: int) -> list[tuple]:
        """The last processed turn's events as the Bots in `viewer` (bit mask) saw them."""
        seen_by = engine.seen_by
        out = []
        for m, e in self.log:
            if m & viewer:
                shown = seen_by(e, viewer)
                if shown is not None:
                    out.append(shown)
        return out

    def turn_number(self) -> int:
        return self.turn

    def board_view(self, player: int | None) -> dict:
        """Exactly what `player` may know (see hidden.py and docs/ctf2187.md).

        A spectator (None) has no seat: while the game goes on it gets only what is public —
        the map's size, the turn and turn limit, the command posts (CTF-21: every player knows
        them), the turn and phase headers of the last turn and the result — and no Bot, order,
        sheet, terrain or rating; nor who still owes sheets (it would tell which Bots still
        function). Once the game is over nothing is secret: the spectator sees the whole
        picture, `report.moderator_view`."""
        from boardct.games.ctf2187.report import (
            bot_status,
            contact,
            cp_status,
            moderator_view,
            plain,
            view_header,
            visual_display,
        )

        if player is None and self.over is not None:
            return moderator_view(self)
        out = view_header(self, player)
        out["teams"] = [{"team": TEAM_LETTERS[t], "rating": round(float(self.team_rating(t)), 2)}
                        for t in self.known_teams(player)]
        out["command_posts"] = [cp_status(self, c) for c in self._cps]
        out["owed"] = self.owed(player) if player is not None else []
        out["log_turn"] = self.log_turn
        out["log"] = [plain(e) for e in self.visible_log(player)]
        if player is None:
            out["standing_orders"] = {}
            out["bots"] = []
            out["submitted"] = []
            return out
        mine = self.bots_of(player)
        out["standing_orders"] = {str(b.num): self.notation((STANDING, b.num, *b.standing))
                                  for b in mine}
        out["bots"] = [bot_status(self, b) for b in mine]
        seen = self.contacts(mine)
        out["contacts"] = [contact(self, o) for o in seen]
        out["visual"] = [visual_display(self, b) for b in mine]
        out["submitted"] = [b.num for b in mine if b.sheet is not None]
        # the player's own sheets handed in this turn (they wrote them; nobody else sees them)
        out["sheets"] = {str(b.num): self.notation((TURN, b.num, *b.sheet))
                         for b in mine if b.sheet is not None}
        return out

    def known_teams(self, player: int | None) -> list[int]:
        """Teams whose ratings `player` may know: their own; a spectator none; everyone all
        once the game is over (CTF-39 announces them)."""
        if self.over is not None:
            return list(range(self.teams))
        if player is None:
            return []
        return sorted({b.team for b in self.bots_of(player)})

    def contacts(self, mine: list[Bot]) -> list[Bot]:
        """Other Bots the given Bots' scanners detect (functional or Wreckage, CTF-21)."""
        r = self.tables.scanning_range
        out = []
        own = {b.num for b in mine}  # by number: `mine` may come from before a copy on write
        for o in self.bots:  # Bots handed out: private
            if o.num in own:
                continue
            for b in mine:
                if b.status == FUNCTIONAL and distance(b.x, b.y, o.x, o.y) <= r:
                    out.append(o)
                    break
        return out

    def render(self, player: int | None = None) -> str:
        from boardct.games.ctf2187.report import render_board

        return render_board(self, player)

    def render_rich(self, player: int | None = None):
        from boardct.games.ctf2187.report import render_board_rich

        return render_board_rich(self, player)

    def render_compact(self, player: int | None = None):
        from boardct.games.ctf2187.report import render_board_compact

        return render_board_compact(self, player)

    def prompt(self) -> str:
        cur = self.current_players()
        if not cur:
            return ""
        p = cur[0]
        owed = self.owed(p)
        return f"Player {p + 1} (Bot {owed[0]}, turn {self.turn} order sheet): "

    def determinize(self, player: int | None, seed: int) -> CtfState:
        """A full state built only from what `view(player)` holds, everything else resampled
        from `seed`: unseen Bots' sectors, other Bots' orders and condition, hidden terrain,
        chance (hidden.py; docs/ctf2187.md)."""
        from boardct.games.ctf2187.hidden import determinize

        return determinize(self, player, seed)

    def open_orders(self, player: int) -> bool:
        """On a determinization for `player`: the other players' sheets for this turn (a
        sample: whether and what they handed in is hidden, CTF-41) are withdrawn, so a search
        chooses them as those players' decisions. Resigned players keep following their
        standing orders (CTF-40)."""
        if self.over is not None:
            return False
        gone = self.resigned
        changed = False
        for b in self._bots:
            if (b.player != player and b.status == FUNCTIONAL and b.sheet is not None
                    and not gone >> b.player & 1):
                self._own_bot(b).sheet = None
                changed = True
        return changed


class CtfGame(Game):
    bench_options: ClassVar[dict] = {"bots_per_team": BENCH_TEAM}
    id = "ctf2187"
    title = "CTF 2187 (computer-moderated robot battle)"
    frontends = FrontEnds(cli="boardct.games.ctf2187.cli", server="boardct.games.ctf2187.server",
                          web="web", agents="boardct.games.ctf2187.agents")
    small_options: ClassVar[dict] = {"turn_limit": 3}
    min_players = 2
    max_players = 16
    perfect_information = False
    has_chance = True
    simultaneous = True
    help_text = HELP
    # The strength ladder (agents/levels.py). The search gains little from time here (0.03
    # and 1 CPU s within some 80 Elo) and random sheets are only some 320-410 Elo below it, so
    # the levels below the search are random sheets with a share of turns held still
    # (`sparring`, agents.py) and the search with a share of its decisions random (`eps`):
    # docs/agents.md, "The strength ladder", session 14.
    agent_levels = ("sparring:hold=0.9", "sparring:hold=0.5", "random",
                    "search:cpu=0.2,eps=0.5", "search:cpu=1")
    options = (
        Option("turn_limit", 10, "the game ends after this turn (CTF-39)", type=int,
               minimum=1, maximum=MAX_TURNS),
        Option("teams", 2, "number of teams (CTF-1, CTF-35)", choices=(2, 3, 4), type=int),
        Option("bots_per_team", 0, "bots per team; 0 = auto: one bot per player, players "
               "split among the teams (CTF-1); N > 0: one commander per team or one pilot per "
               "bot", type=int, minimum=0, maximum=MAX_BOTS_PER_TEAM),
        Option("designs", DEFAULT_DESIGNS, "designs of each team's bots, in bot order, "
               "repeated as needed (designs.toml)"),
        Option("map_seed", 0, "seed of the generated map; 0 = from the game seed", type=int,
               minimum=0, maximum=MAX_SEED),
        Option("map", "", "a map file (docs/ctf2187.md), or the map text itself; empty = "
               "generate", local_file=True),
        TablesOption("tables", "", "a directory of TOML tables overriding the shipped ones",
                     local_file=True),
    )

    # -- facts for learners (encoding.py; docs/ctf2187.md "For learners") --------------------
    # Sizes follow the Bots and the map the options give, so they are read off a new game of
    # these options (seed 0: the deployment does not change them).
    def _sample(self, options: dict, players: int) -> CtfState:
        return self.initial_state(Setup(0, dict(options), tuple("" for _ in range(players))))

    def action_count(self, options: dict, players: int) -> int:
        """Every Bot's menu, Bot after Bot: id = (Bot - 1) x menu size + menu entry."""
        st = self._sample(options, players)
        return len(st._bots) * st.menu_size()

    def observation_shape(self, options: dict, players: int) -> tuple[int, ...]:
        from boardct.games.ctf2187 import encoding as enc

        return (enc.Layout.of(self._sample(options, players)).size,)

    def information_state_shape(self, options: dict, players: int) -> tuple[int, ...]:
        from boardct.games.ctf2187 import encoding as enc

        return (enc.Layout.of(self._sample(options, players)).info_size,)

    def write_observations(self, out: Any, states: Sequence[State[Any]],
                           players: Sequence[int]) -> bool:
        """A batch's tensors with the map's sectors in sight copied in blocks and the
        scaled values divided together (`batch`: numpy, from `boardct[rl]`)."""
        from boardct.games.ctf2187.batch import write_observations

        write_observations(out, states, players)
        return True

    def max_game_length(self, options: dict, players: int) -> int:
        """The most actions one game can take: at most the turn limit's turns (the game ends
        after that turn, CTF-39), each taking one order sheet from each functional Bot (a
        Wreckage owes none, CTF-14): turns x Bots. Counted over the legal actions (and their
        ids), which offer a sheet only for a Bot that still owes one; a sheet typed again for a
        Bot whose sheet is in (the last one counts) or new standing orders are no legal action.
        At the default options (10 turns, 2 Bots): 20."""
        st = self._sample(options, players)
        return st.turns * len(st._bots)

    def initial_state(self, setup: Setup) -> CtfState:
        return CtfState.new(setup)

    def evaluate(self, state: State, player: int) -> float | None:
        """The chance that the player's team ends with the best rating, in [-1, 1]
        (evaluation.py)."""
        return self.evaluate_all(state)[player]

    def evaluate_all(self, state: State) -> list[float | None]:
        assert isinstance(state, CtfState)
        return evaluation.evaluate_all(state)
