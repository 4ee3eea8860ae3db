"""An agreed draw at the table (`State.agree_draw`, the record entry "draw"): the server's draw
offer, accepted by every seat, ends the game drawn, and the record replays to the same end."""

from __future__ import annotations

import pytest

from boardct.core import moves, registry
from boardct.core.errors import IllegalAction, ParseError
from boardct.core.records import Record, record_of, replay

DRAWABLE = ("fff", "hills", "ctf2187")


def _started(game_id: str):
    game = registry.get(game_id)
    names = ["A", "B", "C", "D"] if game_id == "ctf2187" else None
    st = game.new(seed=3, names=names)
    st.apply(st.legal_actions(st.to_move)[0], st.to_move)
    return st


@pytest.mark.parametrize("game_id", DRAWABLE)
def test_an_agreed_draw_ends_the_game_drawn_and_replays(game_id):
    st = _started(game_id)
    n = len(st.setup.names)
    st = moves.apply_entry(st, "draw").state
    assert st.is_over
    assert st.outcome.winners == ()
    assert st.outcome.returns == tuple(1.0 / n for _ in range(n))
    rec = record_of(st)
    assert rec.actions[-1] == "draw"
    again = replay(Record.from_json(rec.to_json()))
    assert again.is_over and again.outcome.returns == st.outcome.returns


def test_no_draw_after_the_end_and_nothing_changes():
    st = moves.apply_entry(_started("fff"), "draw").state
    with pytest.raises(IllegalAction, match="over"):
        st.agree_draw()


@pytest.mark.parametrize("game_id", ["fieldshift", "shift"])
def test_games_without_a_table_draw_refuse_it_and_nothing_changes(game_id):
    """FieldShift's draw request is its command 08 (docs/fieldshift.md); Shift's result has
    no draw by agreement: no table draw, nothing changed."""
    st = _started(game_id)
    before = record_of(st).actions
    with pytest.raises(IllegalAction, match="agreement"):
        st.agree_draw()
    assert not st.is_over and record_of(st).actions == before


def test_a_draw_entry_names_nobody():
    with pytest.raises(ParseError, match="names nobody"):
        moves.apply_entry(_started("fff"), "draw 2")
