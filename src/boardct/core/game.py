"""The core game API: a `Game` (rules, options, facts, a factory of states) and its `State`.

Front ends, agents and tournaments see games only through these two classes. A game package
subclasses both and registers its `Game` through the `boardct.games` entry point (see
`registry`). Players are numbered from 0; screens call player 0 "Player 1".

A `State` is one position: whose decision it is, the legal actions, `apply`, the end; what
each player may see (`view`, `events_for`); the game's text notation; the terminal board;
table help hooks; and the learners' encoding. Everything a front end shows of a state passes
through `view(player)` and `events_for(events, player)`, the one secrecy filter.
"""

from __future__ import annotations

import datetime as _dt
import functools
import importlib
import json
from collections.abc import Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeAlias, TypeVar

from rich.text import Text

from boardct.core.errors import BoardctError, IllegalAction, OptionError
from boardct.core.frontends import FrontEnds
from boardct.core.info import Chance, Dynamics, GameInfo, Information, Utility
from boardct.core.options import Option, PlayFlag
from boardct.core.outcome import Outcome, Termination
from boardct.core.rng import Rng, fresh_seed

if TYPE_CHECKING:  # pragma: no cover
    from array import array
    from typing import Self

__all__ = [
    "COMPACT_SIZE", "MESSAGE", "RESUME", "SUSPEND", "VIEW_VERSION", "Action", "ActionT",
    "Breach", "Event", "FrontEnds", "Game", "Option", "Outcome", "PlayFlag", "Setup", "State",
    "TableMark", "Termination", "default_score_moves", "now_iso", "outcome_json",
]

Action: TypeAlias = Hashable  # any game's action: small and hashable (an int or a tuple)
ActionT = TypeVar("ActionT", bound=Hashable)  # one game's own action type
Event: TypeAlias = tuple[Any, ...]  # (kind, *details); `State.describe` words it for people
Json: TypeAlias = dict[str, Any]

# Event kinds every front end understands; games may add their own.
SUSPEND = "suspend"  # the player asked to save the game and leave
RESUME = "resume"  # the player asked to load a saved game
MESSAGE = "message"  # ("message", text): a line to show, nothing else happened

# A small terminal (columns, lines): every game's compact board and its prompt fit it.
COMPACT_SIZE = (80, 24)

# The version of the view envelope (`State.view`): pages and clients check it.
VIEW_VERSION = 1


@dataclass(frozen=True)
class Breach:
    """A rule that an action would break and that the game would still carry out (a dispute
    mode, where the opponent may then dispute it). A front end asks the person before it
    carries such an action out, so that nobody breaks a rule by a slip of the finger;
    `confirm` and `deny` are the game's own answers."""

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
    created: str = field(default_factory=now_iso)
    # The random source a runner hands the game instead of `Rng(seed)` (a `ListedRng` whose
    # draws it chooses as chance nodes); never recorded: None in every game played at a table.
    source: Rng | None = field(default=None, compare=False, repr=False)

    def rng(self) -> Rng:
        """The game's random source: `Rng(seed)`, or the runner's `source`. A game whose every
        draw comes from here (and says so with `Game.max_chance_outcomes`) can have its chance
        chosen from outside, draw by draw."""
        return Rng(self.seed) if self.source is None else self.source


def _frozen(value: Any) -> Hashable:
    """An option value as a hashable key (lists and dicts become tuples)."""
    if isinstance(value, dict):
        return tuple(sorted((k, _frozen(v)) for k, v in value.items()))
    if isinstance(value, list | tuple):
        return tuple(_frozen(v) for v in value)
    return value if isinstance(value, Hashable) else repr(value)


@functools.lru_cache(maxsize=256)
def _cached_info(game: Game, players: int, key: tuple[tuple[str, Hashable], ...]) -> GameInfo:
    return game.make_info(dict(key), players)


