"""N games of one boardct game stepped at once, for self-play learners (needs `boardct[rl]`).

    from boardct.adapters.vector import vector_env
    envs = vector_env("<game id>", num_envs=16)
    obs, infos = envs.reset(seed=1)
    actions = ...  # one legal id per game, from infos["action_mask"]
    obs, rewards, terminations, truncations, infos = envs.step(actions)

A Gymnasium `VectorEnv` (its conventions: batched spaces, `reset(seed=s)` seeding game i with
`s + i`, infos as arrays with a `_name` mask, autoreset), in which every game is played by
the learner on every seat (self-play): each step, game i is at the decision of one player,
`infos["player"][i]` (in a simultaneous turn, the first who still owes orders: the others'
orders are hidden, so they follow in turn), and

- `obs[i]`: that player's observation tensor (float32, every value in [0, 1];
  `observation="information_state"`: its information-state tensor), built only from what that
  player may know;
- `infos["action_mask"][i]`: int8, 1 at the ids legal for that player now (and
  `action_masks()`, the same as bools, the name sb3-contrib's MaskablePPO looks for);
- `actions[i]`: the id that player plays;
- `rewards[i]`: when the action ends the game, the return of the player who acted (1 win,
  0 loss, 0.5 draw; team shares where the game has teams), else 0; `infos["returns"][i]`
  holds every seat's returns for a game that ended (`infos["_returns"][i]` True), so a
  learner credits the other seats too;
- an id outside the mask ends that game at once, as PettingZoo's classic games and the
  single-agent environment do: the acting player's reward is `illegal_reward` (-1.0), the
  board is left as it was, `infos["illegal_action"][i]` is True and `infos["returns"][i]` is
  -1 for that player, 0 for the others.

Autoreset (`autoreset_mode`): "next_step" (Gymnasium's default) returns the last observation
of a game that ended with `terminations[i]` True (its mask all zero: nothing is legal), and
the next `step` starts a new game there (its action ignored, whatever it is; reward 0);
"same_step" starts it at once, the ended game's last observation in `infos["final_obs"][i]`.
Each game's next seeds follow a stream started from its own seed, so a seeded run is
reproducible.

Speed: the games' observations are written straight into one preallocated (N, ...) array:
by the game's own batch writer where it has one (`Game.write_observations`, a few numpy calls
for the whole batch), else (`boardct.adapters.buffers`) the float arrays of the games that
write them (`observation_array`) in one copy of their bytes, or their entries, all N in one
scattered write a step. The masks are joined from rows remembered per set of legal ids (most
sets come again) in one copy; where most sets are new, in one scattered write; or by the
game's own batch writer where it has one (`Game.write_masks`: then the legal ids are not
listed at all). Each game's action is carried out by the engine's `apply_id` itself, once
checked against the masks handed out (the checks `moves.act_id` makes: one byte of a private
copy of their bytes, which the learner cannot change, rather than a search of the legal ids).
With `copy=True` (the default, as Gymnasium's own vector environments) `step` and `reset`
return copies; `copy=False` returns the buffers themselves, rewritten by the next call.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from boardct.adapters.buffers import check_kind, row_of, write_masks, write_row, write_rows
from boardct.adapters.common import SeedStream, as_id, check_seed, game_of, need, new_state, probe
from boardct.core.errors import BoardctError
from boardct.core.game import Game, State

if TYPE_CHECKING:
    from array import array

    import gymnasium as gym
    import numpy as np
    from gymnasium.vector import AutoresetMode, VectorEnv
else:
    np = need("numpy", "rl")
    gym = need("gymnasium", "rl")
    _vector = need("gymnasium.vector", "rl")
    VectorEnv = _vector.VectorEnv
    AutoresetMode = _vector.AutoresetMode

MODES = {"next_step": "NEXT_STEP", "same_step": "SAME_STEP"}
MASK_ROWS = 4096  # the mask rows remembered per environment (by legal ids), at most


class BoardctVectorEnv(VectorEnv):
    """`num_envs` games of one boardct game in self-play; see the module's docstring."""

    metadata = {"render_modes": ["ansi"], "autoreset_mode": None}

    def __init__(self, game_id: str | Game, num_envs: int = 8, players: int | None = None,
                 observation: str = "observation", illegal_reward: float = -1.0,
                 autoreset_mode: str | Any = "next_step", copy: bool = True,
                 render_mode: str | None = None, **options: Any):
        self.game = game_of(game_id)
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise BoardctError(f"num_envs {num_envs!r:.40}: a whole number of at least 1")
        if render_mode not in (None, "ansi"):
            raise BoardctError(f"render_mode {render_mode!r}: the games render as text, 'ansi'")
        mode = autoreset_mode.name if isinstance(autoreset_mode, AutoresetMode) else MODES.get(
            str(autoreset_mode).lower(), "")
        if mode not in MODES.values():
            raise BoardctError(f"autoreset_mode {autoreset_mode!r}: one of "
                               f"{', '.join(MODES)}")
        self.kind = check_kind(observation)
        self.options = dict(options)
        self.spaces = probe(self.game, players, self.options)
        self.players = self.spaces.players
        self.num_envs = num_envs
        self.autoreset_mode = AutoresetMode[mode]
        self.metadata = {**type(self).metadata, "autoreset_mode": self.autoreset_mode}
        self.render_mode = render_mode
        self.copy = copy
        self.illegal_reward = float(illegal_reward)
        shape = (self.spaces.observation_shape if self.kind == "observation"
                 else self.spaces.information_state_shape)
        self.shape = tuple(shape)
        size = 1
        for d in shape:
            size *= d
        n_ids = self.spaces.num_distinct_actions
        self.single_observation_space = gym.spaces.Box(0.0, 1.0, self.shape, np.float32)
        self.single_action_space = gym.spaces.Discrete(n_ids)
        self.observation_space = gym.vector.utils.batch_space(self.single_observation_space,
                                                              num_envs)
        self.action_space = gym.vector.utils.batch_space(self.single_action_space, num_envs)
        # the buffers every step writes into: observations, masks, and their flat rows
        self._obs = np.zeros((num_envs, *self.shape), np.float32)
        self._obs_rows = self._obs.reshape(num_envs, size)
        self._masks = np.zeros((num_envs, n_ids), np.int8)
        self.states: list[State | None] = [None] * num_envs
        self._seeds = [SeedStream() for _ in range(num_envs)]
        self._player = [0] * num_envs  # whose decision, per game
        self._legal: list[list[int]] = [[] for _ in range(num_envs)]
        self._rows: list[array[float] | dict[int, float]] = [{} for _ in range(num_envs)]
        self._autoreset = [False] * num_envs
        # whether the game writes a whole batch of observations itself
        # (`Game.write_observations`): found at the first write, None until then
        self._batch: bool | None = None if self.kind == "observation" else False
        # whether the game writes a whole batch of masks itself (`Game.write_masks`): found
        # at the first write; then no legal ids are listed here
        self._game_masks: bool | None = None
        # the bytes of the masks handed out, out of the user's reach: what step() checks
        # each action against (one byte read, rather than a search of the legal ids)
        self._allowed = b""
        self._mask_flat = self._masks.reshape(-1)
        self._mask_rows: dict[tuple[int, ...], bytes] = {}  # a mask row's bytes, by legal ids
        # whether to remember mask rows: while most sets of legal ids are met again
        self._remember = True
        self._looked = self._missed = 0  # mask rows looked up, and not found

    # -- one game ----------------------------------------------------------------------------
    def _start(self, i: int, seed: int | None) -> None:
        self.states[i] = new_state(self.game, self._seeds[i].next(seed), self.players,
                                   self.options)
        self._autoreset[i] = False
        self._look(i)

    def _look(self, i: int) -> None:
        """Game i's player to act, legal ids, observation and mask, into the buffers."""
        st = self.states[i]
        assert st is not None
        players = st.current_players()
        if st.is_over or not players:
            legal: list[int] = []
            p = self._player[i]
        else:
            p = players[0]
            legal = [] if self._game_masks else st.legal_ids(p)
        self._player[i] = p
        self._legal[i] = legal
        if not self._batch:
            self._rows[i] = row_of(st, p, self.kind)

    def _write(self) -> None:
        """Every game's observation and mask into the buffers: the observations in one call
        of the game's batch writer where it has one, else in one write of the rows; the masks
        joined from each row's bytes (remembered per set of legal ids: a game meets the same
        sets again and again) in one copy, while most sets come again."""
        # every slot holds a game once reset() has run (the only way here)
        states = cast("list[State]", self.states)
        if self._batch is None:  # the first write: does the game write batches?
            self._batch = self.game.write_observations(self._obs_rows, states, self._player)
            if not self._batch:
                for i, st in enumerate(states):
                    self._rows[i] = row_of(st, self._player[i], self.kind)
                write_rows(self._obs_rows, self._rows)
        elif self._batch:
            self.game.write_observations(self._obs_rows, states, self._player)
        else:
            write_rows(self._obs_rows, self._rows)
        if self._game_masks is None:  # the first write: does the game write masks?
            self._game_masks = self.game.write_masks(self._masks, states, self._player)
        elif self._game_masks:
            self.game.write_masks(self._masks, states, self._player)
        if self._game_masks:  # what step() checks actions against, out of the user's reach
            self._allowed = self._masks.tobytes()
            return
        if not self._remember:  # sets of legal ids seldom met again: one scattered write
            write_masks(self._masks, self._legal)
            self._allowed = self._masks.tobytes()
            return
        cache = self._mask_rows
        parts = []
        width = self._masks.shape[1]
        missed = 0  # the sets of legal ids not remembered
        for legal in self._legal:
            key = tuple(legal)
            row = cache.get(key)
            if row is None:  # set in a bytearray (as `mask_of`), then remembered
                missed += 1
                made = bytearray(width)
                for k in legal:
                    made[k] = 1
                if len(cache) >= MASK_ROWS:
                    cache.clear()
                row = cache[key] = bytes(made)
            parts.append(row)
        self._allowed = b"".join(parts)
        self._mask_flat[:] = np.frombuffer(self._allowed, np.int8)
        self._looked += len(parts)
        if missed:
            self._missed += missed
            if self._missed > 1000 and 2 * self._missed > self._looked:
                self._remember = False  # most sets are new: remembering them costs more

    def _out(self, array: Any) -> Any:
        return array.copy() if self.copy else array

    def _infos(self, returns: Any = None, ended: Any = None, illegal: Any = None
               ) -> dict[str, Any]:
        """The step's infos: the masks and players always; the returns of the games that
        ended (`ended`: None when none did) and the illegal actions (`illegal`: None when
        none was) only when there are some."""
        every = np.ones(self.num_envs, np.bool_)
        infos: dict[str, Any] = {
            "action_mask": self._out(self._masks), "_action_mask": every,
            "player": np.array(self._player, np.int64), "_player": every,
        }
        if ended is not None:
            infos["returns"], infos["_returns"] = returns, ended
        if illegal is not None:
            infos["illegal_action"], infos["_illegal_action"] = illegal, illegal.copy()
        return infos

    # -- the VectorEnv API ---------------------------------------------------------------------
    def reset(self, *, seed: int | list[int | None] | None = None,
              options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        """New games in every slot: `seed=s` plays seeds s, s+1, ... (a list: one each);
        `options` is not used (the game's options fix the spaces: give them at
        construction)."""
        n = self.num_envs
        if seed is None:
            seeds: list[int | None] = [None] * n
        elif isinstance(seed, list | tuple):
            if len(seed) != n:
                raise BoardctError(f"{len(seed)} seeds for {n} games")
            seeds = list(seed)
        else:
            base = check_seed(seed)
            seeds = [base + i for i in range(n)]
        for i in range(n):
            self._start(i, seeds[i])
        self._write()
        return self._out(self._obs), self._infos()

    def step(self, actions: Any) -> tuple[Any, Any, Any, Any, dict[str, Any]]:
        n = self.num_envs
        if self.states[0] is None:
            raise BoardctError("call reset() before step()")
        chosen = actions.tolist() if hasattr(actions, "tolist") else list(actions)
        if len(chosen) != n:
            raise BoardctError(f"{len(chosen)} actions for {n} games")
        ended_at: list[int] = []  # the games that end at this step, and how
        results: list[tuple[int, Any, bool]] = []  # (player, returns or None: illegal, ...)
        final_obs: list[Any] = []
        same_step = self.autoreset_mode is AutoresetMode.SAME_STEP
        # the games' lists and the functions of the loop, read once (this loop is the
        # vector's whole cost beside the games' own work)
        states, players, legals, rows = self.states, self._player, self._legal, self._rows
        autoreset, kind, batch = self._autoreset, self.kind, self._batch
        game_masks, allowed, width = self._game_masks, self._allowed, self._masks.shape[1]
        for i in range(n):
            if autoreset[i]:
                self._start(i, None)
                continue
            st = states[i]
            assert st is not None
            p = players[i]
            number = chosen[i]
            if type(number) is not int:
                number = as_id(number)
            if number is None or not (0 <= number < width and allowed[i * width + number]):
                ended_at.append(i)
                results.append((p, None, True))
            else:
                # the engine itself: `p` is the player to decide (read from
                # `current_players`) and `number` one of its legal ids, the checks
                # `moves.act_id` would make again
                st.apply_id(number, p)
                if not st.is_over:
                    # the next decision of this game (`_look`, inlined)
                    q = st.current_players()
                    if q:
                        p = q[0]
                        players[i] = p
                        if not game_masks:
                            legals[i] = st.legal_ids(p)
                    else:
                        legals[i] = []
                    if not batch:
                        rows[i] = row_of(st, p, kind)
                    continue
                ended_at.append(i)
                results.append((p, st.returns(), False))
            self._look(i)
            if same_step:
                final = np.zeros(self._obs_rows.shape[1], np.float32)
                row = row_of(st, players[i], kind)
                final_obs.append((i, write_row(final, row).reshape(self.shape)))
                self._start(i, None)
            else:
                autoreset[i] = True
        self._write()
        rewards = np.zeros(n, np.float64)
        ended = np.zeros(n, np.bool_)
        if not ended_at:  # the common step: no game ended, nothing more to say
            return (self._out(self._obs), rewards, ended, np.zeros(n, np.bool_),
                    self._infos())
        illegal = np.zeros(n, np.bool_)
        returns = np.zeros((n, self.players), np.float64)
        wrongs = False
        for i, (p, r, wrong) in zip(ended_at, results, strict=True):
            ended[i] = True
            if wrong:
                rewards[i] = returns[i, p] = self.illegal_reward
                illegal[i] = wrongs = True
            else:
                returns[i] = r
                rewards[i] = r[p]
        infos = self._infos(returns, ended, illegal if wrongs else None)
        if final_obs:
            box = np.empty(n, object)
            for i, o in final_obs:
                box[i] = o
            infos["final_obs"], infos["_final_obs"] = box, ended.copy()
        return (self._out(self._obs), rewards, ended, np.zeros(n, np.bool_), infos)

    def action_masks(self) -> Any:
        """The legal ids of each game's player to act, as bools (num_envs, actions)."""
        return self._masks.astype(bool)

    def render(self) -> tuple[str, ...] | None:
        """Each game's board as text, as a spectator sees it (`render_mode="ansi"`)."""
        if self.render_mode is None:
            gym.logger.warn("render() was called without render_mode='ansi'")
            return None
        return tuple(st.render(None) if st is not None else "" for st in self.states)


def vector_env(game_id: str | Game, num_envs: int = 8, **kwargs: Any) -> BoardctVectorEnv:
    """`num_envs` games of a registered game stepped at once (see the module's docstring).
    Keyword arguments: `players`, `observation`, `illegal_reward`, `autoreset_mode`
    ("next_step" or "same_step"), `copy`, `render_mode`, and the game's own options."""
    return BoardctVectorEnv(game_id, num_envs, **kwargs)
