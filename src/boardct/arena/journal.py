"""A tournament's finished games, one JSON line each, written as they finish: a long run that
is stopped (Ctrl-C, a crash, a reboot) loses only the games in progress, and `--resume`
plays only the games still missing."""

from __future__ import annotations

import json
from pathlib import Path

from boardct.arena.runner import GameResult, GameSpec

NAME = "games.jsonl"


def _matches(spec: GameSpec, row: dict) -> bool:
    return (row.get("index") == spec.index and row.get("game") == spec.game
            and row.get("variant", "") == spec.variant and row.get("seed") == spec.seed
            and tuple(row.get("agents", ())) == spec.agents)


def load(folder: Path, specs: list[GameSpec]) -> tuple[dict[int, GameResult], list[str]]:
    """The journal's games that belong to this schedule, and a note for each line skipped
    (a line cut short when the run was killed, or a game from a different schedule)."""
    path = folder / NAME
    done: dict[int, GameResult] = {}
    notes: list[str] = []
    if not path.is_file():
        return done, notes
    by_index = {s.index: s for s in specs}
    fields = set(GameResult.__dataclass_fields__)
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            spec = by_index.get(row.get("index")) if isinstance(row, dict) else None
            if spec is None or not _matches(spec, row) or set(row) != fields:
                notes.append(f"{path}:{number}: not a game of this schedule; played again")
                continue
            done[spec.index] = GameResult(**row)
        except (json.JSONDecodeError, TypeError, AttributeError):
            notes.append(f"{path}:{number}: unreadable (cut short?); played again")
    return done, notes


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
