"""Fit CTF 2187's evaluation (games/ctf2187/evaluation.py) to self-play, and compare it with
the evaluation it replaced.

    PYTHONPATH=src python benchmarks/ctf_eval_fit.py --games 1200 --seed 10000

Plays `--games` games at the default options between agents drawn at random (per seat) from
`random`, `greedy` (twice as likely), `greedy:eps=0.3` and `search:iters=20`, notes at the start
of every turn after the first each team's rating lead and fighting-structure lead and the share
of turns left (the turn to play included), labels each with the game's result for that team (a
win 1, a draw 0.5), and fits P(win) = sigmoid(a x lead / sqrt(share) + b x edge x sqrt(share))
by maximum likelihood (Newton steps; no constant: the model is zero-sum). Prints a and b, the
log loss and the Brier score, and the Brier score of the old evaluation (`2 x lead + 0.5 x
edge` clamped to [-1, 1], read as (v + 1) / 2). Needs numpy (the `rl` extra). The agents play
with whatever evaluation the tree holds; only `greedy` and `search` read it, and the fit does
not depend on much more than where the games go.
"""

from __future__ import annotations

import argparse
import os
import random

import numpy as np

from boardct.agents.base import make
from boardct.core import moves, registry
from boardct.games.ctf2187.units import FUNCTIONAL

AGENTS = ["greedy", "greedy", "greedy:eps=0.3", "random", "search:iters=20"]


def leads(st) -> list[tuple[float, float, float]]:
    """(rating lead, structure lead, share of turns left) of each of two teams."""
    rating, strength = [], []
    for t in range(2):
        team = [b for b in st._bots if b.team == t]
        rating.append(sum(b.vp for b in team) / sum(b.design.tons for b in team))
        have = sum(sum(b.armour) + sum(b.internal) for b in team if b.status == FUNCTIONAL)
        total = sum(sum(b.design.armour) + sum(b.design.internal) for b in team)
        strength.append(have / total)
    share = max(1, st.turns - st.turn + 1) / st.turns
    return [(rating[t] - rating[1 - t], strength[t] - strength[1 - t], share) for t in range(2)]


def play(seed: int, pick: random.Random) -> list[tuple[float, float, float, float]]:
    game = registry.get("ctf2187")
    st = game.new(seed=seed, names=("a", "b"))
    agents = [make(pick.choice(AGENTS), seed=seed + 1), make(pick.choice(AGENTS), seed=seed + 2)]
    noted: list[list[tuple[float, float, float]]] = []
    seen = 1
    while st.current_players():
        if st.turn != seen:
            seen = st.turn
            noted.append(leads(st))
        for p in st.current_players():
            if not st.is_over and p in st.current_players():
                moves.act(st, p, agents[p].select(st, p), entry=False)
    team = {b.player: b.team for b in st._bots}
    result = [st.outcome.returns[next(p for p in team if team[p] == t)] for t in range(2)]
    return [(*row[t], result[t]) for row in noted for t in range(2)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=1200)
    ap.add_argument("--seed", type=int, default=10000)
    args = ap.parse_args()
    pick = random.Random(args.seed)
    c0 = os.times()
    rows = [r for i in range(args.games) for r in play(args.seed + i, pick)]
    data = np.array(rows)
    lead, edge, share, y = data.T
    x = np.stack([lead / np.sqrt(share), edge * np.sqrt(share)], axis=1)
    w = np.zeros(2)
    for _ in range(60):
        p = 1 / (1 + np.exp(-(x @ w)))
        hess = (x * (p * (1 - p))[:, None]).T @ x
        w -= np.linalg.solve(hess, x.T @ (p - y))
    p = 1 / (1 + np.exp(-(x @ w)))
    q = np.clip(p, 1e-12, 1 - 1e-12)
    loss = -np.mean(y * np.log(q) + (1 - y) * np.log(1 - q))
    old = (np.clip(2 * lead + 0.5 * edge, -1, 1) + 1) / 2
    c1 = os.times()
    cpu = c1.user + c1.system - c0.user - c0.system
    print(f"{len(y)} positions from {args.games} games ({cpu:.0f} CPU s)")
    print(f"fitted: EVAL_LEAD = {w[0]:.2f}, EVAL_STRENGTH = {w[1]:.2f}; log loss {loss:.4f}, "
          f"Brier {np.mean((p - y) ** 2):.4f}; old evaluation's Brier "
          f"{np.mean((old - y) ** 2):.4f}")


if __name__ == "__main__":
    main()
