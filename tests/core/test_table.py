"""Help at the table, in the core (issue 17 item 1): legal moves described and grouped,
previews, undo, resignation and hints, for every game through the core API only.

Tests that need a search use the `iters` budget (`mcts:iters=N`), which makes the agent a
function of the player's view and its seed, so they are deterministic on any machine.
"""

from __future__ import annotations

import json
from collections import Counter

import pytest

from boardct.agents import make
from boardct.core import registry, table
from boardct.core.errors import BoardctError, IllegalAction, ParseError, RecordError
from boardct.core.game import State
from boardct.core.records import Record, record_of, replay
from boardct.core.rng import Rng

GAMES = [g.id for g in registry.all_games()]
# Games with something hidden or left to chance: a preview of one of their actions is a
# distribution of outcomes drawn from the player's own view.
UNCERTAIN = [g.id for g in registry.all_games() if not g.perfect_information or g.has_chance]


def new(game_id: str, seed: int = 5) -> State:
    return registry.get(game_id).new(seed=seed, names=("Ann", "Bob"))


def to_move(state: State) -> int:
    return state.current_players()[0]


def walk(state: State, steps: int, seed: int = 0) -> State:
    """Play `steps` random legal actions (seeded), the player to decide each time."""
    rng = Rng(seed)
    for _ in range(steps):
        if state.is_over:
            break
        p = to_move(state)
        legal = state.legal_actions(p)
        state.apply(legal[rng.below(len(legal))], p)
    return state


def shift_before_a_coin() -> tuple[State, int]:
    """Shift (seed 0, cards of the default options) after five seeded random actions; the
    sixth, returned, flips three activation coins (SH-4)."""
    state = new("shift", seed=0)
    rng = Rng(0)
    for _ in range(5):
        p = to_move(state)
        legal = state.legal_actions(p)
        state.apply(legal[rng.below(len(legal))], p)
    legal = state.legal_actions(to_move(state))
    return state, legal[rng.below(len(legal))]


def hills_face_down_move(state: State) -> int:
    """A legal move of the player to decide into a hex whose tile is still face down."""
    p = to_move(state)
    for a in state.legal_actions(p):
        trial = state.clone()
        if any(e[0] == "reveal" for e in trial.apply(a, p)):
            return a
    raise AssertionError("no move reveals a tile")


# -- moves ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("game_id", GAMES)
def test_moves_list_every_legal_action_once_and_the_notation_reads_back(game_id):
    state = walk(new(game_id), 3)
    p = to_move(state)
    moves = table.legal_moves(state, p)
    legal = state.legal_actions(p)
    assert [m.action for m in moves] == list(dict.fromkeys(legal))
    for m in moves:
        assert m.text == state.notation(m.action)
        assert state.parse(m.text, p) == m.action  # what `moves` prints can be typed
        assert m.words and m.group


@pytest.mark.parametrize("game_id", GAMES)
def test_every_move_is_printed_under_its_group_with_its_words(game_id):
    state = new(game_id)
    moves = table.legal_moves(state)
    groups = table.group_moves(moves)
    shown = []
    for group in groups:
        shown += table.moves_lines(state, group=group)
    for m in moves:
        assert any(ln.strip().startswith(m.text) and (m.words == m.text or m.words in ln)
                   for ln in shown), m.text


def test_fieldshift_moves_are_grouped_by_instruction_in_words():
    state = new("fieldshift")
    lines = table.moves_lines(state)
    assert "MOV (10):" in lines and "RGP (10):" in lines
    assert "  21  +0 moves from sector 0 to sector 1" in lines


def test_hills_moves_are_grouped_by_squad_and_say_what_they_do():
    state = new("hills")
    groups = table.group_moves(table.legal_moves(state))
    assert {"I", "R", "M", "end"} <= set(groups)
    words = {m.text: m.words for ms in groups.values() for m in ms}
    assert words["I move E"] == "Infantry moves E" and words["end"] == "end your turn"


