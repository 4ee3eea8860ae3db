"""The core game API: a `Game` (rules, options, a factory of states) and its `State`.

Front ends, agents and tournaments see games only through these two classes. A game package
subclasses both and registers its `Game` (see `registry`). Players are numbered from 0;
screens call player 0 "Player 1".
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from boardct.core.errors import OptionError
from boardct.core.inputs import MAX_TEXT as MAX_OPTION_TEXT
from boardct.core.inputs import ascii_int
from boardct.core.rng import fresh_seed

if TYPE_CHECKING:  # pragma: no cover
    from rich.text import Text

    from boardct.core.records import Record

Action = Any  # a game's action: small, hashable (an int or a tuple), with a text form
Event = tuple  # (kind, *details); `State.describe` turns one into a line for people

# Event kinds every front end understands; games may add their own.
SUSPEND = "suspend"  # the player asked to save the game and leave
RESUME = "resume"  # the player asked to load a saved game
MESSAGE = "message"  # ("message", text): a line to show, nothing else happened

# A small terminal (columns, lines): every game's compact board and its prompt fit it.
COMPACT_SIZE = (80, 24)


@dataclass(frozen=True)
class Option:
    """A game option: name, default, help, and either fixed choices or a value type."""

    name: str
    default: Any
    help: str
    choices: tuple[Any, ...] | None = None
    type: type = str
    minimum: int | None = None
    maximum: int | None = None  # every number has one, so no record can ask for 10**7 bots

    def convert(self, value: Any) -> Any:
        """Check (and convert from text) a value given for this option."""
        if self.type is int and isinstance(value, str):
            number = ascii_int(value.strip().removeprefix("-"))
            if number is None:
                raise OptionError(f"option {self.name}: {value!r} is not a whole number")
            value = -number if value.strip().startswith("-") else number
        if self.type is bool and isinstance(value, str):
            low = value.lower()
            if low not in ("true", "false", "yes", "no", "1", "0"):
                raise OptionError(f"option {self.name}: {value!r} is not true or false")
            value = low in ("true", "yes", "1")
        if self.choices is not None and value not in self.choices:
            shown = ", ".join(str(c) for c in self.choices)
            raise OptionError(f"option {self.name}: {value!r} is not one of {shown}")
        if self.type is int and isinstance(value, bool):  # True is an int to Python, not to us
            raise OptionError(f"option {self.name}: {value!r} is not a whole number")
        if self.choices is None and not isinstance(value, self.type):
            raise OptionError(f"option {self.name}: {value!r} is not a {self.type.__name__}")
        if self.type is bool and not isinstance(value, bool):
            raise OptionError(f"option {self.name}: {value!r} is not true or false")
        if self.minimum is not None and value < self.minimum:
            raise OptionError(f"option {self.name}: {value!r} is below {self.minimum}")
        if self.maximum is not None and value > self.maximum:
            raise OptionError(f"option {self.name}: {value!r} is above {self.maximum}")
        if isinstance(value, str) and len(value) > MAX_OPTION_TEXT:
            raise OptionError(f"option {self.name}: longer than {MAX_OPTION_TEXT:,} characters")
        return value


@dataclass(frozen=True)
class Outcome:
    """How a game ended. `returns` holds each player's score: 1 win, 0 loss, 0.5 draw."""

    returns: tuple[float, ...]
    reason: str
    winners: tuple[int, ...] = ()

    @property
    def is_draw(self) -> bool:
        return not self.winners

    def describe(self) -> str:
        """The one-line result, e.g. "Player 1 wins (elimination)" or "draw (agreement)"."""
        if not self.winners:
            return f"draw ({self.reason})"
        who = " and ".join(f"Player {w + 1}" for w in self.winners)
        verb = "wins" if len(self.winners) == 1 else "win"
        return f"{who} {verb} ({self.reason})"

    def to_json(self) -> dict:
        return {"winners": list(self.winners), "reason": self.reason, "returns": list(self.returns)}


