"""Battle for The Shifting Hills for learners (issue 20): action ids and the tensors.

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

from boardct.core.encoding import check_id, flag, history_planes, one_hot, scaled
from boardct.core.errors import IllegalAction
from boardct.games.hills import actions as A
from boardct.games.hills.board import CARD_WORDS, HEXES, KIND_LETTERS, N_HEXES, UNIT_CAP

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
    hexes: list[list[float]] = []
    for h in view["hexes"]:
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
            sq = view["squads"][side * 3 + k]
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
    limit = view["turn_limit"] or TURN_SCALE
    out.append(flag(view["to_move"] == me))
    out.append(flag(me == 1))
    out.append(flag(view["first"] == me))
    out.append(scaled(view["turns_done"][me], limit))
    out.append(scaled(view["turns_done"][1 - me], limit))
    out.append(flag(view["card_played"]))
    boosted = view["boosted"]
    one_hot(out, -1 if boosted is None else KIND_LETTERS.index(boosted), 3)
    out.append(scaled(view["seize"][me], 3))
    out.append(scaled(view["seize"][1 - me], 3))
    hand = view["hands"].get(str(me), [])
    out.extend(scaled(hand.count(w), HAND_SCALE) for w in CARD_WORDS)
    out.append(scaled(view["hand_sizes"][me], HAND_SCALE))
    out.append(scaled(view["hand_sizes"][1 - me], HAND_SCALE))
    for side in (me, 1 - me):
        facts = view["hand_facts"][side]
        out.append(scaled(facts["no_artillery"], HAND_SCALE))
        out.append(scaled(facts["only_ammo"], HAND_SCALE))
    mix = view["deck_mix"]
    out.append(scaled(view["deck_size"], sum(mix.values())))
    discard = view["discard"]
    out.extend(scaled(discard.count(w), mix[w]) for w in CARD_WORDS)
    counts = view["tile_counts"]
    out.extend(scaled(view["face_down"][t], counts[t]) for t in "PMF")
    out.append(scaled(view["stars_face_down"], view["stars_total"]))
    out.append(flag(view["outcome"] is not None))
    return out


def information_state(view: dict, history: list, player: int) -> list[float]:
    """The observation and the last `HISTORY` actions (all public, BSH-38)."""
    return observation(view, player) + history_planes(
        history, player, lambda who, a: ID_OF.get(a), NUM_ACTIONS, HISTORY)