def test_fff_whole_turns_are_summarised_by_piece_with_the_way_to_see_more():
    state = new("fff")
    assert len(state.legal_actions(0)) > 400
    lines = table.moves_lines(state)
    assert lines[0].startswith(f"{len(state.legal_actions(0))} legal moves in ")
    assert "'moves GROUP'" in lines[0]
    assert any(ln.split()[:2] == ["a1", "38"] for ln in lines[1:])
    group = table.moves_lines(state, group="A1")  # a group is named in any case
    assert group[0] == "a1 (38):" and len(group) == 39
    assert any("a1 NE m" in ln and "turns NE, steps to b2" in ln for ln in group)


def test_ctf_moves_say_the_sheets_listed_are_samples():
    state = new("ctf2187")
    lines = table.moves_lines(state, 0)
    assert lines[0].startswith("Bot 1 (") and "sample sheets" in lines[-1]
    assert "CTF-37" in lines[-1]


def test_an_unknown_group_is_refused_with_the_groups_there_are():
    with pytest.raises(ParseError, match="no group 'zz'.*MOV"):
        table.moves_lines(new("fieldshift"), group="zz")


# -- preview -------------------------------------------------------------------------------------
@pytest.mark.parametrize("game_id", ["fieldshift", "fff"])
def test_an_exact_preview_is_what_apply_then_does(game_id):
    state = walk(new(game_id), 4)
    p = to_move(state)
    for action in state.legal_actions(p)[:25]:
        got = table.preview(state, action, p)
        assert got.exact and len(got.outcomes) == 1 and got.outcomes[0].probability == 1.0
        trial = state.clone()
        events = trial.apply(action, p)
        assert got.outcomes[0].lines == tuple(trial.describe(e) for e in events)
    assert state.history() == walk(new(game_id), 4).history()  # nothing was played


def test_a_preview_changes_nothing_and_refuses_an_illegal_action():
    state = new("fieldshift")
    before = state.snapshot()
    with pytest.raises(BoardctError):
        table.preview(state, state.parse("35", 0), 0)  # no enemy in range (FS-8)
    assert state.snapshot() == before


def test_hills_preview_odds_match_real_games_with_the_same_view():
    """A move onto a face-down tile (BSH-12): the preview's odds of each outcome, from 400
    determinizations, against what that move really does in every game of 400 seeds whose
    first player sees exactly the same board. Tolerance 0.12: about three standard errors of
    a share counted over ~200 games."""
    ref = new("hills", seed=0)
    player = to_move(ref)
    view = json.dumps(ref.view(player), sort_keys=True)
    action = hills_face_down_move(ref)
    got = table.preview(ref, action, player, seed=7, samples=400)
    assert not got.exact and abs(sum(o.probability for o in got.outcomes) - 1) < 1e-9
    real: Counter = Counter()
    for seed in range(400):
        state = new("hills", seed=seed)
        if json.dumps(state.view(player), sort_keys=True) != view:
            continue
        events = state.apply(action, player)
        real[tuple(state.describe(e) for e in state.events_for(events, player))] += 1
    games = sum(real.values())
    assert games > 100
    predicted = {o.lines: o.probability for o in got.outcomes}
    for key in set(predicted) | set(real):
        assert abs(predicted.get(key, 0.0) - real[key] / games) < 0.12, key
    assert any("revealed" in ln for o in got.outcomes for ln in o.lines)


def test_shift_preview_of_an_attack_gives_the_coin_outcomes_with_their_odds():
    state, action = shift_before_a_coin()
    got = table.preview(state, action, to_move(state), seed=1, samples=300)
    assert len(got.outcomes) > 1  # three coins (SH-4): several results
    assert all(0 < o.probability < 1 for o in got.outcomes)
    lines = got.lines()
    assert lines[0].endswith("different outcomes):") and lines[1].endswith("%)")


