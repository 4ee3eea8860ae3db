"""The top of the strength ladder against `greedy` and against `mcts`, at equal CPU time.

    PYTHONPATH=src python benchmarks/strength.py                       # the full run (defaults)
    PYTHONPATH=src python benchmarks/strength.py --cpu 1 --games 40 --game shift --game ctf2187
    PYTHONPATH=src python benchmarks/strength.py --game ctf2187 --top search   # another agent
    PYTHONPATH=src python benchmarks/strength.py --cpu 0.03 --games 12 \\
        --out benchmarks/results/s8-strength.json --markdown benchmarks/results/s8-strength.md
    PYTHONPATH=src python benchmarks/strength.py --game shift -o shift:card2=tide-warden
    PYTHONPATH=src python benchmarks/strength.py --game shift --cpu 1 --games 40 --against greedy

For every game, the agent of the ladder's top level (agents/levels.py: `level=5`, its budget
set to `--cpu` CPU seconds a decision) plays `--games` games against `greedy` and as many
against `mcts:cpu=<the same>` (the search every game had before the ladder), seats
alternating (the arena's round robin). One table: the top agent's wins, draws and losses, its
score with the 95% Wilson interval (`arena.ratings.wilson`, draws half), the share of games
that ran to the turn limit, the top agent's score in each seat (in a game whose seats are far
from even, Shift's Ember Duelist against Tide Warden for one, a pairing's score is bounded
by what the weaker seat can do: `benchmarks/seat_balance.py` measures that), and the CPU
seconds spent (this process's and its workers' user and system time). `-o GAME:NAME=VALUE`
plays a game at other options (other cards in Shift), as `seat_balance.py` does;
`--against greedy` (or `mcts`) plays only that opponent. The defaults, 0.25 CPU s a
decision and 100 games a pairing, are the run the issue asks for; `--cpu 1 --games 40` is its
second check.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

from boardct.agents.levels import BUDGETS, LEVELS, ladder
from boardct.arena.bench import options_by_game
from boardct.arena.ratings import wilson
from boardct.arena.runner import round_robin, run_local
from boardct.core import registry
from boardct.core.errors import BoardctError


def at_cpu(spec: str, cpu: float) -> str:
    """`spec` with its budget (cpu, time or iters) replaced by `cpu` CPU seconds a decision."""
    name, _, params = spec.partition(":")
    kept = [p.strip() for p in params.split(",")
            if p.strip() and p.partition("=")[0].strip() not in BUDGETS]
    return f"{name}:" + ",".join(kept + [f"cpu={cpu:g}"])


def cpu_seconds() -> float:
    """User and system CPU seconds of this process and its finished workers."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def measure(game: str, opponent: str, top: str, games: int, seed: int, workers: int,
            options: dict | None = None) -> dict:
    specs = round_robin(game, [top, opponent], games, seed, options)
    c0, w0 = cpu_seconds(), time.perf_counter()
    results = run_local(specs, workers)
    cpu, wall = cpu_seconds() - c0, time.perf_counter() - w0
    # the top agent has the first seat in even games (the round robin's order): by seat, not
    # by name, as the top agent may be today's mcts itself
    mine = [r.returns[r.index % 2] for r in results]
    wins = sum(1 for s in mine if s > 0.5)
    losses = sum(1 for s in mine if s < 0.5)
    low, high = wilson(sum(mine), len(mine))
    # the top agent's score in each seat: even games seat 1, odd games seat 2
    by_seat = [mine[k::2] for k in (0, 1)]
    return {"game": game, "top": top, "opponent": opponent, "games": len(results),
            "wins": wins, "draws": len(mine) - wins - losses, "losses": losses,
            "score": round(sum(mine) / len(mine), 3), "interval": [round(low, 3), round(high, 3)],
            "by_seat": [round(sum(x) / len(x), 3) if x else None for x in by_seat],
            "turn_limit": sum(1 for r in results if r.ending == "turn_limit"),
            "mean_length": round(sum(r.length for r in results) / len(results), 1),
            "cpu_s": round(cpu, 1), "wall_s": round(wall, 1)}


