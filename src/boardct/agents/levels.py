"""The strength ladder: `level=1` .. `level=5` in every game, from random play to the strongest
search at about a CPU second a move.

`LADDERS` below is THE table: for each kind of game, the agent spec of each level, level 1
first. A game may name its own ladder instead (`Game.agent_levels`, five specs in the game's
package), where measurement shows its kind's ladder does not suit it. Changing what a level
plays is changing one string here or there; `benchmarks/ladder.py` measures the result and
writes the table of docs/agents.md.

The levels are chosen so that each is at least 100 Elo above the one below (a score of 64%
against it, the arena's Bradley-Terry fit), from what the steps measured in each kind of
game (docs/agents.md, "The strength ladder"): random; greedy with half its decisions random
where that is a step of its own (not in Shift, whose dice make it level with both of its
neighbours, nor in CTF 2187, where greedy itself is level with random); greedy (one ply of
the game's evaluation); `search` at a small budget; `search` at a CPU second a move (CTF
2187 names a row of its own: two levels below random, then the search with a share of its
decisions random, `eps`, as a chess engine's skill levels are made). The top
levels name `search`, the strongest search of each game, so an improvement to it raises
them without a change here. Budgets are CPU seconds (`cpu=`), so a level plays as well on a
busy machine as on an idle one, only slower, or a fixed number of iterations (`iters=`) for
a search kept short on purpose.

`level:n=3` or `level=3` builds the agent (`--vs 2:level=3` at the terminal, the server's
agent seats, the lobby's "computer strength"). `scale=S` multiplies the level's budgets
(`cpu`, `time`, `iters`): the ladder script and the tests play the same ladder faster with it.
"""

from __future__ import annotations

from boardct.agents.base import Agent, make, register
from boardct.core import registry
from boardct.core.errors import BoardctError
from boardct.core.game import Action, Game, State

LEVELS = 5

# Kind of game -> the agent spec of each level, level 1 first. The kinds follow what the
# search does with the game (`kind_of`): "exact" (perfect information, no chance, one player
# at a time: the plain game tree), "hidden" (hidden information or chance: information-set
# search over determinizations), "simultaneous" (orders given at once: decoupled choices).
LADDERS: dict[str, tuple[str, ...]] = {
    "exact": ("random", "greedy:eps=0.5", "greedy", "search:cpu=0.1", "search:cpu=1"),
    # Shift (and a new game of hidden information or chance): greedy with noise is no step; the
    # search is far above greedy from five iterations on (three were level with it), twenty
    # are above five, and a CPU second far above twenty (docs/agents.md, the ladder measured
    # at the real budgets)
    "hidden": ("random", "greedy", "search:iters=5", "search:iters=20", "search:cpu=1"),
    # A simultaneous game without a row of its own (the sixth test game). CTF 2187 names its
    # own (games/ctf2187/state.py): there greedy plays as random does and the search gains
    # too little from time for steps between budgets, so its row starts below random and
    # weakens the search with random decisions (`eps`) instead
    "simultaneous": ("random", "search:iters=4", "search:cpu=0.03", "search:cpu=0.2",
                     "search:cpu=1"),
}
# The parameters `scale` multiplies.
BUDGETS = ("cpu", "time", "iters")


def kind_of(game: Game) -> str:
    """The row of `LADDERS` a game without a ladder of its own plays."""
    if game.simultaneous:
        return "simultaneous"
    if game.perfect_information and not game.has_chance:
        return "exact"
    return "hidden"


def ladder(game: Game) -> tuple[str, ...]:
    """The agent specs of `game`'s levels, level 1 first."""
    own = tuple(game.agent_levels)
    if own:
        if len(own) != LEVELS:
            raise BoardctError(f"{game.title}: agent_levels names {len(own)} levels, "
                               f"not {LEVELS}")
        return own
    return LADDERS[kind_of(game)]


def scaled(spec: str, scale: float) -> str:
    """`spec` with its budgets multiplied by `scale` (an `iters` budget stays at least 1)."""
    if scale == 1.0:
        return spec
    name, colon, params = spec.partition(":")
    parts = []
    for part in filter(None, (p.strip() for p in params.split(","))):
        key, _, value = part.partition("=")
        if key.strip() in BUDGETS:
            number = float(value) * scale
            value = str(max(1, round(number))) if key.strip() == "iters" else f"{number:g}"
        parts.append(f"{key.strip()}={value.strip()}")
    return name + (":" + ",".join(parts) if colon else "")


def _own_ladders() -> list[tuple[str, ...]]:
    """The ladders installed games name for themselves (`Game.agent_levels`), well formed."""
    return [tuple(g.agent_levels) for g in registry.all_games()
            if len(tuple(g.agent_levels)) == LEVELS]


def _params(spec: str) -> dict[str, str]:
    _name, _, params = spec.partition(":")
    out = {}
    for part in filter(None, (p.strip() for p in params.split(","))):
        key, _, value = part.partition("=")
        out[key.strip()] = value.strip()
    return out


class LevelAgent(Agent):
    """Plays the agent of its level in the game at hand (`ladder`), built at its first
    decision in a game: the game is known only then. Tree reuse, reports and hints are the
    inner agent's."""

    name = "level"

    def __init__(self, seed: int = 0, n: int = 3, scale: float = 1.0):
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= LEVELS:
            raise ValueError(f"the level is a whole number from 1 to {LEVELS}")
        if not isinstance(scale, int | float) or not scale > 0:
            raise ValueError("scale is a number above 0")
        self.seed = seed
        self.n = n
        self.scale = float(scale)
        self._inner: Agent | None = None
        self._game: str | None = None
        # the most a move may think, over every kind's spec of this level and every
        # installed game's own (a server bounds its agent seats' thinking by it:
        # server/agents.py)
        rows = list(LADDERS.values()) + _own_ladders()
        budgets = [float(_params(scaled(row[n - 1], self.scale)).get(k, 0) or 0)
                   for row in rows for k in ("cpu", "time")]
        iters = [int(_params(scaled(row[n - 1], self.scale)).get("iters", 0) or 0)
                 for row in rows]
        self.budget = max(budgets)
        self.iters = max(iters)

    def spec_for(self, game: Game) -> str:
        """The spec this level plays in `game`."""
        return scaled(ladder(game)[self.n - 1], self.scale)

    def inner(self, game: Game) -> Agent:
        if self._inner is None or self._game != game.id:
            self._inner = make(self.spec_for(game), seed=self.seed)
            self._game = game.id
        return self._inner

    def select(self, state: State, player: int) -> Action:
        return self.inner(state.game).select(state, player)

    def observe(self, state: State, player: int, action: Action) -> None:
        if self._inner is not None and self._game == state.game.id:
            self._inner.observe(state, player, action)

    def report(self, max_len: int = 8) -> tuple[float | None, list[Action]]:
        """The inner agent's report of its last search (None, [] for one that does not
        search)."""
        report = getattr(self._inner, "report", None)
        return report(max_len) if report is not None else (None, [])

    def ranked(self, k: int = 3) -> list[tuple[Action, float, int]]:
        """The inner agent's best `k` moves of its last search ([] for one that does not
        search)."""
        ranked = getattr(self._inner, "ranked", None)
        return ranked(k) if ranked is not None else []


register("level", LevelAgent, short="n")
