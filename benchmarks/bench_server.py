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
from typing import Any

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
    late: int = 0  # moves sent in the round whose ack did not come within DRAIN_S after it


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
    # the server's own timings, a line a second (server/timings.py; a server without that
    # module ignores the variable)
    env["BOARDCT_TIMINGS"] = str(folder / "timings.jsonl")
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
        async def one(i: int) -> tuple[str, list[str]]:
            r = await client.post("/api/v1/games", json={
                "game": "fieldshift", "options": {}, "public": False,
                "seats": [{"kind": "human", "name": f"A{i}"}, {"kind": "human", "name": f"B{i}"}]})
            r.raise_for_status()
            body = r.json()
            return body["game_id"], [s["token"] for s in body["seats"]]

        for k in range(0, n, 8):  # a few at once: the set-up is not what is measured
            out += await asyncio.gather(*(one(i) for i in range(k, min(n, k + 8))))
    return out


# -- the clients: each process runs its share of the seats on one event loop ------------------

DRAIN_S = 30.0  # after the round, seconds the clients wait for the acks of moves already sent
LAG_TICK = 0.01  # the clients' event-loop lag monitor: a wake-up every 10 ms
PING_EVERY = 30.0  # seconds between two pings of a client waiting for the round to start


@dataclass
class Share:
    """What one client process is given: its games' seats and the round's settings."""

    ws_base: str
    seats: list[tuple[str, str, int]]  # (game id, seat token, k of the game)
    seed: int
    think: float
    seconds: float


def new_loop() -> asyncio.AbstractEventLoop:
    """uvloop where installed (Linux and macOS, with uvicorn[standard]: the server runs on it
    too), else asyncio's own loop (Windows): the clients' loop costs less CPU beside the
    server."""
    try:
        import uvloop
    except ImportError:
        return asyncio.new_event_loop()
    return uvloop.new_event_loop()


def client_process(share: Share, conn: Any) -> None:
    """A client process (`multiprocessing`, spawned): connect every seat of `share`, tell the
    parent, wait for its go, play the round, send back what was measured."""
    import gc

    loop = new_loop()
    try:
        out = loop.run_until_complete(play_share(share, conn))
    except BaseException as exc:  # told to the parent, which reports it
        out = {"fatal": f"{type(exc).__name__}: {exc}"[:300]}
    finally:
        gc.enable()
    conn.send(out)
    conn.close()
    loop.close()


async def play_share(share: Share, conn: Any) -> dict:
    import gc

    loop = asyncio.get_running_loop()
    stats = Stats()
    go: asyncio.Future[float] = loop.create_future()
    connected = [0]
    rng = random.Random(share.seed)

    async def client(game_id: str, token: str, k: int) -> None:
        try:
            await seat_client(share.ws_base, game_id, token, random.Random(rng.random() + k),
                              stats, go, connected, share.think)
        except Exception as exc:  # a client's failure is reported, the round goes on
            stats.errors.append(f"{type(exc).__name__}: {exc}"[:200])

    tasks = [loop.create_task(client(gid, token, k)) for gid, token, k in share.seats]
    while connected[0] + len(stats.errors) < len(share.seats):
        await asyncio.sleep(0.05)
    # The clients' own pauses would be measured as the server's latency: what the set-up
    # made is kept out of the collector's sight, and its young collections run rarely.
    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 50, 100)
    conn.send({"connected": connected[0], "errors": stats.errors[:5]})
    await loop.run_in_executor(None, conn.recv)  # the parent's go
    cpu0 = time.process_time()
    stop_at = time.monotonic() + share.seconds
    lags: list[float] = []
    lag_task = loop.create_task(lag_monitor(lags, stop_at))
    go.set_result(stop_at)
    await asyncio.gather(*tasks)
    await lag_task
    return {"latencies": stats.latencies, "rejects": stats.rejects,
            "games_over": stats.games_over, "errors": stats.errors[:5],
            "error_count": len(stats.errors), "late": stats.late,
            "cpu_s": time.process_time() - cpu0, "lags": lags}


async def lag_monitor(lags: list[float], stop_at: float) -> None:
    """How late the clients' event loop wakes up (a wake-up asked every LAG_TICK): a busy
    client loop reads acks late, and that lateness would be counted as latency."""
    while (now := time.perf_counter()) < stop_at:
        await asyncio.sleep(LAG_TICK)
        lags.append(time.perf_counter() - now - LAG_TICK)


