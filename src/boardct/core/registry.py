"""The registry of games: a game package registers its `Game` when imported.

Game packages live under `boardct.games`; `discover()` imports each of them once, so a new
game appears in every front end by existing.
"""

from __future__ import annotations

import importlib
import pkgutil

from boardct.core.errors import BoardctError
from boardct.core.game import Game

_GAMES: dict[str, Game] = {}
_discovered = False


def register(game: Game) -> Game:
    _GAMES[game.id] = game
    return game


def discover() -> None:
    global _discovered
    if _discovered:
        return
    _discovered = True
    import boardct.games as pkg

    for info in pkgutil.iter_modules(pkg.__path__):
        if info.ispkg:
            importlib.import_module(f"{pkg.__name__}.{info.name}")


def get(game_id: str) -> Game:
    """The game registered as `game_id`; an error listing the known ids otherwise."""
    discover()
    try:
        return _GAMES[game_id]
    except KeyError:
        known = ", ".join(sorted(_GAMES)) or "none"
        raise BoardctError(f"unknown game {game_id!r} (known: {known})") from None


def all_games() -> list[Game]:
    discover()
    return [_GAMES[k] for k in sorted(_GAMES)]
