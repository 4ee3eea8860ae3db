"""Battle for The Shifting Hills for learners: action ids and the tensors.

Action ids (139): the well-formed action codes (BSH-38, actions.py) in ascending order: id 0
`end`; 1..18 `S move D` (squad kind x 6 + direction); 19..72 `S attack D T`; 73..75
`S deimpede`; 76..78 `S wait`; 79..81 `play artillery T`; 82..84 `play boost S`; 85..138
`play ammo S D T` (kinds I, R, M = 0, 1, 2; directions E, NE, NW, W, SW, SE = 0..5).

The observation is built from `view(player)` only, from the observer's side ("own" squads,
HQ and hand first): face-down tiles are an "unknown" plane, the opponent's hand only its size
and what everyone can infer about it (BSH-24). Every Hills action is public, so the
information state adds the last `HISTORY` actions of the game.
"""

from __future__ import annotations

from array import array

from boardct.core.encoding import (
    check_id,
    dense,
    flag,
    history_entries,
    history_planes,
    history_planes_of,
    one_hot,
    scaled,
)
from boardct.core.errors import IllegalAction
from boardct.games.hills import actions as A
from boardct.games.hills.board import (
    CARD_WORDS,
    HEXES,
    HQ,
    KIND_LETTERS,
    LAND,
    N_HEXES,
    UNIT_CAP,
)

CODES: tuple[int, ...] = tuple(a for a in range(8000) if A.is_code(a))
ID_OF = {a: i for i, a in enumerate(CODES)}
NUM_ACTIONS = len(CODES)  # 139
INDEX = {qr: i for i, qr in enumerate(HEXES)}
HEX_FIELDS = 6 + 2 + 6  # tile (face down, P, M, F, own HQ, enemy HQ), star, used, squads
SQUAD_FIELDS = 6
GLOBAL_FIELDS = 31
SIZE = N_HEXES * HEX_FIELDS + 6 * SQUAD_FIELDS + GLOBAL_FIELDS
HISTORY = 8
INFO_SIZE = SIZE + HISTORY * (NUM_ACTIONS + 1)
STATUSES = ("ready", "done", "extra move")
TURN_SCALE = 150.0  # turns done are divided by the turn limit, or this with none
HAND_SCALE = 10.0


def action_id(action: object) -> int:
    i = ID_OF.get(action) if type(action) is int else None
    if i is None:
        raise IllegalAction("BSH-38", f"{action!r:.40} is not a Hills action code")
    return i


def id_action(action_id_: object) -> int:
    return CODES[check_id(action_id_, NUM_ACTIONS, "hills")]


