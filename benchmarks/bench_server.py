"""Load benchmark of `boardct serve` (issue 18): N concurrent FieldShift games of bot clients
over websockets on 127.0.0.1; prints moves/s and the p50/p99 acknowledgement latency.

    PYTHONPATH=src python benchmarks/bench_server.py --games 50 200 500 --seconds 20
    PYTHONPATH=src python benchmarks/bench_server.py --db postgresql+psycopg://u@h:p/db
    PYTHONPATH=src python benchmarks/bench_server.py --suite --pg postgresql+psycopg://u@h/db \
        --out benchmarks/results/server.json   # 200, 1,000, 2,000 games on SQLite (one
                                                # process) and PostgreSQL (two workers)

Each game has two seats, each a client of its own on its own websocket (protocol.md, version 1):
it says hello with its seat token, and whenever an update says it is to move, it sends a random
legal action (from the update's `legal` list) with a fresh move id and the version it saw,
after a think time (`--think` seconds on average, uniform between half and one and a half
times it, the first move of each game at a random moment in the first 1.5 times it, so the
games do not all move at the same instant; 0: at once, which measures the most moves/s the
server can do, not the latency a player sees). The latency is the time from sending a move
to reading its `ack`. A round's clock starts once every seat has been welcomed and has its
first state: the 2 x N hellos at the start (each the first use of a seat token, a database
write) are a connection storm, not play. The benchmark starts its own server process on a
free port (a fresh SQLite file in a temporary folder unless `--db` is given) so the clients
and the server do not share an event loop, and stops it at the end. On Linux it also prints
the server's CPU time a move (from /proc), which does not depend on how busy the machine is.

An update carries what changed of the seat's state (docs/server.md): each client merges it
into the state it has, as the pages do. The server is started with its quotas on creation
and sockets switched off (every bench client is one address, 127.0.0.1); the move quota
stays on (a seat moves every two seconds or so at the default think time).

This is a benchmark, not a test: nothing here asserts a figure. The target on the 2-core
development machine: server CPU at most 0.7 ms a move, and 1,000 games with p99 below 50 ms on
SQLite in one process, the clients beside it.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    rejects: int = 0
    errors: list[str] = field(default_factory=list)
    games_over: int = 0


def process_cpu(pid: int | None) -> float | None:
    """CPU seconds (user + system) the process `pid` and its children (the worker processes
    of `--workers N`, the agents' pool) have used, from /proc on Linux; None elsewhere or when
    unknown (the figure is then not printed)."""
    if pid is None:
        return None
    try:
        tick = os.sysconf("SC_CLK_TCK")
        stats = {}
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                try:
                    fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                except OSError:  # gone meanwhile
                    continue
                stats[int(entry.name)] = (int(fields[1]), int(fields[11]) + int(fields[12]))
        tree = {pid}
        for _ in range(3):  # the server, its workers, their pools
            tree |= {q for q, (parent, _) in stats.items() if parent in tree}
        return sum(stats[q][1] for q in tree if q in stats) / tick if pid in stats else None
    except (OSError, ValueError, IndexError, AttributeError):
        return None


try:  # the clients parse every update: the fast parser where installed (the server extra)
    import orjson

    loads = orjson.loads

    def dumps(doc: object) -> str:
        return orjson.dumps(doc).decode()
except ImportError:  # pragma: no cover
    loads, dumps = json.loads, json.dumps

# every bench client comes from 127.0.0.1: the per-address quotas on creating games and
# opening sockets would stop the benchmark, not measure it
UNLIMITED = ["--quota", "create=none", "--quota", "socket=none", "--max-open-games", "0",
             "--max-sockets", "0"]


def start_server(db: str, port: int, workers: int, folder: Path,
                 src: Path = SRC) -> subprocess.Popen:
    """`boardct serve` from the sources in `src` (another revision's for a before/after:
    `--server-src`), with the quotas above switched off where that server has them."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(src) + os.pathsep + env.get("PYTHONPATH", "")
    helptext = subprocess.run([sys.executable, "-m", "boardct", "serve", "--help"], env=env,
                              capture_output=True, text=True).stdout
    unlimited = UNLIMITED if "--quota" in helptext else []
    log = (folder / "serve.log").open("wb")
    proc = subprocess.Popen(
        [sys.executable, "-m", "boardct", "serve", "--host", "127.0.0.1", "--port", str(port),
         "--db", db, "--workers", str(workers), *unlimited],
        cwd=folder, env=env, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    import httpx

    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"the server exited: see {folder / 'serve.log'}")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/v1/catalog", timeout=2).status_code == 200:
                return proc
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    proc.kill()
    raise SystemExit("the server did not answer in 120 s")


async def create_games(base: str, n: int) -> list[tuple[str, list[str]]]:
    import httpx

    out: list[tuple[str, list[str]]] = []
    async with httpx.AsyncClient(base_url=base, timeout=60) as client:
        for i in range(n):
            r = await client.post("/api/v1/games", json={
                "game": "fieldshift", "options": {}, "public": False,
                "seats": [{"kind": "human", "name": f"A{i}"}, {"kind": "human", "name": f"B{i}"}]})
            r.raise_for_status()
            body = r.json()
            out.append((body["game_id"], [s["token"] for s in body["seats"]]))
    return out


async def seat_client(ws_base: str, game_id: str, token: str, rng: random.Random,
                      stats: Stats, stop_box: list[float], ready: asyncio.Event,
                      connected: list[int], think: float) -> None:
    import websockets

    url = f"{ws_base}/api/v1/games/{game_id}/ws"
    async with websockets.connect(url, max_size=2**22, open_timeout=120,
                                  ping_interval=None) as ws:
        await ws.send(dumps({"type": "hello", "v": 1, "token": token, "since": None}))
        # Connected once the server has welcomed the seat and sent its state: the round's
        # clock starts when every seat is in, so the storm of 2 x N hellos (each the first
        # use of a seat token, a database write) is not counted as play.
        last_state: dict | None = None
        version = -1
        while last_state is None:
            msg = loads(await asyncio.wait_for(ws.recv(), 120))
            if msg.get("type") == "error":
                raise RuntimeError(f"refused: {msg}")
            if msg.get("type") == "state":
                last_state = msg
                version = msg.get("version", -1)
        connected[0] += 1
        await ready.wait()
        stop_at = stop_box[0]  # fixed once every client is connected
        pending: dict[str, float] = {}

        need = [0]  # the version a state must have before this client moves again

        async def maybe_move(state: dict) -> None:
            if time.monotonic() >= stop_at or pending or state.get("over"):
                return
            if state.get("version", -1) < need[0]:
                return  # the update of our own last move has not arrived yet
            if not state.get("my_turn") or not state.get("legal"):
                return
            if think > 0:  # the first move of a game at a random moment: no burst at start
                low = 0.0 if need[0] == 0 else 0.5 * think
                await asyncio.sleep(rng.uniform(low, 1.5 * think))
            move_id = uuid.uuid4().hex
            text = rng.choice(state["legal"])["text"]
            pending[move_id] = time.perf_counter()
            await ws.send(dumps({"type": "move", "id": move_id, "text": text,
                                 "version": state["version"]}))

        await maybe_move(last_state)
        while time.monotonic() < stop_at:
            try:
                raw = await asyncio.wait_for(ws.recv(),
                                             timeout=max(0.05, stop_at - time.monotonic()))
            except TimeoutError:
                break
            msg = loads(raw)
            kind = msg.get("type")
            if kind == "ack":
                sent = pending.pop(msg.get("id"), None)
                if sent is not None:
                    stats.latencies.append(time.perf_counter() - sent)
                    need[0] = msg.get("version", 0)
            elif kind == "reject":
                pending.pop(msg.get("id"), None)
                stats.rejects += 1
                if len(stats.errors) < 5:
                    stats.errors.append(f"reject: {msg}"[:200])
                last_state = None
                await ws.send(dumps({"type": "state"}))  # resync
            elif kind in ("state", "update"):
                # an update carries what changed: merged into the state the client has
                state = msg if kind == "state" else {**(last_state or {}),
                                                     **(msg.get("state") or {})}
                if state.get("version", -1) >= version:
                    version = state.get("version", -1)
                    last_state = state
                if state.get("over"):
                    stats.games_over += 1
                    return
            elif kind == "error":
                stats.errors.append(str(msg)[:200])
                return
            if last_state is not None:
                await maybe_move(last_state)


async def run_round(base: str, ws_base: str, games: int, seconds: float, seed: int,
                    think: float, server_pid: int | None = None) -> dict:
    created = await create_games(base, games)
    stats = Stats()
    ready = asyncio.Event()
    connected = [0]
    t_connect = time.monotonic()
    stop_box = [time.monotonic() + 3600]
    rng = random.Random(seed)

    async def client(game_id: str, token: str, k: int) -> None:
        try:
            await seat_client(ws_base, game_id, token, random.Random(rng.random() + k), stats,
                              stop_box, ready, connected, think)
        except Exception as exc:  # a client's failure is reported, the round goes on
            stats.errors.append(f"{type(exc).__name__}: {exc}"[:200])

    tasks = []
    for k, (gid, tokens) in enumerate(created):
        for token in tokens:
            tasks.append(asyncio.ensure_future(client(gid, token, k)))
    while connected[0] + len(stats.errors) < 2 * games:
        await asyncio.sleep(0.05)
        if time.monotonic() - t_connect > 300:
            break
    connect_s = time.monotonic() - t_connect
    cpu0 = time.process_time()
    server0 = process_cpu(server_pid)
    stop_box[0] = time.monotonic() + seconds
    t0 = time.perf_counter()
    ready.set()
    await asyncio.gather(*tasks)
    wall = time.perf_counter() - t0
    server1 = process_cpu(server_pid)
    server_cpu = (server1 - server0) if server0 is not None and server1 is not None else None
    lat = sorted(stats.latencies)

    def pct(p: float) -> float:
        return lat[min(len(lat) - 1, int(p * len(lat)))] * 1000 if lat else float("nan")

    return {"games": games, "moves": len(lat), "seconds": round(wall, 2),
            "moves_per_s": round(len(lat) / wall, 1) if wall else 0.0,
            "p50_ms": round(pct(0.50), 2), "p99_ms": round(pct(0.99), 2),
            "mean_ms": round(statistics.fmean(lat) * 1000, 2) if lat else None,
            "rejects": stats.rejects, "games_over": stats.games_over,
            "client_cpu_s": round(time.process_time() - cpu0, 2),
            "server_cpu_s": round(server_cpu, 2) if server_cpu is not None else None,
            "server_cpu_ms_per_move": round(1000 * server_cpu / len(lat), 2)
            if server_cpu is not None and lat else None,
            "connect_s": round(connect_s, 2), "errors": stats.errors[:5],
            "error_count": len(stats.errors)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, nargs="+", default=[50, 200, 500])
    ap.add_argument("--seconds", type=float, default=20.0, help="measured time per round")
    ap.add_argument("--db", default=None, help="database URL (default: a fresh SQLite file)")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--think", type=float, default=1.0,
                    help="average seconds a bot thinks before each move (0: none)")
    ap.add_argument("--url", default=None,
                    help="use a running server at this base URL instead of starting one")
    ap.add_argument("--json", action="store_true", help="one JSON line per round")
    ap.add_argument("--suite", action="store_true",
                    help="the issue's set: --games 200 1000 2000 on SQLite (one process), then "
                         "on PostgreSQL (--pg) with two workers")
    ap.add_argument("--pg", default=os.environ.get("BOARDCT_BENCH_PG"),
                    help="PostgreSQL URL for --suite (default $BOARDCT_BENCH_PG; none: the "
                         "PostgreSQL half is left out)")
    ap.add_argument("--only", choices=["sqlite", "postgresql"], default=None,
                    help="with --suite: only this half")
    ap.add_argument("--out", default=None, help="also write every round (JSON) to this file")
    ap.add_argument("--server-src", default=str(SRC),
                    help="run the server from this src folder (another revision's, for a "
                         "before/after: git archive REV src | tar -x -C /tmp/rev)")
    args = ap.parse_args(argv)
    if args.suite:
        games = args.games if args.games != [50, 200, 500] else [200, 1000, 2000]
        plans = [("sqlite", None, 1, games)]
        if args.pg:
            plans.append(("postgresql", args.pg, 2, games))
        plans = [p for p in plans if args.only in (None, p[0])]
    else:
        plans = [("sqlite" if not args.db or args.db.startswith("sqlite") else "postgresql",
                  args.db, args.workers, args.games)]
    rounds: list[dict] = []
    for name, db_url, workers, games_list in plans:
        rounds += serve_and_run(args, name, db_url, workers, games_list)
    if args.out:
        doc = {"benchmark": "bench_server.py", "think_s": args.think, "seconds": args.seconds,
               "server_src": args.server_src,
               "machine": {"cpus": os.cpu_count(), "python": platform.python_version(),
                           "load_average_at_end": os.getloadavg()[0]
                           if hasattr(os, "getloadavg") else None},
               "rounds": rounds}
        Path(args.out).write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    return 0


