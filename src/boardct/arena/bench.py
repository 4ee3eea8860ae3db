"""The engine benchmark every game gets: random playouts, clone and legal_actions costs, and
search speed and memory.

Random playouts call the full `legal_actions()` at every decision, as a search agent would.
Figures are given per CPU second of this process (`time.process_time`) beside wall-clock
seconds: on a busy machine the wall figures sink, the CPU figures hold.

`search()` measures one search at the bench position; `search_in_subprocess()` runs it in a
fresh interpreter so its peak memory is its own (peaks of searches in one process would
overlap). `run_all()` is `boardct bench --all`: every game, median of several runs.
"""

from __future__ import annotations

import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from boardct.agents import make
from boardct.core import registry
from boardct.core.errors import BoardctError
from boardct.core.game import Game, State

# The search `bench --all` measures: the whole budget is spent (no early stop), so the
# iteration count is exactly the one asked for.
BENCH_AGENT = "mcts:early=0"
SEARCH_ITERS = (1_000, 10_000)
MEMORY_NOTE = ("peak memory needs resource (POSIX) or psutil (Windows: pip install psutil); "
               "reported as null")


def random_playout(state: State, rng: random.Random, max_actions: int = 1_000_000) -> int:
    """Play uniformly random legal actions to the end; return the number of actions."""
    n = 0
    choice = rng.choice
    while n < max_actions:
        players = state.current_players()
        if not players:
            break
        for p in players:
            state.apply(choice(state.legal_actions(p)), p)
            n += 1
    return n


