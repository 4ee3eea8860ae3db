"""Agents never read hidden state (issue 15, item 7), extending test_agents.py's
"hidden information is never read" to CTF 2187's positions, standing orders and condition of
other Bots, and to the seeds determinizations carry."""

from __future__ import annotations

import pytest

from boardct.agents import make
from boardct.arena.bench import mid_game_state
from boardct.core import registry
from boardct.games.ctf2187.maps import GameMap
from boardct.games.ctf2187.sheet import TURN

CTF = registry.get("ctf2187")
HOLD = (0, 0, 0, 0, 0) * 5
KNEEL = (20, 0, 0, 0, 0) + HOLD[5:]


def place(st, num: int, x: int, y: int, facing: int) -> None:
    b = st.bots[num - 1]
    st.occ[st.map.index(b.x, b.y)] = 0
    b.x, b.y, b.facing = x, y, facing
    st.occ[st.map.index(x, y)] = num


def skirmish(hidden: bool):
    """Ann (Bots 1, 2) faces Bob's Bot 3 seven sectors away; Bob's Bot 4 is out of her
    scanning range. Bob has handed in both sheets, Ann one: her agent writes the last one.
    With `hidden`, everything Ann cannot see differs: Bot 4's sector, Bob's sheets and
    standing orders, Bot 3's damage, heat and memories, the terrain out of her sight and the
    random source."""
    st = CTF.new(seed=2187, names=["ann", "bob"], bots_per_team=2)
    place(st, 1, 2, 10, 3)
    place(st, 2, 2, 12, 3)
    place(st, 3, 9, 10, 7)
    place(st, 4, 19, 19, 6)
    st.turn = 3
    bob = [(TURN, 3, *KNEEL), (TURN, 4, *HOLD)] if hidden else [
        (TURN, 3, *([6, 0, 2, 0, 0] * 5)), (TURN, 4, *([6, 0, 2, 0, 0] * 5))]
    if hidden:
        place(st, 4, 20, 4, 8)
        for b in st.bots[2:]:
            b.standing = KNEEL
            b.armour = [max(0, a - 4) for a in b.armour]
            b.heat, b.vp, b.last_by = 19, 9, 1
        st.rng.s ^= 0xABCDEF
        mine = st.bots[:2]
        terrain, ground = list(st.map.terrain), list(st.map.ground)
        for i in range(len(terrain)):
            x, y = i % st.map.width + 1, i // st.map.width + 1
            if all(max(abs(x - m.x), abs(y - m.y)) > 7 for m in mine) and not st.occ[i]:
                terrain[i] = st.tables.terrain_by_key["heavy_woods"].index
        st.map = GameMap(st.map.width, st.map.height, tuple(terrain), tuple(ground))
    for sheet in bob:
        st.apply(sheet, 1)
    st.apply((TURN, 1, *HOLD), 0)
    return st


@pytest.mark.parametrize("spec", ["greedy", "mcts:iters=6,depth=0",
                                  "mcts:iters=6,prior=0,depth=2", "search:iters=6"])
def test_ctf_agents_never_read_what_the_players_bots_cannot_see(spec):
    """Two CTF 2187 states that differ only in what Player 1 cannot see get the identical
    choice from the same seed: the agents search determinizations built from the view."""
    real, twin = skirmish(False), skirmish(True)
    assert real.view(0) == twin.view(0) and real.owed(0) == [2]
    assert (real.bots[3].x, real.bots[3].y) != (twin.bots[3].x, twin.bots[3].y)
    for seed in range(4):
        assert make(spec, seed=seed).select(real, 0) == make(spec, seed=seed).select(twin, 0)


@pytest.mark.parametrize("game_id", [g.id for g in registry.all_games()
                                     if not g.perfect_information or g.has_chance])
def test_a_determinization_carries_a_seed_of_its_own(game_id):
    """The game's seed, with the actions, regenerates every hidden part (tiles, cards, coins to
    come, sheets): a determinization that kept it would hold the truth for any code to read."""
    game = registry.get(game_id)
    state = mid_game_state(game, 5, game.resolve_options({}), depth=6)
    player = state.current_players()[0]
    seeds = {state.determinize(player, k).setup.seed for k in range(4)}
    assert state.setup.seed not in seeds and len(seeds) == 4
    d = state.determinize(player, 1)
    assert d.setup.names == state.setup.names and d.view(player) == state.view(player)