def observation(view: dict, player: int) -> list[float]:
    me = player
    board = view["board"]
    hexes: list[list[float]] = []
    for h in board["hexes"]:
        cell: list[float] = []
        tile = h["tile"]
        if tile is None:
            kind = 0
        elif tile[0] == "H":
            kind = 4 if int(tile[1:]) == me else 5
        else:
            kind = 1 + "PMF".index(tile)
        one_hot(cell, kind, 6)
        cell.append(flag(h.get("star")))
        cell.append(flag(h.get("star_used")))
        cell.extend([0.0] * 6)
        hexes.append(cell)
    squads: list[float] = []
    for side in (me, 1 - me):
        for k in range(3):
            sq = board["squads"][side * 3 + k]
            alive = sq["units"] > 0
            if alive:
                where = INDEX[(sq["q"], sq["r"])]
                hexes[where][8 + (0 if side == me else 3) + k] = 1.0
            squads.append(scaled(sq["units"], UNIT_CAP))
            squads.append(flag(alive))
            squads.append(flag(alive and sq["impeded"]))
            status = sq.get("status") or ""
            one_hot(squads, STATUSES.index(status) if status in STATUSES else -1, 3)
    out = [x for cell in hexes for x in cell]
    out += squads
    limit = board["turn_limit"] or TURN_SCALE
    out.append(flag(board["turn_player"] == me))
    out.append(flag(me == 1))
    out.append(flag(board["first"] == me))
    out.append(scaled(board["turns_done"][me], limit))
    out.append(scaled(board["turns_done"][1 - me], limit))
    out.append(flag(board["card_played"]))
    boosted = board["boosted"]
    one_hot(out, -1 if boosted is None else KIND_LETTERS.index(boosted), 3)
    out.append(scaled(board["seize"][me], 3))
    out.append(scaled(board["seize"][1 - me], 3))
    hand = board["hands"].get(str(me), [])
    out.extend(scaled(hand.count(w), HAND_SCALE) for w in CARD_WORDS)
    out.append(scaled(board["hand_sizes"][me], HAND_SCALE))
    out.append(scaled(board["hand_sizes"][1 - me], HAND_SCALE))
    for side in (me, 1 - me):
        facts = board["hand_facts"][side]
        out.append(scaled(facts["no_artillery"], HAND_SCALE))
        out.append(scaled(facts["only_ammo"], HAND_SCALE))
    mix = board["deck_mix"]
    out.append(scaled(board["deck_size"], sum(mix.values())))
    discard = board["discard"]
    out.extend(scaled(discard.count(w), mix[w]) for w in CARD_WORDS)
    counts = board["tile_counts"]
    out.extend(scaled(board["face_down"][t], counts[t]) for t in "PMF")
    out.append(scaled(board["stars_face_down"], board["stars_total"]))
    out.append(flag(view["result"] is not None))
    return out


def information_state(view: dict, history: list, player: int) -> list[float]:
    """The observation and the last `HISTORY` actions (all public, BSH-38)."""
    return observation(view, player) + history_planes(
        history, player, lambda who, a: ID_OF.get(a), NUM_ACTIONS, HISTORY)


# -- the fast path ---------------------------------------------------------------------------
# `observation(view, player)` above is the definition. Building the view dict costs more than
# the tensor and learners pay it every step, so `fast_observation` reads from the state's
# fields the very values its view shows, and nothing else: a hex's tile and star only when it
# is face up (`rev`), the observer's own hand only, the other hand's size and the public
# inferences (`known`), the deck's size. tests/hills/test_fast_observation.py checks it equals
# `observation(state.view(p), p)` on many random states (and the blindness property in
# tests/core/test_encoding.py holds for it).
_HEX_AT = tuple(h * HEX_FIELDS for h in range(N_HEXES))
_SQUADS_AT = N_HEXES * HEX_FIELDS
_GLOBAL_AT = _SQUADS_AT + 6 * SQUAD_FIELDS


_STATUS_OF: list[tuple[int, ...]] = []  # per squad state code, the STATUSES index (or -1)


def _status_index() -> tuple[int, ...]:
    """Filled on first use: state.py imports this module, so its words are not there yet."""
    if not _STATUS_OF:
        from boardct.games.hills.state import STATUS_WORDS

        _STATUS_OF.append(tuple(STATUSES.index(w) if w in STATUSES else -1
                                for w in STATUS_WORDS))
    return _STATUS_OF[0]
# `scaled(v, top)` looked up, not computed (the same floats), for the values a game holds
_UNITS = {u: scaled(u, UNIT_CAP) for u in range(UNIT_CAP + 1)}
_HAND = {n: scaled(n, HAND_SCALE) for n in range(64)}
_SEIZE = {n: scaled(n, 3) for n in range(8)}


_BOARDS: dict[tuple, tuple] = {}  # the board's part of the tensor, per what is face up


