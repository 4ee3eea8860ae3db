"""The MCTS agent as it was at 3bc2f5c (before issue 21), kept only to compare the new search
against it at equal CPU time (`benchmarks/mcts_arena.py`). Not registered as an agent.

Monte Carlo tree search for every game, through the core API only.

- Hidden information and chance: single-observer information-set MCTS. Each iteration starts
  from `state.determinize(seat, seed)`, a full state consistent with what the seat can see, with
  the unknowns (face-down tiles, the opponent's hand, future coin flips) resampled; one tree is
  shared by all determinizations, and a child's exploration term counts the iterations in which
  it was available (Cowling, Powley and Whitehouse 2012).
- Simultaneous turns: decoupled selection. Where several players owe orders, each chooses from
  its own statistics at that node, and the joint choice leads to the child.
- Long games: a rollout of at most `depth` random actions (default 0), then the game's
  evaluation. With `prior=1` (default) a node is expanded whole, each child starting with one
  virtual visit worth its evaluation (progressive bias), so even a small search is at least
  as good as one ply of the evaluation.
- Budget: `iters=N` iterations, `time=S` seconds of wall-clock time, or `cpu=S` seconds of
  this process's CPU time (what tournaments should use: a busy machine then slows the games
  down but does not weaken the agent). The search stops early once the most visited move
  cannot be overtaken in the iterations left (for a time budget, estimated from the rate so
  far); that never changes the move chosen for an `iters` budget, only the time it takes.
  `early=0` spends the whole budget.
- Determinism: with `iters=N` the search is a function of the state's view and the agent's
  seed. With `time` or `cpu` the number of iterations depends on the machine.
"""

from __future__ import annotations

import math
import time as _time

from boardct.agents.base import Agent
from boardct.core.game import Action, State
from boardct.core.rng import Rng

# Rewards are shares in [0, 1] whose differences between moves are a few hundredths at least;
# this only orders moves the evaluation cannot tell apart.
TIE_JITTER = 1e-6


class Node:
    __slots__ = ("children", "n", "w", "avail", "stats", "expanded")

    def __init__(self) -> None:
        self.expanded = False
        self.children: dict = {}
        self.n = 0  # visits
        self.w = 0.0  # total reward of the player who chose the move into this node
        self.avail = 0  # iterations in which the move into this node was legal
        self.stats: dict | None = None  # decoupled per-player statistics at simultaneous nodes


def _ucb_pick(node: Node, legal: list, c: float, rng: Rng):
    """The child to descend to, or (action, None) for an action not yet tried."""
    children = node.children
    untried = [a for a in legal if a not in children]
    for a in legal:
        ch = children.get(a)
        if ch is not None:
            ch.avail += 1
    if untried:
        return untried[rng.below(len(untried))], None
    best, best_score = None, -1.0
    for a in legal:
        ch = children[a]
        score = ch.w / ch.n + c * math.sqrt(math.log(ch.avail) / ch.n)
        if score > best_score:
            best, best_score = a, score
    return best, children[best]


def _root_stats(root: Node, player: int) -> dict:
    """(visits, mean reward) per root action: the children's, or at a simultaneous root this
    player's own decoupled statistics."""
    if root.stats is not None:
        return {a: (n, w / n) for a, (n, w) in root.stats.get(player, {}).items()}
    return {a: (ch.n, ch.w / ch.n) for a, ch in root.children.items()}


def _decided(root: Node, player: int, left: float) -> bool:
    """True when no other root action can reach the leader's visits in `left` more
    iterations (a tie would be settled by the mean reward, so the lead must be strict)."""
    stats = _root_stats(root, player)
    if len(stats) < 2:
        return False
    first = second = 0
    for n, _mean in stats.values():
        if n > first:
            first, second = n, first
        elif n > second:
            second = n
    return first - second > left


