"""What the notices' outbox adds to a move's commit, in CPU microseconds per move
(time.process_time): `Outbox.for_commit` over random games, once with every seat a guest
without contact (nothing to build: most games) and once with every seat an account's (each
turn that comes builds its notice from the seat's own view).

    PYTHONPATH=$PWD/src python benchmarks/notices_cpu.py fieldshift ctf2187
"""

from __future__ import annotations

import datetime as dt
import random
import sys
import time

from boardct.core import moves, registry
from boardct.core.game import Setup
from boardct.server.live import Live, Seat
from boardct.server.outbox import Outbox


def outbox_cpu(game_id: str, accounts: bool, games: int = 20, limit: int = 200
               ) -> tuple[float, int]:
    """CPU seconds spent in `for_commit`, and the moves it was called for."""
    game = registry.get(game_id)
    outbox = Outbox("http://games.example")
    spent, calls = 0.0, 0
    players = 3 if game.max_players >= 3 else 2
    names = tuple(f"P{i}" for i in range(players))
    for g in range(games):
        setup = Setup(g + 1, game.resolve_options({}), names, "")
        seats = [Seat(i, "human", None, n, True, account=i + 1 if accounts else None)
                 for i, n in enumerate(names)]
        live = Live("bench", game, setup, False, dt.datetime.now(dt.UTC), seats,
                    game.initial_state(setup))
        rng = random.Random(g)
        for _ in range(limit):
            if live.state.is_over:
                break
            player = rng.choice(live.state.current_players())
            action = rng.choice(live.state.legal_actions(player))
            done = moves.act(live.state.clone(), player, action)
            t0 = time.process_time()
            outbox.for_commit(live, player, done.state, done.events, calls + 1)
            spent += time.process_time() - t0
            calls += 1
            live.state = done.state
    return spent, calls


def main(argv: list[str]) -> None:
    for game_id in argv or ["fieldshift", "ctf2187"]:
        for accounts in (False, True):
            spent, calls = outbox_cpu(game_id, accounts)
            who = "accounts" if accounts else "guests  "
            print(f"{game_id:12} {who} {calls:5} moves  {spent:.3f} CPU s  "
                  f"{1e6 * spent / max(calls, 1):6.0f} us/move")


if __name__ == "__main__":
    main(sys.argv[1:])