def mid_game_state(game: Game, seed: int, options: dict[str, Any], depth: int = 40,
                   tries: int = 20) -> State:
    """A state reached by `depth` random actions; if games end sooner, the state of the most
    actions before an end found in `tries` games (half way through the longest game)."""
    rng = random.Random(seed)
    best: State | None = None
    best_len = -1
    for _ in range(tries):
        state = game.new(seed=rng.randrange(1 << 30), **options)
        trail = [state.clone()]
        for _ in range(depth):
            players = state.current_players()
            if not players:
                break
            p = players[0]
            state.apply(rng.choice(state.legal_actions(p)), p)
            trail.append(state.clone())
        if not state.is_over:
            return state
        if len(trail) > best_len:
            best, best_len = trail[(len(trail) - 1) // 2], len(trail)
    assert best is not None
    return best


def peak_rss_mb() -> float | None:
    """This process's peak resident memory in MB so far: Linux's VmHWM, else
    `resource.getrusage` on POSIX, psutil's peak working set on Windows if psutil is
    installed, else None. Imported here, not at the module's top, so the module loads
    everywhere. (On Linux getrusage's peak survives exec: a child started by a big parent
    would report the parent's size; VmHWM is the new program's own.)"""
    status = Path("/proc/self/status")
    if sys.platform.startswith("linux") and status.is_file():
        for line in status.read_text(encoding="ascii", errors="replace").splitlines():
            if line.startswith("VmHWM:"):
                return round(int(line.split()[1]) / 2**10, 1)
    try:
        import resource
    except ImportError:
        try:
            import psutil
        except ImportError:
            return None
        peak = getattr(psutil.Process().memory_info(), "peak_wset", None)
        return None if peak is None else round(peak / 2**20, 1)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    # kilobytes on Linux, bytes on macOS
    return round(peak / (2**20 if sys.platform == "darwin" else 2**10), 1)


def _per_call_us(fn, min_seconds: float = 0.2) -> float:
    """CPU microseconds per call of `fn`, over at least `min_seconds` of CPU time."""
    n = 1000
    while True:
        t0 = time.process_time()
        for _ in range(n):
            fn()
        dt = time.process_time() - t0
        if dt >= min_seconds:
            return dt / n * 1e6
        n *= 4


FIRST_ASKS = 8  # positions legal_actions is timed at, from the mid-game state on


def _first_ask_us(mid: State, seed: int, min_seconds: float) -> float:
    """CPU microseconds of one `legal_actions()` at a position not just asked about: the
    mean over the mid-game state and the next positions of a random continuation, asked in
    turn. Asking one position again and again would time a game's memory of its last answer
    (FFF keeps one per side, for people who list the moves and then type one), not its move
    generation."""
    rng = random.Random(seed)
    positions = [mid.clone()]
    state = mid.clone()
    while len(positions) < FIRST_ASKS:
        players = state.current_players()
        if not players:
            break
        state.apply(rng.choice(state.legal_actions(players[0])), players[0])
        if state.current_players():
            positions.append(state.clone())
    asks = [s.legal_actions for s in positions]

    def cycle() -> None:
        for ask in asks:
            ask()

    return _per_call_us(cycle, min_seconds) / len(asks)


def run(game: Game, seconds: float = 5.0, seed: int = 1, options: dict | None = None,
        min_call_seconds: float = 0.2) -> dict:
    """Random playouts for `seconds` of CPU time, then clone() at a mid-game state and
    legal_actions() from it on (`_first_ask_us`). `actions_per_cpu_s` is the figure that holds
    on a busy machine."""
    options = game.resolve_options({**game.bench_options, **(options or {})})
    rng = random.Random(seed)
    actions = games = 0
    t0 = time.perf_counter()
    c0 = time.process_time()
    deadline = c0 + seconds
    while True:
        state = game.new(seed=rng.randrange(1 << 30), **options)
        actions += random_playout(state, rng)
        games += 1
        if time.process_time() >= deadline:
            break
    elapsed = max(time.perf_counter() - t0, 1e-9)
    cpu = max(time.process_time() - c0, 1e-9)
    mid = mid_game_state(game, seed, options)
    return {
        "game": game.id,
        "options": options,
        "seconds": round(elapsed, 3),
        "cpu_seconds": round(cpu, 3),
        "actions": actions,
        "games": games,
        "actions_per_s": round(actions / elapsed, 1),
        "actions_per_cpu_s": round(actions / cpu, 1),
        "games_per_s": round(games / elapsed, 3),
        "games_per_cpu_s": round(games / cpu, 3),
        "clone_us": round(_per_call_us(mid.clone, min_call_seconds), 3),
        "legal_actions_us": round(_first_ask_us(mid, seed, min_call_seconds), 3),
        "legal_actions_at_mid": len(mid.legal_actions()),
    }


def search(game_id: str, iters: int, seed: int = 1, agent: str = BENCH_AGENT,
           options: dict | None = None) -> dict:
    """One search of `iters` iterations by `agent` at the bench position (the mid-game state
    `run` measures legal_actions at), in this process: CPU and wall seconds, iterations per
    CPU second, and the process's peak memory before and after."""
    game = registry.get(game_id)
    opts = game.resolve_options({**game.bench_options, **(options or {})})
    state = mid_game_state(game, seed, opts)
    sep = "," if ":" in agent else ":"
    bot = make(f"{agent}{sep}iters={int(iters)}", seed=seed)
    player = state.current_players()[0]
    before = peak_rss_mb()
    w0 = time.perf_counter()
    c0 = time.process_time()
    bot.select(state, player)
    cpu = max(time.process_time() - c0, 1e-9)
    wall = max(time.perf_counter() - w0, 1e-9)
    done = getattr(bot, "last_iterations", 0)
    after = peak_rss_mb()
    return {"game": game_id, "agent": agent, "iterations": done, "cpu_seconds": round(cpu, 3),
            "seconds": round(wall, 3), "iterations_per_cpu_s": round(done / cpu, 1),
            "iterations_per_s": round(done / wall, 1), "peak_rss_mb": after,
            "rss_before_mb": before,
            "search_mb": None if after is None or before is None else round(after - before, 1)}


def search_in_subprocess(game_id: str, iters: int, seed: int = 1, agent: str = BENCH_AGENT,
                         options: dict | None = None, timeout: float = 1800.0) -> dict:
    """`search` in a fresh Python process, so the peak memory is this search's alone. The
    child imports this very copy of boardct (its folder goes first on PYTHONPATH)."""
    src = str(Path(__file__).resolve().parents[2])
    env = dict(os.environ)
    env["PYTHONPATH"] = src + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    args = json.dumps({"game": game_id, "iters": int(iters), "seed": seed, "agent": agent,
                       "options": options or {}})
    proc = subprocess.run([sys.executable, "-m", "boardct.arena.bench", args], env=env,
                          capture_output=True, text=True, timeout=timeout, check=False)
    if proc.returncode != 0:
        raise RuntimeError(f"bench search of {game_id} failed: {proc.stderr.strip()[-500:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def options_by_game(texts: list[str], ids: list[str]) -> dict[str, dict[str, str]]:
    """The benchmarks' `-o GAME:NAME=VALUE` options (strength.py, seat_balance.py), by game
    of `ids`, each checked before anything is played: a malformed text, a game not measured,
    or an option, value or card the game refuses (its setup is made once, for what only a
    setup reads: a card file) is a BoardctError saying which."""
    options: dict[str, dict[str, str]] = {g: {} for g in ids}
    for text in texts:
        gid, _, pair = text.partition(":")
        name, eq, value = pair.partition("=")
        if gid not in options or not eq:
            raise BoardctError(f"--option {text!r}: want GAME:NAME=VALUE for one of "
                               f"{', '.join(ids)}")
        options[gid][name] = value
    for gid in ids:
        game = registry.get(gid)
        game.resolve_options(options[gid])
        game.new(seed=0, **options[gid])
    return options


def _median(values: list) -> Any:
    known = [v for v in values if v is not None]
    return round(statistics.median(known), 3) if known else None


def run_all(games: list[Game], seconds: float = 2.0, repeat: int = 3,
            iters: tuple[int, ...] = SEARCH_ITERS, seed: int = 1, agent: str = BENCH_AGENT,
            progress=None) -> dict:
    """Every game: random-playout actions per CPU second, clone and legal_actions in CPU
    microseconds, and per search budget in `iters` the agent's iterations per CPU second and
    peak memory (each search in a fresh process) — each the median of `repeat` runs of the
    same work (same seed, same position: only the timing varies)."""
    rows = []
    for game in games:
        engine = [run(game, seconds=seconds, seed=seed) for _ in range(repeat)]
        row: dict[str, Any] = {
            "game": game.id,
            "actions_per_cpu_s": _median([e["actions_per_cpu_s"] for e in engine]),
            "actions_per_s": _median([e["actions_per_s"] for e in engine]),
            "clone_us": _median([e["clone_us"] for e in engine]),
            "legal_actions_us": _median([e["legal_actions_us"] for e in engine]),
            "legal_actions_at_mid": engine[0]["legal_actions_at_mid"],
            "searches": {},
        }
        for n in iters:
            runs = [search_in_subprocess(game.id, n, seed, agent) for _ in range(repeat)]
            row["searches"][str(n)] = {
                "iterations_per_cpu_s": _median([r["iterations_per_cpu_s"] for r in runs]),
                "cpu_seconds": _median([r["cpu_seconds"] for r in runs]),
                "peak_rss_mb": _median([r["peak_rss_mb"] for r in runs]),
                "search_mb": _median([r["search_mb"] for r in runs]),
            }
        rows.append(row)
        if progress is not None:
            progress(row)
    out = {"agent": agent, "repeat": repeat, "seconds": seconds, "iters": list(iters),
           "python": sys.version.split()[0], "platform": sys.platform, "rows": rows}
    if peak_rss_mb() is None:
        out["note"] = MEMORY_NOTE
    return out


def markdown(table: dict) -> str:
    """The `run_all` table as Markdown: one line per game."""
    iters = table["iters"]
    head = ["game", "actions/CPU s", "clone us", "legal_actions us (n)"]
    for n in iters:
        head += [f"MCTS {n:,} it/CPU s", f"MCTS {n:,} peak MB (search MB)"]
    lines = [f"Median of {table['repeat']} runs; CPU seconds of the process; agent "
             f"`{table['agent']}`; peak memory of a fresh process per search.", "",
             "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]

    def fmt(v: Any, spec: str) -> str:
        return "n/a" if v is None else format(v, spec)

    for row in table["rows"]:
        cells = [row["game"], fmt(row["actions_per_cpu_s"], ",.0f"),
                 fmt(row["clone_us"], ".2f"),
                 f"{fmt(row['legal_actions_us'], '.1f')} ({row['legal_actions_at_mid']})"]
        for n in iters:
            s = row["searches"][str(n)]
            cells += [fmt(s["iterations_per_cpu_s"], ",.0f"),
                      f"{fmt(s['peak_rss_mb'], '.1f')} ({fmt(s['search_mb'], '.1f')})"]
        lines.append("| " + " | ".join(cells) + " |")
    if table.get("note"):
        lines += ["", table["note"]]
    return "\n".join(lines) + "\n"


def _main(argv: list[str]) -> int:
    """`python -m boardct.arena.bench '{"game": ..., "iters": ...}'`: one `search`, as JSON."""
    spec = json.loads(argv[0])
    print(json.dumps(search(spec["game"], spec["iters"], spec.get("seed", 1),
                            spec.get("agent", BENCH_AGENT), spec.get("options") or {})))
    return 0


if __name__ == "__main__":
    raise SystemExit(_main(sys.argv[1:]))
