"""Force Field Factions as a boardct `Game`: options, initial state and a heuristic."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from boardct.core.errors import OptionError
from boardct.core.frontends import FrontEnds
from boardct.core.game import Game, Option, Setup, default_score_moves
from boardct.core.info import LENGTH_CAP
from boardct.core.inputs import InputError, looks_like_path, read_text
from boardct.games.fff import encoding, steps
from boardct.games.fff import position as posmod
from boardct.games.fff.notation import shown
from boardct.games.fff.pieces import (
    CLEAR,
    FACING,
    FIELDS,
    GHOST,
    K_ADD,
    K_CONVERT,
    K_HIT,
    K_REMOVE,
    K_STEP,
    K_TURN,
    NCODES,
    NEXT,
    OWNER,
    SIZE,
    T_ADD,
    T_REMOVE,
    TOKEN_A,
    TOKEN_KIND,
    q_square,
)
from boardct.games.fff.rules import eliminated, play
from boardct.games.fff.state import FFFState

SIZE_VALUE = (0.0, 1.0, 1.6, 2.4)
# What a field adds to Black's lead (a White piece's field takes it away).
FIELD_VALUE = 0.15
# Per piece code, its fields counted for Black: +1 a field of a Black piece, -1 of a White one.
# The evaluation sums these as integers and weighs the sum once, so the value does not depend
# on where the pieces stand (a float sum would, in its last bits, by the order of squares):
# `score_moves` relies on that to give a quiet turn exactly its position's value.
FIELD_COUNT = [0 if not c or not SIZE[c] else
               (1 if OWNER[c] == 0 else -1) * len(FIELDS[c]) for c in range(NCODES)]
# Turn tokens whose effect `score_moves` does not read from the turn alone: attacks that land
# (capture, push, strip, convert: what they take depends on the board) and removing a clear
# field (the piece back in phase may destroy itself and another, FFF-14/26). A failed attack
# (`x`) changes nothing. Adding a clear field last is read after a look at the square the
# mover ends on (`_clear_destroys`).
_UNREAD = frozenset(t for t, k in enumerate(TOKEN_KIND) if k in (K_HIT, K_CONVERT)) | {
    T_REMOVE[CLEAR]}
_ADD_CLEAR = T_ADD[CLEAR]
_FIELD_DELTA = tuple(1 if k == K_ADD else -1 if k == K_REMOVE else 0 for k in TOKEN_KIND)


# A turn limit of fifty times the default is already a game longer than anyone plays; it keeps
# a record of a game that runs to it (one action a turn) far inside what records hold.
MAX_TURN_LIMIT = 10_000
# A position (FFF-32) is under a kilobyte; a position file is read no further than this.
MAX_POSITION_BYTES = 64 * 1024


class PositionOption(Option):
    """The `position` option: FFF-32 text, or the name of a file that holds it.

    A file is read here (bounded, a byte-order mark dropped) and its text becomes the
    option's value, so the game's record holds the position itself and replays without the
    file. A position always has five fields separated by spaces, so a value with no space is
    a file name, as is the name of any existing file.
    """

    def names_file(self, value: Any) -> bool:
        """The rule `convert` reads by: a value without a space, or naming a file."""
        if not isinstance(value, str):
            return False
        text = value.strip()
        return bool(text) and (" " not in text or looks_like_path(value))

    def convert(self, value: Any) -> Any:
        value = super().convert(value)
        text = value.strip()
        if not text or (" " in text and not looks_like_path(value)):
            return value
        try:
            return read_text(Path(value), MAX_POSITION_BYTES, "position file").strip()
        except InputError as exc:
            raise OptionError(f"option position: {shown(exc.source)}: not an FFF-32 position (five "
                              f"fields) nor a file holding one: {exc.reason}") from None


HELP = """\
Force Field Factions turn notation (one line, tokens separated by spaces; FFF-30)

  pass                  pass the turn
  Q[~] [-C] P... [+C]   select the piece on square Q (d4; d4~ for your out-of-phase piece),
                        optionally remove its outermost field of colour C, spend points P,
                        optionally add a field of colour C last
  points P:  N NE E SE S SW W NW U   turn to that facing
             m                        step one square forward
             x                        attack ahead; the attack fails
             xD                       capture, green push or orange strip; then face D
             xD/E                     purple conversion: face D, the converted piece faces E
  colours C: r red, g green, b blue, y yellow, p purple, o orange, c clear

