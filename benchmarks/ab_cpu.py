"""Before/after random-playout speed of one game, alternating the two source trees so that a
busy machine's load falls on both alike; each figure is the best of `tries` runs of the same
fixed games (same seeds, so both trees must play exactly the same number of actions, which
is checked: a difference means behaviour changed).

    python benchmarks/ab_cpu.py BEFORE AFTER [GAME] [ROUNDS]
    python benchmarks/ab_cpu.py main src fieldshift 3       # main against this working tree

BEFORE and AFTER are each a git revision of this repository (its `src/` exported with
`git archive`) or a folder holding the `boardct` package; both are measured by this tree's
bench (`benchmarks/revision.py`). CPU time of the child process (time.process_time), not
wall time.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import revision  # noqa: E402  (beside this script: trees from the git history)

CHILD = """
import random, sys, time
from boardct.arena.bench import random_playout
from boardct.core.registry import get
game = get(sys.argv[1])
opts = game.resolve_options(dict(game.bench_options))
games, tries = int(sys.argv[2]), int(sys.argv[3])
best = float("inf")
for _ in range(tries):
    rng = random.Random(7)
    n = 0
    t0 = time.process_time()
    for _ in range(games):
        n += random_playout(game.new(seed=rng.randrange(1 << 30), **opts), rng)
    best = min(best, time.process_time() - t0)
print(n, n / best)
"""


def one(src: str, game: str, games: int, tries: int) -> tuple[int, float]:
    """(actions, actions per CPU second) of `src`'s boardct, in a fresh interpreter."""
    env = dict(os.environ, PYTHONPATH=str(Path(src).resolve()))
    out = subprocess.run([sys.executable, "-c", CHILD, game, str(games), str(tries)], env=env,
                         capture_output=True, text=True, check=True).stdout.split()
    return int(out[0]), float(out[1])


def main(argv: list[str]) -> int:
    if len(argv) < 3:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    game = argv[3] if len(argv) > 3 else "fieldshift"
    rounds = int(argv[4]) if len(argv) > 4 else 3
    with tempfile.TemporaryDirectory(prefix="boardct-ab-") as tmp:
        try:
            trees = {name: revision.source_tree(spec, Path(tmp) / name)
                     for name, spec in (("before", argv[1]), ("after", argv[2]))}
        except revision.RevisionError as exc:
            print(f"ab_cpu: {exc}", file=sys.stderr)
            return 2
        return compare(trees, game, rounds)


def compare(trees: dict[str, Path], game: str, rounds: int) -> int:
    rates: dict[str, list[float]] = {"before": [], "after": []}
    counts = set()
    for r in range(rounds):
        for name, src in trees.items():
            n, rate = one(str(src), game, 60, 8)
            counts.add(n)
            rates[name].append(rate)
            print(f"round {r + 1} {name:6}: {rate:,.0f} actions per CPU second ({n} actions)")
    b, a = sorted(rates["before"])[rounds // 2], sorted(rates["after"])[rounds // 2]
    print(f"median: before {b:,.0f}, after {a:,.0f}, x{a / b:.3f}")
    if len(counts) > 1:
        print("the two trees played different numbers of actions: behaviour changed")
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
