"""Shift for learners: action ids and the observation tensor.

Action ids (90): 0..9 are the action codes 0..9 (shift to ring gear 1/2L/3/2R, attack alpha/
beta/omega, first, second, pass); 10..89 are the defences, id = 10 + 16 * (active gear + 1) +
spirit-guard mask (active gear -1 for none; SH-9, SH-27, SH-28), i.e. the action code less 6.

The observation is built from `view(player)` only, from the observer's side ("own" first).
The coins still to come are not in the view, so never in the tensor; the coins already
flipped are (the last `FLIPS` of them).
"""

from __future__ import annotations

from array import array

from boardct.core.encoding import check_id, dense, flag, one_hot, scaled, signed
from boardct.core.errors import IllegalAction
from boardct.games.shift.actions import GUARD, P_DEFEND, P_OVER, PHASE_NAMES, TOKENS
from boardct.games.shift.cardformat import ATTACK_TYPES, LEVELS, RING

NUM_ACTIONS = 90
FLIPS = 6
STAT = 10.0  # power and guard are divided by this and clipped
GEAR_FIELDS = 3 + 3 * 3  # level, power, guard; per attack: printed, pattern length, cost
PLAYER_FIELDS = 4 + 7 + 2 + 4 * GEAR_FIELDS
GLOBAL_FIELDS = len(PHASE_NAMES) + 5 + 3 + 1
SIZE = GLOBAL_FIELDS + 2 * PLAYER_FIELDS + FLIPS * 5


def action_id(action: object) -> int:
    if type(action) is int and 0 <= action < 10:
        return action
    if type(action) is int and GUARD <= action < GUARD + 80:
        return action - GUARD + 10
    raise IllegalAction("SH-8", f"{action!r:.40} is not a Shift action")


def id_action(action_id_: object) -> int:
    i = check_id(action_id_, NUM_ACTIONS, "shift")
    return i if i < 10 else i - 10 + GUARD


def observation(view: dict, player: int) -> list[float]:
    out: list[float] = []
    me = player
    board = view["board"]
    one_hot(out, PHASE_NAMES.index(board["phase"]), len(PHASE_NAMES))
    out.append(flag(me in view["to_move"]))
    out.append(flag(board["mover"] == me))
    out.append(flag(board["first"] == me))
    out.append(flag(board["first"] == -1))
    out.append(flag(board["toss_winner"] == me))
    attack = board["attack"]
    one_hot(out, -1 if attack is None else ATTACK_TYPES.index(attack["type"]), 3)
    out.append(scaled(view["turn"], board["turn_limit"]))
    for p in (me, 1 - me):
        pl = board["players"][p]
        one_hot(out, RING.index(pl["gear"]), 4)
        out.append(scaled(pl["level"], 3))
        out.append(scaled(pl["power"], STAT))
        out.append(scaled(pl["guard"], STAT))
        out.append(signed(pl["temp_power"], STAT))
        out.append(signed(pl["temp_guard"], STAT))
        out.append(scaled(pl["lit"], TOKENS))
        out.append(scaled(pl["burnt"], TOKENS))
        out.append(flag(pl["skip_shift_phase"]))
        out.append(flag(pl["skip_next_turn"]))
        for g in pl["gears"]:
            out.append(scaled(g["level"], 3))
            out.append(scaled(g["power"], STAT))
            out.append(scaled(g["guard"], STAT))
            for m in g["attacks"]:
                out.append(flag(m is not None))
                out.append(scaled(len(m["pattern"]) if m else 0, 4))
                out.append(scaled(m["cost"] if m else 0, TOKENS))
    flips = board["flips"][-FLIPS:]
    flips = [None] * (FLIPS - len(flips)) + flips
    for f in flips:  # oldest first; per coin: heads, tails, own, other's, the toss
        if f is None:
            out.extend((0.0, 0.0, 0.0, 0.0, 0.0))
            continue
        who, face, _ = f
        out.extend((flag(face == "H"), flag(face == "T"), flag(who == me),
                    flag(who == 1 - me), flag(who == -1)))
    return out


