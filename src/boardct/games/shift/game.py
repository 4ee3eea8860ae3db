"""The Shift game: options (the two cards, the turn limit) and the initial state."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from boardct.core.frontends import FrontEnds
from boardct.core.game import Game, Option, PlayFlag, Setup, State
from boardct.games.shift import encoding as enc
from boardct.games.shift.cards import is_shipped, resolve, shipped
from boardct.games.shift.evaluation import evaluate
from boardct.games.shift.state import ShiftState

DEFAULT_TURN_LIMIT = 200  # SH-15, SH-38
# The default cards: the Ember Duelist in both seats (SH-1 leaves the cards to us). Of the 36
# ordered pairs of shipped cards, no two different cards are even between equal players:
# the closest pairs under `greedy` self-play (Ember Duelist against Quill of Ash, Moth Regent
# against Iron Lantern) still give one card about 70% of the games, and under a short search
# they draw every game at the turn limit or go to one card. The Ember mirror is even (48% /
# 52% of 200 `greedy` games, 50% / 50% random, none at the turn limit) and short
# (docs/shift.md, "Default cards"; benchmarks/results/s11-s11-shift-default.md).
DEFAULT_CARDS = ("ember-duelist", "ember-duelist")
# The cards the speed benchmarks and the engine digests were measured at before the default
# changed (Ember Duelist against Tide Warden): their figures stay comparable across sessions.
BENCH_CARDS = ("ember-duelist", "tide-warden")
# Fifty times the default: a turn is a handful of actions, so even a game that runs to this
# limit stays well inside what a record holds (core.records.MAX_ACTIONS).
MAX_TURN_LIMIT = 10_000


HELP = """\
Shift commands (case-insensitive). Gears: 1, 2L, 3, 2R in a ring (1-2L-3-2R-1).

  first / second            after winning the toss: go first or second
  shift G  (or just G)      shift to the neighbouring gear G (start and end phases: a spirit
                            shift, burns 1 spirit; critical subphase: the free shift critical)
  attack alpha|beta|omega   declare an attack with that modifier of the current gear
  pass  (stay, no)          decline (no shift, no attack, no critical)
  guard none                take the hit in the current gear
  guard active G            active guard with a lower-level gear G
  guard spirit G [G ...]    spirit-guard with gears G (each burns one spirit)
  guard active G spirit G   both

A player dealt damage with 5 tokens already in the damage zone loses.
"""


class CardOption(Option):
    """A seat's card: a shipped card's name, or a card file on this machine (`local_file`)."""

    def names_file(self, value: Any) -> bool:
        return isinstance(value, str) and not is_shipped(value)

    def remote_choices(self) -> tuple[str, ...]:
        return tuple(shipped())


class ShiftGame(Game):
    id: ClassVar[str] = "shift"
    title: ClassVar[str] = "Shift, the single-card duel"
    frontends: ClassVar[FrontEnds] = FrontEnds(cli="boardct.games.shift.cli", web="web")
    small_options: ClassVar[dict[str, Any]] = {"turn_limit": 20}
    bench_options: ClassVar[dict[str, Any]] = {"card1": BENCH_CARDS[0], "card2": BENCH_CARDS[1]}
    help_text: ClassVar[str] = HELP
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    options: ClassVar[tuple[Option, ...]] = (
        CardOption("card1", DEFAULT_CARDS[0],
                   "Player 1's card: a shipped card's name (see `boardct cards list`) or a TOML "
                   "file", local_file=True),
        CardOption("card2", DEFAULT_CARDS[1],
                   "Player 2's card: a shipped card's name (see `boardct cards list`) or a TOML "
                   "file", local_file=True),
        Option("turn_limit", DEFAULT_TURN_LIMIT,
               "player turns (skipped ones included) before the game is a draw (SH-15)",
               type=int, minimum=1, maximum=MAX_TURN_LIMIT),
    )
    perfect_information: ClassVar[bool] = True
    has_chance: ClassVar[bool] = True
    simultaneous: ClassVar[bool] = False

    play_flags: ClassVar[tuple[PlayFlag, ...]] = (
        PlayFlag("--cards", ("card1", "card2"), "The two cards (shipped names or TOML files).",
                 "A B"),
    )

    # -- facts for learners (encoding.py; docs/shift.md "For learners") ----------------------
    def max_chance_outcomes(self, options: dict, players: int) -> int:
        """Every draw is a coin (SH-4, SH-18, SH-20) from `Setup.rng()`: two outcomes."""
        return 2

    def action_count(self, options: dict, players: int) -> int:
        return enc.NUM_ACTIONS

    def observation_shape(self, options: dict, players: int) -> tuple[int, ...]:
        return (enc.SIZE,)

    def write_observations(self, out: Any, states: Sequence[State], players: Sequence[int]
                           ) -> bool:
        """A batch's tensors in a few numpy calls (`batch`: numpy, from `boardct[rl]`)."""
        from boardct.games.shift.batch import write_observations

        write_observations(out, states, players)
        return True

    def max_game_length(self, options: dict, players: int) -> int:
        """The most actions one game can take, from the rules: the toss winner's choice of
        going first or second (SH-6), then at most the turn limit L of turns (SH-15, SH-38:
        skipped turns count, and the game is drawn when the L-th ends), each with at most five
        decisions (docs/shift.md, "Decision points"): the start-phase spirit shift, the shift
        phase (a shift, an attack or a pass), the opponent's defence and the shift critical
        (after an attack only), the end-phase spirit shift. A decision with one option is
        applied by the engine and is no action (SH-39). At the default 200 turns: 1,001."""
        return 1 + 5 * int(options["turn_limit"])

    def initial_state(self, setup: Setup) -> ShiftState:
        cards = (resolve(str(setup.options["card1"])), resolve(str(setup.options["card2"])))
        state = ShiftState.__new__(ShiftState)
        state._init(setup, cards, int(setup.options["turn_limit"]))
        return state

    def evaluate(self, state: State, player: int) -> float:
        """The chance of winning from here, as a value in [-1, 1] (evaluation.py)."""
        assert isinstance(state, ShiftState)
        return evaluate(state, player)

    def evaluate_all(self, state: State) -> list[float | None]:
        """One pass for both seats: the evaluation is zero-sum (`evaluate(s, 1)` is
        `-evaluate(s, 0)`), and a search asks this at every leaf."""
        assert isinstance(state, ShiftState)
        v = evaluate(state, 0)
        return [v, -v]


GAME = ShiftGame()
ShiftState.game = GAME
