"""CPU a move of the server's own path, without sockets: `GameService.submit` (parse, apply,
each seat's event lines, the commit on a SQLite file) and each seat's update (state built and
encoded as the broadcast does), for random FieldShift moves in many games. What is left of
`bench_server.py`'s CPU a move beyond this is uvicorn, the websocket frames and asyncio.

    PYTHONPATH=src python benchmarks/server_path.py [--games 50] [--rounds 40]
    PYTHONPATH=/tmp/rev/src python benchmarks/server_path.py   # another revision's

Prints the process CPU time a move (the database thread's included) and its parts. This is a
benchmark, not a test: nothing here asserts a figure.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import tempfile
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any


@contextlib.asynccontextmanager
async def fieldshift_games(games: int) -> AsyncIterator[tuple[Any, list[str]]]:
    """A `GameService` on a fresh SQLite file, with the extras every state message of
    `boardct serve` carries, and `games` new FieldShift games of two people in it: (service,
    game ids). Also what benchmarks/server_survivors.py plays."""
    from boardct.server import presence, recent
    from boardct.server.db import make_engine, migrate
    from boardct.server.service import GameService

    with tempfile.TemporaryDirectory(prefix="boardct-path-") as tmp:
        engine = make_engine(f"sqlite:///{(Path(tmp) / 'path.db').as_posix()}")
        migrate(engine)
        service = GameService(engine)
        service.state_extras.append(recent.last_move_extra)
        service.state_extras.append(presence.presence_extra)
        ids = []
        for _ in range(games):
            made = await service.create("fieldshift", {}, [{"kind": "human"},
                                                           {"kind": "human"}])
            ids.append(made["game_id"])
        try:
            yield service, ids
        finally:
            await service.settle()
            service.close()
            engine.dispose()


def random_move(live: Any, rng: random.Random) -> tuple[int, str]:
    """The seat to move in `live` and a random legal move of it, as a player would type it."""
    seat = live.state.current_players()[0]
    return seat, live.state.notation(rng.choice(live.state.legal_actions(seat)))


async def run(games: int, rounds: int, seed: int) -> dict[str, float]:
    from boardct.server.messages import encode, update_message

    rng = random.Random(seed)
    async with fieldshift_games(games) as (service, ids):
        parts = {"submit": 0.0, "update of the mover": 0.0, "update of the other": 0.0,
                 "encode": 0.0}
        clock = time.process_time
        moves = 0
        start = clock()
        for _ in range(rounds):
            for gid in ids:
                live = await service.get(gid)
                if live.over:
                    continue
                seat, text = random_move(live, rng)
                t0 = clock()
                await service.submit(gid, seat, text, move_id=f"m{moves}",
                                     version=live.seen_version(seat))
                t1 = clock()
                mover = service.update_state(live, seat)
                t2 = clock()
                other = service.update_state(live, 1 - seat)
                t3 = clock()
                for s, state in ((seat, mover), (1 - seat, other)):
                    encode(update_message(live, live.entries[-1], s, state))
                t4 = clock()
                parts["submit"] += t1 - t0
                parts["update of the mover"] += t2 - t1
                parts["update of the other"] += t3 - t2
                parts["encode"] += t4 - t3
                moves += 1
        total = clock() - start
    out = {"moves": moves, "ms_a_move": 1000 * total / moves}
    out |= {k: 1000 * v / moves for k, v in parts.items()}
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=50)
    ap.add_argument("--rounds", type=int, default=40, help="moves made in each game")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    res = asyncio.run(run(args.games, args.rounds, args.seed))
    print(f"{res['moves']} moves: {res['ms_a_move']:.3f} ms of CPU a move (" + ", ".join(
        f"{k} {v:.3f}" for k, v in res.items() if k not in ("moves", "ms_a_move")) + ")")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
