"""Listed chance (`core.rng.ListedRng`, `Setup.rng`, `Game.max_chance_outcomes`): a runner
chooses each draw of a game as one of a few equally likely outcomes (the OpenSpiel bridge's
chance nodes), while a game played at a table draws from `Rng(seed)` exactly as before."""

from __future__ import annotations

import pytest

from boardct.core import registry
from boardct.core.game import Setup
from boardct.core.rng import ChanceNeeded, ChanceScript, ListedRng, Rng


def listed(*outcomes: int, fill: bool = False) -> tuple[ListedRng, ChanceScript]:
    script = ChanceScript()
    script.set(outcomes, fill=fill)
    return ListedRng(script), script


def test_each_draw_takes_the_next_outcome():
    rng, _ = listed(3, 1, 0, 4)
    assert rng.below(5) == 3
    assert rng.coin() is True  # outcome 1 is heads
    assert rng.choice("abc") == "a"
    assert rng.randint(1, 6) == 5  # lo plus the outcome


def test_a_draw_past_the_script_asks_for_its_outcomes():
    rng, _ = listed(0)
    rng.coin()
    with pytest.raises(ChanceNeeded) as raised:
        rng.randint(1, 20)
    assert raised.value.outcomes == 20


def test_fill_takes_outcome_zero_and_notes_each_unchosen_draw():
    rng, script = listed(2, fill=True)
    deck = list(range(4))
    rng.shuffle(deck)  # three draws: below(4), below(3), below(2)
    assert script.unchosen == [(3, True), (2, False)]  # the first is followed by the last
    rng.coin()
    assert script.unchosen[-1] == (2, False)  # a lone draw: what follows is the game's


def test_an_outcome_out_of_range_is_refused():
    rng, _ = listed(2)
    with pytest.raises(ValueError, match="out of range"):
        rng.coin()


def test_draws_that_cannot_be_listed_say_so():
    rng, _ = listed()
    with pytest.raises(TypeError):
        rng.next64()
    with pytest.raises(TypeError):
        rng.random()


@pytest.mark.parametrize("seed", [0, 7, 123456789])
def test_a_shuffle_is_the_seeded_shuffle_when_given_the_seeded_draws(seed):
    """The same steps as `Rng.shuffle`: item i swaps with item `below(i + 1)`. Fed the draws a
    seeded `Rng` makes, the listed shuffle gives the seeded permutation."""
    n = 12
    source = Rng(seed)
    draws = tuple(source.below(i + 1) for i in range(n - 1, 0, -1))
    seeded = list(range(n))
    Rng(seed).shuffle(seeded)
    rng, _ = listed(*draws)
    mine = list(range(n))
    rng.shuffle(mine)
    assert mine == seeded


def test_clones_share_the_script():
    rng, script = listed(1, 0)
    dup = rng.clone()
    assert dup.coin() is True and rng.coin() is False
    assert isinstance(dup, ListedRng) and dup.script is script


def test_setup_rng_is_the_seeded_source_unless_a_runner_gives_one():
    setup = Setup(42, {}, ("", ""))
    a, b = setup.rng(), Rng(42)
    assert type(a) is Rng and [a.next64() for _ in range(3)] == [b.next64() for _ in range(3)]
    mine, _ = listed(1)
    given = Setup(42, {}, ("", ""), source=mine)
    assert given.rng() is mine
    assert given == setup  # the source is no part of what the game was started from


@pytest.mark.parametrize("game_id", ["shift", "hills"])
def test_a_game_that_lists_its_chance_draws_only_through_the_setup(game_id):
    """With every outcome chosen, Shift and Hills set up and play without one draw from
    elsewhere (a draw outside the script would go unnoticed in a sampled game)."""
    game = registry.get(game_id)
    options = game.resolve_options({})
    assert game.max_chance_outcomes(options, 2) >= 2
    script = ChanceScript()
    script.set((), fill=True)
    state = game.initial_state(Setup(3, options, ("", ""), source=ListedRng(script)))
    sizes = [n for n, _ in script.unchosen]
    assert sizes and max(sizes) <= game.max_chance_outcomes(options, 2)
    script.set(())
    for _ in range(40):  # the draws of play come from the same source
        if state.is_over:
            break
        trial = state.clone()
        try:
            trial.apply(trial.legal_actions()[0])
        except ChanceNeeded as need:
            assert need.outcomes <= game.max_chance_outcomes(options, 2)
            script.set((0,) * 64)
            state.apply(state.legal_actions()[0])
            script.set(())
        else:
            state = trial