class Game:
    """A game's rules as a whole: identity, options, facts, and the factory of states.

    Hooks a game overrides, besides `initial_state`: its facts for learners
    (`action_count`, `observation_shape`, `information_state_shape`, `max_game_length`), its
    heuristic (`evaluate`, `score_moves`), its own save files (`load_file`), the flags it adds
    to `boardct play` (`play_flags`) and where its front-end parts are (`frontends`)."""

    id: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    options: ClassVar[tuple[Option, ...]] = ()
    # Nothing is hidden from any player: `State.board_view` is then the same for every viewer
    # (tests/conformance checks it), and front ends may build it once for all of them.
    perfect_information: ClassVar[bool] = True
    has_chance: ClassVar[bool] = False
    simultaneous: ClassVar[bool] = False
    # Whether `State.information_state_tensor` holds everything the player has seen and done
    # (perfect recall); False when it keeps a window of the past (learners' adapters then do
    # not offer it as a perfect-recall information state).
    perfect_recall_tensor: ClassVar[bool] = True
    help_text: ClassVar[str] = ""  # the command reference a front end shows on "help"
    classic_screen: ClassVar[bool] = False  # an earlier tool's exact screen exists (`--classic`)
    # The answers that agree to and refuse a request at the table (an undo), in the game's own
    # words (FieldShift's are its confirm and deny commands 01 and 00, FS-20).
    confirm_words: ClassVar[tuple[str, str]] = ("y", "n")
    bench_options: ClassVar[dict[str, Any]] = {}  # the benchmark's default configuration
    # Options of a short game (a low turn limit), for checks that play many whole games: the
    # conformance suite plays every game at these and at its defaults.
    small_options: ClassVar[dict[str, Any]] = {}
    play_flags: ClassVar[tuple[PlayFlag, ...]] = ()  # shortcuts `boardct play` offers
    # Offered first where front ends list the games (the lobby preselects a featured game for a
    # visitor who has not chosen one yet).
    featured: ClassVar[bool] = False
    frontends: ClassVar[FrontEnds] = FrontEnds()
    # The agent specs of the strength ladder's levels in this game, level 1 first (the agents'
    # `level=N`); empty: the agents' own ladder for games of this kind (agents/levels.py).
    agent_levels: ClassVar[tuple[str, ...]] = ()

    def __repr__(self) -> str:
        return f"<Game {self.id}>"

    # -- options -------------------------------------------------------------------------------
    def option(self, name: str) -> Option:
        for opt in self.options:
            if opt.name == name:
                return opt
        known = ", ".join(o.name for o in self.options) or "none"
        raise OptionError(f"{self.id} has no option {name!r} (options: {known})")

    def check_remote_options(self, given: Mapping[str, Any]) -> None:
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

    def resolve_options(self, given: Mapping[str, Any]) -> dict[str, Any]:
        """Defaults overlaid with `given`, each value checked."""
        resolved = {o.name: o.default for o in self.options}
        for name, value in given.items():
            resolved[name] = self.option(name).convert(value)
        return resolved

    def check_players(self, count: int) -> None:
        if not self.min_players <= count <= self.max_players:
            raise OptionError(
                f"{self.id} is played by {self.min_players}-{self.max_players} players, not {count}"
            )

    # -- states --------------------------------------------------------------------------------
    def new(
        self, seed: int | None = None, names: Sequence[str] | None = None, **options: Any
    ) -> State[Any]:
        """A new game. A missing seed is drawn at random and kept, so the game still replays."""
        resolved = self.resolve_options(options)
        if seed is None:
            seed = fresh_seed()
        count = self.min_players if names is None else len(names)
        self.check_players(count)
        seats = tuple(names) if names is not None else tuple("" for _ in range(count))
        return self.initial_state(Setup(int(seed), resolved, seats))

    def initial_state(self, setup: Setup) -> State[Any]:  # pragma: no cover - abstract
        raise NotImplementedError

    def load_file(self, path: str) -> State[Any] | None:
        """Load a save file of a format particular to this game; None if not of that format."""
        return None

    # -- facts -----------------------------------------------------------------------------------
    def info(self, options: Mapping[str, Any] | None = None, players: int | None = None
             ) -> GameInfo:
        """The game's facts at these options (defaults for the rest) and number of players
        (default: the fewest): one frozen object, the same one for equal arguments."""
        resolved = self.resolve_options(options or {})
        count = self.min_players if players is None else players
        if isinstance(count, bool) or not isinstance(count, int):
            raise OptionError(f"players {count!r:.40}: the number of seats is a whole number")
        self.check_players(count)
        key = tuple(sorted((name, _frozen(value)) for name, value in resolved.items()))
        return _cached_info(self, count, key)

    def make_info(self, options: dict[str, Any], players: int) -> GameInfo:
        """Build the facts (`info` caches them). From the hooks below and the class's kinds."""
        two = players == 2
        return GameInfo(
            game=self.id,
            players=players,
            num_distinct_actions=self.action_count(options, players),
            observation_shape=tuple(self.observation_shape(options, players)),
            information_state_shape=tuple(self.information_state_shape(options, players)),
            max_game_length=self.max_game_length(options, players),
            chance=Chance.SAMPLED if self.has_chance else Chance.DETERMINISTIC,
            information=(Information.PERFECT if self.perfect_information
                         else Information.IMPERFECT),
            dynamics=Dynamics.SIMULTANEOUS if self.simultaneous else Dynamics.SEQUENTIAL,
            utility=Utility.CONSTANT_SUM if two else Utility.GENERAL_SUM,
            utility_sum=1.0 if two else None,
        )

    def action_count(self, options: dict[str, Any], players: int) -> int:
        """How many action ids there are at these options (ids run from 0 to this less one):
        every state of one setup agrees."""
        raise NotImplementedError(f"{self.id} has no action encoding")

    def observation_shape(self, options: dict[str, Any], players: int) -> tuple[int, ...]:
        """The shape of `State.observation_tensor` at these options."""
        raise NotImplementedError(f"{self.id} has no observation tensor")

    def information_state_shape(self, options: dict[str, Any], players: int
                                ) -> tuple[int, ...]:
        """The shape of `State.information_state_tensor`. With perfect information the
        observation is all there is to know; hidden-information games add the player's own
        history and override this."""
        if self.perfect_information:
            return self.observation_shape(options, players)
        raise NotImplementedError(f"{self.id} has hidden information: it must give the shape "
                                  "of its information-state tensor")

    def max_game_length(self, options: dict[str, Any], players: int) -> int:
        """An upper bound on the actions of one game at these options (every player's)."""
        raise NotImplementedError(f"{self.id} gives no bound on the length of a game")

    def max_chance_outcomes(self, options: dict[str, Any], players: int) -> int:
        """The most outcomes one chance draw can have at these options, for a game that takes
        all its chance from `Setup.rng()` in draws of a few equally likely outcomes (`below`,
        `randint`, `coin`, `choice`, `shuffle`): a runner may then choose each draw as a chance
        node with listed outcomes (`core.rng.ListedRng`). 0 (the default): the chance is not
        offered that way and stays sampled inside the game."""
        return 0


    def write_observations(self, out: Any, states: Sequence[State[Any]],
                           players: Sequence[int]) -> bool:
        """Many states' observation tensors at once, for a vector of games (learners): row i
        of `out` (a C-contiguous 2-D float32 numpy array, one flat tensor a row) made
        `states[i].observation_tensor(players[i])`, value for value. A game whose tensor is
        mostly table look-ups may do the whole batch in a few numpy calls rather than a few
        Python calls per value; the default writes nothing and returns False (the adapter
        then writes each row from `observation_array` / `observation_entries`)."""
        return False

    def write_masks(self, out: Any, states: Sequence[State[Any]],
                    players: Sequence[int]) -> bool:
        """Many states' action masks at once, for a vector of games: row i of `out` (a
        C-contiguous 2-D int8 numpy array, one action id a column) made 1 at
        `states[i].legal_ids(players[i])` and 0 elsewhere (all 0 for a game that is over or
        not at that player's decision). A game whose legal ids cost most in their sorting
        and numbering may write the batch from its legal actions directly; the default
        writes nothing and returns False (the adapter then writes the masks from
        `legal_ids`)."""
        return False

    # -- what front ends need to know ----------------------------------------------------------
    @property
    def package(self) -> str:
        """The package the game lives in, which holds its data files and its page renderer."""
        module = importlib.import_module(type(self).__module__)
        return module.__package__ or type(self).__module__

    def board_schema(self) -> Json | None:
        """The JSON Schema of the `board` part of this game's views (`board.schema.json` in
        its package); None when the game publishes none."""
        try:
            text = resources.files(self.package).joinpath("board.schema.json").read_text(
                encoding="utf-8")
        except (FileNotFoundError, ModuleNotFoundError):
            return None
        schema = json.loads(text)
        if not isinstance(schema, dict):
            raise BoardctError(f"{self.id}: board.schema.json is not a JSON object")
        return schema

    # -- the heuristic -------------------------------------------------------------------------
    def evaluate(self, state: State[Any], player: int) -> float | None:
        """Optional heuristic value of `state` for `player`, in [-1, 1]; None: no heuristic."""
        return None

    def evaluate_all(self, state: State[Any]) -> list[float | None]:
        """Every player's `evaluate` at once, which is what a search asks at each leaf.
        Override when one pass can give them all (a zero-sum evaluation, say)."""
        return [self.evaluate(state, p) for p in range(len(state.setup.names))]

    def score_moves(self, state: State[Any], player: int, moves: Sequence[Any]) -> list[float]:
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


