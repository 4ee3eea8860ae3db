"""A learning baseline for every boardct game: policy-gradient self-play in plain numpy, on the
PettingZoo environment, evaluated against `random` on the Gymnasium environment (docs/rl.md).

    pip install "boardct[rl]"
    python examples/selfplay_baseline.py --game shift --mix 0.5 --episodes 3200 --save shift.npz
    python examples/selfplay_baseline.py --game hills --mix 0.5 --cpu 180  # 3 CPU minutes at most
    python examples/selfplay_baseline.py --evaluate shift.npz --eval-games 400
    python examples/selfplay_baseline.py --game fff --opponent random      # not self-play

The policy is a small network (one hidden layer of tanh units; `--hidden 0` makes it linear)
from a player's observation tensor to one logit per action id, illegal ids masked out of the
softmax with the environment's action mask. One policy plays every seat of the game against
itself (`--opponent self`, the default; any agent spec of `boardct play --vs` trains against
that agent instead, the learner's seat drawn each episode). It learns by REINFORCE: after each
batch of episodes, each seat's choices are made more likely in proportion to how much better
than usual *for that seat* its episode ended. The baseline is kept per seat because the seats
of a game need not be even: at Shift's default cards the second seat wins nine random games
in ten (docs/rl.md, "Seat balance"), and with one baseline for both seats every choice of the
second seat would look good and every choice of the first bad, whatever was played, which
teaches nothing. And a seat that never wins has nothing to learn from, however it is judged:
with `--mix P`, a share P of the episodes puts the policy in one seat (drawn) and uniformly
random legal ids in the others, an opponent the weaker seat can beat (in FFF, random *step*
ids end turns at once and never capture, so that mix gives draws only; against the `random`
agent, which picks among whole turns, `--opponent random` learns more, though in 3 CPU
minutes not enough to beat it: docs/rl.md; examples/afterstate_baseline.py, choosing among
whole turns, does). The reward is the
player's return (1 win, 0 loss); a draw counts
`--draw-reward` (0 by default, so that the learner plays to win rather than to stall to the
turn limit).

Evaluation plays the policy (sampling from it, or `--greedy`) against `random` on fixed seeds,
each seat in turn, and `random` against `random` on the same seeds and seats: the learner's
win rate per seat and overall with Wilson's 95% interval beside random's own. `--save` writes
the policy (an .npz: its weights and the game and options it was trained on) and `--evaluate`
plays a saved one. CPU seconds are this process's.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

from boardct.adapters.gymnasium import BoardctEnv
from boardct.adapters.pettingzoo import env as aec_env
from boardct.agents import make as make_agent
from boardct.arena.ratings import wilson
from boardct.core.errors import BoardctError


class Policy:
    """obs -> tanh(W1 obs + b1) -> W2 h + b2 -> masked softmax (no hidden layer with
    `hidden=0`: obs -> W2 obs + b2), trained by gradient ascent with Adam."""

    def __init__(self, n_in: int, n_out: int, hidden: int, rng: np.random.Generator):
        self.hidden = hidden
        width = hidden or n_in
        self.params: dict[str, np.ndarray] = {
            "W2": rng.normal(0, 0.01, (n_out, width)).astype(np.float32),
            "b2": np.zeros(n_out, np.float32),
        }
        if hidden:
            self.params["W1"] = rng.normal(0, 1 / np.sqrt(n_in), (hidden, n_in)).astype(
                np.float32)
            self.params["b1"] = np.zeros(hidden, np.float32)
        self.m = {k: np.zeros_like(v) for k, v in self.params.items()}
        self.v = {k: np.zeros_like(v) for k, v in self.params.items()}
        self.t = 0

    def _features(self, x: np.ndarray) -> np.ndarray:
        if not self.hidden:
            return x
        return np.tanh(x @ self.params["W1"].T + self.params["b1"])

    def probs(self, x: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """Action probabilities of observations `x` (one row each) under their masks."""
        logits = self._features(x) @ self.params["W2"].T + self.params["b2"]
        logits = np.where(mask > 0, logits, -np.inf)
        logits -= logits.max(axis=-1, keepdims=True)
        p = np.exp(logits)
        return p / p.sum(axis=-1, keepdims=True)

    def act(self, obs: np.ndarray, mask: np.ndarray, rng: np.random.Generator,
            greedy: bool = False) -> int:
        p = self.probs(obs.reshape(-1), mask)
        if greedy:
            return int(p.argmax())
        c = np.cumsum(p)  # the first id whose cumulative share passes u: never a masked one
        return int(min(np.searchsorted(c, rng.random() * c[-1], side="right"), len(p) - 1))

    def gradient(self, x: np.ndarray, masks: np.ndarray, actions: np.ndarray,
                 adv: np.ndarray) -> dict[str, np.ndarray]:
        """Sum over the rows of adv * grad log p(action | obs): one episode's choices."""
        h = self._features(x)
        logits = h @ self.params["W2"].T + self.params["b2"]
        logits = np.where(masks > 0, logits, -np.inf)
        logits -= logits.max(axis=1, keepdims=True)
        p = np.exp(logits)
        p /= p.sum(axis=1, keepdims=True)
        g = -p
        g[np.arange(len(actions)), actions] += 1.0  # d log p(action) / d logits
        g *= adv[:, None]
        grads = {"W2": g.T @ h, "b2": g.sum(axis=0)}
        if self.hidden:
            dh = (g @ self.params["W2"]) * (1 - h * h)
            grads["W1"] = dh.T @ x
            grads["b1"] = dh.sum(axis=0)
        return grads

    def step(self, grads: dict[str, np.ndarray], n: int, lr: float) -> None:
        """One Adam step up the mean of the summed gradients `grads` over `n` choices."""
        self.t += 1
        for k, g in grads.items():
            g = g / max(n, 1)
            self.m[k] = 0.9 * self.m[k] + 0.1 * g
            self.v[k] = 0.999 * self.v[k] + 0.001 * g * g
            mhat = self.m[k] / (1 - 0.9 ** self.t)
            vhat = self.v[k] / (1 - 0.999 ** self.t)
            self.params[k] += (lr * mhat / (np.sqrt(vhat) + 1e-8)).astype(np.float32)

    def save(self, path: Path, meta: dict) -> None:
        np.savez(path, meta=json.dumps({**meta, "hidden": self.hidden}), **self.params)

    @classmethod
    def load(cls, path: Path) -> tuple[Policy, dict]:
        with np.load(path) as data:
            meta = json.loads(str(data["meta"]))
            params = {k: data[k] for k in data.files if k != "meta"}
        policy = cls.__new__(cls)
        policy.hidden = meta["hidden"]
        policy.params = params
        policy.m = {k: np.zeros_like(v) for k, v in params.items()}
        policy.v = {k: np.zeros_like(v) for k, v in params.items()}
        policy.t = 0
        return policy, meta


