"""Where the vector API's step goes, game by game: the share of the engine, the observation and
the vector's own work (a profile, not a speed figure; `env_steps.py` gives the figures).

    PYTHONPATH=src python benchmarks/vector_profile.py [--games shift,fff] [--num-envs 16]

Each game at its default options, `--num-envs` games stepped with random legal actions chosen
in Python from the masks the vector handed out (outside `step`, so the profile is the
vector's), under cProfile with CPU time; each part's cumulative time as a share of `step`:
the engine's `apply_id`, its `legal_ids` (and the `legal_actions` they read, or a game's
mask writer reads), the observations written one game at a time
(`row_of`: for a game without a batch writer), `_write` (the batch's observations by the
game's batch writer where it has one, the copy of the rows, the masks) and autoreset.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import time

import numpy as np

from boardct.adapters.vector import vector_env
from boardct.core import registry


def shares(game_id: str, num_envs: int, steps: int) -> tuple[float, dict[str, float]]:
    v = vector_env(game_id, num_envs, copy=False)
    v.reset(seed=1)
    rng = random.Random(1)
    prof = cProfile.Profile(time.process_time)
    prof.enable()
    for _ in range(steps):
        # from the masks handed out (a game that writes its own masks lists no legal ids)
        v.step([rng.choice(np.flatnonzero(m).tolist()) if m.any() else 0 for m in v._masks])
    prof.disable()
    stats = pstats.Stats(prof).stats  # type: ignore[attr-defined]

    def cum(name: str, where: str) -> float:
        return sum(row[3] for (path, _line, fn), row in stats.items()
                   if fn == name and where in path.replace("\\", "/"))

    total = cum("step", "adapters/vector.py")
    parts = {
        "engine apply_id": cum("apply_id", "/games/") + cum("apply_id", "core/game.py"),
        "legal_ids": cum("legal_ids", "/games/") + cum("legal_ids", "core/game.py"),
        # inside legal_ids, or inside `_write` for a game that writes its masks itself
        "legal_actions": cum("legal_actions", "/games/"),
        "observations one by one": cum("row_of", "adapters/buffers.py"),
        "_write": cum("_write", "adapters/vector.py"),
        "autoreset": cum("_start", "adapters/vector.py"),
    }
    return total / (steps * num_envs), {k: v / total for k, v in parts.items()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", default="", help="comma-separated game ids (default: all)")
    ap.add_argument("--num-envs", type=int, default=16)
    ap.add_argument("--steps", type=int, default=600, help="vector steps (CTF 2187: a tenth)")
    args = ap.parse_args()
    ids = args.games.split(",") if args.games else [g.id for g in registry.all_games()]
    for gid in ids:
        steps = max(1, args.steps // 10) if gid == "ctf2187" else args.steps
        per, parts = shares(gid, args.num_envs, steps)
        print(f"{gid:11s} {per * 1e6:7.1f} us a game-step (profiled)  "
              + "  ".join(f"{k} {100 * v:.0f}%" for k, v in parts.items()), flush=True)


if __name__ == "__main__":
    main()
