"""Monte Carlo tree search for every game, through the core API only.

Two searches share one agent, chosen by what the game declares:

- Perfect information without chance (FieldShift, FFF): a node is an exact position, so the
  tree is a plain game tree. A node computes its legal moves once, the first time the search
  stands on it, and keeps its children's statistics as parallel lists (visits, total reward,
  child node or None): a child gets a node of its own only when the search passes through it,
  so the many leaves cost two list entries each. No node holds a state; each iteration clones
  the root state once and replays the moves down the tree, which is cheaper than keeping a
  copy per node. A leaf is evaluated in one pass for all players (`Game.evaluate_all`). The
  tree is kept between moves: when the next position is the last root plus moves found in the
  tree (our move, the opponent's reply), that subtree is the new root (`reuse=1`, default).
  A wide node (more than `wide` moves: FFF's whole turns) expanded whole below the root keeps
  only its statistics, not its move list, until the search has passed through it `KEEP_AFTER`
  times; a pass asks `legal_actions` again (same position, same order). That halves FFF's
  10,000-iteration search (74 MB to 39 MB for the whole process) at no measurable speed.
  UCB1's exploration term counts the iterations that passed through a node, not its
  children's virtual visits (below), as the old agent counted it: without the tie-breaking
  jitter and tree reuse, this search gives every root move the old agent's visits and values
  at equal iterations (tests/agents/test_mcts_scaling.py), only cheaper.
  Implicit minimax backups (Lanctot, Winands, Pepels and Sturtevant 2014; `im=a`, 0 <= a
  <= 1, default 1, two-player games): at a node expanded whole with at most `wide` moves,
  each child also holds the minimax value of the tree searched below it (its leaves the
  game's move scores), and selection reads `(1 - a) x mean + a x minimax` instead of the
  mean. The plain average played worse with more iterations in FieldShift (240 against 60 a
  move: 0.378 of 160 games) where full-width minimax on the same evaluation plays better
  deeper (three plies against two: 0.800), and lost to the old agent at equal CPU time
  (0.385, 0.403 of 200 games each); with `im=1` it scored 0.507 and 0.547 (docs/agents.md,
  fourth round). Wide nodes (FFF's whole turns) keep no minimax values: 800 of them a reply
  node took FFF's 10,000-iteration search from 40 to 57 MB, and `im` there showed no gain
  (0.437 of 80 games); `im=0` is the search as before.
- Hidden information, chance or simultaneous turns (Hills, Shift, CTF 2187): single-observer
  information-set MCTS. Each iteration starts from `state.determinize(seat, seed)`, a full
  state consistent with what the seat can see, with the unknowns resampled; one tree is shared
  by all determinizations, and a child's exploration term counts the iterations in which it
  was available (Cowling, Powley and Whitehouse 2012). Legal moves differ between
  determinizations, so they are asked at every node passed. Where several players owe orders
  the choice is decoupled: each chooses from its own statistics, the joint choice leads to the
  child. This tree is not reused (the next search's sampled worlds differ).

Common to both:
- Expansion: a node at fewer than `prior` plies from the root (default: every node) is
  expanded whole when first reached, each child starting with one virtual visit worth its
  evaluation (progressive bias; in the exact search the children's values come from
  `Game.score_moves`, whose default clones, moves and evaluates each child and which FieldShift
  and FFF override with fast paths giving the same values: FFF reads most whole turns' effect
  from their tokens, FieldShift updates the evaluation by what each command changed; a
  position reached again by other moves within one search, found by `State.search_key`,
  reuses its scores), so the search starts where greedy ends and a move's
  refutation is seen as soon as the move is looked at; the iteration backs up the best
  child's values, as descending to it would. Nodes beyond `prior` plies, and in the exact
  search nodes with more than `wide` moves (default 100: FFF's whole turns, some 900 a
  position) deeper than the replies to our moves, grow lazily instead, one untried move (at
  random) per visit: whole expansion of those costs hundreds of evaluations and as many
  entries of memory per node. (The root and the replies stay whole: seeing each move's best
  reply is what keeps FFF from leaving a piece to be taken.) Lazy growth is much faster per
  iteration (`prior=1`: FieldShift some ten times) but averages random replies where whole
  expansion sees the best one, and lost at equal CPU time in the arena
  (benchmarks/mcts_arena.py), so it is not the default.
- Long games: a rollout of at most `depth` random actions (default 0), then the evaluation.
- Budget: `iters=N` iterations, `time=S` seconds of wall-clock time, or `cpu=S` seconds of
  this process's CPU time (what tournaments should use: a busy machine then slows the games
  down but does not weaken the agent). The search stops early once the most visited move
  cannot be overtaken in the iterations left (for a time budget, estimated from the rate so
  far); that never changes the move chosen for an `iters` budget. `early=0` spends it all.
- Determinism: with `iters=N` and `reuse=0` the search is a function of the state's view and
  the agent's seed. With tree reuse, a search also depends on the agent's earlier searches in
  the same game (the kept subtree holds their visits). With `time` or `cpu` the number of
  iterations depends on the machine.
"""

