"""`boardct arena` (tournaments), `boardct balance` (balance studies), and agent benchmarks.

The agents, the arena's runner and reports and Rich's progress bar are imported by the
commands that use them, not with this module: `boardct` registers these commands each time it
starts, and most runs use none of them.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import TYPE_CHECKING

import click

from boardct.cli.ext import parse_options
from boardct.core import registry
from boardct.core.errors import BoardctError

if TYPE_CHECKING:
    from rich.progress import Progress

    from boardct.arena.runner import GameSpec


def _progress() -> Progress:
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                    TimeRemainingColumn(), transient=False)


def _run(specs, backend, workers, address, label, folder: Path, resume: bool):
    """Play the schedule, journalling each game as it finishes; with `resume`, games already
    in the folder's journal are kept and not played again."""
    from boardct.arena import journal, report
    from boardct.arena.runner import execute

    done: dict = {}
    kept = 0 if resume else journal.count(folder)
    if kept:
        raise BoardctError(f"{folder} already holds {kept} finished games "
                           f"({journal.NAME}): add --resume to go on with them, or choose "
                           "another --out")
    if resume:
        done, notes = journal.load(folder, specs)
        for note in notes:
            click.echo(note, err=True)
        if done:
            click.echo(f"Resuming: {len(done)} of {len(specs)} games already played.")
    writer = journal.Writer(folder, [done[i] for i in sorted(done)])

    def finished(res) -> None:
        writer.add(res)
        report.save_records([res], folder)
        bar.advance(task)

    played: list = []
    try:
        with _progress() as bar:
            task = bar.add_task(label, total=len(specs), completed=len(done))
            todo = [s for s in specs if s.index not in done]
            played = execute(todo, backend, workers, address, progress=finished)
    except KeyboardInterrupt:
        click.echo(f"\nStopped: {writer.count} of {len(specs)} games are kept in "
                   f"{folder / journal.NAME}; run the same command with --resume to play "
                   "the rest.", err=True)
        raise click.exceptions.Exit(130) from None
    finally:
        writer.close()
    return sorted([*done.values(), *played], key=lambda r: r.index)


def check_setup(game, specs: list[GameSpec]) -> None:
    """Set up the first game of each variant now, so that options the game cannot play with
    these seats (a number of teams the agents cannot fill) fail before the progress bar starts
    rather than in the first game."""
    firsts: dict[str, GameSpec] = {}
    for spec in specs:
        firsts.setdefault(spec.variant, spec)
    for spec in firsts.values():
        game.new(seed=spec.seed, names=tuple(spec.agents), **spec.options)


def variants_for(game, given: tuple[str, ...]) -> dict[str, dict]:
    """`--variants ruleset=lstd ruleset=stdex,turn_limit=100`; by default one per value of the
    game's `ruleset` option when it has one, else the game's defaults."""
    if given:
        out = {}
        for text in given:
            opts = parse_options(tuple(x for x in text.split(",") if x))
            game.resolve_options(opts)  # check now, before any game is played
            out[text] = opts
        return out
    for opt in game.options:
        if opt.name == "ruleset" and opt.choices:
            return {str(c): {"ruleset": c} for c in opt.choices}
    return {"default": {}}


