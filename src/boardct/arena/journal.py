"""A tournament's finished games, one JSON line each, written as they finish: a long run that
is stopped (Ctrl-C, a crash, a reboot) loses only the games in progress, and `--resume`
plays only the games still missing."""

from __future__ import annotations

import json
from pathlib import Path

from boardct.arena.runner import GameResult, GameSpec
from boardct.core.errors import BoardctError

NAME = "games.jsonl"


def _matches(spec: GameSpec, row: dict) -> bool:
    return (row.get("index") == spec.index and row.get("game") == spec.game
            and row.get("variant", "") == spec.variant and row.get("seed") == spec.seed
            and tuple(row.get("agents", ())) == spec.agents)


def load(folder: Path, specs: list[GameSpec]) -> tuple[dict[int, GameResult], list[str]]:
    """The journal's games, and a note for each line dropped because it is cut short (the
    run was killed while writing it). A game of a different schedule (other agents, seed,
    options or game count) is an error: resuming must never throw finished games away."""
    path = folder / NAME
    done: dict[int, GameResult] = {}
    notes: list[str] = []
    if not path.is_file():
        return done, notes
    # looked up with whatever the file holds
    by_index: dict[object, GameSpec] = {s.index: s for s in specs}
    fields = set(GameResult.__dataclass_fields__)
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError:
            notes.append(f"{path}:{number}: cut short; that game is played again")
            continue
        spec = by_index.get(row.get("index")) if isinstance(row, dict) else None
        if spec is None or set(row) != fields or not _matches(spec, row):
            raise BoardctError(
                f"{path}:{number}: a game of a different schedule (agents, seeds, options or "
                "number of games differ); resume with the command that started it, or "
                "choose another --out")
        done[spec.index] = GameResult(**row)
    return done, notes


def count(folder: Path) -> int:
    """How many games the folder's journal holds (0 when it has none)."""
    path = folder / NAME
    if not path.is_file():
        return 0
    return sum(1 for line in path.read_text(encoding="utf-8").splitlines() if line.strip())


class Writer:
    """Appends each finished game and flushes it to disk at once."""

    def __init__(self, folder: Path, keep: list[GameResult]):
        folder.mkdir(parents=True, exist_ok=True)
        self.fh = (folder / NAME).open("w", encoding="utf-8")
        self.count = 0
        for res in keep:  # rewrite without the skipped lines
            self.add(res)

    def add(self, res: GameResult) -> None:
        self.fh.write(json.dumps(res.to_dict(), separators=(",", ":")) + "\n")
        self.fh.flush()
        self.count += 1

    def close(self) -> None:
        self.fh.close()
