"""boardct's games as PettingZoo environments (needs the extra `boardct[rl]`).

- `env(game_id, **options)`: an AEC environment for every game. Agents are "player_0",
  "player_1", ...; each observes a dict with `observation` (float32, the game's fixed
  observation shape, every value in [0, 1]) and `action_mask` (int8, one entry per action id,
  1 where the id is legal for that agent now). An agent's reward is the game's return for that
  agent (1 win, 0 loss, 0.5 draw, team shares in CTF 2187), given when the game ends: each
  agent from its own point of view, so a learner playing either seat maximises its own result.
- `parallel_env("ctf2187", **options)`: the Parallel API for games with simultaneous orders.
  Every live agent is in each step's dict; an agent that owes nothing at this step (its Bots
  all have their sheets, or are Wreckage) sees an all-zero mask and its action is ignored.

Seeds: `reset(seed=s)` plays the game whose boardct seed is `s` (so `boardct` can replay it),
and later `reset()` calls play the next seeds of a stream started from `s`. The options given
at construction are the game's options (the spaces depend on them); `reset(options=...)` takes
none and ignores what it is given (PettingZoo's API test passes a dummy).

Hidden information stays hidden: an agent's observation is the game's `observation_tensor`
for that agent (or, with `observation="information_state"`, its information-state tensor),
both built only from what that agent may know. An illegal action id raises `IllegalAction`
(a `BoardctError`) saying which ids are legal, and changes nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

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
else:
    np = need("numpy", "rl")
    gymnasium = need("gymnasium", "rl")
    _pz = need("pettingzoo", "rl")
    AECEnv = _pz.AECEnv
    ParallelEnv = _pz.ParallelEnv

OBSERVATIONS = ("observation", "information_state")


def _spaces(spaces: GameInfo, kind: str) -> tuple[Any, Any]:
    shape = spaces.observation_shape if kind == "observation" else spaces.information_state_shape
    obs = gymnasium.spaces.Dict({
        "observation": gymnasium.spaces.Box(OBS_LOW, OBS_HIGH, shape, np.float32),
        "action_mask": gymnasium.spaces.Box(0, 1, (spaces.num_distinct_actions,), np.int8),
    })
    return obs, gymnasium.spaces.Discrete(spaces.num_distinct_actions)


class _Shared:
    """What the AEC and the Parallel environment share: construction and observing."""

    metadata: dict[str, Any]
    state: State | None

    def _setup(self, game_id: str, render_mode: str | None, players: int | None,
               observation: str, options: dict[str, Any]) -> None:
        self.game = game_of(game_id)
        if render_mode not in (None, "ansi"):
            raise BoardctError(f"render_mode {render_mode!r}: boardct renders as text, 'ansi'")
        if observation not in OBSERVATIONS:
            raise BoardctError(f"observation {observation!r} is not one of "
                               f"{', '.join(OBSERVATIONS)}")
        self.render_mode = render_mode
        self.options = dict(options)
        self.spaces = probe(self.game, players, self.options)
        self.kind = observation
        self.shape = (self.spaces.observation_shape if observation == "observation"
                      else self.spaces.information_state_shape)
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

    def observation_space(self, agent: str) -> Any:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> Any:
        return self.action_spaces[agent]

    def _new_game(self, seed: int | None) -> State:
        self.seed_used = self._seeds.next(seed)
        self.state = new_state(self.game, self.seed_used, self.spaces.players, self.options)
        return self.state

    def _mask(self, player: int) -> Any:
        mask = np.zeros(self.spaces.num_distinct_actions, np.int8)
        st = self.state
        if st is not None and not st.is_over and player in st.current_players():
            mask[st.legal_ids(player)] = 1
        return mask

    def _observe(self, player: int) -> dict[str, Any]:
        st = self.state
        if st is None:
            raise BoardctError("call reset() before observing")
        flat = (st.observation_tensor(player) if self.kind == "observation"
                else st.information_state_tensor(player))
        return {"observation": np.asarray(flat, np.float32).reshape(self.shape),
                "action_mask": self._mask(player)}

    def _checked(self, player: int, action: Any) -> int:
        """`action` as a legal id of `player`, or the error saying what is legal."""
        st = self.state
        assert st is not None
        legal = st.legal_ids(player)
        number = as_id(action)
        if number is None or number not in legal:
            raise illegal(st, player, action, legal)
        return number

    def render(self) -> str | None:
        """The board as text, as a spectator sees it (`render_mode="ansi"`)."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without render_mode='ansi'")
            return None
        return self.state.render(None) if self.state is not None else ""

    def close(self) -> None:
        """Nothing to release: the game lives in memory."""


