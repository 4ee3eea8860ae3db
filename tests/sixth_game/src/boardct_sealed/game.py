"""Sealed Bids: a small game of sealed simultaneous bids, hidden until every bid is in.

Rules (SB-1..SB-6):
- SB-1 Every player holds the cards 1..N (the option `cards`, N from 3 to 9). A prize deck of
  the values 1..N is shuffled by the game's seed; one prize is turned up at a time.
- SB-2 Each round every player bids one card of their hand at the same time; nobody learns a
  bid, or whether another player has bid, until every bid is in.
- SB-3 When every bid is in they are shown. The highest bid wins the prize (its value is
  added to that player's score); when two or more highest bids are equal, nobody wins it.
  Every bid card is spent.
- SB-4 After N rounds the highest score wins; equal highest scores share the win.
- SB-5 The cards in each hand, the prizes still to come (not their order) and every shown bid
  are known to all.
- SB-6 A player may resign; the others share the win.

It is the tests' sixth game: it lives in a package of its own and reaches boardct only
through the `boardct.games` entry point, with no line of boardct changed for it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any, ClassVar

from boardct.core.encoding import check_id, flag, one_hot, scaled
from boardct.core.errors import IllegalAction, ParseError
from boardct.core.frontends import FrontEnds
from boardct.core.game import Event, Game, Setup, State
from boardct.core.info import GameInfo, Utility
from boardct.core.options import Option, PlayFlag
from boardct.core.outcome import Outcome, Termination
from boardct.core.rng import Rng

MIN_CARDS, MAX_CARDS = 3, 9

HELP = """\
Sealed Bids: every round a prize is turned up and every player bids one card of their hand
at the same time, sealed; the highest bid wins the prize, equal highest bids win nothing.
After as many rounds as cards the highest score wins.

  bid K   (or just K)   bid your card K for the prize on the table