def _board(state, me: int) -> tuple[dict[int, float], list[float], array]:
    """The hexes' tile and star fields (squads left 0) and the last four global values (tiles
    and stars still face down), as `observation` makes them: they change only when a tile is
    turned or a star used, so they are made once per such board and observer (from the
    observer's last board, only the hexes that changed rewritten). Made from the face-up
    hexes only (`rev`); the key's `tiles` and `info` are the setup's own objects.
    The block comes twice: as entries, and written into a float32 array of the whole size
    (the start of `fast_array`'s)."""
    rev, tiles, star, info = state.rev, state.tiles, state.star, state.info
    last = _LAST.get((me, id(tiles)), ())  # this observer's last board of this game
    if last and last[0] is tiles and last[1] is info:
        rev0, star0 = last[5], last[6]
        if rev0 == rev and star0 == star:
            return last[2], last[3], last[4]
        # a tile turned or a star used since: the hexes that changed rewritten, no others
        block, floats = last[2].copy(), last[4][:]
        for h in range(N_HEXES):
            if rev[h] != rev0[h] or star[h] != star0[h]:
                at = _HEX_AT[h]
                for f in range(at, at + 8):
                    block.pop(f, None)
                    floats[f] = 0.0
                for f in _hex_fields(h, at, rev, tiles, star, me):
                    block[f] = floats[f] = 1.0
    else:
        key = (me, id(tiles), id(info), bytes(rev), bytes(star))
        found = _BOARDS.get(key)
        if found is not None and found[0] is tiles and found[1] is info:
            _remember(me, (*found, rev[:], star[:]))
            return found[2], found[3], found[4]
        block = {}
        floats = array("f", bytes(4 * SIZE))
        for h in range(N_HEXES):
            for f in _hex_fields(h, _HEX_AT[h], rev, tiles, star, me):
                block[f] = floats[f] = 1.0
    revealed = [0, 0, 0]
    stars_up = 0
    for h in LAND:
        if rev[h]:
            revealed[tiles[h]] += 1
            if star[h]:
                stars_up += 1
    counts = info.tile_counts
    tail = [scaled(counts[t] - revealed[t], counts[t]) for t in range(3)]
    tail.append(scaled(info.star_total - stars_up, info.star_total))
    if not last or last[0] is not tiles or last[1] is not info:  # a board met anew: kept
        if len(_BOARDS) > 4096:
            _BOARDS.clear()
        _BOARDS[(me, id(tiles), id(info), bytes(rev), bytes(star))] = (tiles, info, block,
                                                                        tail, floats)
    _remember(me, (tiles, info, block, tail, floats, rev[:], star[:]))
    return block, tail, floats


def _remember(me: int, last: tuple) -> None:
    if len(_LAST) > 1024:
        _LAST.clear()
    _LAST[me, id(last[0])] = last


def _hex_fields(h: int, at: int, rev, tiles, star, me: int) -> tuple[int, ...]:
    """The positions of hex `h`'s tile and star fields (from `at`) that are 1.0 (the rest 0)."""
    if not rev[h]:
        return (at,)
    t = tiles[h]
    # "H": a headquarters, HQ.index(h) its owner
    tile = at + (4 if HQ.index(h) == me else 5) if t == 3 else at + 1 + t
    if star[h] == 1:
        return (tile, at + 6)
    if star[h] == 2:
        return (tile, at + 7)
    return (tile,)


# per observer and game (its setup's tiles), `_board`'s last answer and the board it is of:
# most steps turn no tile (several games stepped in turn each keep theirs)
_LAST: dict[tuple[int, int], tuple] = {}
_SCALED: dict[tuple[int, float], float] = {}


def _scaled(value: int, top: float) -> float:
    """`scaled(value, top)`, remembered: the counts scaled here take few values."""
    key = (value, top)
    found = _SCALED.get(key)
    if found is None:
        if len(_SCALED) > 4096:
            _SCALED.clear()
        found = _SCALED[key] = scaled(value, top)
    return found


def fast_observation(state, player: int) -> list[float]:
    """`observation(state.view(player), player)`, value for value, from the state's fields."""
    return dense(fast_entries(state, player), SIZE)


def fast_entries(state, player: int) -> dict[int, float]:
    """The entries of `fast_observation` that may be nonzero (position -> value), written
    into a dict so that an adapter copies these few rather than the whole tensor."""
    block, tail, _ = _board(state, player)
    return _write(state, player, block.copy(), tail)  # a fresh dict: the cached one kept