@pytest.mark.parametrize("game_id", UNCERTAIN)
def test_a_preview_is_the_same_for_states_that_differ_only_in_what_the_player_cannot_see(
        game_id):
    state = walk(new(game_id), 2)
    p = to_move(state)
    other = state.determinize(p, 99)  # the same view, the hidden parts drawn anew
    assert json.dumps(other.view(p), sort_keys=True) == json.dumps(state.view(p), sort_keys=True)
    action = state.legal_actions(p)[0]
    samples = 20 if game_id == "ctf2187" else 100
    one = table.preview(state, action, p, seed=3, samples=samples)
    two = table.preview(other, action, p, seed=3, samples=samples)
    assert one == two
    assert table.preview(state, action, p, seed=3, samples=samples) == one  # seeded


def test_a_ctf_preview_does_not_depend_on_the_sheet_the_other_player_handed_in():
    """Two games that differ only in Player 2's secret order sheet (CTF-37): Player 1's
    preview of the same sheet is the same."""
    one, two = new("ctf2187", seed=3), new("ctf2187", seed=3)
    sheets = one.legal_actions(1)
    one.apply(sheets[0], 1)
    two.apply(sheets[5], 1)
    assert sheets[0] != sheets[5]
    assert json.dumps(one.view(0), sort_keys=True) == json.dumps(two.view(0), sort_keys=True)
    mine = one.legal_actions(0)[0]
    assert table.preview(one, mine, 0, seed=2, samples=20) == \
        table.preview(two, mine, 0, seed=2, samples=20)


def test_hills_hidden_tiles_really_differ_between_the_two_states_of_that_test():
    state = walk(new("hills"), 2)
    other = state.determinize(to_move(state), 99)
    assert other.tiles != state.tiles  # so the test above compares different truths


# -- hint ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("game_id", GAMES)
def test_a_hint_is_legal_and_the_same_for_the_same_seed(game_id):
    state = walk(new(game_id), 2)
    p = to_move(state)
    spec = "mcts:iters=12" if game_id == "fff" else "mcts:iters=40"  # FFF: ~800 turns a node
    one = table.hint(state, make(spec, seed=11), p, seed=11, label=spec)
    two = table.hint(state, make(spec, seed=11), p, seed=11, label=spec)
    assert one.action in state.legal_actions(p)
    assert (one.action, one.value, one.line) == (two.action, two.value, two.line)
    assert one.text == state.notation(one.action)


def test_a_hint_gives_the_agents_evaluation_and_the_line_it_expects():
    state = new("fieldshift")
    got = table.hint(state, make("mcts:iters=300", seed=1), 0, seed=1, label="mcts:iters=300")
    assert got.value is not None and 0 <= got.value <= 1
    assert got.line[0] == got.text and len(got.line) >= 2
    lines = got.lines()
    assert lines[0].startswith(f"Hint (mcts:iters=300): {got.text}")
    assert any(ln.startswith("  win chance: ") for ln in lines)
    assert any(ln.startswith("  expected line: ") for ln in lines)


def test_a_hint_from_an_agent_without_a_search_report_is_just_the_move():
    state = new("fff")
    got = table.hint(state, make("greedy", seed=1), 0, seed=1, label="greedy")
    assert got.value is None and got.lines()[0].startswith("Hint (greedy): ")


def test_the_hint_in_hills_is_the_same_whatever_the_player_cannot_see():
    state = walk(new("hills"), 2)
    p = to_move(state)
    other = state.determinize(p, 99)
    one = table.hint(state, make("mcts:iters=60", seed=4), p, seed=4, label="mcts:iters=60")
    two = table.hint(other, make("mcts:iters=60", seed=4), p, seed=4, label="mcts:iters=60")
    assert (one.action, one.value, one.line) == (two.action, two.value, two.line)


def test_the_mcts_report_is_its_choice_and_the_choices_value():
    state = walk(new("fieldshift"), 2)
    agent = make("mcts:iters=200", seed=2)
    assert agent.report() == (None, [])  # nothing searched yet
    chosen = agent.select(state.clone(), to_move(state))
    value, line = agent.report()
    assert line[0] == chosen and 0 <= value <= 1
    assert make("mcts:iters=200", seed=2).select(state.clone(), to_move(state)) == chosen


