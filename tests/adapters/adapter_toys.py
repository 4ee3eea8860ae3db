"""Two tiny games that implement the core encoding API, registered for the adapter tests only.

They pin the adapters' own behaviour (whose reward is whose, what a waiting player sees, what
stays hidden) on games small enough to check by hand, apart from the real games' encodings:

They are handed to the adapters as `Game` objects (never registered).

- `toy_cards`: two players are each dealt a secret card 0-2 from the game's seeded source
  (chance, hidden information). Four alternating actions, each "pass" (id 0) or "bet" (id 1);
  then the higher card plus bets wins, equal is a draw.
- `toy_orders`: simultaneous orders, two or three players, three rounds. Each round every
  player picks 0, 1 or 2 (ids 0-2), hidden from the others until the round is complete; a
  pick nobody else made scores it. Player 2 sits out round 2 (owes nothing): the waiting case.
"""

from __future__ import annotations

from typing import ClassVar

from boardct.core.errors import IllegalAction, ParseError
from boardct.core.game import Game, Option, Outcome, Setup, State
from boardct.core.rng import Rng


def _check(action_id: int, count: int) -> int:
    if isinstance(action_id, bool) or not isinstance(action_id, int):
        try:
            action_id = int(action_id.__index__())
        except AttributeError:
            raise IllegalAction("toy", f"id {action_id!r} is not a whole number") from None
    if not 0 <= action_id < count:
        raise IllegalAction("toy", f"id {action_id} is out of range 0..{count - 1}")
    return action_id


class CardsState(State):
    __slots__ = ("cards", "bets", "moves", "rng", "mine")
    game: ClassVar[Game]
    ROUNDS = 4

    def current_players(self) -> tuple[int, ...]:
        return () if self.moves >= self.ROUNDS else (self.moves % 2,)

    def legal_actions(self, player: int | None = None) -> list[int]:
        if self.moves >= self.ROUNDS or player not in (None, self.moves % 2):
            return []
        return [0, 1]

    def apply(self, action: int, player: int | None = None) -> list[tuple]:
        p = self.moves % 2
        if self.moves >= self.ROUNDS or action not in (0, 1) or player not in (None, p):
            raise IllegalAction("toy", f"{action!r} is not legal now")
        self._push(p, action)
        self.bets = tuple(b + (action if i == p else 0) for i, b in enumerate(self.bets))
        self.mine = tuple(m + ((action,) if i == p else ()) for i, m in enumerate(self.mine))
        self.moves += 1
        return [("act", p, action)]

    @property
    def outcome(self) -> Outcome | None:
        if self.moves < self.ROUNDS:
            return None
        a, b = (self.cards[i] + self.bets[i] for i in (0, 1))
        if a == b:
            return Outcome((0.5, 0.5), "showdown")
        return Outcome((1.0, 0.0), "showdown", (0,)) if a > b else Outcome(
            (0.0, 1.0), "showdown", (1,))

    def parse(self, text: str, player: int | None = None) -> int:
        if text not in ("pass", "bet"):
            raise ParseError("pass or bet", text)
        return 1 if text == "bet" else 0

    def notation(self, action: int) -> str:
        return "bet" if action else "pass"

    def events_for(self, events, player):
        return list(events)

    def view(self, player: int | None) -> dict:
        return {"card": None if player is None else self.cards[player], "bets": list(self.bets),
                "moves": self.moves}

    def render(self, player: int | None = None) -> str:
        return f"bets {self.bets} after {self.moves} moves"

    def clone(self) -> CardsState:
        st = CardsState.__new__(CardsState)
        st.setup, st._hist = self.setup, self._hist
        st.cards, st.bets, st.moves, st.mine = self.cards, self.bets, self.moves, self.mine
        st.rng = self.rng.clone()
        return st

    def determinize(self, player: int, seed: int) -> CardsState:
        st = self.clone()
        st.rng = Rng(seed)
        st.cards = tuple(c if i == player else st.rng.below(3) for i, c in enumerate(self.cards))
        return st

    # the encoding API
    def action_id(self, action: int, player: int | None = None) -> int:
        return _check(action, 2)

    def id_action(self, action_id: int, player: int | None = None) -> int:
        return _check(action_id, 2)

    def legal_ids(self, player: int | None = None) -> list[int]:
        return self.legal_actions(player)

    def apply_id(self, action_id: int, player: int | None = None) -> list[tuple]:
        return self.apply(self.id_action(action_id, player), player)

    def observation_tensor(self, player: int) -> list[float]:
        out = [0.0] * 6
        out[self.cards[player]] = 1.0
        out[3], out[4] = self.bets[0] / 4, self.bets[1] / 4
        out[5] = self.moves / self.ROUNDS
        return out

    def observation_string(self, player: int) -> str:
        return f"card {self.cards[player]} bets {self.bets} moves {self.moves}"

    def information_state_tensor(self, player: int) -> list[float]:
        own = [0.0] * 4
        for i, a in enumerate(self.mine[player]):
            own[2 * i + a] = 1.0
        return self.observation_tensor(player) + own

    def information_state_string(self, player: int) -> str:
        return f"{self.observation_string(player)} mine {self.mine[player]}"


class CardsGame(Game):
    id = "toy_cards"
    title = "Toy cards"
    perfect_information = False
    has_chance = True

    def action_count(self, options: dict, players: int) -> int:
        return 2

    def observation_shape(self, options: dict, players: int) -> tuple[int, ...]:
        return (6,)

    def information_state_shape(self, options: dict, players: int) -> tuple[int, ...]:
        return (10,)

    def max_game_length(self, options: dict, players: int) -> int:
        return 2 * CardsState.ROUNDS

    def initial_state(self, setup: Setup) -> CardsState:
        st = CardsState.__new__(CardsState)
        st.setup, st._hist = setup, None
        st.rng = Rng(setup.seed)
        st.cards = (st.rng.below(3), st.rng.below(3))
        st.bets, st.moves, st.mine = (0, 0), 0, ((), ())
        return st


