"""Steps per CPU second of every game through every learners' interface, with observations.

    PYTHONPATH=src python benchmarks/env_steps.py [--seconds 2] [--rounds 8] [--num-envs 32]
                                                  [--games fieldshift,...] [--out FILE.md]

Random legal play from each game's start at its default options, restarted when a game ends,
each figure the actions carried out in `--seconds` of CPU time (time.process_time, so the
figures hold on a shared machine) divided by that time. The columns of a row take turns
(`--rounds` slices each), so that a load that comes and goes weighs on all of them alike:

- `raw`: the engine alone, `legal_ids` + `apply_id` (no observation);
- `raw+obs`: the same, plus what any learner's interface must hand out at each action: the
  acting player's observation written into a float32 array (as the adapters write it: the
  game's `observation_array` where it writes one, else its `observation_entries`) and its
  action mask into an int8 array;
- `pettingzoo`: the AEC environment, `last()` (observation dict with the mask) + `step()`;
- `gymnasium`: the single-agent environment against the `random` agent: the learner's
  actions (the opponent's moves take their share of the time but are not counted);
- `vector`: the vector API, `--num-envs` games stepped at once (32 by default: at 16 the
  batch writers' numpy calls weigh a fixed cost on few rows, FieldShift's and Hills' most; past
  32 CTF 2187's engine slows as its games' memory leaves the cache; docs/rl.md has the
  figures), actions drawn from the batch of masks with numpy (games restarted by its
  autoreset; the restarting steps not counted);
- `openspiel`: the bridged game through pyspiel, `legal_actions()` + `apply_action()` (or
  `apply_actions()` at a simultaneous node) and OpenSpiel's `make_observation(game)`
  observer's `set_from(state, player)` for the acting player(s), chance nodes sampled from
  `chance_outcomes()`.

What a step is: one player's decision, in every column. A chance node of the OpenSpiel games
(Shift's coins, Hills' setup draws, leduc_poker's deals) is played (its outcome sampled and
applied, a pyspiel step) but not counted: its cost weighs on the decisions' figure, as the
coins drawn inside the engine do in the other columns (which have no chance nodes), so the
columns of a row count the same game moves.

Then OpenSpiel's own C++ games chess, breakthrough and leduc_poker stepped from Python the same
way as `openspiel` (their observation tensors through the same observer), in the same run.
The targets (issue text, for this machine's figures): FieldShift, Hills and Shift 40k through
PettingZoo and OpenSpiel with observations, FFF 30k, CTF 2187 3k; the vector API 1.5x those.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time
import warnings
from collections.abc import Callable
from pathlib import Path

import numpy as np

from boardct.core import registry

warnings.simplefilter("ignore")  # the libraries' style warnings are not figures


Runner = Callable[[], int]  # plays a little (a game, or a few steps); the actions carried out


def interleaved(runners: dict[str, Runner], seconds: float, rounds: int) -> dict[str, float]:
    """Actions per CPU second of each runner, given `seconds` of CPU each in `rounds` turns
    taken in rotation: on a machine whose load changes from one second to the next, every
    column of a row then sees the same load (a column run after the others would not)."""
    steps = dict.fromkeys(runners, 0)
    spent = dict.fromkeys(runners, 0.0)
    for _ in range(rounds):
        for name, run_one in runners.items():
            t0 = time.process_time()
            while time.process_time() - t0 < seconds / rounds:
                steps[name] += run_one()
            spent[name] += time.process_time() - t0
    return {name: steps[name] / spent[name] for name in runners}


def raw(game, observe: bool) -> Runner:
    from boardct.adapters.buffers import write_mask, write_observed

    rng = random.Random(1)
    info = game.info({}, None)
    size = int(np.prod(info.observation_shape))
    obs = np.zeros(size, np.float32)
    mask = np.zeros(info.num_distinct_actions, np.int8)

    def one() -> int:
        st = game.new(seed=rng.randrange(1 << 30), names=[""] * info.players)
        n = 0
        while not st.is_over:
            players = st.current_players()
            if not players:
                break
            p = players[0]
            legal = st.legal_ids(p)
            if observe:
                write_observed(obs, st, p, "observation")
                write_mask(mask, legal)
            st.apply_id(rng.choice(legal), p)
            n += 1
        return n
    return one


def pettingzoo_aec(game) -> Runner:
    from boardct.adapters.pettingzoo import env

    e = env(game.id)
    rng = random.Random(1)
    seeds = iter(range(1 << 30))

    def one() -> int:
        e.reset(seed=next(seeds))
        n = 0
        for _agent in e.agent_iter():
            obs, _r, term, trunc, _i = e.last()
            if term or trunc:
                e.step(None)
                continue
            e.step(rng.choice(np.flatnonzero(obs["action_mask"].view(np.bool_)).tolist()))
            n += 1
        return n
    return one


def gymnasium_env(game) -> Runner:
    from boardct.adapters.gymnasium import BoardctEnv

    e = BoardctEnv(game.id, opponent="random")
    rng = random.Random(1)
    seeds = iter(range(1 << 30))

    def one() -> int:
        _obs, info = e.reset(seed=next(seeds))
        done, n = False, 0
        while not done:
            action = rng.choice(np.flatnonzero(info["action_mask"].view(np.bool_)).tolist())
            _obs, _r, done, _t, info = e.step(action)
            n += 1
        return n
    return one


def vector(game, num_envs: int) -> Runner:
    from boardct.adapters.vector import vector_env

    v = vector_env(game.id, num_envs, copy=False)
    rng = np.random.default_rng(1)
    _obs, infos = v.reset(seed=1)
    state = {"infos": infos, "restarting": np.zeros(num_envs, np.bool_)}

    def one() -> int:
        acted = 0
        for _ in range(20):  # steps between two reads of the clock
            masks = state["infos"]["action_mask"].view(np.bool_)  # 0/1: read as bools
            # uniform among each game's legal ids: a random place in its row's legal ids
            rows, ids = np.nonzero(masks)
            counts = np.bincount(rows, minlength=num_envs)
            starts = np.cumsum(counts) - counts
            pick = starts + (rng.random(num_envs) * counts).astype(np.intp)
            actions = (np.where(counts > 0, ids[np.minimum(pick, len(ids) - 1)], 0)
                       if len(ids) else np.zeros(num_envs, np.intp))  # every game just ended
            _o, _r, ended, _t, infos = v.step(actions)
            acted += num_envs - int(state["restarting"].sum())
            state["infos"], state["restarting"] = infos, ended
        return acted
    return one


def spiel_run(game, observe: bool = True) -> Runner:
    """Random legal play of a pyspiel game with the acting players' observations (none with
    `observe` false: openspiel_ab.py's `--no-obs`)."""
    from open_spiel.python.observation import make_observation

    rng = random.Random(1)
    observer = make_observation(game) if observe else None
    players = game.num_players()

    def one() -> int:
        st = game.new_initial_state()
        n = 0
        while not st.is_terminal():
            if st.is_chance_node():
                outcomes, probs = zip(*st.chance_outcomes(), strict=True)
                st.apply_action(rng.choices(outcomes, probs)[0])
            elif st.is_simultaneous_node():
                actions = []
                for p in range(players):
                    legal = st.legal_actions(p)
                    if len(legal) > 1 or st.action_to_string(p, legal[0]) != "wait":
                        if observer is not None:
                            observer.set_from(st, p)
                        n += 1
                    actions.append(rng.choice(legal))
                st.apply_actions(actions)
            else:
                p = st.current_player()
                if observer is not None:
                    observer.set_from(st, p)
                st.apply_action(rng.choice(st.legal_actions(p)))
                n += 1
        return n
    return one