from __future__ import annotations

import math
import random as _random
import time as _time
from array import array
from itertools import repeat
from operator import add, mul, truediv

from boardct.agents.base import Agent, register
from boardct.core.game import Action, State
from boardct.core.rng import Rng

# Rewards are shares in [0, 1] whose differences between moves are a few hundredths at least;
# this only orders moves the evaluation cannot tell apart.
TIE_JITTER = 1e-6
# `Node.to` of a node the search has not stood on yet (its moves are not known).
UNSEEN = -2
# A wide node expanded whole keeps its move list once the search has passed through it this
# many times (asking again costs FFF about 0.1 ms a pass; the list some 60 kB).
KEEP_AFTER = 8


def _moves(node: Node, s: State) -> list:
    """The node's moves in the order of its statistics. A wide node expanded whole below the
    root (an FFF reply node: some 800 whole turns, some 60 kB as objects, and a 10,000-iteration
    search holds hundreds of them) does not keep its list: its statistics are in the order of
    `legal_actions`, which a deterministic engine gives again for the same position, and
    asking again on the rare pass through it costs about 0.1 ms."""
    moves = node.moves
    return moves if moves is not None else list(s.legal_actions(node.to))


class Node:
    """A position of a perfect-information game in the tree. Its children's statistics live
    here, in lists parallel to `moves[:len(cn)]` (tried moves first, untried after), so a leaf
    costs no object of its own. `cw` is the reward of this node's player to move (`to`)."""

    __slots__ = ("moves", "m", "cn", "cw", "kids", "to", "n", "v", "cm")

    def __init__(self) -> None:
        self.moves: list | None = None  # legal moves, computed on the first visit (a lazily
        # grown wide node keeps only the tried ones: see `wide`; a wide node expanded whole
        # below the root keeps none, see `_moves`)
        self.m = 0  # the number of legal moves
        self.cn = array("i")  # visits per tried move
        self.cw = array("d")  # total reward of `to` per tried move (8 bytes each, no objects)
        self.kids: dict[int, Node] = {}  # a tried move's node, once the search passed through
        self.to = UNSEEN  # the player to move here; -1 when the game is over here
        self.n = 0  # visits of this node, its children's virtual visits included
        self.v = 0  # of those, the virtual visits (one per child given its evaluation)
        # with `im`, at a node expanded whole with at most `wide` moves: the minimax value of
        # `to` per move
        self.cm: array | None = None


class INode:
    """A node of the information-set search: children by action (joint actions at a
    simultaneous node), availability counts, decoupled per-player statistics."""

    __slots__ = ("children", "n", "w", "avail", "stats", "expanded")

    def __init__(self) -> None:
        self.expanded = False
        self.children: dict = {}
        self.n = 0  # visits
        self.w = 0.0  # total reward of the player who chose the move into this node
        self.avail = 0  # iterations in which the move into this node was legal
        self.stats: dict | None = None  # decoupled per-player statistics at simultaneous nodes


def _ucb_pick(node: INode, legal: list, c: float, rng: Rng):
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


def _decided_counts(counts, left: float) -> bool:
    """True when no other root action can reach the leader's visits in `left` more
    iterations (a tie would be settled by the mean reward, so the lead must be strict)."""
    first = second = 0
    k = 0
    for n in counts:
        k += 1
        if n > first:
            first, second = n, first
        elif n > second:
            second = n
    return k >= 2 and first - second > left


def _leaf_value(s: State) -> list[float]:
    """Rewards in [0, 1] per player: the result if the game is over, else one pass of the
    game's evaluation for all players."""
    out = s.outcome
    if out is not None:
        return list(out.returns)
    return [0.5 if v is None else 0.5 * (float(v) + 1.0) for v in s.game.evaluate_all(s)]