# -- the fast path ---------------------------------------------------------------------------
# `observation(view, player)` above is the definition. Shift's view also spells out every legal
# command and each card's gears, which costs far more than the tensor a learner needs at every
# step; `fast_observation` reads the same values from the state's fields (Shift has no hidden
# information but the coins to come, which are in neither), each card's printed part computed
# once per card. tests/core/test_fast_observation.py checks it equals
# `observation(state.view(p), p)` on many random states.
_PLAYER_AT = GLOBAL_FIELDS
_FLIPS_AT = GLOBAL_FIELDS + 2 * PLAYER_FIELDS
_ATTACK_AT = {name: i for i, name in enumerate(ATTACK_TYPES)}
_CARDS: dict[int, tuple[object, list[float]]] = {}
_STAT = {v: scaled(v, STAT) for v in range(-64, 65)}  # looked up, not computed: same floats
_SIGNED = {v: signed(v, STAT) for v in range(-64, 65)}
_TOKENS = {v: scaled(v, TOKENS) for v in range(-64, 65)}
_LEVEL = tuple(scaled(level, 3) for level in LEVELS)


def _printed(card) -> list[float]:
    """The card's printed gears as the tensor shows them: fixed for the card, so made once."""
    cached = _CARDS.get(id(card))
    if cached is not None and cached[0] is card:
        return cached[1]
    out: list[float] = []
    for g in card.gears:
        out.append(scaled(g.level, 3))
        out.append(scaled(g.power, STAT))
        out.append(scaled(g.guard, STAT))
        for m in g.attacks:
            out.append(flag(m is not None))
            out.append(scaled(len(m.pattern) if m else 0, 4))
            out.append(scaled(m.cost if m else 0, TOKENS))
    if len(_CARDS) > 256:
        _CARDS.clear()
    _CARDS[id(card)] = (card, out)
    return out


def fast_observation(state, player: int) -> list[float]:
    """`observation(state.view(player), player)`, value for value, from the state's fields."""
    return dense(fast_entries(state, player), SIZE)


def _printed_entries(card, at: int) -> dict[int, float]:
    """`_printed(card)` as entries from position `at` (its nonzero values): made once per
    card and place."""
    key = (id(card), at)
    cached = _CARD_ENTRIES.get(key)
    if cached is not None and cached[0] is card:
        return cached[1]
    entries = {at + k: v for k, v in enumerate(_printed(card)) if v}
    if len(_CARD_ENTRIES) > 512:
        _CARD_ENTRIES.clear()
    _CARD_ENTRIES[key] = (card, entries)
    return entries


_CARD_ENTRIES: dict[tuple[int, int], tuple[object, dict[int, float]]] = {}
_PHASES = len(PHASE_NAMES)
_BASES: dict[tuple[int, int, int], tuple[object, object, dict[int, float], array]] = {}


def _base(cards, me: int) -> tuple[dict[int, float], array]:
    """Both cards' printed entries as `me` sees them (own card first): what every observation
    of a game starts from, made once per pair of cards and observer; as entries, and written
    into a float32 array of the whole size (the start of `fast_array`'s)."""
    own, other = cards[me], cards[1 - me]
    key = (me, id(own), id(other))
    found = _BASES.get(key)
    if found is not None and found[0] is own and found[1] is other:
        return found[2], found[3]
    base = {**_printed_entries(own, _PLAYER_AT + 13),
            **_printed_entries(other, _PLAYER_AT + PLAYER_FIELDS + 13)}
    if len(_BASES) > 512:
        _BASES.clear()
    floats = array("f", bytes(4 * SIZE))
    for at, v in base.items():
        floats[at] = v
    _BASES[key] = (own, other, base, floats)
    return base, floats


