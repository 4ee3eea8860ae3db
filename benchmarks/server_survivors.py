"""What a move leaves for the garbage collector: the objects it tracks that are still alive
after a move (`GameService.submit` and both seats' updates, built and encoded as the broadcast
does), by type, in-process, for random FieldShift moves in many games. Every young collection
walks these until they die or move on to an older generation; what a game keeps until its
next move is walked by several.

    PYTHONPATH=src python benchmarks/server_survivors.py [--games 200] [--warm 10]
    PYTHONPATH=/work/main/src python benchmarks/server_survivors.py   # another revision's

After `--warm` moves in every game (the games' set-up and first moves frozen out of the
collector's sight, as `boardct serve` freezes its start-up), one more move in every game with
the collector off; prints the young objects alive a move, by type, then what a full
collection leaves tracked (what the older generations keep a move). This is a benchmark, not a
test: nothing here asserts a figure.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import gc
import random

from server_path import fieldshift_games, random_move


async def run(games: int, warm: int, seed: int) -> None:
    from boardct.server.messages import encode, update_message

    rng = random.Random(seed)
    async with fieldshift_games(games) as (service, ids):
        played = 0

        async def one_round() -> None:
            nonlocal played
            for gid in ids:
                live = await service.get(gid)
                if live.over:
                    continue
                seat, text = random_move(live, rng)
                await service.submit(gid, seat, text, move_id=f"m{played}",
                                     version=live.seen_version(seat))
                for s in (seat, 1 - seat):
                    encode(update_message(live, live.entries[-1], s,
                                          service.update_state(live, s)))
                played += 1

        for _ in range(warm):
            await one_round()
        gc.collect()
        gc.freeze()
        gc.disable()
        try:
            before = played
            await one_round()
            moves = played - before
            young = collections.Counter(type(o).__name__ for o in gc.get_objects(0))
            alive = sum(young.values())
            print(f"{games} games, {moves} moves: {alive} tracked objects alive = "
                  f"{alive / moves:.1f} a move")
            for name, n in young.most_common(12):
                print(f"  {name:28s} {n:7d} {n / moves:6.2f} a move")
            gc.collect()
            kept = collections.Counter(type(o).__name__ for o in gc.get_objects())
            print(f"after a full collection: {sum(kept.values()) / moves:.1f} a move still "
                  "tracked (" + ", ".join(f"{k} {v / moves:.2f}"
                                          for k, v in kept.most_common(6)) + ")")
        finally:
            gc.enable()
            gc.unfreeze()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--warm", type=int, default=10, help="moves made in each game first")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    asyncio.run(run(args.games, args.warm, args.seed))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