async def seat_client(ws_base: str, game_id: str, token: str, rng: random.Random,
                      stats: Stats, go: asyncio.Future[float], connected: list[int],
                      think: float) -> None:
    from websockets.asyncio.client import connect

    url = f"{ws_base}/api/v1/games/{game_id}/ws"
    # no compression offered (the server declines it anyway), no pings: the least work a
    # message on the client side
    async with connect(url, max_size=2**22, open_timeout=120, ping_interval=None,
                       compression=None, close_timeout=2) as ws:
        # as the pages do: a move's update stands for its ack (`ack_in_update`); a server
        # that does not know the option sends `ack` frames, read below just the same
        await ws.send(dumps({"type": "hello", "v": 1, "token": token, "since": None,
                             "ack_in_update": True}))
        # Connected once the server has welcomed the seat and sent its state: the round's
        # clock starts when every seat is in, so the storm of 2 x N hellos (each the first
        # use of a seat token, a database write) is not counted as play.
        state: dict | None = None
        while state is None:
            msg = loads(await ws.recv(decode=False))  # the frame's bytes: orjson reads them
            if msg.get("type") == "error":
                raise RuntimeError(f"refused: {msg}")
            if msg.get("type") == "state":
                state = msg
        connected[0] += 1
        while not go.done():  # a ping now and then, as the pages do: the server closes a
            try:              # socket that says nothing for its idle timeout (120 s)
                await asyncio.wait_for(asyncio.shield(go), PING_EVERY)
            except TimeoutError:
                await ws.send(dumps({"type": "ping"}))
        stop_at = go.result()
        pending: dict[str, float] = {}
        need = 0  # the version a state must have before this client moves again
        version = state.get("version", -1)

        async def maybe_move() -> None:
            assert state is not None
            if pending or state.get("over") or state.get("version", -1) < need:
                return  # waiting for our ack, or for the update of our own last move
            if not state.get("my_turn") or not state.get("legal"):
                return
            if think > 0:  # the first move of a game at a random moment: no burst at start
                await asyncio.sleep(rng.uniform(0.0 if need == 0 else 0.5 * think,
                                                1.5 * think))
            if time.monotonic() >= stop_at:
                return
            move_id = uuid.uuid4().hex
            text = rng.choice(state["legal"])["text"]
            frame = dumps({"type": "move", "id": move_id, "text": text,
                           "version": state["version"]})
            pending[move_id] = time.perf_counter()  # the latency: from here to the ack read
            await ws.send(frame)

        await maybe_move()
        while True:
            # Until the round's end; after it, only while one of our moves waits for its ack
            # (at most DRAIN_S): a slow ack is counted, not cut off by the end of the round.
            now = time.monotonic()
            draining = now >= stop_at
            if draining and not pending:
                break
            try:
                async with asyncio.timeout(DRAIN_S if draining else stop_at - now):
                    raw = await ws.recv(decode=False)
            except TimeoutError:
                if draining:
                    stats.late += len(pending)  # no ack in DRAIN_S after the round
                    break
                continue
            read = time.perf_counter()
            msg = loads(raw)
            kind = msg.get("type")
            if kind == "ack":
                sent = pending.pop(msg.get("id"), None)
                if sent is not None:
                    stats.latencies.append(read - sent)
                    need = msg.get("version", 0)
            elif kind == "update":
                # an update carries what changed: merged into the state the client has
                changed = msg.get("state") or {}
                if msg.get("id") is not None:  # our move's update: its acknowledgement
                    sent = pending.pop(msg["id"], None)
                    if sent is not None:
                        stats.latencies.append(read - sent)
                        need = msg.get("version", 0)
                if changed.get("version", -1) >= version:
                    version = changed.get("version", -1)
                    state = {**state, **changed}
                if changed.get("over"):
                    stats.games_over += 1
                    return
            elif kind == "state":
                if msg.get("version", -1) >= version:
                    version = msg.get("version", -1)
                    state = msg
                if msg.get("over"):
                    stats.games_over += 1
                    return
            elif kind == "reject":
                pending.pop(msg.get("id"), None)
                stats.rejects += 1
                if len(stats.errors) < 5:
                    stats.errors.append(f"reject: {msg}"[:200])
                await ws.send(dumps({"type": "state"}))  # resync
                continue
            elif kind == "error":
                stats.errors.append(str(msg)[:200])
                return
            if time.monotonic() < stop_at:
                await maybe_move()


def split(seats: list[tuple[str, str, int]], n: int) -> list[list[tuple[str, str, int]]]:
    """`n` shares of the seats, each game's two seats in the same share (a game's moves then
    wait on one client loop, as two players' browsers would not, but no share waits on
    another's game)."""
    games: dict[str, list[tuple[str, str, int]]] = {}
    for s in seats:
        games.setdefault(s[0], []).append(s)
    shares: list[list[tuple[str, str, int]]] = [[] for _ in range(n)]
    for i, game_seats in enumerate(games.values()):
        shares[i % n] += game_seats
    return [s for s in shares if s]


