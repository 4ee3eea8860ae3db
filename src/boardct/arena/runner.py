"""Playing scheduled games: a game is a pure function of its spec, so any executor (worker
processes here, Ray tasks on a cluster) gives the same results for the same seeds."""

from __future__ import annotations

import multiprocessing
import signal
import time
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from typing import Any

from boardct.agents import make
from boardct.core import moves, registry
from boardct.core.errors import BoardctError
from boardct.core.records import record_of
from boardct.core.rng import Rng


@dataclass(frozen=True)
class GameSpec:
    index: int
    game: str
    options: dict[str, Any]
    agents: tuple[str, ...]  # agent spec per seat
    seed: int
    variant: str = ""


@dataclass
class GameResult:
    index: int
    game: str
    variant: str
    agents: list[str]
    seed: int
    returns: list[float]
    winners: list[int]
    reason: str
    length: int
    seconds: float
    record: dict = field(repr=False, default_factory=dict)
    # how it ended, as every game names it (`Termination`): reports count endings by this,
    # not by each game's own words (which may hold figures: "turn limit; ratings A 0.55")
    ending: str = "other"

    def to_dict(self) -> dict:
        return asdict(self)


def game_seed(base: int, index: int) -> int:
    """A seed per game, from the tournament's seed and the game's index."""
    r = Rng(base * 1_000_003 + index)
    return r.next64() >> 1


def round_robin(game: str, agents: list[str], games: int, seed: int,
                options: dict[str, Any] | None = None) -> list[GameSpec]:
    """Every pair of agents plays `games` games, seats alternating (the first of each pair
    takes the first seat in even games)."""
    specs: list[GameSpec] = []
    for i in range(len(agents)):
        for j in range(i + 1, len(agents)):
            for k in range(games):
                seats = (agents[i], agents[j]) if k % 2 == 0 else (agents[j], agents[i])
                idx = len(specs)
                specs.append(GameSpec(idx, game, dict(options or {}), seats, game_seed(seed, idx)))
    return specs


def self_play(game: str, agent: str, games: int, seed: int, variants: dict[str, dict],
              players: int = 2) -> list[GameSpec]:
    specs: list[GameSpec] = []
    for name, opts in variants.items():
        for _ in range(games):
            idx = len(specs)
            specs.append(GameSpec(idx, game, dict(opts), (agent,) * players,
                                  game_seed(seed, idx), name))
    return specs


def play_game(spec: GameSpec) -> GameResult:
    """Play one game to its end; agents are seeded from the game's seed and their seat."""
    game = registry.get(spec.game)
    names = tuple(spec.agents)
    state = game.new(seed=spec.seed, names=names, **spec.options)
    agents = [make(a, seed=spec.seed + 7919 * (seat + 1)) for seat, a in enumerate(spec.agents)]
    t0 = time.perf_counter()
    length = 0
    while True:
        players = state.current_players()
        if not players:
            break
        for p in players:
            if state.is_over or p not in state.current_players():
                continue
            action = agents[p].select(state, p)
            before = state.clone()
            moves.act(state, p, action, entry=False)
            for other in agents:
                other.observe(before, p, action)
            length += 1
    out = state.outcome
    assert out is not None  # nobody is to move: the game is over
    return GameResult(spec.index, spec.game, spec.variant, list(spec.agents), spec.seed,
                      list(out.returns), list(out.winners), out.reason, length,
                      round(time.perf_counter() - t0, 4), record_of(state).to_dict(),
                      out.kind.value)


def _worker_init() -> None:
    """Workers leave Ctrl-C to the parent, which stops them all at once."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def run_local(specs: list[GameSpec], workers: int,
              progress: Callable[[GameResult], None] | None = None) -> list[GameResult]:
    """Play the games in `workers` processes (1: in this process)."""
    results: list[GameResult] = []
    if workers <= 1:
        for spec in specs:
            res = play_game(spec)
            results.append(res)
            if progress:
                progress(res)
    elif specs:
        pool = multiprocessing.Pool(min(workers, len(specs)), initializer=_worker_init)
        try:
            for res in pool.imap_unordered(play_game, specs):
                results.append(res)
                if progress:
                    progress(res)
            pool.close()
        except BaseException:
            pool.terminate()
            raise
        finally:
            pool.join()
    return sorted(results, key=lambda r: r.index)


def run_ray(specs: list[GameSpec], address: str | None, workers: int,
            progress: Callable[[GameResult], None] | None = None) -> list[GameResult]:
    """Play the games as Ray tasks: on the cluster at `address`, or on a local Ray started
    here with `workers` CPUs."""
    try:
        import ray
    except ImportError:
        raise BoardctError("the Ray backend needs Ray: pip install 'boardct[ray]'") from None
    started = False
    if not ray.is_initialized():
        if address:
            ray.init(address=address, log_to_driver=False)
        else:
            ray.init(num_cpus=max(1, workers), include_dashboard=False, log_to_driver=False)
        started = True
    try:
        task = ray.remote(play_game)
        pending = [task.remote(s) for s in specs]
        results: list[GameResult] = []
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                res = ray.get(ref)
                results.append(res)
                if progress:
                    progress(res)
    finally:
        if started:
            ray.shutdown()
    return sorted(results, key=lambda r: r.index)


def execute(specs: list[GameSpec], backend: str, workers: int, address: str | None = None,
            progress: Callable[[GameResult], None] | None = None) -> list[GameResult]:
    if backend == "ray":
        return run_ray(specs, address, workers, progress)
    return run_local(specs, workers, progress)


def summary_key(results: Iterable[GameResult]) -> list[tuple]:
    """What must be identical across executors: each game's index, seats, result and length."""
    return [(r.index, tuple(r.agents), tuple(r.returns), r.reason, r.length) for r in results]
