"""Seat balance: how often each seat wins when one agent plays every seat, per game, at the
game's default options (or the ones given).

    PYTHONPATH=src python benchmarks/seat_balance.py --agent random --games 400
    PYTHONPATH=src python benchmarks/seat_balance.py --agent mcts:iters=50 --games 100 \
        --game fieldshift --game hills --game shift --game ctf2187
    PYTHONPATH=src python benchmarks/seat_balance.py --game shift -o shift:card1=tide-warden \
        -o shift:card2=ember-duelist

The games are the arena's self-play schedule (`boardct balance`: `runner.self_play`, one seed
per game from `--seed`, agents seeded from the game's seed and their seat), played in this
process. For each seat it prints the share of games that seat won alone, with Wilson's 95%
interval, then the games drawn (no winner, or a shared win) and the games that ended at the
game's turn limit (some games name a winner there: CTF 2187 by points, for instance, so the
two counts differ). Seat 1 is the game's first seat (in Hills it does not always move first:
its `first` option draws the first player by default). CPU seconds are this process's.
Learners need these figures: a seat that wins most games whatever it does gives a self-play
learner little to learn from (docs/rl.md, "Seat balance").
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from boardct.arena.bench import options_by_game
from boardct.arena.ratings import wilson
from boardct.arena.runner import run_local, self_play
from boardct.core import registry
from boardct.core.errors import BoardctError
from boardct.core.outcome import Termination


def seat_balance(game_id: str, agent: str, games: int, seed: int, options: dict) -> dict:
    """Self-play `games` games of `agent` at `options`; wins per seat, draws, turn limits."""
    game = registry.get(game_id)
    opts = game.resolve_options(dict(options))
    players = game.min_players
    specs = self_play(game_id, agent, games, seed, {"default": dict(options)}, players)
    t0 = time.process_time()
    results = run_local(specs, workers=1)
    cpu = time.process_time() - t0
    wins = [sum(1 for r in results if r.winners == [s]) for s in range(players)]
    draws = sum(1 for r in results if len(r.winners) != 1)
    limits = sum(1 for r in results if r.ending == Termination.TURN_LIMIT.value)
    return {
        "game": game_id, "agent": agent, "games": games, "seed": seed,
        "options": {k: v for k, v in opts.items() if k in options} or "defaults",
        "seat_wins": wins,
        "seat_win_share": [round(w / games, 4) for w in wins],
        "seat_win_interval": [[round(x, 4) for x in wilson(w, games)] for w in wins],
        "draws": draws, "draw_interval": [round(x, 4) for x in wilson(draws, games)],
        "turn_limits": limits,
        "mean_length": round(sum(r.length for r in results) / games, 1),
        "cpu_seconds": round(cpu, 1),
    }


def markdown(rows: list[dict]) -> str:
    lines = ["| game | agent | games | seat 1 wins | seat 2 wins | draws | turn limit | "
             "mean actions | CPU s |", "|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        cells = []
        for w, (lo, hi) in zip(r["seat_wins"], r["seat_win_interval"], strict=True):
            cells.append(f"{w / r['games']:.1%} ({lo:.1%}–{hi:.1%})")
        lo, hi = r["draw_interval"]
        extra = "" if len(cells) == 2 else " + " + ", ".join(cells[2:])
        name = r["game"] if r["options"] == "defaults" else f"{r['game']} {r['options']}"
        lines.append(f"| {name} | `{r['agent']}` | {r['games']} | {cells[0]} | "
                     f"{cells[1]}{extra} | {r['draws'] / r['games']:.1%} ({lo:.1%}–{hi:.1%}) | "
                     f"{r['turn_limits']} | {r['mean_length']} | {r['cpu_seconds']} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", action="append", help="a game id (repeat); default: every game")
    ap.add_argument("--agent", default="random", help="the agent of every seat (arena spec)")
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("-o", "--option", action="append", default=[], metavar="GAME:NAME=VALUE",
                    help="a game option, e.g. shift:card1=tide-warden")
    ap.add_argument("--json", type=Path, help="write the rows as JSON here")
    args = ap.parse_args(argv)
    ids = args.game or sorted(registry.ids())
    try:  # an unknown game, option or value fails before any game is played
        options = options_by_game(args.option, ids)
    except BoardctError as e:
        ap.error(str(e))
    rows = []
    for gid in ids:
        row = seat_balance(gid, args.agent, args.games, args.seed, options[gid])
        rows.append(row)
        print(json.dumps(row), file=sys.stderr, flush=True)
    print(markdown(rows))
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
