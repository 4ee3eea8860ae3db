"""The earlier BoardCT tool's save files (FS-24): `fs_save_<name>`, a ruleset line (0 LSTD,
1 STDEX, -1 STDEX Type-A), the two player names, then one command per line.

Such a file comes from anywhere, so it is read bounded (`MAX_SAVE_BYTES`, regular files only),
as UTF-8 with a byte-order mark ignored (Windows Notepad writes one), and its player names
must be names a record can hold: otherwise the game would load and every save would fail.
"""

from __future__ import annotations

from pathlib import Path

from boardct.core.errors import BoardctError, RecordError
from boardct.core.inputs import InputError, read_text, strip_bom
from boardct.core.records import MAX_NAME
from boardct.games.fieldshift.notation import shown
from boardct.games.fieldshift.tables import OLD_TOOL_RULESET, RULESETS

# A command is a line of two or three digits; 300 turns (FS-22) of a few commands each fill a
# few kilobytes. Reading stops far above that.
MAX_SAVE_BYTES = 1024 * 1024


def looks_like_save(text: str) -> bool:
    """Whether text (the start of a file) opens with the ruleset line of an old-tool save."""
    first = strip_bom(text).split("\n", 1)[0].strip()
    return first in OLD_TOOL_RULESET


def _source(path: Path) -> str:
    name = str(path)
    return name if name.isprintable() and len(name) <= 200 else shown(name, 200)


def load(game, path: str | Path, **options):
    """Replay an earlier-tool save; the first command that does not apply is an error naming
    its line."""
    path = Path(path)
    source = _source(path)
    try:
        text = read_text(path, MAX_SAVE_BYTES, "save file")
    except InputError as exc:
        raise RecordError("file", exc.reason, source) from None
    lines = text.splitlines()
    if not lines or lines[0].strip() not in OLD_TOOL_RULESET:
        found = shown(lines[0].strip()) if lines else "an empty file"
        raise RecordError("line 1", f"expected the ruleset (0, 1 or -1), found {found}", source)
    if len(lines) < 3:
        raise RecordError(f"line {len(lines) + 1}", "expected the two player names", source)
    ruleset = OLD_TOOL_RULESET[lines[0].strip()]
    names = (lines[1].strip(), lines[2].strip())
    for n, name in enumerate(names, start=2):
        if len(name) > MAX_NAME or not name.isprintable():
            raise RecordError(f"line {n}", f"a player name is printable text of at most "
                                           f"{MAX_NAME} characters, not {shown(name)}", source)
    state = game.new(names=names, ruleset=RULESETS[ruleset], **options)
    for n, line in enumerate(lines[3:], start=4):
        token = line.strip()
        if not token:
            continue
        if state.is_over:
            raise RecordError(f"line {n}", f"{shown(token)} comes after the end of the game",
                              source)
        try:
            action = state.parse(token)
            events = state.apply(action)
        except BoardctError as exc:
            raise RecordError(f"line {n}", f"{shown(token)}: {exc}", source) from None
        if events and events[0][0] in ("suspend", "resume"):
            continue
    return state