def _exact(state: State) -> bool:
    """Whether a position is fully known and moves lead to one position each: then the plain
    game tree applies and no determinization is needed."""
    game = state.game
    return bool(game.perfect_information and not game.has_chance and not game.simultaneous)


class MCTSAgent(Agent):
    name = "mcts"

    def __init__(self, seed: int = 0, iters: int = 1000, time: float = 0.0, c: float = 0.03,
                 depth: int = 0, prior: int = 1000, cpu: float = 0.0, early: int = 1,
                 reuse: int = 1, wide: int = 100, im: float = 1.0):
        if time > 0 and cpu > 0:
            raise ValueError("mcts takes time= or cpu=, not both")
        if iters < 1 and time <= 0 and cpu <= 0:
            raise ValueError("mcts needs iters >= 1, time > 0 or cpu > 0")
        if prior < 0 or depth < 0 or wide < 1:
            raise ValueError("mcts needs prior >= 0, depth >= 0 and wide >= 1")
        if not 0.0 <= im <= 1.0:
            raise ValueError("mcts needs 0 <= im <= 1")
        self.rng = Rng(seed)
        # Tie-breaking jitter only: C-speed, seeded from the agent's seed (deterministic).
        self._jitter = _random.Random(seed).random
        self.iters = int(iters)
        self.budget = float(cpu or time)
        self.clock = _time.process_time if cpu > 0 else _time.perf_counter
        self.c = float(c)
        self.depth = int(depth)
        self.prior = int(prior)
        self.early = bool(early)
        self.reuse = bool(reuse)
        self.wide = int(wide)
        self.im = float(im)
        self._im = 0.0  # `im` in this search (two-player games only)
        self.last_iterations = 0
        self.last_reused = 0  # visits the root already had from the kept tree
        # The last search, for `report`: ("exact", root, player, best) or ("info", ...).
        self._last: tuple | None = None
        # The kept tree of the exact search: (setup, history at its root, root node).
        self._kept: tuple | None = None
        # Move scores by position (`State.search_key`, player) within one exact search.
        self._scored: dict = {}

    # -- budget --------------------------------------------------------------------------------
    def _run(self, step, decided) -> int:
        """Call `step()` until the budget is spent or `decided(left)` says the choice is
        made; return the number of iterations."""
        clock = self.clock
        start = clock()
        count = 0
        budget = self.budget
        early = self.early
        while True:
            step()
            count += 1
            if budget > 0:
                now = clock()
                if now - start >= budget:
                    break
                if early and count % 8 == 0:
                    left = count * (budget - (now - start)) / max(now - start, 1e-9)
                    if decided(left):
                        break
            elif count >= self.iters or (early and decided(self.iters - count)):
                break
        return count

    # -- the search ----------------------------------------------------------------------------
    def select(self, state: State, player: int) -> Action:
        legal = state.legal_actions(player)
        if len(legal) == 1:
            self.last_iterations = 0
            self._last = None
            return legal[0]
        if _exact(state) and state.current_players() == (player,):
            return self._select_exact(state, player)
        return self._select_info(state, player, legal)

    def report(self, max_len: int = 8) -> tuple[float | None, list[Action]]:
        """After `select`: the chosen action's mean reward for the player (a share in [0, 1])
        and the principal variation, the most visited move at each node from the root (the
        chosen action first; it stops at a simultaneous node or a node not searched twice).
        Read from the tree the search left, so it costs the search nothing."""
        if self._last is None:
            return None, []
        if self._last[0] == "exact":
            return self._report_exact(max_len)
        return self._report_info(max_len)

    def ranked(self, k: int = 3) -> list[tuple[Action, float, int]]:
        """After `select`: the `k` root moves the search liked best, in the order it chooses by
        (visits, then mean reward), each with its mean reward for the player and its visits.
        The mean reward is a probability: the average over the move's simulations of the
        player's result, 1 a win, 0 a loss, a draw or a cut-off position counted as the
        game's evaluation mapped to [0, 1] (`_leaf_value`); it is clamped to [0, 1] against
        the tie-breaking jitter. [] when the last decision was not searched (one legal move)."""
        if self._last is None:
            return []
        if self._last[0] == "exact":
            _kind, root, _player, _best, state = self._last
            moves = _moves(root, state)
            stats = [(moves[i], root.cw[i] / root.cn[i], root.cn[i])
                     for i in range(len(root.cn)) if root.cn[i]]
        else:
            _kind, root, player, _best = self._last
            stats = [(a, w, n) for a, (n, w) in _root_stats(root, player).items()]
        return top_ranked(stats, k)

    # -- perfect information -------------------------------------------------------------------
    def _reused_root(self, state: State) -> Node | None:
        """The kept tree's node for `state`, when `state` is the kept root plus moves the
        tree holds; None otherwise (another game, an undo, a move never searched)."""
        if not self.reuse or self._kept is None:
            return None
        setup, hist, node, at = self._kept
        if state.setup is not setup and state.setup != setup:
            return None
        now = state.history()
        if len(now) < len(hist) or now[:len(hist)] != hist:
            return None
        s = at.clone() if len(now) > len(hist) else at
        for p, action in now[len(hist):]:
            if node is None or node.to != p:
                return None
            try:
                i = _moves(node, s).index(action)
            except ValueError:
                return None
            s.apply(action, p)
            node = node.kids.get(i)
        return node

    def _select_exact(self, state: State, player: int) -> Action:
        root = self._reused_root(state)
        # The last search's tree, but for `root`, can go now: held until the end of this
        # search it doubled the peak memory of a search after one in another game.
        self._kept = self._last = None
        if root is None or root.to == UNSEEN:
            root = Node()
            self.last_reused = 0
        else:
            self.last_reused = root.n
        if root.to == UNSEEN or root.moves is None or len(root.moves) < root.m:
            # a new root, a kept wide node that held only its tried moves, or one that held
            # none: the whole list, tried moves first (their statistics are by position)
            tried = _moves(root, state)[:len(root.cn)] if root.to != UNSEEN else []
            seen = set(tried)
            root.to = player
            root.moves = tried + [a for a in state.legal_actions(player) if a not in seen]
            root.m = len(root.moves)
        self._scored = {}  # this search's move scores by position (see `_expand`)
        # the minimax values are one number per child: two players, zero-sum shares
        self._im = self.im if state.game.max_players == 2 else 0.0
        if self.prior > 0 and len(root.cn) < len(root.moves):
            s = state.clone()
            self._expand(s, root, player, 0)
        rng = self.rng
        c = self.c
        cn = root.cn
        count = self._run(lambda: self._iterate_exact(state, root, rng, c),
                          lambda left: _decided_counts(cn, left))
        self.last_iterations = count
        self._scored = {}
        moves = root.moves
        best_i = max(range(len(cn)), key=lambda i: (cn[i], root.cw[i] / cn[i]))
        best = moves[best_i]
        at = state.clone()  # the caller may move on: report and reuse read this copy
        self._last = ("exact", root, player, best_i, at)
        self._kept = (state.setup, state.history(), root, at) if self.reuse else None
        return best

    def _expand(self, s: State, node: Node, p: int, _depth: int) -> list[float]:
        """Progressive-bias start: every untried move of `node` gets one virtual visit worth
        the game's evaluation of the position it leads to. Equal evaluations are common (every
        quiet move of a material count); a jitter far below any real difference breaks those
        ties at random, as greedy does, instead of always in favour of the first legal action
        (which in some games is to pass). Returns the rewards of the best move for `p` (what
        the search would find by descending to it now), to back up the path."""
        moves = node.moves
        assert moves is not None
        cn, cw = node.cn, node.cw
        jitter = self._jitter
        start = len(cn)
        # The search's hot spot (every child of every node expanded whole): the game scores
        # the moves (`Game.score_moves`: clone, apply, evaluate, or a game's faster path
        # that gives the same values); the best child's rewards for all players are read
        # once at the end, from one more clone.
        # A transposition (the same position by other moves: `State.search_key`) reuses the
        # scores computed the first time: the same values, so the same search, for less.
        key = s.search_key() if start == 0 else None
        scores = self._scored.get((key, p)) if key is not None else None
        if scores is None:
            scores = s.game.score_moves(s, p, moves[start:])
            if key is not None:
                self._scored[(key, p)] = array("d", scores)
        values = [v + TIE_JITTER * jitter() for v in scores]
        cw.extend(values)
        if self._im and node.m <= self.wide:
            if node.cm is None:
                node.cm = array("d")
            node.cm.extend(values)
        cn.extend([1] * len(values))
        node.n += len(values)
        node.v += len(values)
        best = s.clone()
        best.apply(moves[start + values.index(max(values))], p)  # the first best, as greedy
        return _leaf_value(best)

    def _iterate_exact(self, root_state: State, root: Node, rng: Rng, c: float) -> None:
        s = root_state.clone()
        node = root
        path: list[tuple[Node, int]] = []  # (node, index of the move taken there)
        ply = 0
        prior = self.prior
        wide = self.wide
        sqrt, log = math.sqrt, math.log
        while True:
            # None only at a node expanded whole (k == m below), where it is not read
            moves: list = node.moves  # type: ignore[assignment]
            fresh = None  # the legal moves, when computed in this visit
            if node.to == UNSEEN:
                players = s.current_players()
                if not players:
                    node.moves = []
                    node.to = -1
                    rewards = _leaf_value(s)
                    break
                node.to = players[0]
                fresh = list(s.legal_actions(players[0]))
                node.m = len(fresh)
                # A wide node that will grow lazily keeps only its tried moves: a whole list
                # of FFF turns is some 60 kB, and there are thousands of such nodes.
                node.moves = moves = [] if len(fresh) > wide and ply >= 2 else fresh
            p = node.to
            m = node.m
            if p < 0 or not m:
                rewards = _leaf_value(s)
                break
            cn = node.cn
            k = len(cn)
            if k < m:
                if len(moves) < m:  # lazy and wide: an untried move of the legal ones
                    legal = fresh if fresh is not None else s.legal_actions(p)
                    tried = set(moves)
                    untried = [a for a in legal if a not in tried]
                    action = untried[rng.below(len(untried))]
                    moves.append(action)
                elif ply < prior and (m <= wide or ply < 2):
                    rewards = self._expand(s, node, p, ply)
                    if m > wide and ply > 0:
                        node.moves = None  # see `_moves`
                    break
                else:
                    j = k + rng.below(m - k)
                    moves[j], moves[k] = moves[k], moves[j]
                    action = moves[k]
                s.apply(action, p)
                cn.append(0)
                node.cw.append(0.0)
                path.append((node, k))
                rewards = self._rollout(s, rng)
                break
            # The exploration term counts the iterations that passed through the node, not
            # its children's virtual visits: counted with them (some 40 at a FieldShift node,
            # 800 at an FFF root) it explored twice as much early on, and lost to the old
            # agent at equal iterations (0.24 of 40 FieldShift games at 60 iterations a move).
            # Counted as the old agent and the information-set search count it (a child's
            # availability: 1 when made, +1 per pass, the expanding pass included): the passes
            # done, this one, the expanding one, plus one. A lazily grown node has no virtual
            # visits and keeps its count.
            v = node.v
            explore = c * sqrt(log(node.n - v + 3) if v else log(node.n if node.n > 1 else 2))
            # UCB1 of every child, mean plus exploration, `cw[i] / n + explore / sqrt(n)`, in
            # C-speed maps (the same floats as the loop it replaced); the first best wins.
            # With `im` the mean gives way to the child's minimax value by that share.
            mean = map(truediv, node.cw, cn)
            if self._im and node.cm is not None:
                im = self._im
                mean = map(add, map(mul, mean, repeat(1.0 - im, k)),
                           map(mul, node.cm, repeat(im, k)))
            scores = list(map(add, mean, map(truediv, repeat(explore, k), map(sqrt, cn))))
            best_i = scores.index(max(scores))
            path.append((node, best_i))
            if moves is None:
                # a pass through a node whose list was not kept (see `_moves`); one the search
                # keeps coming back to is one of the few worth its list
                moves = list(s.legal_actions(p))
                if node.n - m >= KEEP_AFTER:
                    node.moves = moves
            s.apply(moves[best_i], p)
            child = node.kids.get(best_i)
            if child is None:
                child = node.kids[best_i] = Node()
            node = child
            ply += 1
        if self._im:
            # implicit minimax backup: from the new leaf up, a child whose moves are all
            # scored is worth the best of them to its mover (the other's share: 1 minus it)
            for nd, i in reversed(path):
                child = nd.kids.get(i)
                cm = nd.cm
                if cm is not None and child is not None and child.cm is not None and child.m \
                        and len(child.cm) == child.m:
                    best = max(child.cm)
                    cm[i] = best if child.to == nd.to else 1.0 - best
        for nd, i in path:
            nd.n += 1
            nd.cn[i] += 1
            nd.cw[i] += rewards[nd.to]

    def _report_exact(self, max_len: int) -> tuple[float | None, list[Action]]:
        _kind, root, _player, best_i, state = self._last  # type: ignore[misc]
        value = root.cw[best_i] / root.cn[best_i]
        line: list[Action] = [_moves(root, state)[best_i]]
        node = root.kids.get(best_i)
        s = state.clone()
        s.apply(line[0], root.to)
        while node is not None and len(line) < max_len and node.cn:
            cn, cw = node.cn, node.cw
            i = max(range(len(cn)), key=lambda j: (cn[j], cw[j]))
            if cn[i] < 2:
                break
            action = _moves(node, s)[i]
            line.append(action)
            s.apply(action, node.to)
            node = node.kids.get(i)
        return value, line

    # -- hidden information, chance, simultaneous turns ----------------------------------------
    def _select_info(self, state: State, player: int, legal: list) -> Action:
        root = INode()
        rng = self.rng
        self.last_reused = 0
        count = self._run(lambda: self._iterate_info(state, player, root, rng),
                          lambda left: _decided_counts(
                              (n for n, _m in _root_stats(root, player).values()), left))
        self.last_iterations = count
        stats = _root_stats(root, player)
        best = max(legal, key=lambda a: stats.get(a, (-1, 0.0)))
        self._last = ("info", root, player, best)
        return best

    def _report_info(self, max_len: int) -> tuple[float | None, list[Action]]:
        _kind, root, player, best = self._last  # type: ignore[misc]
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

    def _iterate_info(self, root_state: State, seat: int, root: INode, rng: Rng) -> None:
        s = root_state.determinize(seat, rng.next64())
        node = root
        path: list[tuple[INode, int]] = []  # (node, player who chose the move into it)
        joint_path: list[tuple[INode, list[tuple[int, Action]]]] = []
        c = self.c
        expanded = False
        ply = 0
        while not expanded:
            players = s.current_players()
            if not players:
                break
            if len(players) == 1:
                p = players[0]
                legal = s.legal_actions(p)
                fresh = ply < self.prior and not node.expanded
                if fresh:
                    self._expand_info(s, p, node, legal, rng)
                    expanded = True
                action, child = _ucb_pick(node, legal, c, rng)
                if child is None:
                    child = node.children[action] = INode()
                    child.avail = 1
                    expanded = True
                s.apply(action, p)
                # A child picked just after the expansion already holds this very evaluation
                # as its virtual visit: with no rollout, crediting it again would count one
                # evaluation twice and make a move nobody has answered look searched.
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
                    child = node.children[key] = INode()
                    expanded = True
                for p, a in picks:
                    if s.is_over:
                        break
                    if p in s.current_players():
                        s.apply(a, p)
                joint_path.append((node, picks))
                path.append((child, -1))
                node = child
            ply += 1
        rewards = self._rollout(s, rng)
        for nd, p in path:
            nd.n += 1
            if p >= 0:
                nd.w += rewards[p]
        for nd, picks in joint_path:  # simultaneous nodes: their `stats` are set
            for p, a in picks:
                entry = nd.stats[p].get(a)  # type: ignore[index]
                nd.stats[p][a] = (  # type: ignore[index]
                    (1, rewards[p]) if entry is None else (entry[0] + 1, entry[1] + rewards[p]))

    def _expand_info(self, s: State, p: int, node: INode, legal: list, rng: Rng) -> None:
        """`_expand` for the information-set tree: one virtual visit per child, worth the
        evaluation of the move in this determinization."""
        node.expanded = True
        for a in legal:
            child_state = s.clone()
            child_state.apply(a, p)
            ch = INode()
            ch.n = 1
            ch.avail = 1
            ch.w = _leaf_value(child_state)[p] + TIE_JITTER * rng.random()
            node.children[a] = ch

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
        return _leaf_value(s)


def top_ranked(stats: list[tuple[Action, float, int]], k: int) -> list[tuple[Action, float, int]]:
    """The hint's best `k` of (action, mean result, visits): most visited first (then the
    better mean), each mean clamped to [0, 1] against the tie-breaking jitter."""
    stats = sorted(stats, key=lambda t: (t[2], t[1]), reverse=True)
    return [(a, min(1.0, max(0.0, v)), n) for a, v, n in stats[:k]]


def _root_stats(root: INode, player: int) -> dict:
    """(visits, mean reward) per root action: the children's, or at a simultaneous root this
    player's own decoupled statistics."""
    if root.stats is not None:
        return {a: (n, w / n) for a, (n, w) in root.stats.get(player, {}).items()}
    return {a: (ch.n, ch.w / ch.n) for a, ch in root.children.items()}


register("mcts", MCTSAgent)
