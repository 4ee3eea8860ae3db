"""The engine benchmark every game gets: random playouts, clone and legal_actions costs.

Random playouts call the full `legal_actions()` at every decision, as a search agent would.
"""

from __future__ import annotations

import random
import time
from typing import Any

from boardct.core.game import Game, State


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


def _per_call_us(fn, min_seconds: float = 0.2) -> float:
    n = 1000
    while True:
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        dt = time.perf_counter() - t0
        if dt >= min_seconds:
            return dt / n * 1e6
        n *= 4


def run(game: Game, seconds: float = 5.0, seed: int = 1, options: dict | None = None) -> dict:
    options = game.resolve_options({**game.bench_options, **(options or {})})
    rng = random.Random(seed)
    actions = games = 0
    t0 = time.perf_counter()
    deadline = t0 + seconds
    while True:
        state = game.new(seed=rng.randrange(1 << 30), **options)
        actions += random_playout(state, rng)
        games += 1
        if time.perf_counter() >= deadline:
            break
    elapsed = time.perf_counter() - t0
    mid = mid_game_state(game, seed, options)
    return {
        "game": game.id,
        "options": options,
        "seconds": round(elapsed, 3),
        "actions": actions,
        "games": games,
        "actions_per_s": round(actions / elapsed, 1),
        "games_per_s": round(games / elapsed, 3),
        "clone_us": round(_per_call_us(mid.clone), 3),
        "legal_actions_us": round(_per_call_us(mid.legal_actions), 3),
        "legal_actions_at_mid": len(mid.legal_actions()),
    }
