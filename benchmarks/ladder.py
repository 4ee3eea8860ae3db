"""The strength ladder measured: each level against the one above it, in every game.

    PYTHONPATH=src python benchmarks/ladder.py                       # the full run (defaults)
    PYTHONPATH=src python benchmarks/ladder.py --game shift --games 20 --scale 0.1 \\
        --out benchmarks/results/s8-ladder.json --markdown benchmarks/results/s8-ladder.md

For each game, levels n and n+1 (`level:n=N`, agents/levels.py) play `--games` games, seats
alternating (the arena's round robin), for n = 1..4. The games of all four pairings are fitted
together by the arena's Bradley-Terry fit (`arena.ratings.ratings_with_ci`: Elo scale, average
1500, 95% bootstrap interval), and each adjacent pairing is given as the upper level's score
with its 95% Wilson interval and the Elo gap that interval allows: the ladder holds where the
gap's lower bound is at least 100. Writes one Markdown table (the one in docs/agents.md) and,
with `--out`, the rows as JSON.

`--spec AGENT` five times tries a candidate row (level 1 first) before it goes into the table.
`--scale S` plays every level's budget times S (`level:n=N,scale=S`): at 0.1 the top level
thinks 0.1 CPU s a move instead of 1. The defaults are the full-size run (scale 1, 100 games a
pairing), which takes hours of CPU per game; the CPU seconds spent are reported (this process's
and its workers' user+system time).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

from boardct.agents.levels import LEVELS, ladder, scaled
from boardct.arena.ratings import elo_difference, ratings_with_ci, wilson
from boardct.arena.runner import GameSpec, game_seed, run_local
from boardct.core import registry


def level_spec(n: int, scale: float, candidate: list[str] | None = None) -> str:
    """Level n as the arena plays it: `level:n=N,scale=S`, or the n-th of a candidate row."""
    if candidate:
        return scaled(candidate[n - 1], scale)
    return f"level:n={n}" + (f",scale={scale:g}" if scale != 1.0 else "")


def ladder_specs(game: str, games: int, seed: int, scale: float,
                 options: dict | None = None,
                 candidate: list[str] | None = None) -> list[GameSpec]:
    """Levels n and n+1 (n = 1..4) play `games` games each, seats alternating."""
    specs: list[GameSpec] = []
    for n in range(1, LEVELS):
        low, high = level_spec(n, scale, candidate), level_spec(n + 1, scale, candidate)
        for k in range(games):
            seats = (low, high) if k % 2 == 0 else (high, low)
            idx = len(specs)
            specs.append(GameSpec(idx, game, dict(options or {}), seats, game_seed(seed, idx)))
    return specs


def cpu_seconds() -> float:
    """User and system CPU seconds of this process and its finished workers."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def _fmt_elo(x: float) -> str:
    return "-inf" if x == float("-inf") else "+inf" if x == float("inf") else f"{x:+.0f}"


def measure(game: str, games: int, seed: int, scale: float, workers: int,
            candidate: list[str] | None = None) -> dict:
    specs = ladder_specs(game, games, seed, scale, candidate=candidate)
    c0, w0 = cpu_seconds(), time.perf_counter()
    results = run_local(specs, workers)
    cpu, wall = cpu_seconds() - c0, time.perf_counter() - w0
    labels = [level_spec(n, scale, candidate) for n in range(1, LEVELS + 1)]
    index = {s: i for i, s in enumerate(labels)}
    pairings = [(index[r.agents[0]], index[r.agents[1]], r.returns[0]) for r in results]
    ratings = ratings_with_ci(LEVELS, pairings)
    gaps = []
    for n in range(1, LEVELS):
        upper = [r.returns[r.agents.index(labels[n])] for r in results
                 if labels[n] in r.agents and labels[n - 1] in r.agents]
        score = sum(upper)
        low, high = wilson(score, len(upper))
        gaps.append({"upper": n + 1, "games": len(upper), "score": round(score / len(upper), 3),
                     "interval": [round(low, 3), round(high, 3)],
                     "elo_gap": [elo_difference(low), elo_difference(high)],
                     "turn_limit": sum(1 for r in results if labels[n] in r.agents
                                       and labels[n - 1] in r.agents
                                       and r.ending == "turn_limit")})
    g = registry.get(game)
    specs_played = [scaled(s, scale) for s in (candidate or ladder(g))]
    return {"game": game, "scale": scale, "games_per_pairing": games, "seed": seed,
            "specs": specs_played,
            "ratings": [{"level": i + 1, "elo": round(r[0], 1), "low": r[1], "high": r[2]}
                        for i, r in enumerate(ratings)],
            "gaps": gaps, "cpu_s": round(cpu, 1), "wall_s": round(wall, 1)}


