"""This tree's MCTS against an earlier one (by default as at 3bc2f5c, before issue 21) at equal
CPU time per move.

    PYTHONPATH=src python benchmarks/mcts_arena.py --games 200 --cpu 0.05
    PYTHONPATH=src python benchmarks/mcts_arena.py --game fieldshift --game fff --games 20
    PYTHONPATH=src python benchmarks/mcts_arena.py --game fieldshift --old mcts@33b3f9d

Each game in the list is played `--games` times, seats alternating (the arena's round robin),
both agents with the same `cpu=` budget per move (this process's CPU seconds, so a busy
machine slows the games down without weakening either side). Prints the new agent's score
per game with a 95% interval and writes the results as JSON with `--out`.

An agent spec `NAME@REV` (`--old`, `--new`) is the agent module `src/boardct/agents/NAME.py`
as it was at git revision REV, playing this tree's engines (`benchmarks/revision.py`); it is
registered under that name in this process only (and in the arena's worker processes), and
is not a product agent. The older result files name the same agents as the copies that once
lay beside this script: `mcts_old` is `mcts@3bc2f5c`, `mcts_main3` is `mcts@4893f96` and
`mcts_main4` is `mcts@33b3f9d`. `--new minimax:depth=3` is the full-width diagnostic of
`minimax_depth.py`.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import minimax_depth  # noqa: E402, F401  (a diagnostic: `--new minimax:depth=3`)
import revision  # noqa: E402  (agents of earlier revisions: `--old mcts@REV`)

from boardct.arena.runner import round_robin, run_local  # noqa: E402
from boardct.core import registry  # noqa: E402

# Worker processes that start afresh (spawn) import this module again: the agents of earlier
# revisions that the parent registered are named here for them.
AT_REVISIONS = "BOARDCT_ARENA_AGENTS_AT"
for _label in filter(None, os.environ.get(AT_REVISIONS, "").split(",")):
    revision.register_agent_at(_label)

GAMES = ("fieldshift", "fff", "hills", "shift", "ctf2187")


def wilson(score: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """A 95% interval for a score share (draws count half), Wilson's."""
    if n == 0:
        return 0.0, 1.0
    p = score / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", action="append", choices=GAMES,
                    help="a game to play (repeat); default: all five")
    ap.add_argument("--games", type=int, default=200, help="games per game (seats alternate)")
    ap.add_argument("--cpu", type=float, default=0.05, help="CPU seconds per move, both sides")
    ap.add_argument("--new", default="mcts", help="the new agent's spec, before the budget")
    ap.add_argument("--old", default="mcts@3bc2f5c",
                    help="the old agent's spec, before the budget (NAME@REV: at a git revision)")
    ap.add_argument("--seed", type=int, default=21)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("-o", "--option", action="append", default=[], metavar="GAME:NAME=VALUE",
                    help="a game option, e.g. fieldshift:turn_limit=150")
    ap.add_argument("--out", type=Path, help="write the results as JSON here")
    args = ap.parse_args(argv)

    def spec(base: str) -> str:
        sep = "," if ":" in base else ":"
        return f"{base}{sep}cpu={args.cpu}"

    labels = [s.partition(":")[0].strip() for s in (args.new, args.old)]
    try:
        at = [revision.register_agent_at(label) for label in labels if "@" in label]
    except revision.RevisionError as exc:
        ap.error(str(exc))
    os.environ[AT_REVISIONS] = ",".join(at)
    new, old = spec(args.new), spec(args.old)
    options: dict[str, dict] = {}
    for text in args.option:
        gid, _, pair = text.partition(":")
        name, _, value = pair.partition("=")
        options.setdefault(gid, {})[name] = value
    rows = []
    for gid in args.game or GAMES:
        game = registry.get(gid)
        opts = game.resolve_options(options.get(gid, {}))
        specs = round_robin(gid, [new, old], args.games, args.seed, opts)
        t0 = time.process_time()
        w0 = time.perf_counter()
        results = run_local(specs, args.workers)
        score = sum(r.returns[r.agents.index(new)] for r in results)
        wins = sum(1 for r in results if r.returns[r.agents.index(new)] > 0.5)
        losses = sum(1 for r in results if r.returns[r.agents.index(new)] < 0.5)
        low, high = wilson(score, len(results))
        row = {"game": gid, "games": len(results), "new": new, "old": old,
               "new_score": score, "new_share": round(score / len(results), 3),
               "wins": wins, "draws": len(results) - wins - losses, "losses": losses,
               "interval95": [round(low, 3), round(high, 3)],
               "mean_length": round(sum(r.length for r in results) / len(results), 1),
               # this process's CPU time: the games' own only with one worker
               "cpu_s": round(time.process_time() - t0, 1) if args.workers <= 1 else None,
               "wall_s": round(time.perf_counter() - w0, 1)}
        rows.append(row)
        print(f"{gid:10} {row['games']:4} games  new {row['wins']}-{row['draws']}-"
              f"{row['losses']} (W-D-L)  share {row['new_share']:.3f} "
              f"[{low:.3f}, {high:.3f}]  {row['wall_s']} wall s", flush=True)
    if args.out:
        doc = {"cpu_per_move": args.cpu, "seed": args.seed, "workers": args.workers,
               "rows": rows}
        args.out.write_text(json.dumps(doc, indent=2), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
