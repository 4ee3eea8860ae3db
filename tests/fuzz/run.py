"""Run the fuzz targets of tests/fuzz for many inputs, outside pytest (issue 15).

    PYTHONPATH=src python tests/fuzz/run.py --per-game 100000
    PYTHONPATH=src python tests/fuzz/run.py --per-target 2000 --game ctf2187
    PYTHONPATH=src python tests/fuzz/run.py --per-game 100000 --jobs 4 --json fuzz.json
    PYTHONPATH=src python tests/fuzz/run.py --list

Each target runs in chunks of Hypothesis-generated inputs (generation only, no shrinking). A
crash does not stop the run: crashes are grouped by exception type and the innermost boardct
line it came from, each with its count and the shortest call that led to it. At the end: the
inputs each target tried, seconds, inputs per second, per target and per game, then the
crashes. The exit status is 1 if anything crashed, else 0.
"""

from __future__ import annotations

import argparse
import importlib
import json
import math
import shutil
import sys
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))
SRC = HERE.parent.parent / "src"
if SRC.is_dir() and str(SRC) not in sys.path:
    sys.path.insert(0, str(SRC))

import fuzz_kit  # noqa: E402
from hypothesis import given  # noqa: E402
from hypothesis import seed as hypothesis_seed  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


@dataclass
class Crash:
    kind: str
    where: str
    count: int = 0
    message: str = ""
    call: str = ""
    targets: set[str] = field(default_factory=set)


def load_targets() -> dict[str, fuzz_kit.Target]:
    for path in sorted(HERE.glob("test_fuzz_*.py")):
        importlib.import_module(path.stem)
    return fuzz_kit.TARGETS


def where_of(exc: BaseException) -> str:
    """The innermost frame in boardct's own code (else the innermost of all)."""
    frames = traceback.extract_tb(exc.__traceback__)
    mine = [f for f in frames if "boardct" in f.filename.replace("\\", "/").split("/src/")[-1]
            and "/tests/" not in f.filename.replace("\\", "/")]
    f = (mine or frames)[-1] if (mine or frames) else None
    if f is None:
        return "?"
    name = f.filename.replace("\\", "/")
    name = name.split("/src/", 1)[-1] if "/src/" in name else name.rsplit("/", 1)[-1]
    return f"{name}:{f.lineno} ({f.name})"


def run_target(target: fuzz_kit.Target, examples: int, chunk: int, seed: int,
               crashes: dict[tuple[str, str], Crash], quiet: bool) -> None:
    done_before = target.tried
    wall = time.perf_counter()

    def once(data: st.DataObject) -> None:
        fuzz_kit.LAST_CALL[0] = None
        try:
            fuzz_kit.run_one(target, data.draw)
        except Exception as exc:  # every crash is collected; the run goes on
            where = where_of(exc)
            if isinstance(exc, AssertionError):  # a broken oracle: one finding per target
                where += f" [{target.name}]"
            key = (type(exc).__name__, where)
            crash = crashes.get(key)
            if crash is None:
                crash = crashes[key] = Crash(*key)
            crash.count += 1
            crash.targets.add(target.name)
            call = fuzz_kit.last_call_text()
            if not crash.call or len(call) < len(crash.call):
                crash.call = call
                crash.message = (str(exc).splitlines() or [""])[0][:300]

    k = 0
    while target.tried - done_before < examples:
        n = min(chunk, examples - (target.tried - done_before))
        before = target.tried
        test = given(data=st.data())(once)
        test = fuzz_kit.deep_settings(n, seed)(test)
        test = hypothesis_seed(seed * 1_000_003 + k)(test)
        test()
        k += 1
        if target.tried == before:  # the strategy space is exhausted
            break
        target.seconds = time.perf_counter() - wall  # all of it: generating inputs too
        if not quiet:
            rate = target.tried / target.seconds if target.seconds else 0
            print(f"  {target.name}: {target.tried - done_before:,}/{examples:,} "
                  f"({rate:,.0f}/s)", file=sys.stderr, flush=True)


def report(targets: list[fuzz_kit.Target], crashes: dict[tuple[str, str], Crash],
           argv_text: str, seconds: float) -> int:
    print(f"# python tests/fuzz/run.py {argv_text}")
    print(f"# {seconds:,.0f} s in all")
    for line in fuzz_kit.count_table(targets):
        print(line)
    print()
    if not crashes:
        print("no crashes, no hangs, no state changed by a refusal")
        return 0
    print(f"{len(crashes)} distinct crashes (exception, innermost boardct line):")
    for c in sorted(crashes.values(), key=lambda c: (c.where, c.kind)):
        print(f"- {c.kind} at {c.where}: {c.count:,} inputs in {', '.join(sorted(c.targets))}")
        print(f"    {c.message}")
        print(f"    last call: {c.call}")
    return 1


def to_json(targets: list[fuzz_kit.Target], crashes: dict[tuple[str, str], Crash]) -> dict:
    return {
        "targets": [{"name": t.name, "game": t.game, "tried": t.tried, "seconds": t.seconds,
                     "ci_examples": t.ci_examples} for t in targets],
        "crashes": [{"kind": c.kind, "where": c.where, "count": c.count, "message": c.message,
                     "call": c.call, "targets": sorted(c.targets)} for c in crashes.values()],
    }


