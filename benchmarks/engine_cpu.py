"""Engine speed per CPU second (time.process_time), median of 3: random-playout actions,
clone and legal_actions at the benchmark configuration (`Game.bench_options`), as issue 21
reports them. CPU time, not wall time, so a figure holds on a busy machine.

    PYTHONPATH=$PWD/src python benchmarks/engine_cpu.py fieldshift 3

The playouts are `boardct.arena.bench.random_playout`; clone and legal_actions are timed on
`mid_game_state`, as `boardct bench` does.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Callable

from boardct.arena.bench import mid_game_state, random_playout
from boardct.core.registry import get


def per_call_us(fn: Callable[[], object], min_seconds: float = 0.3) -> float:
    """CPU microseconds per call, over at least `min_seconds` of CPU time."""
    n = 200
    while True:
        t0 = time.process_time()
        for _ in range(n):
            fn()
        dt = time.process_time() - t0
        if dt >= min_seconds:
            return dt / n * 1e6
        n *= 4


def once(game_id: str, seconds: float, seed: int = 1) -> tuple[float, float, float]:
    """(actions per CPU second, clone us, legal_actions us) from one run."""
    game = get(game_id)
    options = game.resolve_options(dict(game.bench_options))
    rng = random.Random(seed)
    actions = 0
    t0 = time.process_time()
    while True:
        state = game.new(seed=rng.randrange(1 << 30), **options)
        actions += random_playout(state, rng)
        if time.process_time() - t0 >= seconds:
            break
    elapsed = time.process_time() - t0
    mid = mid_game_state(game, seed, options)
    return actions / elapsed, per_call_us(mid.clone), per_call_us(mid.legal_actions)


def main(argv: list[str]) -> None:
    game_id = argv[1] if len(argv) > 1 else "fieldshift"
    seconds = float(argv[2]) if len(argv) > 2 else 3.0
    runs = [once(game_id, seconds) for _ in range(3)]
    rate, clone, legal = (statistics.median(x) for x in zip(*runs, strict=True))
    print(f"{game_id}: {rate:,.0f} actions per CPU second, clone {clone:.2f} us, "
          f"legal_actions {legal:.2f} us (median of 3)")


if __name__ == "__main__":
    main(sys.argv)
