"""The legal list of a state message (`messages.legal_rows`) is the core's list
(`core.table.legal_moves`: each legal action once, its notation, words, group and targets) for
every game installed, the sixth game too, at the start and along a random game."""

from __future__ import annotations

import random

import pytest

from boardct.core import registry
from boardct.core.table import legal_moves
from boardct.server.messages import legal_rows


def core_rows(state, seat):
    return [{"text": m.text, "description": m.words, "group": m.group,
             "targets": list(m.targets)} for m in legal_moves(state, seat)]


@pytest.mark.parametrize("game_id", registry.ids())
def test_the_legal_list_is_the_cores_for_every_seat_to_act(game_id):
    game = registry.get(game_id)
    rng = random.Random(5)
    state = game.new(seed=11)
    checked = 0
    for _ in range(12):
        if state.is_over:
            break
        players = state.current_players()
        for seat in players:
            rows = legal_rows(state, seat)
            assert rows == core_rows(state, seat)
            assert len({r["text"] for r in rows}) == len(rows)  # each action once
            checked += 1
        seat = players[0]
        state.apply(rng.choice(state.legal_actions(seat)), seat)
    assert checked > 0


@pytest.mark.parametrize("game_id", registry.ids())
def test_an_update_and_a_state_message_carry_the_same_legal_list(game_id):
    # the cached list is kept as JSON bytes and goes into an update as it is: the update's
    # text, decoded, has the very rows a state message (Python objects) has
    import json

    from boardct.server.live import Live
    from boardct.server.messages import encode, legal_list, update_state

    game = registry.get(game_id)
    state = game.new(seed=11)
    live = Live("g1", game, state.setup, False, None, [], state)
    seat = state.current_players()[0]
    rows = legal_rows(state, seat)
    assert legal_list(live, seat) == rows
    sent = json.loads(encode({"type": "update", "state": update_state(live, seat)}))
    assert sent["state"]["legal"] == rows
    # a message orjson refuses (an integer beyond 64 bits) goes through the standard library,
    # the encoded list decoded into it
    big = json.loads(encode({"n": 2 ** 70, "state": update_state(live, seat)}))
    assert big["n"] == 2 ** 70 and big["state"]["legal"] == rows


@pytest.mark.parametrize("game_id", registry.ids())
def test_every_viewers_update_carries_its_own_view_along_a_game(game_id):
    """An update's view, decoded, is the viewer's own `view` after each move, for every seat
    and the spectator. In a game with perfect information the board in it is built and encoded
    once a version for all of them and kept as bytes (no dicts the collector walks until the
    next move); in one with hidden information each viewer's board is its own."""
    import json

    from boardct.server.live import Live
    from boardct.server.messages import Encoded, encode, update_state

    game = registry.get(game_id)
    rng = random.Random(7)
    state = game.new(seed=3)
    live = Live("g1", game, state.setup, False, None, [], state)
    viewers = [*range(len(state.setup.names)), None]
    for version in range(1, 13):
        if state.is_over:
            break
        for viewer in viewers:
            sent = json.loads(encode({"type": "update", "state": update_state(live, viewer)}))
            assert sent["state"]["view"] == json.loads(json.dumps(state.view(viewer)))
        cached = live.board_cache
        if game.perfect_information:
            assert cached is not None and cached[0] == live.version
            assert type(cached[1]) is Encoded
        else:
            assert cached is None
        seat = state.current_players()[0]
        state.apply(rng.choice(state.legal_actions(seat)), seat)
        live.version = version  # as the service does after each move
