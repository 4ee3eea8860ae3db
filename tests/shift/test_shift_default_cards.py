"""Shift's default cards (SH-1: the cards are ours to choose): the Ember Duelist in both seats,
as docs/shift.md ("Default cards") documents, because between equal players no two different
shipped cards are even (benchmarks/results/s11-s11-shift-default.md). At the defaults neither
seat decides the game: each wins some of the seeded `greedy` self-play games, none runs to the
turn limit. Ember Duelist against Tide Warden, the old default, is the one-sided control."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from shift_helpers import GAME

from boardct.arena.runner import run_local, self_play
from boardct.core.outcome import Termination
from boardct.core.records import Record, record_of, replay

DOC = Path(__file__).resolve().parents[2] / "docs" / "shift.md"
GAMES = 40


def _greedy_self_play(options: dict, games: int = GAMES) -> tuple[list[int], int, int]:
    """Seat wins, draws and turn-limit endings of seeded `greedy` self-play games."""
    results = run_local(self_play("shift", "greedy", games, 11, {"cards": options}), workers=1)
    wins = [sum(1 for r in results if r.winners == [s]) for s in (0, 1)]
    draws = sum(1 for r in results if len(r.winners) != 1)
    limits = sum(1 for r in results if r.ending == Termination.TURN_LIMIT.value)
    return wins, draws, limits


def test_the_default_cards_are_the_ember_duelist_mirror_the_docs_name():
    options = GAME.resolve_options({})
    assert (options["card1"], options["card2"]) == ("ember-duelist", "ember-duelist")
    text = DOC.read_text(encoding="utf-8")
    assert "## Default cards" in text
    assert "both `ember-duelist`" in text  # the options paragraph names the defaults


def test_at_the_default_cards_greedy_self_play_is_not_one_sided():
    wins, draws, limits = _greedy_self_play({})
    assert sum(wins) + draws == GAMES
    assert min(wins) >= GAMES // 4, wins  # each seat wins a fair share (48% / 52% of 200)
    assert limits == 0


def test_ember_against_tide_is_one_sided_whichever_seat_the_tide_warden_has():
    """The old default decides the game by the card: the Tide Warden wins nearly every game
    in either seat, the control that the check above can tell a one-sided pairing."""
    wins, _, _ = _greedy_self_play({"card1": "ember-duelist", "card2": "tide-warden"}, 20)
    assert wins[1] >= 17, wins
    wins, _, _ = _greedy_self_play({"card1": "tide-warden", "card2": "ember-duelist"}, 20)
    assert wins[0] >= 17, wins


def test_a_record_at_the_old_default_names_its_cards_and_replays_as_ember_against_tide():
    """Records name every option resolved (core.records.record_of), so a game saved when Ember
    Duelist against Tide Warden was the default still loads as that game."""
    state = GAME.new(seed=5, card1="ember-duelist", card2="tide-warden")
    rnd = random.Random(5)
    for _ in range(40):
        if state.is_over:
            break
        player = state.current_players()[0]
        state.apply(rnd.choice(state.legal_actions(player)), player)
    doc = json.loads(record_of(state).to_json())
    assert (doc["options"]["card1"], doc["options"]["card2"]) == ("ember-duelist", "tide-warden")
    again = replay(Record.from_json(json.dumps(doc)))
    assert [p["card"] for p in again.view(None)["board"]["players"]] == \
        ["Ember Duelist", "Tide Warden"]
    assert again.view(None) == state.view(None)


@pytest.mark.parametrize(("options", "names"), [
    ({"card1": "tide-warden"}, ["Tide Warden", "Ember Duelist"]),
    ({"card2": "Quill of Ash"}, ["Ember Duelist", "Quill of Ash"]),
    ({"card1": "moth-regent", "card2": "iron_lantern"}, ["Moth Regent", "Iron Lantern"]),
])
def test_a_card_named_replaces_only_its_own_seats_default(options, names):
    state = GAME.new(seed=3, **options)
    assert [p["card"] for p in state.view(None)["board"]["players"]] == names
