"""A learning baseline that chooses among whole legal actions by a learned value of the state
each one leads to (its afterstate), in plain numpy, through the core API (docs/rl.md).

    pip install "boardct[rl]"
    python examples/afterstate_baseline.py --game fff --cpu 120 --eval-games 400 --save fff.npz
    python examples/afterstate_baseline.py --evaluate fff.npz --eval-games 400

Why: examples/selfplay_baseline.py learns a policy over the adapters' action ids. In Force Field
Factions a turn is several step ids with "end turn" always open, so a policy over steps ends its
turns at once, never captures, and learns little (docs/rl.md). The engine's own legal actions in
FFF are whole turns (`State.legal_actions()`, some 900 a position), and the `random` agent picks
uniformly among those. This learner works at that level, for any game whose legal actions the
engine lists and that has one player to move at a time: for each legal action it applies the
action to a clone, reads the mover's observation tensor of the result
(`State.observation_tensor(player)`, the game's own encoding, built only from what the player's
view holds) and, unless `--no-heuristic`, the game's evaluation of it (`Game.evaluate`, in FFF
its material count: one more input whose weight is learned like the rest), and plays the action
whose afterstate has the highest value (ties broken at random; epsilon-greedy while training).
The clones are of `State.determinize`, never of the true state, so nothing hidden is read in
games that hide anything (FFF hides nothing). To keep a choice cheap, `--candidates K` values K
legal actions drawn at random (48 by default, of FFF's ~900; 0 values all, some 60 ms a choice).

The value is linear in those inputs, squashed to a win probability: V(x) = sigmoid(w.x + b). It
learns by Monte-Carlo returns: after each game, every afterstate the learner chose is moved
towards that game's result for its seat (1 win, 0 loss, `--draw-reward` for a draw), by one
normalised gradient step of the cross-entropy per afterstate. No reward is shaped: captures and
material are worth what the results they lead to teach. The untrained value (all weights zero)
values every afterstate alike, so it plays uniformly among its candidates, like `random`; the
evaluation reports it beside the trained value on the same seeds and seats, so what learning
adds is measured.

Training plays against an agent (`--opponent random`, the default; any spec of
`boardct play --vs`), the learner's seat alternating, or against itself (`--opponent self`,
both seats learning from their own results). Evaluation plays the greedy value against
`random` on fixed seeds, each seat in turn. CPU seconds are this process's.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

from boardct.agents import make as make_agent
from boardct.arena.ratings import wilson
from boardct.core import registry
from boardct.core.errors import BoardctError
from boardct.core.game import Game, State


class AfterstateValue:
    """V(x) = sigmoid(w.x + b) over a player's observation tensor of an afterstate."""

    def __init__(self, n_in: int, heuristic: bool = True):
        self.w = np.zeros(n_in, np.float64)
        self.b = 0.0
        self.heuristic = heuristic  # the last input is the game's evaluation (`features`)

    def values(self, x: np.ndarray) -> np.ndarray:
        z = np.clip(x @ self.w + self.b, -30.0, 30.0)
        return 1.0 / (1.0 + np.exp(-z))

    def update(self, x: np.ndarray, targets: np.ndarray, lr: float) -> None:
        """One step down the cross-entropy between V(x) and `targets`, summed over the rows
        (each chosen afterstate a sample of its own), scaled by the rows' mean squared norm
        (a normalised step: an observation tensor has a hundred or more set entries, and a
        plain step of that size overshoots)."""
        err = targets - self.values(x)
        scale = lr / (1.0 + float((x * x).sum(axis=1).mean()))
        self.w += scale * (err @ x)
        self.b += scale * float(err.sum())

    def save(self, path: Path, meta: dict) -> None:
        np.savez(path, meta=json.dumps({**meta, "heuristic": self.heuristic}), w=self.w,
                 b=np.array(self.b))

    @classmethod
    def load(cls, path: Path) -> tuple[AfterstateValue, dict]:
        with np.load(path) as data:
            meta = json.loads(str(data["meta"]))
            value = cls(len(data["w"]), bool(meta.get("heuristic", False)))
            value.w = data["w"].astype(np.float64)
            value.b = float(data["b"])
        return value, meta


HEURISTIC_SCALE = 3.0  # the game's evaluation in [-1, 1], times this, is the last feature


def features(after: State, player: int, heuristic: bool) -> list[float]:
    """The player's observation tensor of an afterstate and, with `heuristic` and where the
    game has an evaluation (`Game.evaluate`, the material count its agents use), that value
    as one more input (scaled, so that its one weight learns as fast as the thousands of
    observation entries together). The learner still learns what it is worth: untrained, its
    weight is zero like the rest."""
    row = list(after.observation_tensor(player))  # a copy: a game may hand out its own list
    if heuristic:
        v = after.game.evaluate(after, player)
        row.append(HEURISTIC_SCALE * max(-1.0, min(1.0, float(v))) if v is not None else 0.0)
    return row


