"""boardct's games as OpenSpiel Python games (needs the extra `boardct[openspiel]`).

    from boardct.adapters import openspiel
    openspiel.register()
    game = pyspiel.load_game("boardct_fieldshift", {"turn_limit": 60, "seed": 3})

`register()` registers every game of boardct's registry as `boardct_<id>`. Its GameType says
what the game is: dynamics sequential, or simultaneous for games with simultaneous orders
(CTF 2187); chance mode deterministic, or sampled stochastic for games with chance (the
chance is drawn inside the game from its seeded source, so there are no chance nodes);
information perfect or imperfect; terminal rewards; utility constant-sum (returns 1 win, 0
loss, 0.5 draw) for two-player games, general-sum where more players may sit (CTF 2187's
team shares). Observers give the core's observation tensor (the default observation type) and
information-state tensor (perfect recall), and their strings, always for one player.

Parameters: every option of the game with its default, plus `seed` (the game's seed: every
initial state of one loaded game is the game of that seed, so its chance replays and its
history serialises) and `players` (seats, for games that take several numbers).

Simultaneous games: every non-terminal state is a simultaneous node. A player who owes no
orders at that node (its Bots all have sheets, or are Wreckage) has exactly one legal action,
`wait`, the id after the game's own ids (so `num_distinct_actions` is one more than the core's);
OpenSpiel needs a legal action from every player at a simultaneous node.

Hidden information: `resample_from_infostate` is the game's `determinize`, so OpenSpiel's
information-set MCTS can search the games with hidden parts.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from boardct.adapters.buffers import entries_of, write_entries
from boardct.adapters.common import game_of, need, new_state, probe
from boardct.core import moves, registry
from boardct.core.errors import BoardctError
from boardct.core.game import Game, State

if TYPE_CHECKING:  # type checkers read the libraries themselves
    import numpy as np
    import pyspiel
else:
    np = need("numpy", "openspiel")
    pyspiel = need("pyspiel", "openspiel")

PREFIX = "boardct_"
# OpenSpiel wants a bound on the length of a game (in actions). boardct's games end by their
# turn limits; this bound is the adapter's, generous for every game at its default options.
MAX_GAME_LENGTH = 100_000
PARAM_TYPES = (bool, int, float, str)


def short_name(game: Game) -> str:
    return f"{PREFIX}{game.id}"


def _parameters(game: Game) -> dict[str, Any]:
    """The game's parameter specification: its options (those of a type OpenSpiel carries)
    with their defaults, `seed` and `players`."""
    spec: dict[str, Any] = {o.name: o.default for o in game.options
                            if isinstance(o.default, PARAM_TYPES)}
    spec["seed"] = 0
    spec["players"] = game.min_players
    return spec


def game_type(game: Game) -> Any:
    """The OpenSpiel GameType of a boardct game (see the module's docstring)."""
    gt = pyspiel.GameType
    two = game.max_players == 2
    return gt(
        short_name=short_name(game),
        long_name=f"boardct {game.title}",
        dynamics=gt.Dynamics.SIMULTANEOUS if game.simultaneous else gt.Dynamics.SEQUENTIAL,
        chance_mode=(gt.ChanceMode.SAMPLED_STOCHASTIC if game.has_chance
                     else gt.ChanceMode.DETERMINISTIC),
        information=(gt.Information.PERFECT_INFORMATION if game.perfect_information
                     else gt.Information.IMPERFECT_INFORMATION),
        utility=gt.Utility.CONSTANT_SUM if two else gt.Utility.GENERAL_SUM,
        reward_model=gt.RewardModel.TERMINAL,
        max_num_players=game.max_players,
        min_num_players=game.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_parameters(game),
    )


class BoardctGame(pyspiel.Game):
    """One boardct game with its options, as OpenSpiel sees it. `register` makes a subclass
    per boardct game (`bgame` set), which is what OpenSpiel's registry keeps: it must be a
    class (a registered closure crashes the interpreter at exit)."""

    bgame: Game

    def __init__(self, params: dict[str, Any] | None = None):
        game = self.bgame
        spec = _parameters(game)
        given = dict(params or {})
        unknown = sorted(set(given) - set(spec))
        if unknown:
            raise BoardctError(f"{short_name(game)} has no parameter {unknown[0]!r} "
                               f"(parameters: {', '.join(sorted(spec))})")
        full = {**spec, **given}
        self.seed = int(full.pop("seed"))
        players = int(full.pop("players"))
        self.options = {k: v for k, v in full.items() if v != spec[k]}
        self.spaces = probe(game, players, self.options)
        self.simultaneous = game.simultaneous
        self.wait = self.spaces.num_distinct_actions  # the id of "wait" in a simultaneous game
        super().__init__(game_type(game), pyspiel.GameInfo(
            num_distinct_actions=self.spaces.num_distinct_actions + (1 if self.simultaneous else 0),
            max_chance_outcomes=0,
            num_players=players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0 if game.max_players == 2 else None,
            max_game_length=MAX_GAME_LENGTH,
        ), given)

    def new_initial_state(self) -> BoardctState:
        inner = new_state(self.bgame, self.seed, self.spaces.players, self.options)
        return BoardctState(self, inner)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        """The observation (default) or, for a perfect-recall type, the information state,
        of one player."""
        if params:
            raise ValueError(f"{short_name(self.bgame)}: observers take no parameters, "
                             f"not {params!r}")
        recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        if (iig_obs_type is not None and not self.bgame.perfect_information
                and iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER):
            raise ValueError(f"{short_name(self.bgame)}: boardct observes for one player "
                             "only (private_info=SINGLE_PLAYER)")
        shape = self.spaces.information_state_shape if recall else self.spaces.observation_shape
        return Observer(shape, recall)


class BoardctState(pyspiel.State):
    """A boardct state (`inner`) behind OpenSpiel's State API."""

    def __init__(self, game: BoardctGame, inner: State):
        super().__init__(game)
        self.inner = inner
        self._wait = game.wait
        self._sim = game.simultaneous

    # -- whose decision ----------------------------------------------------------------------
    def current_player(self) -> int:
        inner = self.inner
        if inner.is_over:
            return pyspiel.PlayerId.TERMINAL
        if self._sim:
            return pyspiel.PlayerId.SIMULTANEOUS
        return inner.current_players()[0]

    def _legal_actions(self, player: int) -> list[int]:
        inner = self.inner
        if inner.is_over or player < 0:
            return []
        if player in inner.current_players():
            return inner.legal_ids(player)
        return [self._wait] if self._sim else []

    # -- acting ------------------------------------------------------------------------------
    def _apply_action(self, action: int) -> None:
        inner = self.inner
        moves.act_id(inner, inner.current_players()[0], action)

    def _apply_actions(self, actions: list[int]) -> None:
        """One action per player at a simultaneous node; `wait` for those who owe nothing."""
        inner = self.inner
        for p in inner.current_players():
            if inner.is_over or p not in inner.current_players():
                break
            if actions[p] == self._wait:
                raise BoardctError(f"player {p} owes orders: wait is not legal for it")
            moves.act_id(inner, p, int(actions[p]))

    def _action_to_string(self, player: int, action: int) -> str:
        if self._sim and action == self._wait:
            return "wait"
        try:
            return self.inner.notation(self.inner.id_action(action, player))
        except Exception:  # a display string: an id with no text here is shown as the id
            return f"id {action}"

    # -- the end ------------------------------------------------------------------------------
    def is_terminal(self) -> bool:
        return self.inner.is_over

    def returns(self) -> list[float]:
        return [float(r) for r in self.inner.returns()]

    def rewards(self) -> list[float]:
        return self.returns() if self.inner.is_over else [0.0] * len(self.inner.setup.names)

    def __str__(self) -> str:
        return self.inner.render(None)

    # -- copies --------------------------------------------------------------------------------
    def __deepcopy__(self, memo: dict) -> BoardctState:
        """OpenSpiel clones a Python state by deep copy: the game's own clone is cheaper and
        shares what states of one game share (the setup, the history's cells)."""
        dup = BoardctState(self.get_game(), self.inner.clone())
        return dup

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> BoardctState:
        """A state consistent with what `player_id` knows, its unknowns resampled (the game's
        `determinize`, seeded from OpenSpiel's sampler)."""
        seed = int(probability_sampler() * (1 << 53)) if callable(probability_sampler) else 0
        return BoardctState(self.get_game(), self.inner.determinize(player_id, seed))


class Observer:
    """An OpenSpiel Python observer of one player: the core's observation tensor, or with
    perfect recall its information-state tensor, and their strings.

    `tensor` is preallocated once and rewritten in place by `set_from` (OpenSpiel's observers
    work so: copy it to keep it), from the game's entries (`observation_entries`): zeroed,
    then only the entries that may be nonzero written (`boardct.adapters.buffers`)."""

    def __init__(self, shape: tuple[int, ...], recall: bool):
        self.recall = recall
        self.kind = "information_state" if recall else "observation"
        self.tensor = np.zeros(math.prod(shape), np.float32)
        self.dict = {"observation": self.tensor.reshape(shape)}

    def set_from(self, state: BoardctState, player: int) -> None:
        write_entries(self.tensor, entries_of(state.inner, player, self.kind))

    def string_from(self, state: BoardctState, player: int) -> str:
        inner = state.inner
        return (inner.information_state_string(player) if self.recall
                else inner.observation_string(player))


_registered: set[str] = set()


def register(games: list[Game | str] | None = None) -> list[str]:
    """Register boardct's games with OpenSpiel (all of the registry by default; a `Game` of
    one's own also works) and return their short names. Again is harmless."""
    chosen = registry.all_games() if games is None else [game_of(g) for g in games]
    names = []
    for game in chosen:
        name = short_name(game)
        if name not in _registered:
            cls = type(f"BoardctGame_{game.id}", (BoardctGame,), {"bgame": game})
            pyspiel.register_game(game_type(game), cls)
            _registered.add(name)
        names.append(name)
    return names
