"""The one path every move and table entry takes, in every front end.

The terminal, the server, the adapters, the replay of records and the agents' seats all
change a game through these functions, so a move is parsed, checked, recorded and applied the
same way wherever it comes from:

- `submit(state, player, text)`: a command typed or sent in the game's notation (an order
  sheet is one too);
- `act(state, player, action)`: an action already chosen (an agent's, a parsed command's);
- `act_id(state, player, action_id)`: a learner's action id;
- `resign(state, player)`, `agree_draw(state)`, `take_back(state, count)`: what is done at the
  table; offers accepted on the server end here too;
- `apply_entry(state, text)`: one entry of a record or of the server's log, action or table
  entry alike (a moderator's entry, "mod ...", is a note in the log: it changes no game).

Each returns a `Played`: the state after (the same object, changed in place, except after an
undo, which rebuilds the game), the record's entry text, and the events. On a `BoardctError`
nothing changed: the engines refuse before they change anything, so a caller that wants a
trial passes a clone.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from boardct.core.errors import IllegalAction, ParseError
from boardct.core.game import MESSAGE, Event, State
from boardct.core.table import undo

# A record entry that is not an action: "undo", "undo N", "resign N", "draw".
TABLE_ENTRY = re.compile(r"\s*(undo|resign|draw)(?:\s+([0-9]{1,6}))?\s*\Z", re.I)

# A moderator's entry in a server game's log ("mod deadline extended to ...", "mod paused"):
# what the game's moderator did, for every player to read. It changes nothing in the game (the
# seats, clocks and pauses are the server's), so a replay passes it by and ends where the game
# did; one line of printable text after "mod ".
MODERATOR_ENTRY = re.compile(r"\s*mod\s+([^\n]*\S)\s*\Z")
MODERATOR = "Moderator"  # how the line every player reads starts

NOT_YOUR_TURN = "turn"  # the rule an out-of-turn action names


@dataclass
class Played:
    """What one move or table entry did: the state after it, the text a record keeps for it,
    who did it (None: the table as a whole, an agreed draw), the action (None for a table
    entry) and the events it caused (every player's: show them through `events_for`)."""

    state: State[Any]
    entry: str
    player: int | None
    action: Any = None
    events: list[Event] = field(default_factory=list)


def is_table_entry(text: str) -> bool:
    """Whether a record entry is an undo, a resignation, an agreed draw or a moderator's note,
    not an action."""
    return TABLE_ENTRY.match(text) is not None or MODERATOR_ENTRY.match(text) is not None


def moderator_entry(words: str) -> str:
    """The log entry of a moderator's act described by `words` (one line of text)."""
    said = " ".join(words.split())
    if not said:
        raise ParseError("a moderator's entry says what was done", words)
    return f"mod {said}"


def check_turn(state: State[Any], player: int) -> None:
    """Refuse (`IllegalAction`, rule "turn") an action by a player who is not to decide."""
    if state.is_over:
        raise IllegalAction(NOT_YOUR_TURN, "the game is over")
    deciding = state.current_players()
    if player not in deciding:
        names = state.setup.names
        # only the players this one may know to be deciding (a sealed turn hides who is done)
        seen = state.to_move_seen(player)
        who = ", ".join(names[p] or f"Player {p + 1}" for p in seen) or "nobody you may know"
        raise IllegalAction(NOT_YOUR_TURN, f"it is not your turn (to decide: {who})")


def act(state: State[Any], player: int, action: Any, *, entry: bool = True) -> Played:
    """`player` carries out `action` (which they are to decide). With `entry` the record's
    text of it is taken first (as records keep it); learners that keep no record skip it."""
    check_turn(state, player)
    text = state.entry_text(player, action) if entry else ""
    events = state.apply(action, player)
    return Played(state, text, player, action, events)


def act_id(state: State[Any], player: int, action_id: int) -> Played:
    """`player` carries out the action an id stands for (a learner's step; no record text)."""
    check_turn(state, player)
    events = state.apply_id(action_id, player)
    return Played(state, "", player, action_id, events)


def submit(state: State[Any], player: int, text: str) -> Played:
    """`player` plays `text`, a command in the game's notation: parsed for that player,
    checked, recorded and applied."""
    check_turn(state, player)
    action = state.parse(text.strip(), player)
    entry = state.entry_text(player, action)
    events = state.apply(action, player)
    return Played(state, entry, player, action, events)


def resign(state: State[Any], player: int) -> Played:
    """`player` concedes: the game's own concession command where it has one (recorded as
    that command), else the record's "resign N"."""
    action = state.resign_action(player) if not state.is_over else None
    text = state.entry_text(player, action) if action is not None else f"resign {player + 1}"
    events = state.resign(player)
    return Played(state, text, player, action, events)


def agree_draw(state: State[Any]) -> Played:
    """Every player agreed to a draw (an accepted offer): the game ends drawn."""
    events = state.agree_draw()
    return Played(state, "draw", None, None, events)


def take_back(state: State[Any], count: int = 1) -> Played:
    """The last `count` actions taken back: a new state (see `table.undo`), whose record
    keeps the undo."""
    after = undo(state, count)
    said = f"{count} action{'s' if count != 1 else ''} taken back."
    return Played(after, "undo" if count == 1 else f"undo {count}", None, None,
                  [(MESSAGE, said)])


def apply_entry(state: State[Any], text: str, *, table: bool = True) -> Played:
    """One record entry: an action in the game's notation or, with `table` (records of
    version 2 and the server's log), "undo", "undo N", "resign N" or "draw". Raises a
    `BoardctError` for an entry that cannot be applied (nothing changed). A moderator's entry
    ("mod ...") changes nothing: its one event is the line the players read."""
    note = MODERATOR_ENTRY.match(text) if table else None
    if note is not None:
        return Played(state, text.strip(), None, None, [(MESSAGE, f"{MODERATOR}: {note.group(1)}")])
    m = TABLE_ENTRY.match(text) if table else None
    if m is None:
        events = state.apply_entry(text)
        return Played(state, text, None, None, events)
    kind, number = m.group(1).lower(), m.group(2)
    if kind == "undo":
        done = take_back(state, int(number) if number else 1)
        done.entry = text.strip()  # as the log has it ("undo 1" and "undo" are one entry)
        return done
    if kind == "draw":
        if number is not None:
            raise ParseError(f"{text.strip()!r}: a draw names nobody", text)
        return agree_draw(state)
    if number is None or not 1 <= int(number) <= len(state.setup.names):
        raise ParseError(f"{text.strip()!r}: resign names a player, 1 to "
                         f"{len(state.setup.names)}", text)
    player = int(number) - 1
    events = state.resign(player)
    return Played(state, text.strip(), player, None, events)