def register_commands(cli: click.Group) -> None:
    @cli.command("arena")
    @click.argument("game_id", metavar="GAME")
    @click.argument("more_agents", nargs=-1, metavar="")
    @click.option("--agents", "agent_specs", required=True, multiple=True, metavar="A B ...",
                  help="Two or more agents: --agents random greedy mcts:iters=500 (the "
                       "words after --agents that are not options are agents too).")
    @click.option("--games", type=int, default=10, show_default=True,
                  help="Games per pairing (seats alternate).")
    @click.option("--workers", type=int, default=1, show_default=True)
    @click.option("--backend", type=click.Choice(["local", "ray"]), default="local",
                  show_default=True)
    @click.option("--ray-address", default=None, help="A Ray cluster; default: a local Ray.")
    @click.option("--out", default="arena-out", show_default=True, metavar="DIR")
    @click.option("--seed", type=int, default=1, show_default=True)
    @click.option("--option", "-o", "options", multiple=True, metavar="NAME=VALUE")
    @click.option("--resume", is_flag=True,
                  help="Keep the games already finished in --out (its games.jsonl) and play "
                       "only the rest.")
    def arena_cmd(game_id, more_agents, agent_specs, games, workers, backend, ray_address, out,
                  seed, options, resume):
        """Round-robin tournament between agents: records, results (JSON, CSV), a Markdown
        report with ratings, and charts."""
        from boardct.agents import make as make_agent
        from boardct.arena import report
        from boardct.arena.runner import round_robin

        agents = [a for spec in agent_specs + more_agents for a in spec.split()]
        if len(agents) < 2 or len(set(agents)) != len(agents):
            raise BoardctError("--agents needs two or more different agents")
        game = registry.get(game_id)
        opts = parse_options(options)
        game.resolve_options(opts)
        for a in agents:
            make_agent(a)  # unknown agents fail before anything runs
        specs = round_robin(game_id, agents, games, seed, opts)
        check_setup(game, specs)
        report.require_charts()  # before any game is played
        folder = Path(out)
        results = _run(specs, backend, workers, ray_address, f"{game.title}", folder, resume)
        report.write_results(results, folder)
        summary = report.tournament_summary(agents, results)
        (folder / "summary.json").write_text(json.dumps(summary, indent=1) + "\n")
        (folder / "report.md").write_text(
            report.tournament_markdown(f"{game.title}: tournament", summary), encoding="utf-8")
        report.tournament_charts(summary, results, folder)
        click.echo(report.tournament_markdown(f"{game.title}: tournament", summary))
        click.echo(f"Written to {folder}/: report.md, results.json, results.csv, "
                   "summary.json, games.jsonl, records/, scores.png, ratings.png, lengths.png")

    @cli.command("balance")
    @click.argument("game_id", metavar="GAME")
    @click.option("--variants", multiple=True, metavar="OPTIONS",
                  help="A variant as NAME=VALUE[,NAME=VALUE]; repeat for more. Default: each "
                       "ruleset of the game.")
    @click.option("--agent", default="mcts:iters=200,depth=0", show_default=True)
    @click.option("--games", type=int, default=20, show_default=True,
                  help="Self-play games per variant.")
    @click.option("--workers", type=int, default=1, show_default=True)
    @click.option("--backend", type=click.Choice(["local", "ray"]), default="local",
                  show_default=True)
    @click.option("--ray-address", default=None)
    @click.option("--out", default="balance-out", show_default=True, metavar="DIR")
    @click.option("--seed", type=int, default=1, show_default=True)
    @click.option("--resume", is_flag=True,
                  help="Keep the games already finished in --out (its games.jsonl) and play "
                       "only the rest.")
    def balance_cmd(game_id, variants, agent, games, workers, backend, ray_address, out, seed,
                    resume):
        """A balance study by self-play, per variant, with Ludii-style metrics."""
        from boardct.agents import make as make_agent
        from boardct.arena import report
        from boardct.arena.runner import self_play

        game = registry.get(game_id)
        table_variants = variants_for(game, variants)
        make_agent(agent)
        specs = self_play(game_id, agent, games, seed, table_variants, game.min_players)
        check_setup(game, specs)
        report.require_charts()  # before any game is played
        folder = Path(out)
        results = _run(specs, backend, workers, ray_address, f"{game.title} self-play", folder,
                       resume)
        report.write_results(results, folder)
        table = {name: report.balance_metrics([r for r in results if r.variant == name])
                 for name in table_variants}
        (folder / "balance.json").write_text(json.dumps(table, indent=1) + "\n")
        text = report.balance_markdown(game.title, agent, table)
        (folder / "report.md").write_text(text, encoding="utf-8")
        report.balance_chart(table, folder)
        click.echo(text)
        click.echo(f"Written to {folder}/: report.md, balance.json, results.json, "
                   "results.csv, games.jsonl, records/, balance.png")


def bench_agent(game_id: str, agent_spec: str, seconds: float, seed: int,
                options: dict) -> dict:
    """Search iterations per second and seconds per move of an agent, over positions from
    random play. Seconds are this process's CPU seconds (the search is single-threaded), so
    the figures hold on a busy machine too; wall seconds are given beside them. The peak
    memory is the whole process's (None where it cannot be read)."""
    from boardct.agents import make as make_agent
    from boardct.arena.bench import mid_game_state, peak_rss_mb

    game = registry.get(game_id)
    opts = game.resolve_options({**game.bench_options, **options})
    agent = make_agent(agent_spec, seed=seed)
    moves = iterations = 0
    spent = wall = 0.0
    k = 0
    while spent < seconds:
        state = mid_game_state(game, seed + k, opts, depth=10 + 7 * (k % 5))
        k += 1
        p = state.current_players()[0]
        w0 = time.perf_counter()
        t0 = time.process_time()
        agent.select(state, p)
        spent += time.process_time() - t0
        wall += time.perf_counter() - w0
        moves += 1
        iterations += getattr(agent, "last_iterations", 0)
    spent = max(spent, 1e-9)
    wall = max(wall, 1e-9)
    return {"game": game_id, "agent": agent_spec, "moves": moves,
            "seconds_per_move": round(spent / moves, 4),
            "wall_seconds_per_move": round(wall / moves, 4),
            "cpu_seconds": round(spent, 3), "seconds": round(wall, 3),
            "iterations_per_s": round(iterations / wall, 1) if iterations else None,
            "iterations_per_cpu_s": round(iterations / spent, 1) if iterations else None,
            "peak_rss_mb": peak_rss_mb()}
