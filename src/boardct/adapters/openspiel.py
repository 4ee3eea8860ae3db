"""boardct's games as OpenSpiel Python games (needs the extra `boardct[openspiel]`).

    from boardct.adapters import openspiel
    openspiel.register()
    game = pyspiel.load_game("boardct_fieldshift", {"turn_limit": 60, "seed": 3})

`register()` registers every game of boardct's registry as `boardct_<id>`. Its GameType says
what the game is: dynamics sequential, or simultaneous for games with simultaneous orders
(CTF 2187); information perfect or imperfect; terminal rewards; and

- chance: deterministic; or explicit stochastic, with chance nodes, for a game that takes all
  its chance from `Setup.rng()` in small uniform draws and says how large
  (`Game.max_chance_outcomes`: Shift's coins, Hills' setup shuffles); or sampled stochastic,
  drawn inside the game from its seeded source (CTF 2187, and any game that offers no listed
  chance). At a chance node each draw of the game is one node, its outcomes 0..n-1 equally
  likely (a coin: 1 is heads; a shuffle: one node per step, as `Rng.shuffle` draws). The
  engine runs the setup or move with the outcomes chosen so far, the draws still to choose at
  0 (`core.rng.ListedRng`), and again only for an outcome that run did not take (see `_Box`),
  so its states are exactly the engine's and its records unchanged when played outside the
  bridge.
  The parameter `chance_nodes=False` offers such a game as sampled instead: the engine
  draws from its seeded source, so the bridged game is boardct's game of that seed.
- utility: zero-sum for two players (returns 1 win, -1 loss, 0 draw) by default, or with
  the parameter `zero_sum=False` constant-sum (the engine's own 1, 0, 0.5); general-sum where
  more players sit (CTF 2187's team shares).

Observers give the core's observation tensor (the default observation type) and
information-state tensor, and their strings, always for one player. A game whose
information-state tensor keeps only a window of the past (`Game.perfect_recall_tensor` False:
Hills) is not offered as providing an information-state tensor; its string is perfect recall.

Parameters: every option of the game with its default, plus `seed`, `players` (seats, for
games that take several numbers), `zero_sum` and, for games with listed chance,
`chance_nodes`. Seeds: each initial state takes its own
engine seed when it is first used (applied, observed, cloned): the first of a loaded game is
`seed` itself (the boardct game of that seed), each later one the next of a stream started
from `seed` (`Rng(seed).next64() >> 1`, as the other adapters' resets). So three initial
states play three different games of sampled chance, and loading the game again with the same
seed and making the same calls replays them. `str(state)` names the engine seed of a game
with sampled chance. Listed chance is chosen by whoever samples the chance nodes (OpenSpiel's
`rl_environment` draws it from its own seeded `ChanceEventSampler`).

Cloning (OpenSpiel deep-copies each attribute of a Python state) goes through the engine's
own `clone()`: the state keeps one attribute, `_box`, whose deep copy is an engine clone; the
engine's history is shared, never copied. Serialising pickles the moves, not the engine: a
state is rebuilt by replaying them (OpenSpiel cannot serialise a game of sampled chance: it
asks for an RNG state a Python game has no way to give).

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

from boardct.adapters.buffers import write_observed
from boardct.adapters.common import game_of, illegal, need, probe
from boardct.core import moves, registry
from boardct.core.errors import BoardctError
from boardct.core.game import Game, Setup, State
from boardct.core.rng import ChanceNeeded, ChanceScript, ListedRng, Rng

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
# OpenSpiel's pseudo-players, as plain ints (OpenSpiel asks whose turn it is several times
# a step: an int is the cheapest answer to hand back through pybind)
CHANCE = int(pyspiel.PlayerId.CHANCE)
TERMINAL = int(pyspiel.PlayerId.TERMINAL)
SIMULTANEOUS = int(pyspiel.PlayerId.SIMULTANEOUS)


def short_name(game: Game) -> str:
    return f"{PREFIX}{game.id}"


# Characters a text parameter cannot hold in OpenSpiel's game strings ("name(k=v,k=v)"), which
# its serialisation writes: the bridge escapes them as in URLs (a list such as "a:3,b:3").
_ESCAPES = {"%": "%25", ",": "%2C", "=": "%3D", "(": "%28", ")": "%29"}


def escape(value: Any) -> Any:
    """A text parameter as OpenSpiel's game strings can hold it (other values as they are)."""
    if isinstance(value, str):
        return "".join(_ESCAPES.get(c, c) for c in value)
    return value


