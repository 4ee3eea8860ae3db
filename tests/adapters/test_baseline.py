"""examples/selfplay_baseline.py, the learning baseline of docs/rl.md, runs end to end for every
registered game at its default options: it trains by self-play through the PettingZoo
environment, saves a policy, and the evaluation plays the saved policy against `random`
through the Gymnasium environment in every seat. Tiny budgets: what is tested is that the
pieces fit, not how well the policy plays (docs/rl.md gives those figures)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from repo_scripts import load_script

np = pytest.importorskip("numpy", reason="the baseline needs boardct[rl] (numpy)")
pytest.importorskip("gymnasium", reason="the baseline needs boardct[rl] (Gymnasium)")
pytest.importorskip("pettingzoo", reason="the baseline needs boardct[rl] (PettingZoo)")

from adapter_toys import game_ids  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "examples" / "selfplay_baseline.py"


@pytest.fixture(scope="module")
def baseline():
    return load_script("examples/selfplay_baseline.py")


@pytest.mark.parametrize("game_id", game_ids())
def test_the_baseline_trains_saves_and_its_policy_plays_every_seat(baseline, game_id, tmp_path):
    saved = tmp_path / "policy.npz"
    out = baseline.main(["--game", game_id, "--episodes", "2", "--batch", "1", "--mix", "0.5",
                         "--eval-games", "2", "--save", str(saved), "--hidden", "8"])
    assert out["episodes"] == 2
    assert out["learner"]["games"] == 2 and out["random"]["games"] == 2
    policy, meta = baseline.Policy.load(saved)
    assert meta["game"] == game_id and meta["options"] == {} and meta["episodes"] == 2
    # the two updates moved the weights (b2 starts at zero; any choice between two or more
    # legal ids changes it)
    assert np.abs(policy.params["b2"]).max() > 0
    # the saved policy is the one evaluated: the same figures when played again from the file
    again = baseline.evaluate(game_id, {}, policy, 2)
    assert again == out["learner"]
    players = len(again["seats"])
    assert [s["games"] for s in again["seats"]] == [2 // players + (s < 2 % players)
                                                    for s in range(players)]  # seats in turn
    for s in again["seats"]:
        assert 0 <= s["wins"] + s["draws"] <= s["games"]


def test_a_policy_never_plays_a_masked_id_however_much_it_prefers_it(baseline):
    rng = np.random.default_rng(0)
    policy = baseline.Policy(5, 4, 0, rng)
    policy.params["b2"][:] = [50.0, 0.0, -50.0, 0.0]  # id 0 all but certain, were it legal
    mask = np.array([0, 1, 1, 0], np.int8)
    x = np.ones(5, np.float32)
    picks = {policy.act(x, mask, rng) for _ in range(300)}
    assert picks == {1}  # id 2 is legal but e^-50 as likely; 0 and 3 are masked
    assert policy.act(x, mask, rng, greedy=True) == 1


def test_a_choice_grows_more_likely_with_a_positive_advantage_and_not_with_none(baseline):
    rng = np.random.default_rng(0)
    policy = baseline.Policy(3, 2, 4, rng)
    x = np.ones((1, 3), np.float32)
    mask = np.ones((1, 2), np.int8)
    zero = policy.gradient(x, mask, np.array([0]), np.zeros(1, np.float32))
    assert all(not g.any() for g in zero.values())
    before = policy.probs(x[0], mask[0])[0]
    policy.step(policy.gradient(x, mask, np.array([0]), np.ones(1, np.float32)), 1, 0.1)
    assert policy.probs(x[0], mask[0])[0] > before


def test_each_seat_is_judged_against_its_own_usual_result(baseline):
    """The uneven seats of Shift at its default cards (docs/rl.md, "Seat balance"): when the
    second seat wins nearly every game, its wins are no news and a win of the first seat is."""
    seats = baseline.SeatBaselines(2)
    for _ in range(500):
        seats.advantage(0, 0.0)
        seats.advantage(1, 1.0)
    assert seats.advantage(0, 1.0) > 0.9  # the rare win of the first seat: credited
    assert abs(seats.advantage(1, 1.0)) < 0.05  # the usual win of the second: hardly
    assert seats.advantage(1, 0.0) < -0.9  # a loss of the second seat: blamed


def test_the_command_line_trains_then_evaluates_the_saved_policy(tmp_path):
    saved, figures = tmp_path / "shift.npz", tmp_path / "figures.json"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        filter(None, [str(ROOT / "src"), os.environ.get("PYTHONPATH")]))}
    run = subprocess.run([sys.executable, str(SCRIPT), "--game", "shift", "--episodes", "4",
                          "--batch", "2", "--eval-games", "2", "--save", str(saved)],
                         capture_output=True, text=True, timeout=300, env=env)
    assert run.returncode == 0, run.stderr
    run = subprocess.run([sys.executable, str(SCRIPT), "--evaluate", str(saved),
                          "--eval-games", "6", "--json", str(figures)],
                         capture_output=True, text=True, timeout=300, env=env)
    assert run.returncode == 0, run.stderr
    assert "shift: against random over 6 games" in run.stdout
    data = json.loads(figures.read_text())
    assert data["game"] == "shift" and data["episodes"] == 4
    assert data["learner"]["games"] == 6


@pytest.mark.parametrize("args, message", [
    (["--game", "chess"], "unknown game 'chess'"),
    (["--game", "shift", "--option", "turn_limit=many"], "turn_limit"),
    (["--game", "shift", "--option", "turn_limit"], "NAME=VALUE"),
    (["--game", "shift", "--opponent", "nobody"], "unknown agent 'nobody'"),
    (["--evaluate", "no-such-policy.npz"], "no-such-policy.npz"),
])
def test_bad_arguments_are_refused_with_a_message_before_any_training(baseline, args, message,
                                                                      capsys):
    with pytest.raises(SystemExit) as stop:
        baseline.main([*args, "--episodes", "1", "--eval-games", "2"])
    assert stop.value.code == 2
    assert message in capsys.readouterr().err
