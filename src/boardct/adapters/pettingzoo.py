"""boardct's games as PettingZoo environments (needs the extra `boardct[rl]`).

- `env(game_id, **options)`: an AEC environment for every game. Agents are "player_0",
  "player_1", ...; each observes a dict with `observation` (float32, the game's fixed
  observation shape, every value in [0, 1]) and `action_mask` (int8, one entry per action id,
  1 where the id is legal for that agent now). The agent selected is the one whose decision it
  is (a player may act several times in a row: FFF's steps, a Hills turn of several orders).
  An agent's reward is the game's return for that agent (1 win, 0 loss, 0.5 draw, team shares
  in CTF 2187), given when the game ends: each agent from its own point of view.
- `parallel_env(game_id, **options)`: the Parallel API, for every game. Every live agent is in
  each step's dict; an agent that owes nothing at this step (not its turn; in CTF 2187, its
  Bots all have their sheets, or are Wreckage) sees an all-zero mask and its action is
  ignored, whatever it is. In a game of turns, one agent acts per step.

As PettingZoo's classic games do (their `TerminateIllegalWrapper`), an action outside the
acting agent's mask ends the game at once: that agent's reward is `illegal_reward` (-1.0),
the others' 0, every agent is terminated, `infos[agent]["illegal_action"]` is True and the
board is left as it was (`illegal_action="terminate"`, the default). `illegal_action="penalize"`
gives the reward and leaves the turn with the agent (nothing happens; the game goes on);
`"raise"` raises `IllegalAction` (a `BoardctError`) saying which ids are legal, changing nothing.

`max_cycles` (None: no limit) cuts a game short: the Parallel environment truncates every
agent after that many steps; the AEC environment after that many rounds of actions, one
action per agent a round (so `max_cycles * agents` actions).

Rendering: `render_mode="ansi"` returns the board as text (as a spectator sees it);
`"human"` prints it and returns None.

Seeds: `reset(seed=s)` plays the game whose boardct seed is `s` (so `boardct` can replay it),
and later `reset()` calls play the next seeds of a stream started from `s`. The options given
at construction are the game's options (the spaces depend on them); `reset(options=...)` takes
none and ignores what it is given (PettingZoo's API test passes a dummy).

Hidden information stays hidden: an agent's observation is the game's observation tensor for
that agent (or, with `observation="information_state"`, its information-state tensor), both
built only from what that agent may know. Each observation is a fresh array (a learner may
keep it): the game's own float array where it writes one (`State.observation_array`), else
written from its entries (`boardct.adapters.buffers`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from boardct.adapters.buffers import check_kind, entries_of, tensor_of
from boardct.adapters.common import (
    OBS_HIGH,
    OBS_LOW,
    SeedStream,
    agent_name,
    as_id,
    game_of,
    illegal,
    need,
    new_state,
    probe,
)
from boardct.core import moves
from boardct.core.errors import BoardctError
from boardct.core.game import State
from boardct.core.info import GameInfo

if TYPE_CHECKING:  # type checkers read the libraries themselves
    import gymnasium
    import numpy as np
    from pettingzoo import AECEnv, ParallelEnv
    from pettingzoo.utils.env_logger import EnvLogger
else:
    np = need("numpy", "rl")
    gymnasium = need("gymnasium", "rl")
    _pz = need("pettingzoo", "rl")
    AECEnv = _pz.AECEnv
    ParallelEnv = _pz.ParallelEnv
    EnvLogger = need("pettingzoo.utils.env_logger", "rl").EnvLogger

frombuffer, float32, int8 = np.frombuffer, np.float32, np.int8

RENDER_MODES = ["human", "ansi"]
ILLEGAL = ("terminate", "penalize", "raise")


def _spaces(spaces: GameInfo, kind: str) -> tuple[Any, Any]:
    shape = spaces.observation_shape if kind == "observation" else spaces.information_state_shape
    obs = gymnasium.spaces.Dict({
        "observation": gymnasium.spaces.Box(OBS_LOW, OBS_HIGH, shape, np.float32),
        "action_mask": gymnasium.spaces.Box(0, 1, (spaces.num_distinct_actions,), np.int8),
    })
    return obs, gymnasium.spaces.Discrete(spaces.num_distinct_actions)


class _Shared:
    """What the AEC and the Parallel environment share: construction, observing, rendering."""

    metadata: dict[str, Any]
    state: State | None

    def _setup(self, game_id: str, render_mode: str | None, players: int | None,
               observation: str, max_cycles: int | None, illegal_action: str,
               illegal_reward: float, options: dict[str, Any]) -> None:
        self.game = game_of(game_id)
        if render_mode not in (None, *RENDER_MODES):
            raise BoardctError(f"render_mode {render_mode!r}: boardct renders as text, "
                               "'ansi' (returned) or 'human' (printed)")
        check_kind(observation)
        if illegal_action not in ILLEGAL:
            raise BoardctError(f"illegal_action {illegal_action!r} is not one of "
                               f"{', '.join(ILLEGAL)}")
        if max_cycles is not None and (isinstance(max_cycles, bool)
                                       or not isinstance(max_cycles, int) or max_cycles < 1):
            raise BoardctError(f"max_cycles {max_cycles!r:.40}: a whole number of at least 1 "
                               "(or None: no limit)")
        self.render_mode = render_mode
        self.options = dict(options)
        self.spaces = probe(self.game, players, self.options)
        self.kind = observation
        self.shape = (self.spaces.observation_shape if observation == "observation"
                      else self.spaces.information_state_shape)
        self._size = 1
        for d in self.shape:
            self._size *= d
        self._actions = self.spaces.num_distinct_actions
        self._flat = len(self.shape) == 1
        self._arrays = observation == "observation"  # the game may write a float array
        self.max_cycles = max_cycles
        self.illegal_action = illegal_action
        self.illegal_reward = float(illegal_reward)
        self.possible_agents = [agent_name(p) for p in range(self.spaces.players)]
        self._index = {a: p for p, a in enumerate(self.possible_agents)}
        # One space object per agent, kept: seeding a space must stick (PettingZoo's API test).
        self.observation_spaces: dict[str, Any] = {}
        self.action_spaces: dict[str, Any] = {}
        for a in self.possible_agents:
            self.observation_spaces[a], self.action_spaces[a] = _spaces(self.spaces, observation)
        self._seeds = SeedStream()
        self.state = None
        self.seed_used: int | None = None
        self._legal: dict[int, list[int]] = {}  # per player, the legal ids of the state now
        self._legal_of: State | None = None  # the state they are of
        self._steps = 0

    def observation_space(self, agent: str) -> Any:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> Any:
        return self.action_spaces[agent]

    def _new_game(self, seed: int | None) -> State:
        self.seed_used = self._seeds.next(seed)
        self.state = new_state(self.game, self.seed_used, self.spaces.players, self.options)
        self._legal.clear()
        self._steps = 0
        return self.state

    def _legal_ids(self, player: int) -> list[int]:
        """The legal ids of `player` now (none when it owes nothing), worked out once per
        state: the mask and the check of the action that follows share them."""
        st = self.state
        assert st is not None
        if st is not self._legal_of:  # a state put in from outside: its own legal ids
            self._legal.clear()
            self._legal_of = st
        legal = self._legal.get(player)
        if legal is None:
            legal = (st.legal_ids(player)
                     if not st.is_over and player in st.current_players() else [])
            self._legal[player] = legal
        return legal

    def _act(self, player: int, number: int) -> None:
        st = self.state
        assert st is not None
        moves.act_id(st, player, number)
        self._legal.clear()

    def _observe(self, player: int) -> dict[str, Any]:
        st = self.state
        if st is None:
            raise BoardctError("call reset() before observing")
        # `observed`, its common case inlined (learners observe at every action)
        floats = st.observation_array(player) if self._arrays else None
        obs = (frombuffer(floats, float32) if floats is not None
               else tensor_of(entries_of(st, player, self.kind), self._size))
        legal = self._legal_ids(player)
        mask = bytearray(self._actions)  # `mask_of`, inlined
        for i in legal:
            mask[i] = 1
        return {"observation": obs if self._flat else obs.reshape(self.shape),
                "action_mask": frombuffer(mask, int8)}

    def _legal_id(self, player: int, action: Any) -> int | None:
        """`action` as a legal id of `player`, or None; with `illegal_action="raise"` the
        error saying what is legal instead of None."""
        legal = self._legal_ids(player)
        number = as_id(action)
        if number is None or number not in legal:
            if self.illegal_action == "raise":
                assert self.state is not None
                raise illegal(self.state, player, action, legal)
            return None
        return number

    def render(self) -> str | None:
        """The board as text, as a spectator sees it: returned (`render_mode="ansi"`) or
        printed (`"human"`)."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode ('ansi' or "
                                  "'human')")
            return None
        text = self.state.render(None) if self.state is not None else ""
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release: the game lives in memory."""


class BoardctAECEnv(_Shared, AECEnv):
    """A boardct game as a PettingZoo AEC environment; see the module's docstring."""

    metadata = {"render_modes": RENDER_MODES, "name": "boardct_v0", "is_parallelizable": False}

    def __init__(self, game_id: str, render_mode: str | None = None, players: int | None = None,
                 observation: str = "observation", max_cycles: int | None = None,
                 illegal_action: str = "terminate", illegal_reward: float = -1.0,
                 **options: Any):
        AECEnv.__init__(self)
        self._setup(game_id, render_mode, players, observation, max_cycles, illegal_action,
                    illegal_reward, options)
        self.metadata = {**type(self).metadata, "name": f"boardct_{self.game.id}_v0"}
        self.agents: list[str] = []
        self.rewards: dict[str, float] = {}
        self._cumulative_rewards: dict[str, float] = {}
        self.terminations: dict[str, bool] = {}
        self.truncations: dict[str, bool] = {}
        self.infos: dict[str, dict] = {}
        self.agent_selection = self.possible_agents[0]
        self._rewarded = False

    def __str__(self) -> str:
        return f"boardct_{self.game.id}"

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        self._new_game(seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self._skip_agent_selection = None
        self._rewarded = False  # no reward in `rewards` but 0: nothing to clear or add up
        self._select()

    def _select(self) -> None:
        """The agent to act next: the one whose decision it is (in a simultaneous turn, the
        first of those who still owe orders; the others follow in turn)."""
        st = self.state
        assert st is not None
        players = st.current_players()
        if players:
            self.agent_selection = self.possible_agents[players[0]]

    def _after(self, agent: str) -> None:
        """The game is over for every agent: the others see the end first, then each is
        stepped off with None."""
        order = self.agents
        self.agent_selection = order[(order.index(agent) + 1) % len(order)]

    def observe(self, agent: str) -> dict[str, Any]:
        return self._observe(self._index[agent])

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """PettingZoo's `last()`, the selected agent's observation and state read directly
        (learners call it every action)."""
        agent = self.agent_selection
        return (self._observe(self._index[agent]) if observe else None,
                self._cumulative_rewards[agent], self.terminations[agent],
                self.truncations[agent], self.infos[agent])

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        st = self.state
        assert st is not None
        player = self._index[agent]
        # `_legal_id`, inlined (learners step at every action)
        legal = self._legal_ids(player)
        number = action if type(action) is int else as_id(action)
        if number is not None and number not in legal:
            number = None
        if number is None and self.illegal_action == "raise":  # raises first, if so asked
            raise illegal(st, player, action, legal)
        self._cumulative_rewards[agent] = 0.0
        if self._rewarded:  # PettingZoo's clearing and adding up, skipped while all are 0
            self._clear_rewards()
            self._rewarded = False
        self._steps += 1
        if number is None:
            self.rewards[agent] = self.illegal_reward
            self._rewarded = True
            self.infos[agent] = {"illegal_action": True}
            if self.illegal_action == "terminate":
                EnvLogger.warn_on_illegal_move()
                self.terminations = dict.fromkeys(self.agents, True)
                self._after(agent)
        else:
            if self.infos[agent]:
                self.infos[agent] = {}  # an illegal action penalized before: that was then
            moves.act_id(st, player, number)  # `_act`, inlined
            self._legal.clear()
            if st.is_over:
                returns = st.returns()
                for a in self.agents:
                    self.rewards[a] = float(returns[self._index[a]])
                    self.terminations[a] = True
                self._rewarded = True
                self._after(agent)
            else:  # `_select`, inlined
                players = st.current_players()
                if players:
                    self.agent_selection = self.possible_agents[players[0]]
        if (self.max_cycles is not None and not self.terminations[agent]
                and self._steps >= self.max_cycles * len(self.possible_agents)):
            self.truncations = dict.fromkeys(self.agents, True)
            self._after(agent)
        if self._rewarded:
            self._accumulate_rewards()


class BoardctParallelEnv(_Shared, ParallelEnv):
    """A boardct game as a PettingZoo Parallel environment; see the module's docstring."""

    metadata = {"render_modes": RENDER_MODES, "name": "boardct_v0"}

    def __init__(self, game_id: str, render_mode: str | None = None, players: int | None = None,
                 observation: str = "observation", max_cycles: int | None = None,
                 illegal_action: str = "terminate", illegal_reward: float = -1.0,
                 **options: Any):
        self._setup(game_id, render_mode, players, observation, max_cycles, illegal_action,
                    illegal_reward, options)
        self.metadata = {**type(self).metadata, "name": f"boardct_{self.game.id}_v0"}
        self.agents: list[str] = []

    def __str__(self) -> str:
        return f"boardct_{self.game.id}"

    def reset(self, seed: int | None = None,
              options: dict | None = None) -> tuple[dict[str, Any], dict[str, dict]]:
        self._new_game(seed)
        self.agents = self.possible_agents[:]
        return ({a: self._observe(self._index[a]) for a in self.agents},
                {a: {} for a in self.agents})

    def step(self, actions: dict[str, Any]) -> tuple[dict, dict, dict, dict, dict]:
        """One action from each agent that owes one now (the others' are ignored). All are
        checked before any is carried out: a missing one is refused and changes nothing; an
        illegal one is dealt with as `illegal_action` says (see the module's docstring)."""
        st = self.state
        if st is None or not self.agents:
            raise BoardctError("the game is over: call reset()")
        deciding = list(st.current_players())
        chosen: list[tuple[int, int]] = []
        wrong: list[int] = []
        for p in deciding:
            agent = self.possible_agents[p]
            if agent not in actions:
                raise BoardctError(f"{agent} owes an action now: step() needs one for it")
        for p in deciding:
            number = self._legal_id(p, actions[self.possible_agents[p]])
            if number is None:
                wrong.append(p)
            else:
                chosen.append((p, number))
        ended = bool(wrong) and self.illegal_action == "terminate"
        if ended:
            EnvLogger.warn_on_illegal_move()
        else:
            for p, number in chosen:
                if st.is_over or p not in st.current_players():
                    break  # cannot happen with sheets handed in together; kept as a guard
                self._act(p, number)
        self._steps += 1
        over = st.is_over or ended
        cut = not over and self.max_cycles is not None and self._steps >= self.max_cycles
        agents = self.agents
        obs = {a: self._observe(self._index[a]) for a in agents}
        if st.is_over:
            returns = st.returns()
            rewards = {a: float(returns[self._index[a]]) for a in agents}
        else:
            rewards = dict.fromkeys(agents, 0.0)
        infos: dict[str, dict] = {a: {} for a in agents}
        for p in wrong:
            agent = self.possible_agents[p]
            rewards[agent] = self.illegal_reward
            infos[agent]["illegal_action"] = True
        terminations = dict.fromkeys(agents, over)
        truncations = dict.fromkeys(agents, cut)
        if over or cut:
            self.agents = []
        return obs, rewards, terminations, truncations, infos


def env(game_id: str, **kwargs: Any) -> BoardctAECEnv:
    """An AEC environment of a registered game: `env("fieldshift", turn_limit=40)`. Keyword
    arguments: `render_mode` ("ansi", "human" or None), `players` (seats, default the game's
    fewest), `observation` ("observation" or "information_state"), `max_cycles`,
    `illegal_action` ("terminate", "penalize" or "raise"), `illegal_reward`, and the game's
    own options."""
    return BoardctAECEnv(game_id, **kwargs)


def parallel_env(game_id: str, **kwargs: Any) -> BoardctParallelEnv:
    """A Parallel environment of a registered game (`parallel_env("ctf2187")`). Takes what
    `env` takes; `max_cycles` counts its steps."""
    return BoardctParallelEnv(game_id, **kwargs)
