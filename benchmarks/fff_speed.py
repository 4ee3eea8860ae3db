"""Force Field Factions engine figures, per CPU second (time.process_time), median of 3 runs.

    PYTHONPATH=src python benchmarks/fff_speed.py [--seconds 3] [--runs 3] [--json]

- whole-turn random playouts: `legal_actions()` + `apply()` at every decision (what
  `boardct bench fff` does), actions per CPU second;
- step random playouts: `legal_ids()` + `apply_id()` (the learners' step encoding), steps per
  CPU second (skipped when the state has no step encoding);
- `legal_actions()` in ms and `clone()` in us at the bench position
  (`boardct.arena.bench.mid_game_state(fff, seed=1, {})`, the one `boardct bench fff` uses).
  Asked again and again for one position, `legal_actions()` answers from its memory of the
  last position (docs/fff.md); `legal_actions_fresh_ms` is the search itself
  (`movegen.fresh_turns`) at that position.

CPU time, not wall time, so the figures hold on a machine shared with other work.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

from boardct.arena.bench import mid_game_state
from boardct.core import registry


def whole_turn_playouts(game, seconds: float, seed: int) -> float:
    rng = random.Random(seed)
    actions = 0
    t0 = time.process_time()
    while time.process_time() - t0 < seconds:
        state = game.new(seed=rng.randrange(1 << 30))
        while not state.is_over:
            state.apply(rng.choice(state.legal_actions()))
            actions += 1
    return actions / (time.process_time() - t0)


def step_playouts(game, seconds: float, seed: int) -> float:
    rng = random.Random(seed)
    steps = 0
    t0 = time.process_time()
    while time.process_time() - t0 < seconds:
        state = game.new(seed=rng.randrange(1 << 30))
        while not state.is_over:
            state.apply_id(rng.choice(state.legal_ids()))
            steps += 1
    return steps / (time.process_time() - t0)


def per_call(fn, min_seconds: float = 0.3) -> float:
    """CPU seconds per call."""
    n = 100
    while True:
        t0 = time.process_time()
        for _ in range(n):
            fn()
        dt = time.process_time() - t0
        if dt >= min_seconds:
            return dt / n
        n *= 4


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    game = registry.get("fff")
    mid = mid_game_state(game, 1, game.resolve_options(game.bench_options))
    runs: dict[str, list[float]] = {"turns_per_cpu_s": [], "steps_per_cpu_s": [],
                                    "legal_actions_ms": [], "legal_actions_fresh_ms": [],
                                    "clone_us": []}
    fresh = _fresh(mid)
    has_steps = hasattr(mid, "apply_id") and _works(mid)
    for r in range(args.runs):
        runs["turns_per_cpu_s"].append(whole_turn_playouts(game, args.seconds, 1 + r))
        if has_steps:
            runs["steps_per_cpu_s"].append(step_playouts(game, args.seconds, 1 + r))
        runs["legal_actions_ms"].append(per_call(mid.legal_actions) * 1e3)
        if fresh is not None:
            runs["legal_actions_fresh_ms"].append(per_call(fresh) * 1e3)
        runs["clone_us"].append(per_call(mid.clone) * 1e6)
    out = {k: round(statistics.median(v), 4) for k, v in runs.items() if v}
    out["legal_actions_at_bench"] = len(mid.legal_actions())
    out["runs"] = {k: [round(x, 4) for x in v] for k, v in runs.items() if v}
    if args.json:
        print(json.dumps(out))
        return
    for k, v in out.items():
        print(f"{k:>24}  {v}")


def _fresh(state):
    """A call of the turn search without the memory of the last position, at `state` (None
    in trees from before that memory, where `legal_actions` is the search)."""
    from boardct.games.fff import movegen

    search = getattr(movegen, "fresh_turns", None)
    if search is None:
        return None
    args = (state.main, state.ghost, state.pool, state.lost, state.cnt, state.turn)
    return lambda: search(*args)


def _works(state) -> bool:
    try:
        state.clone().legal_ids()
    except NotImplementedError:
        return False
    return True


if __name__ == "__main__":
    main()
