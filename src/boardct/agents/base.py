"""The agent interface and the registry of agents by name."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from boardct.core.errors import BoardctError
from boardct.core.game import Action, State

_AGENTS: dict[str, Callable[..., Agent]] = {}


class Agent:
    """Given a state and a seat, return an action; told of the actions that follow."""

    name = "agent"

    def select(self, state: State, player: int) -> Action:  # pragma: no cover - abstract
        raise NotImplementedError

    def observe(self, state: State, player: int, action: Action) -> None:
        """`player` played `action` in `state` (before it was applied). Default: nothing."""


def register(name: str, factory: Callable[..., Agent]) -> None:
    _AGENTS[name] = factory


def names() -> list[str]:
    return sorted(_AGENTS)


def _value(text: str) -> Any:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def make(spec: str, seed: int = 0) -> Agent:
    """An agent from a spec such as "random" or "mcts:iters=2000,c=1.4"."""
    name, _, params = spec.partition(":")
    factory = _AGENTS.get(name.strip())
    if factory is None:
        raise BoardctError(f"unknown agent {name!r} (known: {', '.join(names())})")
    kwargs: dict[str, Any] = {"seed": seed}
    for part in filter(None, (p.strip() for p in params.split(","))):
        key, eq, val = part.partition("=")
        if not eq:
            raise BoardctError(f"agent parameter {part!r} is not NAME=VALUE")
        kwargs[key.strip()] = _value(val.strip())
    try:
        return factory(**kwargs)
    except (TypeError, ValueError) as exc:
        raise BoardctError(f"agent {spec!r}: {exc}") from None
