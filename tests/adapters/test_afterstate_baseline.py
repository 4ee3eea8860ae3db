"""examples/afterstate_baseline.py, the whole-turn learning baseline of docs/rl.md for Force Field
Factions: it trains a value of afterstates against `random`, saves it, and the evaluation plays
the saved value against `random` in every seat, beside the untrained value and `random` itself.
Tiny budgets at FFF's default options: what is tested is that the pieces fit and that the
learner chooses by its value, not how well it plays (docs/rl.md gives those figures)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from repo_scripts import load_script

np = pytest.importorskip("numpy", reason="the baseline needs boardct[rl] (numpy)")

from boardct.agents import make as make_agent  # noqa: E402
from boardct.core import registry  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "examples" / "afterstate_baseline.py"


@pytest.fixture(scope="module")
def baseline():
    return load_script("examples/afterstate_baseline.py")


def mid_game_fff(turns: int = 6, seed: int = 3):
    state = registry.get("fff").new(seed=seed)
    agent = make_agent("random", seed=seed)
    for _ in range(turns):
        state.apply(agent.select(state, state.to_move), state.to_move)
    return state


def test_fff_trains_saves_and_the_saved_value_plays_every_seat(baseline, tmp_path):
    saved = tmp_path / "value.npz"
    out = baseline.main(["--game", "fff", "--episodes", "2", "--eval-games", "2",
                         "--candidates", "8", "--draw-reward", "0", "--save", str(saved)])
    assert out["episodes"] == 2 and out["opponent"] == "random"
    for who in ("learner", "untrained", "random"):
        assert out[who]["games"] == 2
        assert [s["games"] for s in out[who]["seats"]] == [1, 1]  # seats in turn
    value, meta = baseline.AfterstateValue.load(saved)
    assert meta["game"] == "fff" and meta["options"] == {} and meta["episodes"] == 2
    assert meta["candidates"] == 8
    # two games, each won or lost or drawn (a draw worth 0 here): the value moved off zero
    assert np.abs(value.w).max() > 0
    # the saved value is the one evaluated: the same figures when played again from the file
    assert baseline.evaluate("fff", {}, value, 2, candidates=8) == out["learner"]


def test_the_learner_plays_a_legal_whole_turn_of_highest_value(baseline):
    """FFF's legal actions are whole turns (FFF-31 canonical); with every turn valued, the
    choice is one of those of the highest value."""
    state = mid_game_fff()
    me = state.to_move
    rng = np.random.default_rng(1)
    value = baseline.AfterstateValue(len(baseline.features(state, me, True)))
    value.w = rng.normal(0, 0.1, len(value.w))
    actions, x = baseline.afterstates(state, me, rng)
    assert actions == state.legal_actions(me) and len(actions) > 100
    best = value.values(x).max()
    for _ in range(3):
        action, row = baseline.choose(value, state, me, rng)
        assert action in actions
        assert value.values(row[None, :])[0] == pytest.approx(best)
    before = state.position()
    baseline.choose(value, state, me, rng)
    assert state.position() == before and state.to_move == me  # trying turns changes nothing


def test_the_untrained_value_chooses_uniformly_among_the_turns(baseline):
    """All weights zero value every afterstate alike: the untrained learner is `random`."""
    state = mid_game_fff()
    me = state.to_move
    value = baseline.AfterstateValue(len(baseline.features(state, me, True)))
    rng = np.random.default_rng(2)
    picks = {baseline.choose(value, state, me, rng, candidates=16)[0] for _ in range(30)}
    assert len(picks) > 20  # ~900 turns: thirty choices nearly all differ


def test_a_result_moves_the_value_of_the_chosen_afterstates_towards_it(baseline):
    value = baseline.AfterstateValue(4)
    won = np.array([[1.0, 0.0, 1.0, 0.0]])
    lost = np.array([[0.0, 1.0, 0.0, 1.0]])
    for _ in range(50):
        value.update(won, np.array([1.0]), 0.5)
        value.update(lost, np.array([0.0]), 0.5)
    assert value.values(won)[0] > 0.8 and value.values(lost)[0] < 0.2
    still = baseline.AfterstateValue(4)
    still.update(won, np.array([0.5]), 0.5)  # a result equal to the value: nothing to learn
    assert not still.w.any() and still.b == 0.0


def test_the_command_line_trains_then_evaluates_the_saved_value(tmp_path):
    saved, figures = tmp_path / "fff.npz", tmp_path / "figures.json"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        filter(None, [str(ROOT / "src"), os.environ.get("PYTHONPATH")]))}
    run = subprocess.run([sys.executable, str(SCRIPT), "--game", "fff", "--episodes", "1",
                          "--candidates", "4", "--eval-games", "1", "--no-untrained",
                          "--save", str(saved)],
                         capture_output=True, text=True, timeout=300, env=env)
    assert run.returncode == 0, run.stderr
    run = subprocess.run([sys.executable, str(SCRIPT), "--evaluate", str(saved),
                          "--eval-games", "2", "--no-untrained", "--json", str(figures)],
                         capture_output=True, text=True, timeout=300, env=env)
    assert run.returncode == 0, run.stderr
    assert "fff: against random over 2 games" in run.stdout
    data = json.loads(figures.read_text())
    assert data["game"] == "fff" and data["episodes"] == 1 and data["candidates"] == 4
    assert data["learner"]["games"] == 2 and "untrained" not in data


@pytest.mark.parametrize("args, message", [
    (["--game", "chess"], "unknown game 'chess'"),
    (["--game", "fff", "--option", "turn_limit=many"], "turn_limit"),
    (["--game", "fff", "--option", "turn_limit"], "NAME=VALUE"),
    (["--game", "fff", "--opponent", "nobody"], "unknown agent 'nobody'"),
    (["--evaluate", "no-such-value.npz"], "no-such-value.npz"),
])
def test_bad_arguments_are_refused_with_a_message_before_any_training(baseline, args, message,
                                                                      capsys):
    with pytest.raises(SystemExit) as stop:
        baseline.main([*args, "--episodes", "1", "--eval-games", "2"])
    assert stop.value.code == 2
    assert message in capsys.readouterr().err


def test_a_game_of_simultaneous_moves_is_refused(baseline, capsys):
    simultaneous = [g.id for g in registry.all_games() if g.simultaneous]
    if not simultaneous:
        pytest.skip("no game of simultaneous moves is installed (the suite installs one)")
    with pytest.raises(SystemExit) as stop:
        baseline.main(["--game", simultaneous[0], "--episodes", "1", "--eval-games", "1"])
    assert stop.value.code == 2
    assert "one player to move at a time" in capsys.readouterr().err


def test_the_inputs_are_the_observation_and_the_games_evaluation_unless_left_out(baseline,
                                                                                 tmp_path):
    state = mid_game_fff()
    me = state.to_move
    obs = state.observation_tensor(me)
    row = baseline.features(state, me, True)
    assert row[:-1] == obs and len(row) == len(obs) + 1
    assert row[-1] == pytest.approx(baseline.HEURISTIC_SCALE * state.game.evaluate(state, me))
    assert baseline.features(state, me, False) == obs
    saved = tmp_path / "plain.npz"
    out = baseline.main(["--game", "fff", "--episodes", "1", "--eval-games", "1",
                         "--candidates", "4", "--no-heuristic", "--no-untrained",
                         "--save", str(saved)])
    assert out["heuristic"] is False
    value, _meta = baseline.AfterstateValue.load(saved)
    assert value.heuristic is False and len(value.w) == len(obs)