def now_iso() -> str:
    """The current UTC time as records write it."""
    return _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds")


@dataclass(frozen=True)
class Setup:
    """What a game was started from, shared (never copied) by every state of the game."""

    seed: int
    options: dict[str, Any]
    names: tuple[str, ...]
    created: str = field(default_factory=lambda: now_iso())


class Game:
    """A game's rules as a whole: identity, options, and the factory of initial states."""

    id: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    options: ClassVar[tuple[Option, ...]] = ()
    perfect_information: ClassVar[bool] = True
    has_chance: ClassVar[bool] = False
    simultaneous: ClassVar[bool] = False
    help_text: ClassVar[str] = ""  # the command reference a front end shows on "help"
    bench_options: ClassVar[dict[str, Any]] = {}  # the benchmark's default configuration

    def option(self, name: str) -> Option:
        for opt in self.options:
            if opt.name == name:
                return opt
        known = ", ".join(o.name for o in self.options) or "none"
        raise OptionError(f"{self.id} has no option {name!r} (options: {known})")

    def resolve_options(self, given: dict[str, Any]) -> dict[str, Any]:
        """Defaults overlaid with `given`, each value checked."""
        resolved = {o.name: o.default for o in self.options}
        for name, value in given.items():
            resolved[name] = self.option(name).convert(value)
        return resolved

    def new(
        self, seed: int | None = None, names: Sequence[str] | None = None, **options: Any
    ) -> State:
        """A new game. A missing seed is drawn at random and kept, so the game still replays."""
        resolved = self.resolve_options(options)
        if seed is None:
            seed = fresh_seed()
        count = self.min_players if names is None else len(names)
        if not self.min_players <= count <= self.max_players:
            raise OptionError(
                f"{self.id} is played by {self.min_players}-{self.max_players} players, not {count}"
            )
        names = tuple(names) if names is not None else tuple("" for _ in range(count))
        return self.initial_state(Setup(int(seed), resolved, names))

    def initial_state(self, setup: Setup) -> State:  # pragma: no cover - abstract
        raise NotImplementedError

    def evaluate(self, state: State, player: int) -> float | None:
        """Optional heuristic value of `state` for `player`, in [-1, 1]; None: no heuristic."""
        return None

    def evaluate_all(self, state: State) -> list[float | None]:
        """Every player's `evaluate` at once, which is what a search asks at each leaf.
        Override when one pass can give them all (a zero-sum evaluation, say)."""
        return [self.evaluate(state, p) for p in range(len(state.setup.names))]

    def load_file(self, path: str) -> State | None:
        """Load a save file of a format particular to this game; None if not of that format."""
        return None