def afterstates(state: State, player: int, rng: np.random.Generator, candidates: int = 0,
                heuristic: bool = True) -> tuple[list, np.ndarray]:
    """The legal actions of `player` (with `candidates`, at most that many of them, drawn
    uniformly without replacement) and the player's observation tensor of each one's result
    (one row each).

    The actions are tried on `state.determinize(player, seed)`, a state consistent with what
    the player sees, its unknowns resampled and its chance reseeded: in a game with hidden
    information or chance the learner may not try an action on the true state, whose result
    could show what the player is not to know, or a draw to come (FFF, a perfect-information
    game without chance, needs none)."""
    actions = state.legal_actions(player)
    if candidates and len(actions) > candidates:
        actions = [actions[i] for i in rng.choice(len(actions), candidates, replace=False)]
    game = state.game
    if game.perfect_information and not game.has_chance:
        seen = state  # nothing to hide or to draw: the clones below are of the state itself
    else:
        seen = state.determinize(player, int(rng.integers(1 << 62)))
    rows = []
    for action in actions:
        after = seen.clone()
        after.apply(action, player)
        rows.append(features(after, player, heuristic))
    return actions, np.array(rows, dtype=np.float64)


def choose(value: AfterstateValue, state: State, player: int, rng: np.random.Generator,
           epsilon: float = 0.0, candidates: int = 0) -> tuple[object, np.ndarray]:
    """The action of highest afterstate value among the candidates (ties at random; with
    probability `epsilon` any candidate) and its afterstate's features."""
    actions, x = afterstates(state, player, rng, candidates, value.heuristic)
    if epsilon and rng.random() < epsilon:
        i = int(rng.integers(len(actions)))
    else:
        v = value.values(x)
        best = np.flatnonzero(v >= v.max() - 1e-12)
        i = int(best[rng.integers(len(best))])
    return actions[i], x[i]


def play_game(game: Game, options: dict, seed: int, seats: list, rng: np.random.Generator,
              epsilon: float = 0.0, candidates: int = 0
              ) -> tuple[tuple[float, ...], list[list[np.ndarray]]]:
    """One game: `seats[p]` is an AfterstateValue or an Agent. Each seat's return, and the
    afterstate features each value-playing seat chose."""
    state = game.new(seed=seed, **options)
    chosen: list[list[np.ndarray]] = [[] for _ in seats]
    while not state.is_over:
        (player,) = state.current_players()
        seat = seats[player]
        if isinstance(seat, AfterstateValue):
            action, x = choose(seat, state, player, rng, epsilon, candidates)
            chosen[player].append(x)
        else:
            action = seat.select(state, player)
        state.apply(action, player)
    return state.returns(), chosen



def evaluate(game_id: str, options: dict, value: AfterstateValue | None, games: int,
             candidates: int = 0, seed: int = 10_000) -> dict:
    """`games` games against `random` on fixed seeds, the learner in seat g % players of game
    g; `value=None` puts a second `random` agent in the learner's seat (the comparison)."""
    game = registry.get(game_id)
    players = game.min_players
    rng = np.random.default_rng(seed)
    seats = [{"games": 0, "wins": 0, "draws": 0} for _ in range(players)]
    for g in range(games):
        s = g % players
        line: list = [make_agent("random", seed=seed + g * players + p) for p in range(players)]
        if value is not None:
            line[s] = value
        else:
            line[s] = make_agent("random", seed=seed + 7919 * (g + 1))
        returns, _ = play_game(game, options, seed + g, line, rng, 0.0, candidates)
        seats[s]["games"] += 1
        seats[s]["wins"] += returns[s] == 1.0
        seats[s]["draws"] += 0.0 < returns[s] < 1.0
    wins = sum(x["wins"] for x in seats)
    return {"games": games, "wins": wins, "win_rate": round(wins / max(games, 1), 4),
            "win_interval": [round(v, 4) for v in wilson(wins, games)],
            "draws": sum(x["draws"] for x in seats),
            "seats": [{**x, "win_rate": round(x["wins"] / max(x["games"], 1), 4),
                       "win_interval": [round(v, 4) for v in wilson(x["wins"], x["games"])]}
                      for x in seats]}


def log(text: str) -> None:
    print(text, flush=True)


