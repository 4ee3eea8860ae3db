"""The OpenSpiel bridge against another version of it, in one process, turns taken.

    PYTHONPATH=src python benchmarks/openspiel_ab.py --other OTHER/src/boardct/adapters/openspiel.py
                                    [--games hills,shift] [--seconds 2] [--rounds 8] [--no-obs]

On a machine whose load comes and goes, two runs of `env_steps.py` one after the other see
different loads; here both bridges step the same games in turns of the same process, so each
pair of figures sees the same load. The other bridge is loaded from its file (its games
registered as `other_<id>`); both drive this tree's engines, so only the bridge differs.
Each figure: OpenSpiel decisions per CPU second in random games at the default options, with
the acting player's observation (`make_observation(game).set_from`, as `env_steps.py`'s
`openspiel` column) unless `--no-obs`; chance nodes sampled and played, not counted.
"""

from __future__ import annotations

import argparse
import importlib.util
from pathlib import Path

import pyspiel
from env_steps import interleaved, spiel_run

from boardct.adapters import openspiel
from boardct.core import registry


def load_other(path: str) -> object:
    spec = importlib.util.spec_from_file_location("other_openspiel_bridge", path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.PREFIX = "other_"  # type: ignore[attr-defined]
    return module


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--other", required=True, help="the other version's adapters/openspiel.py")
    ap.add_argument("--games", default="hills,shift")
    ap.add_argument("--seconds", type=float, default=2.0, help="CPU seconds per figure")
    ap.add_argument("--rounds", type=int, default=8)
    ap.add_argument("--no-obs", action="store_true", help="no observations")
    args = ap.parse_args()
    other = load_other(str(Path(args.other)))
    runners = {}
    for gid in args.games.split(","):
        game = registry.get(gid)
        openspiel.register([game])
        other.register([game])  # type: ignore[attr-defined]
        runners[f"other {gid}"] = spiel_run(pyspiel.load_game(f"other_{gid}"), not args.no_obs)
        runners[f"this {gid}"] = spiel_run(pyspiel.load_game(f"boardct_{gid}"), not args.no_obs)
    rates = interleaved(runners, args.seconds, args.rounds)
    for gid in args.games.split(","):
        a, b = rates[f"other {gid}"], rates[f"this {gid}"]
        print(f"{gid:11s} other {a:9,.0f}  this {b:9,.0f}  this/other {b / a:.3f}", flush=True)


if __name__ == "__main__":
    main()