class MCTSAgent(Agent):
    name = "mcts"

    def __init__(self, seed: int = 0, iters: int = 1000, time: float = 0.0, c: float = 0.03,
                 depth: int = 0, prior: int = 1, cpu: float = 0.0, early: int = 1):
        if time > 0 and cpu > 0:
            raise ValueError("mcts takes time= or cpu=, not both")
        if iters < 1 and time <= 0 and cpu <= 0:
            raise ValueError("mcts needs iters >= 1, time > 0 or cpu > 0")
        self.rng = Rng(seed)
        self.iters = int(iters)
        self.budget = float(cpu or time)
        self.clock = _time.process_time if cpu > 0 else _time.perf_counter
        self.c = float(c)
        self.depth = int(depth)
        self.prior = bool(prior)
        self.early = bool(early)
        self.last_iterations = 0
        self._last: tuple[Node, int, Action] | None = None  # the last search, for `report`

    # -- the search ----------------------------------------------------------------------------
    def select(self, state: State, player: int) -> Action:
        legal = state.legal_actions(player)
        if len(legal) == 1:
            self.last_iterations = 0
            self._last = None
            return legal[0]
        root = Node()
        rng = self.rng
        clock = self.clock
        start = clock()
        count = 0
        while True:
            self._iterate(state, player, root, rng)
            count += 1
            if self.budget > 0:
                now = clock()
                if now - start >= self.budget:
                    break
                if self.early and count % 8 == 0:
                    left = count * (self.budget - (now - start)) / max(now - start, 1e-9)
                    if _decided(root, player, left):
                        break
            elif count >= self.iters or (self.early
                                         and _decided(root, player, self.iters - count)):
                break
        self.last_iterations = count
        stats = _root_stats(root, player)
        best = max(legal, key=lambda a: stats.get(a, (-1, 0.0)))
        self._last = (root, player, best)
        return best

    def report(self, max_len: int = 8) -> tuple[float | None, list[Action]]:
        """After `select`: the chosen action's mean reward for the player (a share in [0, 1])
        and the principal variation, the most visited move at each node from the root (the
        chosen action first; it stops at a simultaneous node or a node not searched twice).
        Read from the tree the search left, so it costs the search nothing."""
        if self._last is None:
            return None, []
        root, player, best = self._last
        stats = _root_stats(root, player)
        value = stats[best][1] if best in stats else None
        line: list[Action] = [best]
        node = root.children.get(best) if root.stats is None else None
        while node is not None and len(line) < max_len and node.stats is None:
            if not node.children:
                break
            action, child = max(node.children.items(), key=lambda kv: (kv[1].n, kv[1].w))
            if child.n < 2:
                break
            line.append(action)
            node = child
        return value, line

    def _iterate(self, root_state: State, seat: int, root: Node, rng: Rng) -> None:
        s = root_state.determinize(seat, rng.next64())
        node = root
        path: list[tuple[Node, int]] = []  # (node, player who chose the move into it)
        joint_path: list[tuple[Node, list[tuple[int, Action]]]] = []
        c = self.c
        expanded = False
        while not expanded:
            players = s.current_players()
            if not players:
                break
            if len(players) == 1:
                p = players[0]
                legal = s.legal_actions(p)
                fresh = self.prior and not node.expanded
                if fresh:
                    self._expand_all(s, p, node, legal, rng)
                    expanded = True
                action, child = _ucb_pick(node, legal, c, rng)
                if child is None:
                    child = node.children[action] = Node()
                    child.avail = 1
                    expanded = True
                s.apply(action, p)
                # A child picked just after the expansion already holds this very evaluation
                # as its virtual visit: with no rollout, crediting it again would count one
                # evaluation twice and make a move nobody has answered look searched (at the
                # root, the move then chosen by visits).
                if not (fresh and self.depth == 0):
                    path.append((child, p))
                node = child
            else:
                if node.stats is None:
                    node.stats = {}
                picks = []
                for p in players:
                    stats = node.stats.setdefault(p, {})
                    legal = s.legal_actions(p)
                    untried = [a for a in legal if a not in stats]
                    if untried:
                        a = untried[rng.below(len(untried))]
                        expanded = True
                    else:
                        total = sum(stats[a][0] for a in legal)
                        log_total = math.log(max(total, 1))
                        a = max(legal, key=lambda x: stats[x][1] / stats[x][0]
                                + c * math.sqrt(log_total / stats[x][0]))
                    picks.append((p, a))
                key = tuple(picks)
                child = node.children.get(key)
                if child is None:
                    child = node.children[key] = Node()
                    expanded = True
                for p, a in picks:
                    if s.is_over:
                        break
                    if p in s.current_players():
                        s.apply(a, p)
                joint_path.append((node, picks))
                path.append((child, -1))
                node = child
        rewards = self._rollout(s, rng)
        for nd, p in path:
            nd.n += 1
            if p >= 0:
                nd.w += rewards[p]
        for nd, picks in joint_path:
            for p, a in picks:
                entry = nd.stats[p].get(a)
                nd.stats[p][a] = (1, rewards[p]) if entry is None else (entry[0] + 1,
                                                                       entry[1] + rewards[p])

    def _expand_all(self, s: State, p: int, node: Node, legal: list, rng: Rng) -> None:
        """Progressive-bias start: every child gets one virtual visit worth the game's
        evaluation of the position it leads to, so the search starts where greedy ends.
        Equal evaluations are common (every quiet move of a material count); a jitter far
        below any real difference breaks those ties at random, as greedy does, instead of
        always in favour of the first legal action (which in some games is to pass)."""
        node.expanded = True
        for a in legal:
            child_state = s.clone()
            child_state.apply(a, p)
            ch = Node()
            ch.n = 1
            ch.avail = 1
            ch.w = self._leaf_value(child_state)[p] + TIE_JITTER * rng.random()
            node.children[a] = ch

    def _leaf_value(self, s: State) -> list[float]:
        out = s.outcome
        if out is not None:
            return list(out.returns)
        return [0.5 if v is None else 0.5 * (float(v) + 1.0) for v in s.game.evaluate_all(s)]

    def _rollout(self, s: State, rng: Rng) -> list[float]:
        """Random play for at most `depth` actions; rewards in [0, 1] per player."""
        for _ in range(self.depth):
            players = s.current_players()
            if not players:
                break
            for p in players:
                if s.is_over:
                    break
                legal = s.legal_actions(p)
                s.apply(legal[rng.below(len(legal))], p)
        return self._leaf_value(s)