Examples: d1 NE m +y   d4 xN xE   d4 xE/W   c3~ -c m   pass
Case does not matter (D1 ne M +Y is d1 NE m +y; up is U). An m into an enemy piece that the
attack captures or pushes is that attack, keeping the facing; otherwise the message shows
what to type. The record keeps the canonical text.
Movement points = pips (doubled by a yellow field). Lose when you have no piece of some size.
"""


class FFFGame(Game):
    id = "fff"
    title = "Force Field Factions"
    frontends = FrontEnds(cli="boardct.games.fff.cli", web="web")
    small_options = {"turn_limit": 10}
    help_text = HELP
    min_players = 2
    max_players = 2
    perfect_information = True
    has_chance = False
    simultaneous = False
    options = (
        Option("turn_limit", 200, "draw after this many turns in a row without a capture "
               "(FFF-16, FFF-28); 0 turns it off", type=int, minimum=0,
               maximum=MAX_TURN_LIMIT),
        PositionOption("position", "", "start from this FFF-32 position instead of the "
                       "standard start: its text, or a file holding it", type=str,
                       local_file=True),
    )

    def initial_state(self, setup: Setup) -> FFFState:
        text = setup.options.get("position") or ""
        board = posmod.read(text) if text else posmod.initial_board()
        return FFFState(setup, board)

    # -- facts for learners (steps.py, encoding.py; docs/fff.md "For learners") -------------
    def action_count(self, options: dict, players: int) -> int:
        """Step ids, not whole turns: see `steps` for the table."""
        return steps.NUM_STEP_IDS

    def observation_shape(self, options: dict, players: int) -> tuple[int, ...]:
        return encoding.OBS_SHAPE

    def write_observations(self, out: Any, states: Sequence[Any], players: Sequence[int]
                           ) -> bool:
        """A batch's tensors in a few numpy calls (`batch`: numpy, from `boardct[rl]`)."""
        from boardct.games.fff.batch import write_observations

        write_observations(out, states, players)
        return True

    def max_game_length(self, options: dict, players: int) -> int:
        """The most step ids one game can take (learners take a turn in steps, `steps`), from
        the rules; whole turns are fewer still. With no turn limit there is no bound (a game
        of passes never ends): `LENGTH_CAP`.

        Turns. A turn in which a piece leaves the board or changes sides sets the no-capture
        count to 0; any other adds 1, and the game is drawn when the count reaches the limit L
        (FFF-28). Such resetting turns are few: with P pieces on the board and Lost the sum of
        both lost counts (FFF-25), 2P + Lost drops by at least 1 in each (a piece leaving: P - 1
        and its owner's lost count + 1; two destroyed by a clear field: P - 2, Lost + 2; a
        conversion: the converter's lost count - 1, FFF-25) and is never below 0. It is at
        most 32 at any start: a player's pieces plus lost counts are at most the 8 it started
        with (FFF-33, which the `position` option's reader enforces) and a conversion never
        adds to them. So there are at most R = 32 resetting turns, and before the first, between
        two and after the last at most L other turns (the L-th draws): R + (R + 1) x L turns.

        Steps per turn: the selection, one removal (FFF-4), at most 4 movement points (pips
        1-3, doubled by yellow, FFF-5; only a piece carrying a field can have yellow, and a
        3-pip piece carries none, FFF-7: at most 2 x 2), then an addition or the end step: 7.

        At the default limit of 200: 7 x (32 + 33 x 200) = 46,424 steps."""
        limit = options["turn_limit"]
        if not limit:
            return LENGTH_CAP
        resets = 2 * 16  # 2P + Lost at the start, at most (see above)
        steps_per_turn = 1 + 1 + 4 + 1
        return steps_per_turn * (resets + (resets + 1) * limit)

    def from_position(self, text: str, turn_limit: int = 200) -> FFFState:
        """A game starting at an FFF-32 position (a convenience for tests and tools)."""
        return self.new(seed=0, position=text, turn_limit=turn_limit)  # type: ignore[return-value]

    def evaluate(self, state: FFFState, player: int) -> float:  # type: ignore[override]
        """Material: sizes weighted, a size down to its last piece weighs heavily (losing
        every piece of one size loses the game, FFF-15), fields count a little."""
        black = _black_value(state)
        return black if player == 0 else -black

    def evaluate_all(self, state: FFFState) -> list[float]:  # type: ignore[override]
        black = _black_value(state)
        return [black, -black]

    def score_moves(self, state: FFFState, player: int,  # type: ignore[override]
                    moves) -> list[float]:
        """`Game.score_moves` with the same values, most turns read from their tokens: a turn
        without an attack that lands and without a clear field changes no piece count and
        only the mover's fields (one less for a removal first, one more for an addition
        last), so its value is the position's with that field count, or a draw when it
        reaches the turn limit (FFF-28). The others (captures and the like, a few in ten)
        are played on copies of the board (`rules.play`, without the state around it) and
        judged as `apply` judges them. Tested equal to the default over many
        positions (tests/fff/test_fff_score_moves.py)."""
        if state.part is not None or state.result is not None:
            return default_score_moves(state, player, moves)
        me = state.turn
        mat = _material(state.cnt)
        count = sum(map(FIELD_COUNT.__getitem__, state.main)) + sum(
            map(FIELD_COUNT.__getitem__, state.ghost))
        sign = 1 if me == 0 else -1  # a field of the mover's counts this way for Black
        limit = state.limit
        main, ghost, pool, lost, cnt = state.main, state.ghost, state.pool, state.lost, state.cnt
        after_count = state.count + 1  # FFF-28's count after a turn that changes no count
        boards: dict = {}  # an unread turn's part up to its last unread token: the board
        values: dict = {}  # by (that part or None, change of the mover's field count after)

        def value(part, d: int) -> float:
            if part is None:  # no count changed, the fields by d
                if limit and after_count >= limit:
                    return 0.5
                lead = mat + FIELD_VALUE * (count + sign * d)
            else:
                board = boards.get(part)
                if board is None:
                    # played on copies of the lists (`rules.play`, no events) and judged as
                    # `FFFState.apply` and `_judge` do
                    res = play(main, ghost, pool, lost, cnt, me, part)
                    board = boards[part] = (res.cnt, sum(map(FIELD_COUNT.__getitem__, res.main))
                                            + sum(map(FIELD_COUNT.__getitem__, res.ghost)))
                after, fields = board
                black_out, white_out = eliminated(after)
                if black_out or white_out:
                    return 0.5 if black_out and white_out else float(white_out if player == 0
                                                                      else black_out)
                if limit and (after_count if after == cnt else 0) >= limit:
                    return 0.5
                lead = _material(after) + FIELD_VALUE * (fields + sign * d)
            black = _squash(lead)
            return 0.5 * ((black if player == 0 else -black) + 1.0)

        out: list[float] = []
        append = out.append
        disjoint = _UNREAD.isdisjoint
        unread = _UNREAD
        delta = _FIELD_DELTA
        for action in moves:
            n = len(action)
            if n < 2:  # a pass
                part, d = None, 0
            elif disjoint(action[1:]):
                if action[-1] == _ADD_CLEAR and _clear_destroys(main, ghost, me, action):
                    part, d = action, 0
                else:
                    part = None
                    d = delta[action[1]] + delta[action[-1]] if n > 2 else delta[action[1]]
            else:
                # After its last unread token a turn only turns, steps and may add a field
                # (not a clear one): turns alike up to there share one play.
                j = n - 1
                while action[j] not in unread:
                    j -= 1
                if j == n - 1 or action[-1] == _ADD_CLEAR:  # a clear field last: see above
                    part, d = action, 0
                else:
                    part, d = action[:j + 1], delta[action[-1]]
            key = (part, d)
            v = values.get(key)
            if v is None:
                v = values[key] = value(part, d)
            append(v)
        return out