def serve_and_run(args: argparse.Namespace, name: str, db_url: str | None, workers: int,
                  games_list: list[int]) -> list[dict]:
    """Start a server on `db_url` (None: a fresh SQLite file) with `workers` processes (or
    use --url) and run one round for each number of games."""
    out = []
    with tempfile.TemporaryDirectory(prefix="boardct-bench-") as tmp:
        folder = Path(tmp)
        proc = None
        if args.url:
            base = args.url.rstrip("/")
        else:
            db = db_url or f"sqlite:///{(folder / 'bench.db').as_posix()}"
            port = free_port()
            proc = start_server(db, port, workers, folder, Path(args.server_src))
            base = f"http://127.0.0.1:{port}"
        ws_base = "ws" + base[4:]
        try:
            print(f"server {base}, db {name}, {workers} worker(s), "
                  f"{args.seconds:g} s a round, think time {args.think:g} s", flush=True)
            for games in games_list:
                res = asyncio.run(run_round(base, ws_base, games, args.seconds, args.seed,
                                            args.think, proc.pid if proc else None))
                res |= {"db": name, "workers": workers, "server_src": args.server_src,
                        "load_average": os.getloadavg()[0] if hasattr(os, "getloadavg")
                        else None}
                out.append(res)
                if args.json:
                    print(json.dumps(res), flush=True)
                else:
                    print(f"{games:4d} games: {res['moves']:6d} moves in {res['seconds']:.1f} s "
                          f"= {res['moves_per_s']:7.1f} moves/s, ack latency p50 "
                          f"{res['p50_ms']:.1f} ms, p99 {res['p99_ms']:.1f} ms "
                          f"(rejects {res['rejects']}, errors {res['error_count']}, "
                          f"connect {res['connect_s']:.1f} s)", flush=True)
                    if res["server_cpu_s"] is not None:
                        print(f"      server CPU {res['server_cpu_s']:.1f} s = "
                              f"{res['server_cpu_ms_per_move']:.2f} ms a move; clients "
                              f"{res['client_cpu_s']:.1f} s; load average "
                              f"{res['load_average']:.1f}", flush=True)
                    for e in res["errors"]:
                        print("   error:", e)
        finally:
            if proc is not None:
                proc.terminate()
                try:
                    proc.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    proc.kill()
    return out


if __name__ == "__main__":
    sys.exit(main())
