"""The earlier BoardCT tool's save files (FS-24): `fs_save_<name>`, a ruleset line (0 LSTD,
1 STDEX, -1 STDEX Type-A), the two player names, then one command per line."""

from __future__ import annotations

from pathlib import Path

from boardct.core.errors import BoardctError, RecordError
from boardct.games.fieldshift.tables import OLD_TOOL_RULESET, RULESETS


def looks_like_save(text: str) -> bool:
    first = text.split("\n", 1)[0].strip()
    return first in OLD_TOOL_RULESET


def load(game, path: str | Path, **options):
    """Replay an earlier-tool save; the first command that does not apply is an error naming
    its line."""
    path = Path(path)
    source = str(path)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise RecordError("file", exc.strerror or str(exc), source) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise RecordError("file", "not a text file", source) from None
    lines = text.splitlines()
    if not lines or lines[0].strip() not in OLD_TOOL_RULESET:
        found = lines[0].strip() if lines else "an empty file"
        raise RecordError("line 1", f"expected the ruleset (0, 1 or -1), found {found!r}", source)
    if len(lines) < 3:
        raise RecordError(f"line {len(lines) + 1}", "expected the two player names", source)
    ruleset = OLD_TOOL_RULESET[lines[0].strip()]
    names = (lines[1].strip(), lines[2].strip())
    state = game.new(names=names, ruleset=RULESETS[ruleset], **options)
    for n, line in enumerate(lines[3:], start=4):
        token = line.strip()
        if not token:
            continue
        if state.is_over:
            raise RecordError(f"line {n}", f"{token!r} comes after the end of the game", source)
        try:
            action = state.parse(token)
            events = state.apply(action)
        except BoardctError as exc:
            raise RecordError(f"line {n}", f"{token!r}: {exc}", source) from None
        if events and events[0][0] in ("suspend", "resume"):
            continue
    return state
