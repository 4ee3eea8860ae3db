"""Issue 21's one table: every game's engine and MCTS figures for two source trees, measured in
one run on this machine (per CPU second, median of `--repeat`), the anchors beside them, and
the issue's targets checked against the "after" figures. Writes `before_after.md` and
`before_after.json` into `--out`.

    PYTHONPATH=$PWD/src python benchmarks/before_after.py --before 3bc2f5c --out DIR

`--before` is a git revision of this repository (its `src/` is exported with `git archive`
into a temporary folder) or a folder that holds the `boardct` package; `--after` is a folder
too and defaults to this tree's `src`. Both trees are measured by one instrument: this tree's
`arena/bench.py` is copied into the before tree, so a difference between the columns is the
engines' and agents', not the bench's. The trees alternate game by game (before, after, next
game), each in a fresh interpreter, so that a machine that drifts (a virtual machine reads
some 10% slower at some hours) drifts on both columns alike.

The anchors are `benchmarks/anchors.py` (OpenSpiel's C++ and Python games and its MCTSBot
when the `openspiel` extra is installed, a plain-Python Breakthrough always); Force Field
Factions' step encoding and its search without memory are `benchmarks/fff_speed.py`.
Everything is CPU time of the measuring process (`time.process_time`), not wall time.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

import revision  # noqa: E402  (beside this script: trees from the git history)

GAMES = ("ctf2187", "fff", "fieldshift", "hills", "shift")

# run_all for one game in the interpreter of the tree on PYTHONPATH, printed as JSON
CHILD = """
import json, sys
from boardct.arena import bench
from boardct.core import registry
game, seconds, repeat, iters, seed = sys.argv[1:6]
table = bench.run_all([registry.get(game)], seconds=float(seconds), repeat=int(repeat),
                      iters=tuple(int(n) for n in iters.split(",")), seed=int(seed))
