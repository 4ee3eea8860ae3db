"""What the learners' adapters cost, and OpenSpiel's MCTS against boardct's (issue 20).

    PYTHONPATH=src python benchmarks/adapters.py [--seconds 2] [--games 20] [--move-cpu 0.05]
                                                 [--json] [--skip-match] [--skip-steps]

1. Random-playout steps per CPU second, per game at its default options, through:
   - `raw`: the engine's encoding API alone, `legal_ids` + `apply_id` (no observation);
   - `raw+obs`: the same, plus the observation tensor of the player to act (what every
     adapter computes at each step: the fair floor for the adapters);
   - `pettingzoo`: the AEC environment, `last()` (observation dict and mask) + `step()`;
   - `parallel`: the Parallel environment (games with simultaneous orders);
   - `gymnasium`: the single-agent environment against `random`: the learner's steps per
     CPU second, the opponent's moves (whole turns, in FFF) taking their share of the time;
   - `openspiel`: the bridged game, `legal_actions()` + `apply_action()` (or
     `apply_actions()` at simultaneous nodes), no observation, as OpenSpiel's own random
     simulation plays.
2. On the bridged FieldShift (turn limit `--turn-limit`): simulations per CPU second of
   OpenSpiel's Python MCTSBot (random-rollout evaluator, one rollout) and of boardct's MCTS
   (its default: evaluation at the leaves, no rollout) from the start position; then a match
   of `--games` games, seats alternating, at equal CPU time per move: boardct's
   `mcts:cpu=T`, and the MCTSBot with the number of simulations it runs in T (measured
   above; the MCTSBot has no time budget of its own).

CPU time (time.process_time), not wall time, so the figures hold on a shared machine.
"""

from __future__ import annotations

import argparse
import json
import random
import time
import warnings
from typing import Any

import numpy as np

from boardct.core import registry

warnings.simplefilter("ignore")  # the libraries' style warnings are not figures


def _timed(run_one, seconds: float) -> float:
    """Run `run_one()` (returns the steps it took) until `seconds` of CPU; steps per second."""
    steps = 0
    t0 = time.process_time()
    while time.process_time() - t0 < seconds:
        steps += run_one()
    return steps / (time.process_time() - t0)


def raw(game, seconds: float, observe: bool) -> float:
    rng = random.Random(1)

    def one() -> int:
        st = game.new(seed=rng.randrange(1 << 30))
        n = 0
        while True:
            players = st.current_players()
            if not players:
                return n
            for p in players:
                if st.is_over:
                    break
                if observe:
                    st.observation_tensor(p)
                st.apply_id(rng.choice(st.legal_ids(p)), p)
                n += 1
    return _timed(one, seconds)


def pettingzoo_aec(game, seconds: float) -> float:
    from boardct.adapters.pettingzoo import env

    e = env(game.id)
    rng = np.random.default_rng(1)
    seeds = iter(range(1 << 30))

    def one() -> int:
        e.reset(seed=next(seeds))
        n = 0
        for _agent in e.agent_iter():
            obs, _r, term, trunc, _i = e.last()
            if term or trunc:
                e.step(None)
                continue
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            n += 1
        return n
    return _timed(one, seconds)


def pettingzoo_parallel(game, seconds: float) -> float:
    from boardct.adapters.pettingzoo import parallel_env

    e = parallel_env(game.id)
    rng = np.random.default_rng(1)
    seeds = iter(range(1 << 30))

    def one() -> int:
        obs, _ = e.reset(seed=next(seeds))
        n = 0
        while e.agents:
            acts = {}
            for a, o in obs.items():
                legal = np.flatnonzero(o["action_mask"])
                if len(legal):
                    acts[a] = int(rng.choice(legal))
            obs, *_ = e.step(acts)
            n += len(acts)
        return n
    return _timed(one, seconds)


def gymnasium_env(game, seconds: float) -> float:
    from boardct.adapters.gymnasium import BoardctEnv

    e = BoardctEnv(game.id, opponent="random")
    rng = np.random.default_rng(1)
    seeds = iter(range(1 << 30))

    def one() -> int:
        _obs, info = e.reset(seed=next(seeds))
        done, n = False, 0
        while not done:
            _obs, _r, done, _t, info = e.step(int(rng.choice(np.flatnonzero(
                info["action_mask"]))))
            n += 1
        return n
    return _timed(one, seconds)


def openspiel_game(game, seconds: float) -> float:
    import pyspiel

    from boardct.adapters import openspiel

    openspiel.register([game])
    seeds = iter(range(1 << 30))
    rng = random.Random(1)

    def one() -> int:
        g = pyspiel.load_game(f"boardct_{game.id}", {"seed": next(seeds)})
        st = g.new_initial_state()
        n = 0
        while not st.is_terminal():
            if st.is_simultaneous_node():
                st.apply_actions([rng.choice(st.legal_actions(p))
                                  for p in range(g.num_players())])
            else:
                st.apply_action(rng.choice(st.legal_actions()))
            n += 1
        return n
    return _timed(one, seconds)