def markdown(rows: list[dict], command: str) -> str:
    out = ["| game | level | plays | Elo (95% interval) | score v the level below (95% Wilson) "
           "| Elo gap (95%) |", "|---|---|---|---|---|---|"]
    for row in rows:
        for i, r in enumerate(row["ratings"]):
            lo = "-inf" if r["low"] == float("-inf") else f"{r['low']:.0f}"
            hi = "+inf" if r["high"] == float("inf") else f"{r['high']:.0f}"
            if i == 0:
                vs = gap = "—"
            else:
                gp = row["gaps"][i - 1]
                vs = (f"{gp['score']:.0%} ({gp['interval'][0]:.0%} .. {gp['interval'][1]:.0%}) "
                      f"of {gp['games']}")
                gap = f"{_fmt_elo(gp['elo_gap'][0])} .. {_fmt_elo(gp['elo_gap'][1])}"
            out.append(f"| {row['game'] if i == 0 else ''} | {r['level']} | "
                       f"`{row['specs'][i]}` | {r['elo']:.0f} ({lo} .. {hi}) | {vs} | {gap} |")
    total = sum(r["cpu_s"] for r in rows)
    each = ", ".join(f"{r['game']} {r['cpu_s']:,.0f}" for r in rows)
    out += ["", f"Measured with `{command}`: {total:,.0f} CPU s in all ({each})."]
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", action="append", help="a game id (repeat); default: every game")
    ap.add_argument("--games", type=int, default=100, help="games a pairing (seats alternate)")
    ap.add_argument("--scale", type=float, default=1.0, help="multiply every level's budget")
    ap.add_argument("--seed", type=int, default=35)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--spec", action="append", metavar="AGENT",
                    help=f"a candidate row instead of the table's: {LEVELS} agent specs, "
                         "level 1 first (repeat; `--scale` applies)")
    ap.add_argument("--out", type=Path, help="write the rows as JSON here")
    ap.add_argument("--markdown", type=Path, help="write the table here (else print it)")
    args = ap.parse_args(argv)
    if args.games < 1 or args.scale <= 0:
        ap.error("--games needs at least 1 and --scale more than 0")
    if args.spec is not None and len(args.spec) != LEVELS:
        ap.error(f"--spec: {LEVELS} agent specs, level 1 first")
    ids = args.game or registry.ids()
    for gid in ids:
        registry.get(gid)  # an unknown game fails before anything is played
    rows = []
    for gid in ids:
        row = measure(gid, args.games, args.seed, args.scale, args.workers, args.spec)
        rows.append(row)
        gaps = ", ".join(f"{g['upper'] - 1}->{g['upper']} {g['score']:.2f}" for g in row["gaps"])
        print(f"{gid:10} {gaps}  ({row['cpu_s']} CPU s)", flush=True)
        if args.out:  # after every game: a long run stopped keeps what it measured
            args.out.write_text(json.dumps({"rows": rows}, indent=2, default=str),
                                encoding="utf-8")
    command = "python benchmarks/ladder.py " + " ".join(sys.argv[1:] if argv is None else argv)
    text = markdown(rows, command.strip())
    if args.markdown:
        args.markdown.write_text(text, encoding="utf-8")
    else:
        print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
