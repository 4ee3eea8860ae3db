"""The registry of games: every game is found through the `boardct.games` entry point.

A distribution offers a game by naming its `Game` object under that entry point group, the
entry point's name being the game's id (boardct's own five games are declared so in its
`pyproject.toml`):

    [project.entry-points."boardct.games"]
    fieldshift = "boardct.games.fieldshift:GAME"

so a game can live in a pip-installable package of its own and appear in every front end. A
game is imported only when first asked for (`get`) or when all are listed (`all_games`). One
whose entry point fails to load does not stop the others: asking for it gives an error that
says why, and `broken()` lists such games for `boardct games`.
"""

from __future__ import annotations

from importlib.metadata import EntryPoint, entry_points

from boardct.core.errors import BoardctError
from boardct.core.game import Game

GROUP = "boardct.games"

_GAMES: dict[str, Game] = {}
_BROKEN: dict[str, str] = {}
_points: dict[str, EntryPoint] | None = None


def register(game: Game) -> Game:
    """Register `game` under its id (a game built in a test, or one loaded by hand). The
    entry points need no call: the registry loads them itself."""
    if not isinstance(game, Game):
        raise BoardctError(f"register: {game!r} is not a boardct Game")
    _GAMES[game.id] = game
    _BROKEN.pop(game.id, None)
    return game


def unregister(game_id: str) -> None:
    """Forget a game registered by hand (tests)."""
    _GAMES.pop(game_id, None)


def _entry_points() -> dict[str, EntryPoint]:
    """The group's entry points by name, the first of each name (a package installed twice
    offers its games twice)."""
    global _points
    if _points is None:
        found: dict[str, EntryPoint] = {}
        for ep in entry_points(group=GROUP):
            found.setdefault(ep.name, ep)
        _points = found
    return _points


def _load(name: str, ep: EntryPoint) -> None:
    try:
        game = ep.load()
    except Exception as exc:  # a third-party game may fail in any way: say how, go on
        _BROKEN[name] = f"{ep.value}: {type(exc).__name__}: {exc}"
        return
    if not isinstance(game, Game):
        _BROKEN[name] = f"{ep.value} is not a boardct Game but a {type(game).__name__}"
        return
    if game.id != name:
        _BROKEN[name] = f"{ep.value} is the game {game.id!r}, not {name!r} (an entry point's " \
                        "name is its game's id)"
        return
    _GAMES.setdefault(game.id, game)


def get(game_id: str) -> Game:
    """The game registered as `game_id`; an error listing the known ids otherwise."""
    game = _GAMES.get(game_id)
    if game is not None:
        return game
    ep = _entry_points().get(game_id)
    if ep is not None and game_id not in _BROKEN:
        _load(game_id, ep)
        game = _GAMES.get(game_id)
        if game is not None:
            return game
    if game_id in _BROKEN:
        raise BoardctError(f"the game {game_id!r} could not be loaded: {_BROKEN[game_id]}")
    known = ", ".join(ids()) or "none"
    raise BoardctError(f"unknown game {game_id!r} (known: {known})")


def ids() -> list[str]:
    """The ids of every game offered (loaded or not), sorted."""
    return sorted(set(_GAMES) | set(_entry_points()))


def all_games() -> list[Game]:
    """Every game that loads, sorted by id."""
    for name, ep in _entry_points().items():
        if name not in _GAMES and name not in _BROKEN:
            _load(name, ep)
    return [_GAMES[k] for k in sorted(_GAMES)]


def broken() -> dict[str, str]:
    """The games whose entry points did not load, with why (after `all_games`)."""
    return dict(_BROKEN)


def refresh() -> None:
    """Read the entry points again (after installing a game in a running process: tests)."""
    global _points
    _points = None