def unescape(value: Any) -> Any:
    """The option's own text from a parameter, escaped (`escape`) or not."""
    if isinstance(value, str) and "%" in value:
        from urllib.parse import unquote

        return unquote(value)
    return value


def _parameters(game: Game) -> dict[str, Any]:
    """The game's parameter specification: its options (those of a type OpenSpiel carries)
    with their defaults (text escaped, see `escape`), `seed`, `players` and `zero_sum`."""
    spec: dict[str, Any] = {o.name: escape(o.default) for o in game.options
                            if isinstance(o.default, PARAM_TYPES)}
    spec["seed"] = 0
    spec["players"] = game.min_players
    spec["zero_sum"] = True
    if listed_chance(game):
        spec["chance_nodes"] = True
    return spec


def listed_chance(game: Game) -> bool:
    """Whether the bridge offers the game's chance as chance nodes (at its defaults)."""
    if not game.has_chance:
        return False
    defaults = game.resolve_options({})
    return game.max_chance_outcomes(defaults, game.min_players) > 0


def game_type(game: Game, utility: Any = None, chance_nodes: bool = True) -> Any:
    """The OpenSpiel GameType of a boardct game (see the module's docstring). `utility` and
    `chance_nodes` are those of one loaded game; registered, a game for two players only is
    zero-sum and listed chance is offered as chance nodes."""
    gt = pyspiel.GameType
    if not game.has_chance:
        chance = gt.ChanceMode.DETERMINISTIC
    elif chance_nodes and listed_chance(game):
        chance = gt.ChanceMode.EXPLICIT_STOCHASTIC
    else:
        chance = gt.ChanceMode.SAMPLED_STOCHASTIC
    if utility is None:
        utility = gt.Utility.ZERO_SUM if game.max_players == 2 else gt.Utility.GENERAL_SUM
    return gt(
        short_name=short_name(game),
        long_name=f"boardct {game.title}",
        dynamics=gt.Dynamics.SIMULTANEOUS if game.simultaneous else gt.Dynamics.SEQUENTIAL,
        chance_mode=chance,
        information=(gt.Information.PERFECT_INFORMATION if game.perfect_information
                     else gt.Information.IMPERFECT_INFORMATION),
        utility=utility,
        reward_model=gt.RewardModel.TERMINAL,
        max_num_players=game.max_players,
        min_num_players=game.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=game.perfect_information or game.perfect_recall_tensor,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_parameters(game),
    )


class _Config:
    """What every state of one loaded game shares: the game, its seats and options, how its
    chance and returns are offered, and the seed stream of its initial states.

    `moves_draw` turns True the first time a move of this loaded game draws chance (a coin in
    Shift); until then moves are made in place, with no clone to fall back on (Hills draws
    only in its setup: its moves never pay for one). See `_Box.move`."""

    __slots__ = ("bgame", "players", "options", "resolved", "seed", "seeds", "listed",
                 "script", "sim", "wait", "zero_sum", "max_outcomes", "moves_draw",
                 "outcome_lists")

    def __init__(self, bgame: Game, players: int, options: dict[str, Any], seed: int,
                 zero_sum: bool, num_actions: int, chance_nodes: bool = True):
        self.bgame = bgame
        self.players = players
        self.options = options
        self.resolved = bgame.resolve_options(options)
        self.seed = seed
        self.seeds: Rng | None = None
        self.listed = chance_nodes and listed_chance(bgame)
        self.max_outcomes = (max(2, bgame.max_chance_outcomes(self.resolved, players))
                             if self.listed else 0)
        self.script = ChanceScript()
        self.sim = bgame.simultaneous
        self.wait = num_actions  # the id of "wait" in a simultaneous game
        self.zero_sum = zero_sum
        self.moves_draw = False
        # a draw of n outcomes: its (outcome, probability) pairs, made once per n
        self.outcome_lists: dict[int, tuple[tuple[int, float], ...]] = {}

    def next_seed(self) -> int:
        """The engine seed of the next initial state: `seed`, then its stream's."""
        if not self.bgame.has_chance:
            return self.seed
        if self.seeds is None:
            self.seeds = Rng(self.seed)
            return self.seed
        return self.seeds.next64() >> 1

    def outcomes(self, n: int) -> tuple[tuple[int, float], ...]:
        """The outcomes of a draw of `n`, equally likely, as OpenSpiel lists them."""
        listed = self.outcome_lists.get(n)
        if listed is None:
            listed = self.outcome_lists[n] = tuple((k, 1.0 / n) for k in range(n))
        return listed

    def __reduce__(self) -> tuple[Any, ...]:
        return (_Config, (self.bgame, self.players, self.options, self.seed, self.zero_sum,
                          self.wait, self.listed))