print(json.dumps(table))
"""

# The issue's targets, read from the "after" rows: (label, row key, figure, bound, at least?)
TARGETS = (
    ("CTF 2187 clone at most 3 us", "ctf2187", ("clone_us",), 3.0, False),
    ("CTF 2187 at least 30,000 actions/CPU s", "ctf2187", ("actions_per_cpu_s",), 30_000, True),
    ("FieldShift at least 300,000 actions/CPU s", "fieldshift", ("actions_per_cpu_s",),
     300_000, True),
    ("Hills at least 200,000 actions/CPU s", "hills", ("actions_per_cpu_s",), 200_000, True),
    ("Shift at least 200,000 actions/CPU s", "shift", ("actions_per_cpu_s",), 200_000, True),
    ("FFF whole-turn legal_actions at most 100 us (bench positions)", "fff",
     ("legal_actions_us",), 100.0, False),
    ("FieldShift MCTS at least 5,000 it/CPU s at 1,000 iterations", "fieldshift",
     ("searches", "1000", "iterations_per_cpu_s"), 5_000, True),
    ("FieldShift MCTS at least 5,000 it/CPU s at 10,000 iterations", "fieldshift",
     ("searches", "10000", "iterations_per_cpu_s"), 5_000, True),
    ("FFF MCTS at least 1,000 it/CPU s at 1,000 iterations", "fff",
     ("searches", "1000", "iterations_per_cpu_s"), 1_000, True),
    ("FFF MCTS at least 1,000 it/CPU s at 10,000 iterations", "fff",
     ("searches", "10000", "iterations_per_cpu_s"), 1_000, True),
) + tuple((f"{g} 10,000-iteration search at most 60 MB peak", g,
           ("searches", "10000", "peak_rss_mb"), 60.0, False) for g in GAMES)
FFF_TARGETS = (
    ("FFF step encoding at least 100,000 steps/CPU s", "steps_per_cpu_s", 100_000, True),
    ("FFF whole-turn legal_actions at most 0.1 ms (search without memory)",
     "legal_actions_fresh_ms", 0.1, False),
)


def in_tree(src: Path, args: list[str], timeout: float = 7200.0) -> str:
    """Run `python ARGS` with `src` first on PYTHONPATH; its stdout."""
    env = dict(os.environ, PYTHONPATH=str(src))
    proc = subprocess.run([sys.executable, *args], env=env, capture_output=True, text=True,
                          timeout=timeout, check=False)
    if proc.returncode != 0:
        raise RuntimeError(f"{args[:2]} in {src} failed: {proc.stderr.strip()[-800:]}")
    return proc.stdout


def game_row(src: Path, game: str, opts: argparse.Namespace) -> dict:
    out = in_tree(src, ["-c", CHILD, game, str(opts.seconds), str(opts.repeat),
                        ",".join(str(n) for n in opts.iters), str(opts.seed)])
    return json.loads(out.strip().splitlines()[-1])["rows"][0]


def fff_figures(src: Path, opts: argparse.Namespace) -> dict | None:
    try:
        out = in_tree(src, [str(HERE / "fff_speed.py"), "--seconds", str(opts.seconds),
                            "--runs", str(opts.repeat), "--json"])
    except RuntimeError as exc:
        return {"error": str(exc)}
    return json.loads(out.strip().splitlines()[-1])


def anchors(src: Path, opts: argparse.Namespace) -> dict:
    out = in_tree(src, [str(HERE / "anchors.py"), "--seconds", str(opts.seconds), "--iters",
                        str(min(opts.iters)), "--repeat", str(opts.repeat), "--json"])
    return json.loads(out)


def dig(row: dict, path: tuple[str, ...]) -> Any:
    for key in path:
        row = row.get(key) if isinstance(row, dict) else None
    return row


def check_targets(after: dict[str, dict], fff: dict | None) -> list[dict]:
    results = []
    for label, game, path, bound, at_least in TARGETS:
        v = dig(after.get(game, {}), path)
        results.append({"target": label, "figure": v,
                        "met": None if v is None else (v >= bound if at_least else v <= bound)})
    for label, key, bound, at_least in FFF_TARGETS:
        v = (fff or {}).get(key)
        results.append({"target": label, "figure": v,
                        "met": None if v is None else (v >= bound if at_least else v <= bound)})
    return results


def fmt(v: Any, spec: str) -> str:
    return "n/a" if v is None else format(v, spec)


def ratio(a: Any, b: Any) -> str:
    return "" if not a or not b else f"x{a / b:.2f}"


def markdown(result: dict) -> str:
    iters = result["iters"]
    head = ["game", "tree", "actions/CPU s", "clone us", "legal_actions us (n)"]
    for n in iters:
        head += [f"MCTS {n:,} it/CPU s", f"MCTS {n:,} peak MB"]
    lines = [f"One run, {result['started']} to {result['finished']} (UTC), Python "
             f"{result['python']}: median of {result['repeat']}, CPU seconds of the measuring "
             f"process; agent `{result['agent']}`, each search in a fresh process. Before: "
             f"`{result['before']}`; after: `{result['after']}`.", "",
             "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for game in result["games"]:
        rows = {t: result["rows"][t].get(game) for t in ("before", "after")}
        for tree, row in rows.items():
            if row is None:
                continue
            cells = [game, tree, fmt(row["actions_per_cpu_s"], ",.0f"), fmt(row["clone_us"], ".2f"),
                     f"{fmt(row['legal_actions_us'], '.1f')} ({row['legal_actions_at_mid']})"]
            for n in iters:
                s = row["searches"][str(n)]
                cells += [fmt(s["iterations_per_cpu_s"], ",.0f"), fmt(s["peak_rss_mb"], ".1f")]
            lines.append("| " + " | ".join(cells) + " |")
        b, a = rows["before"], rows["after"]
        if b and a:
            cells = [game, "after/before", ratio(a["actions_per_cpu_s"], b["actions_per_cpu_s"]),
                     ratio(b["clone_us"], a["clone_us"]),
                     ratio(b["legal_actions_us"], a["legal_actions_us"])]
            for n in iters:
                sa, sb = a["searches"][str(n)], b["searches"][str(n)]
                cells += [ratio(sa["iterations_per_cpu_s"], sb["iterations_per_cpu_s"]),
                          ratio(sb["peak_rss_mb"], sa["peak_rss_mb"])]
            lines.append("| " + " | ".join(cells) + " |")
    lines += ["", "Ratios are speed-ups (clone, legal_actions and memory: before over after).",
              "", "Force Field Factions beside its whole-turn moves (`benchmarks/fff_speed.py`):",
              "", "| tree | whole turns/CPU s | steps/CPU s | legal_actions ms | "
              "legal_actions without memory ms |", "|---|---|---|---|---|"]
    for tree in ("before", "after"):
        f = result["fff"].get(tree) or {}
        lines.append(f"| {tree} | {fmt(f.get('turns_per_cpu_s'), ',.0f')} | "
                     f"{fmt(f.get('steps_per_cpu_s'), ',.0f')} | "
                     f"{fmt(f.get('legal_actions_ms'), '.3f')} | "
                     f"{fmt(f.get('legal_actions_fresh_ms'), '.3f')} |")
    if result.get("anchors"):
        lines += ["", "Anchors, the same run (`benchmarks/anchors.py`, after tree):", "",
                  "| anchor | figure |", "|---|---|"]
        lines += [f"| {k} | {v:,.2f} |" for k, v in result["anchors"]["rows"].items()]
        lines += [f"\nnote: {n}" for n in result["anchors"].get("notes", [])]
    lines += ["", "Targets (issue 21), after:", "", "| target | figure | met |", "|---|---|---|"]
    for t in result["targets"]:
        met = "n/a" if t["met"] is None else ("yes" if t["met"] else "**no**")
        lines.append(f"| {t['target']} | {fmt(t['figure'], ',.2f')} | {met} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--before", required=True, help="git revision, or a folder with boardct/")
    ap.add_argument("--after", default=str(ROOT / "src"), help="folder with boardct/")
    ap.add_argument("--out", required=True, type=Path)
    ap.add_argument("--games", default=",".join(GAMES))
    ap.add_argument("--seconds", type=float, default=2.0)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--iters", default="1000,10000")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--no-anchors", action="store_true")
    opts = ap.parse_args(argv)
    opts.iters = tuple(int(n) for n in opts.iters.split(","))
    if not (Path(opts.before) / "boardct").is_dir() and not revision.available(opts.before):
        ap.error(f"--before {opts.before!r} is neither a folder holding boardct/ nor a "
                 "revision of this repository")
    games = [g for g in opts.games.split(",") if g]
    opts.out.mkdir(parents=True, exist_ok=True)
    sys.path.insert(0, opts.after)
    from boardct.arena.bench import BENCH_AGENT

    started = time.strftime("%Y-%m-%d %H:%M", time.gmtime())
    result: dict[str, Any] = {"before": opts.before, "after": opts.after, "games": games,
                              "repeat": opts.repeat, "seconds": opts.seconds,
                              "iters": list(opts.iters), "agent": BENCH_AGENT,
                              "python": sys.version.split()[0], "started": started,
                              "rows": {"before": {}, "after": {}}, "fff": {}}
    with tempfile.TemporaryDirectory(prefix="boardct-before-") as tmp:
        trees = {"before": revision.source_tree(opts.before, Path(tmp) / "before"),
                 "after": Path(opts.after)}
        for game in games:
            for tree, src in trees.items():
                row = game_row(src, game, opts)
                result["rows"][tree][game] = row
                print(f"{game} {tree}: {json.dumps(row)}", flush=True)
            if game == "fff":
                for tree, src in trees.items():
                    result["fff"][tree] = fff_figures(src, opts)
                    print(f"fff figures {tree}: {json.dumps(result['fff'][tree])}", flush=True)
        if not opts.no_anchors:
            result["anchors"] = anchors(trees["after"], opts)
    result["finished"] = time.strftime("%Y-%m-%d %H:%M", time.gmtime())
    result["targets"] = check_targets(result["rows"]["after"], result["fff"].get("after"))
    (opts.out / "before_after.json").write_text(json.dumps(result, indent=1))
    text = markdown(result)
    (opts.out / "before_after.md").write_text(text)
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
