"""What the three adapters share: the optional imports, the seats' names, the spaces' sizes.

Kept free of the optional libraries themselves so that importing it costs nothing.
"""

from __future__ import annotations

import importlib
import operator
import re
from types import ModuleType
from typing import Any

from boardct.core import registry
from boardct.core.errors import BoardctError, IllegalAction
from boardct.core.game import Game, State
from boardct.core.info import GameInfo
from boardct.core.rng import Rng

# The ranges every game's tensors keep to (the core's encoding helpers scale and clip every
# field into [0, 1]); the adapters check each tensor they hand out against it, so a game that
# broke it would fail loudly in the libraries' own tests rather than feed a learner garbage.
OBS_LOW = 0.0
OBS_HIGH = 1.0

# The largest seed a game takes from an adapter: numpy and Gymnasium hand out seeds below 2**63.
SEED_LIMIT = 1 << 63


def need(module: str, extra: str) -> ModuleType:
    """Import an optional library, or fail with an ImportError that names the extra to
    install: `pip install "boardct[rl]"`."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise ImportError(
            f"{module} is not installed: it comes with boardct's optional extra {extra!r} "
            f"(pip install \"boardct[{extra}]\")"
        ) from exc


def agent_name(player: int) -> str:
    """The seat's name in PettingZoo: "player_0", "player_1", ... (players count from 0)."""
    return f"player_{player}"


def env_name(game: Game) -> str:
    """A game's name in Gymnasium's registry, from its title: "FieldShift", "CTF2187",
    "ForceFieldFactions". The title up to its first comma or bracket, words run together,
    each starting with a capital (words already in capitals kept)."""
    head = re.split(r"[,(]", game.title, maxsplit=1)[0]
    words = re.findall(r"[A-Za-z0-9]+", head)
    return "".join(w if w[:1].isupper() or w[:1].isdigit() else w.capitalize() for w in words)


def game_of(game_id: str | Game) -> Game:
    """The registered game, or the registry's error listing the known ids. A `Game` object
    is taken as it is (a game of one's own need not be registered)."""
    if isinstance(game_id, Game):
        return game_id
    if not isinstance(game_id, str):
        raise BoardctError(f"a game id is text, not {type(game_id).__name__}")
    return registry.get(game_id)


def check_seed(seed: Any) -> int:
    """A seed as a non-negative int below 2**63, or a clear ValueError."""
    try:
        value = operator.index(seed)
    except TypeError:
        raise ValueError(f"a seed is a whole number, not {type(seed).__name__}") from None
    if isinstance(seed, bool) or not 0 <= value < SEED_LIMIT:
        raise ValueError(f"a seed is a whole number from 0 to 2**63-1, not {seed!r:.40}")
    return int(value)


class SeedStream:
    """Game seeds for successive resets: `reset(seed=s)` plays the game of seed `s` exactly
    (so a record of it replays in boardct), and each later `reset()` without a seed plays the
    next seed of a stream started from `s`, so a whole run of episodes is reproducible."""

    def __init__(self) -> None:
        self._rng: Rng | None = None

    def next(self, seed: int | None) -> int:
        if seed is not None:
            seed = check_seed(seed)
            self._rng = Rng(seed)
            return seed
        if self._rng is None:
            from boardct.core.rng import fresh_seed

            self._rng = Rng(fresh_seed())
        return self._rng.next64() >> 1


def probe(game: Game, players: int | None, options: dict[str, Any]) -> GameInfo:
    """The game's facts with these options (`Game.info`), checked now, so a wrong option or
    number of seats fails when the environment is made, not at its first reset."""
    if players is not None and (isinstance(players, bool) or not isinstance(players, int)):
        raise BoardctError(f"players {players!r:.40}: the number of seats is a whole number")
    return game.info(options, players)


def new_state(game: Game, seed: int, players: int, options: dict[str, Any]) -> State:
    return game.new(seed=seed, names=[""] * players, **options)


def illegal(state: State, player: int, action: Any, legal: list[int]) -> IllegalAction:
    """The error for an action id that is not legal now: what was given, and what is legal
    (a few of them)."""
    shown = ", ".join(str(i) for i in legal[:12]) + (" ..." if len(legal) > 12 else "")
    return IllegalAction("encoding", f"{state.game.id}: action id {action!r:.40} is not legal "
                                     f"for player {player} now (legal: {shown or 'none'})")


def as_id(action: Any) -> int | None:
    """An action as an int id (numpy integers welcome), or None if it is not a whole number."""
    if type(action) is int:  # the common case, first
        return action
    if isinstance(action, bool):
        return None
    try:
        return operator.index(action)
    except TypeError:
        return None
