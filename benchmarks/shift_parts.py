"""CPU microseconds of the parts of a Shift decision that a learner's step pays for.

    PYTHONPATH=src python benchmarks/shift_parts.py

Run it once with this tree's `src` and once with another's (`PYTHONPATH=/other/src`) to
compare engines: the states are those of 40 seeded random games at the default options (the
first 4,000), the same in both. Each figure is the best of 5 passes over the states (CPU
time): the acting player's observation array, both players' power and guard, the legal ids,
and a clone plus one legal action (any decision, then defences alone: a defence runs the
attack).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from boardct.core import registry
from boardct.games.shift.actions import P_DEFEND


def main() -> None:
    game = registry.get("shift")
    states = []
    for seed in range(40):
        rnd = random.Random(seed)
        s = game.new(seed=seed, names=("a", "b"))
        while not s.is_over:
            states.append(s.clone())
            p = s.current_players()[0]
            s.apply(rnd.choice(s.legal_actions(p)), p)
    states = states[:4000]

    def per_call(f: Callable, items: list) -> float:
        best = 1e9
        for _ in range(5):
            t0 = time.process_time()
            for x in items:
                f(x)
            best = min(best, time.process_time() - t0)
        return best / len(items) * 1e6

    print(f"observation_array  {per_call(lambda s: s.observation_array(s.mover), states):.2f} us")
    print(f"power+guard, both  "
          f"{per_call(lambda s: (s.power(0), s.power(1), s.guard(0), s.guard(1)), states):.2f} us")
    print(f"legal_ids          {per_call(lambda s: s.legal_ids(), states):.2f} us")
    moves = [(s, s.current_players()[0], s.legal_actions()[0]) for s in states]
    defences = [m for m in moves if m[0].phase == P_DEFEND]

    def play(m: tuple) -> None:
        s, p, a = m
        s.clone().apply(a, p)

    print(f"clone+apply        {per_call(play, moves):.2f} us")
    print(f"clone+apply, defence (an attack)  {per_call(play, defences):.2f} us")


if __name__ == "__main__":
    main()