def openspiel_bridge(game) -> Runner:
    import pyspiel

    from boardct.adapters import openspiel

    openspiel.register([game])
    return spiel_run(pyspiel.load_game(f"boardct_{game.id}"))


def openspiel_native(name: str) -> Runner:
    import pyspiel

    return spiel_run(pyspiel.load_game(name))


COLUMNS = ("raw", "raw+obs", "pettingzoo", "gymnasium", "vector", "openspiel")


def table(rows: dict[str, dict[str, float]], native: dict[str, float], num_envs: int) -> str:
    columns = [c for c in COLUMNS if all(c in row for row in rows.values())]
    ratio = "vector" in columns and "pettingzoo" in columns
    head = "| game | " + " | ".join(columns) + (" | vector / pettingzoo |" if ratio else " |")
    lines = [head, "|" + "---|" * (len(columns) + 1 + ratio)]
    for gid, row in rows.items():
        cells = [f"{row[c]:,.0f}" for c in columns]
        lines.append(f"| {gid} | " + " | ".join(cells)
                     + (f" | {row['vector'] / row['pettingzoo']:.2f}x |" if ratio else " |"))
    if native:
        lines.append("")
        lines.append("OpenSpiel's own games from Python, random legal play with observations "
                     "(`make_observation(game).set_from`):")
        lines.append("")
        lines.append("| game | steps per CPU second |")
        lines.append("|---|---|")
        for name, rate in native.items():
            lines.append(f"| {name} | {rate:,.0f} |")
    lines.append("")
    lines.append(f"(vector: {num_envs} games at once; every figure actions per CPU second)")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=2.0, help="CPU seconds per figure")
    ap.add_argument("--rounds", type=int, default=8, help="turns each figure's time is cut in")
    ap.add_argument("--num-envs", type=int, default=32, help="games at once in the vector API")
    ap.add_argument("--games", default="", help="comma-separated game ids (default: all)")
    ap.add_argument("--columns", default="", help="comma-separated columns of the game rows "
                                                   f"(default: all: {','.join(COLUMNS)})")
    ap.add_argument("--out", default="", help="also write the table (Markdown) to this file, "
                                               "and the figures as JSON beside it")
    args = ap.parse_args()
    games = ([registry.get(g) for g in args.games.split(",")] if args.games
             else registry.all_games())
    columns = args.columns.split(",") if args.columns else list(COLUMNS)
    if not set(columns) <= set(COLUMNS):
        ap.error(f"--columns: each of {', '.join(COLUMNS)}")
    rows: dict[str, dict[str, float]] = {}
    for game in games:
        makers = {"raw": lambda g: raw(g, False), "raw+obs": lambda g: raw(g, True),
                  "pettingzoo": pettingzoo_aec, "gymnasium": gymnasium_env,
                  "vector": lambda g: vector(g, args.num_envs), "openspiel": openspiel_bridge}
        runners = {name: makers[name](game) for name in columns}
        row = interleaved(runners, args.seconds, args.rounds)
        rows[game.id] = row
        print(f"{game.id:11s} " + "  ".join(f"{k} {v:9,.0f}" for k, v in row.items()),
              flush=True)
    native = interleaved({name: openspiel_native(name)
                          for name in ("chess", "breakthrough", "leduc_poker")
                          if "openspiel" in columns},
                         args.seconds, args.rounds)
    for name, rate in native.items():
        print(f"openspiel {name}: {rate:,.0f}", flush=True)
    text = table(rows, native, args.num_envs)
    print()
    print(text)
    if args.out:
        out = Path(args.out)
        cmd = "PYTHONPATH=src python " + " ".join(["benchmarks/env_steps.py", *sys.argv[1:]])
        out.write_text(f"# Environment steps per CPU second\n\n`{cmd}`\n\n"
                       f"{platform.python_implementation()} {platform.python_version()}, "
                       f"{platform.machine()}\n\n{text}\n", encoding="utf-8")
        out.with_suffix(".json").write_text(json.dumps(
            {"seconds": args.seconds, "rounds": args.rounds, "num_envs": args.num_envs,
             "games": rows,
             "openspiel": native}, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
