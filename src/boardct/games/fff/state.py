"""The Force Field Factions game state: a position (FFF-29) plus setup and history."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, ClassVar, TypeAlias

from boardct.core.encoding import check_id
from boardct.core.errors import IllegalAction
from boardct.core.game import Event, Game, Outcome, State, Termination
from boardct.games.fff import encoding, steps
from boardct.games.fff import position as posmod
from boardct.games.fff.movegen import (
    PASS_KEY,
    canonical,
    canonical_mover,
    legal_turns,
    result_key,
)
from boardct.games.fff.notation import format_turn, parse_turn
from boardct.games.fff.pieces import (
    COLOUR_NAMES,
    COLOURS,
    FACING,
    FACINGS,
    FIELDS,
    GHOST,
    OWNER,
    OWNER_NAMES,
    SIZE,
    SQUARE_NAMES,
    q_square,
)
from boardct.games.fff.rules import ReadAs, TurnResult, eliminated, play

if TYPE_CHECKING:  # pragma: no cover
    from rich.text import Text

    from boardct.core.game import Setup


# FFF's action: one whole turn, its token codes in order (FFF-30); `()` is a pass.
Turn: TypeAlias = tuple[int, ...]

# A selection token's square as the page draws it (`action_targets`), per token (`qcode`).
_SQUARE_KEY = tuple(f"sq:{SQUARE_NAMES[q_square(q)]}" for q in range(128))
# The events of a turn whose second item is the square a piece went to (a step) or hit.
_TO_SQUARE = frozenset({"step", "capture", "push", "strip", "convert", "fail"})


def _nice(text: str) -> str:
    """`W1S:y` -> `White 1-pip (W1S:y)` for event lines."""
    if not text:
        return text
    owner = OWNER_NAMES[0] if text[0] == "B" else OWNER_NAMES[1]
    return f"{owner} {text[1]}-pip ({text})"


class FFFState(State[Turn]):
    __slots__ = ("main", "ghost", "pool", "lost", "cnt", "turn", "count", "limit", "result",
                 "part")
    game: ClassVar[Game]  # set by the Game at import
    main: list[int]  # the square lists, pool, lost pieces and piece counts (posmod.Board)
    ghost: list[int]
    pool: list[int]
    lost: list[int]
    cnt: list[int]
    turn: int  # the player to move
    count: int  # turns without a capture (FFF-28)
    limit: int
    result: Outcome | None
    part: steps.StepTurn | None  # a turn under way in steps (learners)

    def __init__(self, setup: Setup, board: posmod.Board):
        self.setup = setup
        self._hist = None
        self.main = board.main
        self.ghost = board.ghost
        self.pool = board.pool
        self.lost = board.lost
        self.cnt = board.cnt
        self.turn = board.turn
        self.count = board.count
        self.limit = int(setup.options.get("turn_limit", 200))
        self.result = None
        self.part = None
        self._judge()

    # -- the end (FFF-15, FFF-16, FFF-27, FFF-28) ------------------------------------------------
    def _judge(self) -> None:
        black_out, white_out = eliminated(self.cnt)
        if black_out and white_out:
            self.result = Outcome((0.5, 0.5), "both eliminated",
                                  kind=Termination.ELIMINATION)
        elif black_out:
            self.result = Outcome((0.0, 1.0), "elimination", (1,),
                                  kind=Termination.ELIMINATION)
        elif white_out:
            self.result = Outcome((1.0, 0.0), "elimination", (0,),
                                  kind=Termination.ELIMINATION)
        elif self.limit and self.count >= self.limit:
            self.result = Outcome((0.5, 0.5), f"{self.limit} turns without a capture",
                                  kind=Termination.NO_PROGRESS)
        else:
            self.result = None

    @property
    def outcome(self) -> Outcome | None:
        return self.result

    def current_players(self) -> tuple[int, ...]:
        return () if self.result is not None else (self.turn,)

    # -- actions ---------------------------------------------------------------------------------
    def legal_actions(self, player: int | None = None) -> list[Turn]:
        if self.result is not None or (player is not None and player != self.turn):
            return []
        if self.part is not None:  # a turn under way in steps: only steps may go on
            return []
        return legal_turns(self.main, self.ghost, self.pool, self.lost, self.cnt, self.turn)

    def _check_turn(self, action: object, player: int | None) -> None:
        if self.result is not None:
            raise IllegalAction("FFF-27", "the game is over: no turn may follow")
        if player is not None and player != self.turn:
            raise IllegalAction("FFF-1", f"it is {OWNER_NAMES[self.turn]}'s turn "
                                f"(Player {self.turn + 1}), not Player {player + 1}'s")
        if not isinstance(action, tuple):
            raise IllegalAction("FFF-30", f"{action!r} is not a turn (a tuple of token codes)")
        if self.part is not None:
            raise IllegalAction("FFF-4", f"a turn is under way in steps ({self.part.text()}): "
                                "finish it with apply_id (end: step 243) before a whole turn")

    def _play(self, action: Turn, events: list[Event] | None = None) -> TurnResult:
        return play(self.main, self.ghost, self.pool, self.lost, self.cnt, self.turn, action,
                    events)

    def apply(self, action: Turn, player: int | None = None) -> list[Event]:
        if isinstance(action, list):  # e.g. an action that went through JSON
            action = tuple(action)
        self._check_turn(action, player)
        events: list[Event] = []
        res = self._play(action, events)
        changed = res.cnt != self.cnt  # a piece left the board or changed sides (FFF-28)
        me = self.turn
        self.main, self.ghost, self.pool, self.lost, self.cnt = (
            res.main, res.ghost, res.pool, res.lost, res.cnt)
        self.count = 0 if changed else self.count + 1
        self.turn = 1 - me
        self._judge()
        self._push(me, action)
        if self.result is not None:
            events.append(("end", self.result.describe()))
        return events

    def parse(self, text: str, player: int | None = None) -> Turn:
        """Read a turn, check it against the rules, and return its canonical action (FFF-31):
        any way of writing a result gives the one action `legal_actions()` lists for it.

        Reading forgives: any case (`notation.parse_turn`), and a step `m` into an enemy
        piece that the attack captures or pushes is read as that attack, the attacker keeping
        its facing (`rules.ReadAs`); where the step is no such attack the error shows the
        turn to type. Each replacement turns an `m` into an attack, so the loop ends."""
        action = parse_turn(text)
        self._check_turn(action, player)
        while True:
            try:
                res = self._play(action)
                break
            except ReadAs as meant:  # a step into an enemy piece the attack takes: that attack
                action = action[:meant.index] + (meant.token,) + action[meant.index + 1:]
        key = (res.main, res.ghost, res.lost)
        if key == (self.main, self.ghost, self.lost):
            return ()
        legal = self.legal_actions()
        if action in set(legal):
            return action
        same = [a for a in legal if a and a[0] == action[0]]
        others = [a for a in legal if not a or a[0] != action[0]]
        for cand in same + others:
            r = self._play(cand)
            if (r.main, r.ghost, r.lost) == key:
                return cand
        return action  # pragma: no cover - every legal result is listed

    def apply_entry(self, text: str) -> list[Event]:
        """Records hold canonical text: apply it without the search `parse` does."""
        return self.apply(parse_turn(text))

    def notation(self, action: Turn) -> str:
        return format_turn(action)

    def describe_action(self, action: Turn, player: int | None = None) -> str:
        """What the turn does, step by step, without naming the piece again (its square heads
        the group `moves` lists it under): "turns NE, steps to b2".

        The turn is played on copies of the lists (`rules.play`), not on a clone of the state:
        a legal list describes every legal turn (hundreds), and the clone and bookkeeping of
        a whole `apply` were most of its cost. Only a turn that may end the game (a piece
        leaves the board or changes sides, or the no-capture count reaches its limit) goes
        through `apply`, for the result's words."""
        events: list[Event] = []
        try:
            if isinstance(action, list):
                action = tuple(action)
            self._check_turn(action, player)
            res = self._play(action, events)
            if res.cnt != self.cnt or (self.limit and self.count + 1 >= self.limit):
                events = self.clone().apply(action, player)
        except IllegalAction:
            return self.notation(action)
        return self._turn_words(action, events)

    def _turn_words(self, action: Turn, events: Sequence[Event]) -> str:
        """The words of the events `action` made, as `describe_action` gives them."""
        parts = []
        for e in events:
            if e[0] == "select":
                continue
            if e[0] == "turn":
                parts.append(f"turns {e[2]}")
                continue
            line = self.describe(e)
            parts.append(line.split(": ", 1)[1] if e[0] != "end" and ": " in line else line)
        return ", ".join(parts) or self.notation(action)

    def action_targets(self, action: Turn, player: int | None = None) -> tuple[str, ...]:
        """The square of the piece a turn selects (FFF-30: a turn starts with it, `d4` or
        `d4~` for the out-of-phase piece there), as the page draws it: `sq:d4`. A pass
        involves no square."""
        if type(action) is not tuple or not action or type(action[0]) is not int:
            return ()
        q = action[0]
        return (_SQUARE_KEY[q],) if 0 <= q < len(_SQUARE_KEY) else ()

    def event_targets(self, events: Sequence[Event], viewer: int | None) -> tuple[str, ...]:
        """The squares a turn's events name beyond the selected piece's own: where it stepped
        to and the squares it attacked (`sq:d5`), marked beside the square it started from
        (`action_targets`). Every FFF event is public, so every viewer gets the same."""
        out: list[str] = []
        for event in events:
            if len(event) > 2 and event[0] in _TO_SQUARE and isinstance(event[2], str):
                key = f"sq:{event[2]}"
                if key not in out:
                    out.append(key)
        return tuple(out)

    def _set_outcome(self, outcome: Outcome) -> None:
        self.result = outcome
        self.part = None

    # -- for learners: the step encoding (steps.py, encoding.py, docs/fff.md) ------
    # FFF numbers the steps of a turn, not turns (`legal_ids`, `apply_id`): its ids stand for
    # step texts, not for its actions, hence the overrides below.
    def action_id(self, action: str, player: int | None = None  # type: ignore[override]
                  ) -> int:
        """The id of a step, given as its text (`"d4"`, `"NE"`, `"xN/E"`, `"+r"`, `"end"`). A
        whole turn has no id: it is a sequence of steps."""
        return steps.step_id(action)

    def id_action(self, action_id: int, player: int | None = None  # type: ignore[override]
                  ) -> str:
        """The step an id stands for, as its text (`"d4~"`, `"m"`, `"end"`)."""
        return steps.STEP_TEXT[check_id(action_id, steps.NUM_STEP_IDS, "fff")]

    def legal_ids(self, player: int | None = None) -> list[int]:
        """The steps open now, ascending: at a turn's start the selections, then the steps of
        the turn under way."""
        if self.result is not None or (player is not None and player != self.turn):
            return []
        if self.part is None:
            return steps.select_ids(self.main, self.ghost, self.turn)
        return steps.legal_step_ids(self.part, self.turn)

    def apply_id(self, action_id: int, player: int | None = None) -> list[Event]:
        """Take one step. The step that ends the turn (the end step, an addition, or one
        after which FFF-27 allows nothing more) composes the whole turn, writes it canonically
        (FFF-31) and applies it through `apply`, returning its events; other steps return no
        events. A refused step raises `IllegalAction` and changes nothing."""
        if self.result is not None:
            raise IllegalAction("FFF-27", "the game is over: no step may follow")
        me = self.turn
        if player is not None and player != me:
            raise IllegalAction("FFF-1", f"it is {OWNER_NAMES[me]}'s turn "
                                f"(Player {me + 1}), not Player {player + 1}'s")
        if action_id.__class__ is not int:  # numpy integers from adapters; bools refused
            action_id = check_id(action_id, steps.NUM_STEP_IDS, "fff")
        t = self.part
        if t is None:
            self.part = steps.start(self.main, self.ghost, self.pool, self.lost, self.cnt, me,
                                    action_id)
            return []
        if not steps.take(t, me, action_id):
            return []
        key = result_key(self.main, self.ghost, self.lost, t.sq0, t.slot0, t.code0, t.main,
                         t.ghost, t.lost, t.sq, t.code, t.destroyed)
        if key.__class__ is int and key != PASS_KEY:  # only the mover changed: the fast way
            action = canonical_mover(self.main, self.ghost, self.pool, t.sq0, t.slot0, t.code0,
                                     t.sq, t.code)
        else:
            action = canonical(self.main, self.ghost, self.pool, self.lost, self.cnt, me, key)
        self.part = None
        return self.apply(action, player)

    def observation_tensor(self, player: int) -> list[float]:
        """`encoding.observation(self.view(player), player)` (see `encoding` for the layout),
        built without the view (its fast path: the same values, tested)."""
        return encoding.fast_observation(self, player)

    def observation_entries(self, player: int) -> dict[int, float]:
        return encoding.fast_entries(self, player)

    def observation_string(self, player: int) -> str:
        return encoding.observation_string(self.view(player))

    # Perfect information: the information state is the observation.
    def information_state_tensor(self, player: int) -> list[float]:
        return self.observation_tensor(player)

    def information_state_string(self, player: int) -> str:
        return self.observation_string(player)

    def describe(self, event: Event) -> str:
        kind = event[0]
        if kind == "pass":
            return f"{OWNER_NAMES[event[1]]} passes"
        if kind == "select":
            return f"{OWNER_NAMES[event[1]]} selects {_nice(event[3])} on {event[2]}"
        if kind == "remove":
            return f"{event[1]}: removes its {COLOUR_NAMES[COLOURS.index(event[2])]} field"
        if kind == "add":
            colour = COLOUR_NAMES[COLOURS.index(event[2])]
            return f"{event[1]}: adds {'an' if colour[0] in 'aeiou' else 'a'} {colour} field"
        if kind == "face":  # not "turn": front ends keep that kind for turn headers
            return f"{event[1]}: turns {event[2]}"
        if kind == "step":
            return f"{event[1]}: steps to {event[2]}"
        if kind == "fail":
            return f"{event[1]}: attacks {event[2]} and fails ({event[3]} against {event[4]})"
        if kind == "capture":
            return (f"{event[1]}: captures {_nice(event[3])} on {event[2]}, moves in facing "
                    f"{event[4]}")
        if kind == "push":
            off = f", {_nice(event[4])} is pushed off the board" if event[4] else ""
            return (f"{event[1]}: pushes {event[3]} piece{'s' if event[3] > 1 else ''} from "
                    f"{event[2]}{off}, moves in facing {event[5]}")
        if kind == "strip":
            return (f"{event[1]}: strips {_nice(event[3])} on {event[2]} of its fields, faces "
                    f"{event[4]}")
        if kind == "convert":
            return (f"{event[1]}: converts {_nice(event[3])} on {event[2]} (it faces {event[5]}), "
                    f"faces {event[4]}")
        if kind == "destroy":
            return (f"{event[1]}: {_nice(event[2])} and {_nice(event[3])} destroy each other "
                    "(clear field)")
        if kind == "end":
            return f"Game over: {event[1]}"
        return super().describe(event)

    # -- showing -----------------------------------------------------------------------------------
    def board(self) -> posmod.Board:
        return posmod.Board(self.main[:], self.ghost[:], self.pool[:], self.lost[:],
                            self.cnt[:], self.turn, self.count)

    def position(self) -> str:
        """The FFF-32 text of this position."""
        return posmod.write(self.board())

    def board_view(self, player: int | None) -> dict:
        """The whole board (nothing is hidden): the FFF-32 position, every piece, the pool,
        the lost pieces, the no-capture count; `steps` while a turn is under way in steps."""
        pieces = []
        for sq in range(64):
            for c in (self.ghost[sq], self.main[sq]):
                if c:
                    pieces.append({
                        "square": SQUARE_NAMES[sq], "owner": OWNER[c], "size": SIZE[c],
                        "facing": FACINGS[FACING[c]],
                        "fields": [COLOURS[f] for f in FIELDS[c]],
                        "out_of_phase": GHOST[c],
                    })
        view = {
            "position": self.position(),
            "pieces": pieces,
            "pool": {COLOURS[c]: [self.pool[2 * c], self.pool[2 * c + 1]] for c in range(7)},
            "lost": [self.lost[:3], self.lost[3:]],
            "no_capture_turns": self.count,
            "turn_limit": self.limit,
        }
        if self.part is not None:
            view["steps"] = self._steps_view()
        return view

    def _steps_view(self) -> dict:
        """The turn under way in steps (only while there is one): its tokens so far, the
        selected piece's squares, points, and the board as the steps left it."""
        t = self.part
        assert t is not None
        main, ghost = t.placed()
        pieces = []
        for sq in range(64):
            for c in (ghost[sq], main[sq]):
                if c:
                    pieces.append({
                        "square": SQUARE_NAMES[sq], "owner": OWNER[c], "size": SIZE[c],
                        "facing": FACINGS[FACING[c]],
                        "fields": [COLOURS[f] for f in FIELDS[c]],
                        "out_of_phase": GHOST[c],
                    })
        return {
            "turn": t.text(),
            "square": SQUARE_NAMES[t.sq],
            "from": SQUARE_NAMES[t.sq0],
            "points_left": t.points - t.used,
            "points_spent": t.used,
            "may_remove": t.phase == steps.PHASE_SELECTED and bool(FIELDS[t.code]),
            "pieces": pieces,
        }

    def render(self, player: int | None = None) -> str:
        from boardct.games.fff.render import render_plain

        return render_plain(self)

    def render_rich(self, player: int | None = None) -> Text:
        from boardct.games.fff.render import render_rich

        return render_rich(self)

    def render_compact(self, player: int | None = None) -> Text:
        from boardct.games.fff.render import render_rich

        return render_rich(self, compact=True)

    def prompt(self) -> str:
        if self.result is not None:
            return ""
        return f"Player {self.turn + 1} ({OWNER_NAMES[self.turn]}): "

    def clone(self) -> FFFState:
        s = FFFState.__new__(FFFState)
        s.setup = self.setup
        s._hist = self._hist
        s.main = self.main[:]
        s.ghost = self.ghost[:]
        s.pool = self.pool[:]
        s.lost = self.lost[:]
        s.cnt = self.cnt[:]
        s.turn = self.turn
        s.count = self.count
        s.limit = self.limit
        s.result = self.result
        s.part = self.part.copy() if self.part is not None else None
        return s

    def __repr__(self) -> str:
        return f"FFFState({self.position()!r})"