class SeatBaselines:
    """The usual return of each seat, a running mean: a choice's advantage is how much better
    than usual for its seat its episode ended. One baseline for all seats would credit the
    choices of a seat that usually wins and blame those of a seat that usually loses,
    whatever was played."""

    def __init__(self, players: int, rate: float = 0.02):
        self.values = [0.5] * players
        self.rate = rate

    def advantage(self, seat: int, value: float) -> float:
        adv = value - self.values[seat]
        self.values[seat] += self.rate * adv
        return adv


Episode = list[tuple[np.ndarray, np.ndarray, int]]  # (observation, mask, action) per choice


def self_play_episode(env, policy: Policy, seed: int, rng: np.random.Generator,
                      learner: int | None = None) -> tuple[list[float], list[Episode]]:
    """One game of the policy against itself (PettingZoo AEC): each seat's return and choices.
    With `learner`, only that seat plays the policy; the others play uniformly at random (and
    their choices are not kept)."""
    env.reset(seed=seed)
    seats = {a: i for i, a in enumerate(env.possible_agents)}
    choices: list[Episode] = [[] for _ in seats]
    returns = [0.0] * len(seats)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _info = env.last()
        seat = seats[agent]
        if terminated or truncated:
            returns[seat] = float(reward)
            env.step(None)
            continue
        mask = obs["action_mask"]
        if learner is not None and seat != learner:
            env.step(int(rng.choice(np.flatnonzero(mask))))
            continue
        x = obs["observation"].reshape(-1)
        action = policy.act(x, mask, rng)
        choices[seat].append((x, mask, action))
        env.step(action)
    return returns, choices