def fast_array(state, player: int) -> array:
    """`fast_observation` as a fresh float32 `array` (the learners' adapters hand it to
    numpy without a copy): the squads written as `_write` writes them onto a copy of the
    board's cached array, then most global fields copied in three remembered runs (`_RUNS`,
    by the values each is made of) rather than written one by one."""
    _, tail, floats = _board(state, player)
    out = _write_squads(state, player, floats[:])
    me = player
    info, discard, tdone, seize = state.info, state.discard, state.tdone, state.seize
    over = state.out is not None
    g = _GLOBAL_AT
    out[g:g + 11] = _RUNS[(0, me, state.cur == me and not over, info.first == me,
                           info.turn_limit, tdone[me], tdone[1 - me], state.card_played,
                           state.boosted, seize[me], seize[1 - me])]
    out[g + 11:g + 21] = _RUNS[(1, me, *state.hand, *state.known)]
    out[g + 21:g + 26] = _RUNS[(2, len(state.deck), *info.deck_mix, discard.count(0),
                                discard.count(1), discard.count(2), discard.count(3))]
    out[g + 26], out[g + 27], out[g + 28], out[g + 29] = tail
    if over:
        out[g + 30] = 1.0
    return out


class _Runs(dict):
    """Runs of the global fields as float32 arrays, by the values they are made of (the keys
    `fast_array` builds, led by the run's number): 0, the eleven from "to move" to the
    seize counts; 1, the ten of the hands; 2, the five of the deck's size and the discard
    pile (the four after them, the tiles and stars face down, and "over" are written).
    Written as `_write` writes them (tests/hills/test_hills_observation_array.py holds the
    two to the same bytes)."""

    def __missing__(self, key: tuple) -> array:
        if key[0] == 0:
            run = array("f", bytes(4 * 11))
            me, mine, first, turn_limit, t_me, t_other, card, boosted, s_me, s_other = key[1:]
            limit = turn_limit or TURN_SCALE
            if mine:
                run[0] = 1.0
            if me == 1:
                run[1] = 1.0
            if first:
                run[2] = 1.0
            if t_me:
                run[3] = _scaled(t_me, limit)
            if t_other:
                run[4] = _scaled(t_other, limit)
            if card:
                run[5] = 1.0
            if boosted >= 0:
                run[6 + boosted % 3] = 1.0
            for j, v in enumerate((s_me, s_other)):
                if v:
                    run[9 + j] = _SEIZE[v] if v in _SEIZE else scaled(v, 3)
        elif key[0] == 1:
            run = array("f", bytes(4 * 10))
            me, hand, known = key[1], key[2:10], key[10:16]
            mine, theirs = hand[me * 4:me * 4 + 4], hand[(1 - me) * 4:(1 - me) * 4 + 4]
            b, c = me * 3, (1 - me) * 3
            values = (*mine, sum(mine), sum(theirs), known[b + 1] + known[b + 2],
                      known[b + 2], known[c + 1] + known[c + 2], known[c + 2])
            for at, v in enumerate(values):
                if v:
                    run[at] = _HAND[v] if v in _HAND else scaled(v, HAND_SCALE)
        else:
            run = array("f", bytes(4 * 5))
            deck, mix, counts = key[1], key[2:6], key[6:10]
            if deck:
                run[0] = _scaled(deck, sum(mix))
            if sum(counts):  # a discard pile: its four counts, zeros included
                for c in range(4):
                    run[1 + c] = _scaled(counts[c], mix[c])
        if len(self) > 65536:  # a bound: a few thousand keys in a long run of games
            self.clear()
        self[key] = run
        return run


_RUNS = _Runs()


def _write(state, me: int, out, tail: list[float]):
    """The squads' and the global entries of `me`'s observation written into `out` (the
    board's entries, as a dict or as a float array of `SIZE`: indexed alike); returned."""
    _write_squads(state, me, out)
    return _write_globals(state, me, out, tail)


