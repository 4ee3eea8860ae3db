"""Hints on the server: the computer's suggestion for the caller's seat, with how sure it is.

`POST /api/v1/games/{id}/hint` (body {"agent"?: spec}, default the ladder's top level,
`level=5`) answers the suggestion in the game's notation and in words, the win probability
the search gives it, the best three moves with theirs, and the line the search expects:
`core.table.hint`, the terminal's `hint` too. Only a seat that is to decide may ask (a
spectator or a seat waiting for the others gets nothing to read from), and the search runs
where the agent seats think (`AgentRunner.run`: a worker process, never the event loop), from
the game's setup and log, on the seat's own view (agents determinize from
`view(seat)`): a hint tells the seat nothing it could not see. Each hint thinks about a CPU
second, so hints have a quota of their own per seat ("hint" in `quotas.RULES`).
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from boardct.agents import make
from boardct.core import moves, registry, table
from boardct.core.game import Setup
from boardct.server.agents import check_spec
from boardct.server.api import STR, body_doc, caller, field, quotas_of, read_object
from boardct.server.live import ServiceError

router = APIRouter(prefix="/api/v1")
HINT_AGENT = "level=5"  # the top of the strength ladder (agents/levels.py)


def hint_json(got: table.Hint) -> dict[str, Any]:
    """A hint as the API answers it: notations and words, values in [0, 1] (None: none)."""
    return {"agent": got.agent, "text": got.text, "words": got.words, "value": got.value,
            "best": [{"text": text, "value": value} for _a, text, value in got.best],
            "line": list(got.line), "lines": got.lines()}


def advise(game_id: str, seed: int, options: dict[str, Any], names: list[str], created: str,
           texts: list[str], seat: int, spec: str, hint_seed: int) -> dict[str, Any]:
    """In a worker process: the game rebuilt from its setup and log, and the hint of the
    agent `spec` for `seat`."""
    game = registry.get(game_id)
    state = game.initial_state(Setup(seed, options, tuple(names), created))
    for text in texts:
        state = moves.apply_entry(state, text).state
    got = table.hint(state, make(spec, seed=hint_seed), seat, seed=hint_seed, label=spec)
    return hint_json(got)


@router.post("/games/{game_id}/hint", openapi_extra=body_doc(
    {"agent": STR}, {"agent": HINT_AGENT}))
async def hint(game_id: str, request: Request) -> dict[str, Any]:
    """The computer's suggestion for the caller's seat, which must be to decide: {"agent",
    "text", "words", "value" (the win probability, 0 to 1, as the search estimates it; null
    from an agent that does not search), "best": [{"text", "value"}] (at most three, best
    first), "line" (the moves the search expects, the suggestion first), "lines" (the same
    as the terminal prints it)}."""
    body = await read_object(request)
    live, seat = await caller(request, game_id)
    if seat is None:
        raise ServiceError("forbidden", "a hint is for a seat: send its token")
    if live.over:
        raise ServiceError("game_over", "the game is over")
    if seat not in live.state.current_players():
        raise ServiceError("conflict", "a hint is for the seat that is to decide")
    spec = field(body, "agent", str, HINT_AGENT)
    problem = check_spec(spec)
    if problem is not None:
        raise ServiceError("bad_request", f"agent: {problem}")
    quotas_of(request).hit("hint", f"{live.id}:{seat}")
    setup = live.setup
    version = live.version
    texts = [e.text for e in live.entries[:version]]
    # a seed of the hint's own (the game's would replay the chance to come), the same for the
    # same seat and position: asking again gives the same hint under an `iters` budget
    hint_seed = (setup.seed * 1_000_033 + seat * 104_729 + version + 17) % (1 << 63)
    return await request.app.state.agents.run(
        advise, live.game.id, setup.seed, dict(setup.options), list(setup.names),
        setup.created, texts, seat, spec, hint_seed)