# -- undo ----------------------------------------------------------------------------------------
def test_undo_brings_back_the_position_and_the_record_keeps_the_undo():
    start = new("fieldshift")
    state = new("fieldshift")
    state.apply(state.parse("21", 0), 0)
    back = table.undo(state, 1)
    assert back.snapshot() == start.snapshot() and back.history() == []
    rec = record_of(back)
    assert rec.actions == ["21", "undo"] and rec.version == 2
    again = replay(Record.from_json(rec.to_json()))
    assert again.snapshot() == start.snapshot() and record_of(again).actions == ["21", "undo"]


def test_play_goes_on_after_an_undo_and_replays_exactly():
    state = new("fieldshift")
    for text in ("21", "23"):
        state.apply(state.parse(text))
    state = table.undo(state, 2)
    state.apply(state.parse("24"))
    state.apply(state.parse("22"))
    state = table.undo(state, 1)
    rec = record_of(state)
    assert rec.actions == ["21", "23", "undo 2", "24", "22", "undo"]
    assert [state.notation(a) for _, a in state.history()] == ["24"]
    assert replay(rec).snapshot() == state.snapshot()


def test_after_an_undo_the_rules_see_the_same_last_action_as_before_it():
    """FieldShift offers no second SWC right after one (it peeks at the last action); an undo
    back to just after an SWC must not offer it again."""
    state = new("fieldshift")
    state.apply(state.parse("11"))  # SWC: keeps the turn
    expected = state.legal_actions()
    state.apply(state.parse("21"))
    back = table.undo(state, 1)
    assert back.legal_actions() == expected
    assert not any(1011 <= a < 1020 for a in back.legal_actions())


def test_shift_moves_are_in_words():
    state = new("shift")
    words = {m.text: m.words for m in table.legal_moves(state)}
    assert words == {"first": "go first", "second": "go second"}


def test_a_record_without_an_undo_is_still_version_1():
    state = new("fff")
    state.apply(state.parse("a1 NE"))
    assert record_of(state).version == 1 and record_of(state).to_dict()["version"] == 1


def test_undo_in_a_version_1_record_is_read_as_a_command_and_refused():
    doc = record_of(new("fieldshift")).to_dict() | {"actions": ["21", "undo"], "version": 1}
    with pytest.raises(RecordError, match=r"actions\[1\]"):
        replay(Record.from_dict(doc))


def test_undo_more_than_was_played_is_refused_and_changes_nothing():
    state = new("fff")
    state.apply(state.parse("a1 NE"))
    with pytest.raises(IllegalAction, match="only 1 action"):
        table.undo(state, 2)
    with pytest.raises(IllegalAction, match="no move"):
        table.undo(new("fff"), 1)
    assert len(state.history()) == 1


def test_undo_is_refused_once_a_hidden_tile_was_revealed():
    state = new("hills")
    state.apply(hills_face_down_move(state))
    problem = table.undo_problem(state, 1)
    assert problem is not None and "revealed something" in problem
    with pytest.raises(IllegalAction, match="cannot undo"):
        table.undo(state, 1)


def test_undo_in_hills_is_allowed_when_the_move_showed_nothing():
    state = new("hills")
    p = to_move(state)
    start = state.view(p)
    state.apply(state.parse("I wait", p), p)
    back = table.undo(state, 1)
    assert back.view(p) == start and record_of(back).actions == ["I wait", "undo"]


def test_undo_is_refused_after_a_coin_in_shift():
    state, action = shift_before_a_coin()
    state.apply(action, to_move(state))
    assert table.undo_problem(state, 1) is not None
    assert table.undo_problem(state, 2) is not None  # taking back more does not help
    quiet, _ = shift_before_a_coin()
    assert table.undo_problem(quiet, 1) is None  # a shift shows nothing new


def test_undo_is_refused_after_a_ctf_turn_is_processed_but_not_for_a_sheet_alone():
    state = new("ctf2187")
    state.apply(state.legal_actions(0)[0], 0)
    assert table.undo_problem(state, 1) is None  # a sheet handed in (CTF-37)
    state.apply(state.legal_actions(1)[0], 1)  # the last sheet: the turn is processed
    assert table.undo_problem(state, 1) is not None


