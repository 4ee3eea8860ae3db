"""Game records: a small JSON document that replays to the identical state.

Reading is strict: a malformed or tampered record fails with a `RecordError` that names the
field (and, for broken JSON, the line and column), never with a traceback.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from boardct.core import registry
from boardct.core.errors import BoardctError, RecordError
from boardct.core.game import Setup, State, TableMark, now_iso
from boardct.core.inputs import InputError, parse_json, read_bytes, read_text, shown
from boardct.core.moves import apply_entry

FORMAT = "boardct-record"
# Version 2 adds the table's entries to `actions`: "undo", "undo N" (the last N actions are
# taken back) and "resign N" (Player N resigns). A record without them is written as version
# 1, exactly as before, so older boardct still reads it; version 1 records read as always.
VERSION = 2
VERSION_BEFORE_TABLE = 1
MAX_RECORD_BYTES = 8 * 1024 * 1024  # a 10,000-move game is a few hundred kilobytes
MAX_ACTIONS = 100_000
MAX_NAME = 200  # characters in a player's name
MAX_SEAT = 200  # characters in the agent spec of a computer's seat ("mcts:time=1")
# The first field of the record of a game with hidden information, so that whoever opens the
# file is warned before reading on: the seed and every action let a program work out every
# hidden tile, hand, coin flip and order.
HIDDEN_KEY = "hidden_information"
HIDDEN_WARNING = ("This record holds the seed and every action: it reveals every player's "
                  "hidden information. Do not show it to a player while the game goes on.")


@dataclass
class Record:
    game: str
    seed: int
    options: dict[str, Any]
    players: list[str]
    actions: list[str]
    result: dict[str, Any] | None = None
    created: str | None = None
    saved: str | None = None
    version: int = VERSION
    extra: dict[str, Any] = field(default_factory=dict)
    # Who played each seat: None for a person, an agent spec ("mcts:time=1") for the computer,
    # so that a resumed game keeps its computer seats. None (the field absent): not known, as
    # in records written before the field existed or by front ends that do not track it.
    seats: list[str | None] | None = None

    @property
    def hidden(self) -> bool:
        """Whether the record gives away what a player may not know (hidden parts, or chance
        still to come, which the seed decides), so the file must say so first."""
        try:
            game = registry.get(self.game)
            return not game.perfect_information or game.has_chance
        except BoardctError:
            return False

    def to_dict(self) -> dict[str, Any]:
        doc: dict[str, Any] = {HIDDEN_KEY: HIDDEN_WARNING} if self.hidden else {}
        doc |= {
            "format": FORMAT,
            "version": self.version,
            "game": self.game,
            "seed": self.seed,
            "options": self.options,
            "players": self.players,
        }
        if self.seats is not None:  # absent, not null: older readers keep it as an extra
            doc["seats"] = self.seats
        doc |= {
            "created": self.created,
            "saved": self.saved,
            "result": self.result,
            "actions": self.actions,
        }
        doc.update(self.extra)
        return doc

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=1, ensure_ascii=False) + "\n"

    def save(self, path: str | os.PathLike[str]) -> Path:
        """Write atomically (a temporary file, then a rename): a crash never leaves half a file."""
        path = Path(path)
        self.saved = now_iso()
        tmp = path.with_name(path.name + ".tmp")
        try:
            tmp.write_text(self.to_json(), encoding="utf-8")
            os.replace(tmp, path)
        except BaseException:
            tmp.unlink(missing_ok=True)  # never leave a stray half-written file behind
            raise
        return path

    @classmethod
    def from_json(cls, text: str, source: str = "") -> Record:
        try:
            doc = parse_json(text)
        except InputError as exc:
            raise RecordError(exc.where or "document", exc.reason, source) from None
        return cls.from_dict(doc, source)

    @classmethod
    def from_dict(cls, doc: Any, source: str = "") -> Record:
        def fail(where: str, message: str) -> RecordError:
            return RecordError(where, message, source)

        if not isinstance(doc, dict):
            raise fail("document", "a record is a JSON object")
        if doc.get("format") != FORMAT:
            raise fail("format", f"expected {FORMAT!r}, found {doc.get('format')!r}")
        version = doc.get("version")
        if not isinstance(version, int) or isinstance(version, bool):
            raise fail("version", "missing or not a whole number")
        if version > VERSION:
            raise fail("version", f"{version} is newer than this boardct reads ({VERSION})")
        game = doc.get("game")
        if not isinstance(game, str) or not game:
            raise fail("game", "missing or not a game id")
        seed = doc.get("seed")
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise fail("seed", "missing or not a whole number")
        options = doc.get("options", {})
        if not isinstance(options, dict):
            raise fail("options", "not an object")
        players = doc.get("players")
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise fail("players", "missing or not a list of names")
        for i, name in enumerate(players):
            if len(name) > MAX_NAME or not name.isprintable():
                raise fail(f"players[{i}]", f"a name is printable text of at most {MAX_NAME} "
                                            "characters")
        seats = seats_field(doc.get("seats"), len(players), fail)
        actions = doc.get("actions")
        if not isinstance(actions, list):
            raise fail("actions", "missing or not a list")
        if len(actions) > MAX_ACTIONS:
            raise fail("actions", f"more than {MAX_ACTIONS:,} actions")
        for i, a in enumerate(actions):
            if not isinstance(a, str):
                raise fail(f"actions[{i}]", f"{a!r} is not a command text")
        result = doc.get("result")
        if result is not None and not isinstance(result, dict):
            raise fail("result", "not an object or null")
        for key in ("created", "saved"):
            if doc.get(key) is not None and not isinstance(doc.get(key), str):
                raise fail(key, "not a timestamp text")
        known = {HIDDEN_KEY, "format", "version", "game", "seed", "options", "players",
                 "actions", "result", "created", "saved", "seats"}
        extra = {k: v for k, v in doc.items() if k not in known}
        return cls(game, seed, options, players, actions, result, doc.get("created"),
                   doc.get("saved"), version, extra, seats)

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Record:
        try:
            text = read_text(path, MAX_RECORD_BYTES, "record")
        except InputError as exc:
            raise RecordError("file", exc.reason, str(path)) from None
        return cls.from_json(text, str(path))


def seats_field(value: Any, players: int, fail: Callable[[str, str], RecordError]
                ) -> list[str | None] | None:
    """The record's optional "seats": one entry per player, null for a person or the spec of
    the agent that played the seat. Checked here because `--resume` builds agents from it."""
    if value is None:
        return None
    if not isinstance(value, list) or len(value) != players:
        raise fail("seats", f"not a list of {players} entries (null or an agent spec), one "
                            "per player")
    for i, spec in enumerate(value):
        if spec is None:
            continue
        if not isinstance(spec, str) or not spec.strip() or len(spec) > MAX_SEAT \
                or not spec.isprintable():
            what = shown(spec) if isinstance(spec, str) else f"a JSON {type(spec).__name__}"
            raise fail(f"seats[{i}]", f"{what} is neither null (a person) nor an agent spec "
                                      f"(printable text of at most {MAX_SEAT} characters)")
    return list(value)


def replay(record: Record, source: str = "", upto: int | None = None) -> State[Any]:
    """The state a record leads to. Each action is checked; a result that does not match the
    replay (a tampered record) is an error."""
    try:
        game = registry.get(record.game)
    except BoardctError as exc:
        raise RecordError("game", str(exc), source) from None
    try:
        resolved = game.resolve_options(record.options)
    except BoardctError as exc:
        raise RecordError("options", str(exc), source) from None
    if not game.min_players <= len(record.players) <= game.max_players:
        raise RecordError("players", f"{game.id} needs {game.min_players}-{game.max_players} "
                          f"players, the record names {len(record.players)}", source)
    setup = Setup(record.seed, resolved, tuple(record.players),
                  record.created or now_iso())
    try:
        state = game.initial_state(setup)
    except BoardctError as exc:  # an option naming a file, say: the record is what was wrong
        raise RecordError("options", str(exc), source) from None
    actions = record.actions if upto is None else record.actions[:upto]
    for i, text in enumerate(actions):
        if state.is_over:
            raise RecordError(f"actions[{i}]", f"{text!r} comes after the end of the game", source)
        try:
            state = apply_entry(state, text, table=record.version >= 2).state
        except BoardctError as exc:
            raise RecordError(f"actions[{i}]", f"{text!r}: {exc}", source) from None
    if upto is None and record.result is not None:
        out = state.outcome
        got = out.to_json() if out is not None else None
        if got is None or got["winners"] != record.result.get("winners") \
                or got["reason"] != record.result.get("reason"):
            found = "no result" if out is None else out.describe()
            raise RecordError("result", f"the record's result does not match its actions "
                              f"(the actions give {found})", source)
    return state


def load_state(path: str | os.PathLike[str]) -> State[Any]:
    """A saved game from a file: a boardct record, or a game's own save format."""
    path = Path(path)
    try:
        head = read_bytes(path, MAX_RECORD_BYTES, "saved game")[:4096]
    except InputError as exc:
        raise RecordError("file", exc.reason, str(path)) from None
    if head.removeprefix(b"\xef\xbb\xbf").lstrip().startswith(b"{"):
        return replay(Record.load(path), str(path))
    for game in registry.all_games():
        state = game.load_file(str(path))
        if state is not None:
            return state
    raise RecordError("file", "neither a boardct record nor a save file boardct knows", str(path))


def record_of(state: State[Any], seats: list[str | None] | None = None) -> Record:
    """A game as a record: its setup and every entry in text (actions, and the undos,
    resignations and draws done at the table), replayable to this state. `seats`: who played
    each seat (None a person, an agent spec for the computer), where the front end knows."""
    replay_state = state.game.initial_state(state.setup)
    texts = []
    marks = False
    for item in state.table_log():
        if type(item) is TableMark:
            texts.append(item.entry())
            replay_state = apply_entry(replay_state, item.entry()).state
            marks = True
            continue
        player, action = item  # type: ignore[misc]  # an action cell: (player, action)
        texts.append(replay_state.entry_text(player, action))
        replay_state.apply(action, player)
    out = state.outcome
    return Record(
        game=state.game.id,
        seed=state.setup.seed,
        options=dict(state.setup.options),
        players=list(state.setup.names),
        actions=texts,
        result=out.to_json() if out is not None else None,
        created=state.setup.created,
        extra=dict(state.record_extra()),
        seats=seats,
        version=VERSION if marks else VERSION_BEFORE_TABLE,
    )
