"""`search`: the strongest search for every game, suited to what the game's players can know.

- Perfect information without chance (FieldShift, FFF): the exact game-tree search of `mcts`
  (the same code: `MCTSAgent._select_exact`, with its tree reuse and implicit minimax).
- Hidden information with sequential turns (Hills): `mcts`'s information-set search, the same
  code (none of the two additions below applies there, and this search measured no better).
- Chance with public positions (Shift) and simultaneous orders (CTF 2187): information-set
  MCTS (Cowling, Powley and Whitehouse 2012), every iteration
  on a fresh `state.determinize(seat, seed)`, built from the seat's view only, all of them
  sharing one tree, a move's exploration term counting the iterations in which it was legal,
  with two things `mcts` lacks:

  *Chance nodes.* In a game whose positions are all public and whose chance comes from the
  state's seeded source (`rng`, the slot `State.determinize` reseeds), a move's chance is
  listed: the move is played on copies whose source answers every draw from a script, one copy
  per sequence of outcomes (`ScriptedRng`, a depth-first walk over the draws: a coin has two
  outcomes, `below(n)` n), each with its probability, the product of 1/n over its draws. A move
  with at most `chance` (64) outcomes becomes a chance node whose outcomes each lead to a node
  of their own; its value is the probability-weighted mean of theirs, and the search walks its
  outcomes in proportion to their probabilities (always the one furthest behind its share), so
  its estimate carries no sampling noise once every outcome has been seen. A move with more
  outcomes, or whose chance cannot be listed (a 64-bit or real draw), is sampled instead.
  Where every position is public the search also backs up the expectimax value of the tree it
  has grown (implicit minimax backups, Lanctot et al. 2014, with chance nodes averaged by
  probability), and selection reads `(1 - im) x mean + im x expectimax`.

  *Simultaneous orders* (decoupled UCT, as in MO-ISMCTS and the simultaneous-move MCTS of
  Lanctot et al. 2013). At a node where several players owe orders each chooses from its own
  statistics; the joint choice leads to the child. The determinization's orders of the other
  players for this turn are withdrawn (`State.open_orders`), so the search decides them too,
  each player maximising its own reward, instead of taking the sample the determinization drew.
  The orders weighed are the game's `State.search_actions` (its legal list, and in CTF 2187
  plans of the search's own beyond the numbered menu). The order space is narrowed by the
  game's own evaluation: within `sprior` turns of the root
  each player's candidate orders are scored by playing the turn out with the other players on
  their first legal orders (a game lists its default first: CTF 2187's standing orders) and
  reading `Game.evaluate_all`; deeper nodes order them by the scores seen so far. Only the best
  `ceil(pw x sqrt(n + 1))` candidates of a node visited n times are considered (progressive
  widening), each starting with one virtual visit worth its score.

Common: a node is expanded whole when first reached, each move given one virtual visit worth
the evaluation of where it leads (the expectation over its listed outcomes), and the iteration
backs up the best move's value, so the search starts where greedy ends; leaves are valued by the
game's evaluation (a cut-off: `Game.evaluate_all`, shares in [0, 1]) after at most `depth` random
actions (default 0). Budgets (`iters`, `time`, `cpu`), early stopping and `report` are those of
`mcts`. With `iters` and a seed the choice is a function of the seat's view and the seed.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from boardct.agents.base import register
from boardct.agents.mcts import (
    TIE_JITTER,
    MCTSAgent,
    _decided_counts,
    _exact,
    _leaf_value,
    top_ranked,
)
from boardct.core.game import Action, State
from boardct.core.rng import Rng

# The most applies one listing of a move's chance may take before the move is sampled instead.
DEFAULT_CHANCE = 64
# Mixed into the seed for the coins of `eps` (any constant: it keeps them apart from the search's).
EPS_STREAM = 0x6570735F636F696E
# Steps of other players' default orders in a simultaneous prior before it gives up (a game
# whose turn never completes on them).
SIM_STEPS = 64


class ScriptedRng(Rng):
    """A random source that answers draws from `script` while it lasts, then (with `fill`)
    outcome 0, else from its own seeded stream; every draw is noted in `log` as (number of
    outcomes, outcome), 0 outcomes for a draw that cannot be listed (`next64`, `random`)."""

    __slots__ = ("script", "pos", "fill", "log")

    def __init__(self, script: tuple[int, ...] = (), seed: int = 0, fill: bool = False):
        super().__init__(seed)
        self.script = script
        self.pos = 0
        self.fill = fill
        self.log: list[tuple[int, int]] = []

    def clone(self) -> ScriptedRng:
        r = ScriptedRng(self.script, 0, self.fill)
        r.s = self.s
        r.pos = self.pos
        r.log = self.log  # one move's draws, wherever the game copies its source
        return r

    def _take(self, n: int) -> int:
        pos = self.pos
        if pos < len(self.script):
            k = self.script[pos]
            self.pos = pos + 1
        elif self.fill:
            k = 0
        else:
            k = Rng.below(self, n)
        self.log.append((n, k))
        return k

    def below(self, n: int) -> int:
        if n <= 0:
            raise ValueError("below() needs n > 0")
        return self._take(n)

    def randint(self, lo: int, hi: int) -> int:
        if hi < lo:
            raise ValueError("below() needs n > 0")
        return lo + self._take(hi - lo + 1)

    def coin(self) -> bool:
        return self._take(2) == 1

    def shuffle(self, seq) -> None:
        for i in range(len(seq) - 1, 0, -1):
            j = self._take(i + 1)
            seq[i], seq[j] = seq[j], seq[i]

    def next64(self) -> int:
        self.log.append((0, 0))
        return Rng.next64(self)

    def random(self) -> float:
        self.log.append((0, 0))
        return (Rng.next64(self) >> 11) * (1.0 / (1 << 53))


def _has_source(state: State) -> bool:
    return isinstance(getattr(state, "rng", None), Rng)


def chance_outcomes(state: State, player: int, action: Action, cap: int = DEFAULT_CHANCE
                    ) -> list[tuple[tuple[int, ...], float, State]] | None:
    """Every outcome of the chance `action` draws in `state` (`player` to move): (the
    outcomes of its draws in order, the probability, the state it leads to), the
    probabilities summing to 1. One entry with key () and probability 1 for a move that
    draws nothing. None when the state keeps no seeded source in `rng`, a draw cannot be
    listed, or there are more than `cap` outcomes."""
    if not _has_source(state):
        return None
    seed = state.rng.s  # type: ignore[attr-defined]
    out: list[tuple[tuple[int, ...], float, State]] = []
    stack: list[tuple[int, ...]] = [()]
    while stack:
        prefix = stack.pop()
        child = state.clone()
        rng = child.rng = ScriptedRng(prefix, seed, fill=True)  # type: ignore[attr-defined]
        child.apply(action, player)
        log = rng.log
        prob = 1.0
        for n, _k in log:
            if n == 0:
                return None
            prob /= n
        key = tuple(k for _n, k in log)
        out.append((key, prob, child))
        for i in range(len(log) - 1, len(prefix) - 1, -1):
            for k in range(log[i][0] - 1, 0, -1):
                stack.append(key[:i] + (k,))
        if len(out) + len(stack) > cap:
            return None
    return out


class Outcome_:
    """One listed outcome of a chance move: its probability, real visits, node, and the
    value vector it was first given (its node's expectimax value once it has one)."""

    __slots__ = ("prob", "n", "node", "val")

    def __init__(self, prob: float, val: list[float]):
        self.prob = prob
        self.n = 0
        self.node: SNode | None = None
        self.val = val


class Edge:
    """A move at a sequential node: visits, total reward of its mover, availability, the
    expectimax value vector, and either listed outcomes (`outs`) or one sampled child."""

    __slots__ = ("n", "w", "avail", "mm", "outs", "child")

    def __init__(self, value: list[float], mover: int, jitter: float):
        self.n = 1  # one virtual visit worth the move's evaluation
        self.w = value[mover] + jitter
        self.avail = 1
        self.mm = value
        self.outs: dict[tuple[int, ...], Outcome_] | None = None
        self.child: SNode | None = None


class SNode:
    """A node of the search. Sequential: `edges` by action, `to` the mover, `val` the
    expectimax value vector (the best edge's, for its mover). Simultaneous: per-player
    statistics `stats[p][a] = [visits, total reward]`, each player's candidates in prior
    order (`order`), children by joint choice (`kids`)."""

    __slots__ = ("to", "edges", "n", "val", "stats", "order", "kids")

    def __init__(self) -> None:
        self.to = -1
        self.edges: dict | None = None
        self.n = 0
        self.val: list[float] | None = None
        self.stats: dict | None = None
        self.order: dict | None = None
        self.kids: dict | None = None


class SearchAgent(MCTSAgent):
    name = "search"

    def __init__(self, seed: int = 0, iters: int = 1000, time: float = 0.0, c: float = 0.03,
                 depth: int = 0, prior: int = 1000, cpu: float = 0.0, early: int = 1,
                 reuse: int = 1, wide: int = 100, im: float = 1.0,
                 chance: int = DEFAULT_CHANCE, pw: float = 1.5, sprior: int = 2,
                 open: int = 1, eps: float = 0.0):
        super().__init__(seed=seed, iters=iters, time=time, c=c, depth=depth, prior=prior,
                         cpu=cpu, early=early, reuse=reuse, wide=wide, im=im)
        if chance < 0 or pw <= 0 or sprior < 0:
            raise ValueError("search needs chance >= 0, pw > 0 and sprior >= 0")
        if not 0.0 <= eps <= 1.0:
            raise ValueError("search needs 0 <= eps <= 1")
        # the share of decisions played at random instead of searched: a strength dial for
        # the ladder where the search itself gains too little from time to make its steps
        # (CTF 2187, agents/levels.py), as a chess engine's skill levels play weaker moves on
        # purpose. Its coins come from a stream of their own, so the search's own choices
        # from a seed are those of `eps=0`.
        self.eps = float(eps)
        self._eps_rng = Rng(seed ^ EPS_STREAM)
        self.chance = int(chance)
        self.pw = float(pw)
        self.sprior = int(sprior)
        self.open = bool(open)  # withdraw the others' sampled orders (`State.open_orders`)
        self._gp: dict = {}  # (player, action) -> [count, total score] of simultaneous priors

    def select(self, state: State, player: int) -> Action:
        legal = state.legal_actions(player)
        if len(legal) == 1 or (self.eps and self._eps_rng.random() < self.eps):
            self.last_iterations = 0
            self._last = None
            return legal[0] if len(legal) == 1 else self._eps_rng.choice(legal)
        if _exact(state) and state.current_players() == (player,):
            return self._select_exact(state, player)
        game = state.game
        if game.simultaneous or (game.perfect_information and game.has_chance and self.chance):
            return self._select_search(state, player, state.search_actions(player))
        # hidden information and sequential turns (Hills): nothing above applies, and this
        # search measured no better than `mcts`'s there, so it is `mcts`'s search
        return self._select_info(state, player, legal)

    # -- the search ----------------------------------------------------------------------------
    def _select_search(self, state: State, player: int, legal: list) -> Action:
        game = state.game
        self._public = bool(game.perfect_information)
        self._list = self._public and game.has_chance and self.chance > 0
        self._sim_im = self.im if self._public and not game.simultaneous else 0.0
        self._gp = {}
        root = SNode()
        rng = self.rng
        self.last_reused = 0
        count = self._run(lambda: self._iterate(state, player, root, rng),
                          lambda left: _decided_counts(
                              (n for n, _m in self._root_stats(root, player).values()), left))
        self.last_iterations = count
        stats = self._root_stats(root, player)
        best = max(legal, key=lambda a: stats.get(a, (-1, 0.0)))
        self._last = ("search", root, player, best)
        return best

    @staticmethod
    def _root_stats(root: SNode, player: int) -> dict:
        """(visits, mean reward) per root action of `player`."""
        if root.stats is not None:
            return {a: (n, w / n) for a, (n, w) in root.stats.get(player, {}).items()}
        if root.edges is None:
            return {}
        return {a: (e.n, e.w / e.n) for a, e in root.edges.items()}

    def ranked(self, k: int = 3) -> list[tuple[Action, float, int]]:
        """The hint's best `k` moves of the last search, as `MCTSAgent.ranked` gives them:
        (action, mean result for the mover clamped to [0, 1], visits), most visited first."""
        if self._last is None or self._last[0] != "search":
            return super().ranked(k)
        _kind, root, player, _best = self._last
        return top_ranked([(a, w, n) for a, (n, w) in self._root_stats(root, player).items()], k)

    def report(self, max_len: int = 8) -> tuple[float | None, list[Action]]:
        if self._last is None or self._last[0] != "search":
            return super().report(max_len)
        _kind, root, player, best = self._last
        stats = self._root_stats(root, player)
        value = stats[best][1] if best in stats else None
        line: list[Action] = [best]
        node = None
        if root.edges is not None and best in root.edges:
            node = _likeliest(root.edges[best])
        while node is not None and len(line) < max_len and node.edges:
            action, edge = max(node.edges.items(), key=lambda kv: (kv[1].n, kv[1].w))
            if edge.n < 2:
                break
            line.append(action)
            node = _likeliest(edge)
        return value, line

    def _iterate(self, root_state: State, seat: int, root: SNode, rng: Rng) -> None:
        s = root_state.determinize(seat, rng.next64())
        if self.open and s.game.simultaneous:
            s.open_orders(seat)
        node = root
        path: list[tuple[SNode, Edge, Outcome_ | None]] = []
        joint: list[tuple[SNode, list[tuple[int, Action]]]] = []
        c = self.c
        ply = 0
        rewards: list[float] | None = None
        sqrt, log = math.sqrt, math.log
        while True:
            players = s.current_players()
            if not players:
                break
            if len(players) == 1:
                p = players[0]
                legal = s.search_actions(p)
                if node.edges is None:
                    rewards = self._expand_node(s, p, node, legal)
                    break
                edges = node.edges
                node.to = p
                best_e, best_a, best_score = None, None, -1e9
                im = self._sim_im
                for a in legal:
                    e = edges.get(a)
                    if e is None:  # legal in this determinization only: score it now
                        e = edges[a] = self._edge(s, p, a, rng)
                    else:
                        e.avail += 1
                    mean = e.w / e.n
                    if im:
                        mean = (1.0 - im) * mean + im * e.mm[p]
                    score = mean + c * sqrt(log(e.avail + 1) / e.n)
                    if score > best_score:
                        best_e, best_a, best_score = e, a, score
                assert best_e is not None
                out: Outcome_ | None = None
                if best_e.outs is not None:
                    out, key = _behind(best_e.outs)
                    s.rng = ScriptedRng(key, s.rng.s)  # type: ignore[attr-defined]
                    s.apply(best_a, p)
                    path.append((node, best_e, out))
                    child = out.node
                    if child is None:
                        child = out.node = SNode()
                else:
                    s.apply(best_a, p)
                    path.append((node, best_e, None))
                    child = best_e.child
                    if child is None:
                        child = best_e.child = SNode()
                node = child
            else:
                grew = node.stats is None
                if grew:
                    self._init_sim(s, players, node, ply, rng)
                picks = self._pick_sim(s, players, node, c)
                for p, a in picks:
                    if s.is_over:
                        break
                    if p in s.current_players():
                        s.apply(a, p)
                joint.append((node, picks))
                joint_key = tuple(picks)
                kids = node.kids
                assert kids is not None
                child = kids.get(joint_key)
                if child is None:
                    child = kids[joint_key] = SNode()
                    grew = True
                node.n += 1
                node = child
                if grew:
                    break
            ply += 1
        if rewards is None:
            rewards = self._rollout(s, rng)
        for nd, e, o in path:
            nd.n += 1
            e.n += 1
            e.w += rewards[nd.to]
            if o is not None:
                o.n += 1
        if self._sim_im:
            for nd, e, o in reversed(path):
                if o is not None:
                    if o.node is not None and o.node.val is not None:
                        o.val = o.node.val
                    outs = e.outs
                    assert outs is not None
                    e.mm = _mix([(x.prob, x.val) for x in outs.values()])
                elif e.child is not None and e.child.val is not None:
                    e.mm = e.child.val
                nd_edges = nd.edges
                assert nd_edges is not None
                to = nd.to
                nd.val = max(nd_edges.values(), key=lambda x: x.mm[to]).mm
        for nd, picks in joint:
            stats = nd.stats
            assert stats is not None
            for p, a in picks:
                entry = stats[p].get(a)
                if entry is None:
                    stats[p][a] = [1, rewards[p]]
                else:
                    entry[0] += 1
                    entry[1] += rewards[p]

    # -- sequential nodes ----------------------------------------------------------------------
    def _edge(self, s: State, p: int, a: Action, rng: Rng) -> Edge:
        """A move's edge, valued by the evaluation of where it leads: the probability-weighted
        mean over its listed outcomes, or one sampled outcome."""
        outs = chance_outcomes(s, p, a, self.chance) if self._list else None
        jitter = TIE_JITTER * rng.random()
        if outs is None:
            child = s.clone()
            child.apply(a, p)
            return Edge(_leaf_value(child), p, jitter)
        table = {key: Outcome_(prob, _leaf_value(child)) for key, prob, child in outs}
        edge = Edge(_mix([(o.prob, o.val) for o in table.values()]), p, jitter)
        edge.outs = table
        return edge

    def _expand_node(self, s: State, p: int, node: SNode, legal: Sequence[Action]) -> list[float]:
        """Every move of `node` gets its edge (one virtual visit worth its value); returns
        the best move's value vector, to back up the path (what descending to it would find)."""
        rng = self.rng
        node.to = p
        node.edges = edges = {a: self._edge(s, p, a, rng) for a in legal}
        best = max(edges.values(), key=lambda e: e.w)
        node.val = best.mm
        return list(best.mm)

    # -- simultaneous nodes --------------------------------------------------------------------
    def _init_sim(self, s: State, players: Sequence[int], node: SNode, ply: int,
                  rng: Rng) -> None:
        node.stats = {}
        node.order = {}
        node.kids = {}
        gp = self._gp
        for p in players:
            legal = s.search_actions(p)
            if ply < self.sprior and len(legal) > 1:
                scores = self._sim_scores(s, p, legal)
                for a, v in zip(legal, scores, strict=True):
                    entry = gp.get((p, a))
                    if entry is None:
                        gp[(p, a)] = [1, v]
                    else:
                        entry[0] += 1
                        entry[1] += v
            else:
                scores = [_gp_value(gp, p, a) for a in legal]
            jit = [v + TIE_JITTER * rng.random() for v in scores]
            ranked = sorted(range(len(legal)), key=lambda i: -jit[i])
            node.order[p] = [legal[i] for i in ranked]
            node.stats[p] = {legal[i]: [1, jit[i]] for i in ranked}

    def _sim_scores(self, s: State, p: int, legal: Sequence[Action]) -> list[float]:
        """`p`'s value of each of its orders: the turn played out on a copy (the same chance
        for every order) with the others, and `p`'s other orders this turn, on their first
        legal orders (a game lists its default first), read by the game's evaluation."""
        out = []
        turn = s.turn_number()
        for a in legal:
            c = s.clone()
            c.apply(a, p)
            for _ in range(SIM_STEPS):
                cur = c.current_players()
                if not cur or c.turn_number() != turn:
                    break
                q = cur[0]
                c.apply(c.legal_actions(q)[0], q)
            out.append(_leaf_value(c)[p])
        return out

    def _pick_sim(self, s: State, players: Sequence[int], node: SNode, c: float
                  ) -> list[tuple[int, Action]]:
        """Each player's choice from its own statistics (decoupled UCT) among its best
        `ceil(pw x sqrt(n + 1))` candidates still legal (progressive widening)."""
        stats, order = node.stats, node.order
        assert stats is not None and order is not None
        width = math.ceil(self.pw * math.sqrt(node.n + 1))
        picks = []
        for p in players:
            st = stats.setdefault(p, {})
            ranked = order.setdefault(p, [])
            legal = s.search_actions(p)
            allowed = set(legal)
            for a in legal:  # legal in this determinization only: ranked last
                if a not in st:
                    st[a] = [1, _gp_value(self._gp, p, a)]
                    ranked.append(a)
            cands = [a for a in ranked if a in allowed][:width]
            total = sum(st[a][0] for a in cands)
            lt = math.log(max(total, 1))
            best, best_score = cands[0], -1e9
            for a in cands:
                n, w = st[a]
                score = w / n + c * math.sqrt(lt / n)
                if score > best_score:
                    best, best_score = a, score
            picks.append((p, best))
        return picks


def _gp_value(gp: dict, p: int, a: Action) -> float:
    entry = gp.get((p, a))
    return 0.5 if entry is None else entry[1] / entry[0]


def _mix(parts: list[tuple[float, list[float]]]) -> list[float]:
    """The probability-weighted mean of value vectors (renormalised over the parts given)."""
    total = sum(p for p, _v in parts)
    k = len(parts[0][1])
    return [sum(p * v[i] for p, v in parts) / total for i in range(k)]


def _behind(outs: dict[tuple[int, ...], Outcome_]) -> tuple[Outcome_, tuple[int, ...]]:
    """The listed outcome furthest behind its probability's share of the visits."""
    total = sum(o.n for o in outs.values()) + 1
    best_key = max(outs, key=lambda k: outs[k].prob * total - outs[k].n)
    return outs[best_key], best_key


def _likeliest(edge: Edge) -> SNode | None:
    if edge.outs is None:
        return edge.child
    return max(edge.outs.values(), key=lambda o: o.prob).node


register("search", SearchAgent)
