"""Tournament and balance reports: JSON, CSV, Markdown and PNG charts.

The charts need matplotlib, which only they use: it comes with the `report` extra
(`pip install "boardct[report]"`), and the commands that draw charts call `require_charts()`
before they play anything, so a missing matplotlib is one line, not a traceback after the games.
"""

from __future__ import annotations

import csv
import json
import math
from pathlib import Path
from statistics import mean

from boardct.arena.ratings import elo_difference, ratings_with_ci, score_interval
from boardct.arena.runner import GameResult
from boardct.core.errors import BoardctError
from boardct.core.outcome import Termination

CHARTS_EXTRA = "report"


def require_charts() -> None:
    """Raise a `BoardctError` that says how to install matplotlib when it is missing."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise BoardctError(f'the charts need matplotlib, which is not installed: '
                           f'pip install "boardct[{CHARTS_EXTRA}]"') from None


def save_records(results: list[GameResult], out: Path) -> None:
    folder = out / "records"
    folder.mkdir(parents=True, exist_ok=True)
    for r in results:
        path = folder / f"game-{r.index:05d}.json"
        path.write_text(json.dumps(r.record, indent=1) + "\n", encoding="utf-8")


def write_results(results: list[GameResult], out: Path) -> None:
    rows = [{k: v for k, v in r.to_dict().items() if k != "record"} for r in results]
    (out / "results.json").write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")
    with (out / "results.csv").open("w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(["index", "game", "variant", "seat1", "seat2", "score1", "score2", "reason",
                    "length", "seconds", "seed"])
        for r in results:
            w.writerow([r.index, r.game, r.variant, r.agents[0], r.agents[1], r.returns[0],
                        r.returns[1], r.reason, r.length, r.seconds, r.seed])


# -- tournaments -------------------------------------------------------------------------------
def tournament_summary(agents: list[str], results: list[GameResult]) -> dict:
    """Win/draw/loss per ordered pair, ratings with intervals, first-player score, lengths."""
    idx = {a: i for i, a in enumerate(agents)}
    n = len(agents)
    wdl = [[[0, 0, 0] for _ in range(n)] for _ in range(n)]
    pairings = []
    for r in results:
        a, b = idx[r.agents[0]], idx[r.agents[1]]
        s = r.returns[0]
        pairings.append((a, b, s))
        k = 0 if s == 1.0 else (1 if s == 0.5 else 2)
        wdl[a][b][k] += 1
        wdl[b][a][2 - k] += 1
    ratings = ratings_with_ci(n, pairings)
    pairs = []
    for i in range(n):
        for j in range(i + 1, n):
            wins, draws, losses = wdl[i][j]
            if not wins + draws + losses:
                continue
            scores = [1.0] * wins + [0.5] * draws + [0.0] * losses
            low, high = score_interval(scores)
            pairs.append({"agents": [agents[i], agents[j]], "games": len(scores),
                          "score": round(mean(scores), 4),
                          "interval": [round(low, 4), round(high, 4)],
                          "elo_difference": [_finite(elo_difference(low)),
                                             _finite(elo_difference(high))]})
    first = mean(r.returns[0] for r in results) if results else 0.0
    first_low, first_high = score_interval([r.returns[0] for r in results])
    lengths = [r.length for r in results]
    return {
        "agents": agents,
        "games": len(results),
        "wdl": wdl,
        "ratings": [{"agent": a, "elo": round(r[0], 1), "low": _finite(r[1]),
                     "high": _finite(r[2])} for a, r in zip(agents, ratings, strict=True)],
        "pairs": pairs,
        "first_player_score": round(first, 4),
        "first_player_interval": [round(first_low, 4), round(first_high, 4)],
        "length_mean": round(mean(lengths), 2) if lengths else 0.0,
        "length_min": min(lengths, default=0),
        "length_max": max(lengths, default=0),
        "endings": _count(r.ending for r in results),
    }


def _finite(x: float) -> float | None:
    """A bound for JSON: rounded, or None where there is none (+-inf)."""
    return None if math.isinf(x) else round(x, 1)


def _bounds(low: float | None, high: float | None, fmt: str) -> str:
    if low is None and high is None:
        return "no bound"
    if high is None:
        return "at least " + fmt.format(low)
    if low is None:
        return "at most " + fmt.format(high)
    return f"{fmt.format(low)} .. {fmt.format(high)}"


def _count(items) -> dict[str, int]:
    out: dict[str, int] = {}
    for x in items:
        out[x] = out.get(x, 0) + 1
    return dict(sorted(out.items()))


def tournament_markdown(title: str, summary: dict) -> str:
    agents = summary["agents"]
    lines = [f"# {title}", "", f"{summary['games']} games.", "",
             "## Results (row against column: wins-draws-losses, score)", "",
             "| | " + " | ".join(agents) + " |", "|---" * (len(agents) + 1) + "|"]
    for i, a in enumerate(agents):
        cells = []
        for j in range(len(agents)):
            if i == j:
                cells.append("—")
                continue
            w, d, lo = summary["wdl"][i][j]
            total = w + d + lo
            score = (w + 0.5 * d) / total if total else 0.0
            cells.append(f"{w}-{d}-{lo} ({score:.0%})")
        lines.append(f"| {a} | " + " | ".join(cells) + " |")
    lines += ["", "## Ratings (Bradley-Terry, Elo scale, 95% bootstrap interval)", "",
              "| agent | Elo | interval |", "|---|---|---|"]
    for r in sorted(summary["ratings"], key=lambda r: -r["elo"]):
        bounds = _bounds(r["low"], r["high"], "{:.0f}")
        lines.append(f"| {r['agent']} | {r['elo']:.0f} | {bounds} |")
    lines += ["", "An agent that won every game has no upper bound, one that lost every game no "
              "lower bound.", "", "## Pairings (score of the first, 95% Wilson interval, and "
              "the Elo difference that interval allows)", "",
              "| pairing | games | score | interval | Elo difference |", "|---|---|---|---|---|"]
    for pr in summary["pairs"]:
        a, b = pr["agents"]
        low, high = pr["interval"]
        elo_low, elo_high = pr["elo_difference"]
        lines.append(f"| {a} v {b} | {pr['games']} | {pr['score']:.1%} | {low:.1%} .. "
                     f"{high:.1%} | {_bounds(elo_low, elo_high, '{:+.0f}')} |")
    lines += ["", "## Games", "",
              f"- First player's score: {summary['first_player_score']:.1%} "
              "(wins plus half the draws, over all games; 95% interval "
              f"{summary['first_player_interval'][0]:.1%} .. "
              f"{summary['first_player_interval'][1]:.1%})",
              f"- Length (actions): mean {summary['length_mean']}, "
              f"min {summary['length_min']}, max {summary['length_max']}",
              "- Endings: " + ", ".join(f"{k.replace('_', ' ')} {v}"
                                        for k, v in summary["endings"].items()),
              "", "Charts: `scores.png`, `ratings.png`, `lengths.png`.", ""]
    return "\n".join(lines)


def tournament_charts(summary: dict, results: list[GameResult], out: Path) -> None:
    require_charts()
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    agents = summary["agents"]
    n = len(agents)
    grid = [[float("nan")] * n for _ in range(n)]
    for i in range(n):
        for j in range(n):
            w, d, lo = summary["wdl"][i][j]
            if w + d + lo:
                grid[i][j] = (w + 0.5 * d) / (w + d + lo)
    fig, ax = plt.subplots(figsize=(1.6 + 1.2 * n, 1.2 + 1.0 * n))
    im = ax.imshow(grid, vmin=0, vmax=1, cmap="RdYlGn")
    ax.set_xticks(range(n), agents, rotation=30, ha="right")
    ax.set_yticks(range(n), agents)
    for i in range(n):
        for j in range(n):
            if grid[i][j] == grid[i][j]:
                ax.text(j, i, f"{grid[i][j]:.0%}", ha="center", va="center")
    ax.set_title("Score of row against column")
    fig.colorbar(im)
    fig.tight_layout()
    fig.savefig(out / "scores.png", dpi=100)
    plt.close(fig)

    ratings = summary["ratings"]
    fig, ax = plt.subplots(figsize=(2 + 1.2 * n, 3.5))
    xs = range(n)
    elos = [r["elo"] for r in ratings]
    # An open bound is drawn as an arrow from the rating.
    lows = [r["elo"] if r["low"] is None else r["low"] for r in ratings]
    highs = [r["elo"] if r["high"] is None else r["high"] for r in ratings]
    ax.bar(xs, elos, color="steelblue")
    ax.errorbar(xs, elos, yerr=[[e - lo for e, lo in zip(elos, lows, strict=True)],
                                [h - e for e, h in zip(elos, highs, strict=True)]],
                fmt="none", color="black")
    for x, r in zip(xs, ratings, strict=True):
        for bound, marker in ((r["high"], "^"), (r["low"], "v")):
            if bound is None:
                ax.plot([x], [r["elo"]], marker=marker, color="black")
    ax.set_xticks(list(xs), agents, rotation=30, ha="right")
    ax.set_ylabel("Elo (Bradley-Terry)")
    ax.set_ylim(min(lows) - 50, max(highs) + 50)
    fig.tight_layout()
    fig.savefig(out / "ratings.png", dpi=100)
    plt.close(fig)

    fig, ax = plt.subplots(figsize=(5, 3.5))
    ax.hist([r.length for r in results], bins=20, color="gray")
    ax.set_xlabel("actions per game")
    ax.set_ylabel("games")
    fig.tight_layout()
    fig.savefig(out / "lengths.png", dpi=100)
    plt.close(fig)


# -- balance -----------------------------------------------------------------------------------
METRICS = ("advantage", "balance", "drawishness", "completion", "duration", "decisiveness")


def balance_metrics(results: list[GameResult]) -> dict:
    """Ludii-style metrics of a set of self-play games of one variant:
    advantage: the first player's score (wins plus half the draws), with its 95% interval;
    balance: 1 minus the gap between the seats' scores (1 is perfectly even);
    drawishness: the share of draws; completion: the share of games that ended before the
    turn limit; duration: mean actions per game; decisiveness: for decided games, the mean
    share of the game left once the winner's evaluation first rose above the best any loser
    reached in that game (see `decided_share`)."""
    n = len(results)
    if not n:
        return {"games": 0, **{m: 0.0 for m in METRICS}, "advantage_interval": [0.0, 1.0]}
    s0 = mean(r.returns[0] for r in results)
    s1 = mean(r.returns[1] for r in results)
    low, high = score_interval([r.returns[0] for r in results])
    draws = sum(1 for r in results if not r.winners)
    complete = sum(1 for r in results if r.ending != Termination.TURN_LIMIT.value)
    decisive = [_record_decided_share(r) for r in results if r.winners and r.length]
    return {
        "games": n,
        "advantage": round(s0, 4),
        "advantage_interval": [round(low, 4), round(high, 4)],
        "balance": round(1.0 - abs(s0 - s1), 4),
        "drawishness": round(draws / n, 4),
        "completion": round(complete / n, 4),
        "duration": round(mean(r.length for r in results), 2),
        "decisiveness": round(mean(decisive), 4) if decisive else 0.0,
    }


def decided_share(winner: list[float], losers: list[list[float]]) -> float:
    """The share of the game left after the point where it was decided: the first position in
    which the winner's evaluation is above the highest any loser's reached in the whole game
    (Ludii's decisiveness threshold, so it needs no scale for the evaluation). 1 is decided
    from the start, 0 never decided before the end. Values are per position before each
    action."""
    threshold = max((v for values in losers for v in values), default=0.0)
    for i, v in enumerate(winner):
        if v > threshold:
            return (len(winner) - i) / len(winner)
    return 0.0


def _record_decided_share(result: GameResult) -> float:
    """`decided_share` of a finished game, with the game's evaluation replayed from its record
    (0 for every player when the game has none)."""
    from boardct.core.records import Record, replay

    record = Record.from_dict(result.record)
    state = replay(record, upto=0)
    game = state.game
    players = range(len(result.returns))
    values: list[list[float]] = [[] for _ in players]
    for text in record.actions:
        for p in players:
            v = game.evaluate(state, p)
            values[p].append(0.0 if v is None else float(v))
        state.apply_entry(text)
    winner = result.winners[0]
    return decided_share(values[winner], [values[p] for p in players
                                          if p not in result.winners])


def balance_markdown(title: str, agent: str, table: dict[str, dict]) -> str:
    lines = [f"# {title}: balance study", "",
             f"Self-play of `{agent}`, seats as in the game (Player 1 moves first).", "",
             "| variant | games | advantage | 95% interval | balance | drawishness | completion "
             "| duration | decisiveness |", "|---|---|---|---|---|---|---|---|---|"]
    for name, m in table.items():
        low, high = m["advantage_interval"]
        lines.append(f"| {name} | {m['games']} | {m['advantage']:.3f} | {low:.2f} .. {high:.2f} "
                     f"| {m['balance']:.3f} | "
                     f"{m['drawishness']:.3f} | {m['completion']:.3f} | {m['duration']:.1f} | "
                     f"{m['decisiveness']:.3f} |")
    lines += ["", "Definitions (after the Ludii project's metrics):", "",
              "- advantage: the first player's score, wins plus half the draws (0.5 is fair), "
              "with its 95% interval (Wilson's; an interval that holds 0.5 shows no "
              "advantage either way at this number of games);",
              "- balance: 1 minus the gap between the two seats' scores (1 is even);",
              "- drawishness: the share of games drawn;",
              "- completion: the share of games that ended before the turn limit;",
              "- duration: mean number of actions per game;",
              "- decisiveness: in decided games, the mean share of the game left once the "
              "winner's evaluation first rose above the highest any loser's reached in that "
              "game (1: decided from the start, 0: only at the end).",
              "", "Chart: `balance.png`.", ""]
    return "\n".join(lines)


def balance_chart(table: dict[str, dict], out: Path) -> None:
    require_charts()
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    shown = ("advantage", "balance", "drawishness", "completion", "decisiveness")
    names = list(table)
    fig, ax = plt.subplots(figsize=(7, 3.8))
    width = 0.8 / max(1, len(names))
    for k, name in enumerate(names):
        xs = [i + k * width for i in range(len(shown))]
        ax.bar(xs, [table[name][m] for m in shown], width, label=name)
    ax.set_xticks([i + 0.4 - width / 2 for i in range(len(shown))], shown)
    ax.set_ylim(0, 1)
    ax.legend()
    ax.set_title("Balance metrics per variant")
    fig.tight_layout()
    fig.savefig(out / "balance.png", dpi=100)
    plt.close(fig)
