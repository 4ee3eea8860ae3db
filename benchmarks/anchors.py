"""Anchors for `boardct bench`: what other engines do per CPU second on this machine.

    PYTHONPATH=src python benchmarks/anchors.py [--seconds 2] [--repeat 3] [--json]

- OpenSpiel's C++ Breakthrough driven from Python (pyspiel): random playouts, clone.
- OpenSpiel's Python tic-tac-toe (`python_tic_tac_toe`): random playouts.
- A plain-Python Breakthrough written below (a small, straightforward engine): random playouts.
- OpenSpiel's Python MCTSBot (random-rollout evaluator, one rollout) on C++ Breakthrough and on
  Python tic-tac-toe: search iterations (simulations) per CPU second.
- boardct's FieldShift random playouts and MCTS, measured the same way, for the ratio.

Everything is per CPU second of this process (time.process_time), median of `--repeat` runs.
The OpenSpiel rows need the `open_spiel` package (`pip install open_spiel`); without it they
are skipped with a message and the plain-Python rows are still measured.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections.abc import Callable

# -- a plain-Python Breakthrough (8x8, two rows of pawns each) --------------------------------
W, H = 8, 8


class PyBreakthrough:
    """Squares 0..63; `cells` holds 0 (empty), 1 (first player, moving up) or 2 (second)."""

    __slots__ = ("cells", "player", "winner")

    def __init__(self) -> None:
        self.cells = [1] * (2 * W) + [0] * ((H - 4) * W) + [2] * (2 * W)
        self.player = 1
        self.winner = 0

    def clone(self) -> PyBreakthrough:
        c = PyBreakthrough.__new__(PyBreakthrough)
        c.cells = self.cells[:]
        c.player = self.player
        c.winner = self.winner
        return c

    def legal_actions(self) -> list[tuple[int, int]]:
        cells, me = self.cells, self.player
        step = W if me == 1 else -W
        out = []
        for sq in range(W * H):
            if cells[sq] != me:
                continue
            to = sq + step
            if not 0 <= to < W * H:
                continue
            col = sq % W
            if cells[to] == 0:
                out.append((sq, to))
            for dc in (-1, 1):
                if 0 <= col + dc < W:
                    t = to + dc
                    if cells[t] != me:
                        out.append((sq, t))
        return out

    def apply(self, action: tuple[int, int]) -> None:
        sq, to = action
        cells, me = self.cells, self.player
        captured = cells[to] != 0
        cells[to] = me
        cells[sq] = 0
        home_row = to >= W * (H - 1) if me == 1 else to < W
        if home_row or (captured and (3 - me) not in cells):
            self.winner = me
        self.player = 3 - me


def py_breakthrough_playouts(seconds: float, seed: int = 1) -> float:
    rng = random.Random(seed)
    actions = 0
    c0 = time.process_time()
    while time.process_time() - c0 < seconds:
        s = PyBreakthrough()
        while not s.winner:
            s.apply(rng.choice(s.legal_actions()))
            actions += 1
    return actions / (time.process_time() - c0)


# -- OpenSpiel ---------------------------------------------------------------------------------
def spiel_playouts(game, seconds: float, seed: int = 1) -> float:
    rng = random.Random(seed)
    actions = 0
    c0 = time.process_time()
    while time.process_time() - c0 < seconds:
        s = game.new_initial_state()
        while not s.is_terminal():
            s.apply_action(rng.choice(s.legal_actions()))
            actions += 1
    return actions / (time.process_time() - c0)


def per_call_us(fn: Callable[[], object], seconds: float = 0.3) -> float:
    n = 1000
    while True:
        c0 = time.process_time()
        for _ in range(n):
            fn()
        dt = time.process_time() - c0
        if dt >= seconds:
            return dt / n * 1e6
        n *= 4


def spiel_mcts(game, simulations: int, seed: int = 1) -> float:
    import numpy as np
    from open_spiel.python.algorithms import mcts

    bot = mcts.MCTSBot(game, 2.0, simulations,
                       mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed)),
                       random_state=np.random.RandomState(seed))
    state = game.new_initial_state()
    c0 = time.process_time()
    bot.step(state)
    return simulations / (time.process_time() - c0)


def boardct_rows(seconds: float, iters: int) -> dict[str, float]:
    from boardct.arena import bench
    from boardct.core import registry

    game = registry.get("fieldshift")
    engine = bench.run(game, seconds=seconds, seed=1)
    search = bench.search("fieldshift", iters, seed=1)
    return {"boardct FieldShift random playouts (actions/CPU s)": engine["actions_per_cpu_s"],
            "boardct FieldShift clone (us)": engine["clone_us"],
            f"boardct FieldShift MCTS, {iters} iterations (iterations/CPU s)":
                search["iterations_per_cpu_s"]}


def measure(seconds: float, iters: int) -> tuple[dict[str, float], list[str]]:
    rows: dict[str, float] = {}
    notes: list[str] = []
    rows["plain-Python Breakthrough random playouts (actions/CPU s)"] = \
        py_breakthrough_playouts(seconds)
    rows["plain-Python Breakthrough clone (us)"] = per_call_us(PyBreakthrough().clone)
    try:
        import pyspiel
    except ImportError:
        notes.append("open_spiel is not installed (pip install open_spiel): the OpenSpiel "
                     "anchors are skipped")
        pyspiel = None
    if pyspiel is not None:
        from open_spiel.python.games import tic_tac_toe  # noqa: F401  (registers the game)

        cpp = pyspiel.load_game("breakthrough")
        pyttt = pyspiel.load_game("python_tic_tac_toe")
        rows["OpenSpiel C++ Breakthrough random playouts (actions/CPU s)"] = \
            spiel_playouts(cpp, seconds)
        mid = cpp.new_initial_state()
        rng = random.Random(2)
        for _ in range(20):
            mid.apply_action(rng.choice(mid.legal_actions()))
        rows["OpenSpiel C++ Breakthrough clone (us)"] = per_call_us(mid.clone)
        rows["OpenSpiel Python tic-tac-toe random playouts (actions/CPU s)"] = \
            spiel_playouts(pyttt, seconds)
        rows[f"OpenSpiel MCTSBot on C++ Breakthrough, {iters} simulations (iterations/CPU s)"] \
            = spiel_mcts(cpp, iters)
        rows[f"OpenSpiel MCTSBot on Python tic-tac-toe, {iters} simulations "
             "(iterations/CPU s)"] = spiel_mcts(pyttt, iters)
    rows.update(boardct_rows(seconds, iters))
    return rows, notes


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Anchor figures beside boardct's, per CPU second")
    ap.add_argument("--seconds", type=float, default=2.0, help="CPU seconds per playout figure")
    ap.add_argument("--iters", type=int, default=1000, help="MCTS iterations per search")
    ap.add_argument("--repeat", type=int, default=3, help="runs; the median is reported")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    runs = []
    notes: list[str] = []
    for _ in range(args.repeat):
        rows, notes = measure(args.seconds, args.iters)
        runs.append(rows)
    median = {k: round(statistics.median(r[k] for r in runs), 2) for k in runs[0]}
    if args.json:
        print(json.dumps({"repeat": args.repeat, "rows": median, "notes": notes}, indent=2))
        return 0
    print(f"Median of {args.repeat}, per CPU second of this process\n")
    print("| anchor | figure |\n|---|---|")
    for k, v in median.items():
        print(f"| {k} | {v:,.2f} |")
    for note in notes:
        print(f"\nnote: {note}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