def play_against(env: BoardctEnv, policy: Policy | None, seed: int, rng: np.random.Generator,
                 greedy: bool = False) -> tuple[float, Episode]:
    """One game in the Gymnasium environment's seat against its opponent: the learner's return
    and choices. With no policy the seat plays at random too (the comparison)."""
    obs, info = env.reset(seed=seed)
    choices: Episode = []
    done, reward = False, 0.0
    while not done:
        mask = info["action_mask"]
        if policy is None:
            action = int(rng.choice(np.flatnonzero(mask)))
        else:
            x = obs.reshape(-1)
            action = policy.act(x, mask, rng, greedy)
            choices.append((x, mask, action))
        obs, reward, done, _trunc, info = env.step(action)
        if info.get("illegal_action") is not None:
            raise RuntimeError(f"the policy played an illegal id: {info['illegal_action']}")
    return float(reward), choices



def evaluate(game: str, options: dict, policy: Policy | None, games: int, greedy: bool = False,
             seed: int = 10_000) -> dict:
    """`games` games against `random` on fixed seeds, seat g % players in game g: wins, draws
    and losses per seat, the win rate with its interval; `policy=None` is random itself."""
    probe = BoardctEnv(game, opponent="random", **options)
    players = probe.spaces.players
    envs = [BoardctEnv(game, opponent="random", seat=s, **options) for s in range(players)]
    rng = np.random.default_rng(seed)
    seats = [{"games": 0, "wins": 0, "draws": 0} for _ in range(players)]
    for g in range(games):
        s = g % players
        reward, _ = play_against(envs[s], policy, seed + g, rng, greedy)
        seats[s]["games"] += 1
        seats[s]["wins"] += reward == 1.0
        seats[s]["draws"] += 0.0 < reward < 1.0
    wins = sum(x["wins"] for x in seats)
    return {"games": games, "wins": wins, "win_rate": round(wins / max(games, 1), 4),
            "win_interval": [round(v, 4) for v in wilson(wins, games)],
            "draws": sum(x["draws"] for x in seats),
            "seats": [{**x, "win_rate": round(x["wins"] / max(x["games"], 1), 4),
                       "win_interval": [round(v, 4) for v in wilson(x["wins"], x["games"])]}
                      for x in seats]}


def log(text: str) -> None:
    print(text, flush=True)