def fast_entries(state, player: int) -> dict[int, float]:
    """The entries of `fast_observation` that may be nonzero (position -> value), written
    into a dict so that an adapter copies these few rather than the whole tensor."""
    return _write(state, player, _base(state.cards, player)[0].copy())  # the cached one kept


def fast_array(state, player: int) -> array:
    """`fast_observation` as a fresh float32 `array` (the learners' adapters hand it to
    numpy without a copy): the same writes as `fast_entries`, onto a copy of the cards'
    cached array."""
    return _write(state, player, _base(state.cards, player)[1][:])


def _write(state, me: int, out):
    """Every entry of `me`'s observation but the printed cards' written into `out` (the
    cards' entries, as a dict or as a float array of `SIZE`: indexed alike); returned.
    Whose decision it is and the attack under way are read from the fields
    (`current_players()`, `attack_mod()` inlined); power and guard through the state's
    rules (`power`, `guard`)."""
    ph = state.phase
    out[ph] = 1.0
    n = _PHASES
    mover = state.mover
    if ph != P_OVER and (1 - mover if ph == P_DEFEND else mover) == me:
        out[n] = 1.0
    if mover == me:
        out[n + 1] = 1.0
    first = state.first
    if first == me:
        out[n + 2] = 1.0
    elif first == -1:
        out[n + 3] = 1.0
    if state.toss_winner == me:
        out[n + 4] = 1.0
    atk = state.atk
    if atk >= 0:  # attacks are held by type index (Gear.attacks)
        out[n + 5 + atk] = 1.0
    turns = _TURNS.get(state.limit)
    if turns is None:
        turns = _turns(state.limit)
    turn = state.turn
    out[n + 8] = turns[turn] if turn < len(turns) else scaled(turn, state.limit)
    at = _PLAYER_AT
    gears = state.gear
    power = state.power
    guard = state.guard
    for p in (me, 1 - me):
        gear = gears[p]
        out[at + gear] = 1.0
        out[at + 4] = _LEVEL[gear]
        v = power(p)
        out[at + 5] = _STAT[v] if v in _STAT else scaled(v, STAT)
        v = guard(p)
        out[at + 6] = _STAT[v] if v in _STAT else scaled(v, STAT)
        v = state.tp[p]
        if v:
            out[at + 7] = _SIGNED[v] if v in _SIGNED else signed(v, STAT)
        v = state.tg[p]
        if v:
            out[at + 8] = _SIGNED[v] if v in _SIGNED else signed(v, STAT)
        v = state.lit[p]
        if v:
            out[at + 9] = _TOKENS[v] if v in _TOKENS else scaled(v, TOKENS)
        v = state.burnt[p]
        if v:
            out[at + 10] = _TOKENS[v] if v in _TOKENS else scaled(v, TOKENS)
        if state.skip_shift[p]:
            out[at + 11] = 1.0
        if state.skip_turn[p]:
            out[at + 12] = 1.0
        at += PLAYER_FIELDS  # the printed gears (at + 13 on) are in the base
    # the last FLIPS coins, oldest first: the newest is the last block's
    cell = state.flips
    at = _FLIPS_AT + 5 * (FLIPS - 1)
    end = _FLIPS_AT
    while cell is not None and at >= end:
        cell, who, heads, _ = cell
        out[at if heads else at + 1] = 1.0
        if who == me:
            out[at + 2] = 1.0
        elif who == -1:
            out[at + 4] = 1.0
        elif who == 1 - me:
            out[at + 3] = 1.0
        at -= 5
    return out


_TURNS: dict[int, tuple[float, ...]] = {}


def _turns(limit: int) -> tuple[float, ...]:
    """`scaled(turn, limit)` for every turn of a game of `limit` turns: made once per limit
    (the same floats, looked up)."""
    if len(_TURNS) > 64:
        _TURNS.clear()
    out = _TURNS[limit] = tuple(scaled(t, limit) for t in range(max(limit, 0) + 1))
    return out
