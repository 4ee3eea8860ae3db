"""Help at the table, for every game and every front end: the legal moves described and
grouped, a preview of what an action would do, undo, resignation and hints from an agent.

All of it goes through the core API (`State`), so a game gets it by implementing that API; a
game improves it by overriding `State.describe_action`, `State.action_group`,
`State.reveals` and `State.resign_action`/`_set_outcome`.

Secrecy: what is computed for a player uses only what that player may know. A preview in a
game with hidden information or chance applies the action to `determinize(player, seed)`
samples and groups them by the events `events_for(…, player)` lets the player see; a hint
asks an agent, which searches determinizations too. Two states that differ only in what the
player cannot see give the same preview and the same hint.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Protocol

from boardct.core.errors import BoardctError, IllegalAction, ParseError
from boardct.core.game import MESSAGE, Action, Event, State, TableMark
from boardct.core.rng import Rng

PREVIEW_SAMPLES = 200  # determinizations per preview: a percentage within a few points
MOVES_SHOWN = 40  # a longer list of moves is summarised by group
OUTCOME_WIDTH = 240  # characters of one outcome in a preview's lines (a whole turn is long)


# -- legal moves, described and grouped ------------------------------------------------------------
@dataclass(frozen=True)
class Move:
    """One legal action as a list shows it: its notation, its group, a line in words, and
    the board elements it involves (`State.action_targets`: what a page makes clickable)."""

    action: Action
    text: str
    group: str
    words: str
    targets: tuple[str, ...] = ()


def legal_moves(state: State[Any], player: int | None = None) -> list[Move]:
    """Every legal action of `player` (default: the one to decide), once each, in the game's
    notation, with its group and words."""
    if player is None:
        players = state.current_players()
        if not players:
            return []
        player = players[0]
    out = []
    seen = set()
    for action in state.legal_actions(player):
        if action in seen:
            continue
        seen.add(action)
        text = state.notation(action)
        words = state.describe_action(action, player)
        out.append(Move(action, text, state.action_group(action), words,
                        tuple(state.action_targets(action, player))))
    return out


def group_moves(moves: list[Move]) -> dict[str, list[Move]]:
    """The moves by group, groups in the order their first move comes."""
    groups: dict[str, list[Move]] = {}
    for m in moves:
        groups.setdefault(m.group, []).append(m)
    return groups


def moves_lines(state: State[Any], player: int | None = None, group: str = "",
                limit: int = MOVES_SHOWN) -> list[str]:
    """What `moves [GROUP]` prints: every legal move by group, or, when there are more than
    `limit`, each group with its count and the command that lists it."""
    moves = legal_moves(state, player)
    if not moves:
        return ["No legal moves: the game is over." if state.is_over
                else "No legal moves for this player now."]
    groups = group_moves(moves)
    wanted = group.strip().lower()
    if wanted:
        chosen = {g: ms for g, ms in groups.items() if g.lower() == wanted}
        if not chosen:
            known = ", ".join(groups)
            raise ParseError(f"no group {wanted!r} among the legal moves (groups: {known})",
                             group)
        groups = chosen
    elif len(moves) > limit:
        out = [f"{len(moves)} legal moves in {len(groups)} groups; type 'moves GROUP' to list "
               "one:"]
        for g, ms in groups.items():
            out.append(f"  {g:<12} {len(ms):>4}  e.g. {ms[0].text}")
        note = state.moves_note()
        return out + [note] if note else out
    out = []
    for g, ms in groups.items():
        out.append(f"{g} ({len(ms)}):")
        width = min(max(len(m.text) for m in ms), 28)
        for m in ms:
            words = "" if m.words == m.text else f"  {m.words}"
            out.append(f"  {m.text:<{width}}{words}")
    note = state.moves_note()
    return out + [note] if note else out


# -- preview ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Outcome:
    """One way an action can turn out: the lines the player would read, and how likely."""

    lines: tuple[str, ...]
    probability: float
    count: int = 1

    def text(self, width: int = OUTCOME_WIDTH) -> str:
        said = "; ".join(ln.rstrip(".") for ln in self.lines) or "nothing visible happens"
        return said if len(said) <= width else said[:width - 3].rstrip() + "..."


@dataclass(frozen=True)
class Preview:
    """What an action would do: `exact` when nothing is left to chance or hidden (one
    outcome, probability 1), else the outcomes seen over `samples` determinizations."""

    action: Action
    text: str
    exact: bool
    outcomes: tuple[Outcome, ...]
    samples: int = 1

    def lines(self, shown: int = 8) -> list[str]:
        if self.exact:
            head = f"{self.text} would do:"
            return [head] + [f"  {ln}" for ln in self.outcomes[0].lines] if self.outcomes[0].lines \
                else [head, "  nothing visible"]
        out = [f"{self.text} would turn out (from what you can see, {self.samples} samples, "
               f"{len(self.outcomes)} different outcome{'s' if len(self.outcomes) != 1 else ''}):"]
        for o in self.outcomes[:shown]:
            out.append(f"  {o.text()} ({round(100 * o.probability)}%)")
        rest = sum(o.probability for o in self.outcomes[shown:])
        if rest > 0:
            out.append(f"  other outcomes ({round(100 * rest)}%)")
        return out


def is_exact(state: State[Any]) -> bool:
    """Whether everything an action does is known in advance: perfect information, no
    chance."""
    return state.game.perfect_information and not state.game.has_chance


def _seen_lines(after: State[Any], events: list[Event], player: int) -> tuple[str, ...]:
    seen = after.events_for(events, player)
    return tuple(after.describe(e) for e in seen if e)


def preview(state: State[Any], action: Action, player: int | None = None, *, seed: int = 0,
            samples: int = PREVIEW_SAMPLES) -> Preview:
    """What `action` by `player` would do, without doing it. Exact where nothing is left to
    chance or hidden: the events of applying it to a clone. Otherwise the action is applied to
    `samples` determinizations for `player` (seeded from `seed`, so the same seed gives the
    same preview) and the outcomes are the distinct lists of events the player would see,
    with their share of the samples. An illegal action raises the error `apply` gives."""
    if player is None:
        players = state.current_players()
        if not players:
            raise IllegalAction("table", "the game is over")
        player = players[0]
    text = state.notation(action)
    if is_exact(state):
        trial = state.clone()
        events = trial.apply(action, player)
        return Preview(action, text, True, (Outcome(_seen_lines(trial, events, player), 1.0),))
    rng = Rng(seed)
    counts: Counter[tuple[str, ...]] = Counter()
    order: list[tuple[str, ...]] = []
    for _ in range(samples):
        trial = state.determinize(player, rng.next64())
        events = trial.apply(action, player)
        key = _seen_lines(trial, events, player)
        if key not in counts:
            order.append(key)
        counts[key] += 1
    ranked = sorted(order, key=lambda k: -counts[k])  # stable: ties keep their first sighting
    outcomes = tuple(Outcome(k, counts[k] / samples, counts[k]) for k in ranked)
    return Preview(action, text, False, outcomes, samples)


# -- undo ------------------------------------------------------------------------------------------
def rebuild(state: State[Any], keep: int) -> State[Any]:
    """The game replayed from its setup through the first `keep` actions in force."""
    fresh = state.game.initial_state(state.setup)
    for player, action in state.history()[:keep]:
        fresh.apply(action, player)
    return fresh


def undo_problem(state: State[Any], count: int) -> str | None:
    """Why the last `count` actions cannot be taken back (None: they can). Not after the end,
    not more than were played, and not an action whose events revealed something (a chance
    result, a hidden tile or card, a turn's resolution): taking it back would let a player try
    again knowing what it showed."""
    if count < 1:
        return "there is nothing to take back"
    done = state.history()
    if state.is_over:
        return "the game is over"
    if count > len(done):
        return (f"only {len(done)} action{'s' if len(done) != 1 else ''} to take back"
                if done else "no move has been made yet")
    # a resignation that left the game going (a team game, CTF-40) is not an action a
    # rebuild replays: what was played before it stands
    if any(type(m) is TableMark and m.kind == "resign" for m in state.table_log()):
        return "a player has resigned since the game began: what was played stands"
    if state.game.perfect_information and not state.game.has_chance:
        return None
    trial = rebuild(state, len(done) - count)
    for player, action in done[len(done) - count:]:
        events = trial.apply(action, player)
        if any(e and e[0] != MESSAGE and trial.reveals(e) for e in events):
            return ("a move to take back revealed something (a chance result, a hidden tile "
                    "or card, or a turn's resolution): an undo would let it be played again "
                    "knowing that")
    return None


def undo(state: State[Any], count: int = 1) -> State[Any]:
    """A new state: the game as it was before its last `count` actions, whose history still
    holds them and an undo mark, so that the record (and a replay) shows the undo. Raises
    `IllegalAction` (nothing changed) when `undo_problem` says no."""
    problem = undo_problem(state, count)
    if problem is not None:
        raise IllegalAction("table", f"cannot undo: {problem}")
    kept = len(state.history()) - count
    fresh = rebuild(state, kept)
    last = state.history()[kept - 1][1] if kept else -1
    fresh._hist = (state._hist, TableMark("undo", count), last)
    return fresh


def undo_count(state: State[Any], player: int, computer: set[int] | frozenset[int] = frozenset()
               ) -> int:
    """How many actions `undo` takes back for `player`: the last one; against the computer,
    everything since `player`'s own last action (their move and the computer's reply). 0:
    there is none."""
    done = state.history()
    if not computer:
        return 1 if done else 0
    for back, (who, _action) in enumerate(reversed(done), start=1):
        if who == player:
            return back
    return 0


OFFER_KINDS = ("draw", "undo")


def offers_allowed(state: State[Any]) -> tuple[str, ...]:
    """The table offers (`OFFER_KINDS`) a game can carry out, judged on `state` (a position
    not yet over; a front end asks once, on the initial state): "draw" where `agree_draw` can
    end it drawn (not FieldShift, which draws through its own command 08, nor Shift, whose
    result holds no draw), "undo" where turns are taken one at a time (in a simultaneous turn
    a sealed order taken back would tell the others it had been handed in, and the turn's
    resolution reveals everything anyway). A front end shows only these, so no button offers
    what the game will refuse."""
    allowed = []
    if not state.is_over:
        try:
            state.clone().agree_draw()
            allowed.append("draw")
        except BoardctError:
            pass
    if not state.game.simultaneous:
        allowed.append("undo")
    return tuple(allowed)


# -- hints -----------------------------------------------------------------------------------------
HINT_MOVES = 3  # the best moves a hint lists with their values
class Adviser(Protocol):
    """What a hint needs of an agent (`boardct.agents.Agent` is one): a choice for a player,
    and, optionally, after the choice, `report()` giving its value of the choice and the line
    it expects, and `ranked(k)` giving its best `k` moves as (action, value, visits), best
    first. Values are probabilities: the share of the game's reward the player can expect
    (1 a sure win, 0 a sure loss), as the search estimates it."""

    def select(self, state: State[Any], player: int) -> Any: ...


@dataclass
class Hint:
    """An agent's suggestion: the action, its notation, the agent's value of it for the player
    (the win probability as the search estimates it, in [0, 1]: 1 a sure win, a draw counted
    half; None when the agent gives none), the best moves it found, each as (action, notation,
    value), best first (at most three; the suggestion first; [] from an agent that does not
    search), and the line it expects (notations, the suggestion first)."""

    action: Action
    text: str
    words: str
    value: float | None = None
    line: list[str] = field(default_factory=list)
    agent: str = ""
    best: list[tuple[Action, str, float]] = field(default_factory=list)

    def lines(self) -> list[str]:
        head = f"Hint ({self.agent}): {self.text}" if self.agent else f"Hint: {self.text}"
        if self.words and self.words != self.text:
            head += f"  ({self.words})"
        out = [head]
        if self.value is not None:
            out.append(f"  win chance: {round(100 * self.value)}% for you (the search's "
                       "estimate)")
        if len(self.best) > 1:
            out.append("  best moves: " + " | ".join(f"{text} ({round(100 * value)}%)"
                                                      for _a, text, value in self.best))
        if len(self.line) > 1:
            out.append(f"  expected line: {' | '.join(self.line)}")
        return out


def hint(state: State[Any], adviser: Adviser, player: int | None = None, *, seed: int = 0,
         label: str = "") -> Hint:
    """The suggestion of `adviser` (an agent, built by the caller: the core knows no agent)
    for `player`, `label` naming it ("mcts:time=1"). The agent decides on a copy, so it sees
    only what it may (agents search determinizations where anything is hidden). Agents that
    report their search (`report()`) add its value and line."""
    if player is None:
        players = state.current_players()
        if not players:
            raise IllegalAction("table", "the game is over")
        player = players[0]
    action = adviser.select(state.clone(), player)
    out = Hint(action, state.notation(action), state.describe_action(action, player),
               agent=label)
    report = getattr(adviser, "report", None)
    if report is None:
        return out
    value, line = report()
    out.value = None if value is None else min(1.0, max(0.0, float(value)))
    ranked = getattr(adviser, "ranked", None)
    if ranked is not None:
        legal = set(state.legal_actions(player))
        out.best = [(act, state.notation(act), float(v)) for act, v, _n in ranked(HINT_MOVES)
                    if act in legal]
    # the line is written out on a state the player may know: a determinization where
    # anything is hidden (its notation needs a state to be written in)
    sample = state.clone() if is_exact(state) else state.determinize(player, seed)
    texts = []
    for act in line:
        try:
            players = sample.current_players()
            if len(players) != 1:
                break
            texts.append(sample.notation(act))
            sample.apply(act, players[0])
        except (BoardctError, ValueError, KeyError, IndexError):
            break
    out.line = texts or [out.text]
    return out


def summary_line(state: State[Any], viewer: int | None = None) -> str:
    """One short line about where any game stands (the terminal's `status`, before the game's
    own `status_line`), as `viewer` (None: a spectator) may know it: who is to decide is
    `to_move_seen(viewer)`. In a simultaneous game the number of actions played is left out:
    it would count the sealed orders handed in this turn (CTF-41)."""
    out = state.outcome
    if out is not None:
        return f"Game over: {out.describe()}."
    who = ", ".join(f"Player {p + 1}" for p in state.to_move_seen(viewer))
    if state.game.simultaneous:
        return f"{state.game.title}: to decide: {who}."
    moves = len(state.history())
    return f"{state.game.title}: {moves} action{'s' if moves != 1 else ''} played; to " \
           f"decide: {who}."
