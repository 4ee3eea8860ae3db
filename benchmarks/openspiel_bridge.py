"""What the OpenSpiel bridge costs: a clone against the engine's own, and chance nodes.

    PYTHONPATH=src python benchmarks/openspiel_bridge.py [--clones 20000] [--actions 200]
                                                        [--seconds 2] [--games fieldshift,hills]
                                                        [--json]

1. Clones. For each game at its default options: one game played at random (seed 1) for `--actions`
actions (or to its last state before the end, chance nodes included), then, on that state,
CPU microseconds per clone for

- `engine`: the engine's `State.clone()`;
- `bridge`: `pyspiel.State.clone()` of the bridged state, OpenSpiel's C++ `Clone` (a new
  initial state from the game, then a deep copy of each attribute of the Python state, here
  one engine clone);
- `deepcopy`: `copy.deepcopy` of the bridged state (a Python state of one's own copied);
- `floor`: OpenSpiel's part alone: `clone()` of a bridged state whose one attribute is the
  int 0 (a new initial state, one attribute deep-copied, the C++ history copied): no bridge
  clone can cost less;
- `floor_new`: the same with an attribute whose `__deepcopy__` returns a new, empty object:
  what `copy.deepcopy` adds for any value that is not its own copy (it remembers the copy and
  keeps the original alive in its memo), so the least a clone that copies anything costs;
- `own`: what is left of the bridge's clone, `bridge - floor_new - engine`: the bridge's own
  part (its box made and filled).

The bridge's target: a clone at most twice the engine's. Both ratios are printed: the whole
clone's, and what the bridge adds to OpenSpiel's own part (`(bridge - floor) / engine`); where
`floor_new + engine` alone is more than twice the engine's clone the target cannot be met by
any bridge of a Python game, and `own` is what there is to make small.

2. Chance nodes. For each game whose chance the bridge lists (Shift, Hills): random games at
the default options for `--seconds` of CPU, player decisions per CPU second (chance nodes
played, not counted) with the chance as chance nodes (the default) and with
`chance_nodes=False` (drawn inside the engine, as before chance nodes).
CPU time (time.process_time), not wall time, so the figures hold on a shared machine.
"""

from __future__ import annotations

import argparse
import copy
import json
import random
import time
from typing import Any

import pyspiel

from boardct.adapters import openspiel
from boardct.core import registry


def _per_call(fn: Any, n: int) -> float:
    """CPU microseconds per call of `fn`, the best of three runs of `n` calls."""
    best = float("inf")
    for _ in range(3):
        t0 = time.process_time()
        for _ in range(n):
            fn()
        best = min(best, time.process_time() - t0)
    return best / n * 1e6


def _midgame(game_id: str, actions: int) -> Any:
    game = pyspiel.load_game(f"boardct_{game_id}", {"seed": 1})
    rng = random.Random(1)
    state = game.new_initial_state()
    done = 0
    while done < actions:
        trial = state.clone()
        if trial.is_chance_node():
            trial.apply_action(rng.choice(trial.legal_actions()))
        elif trial.is_simultaneous_node():
            trial.apply_actions([rng.choice(trial.legal_actions(p))
                                 for p in range(game.num_players())])
        else:
            trial.apply_action(rng.choice(trial.legal_actions()))
        if trial.is_terminal():
            break
        state = trial
        done += 1
    return state, done


def measure(game_id: str, clones: int, actions: int) -> dict[str, Any]:
    state, done = _midgame(game_id, actions)
    inner = state.inner
    engine = _per_call(inner.clone, clones)
    bridge = _per_call(state.clone, clones)
    deep = _per_call(lambda: copy.deepcopy(state), clones)
    bare = state.get_game().new_initial_state()
    bare._box = 0
    floor = _per_call(bare.clone, clones)
    bare._box = _Fresh()
    floor_new = _per_call(bare.clone, clones)
    return {"game": game_id, "actions": done, "engine_us": round(engine, 2),
            "bridge_us": round(bridge, 2), "deepcopy_us": round(deep, 2),
            "floor_us": round(floor, 2), "floor_new_us": round(floor_new, 2),
            "own_us": round(bridge - floor_new - engine, 2),
            "ratio": round(bridge / engine, 2),
            "over_floor": round((bridge - floor) / engine, 2)}


class _Fresh:
    """A value whose deep copy is a new object and costs nothing more (`floor_new`)."""

    __slots__ = ()

    def __deepcopy__(self, memo: dict[int, Any]) -> _Fresh:
        return _Fresh()


def decisions_per_second(game_id: str, seconds: float, chance_nodes: bool) -> float:
    game = pyspiel.load_game(f"boardct_{game_id}", {"chance_nodes": chance_nodes})
    rng = random.Random(1)
    decisions = 0
    t0 = time.process_time()
    while time.process_time() - t0 < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.legal_actions()))
                continue
            state.apply_action(rng.choice(state.legal_actions()))
            decisions += 1
    return decisions / (time.process_time() - t0)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--clones", type=int, default=20000)
    ap.add_argument("--actions", type=int, default=200)
    ap.add_argument("--seconds", type=float, default=2.0)
    ap.add_argument("--games", default="")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    openspiel.register()
    ids = args.games.split(",") if args.games else [g.id for g in registry.all_games()]
    rows = [measure(g, args.clones, args.actions) for g in ids]
    listed = [g for g in ids if "chance_nodes" in
              pyspiel.load_game(f"boardct_{g}").get_parameters()]
    chance = [{"game": g,
               "chance_nodes": round(decisions_per_second(g, args.seconds, True)),
               "sampled": round(decisions_per_second(g, args.seconds, False))} for g in listed]
    if args.json:
        print(json.dumps({"clones": rows, "chance": chance}, indent=2))
        return
    print(f"{'game':<12}{'actions':>8}{'engine us':>11}{'bridge us':>11}{'deepcopy us':>13}"
          f"{'floor us':>10}{'floor_new us':>14}{'own us':>8}{'bridge/engine':>15}"
          f"{'(bridge-floor)/engine':>23}")
    for r in rows:
        print(f"{r['game']:<12}{r['actions']:>8}{r['engine_us']:>11}{r['bridge_us']:>11}"
              f"{r['deepcopy_us']:>13}{r['floor_us']:>10}{r['floor_new_us']:>14}"
              f"{r['own_us']:>8}{r['ratio']:>15}{r['over_floor']:>23}")
    print()
    print(f"{'game':<12}{'decisions/CPU s, chance nodes':>31}{'chance_nodes=False':>20}")
    for r in chance:
        print(f"{r['game']:<12}{r['chance_nodes']:>31}{r['sampled']:>20}")


if __name__ == "__main__":
    main()