def merge(doc: dict, targets: list[fuzz_kit.Target],
          crashes: dict[tuple[str, str], Crash]) -> None:
    for t in doc["targets"]:
        targets.append(fuzz_kit.Target(t["name"], t["game"], lambda draw: None,
                                       t["ci_examples"], t["tried"], t["seconds"]))
    for c in doc["crashes"]:
        key = (c["kind"], c["where"])
        mine = crashes.setdefault(key, Crash(*key))
        mine.count += c["count"]
        mine.targets.update(c["targets"])
        if not mine.call or len(c["call"]) < len(mine.call):
            mine.call, mine.message = c["call"], c["message"]


def in_parallel(args: argparse.Namespace, games: list[str]) -> tuple[list, dict]:
    """One worker process per game, `args.jobs` at a time; their results merged."""
    import subprocess
    import tempfile
    from concurrent.futures import ThreadPoolExecutor

    common = ["--seed", str(args.seed), "--chunk", str(args.chunk), "--quiet"]
    if args.ci:
        common.append("--ci")
    elif args.per_target is not None:
        common += ["--per-target", str(args.per_target)]
    else:
        common += ["--per-game", str(args.per_game or 10_000)]
    if args.hazards:
        common.append("--hazards")
    for t in args.target or ():
        common += ["--target", t]
    folder = Path(tempfile.mkdtemp(prefix="boardct-fuzz-run-"))

    def work(game: str) -> dict:
        out = folder / f"{game}.json"
        subprocess.run([sys.executable, str(Path(__file__).resolve()), *common, "--game", game,
                        "--json", str(out)], check=False, stdout=subprocess.DEVNULL)
        if not args.quiet:
            print(f"  {game}: done", file=sys.stderr, flush=True)
        return json.loads(out.read_text(encoding="utf-8"))

    targets: list[fuzz_kit.Target] = []
    crashes: dict[tuple[str, str], Crash] = {}
    try:
        with ThreadPoolExecutor(args.jobs) as pool:
            for doc in pool.map(work, games):
                merge(doc, targets, crashes)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return targets, crashes


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    size = ap.add_mutually_exclusive_group()
    size.add_argument("--per-game", type=int,
                      help="inputs per game, shared by its targets in proportion to their CI "
                           "budgets")
    size.add_argument("--per-target", type=int, help="inputs per target")
    size.add_argument("--ci", action="store_true",
                      help="each target's CI budget (how long the ci profile takes once nothing "
                           "fails)")
    ap.add_argument("--game", action="append", help="only this game (repeatable)")
    ap.add_argument("--target", action="append", help="only targets whose name holds this")
    ap.add_argument("--seed", type=int, default=0, help="seed of the inputs (default 0)")
    ap.add_argument("--chunk", type=int, default=2000, help="inputs per Hypothesis run")
    ap.add_argument("--jobs", type=int, default=1,
                    help="games fuzzed at once, each in its own process (default 1)")
    ap.add_argument("--json", help="also write the counts and crashes to this JSON file")
    ap.add_argument("--hazards", action="store_true",
                    help="also draw inputs that make today's boardct allocate or loop without "
                         "bound (huge bot counts and decks, /dev/zero): each costs the time "
                         "limit and up to BOARDCT_FUZZ_MEMORY_GB")
    ap.add_argument("--list", action="store_true", help="list the targets and stop")
    ap.add_argument("--quiet", action="store_true", help="no progress lines")
    args = ap.parse_args(argv)

    if args.hazards:
        fuzz_kit.HAZARDS = True
    targets = list(load_targets().values())
    if args.game:
        targets = [t for t in targets if t.game in args.game]
    if args.target:
        targets = [t for t in targets if any(s in t.name for s in args.target)]
    if args.list:
        for t in targets:
            print(f"{t.game:<11} {t.name}")
        return 0
    argv_text = " ".join(sys.argv[1:]) if argv is None else " ".join(argv)
    t0 = time.perf_counter()
    if args.jobs > 1:
        games = list(dict.fromkeys(t.game for t in targets))
        ran, crashes = in_parallel(args, games)
    else:
        weight: dict[str, int] = {}  # a game's inputs are shared as its CI budgets are
        for t in targets:
            weight[t.game] = weight.get(t.game, 0) + t.ci_examples
        crashes = {}
        for t in targets:
            if args.ci:
                n = t.ci_examples
            elif args.per_target is not None:
                n = args.per_target
            else:
                n = math.ceil((args.per_game or 10_000) * t.ci_examples / weight[t.game])
            run_target(t, n, args.chunk, args.seed, crashes, args.quiet)
        ran = [t for t in targets if t.tried]
    if args.json:
        Path(args.json).write_text(json.dumps(to_json(ran, crashes), indent=1) + "\n",
                                   encoding="utf-8")
    return report(ran, crashes, argv_text, time.perf_counter() - t0)


if __name__ == "__main__":
    sys.exit(main())