def default_score_moves(state: State[Any], player: int, moves: Sequence[Any]) -> list[float]:
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
    still in force (-1: none), so an engine that peeks at the last action sees the same as
    before the undo. `State.history` skips these cells; `State.table_log` and records keep
    them."""

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


def outcome_json(state: State[Any]) -> Json | None:
    """The `result` of a view: how the game ended (kind, winners, returns, the game's own
    reason) and its line for people, naming the players; None while it goes on."""
    out = state.outcome
    if out is None:
        return None
    return {"kind": out.kind.value, "winners": list(out.winners), "returns": list(out.returns),
            "reason": out.reason, "text": state.describe_outcome()}


class State(Generic[ActionT]):
    """One position of a game, with everything needed to go on and to replay it.

    Subclasses keep `setup` (shared) and `_hist`, a linked history of (prev, player, action)
    cells that clones share, so cloning never copies the history. `ActionT` is the game's own
    action type (an int, a tuple)."""

    __slots__ = ("setup", "_hist")
    game: ClassVar[Game]
    setup: Setup
    _hist: Any  # None, or (previous cell, player or TableMark, action)

    # -- whose decision ------------------------------------------------------------------------
    def current_players(self) -> tuple[int, ...]:
        """The players who must decide now: one, several (simultaneous orders), or none."""
        raise NotImplementedError  # pragma: no cover

    def to_move_seen(self, viewer: int | None) -> tuple[int, ...]:
        """The players still to decide, as `viewer` (None: a spectator) may know them: what
        every front end shows as "to move" or "waiting for". Where turns are taken one at a
        time everyone knows whose turn it is, so by default the real set. A game with
        simultaneous sealed orders overrides it when who has already handed in is secret:
        each viewer then learns no more than the rules allow. Whether
        `viewer` itself must decide is always `viewer in current_players()`."""
        return self.current_players()

    @property
    def to_move(self) -> int:
        """The one player to decide, or -1 when the game is over."""
        players = self.current_players()
        return players[0] if players else -1

    def turn_number(self) -> int:
        """The game's own count of turns, as its players know it (the view's `turn`). By
        default the actions played so far, plus one: games with turns of several actions
        override it."""
        return len(self.history()) + 1

    # -- actions -------------------------------------------------------------------------------
    def legal_actions(self, player: int | None = None) -> list[ActionT]:
        raise NotImplementedError  # pragma: no cover

    def search_actions(self, player: int | None = None) -> list[ActionT]:
        """The actions a search agent weighs for `player` (agents/search.py): `legal_actions`,
        unless the game lists only a fixed menu of a far larger space of lawful actions and
        names more of them for search (CTF 2187: plans that depend on the Bot's weapons, not
        numbered for learners). Each must be lawful here: `apply` takes it."""
        return self.legal_actions(player)

    def apply(self, action: ActionT, player: int | None = None) -> list[Event]:
        """Carry out an action; return its events. On `BoardctError` nothing changed."""
        raise NotImplementedError  # pragma: no cover

    def breach(self, action: ActionT, player: int | None = None) -> Breach | None:
        """The rule `action` would break if `player` made it now, when the game would still
        carry it out (see `Breach`). None when the action is lawful, and also when `apply`
        would refuse it (its error then says why). Front ends call it before `apply` to ask
        the person; it never changes the state. By default every action `apply` carries out
        is lawful."""
        return None

    def parse(self, text: str, player: int | None = None) -> ActionT:
        raise NotImplementedError  # pragma: no cover

    def notation(self, action: ActionT) -> str:
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
    def describe_action(self, action: ActionT, player: int | None = None) -> str:
        """A short line in words about what `action` does, for a list of legal moves. By
        default, in a game with nothing hidden and no chance, the events it would cause (on a
        clone); otherwise its notation. Games give better words by overriding it."""
        if not (self.game.perfect_information and not self.game.has_chance):
            return self.notation(action)
        trial = self.clone()
        try:
            events = trial.apply(action, player)
        except BoardctError:  # not legal here: its notation is all there is to say
            return self.notation(action)
        lines = [trial.describe(e) for e in events if e and e[0] != "turn"]  # turn: a header
        return "; ".join(ln.rstrip(".") for ln in lines if ln) or self.notation(action)

    def action_group(self, action: ActionT) -> str:
        """The group `moves` lists `action` under (an instruction, a piece, a unit): by
        default the first word of its notation."""
        text = self.notation(action).split()
        return text[0] if text else "-"

    def action_targets(self, action: ActionT, player: int | None = None) -> tuple[str, ...]:
        """The board elements `action` involves, as the keys the game's page renderer gives
        them (`data-key`), the element acted with first: `("op:+1", "sector:4")`. Pages make
        those elements clickable from the legal list alone and never parse notation. Empty
        by default (the action is picked from the list)."""
        return ()

    def event_targets(self, events: Sequence[Event], viewer: int | None) -> tuple[str, ...]:
        """The board elements that `events` (an action's events as `viewer` saw them, already
        passed through `events_for`) show `viewer`, as the keys of `action_targets`: where a
        piece went, what it hit, another side's units its units saw move. Every front end
        marks the last move with these beside the action's own targets (where the viewer may
        know those): a sealed order names its own element only to its player, but the turn it
        completes shows each viewer what that viewer saw. Called on the state after the
        events; empty by default (the action's targets are all there is to mark)."""
        return ()

    def moves_note(self) -> str:
        """A line `moves` prints after the list, when the legal actions are not all there is
        to type (sample order sheets); empty by default."""
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
        reaches. Alone by default; team games override it."""
        return (player,)

    # -- the end at the table: resignation and agreed draws ------------------------------------
    def resign_outcome(self, player: int) -> Outcome:
        """How the game ends when `player` resigns: every other player wins. Team games
        override it (the resigner's team loses)."""
        n = len(self.setup.names)
        others = tuple(p for p in range(n) if p != player)
        share = 1.0 if len(others) == 1 else 1.0 / len(others)
        returns = tuple(0.0 if p == player else share for p in range(n))
        return Outcome(returns, "resignation", others, kind=Termination.RESIGNATION)

    def resign_action(self, player: int) -> ActionT | None:
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
        with no way to end drawn at the table (its draw request is its own command, played
        as a move) raises `IllegalAction`; nothing changes."""
        if self.is_over:
            raise IllegalAction("table", "the game is over")
        n = len(self.setup.names)
        outcome = Outcome(tuple(1.0 / n for _ in range(n)), "agreement", (),
                          kind=Termination.AGREEMENT)
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
        better known by more (their teams) overrides it."""
        out = self.outcome
        return out.describe(self.setup.names) if out is not None else ""

    def returns(self) -> tuple[float, ...]:
        out = self.outcome
        return out.returns if out is not None else tuple(0.0 for _ in self.setup.names)

    # -- showing -------------------------------------------------------------------------------
    def view(self, player: int | None) -> Json:
        """A JSON-ready dict of exactly what `player` may know (None: a spectator): the
        envelope every game shares (`game`, `version`, `viewer`, `players`, `to_move`, `turn`,
        `result`) around the game's own `board` (`board_view`). Its JSON Schema is
        `core.view.view_schema(game)`."""
        return self.view_around(player, self.board_view(player))

    def view_around(self, player: int | None, board: Any) -> Json:
        """`view(player)` around a `board` built already: in a game with perfect information
        the board is the same for every viewer (`Game.perfect_information` promises it), so a
        front end showing one position to several viewers (the server: every seat after each
        move) builds it once (`board_view(None)`, or its JSON, which the server's messages
        carry as it is) and wraps it for each."""
        return {
            "game": self.game.id,
            "version": VIEW_VERSION,
            "viewer": player,
            "players": [{"seat": p, "name": name or f"Player {p + 1}"}
                        for p, name in enumerate(self.setup.names)],
            "to_move": list(self.to_move_seen(player)),
            "turn": self.turn_number(),
            "result": outcome_json(self),
            "board": board,
        }

    def board_view(self, player: int | None) -> Json:
        """The game's own part of `view`: its board, hands and counters as `player` may
        know them (None: a spectator). JSON-ready; described by the game's
        `board.schema.json`."""
        raise NotImplementedError  # pragma: no cover

    def render(self, player: int | None = None) -> str:
        """The board as plain text, from `player`'s point of view."""
        raise NotImplementedError  # pragma: no cover

    def render_rich(self, player: int | None = None) -> Text:
        """The board with colours (Rich); by default the plain text."""
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
    def clone(self) -> Self:
        raise NotImplementedError  # pragma: no cover

    def search_key(self) -> Hashable | None:
        """Optional: a value that two states share exactly when everything the rules and the
        evaluation read is the same in both (the same position reached by other moves: a
        transposition), so a search may reuse for one what it computed for the other (the
        scores of its moves). None (the default): no key, nothing is reused."""
        return None

    def determinize(self, player: int, seed: int) -> Self:
        """A full state consistent with `player`'s view, unknowns resampled from `seed`.

        By default a clone whose random source (an `Rng` in a slot named `rng`, if any) is
        reseeded, so that future chance is not known in advance; games with hidden parts
        resample them too.
        """
        state = self.clone()
        if isinstance(getattr(state, "rng", None), Rng):
            state.rng = Rng(seed)  # type: ignore[attr-defined]
        return state

    def open_orders(self, player: int) -> bool:
        """For search, on a determinization for `player` of a simultaneous decision: withdraw
        the orders the other players have handed in for the decision under way (their contents
        are hidden from `player`, so the determinization drew a sample), so that a search
        decides them as those players' choices. True when any was withdrawn. Default: nothing
        is handed in ahead of the others (False)."""
        return False

    # -- for learners: a fixed action encoding and observation tensors ------------------------
    # Learners (and the PettingZoo, Gymnasium and OpenSpiel adapters) need a fixed set of
    # integer actions with a legality mask and tensors of fixed shape; their sizes are the
    # game's facts (`Game.info`). Every game implements `action_id`/`id_action` and
    # `observation_tensor`; its docs say what each id range and each field means ("For
    # learners"). Tensors are flat lists of floats (no numpy in the core: adapters convert)
    # built only from what `view(player)` holds, so they cannot leak.
    def game_info(self) -> GameInfo:
        """The game's facts at this game's options and number of players."""
        return self.game.info(self.setup.options, len(self.setup.names))

    def action_id(self, action: ActionT, player: int | None = None) -> int:
        """The id of `action` (for `player`, in a simultaneous turn). An action that has no
        id raises `IllegalAction` saying why."""
        raise NotImplementedError(f"{self.game.id} has no action encoding")

    def id_action(self, action_id: int, player: int | None = None) -> ActionT:
        """The action an id stands for. An id out of range, or one that means nothing here,
        raises `IllegalAction` saying so (never an IndexError)."""
        raise NotImplementedError(f"{self.game.id} has no action encoding")

    def legal_ids(self, player: int | None = None) -> list[int]:
        """The ids of the legal actions, ascending: a learner's action mask. For every game
        whose actions are whole turns exactly `{action_id(a) for a in legal_actions(player)}`
        (a game may number the steps of a turn instead)."""
        return sorted({self.action_id(a, player) for a in self.legal_actions(player)})

    def apply_id(self, action_id: int, player: int | None = None) -> list[Event]:
        """Carry out the action an id stands for (`apply` of `id_action`); a game whose ids
        are the steps of a turn overrides it to take one step."""
        return self.apply(self.id_action(action_id, player), player)

    def observation_tensor(self, player: int) -> list[float]:
        """What `player` observes now as a flat list of finite floats, as long as the product
        of the game's `observation_shape`. Built only from what `view(player)` holds: two
        states that differ only in what `player` cannot see give the same tensor."""
        raise NotImplementedError(f"{self.game.id} has no observation tensor")

    def observation_string(self, player: int) -> str:
        """What `player` observes now, as text: by default the view as compact JSON with sorted
        keys (built from the view alone, so it cannot leak either)."""
        return view_text(self.view(player))

    def information_state_tensor(self, player: int) -> list[float]:
        """The observation plus what `player` did and saw (hidden-information games; bounded,
        fixed size). With perfect information: the observation."""
        if self.game.perfect_information:
            return self.observation_tensor(player)
        raise NotImplementedError(f"{self.game.id} has hidden information: it must define "
                                  "its information-state tensor")

    def observation_entries(self, player: int) -> dict[int, float]:
        """`observation_tensor(player)` as its entries that may be nonzero: position -> value,
        every position left out being 0.0. Learners' adapters write these straight into a
        zeroed buffer (numpy), which costs per entry given rather than per entry of the whole
        tensor, most of which is 0 (one-hot planes). By default made from the tensor; a game
        overrides it with a builder of its own (and may derive its tensor from it)."""
        return {i: v for i, v in enumerate(self.observation_tensor(player)) if v}

    def observation_array(self, player: int) -> array[float] | None:
        """`observation_tensor(player)` as a fresh float32 `array.array` ("f"), or None (the
        default) when the game writes none. A game whose entries are written in one pass may
        write them straight into a zeroed array: an adapter then hands that memory to numpy
        as it is, with no dict built or read (learners step through this every action)."""
        return None

    def information_state_entries(self, player: int) -> dict[int, float]:
        """`information_state_tensor(player)` as entries, as `observation_entries` gives the
        observation. With perfect information: the observation's."""
        if self.game.perfect_information:
            return self.observation_entries(player)
        return {i: v for i, v in enumerate(self.information_state_tensor(player)) if v}

    def information_state_string(self, player: int) -> str:
        """The information state as text. With perfect information: the observation string."""
        if self.game.perfect_information:
            return self.observation_string(player)
        raise NotImplementedError(f"{self.game.id} has hidden information: it must define "
                                  "its information-state string")

    # -- the history ---------------------------------------------------------------------------
    def _push(self, player: int, action: ActionT) -> None:
        self._hist = (self._hist, player, action)

    def _mark(self, mark: TableMark) -> None:
        """Put a table mark on the history (see `TableMark`)."""
        last = self.history()
        self._hist = (self._hist, mark, last[-1][1] if last else -1)

    def history(self) -> list[tuple[int, ActionT]]:
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

    def table_log(self) -> list[tuple[int, ActionT] | TableMark]:
        """Everything done at the table, oldest first: each action (player, action), taken
        back or not, and each undo or resignation as its `TableMark`."""
        out: list[tuple[int, ActionT] | TableMark] = []
        cell = self._hist
        while cell is not None:
            cell, player, action = cell
            out.append(player if type(player) is TableMark else (player, action))
        out.reverse()
        return out

    def entry_text(self, player: int, action: ActionT) -> str:
        """The text a record keeps for one action (taken before it is applied)."""
        return self.notation(action)

    def apply_entry(self, text: str) -> list[Event]:
        """Apply one record entry that is an action (the inverse of `entry_text`)."""
        return self.apply(self.parse(text))

    def record_extra(self) -> Json:
        """Fields of the game's own that its record adds beside the core's (every coin flip
        in words, say): for people reading the file; a replay ignores them."""
        return {}

    def iter_players(self) -> Iterator[int]:
        return iter(range(len(self.setup.names)))


def view_text(view: Json) -> str:
    """A view as one line of JSON with sorted keys: the default observation string."""
    return json.dumps(view, sort_keys=True, separators=(",", ":"), default=str)