def test_against_the_computer_undo_takes_back_the_move_and_the_reply():
    state = new("fff")
    state.apply(state.parse("a1 NE"), 0)
    state.apply(state.parse("a8 SE"), 1)
    assert table.undo_count(state, 0, {1}) == 2
    assert table.undo_count(state, 1, {0}) == 1
    assert table.undo_count(new("fff"), 0, {1}) == 0
    assert table.undo_count(state, 0) == 1  # hot-seat: the last action


# -- resign --------------------------------------------------------------------------------------
@pytest.mark.parametrize("game_id", GAMES)
def test_a_resignation_ends_the_game_for_the_others_and_replays(game_id):
    state = walk(new(game_id), 2)
    p = to_move(state)
    events = state.resign(p)
    out = state.outcome
    assert out is not None and p not in out.winners and out.winners
    assert out.returns[p] == 0.0
    assert state.current_players() == () and events
    again = replay(Record.from_json(record_of(state).to_json()))
    assert again.outcome == out


@pytest.mark.parametrize("game_id", GAMES)
def test_a_resignation_reads_as_words_in_every_game(game_id):
    """The resignation's line, as the log and the pages show it: words about the result,
    not the event's inner form (CTF 2187 once showed "message Player 1 resigns ...")."""
    state = walk(new(game_id), 2)
    p = to_move(state)
    lines = [state.describe(e) for e in state.resign(p)]
    assert lines and all(not line.startswith("message") for line in lines)
    assert any("wins" in line for line in lines)


def test_fieldshift_resigns_with_its_own_concession_09():
    state = new("fieldshift")
    state.resign(0)
    assert state.outcome.reason == "concession"  # FS-20's 09
    assert record_of(state).actions == ["09"] and record_of(state).version == 1


def test_a_resignation_is_a_record_entry_naming_the_player():
    state = new("hills")
    state.resign(to_move(state))
    assert record_of(state).actions == [f"resign {to_move(new('hills')) + 1}"]
    assert state.outcome.reason == "resignation"
    with pytest.raises(IllegalAction, match="over"):
        state.resign(0)


def test_a_resign_entry_for_no_player_is_refused():
    doc = record_of(new("fff")).to_dict() | {"actions": ["resign 3"], "version": 2}
    with pytest.raises(RecordError, match="resign names a player"):
        replay(Record.from_dict(doc))


# -- status --------------------------------------------------------------------------------------
@pytest.mark.parametrize("game_id", GAMES)
def test_the_status_line_says_who_decides_and_how_far_the_game_is(game_id):
    state = walk(new(game_id), 1)
    line = table.summary_line(state)
    assert f"Player {to_move(state) + 1}" in line
    if state.game.simultaneous:  # how many sealed orders are in is not told (CTF-41)
        assert "played" not in line
    else:
        assert "1 action played" in line
    state.resign(to_move(state))
    assert table.summary_line(state).startswith("Game over: ")


@pytest.mark.parametrize("game_id", ["fieldshift", "fff", "hills", "shift"])
def test_where_turns_are_taken_in_order_everyone_may_know_who_decides(game_id):
    """`State.to_move_seen` by default: the real set, for every seat and a spectator alike
    (only a game with sealed simultaneous orders hides it, CTF 2187's CTF-41)."""
    state = new(game_id)
    for step in range(12):
        for viewer in (None, 0, 1):
            assert state.to_move_seen(viewer) == state.current_players(), (step, viewer)
        walk(state, 1, seed=step)


@pytest.mark.parametrize("game_id,kinds", [
    ("fff", ("draw", "undo")),
    ("hills", ("draw", "undo")),
    ("fieldshift", ("undo",)),  # draws through its own command 08 (State.agree_draw refuses)
    ("shift", ("undo",)),  # its result field holds no draw
    ("ctf2187", ("draw",)),  # simultaneous sealed turns: no undo
])
def test_offers_allowed_asks_the_game_not_its_id(game_id, kinds):
    state = new(game_id)
    assert table.offers_allowed(state) == kinds
    assert not state.is_over and not state.history()  # asking changed nothing