def train(game_id: str, options: dict, opponent: str, episodes: int, cpu: float, lr: float,
          epsilon: float, draw_reward: float, seed: int, candidates: int = 0,
          heuristic: bool = True, log=log) -> tuple[AfterstateValue, dict]:
    """Train a value; stop after `episodes` games or `cpu` CPU seconds (0: no limit)."""
    game = registry.get(game_id)
    players = game.min_players
    probe = game.new(seed=seed, **options)
    value = AfterstateValue(len(features(probe, 0, heuristic)), heuristic)
    rng = np.random.default_rng(seed)
    results = [[0.0, 0] for _ in range(players)]
    start = time.process_time()
    done = 0
    while done < episodes and not (cpu and time.process_time() - start >= cpu):
        if opponent == "self":
            line: list = [value] * players
        else:
            line = [make_agent(opponent, seed=seed + done * players + p) for p in range(players)]
            line[done % players] = value
        returns, chosen = play_game(game, options, int(rng.integers(1 << 62)), line, rng,
                                    epsilon, candidates)
        done += 1
        for p, xs in enumerate(chosen):
            if not xs:
                continue
            ret = returns[p]
            results[p][0] += ret
            results[p][1] += 1
            target = draw_reward if 0.0 < ret < 1.0 else ret
            value.update(np.stack(xs), np.full(len(xs), target), lr)
        if done % 10 == 0:
            log(f"{done:5d} games  {time.process_time() - start:6.1f} CPU s  learner's mean "
                f"return per seat {[round(s / max(k, 1), 3) for s, k in results]}")
    stats = {"episodes": done, "train_cpu_seconds": round(time.process_time() - start, 1),
             "train_mean_return_per_seat": [round(s / max(k, 1), 4) for s, k in results]}
    return value, stats


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="fff")
    ap.add_argument("--option", action="append", default=[], help="a game option NAME=VALUE")
    ap.add_argument("--opponent", default="random",
                    help="an agent spec to train against (default random), or 'self'")
    ap.add_argument("--episodes", type=int, default=1000, help="training games at most")
    ap.add_argument("--cpu", type=float, default=0.0,
                    help="training CPU seconds at most (0: no limit; checked between games)")
    ap.add_argument("--lr", type=float, default=0.02,
                    help="step size per chosen afterstate (normalised by its squared norm)")
    ap.add_argument("--epsilon", type=float, default=0.1,
                    help="while training, the share of choices made uniformly at random")
    ap.add_argument("--candidates", type=int, default=48,
                    help="legal actions valued per choice, drawn at random (0: all of them)")
    ap.add_argument("--no-heuristic", action="store_true",
                    help="leave the game's evaluation out of the inputs (the observation only)")
    ap.add_argument("--draw-reward", type=float, default=0.5,
                    help="what a draw is worth in training")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--eval-games", type=int, default=200)
    ap.add_argument("--no-untrained", action="store_true",
                    help="skip the untrained value's evaluation")
    ap.add_argument("--save", type=Path, help="write the trained value here (.npz)")
    ap.add_argument("--evaluate", type=Path, metavar="VALUE",
                    help="evaluate a saved value instead of training one")
    ap.add_argument("--json", type=Path, help="write the figures as JSON here")
    args = ap.parse_args(argv)
    if any("=" not in o for o in args.option):
        ap.error("--option wants NAME=VALUE")
    options = dict(o.split("=", 1) for o in args.option)
    try:  # an unknown game, option or agent, or a file that is no saved value: say so now
        if args.evaluate:
            AfterstateValue.load(args.evaluate)
        else:
            game = registry.get(args.game)
            if game.simultaneous or len(game.new(seed=0, **options).current_players()) != 1:
                raise BoardctError(f"{args.game} has simultaneous moves: the afterstate "
                                   "learner wants one player to move at a time")
            if args.opponent != "self":
                make_agent(args.opponent)
    except (BoardctError, OSError, ValueError, KeyError) as e:
        ap.error(str(e))
    if args.evaluate:
        value, meta = AfterstateValue.load(args.evaluate)
        game_id, options = meta["game"], meta["options"]
        stats = {k: meta[k] for k in ("episodes", "train_cpu_seconds", "opponent", "candidates")
                 if k in meta}
        args.candidates = meta.get("candidates", args.candidates)
    else:
        game_id = args.game
        log(f"training on {game_id} {options or '(default options)'} against {args.opponent}")
        value, stats = train(game_id, options, args.opponent, args.episodes, args.cpu, args.lr,
                             args.epsilon, args.draw_reward, args.seed, args.candidates,
                             not args.no_heuristic, log)
        stats["opponent"] = args.opponent
        stats["candidates"] = args.candidates
        if args.save:
            value.save(args.save, {"game": game_id, "options": options, **stats})
    t0 = time.process_time()
    learner = evaluate(game_id, options, value, args.eval_games, args.candidates)
    eval_cpu = round(time.process_time() - t0, 1)
    out = {"game": game_id, "options": options, **stats, "heuristic": value.heuristic,
           "learner": learner,
           "eval_cpu_seconds": eval_cpu}
    if not args.no_untrained:
        out["untrained"] = evaluate(game_id, options,
                                    AfterstateValue(len(value.w), value.heuristic),
                                    args.eval_games, args.candidates)
    out["random"] = evaluate(game_id, options, None, args.eval_games)
    lo, hi = learner["win_interval"]
    log(f"{game_id}: against random over {args.eval_games} games (seats in turn), the trained "
        f"value wins {learner['win_rate']:.3f} ({lo:.3f}-{hi:.3f})"
        + (f"; untrained {out['untrained']['win_rate']:.3f}" if "untrained" in out else "")
        + f"; random itself {out['random']['win_rate']:.3f}; per seat, trained "
        f"{[s['win_rate'] for s in learner['seats']]}")
    print(json.dumps(out), flush=True)
    if args.json:
        args.json.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    return out


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:
        sys.exit(130)