def steps_table(seconds: float) -> dict[str, dict[str, float]]:
    out: dict[str, dict[str, float]] = {}
    for game in registry.all_games():
        row = {"raw": raw(game, seconds, False), "raw+obs": raw(game, seconds, True),
               "pettingzoo": pettingzoo_aec(game, seconds)}
        if game.simultaneous:
            row["parallel"] = pettingzoo_parallel(game, seconds)
        row["gymnasium"] = gymnasium_env(game, seconds)
        row["openspiel"] = openspiel_game(game, seconds)
        out[game.id] = row
        print(f"{game.id:11s} " + "  ".join(f"{k} {v:9,.0f}" for k, v in row.items()),
              flush=True)
    return out


# -- MCTS against MCTS on the bridged FieldShift ----------------------------------------------

def _os_bot(game, sims: int, seed: int):
    from open_spiel.python.algorithms import mcts

    return mcts.MCTSBot(game, uct_c=2.0, max_simulations=sims,
                        evaluator=mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed)),
                        random_state=np.random.RandomState(seed + 1), solve=True)


def mcts_rates(turn_limit: int, sims: int) -> dict[str, float]:
    """Simulations (iterations) per CPU second of each search, from the start position."""
    import pyspiel

    from boardct.adapters import openspiel
    from boardct.agents.mcts import MCTSAgent

    openspiel.register()
    game = pyspiel.load_game("boardct_fieldshift", {"turn_limit": turn_limit})
    state = game.new_initial_state()
    bot = _os_bot(game, sims, 0)
    t0 = time.process_time()
    bot.step(state)
    os_rate = sims / (time.process_time() - t0)
    ours = MCTSAgent(seed=0, iters=sims * 10, early=0)
    t0 = time.process_time()
    ours.select(state.inner, state.current_player())
    bc_rate = ours.last_iterations / (time.process_time() - t0)
    return {"openspiel_mcts_sims_per_s": os_rate, "boardct_mcts_iters_per_s": bc_rate}


def mcts_match(turn_limit: int, games: int, move_cpu: float, os_rate: float) -> dict[str, Any]:
    """boardct's `mcts:cpu=T` against the MCTSBot with the simulations it runs in T."""
    import pyspiel

    from boardct.agents import make

    # the engine's returns (1 win, 0.5 draw), so the scores count points as boardct does
    game = pyspiel.load_game("boardct_fieldshift", {"turn_limit": turn_limit, "zero_sum": False})
    sims = max(2, int(os_rate * move_cpu))
    score = {"boardct": 0.0, "openspiel": 0.0}
    results = []
    for g in range(games):
        os_seat = g % 2
        bot = _os_bot(game, sims, 100 + g)
        ours = make(f"mcts:cpu={move_cpu}", seed=200 + g)
        state = game.new_initial_state()
        while not state.is_terminal():
            p = state.current_player()
            if p == os_seat:
                action = bot.step(state)
            else:
                action = state.inner.action_id(ours.select(state.inner, p), p)
            state.apply_action(action)
        r = state.returns()
        score["openspiel"] += r[os_seat]
        score["boardct"] += r[1 - os_seat]
        results.append({"openspiel_seat": os_seat, "returns": r,
                        "reason": state.inner.outcome.reason})
        print(f"  game {g + 1}: OpenSpiel MCTSBot as player {os_seat + 1}: {r} "
              f"({state.inner.outcome.reason})", flush=True)
    return {"games": games, "move_cpu": move_cpu, "openspiel_sims_per_move": sims,
            "score": score, "results": results}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=2.0, help="CPU seconds per figure")
    ap.add_argument("--turn-limit", type=int, default=60, help="FieldShift's, for the MCTS part")
    ap.add_argument("--sims", type=int, default=200, help="simulations to time each MCTS")
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--move-cpu", type=float, default=0.05, help="CPU seconds per move")
    ap.add_argument("--skip-match", action="store_true")
    ap.add_argument("--skip-steps", action="store_true", help="only the MCTS part")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON at the end")
    args = ap.parse_args()
    report: dict[str, Any] = {}
    if not args.skip_steps:
        print("random-playout steps per CPU second")
        report["steps_per_cpu_s"] = steps_table(args.seconds)
    rates = mcts_rates(args.turn_limit, args.sims)
    report["mcts"] = rates
    print(f"FieldShift (turn limit {args.turn_limit}), from the start: OpenSpiel MCTSBot "
          f"{rates['openspiel_mcts_sims_per_s']:,.0f} simulations/CPU s, boardct MCTS "
          f"{rates['boardct_mcts_iters_per_s']:,.0f} iterations/CPU s", flush=True)
    if not args.skip_match:
        match = mcts_match(args.turn_limit, args.games, args.move_cpu,
                           rates["openspiel_mcts_sims_per_s"])
        report["match"] = match
        print(f"match, {args.games} games at {args.move_cpu} CPU s a move: boardct MCTS "
              f"{match['score']['boardct']:.1f}, OpenSpiel MCTSBot "
              f"{match['score']['openspiel']:.1f} "
              f"({match['openspiel_sims_per_move']} simulations a move)")
    if args.json:
        print(json.dumps(report))


if __name__ == "__main__":
    main()
