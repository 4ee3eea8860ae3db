"""The core game API: a `Game` (rules, options, a factory of states) and its `State`.

Front ends, agents and tournaments see games only through these two classes. A game package
subclasses both and registers its `Game` (see `registry`). Players are numbered from 0;
screens call player 0 "Player 1".
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Hashable, Iterator, Sequence
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
    # The value may name a file or folder on this machine (a map, tables, a layout, a card
    # file) that the game reads. A remote client (the server) must never make the machine read
    # a file, so front ends that take options from the network refuse a value for which
    # `names_file` is true and offer only `remote_choices` for such an option.
    local_file: bool = False

    def names_file(self, value: Any) -> bool:
        """Whether `value`, given for this option, would make the game read a file or folder
        on this machine. By default, for a `local_file` option, every non-empty value on one
        line (the games take text with a newline as the content itself); an option that knows
        its values better (built-in card names) overrides it. Decided from the text alone,
        without looking at the file system, so asking never touches a file."""
        if not self.local_file or not isinstance(value, str):
            return False
        text = value.strip()
        return bool(text) and "\n" not in text

    def remote_choices(self) -> tuple[Any, ...] | None:
        """The values of a `local_file` option that name no file (built-in cards), which a
        remote client may choose from; None: the option is not offered remotely at all."""
        return None

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
    text: str = field(default="", compare=False)  # the game's own result line, if it has one

    @property
    def is_draw(self) -> bool:
        return not self.winners

    def describe(self, names: Sequence[str] = ()) -> str:
        """The one-line result, e.g. "Player 1 wins (elimination)" or "draw (agreement)".
        With `names` (the setup's), a player who has a name is called by it: "ann wins". A
        game that knows its players better (CTF 2187: by team) builds the line itself, `text`,
        so every front end shows it."""
        if self.text:
            return self.text
        if not self.winners:
            return f"draw ({self.reason})"
        who = " and ".join(names[w] if w < len(names) and names[w] else f"Player {w + 1}"
                           for w in self.winners)
        verb = "wins" if len(self.winners) == 1 else "win"
        return f"{who} {verb} ({self.reason})"

    def to_json(self) -> dict:
        return {"winners": list(self.winners), "reason": self.reason, "returns": list(self.returns)}


@dataclass(frozen=True)
class Breach:
    """A rule that an action would break and that the game would still carry out (FieldShift's
    dispute mode, FS-19, where the opponent may then dispute it). A front end asks the person
    before it carries such an action out, so that nobody breaks a rule by a slip of the finger;
    `confirm` and `deny` are the game's own answers (FieldShift: 01 and 00)."""

    rule: str  # the ruling or rulings broken, e.g. "FS-16"
    what: str  # what is broken, in words, e.g. "the skill is on cooldown (5)"
    consequence: str = ""  # what may follow, e.g. who may dispute it and how
    confirm: str = "yes"
    deny: str = "no"

    def question(self) -> str:
        """The line that asks, e.g. "This breaks FS-16 (...): carry it out? 01/00 "."""
        return f"This breaks {self.rule} ({self.what}): carry it out? {self.confirm}/{self.deny} "


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
    classic_screen: ClassVar[bool] = False  # an earlier tool's exact screen exists (`--classic`)
    # The answers that agree to and refuse a request at the table (an undo), in the game's own
    # words: FieldShift's are its confirm and deny commands 01 and 00 (FS-20).
    confirm_words: ClassVar[tuple[str, str]] = ("y", "n")
    bench_options: ClassVar[dict[str, Any]] = {}  # the benchmark's default configuration

    def option(self, name: str) -> Option:
        for opt in self.options:
            if opt.name == name:
                return opt
        known = ", ".join(o.name for o in self.options) or "none"
        raise OptionError(f"{self.id} has no option {name!r} (options: {known})")

    def check_remote_options(self, given: dict[str, Any]) -> None:
        """Refuse, before anything is read, option values a remote client may not give: any
        that would make this machine read one of its files (`Option.names_file`). The server
        calls it on every option it is sent, before `resolve_options` (which may read)."""
        for name, value in given.items():
            opt = self.option(name)
            if opt.names_file(value):
                choices = opt.remote_choices()
                allowed = (f"one of {', '.join(str(c) for c in choices)}" if choices
                           else "the content itself, not a file name")
                raise OptionError(f"option {name}: names a file on the server, which a remote "
                                  f"game may not read; give {allowed}")

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

    def score_moves(self, state: State, player: int, moves: Sequence[Action]) -> list[float]:
        """The value for `player` of each of `moves` (legal in `state`, `player` to move), as
        a share in [0, 1]: the move's `Outcome.returns[player]` if it ends the game, else
        `evaluate_all` of the position it leads to, mapped from [-1, 1] as `(e + 1) / 2`
        (0.5 for no heuristic). A search asks this for every child of a node it expands (a
        whole FFF turn has some 800), so it is the search's hot spot.

        This default clones, applies and evaluates each move. A game may override it with a
        fast path (reading a move's effect from the move itself, or updating the evaluation
        by the move's change) that must give the SAME values, bit for bit: the search then
        chooses exactly as with this default. Each override is tested against this method
        over many random positions (`default_score_moves`)."""
        return default_score_moves(state, player, moves)

    def load_file(self, path: str) -> State | None:
        """Load a save file of a format particular to this game; None if not of that format."""
        return None


def default_score_moves(state: State, player: int, moves: Sequence[Action]) -> list[float]:
    """`Game.score_moves` the plain way: clone, apply and evaluate each move. Overrides are
    tested against it (they must give the same values)."""
    evaluate_all = state.game.evaluate_all
    clone = state.clone
    out: list[float] = []
    append = out.append
    for action in moves:
        child = clone()
        child.apply(action, player)
        result = child.outcome
        if result is not None:
            append(result.returns[player])
        else:
            e = evaluate_all(child)[player]
            append(0.5 if e is None else 0.5 * (float(e) + 1.0))
    return out


class TableMark:
    """A cell of the linked history that is not an action but something done at the table: an
    undo of the last `count` actions, or a resignation by `player`. It sits in the player's
    place of a (prev, player, action) cell, and the action's place repeats the last action
    still in force (-1: none), so an engine that peeks at the last action (FieldShift's
    second-SWC rule) sees the same as before the undo. `State.history` skips these cells;
    `State.table_log` and records keep them."""

    __slots__ = ("kind", "value")

    def __init__(self, kind: str, value: int):
        self.kind = kind  # "undo", "resign" or "draw"
        self.value = value  # how many actions were taken back, or who resigned (draw: 0)

    def entry(self) -> str:
        """The record's text for it: "undo", "undo 2", "resign 1" (players from 1), "draw"."""
        if self.kind == "undo":
            return "undo" if self.value == 1 else f"undo {self.value}"
        if self.kind == "draw":
            return "draw"
        return f"resign {self.value + 1}"

    def __repr__(self) -> str:
        return f"TableMark({self.kind!r}, {self.value})"


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

    def to_move_seen(self, viewer: int | None) -> tuple[int, ...]:
        """The players still to decide, as `viewer` (None: a spectator) may know them: what
        every front end shows as "to move" or "waiting for". Where turns are taken one at a
        time everyone knows whose turn it is, so by default the real set. A game with
        simultaneous sealed orders overrides it when who has already handed in is secret
        (CTF 2187, CTF-41): each viewer then learns no more than the rules allow. Whether
        `viewer` itself must decide is always `viewer in current_players()`."""
        return self.current_players()

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

    def breach(self, action: Action, player: int | None = None) -> Breach | None:
        """The rule `action` would break if `player` made it now, when the game would still
        carry it out (see `Breach`). None when the action is lawful, and also when `apply`
        would refuse it (its error then says why). Front ends call it before `apply` to ask
        the person; it never changes the state. By default every action `apply` carries out
        is lawful."""
        return None

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

    # -- help at the table (core/table.py builds on these) -------------------------------------
    def describe_action(self, action: Action, player: int | None = None) -> str:
        """A short line in words about what `action` does, for a list of legal moves. By
        default, in a game with nothing hidden and no chance, the events it would cause (on a
        clone); otherwise its notation. Games give better words by overriding it."""
        if not (self.game.perfect_information and not self.game.has_chance):
            return self.notation(action)
        from boardct.core.errors import BoardctError

        trial = self.clone()
        try:
            events = trial.apply(action, player)
        except BoardctError:  # not legal here: its notation is all there is to say
            return self.notation(action)
        lines = [trial.describe(e) for e in events if e and e[0] != "turn"]  # turn: a header
        return "; ".join(ln.rstrip(".") for ln in lines if ln) or self.notation(action)

    def action_group(self, action: Action) -> str:
        """The group `moves` lists `action` under (an instruction, a piece, a Bot): by default
        the first word of its notation."""
        text = self.notation(action).split()
        return text[0] if text else "-"

    def moves_note(self) -> str:
        """A line `moves` prints after the list, when the legal actions are not all there is
        to type (CTF 2187 lists sample order sheets); empty by default."""
        return ""

    def reveals(self, event: Event) -> bool:
        """Whether `event` showed someone something they did not know (a chance result, a
        hidden tile or card): an undo may not take back an action that caused one, or a player
        could try again knowing it. Nothing is hidden or left to chance in a game with perfect
        information and no chance; elsewhere every event counts unless the game says which
        do not."""
        return not (self.game.perfect_information and not self.game.has_chance)

    def teammates(self, player: int) -> tuple[int, ...]:
        """The players on `player`'s side, `player` included, in order: who a team's chat
        reaches. Alone by default; team games (CTF 2187) override it."""
        return (player,)

    def resign_outcome(self, player: int) -> Outcome:
        """How the game ends when `player` resigns: every other player wins. Team games
        override it (the resigner's team loses)."""
        n = len(self.setup.names)
        others = tuple(p for p in range(n) if p != player)
        share = 1.0 if len(others) == 1 else 1.0 / len(others)
        returns = tuple(0.0 if p == player else share for p in range(n))
        return Outcome(returns, "resignation", others)

    def resign_action(self, player: int) -> Action | None:
        """The game's own concession command, if it has one (FieldShift's 09): a resignation
        then is that action, recorded as such."""
        return None

    def _set_outcome(self, outcome: Outcome) -> None:
        """End the game with `outcome` (a resignation). Each game keeps its result in its own
        field, so each game that offers resignation implements this."""
        raise NotImplementedError(f"{self.game.id} does not take resignations")

    def resign(self, player: int) -> list[Event]:
        """`player` concedes the game: their own concession command where the game has one,
        else the game ends with `resign_outcome` and the record keeps a "resign N" entry."""
        from boardct.core.errors import IllegalAction

        if self.is_over:
            raise IllegalAction("table", "the game is over")
        if not 0 <= player < len(self.setup.names):
            raise IllegalAction("table", f"there is no Player {player + 1} to resign")
        action = self.resign_action(player)
        if action is not None:
            return self.apply(action, player)
        outcome = self.resign_outcome(player)
        self._set_outcome(outcome)
        self._mark(TableMark("resign", player))
        return [(MESSAGE, f"Player {player + 1} resigns: {outcome.describe()}.")]

    def agree_draw(self) -> list[Event]:
        """Every player agrees to a draw (the server's draw offer, accepted by all): the game
        ends drawn, each player the same return, and the record keeps a "draw" entry. A game
        with no way to end at the table (FieldShift: its draw request is its own command 08,
        played as a move) raises `IllegalAction`; nothing changes."""
        from boardct.core.errors import IllegalAction

        if self.is_over:
            raise IllegalAction("table", "the game is over")
        n = len(self.setup.names)
        outcome = Outcome(tuple(1.0 / n for _ in range(n)), "agreement", ())
        trial = self.clone()  # a game whose result field cannot hold a draw says no here
        try:
            trial._set_outcome(outcome)
            drawn = trial.outcome is not None and not trial.outcome.winners
        except (NotImplementedError, LookupError, ValueError, TypeError):
            drawn = False
        if not drawn:
            raise IllegalAction("table", f"{self.game.title} is not drawn by agreement at the "
                                "table (its own commands may offer a draw)")
        self._set_outcome(outcome)
        self._mark(TableMark("draw", 0))
        return [(MESSAGE, f"The players agree to a draw: {outcome.describe()}.")]

    # -- the end -------------------------------------------------------------------------------
    @property
    def outcome(self) -> Outcome | None:
        raise NotImplementedError  # pragma: no cover

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    def describe_outcome(self) -> str:
        """The result line for people, or "" while the game goes on. By default the outcome's
        own line with the players' names where they were given; a game whose players are
        better known by more (CTF 2187: their teams) overrides it."""
        out = self.outcome
        return out.describe(self.setup.names) if out is not None else ""

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

    def status_line(self) -> str:
        """One line for the player at the table about what the board does not show (the
        rules in force, the turn of the limit, a request waiting for an answer, effects that
        run for some turns); empty for none. A front end shows it between the board and the
        prompt. It holds only what every player may know."""
        return ""

    # -- copies, hidden information ------------------------------------------------------------
    def clone(self) -> State:
        raise NotImplementedError  # pragma: no cover

    def search_key(self) -> Hashable | None:
        """Optional: a value that two states share exactly when everything the rules and the
        evaluation read is the same in both (the same position reached by other moves: a
        transposition), so a search may reuse for one what it computed for the other (the
        scores of its moves). None (the default): no key, nothing is reused."""
        return None

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

    # -- for learners: a fixed action encoding and observation tensors (issue 20) ------------
    # Learners (and the PettingZoo, Gymnasium and OpenSpiel adapters) need a fixed set of
    # integer actions with a legality mask and tensors of fixed shape. Every game implements
    # the `num_distinct_actions`/`action_id`/`id_action`/`legal_ids` and
    # `observation_shape`/`observation_tensor` methods; its docs say what each id range and
    # each field means ("For learners"). Tensors are flat lists of floats (no numpy in the
    # core: adapters convert) built only from `view(player)`, so they cannot leak.
    def num_distinct_actions(self) -> int:
        """How many action ids there are: fixed for the game and its options, so every state
        of one setup agrees (ids run from 0 to this less one)."""
        raise NotImplementedError(f"{self.game.id} has no action encoding")

    def action_id(self, action: Action, player: int | None = None) -> int:
        """The id of `action` (for `player`, in a simultaneous turn). An action that has no
        id raises `IllegalAction` saying why."""
        raise NotImplementedError(f"{self.game.id} has no action encoding")

    def id_action(self, action_id: int, player: int | None = None) -> Action:
        """The action an id stands for. An id out of range, or one that means nothing here,
        raises `IllegalAction` saying so (never an IndexError)."""
        raise NotImplementedError(f"{self.game.id} has no action encoding")

    def legal_ids(self, player: int | None = None) -> list[int]:
        """The ids of the legal actions, ascending: a learner's action mask. For every game
        whose actions are whole turns exactly `{action_id(a) for a in legal_actions(player)}`
        (Force Field Factions numbers the steps of a turn instead)."""
        return sorted({self.action_id(a, player) for a in self.legal_actions(player)})

    def apply_id(self, action_id: int, player: int | None = None) -> list[Event]:
        """Carry out the action an id stands for (`apply` of `id_action`); FFF overrides it to
        take one step of a turn."""
        return self.apply(self.id_action(action_id, player), player)

    def observation_shape(self) -> tuple[int, ...]:
        """The shape of `observation_tensor`: fixed for the game and its options."""
        raise NotImplementedError(f"{self.game.id} has no observation tensor")

    def observation_tensor(self, player: int) -> list[float]:
        """What `player` observes now as a flat list of finite floats, as long as the product
        of `observation_shape`. Built only from `view(player)`: two states that differ only in
        what `player` cannot see give the same tensor."""
        raise NotImplementedError(f"{self.game.id} has no observation tensor")

    def observation_string(self, player: int) -> str:
        """What `player` observes now, as text: by default the view as compact JSON with sorted
        keys (built from the view alone, so it cannot leak either)."""
        return _view_text(self.view(player))

    def information_state_shape(self) -> tuple[int, ...]:
        """The shape of `information_state_tensor`. With perfect information the observation
        is all there is to know; hidden-information games add the player's own history."""
        if self.game.perfect_information:
            return self.observation_shape()
        raise NotImplementedError(f"{self.game.id} has hidden information: it must define "
                                  "its information-state tensor")

    def information_state_tensor(self, player: int) -> list[float]:
        """The observation plus what `player` did and saw (hidden-information games; bounded,
        fixed size). With perfect information: the observation."""
        if self.game.perfect_information:
            return self.observation_tensor(player)
        raise NotImplementedError(f"{self.game.id} has hidden information: it must define "
                                  "its information-state tensor")

    def information_state_string(self, player: int) -> str:
        """The information state as text. With perfect information: the observation string."""
        if self.game.perfect_information:
            return self.observation_string(player)
        raise NotImplementedError(f"{self.game.id} has hidden information: it must define "
                                  "its information-state string")

    # -- records -------------------------------------------------------------------------------
    def _push(self, player: int, action: Action) -> None:
        self._hist = (self._hist, player, action)

    def _mark(self, mark: TableMark) -> None:
        """Put a table mark on the history (see `TableMark`)."""
        last = self.history()
        self._hist = (self._hist, mark, last[-1][1] if last else -1)

    def history(self) -> list[tuple[int, Action]]:
        """Every applied action in force, oldest first, with the player who made it: the
        actions an undo took back are left out."""
        out = []
        cell = self._hist
        skip = 0
        while cell is not None:
            cell, player, action = cell
            if type(player) is TableMark:
                if player.kind == "undo":
                    skip += player.value
            elif skip:
                skip -= 1
            else:
                out.append((player, action))
        out.reverse()
        return out

    def table_log(self) -> list[tuple[int, Action] | TableMark]:
        """Everything done at the table, oldest first: each action (player, action), taken
        back or not, and each undo or resignation as its `TableMark`."""
        out: list = []
        cell = self._hist
        while cell is not None:
            cell, player, action = cell
            out.append(player if type(player) is TableMark else (player, action))
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
        from boardct.core.records import VERSION_BEFORE_TABLE, Record
        from boardct.core.table import apply_entry

        replay = self.game.initial_state(self.setup)
        texts = []
        marks = False
        for item in self.table_log():
            if type(item) is TableMark:
                texts.append(item.entry())
                replay = apply_entry(replay, item.entry())
                marks = True
                continue
            player, action = item
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
            **({} if marks else {"version": VERSION_BEFORE_TABLE}),
        )

    def iter_players(self) -> Iterator[int]:
        return iter(range(len(self.setup.names)))


def _view_text(view: dict) -> str:
    """A view as one line of JSON with sorted keys: the default observation string."""
    import json

    return json.dumps(view, sort_keys=True, separators=(",", ":"), default=str)