def _rebuild(cfg: _Config, seed: int, entries: list[tuple[Any, ...]]) -> _Box:
    """A pickled box: the game of `seed` with its moves replayed."""
    box = _Box(cfg)
    box.start(seed)
    for entry in entries:
        box.replay(entry)
    return box


Move = tuple[Any, ...]  # ("act", player, action) or ("joint", actions), as the log keeps them


class _Box:
    """The engine state behind one OpenSpiel state, and where its chance stands.

    `inner` is the engine state (None until the state is first used, when it takes its seed).
    With listed chance, the setup and every move that may draw (see `move`) run with the draws
    chosen so far, each draw not yet chosen taken as outcome 0 and noted (`ChanceScript` with
    `fill`): a run that drew nothing unchosen is the state; else the state is a chance node,
    `pending` holding what
    waits for chance ("setup", or the move), `chosen` the outcomes chosen so far, `plan` the
    draws still to choose as the latest run met them ((size, chained) each, the next one's
    size in `draw`), and `ran` that run's result, the state if every draw still to choose comes
    out 0. A chosen outcome keeps the plan while it could not have changed it: an outcome 0
    (the run's own), or any outcome of a shuffle's step that another step follows (its size
    is known whatever the outcome, `dirty` noting that the run's result no longer holds); else
    the setup or move runs again with the outcomes chosen so far. So a coin that comes out 0
    costs no run, and one that comes out 1 costs one.

    At a chance node after a move `inner` is the state before it (what observers see); in
    the setup it is the latest run (a stand-in nobody has seen: the setup with its draws not
    yet chosen at 0). `log` links every move for pickling ((previous, entry)), shared by clones
    like the engine's own history. `legal` keeps the legal ids of `legal_of` once asked (the
    check of the move that follows reads them)."""

    __slots__ = ("cfg", "inner", "seed", "pending", "draw", "plan", "chosen", "ran", "dirty",
                 "log", "legal", "legal_of", "to_move")

    def __init__(self, cfg: _Config):
        self.cfg = cfg
        self.inner: State[Any] | None = None
        self.seed = 0
        self.pending: Any = None  # None, "setup" or the move waiting for its draws
        self.draw = 0
        self.plan: tuple[tuple[int, bool], ...] = ()
        self.chosen: tuple[int, ...] = ()
        self.ran: State[Any] | None = None  # a move's latest run (None in the setup)
        self.dirty = False
        self.log: Any = None
        self.legal: list[int] | None = None
        self.legal_of = -1
        self.to_move: int | None = None  # `whose()`, kept until the state changes

    def __deepcopy__(self, memo: dict[int, Any]) -> _Box:
        """OpenSpiel's clone of a Python state deep-copies its attributes: this one is the
        engine's clone (two at a chance node after a move: the state before it and the run)."""
        inner = self.inner
        if inner is None:
            inner = self.get()
        dup = _Box.__new__(_Box)
        dup.cfg = self.cfg
        dup.inner = inner.clone()
        dup.seed = self.seed
        dup.pending = self.pending
        dup.draw = self.draw
        dup.plan = self.plan
        dup.chosen = self.chosen
        ran = self.ran
        dup.ran = None if ran is None else ran.clone()
        dup.dirty = self.dirty
        dup.log = self.log
        dup.legal = self.legal  # never changed in place: handed out as copies
        dup.legal_of = self.legal_of
        dup.to_move = self.to_move
        return dup

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its seed and moves (OpenSpiel's serialisation): replayed on loading."""
        self.get()
        return (_rebuild, (self.cfg, self.seed, self.entries()))

    def entries(self) -> list[tuple[Any, ...]]:
        """Every move and chance outcome so far, oldest first."""
        entries = []
        cell = self.log
        while cell is not None:
            cell, entry = cell
            entries.append(entry)
        entries.reverse()
        return entries

    # -- the engine state --------------------------------------------------------------------
    def whose(self) -> int:
        """OpenSpiel's current player: chance, the end, a simultaneous node or the player."""
        inner = self.inner
        if inner is None:
            inner = self.get()
        if self.pending is not None:
            return CHANCE
        if inner.is_over:
            return TERMINAL
        return SIMULTANEOUS if self.cfg.sim else inner.current_players()[0]

    def get(self) -> State[Any]:
        """The engine state, made on first use with the next seed of the stream."""
        inner = self.inner
        if inner is None:
            self.start(self.cfg.next_seed())
            inner = self.inner
            assert inner is not None
        return inner

    def start(self, seed: int) -> None:
        self.seed = seed
        if self.cfg.listed:
            self._setup(())
        else:
            cfg = self.cfg
            self.inner = cfg.bgame.initial_state(
                Setup(seed, cfg.resolved, tuple("" for _ in range(cfg.players))))

    def _setup(self, outcomes: tuple[int, ...]) -> None:
        """The setup with the chosen draws, the rest at 0 (a chance node while any is left)."""
        cfg = self.cfg
        script = cfg.script
        script.set(outcomes, fill=True)
        try:
            self.inner = cfg.bgame.initial_state(Setup(
                self.seed, cfg.resolved, tuple("" for _ in range(cfg.players)),
                source=ListedRng(script, self.seed)))
            unchosen = script.unchosen
        finally:
            script.set(())
        self._wait_for("setup", outcomes, unchosen)

    def _wait_for(self, pending: Any, chosen: tuple[int, ...],
                  unchosen: list[tuple[int, bool]]) -> None:
        """After a run that met draws not chosen: a chance node for the first of them."""
        if unchosen:
            self.pending, self.chosen, self.plan = pending, chosen, tuple(unchosen)
            self.draw, self.dirty = unchosen[0][0], False
        else:
            self.pending, self.chosen, self.plan, self.draw = None, (), (), 0

    # -- moves ---------------------------------------------------------------------------------
    # Each logs its move once it is made: an illegal one raises and changes nothing.
    def act(self, player: int, action: int, check: bool = True) -> None:
        """`player`'s action; `check`: refused unless one of its legal ids now (OpenSpiel's
        own games check with `apply_action_with_legality_check`; an engine may accept ids its
        learners are not offered, such as FieldShift's AUX commands)."""
        inner = self.inner
        if inner is None:
            inner = self.get()
        if check:
            legal = self.legal if self.legal_of == player else None
            if legal is None:
                legal = inner.legal_ids(player)
            if action not in legal:
                raise illegal(inner, player, action, legal)
        entry = ("act", player, action)
        if self.cfg.listed:
            self.move(entry, inner)
        else:
            moves.act_id(inner, player, action)
        self.legal, self.legal_of, self.to_move = None, -1, None
        self.log = (self.log, entry)

    def joint(self, actions: tuple[int, ...]) -> None:
        entry = ("joint", actions)
        if self.cfg.listed:
            self.move(entry, self.get())
        else:
            self._joint(self.get(), actions)
        self.legal, self.legal_of, self.to_move = None, -1, None
        self.log = (self.log, entry)

    def chance(self, outcome: int) -> None:
        pending = self.pending
        if pending is None or not 0 <= outcome < self.draw:
            raise BoardctError(f"chance outcome {outcome} is not one of this node's "
                               f"{self.draw}")
        chosen = self.chosen + (outcome,)
        plan = self.plan
        dirty = self.dirty or outcome != 0
        if len(plan) > 1 and (plan[0][1] or not dirty):  # the plan holds: no run
            self.chosen, self.plan, self.draw, self.dirty = chosen, plan[1:], plan[1][0], dirty
        elif not dirty:  # the last draw, as the latest run took it: that run is the state
            ran = self.ran
            if ran is not None:
                self.inner, self.ran = ran, None
            self.pending, self.chosen, self.plan, self.draw = None, (), (), 0
        elif pending == "setup":
            self._setup(chosen)
        else:
            self._run(pending, self.get().clone(), chosen)
        self.legal, self.legal_of, self.to_move = None, -1, None
        self.log = (self.log, ("chance", outcome))

    def replay(self, entry: tuple[Any, ...]) -> None:
        kind = entry[0]
        if kind == "act":
            self.act(entry[1], entry[2], check=False)
        elif kind == "joint":
            self.joint(entry[1])
        else:
            self.chance(entry[1])

    def _joint(self, inner: State[Any], actions: tuple[int, ...]) -> None:
        """One action per player at a simultaneous node; `wait` for those who owe nothing."""
        wait = self.cfg.wait
        for p in inner.current_players():
            if inner.is_over or p not in inner.current_players():
                break
            if actions[p] == wait:
                raise BoardctError(f"player {p} owes orders: wait is not legal for it")
            moves.act_id(inner, p, int(actions[p]))

    def move(self, move: Move, inner: State[Any]) -> None:
        """A move of a game with listed chance, from `inner` (the state now). Made in place
        while no move of this loaded game has drawn, the script holding no outcome (as
        between any two runs): a draw then raises `ChanceNeeded` halfway through the move, so
        that move is the first to draw (`_Config.moves_draw`): the state before it is rebuilt
        from the log and the move run again on a clone, as every move is from then on."""
        cfg = self.cfg
        if cfg.moves_draw:
            self._run(move, inner.clone(), ())
            return
        try:
            self._make(inner, move)
        except ChanceNeeded:
            cfg.moves_draw = True
            before = self.inner = _rebuild(cfg, self.seed, self.entries()).get()
            self._run(move, before.clone(), ())

    def _run(self, move: Move, trial: State[Any], chosen: tuple[int, ...]) -> None:
        """The move on `trial` (a clone of the state before it) with the draws chosen so far,
        the rest at 0: the state if it met no draw more, else a chance node for the next."""
        script = self.cfg.script
        script.set(chosen, fill=True)
        try:
            self._make(trial, move)
            unchosen = script.unchosen
        finally:
            script.set(())
        if unchosen:
            self.ran = trial
        else:
            self.inner, self.ran = trial, None
        self._wait_for(move, chosen, unchosen)

    def _make(self, state: State[Any], move: Move) -> None:
        if move[0] == "act":
            moves.act_id(state, move[1], move[2])
        else:
            self._joint(state, move[1])


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
        given = {k: escape(unescape(v)) for k, v in given.items()}
        full = {**spec, **given}
        self.seed = int(full.pop("seed"))
        players = int(full.pop("players"))
        zero_sum = bool(full.pop("zero_sum"))
        chance_nodes = bool(full.pop("chance_nodes", False))
        for name in ("seed", "players", "zero_sum", "chance_nodes"):
            spec.pop(name, None)
        self.options = {k: unescape(v) for k, v in full.items()
                        if unescape(v) != unescape(spec[k])}
        self.spaces = probe(game, players, self.options)
        self.simultaneous = game.simultaneous
        self.wait = self.spaces.num_distinct_actions  # the id of "wait" in a simultaneous game
        self.cfg = _Config(game, players, self.options, self.seed,
                           zero_sum and self.spaces.utility_sum == 1.0, self.wait, chance_nodes)
        zs = self.cfg.zero_sum
        two_sum = players == 2 and self.spaces.utility_sum == 1.0
        ut = pyspiel.GameType.Utility
        utility = (ut.ZERO_SUM if zs else ut.CONSTANT_SUM) if two_sum else ut.GENERAL_SUM
        super().__init__(game_type(game, utility, self.cfg.listed), pyspiel.GameInfo(
            num_distinct_actions=self.spaces.num_distinct_actions + (1 if self.simultaneous else 0),
            max_chance_outcomes=self.cfg.max_outcomes,
            num_players=players,
            min_utility=-1.0 if zs else 0.0,
            max_utility=1.0,
            utility_sum=(0.0 if zs else 1.0) if two_sum else None,
            max_game_length=MAX_GAME_LENGTH,
        ), given)

    def new_initial_state(self) -> BoardctState:
        """A new game: its engine state (and seed) is made when it is first used."""
        return BoardctState(self)

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
    """A boardct state behind OpenSpiel's State API. Its one attribute is `_box` (see
    `_Box`), made on first use: OpenSpiel's clone makes a new initial state and overwrites
    its attributes, so a new state costs no more than OpenSpiel's own part. `inner` is the
    engine state."""

    _box: _Box

    def __getattr__(self, name: str) -> Any:
        """Only for `_box` of a state not used yet (a normal lookup finds it after)."""
        if name != "_box":
            raise AttributeError(name)
        box = _Box(self.get_game().cfg)
        self._box = box
        return box

    @classmethod
    def holding(cls, game: BoardctGame, box: _Box) -> BoardctState:
        state = cls(game)
        state._box = box
        return state

    @property
    def inner(self) -> State[Any]:
        """The engine state (at a chance node after a move: the state before that move)."""
        return self._box.get()

    # -- whose decision ----------------------------------------------------------------------
    def current_player(self) -> int:
        box = self._box
        p = box.to_move
        if p is None:
            p = box.to_move = box.whose()
        return p

    def _legal_actions(self, player: int) -> list[int]:
        box = self._box
        inner = box.inner
        if inner is None:
            inner = box.get()
        if player < 0 or box.pending is not None or inner.is_over:
            return []
        if player in inner.current_players():
            legal = box.legal if box.legal_of == player else None
            if legal is None:
                legal = inner.legal_ids(player)
                box.legal, box.legal_of = legal, player
            return legal[:]  # the caller's own copy: the one kept checks the next move
        return [box.cfg.wait] if box.cfg.sim else []

    # OpenSpiel's C++ State answers these by calling back into Python several times each
    # (`legal_actions(p)`: `is_terminal`, `current_player` twice, `_legal_actions`); called
    # from Python, the same answers worked out here directly, in the same order of checks
    # (C++ callers keep OpenSpiel's own path).
    def is_chance_node(self) -> bool:
        box = self._box
        p = box.to_move
        if p is None:
            p = box.to_move = box.whose()
        return p == CHANCE

    def is_simultaneous_node(self) -> bool:
        box = self._box
        if not box.cfg.sim:
            return False
        p = box.to_move
        if p is None:
            p = box.to_move = box.whose()
        return p == SIMULTANEOUS

    def is_player_node(self) -> bool:
        return self.current_player() >= 0

    def legal_actions(self, player: int | None = None) -> list[int]:
        """OpenSpiel's `LegalActions(player)` (of the player to move if none is given): none
        at the end, the outcomes at a chance node, the player's actions where it is its turn
        (or, at a simultaneous node, any player's), else none."""
        current = self.current_player()
        if player is None:
            player = current
        if current == TERMINAL:
            return []
        if current == CHANCE:
            return list(range(self._box.draw))
        if player == current or (player >= 0 and current == SIMULTANEOUS):
            return self._legal_actions(player)
        if player < 0:
            raise pyspiel.SpielError(f"Called LegalActions for pseudo-player {player}")
        return []

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The next draw's outcomes, equally likely."""
        box = self._box
        if box.inner is None:
            box.get()
        return list(box.cfg.outcomes(box.draw)) if box.pending is not None else []

    # -- acting ------------------------------------------------------------------------------
    def _apply_action(self, action: int) -> None:
        """A chance outcome, or the action of the player to move: refused (`IllegalAction`,
        nothing changed) unless one of `legal_actions()`."""
        box = self._box
        p = box.to_move
        if p is None:
            p = box.to_move = box.whose()
        if p == CHANCE:
            box.chance(int(action))
        else:
            box.act(p, int(action))

    def _apply_actions(self, actions: list[int]) -> None:
        self._box.joint(tuple(int(a) for a in actions))

    def _action_to_string(self, player: int, action: int) -> str:
        box = self._box
        if player == CHANCE:
            return f"chance outcome {action}"
        if box.cfg.sim and action == box.cfg.wait:
            return "wait"
        inner = box.get()
        try:
            return inner.notation(inner.id_action(action, player))
        except Exception:  # a display string: an id with no text here is shown as the id
            return f"id {action}"

    # -- the end ------------------------------------------------------------------------------
    def is_terminal(self) -> bool:
        box = self._box
        p = box.to_move
        if p is None:
            p = box.to_move = box.whose()
        return p == TERMINAL

    def returns(self) -> list[float]:
        box = self._box
        inner = box.get()
        if box.pending is not None or not inner.is_over:
            return [0.0] * box.cfg.players
        if box.cfg.zero_sum:
            return [2.0 * r - 1.0 for r in inner.returns()]
        return [float(r) for r in inner.returns()]

    def rewards(self) -> list[float]:
        return self.returns()

    def __str__(self) -> str:
        """The board as the engine draws it for everyone, then what it cannot show: the
        engine seed (sampled chance), a chance node's pending move and draws, and the moves
        (chance outcomes included) that led here, so that different states read differently
        (a board leaves out hidden parts and a turn's steps under way)."""
        box = self._box
        inner = box.get()
        lines = [inner.render(None)]
        if box.cfg.bgame.has_chance and not box.cfg.listed:
            lines.append(f"engine seed: {box.seed}")
        if box.pending is not None:
            lines.append(f"chance: draw of {box.draw} after {box.pending}")
        lines.append("history: " + " ".join(str(a) for a in self.history()))
        return "\n".join(lines)

    # -- copies --------------------------------------------------------------------------------
    def __deepcopy__(self, memo: dict[int, Any]) -> BoardctState:
        """`copy.deepcopy` of the whole state is OpenSpiel's clone (which copies the C++ part,
        the history, and deep-copies `_box`: one engine clone)."""
        return self.clone()

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> BoardctState:
        """A state consistent with what `player_id` knows, its unknowns resampled (the game's
        `determinize`, seeded from OpenSpiel's sampler); its chance to come is the
        determinized engine's own, sampled inside it."""
        seed = int(probability_sampler() * (1 << 53)) if callable(probability_sampler) else 0
        box = self._box
        dup = _Box(box.cfg)
        dup.inner = box.get().determinize(player_id, seed)
        dup.seed = seed
        return BoardctState.holding(self.get_game(), dup)


class Observer:
    """An OpenSpiel Python observer of one player: the core's observation tensor, or with
    perfect recall its information-state tensor, and their strings.

    `tensor` is preallocated once and rewritten in place by `set_from` (OpenSpiel's observers
    work so: copy it to keep it), from the game's float array where it writes one
    (`observation_array`: its bytes copied through a memoryview, a third of what a numpy
    assignment costs at these sizes), else from its entries (`observation_entries`): zeroed,
    then only the entries that may be nonzero written (`boardct.adapters.buffers`)."""

    def __init__(self, shape: tuple[int, ...], recall: bool):
        self.recall = recall
        self.kind = "information_state" if recall else "observation"
        self.tensor = np.zeros(math.prod(shape), np.float32)
        self.memory = self.tensor.data  # a memoryview of format "f", as the games' arrays
        self.dict = {"observation": self.tensor.reshape(shape)}

    def set_from(self, state: BoardctState, player: int) -> None:
        box = state._box
        inner = box.inner
        if inner is None:
            inner = box.get()
        if not self.recall:
            floats = inner.observation_array(player)
            if floats is not None:
                self.memory[:] = memoryview(floats)
                return
        write_observed(self.tensor, inner, player, self.kind)

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
