"""Learn to beat the `random` agent at Shift in a few CPU minutes: a policy-gradient learner in
plain numpy on boardct's Gymnasium environment (docs/rl.md).

    pip install "boardct[rl,report]"
    python examples/learn_to_beat_random.py            # Shift, about 2 CPU minutes
    python examples/learn_to_beat_random.py --game fieldshift --option turn_limit=60

The policy is a small network (one hidden layer of tanh units) from the observation tensor to
one logit per action id; illegal ids are masked out of the softmax with `info["action_mask"]`.
It learns by REINFORCE with a running baseline: after each batch of episodes, every choice is
made more likely in proportion to how much better than usual its episode ended (the reward is
the learner's own return: 1 win, 0 loss; a draw, 0.5 in the environment, counts
`--draw-reward`, 0 by default, so that the learner plays to win rather than to stall). The
learner plays a seat drawn at random each episode, so it learns both. Every few batches the
current policy plays a fixed set of evaluation games against `random` (the same seeds each
time), and the win rate of those games is the learning curve, saved as a PNG with the
random-against-random rate for comparison.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

from boardct.adapters.gymnasium import BoardctEnv


class Policy:
    """obs -> tanh(W1 obs + b1) -> W2 h + b2 -> masked softmax, trained with Adam."""

    def __init__(self, n_in: int, n_out: int, hidden: int, rng: np.random.Generator):
        self.params = {
            "W1": rng.normal(0, 1 / np.sqrt(n_in), (hidden, n_in)),
            "b1": np.zeros(hidden),
            "W2": rng.normal(0, 0.01, (n_out, hidden)),
            "b2": np.zeros(n_out),
        }
        self.m = {k: np.zeros_like(v) for k, v in self.params.items()}
        self.v = {k: np.zeros_like(v) for k, v in self.params.items()}
        self.t = 0

    def probs(self, obs: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        h = np.tanh(self.params["W1"] @ obs + self.params["b1"])
        logits = self.params["W2"] @ h + self.params["b2"]
        logits = np.where(mask > 0, logits, -np.inf)
        logits -= logits.max()
        p = np.exp(logits)
        return p / p.sum(), h

    def update(self, batch: list[tuple[np.ndarray, np.ndarray, int, float]], lr: float) -> None:
        """One Adam step up the policy gradient: sum of advantage * grad log p(action)."""
        grads = {k: np.zeros_like(v) for k, v in self.params.items()}
        for obs, mask, action, adv in batch:
            p, h = self.probs(obs, mask)
            dlogits = -p
            dlogits[action] += 1.0  # d log p(action) / d logits
            dlogits *= adv
            grads["W2"] += np.outer(dlogits, h)
            grads["b2"] += dlogits
            dh = (self.params["W2"].T @ dlogits) * (1 - h * h)
            grads["W1"] += np.outer(dh, obs)
            grads["b1"] += dh
        self.t += 1
        for k, g in grads.items():
            g /= len(batch)
            self.m[k] = 0.9 * self.m[k] + 0.1 * g
            self.v[k] = 0.999 * self.v[k] + 0.001 * g * g
            mhat = self.m[k] / (1 - 0.9 ** self.t)
            vhat = self.v[k] / (1 - 0.999 ** self.t)
            self.params[k] += lr * mhat / (np.sqrt(vhat) + 1e-8)  # ascent


def play(env: BoardctEnv, policy: Policy | None, seed: int, seat: int,
         rng: np.random.Generator, greedy: bool = False
         ) -> tuple[float, list[tuple[np.ndarray, np.ndarray, int]]]:
    """One episode of the game of `seed`, the learner in `seat`; its reward and its
    (observation, mask, action) choices. With no policy the learner's seat plays at random
    too (the baseline)."""
    env.fixed_seat = env.seat = seat
    obs, info = env.reset(seed=seed)
    steps = []
    done, reward = False, 0.0
    while not done:
        mask = info["action_mask"]
        if policy is None:
            action = int(rng.choice(np.flatnonzero(mask)))
        else:
            flat = obs.ravel().astype(np.float64)
            p, _ = policy.probs(flat, mask)
            action = int(p.argmax()) if greedy else int(rng.choice(len(p), p=p))
            steps.append((flat, mask, action))
        obs, reward, done, _trunc, info = env.step(action)
    return float(reward), steps


def evaluate(env: BoardctEnv, policy: Policy | None, games: int, rng: np.random.Generator
             ) -> tuple[float, float]:
    """(win rate, mean reward) over `games` fixed evaluation games, seats alternating."""
    wins, total = 0, 0.0
    for g in range(games):
        reward, _ = play(env, policy, seed=10_000 + g, seat=g % 2, rng=rng)
        wins += reward == 1.0
        total += reward
    return wins / games, total / games


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="shift")
    ap.add_argument("--option", action="append", default=[], help="a game option NAME=VALUE")
    ap.add_argument("--batches", type=int, default=300)
    ap.add_argument("--batch", type=int, default=32, help="episodes per policy update")
    ap.add_argument("--eval-every", type=int, default=20)
    ap.add_argument("--eval-games", type=int, default=200)
    ap.add_argument("--hidden", type=int, default=64)
    ap.add_argument("--lr", type=float, default=0.01)
    ap.add_argument("--draw-reward", type=float, default=0.0,
                    help="what a draw is worth in training (the environment gives 0.5; less "
                         "teaches the learner to play for the win, not to stall to the limit)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", default="docs/img/learning-curve.png")
    args = ap.parse_args()
    options = dict(o.split("=", 1) for o in args.option)
    try:  # the curve is drawn at the end: say now, not after the training, when it cannot be
        import matplotlib  # noqa: F401
    except ImportError:
        print('error: the learning curve needs matplotlib: pip install "boardct[report]"',
              file=sys.stderr)
        raise SystemExit(2) from None

    rng = np.random.default_rng(args.seed)
    env = BoardctEnv(args.game, opponent="random", **options)
    policy = Policy(int(np.prod(env.observation_space.shape)), int(env.action_space.n),
                    args.hidden, rng)
    start = time.process_time()
    base_win, base_reward = evaluate(env, None, args.eval_games, np.random.default_rng(1))
    print(f"random against random: win rate {base_win:.3f}, mean reward {base_reward:.3f}")
    curve: list[tuple[int, float, float, float]] = []
    baseline = 0.5
    for b in range(args.batches + 1):
        if b % args.eval_every == 0:
            win, mean = evaluate(env, policy, args.eval_games, np.random.default_rng(1))
            cpu = time.process_time() - start
            curve.append((b * args.batch, win, mean, cpu))
            print(f"{b * args.batch:6d} episodes  win rate {win:.3f}  mean reward {mean:.3f}"
                  f"  ({cpu:.0f} CPU s)", flush=True)
        if b == args.batches:
            break
        batch = []
        for _ in range(args.batch):
            seed, seat = int(rng.integers(1 << 62)), int(rng.integers(2))
            reward, steps = play(env, policy, seed=seed, seat=seat, rng=rng)
            if reward == 0.5:
                reward = args.draw_reward
            adv = reward - baseline
            baseline += 0.02 * (reward - baseline)
            batch += [(o, m, a, adv) for o, m, a in steps]
        policy.update(batch, args.lr)

    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.4, 4.0), dpi=100)
    xs = [c[0] for c in curve]
    ax.plot(xs, [c[1] for c in curve], marker="o", label="learner's win rate")
    ax.plot(xs, [c[2] for c in curve], marker=".", linestyle="--", label="learner's mean reward")
    ax.axhline(base_win, color="grey", linestyle=":", label="random's win rate against random")
    ax.set_xlabel("training episodes")
    ax.set_ylabel(f"against random ({args.eval_games} games, seats alternating)")
    ax.set_ylim(0, 1)
    ax.set_title(f"Policy gradient against random: {env.game.title.split(',')[0]}")
    ax.legend(loc="lower right")
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(out)
    print(f"learning curve saved to {out}; {time.process_time() - start:.0f} CPU seconds")
    print(json.dumps({"game": args.game, "options": options, "curve": curve,
                      "random_win_rate": base_win}))


if __name__ == "__main__":
    main()