def _share(x: float | None) -> str:
    return "-" if x is None else f"{x:.0%}"


def markdown(rows: list[dict], cpu: float, command: str) -> str:
    against = " and ".join(dict.fromkeys(r["opponent"].partition(":")[0] for r in rows))
    out = [f"Top level against {against}, {cpu:g} CPU s a decision each, seats alternating.",
           "", "| game | top agent | against | games | W-D-L | score | 95% Wilson | turn limit "
           "| as seat 1 | as seat 2 | CPU s |", "|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        opts = ", ".join(f"{k}={v}" for k, v in r.get("options", {}).items())
        name = r["game"] + (f" ({opts})" if opts else "")
        seat1, seat2 = r.get("by_seat", (None, None))
        out.append(f"| {name} | `{r['top']}` | `{r['opponent']}` | {r['games']} | "
                   f"{r['wins']}-{r['draws']}-{r['losses']} | {r['score']:.1%} | "
                   f"{r['interval'][0]:.1%} .. {r['interval'][1]:.1%} | "
                   f"{r['turn_limit'] / r['games']:.0%} | {_share(seat1)} | {_share(seat2)} | "
                   f"{r['cpu_s']:,.0f} |")
    total = sum(r["cpu_s"] for r in rows)
    out += ["", f"Measured with `{command}`: {total:,.0f} CPU s in all."]
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", action="append", help="a game id (repeat); default: every game")
    ap.add_argument("--games", type=int, default=100, help="games a pairing (seats alternate)")
    ap.add_argument("--cpu", type=float, default=0.25, help="CPU seconds a decision, each side")
    ap.add_argument("--seed", type=int, default=35)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--out", type=Path, help="write the rows as JSON here")
    ap.add_argument("--markdown", type=Path, help="write the table here (else print it)")
    ap.add_argument("--top", help="the agent to measure instead of the ladder's top level "
                    "(its budget set to --cpu), e.g. --top search")
    ap.add_argument("-o", "--option", action="append", default=[], metavar="GAME:NAME=VALUE",
                    help="a game option, e.g. shift:card2=ember-duelist")
    ap.add_argument("--against", action="append", choices=("greedy", "mcts"),
                    help="play only this opponent (repeat); default: greedy and mcts")
    args = ap.parse_args(argv)
    if args.games < 1 or args.cpu <= 0:
        ap.error("--games needs at least 1 and --cpu more than 0")
    ids = args.game or registry.ids()
    try:  # an unknown game, option or value fails before anything is played
        options = options_by_game(args.option, ids)
    except BoardctError as e:
        ap.error(str(e))
    rows = []
    for gid in ids:
        top = at_cpu(args.top or ladder(registry.get(gid))[LEVELS - 1], args.cpu)
        for opponent in ("greedy", f"mcts:cpu={args.cpu:g}"):
            if args.against and opponent.partition(":")[0] not in args.against:
                continue
            row = measure(gid, opponent, top, args.games, args.seed, args.workers,
                          options[gid])
            if options[gid]:
                row["options"] = options[gid]
            rows.append(row)
            print(f"{gid:10} {top} v {opponent}: {row['wins']}-{row['draws']}-{row['losses']} "
                  f"{row['score']:.3f} [{row['interval'][0]:.3f}, {row['interval'][1]:.3f}] "
                  f"({row['cpu_s']} CPU s)", flush=True)
            if args.out:  # after every pairing: a long run stopped keeps what it measured
                args.out.write_text(json.dumps({"cpu": args.cpu, "rows": rows}, indent=2),
                                    encoding="utf-8")
    command = "python benchmarks/strength.py " + " ".join(sys.argv[1:] if argv is None else argv)
    text = markdown(rows, args.cpu, command.strip())
    if args.markdown:
        args.markdown.write_text(text, encoding="utf-8")
    else:
        print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