CardsState.game = CardsGame()


class OrdersState(State):
    __slots__ = ("round", "picks", "scores")
    game: ClassVar[Game]
    ROUNDS = 3

    def _owes(self, p: int) -> bool:
        return self.round < self.ROUNDS and p not in self.picks and not (
            p == 1 and self.round == 1)

    def current_players(self) -> tuple[int, ...]:
        return tuple(p for p in range(len(self.setup.names)) if self._owes(p))

    def legal_actions(self, player: int | None = None) -> list[int]:
        cur = self.current_players()
        if player is None:
            player = cur[0] if cur else -1
        return [0, 1, 2] if player in cur else []

    def apply(self, action: int, player: int | None = None) -> list[tuple]:
        cur = self.current_players()
        if player is None and cur:
            player = cur[0]
        if player not in cur or action not in (0, 1, 2):
            raise IllegalAction("toy", f"{action!r} from {player!r} is not legal now")
        self._push(player, action)
        self.picks = {**self.picks, player: action}
        if not self.current_players():
            count = {a: list(self.picks.values()).count(a) for a in self.picks.values()}
            self.scores = tuple(s + (1 + self.picks[p] if p in self.picks and
                                     count[self.picks[p]] == 1 else 0)
                                for p, s in enumerate(self.scores))
            self.picks = {}
            self.round += 1
            return [("round", self.scores)]
        return [("picked", player)]

    @property
    def outcome(self) -> Outcome | None:
        if self.round < self.ROUNDS:
            return None
        best = max(self.scores)
        winners = tuple(p for p, s in enumerate(self.scores) if s == best)
        share = 1.0 / len(winners)
        return Outcome(tuple(share if p in winners else 0.0 for p in range(len(self.scores))),
                       "rounds", winners if len(winners) == 1 else ())

    def parse(self, text: str, player: int | None = None) -> int:
        if text not in ("0", "1", "2"):
            raise ParseError("0, 1 or 2", text)
        return int(text)

    def notation(self, action: int) -> str:
        return str(action)

    def events_for(self, events, player):
        return list(events)

    def view(self, player: int | None) -> dict:
        return {"round": self.round, "scores": list(self.scores),
                "mine": self.picks.get(player) if player is not None else None}

    def render(self, player: int | None = None) -> str:
        return f"round {self.round + 1}, scores {self.scores}"

    def clone(self) -> OrdersState:
        st = OrdersState.__new__(OrdersState)
        st.setup, st._hist = self.setup, self._hist
        st.round, st.picks, st.scores = self.round, self.picks, self.scores
        return st

    def determinize(self, player: int, seed: int) -> OrdersState:
        st = self.clone()
        rng = Rng(seed)
        st.picks = {p: (a if p == player else rng.below(3)) for p, a in self.picks.items()}
        return st

    def action_id(self, action: int, player: int | None = None) -> int:
        return _check(action, 3)

    def id_action(self, action_id: int, player: int | None = None) -> int:
        return _check(action_id, 3)

    def legal_ids(self, player: int | None = None) -> list[int]:
        return self.legal_actions(player)

    def apply_id(self, action_id: int, player: int | None = None) -> list[tuple]:
        return self.apply(self.id_action(action_id, player), player)

    def observation_tensor(self, player: int) -> list[float]:
        mine = self.picks.get(player)
        return [self.round / self.ROUNDS, 0.0 if mine is None else (1 + mine) / 3] + [
            s / 9 for s in self.scores]

    def observation_string(self, player: int) -> str:
        return repr(self.view(player))

    def information_state_tensor(self, player: int) -> list[float]:
        return self.observation_tensor(player)

    def information_state_string(self, player: int) -> str:
        return self.observation_string(player)


class OrdersGame(Game):
    id = "toy_orders"
    title = "Toy orders"
    max_players = 3
    perfect_information = False
    simultaneous = True
    options = (Option("unused", 0, "an option, to check options reach the game", type=int,
                      minimum=0, maximum=5),)

    def action_count(self, options: dict, players: int) -> int:
        return 3

    def observation_shape(self, options: dict, players: int) -> tuple[int, ...]:
        return (2 + players,)

    def information_state_shape(self, options: dict, players: int) -> tuple[int, ...]:
        return (2 + players,)

    def max_game_length(self, options: dict, players: int) -> int:
        return players * OrdersState.ROUNDS

    def initial_state(self, setup: Setup) -> OrdersState:
        st = OrdersState.__new__(OrdersState)
        st.setup, st._hist = setup, None
        st.round, st.picks = 0, {}
        st.scores = tuple(0 for _ in setup.names)
        return st


OrdersState.game = OrdersGame()

# Passed to the adapters as Game objects, never registered: the rest of the suite (which
# iterates the registry) does not see them.
CARDS: Game = CardsState.game
ORDERS: Game = OrdersState.game


def small(game_id: str) -> dict:
    """A registered game's short-game options (`Game.small_options`), so that the libraries'
    own test functions (which play whole games) stay quick."""
    from boardct.core import registry

    return dict(registry.get(game_id).small_options)


def game_ids() -> list[str]:
    """Every registered game: a new game is covered by the adapter tests by existing."""
    from boardct.core import registry

    return [g.id for g in registry.all_games()]
