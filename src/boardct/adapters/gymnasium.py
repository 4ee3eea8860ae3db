"""boardct's games as single-agent Gymnasium environments (needs the extra `boardct[rl]`).

Importing this module registers every game as `boardct/<Game>-v0` (`boardct/FieldShift-v0`,
`boardct/Shift-v0`, `boardct/CTF2187-v0`, ...; `env_id(game_id)` gives the name), so

    import gymnasium as gym
    env = gym.make("boardct.adapters.gymnasium:boardct/FieldShift-v0", opponent="random")

works without a separate import. The learner plays one seat (`seat=0` by default; `seat=None`
draws it at each reset); every other seat is played by a boardct agent built from an agent
spec (`opponent="mcts:iters=50"` by default, any spec `boardct play --vs` takes), seeded from
the game's seed and its seat as `boardct play` seeds it.

- Observation: the game's observation tensor for the learner's seat, float32, its fixed shape,
  every value in [0, 1] (`observation="information_state"`: the information-state tensor).
- Action: an action id, `Discrete(num_distinct_actions)`; `info["action_mask"]` (int8) marks
  the legal ones. An illegal id ends the episode at once (`terminated`), with reward
  `illegal_reward` (-1.0, below any result) and `info["illegal_action"]`, the game unchanged:
  a learner that samples without the mask is told so rather than stopped by an exception.
- Reward: the learner's own return when the game ends (1 win, 0 loss, 0.5 draw; team shares
  in CTF 2187), 0 before. Never the opponent's: the reward is read for the learner's seat.
- Seeds: `reset(seed=s)` plays the game whose boardct seed is `s`; `reset()` draws the next
  seed from the environment's `np_random`, so a seeded run of episodes is reproducible (with
  an `iters=` opponent; a `time=` budget depends on the machine).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from boardct.adapters.buffers import mask_of, observed
from boardct.adapters.common import (
    OBS_HIGH,
    OBS_LOW,
    SEED_LIMIT,
    as_id,
    check_seed,
    env_name,
    game_of,
    need,
    new_state,
    probe,
)
from boardct.agents import Agent
from boardct.agents import make as make_agent
from boardct.core import moves, registry
from boardct.core.errors import BoardctError
from boardct.core.game import Game, State

if TYPE_CHECKING:  # type checkers read the libraries themselves
    import gymnasium as gym
    import numpy as np
else:
    np = need("numpy", "rl")
    gym = need("gymnasium", "rl")

DEFAULT_OPPONENT = "mcts:iters=50"
OBSERVATIONS = ("observation", "information_state")


class BoardctEnv(gym.Env):
    """One seat of a boardct game against boardct agents; see the module's docstring."""

    metadata = {"render_modes": ["human", "ansi"], "render_fps": 4}

    def __init__(self, game_id: str | Game, opponent: str = DEFAULT_OPPONENT,
                 seat: int | None = 0, players: int | None = None,
                 observation: str = "observation", illegal_reward: float = -1.0,
                 render_mode: str | None = None, **options: Any):
        self.game = game_of(game_id)
        if render_mode not in (None, "ansi", "human"):
            raise BoardctError(f"render_mode {render_mode!r}: boardct renders as text, "
                               "'ansi' (returned) or 'human' (printed)")
        if observation not in OBSERVATIONS:
            raise BoardctError(f"observation {observation!r} is not one of "
                               f"{', '.join(OBSERVATIONS)}")
        self.spaces = probe(self.game, players, dict(options))
        n = self.spaces.players
        if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int)
                                 or not 0 <= seat < n):
            raise BoardctError(f"seat {seat!r}: the learner's seat is 0-{n - 1} (or None: "
                               "drawn at each reset)")
        make_agent(opponent)  # an unknown agent or parameter fails now, not at reset
        self.opponent = opponent
        self.options = dict(options)
        self.fixed_seat = seat
        self.seat = 0 if seat is None else seat
        self.kind = observation
        self.shape = (self.spaces.observation_shape if observation == "observation"
                      else self.spaces.information_state_shape)
        self._size = 1
        for d in self.shape:
            self._size *= d
        self._flat = len(self.shape) == 1
        self.illegal_reward = float(illegal_reward)
        self.render_mode = render_mode
        self.observation_space = gym.spaces.Box(OBS_LOW, OBS_HIGH, self.shape, np.float32)
        self.action_space = gym.spaces.Discrete(self.spaces.num_distinct_actions)
        self.state: State | None = None
        self.agents: dict[int, Any] = {}
        self._listening: list[Any] = []
        self.seed_used: int | None = None
        self._legal: list[int] | None = None  # the learner's legal ids in the state now
        self._legal_of: State | None = None  # the state they are of

    # -- the learner's view ----------
    def _obs(self) -> Any:
        """A fresh array (a learner may keep it): the game's own float array where it writes
        one (`State.observation_array`), else written from its entries, as the PettingZoo
        environments observe."""
        st = self.state
        assert st is not None
        obs = observed(st, self.seat, self.kind, self._size)
        return obs if self._flat else obs.reshape(self.shape)

    def _legal_now(self) -> list[int]:
        """The learner's legal ids now, worked out once per state reached (the mask handed out
        and the check of the next action share them)."""
        st = self.state
        assert st is not None
        if self._legal is None or st is not self._legal_of:
            self._legal_of = st
            self._legal = ([] if st.is_over or self.seat not in st.current_players()
                           else st.legal_ids(self.seat))
        return self._legal

    def _info(self, **extra: Any) -> dict[str, Any]:
        mask = mask_of(self._legal_now(), self.spaces.num_distinct_actions)
        return {"action_mask": mask, "seat": self.seat, **extra}

    def action_masks(self) -> Any:
        """The legal ids as a bool array (the name sb3-contrib's MaskablePPO looks for)."""
        return self._info()["action_mask"].astype(bool)

    # -- the other seats ----------
    def _tell(self, player: int, action: Any) -> None:
        st = self.state
        for agent in self._listening:
            agent.observe(st, player, action)

    def _others(self) -> None:
        """The agents move until it is the learner's decision or the game is over. In a
        simultaneous turn the learner decides first (the others' orders are hidden anyway)."""
        st = self.state
        assert st is not None
        while not st.is_over:
            players = st.current_players()
            if not players or self.seat in players:
                return
            p = players[0]
            action = self.agents[p].select(st, p)
            if self._listening:
                self._tell(p, action)
            moves.act(st, p, action, entry=False)

    # -- the Gymnasium API ----------
    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        """A new game. `options` is not used: the game's options fix the spaces, so they are
        given when the environment is made."""
        super().reset(seed=seed)
        if seed is not None:
            game_seed = check_seed(seed)
        else:
            game_seed = int(self.np_random.integers(SEED_LIMIT))
        n = self.spaces.players
        if self.fixed_seat is None:
            self.seat = int(self.np_random.integers(n))
        self.seed_used = game_seed
        self.state = new_state(self.game, game_seed, n, self.options)
        self.agents = {p: make_agent(self.opponent, seed=game_seed + p)
                       for p in range(n) if p != self.seat}
        # the agents that use what they are told (the others are not told: no action of
        # the learner's worked out from its id for nobody)
        self._listening = [a for a in self.agents.values()
                           if type(a).observe is not Agent.observe]
        self._others()
        self._legal = None
        return self._obs(), self._info()

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        st = self.state
        if st is None:
            raise BoardctError("call reset() before step()")
        if st.is_over:
            raise BoardctError("the game is over: call reset()")
        number = as_id(action)
        legal = self._legal_now()
        if number is None or number not in legal:
            return self._obs(), self.illegal_reward, True, False, self._info(
                illegal_action=True, legal_ids=legal)
        if self._listening:
            self._tell(self.seat, st.id_action(number, self.seat))
        moves.act_id(st, self.seat, number)
        self._others()
        self._legal = None
        over = st.is_over
        reward = float(st.returns()[self.seat]) if over else 0.0
        return self._obs(), reward, over, False, self._info()

    def render(self) -> str | None:
        """The board as text from the learner's seat: returned (`render_mode="ansi"`) or
        printed (`"human"`)."""
        if self.render_mode is None:
            gym.logger.warn("render() was called without a render_mode ('ansi' or 'human')")
            return None
        text = self.state.render(self.seat) if self.state is not None else ""
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release: the game and its agents live in memory."""


def env_id(game_id: str) -> str:
    """The registered id of a game's environment: "boardct/FieldShift-v0"."""
    return f"boardct/{env_name(game_of(game_id))}-v0"


def register_all() -> list[str]:
    """Register every game of boardct's registry with Gymnasium (done on import; again is
    harmless). Returns the ids."""
    ids = []
    for game in registry.all_games():
        name = env_id(game.id)
        if name not in gym.registry:
            gym.register(id=name, entry_point="boardct.adapters.gymnasium:BoardctEnv",
                         kwargs={"game_id": game.id})
        ids.append(name)
    return ids


register_all()