class BoardctAECEnv(_Shared, AECEnv):
    """A boardct game as a PettingZoo AEC environment; see the module's docstring."""

    metadata = {"render_modes": ["ansi"], "name": "boardct_v0", "is_parallelizable": False}

    def __init__(self, game_id: str, render_mode: str | None = None, players: int | None = None,
                 observation: str = "observation", **options: Any):
        AECEnv.__init__(self)
        self._setup(game_id, render_mode, players, observation, options)
        self.metadata = {**type(self).metadata, "name": f"boardct_{self.game.id}_v0"}
        self.agents: list[str] = []
        self.rewards: dict[str, float] = {}
        self._cumulative_rewards: dict[str, float] = {}
        self.terminations: dict[str, bool] = {}
        self.truncations: dict[str, bool] = {}
        self.infos: dict[str, dict] = {}
        self.agent_selection = self.possible_agents[0]

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
        self._select()

    def _select(self) -> None:
        """The agent to act next: the one whose decision it is (in a simultaneous turn, the
        first of those who still owe orders; the others follow in turn)."""
        st = self.state
        assert st is not None
        players = st.current_players()
        if players:
            self.agent_selection = self.possible_agents[players[0]]

    def observe(self, agent: str) -> dict[str, Any]:
        return self._observe(self._index[agent])

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        st = self.state
        assert st is not None
        player = self._index[agent]
        number = self._checked(player, action)
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        moves.act_id(st, player, number)
        if st.is_over:
            returns = st.returns()
            for a in self.agents:
                self.rewards[a] = float(returns[self._index[a]])
                self.terminations[a] = True
            # The others see the end first; then each is stepped off with None.
            order = self.agents
            self.agent_selection = order[(order.index(agent) + 1) % len(order)]
        else:
            self._select()
        self._accumulate_rewards()


class BoardctParallelEnv(_Shared, ParallelEnv):
    """A boardct game with simultaneous orders as a PettingZoo Parallel environment."""

    metadata = {"render_modes": ["ansi"], "name": "boardct_v0"}

    def __init__(self, game_id: str, render_mode: str | None = None, players: int | None = None,
                 observation: str = "observation", max_cycles: int | None = None,
                 **options: Any):
        self._setup(game_id, render_mode, players, observation, options)
        if not self.game.simultaneous:
            raise BoardctError(f"{self.game.id} has no simultaneous orders: use env(), the AEC "
                               "environment (or PettingZoo's aec_to_parallel)")
        self.metadata = {**type(self).metadata, "name": f"boardct_{self.game.id}_v0"}
        self.max_cycles = max_cycles  # steps before every agent is truncated; None: no limit
        self.agents: list[str] = []
        self._steps = 0

    def __str__(self) -> str:
        return f"boardct_{self.game.id}"

    def reset(self, seed: int | None = None,
              options: dict | None = None) -> tuple[dict[str, Any], dict[str, dict]]:
        self._new_game(seed)
        self.agents = self.possible_agents[:]
        self._steps = 0
        return ({a: self._observe(self._index[a]) for a in self.agents},
                {a: {} for a in self.agents})

    def step(self, actions: dict[str, Any]) -> tuple[dict, dict, dict, dict, dict]:
        """One action from each agent that owes orders now (the others' are ignored). All are
        checked before any is carried out: a missing or illegal one changes nothing."""
        st = self.state
        if st is None or not self.agents:
            raise BoardctError("the game is over: call reset()")
        deciding = list(st.current_players())
        chosen: list[tuple[int, int]] = []
        for p in deciding:
            agent = self.possible_agents[p]
            if agent not in actions:
                raise BoardctError(f"{agent} owes orders now: step() needs an action for it")
            chosen.append((p, self._checked(p, actions[agent])))
        for p, number in chosen:
            if st.is_over or p not in st.current_players():
                break  # cannot happen with sheets handed in together; kept as a guard
            moves.act_id(st, p, number)
        self._steps += 1
        over = st.is_over
        cut = not over and self.max_cycles is not None and self._steps >= self.max_cycles
        returns = st.returns()
        agents = self.agents
        obs = {a: self._observe(self._index[a]) for a in agents}
        rewards = {a: float(returns[self._index[a]]) if over else 0.0 for a in agents}
        terminations = dict.fromkeys(agents, over)
        truncations = dict.fromkeys(agents, cut)
        infos: dict[str, dict] = {a: {} for a in agents}
        if over or cut:
            self.agents = []
        return obs, rewards, terminations, truncations, infos


def env(game_id: str, **kwargs: Any) -> BoardctAECEnv:
    """An AEC environment of a registered game: `env("fieldshift", turn_limit=40)`. Keyword
    arguments: `render_mode` ("ansi" or None), `players` (seats, default the game's fewest),
    `observation` ("observation" or "information_state"), and the game's own options."""
    return BoardctAECEnv(game_id, **kwargs)


def parallel_env(game_id: str, **kwargs: Any) -> BoardctParallelEnv:
    """A Parallel environment of a game with simultaneous orders (`parallel_env("ctf2187")`).
    Takes what `env` takes, and `max_cycles` (steps before every agent is truncated)."""
    return BoardctParallelEnv(game_id, **kwargs)
