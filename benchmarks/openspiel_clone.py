"""What a clone costs through the OpenSpiel bridge, against the engine's own clone.

    PYTHONPATH=src python benchmarks/openspiel_clone.py [--clones 20000] [--actions 200]
                                                       [--games fieldshift,hills] [--json]

For each game at its default options: one game played at random (seed 1) for `--actions`
actions (or to its last state before the end, chance nodes included), then, on that state,
CPU microseconds per clone for

- `engine`: the engine's `State.clone()`;
- `bridge`: `pyspiel.State.clone()` of the bridged state, OpenSpiel's C++ `Clone` (a new
  initial state from the game, then a deep copy of each attribute of the Python state, here
  one engine clone);
- `deepcopy`: `copy.deepcopy` of the bridged state (a Python state of one's own copied);
- `floor`: OpenSpiel's part alone: `clone()` of a bridged state whose one attribute is the
  int 0 (a new initial state, one attribute deep-copied, the C++ history copied): no bridge
  clone can cost less.

The bridge's target: a clone at most twice the engine's. Both ratios are printed: the whole
clone's, and what the bridge adds to OpenSpiel's own part (`(bridge - floor) / engine`).
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
    return {"game": game_id, "actions": done, "engine_us": round(engine, 2),
            "bridge_us": round(bridge, 2), "deepcopy_us": round(deep, 2),
            "floor_us": round(floor, 2), "ratio": round(bridge / engine, 2),
            "over_floor": round((bridge - floor) / engine, 2)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--clones", type=int, default=20000)
    ap.add_argument("--actions", type=int, default=200)
    ap.add_argument("--games", default="")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    openspiel.register()
    ids = args.games.split(",") if args.games else [g.id for g in registry.all_games()]
    rows = [measure(g, args.clones, args.actions) for g in ids]
    if args.json:
        print(json.dumps(rows, indent=2))
        return
    print(f"{'game':<12}{'actions':>8}{'engine us':>11}{'bridge us':>11}{'deepcopy us':>13}"
          f"{'floor us':>10}{'bridge/engine':>15}{'(bridge-floor)/engine':>23}")
    for r in rows:
        print(f"{r['game']:<12}{r['actions']:>8}{r['engine_us']:>11}{r['bridge_us']:>11}"
              f"{r['deepcopy_us']:>13}{r['floor_us']:>10}{r['ratio']:>15}"
              f"{r['over_floor']:>23}")


if __name__ == "__main__":
    main()