def client_processes(games: int, asked: int | None) -> int:
    """The number of client processes: as asked, else one per 500 games (at most 4)."""
    if asked:
        return asked
    return max(1, min(4, -(-games // 500)))


def server_timings(path: Path | None, start: float, end: float) -> dict:
    """What the server measured between the wall-clock times `start` and `end` (its
    BOARDCT_TIMINGS lines, server/timings.py), summed up: the longest and the worst
    second's p99 of each series (ms), the collector's pauses by generation."""
    if path is None or not path.exists():
        return {}
    lines = []
    for text in path.read_text(encoding="utf-8").splitlines():
        try:
            line = json.loads(text)
        except ValueError:
            continue
        if start <= line.get("t", 0) <= end + 1:
            lines.append(line)
    if not lines:
        return {}
    out: dict[str, Any] = {}
    for key in ("lag", "busy", "db_wait", "db_write", "db_back"):
        seen = [x[key] for x in lines if x.get(key, {}).get("n")]
        if seen:
            out[key] = {"max": max(x["max"] for x in seen),
                        "worst_p99": max(x["p99"] for x in seen),
                        "median_p99": sorted(x["p99"] for x in seen)[len(seen) // 2]}
    batches = [x["batch"] for x in lines if x.get("batch", {}).get("n")]
    if batches:  # the batch sizes are written as ms (n / 1000)
        out["commits"] = sum(b["n"] for b in batches)
        out["batch_max"] = max(b["max"] for b in batches)
    gcs: dict[str, dict[str, float]] = {}
    for x in lines:
        for gen, g in x.get("gc", {}).items():
            acc = gcs.setdefault(gen, {"n": 0, "total_ms": 0.0, "max_ms": 0.0,
                                       "cpu_max_ms": 0.0, "cpu_total_ms": 0.0})
            acc["n"] += g["n"]
            acc["total_ms"] = round(acc["total_ms"] + g["total"], 2)
            acc["max_ms"] = max(acc["max_ms"], g["max"])
            acc["cpu_max_ms"] = max(acc["cpu_max_ms"], g.get("cpu_max", 0.0))
            acc["cpu_total_ms"] = round(acc["cpu_total_ms"] + g.get("cpu_total", 0.0), 2)
    out["gc"] = gcs
    return out


def run_round(base: str, ws_base: str, games: int, seconds: float, seed: int,
              think: float, server_pid: int | None = None, procs: int | None = None,
              timings: Path | None = None) -> dict:
    """One round: create the games, start the client processes, wait until every seat is
    in, then play `seconds` and gather what each process measured."""
    import multiprocessing

    created = asyncio.run(create_games(base, games))
    seats = [(gid, token, k) for k, (gid, tokens) in enumerate(created) for token in tokens]
    shares = split(seats, client_processes(games, procs))
    ctx = multiprocessing.get_context("spawn")  # the same on Linux and Windows
    t_connect = time.monotonic()
    children = []
    for i, share in enumerate(shares):
        parent_end, child_end = ctx.Pipe()
        proc = ctx.Process(target=client_process, daemon=True, args=(
            Share(ws_base, share, seed * 1000 + i, think, seconds), child_end))
        proc.start()
        child_end.close()
        children.append((proc, parent_end))
    for _proc, pipe in children:
        if not pipe.poll(600):
            raise SystemExit("a client process did not connect its seats in 600 s")
        hello = pipe.recv()
        if "fatal" in hello:
            raise SystemExit(f"a client process failed: {hello['fatal']}")
    connect_s = time.monotonic() - t_connect
    server0 = process_cpu(server_pid)
    print(f"  {games} games: every seat in after {connect_s:.1f} s; round of {seconds:g} s "
          "started", file=sys.stderr, flush=True)
    t0 = time.perf_counter()
    wall0 = time.time()
    for _, pipe in children:
        pipe.send("go")
    results = []
    for proc, pipe in children:
        if not pipe.poll(seconds + DRAIN_S + 120):
            raise SystemExit("a client process did not finish its round")
        results.append(pipe.recv())
        proc.join(30)
    wall = time.perf_counter() - t0
    server1 = process_cpu(server_pid)
    for r in results:
        if "fatal" in r:
            raise SystemExit(f"a client process failed: {r['fatal']}")
    server_cpu = (server1 - server0) if server0 is not None and server1 is not None else None
    lat = sorted(x for r in results for x in r["latencies"])
    lags = sorted(x for r in results for x in r["lags"])
    client_cpu = sum(r["cpu_s"] for r in results)
    errors = [e for r in results for e in r["errors"]]

    def pct(values: list[float], p: float) -> float:
        return values[min(len(values) - 1, int(p * len(values)))] * 1000 if values \
            else float("nan")

    return {"games": games, "moves": len(lat), "seconds": round(wall, 2),
            "moves_per_s": round(len(lat) / seconds, 1) if seconds else 0.0,
            "p50_ms": round(pct(lat, 0.50), 2), "p99_ms": round(pct(lat, 0.99), 2),
            "p999_ms": round(pct(lat, 0.999), 2),
            "max_ms": round(lat[-1] * 1000, 2) if lat else None,
            "mean_ms": round(statistics.fmean(lat) * 1000, 2) if lat else None,
            "rejects": sum(r["rejects"] for r in results),
            "games_over": sum(r["games_over"] for r in results),
            "late": sum(r["late"] for r in results),
            "client_procs": len(results),
            "client_cpu_s": round(client_cpu, 2),
            "client_cpu_ms_per_move": round(1000 * client_cpu / len(lat), 2) if lat else None,
            "client_lag_p99_ms": round(pct(lags, 0.99), 2),
            "client_lag_max_ms": round(lags[-1] * 1000, 2) if lags else None,
            "server_cpu_s": round(server_cpu, 2) if server_cpu is not None else None,
            "server_cpu_ms_per_move": round(1000 * server_cpu / len(lat), 2)
            if server_cpu is not None and lat else None,
            "connect_s": round(connect_s, 2), "errors": errors[:5],
            "error_count": sum(r["error_count"] for r in results),
            "server": server_timings(timings, wall0, time.time())}


def describe_timings(t: dict) -> str:
    """One line of the server's timings (server_timings)."""
    parts = []
    for key, name in (("lag", "loop lag"), ("busy", "loop CPU per 10 ms"),
                      ("db_wait", "commit queue"),
                      ("db_write", "commit"), ("db_back", "commit hand-back")):
        if key in t:
            parts.append(f"{name} p99 {t[key]['median_p99']:.1f} (worst s "
                         f"{t[key]['worst_p99']:.1f}) max {t[key]['max']:.0f} ms")
    if "commits" in t:
        parts.append(f"{t['commits']} commits, up to {t['batch_max']:.0f} moves each")
    gcs = ", ".join(f"gen{g} {v['n']}x max {v['max_ms']:.0f} ms ({v['cpu_max_ms']:.0f} CPU)"
                    for g, v in sorted(t.get("gc", {}).items()))
    if gcs:
        parts.append(f"gc {gcs}")
    return "; ".join(parts)


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
    ap.add_argument("--client-procs", type=int, default=None,
                    help="client processes sharing the games (default: one per 500 games, at "
                         "most 4)")
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
                res = run_round(base, ws_base, games, args.seconds, args.seed, args.think,
                                proc.pid if proc else None, args.client_procs,
                                None if args.url else folder / "timings.jsonl")
                res |= {"db": name, "workers": workers, "server_src": args.server_src,
                        "load_average": os.getloadavg()[0] if hasattr(os, "getloadavg")
                        else None}
                out.append(res)
                if args.json:
                    print(json.dumps(res), flush=True)
                else:
                    print(f"{games:4d} games: {res['moves']:6d} moves in {args.seconds:g} s "
                          f"= {res['moves_per_s']:7.1f} moves/s, ack latency p50 "
                          f"{res['p50_ms']:.1f} ms, p99 {res['p99_ms']:.1f} ms, max "
                          f"{res['max_ms'] or 0:.0f} ms (rejects {res['rejects']}, errors "
                          f"{res['error_count']}, no ack {res['late']}, connect "
                          f"{res['connect_s']:.1f} s)", flush=True)
                    print(f"      clients: {res['client_procs']} process(es), CPU "
                          f"{res['client_cpu_s']:.1f} s = {res['client_cpu_ms_per_move'] or 0:.2f}"
                          f" ms a move, event-loop lag p99 {res['client_lag_p99_ms']:.1f} ms",
                          flush=True)
                    if res["server_cpu_s"] is not None:
                        print(f"      server CPU {res['server_cpu_s']:.1f} s = "
                              f"{res['server_cpu_ms_per_move']:.2f} ms a move; load average "
                              f"{res['load_average']:.1f}", flush=True)
                    if res["server"]:
                        print(f"      server: {describe_timings(res['server'])}", flush=True)
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
