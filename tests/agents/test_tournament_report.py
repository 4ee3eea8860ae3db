"""The tournament report's statistics: intervals that say what the games can and cannot show."""

import math

import pytest

from boardct.arena.ratings import elo_difference, ratings_with_ci
from boardct.arena.report import tournament_charts, tournament_markdown, tournament_summary
from boardct.arena.runner import GameResult


def _game(index: int, seats: list[str], first_score: float) -> GameResult:
    winners = [] if first_score == 0.5 else [0 if first_score == 1.0 else 1]
    return GameResult(index, "fff", "", seats, index, [first_score, 1.0 - first_score],
                      winners, "elimination", 20, 0.0)


def _sweep(games: int) -> list[GameResult]:
    """`mcts` wins every game against `random`, seats alternating."""
    return [_game(k, ["mcts", "random"], 1.0) if k % 2 == 0
            else _game(k, ["random", "mcts"], 0.0) for k in range(games)]


def test_an_unbeaten_agent_has_no_upper_bound_and_a_winless_one_no_lower():
    """Every bootstrap resample of a clean sweep is the same sweep: an interval of zero width
    (the old report said 2028 .. 2028) would claim a certainty the games do not give."""
    (top, top_low, top_high), (bottom, bottom_low, bottom_high) = ratings_with_ci(
        2, [(0, 1, 1.0)] * 30, samples=40)
    assert top_high == math.inf and top_low <= top
    assert bottom_low == -math.inf and bottom <= bottom_high


def test_a_single_draw_closes_the_bounds():
    rated = ratings_with_ci(2, [(0, 1, 1.0)] * 29 + [(0, 1, 0.5)], samples=40)
    assert all(math.isfinite(x) for r in rated for x in r)


def test_a_rating_always_lies_inside_its_interval_and_the_chart_is_drawn(tmp_path):
    pytest.importorskip("matplotlib", reason='the charts need boardct[report] (matplotlib)')
    """The FieldShift run of 2026-11-25 (seed 11): MCTS beat random 200-0 and greedy 199-0
    with a draw, greedy beat random 200-0. The bootstrap of such almost separated results fell
    wholly below MCTS's rating and above greedy's, and drawing the chart crashed."""
    agents = ["mcts", "random", "greedy"]
    games = ([_game(k, ["mcts", "random"], 1.0) for k in range(200)]
             + [_game(200 + k, ["mcts", "greedy"], 0.5 if k == 0 else 1.0) for k in range(200)]
             + [_game(400 + k, ["greedy", "random"], 1.0) for k in range(200)])
    summary = tournament_summary(agents, games)
    for r in summary["ratings"]:
        assert (r["low"] is None or r["low"] <= r["elo"]), r
        assert (r["high"] is None or r["elo"] <= r["high"]), r
    tournament_charts(summary, games, tmp_path)
    assert (tmp_path / "ratings.png").stat().st_size > 0


def test_elo_difference_of_a_score():
    assert elo_difference(0.5) == 0.0
    assert elo_difference(10 / 11) == pytest.approx(400.0)  # odds of 10 to 1
    assert elo_difference(1 / 11) == pytest.approx(-400.0)
    assert elo_difference(1.0) == math.inf and elo_difference(0.0) == -math.inf


def test_a_clean_sweep_is_reported_as_a_lower_bound_on_the_gap():
    summary = tournament_summary(["mcts", "random"], _sweep(200))
    mcts, rnd = summary["ratings"]
    assert mcts["high"] is None and mcts["low"] is not None
    assert rnd["low"] is None and rnd["high"] is not None
    (pair,) = summary["pairs"]
    assert pair["agents"] == ["mcts", "random"] and pair["games"] == 200
    assert pair["score"] == 1.0 and pair["interval"] == [0.9812, 1.0]  # Wilson, 200 of 200
    low_gap, high_gap = pair["elo_difference"]
    assert round(low_gap) == 687 and high_gap is None
    text = tournament_markdown("FFF", summary)
    assert f"| mcts | {mcts['elo']:.0f} | at least {mcts['low']:.0f} |" in text
    assert f"| random | {rnd['elo']:.0f} | at most {rnd['high']:.0f} |" in text
    assert "| mcts v random | 200 | 100.0% | 98.1% .. 100.0% | at least +687 |" in text


def test_pairings_score_from_the_first_named_agents_side_whatever_its_seat():
    """Three wins and a draw of four, two of them from the second seat: 87.5%."""
    games = [_game(0, ["a", "b"], 1.0), _game(1, ["b", "a"], 0.0),
             _game(2, ["a", "b"], 0.5), _game(3, ["b", "a"], 0.0)]
    (pair,) = tournament_summary(["a", "b"], games)["pairs"]
    assert pair["score"] == 0.875
    low, high = pair["interval"]
    assert low < 0.875 < high < 1.0
    low_gap, high_gap = pair["elo_difference"]
    assert low_gap < elo_difference(0.875) < high_gap


def test_endings_are_counted_by_kind_not_by_each_games_words():
    """Two turn-limit endings whose texts differ by their figures are one kind of ending."""
    games = [GameResult(k, "ctf2187", "", ["a", "b"], k, [0.5, 0.5], [],
                        f"turn limit; ratings A 0.{k}, B 0.{k}", 30, 0.0, {}, "turn_limit")
             for k in range(3)]
    games.append(GameResult(3, "ctf2187", "", ["a", "b"], 3, [1.0, 0.0], [0], "elimination",
                            12, 0.0, {}, "elimination"))
    summary = tournament_summary(["a", "b"], games)
    assert summary["endings"] == {"turn_limit": 3, "elimination": 1}
    assert "- Endings: elimination 1, turn limit 3" in tournament_markdown("T", summary)