class State:
    """One position of a game, with everything needed to go on and to replay it.

    Subclasses keep `setup` (shared) and `_hist`, a linked history of (prev, player, action)
    cells that clones share, so cloning never copies the history.
    """

    __slots__ = ("setup", "_hist")
    game: ClassVar[Game]

    # -- whose decision ------------------------------------------------------------------------
    def current_players(self) -> tuple[int, ...]:
        """The players who must decide now: one, several (simultaneous orders), or none."""
        raise NotImplementedError  # pragma: no cover

    @property
    def to_move(self) -> int:
        """The one player to decide, or -1 when the game is over."""
        players = self.current_players()
        return players[0] if players else -1

    # -- actions -------------------------------------------------------------------------------
    def legal_actions(self, player: int | None = None) -> list[Action]:
        raise NotImplementedError  # pragma: no cover

    def apply(self, action: Action, player: int | None = None) -> list[Event]:
        """Carry out an action; return its events. On `BoardctError` nothing changed."""
        raise NotImplementedError  # pragma: no cover

    def parse(self, text: str, player: int | None = None) -> Action:
        raise NotImplementedError  # pragma: no cover

    def notation(self, action: Action) -> str:
        raise NotImplementedError  # pragma: no cover

    def events_for(self, events: Sequence[Event], player: int | None) -> list[Event]:
        """The events, out of those an action just caused, that `player` may see (None: a
        spectator), called on the state after them. Every channel that shows events to a
        player (the terminal after a hand-over, the server's messages) passes them through
        here: the one secrecy filter. Games with hidden information must override it."""
        if self.game.perfect_information:
            return list(events)
        raise NotImplementedError(f"{self.game.id} has hidden information: it must filter "
                                  "its events per player")

    def describe(self, event: Event) -> str:
        """A line for people about one event."""
        if event[0] == MESSAGE:
            return str(event[1])
        return " ".join(str(x) for x in event)

    # -- the end -------------------------------------------------------------------------------
    @property
    def outcome(self) -> Outcome | None:
        raise NotImplementedError  # pragma: no cover

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    def returns(self) -> tuple[float, ...]:
        out = self.outcome
        return out.returns if out is not None else tuple(0.0 for _ in self.setup.names)

    # -- showing -------------------------------------------------------------------------------
    def view(self, player: int | None) -> dict:
        """A JSON-ready dict of exactly what `player` may know (None: a spectator)."""
        raise NotImplementedError  # pragma: no cover

    def render(self, player: int | None = None) -> str:
        """The board as plain text, from `player`'s point of view."""
        raise NotImplementedError  # pragma: no cover

    def render_rich(self, player: int | None = None) -> Text:
        """The board with colours (Rich); by default the plain text."""
        from rich.text import Text

        return Text(self.render(player))

    def render_compact(self, player: int | None = None) -> Text:
        """The board for a small terminal, with colours (Rich): at the game's default options
        it fits `COMPACT_SIZE` (80 columns, 23 lines, so the prompt is the 24th). Front ends
        use it only when `render` does not fit their screen; a game whose board already fits
        keeps this default, the ordinary board. Plain text is its `.plain`."""
        return self.render_rich(player)

    def prompt(self) -> str:
        """The line that asks the player to decide (empty when the game is over)."""
        players = self.current_players()
        return f"Player {players[0] + 1}: " if players else ""

    # -- copies, hidden information ------------------------------------------------------------
    def clone(self) -> State:
        raise NotImplementedError  # pragma: no cover

    def determinize(self, player: int, seed: int) -> State:
        """A full state consistent with `player`'s view, unknowns resampled from `seed`.

        By default a clone whose random source (an `Rng` in a slot named `rng`, if any) is
        reseeded, so that future chance is not known in advance; games with hidden parts
        resample them too.
        """
        from boardct.core.rng import Rng

        state = self.clone()
        if isinstance(getattr(state, "rng", None), Rng):
            state.rng = Rng(seed)
        return state

    # -- records -------------------------------------------------------------------------------
    def _push(self, player: int, action: Action) -> None:
        self._hist = (self._hist, player, action)

    def history(self) -> list[tuple[int, Action]]:
        """Every applied action, oldest first, with the player who made it."""
        out = []
        cell = self._hist
        while cell is not None:
            cell, player, action = cell
            out.append((player, action))
        out.reverse()
        return out

    def entry_text(self, player: int, action: Action) -> str:
        """The text a record keeps for one action (taken before it is applied)."""
        return self.notation(action)

    def apply_entry(self, text: str) -> list[Event]:
        """Apply one record entry (the inverse of `entry_text`)."""
        return self.apply(self.parse(text))

    def record(self) -> Record:
        """This game as a record: setup and every action in text, replayable to this state."""
        from boardct.core.records import Record

        replay = self.game.initial_state(self.setup)
        texts = []
        for player, action in self.history():
            texts.append(replay.entry_text(player, action))
            replay.apply(action, player)
        out = self.outcome
        return Record(
            game=self.game.id,
            seed=self.setup.seed,
            options=dict(self.setup.options),
            players=list(self.setup.names),
            actions=texts,
            result=out.to_json() if out is not None else None,
            created=self.setup.created,
        )

    def iter_players(self) -> Iterator[int]:
        return iter(range(len(self.setup.names)))