def _write_squads(state, me: int, out):
    """The squads' entries of `me`'s observation (their fields, their hexes' squad planes)
    written into `out`; returned."""
    units, pos, imp, st = state.units, state.pos, state.imp, state.st
    status_of = _STATUS_OF[0] if _STATUS_OF else _status_index()
    cur = state.cur
    for sq, side, at, plane in _SQUAD_ORDER[me]:
        n = units[sq]
        out[at] = _UNITS[n] if n in _UNITS else scaled(n, UNIT_CAP)
        if n > 0:
            out[_HEX_AT[pos[sq]] + plane] = 1.0
            out[at + 1] = 1.0
            if imp[sq]:
                out[at + 2] = 1.0
            if side == cur:  # the statuses of the side to move only
                status = status_of[st[sq]]
                if status >= 0:
                    out[at + 3 + status] = 1.0
    return out


# per observer, its squads then the other side's: (squad, its side, where its fields start,
# its plane in a hex: 8 + kind for the observer's own, 11 + kind for the other's)
_SQUAD_ORDER = tuple(
    tuple((side * 3 + k, side, _SQUADS_AT + (j * 3 + k) * SQUAD_FIELDS,
           (8 if side == me else 11) + k)
          for j, side in enumerate((me, 1 - me)) for k in range(3))
    for me in (0, 1))


def _write_globals(state, me: int, out, tail: list[float]):
    """The global entries of `me`'s observation written into `out`; returned."""
    info = state.info
    limit = info.turn_limit or TURN_SCALE
    g = _GLOBAL_AT
    over = state.out is not None
    if not over and state.cur == me:
        out[g] = 1.0
    if me == 1:
        out[g + 1] = 1.0
    if info.first == me:
        out[g + 2] = 1.0
    tdone = state.tdone
    if tdone[me]:
        out[g + 3] = _scaled(tdone[me], limit)
    if tdone[1 - me]:
        out[g + 4] = _scaled(tdone[1 - me], limit)
    if state.card_played:
        out[g + 5] = 1.0
    if state.boosted >= 0:
        out[g + 6 + state.boosted % 3] = 1.0
    seize = state.seize
    for j, side in enumerate((me, 1 - me)):
        v = seize[side]
        if v:
            out[g + 9 + j] = _SEIZE[v] if v in _SEIZE else scaled(v, 3)
    hand = state.hand
    mine, theirs = hand[me * 4:me * 4 + 4], hand[(1 - me) * 4:(1 - me) * 4 + 4]
    known = state.known
    b, c = me * 3, (1 - me) * 3
    # the observer's own hand by card word, its size, the other hand's size only, and what
    # everyone can infer about each hand
    values = (*mine, sum(mine), sum(theirs), known[b + 1] + known[b + 2], known[b + 2],
              known[c + 1] + known[c + 2], known[c + 2])
    at = g + 11
    for v in values:
        if v:
            out[at] = _HAND[v] if v in _HAND else scaled(v, HAND_SCALE)
        at += 1
    mix = info.deck_mix
    deck = state.deck
    if deck:
        out[g + 21] = _scaled(len(deck), sum(mix))
    discard = state.discard
    if discard:
        for c in range(4):
            out[g + 22 + c] = _scaled(discard.count(c), mix[c])
    out[g + 26], out[g + 27], out[g + 28], out[g + 29] = tail
    out[g + 30] = flag(state.out is not None)
    return out


def fast_information_state(state, player: int) -> list[float]:
    """`information_state(state.view(player), state.history(), player)`, value for value,
    reading only the last `HISTORY` actions."""
    return history_planes_of(state, player, _known_id, NUM_ACTIONS, HISTORY,
                             fast_observation(state, player))


def fast_information_entries(state, player: int) -> dict[int, float]:
    """The entries of `fast_information_state` that may be nonzero: the observation's, then
    the history planes' ones (position -> value)."""
    return history_entries(state, player, _known_id, NUM_ACTIONS, HISTORY, SIZE,
                           fast_entries(state, player))


def _known_id(who: int, action: object) -> int | None:
    return ID_OF.get(action)  # type: ignore[call-overload]