"""


class SealedState(State[int]):
    """A position: hands (bit k set: card k+1 held), sealed bids (0: none yet), the prizes
    still to come in order, the prize on the table, scores and the shown rounds."""

    __slots__ = ("n", "rng", "deck", "prize", "round", "hands", "bids", "scores", "shown",
                 "forced")
    game: ClassVar[Game]
    n: int
    rng: Rng
    deck: tuple[int, ...]
    prize: int
    round: int
    hands: tuple[int, ...]
    bids: tuple[int, ...]
    scores: tuple[int, ...]
    shown: tuple[tuple[int, tuple[int, ...], int], ...]
    forced: Outcome | None

    # -- whose decision ----------------------------------------------------------------------
    def current_players(self) -> tuple[int, ...]:
        if self.is_over:
            return ()
        return tuple(p for p, b in enumerate(self.bids) if not b)

    def to_move_seen(self, viewer: int | None) -> tuple[int, ...]:
        """SB-2: a player knows only whether their own bid is in; every other player is
        listed as still to bid until the bids are shown."""
        if self.is_over:
            return ()
        everyone = range(len(self.bids))
        if viewer is None:
            return tuple(everyone)
        return tuple(p for p in everyone if p != viewer or not self.bids[p])

    def turn_number(self) -> int:
        return self.round

    # -- actions -----------------------------------------------------------------------------
    def legal_actions(self, player: int | None = None) -> list[int]:
        p = self._who(player)
        if p is None or self.bids[p] or self.is_over:
            return []
        return [k + 1 for k in range(self.n) if self.hands[p] >> k & 1]

    def _who(self, player: int | None) -> int | None:
        if player is not None:
            return player
        owing = self.current_players()
        return owing[0] if len(owing) == 1 else None

    def apply(self, action: int, player: int | None = None) -> list[Event]:
        if self.is_over:
            raise IllegalAction("SB-4", "the game is over")
        p = self._who(player)
        if p is None or not 0 <= p < len(self.bids):
            raise IllegalAction("SB-2", "say which player bids: several bids are owed")
        if self.bids[p]:
            raise IllegalAction("SB-2", "your bid for this prize is already in")
        if type(action) is not int or not 1 <= action <= self.n:
            raise IllegalAction("SB-1", f"{action!r:.20} is not a card (1 to {self.n})")
        if not self.hands[p] >> (action - 1) & 1:
            raise IllegalAction("SB-3", f"card {action} is spent")
        self.bids = tuple(action if q == p else b for q, b in enumerate(self.bids))
        self._push(p, action)
        events: list[Event] = [("bid", p, action)]
        if all(self.bids):
            events += self._show()
        return events

    def _show(self) -> list[Event]:
        """SB-3: every bid shown, the prize won (or not), the cards spent, the next prize."""
        bids = self.bids
        top = max(bids)
        winners = [p for p, b in enumerate(bids) if b == top]
        winner = winners[0] if len(winners) == 1 else -1
        if winner >= 0:
            self.scores = tuple(s + (self.prize if p == winner else 0)
                                for p, s in enumerate(self.scores))
        self.hands = tuple(h & ~(1 << (b - 1)) for h, b in zip(self.hands, bids, strict=True))
        self.shown += ((self.prize, bids, winner),)
        events: list[Event] = [("show", self.round, self.prize, bids, winner)]
        self.bids = tuple(0 for _ in bids)
        if self.deck:
            self.prize, self.deck = self.deck[0], self.deck[1:]
            self.round += 1
            events.append(("prize", self.round, self.prize))
        else:
            self.prize = 0
            events.append(("end", self.scores))
        return events

    def parse(self, text: str, player: int | None = None) -> int:
        words = text.strip().lower().split()
        if words and words[0] == "bid":
            words = words[1:]
        if len(words) != 1 or not (words[0].isascii() and words[0].isdigit()) \
                or len(words[0]) > 2:
            raise ParseError(f"{text.strip()!r:.40} is not a bid: type 'bid K' (K a card, 1 to "
                             f"{self.n})", text, 0)
        return int(words[0])

    def notation(self, action: int) -> str:
        return f"bid {action}"

    def entry_text(self, player: int, action: int) -> str:
        """A record names the bidder: several bids are owed at once (SB-2)."""
        return f"player {player + 1}: {self.notation(action)}"

    def apply_entry(self, text: str) -> list[Event]:
        head, sep, rest = text.partition(":")
        words = head.split()
        if not sep or len(words) != 2 or words[0].lower() != "player" \
                or not (words[1].isascii() and words[1].isdigit()) or len(words[1]) > 2:
            raise ParseError(f"{text.strip()!r:.40} is not a record entry 'player N: bid K'",
                             text, 0)
        player = int(words[1]) - 1
        if not 0 <= player < len(self.bids):
            raise ParseError(f"there is no player {words[1]}", text, 0)
        return self.apply(self.parse(rest, player), player)

    def action_targets(self, action: int, player: int | None = None) -> tuple[str, ...]:
        p = self._who(player)
        return () if p is None else (f"card:{p}:{action}",)

    # -- what each may see -------------------------------------------------------------------
    def events_for(self, events: Sequence[Event], player: int | None) -> list[Event]:
        """SB-2: a bid is seen by its bidder alone until the bids are shown; the rest is
        public."""
        return [e for e in events if e[0] != "bid" or (player is not None and e[1] == player)]

    def describe(self, event: Event) -> str:
        kind = event[0]
        if kind == "bid":
            return f"{self._name(event[1])} bids {event[2]} (sealed)."
        if kind == "show":
            _, rnd, prize, bids, winner = event
            shown = ", ".join(f"{self._name(p)} {b}" for p, b in enumerate(bids))
            won = f"{self._name(winner)} wins it" if winner >= 0 else "a tie: nobody wins it"
            return f"Round {rnd}, prize {prize}: bids {shown}; {won}."
        if kind == "prize":
            return f"Round {event[1]}: the prize is {event[2]}."
        if kind == "end":
            return "Every prize is taken: " + ", ".join(
                f"{self._name(p)} {s}" for p, s in enumerate(event[1])) + "."
        return State.describe(self, event)

    def _name(self, p: int) -> str:
        return self.setup.names[p] or f"Player {p + 1}"

    def board_view(self, player: int | None) -> dict[str, Any]:
        return {
            "cards": self.n,
            "prize": self.prize or None,
            "prizes_left": sorted(self.deck),  # SB-5: which, not in what order
            "scores": list(self.scores),
            "hands": [[k + 1 for k in range(self.n) if h >> k & 1] for h in self.hands],
            "my_bid": (self.bids[player] or None) if player is not None else None,
            "rounds": [{"prize": prize, "bids": list(bids), "winner": None if w < 0 else w}
                       for prize, bids, w in self.shown],
        }

    def render(self, player: int | None = None) -> str:
        lines = [f"Sealed Bids: round {self.round} of {self.n}" if not self.is_over
                 else "Sealed Bids: every prize is taken",
                 f"Prize on the table: {self.prize or '-'}    still to come: "
                 f"{', '.join(map(str, sorted(self.deck))) or 'none'}"]
        for p, h in enumerate(self.hands):
            cards = " ".join(str(k + 1) for k in range(self.n) if h >> k & 1) or "-"
            mine = ""
            if player == p and self.bids[p]:
                mine = f"   your sealed bid: {self.bids[p]}"
            lines.append(f"{self._name(p):<12} score {self.scores[p]:>2}   hand {cards}{mine}")
        for prize, bids, w in self.shown[-3:]:
            lines.append(f"  prize {prize}: bids {' '.join(map(str, bids))} -> "
                         f"{self._name(w) if w >= 0 else 'nobody'}")
        if self.is_over:
            lines.append(f"Result: {self.describe_outcome()}")
        return "\n".join(lines) + "\n"

    def prompt(self) -> str:
        owing = self.current_players()
        return f"{self._name(owing[0])} (Player {owing[0] + 1}), your bid: " if owing else ""

    # -- the end -------------------------------------------------------------------------------
    @property
    def outcome(self) -> Outcome | None:
        if self.forced is not None:
            return self.forced
        if self.prize:
            return None
        best = max(self.scores)
        winners = tuple(p for p, s in enumerate(self.scores) if s == best)
        share = 1.0 / len(winners)
        returns = tuple(share if p in winners else 0.0 for p in range(len(self.scores)))
        reason = "highest score" if len(winners) == 1 else "equal scores"
        return Outcome(returns, reason, winners if len(winners) < len(self.scores) else (),
                       kind=Termination.SCORE)

    def _set_outcome(self, outcome: Outcome) -> None:
        self.forced = outcome

    # -- copies, hidden information ------------------------------------------------------------
    def clone(self) -> SealedState:
        s = SealedState.__new__(SealedState)
        s.setup, s._hist = self.setup, self._hist
        s.n, s.rng, s.deck, s.prize, s.round = self.n, self.rng.clone(), self.deck, self.prize, \
            self.round
        s.hands, s.bids, s.scores, s.shown, s.forced = self.hands, self.bids, self.scores, \
            self.shown, self.forced
        return s

    def determinize(self, player: int, seed: int) -> SealedState:
        """What `player` cannot know resampled: the other sealed bids (any card of each
        bidder's hand) and the order of the prizes to come."""
        s = self.clone()
        rng = Rng(seed)
        st = self.setup  # a seed of its own: the real one would deal the real prizes again
        s.setup = Setup(rng.next64() >> 1, st.options, st.names, st.created)
        s.rng = rng
        deck = list(s.deck)
        rng.shuffle(deck)
        s.deck = tuple(deck)
        bids = list(s.bids)
        for q, b in enumerate(bids):
            if q != player and b:
                held = [k + 1 for k in range(s.n) if s.hands[q] >> k & 1]
                bids[q] = held[rng.below(len(held))]
        s.bids = tuple(bids)
        return s

    # -- for learners --------------------------------------------------------------------------
    def action_id(self, action: int, player: int | None = None) -> int:
        if type(action) is not int or not 1 <= action <= self.n:
            raise IllegalAction("encoding", f"sealedbids: {action!r:.20} is not a card")
        return action - 1

    def id_action(self, action_id: int, player: int | None = None) -> int:
        return check_id(action_id, self.n, "sealedbids") + 1

    def observation_tensor(self, player: int) -> list[float]:
        return observation(self.view(player), player)

    def information_state_tensor(self, player: int) -> list[float]:
        return information_state(self.view(player), player)

    def information_state_string(self, player: int) -> str:
        return self.observation_string(player)  # the view holds every shown round


def _order(view: dict[str, Any], player: int) -> list[int]:
    seats = len(view["players"])
    return [(player + k) % seats for k in range(seats)]


def observation(view: dict[str, Any], player: int) -> list[float]:
    """From the view alone (so it cannot leak): the prize, the round, each hand (own first),
    the scores, the own sealed bid, whether it is over."""
    b = view["board"]
    n = b["cards"]
    out: list[float] = []
    one_hot(out, (b["prize"] or 0) - 1, n)
    out.append(scaled(view["turn"], n))
    total = n * (n + 1) / 2
    for p in _order(view, player):
        held = set(b["hands"][p])
        out.extend(flag(k + 1 in held) for k in range(n))
    out.extend(scaled(b["scores"][p], total) for p in _order(view, player))
    one_hot(out, (b["my_bid"] or 0) - 1, n)
    out.append(flag(view["result"] is not None))
    return out


def information_state(view: dict[str, Any], player: int) -> list[float]:
    """The observation and every shown round (prize and each bid, own first)."""
    b = view["board"]
    n = b["cards"]
    out = observation(view, player)
    order = _order(view, player)
    for r in range(n):
        if r < len(b["rounds"]):
            shown = b["rounds"][r]
            one_hot(out, shown["prize"] - 1, n)
            for p in order:
                one_hot(out, shown["bids"][p] - 1, n)
        else:
            out.extend([0.0] * (n * (1 + len(order))))
    return out


class SealedGame(Game):
    id = "sealedbids"
    title = "Sealed Bids"
    min_players = 2
    max_players = 3
    perfect_information = False
    has_chance = True
    simultaneous = True
    help_text = HELP
    options = (Option("cards", 5, "cards in each hand, and prizes (SB-1)", type=int,
                      minimum=MIN_CARDS, maximum=MAX_CARDS),)
    small_options: ClassVar[dict[str, Any]] = {"cards": 3}
    play_flags = (PlayFlag("--cards", ("cards",), "Cards in each hand (3 to 9).", "N"),)
    frontends = FrontEnds(cli="boardct_sealed.cli", server="boardct_sealed.server", web="web")

    def initial_state(self, setup: Setup) -> SealedState:
        n = int(setup.options["cards"])
        players = len(setup.names)
        s = SealedState.__new__(SealedState)
        s.setup, s._hist = setup, None
        s.n = n
        s.rng = setup.rng()  # Rng(seed), or a runner's source that lists each draw
        deck = list(range(1, n + 1))
        s.rng.shuffle(deck)
        s.prize, s.deck = deck[0], tuple(deck[1:])
        s.round = 1
        s.hands = tuple((1 << n) - 1 for _ in range(players))
        s.bids = tuple(0 for _ in range(players))
        s.scores = tuple(0 for _ in range(players))
        s.shown = ()
        s.forced = None
        return s

    def make_info(self, options: dict[str, Any], players: int) -> GameInfo:
        """Every game's returns add up to 1 (a win shared among equal scores), whatever the
        number of players."""
        return replace(super().make_info(options, players), utility=Utility.CONSTANT_SUM,
                       utility_sum=1.0)

    def action_count(self, options: dict[str, Any], players: int) -> int:
        return int(options["cards"])

    def observation_shape(self, options: dict[str, Any], players: int) -> tuple[int, ...]:
        n = int(options["cards"])
        return (n + 1 + n * players + players + n + 1,)

    def information_state_shape(self, options: dict[str, Any], players: int
                                ) -> tuple[int, ...]:
        n = int(options["cards"])
        return (self.observation_shape(options, players)[0] + n * n * (1 + players),)

    def max_chance_outcomes(self, options: dict[str, Any], players: int) -> int:
        """Its one chance is the prize deck's shuffle (SB-1), from `Setup.rng()`: a draw
        among at most `cards` outcomes per step."""
        return int(options["cards"])

    def max_game_length(self, options: dict[str, Any], players: int) -> int:
        """One bid per player per round, as many rounds as cards (SB-1, SB-2)."""
        return int(options["cards"]) * players

    def evaluate(self, state: State[Any], player: int) -> float | None:
        assert isinstance(state, SealedState)
        total = state.n * (state.n + 1) / 2
        best_other = max(s for p, s in enumerate(state.scores) if p != player)
        return max(-1.0, min(1.0, (state.scores[player] - best_other) / total))


GAME = SealedGame()
SealedState.game = GAME
