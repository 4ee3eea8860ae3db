"""The agent interface and the registry of agents by name."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from boardct.core.errors import BoardctError
from boardct.core.game import Action, State

_AGENTS: dict[str, Callable[..., Agent]] = {}
# An agent's one main parameter, which `NAME=VALUE` alone sets: "level=3" is "level:n=3".
_SHORT: dict[str, str] = {}


class Agent:
    """Given a state and a seat, return an action; told of the actions that follow."""

    name = "agent"

    def select(self, state: State, player: int) -> Action:  # pragma: no cover - abstract
        raise NotImplementedError

    def observe(self, state: State, player: int, action: Action) -> None:
        """`player` played `action` in `state` (before it was applied). Default: nothing."""


def register(name: str, factory: Callable[..., Agent], short: str | None = None) -> None:
    """Make `factory` the agent `name`; `short`: the parameter `name=VALUE` sets."""
    _AGENTS[name] = factory
    if short is not None:
        _SHORT[name] = short


def names() -> list[str]:
    return sorted(_AGENTS)


def _value(text: str) -> Any:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def load_games_agents() -> None:
    """Import the agent module each installed game names (`FrontEnds.agents`), which registers
    the game's own agents (CTF 2187's `sparring`). A game's engine never imports it: the
    agents' layer loads it, as each front end loads the game's part for it."""
    import importlib

    from boardct.core import registry

    for game in registry.all_games():
        module = getattr(game.frontends, "agents", None)
        if module:
            importlib.import_module(module)


def make(spec: str, seed: int = 0) -> Agent:
    """An agent from a spec such as "random", "mcts:iters=2000,c=1.4" or "level=3" (the
    short form of "level:n=3")."""
    given = spec
    head, eq, rest = spec.partition("=")
    if eq and ":" not in head and head.strip() in _SHORT:
        spec = f"{head.strip()}:{_SHORT[head.strip()]}={rest}"
    name, _, params = spec.partition(":")
    factory = _AGENTS.get(name.strip())
    if factory is None:
        load_games_agents()
        factory = _AGENTS.get(name.strip())
    if factory is None:
        raise BoardctError(f"unknown agent {name!r} (known: {', '.join(names())})")
    kwargs: dict[str, Any] = {"seed": seed}
    for part in filter(None, (p.strip() for p in params.split(","))):
        key, eq, val = part.partition("=")
        if not eq:
            raise BoardctError(f"agent {given!r}: parameter {part!r} is not NAME=VALUE")
        kwargs[key.strip()] = _value(val.strip())
    try:
        return factory(**kwargs)
    except (TypeError, ValueError) as exc:
        raise BoardctError(f"agent {given!r}: {exc}") from None
