"""The conformance kit: the cases every check runs over, the seeded random games they share,
and the small helpers the checks need.

A case is one registered game (`registry.all_games()`: no list of ids here, so a game installed
through the `boardct.games` entry point is checked like boardct's own) at one option set: its
defaults and its `small_options` (a short game). For each case a few seeded random games are
played to the end, once per test session, along the two paths a game is played by: whole
actions through `core.moves.act` (people, agents, the server), and action ids through
`core.moves.act_id` (learners, who may take a turn in steps). The checks read states sampled
along those games (the start, some in between, the end) and the events of the actions played
there; they never change them (a check that plays on works on a clone).

The numbers of games are chosen so that the suite stays affordable at default options: every
game of boardct's five is played whole several times per case in a few seconds in all.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

from boardct.core import moves, registry
from boardct.core.game import Event, Game, State

# Whole random games per case, by whole actions and by action ids.
GAMES_BY_ACTIONS = 3
GAMES_BY_IDS = 2
# States kept per game for the checks (evenly spaced, plus the start and the end).
SAMPLES_PER_GAME = 8
# A random game longer than this many actions fails (a game that never ends), whatever the
# game's own bound: no game of boardct's comes near it at its default options.
RUNAWAY = 100_000


@dataclass(frozen=True)
class Case:
    """One game at one option set."""

    game_id: str
    label: str  # "default" or "small"
    options: dict[str, Any]

    @property
    def game(self) -> Game:
        return registry.get(self.game_id)

    @property
    def players(self) -> int:
        return self.game.min_players

    @property
    def key(self) -> str:
        return f"{self.game_id}-{self.label}"


def cases() -> list[Case]:
    """Every registered game at its default options and at its small ones."""
    out = []
    for game in registry.all_games():
        out.append(Case(game.id, "default", {}))
        out.append(Case(game.id, "small", dict(game.small_options)))
    return out


def case_params() -> list[Any]:
    return [pytest.param(c, id=c.key) for c in cases()]


def game_params() -> list[Any]:
    return [pytest.param(g.id, id=g.id) for g in registry.all_games()]


@dataclass
class Move:
    """One action played in a sampled game: who played it, the events it caused and a copy of
    the state right after it (where `events_for` is asked)."""

    player: int
    events: list[Event]
    after: State[Any]


@dataclass
class Playout:
    """One seeded random game played to the end."""

    case: Case
    seed: int
    by_ids: bool
    length: int = 0  # actions (or ids) applied
    states: list[State[Any]] = field(default_factory=list)  # copies, the end last
    moves: list[Move] = field(default_factory=list)

    @property
    def final(self) -> State[Any]:
        return self.states[-1]


def new_state(case: Case, seed: int) -> State[Any]:
    names = [f"Seat {p + 1}" for p in range(case.players)]
    return case.game.new(seed=seed, names=names, **case.options)


def play(case: Case, seed: int, by_ids: bool) -> Playout:
    """A random game to its end (or RUNAWAY actions), seeded, keeping sampled copies."""
    rnd = random.Random(seed)
    state = new_state(case, seed)
    out = Playout(case, seed, by_ids)
    # how often to keep a copy: about SAMPLES_PER_GAME along a game of typical length, which a
    # first game of the case tells (the spacing only changes which states are kept)
    spacing = max(1, _typical_length(case) // SAMPLES_PER_GAME)
    out.states.append(state.clone())
    while not state.is_over and out.length < RUNAWAY:
        player = rnd.choice(state.current_players())
        if by_ids:
            done = moves.act_id(state, player, rnd.choice(state.legal_ids(player)))
        else:
            done = moves.act(state, player, rnd.choice(state.legal_actions(player)))
        out.length += 1
        if out.length % spacing == 0 or state.is_over:
            copy = state.clone()
            out.moves.append(Move(player, list(done.events), copy))
            out.states.append(copy)
    return out


_LENGTHS: dict[str, int] = {}
_PLAYOUTS: dict[str, tuple[Playout, ...]] = {}


def _typical_length(case: Case) -> int:
    """The length of the case's first random game (by whole actions, seed 0)."""
    if case.key in _LENGTHS:
        return _LENGTHS[case.key]
    rnd = random.Random(0)
    state = new_state(case, 0)
    n = 0
    while not state.is_over and n < RUNAWAY:
        player = rnd.choice(state.current_players())
        state.apply(rnd.choice(state.legal_actions(player)), player)
        n += 1
    _LENGTHS[case.key] = n
    return n


def playouts(case: Case) -> tuple[Playout, ...]:
    """The case's random games (played once per session, shared by the checks)."""
    if case.key not in _PLAYOUTS:
        games = [play(case, 100 + k, by_ids=False) for k in range(GAMES_BY_ACTIONS)]
        games += [play(case, 200 + k, by_ids=True) for k in range(GAMES_BY_IDS)]
        _PLAYOUTS[case.key] = tuple(games)
    return _PLAYOUTS[case.key]


def sampled_states(case: Case, *, by_ids: bool | None = None) -> Iterator[State[Any]]:
    """The states kept along the case's games (only those played by whole actions, or only
    those by ids, when `by_ids` says so)."""
    for p in playouts(case):
        if by_ids is None or p.by_ids == by_ids:
            yield from p.states


def viewers(state: State[Any]) -> list[int | None]:
    """Every seat and the spectator (None)."""
    return [*range(len(state.setup.names)), None]


# -- JSON ------------------------------------------------------------------------------------
def json_problem(value: Any, where: str = "", *, tuples: bool = False) -> str | None:
    """Where `value` is not plain JSON data, or None: only dicts with string keys, lists (and
    tuples when `tuples` allows them: events are tuples), strings, whole numbers, finite
    floats, booleans and None, so that `json.loads(json.dumps(value)) == value` holds."""
    kind = type(value)
    if value is None or kind in (str, int, bool):
        return None
    if kind is float:
        return None if math.isfinite(value) else f"{where or 'the value'}: {value!r} is not finite"
    if kind is list or (tuples and isinstance(value, tuple)):
        for i, item in enumerate(value):
            found = json_problem(item, f"{where}[{i}]", tuples=tuples)
            if found:
                return found
        return None
    if kind is dict:
        for k, item in value.items():
            if type(k) is not str:
                return f"{where or 'the value'}: the key {k!r} is not a string"
            found = json_problem(item, f"{where}.{k}", tuples=tuples)
            if found:
                return found
        return None
    return f"{where or 'the value'}: {type(value).__name__} {value!r:.60} is not JSON data"


def view_text(view: dict[str, Any]) -> str:
    return json.dumps(view, sort_keys=True)


def snapshot(state: State[Any]) -> str:
    """Everything a front end or learner can read of a state, as one text: every viewer's
    view, who decides, the legal actions and ids, the tensors, the history, the result."""
    parts: list[Any] = [[view_text(state.view(v)) for v in viewers(state)],
                        list(state.current_players()), state.returns(),
                        [state.notation(a) for _, a in state.history()]]
    for p in state.current_players():
        parts.append([state.notation(a) for a in state.legal_actions(p)])
        parts.append(state.legal_ids(p))
    for p in range(len(state.setup.names)):
        parts.append(state.observation_tensor(p))
    return json.dumps(parts, default=repr)
