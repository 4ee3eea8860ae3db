"""Agent seats: the server plays them itself, in worker processes, never in the event loop.

After every change (`GameService` calls `AgentRunner.kick`), if an agent seat is to decide,
its move is chosen in a `concurrent.futures.ProcessPoolExecutor`: the worker rebuilds the game
from its setup and log texts, builds the agent from its spec (`random`, `mcts:time=1`, ...,
exactly as `boardct play --vs` does), lets it choose on a clone of the state (agents that
search hidden information sample `determinize(seat, ...)` themselves, as they do at the
terminal), and returns the action's text. The server then plays that text through
`GameService.submit(..., by_server=True)`, the path every move takes, with a move id naming the
seat and version, so a move is never applied twice even when several server processes think
for the same seat.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import multiprocessing
from typing import TYPE_CHECKING, Any

from boardct.agents import make
from boardct.core import moves, registry
from boardct.core.errors import BoardctError
from boardct.core.game import Setup
from boardct.server.live import ServiceError

if TYPE_CHECKING:  # pragma: no cover
    from boardct.server.service import GameService, Live

log = logging.getLogger("boardct.server")
MAX_AGENT_SECONDS = 30.0  # thinking time of one agent move
MAX_AGENT_ITERS = 200_000  # search iterations of one agent move without a time budget


def check_spec(spec: str) -> str | None:
    """Why `spec` is not an agent boardct can build (None: it is)."""
    try:
        agent = make(spec)
    except BoardctError as exc:
        return str(exc)
    except Exception as exc:  # an agent's own check of its parameters
        return f"agent {spec!r}: {exc}"
    # a seat's agent shares the server's few worker processes: its thinking is bounded
    budget = float(getattr(agent, "budget", 0) or 0)
    if budget > MAX_AGENT_SECONDS:
        return f"agent {spec!r}: at most {MAX_AGENT_SECONDS:g} seconds a move on this server"
    if budget <= 0 and int(getattr(agent, "iters", 0) or 0) > MAX_AGENT_ITERS:
        return f"agent {spec!r}: at most {MAX_AGENT_ITERS:,} iterations a move on this server"
    return None


def choose(game_id: str, seed: int, options: dict[str, Any], names: list[str], created: str,
           texts: list[str], seat: int, spec: str, agent_seed: int) -> str:
    """In a worker process: the game rebuilt from its setup and log, and the text of the
    action the agent `spec` chooses for `seat`."""
    game = registry.get(game_id)
    state = game.initial_state(Setup(seed, options, tuple(names), created))
    for text in texts:
        state = moves.apply_entry(state, text).state
    agent = make(spec, seed=agent_seed)
    action = agent.select(state.clone(), seat)
    return state.notation(action)


class AgentRunner:
    """Plays the agent seats of every game of this process. `workers`: processes in the
    pool; 0 runs agents in a thread instead (no process pool: for tests and small
    machines; the event loop is still never blocked)."""

    def __init__(self, workers: int = 1):
        self.workers = workers
        self._pool: concurrent.futures.Executor | None = None
        self._busy: set[tuple[str, int]] = set()  # (game, seat) whose move is being chosen
        self._failed: dict[tuple[str, int], int] = {}  # the version an agent failed at
        self._tasks: set[asyncio.Task] = set()

    def _executor(self) -> concurrent.futures.Executor:
        if self._pool is None:
            if self.workers > 0:
                # spawn: a fresh interpreter (fork would copy the server's threads and sockets;
                # spawn is also what Windows does)
                ctx = multiprocessing.get_context("spawn")
                self._pool = concurrent.futures.ProcessPoolExecutor(self.workers, mp_context=ctx)
            else:
                self._pool = concurrent.futures.ThreadPoolExecutor(1)
        return self._pool

    def kick(self, service: GameService, live: Live) -> None:
        """If an agent seat of `live` is to decide, start choosing its move: one choice at a
        time per seat; when it ends, the seat is looked at again (the game may have moved
        on meanwhile)."""
        if live.over:
            return
        for seat in live.state.current_players():
            s = live.seats[seat]
            if s.kind != "agent" or s.agent is None:
                continue
            key = (live.id, seat)
            if key in self._busy or self._failed.get(key) == live.version:
                continue
            self._busy.add(key)
            task = asyncio.get_running_loop().create_task(self._play(service, live, seat))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _play(self, service: GameService, live: Live, seat: int) -> None:
        key = (live.id, seat)
        version = live.version
        spec = live.seats[seat].agent or "random"
        setup = live.setup
        texts = [e.text for e in live.entries[:version]]
        agent_seed = (setup.seed * 1_000_003 + seat * 7919 + version) % (1 << 63)
        # in a simultaneous turn the others' orders do not change this seat's choice, so
        # the move stands whatever they hand in meanwhile; elsewhere it is for this version
        guard = None if live.game.simultaneous else version
        try:
            text = await asyncio.get_running_loop().run_in_executor(
                self._executor(), choose, live.game.id, setup.seed, dict(setup.options),
                list(setup.names), setup.created, texts, seat, spec, agent_seed)
            await service.submit(live.id, seat, text, move_id=f"agent:{seat}:{version}",
                                 version=guard, by_server=True)
        except ServiceError as exc:
            if exc.code not in ("conflict", "game_over"):  # not again at this version
                self._failed[key] = version
                log.warning("agent %s for seat %s of game %s: %s", spec, seat, live.id,
                            exc.message)
        except Exception:
            self._failed[key] = version
            log.exception("agent %s for seat %s of game %s failed", spec, seat, live.id)
        finally:
            self._busy.discard(key)
        self.kick(service, live)  # whatever happened meanwhile: is this seat still to move?

    async def run(self, fn: Any, *args: Any) -> Any:
        """`fn(*args)` where the agents think (a worker process, or the thread with
        `workers=0`), awaited: a hint's search (server/hints.py)."""
        return await asyncio.get_running_loop().run_in_executor(self._executor(), fn, *args)

    async def settle(self) -> None:
        """Wait for the moves being chosen now (tests; shutting down)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    def close(self) -> None:
        """Stop the pool and wait for its processes to end (a move being chosen is let
        finish), so that no worker outlives the server."""
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None