def _clear_destroys(main: list[int], ghost: list[int], me: int, action: tuple) -> bool:
    """Whether a turn without an attack that lands, ending by adding a clear field, destroys
    its mover and another piece (FFF-14, FFF-26: an in-phase piece goes out of phase on a
    square an out-of-phase piece holds). Follows the mover's facing and steps as `rules.play`
    does; true also where it cannot tell (then the turn is played)."""
    q = action[0]
    sq = q_square(q)
    if q & 1:
        return True  # an out-of-phase piece selected: not in phase, played to be safe
    code = main[sq] if main[sq] and OWNER[main[sq]] == me else 0
    if not code or GHOST[code]:
        return not code  # an out-of-phase mover stays out of phase: nothing destroyed
    facing = FACING[code]
    for tok in action[1:-1]:
        kind = TOKEN_KIND[tok]
        if kind == K_TURN:
            facing = TOKEN_A[tok]
        elif kind == K_STEP:
            sq = NEXT[sq * 9 + facing]
    return bool(ghost[sq])


def _material(cnt: list[int]) -> float:
    """Black's material lead: sizes weighted, a size down to its last piece weighs heavily."""
    lead = 0.0
    for i in (0, 1, 2):
        black, white = cnt[i], cnt[i + 3]
        lead += (black - white) * SIZE_VALUE[i + 1]
        if black == 1:
            lead -= 1.5
        if white == 1:
            lead += 1.5
    return lead


def _squash(lead: float) -> float:
    return max(-0.99, min(0.99, lead / (abs(lead) + 4.0)))


def _black_value(state: FFFState) -> float:
    """`evaluate` for Black; White's is its negative. Written for speed: search calls it at
    every leaf."""
    out = state.outcome
    if out is not None:
        return out.returns[0] * 2.0 - 1.0
    count = FIELD_COUNT
    fields = sum(map(count.__getitem__, state.main)) + sum(map(count.__getitem__, state.ghost))
    return _squash(_material(state.cnt) + FIELD_VALUE * fields)


FFF = FFFGame()
FFFState.game = FFF
