"""Machine instructions per random-playout action, counted under valgrind: a before/after
that the machine's load cannot blur (CPU seconds on the shared machine vary by 10-25%).

    python benchmarks/playout_instructions.py BEFORE AFTER [GAME] [GAMES]
    python benchmarks/playout_instructions.py main src fieldshift 30

BEFORE and AFTER are each a git revision of this repository (its `src/` exported with
`git archive`) or a folder holding the `boardct` package; both run this tree's bench
(`benchmarks/revision.py`).

Runs the bench's own `random_playout` over the same seeded games as `ab_cpu.py`, under
`valgrind --tool=cachegrind --cache-sim=no` with `PYTHONHASHSEED=0` (so that the count repeats
to the instruction), once with the games and once without, and divides the difference (the
start-up and imports cancel) by the number of actions. Needs valgrind; some 10 s a tree for
30 FieldShift games.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import revision  # noqa: E402  (beside this script: trees from the git history)

CHILD = """
import random, sys
from boardct.arena.bench import random_playout
from boardct.core.registry import get
game = get(sys.argv[1])
opts = game.resolve_options(dict(game.bench_options))
rng = random.Random(7)
n = 0
for _ in range(int(sys.argv[2])):
    n += random_playout(game.new(seed=rng.randrange(1 << 30), **opts), rng)
print(n)
"""


def count(src: str, game: str, games: int) -> tuple[int, int]:
    """(instructions, actions) of `games` seeded playouts of `src`'s boardct, start-up
    included."""
    env = dict(os.environ, PYTHONPATH=str(Path(src).resolve()), PYTHONHASHSEED="0")
    proc = subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no",
                           "--cachegrind-out-file=/dev/null", sys.executable, "-c", CHILD, game,
                           str(games)], env=env, capture_output=True, text=True, check=True)
    refs = re.search(r"I\s+refs:\s+([\d,]+)", proc.stderr)
    assert refs is not None, proc.stderr[-500:]
    return int(refs.group(1).replace(",", "")), int(proc.stdout.split()[-1])


def per_action(src: str, game: str, games: int) -> tuple[float, int]:
    total, actions = count(src, game, games)
    base, _ = count(src, game, 0)
    return (total - base) / actions, actions


def main(argv: list[str]) -> int:
    if len(argv) < 3:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    game = argv[3] if len(argv) > 3 else "fieldshift"
    games = int(argv[4]) if len(argv) > 4 else 30
    with tempfile.TemporaryDirectory(prefix="boardct-instr-") as tmp:
        try:
            before, after = (str(revision.source_tree(spec, Path(tmp) / name))
                             for name, spec in (("before", argv[1]), ("after", argv[2])))
        except revision.RevisionError as exc:
            print(f"playout_instructions: {exc}", file=sys.stderr)
            return 2
        b, nb = per_action(before, game, games)
        a, na = per_action(after, game, games)
    print(f"before {b:,.0f} instructions an action, after {a:,.0f} ({a / b - 1:+.1%}); "
          f"{na} actions")
    if na != nb:
        print("the two trees played different numbers of actions: behaviour changed")
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
