"""A moderator's entry in a server game's log ("mod ..."): a note every player reads, which
changes nothing in the game, so a record that keeps it replays to the same state; every game
takes it (the sixth game too), through the one path of record entries, `moves.apply_entry`."""

from __future__ import annotations

import pytest

from boardct.core import moves, registry
from boardct.core.errors import BoardctError, ParseError
from boardct.core.game import MESSAGE
from boardct.core.records import Record, record_of, replay


def _started(game_id: str):
    game = registry.get(game_id)
    names = [f"P{i}" for i in range(game.min_players)]
    st = game.new(seed=5, names=names)
    p = st.current_players()[0]
    st.apply(st.legal_actions(p)[0], p)
    return st


@pytest.mark.parametrize("game_id", [g.id for g in registry.all_games()])
def test_a_moderator_entry_changes_nothing_and_replays(game_id):
    st = _started(game_id)
    players = [None, *range(len(st.setup.names))]
    before = {p: st.view(p) for p in players}
    done = moves.apply_entry(st, "mod   deadline extended to 2026-12-01 18:00 UTC ")
    assert done.entry == "mod   deadline extended to 2026-12-01 18:00 UTC"
    assert done.player is None and done.action is None
    assert done.events == [(MESSAGE, "Moderator: deadline extended to 2026-12-01 18:00 UTC")]
    for p in players:  # nobody's view moved, and every player reads the line
        assert done.state.view(p) == before[p]
        assert done.state.events_for(done.events, p) == done.events
    assert moves.is_table_entry(done.entry)
    # a record keeping the note (as the server's does) replays to the same state
    rec = record_of(st)
    kept = Record(game=rec.game, seed=rec.seed, options=rec.options, players=rec.players,
                  actions=[rec.actions[0], "mod game paused", *rec.actions[1:],
                           "mod seat 2 replaced by the moderator"],
                  created=rec.created)
    again = replay(Record.from_dict(kept.to_dict()))
    for p in players:
        assert again.view(p) == st.view(p)


def test_a_moderator_entry_says_what_was_done():
    st = _started("fieldshift")
    with pytest.raises(BoardctError):
        moves.apply_entry(st.clone(), "mod ")  # nothing said: not a note (nor an action)
    with pytest.raises(ParseError):
        moves.moderator_entry("   ")
    assert moves.moderator_entry("seat 3\n  replaced") == "mod seat 3 replaced"
    # a version 1 record has no table entries: "mod ..." is read as the game's own notation
    with pytest.raises(BoardctError):
        moves.apply_entry(st.clone(), "mod game paused", table=False)