def train(game: str, options: dict, opponent: str, episodes: int, cpu: float, batch: int,
          hidden: int, lr: float, draw_reward: float, seed: int, mix: float = 0.0,
          log=log) -> tuple[Policy, dict]:
    """Train a policy; stop after `episodes` episodes or `cpu` CPU seconds (0: no limit). In
    self-play, a share `mix` of the episodes puts the policy in one seat (drawn) against
    uniformly random players."""
    rng = np.random.default_rng(seed)
    if opponent == "self":
        env = aec_env(game, **options)
        n_in = int(np.prod(env.observation_space(env.possible_agents[0])["observation"].shape))
        n_out = int(env.action_space(env.possible_agents[0]).n)
        players = len(env.possible_agents)
    else:
        genv = BoardctEnv(game, opponent=opponent, seat=None, **options)
        n_in = int(np.prod(genv.observation_space.shape))
        n_out = int(genv.action_space.n)
        players = genv.spaces.players
    policy = Policy(n_in, n_out, hidden, rng)
    baselines = SeatBaselines(players)
    seat_results = [[0.0, 0] for _ in range(players)]  # (sum of returns, games) per seat
    start = time.process_time()
    done = 0
    while done < episodes and not (cpu and time.process_time() - start >= cpu):
        grads: dict[str, np.ndarray] = {}
        n = 0
        for _ in range(batch):
            game_seed = int(rng.integers(1 << 62))
            if opponent == "self":
                learner = (int(rng.integers(players)) if mix and rng.random() < mix
                           else None)
                returns, choices = self_play_episode(env, policy, game_seed, rng, learner)
                played = [(s, (r, c)) for s, (r, c) in enumerate(zip(returns, choices,
                                                                     strict=True))
                          if learner is None or s == learner]
            else:
                reward, steps = play_against(genv, policy, game_seed, rng)
                played = [(genv.seat, (reward, steps))]
            done += 1
            for seat, (ret, steps) in played:
                seat_results[seat][0] += ret
                seat_results[seat][1] += 1
                value = draw_reward if 0.0 < ret < 1.0 else ret
                adv = baselines.advantage(seat, value)
                if not steps or adv == 0.0:
                    continue
                x = np.stack([c[0] for c in steps])
                masks = np.stack([c[1] for c in steps])
                actions = np.array([c[2] for c in steps])
                g = policy.gradient(x, masks, actions, np.full(len(steps), adv, np.float32))
                for k, v in g.items():
                    grads[k] = grads[k] + v if k in grads else v
                n += len(steps)
        if grads:
            policy.step(grads, n, lr)
        if done % (batch * 25) == 0:
            log(f"{done:6d} episodes  {time.process_time() - start:6.1f} CPU s  mean return "
                f"per seat in training {[round(s / max(k, 1), 3) for s, k in seat_results]}")
    stats = {"episodes": done, "train_cpu_seconds": round(time.process_time() - start, 1),
             "train_mean_return_per_seat": [round(s / max(k, 1), 4) for s, k in seat_results]}
    return policy, stats


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="shift")
    ap.add_argument("--option", action="append", default=[], help="a game option NAME=VALUE")
    ap.add_argument("--opponent", default="self",
                    help="'self' (self-play, the default) or an agent spec to train against")
    ap.add_argument("--mix", type=float, default=0.0,
                    help="in self-play, the share of episodes in which one seat (drawn) plays "
                         "the policy and the others play at random")
    ap.add_argument("--episodes", type=int, default=2000, help="training episodes at most")
    ap.add_argument("--cpu", type=float, default=0.0,
                    help="training CPU seconds at most (0: no limit; checked between batches)")
    ap.add_argument("--batch", type=int, default=16, help="episodes per policy update")
    ap.add_argument("--hidden", type=int, default=64, help="hidden units (0: a linear policy)")
    ap.add_argument("--lr", type=float, default=0.01)
    ap.add_argument("--draw-reward", type=float, default=0.0,
                    help="what a draw is worth in training (the environments give 0.5)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--eval-games", type=int, default=400)
    ap.add_argument("--greedy", action="store_true",
                    help="evaluate the policy's most likely action rather than a sample")
    ap.add_argument("--save", type=Path, help="write the trained policy here (.npz)")
    ap.add_argument("--evaluate", type=Path, metavar="POLICY",
                    help="evaluate a saved policy instead of training one")
    ap.add_argument("--json", type=Path, help="write the figures as JSON here")
    args = ap.parse_args(argv)
    if any("=" not in o for o in args.option):
        ap.error("--option wants NAME=VALUE")
    options = dict(o.split("=", 1) for o in args.option)
    try:  # an unknown game, option or value, or a file that is no saved policy: say so now
        if args.evaluate:
            Policy.load(args.evaluate)
        else:
            BoardctEnv(args.game, opponent="random", **options)
            if args.opponent != "self":
                make_agent(args.opponent)
    except (BoardctError, OSError, ValueError, KeyError) as e:
        ap.error(str(e))
    if args.evaluate:
        policy, meta = Policy.load(args.evaluate)
        game, options = meta["game"], meta["options"]
        stats = {k: meta[k] for k in ("episodes", "train_cpu_seconds", "opponent", "mix")
                 if k in meta}
    else:
        game = args.game
        log(f"training on {game} {options or '(default options)'} against {args.opponent}")
        policy, stats = train(game, options, args.opponent, args.episodes, args.cpu,
                              args.batch, args.hidden, args.lr, args.draw_reward, args.seed,
                              args.mix, log)
        stats["opponent"] = args.opponent
        stats["mix"] = args.mix
        if args.save:
            policy.save(args.save, {"game": game, "options": options, **stats})
    t0 = time.process_time()
    learner = evaluate(game, options, policy, args.eval_games, args.greedy)
    rand = evaluate(game, options, None, args.eval_games)
    out = {"game": game, "options": options, **stats, "greedy": args.greedy,
           "learner": learner, "random": rand,
           "eval_cpu_seconds": round(time.process_time() - t0, 1)}
    lo, hi = learner["win_interval"]
    log(f"{game}: against random over {args.eval_games} games (seats in turn), the policy "
        f"wins {learner['win_rate']:.3f} ({lo:.3f}-{hi:.3f}); random itself wins "
        f"{rand['win_rate']:.3f} on the same games; per seat, policy "
        f"{[s['win_rate'] for s in learner['seats']]}, random "
        f"{[s['win_rate'] for s in rand['seats']]}")
    print(json.dumps(out), flush=True)
    if args.json:
        args.json.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    return out


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:
        sys.exit(130)
